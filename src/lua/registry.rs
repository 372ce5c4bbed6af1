//! Everything the loaded extensions registered, for one VM. Dropped whole on
//! reload.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use indexmap::IndexMap;
use mlua::{Function, Table};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One loaded (or failed) extension.
#[derive(Debug, Clone)]
pub struct ExtensionInfo {
    /// Entry file.
    pub path: PathBuf,
    /// Short display name (file stem, or folder name for `init.lua` / `index.lua`).
    pub name: String,
    /// Load and handler times, memory, status and last error.
    pub measured: crate::lua::profile::Measured,
    /// What it may touch: its declared capabilities, or everything.
    pub guard: std::rc::Rc<crate::lua::capabilities::guard::Guard>,
}

impl ExtensionInfo {
    /// Describe the extension at `path`.
    pub fn new(path: PathBuf) -> Self {
        let name = if crate::lua::discovery::is_folder_entry(&path) {
            path.parent().and_then(|p| p.file_name())
        } else {
            path.file_stem()
        }
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
        let guard =
            crate::lua::capabilities::guard::Guard::unrestricted(&name, std::path::Path::new("."));
        ExtensionInfo {
            path,
            name,
            measured: Default::default(),
            guard,
        }
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// Whether it has a `prepareArguments` function.
    #[serde(skip)]
    pub has_prepare: bool,
    /// `file:line` where its `execute` function is written (`pi test` names it).
    #[serde(skip)]
    pub defined_at: Option<String>,
}

/// A registered tool with its Lua callbacks.
pub struct ToolReg {
    /// Advertised data.
    pub info: ToolInfo,
    /// `execute(toolCallId, params, signal, onUpdate, ctx)`.
    pub execute: Function,
    /// `prepareArguments(args)`: reshapes raw arguments before validation.
    pub prepare: Option<Function>,
    /// Index of the registering extension.
    pub ext: usize,
}

/// A registered slash command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommandInfo {
    /// Invocation name (`name:1`, `name:2`, ... when several extensions register `name`).
    pub name: String,
    /// Description for menus.
    pub description: Option<String>,
    /// Path of the extension that registered it.
    pub extension: PathBuf,
}

/// A registered command with its handler.
pub struct CommandReg {
    /// The name it was registered under (`info.name` adds a `:N` on duplicates).
    pub base: String,
    /// Advertised data.
    pub info: CommandInfo,
    /// `handler(args, ctx)`.
    pub handler: Function,
    /// `getArgumentCompletions(prefix)`.
    pub completions: Option<Function>,
}

/// A keyboard shortcut registered by an extension.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShortcutInfo {
    /// Key combination, e.g. `ctrl+shift+p`.
    pub shortcut: String,
    /// Description for `/hotkeys`.
    pub description: Option<String>,
    /// Path of the extension that registered it.
    pub extension: PathBuf,
}

/// A command-line flag registered by an extension.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlagInfo {
    /// Flag name without `--`.
    pub name: String,
    /// Description for help.
    pub description: Option<String>,
    /// `boolean` or `string`.
    pub kind: String,
    /// Value when the flag is not given.
    pub default: Value,
    /// Path of the extension that registered it.
    pub extension: PathBuf,
}

/// A subscriber on the `pi.events` bus.
pub struct BusHandler {
    /// Channel name.
    pub channel: String,
    /// Index of the subscribing extension.
    pub ext: usize,
    /// `function(data, reply)`.
    pub func: Function,
}

