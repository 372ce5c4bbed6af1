//! What a configuration file's schema check found, as facts (file, key, what the schema
//! expects there, the value found); worded through the locale packs when shown, so a
//! warning found before the language was known reads in it all the same.

use std::fmt;
use std::path::PathBuf;

use super::schema_check::ConfigSchema;
use crate::t;

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

impl fmt::Display for SchemaWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaWarning::Key {
                file,
                key,
                problem,
                found,
                ignored,
            } => {
                let file = file.display().to_string();
                let subject = match key.is_empty() {
                    true => t!("pi.error.schema.the_file"),
                    false => format!("\"{key}\""),
                };
                let mut text = match problem {
                    SchemaProblem::Unknown => {
                        t!("pi.error.schema.unknown_key", file = file, key = subject)
                    }
                    SchemaProblem::Invalid { expected } => t!(
                        "pi.error.schema.invalid",
                        file = file,
                        key = subject,
                        expected = expected.schema.expected_at(&expected.location),
                        found = found
                            .clone()
                            .unwrap_or_else(|| t!("pi.error.schema.nothing"))
                    ),
                    SchemaProblem::Missing { property } => t!(
                        "pi.error.schema.missing",
                        file = file,
                        key = subject,
                        property = property.as_str()
                    ),
                    SchemaProblem::Other { message } => format!("{file}: {subject}: {message}"),
                };
                if *ignored && !key.is_empty() {
                    text.push_str(&t!("pi.error.schema.ignored"));
                }
                f.write_str(&text)
            }
            SchemaWarning::ManyUnknown { file, count, first } => f.write_str(&t!(
                "pi.error.schema.many_unknown",
                file = file.display().to_string(),
                count = super::schema_check::group_thousands(*count),
                names = first
                    .iter()
                    .map(|k| format!("\"{k}\""))
                    .collect::<Vec<_>>()
                    .join(", "),
                more = super::schema_check::group_thousands(count - first.len())
            )),
        }
    }
}

impl std::error::Error for SchemaWarning {}
