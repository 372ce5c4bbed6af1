//! Why a summary (of older messages or of an abandoned branch) was not made, as facts.
//! The words come from the locale packs.

use crate::ai::auth_error::RequestAuthError;
use crate::t;

/// One summarization request that gave no summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SummaryError {
    /// It was aborted.
    Aborted,
    /// No credentials for the model.
    Auth(RequestAuthError),
    /// The model's request failed; `message` is the provider's error as recorded.
    Model {
        /// The error message of the reply.
        message: Option<String>,
    },
}

impl std::fmt::Display for SummaryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            SummaryError::Aborted => t!("pi.compaction.error.aborted"),
            SummaryError::Auth(e) => e.to_string(),
            SummaryError::Model { message: Some(m) } => m.clone(),
            SummaryError::Model { message: None } => t!("pi.compaction.error.unknown"),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for SummaryError {}

/// Which part of a compaction summary failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryPart {
    /// The history before the cut.
    History,
    /// The start of a turn split by the cut.
    TurnPrefix,
}

/// A compaction that did not happen (the session is unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompactionError {
    /// Nothing to compact: the session is empty or was just compacted.
    Nothing,
    /// An extension or the user cancelled it.
    Cancelled,
    /// The summary could not be made.
    Summary {
        /// Which part.
        part: SummaryPart,
        /// Why.
        cause: SummaryError,
    },
}

impl std::fmt::Display for CompactionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            CompactionError::Nothing => t!("pi.cmd.compact.nothing"),
            CompactionError::Cancelled => t!("pi.compaction.error.cancelled"),
            CompactionError::Summary {
                part: SummaryPart::History,
                cause,
            } => t!("pi.compaction.error.summary", error = cause.to_string()),
            CompactionError::Summary {
                part: SummaryPart::TurnPrefix,
                cause,
            } => t!("pi.compaction.error.turn_prefix", error = cause.to_string()),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for CompactionError {}
