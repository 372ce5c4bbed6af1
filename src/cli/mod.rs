//! The command line: flags (compatible with pi 0.73) and `@file` arguments.

pub mod args;
pub mod error;
pub mod files;
