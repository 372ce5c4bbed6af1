//! Built-in tools: read, bash, edit, write, grep, find, ls.
