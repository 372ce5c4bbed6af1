//! Everything the loaded extensions registered, for one VM. Dropped whole on
//! reload.

use std::collections::HashSet;
use std::path::PathBuf;

use indexmap::IndexMap;
use mlua::{Function, Table};
use serde::Serialize;
use serde_json::Value;

/// One loaded (or failed) extension.
#[derive(Debug, Clone)]
pub struct ExtensionInfo {
    /// Entry file.
    pub path: PathBuf,
    /// Short display name (file stem, or folder name for `init.lua`).
    pub name: String,
}

impl ExtensionInfo {
    /// Describe the extension at `path`.
    pub fn new(path: PathBuf) -> Self {
        let name = if path.file_name().is_some_and(|f| f == "init.lua") {
            path.parent().and_then(|p| p.file_name())
        } else {
            path.file_stem()
        }
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
        ExtensionInfo { path, name }
    }
}

/// A subscribed event handler.
pub struct HandlerReg {
    /// Event name.
    pub event: String,
    /// Index into [`Registry::extensions`].
    pub ext: usize,
    /// `function(event, ctx)`.
    pub func: Function,
}

/// A tool as advertised to the agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolInfo {
    /// Name the model uses.
    pub name: String,
    /// Human label.
    pub label: String,
    /// Description for the model.
    pub description: String,
    /// JSON Schema of the arguments.
    pub parameters: Value,
    /// One-line system prompt summary.
    pub prompt_snippet: Option<String>,
    /// System prompt guideline bullets.
    pub prompt_guidelines: Vec<String>,
    /// `"sequential"` or `"parallel"`.
    pub execution_mode: Option<String>,
    /// Path of the extension that registered it.
    pub extension: PathBuf,
}

/// A registered tool with its Lua callbacks.
pub struct ToolReg {
    /// Advertised data.
    pub info: ToolInfo,
    /// `execute(toolCallId, params, signal, onUpdate, ctx)`.
    pub execute: Function,
    /// Index of the registering extension.
    pub ext: usize,
}

/// A registered slash command.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandInfo {
    /// Invocation name (with a `:N` suffix on duplicates).
    pub name: String,
    /// Description for menus.
    pub description: Option<String>,
    /// Path of the extension that registered it.
    pub extension: PathBuf,
}

/// A registered command with its handler.
pub struct CommandReg {
    /// Advertised data.
    pub info: CommandInfo,
    /// `handler(args, ctx)`.
    pub handler: Function,
}

/// All registrations of one VM.
#[derive(Default)]
pub struct Registry {
    /// Extensions in load order.
    pub extensions: Vec<ExtensionInfo>,
    /// Handlers in subscription order.
    pub handlers: Vec<HandlerReg>,
    /// Tools by name (a later registration replaces an earlier one).
    pub tools: IndexMap<String, ToolReg>,
    /// Commands by invocation name.
    pub commands: IndexMap<String, CommandReg>,
    /// Per-extension `pi.state` tables.
    pub states: Vec<(usize, Table)>,
    /// (extension, event) pairs whose handler error was already reported.
    pub reported: HashSet<(usize, String)>,
}

impl Registry {
    /// Names of events with at least one handler.
    pub fn subscribed_events(&self) -> HashSet<String> {
        self.handlers.iter().map(|h| h.event.clone()).collect()
    }

    /// Store a command, suffixing `:1`, `:2`, ... on a name clash.
    pub fn add_command(&mut self, mut info: CommandInfo, handler: Function) {
        let base = info.name.clone();
        let mut n = 0;
        while self.commands.contains_key(&info.name) {
            n += 1;
            info.name = format!("{base}:{n}");
        }
        self.commands
            .insert(info.name.clone(), CommandReg { info, handler });
    }
}