/// A snapshot of what the loaded extensions registered (everything but
/// the Lua functions), for listings and start-up checks.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Registrations {
    /// Tools.
    pub tools: Vec<ToolInfo>,
    /// Slash commands.
    pub commands: Vec<CommandInfo>,
    /// Keyboard shortcuts.
    pub shortcuts: Vec<ShortcutInfo>,
    /// Command-line flags.
    pub flags: Vec<FlagInfo>,
    /// `customType`s with a message renderer.
    pub renderers: Vec<String>,
    /// Names of registered providers.
    pub providers: Vec<String>,
    /// Names of tools with `pi.wrapTool` wrappers.
    pub wrapped: Vec<String>,
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
    /// Keyboard shortcuts with their handlers.
    pub shortcuts: Vec<(ShortcutInfo, Function)>,
    /// Command-line flags by name.
    pub flags: IndexMap<String, FlagInfo>,
    /// Message renderers by `customType`.
    pub renderers: IndexMap<String, (usize, Function)>,
    /// `pi.events` subscribers.
    pub bus: Vec<BusHandler>,
    /// Providers registered by each extension (name, extension).
    pub providers: Vec<(String, usize)>,
    /// `streamSimple` functions of registered providers: (api, provider name, function, extension).
    pub streams: Vec<(String, String, Function, usize)>,
    /// `oauth` tables of registered providers: (provider name, table, extension).
    pub oauth: Vec<(String, Table, usize)>,
    /// `pi.registerHealthCheck` checks with their extension, in registration order.
    pub health_checks: Vec<(usize, Function)>,
    /// The top of the `ctx.ui.addAutocompleteProvider` stack.
    pub autocomplete: Option<Table>,
    /// `ctx.ui.onTerminalInput` handlers with their ids, in the order added.
    pub terminal_input: Vec<(u64, Function)>,
    /// The id of the last terminal input handler.
    pub next_input_id: u64,
    /// (extension, handler) pairs already named as slow.
    pub reported_slow: HashSet<(usize, String)>,
    /// Specs of lazy extensions, pending or set up.
    pub lazy: Vec<crate::lua::lazy::LazySpec>,
    /// `pi.wrapTool` wrappers in registration (load) order.
    pub wraps: Vec<crate::lua::wrap::WrapReg>,
}

impl Registry {
    /// Everything registered, without the Lua functions.
    pub fn snapshot(&self) -> Registrations {
        let pending = || self.lazy.iter().filter(|s| s.pending());
        Registrations {
            tools: self
                .tools
                .values()
                .map(|t| t.info.clone())
                .chain(pending().flat_map(|s| s.tools.iter().cloned()))
                .collect(),
            commands: self
                .commands
                .values()
                .map(|c| c.info.clone())
                .chain(pending().flat_map(|s| s.commands.iter().cloned()))
                .collect(),
            shortcuts: self.shortcuts.iter().map(|(s, _)| s.clone()).collect(),
            flags: self.flags.values().cloned().collect(),
            renderers: self.renderers.keys().cloned().collect(),
            providers: self.providers.iter().map(|(n, _)| n.clone()).collect(),
            wrapped: crate::lua::wrap::wrapped_tools(&self.wraps),
        }
    }

    /// Names of events with at least one handler.
    pub fn subscribed_events(&self) -> HashSet<String> {
        let mut events: HashSet<String> = self.handlers.iter().map(|h| h.event.clone()).collect();
        for spec in self.lazy.iter().filter(|s| s.pending()) {
            events.extend(spec.events.iter().cloned());
            if !spec.file_types.is_empty() {
                events.insert(crate::lua::lazy::FILE_TYPE_EVENT.to_string());
            }
        }
        if self.autocomplete.is_some() {
            events.insert(crate::lua::autocomplete::AUTOCOMPLETE_MARK.to_string());
        }
        if !self.terminal_input.is_empty() {
            events.insert(crate::lua::terminal_input::TERMINAL_INPUT_MARK.to_string());
        }
        events
    }

