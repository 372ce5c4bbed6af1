//! What extensions put on the screen through `ctx.ui`: waiting dialogs,
//! footer status slots, text widgets above and below the editor, the
//! working message and indicator, the terminal title, their shortcuts and
//! command argument completions.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use indexmap::IndexMap;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::tui::chrome::dialog::ExtDialog;
use crate::tui::chrome::extension_ui::UiRequest;
use crate::ui_kit::ansi_line::ansi_line;
use crate::ui_kit::keybindings::KeyCombo;
use crate::ui_kit::text::truncate;
use crate::ui_kit::theme::Theme;

/// The dim `… N more lines` line closing a clipped widget.
pub fn more_lines(hidden: usize, width: usize) -> Line<'static> {
    let text = crate::lua::ui::surfaces::more_lines_text(hidden);
    Line::styled(
        truncate(&text, width, "…"),
        Style::default().add_modifier(Modifier::DIM),
    )
}

/// Where a widget sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Between the transcript and the editor.
    AboveEditor,
    /// Between the editor and the footer.
    BelowEditor,
}

/// Extension-driven screen state.
#[derive(Default)]
pub struct ExtensionChrome {
    /// Open dialogs; the first is shown, the rest wait their turn.
    pub dialogs: VecDeque<ExtDialog>,
    /// Footer status slots by key (shown sorted by key).
    pub statuses: BTreeMap<String, String>,
    /// Widgets by key, in the order first set.
    pub widgets: IndexMap<String, (Placement, Vec<String>, usize)>,
    /// Replaces "Working..." while a turn runs.
    pub working_message: Option<String>,
    /// Custom spinner frames and interval (empty frames: no spinner).
    pub indicator: Option<(Vec<String>, u64)>,
    /// The working line is hidden (`ctx.ui.setWorkingVisible(false)`).
    pub working_hidden: bool,
    /// Shown in place of a collapsed thinking block (`ctx.ui.setHiddenThinkingLabel`).
    pub hidden_thinking_label: Option<String>,
    /// A terminal title waiting to be written.
    pub title: Option<String>,
    /// Extension shortcuts: the key and its spec as registered.
    pub shortcuts: Vec<(KeyCombo, String)>,
    /// The extension host, for shortcuts and completions.
    pub handle: Option<crate::lua::ExtensionHandle>,
    /// Where tasks send their results back to the event loop.
    pub sender: Option<tokio::sync::mpsc::UnboundedSender<UiRequest>>,
    /// Argument completions and the editor text they belong to.
    pub arg_completions: Option<(String, Vec<(String, String)>)>,
    /// Editor text completions were last asked for.
    pub asked_for: Option<String>,
    /// Suggestions of the extensions' autocomplete providers for an editor state.
    pub provider_completions: Option<ProviderCompletions>,
    /// The shortcut registrations `shortcuts` was built from.
    pub shortcut_source: Vec<crate::lua::ShortcutInfo>,
}

/// What the extensions' autocomplete providers suggested for one editor state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProviderCompletions {
    /// The editor text and cursor (row, byte column) they were asked for.
    pub state: (String, usize, usize),
    /// The text before the cursor that a chosen item replaces.
    pub prefix: String,
    /// (value inserted, label shown, description).
    pub items: Vec<(String, String, String)>,
}

impl ExtensionChrome {
    /// Drop dialogs whose extension stopped waiting; `true` when one went.
    pub fn prune(&mut self) -> bool {
        let before = self.dialogs.len();
        self.dialogs.retain(|d| !d.is_closed());
        before != self.dialogs.len()
    }

    /// Something on screen changes with time (a countdown).
    pub fn ticking(&self) -> bool {
        !self.dialogs.is_empty()
    }

