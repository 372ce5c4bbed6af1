//! Compacting a session by hand (`/compact`): the summary and the tokens before it, the
//! context starting with the summary, the session going on afterwards, the entry in the
//! session file, the same without a session file, and the events it emits (`compaction_*`
//! with reason `manual`). pi 0.73.1 runs these against a live model; here the faux model
//! answers.
//! orig-file: packages/coding-agent/test/agent-session-compaction.test.ts

use pi::core::session_command::{Outcome, SessionCommand};
use pi::session::entries::SessionEntry;
use pi::session::manager::SessionManager;

use crate::session_harness::Harness;

fn harness(persisted: bool) -> Harness {
    let tmp = tempfile::tempdir().unwrap();
    let session = if persisted {
        SessionManager::create(tmp.path(), &tmp.path().join("sessions"))
    } else {
        SessionManager::in_memory(tmp.path())
    };
    let mut h = Harness::with_session(tmp, session);
    // Small test conversations still have something to summarize.
    h.agent.compaction.keep_recent_tokens = 1;
    h
}

async fn say(h: &mut Harness, prompts: &[&str]) {
    for (i, p) in prompts.iter().enumerate() {
        h.faux.push_text(&format!("answer {}", i + 1));
        h.prompt(p).await;
    }
}

async fn compact(h: &mut Harness) -> pi::compaction::CompactionResult {
    // The history, and the start of the turn kept in part.
    h.faux.push_text("## Goal\nThe user asked questions.");
    h.faux.push_text("## Original Request\nA question.");
    let command = SessionCommand::Compact {
        instructions: None,
        signal: h.signal.clone(),
    };
    match h.agent.execute(command).await.unwrap() {
        Outcome::Compacted(result) => result,
        other => panic!("{other:?}"),
    }
}

fn compactions(h: &Harness) -> Vec<pi::session::entries::CompactionEntry> {
    h.agent
        .session
        .entries()
        .iter()
        .filter_map(|e| match e {
            SessionEntry::Compaction(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

/// orig: AgentSession compaction e2e › should trigger manual compaction via compact()
#[tokio::test]
async fn compacting_by_hand() {
    let mut h = harness(true);
    say(&mut h, &["What is 2+2?", "What is 3+3?"]).await;
    let result = compact(&mut h).await;
    assert!(
        result.summary.contains("The user asked questions."),
        "{}",
        result.summary
    );
    assert!(result.tokens_before > 0);
    assert_eq!(h.agent.state.messages.facts(0).role, "compactionSummary");
}

/// orig: AgentSession compaction e2e › should maintain valid session state after compaction
#[tokio::test]
async fn the_session_goes_on_after_compacting() {
    let mut h = harness(true);
    say(&mut h, &["Capital of France?", "Capital of Germany?"]).await;
    compact(&mut h).await;
    h.faux.push_text("Rome");
    h.prompt("Capital of Italy?").await;
    assert_eq!(h.agent.last_assistant().unwrap().text(), "Rome");
    // The request after the compaction starts from the summary.
    let asked = h.faux.last_context().unwrap();
    let first = match &asked.messages[0] {
        pi::ai::types::Message::User(u) => u.content.text(),
        other => panic!("{other:?}"),
    };
    assert!(first.contains("The user asked questions."), "{first}");
    assert!(!asked.messages.iter().any(|m| match m {
        pi::ai::types::Message::User(u) => u.content.text() == "Capital of France?",
        _ => false,
    }));
}

/// orig: AgentSession compaction e2e › should persist compaction to session file
#[tokio::test]
async fn the_compaction_is_in_the_session_file() {
    let mut h = harness(true);
    say(&mut h, &["Say hello", "Say goodbye"]).await;
    compact(&mut h).await;
    let entries = compactions(&h);
    assert_eq!(entries.len(), 1);
    let c = &entries[0];
    assert!(!c.summary.is_empty() && c.tokens_before > 0);
    assert!(h.agent.session.entry(&c.first_kept_entry_id).is_some());
    let file = h.agent.session.session_file().unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    assert_eq!(text.matches("\"type\":\"compaction\"").count(), 1);
}

/// orig: AgentSession compaction e2e › should work with --no-session mode (in-memory only)
#[tokio::test]
async fn compacting_without_a_session_file() {
    let mut h = harness(false);
    say(&mut h, &["What is 2+2?", "What is 3+3?"]).await;
    let result = compact(&mut h).await;
    assert!(!result.summary.is_empty());
    assert_eq!(compactions(&h).len(), 1);
    assert!(h.agent.session.session_file().is_none());
}

/// orig: AgentSession compaction e2e › should emit correct events during auto-compaction
#[tokio::test]
async fn compacting_by_hand_emits_manual_events() {
    let mut h = harness(true);
    say(&mut h, &["Say hello"]).await;
    compact(&mut h).await;
    let starts = h.of_type("compaction_start");
    assert_eq!(starts.len(), 1);
    assert_eq!(starts[0]["reason"], "manual");
    let ends = h.of_type("compaction_end");
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0]["reason"], "manual");
    assert_eq!(ends[0]["willRetry"], false);
    assert!(!h.of_type("message_end").is_empty());
}