    /// Forget everything extension `ext` registered.
    pub fn remove_extension(&mut self, ext: usize) {
        let path = self.extensions[ext].path.clone();
        self.handlers.retain(|h| h.ext != ext);
        self.tools.retain(|_, t| t.ext != ext);
        let commands: Vec<CommandReg> = self.commands.drain(..).map(|(_, c)| c).collect();
        self.commands = invocation_names(
            commands
                .into_iter()
                .filter(|c| c.info.extension != path)
                .collect(),
        );
        self.states.retain(|(e, _)| *e != ext);
        self.shortcuts.retain(|(s, _)| s.extension != path);
        self.flags.retain(|_, f| f.extension != path);
        self.renderers.retain(|_, (e, _)| *e != ext);
        self.bus.retain(|b| b.ext != ext);
        self.providers.retain(|(_, e)| *e != ext);
        self.streams.retain(|(_, _, _, e)| *e != ext);
        self.oauth.retain(|(_, _, e)| *e != ext);
        self.health_checks.retain(|(e, _)| *e != ext);
        self.wraps.retain(|w| w.ext != ext);
    }

    /// Store a command. The same extension registering a name again replaces its
    /// command in place; a name several extensions register is invoked as `name:1`,
    /// `name:2`, ... in registration order (as pi 0.73.1 names them).
    pub fn add_command(
        &mut self,
        info: CommandInfo,
        handler: Function,
        completions: Option<Function>,
    ) {
        let entry = CommandReg {
            base: info.name.clone(),
            info,
            handler,
            completions,
        };
        let mut entries: Vec<CommandReg> = self.commands.drain(..).map(|(_, c)| c).collect();
        match entries
            .iter()
            .position(|c| c.base == entry.base && c.info.extension == entry.info.extension)
        {
            Some(i) => entries[i] = entry,
            None => entries.push(entry),
        }
        self.commands = invocation_names(entries);
    }
}

/// Commands keyed by invocation name: a name registered once is itself; a name
/// registered n times is `name:1` ... `name:n` (skipping a suffix another command
/// already has as its own name).
fn invocation_names(entries: Vec<CommandReg>) -> IndexMap<String, CommandReg> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for c in &entries {
        *counts.entry(c.base.clone()).or_default() += 1;
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut named = IndexMap::new();
    for mut c in entries {
        let occurrence = seen.entry(c.base.clone()).or_default();
        *occurrence += 1;
        let mut suffix = *occurrence;
        let mut name = if counts[&c.base] > 1 {
            format!("{}:{suffix}", c.base)
        } else {
            c.base.clone()
        };
        while named.contains_key(&name) {
            suffix += 1;
            name = format!("{}:{suffix}", c.base);
        }
        c.info.name = name.clone();
        named.insert(name, c);
    }
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(reg: &mut Registry, lua: &mlua::Lua, ext: &str, name: &str, description: &str) {
        let info = CommandInfo {
            name: name.into(),
            description: Some(description.into()),
            extension: PathBuf::from(ext),
        };
        reg.add_command(info, lua.create_function(|_, ()| Ok(())).unwrap(), None);
    }

    fn names(reg: &Registry) -> Vec<(String, String)> {
        reg.commands
            .values()
            .map(|c| (c.info.name.clone(), c.info.description.clone().unwrap()))
            .collect()
    }

    #[test]
    fn shared_command_names_are_numbered_in_registration_order() {
        let lua = mlua::Lua::new();
        let mut reg = Registry::default();
        add(&mut reg, &lua, "a.lua", "deploy", "a");
        assert_eq!(names(&reg), [("deploy".into(), "a".into())]);
        add(&mut reg, &lua, "b.lua", "deploy", "b");
        add(&mut reg, &lua, "a.lua", "deploy", "a again");
        assert_eq!(
            names(&reg),
            [
                ("deploy:1".into(), "a again".into()),
                ("deploy:2".into(), "b".into())
            ],
            "the same extension replaces its own command in place"
        );
        // A command literally named like a numbered one is not shadowed.
        add(&mut reg, &lua, "c.lua", "deploy:2", "c");
        let all = names(&reg);
        assert_eq!(all[1], ("deploy:2".into(), "b".into()));
        assert_eq!(all[2], ("deploy:2:2".into(), "c".into()));
    }
}
