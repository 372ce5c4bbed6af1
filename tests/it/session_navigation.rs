//! `/tree`, `/fork`, `/clone` and `/compact` as the conversation task runs
//! them: pi's selection rules, branch summaries from the mock server, new
//! files with `parentSession`, a session file in pi's documented format, and
//! proof that existing bytes are never rewritten.

use crate::support;

use std::path::Path;
use std::sync::Arc;

use pi::agent::agent_loop::{AgentLoopConfig, AgentState, RequestAuth};
use pi::agent::tool::ExecutionMode;
use pi::ai::model::ThinkingLevel;
use pi::ai::stream::ProviderRegistry;
use pi::ai::types::Message;
use pi::config::settings_keys::CompactionSettings;
use pi::core::agent_session::{AgentSession, RetryPolicy};
use pi::session::entries::SessionEntry;
use pi::session::manager::SessionManager;
use pi::tui::app::session_task::UiEvent;
use pi::tui::app::session_tree_task::{TreeCommand, run_tree_command};
use pi::tui::panels::tree_rows::flatten;
use support::{MockReply, MockServer, llm::anthropic_model};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use tokio_util::sync::CancellationToken;

fn agent(server: &MockServer, session: SessionManager, cwd: &Path) -> AgentSession {
    let config = AgentLoopConfig {
        model: anthropic_model(&server.anthropic_base_url(), "claude-test"),
        thinking: ThinkingLevel::Off,
        providers: ProviderRegistry::builtin(),
        auth: Arc::new(|_| {
            Ok(RequestAuth {
                api_key: Some("test-key".into()),
                ..Default::default()
            })
        }),
        tool_execution: ExecutionMode::Parallel,
        session_id: None,
        block_images: false,
        convert_to_llm: pi::session::convert::convert_conversation,
        cwd: cwd.to_path_buf(),
        limits: Default::default(),
        settled: None,
    };
    let mut agent = AgentSession::new(
        AgentState::default(),
        config,
        session,
        RetryPolicy::default(),
    );
    agent.state.messages = agent.session.build_context().messages.into();
    agent
}

async fn run(agent: &mut AgentSession, command: TreeCommand) -> Vec<UiEvent> {
    let (tx, mut rx): (_, UnboundedReceiver<UiEvent>) = unbounded_channel();
    run_tree_command(agent, command, &tx).await;
    drop(tx);
    let mut out = Vec::new();
    while let Some(e) = rx.recv().await {
        out.push(e);
    }
    out
}

fn editor_text(events: &[UiEvent]) -> Option<String> {
    events.iter().find_map(|e| match e {
        UiEvent::EditorText(t) => Some(t.clone()),
        _ => None,
    })
}

fn failure(events: &[UiEvent]) -> Option<String> {
    events.iter().find_map(|e| match e {
        UiEvent::Failed(t) => Some(t.clone()),
        _ => None,
    })
}

fn navigate(target: &str, summarize: bool) -> TreeCommand {
    TreeCommand::Navigate {
        target: target.to_string(),
        summarize,
        instructions: summarize.then(|| "the trade-offs".to_string()),
        reserve_tokens: 16384,
        signal: CancellationToken::new(),
    }
}

/// Two prompts on disk: ids of [user1, answer1, user2, answer2].
async fn two_turns(agent: &mut AgentSession, server: &MockServer) -> Vec<String> {
    let signal = CancellationToken::new();
    for (q, a) in [
        ("plan the refactor", "here is a plan"),
        ("try approach A", "approach A done"),
    ] {
        server.push(MockReply::anthropic_text(a));
        agent.prompt(q.into(), Vec::new(), &signal).await;
    }
    agent
        .session
        .get_branch(None)
        .iter()
        .filter(|e| matches!(e, SessionEntry::Message(_)))
        .map(|e| e.id().to_string())
        .collect()
}

