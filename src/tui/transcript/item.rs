//! The blocks a transcript is made of: messages, tool calls, summaries and pi's own
//! notices.

use std::time::{Duration, Instant};

use serde_json::Value;

/// How a notice is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    /// Neutral information.
    Info,
    /// Something the user should know.
    Warning,
    /// A failure.
    Error,
}

/// One tool call and its result.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolRow {
    /// Tool call id.
    pub id: String,
    /// Tool name (`bash`, `read`, ...).
    pub name: String,
    /// Call arguments.
    pub args: Value,
    /// Output text so far (final once `done`).
    pub output: String,
    /// Result details (diffs, exit codes) when the tool gave them.
    pub details: Option<Value>,
    /// The tool reported an error.
    pub is_error: bool,
    /// The tool finished.
    pub done: bool,
    /// How long it ran, once done and when measured live.
    pub duration: Option<Duration>,
    /// When it started (live runs only).
    pub started: Option<Instant>,
    /// Lines drawn by the tool's Lua renderers.
    pub custom: Option<crate::tui::chrome::lua_surfaces::CustomToolLines>,
}

/// One block of the transcript.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A message the user sent.
    User {
        /// Message text.
        text: String,
    },
    /// A model answer.
    Assistant {
        /// Visible text.
        text: String,
        /// Reasoning text.
        thinking: String,
        /// Still arriving.
        streaming: bool,
        /// Error message, when the answer failed.
        error: Option<String>,
        /// The user aborted it.
        aborted: bool,
    },
    /// A tool call.
    Tool(ToolRow),
    /// A compaction or branch summary (expandable).
    Summary {
        /// Tokens before compaction for a compaction summary; `None` for a branch summary.
        /// The heading is translated when drawn.
        tokens_before: Option<u64>,
        /// The summary (markdown).
        text: String,
    },
    /// A message an extension sent with `display = true`.
    Custom {
        /// Its `customType`.
        custom_type: String,
        /// Text content.
        text: String,
        /// The whole message as JSON (for Lua renderers).
        message: Value,
        /// Lines its `registerMessageRenderer` function drew.
        lines: Option<Vec<ratatui::text::Line<'static>>>,
    },
    /// A status line from pi itself.
    Notice {
        /// Text.
        text: String,
        /// Colour.
        kind: NoticeKind,
    },
    /// Help text from pi itself (`/hotkeys`), drawn as markdown.
    Help {
        /// Markdown.
        text: String,
    },
    /// A retried request: its latest failure and the countdown, then the outcome.
    Retry(super::retry_rows::RetryRow),
    /// A notification from an extension: the extension's own text, re-worded by core
    /// hacks each time it is drawn (so turning a hack off shows the original again).
    ExtensionNotice {
        /// The extension's text, unchanged.
        text: String,
        /// Colour.
        kind: NoticeKind,
    },
}

impl Item {
    /// The item will not change any more (the answer or tool call is over),
    /// so it can be written to the terminal's scrollback.
    pub fn is_settled(&self) -> bool {
        match self {
            Item::Assistant { streaming, .. } => !streaming,
            Item::Tool(row) => row.done,
            Item::Retry(row) => row.is_settled(),
            _ => true,
        }
    }
}
