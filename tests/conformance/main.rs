//! The conformance suite: cases taken from the original pi's own test suite and checked
//! against this implementation. Every case names the original test it comes from in a
//! `/// orig:` line; each module's `//! orig-file:` line names the original test file.
//! `MAPPING.md` beside this file lists every case (regenerate it with
//! `scripts/conformance-mapping.sh`; the `mapping` test fails when it is stale).

mod mapping;
mod prompt_templates;
mod cli_args;
mod frontmatter;
mod path_utils;
mod skills;
mod tools;
mod session_context;
mod session_labels;
mod session_tree;
mod session_files;
mod session_misc;
mod compaction;
mod model_resolver;
mod tui_text;
mod tui_editor;
mod model_registry;
mod settings;
mod system_prompt;
mod ai_models;
mod auth_storage;
mod git_source;
mod package_sources;
mod tui_markdown;
mod tree_selector;
mod ai_overflow;
mod ai_anthropic;
mod ai_google;
