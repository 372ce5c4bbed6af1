//! Command-line arguments and `@file` processing.

pub mod args;
pub mod files;
pub mod lang;
pub mod packages;
