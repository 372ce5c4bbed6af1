//! The extension host's errors: what failed, whose it was and Lua's own message, worded
//! here through the locale packs. A tool's failure goes to the model and stays English
//! ([`ToolRunError`]).

use std::fmt;
use std::path::PathBuf;

use crate::lua::syntax_error::SyntaxError;
use crate::t;

/// A Lua error as an extension raised it, or the VM's memory limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LuaFailure {
    /// `error(...)` or a runtime error: Lua's own text (`file:line: message`, no traceback).
    Raised {
        /// The message, in the extension's words.
        text: String,
    },
    /// The file does not compile.
    Syntax(Box<SyntaxError>),
    /// The VM reached its memory limit (`extensions.memoryLimitMb`).
    OutOfMemory {
        /// The limit, in MiB.
        limit_mb: u64,
    },
}

impl LuaFailure {
    /// The failure behind `e`, without mlua's wrapping ("callback error", traceback).
    pub fn of(e: &mlua::Error) -> LuaFailure {
        if crate::lua::vm::is_memory_error(e) {
            return LuaFailure::OutOfMemory {
                limit_mb: crate::lua::vm::memory_limit_mb(),
            };
        }
        if let Some(syntax) = syntax_error(e) {
            return LuaFailure::Syntax(Box::new(syntax));
        }
        LuaFailure::Raised {
            text: raised_text(e),
        }
    }

    /// [`LuaFailure::of`], prefixed with the extension's line that called the pi function
    /// which raised it (a load error names where in the file it happened).
    pub fn at(e: &mlua::Error) -> LuaFailure {
        match LuaFailure::of(e) {
            LuaFailure::Raised { text } => LuaFailure::Raised {
                text: with_position(e, text),
            },
            memory => memory,
        }
    }

    /// Whether the VM ran out of memory.
    pub fn is_out_of_memory(&self) -> bool {
        matches!(self, LuaFailure::OutOfMemory { .. })
    }
}

impl fmt::Display for LuaFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LuaFailure::Raised { text } => f.write_str(text),
            LuaFailure::Syntax(syntax) => write!(f, "{syntax}"),
            LuaFailure::OutOfMemory { limit_mb } => {
                f.write_str(&t!("pi.ext.memory_limit", limit = limit_mb.to_string()))
            }
        }
    }
}

impl std::error::Error for LuaFailure {}

/// The compiler's error inside `e`, read as facts.
fn syntax_error(e: &mlua::Error) -> Option<SyntaxError> {
    match e {
        mlua::Error::SyntaxError { message, .. } => SyntaxError::parse(message),
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            syntax_error(cause)
        }
        _ => None,
    }
}

/// The message of a Lua error that is not a memory error.
fn raised_text(e: &mlua::Error) -> String {
    match e {
        mlua::Error::CallbackError { cause, .. } => raised_text(cause),
        mlua::Error::RuntimeError(m) => m
            .split("\nstack traceback:")
            .next()
            .unwrap_or(m)
            .to_string(),
        other => other.to_string(),
    }
}

/// `text` with the innermost extension line of `e`'s traceback in front, when it does
/// not name it already.
fn with_position(e: &mlua::Error, text: String) -> String {
    let mlua::Error::CallbackError { traceback, .. } = e else {
        return text;
    };
    match lua_position(traceback) {
        Some(at) if !text.contains(at) => format!("{at}: {text}"),
        _ => text,
    }
}

/// `file:line` of the innermost frame of a traceback that is an extension's file (not
/// pi's own `[C]` functions or built-in chunks).
fn lua_position(traceback: &str) -> Option<&str> {
    traceback
        .lines()
        .map(str::trim)
        .filter(|line| !line.starts_with('[') && !line.starts_with("stack traceback"))
        .find_map(|line| line.split_once(": in ").map(|(at, _)| at))
}

