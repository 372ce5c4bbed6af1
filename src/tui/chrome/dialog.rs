//! Extension dialogs in the terminal UI (`ctx.ui.select`, `confirm`,
//! `input`, `editor`): drawn in place of the editor, with the seconds left in
//! the title when the extension gave a `timeout`. Enter answers, Esc
//! cancels; the answer goes back to the waiting extension.

use crate::t;

use std::time::{Duration, Instant};

use crossterm::event::KeyEvent;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::tui::editor::{Editor, EditorOutcome};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{sanitize, truncate};
use crate::ui_kit::theme::Theme;

/// What kind of answer a dialog collects.
#[derive(Debug)]
pub enum DialogKind {
    /// Pick one of `options` (`confirm` is Yes/No).
    Select {
        /// The choices.
        options: Vec<String>,
        /// Highlighted row.
        selected: usize,
        /// Answer `{confirmed}` instead of `{value}`.
        confirm: bool,
    },
    /// One line of text (`placeholder` shown while empty).
    Input {
        /// The text typed so far.
        editor: Editor,
        /// Hint shown while empty.
        placeholder: String,
    },
    /// Several lines of text; Enter submits, Shift+Enter adds a line.
    Editor(Editor),
}

/// One open extension dialog.
#[derive(Debug)]
pub struct ExtDialog {
    /// Title (its first line is the heading).
    pub title: String,
    /// The dialog's body.
    pub kind: DialogKind,
    deadline: Option<Instant>,
    closed: CancellationToken,
    answer: Option<oneshot::Sender<Value>>,
}

/// What a key did to a dialog.
#[derive(Debug, PartialEq, Eq)]
pub enum DialogOutcome {
    /// Still open.
    Open,
    /// Answered or cancelled: take it down.
    Done,
}

