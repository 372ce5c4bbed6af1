//! Every event pi defines reaches Lua handlers at the right moment with
//! pi's payload fields (tests/fixtures/extensions/recorder.lua logs them).

use crate::support::lua_agent;

use lua_agent::{fixture, session_with_config};
use pi::ai::model::ThinkingLevel;
use pi::ai::providers::faux::{faux_message, faux_text, faux_tool_call_with_id};
use pi::lua::HostConfig;
use pi::session::manager::SessionManager;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn read_log(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn types(log: &[Value]) -> Vec<String> {
    log.iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .filter(|t| t != "message_update")
        .collect()
}

#[tokio::test]
async fn a_prompt_with_a_tool_call_emits_pi_events_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("events.jsonl");
    let mut host = HostConfig::new(vec![fixture("recorder.lua")], dir.path());
    host.cli_flags = vec![("record".into(), Some(log.display().to_string()))];
    let (mut agent, faux) = session_with_config(host, SessionManager::in_memory(dir.path())).await;
    assert_eq!(
        types(&read_log(&log)),
        vec!["session_start", "resources_discover"]
    );
    std::fs::remove_file(&log).unwrap();

    std::fs::write(dir.path().join("a.txt"), "hello").unwrap();
    faux.push_message(faux_message(vec![faux_tool_call_with_id(
        "c1",
        "read",
        json!({"path": "a.txt"}),
    )]));
    faux.push_message(faux_message(vec![faux_text("done")]));
    agent.state.tools = agent.extensions().unwrap().all_tools.clone();
    agent
        .prompt("go".into(), Vec::new(), &CancellationToken::new())
        .await;
    let events = read_log(&log);
    assert_eq!(
        types(&events),
        vec![
            "input",
            "before_agent_start",
            "agent_start",
            "turn_start",
            "message_start",
            "message_end",
            "context",
            "message_start",
            "message_end",
            "tool_execution_start",
            "tool_call",
            "tool_result",
            "tool_execution_end",
            "message_start",
            "message_end",
            "turn_end",
            "turn_start",
            "context",
            "message_start",
            "message_end",
            "turn_end",
            "agent_end",
        ]
    );
    let roles: Vec<_> = events
        .iter()
        .filter(|e| e["type"] == "message_end")
        .map(|e| e["role"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(roles, vec!["user", "assistant", "toolResult", "assistant"]);
    let tool_call = events.iter().find(|e| e["type"] == "tool_call").unwrap();
    assert_eq!(tool_call["toolName"], "read");
    // The context handler kept only the last message: the second request
    // carried just the tool result.
    let contexts: Vec<_> = events.iter().filter(|e| e["type"] == "context").collect();
    assert_eq!(contexts[1]["count"], 3);
    assert_eq!(faux.last_context().unwrap().messages.len(), 1);
}

#[tokio::test]
async fn model_thinking_bash_switch_and_reload_events() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("events.jsonl");
    let mut host = HostConfig::new(vec![fixture("recorder.lua")], dir.path());
    host.cli_flags = vec![("record".into(), Some(log.display().to_string()))];
    let (mut agent, faux) = session_with_config(host, SessionManager::in_memory(dir.path())).await;
    std::fs::remove_file(&log).unwrap();

    let mut reasoning = faux.model();
    reasoning.id = "faux-reasoning".into();
    reasoning.reasoning = true;
    agent.set_model(reasoning, "cycle").await;
    agent.set_thinking_level(ThinkingLevel::High).await;
    let (output, code) = agent.user_bash_override("fake", false).await.unwrap();
    assert_eq!((output.as_str(), code), ("faked output", Some(0)));
    assert!(agent.user_bash_override("ls", true).await.is_none());
    let events = read_log(&log);
    assert_eq!(events[0]["type"], "model_select");
    assert_eq!(events[0]["model"], "faux-reasoning");
    assert_eq!(events[0]["previousModel"], faux.model().id);
    assert_eq!(events[0]["source"], "cycle");
    assert_eq!(events[1]["type"], "thinking_level_select");
    assert_eq!(events[1]["level"], "high");
    assert_eq!(events[1]["previousLevel"], "off");
    assert_eq!(events[2]["type"], "user_bash");
    assert_eq!(events[2]["command"], "fake");
    std::fs::remove_file(&log).unwrap();

    // A cancelled switch leaves the session alone.
    let signal = CancellationToken::new();
    agent
        .run_extension_command("cancel-switch", "on", &signal)
        .await
        .unwrap();
    let id = agent.session.session_id().to_string();
    assert!(!agent.new_session().await);
    assert_eq!(agent.session.session_id(), id);
    agent
        .run_extension_command("cancel-switch", "off", &signal)
        .await
        .unwrap();
    assert!(agent.new_session().await);
    assert_ne!(agent.session.session_id(), id);
    let events = read_log(&log);
    assert_eq!(
        types(&events),
        vec![
            "session_before_switch",
            "session_before_switch",
            "session_shutdown",
            "session_start",
            "resources_discover",
        ]
    );
    assert_eq!(events[0]["reason"], "new");
    assert_eq!(events[3]["reason"], "new");
    std::fs::remove_file(&log).unwrap();

    agent.reload_extensions().await.unwrap();
    let events = read_log(&log);
    assert_eq!(
        types(&events),
        vec!["session_shutdown", "session_start", "resources_discover"]
    );
    assert!(events.iter().all(|e| e["reason"] == "reload"));
}

#[tokio::test]
async fn fork_and_clone_emit_before_fork_shutdown_and_start() {
    use pi::core::session_switch::{BranchOutcome, BranchPosition};
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("events.jsonl");
    let mut host = HostConfig::new(vec![fixture("recorder.lua")], dir.path());
    host.cli_flags = vec![("record".into(), Some(log.display().to_string()))];
    let sessions = dir.path().join("sessions");
    let (mut agent, faux) =
        session_with_config(host, SessionManager::create(dir.path(), &sessions)).await;
    faux.push_message(faux_message(vec![faux_text("an answer")]));
    let signal = CancellationToken::new();
    agent
        .prompt("the question".into(), Vec::new(), &signal)
        .await;
    let first_file = agent.session.session_file().unwrap().to_path_buf();
    let question = agent
        .session
        .get_branch(None)
        .iter()
        .find(|e| matches!(e.as_message(), Some(pi::ai::types::Message::User(_))))
        .unwrap()
        .id()
        .to_string();

    // Cancelled by an extension: nothing changes.
    agent
        .run_extension_command("cancel-switch", "on", &signal)
        .await
        .unwrap();
    std::fs::remove_file(&log).ok();
    let outcome = agent
        .branch_session(&question, BranchPosition::Before)
        .await
        .unwrap();
    assert_eq!(outcome, BranchOutcome::Cancelled);
    assert_eq!(agent.session.session_file(), Some(first_file.as_path()));
    agent
        .run_extension_command("cancel-switch", "off", &signal)
        .await
        .unwrap();
    std::fs::remove_file(&log).ok();

    let outcome = agent
        .branch_session(&question, BranchPosition::Before)
        .await
        .unwrap();
    assert_eq!(
        outcome,
        BranchOutcome::Branched {
            text: Some("the question".into())
        }
    );
    assert_ne!(agent.session.session_file(), Some(first_file.as_path()));
    assert!(
        agent.state.messages.is_empty(),
        "a fork ends before the message"
    );
    let events = read_log(&log);
    assert_eq!(
        types(&events),
        vec![
            "session_before_fork",
            "session_shutdown",
            "session_start",
            "resources_discover"
        ]
    );
    assert_eq!(events[0]["entryId"], question.as_str());
    assert_eq!(events[0]["position"], "before");
    assert_eq!(events[1]["reason"], "fork");
    assert_eq!(events[2]["reason"], "fork");
    assert_eq!(
        events[2]["previousSessionFile"],
        first_file.display().to_string()
    );

    // The same through a command's ctx.fork, then ctx.compact on the original session.
    assert!(agent.resume_session(&first_file).await.unwrap());
    agent
        .run_extension_command("fork-at", &question, &signal)
        .await
        .unwrap();
    assert_ne!(agent.session.session_file(), Some(first_file.as_path()));
    assert!(agent.resume_session(&first_file).await.unwrap());
    faux.push_message(faux_message(vec![faux_text("the summary")]));
    agent
        .run_extension_command("compact-now", "keep names", &signal)
        .await
        .unwrap();
    let compacted = agent.session.entries().iter().any(|e| {
        matches!(e, pi::session::entries::SessionEntry::Compaction(c) if c.summary.contains("the summary"))
    });
    assert!(compacted, "ctx.compact appended a compaction");
    let log_rows = read_log(&log);
    let done = log_rows.iter().find(|e| e["type"] == "compact_done");
    assert!(
        done.is_some_and(|e| e["reason"].as_str().unwrap().contains("the summary")),
        "onComplete got the result: {log_rows:?}"
    );

    // A second compaction right away has nothing to summarise: onError hears why.
    agent
        .run_extension_command("compact-now", "again", &signal)
        .await
        .unwrap();
    let log_rows = read_log(&log);
    let failed = log_rows.iter().find(|e| e["type"] == "compact_error");
    assert!(
        failed.is_some_and(|e| !e["reason"].as_str().unwrap().is_empty()),
        "onError got the message: {log_rows:?}"
    );
}
