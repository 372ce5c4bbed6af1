//! The `/extensions` panel: one row per extension (status, source, load time, memory)
//! and, for the highlighted one, its path, last error and handler times. Up and down
//! move, Escape or Enter closes.

use crossterm::event::KeyEvent;
use ratatui::text::{Line, Span};

use crate::lua::profile::{ExtStatus, ExtensionProfile, Profile, human_bytes};
use crate::t;
use crate::tui::panels::{Panel, PanelOutcome};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::truncate;
use crate::ui_kit::theme::Theme;

/// Extension rows shown at once.
const VISIBLE: usize = 10;

/// Handler rows shown for the highlighted extension.
const HANDLERS: usize = 8;

/// One extension as the panel shows it.
#[derive(Debug, Clone)]
pub struct ExtensionRow {
    /// The measured profile.
    pub profile: ExtensionProfile,
    /// Where it was found: `user`, `project`, `package` or `path`, translated.
    pub source: String,
    /// Its path as shown (`~` for the home folder).
    pub shown_path: String,
}

/// The panel.
pub struct ExtensionsPanel {
    rows: Vec<ExtensionRow>,
    vm_memory: usize,
    selected: usize,
}

/// The status word of an extension, translated.
pub fn status_label(status: ExtStatus) -> String {
    match status {
        ExtStatus::Loaded => t!("pi.extensions.status.loaded"),
        ExtStatus::Lazy => t!("pi.extensions.status.lazy"),
        ExtStatus::Error => t!("pi.extensions.status.error"),
    }
}

/// A millisecond figure as the panel prints it.
pub fn ms(value: f64) -> String {
    format!("{value:.1} ms")
}

/// The summary row of one extension (name, status, source, load time, memory).
pub fn summary(row: &ExtensionRow) -> String {
    let p = &row.profile;
    let name = crate::tui::chrome::extension_label(&p.path);
    let mut status = status_label(p.status);
    if p.lazy && p.status == ExtStatus::Loaded {
        status = t!("pi.extensions.status.lazy_loaded", status = status);
    }
    t!(
        "pi.extensions.row",
        name = name,
        status = status,
        source = row.source.as_str(),
        load = ms(p.load_ms),
        memory = human_bytes(p.memory_bytes)
    )
}

/// The detail lines of one extension: path, last error, handler times.
pub fn details(row: &ExtensionRow, limit: usize) -> Vec<String> {
    let p = &row.profile;
    let mut out = vec![row.shown_path.clone()];
    if let Some(error) = &p.last_error {
        let first = error.lines().next().unwrap_or_default();
        out.push(t!("pi.extensions.last_error", error = first));
    }
    if p.handlers.is_empty() {
        out.push(t!("pi.extensions.no_handlers"));
    }
    for h in p.handlers.iter().take(limit) {
        out.push(t!(
            "pi.extensions.handler",
            name = h.name.as_str(),
            count = h.count.to_string(),
            total = ms(h.total_ms),
            max = ms(h.max_ms)
        ));
    }
    if p.handlers.len() > limit {
        out.push(t!(
            "pi.extensions.more_handlers",
            count = (p.handlers.len() - limit).to_string()
        ));
    }
    out
}

impl ExtensionsPanel {
    /// The panel over `rows`; `profile` gives the VM's memory.
    pub fn new(rows: Vec<ExtensionRow>, profile: &Profile) -> Self {
        ExtensionsPanel {
            rows,
            vm_memory: profile.vm_memory_bytes,
            selected: 0,
        }
    }
}

