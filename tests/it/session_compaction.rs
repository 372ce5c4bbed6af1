//! Compaction inside an `AgentSession` against the mock LLM server:
//! manual `/compact` (first and iterative), overflow recovery (compact, then
//! retry the turn once), failures leaving the session unchanged, and the
//! file never being rewritten.

use crate::support;

use std::path::Path;
use std::sync::{Arc, Mutex};

use pi::agent::agent_loop::{AgentLoopConfig, AgentState, RequestAuth};
use pi::agent::events::AgentEvent;
use pi::agent::tool::ExecutionMode;
use pi::ai::model::ThinkingLevel;
use pi::ai::stream::ProviderRegistry;
use pi::ai::types::Message;
use pi::config::settings_keys::CompactionSettings;
use pi::core::agent_session::{AgentSession, CompactionReason, RetryPolicy};
use pi::session::entries::SessionEntry;
use pi::session::manager::SessionManager;
use serde_json::Value;
use support::{MockReply, MockServer, llm::anthropic_model};
use tokio_util::sync::CancellationToken;

fn agent(server: &MockServer, session: SessionManager, cwd: &Path, keep: u64) -> AgentSession {
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
    let mut retry = RetryPolicy::default();
    retry.settings.enabled = false;
    let mut agent = AgentSession::new(
        AgentState {
            system_prompt: "sys".into(),
            ..Default::default()
        },
        config,
        session,
        retry,
    );
    agent.compaction = CompactionSettings {
        enabled: true,
        reserve_tokens: 16384,
        keep_recent_tokens: keep,
    };
    agent
}

fn events_of(agent: &mut AgentSession) -> Arc<Mutex<Vec<Value>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    agent.subscribe(Box::new(move |e: &AgentEvent| {
        if matches!(
            e,
            AgentEvent::CompactionStart { .. } | AgentEvent::CompactionEnd { .. }
        ) {
            sink.lock().unwrap().push(serde_json::to_value(e).unwrap());
        }
    }));
    seen
}

fn prompt_text(request: &support::CapturedRequest) -> String {
    request.json()["messages"][0]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn compactions(agent: &AgentSession) -> Vec<&pi::session::entries::CompactionEntry> {
    agent
        .session
        .entries()
        .iter()
        .filter_map(|e| match e {
            SessionEntry::Compaction(c) => Some(c),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn manual_compaction_appends_an_entry_and_updates_it_iteratively() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let session = SessionManager::create(dir.path(), &dir.path().join("sessions"));
    let mut agent = agent(&server, session, dir.path(), 5);
    let events = events_of(&mut agent);
    let signal = CancellationToken::new();
    for (q, a) in [
        ("first question", "first answer"),
        ("second question", "second answer"),
    ] {
        server.push(MockReply::anthropic_text(a));
        agent.prompt(q.into(), Vec::new(), &signal).await;
    }
    let file = agent.session.session_file().unwrap().to_path_buf();
    let before = std::fs::read(&file).unwrap();

    server.push(MockReply::anthropic_text("## Goal\nSUMMARY ONE"));
    let result = agent
        .compact(Some("keep names"), CompactionReason::Manual, false, &signal)
        .await
        .expect("compaction succeeds");
    let request = server.last_request().unwrap();
    assert!(
        request.json()["system"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("You are a context summarization assistant.")
    );
    let text = prompt_text(&request);
    assert!(
        text.starts_with("<conversation>\n[User]: first question\n\n[Assistant]: first answer")
    );
    assert!(text.contains("Create a structured context checkpoint summary"));
    assert!(text.ends_with("Additional focus: keep names"));
    assert_eq!(result.summary, "## Goal\nSUMMARY ONE");

    // Appended, never rewritten: the old bytes are an exact prefix.
    let after = std::fs::read(&file).unwrap();
    assert_eq!(&after[..before.len()], &before[..]);
    let entries = compactions(&agent);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].first_kept_entry_id, result.first_kept_entry_id);
    assert_eq!(agent.session.leaf_id(), Some(entries[0].id.as_str()));
    // The context now starts with the summary.
    assert!(matches!(
        agent.state.messages.first().as_deref(),
        Some(Message::CompactionSummary(s)) if s.summary == "## Goal\nSUMMARY ONE"
    ));

    server.push(MockReply::anthropic_text("third answer"));
    agent
        .prompt("third question".into(), Vec::new(), &signal)
        .await;
    server.push(MockReply::anthropic_text("SUMMARY TWO"));
    agent
        .compact(None, CompactionReason::Manual, false, &signal)
        .await
        .expect("second compaction succeeds");
    let text = prompt_text(&server.last_request().unwrap());
    assert!(text.contains("<previous-summary>\n## Goal\nSUMMARY ONE\n</previous-summary>"));
    assert!(text.contains("The messages above are NEW conversation messages"));
    assert_eq!(compactions(&agent).len(), 2);

    let kinds: Vec<String> = events
        .lock()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{}:{}",
                e["type"].as_str().unwrap(),
                e["reason"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "compaction_start:manual",
            "compaction_end:manual",
            "compaction_start:manual",
            "compaction_end:manual"
        ]
    );

    // Reopening the file resolves the same context.
    agent.session.sync().unwrap();
    let reopened = SessionManager::open(&file).unwrap();
    assert_eq!(reopened.build_context().messages, agent.state.messages);
}

#[tokio::test]
async fn context_overflow_compacts_then_retries_the_turn_once() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let mut agent = agent(
        &server,
        SessionManager::in_memory(dir.path()),
        dir.path(),
        3,
    );
    let events = events_of(&mut agent);
    let signal = CancellationToken::new();
    server.push(MockReply::anthropic_text("early answer"));
    agent
        .prompt("early question".into(), Vec::new(), &signal)
        .await;

    server.push(MockReply::anthropic_error(
        400,
        "invalid_request_error",
        "prompt is too long: 213462 tokens > 200000 maximum",
    ));
    server.push(MockReply::anthropic_text("## Goal\nOVERFLOW SUMMARY"));
    server.push(MockReply::anthropic_text("answer after compaction"));
    agent
        .prompt("big question".into(), Vec::new(), &signal)
        .await;

    let requests = server.requests();
    assert_eq!(requests.len(), 4, "prompt, overflow, summary, retry");
    assert!(prompt_text(&requests[2]).starts_with("<conversation>\n[User]: early question"));
    let retried = requests[3].json();
    let retried_text = retried["messages"].to_string();
    assert!(retried_text.contains("OVERFLOW SUMMARY"), "{retried_text}");
    assert!(retried_text.contains("big question"));
    assert!(!retried_text.contains("prompt is too long"));
    let last = agent.last_assistant().unwrap();
    assert_eq!(last.content.len(), 1);
    assert_eq!(
        serde_json::to_value(&last.content[0]).unwrap()["text"],
        "answer after compaction"
    );
    let ev = events.lock().unwrap().clone();
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[0]["reason"], "overflow");
    assert_eq!(ev[1]["willRetry"], true);
    assert_eq!(ev[1]["result"]["summary"], "## Goal\nOVERFLOW SUMMARY");
}