#[tokio::test]
async fn choosing_a_user_message_moves_to_its_parent_and_fills_the_editor() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let session = SessionManager::create(dir.path(), &dir.path().join("s"));
    let mut agent = agent(&server, session, dir.path());
    let ids = two_turns(&mut agent, &server).await;
    let file = agent.session.session_file().unwrap().to_path_buf();
    agent.session.sync().unwrap();
    let before = std::fs::read(&file).unwrap();

    let events = run(&mut agent, navigate(&ids[2], false)).await;
    assert_eq!(editor_text(&events).as_deref(), Some("try approach A"));
    assert_eq!(agent.session.leaf_id(), Some(ids[1].as_str()));
    assert_eq!(agent.state.messages.len(), 2);

    // An assistant entry becomes the leaf itself; no editor text.
    let events = run(&mut agent, navigate(&ids[3], false)).await;
    assert_eq!(editor_text(&events), None);
    assert_eq!(agent.session.leaf_id(), Some(ids[3].as_str()));

    // The root user message resets to an empty conversation.
    let events = run(&mut agent, navigate(&ids[0], false)).await;
    assert_eq!(editor_text(&events).as_deref(), Some("plan the refactor"));
    assert_eq!(agent.session.leaf_id(), None);
    assert!(agent.state.messages.is_empty());

    // A target that no longer exists is refused clearly.
    let events = run(&mut agent, navigate("deadbeef", false)).await;
    assert!(failure(&events).unwrap().contains("no longer exists"));

    // Moving the leaf writes nothing.
    agent.session.sync().unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[tokio::test]
async fn branch_summary_of_the_abandoned_branch_is_appended_at_the_new_position() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let session = SessionManager::create(dir.path(), &dir.path().join("s"));
    let mut agent = agent(&server, session, dir.path());
    let ids = two_turns(&mut agent, &server).await;
    let file = agent.session.session_file().unwrap().to_path_buf();
    agent.session.sync().unwrap();
    let before = std::fs::read(&file).unwrap();

    server.push(MockReply::anthropic_text("## Goal\nApproach A"));
    let events = run(&mut agent, navigate(&ids[1], true)).await;
    assert_eq!(failure(&events), None);
    let request = server.last_request().unwrap();
    let prompt = request.json()["messages"][0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(prompt.starts_with(
        "<conversation>\n[User]: try approach A\n\n[Assistant]: approach A done\n</conversation>"
    ));
    assert!(prompt.contains("Create a structured summary of this conversation branch"));
    assert!(
        prompt.ends_with("\n\nAdditional focus: the trade-offs"),
        "{prompt}"
    );

    let leaf = agent.session.leaf_entry().unwrap().clone();
    let SessionEntry::BranchSummary(summary) = &leaf else {
        panic!("leaf should be a branch summary: {leaf:?}");
    };
    assert_eq!(summary.parent_id.as_deref(), Some(ids[1].as_str()));
    // pi records the position branched from as `fromId`.
    assert_eq!(summary.from_id, ids[1]);
    assert!(summary.summary.starts_with(
        "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n## Goal\nApproach A"
    ));
    assert!(matches!(
        agent.state.messages.last().as_deref(),
        Some(Message::BranchSummary(b)) if b.summary == summary.summary
    ));
    agent.session.sync().unwrap();
    let after = std::fs::read(&file).unwrap();
    assert_eq!(&after[..before.len()], &before[..], "prefix unchanged");
    assert!(after.len() > before.len());
}

