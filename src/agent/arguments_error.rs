//! Why a tool call's arguments were refused, as facts. The text is the model's to read, so
//! it stays in English whatever the user's language (pi 0.73.1's wording).

use std::fmt;

/// A tool call whose arguments do not fit the tool's schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgumentsError {
    /// The tool's own schema does not compile.
    InvalidSchema {
        /// The tool.
        tool: String,
        /// The compiler's description.
        detail: String,
    },
    /// The arguments break the schema.
    Invalid {
        /// The tool.
        tool: String,
        /// Each problem: the property's path and what is wrong.
        problems: Vec<(String, String)>,
        /// The arguments as received, pretty-printed.
        received: String,
    },
    /// The arguments text is not a JSON object.
    NotAnObject {
        /// The tool.
        tool: String,
        /// What it is instead (`a JSON array`, `text that is not JSON`).
        found: &'static str,
        /// The text as received.
        received: String,
    },
}

/// A schema the validator cannot compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The compiler's description.
    pub detail: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for SchemaError {}

impl fmt::Display for ArgumentsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgumentsError::InvalidSchema { tool, detail } => {
                write!(f, "Invalid schema for tool \"{tool}\": {detail}")
            }
            ArgumentsError::Invalid {
                tool,
                problems,
                received,
            } => {
                writeln!(f, "Validation failed for tool \"{tool}\":")?;
                for (path, problem) in problems {
                    writeln!(f, "  - {path}: {problem}")?;
                }
                write!(f, "\nReceived arguments:\n{received}")
            }
            ArgumentsError::NotAnObject {
                tool,
                found,
                received,
            } => write!(
                f,
                "Validation failed for tool \"{tool}\":\n  - root: the arguments must be a JSON object, not {found}\n\nReceived arguments:\n{received}"
            ),
        }
    }
}

impl std::error::Error for ArgumentsError {}