/// What an extension ran when it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handler {
    /// The slash command `/name`.
    Command {
        /// The command's name.
        name: String,
    },
    /// The shortcut for `key`.
    Shortcut {
        /// The key as registered.
        key: String,
    },
    /// The `withSession` callback of `ctx.newSession`.
    WithSession,
    /// The login (or token refresh) of a provider.
    Login {
        /// The provider.
        provider: String,
    },
}

/// Why a request to the extension host failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtensionError {
    /// The host thread has stopped (pi is quitting).
    HostStopped,
    /// No extension is loaded.
    NotLoaded,
    /// No extension registered the command `/name`.
    UnknownCommand {
        /// The name asked for.
        name: String,
    },
    /// No extension registered a shortcut for the key.
    UnknownShortcut {
        /// The key asked for.
        key: String,
    },
    /// No extension registered a login for the provider.
    NoLogin {
        /// The provider asked for.
        provider: String,
    },
    /// No extension serves the API with `pi.registerProvider{streamSimple}`.
    NoStreamProvider {
        /// The API asked for.
        api: String,
    },
    /// A handler raised an error.
    Failed {
        /// What ran.
        handler: Handler,
        /// The extension's entry file, when known.
        extension: Option<PathBuf>,
        /// Lua's error.
        cause: LuaFailure,
    },
    /// A provider's `streamSimple` raised an error: its own message, as the provider's.
    Stream(LuaFailure),
    /// The Lua VM could not be started.
    VmStart {
        /// mlua's description.
        detail: String,
    },
}

impl fmt::Display for ExtensionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            ExtensionError::HostStopped => t!("pi.ext.err.host_stopped"),
            ExtensionError::NotLoaded => t!("pi.ext.err.not_loaded"),
            ExtensionError::UnknownCommand { name } => {
                t!("pi.ext.err.unknown_command", name = name.as_str())
            }
            ExtensionError::UnknownShortcut { key } => {
                t!("pi.ext.err.unknown_shortcut", key = key.as_str())
            }
            ExtensionError::NoLogin { provider } => {
                t!("pi.ext.err.no_login", provider = provider.as_str())
            }
            ExtensionError::NoStreamProvider { api } => {
                t!("pi.ext.err.no_stream_provider", api = api.as_str())
            }
            ExtensionError::Failed {
                handler,
                extension,
                cause,
            } => failed_text(handler, extension.as_ref(), cause),
            ExtensionError::Stream(cause) => cause.to_string(),
            ExtensionError::VmStart { detail } => {
                t!("pi.ext.err.vm_start", error = detail.as_str())
            }
        };
        f.write_str(&text)
    }
}

fn failed_text(handler: &Handler, extension: Option<&PathBuf>, cause: &LuaFailure) -> String {
    let path = extension
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let error = cause.to_string();
    match handler {
        Handler::Command { name } => t!(
            "pi.ext.err.command_failed",
            name = name.as_str(),
            path = path,
            error = error
        ),
        Handler::Shortcut { key } => t!(
            "pi.ext.err.shortcut_failed",
            key = key.as_str(),
            path = path,
            error = error
        ),
        Handler::WithSession => t!("pi.ext.err.with_session_failed", error = error),
        // A login's error is the provider's own message, shown by the login dialog.
        Handler::Login { .. } => error,
    }
}

impl std::error::Error for ExtensionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExtensionError::Failed { cause, .. } | ExtensionError::Stream(cause) => Some(cause),
            _ => None,
        }
    }
}

/// Why an extension tool gave no result. The model reads it, so it stays English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolRunError {
    /// The extension host has stopped.
    HostStopped,
    /// No extension is loaded.
    NotLoaded,
    /// The tool's extension was unloaded or reloaded without it.
    Gone {
        /// The tool.
        name: String,
    },
    /// `execute` raised an error.
    Raised(LuaFailure),
    /// `execute` returned something other than a table.
    BadResult {
        /// The tool.
        name: String,
        /// The Lua type it returned.
        kind: &'static str,
    },
    /// A content block of the result is not one pi knows.
    BadBlock {
        /// The block, as JSON.
        block: String,
        /// Why it does not parse.
        detail: String,
    },
    /// `content` is neither a list of blocks nor a string.
    BadContent {
        /// What it was, as JSON.
        got: String,
    },
}