#[tokio::test]
async fn fork_and_clone_write_new_files_naming_their_parent() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let session = SessionManager::create(dir.path(), &dir.path().join("s"));
    let mut agent = agent(&server, session, dir.path());
    let ids = two_turns(&mut agent, &server).await;
    let original = agent.session.session_file().unwrap().to_path_buf();
    agent.session.sync().unwrap();
    let original_bytes = std::fs::read(&original).unwrap();

    let events = run(&mut agent, TreeCommand::ForkList).await;
    let Some(UiEvent::ForkMessages(list)) = events.first() else {
        panic!("fork list expected");
    };
    assert_eq!(
        list.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>(),
        ["plan the refactor", "try approach A"]
    );

    let events = run(&mut agent, TreeCommand::Fork(ids[2].clone())).await;
    assert_eq!(editor_text(&events).as_deref(), Some("try approach A"));
    let forked = agent.session.session_file().unwrap().to_path_buf();
    assert_ne!(forked, original);
    let forked_text = std::fs::read_to_string(&forked).unwrap();
    let header: serde_json::Value =
        serde_json::from_str(forked_text.lines().next().unwrap()).unwrap();
    assert_eq!(header["parentSession"], original.display().to_string());
    assert_eq!(agent.session.leaf_id(), Some(ids[1].as_str()));
    assert_eq!(agent.state.messages.len(), 2);

    let events = run(&mut agent, TreeCommand::Clone).await;
    assert_eq!(failure(&events), None);
    let cloned = agent.session.session_file().unwrap().to_path_buf();
    assert_ne!(cloned, forked);
    let cloned_text = std::fs::read_to_string(&cloned).unwrap();
    let header: serde_json::Value =
        serde_json::from_str(cloned_text.lines().next().unwrap()).unwrap();
    assert_eq!(header["parentSession"], forked.display().to_string());
    assert_eq!(
        cloned_text.lines().skip(1).collect::<Vec<_>>(),
        forked_text.lines().skip(1).collect::<Vec<_>>(),
        "the clone holds the same path"
    );
    assert_eq!(std::fs::read(&original).unwrap(), original_bytes);
}

