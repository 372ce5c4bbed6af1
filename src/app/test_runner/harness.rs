//! One test's headless pi: an [`AgentSession`] with the extension under test loaded, the
//! scripted (faux) model, the recording UI, a private working folder; and what the
//! simulated user does to it: prompts, slash commands, `/reload`, shortcuts.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::agent::agent_loop::{AgentLoopConfig, AgentState, RequestAuth};
use crate::agent::tool::ExecutionMode;
use crate::ai::model::ThinkingLevel;
use crate::ai::providers::faux::FauxProvider;
use crate::ai::stream::ProviderRegistry;
use crate::core::agent_session::{AgentSession, RetryPolicy};
use crate::core::extension_bridge::ExtensionBridge;
use crate::lua::{ExtensionHandle, HostConfig, SharedView};
use crate::session::manager::SessionManager;

use super::error::TestRunError;
use super::recorder::Recorder;

/// The system prompt every test session starts with (extensions may change it).
pub const BASE_SYSTEM_PROMPT: &str = "You are pi, a coding agent. (pi test session)";

/// The built-in tools active in a test session, as in `pi` by default.
const TOOLS: [&str; 4] = ["read", "bash", "edit", "write"];

/// A started test session.
pub struct TestSession {
    /// The conversation.
    pub agent: AgentSession,
}

/// What a test has set up before (and while) its session runs.
pub struct TestWorld {
    /// The scripted model.
    pub faux: FauxProvider,
    /// The recording UI.
    pub ui: Recorder,
    /// The extension files to load.
    pub extensions: Vec<PathBuf>,
    /// The session's working folder (removed when the test ends).
    pub cwd: PathBuf,
    /// The agent folder the extensions see as `pi.agentDir`: empty, and removed when
    /// the test ends, so that a test never reads or writes the user's own.
    pub agent_dir: PathBuf,
    /// The session, once the test needs it.
    pub session: Option<TestSession>,
}

impl TestWorld {
    /// A world loading `extensions`, with a fresh working folder, which becomes the
    /// process's current folder (as it is for pi) until [`finish`](Self::finish), and the
    /// sandbox in its default mode (`full`).
    pub fn new(extensions: Vec<PathBuf>) -> std::io::Result<Self> {
        let cwd = fresh_folder()?;
        let agent_dir = fresh_folder()?;
        std::env::set_current_dir(&cwd)?;
        // The sandbox belongs to the process: each test starts from pi's default.
        crate::sandbox::set(crate::sandbox::SandboxSettings::default());
        Ok(TestWorld {
            faux: FauxProvider::new().with_chunk_chars(64),
            ui: Recorder::default(),
            extensions,
            cwd,
            agent_dir,
            session: None,
        })
    }

    /// The session, started on first use; a load error of the extension is the error.
    pub async fn session(&mut self) -> Result<&mut AgentSession, TestRunError> {
        let session = match self.session.take() {
            Some(session) => session,
            None => {
                let dirs = (self.cwd.as_path(), self.agent_dir.as_path());
                let agent = start(&self.extensions, dirs, &self.faux, &self.ui).await?;
                TestSession { agent }
            }
        };
        Ok(&mut self.session.insert(session).agent)
    }

    /// What the simulated user types and sends: `/reload`, `/new`, `/quit`, an extension's
    /// `/command args`, or a prompt for the model. A failing command's message is the error.
    pub async fn send(&mut self, text: &str) -> Result<(), TestRunError> {
        let agent = self.session().await?;
        let signal = CancellationToken::new();
        if text.trim() == "/reload" {
            let report = agent.reload_extensions().await;
            if let Some(error) = report.and_then(|r| r.errors.into_iter().next()) {
                return Err(TestRunError::ExtensionLoad {
                    path: error.path,
                    message: error.message,
                });
            }
            return Ok(());
        }
        if text.trim() == "/quit" {
            agent.session_event("session_shutdown", "quit").await;
            return Ok(());
        }
        if text.trim() == "/new" {
            agent.new_session().await;
            return Ok(());
        }
        if let Some((name, args)) = agent.extension_command_in(text).await {
            return agent
                .run_extension_command(&name, &args, &signal)
                .await
                .map_err(TestRunError::Command);
        }
        agent.prompt(text.to_string(), Vec::new(), &signal).await;
        Ok(())
    }

