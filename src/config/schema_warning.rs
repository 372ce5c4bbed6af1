//! What a configuration file's schema check found, as facts (file, key, what the schema
//! expects there, the value found). These are plain data: their words (`Display`) live in
//! `i18n/schema_words.rs`, with the locale packs, so a warning found before the language
//! was known reads in it all the same.

use std::fmt;
use std::path::PathBuf;

use super::schema_check::ConfigSchema;

/// Where in a schema the rule a value broke lives: what the value should have been.
#[derive(Clone)]
pub struct Expectation {
    /// The schema.
    pub schema: &'static ConfigSchema,
    /// The keyword location of the broken rule (`/properties/theme/type`).
    pub location: String,
}

impl fmt::Debug for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Expectation({})", self.location)
    }
}

impl PartialEq for Expectation {
    fn eq(&self, other: &Expectation) -> bool {
        std::ptr::eq(self.schema, other.schema) && self.location == other.location
    }
}

impl Eq for Expectation {}

/// What is wrong with one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaProblem {
    /// A key the schema does not know (kept, but nothing reads it).
    Unknown,
    /// A value of the wrong type or form (taken out).
    Invalid {
        /// What the schema expects there.
        expected: Expectation,
    },
    /// An object missing a key it needs (taken out).
    Missing {
        /// The key it needs.
        property: String,
    },
    /// Anything else the schema rejects (taken out), in the validator's words.
    Other {
        /// The validator's text.
        message: String,
    },
}

/// One finding of a schema check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaWarning {
    /// A problem with one key.
    Key {
        /// The file.
        file: PathBuf,
        /// The key as `a.b[2].c` (empty: the whole file).
        key: String,
        /// What is wrong.
        problem: SchemaProblem,
        /// A short rendering of the value found (`None`: nothing there).
        found: Option<String>,
        /// pi leaves the value out.
        ignored: bool,
    },
    /// More unknown keys than are worth listing one by one.
    ManyUnknown {
        /// The file.
        file: PathBuf,
        /// How many.
        count: usize,
        /// The first few, as `a.b`.
        first: Vec<String>,
    },
}

impl SchemaWarning {
    /// The problem found, for a warning about one key.
    pub fn problem(&self) -> Option<&SchemaProblem> {
        match self {
            SchemaWarning::Key { problem, .. } => Some(problem),
            SchemaWarning::ManyUnknown { .. } => None,
        }
    }
}

impl std::error::Error for SchemaWarning {}
