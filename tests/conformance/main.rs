//! The conformance suite: cases taken from the original pi's own test suite and checked
//! against this implementation. Every case names the original test it comes from in a
//! `/// orig:` line; each module's `//! orig-file:` line names the original test file.
//! `MAPPING.md` beside this file lists every case (regenerate it with
//! `scripts/conformance-mapping.sh`; the `mapping` test fails when it is stale).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod agent_core;
mod agent_loop;
mod agent_script;
mod ai_anthropic;
mod ai_google;
mod ai_models;
mod ai_overflow;
mod auth_storage;
mod cli_args;
mod compaction;
mod editor_input;
mod frontmatter;
mod git_source;
mod mapping;
mod model_registry;
mod model_resolver;
mod package_sources;
mod path_utils;
mod prompt_templates;
mod resource_loader;
mod resource_loader_ext;
mod rpc_jsonl;
mod session_concurrent;
mod session_context;
mod session_files;
mod session_labels;
mod session_misc;
mod session_tree;
mod settings;
mod skills;
mod system_prompt;
mod tools;
mod tools_edit;
mod tree_selector;
mod tui_autocomplete;
mod tui_editor;
mod tui_editor_complete;
mod tui_editor_jump;
mod tui_editor_keys;
mod tui_editor_kill_ring;
mod tui_editor_paste;
mod tui_editor_sticky;
mod tui_editor_undo;
mod tui_editor_wrap;
mod tui_input;
mod tui_markdown;
mod tui_markdown_blocks;
mod tui_overlay;
mod tui_render;
mod tui_select_list;
mod tui_text;
mod tui_truncated_text;
mod vt;