    /// Apply a `setStatus` / `setWidget` / working request; `false` for other methods.
    pub fn apply(&mut self, request: &serde_json::Value) -> bool {
        let s = |k: &str| request[k].as_str().map(str::to_string);
        match request["method"].as_str().unwrap_or_default() {
            "setStatus" => {
                let key = s("statusKey").unwrap_or_default();
                match s("statusText") {
                    Some(text) => self.statuses.insert(key, text),
                    None => self.statuses.remove(&key),
                };
            }
            "setWidget" => {
                let key = s("widgetKey").unwrap_or_default();
                // Lines the Lua component store draws are not drawn a second time here.
                if request["drawnByComponents"] == true {
                    self.widgets.shift_remove(&key);
                    return true;
                }
                let placement = match request["widgetPlacement"].as_str() {
                    Some("belowEditor") => Placement::BelowEditor,
                    _ => Placement::AboveEditor,
                };
                match request["widgetLines"].as_array() {
                    Some(lines) => {
                        let (kept, hidden) = crate::lua::ui::surfaces::clip_widget_lines(
                            lines.iter().filter_map(|l| l.as_str()),
                        );
                        self.widgets.insert(key, (placement, kept, hidden));
                    }
                    None => {
                        self.widgets.shift_remove(&key);
                    }
                }
            }
            "setWorkingMessage" => self.working_message = s("message"),
            "setWorkingVisible" => {
                self.working_hidden = request["visible"].as_bool() == Some(false);
            }
            "setHiddenThinkingLabel" => self.hidden_thinking_label = s("label"),
            "setWorkingIndicator" => {
                self.indicator = request["frames"].as_array().map(|f| {
                    let frames = f
                        .iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect();
                    (frames, request["intervalMs"].as_u64().unwrap_or(80))
                });
            }
            "setTitle" => self.title = s("title"),
            _ => return false,
        }
        true
    }

    /// Widget lines at `placement`, ANSI styles kept, cut to `width`; a
    /// widget longer than `MAX_WIDGET_LINES` ends with how many more it has.
    pub fn widget_lines(&self, placement: Placement, width: usize) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        for (_, lines, hidden) in self.widgets.values().filter(|(p, ..)| *p == placement) {
            out.extend(lines.iter().map(|l| {
                let shown = crate::i18n::core_hacks::display(l);
                ansi_line(&truncate(&shown, width, "…"), Default::default())
            }));
            if *hidden > 0 {
                out.push(more_lines(*hidden, width));
            }
        }
        out
    }

    /// The footer line of status slots, if any are set.
    pub fn status_line(&self, theme: &Theme, width: usize) -> Option<Line<'static>> {
        if self.statuses.is_empty() {
            return None;
        }
        let joined = self
            .statuses
            .values()
            .map(|t| crate::i18n::core_hacks::display(t).replace(['\n', '\r'], " "))
            .collect::<Vec<_>>()
            .join("  ");
        Some(ansi_line(&truncate(&joined, width, "…"), theme.fg("dim")))
    }

    /// The working line when an extension customised it.
    pub fn working_line(
        &self,
        elapsed: Duration,
        theme: &Theme,
        width: usize,
    ) -> Option<Line<'static>> {
        if self.working_message.is_none() && self.indicator.is_none() {
            return None;
        }
        let frame = match &self.indicator {
            Some((frames, _)) if frames.is_empty() => String::new(),
            Some((frames, interval)) => {
                let i = (elapsed.as_millis() / (*interval).max(1) as u128) as usize % frames.len();
                frames[i].clone()
            }
            None => {
                const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
                FRAMES[(elapsed.as_millis() / 80) as usize % FRAMES.len()].to_string()
            }
        };
        let message = self
            .working_message
            .clone()
            .unwrap_or_else(|| crate::t!("pi.tui.ext.working"));
        let mut spans = vec![Span::raw(" ")];
        if !frame.is_empty() {
            spans.push(Span::styled(frame, theme.fg("accent")));
            spans.push(Span::raw(" "));
        }
        let text = truncate(&message, width.saturating_sub(4), "…");
        spans.extend(ansi_line(&text, theme.fg("muted")).spans);
        Some(Line::from(spans))
    }

    /// When the countdown next needs a redraw.
    pub fn next_tick(&self, now: Instant) -> Option<Instant> {
        self.ticking().then(|| now + Duration::from_millis(250))
    }
}
