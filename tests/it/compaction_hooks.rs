//! Extensions and compaction: `session_before_compact` may cancel or supply
//! the summary (no model call), `session_compact` reports the entry, and
//! `session_before_tree` may cancel navigation.

use std::path::Path;
use std::sync::Arc;

use pi::agent::agent_loop::{AgentLoopConfig, AgentState, RequestAuth};
use pi::agent::tool::ExecutionMode;
use pi::ai::model::ThinkingLevel;
use pi::ai::providers::faux::FauxProvider;
use pi::ai::stream::ProviderRegistry;
use pi::core::agent_session::{AgentSession, CompactionReason, RetryPolicy};
use pi::core::extension_bridge::ExtensionBridge;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi::session::entries::SessionEntry;
use pi::session::manager::SessionManager;
use pi::tui::app::session_task::UiEvent;
use pi::tui::app::session_tree_task::{TreeCommand, run_tree_command};
use tokio_util::sync::CancellationToken;

const EXTENSION: &str = r#"
return function(pi)
  pi.on("session_before_compact", function(event, ctx)
    if event.customInstructions == "cancel" then
      return { cancel = true }
    end
    return { compaction = {
      summary = "custom summary of " .. #event.preparation.messagesToSummarize .. " messages",
      details = { by = "lua" },
    } }
  end)
  pi.on("session_compact", function(event, ctx)
    pi.appendEntry("saw-compaction", { summary = event.compactionEntry.summary, fromExtension = event.fromExtension })
  end)
  pi.on("session_before_tree", function(event, ctx)
    return { cancel = true }
  end)
end
"#;

async fn agent_with_extension(cwd: &Path) -> (AgentSession, FauxProvider) {
    let path = cwd.join("hooks.lua");
    std::fs::write(&path, EXTENSION).unwrap();
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
        cwd: cwd.to_path_buf(),
        limits: Default::default(),
        settled: None,
    };
    let view = SharedView::new(cwd);
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], cwd), view.clone());
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let mut agent = AgentSession::new(
        AgentState::default(),
        config,
        SessionManager::in_memory(cwd),
        RetryPolicy::default(),
    );
    agent.set_extensions(ExtensionBridge::new(handle, view, Vec::new()));
    agent.compaction.keep_recent_tokens = 1;
    (agent, faux)
}

#[tokio::test]
async fn extensions_supply_or_cancel_compaction_and_cancel_navigation() {
    let dir = tempfile::tempdir().unwrap();
    let (mut agent, faux) = agent_with_extension(dir.path()).await;
    let signal = CancellationToken::new();
    for text in ["one", "two"] {
        faux.push_text(&format!("answer {text} with enough words to count"));
        agent
            .prompt(format!("question {text}"), Vec::new(), &signal)
            .await;
    }
    let calls_before = faux.call_count();
    let entries_before = agent.session.entries().len();
    let err = agent
        .compact(Some("cancel"), CompactionReason::Manual, false, &signal)
        .await
        .unwrap_err();
    assert_eq!(err, pi::compaction::error::CompactionError::Cancelled);
    assert_eq!(err.to_string(), "Compaction cancelled");
    assert_eq!(agent.session.entries().len(), entries_before);

    let result = agent
        .compact(None, CompactionReason::Manual, false, &signal)
        .await
        .unwrap();
    assert_eq!(
        faux.call_count(),
        calls_before,
        "no model call for a supplied summary"
    );
    assert!(
        result.summary.starts_with("custom summary of "),
        "{}",
        result.summary
    );
    let compaction = agent
        .session
        .entries()
        .iter()
        .find_map(|e| match e {
            SessionEntry::Compaction(c) => Some(c.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(compaction.from_hook, Some(true));
    assert_eq!(compaction.details, Some(serde_json::json!({"by": "lua"})));
    let seen = agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .find(|e| e["customType"] == "saw-compaction")
        .expect("session_compact handler ran");
    assert_eq!(seen["data"]["summary"], compaction.summary.as_str());
    assert_eq!(seen["data"]["fromExtension"], true);

    let first = agent.session.get_branch(None)[0].id().to_string();
    let leaf = agent.session.leaf_id().map(str::to_string);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    run_tree_command(
        &mut agent,
        TreeCommand::Navigate {
            target: first,
            summarize: false,
            instructions: None,
            reserve_tokens: 16384,
            signal: CancellationToken::new(),
        },
        &tx,
    )
    .await;
    drop(tx);
    let mut failed = None;
    while let Some(e) = rx.recv().await {
        if let UiEvent::Failed(m) = e {
            failed = Some(m);
        }
    }
    assert_eq!(
        failed.as_deref(),
        Some("Navigation cancelled by an extension.")
    );
    assert_eq!(agent.session.leaf_id().map(str::to_string), leaf);
}
