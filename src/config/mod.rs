//! Configuration: paths, settings, context files and the system prompt.