const PI_FORMAT: &str = r#"{"type":"session","version":3,"id":"0b6e1c9a-1111-4aaa-8bbb-123456789abc","timestamp":"2024-12-03T14:00:00.000Z","cwd":"/path/to/project"}
{"type":"model_change","id":"m0000001","parentId":null,"timestamp":"2024-12-03T14:00:00.500Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}
{"type":"message","id":"a1b2c3d4","parentId":"m0000001","timestamp":"2024-12-03T14:00:01.000Z","message":{"role":"user","content":"Hello, read main.rs","timestamp":1733234401000}}
{"type":"message","id":"b2c3d4e5","parentId":"a1b2c3d4","timestamp":"2024-12-03T14:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_123","name":"read","arguments":{"path":"src/main.rs"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1733234402000}}
{"type":"message","id":"c3d4e5f6","parentId":"b2c3d4e5","timestamp":"2024-12-03T14:00:03.000Z","message":{"role":"toolResult","toolCallId":"call_123","toolName":"read","content":[{"type":"text","text":"fn main() {}"}],"isError":false,"timestamp":1733234403000}}
{"type":"message","id":"d4e5f6a7","parentId":"c3d4e5f6","timestamp":"2024-12-03T14:00:04.000Z","message":{"role":"assistant","content":[{"type":"text","text":"It is empty."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":30,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":35,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1733234404000}}
{"type":"compaction","id":"f6g7h8i9","parentId":"d4e5f6a7","timestamp":"2024-12-03T14:10:00.000Z","summary":"User asked about main.rs.","firstKeptEntryId":"d4e5f6a7","tokensBefore":50000,"details":{"readFiles":["src/main.rs"],"modifiedFiles":[]}}
{"type":"message","id":"e5f6a7b8","parentId":"f6g7h8i9","timestamp":"2024-12-03T14:11:00.000Z","message":{"role":"user","content":"Now add logging","timestamp":1733235060000}}
{"type":"message","id":"f7a8b9c0","parentId":"e5f6a7b8","timestamp":"2024-12-03T14:11:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Added logging to src/main.rs."},{"type":"toolCall","id":"call_2","name":"edit","arguments":{"path":"src/main.rs","oldText":"a","newText":"b"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":40,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":45,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1733235065000}}
{"type":"branch_summary","id":"g7h8i9j0","parentId":"a1b2c3d4","timestamp":"2024-12-03T14:15:00.000Z","fromId":"f7a8b9c0","summary":"Branch explored logging.","details":{"readFiles":[],"modifiedFiles":["src/main.rs"]}}
{"type":"label","id":"j0k1l2m3","parentId":"g7h8i9j0","timestamp":"2024-12-03T14:30:00.000Z","targetId":"a1b2c3d4","label":"checkpoint-1"}
{"type":"message","id":"h8i9j0k1","parentId":"j0k1l2m3","timestamp":"2024-12-03T14:31:00.000Z","message":{"role":"user","content":"Try tracing instead","timestamp":1733236260000}}
{"type":"message","id":"i9j0k1l2","parentId":"h8i9j0k1","timestamp":"2024-12-03T14:31:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Using tracing."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":50,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":55,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1733236265000}}
"#;

#[tokio::test]
async fn a_pi_format_session_opens_navigates_and_compacts_by_appending() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("2024-12-03T14-00-00-000Z_0b6e1c9a.jsonl");
    std::fs::write(&file, PI_FORMAT).unwrap();
    let session = SessionManager::open(&file).unwrap();
    let mut agent = agent(&server, session, dir.path());

    // Current branch: root user, branch summary, (label), new user, answer.
    let roles: Vec<&str> = agent.state.messages.iter().map(|m| m.role()).collect();
    assert_eq!(roles, ["user", "branchSummary", "user", "assistant"]);
    let tree = flatten(&agent.session);
    let labeled = tree.rows.iter().find(|r| r.id == "a1b2c3d4").unwrap();
    assert_eq!(labeled.label.as_deref(), Some("checkpoint-1"));
    assert!(labeled.on_path);
    let compaction_row = tree.rows.iter().find(|r| r.id == "f6g7h8i9").unwrap();
    assert!(!compaction_row.on_path);
    assert!(
        compaction_row.depth > labeled.depth,
        "a branch point indents"
    );

    // Navigate to the compacted branch's last answer: its context starts
    // with the compaction summary and keeps from firstKeptEntryId.
    let events = run(&mut agent, navigate("f7a8b9c0", false)).await;
    assert_eq!(failure(&events), None);
    let roles: Vec<&str> = agent.state.messages.iter().map(|m| m.role()).collect();
    assert_eq!(
        roles,
        ["compactionSummary", "assistant", "user", "assistant"]
    );

    // Compact there: the previous summary is updated and the file lists
    // carry over from the earlier compaction's details.
    agent.compaction = CompactionSettings {
        enabled: true,
        reserve_tokens: 16384,
        // The last answer is 21 estimated tokens: keep it and its prompt.
        keep_recent_tokens: 23,
    };
    let before = std::fs::read(&file).unwrap();
    server.push(MockReply::anthropic_text("Updated summary."));
    let events = run(
        &mut agent,
        TreeCommand::Compact {
            instructions: String::new(),
            signal: CancellationToken::new(),
        },
    )
    .await;
    assert_eq!(failure(&events), None);
    let prompt = server.last_request().unwrap().json()["messages"][0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(prompt.contains("<previous-summary>\nUser asked about main.rs.\n</previous-summary>"));
    let SessionEntry::Compaction(entry) = agent.session.leaf_entry().unwrap() else {
        panic!("leaf should be the new compaction");
    };
    assert_eq!(entry.parent_id.as_deref(), Some("f7a8b9c0"));
    assert_eq!(entry.first_kept_entry_id, "e5f6a7b8");
    assert_eq!(
        entry.details,
        Some(serde_json::json!({"readFiles": ["src/main.rs"], "modifiedFiles": []}))
    );
    assert!(entry.summary.starts_with("Updated summary."));
    agent.session.sync().unwrap();
    let after = std::fs::read(&file).unwrap();
    assert_eq!(
        &after[..before.len()],
        &before[..],
        "existing bytes untouched"
    );
    assert_eq!(before, PI_FORMAT.as_bytes());
    let appended = std::str::from_utf8(&after[before.len()..]).unwrap();
    assert_eq!(appended.lines().count(), 1);
    assert!(appended.starts_with("{\"type\":\"compaction\""));
}
