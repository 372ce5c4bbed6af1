//! [`SessionOptions`]: everything a program can choose when it starts a session, with
//! pi's own defaults for whatever it leaves out.

use std::path::PathBuf;

use crate::cli::args::Args;
use crate::protocol::ThinkingLevel;

/// Where the conversation is stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SessionStorage {
    /// Nothing is written: the conversation lives only as long as the [`Session`].
    ///
    /// [`Session`]: super::Session
    #[default]
    InMemory,
    /// A new session file in pi's session folder for the working directory (the one
    /// `pi` itself would use: `sessionDir` in settings, else under the agent directory).
    New,
    /// A new session file in this folder.
    NewIn(PathBuf),
    /// Continue the most recent session of the working directory (a new one when there
    /// is none), as `pi --continue` does.
    ContinueRecent,
    /// Reopen this session file (or session id), as `pi --session` does.
    Open(PathBuf),
}

/// How a session is built. Start from [`SessionOptions::new`] and change what you need;
/// anything left unset follows the settings files, exactly as the `pi` command would.
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    pub(super) cwd: Option<PathBuf>,
    pub(super) agent_dir: Option<PathBuf>,
    pub(super) model: Option<(String, String)>,
    pub(super) api_key: Option<String>,
    pub(super) thinking: Option<ThinkingLevel>,
    pub(super) tools: Option<Vec<String>>,
    pub(super) system_prompt: Option<String>,
    pub(super) append_system_prompt: Vec<String>,
    pub(super) storage: SessionStorage,
    pub(super) extensions: bool,
    pub(super) extension_paths: Vec<PathBuf>,
    pub(super) trust_project: Option<bool>,
    pub(super) context_files: bool,
    pub(super) skills: bool,
    pub(super) prompt_templates: bool,
    pub(super) offline: bool,
    pub(super) max_turns: Option<u32>,
    pub(super) max_requests: Option<u32>,
    pub(super) sandbox: Option<crate::sandbox::SandboxMode>,
    pub(super) on_permission: Option<super::permission::PermissionCallback>,
}

impl SessionOptions {
    /// pi's defaults: the current directory, the agent directory of `PI_CODING_AGENT_DIR`
    /// (else `~/.pi/agent`), the default model and thinking level from settings, the
    /// default tools (`read`, `bash`, `edit`, `write`), an in-memory session, context
    /// files, skills and prompt templates loaded, and extensions off.
    pub fn new() -> Self {
        SessionOptions {
            context_files: true,
            skills: true,
            prompt_templates: true,
            ..Default::default()
        }
    }

