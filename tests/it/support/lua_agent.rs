//! An `AgentSession` with Lua extensions, driven by the faux provider.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pi::agent::agent_loop::{AgentLoopConfig, AgentState, RequestAuth};
use pi::agent::tool::ExecutionMode;
use pi::ai::model::ThinkingLevel;
use pi::ai::providers::faux::FauxProvider;
use pi::ai::stream::ProviderRegistry;
use pi::core::agent_session::{AgentSession, RetryPolicy};
use pi::core::extension_bridge::ExtensionBridge;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi::session::manager::SessionManager;
use serde_json::Value;

/// A fixture under tests/fixtures/extensions.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/extensions")
        .join(name)
}

/// A session in `cwd` with the extensions at `paths` loaded and
/// `session_start` emitted; panics when one fails to load.
pub async fn session_with(paths: Vec<PathBuf>, cwd: &Path) -> (AgentSession, FauxProvider) {
    session_with_config(HostConfig::new(paths, cwd), SessionManager::in_memory(cwd)).await
}

/// [`session_with`] with a host configuration and session store of choice.
pub async fn session_with_config(
    host: HostConfig,
    session: SessionManager,
) -> (AgentSession, FauxProvider) {
    session_with_tools(host, session, &[]).await
}

/// [`session_with_config`] where the built-in tools `active` are active from
/// the start (every session knows read, bash, edit and write).
pub async fn session_with_tools(
    host: HostConfig,
    session: SessionManager,
    active: &[&str],
) -> (AgentSession, FauxProvider) {
    let cwd = host.cwd.clone();
    let faux = FauxProvider::new();
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
        cwd: cwd.clone(),
        limits: Default::default(),
        settled: None,
    };
    let view = SharedView::new(&cwd);
    let handle = ExtensionHandle::start(host, view.clone());
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let builtin = pi::tools::builtin_tools(
        &["read", "bash", "edit", "write"],
        &pi::tools::ToolOptions::default(),
    );
    let mut bridge = ExtensionBridge::new(handle, view, builtin);
    let mut reasoning = faux.model();
    reasoning.id = "faux-reasoning".into();
    reasoning.reasoning = true;
    bridge.models = vec![faux.model(), reasoning];
    let mut tools: Vec<_> = bridge
        .all_tools
        .iter()
        .filter(|t| active.contains(&t.name()))
        .cloned()
        .collect();
    bridge.merge_extension_tools(&mut tools).await;
    let state = AgentState {
        system_prompt: "sys".into(),
        messages: Default::default(),
        tools,
        run: Default::default(),
    };
    let mut session = session;
    let model = faux.model();
    session.append_model_change(&model.provider, &model.id);
    let mut agent = AgentSession::new(state, config, session, RetryPolicy::default());
    agent.set_extensions(bridge);
    agent.session_event("session_start", "startup").await;
    (agent, faux)
}

/// Tool names of the last request the faux provider received.
pub fn tool_names(faux: &FauxProvider) -> Vec<String> {
    let ctx = faux.last_context().unwrap();
    ctx.tools.iter().map(|t| t.name.clone()).collect()
}

/// `data` of every custom entry of `kind`, in order.
pub fn custom_entries(agent: &AgentSession, kind: &str) -> Vec<Value> {
    agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["type"] == "custom" && e["customType"] == kind)
        .map(|e| e["data"].clone())
        .collect()
}

/// Write `source` as `name` in `dir` and return its path.
pub fn write_extension(dir: &Path, name: &str, source: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path
}