impl ExtDialog {
    /// A dialog for pi's `extension_ui_request` `request` (`method` select,
    /// confirm, input or editor); `None` for other methods.
    pub fn from_request(
        request: &Value,
        closed: CancellationToken,
        answer: oneshot::Sender<Value>,
    ) -> Option<ExtDialog> {
        let text = |k: &str| request[k].as_str().unwrap_or_default().to_string();
        let (title, kind) = match request["method"].as_str()? {
            "select" => {
                let options = request["options"]
                    .as_array()
                    .map(|o| {
                        o.iter()
                            .filter_map(|v| v.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                (
                    text("title"),
                    DialogKind::Select {
                        options,
                        selected: 0,
                        confirm: false,
                    },
                )
            }
            "confirm" => (
                format!("{}\n{}", text("title"), text("message")),
                DialogKind::Select {
                    options: vec![t!("pi.tui.ext.dialog.yes"), t!("pi.tui.ext.dialog.no")],
                    selected: 0,
                    confirm: true,
                },
            ),
            "input" => (
                text("title"),
                DialogKind::Input {
                    editor: Editor::single_line(),
                    placeholder: text("placeholder"),
                },
            ),
            "editor" => {
                let mut editor = Editor::new();
                editor.set_text(&text("prefill"));
                (text("title"), DialogKind::Editor(editor))
            }
            _ => return None,
        };
        let deadline = request["timeout"]
            .as_u64()
            .map(|ms| Instant::now() + Duration::from_millis(ms));
        Some(ExtDialog {
            title,
            kind,
            deadline,
            closed,
            answer: Some(answer),
        })
    }

    /// The extension stopped waiting (timeout, abort) or went away.
    pub fn is_closed(&self) -> bool {
        self.closed.is_cancelled() || self.answer.as_ref().is_none_or(|a| a.is_closed())
    }

    /// Whole seconds left before the timeout, if there is one.
    pub fn seconds_left(&self, now: Instant) -> Option<u64> {
        self.deadline
            .map(|d| d.saturating_duration_since(now).as_millis().div_ceil(1000) as u64)
    }

    fn reply(&mut self, value: Value) -> DialogOutcome {
        if let Some(answer) = self.answer.take() {
            let _ = answer.send(value);
        }
        DialogOutcome::Done
    }

    /// Handle a key.
    pub fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> DialogOutcome {
        if kb.matches("tui.select.cancel", key) {
            return self.reply(json!({"cancelled": true}));
        }
        match &mut self.kind {
            DialogKind::Select {
                options,
                selected,
                confirm,
            } => {
                let n = options.len();
                if kb.matches("tui.select.up", key)
                    || key.code == crossterm::event::KeyCode::Char('k')
                {
                    *selected = selected.saturating_sub(1);
                } else if kb.matches("tui.select.down", key)
                    || key.code == crossterm::event::KeyCode::Char('j')
                {
                    *selected = (*selected + 1).min(n.saturating_sub(1));
                } else if kb.matches("tui.select.confirm", key) && n > 0 {
                    let value = if *confirm {
                        json!({"confirmed": *selected == 0})
                    } else {
                        json!({"value": options[*selected]})
                    };
                    return self.reply(value);
                }
                DialogOutcome::Open
            }
            DialogKind::Input { editor, .. } | DialogKind::Editor(editor) => {
                if let EditorOutcome::Submit(value) = editor.handle_key(key, kb) {
                    return self.reply(json!({"value": value}));
                }
                DialogOutcome::Open
            }
        }
    }

    /// Add pasted text to a text dialog.
    pub fn paste(&mut self, text: &str) {
        if let DialogKind::Input { editor, .. } | DialogKind::Editor(editor) = &mut self.kind {
            editor.paste(text);
        }
    }

    /// Lines to draw at `width` columns and the cursor (column, row) for text dialogs.
    pub fn lines(
        &self,
        theme: &Theme,
        kb: &Keybindings,
        width: usize,
        now: Instant,
    ) -> (Vec<Line<'static>>, Option<(usize, usize)>) {
        let heading = theme.fg("accent").add_modifier(Modifier::BOLD);
        let mut title_lines: Vec<String> =
            sanitize(&self.title).lines().map(String::from).collect();
        if title_lines.is_empty() {
            title_lines.push(String::new());
        }
        if let Some(s) = self.seconds_left(now) {
            title_lines[0] = format!("{} ({s}s)", title_lines[0]);
        }
        let mut lines: Vec<Line<'static>> = Vec::new();
        for (i, t) in title_lines.iter().enumerate() {
            let style = if i == 0 { heading } else { theme.fg("text") };
            lines.push(Line::from(Span::styled(
                truncate(&format!(" {t}"), width, "…"),
                style,
            )));
        }
        lines.push(Line::default());
        let mut cursor = None;
        let hint = match &self.kind {
            DialogKind::Select {
                options, selected, ..
            } => {
                for (i, option) in options.iter().enumerate() {
                    let line = if i == *selected {
                        Span::styled(
                            truncate(&format!(" → {option}"), width, "…"),
                            theme.fg("accent"),
                        )
                    } else {
                        Span::styled(
                            truncate(&format!("   {option}"), width, "…"),
                            theme.fg("text"),
                        )
                    };
                    lines.push(Line::from(line));
                }
                t!(
                    "pi.tui.ext.dialog.select_hint",
                    confirm = kb.keys_text("tui.select.confirm"),
                    cancel = kb.keys_text("tui.select.cancel")
                )
            }
            DialogKind::Input {
                editor,
                placeholder,
            } => {
                let (rows, (cx, cy)) = editor.layout(width.saturating_sub(2));
                if editor.is_empty() && !placeholder.is_empty() {
                    lines.push(Line::from(Span::styled(
                        truncate(&format!(" {placeholder}"), width, "…"),
                        theme.fg("dim"),
                    )));
                } else {
                    lines.extend(rows.iter().map(|r| Line::from(format!(" {r}"))));
                }
                cursor = Some((cx + 1, title_lines.len() + 1 + cy));
                t!(
                    "pi.tui.ext.dialog.input_hint",
                    submit = kb.keys_text("tui.input.submit"),
                    cancel = kb.keys_text("tui.select.cancel")
                )
            }
            DialogKind::Editor(editor) => {
                let (rows, (cx, cy)) = editor.layout(width.saturating_sub(2));
                lines.extend(rows.iter().map(|r| Line::from(format!(" {r}"))));
                cursor = Some((cx + 1, title_lines.len() + 1 + cy));
                t!(
                    "pi.tui.ext.dialog.editor_hint",
                    submit = kb.keys_text("tui.input.submit"),
                    newline = kb.keys_text("tui.input.newLine"),
                    cancel = kb.keys_text("tui.select.cancel")
                )
            }
        };
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            truncate(&format!(" {hint}"), width, "…"),
            theme.fg("dim"),
        )));
        (lines, cursor)
    }
}