#[tokio::test]
async fn a_failed_summary_leaves_the_session_unchanged_and_says_why() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let mut agent = agent(
        &server,
        SessionManager::in_memory(dir.path()),
        dir.path(),
        5,
    );
    let signal = CancellationToken::new();
    server.push(MockReply::anthropic_text("answer"));
    agent.prompt("question".into(), Vec::new(), &signal).await;
    let entries_before = agent.session.entries().len();
    let messages_before = agent.state.messages.clone();
    server.push(MockReply::anthropic_error(
        401,
        "authentication_error",
        "invalid x-api-key",
    ));
    let err = agent
        .compact(None, CompactionReason::Manual, false, &signal)
        .await
        .unwrap_err();
    assert!(
        matches!(err, pi::compaction::error::CompactionError::Summary { .. }),
        "{err:?}"
    );
    let err = err.to_string();
    assert!(err.starts_with("Summarization failed:"), "{err}");
    assert!(err.contains("invalid x-api-key"), "{err}");
    assert_eq!(agent.session.entries().len(), entries_before);
    assert_eq!(agent.state.messages, messages_before);
}

#[tokio::test]
async fn threshold_compaction_runs_after_a_turn_that_fills_the_window() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let mut agent = agent(
        &server,
        SessionManager::in_memory(dir.path()),
        dir.path(),
        5,
    );
    agent.config.model.context_window = 20_000;
    let events = events_of(&mut agent);
    let signal = CancellationToken::new();
    server.push(MockReply::anthropic_text("small"));
    agent.prompt("one".into(), Vec::new(), &signal).await;
    assert!(events.lock().unwrap().is_empty(), "below the threshold");
    // Usage reported by the mock: input tokens above window - reserve.
    server.push(MockReply::anthropic(
        support::AnthropicSse::new()
            .message_start("msg_1", 5000)
            .text("big")
            .message_delta("end_turn", 10)
            .message_stop(),
    ));
    server.push(MockReply::anthropic_text("THRESHOLD SUMMARY"));
    agent.prompt("two".into(), Vec::new(), &signal).await;
    let ev = events.lock().unwrap().clone();
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!(ev[0]["reason"], "threshold");
    assert_eq!(ev[1]["willRetry"], false);
    assert_eq!(compactions(&agent).len(), 1);
}

#[tokio::test]
async fn resuming_a_session_past_the_threshold_compacts_before_sending() {
    // The original's large-session fixture: its last answer used ~177k tokens, far past a
    // 100k window's threshold, so the next prompt first compacts and then sends only the
    // summary, the kept messages and the prompt instead of the whole history. pi 0.73.1's
    // own cut-point code keeps the last 181 of the fixture's 1018 entries (from index 837,
    // inside a turn starting at 834); the conformance suite checks the same cut.
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("large-session.jsonl");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/conformance/large-session.jsonl"),
        &file,
    )
    .unwrap();
    let session = SessionManager::open(&file).unwrap();
    let history = session.build_context().messages;
    assert_eq!(history.len(), 914);
    let mut agent = agent(&server, session, dir.path(), 20_000);
    agent.state.messages = history.into();
    agent.config.model.context_window = 100_000;
    let events = events_of(&mut agent);
    // The cut lands inside a turn: the history and the turn's start are summarised.
    server.push(MockReply::anthropic_text("## Goal\nRESUME SUMMARY"));
    server.push(MockReply::anthropic_text("TURN PREFIX SUMMARY"));
    server.push(MockReply::anthropic_text("answer"));
    agent
        .prompt(
            "next question".into(),
            Vec::new(),
            &CancellationToken::new(),
        )
        .await;
    let requests = server.requests();
    assert_eq!(requests.len(), 3, "two summaries, then the prompt");
    assert!(prompt_text(&requests[0]).starts_with("<conversation>"));
    assert!(prompt_text(&requests[1]).starts_with("<conversation>"));
    let sent = requests[2].json()["messages"].as_array().unwrap().len();
    assert_eq!(sent, 179, "summary, kept messages and the prompt");
    let ev = events.lock().unwrap().clone();
    assert_eq!(ev[0]["reason"], "threshold");
    assert_eq!(compactions(&agent).len(), 1);
}
