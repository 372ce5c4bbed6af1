//! Resources loaded from disk besides extensions: skills and prompt templates (and their
//! frontmatter format).

pub mod frontmatter;
pub mod prompt_templates;
pub mod skills;