impl Panel for ExtensionsPanel {
    fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
        let n = self.rows.len();
        if kb.matches("tui.select.cancel", key) || kb.matches("tui.select.confirm", key) {
            return PanelOutcome::Closed;
        }
        if kb.matches("tui.select.up", key) && n > 0 {
            self.selected = (self.selected + n - 1) % n;
        } else if kb.matches("tui.select.down", key) && n > 0 {
            self.selected = (self.selected + 1) % n;
        } else if kb.matches("tui.select.pageUp", key) {
            self.selected = self.selected.saturating_sub(VISIBLE);
        } else if kb.matches("tui.select.pageDown", key) && n > 0 {
            self.selected = (self.selected + VISIBLE).min(n - 1);
        }
        PanelOutcome::Open
    }

    fn lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let max = width.max(10);
        let cut = |s: &str| truncate(s, max, "…");
        let loaded = self
            .rows
            .iter()
            .filter(|r| r.profile.status == ExtStatus::Loaded)
            .count();
        let mut lines = vec![Line::from(Span::styled(
            cut(&t!(
                "pi.extensions.title",
                count = self.rows.len().to_string(),
                loaded = loaded.to_string(),
                memory = human_bytes(self.vm_memory)
            )),
            theme.bold("accent"),
        ))];
        if self.rows.is_empty() {
            lines.push(Line::from(Span::styled(
                cut(&t!("pi.extensions.none")),
                theme.fg("muted"),
            )));
        }
        let start = self
            .selected
            .saturating_sub(VISIBLE / 2)
            .min(self.rows.len().saturating_sub(VISIBLE));
        for (i, row) in self.rows.iter().enumerate().skip(start).take(VISIBLE) {
            let marker = if i == self.selected { "→ " } else { "  " };
            let text = cut(&format!("{marker}{}", summary(row)));
            let style = match (i == self.selected, row.profile.status) {
                (_, ExtStatus::Error) => theme.fg("error"),
                (true, _) => theme.fg("accent"),
                (false, ExtStatus::Lazy) => theme.fg("muted"),
                (false, _) => theme.fg("text"),
            };
            lines.push(Line::from(Span::styled(text, style)));
        }
        if let Some(row) = self.rows.get(self.selected) {
            lines.push(Line::from(""));
            for detail in details(row, HANDLERS) {
                lines.push(Line::from(Span::styled(
                    cut(&format!("  {detail}")),
                    theme.fg("dim"),
                )));
            }
        }
        lines.push(Line::from(Span::styled(
            cut(&t!("pi.extensions.hint")),
            theme.fg("dim"),
        )));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lua::profile::HandlerProfile;
    use crossterm::event::{KeyCode, KeyModifiers};
    use std::path::PathBuf;

    fn row(name: &str, status: ExtStatus, handlers: Vec<HandlerProfile>) -> ExtensionRow {
        ExtensionRow {
            profile: ExtensionProfile {
                path: PathBuf::from(format!("/x/{name}.lua")),
                status,
                lazy: status == ExtStatus::Lazy,
                last_error: (status == ExtStatus::Error).then(|| "boom.lua:3: bad".to_string()),
                load_ms: 1.25,
                memory_bytes: 2048,
                handlers,
            },
            source: "user".into(),
            shown_path: format!("~/x/{name}.lua"),
        }
    }

    fn text(panel: &ExtensionsPanel) -> String {
        panel
            .lines(&Theme::plain(), 100)
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn press(panel: &mut ExtensionsPanel, code: KeyCode) -> PanelOutcome {
        panel.handle_key(
            &KeyEvent::new(code, KeyModifiers::NONE),
            &Keybindings::default(),
        )
    }

    #[test]
    fn shows_rows_and_the_highlighted_extensions_handler_times() {
        let timed = vec![HandlerProfile {
            name: "turn_start".into(),
            count: 3,
            total_ms: 90.5,
            max_ms: 31.0,
        }];
        let rows = vec![
            row("alpha", ExtStatus::Loaded, timed),
            row("beta", ExtStatus::Error, Vec::new()),
        ];
        let mut panel = ExtensionsPanel::new(rows, &Profile::default());
        let shown = text(&panel);
        assert!(shown.contains("alpha.lua"), "{shown}");
        assert!(
            shown.contains("1.2 ms") || shown.contains("1.3 ms"),
            "{shown}"
        );
        assert!(shown.contains("2.0 KiB"), "{shown}");
        assert!(shown.contains("turn_start"), "{shown}");
        assert!(
            shown.contains("90.5 ms") && shown.contains("31.0 ms"),
            "{shown}"
        );
        assert!(!shown.contains("boom.lua"), "{shown}");
        assert_eq!(press(&mut panel, KeyCode::Down), PanelOutcome::Open);
        let shown = text(&panel);
        assert!(shown.contains("boom.lua:3: bad"), "{shown}");
        assert!(!shown.contains("90.5 ms"), "{shown}");
        assert_eq!(press(&mut panel, KeyCode::Esc), PanelOutcome::Closed);
    }
}
