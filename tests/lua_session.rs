//! Extensions inside an `AgentSession` driven by the faux provider: reload
//! swaps tools, details are rebuilt from the branch after reload.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pi::agent::agent_loop::{AgentLoopConfig, AgentState, RequestAuth};
use pi::agent::tool::ExecutionMode;
use pi::ai::faux::{FauxProvider, faux_message, faux_text, faux_tool_call_with_id};
use pi::ai::model::ThinkingLevel;
use pi::ai::stream::ProviderRegistry;
use pi::app::agent_session::{AgentSession, RetryPolicy};
use pi::app::extension_bridge::ExtensionBridge;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi::session::manager::SessionManager;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/extensions")
        .join(name)
}

async fn session_with(paths: Vec<PathBuf>, cwd: &Path) -> (AgentSession, FauxProvider) {
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
        convert_to_llm: pi::session::convert::convert_to_llm,
        cwd: cwd.to_path_buf(),
    };
    let view = SharedView::new(cwd);
    let handle = ExtensionHandle::start(HostConfig::new(paths, cwd), view.clone());
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let mut bridge = ExtensionBridge::new(handle, view, Vec::new());
    let mut tools = Vec::new();
    bridge.merge_extension_tools(&mut tools).await;
    let state = AgentState {
        system_prompt: "sys".into(),
        messages: Vec::new(),
        tools,
    };
    let mut agent = AgentSession::new(
        state,
        config,
        SessionManager::in_memory(cwd),
        RetryPolicy::default(),
    );
    agent.set_extensions(bridge);
    agent.session_event("session_start", "startup").await;
    (agent, faux)
}

fn tool_names(faux: &FauxProvider) -> Vec<String> {
    let ctx = faux.last_context().unwrap();
    ctx.tools.iter().map(|t| t.name.clone()).collect()
}

fn custom_entries(agent: &AgentSession, kind: &str) -> Vec<Value> {
    agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["type"] == "custom" && e["customType"] == kind)
        .map(|e| e["data"].clone())
        .collect()
}

#[tokio::test]
async fn a_deleted_extensions_tool_is_gone_after_reload() {
    let dir = tempfile::tempdir().unwrap();
    let ext = dir.path().join("temp_tool.lua");
    std::fs::write(
        &ext,
        "return function(pi)\n  pi.registerTool({ name = 'temp_tool', description = 'temporary', execute = function() return { content = 'x' } end })\nend\n",
    )
    .unwrap();
    let (mut agent, faux) = session_with(vec![ext.clone()], dir.path()).await;
    let signal = CancellationToken::new();
    faux.push_text("one");
    agent.prompt("hi".into(), Vec::new(), &signal).await;
    assert_eq!(tool_names(&faux), vec!["temp_tool"]);

    std::fs::remove_file(&ext).unwrap();
    let report = agent.reload_extensions().await.unwrap();
    assert_eq!(report.errors.len(), 1, "the deleted file fails to load");
    faux.push_text("two");
    agent.prompt("again".into(), Vec::new(), &signal).await;
    assert!(tool_names(&faux).is_empty(), "{:?}", tool_names(&faux));
}

#[tokio::test]
async fn tool_details_are_persisted_and_rebuilt_from_the_branch_after_reload() {
    let dir = tempfile::tempdir().unwrap();
    let (mut agent, faux) = session_with(
        vec![fixture("tools.lua"), fixture("rebuild.lua")],
        dir.path(),
    )
    .await;
    assert_eq!(
        custom_entries(&agent, "rebuilt"),
        vec![json!({"reason": "startup", "steps": 0})]
    );
    faux.push_message(faux_message(vec![faux_tool_call_with_id(
        "c1",
        "progress",
        json!({"steps": 2}),
    )]));
    faux.push_message(faux_message(vec![faux_text("done")]));
    let signal = CancellationToken::new();
    agent.prompt("count".into(), Vec::new(), &signal).await;
    agent.reload_extensions().await.unwrap();
    assert_eq!(
        custom_entries(&agent, "rebuilt"),
        vec![
            json!({"reason": "startup", "steps": 0}),
            json!({"reason": "reload", "steps": 2})
        ]
    );
}