    /// The working directory tools run in and project files are read from.
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }

    /// The agent directory holding `settings.json`, `models.json`, `auth.json`, sessions
    /// and extensions (instead of `PI_CODING_AGENT_DIR` or `~/.pi/agent`).
    pub fn agent_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.agent_dir = Some(dir.into());
        self
    }

    /// The model to start with, by provider and model id (`"anthropic"`,
    /// `"claude-sonnet-4-5"`), resolved as `pi --provider P --model ID` resolves it: the
    /// provider must be known (built in or in `models.json`) and have credentials; an id
    /// its list lacks is sent as given, with the provider's settings. A reopened session
    /// without this option keeps its own model.
    pub fn model(mut self, provider: impl Into<String>, id: impl Into<String>) -> Self {
        self.model = Some((provider.into(), id.into()));
        self
    }

    /// An API key for the model's provider for this session only (never saved).
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// The thinking level to start with (clamped to what the model supports).
    pub fn thinking(mut self, level: ThinkingLevel) -> Self {
        self.thinking = Some(level);
        self
    }

    /// The built-in tools the model may call, by name (`read`, `bash`, `edit`, `write`,
    /// `grep`, `find`, `ls`); an empty list gives the model no tools. Unknown names are
    /// reported on stderr and skipped.
    pub fn tools<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.tools = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Replace pi's system prompt with this text (or the contents of this file, when it
    /// names one), as `--system-prompt` does. Context files and skills are still added.
    pub fn system_prompt(mut self, text: impl Into<String>) -> Self {
        self.system_prompt = Some(text.into());
        self
    }

    /// Add this text (or file) to the end of the system prompt, as
    /// `--append-system-prompt` does; may be given more than once.
    pub fn append_system_prompt(mut self, text: impl Into<String>) -> Self {
        self.append_system_prompt.push(text.into());
        self
    }

    /// Where the conversation is stored; see [`SessionStorage`].
    pub fn storage(mut self, storage: SessionStorage) -> Self {
        self.storage = storage;
        self
    }

    /// Load Lua extensions (the agent directory's, the trusted project's, packages' and
    /// any given with [`extension`](Self::extension)). Off by default, so an embedding
    /// program only runs the code it chose.
    pub fn extensions(mut self, enabled: bool) -> Self {
        self.extensions = enabled;
        self
    }

    /// Load this extension file or folder too (implies [`extensions(true)`](Self::extensions)).
    pub fn extension(mut self, path: impl Into<PathBuf>) -> Self {
        self.extensions = true;
        self.extension_paths.push(path.into());
        self
    }

    /// Whether the project's `.pi/` folder (settings, extensions, skills, prompts) is
    /// trusted. Without this, the decision stored by `pi` for the folder applies, and a
    /// folder never approved is not trusted.
    pub fn trust_project(mut self, trusted: bool) -> Self {
        self.trust_project = Some(trusted);
        self
    }

    /// Load `AGENTS.md`/`CLAUDE.md` context files into the system prompt (default on).
    pub fn context_files(mut self, enabled: bool) -> Self {
        self.context_files = enabled;
        self
    }

    /// Load skills (default on).
    pub fn skills(mut self, enabled: bool) -> Self {
        self.skills = enabled;
        self
    }

    /// Load prompt templates (default on).
    pub fn prompt_templates(mut self, enabled: bool) -> Self {
        self.prompt_templates = enabled;
        self
    }

    /// Never reach the network for set-up work (installing missing packages, asking
    /// local model servers); requests to the chosen model still go out.
    pub fn offline(mut self, offline: bool) -> Self {
        self.offline = offline;
        self
    }

    /// Model replies one prompt's run may take before it ends with
    /// [`SdkError::Stopped`](super::SdkError::Stopped) (code `max_turns`), as
    /// `--max-turns` does. Default: the setting `agent.maxTurns`, else 200; 0: no limit.
    pub fn max_turns(mut self, turns: u32) -> Self {
        self.max_turns = Some(turns);
        self
    }

    /// Model requests one prompt's run may send, retries included, before it ends with
    /// [`SdkError::Stopped`](super::SdkError::Stopped) (code `max_requests`), as
    /// `--max-requests` does. Default: the setting `agent.maxRequests`, else no limit.
    pub fn max_requests(mut self, requests: u32) -> Self {
        self.max_requests = Some(requests);
        self
    }

    /// The sandbox of commands and file tools, as `--sandbox` sets it (docs/sandbox.md).
    /// Default: the setting `sandbox.mode`, else `full`. The sandbox is the process's:
    /// every session of the program shares the last one set. Building the session fails
    /// with [`SdkError::Setup`](super::SdkError::Setup), naming what is missing, when this
    /// system cannot enforce the mode.
    pub fn sandbox(mut self, mode: crate::sandbox::SandboxMode) -> Self {
        self.sandbox = Some(mode);
        self
    }

    /// Answer the permission policy's questions (an `ask` rule, the danger floor, an
    /// extension's `ask`) with `callback`; without it such calls are refused.
    pub fn on_permission(
        mut self,
        callback: impl Fn(&super::PermissionQuestion) -> super::PermissionAnswer + Send + Sync + 'static,
    ) -> Self {
        self.on_permission = Some(super::PermissionCallback(std::sync::Arc::new(callback)));
        self
    }

    /// The command line that asks `pi` for the same session (the start-up steps read it).
    pub(super) fn to_args(&self) -> Args {
        let mut args = Args {
            provider: self.model.as_ref().map(|(p, _)| p.clone()),
            model: self.model.as_ref().map(|(_, id)| id.clone()),
            api_key: self.api_key.clone(),
            thinking: self.thinking.map(|t| t.as_str().to_string()),
            system_prompt: self.system_prompt.clone(),
            append_system_prompt: self.append_system_prompt.clone(),
            no_extensions: !self.extensions,
            extensions: self
                .extension_paths
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect(),
            approve: self.trust_project == Some(true),
            no_approve: self.trust_project == Some(false),
            no_context_files: !self.context_files,
            no_skills: !self.skills,
            no_prompt_templates: !self.prompt_templates,
            offline: self.offline,
            max_turns: self.max_turns,
            max_requests: self.max_requests,
            sandbox: self.sandbox.map(|m| m.as_str().to_string()),
            ..Default::default()
        };
        match &self.tools {
            Some(names) if names.is_empty() => args.no_tools = true,
            Some(names) => args.tools = Some(names.join(",")),
            None => {}
        }
        match &self.storage {
            SessionStorage::InMemory => args.no_session = true,
            SessionStorage::New => {}
            SessionStorage::NewIn(dir) => {
                args.session_dir = Some(dir.to_string_lossy().into_owned());
            }
            SessionStorage::ContinueRecent => args.continue_session = true,
            SessionStorage::Open(path) => {
                args.session = Some(path.to_string_lossy().into_owned());
            }
        }
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sandbox_option_asks_for_the_same_mode_as_the_flag() {
        let args = SessionOptions::new()
            .sandbox(crate::sandbox::SandboxMode::WorkspaceWrite)
            .to_args();
        assert_eq!(args.sandbox.as_deref(), Some("workspace-write"));
        assert_eq!(SessionOptions::new().to_args().sandbox, None);
    }
}
