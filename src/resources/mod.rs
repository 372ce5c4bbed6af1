//! Resources loaded from disk besides extensions: skills (and their frontmatter format).

pub mod frontmatter;
pub mod skills;
