//! The permission policy: allow / ask / deny rules per tool from user, project and session,
//! bash commands judged one simple command at a time after a real shell parse, and the
//! danger floor that asks even with `--yolo`.

pub mod bash_words;
pub mod decide;
pub mod error;
pub mod floor;
pub mod rules;
pub mod wrappers;

pub use decide::{FILE_TOOLS, Policy, Reason, Verdict};
pub use rules::{Action, Rule, Scope, parse_rules};

#[cfg(test)]
mod bash_words_tests;
#[cfg(test)]
mod decide_tests;
