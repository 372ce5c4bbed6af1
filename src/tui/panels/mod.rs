//! Interactive lists shown in place of the editor that are more than a
//! pick-one selector (`/settings`, `/scoped-models`): each reports the
//! changes it makes and the app applies them.

pub mod extensions;
pub mod fork_selector;
pub mod lang;
pub mod login;
pub mod scoped_models;
pub mod selector;
pub mod session;
pub mod session_search;
pub mod settings;
pub mod settings_defs;
pub mod tree_guides;
pub mod tree_rows;
#[cfg(test)]
mod tree_rows_tests;
pub mod tree_selector;
pub mod tree_view;
#[cfg(test)]
mod tree_view_tests;

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::text::Line;

use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

/// A change made in a panel, applied by the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PanelChange {
    /// A `/settings` entry got a new value (entry id, value as shown).
    Setting {
        /// Entry id, e.g. `quiet-startup`.
        id: &'static str,
        /// The new value, e.g. `true` or `one-at-a-time`.
        value: String,
    },
    /// Show this theme without saving it (moving through `/settings`' theme list;
    /// Escape sends the theme from before).
    PreviewTheme(String),
    /// The models Ctrl+P cycles through (`provider/id`; `None` = all).
    ScopedModels(Option<Vec<String>>),
    /// Save the scoped models as settings `enabledModels` (`None` removes it).
    SaveScopedModels(Option<Vec<String>>),
    /// Continue this session (its working directory from the header).
    ResumeSession {
        /// The session file.
        path: PathBuf,
        /// The session's working directory.
        cwd: String,
    },
    /// Give this session file a new display name.
    RenameSession(PathBuf, String),
    /// Delete this session file.
    DeleteSession(PathBuf),
    /// Switch to this locale tag (`/lang` picker).
    Locale(String),
}

/// What a key did to a panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PanelOutcome {
    /// Still open, nothing to apply.
    Open,
    /// Still open; apply this change.
    Changed(PanelChange),
    /// Closed.
    Closed,
    /// Closed; apply this change.
    Done(PanelChange),
}

/// A list panel drawn in place of the editor.
pub trait Panel {
    /// Handle a key.
    fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome;
    /// Lines to draw at `width` columns.
    fn lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>>;
    /// Take in what work running in the background has delivered since the last call;
    /// true when there is something new to draw.
    fn poll(&mut self) -> bool {
        false
    }
    /// True while work in the background is still delivering (the app polls meanwhile).
    fn loading(&self) -> bool {
        false
    }
}

/// Type into a selector's filter: Backspace takes the last character off `query`, a
/// character typed without Ctrl or Alt is added. True when `key` was one of those.
pub fn edit_filter(query: &mut String, key: &KeyEvent) -> bool {
    match key.code {
        KeyCode::Backspace => {
            query.pop();
            true
        }
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            query.push(c);
            true
        }
        _ => false,
    }
}
