//! pi packages: bundles of extensions, skills, prompt templates and themes installed from
//! npm, git or a local path and listed in settings `packages`.

pub mod capabilities;
pub mod commands;
pub mod entries;
pub mod error;
pub mod lock;
pub mod manager;
pub mod ops;
pub mod resolve;
pub mod source;
pub mod store;
pub mod toggle;
