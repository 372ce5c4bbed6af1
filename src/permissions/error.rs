//! Why a bash command could not be split into the commands it runs, and why a permission
//! rule's pattern is refused, as facts worded by the locale packs.

use crate::t;

/// A bash command pi cannot judge command by command (it asks about the whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitError {
    /// Scripts inside scripts go deeper than pi follows.
    TooDeep,
    /// A command runs inside an arithmetic expression.
    ArithmeticCommand,
    /// A command runs inside a parameter expansion.
    ExpansionCommand,
    /// The shell parser refused the text; `detail` is its own description.
    Syntax {
        /// The parser's message.
        detail: String,
    },
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            SplitError::TooDeep => t!("pi.permissions.split.too_deep"),
            SplitError::ArithmeticCommand => t!("pi.permissions.split.arithmetic"),
            SplitError::ExpansionCommand => t!("pi.permissions.split.expansion"),
            SplitError::Syntax { detail } => {
                t!("pi.permissions.split.syntax", detail = detail.as_str())
            }
        };
        f.write_str(&text)
    }
}

impl std::error::Error for SplitError {}

/// A rule's pattern that is not a valid glob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPattern {
    /// The pattern.
    pub pattern: String,
    /// The glob compiler's description.
    pub detail: String,
}

impl std::fmt::Display for BadPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&t!(
            "pi.permissions.bad_pattern",
            pattern = self.pattern.as_str(),
            detail = self.detail.as_str()
        ))
    }
}

impl std::error::Error for BadPattern {}
