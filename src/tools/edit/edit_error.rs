//! Why the edit tool refused a set of replacements, as facts. The text is the model's to
//! read, so it stays in English (pi 0.73.1's wording).

use std::fmt;

/// A set of replacements the edit tool did not apply; the file is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// A replacement with an empty `oldText`.
    EmptyOldText {
        /// The file as the model named it.
        path: String,
        /// Which of several edits (`None` for a single edit).
        index: Option<usize>,
    },
    /// The text to replace is not in the file.
    NotFound {
        /// The file as the model named it.
        path: String,
        /// Which of several edits (`None` for a single edit).
        index: Option<usize>,
    },
    /// The text to replace occurs more than once.
    NotUnique {
        /// The file as the model named it.
        path: String,
        /// Which of several edits (`None` for a single edit).
        index: Option<usize>,
        /// How often it occurs.
        occurrences: usize,
    },
    /// Two edits cover the same text.
    Overlap {
        /// The file as the model named it.
        path: String,
        /// The earlier edit.
        first: usize,
        /// The later edit.
        second: usize,
    },
    /// The replacements leave the file as it was.
    NoChange {
        /// The file as the model named it.
        path: String,
        /// Whether there was a single edit.
        single: bool,
    },
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::EmptyOldText { path, index: None } => {
                write!(f, "oldText must not be empty in {path}.")
            }
            EditError::EmptyOldText {
                path,
                index: Some(i),
            } => write!(f, "edits[{i}].oldText must not be empty in {path}."),
            EditError::NotFound { path, index: None } => write!(
                f,
                "Could not find the exact text in {path}. The old text must match exactly including all whitespace and newlines."
            ),
            EditError::NotFound {
                path,
                index: Some(i),
            } => write!(
                f,
                "Could not find edits[{i}] in {path}. The oldText must match exactly including all whitespace and newlines."
            ),
            EditError::NotUnique {
                path,
                index: None,
                occurrences,
            } => write!(
                f,
                "Found {occurrences} occurrences of the text in {path}. The text must be unique. Please provide more context to make it unique."
            ),
            EditError::NotUnique {
                path,
                index: Some(i),
                occurrences,
            } => write!(
                f,
                "Found {occurrences} occurrences of edits[{i}] in {path}. Each oldText must be unique. Please provide more context to make it unique."
            ),
            EditError::Overlap {
                path,
                first,
                second,
            } => write!(
                f,
                "edits[{first}] and edits[{second}] overlap in {path}. Merge them into one edit or target disjoint regions."
            ),
            EditError::NoChange { path, single: true } => write!(
                f,
                "No changes made to {path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected."
            ),
            EditError::NoChange {
                path,
                single: false,
            } => write!(
                f,
                "No changes made to {path}. The replacements produced identical content."
            ),
        }
    }
}

impl std::error::Error for EditError {}
