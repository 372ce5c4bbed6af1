//! Screen snapshots: the real TUI view drawn headless at a chosen size from what the
//! test's session did (agent events, `ctx.ui` chrome, key presses), compared with a text
//! file stored next to the test.

use std::path::{Path, PathBuf};

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::agent::agent_loop::AgentQueues;
use crate::tui::app::App;
use crate::tui::app::session_task::UiEvent;
use crate::tui::chrome::FooterInfo;
use crate::tui::chrome::extension_ui::UiRequest;
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

use super::recorder::Feed;

/// The screen `feed` leads to at `width`×`height`, one line per row, trailing blanks
/// removed (plain theme: text only).
pub fn render(feed: &[Feed], width: u16, height: u16) -> String {
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let footer = FooterInfo {
        cwd: PathBuf::from("~/project"),
        model_id: "faux-1".into(),
        provider: "faux".into(),
        thinking: "off".into(),
        context_window: 128_000,
        ..FooterInfo::default()
    };
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        footer,
    );
    // No start-up header: it names pi's version, which would change every snapshot.
    app.quiet_startup = true;
    for item in feed {
        match item {
            Feed::Agent(event) => app.handle_ui_event(UiEvent::Agent(event.clone())),
            Feed::Ui(request) => app.handle_extension_request(UiRequest::Fire(request.clone())),
            Feed::Key(key) => app.handle_terminal_event(crossterm::event::Event::Key(*key)),
        }
    }
    let Ok(mut terminal) = Terminal::new(TestBackend::new(width, height));
    if terminal
        .draw(|f| crate::tui::view::draw(f, &mut app))
        .is_err()
    {
        return String::new();
    }
    let buffer = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..height {
        let mut row = String::new();
        let mut skip = 0;
        for x in 0..width {
            let symbol = buffer[(x, y)].symbol();
            if skip > 0 {
                skip -= 1;
                continue;
            }
            skip = ratatui::buffer::CellWidth::cell_width(symbol).saturating_sub(1) as usize;
            row.push_str(symbol);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// Where the snapshot `name` of the test file `test` is stored:
/// `<folder>/snapshots/<test file stem>-<name>.txt`.
pub fn snapshot_path(test: &Path, name: &str) -> PathBuf {
    let stem = test
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    test.parent()
        .unwrap_or(Path::new("."))
        .join("snapshots")
        .join(format!("{stem}-{safe}.txt"))
}

/// How a snapshot compared with its stored file.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Same as stored.
    Same,
    /// No file yet (or `--update`): written.
    Written(PathBuf),
    /// Different: a line diff, stored (`-`) against drawn (`+`).
    Different(String),
}

/// Compare `screen` with the file at `path`; write it when missing or when `update`.
pub fn check(path: &Path, screen: &str, update: bool) -> std::io::Result<Verdict> {
    match std::fs::read_to_string(path) {
        Ok(stored) if stored == screen => Ok(Verdict::Same),
        Ok(stored) if !update => Ok(Verdict::Different(line_diff(&stored, screen))),
        _ => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(path, screen)?;
            Ok(Verdict::Written(path.to_path_buf()))
        }
    }
}

/// A compact line diff of `expected` against `actual`: changed lines with `-`/`+`, one
/// line of context either side, `…` between distant changes.
pub fn line_diff(expected: &str, actual: &str) -> String {
    let diff = similar::TextDiff::from_lines(expected, actual);
    let mut out = String::new();
    for (i, group) in diff.grouped_ops(1).iter().enumerate() {
        if i > 0 {
            out.push_str("  …\n");
        }
        for op in group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    similar::ChangeTag::Delete => "- ",
                    similar::ChangeTag::Insert => "+ ",
                    similar::ChangeTag::Equal => "  ",
                };
                out.push_str(sign);
                out.push_str(change.value().trim_end_matches('\n'));
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_snapshot_is_written_a_changed_one_is_a_diff_and_update_accepts_it() {
        let dir = std::env::temp_dir().join(format!("pi-screen-test-{}", std::process::id()));
        let path = snapshot_path(&dir.join("hello_test.lua"), "after greeting");
        assert!(path.ends_with("snapshots/hello_test-after_greeting.txt"));
        assert_eq!(
            check(&path, "a\nb\n", false).unwrap(),
            Verdict::Written(path.clone())
        );
        assert_eq!(check(&path, "a\nb\n", false).unwrap(), Verdict::Same);
        let Verdict::Different(diff) = check(&path, "a\nc\n", false).unwrap() else {
            panic!("expected a difference");
        };
        assert_eq!(diff, "  a\n- b\n+ c\n");
        assert!(matches!(
            check(&path, "a\nc\n", true).unwrap(),
            Verdict::Written(_)
        ));
        assert_eq!(check(&path, "a\nc\n", false).unwrap(), Verdict::Same);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_notification_from_an_extension_is_on_the_screen() {
        let feed = vec![Feed::Ui(serde_json::json!({
            "method": "notify", "message": "Hello from the test", "notifyType": "info"
        }))];
        let screen = render(&feed, 60, 12);
        assert_eq!(screen.lines().count(), 12);
        assert!(screen.contains("Hello from the test"), "{screen}");
        assert!(!render(&[], 60, 12).contains("Hello from the test"));
    }
}
