//! "What's new" once after an update: the sections of CHANGELOG.md newer than
//! the version last seen (settings `lastChangelogVersion`, as pi names it).

use crate::t;

use serde_json::Value;

use crate::tui::app::App;
use crate::tui::app::settings::CHANGELOG;
use crate::tui::transcript::NoticeKind;

/// Setting holding the last version whose changes were shown.
const LAST_SEEN: &str = "lastChangelogVersion";

fn parse_version(text: &str) -> Option<(u64, u64, u64)> {
    let mut parts = text.trim().trim_start_matches('v').split('.');
    let mut next = || parts.next()?.trim().parse::<u64>().ok();
    Some((next()?, next()?, next().unwrap_or(0)))
}

/// The `## [x.y.z]` sections of `changelog` newer than `last`, headings included.
pub fn changes_since(changelog: &str, last: &str) -> String {
    let Some(last) = parse_version(last) else {
        return String::new();
    };
    let mut out: Vec<&str> = Vec::new();
    let mut keep = false;
    for line in changelog.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            let version = heading
                .trim_start_matches('[')
                .split([']', ' '])
                .next()
                .and_then(parse_version);
            keep = version.is_some_and(|v| v > last);
        }
        if keep {
            out.push(line);
        }
    }
    out.join("\n").trim().to_string()
}

impl App {
    /// Show what changed since the version last seen, once; a first start only
    /// records the version, and a continued conversation shows nothing.
    pub fn show_whats_new(&mut self, has_messages: bool) {
        if has_messages {
            return;
        }
        let version = env!("CARGO_PKG_VERSION");
        let settings = &mut self.ui_settings.settings;
        let last = settings
            .get(LAST_SEEN)
            .and_then(Value::as_str)
            .map(str::to_string);
        let changes = match &last {
            None => String::new(),
            Some(last) => changes_since(CHANGELOG, last),
        };
        if last.is_some() && changes.is_empty() {
            return;
        }
        // Failing to save only means the note shows again next time.
        let _ = settings.set_global(LAST_SEEN, Value::String(version.to_string()));
        if changes.is_empty() {
            return;
        }
        // `collapseChangelog`: one line naming the newest version instead of the entries.
        let text = if settings.collapse_changelog() {
            let newest = changes
                .lines()
                .find_map(|l| l.strip_prefix("## "))
                .map(|h| {
                    h.trim_start_matches('[')
                        .split([']', ' '])
                        .next()
                        .unwrap_or(version)
                })
                .unwrap_or(version);
            t!("pi.tui.whats_new_collapsed", version = newest)
        } else {
            format!("{}\n\n{changes}", t!("pi.tui.whats_new", version = version))
        };
        self.transcript.notice(text, NoticeKind::Info);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "# Changelog\n\n## [0.3.0]\n\n- Third\n\n## [0.2.1] - 2026-01-02\n\n- Fix\n\n## [0.2.0]\n\n- Second\n";

    #[test]
    fn only_newer_sections_are_kept() {
        let new = changes_since(LOG, "0.2.0");
        assert!(new.contains("- Third") && new.contains("- Fix"), "{new}");
        assert!(!new.contains("- Second"), "{new}");
        assert_eq!(changes_since(LOG, "0.3.0"), "");
        assert_eq!(changes_since(LOG, "garbage"), "");
    }

    #[test]
    fn shown_once_after_an_update_and_never_on_a_first_start() {
        let agent = tempfile::tempdir().unwrap();
        let cwd = tempfile::tempdir().unwrap();
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let mut app = App::new(
            tx,
            Default::default(),
            Default::default(),
            crate::ui_kit::theme::Theme::plain(),
            Default::default(),
        );
        let load = || crate::config::settings::Settings::load(agent.path(), cwd.path()).0;
        app.ui_settings.settings = load();
        app.show_whats_new(false);
        assert!(
            app.transcript.items.is_empty(),
            "first start: nothing shown"
        );
        assert_eq!(
            load().get(LAST_SEEN).and_then(Value::as_str),
            Some(env!("CARGO_PKG_VERSION"))
        );
        app.ui_settings
            .settings
            .set_global(LAST_SEEN, Value::String("0.0.1".into()))
            .unwrap();
        app.show_whats_new(false);
        let shown = format!("{:?}", app.transcript.items);
        assert!(shown.contains("## ["), "{shown}");
        app.transcript.items.clear();
        app.show_whats_new(false);
        assert!(app.transcript.items.is_empty(), "shown once");
    }

    #[test]
    fn collapse_changelog_shows_one_line_instead_of_the_entries() {
        let agent = tempfile::tempdir().unwrap();
        let cwd = tempfile::tempdir().unwrap();
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let mut app = App::new(
            tx,
            Default::default(),
            Default::default(),
            crate::ui_kit::theme::Theme::plain(),
            Default::default(),
        );
        app.ui_settings.settings =
            crate::config::settings::Settings::load(agent.path(), cwd.path()).0;
        let settings = &mut app.ui_settings.settings;
        settings
            .set_global(LAST_SEEN, Value::String("0.0.1".into()))
            .unwrap();
        settings
            .set_global("collapseChangelog", Value::Bool(true))
            .unwrap();
        app.show_whats_new(false);
        let shown = format!("{:?}", app.transcript.items);
        assert!(shown.contains("/changelog"), "{shown}");
        assert!(!shown.contains("## ["), "{shown}");
    }
}