    /// Run the extension shortcut bound to `key`; `false` when none is.
    pub async fn shortcut(&mut self, key: &str) -> Result<bool, TestRunError> {
        let agent = self.session().await?;
        let Some(bridge) = agent.extensions() else {
            return Ok(false);
        };
        let wanted = crate::ui_kit::keybindings::KeyCombo::parse(key);
        let shortcuts = bridge.handle.registrations().await.shortcuts;
        let Some(found) = shortcuts
            .iter()
            .find(|s| crate::ui_kit::keybindings::KeyCombo::parse(&s.shortcut) == wanted)
        else {
            return Ok(false);
        };
        let handle = bridge.handle.clone();
        handle
            .run_shortcut(&found.shortcut)
            .await
            .map_err(|e| TestRunError::Shortcut {
                key: key.to_string(),
                message: e.to_string(),
            })?;
        let signal = CancellationToken::new();
        agent.run_extension_actions(&signal).await;
        Ok(true)
    }

    /// Session entries as JSON, in order.
    pub fn entries(&self) -> Vec<Value> {
        let Some(session) = &self.session else {
            return Vec::new();
        };
        session
            .agent
            .session
            .entries()
            .iter()
            .filter_map(|e| serde_json::to_value(e).ok())
            .collect()
    }

    /// The conversation's messages as JSON, in order.
    pub fn messages(&self) -> Vec<Value> {
        let Some(session) = &self.session else {
            return Vec::new();
        };
        session
            .agent
            .state
            .messages
            .iter()
            .filter_map(|m| serde_json::to_value(m).ok())
            .collect()
    }

    /// Stop the extension host and remove the working folder.
    pub async fn finish(&mut self) {
        if let Some(session) = self.session.take() {
            if let Some(bridge) = session.agent.extensions() {
                bridge.handle.stop_processes().await;
            }
            drop(session);
        }
        let _ = std::env::set_current_dir(super::start_folder());
        let _ = std::fs::remove_dir_all(&self.cwd);
        let _ = std::fs::remove_dir_all(&self.agent_dir);
    }
}

/// A new empty folder under the system's temporary folder.
fn fresh_folder() -> std::io::Result<PathBuf> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pi-test-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Build the session as pi builds an interactive one: the extension host with the
/// recording UI, the built-in tools plus the extensions' tools, `session_start`.
async fn start(
    extensions: &[PathBuf],
    (cwd, agent_dir): (&Path, &Path),
    faux: &FauxProvider,
    ui: &Recorder,
) -> Result<AgentSession, TestRunError> {
    let mut providers = ProviderRegistry::builtin();
    providers.register(Arc::new(faux.clone()));
    let config = AgentLoopConfig {
        model: faux.model(),
        thinking: ThinkingLevel::Off,
        providers,
        auth: Arc::new(|_| Ok(RequestAuth::default())),
        tool_execution: ExecutionMode::Parallel,
        session_id: None,
        block_images: false,
        convert_to_llm: crate::session::convert::convert_conversation,
        cwd: cwd.to_path_buf(),
        limits: Default::default(),
        settled: None,
    };
    let view = SharedView::new(cwd);
    let entries: Vec<PathBuf> = extensions
        .iter()
        .flat_map(|p| crate::lua::discovery::entries_for_path(p))
        .collect();
    let mut host = HostConfig::new(entries, cwd);
    host.ui = Some(Arc::new(ui.clone()));
    host.agent_dir = agent_dir.to_path_buf();
    let handle = ExtensionHandle::start(host, view.clone());
    let report = handle.load().await;
    if let Some(error) = report.errors.into_iter().next() {
        return Err(TestRunError::ExtensionLoad {
            path: error.path,
            message: error.message,
        });
    }
    let all = crate::tools::builtin_tools(
        &crate::tools::BUILTIN_TOOL_NAMES,
        &crate::tools::ToolOptions::default(),
    );
    let mut bridge = ExtensionBridge::new(handle, view, all);
    bridge.models = vec![faux.model()];
    let mut tools: Vec<_> = bridge
        .all_tools
        .iter()
        .filter(|t| TOOLS.contains(&t.name()))
        .cloned()
        .collect();
    bridge.merge_extension_tools(&mut tools).await;
    let state = AgentState {
        system_prompt: BASE_SYSTEM_PROMPT.into(),
        messages: Default::default(),
        tools,
        run: Default::default(),
    };
    let mut session = SessionManager::in_memory(cwd);
    let model = faux.model();
    session.append_model_change(&model.provider, &model.id);
    let mut retry = RetryPolicy::default();
    retry.settings.enabled = false;
    let mut agent = AgentSession::new(state, config, session, retry);
    let recorder = ui.clone();
    agent.subscribe(Box::new(move |event| recorder.agent_event(event)));
    agent.set_extensions(bridge);
    agent.session_event("session_start", "startup").await;
    Ok(agent)
}