impl fmt::Display for ToolRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolRunError::HostStopped => f.write_str("the extension host has stopped"),
            ToolRunError::NotLoaded => f.write_str("extensions are not loaded"),
            ToolRunError::Gone { name } => write!(f, "Tool {name} is no longer registered"),
            ToolRunError::Raised(cause) => write!(f, "{cause}"),
            ToolRunError::BadResult { name, kind } => write!(
                f,
                "tool {name}: execute must return a table {{ content = ..., details = ... }}, \
                 not a {kind}"
            ),
            ToolRunError::BadBlock { block, detail } => {
                write!(f, "invalid content block {block}: {detail}")
            }
            ToolRunError::BadContent { got } => {
                write!(f, "`content` must be a list of blocks, got {got}")
            }
        }
    }
}

impl std::error::Error for ToolRunError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_innermost_lua_frame_is_named() {
        let traceback = "stack traceback:\n\t[C]: in function 'registerShortcut'\n\t/x/bad.lua:2: in function </x/bad.lua:1>\n\t[C]: in ?";
        assert_eq!(lua_position(traceback), Some("/x/bad.lua:2"));
        assert_eq!(lua_position("stack traceback:\n\t[C]: in ?"), None);
        let builtin = "stack traceback:\n\t[string \"?\"]:28: in function <x>";
        assert_eq!(lua_position(builtin), None);
    }

    #[test]
    fn a_raised_error_keeps_the_extensions_words_without_traceback() {
        let e = mlua::Error::runtime("x.lua:3: kaputt\nstack traceback:\n\t[C]: in ?");
        assert_eq!(
            LuaFailure::of(&e),
            LuaFailure::Raised {
                text: "x.lua:3: kaputt".into()
            }
        );
        let memory = LuaFailure::of(&mlua::Error::MemoryError("no room".into()));
        assert!(memory.is_out_of_memory());
        assert!(!LuaFailure::of(&e).is_out_of_memory());
    }

    #[test]
    fn a_syntax_error_is_read_as_facts() {
        let lua = mlua::Lua::new();
        let e = lua
            .load("return function(pi)\n  pi.on(\n")
            .set_name("@/x/broken.lua")
            .into_function()
            .unwrap_err();
        let LuaFailure::Syntax(syntax) = LuaFailure::of(&e) else {
            panic!("{e}");
        };
        assert_eq!(syntax.at, "/x/broken.lua:3");
        assert_eq!(syntax.near.as_deref(), Some("<eof>"));
    }

    #[test]
    fn a_failed_handler_names_what_ran_and_whose_it_was() {
        let e = ExtensionError::Failed {
            handler: Handler::Command {
                name: "deploy".into(),
            },
            extension: Some(PathBuf::from("/ext/deploy.lua")),
            cause: LuaFailure::Raised {
                text: "deploy.lua:4: no target".into(),
            },
        };
        let text = e.to_string();
        assert!(text.contains("/deploy"), "{text}");
        assert!(text.contains("/ext/deploy.lua"), "{text}");
        assert!(text.contains("deploy.lua:4: no target"), "{text}");
        let unknown = ExtensionError::UnknownCommand {
            name: "nope".into(),
        }
        .to_string();
        assert!(unknown.contains("/nope"), "{unknown}");
    }

    #[test]
    fn what_the_model_reads_is_english() {
        let gone = ToolRunError::Gone {
            name: "fetch".into(),
        };
        assert_eq!(gone.to_string(), "Tool fetch is no longer registered");
        let bad = ToolRunError::BadResult {
            name: "fetch".into(),
            kind: "number",
        };
        assert!(bad.to_string().contains("must return a table"), "{bad}");
    }
}
