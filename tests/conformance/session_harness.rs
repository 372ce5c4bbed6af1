//! An in-process `AgentSession` on the scripted faux provider, for the cases of pi 0.73.1's
//! `agent-session-*` tests: every event is recorded as the JSON a client sees.

use std::sync::{Arc, Mutex};

use pi::agent::agent_loop::{AgentLoopConfig, AgentState, RequestAuth};
use pi::agent::events::AgentEvent;
use pi::agent::tool::ExecutionMode;
use pi::ai::model::ThinkingLevel;
use pi::ai::providers::faux::{FauxProvider, faux_message, faux_text};
use pi::ai::stream::ProviderRegistry;
use pi::ai::types::{
    AssistantMessage, ContentBlock, Message, StopReason, UserContent, UserMessage, now_ms,
};
use pi::core::agent_session::{AgentSession, RetryPolicy};
use pi::session::manager::SessionManager;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// A session, its scripted model and every event it emitted.
pub struct Harness {
    pub agent: AgentSession,
    pub faux: FauxProvider,
    pub events: Arc<Mutex<Vec<Value>>>,
    pub signal: CancellationToken,
    pub _tmp: tempfile::TempDir,
}

impl Harness {
    /// An in-memory session on the faux model, retries on with a 1 ms base delay.
    pub fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let session = SessionManager::in_memory(tmp.path());
        Self::with_session(tmp, session)
    }

    /// A session over `session` (in `tmp`).
    pub fn with_session(tmp: tempfile::TempDir, session: SessionManager) -> Self {
        Self::with_faux(tmp, session, FauxProvider::new())
    }

    /// A session over `session` answered by `faux`.
    pub fn with_faux(tmp: tempfile::TempDir, session: SessionManager, faux: FauxProvider) -> Self {
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
            convert_to_llm: pi::session::convert::convert_conversation,
            cwd: tmp.path().to_path_buf(),
            limits: Default::default(),
            settled: None,
        };
        let mut retry = RetryPolicy::default();
        retry.settings.base_delay_ms = 1;
        let mut agent = AgentSession::new(
            AgentState {
                system_prompt: "Test".into(),
                ..Default::default()
            },
            config,
            session,
            retry,
        );
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = events.clone();
        agent.subscribe(Box::new(move |e: &AgentEvent| {
            sink.lock().unwrap().push(serde_json::to_value(e).unwrap());
        }));
        Harness {
            agent,
            faux,
            events,
            signal: CancellationToken::new(),
            _tmp: tmp,
        }
    }

    /// Send `text` and wait for the run (retries and compaction included).
    pub async fn prompt(&mut self, text: &str) {
        self.agent
            .prompt(text.to_string(), Vec::new(), &self.signal)
            .await;
    }

    /// The recorded events of type `kind`.
    pub fn of_type(&self, kind: &str) -> Vec<Value> {
        self.events
            .lock()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == kind)
            .cloned()
            .collect()
    }
}

/// A user message.
pub fn user(text: &str, timestamp: i64) -> Message {
    Message::User(UserMessage {
        content: UserContent::Blocks(vec![ContentBlock::text(text)]),
        timestamp,
    })
}

/// An assistant answer `text` of the faux model that used `total` tokens.
pub fn answer(text: &str, total: u64, timestamp: i64) -> AssistantMessage {
    let mut m = faux_message(vec![faux_text(text)]);
    m.provider = "faux".into();
    m.model = "faux-1".into();
    m.usage.input = total;
    m.usage.total_tokens = total;
    m.timestamp = timestamp;
    m
}

/// A failed answer with `error` as its message.
pub fn failed(error: &str, timestamp: i64) -> AssistantMessage {
    let mut m = answer("", 0, timestamp);
    m.content.clear();
    m.usage = Default::default();
    m.stop_reason = StopReason::Error;
    m.error_message = Some(error.into());
    m
}

/// Milliseconds since the epoch.
pub fn now() -> i64 {
    now_ms()
}

impl Harness {
    /// A session with one Lua extension per source (written as `e0.lua`, `e1.lua`, ... in
    /// the session's folder) loaded and `session_start` emitted; the extensions' reports
    /// are kept in [`Harness::reports`]. Returns the load errors too.
    pub async fn with_extensions(sources: &[&str]) -> (Self, Vec<String>) {
        Self::with_extensions_config(sources, |_| {}).await
    }

    /// [`Harness::with_extensions`] with the host configuration adjusted by `configure`.
    pub async fn with_extensions_config(
        sources: &[&str],
        configure: impl FnOnce(&mut pi::lua::HostConfig),
    ) -> (Self, Vec<String>) {
        let tmp = tempfile::tempdir().unwrap();
        let session = SessionManager::in_memory(tmp.path());
        let mut h = Self::with_session(tmp, session);
        let errors = h.load_extensions(sources, configure).await;
        (h, errors)
    }

    /// Load one Lua extension per source into this session, then emit `session_start`.
    pub async fn load_extensions(
        &mut self,
        sources: &[&str],
        configure: impl FnOnce(&mut pi::lua::HostConfig),
    ) -> Vec<String> {
        let dir = self._tmp.path().join("extensions");
        std::fs::create_dir_all(&dir).unwrap();
        let paths: Vec<std::path::PathBuf> = sources
            .iter()
            .enumerate()
            .map(|(i, src)| {
                let path = dir.join(format!("e{i}.lua"));
                std::fs::write(&path, src).unwrap();
                path
            })
            .collect();
        let cwd = self._tmp.path().to_path_buf();
        let view = pi::lua::SharedView::new(&cwd);
        view.lock().capture_messages = true;
        let mut host = pi::lua::HostConfig::new(paths, cwd.clone());
        configure(&mut host);
        let handle = pi::lua::ExtensionHandle::start(host, view.clone());
        let report = handle.load().await;
        let errors = report.errors.iter().map(|e| format!("{e:?}")).collect();
        let builtin = pi::tools::builtin_tools(
            &["read", "bash", "edit", "write"],
            &pi::tools::ToolOptions::default(),
        );
        let mut bridge = pi::core::extension_bridge::ExtensionBridge::new(handle, view, builtin);
        bridge
            .merge_extension_tools(&mut self.agent.state.tools)
            .await;
        self.agent.set_extensions(bridge);
        self.agent.session_event("session_start", "startup").await;
        errors
    }

    /// What the extensions reported (handler failures and notices), oldest first.
    pub fn reports(&self) -> Vec<String> {
        match self.agent.extensions() {
            Some(ext) => ext.view.lock().messages.clone(),
            None => Vec::new(),
        }
    }
}
