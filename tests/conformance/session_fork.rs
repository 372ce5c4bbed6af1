//! Forking a session at one of its user messages: from the only message (an empty
//! conversation in a new session file, written once there is something to keep), without
//! a session file at all (`--no-session`), and from the middle of a conversation. pi 0.73.1
//! runs these against a live model; here the faux model answers.
//! orig-file: packages/coding-agent/test/agent-session-branching.test.ts

use pi::core::session_command::{Outcome, SessionCommand};
use pi::core::session_switch::BranchOutcome;
use pi::session::entries::SessionEntry;
use pi::session::manager::SessionManager;

use crate::session_harness::Harness;

fn persisted() -> Harness {
    let tmp = tempfile::tempdir().unwrap();
    let session = SessionManager::create(tmp.path(), &tmp.path().join("sessions"));
    Harness::with_session(tmp, session)
}

async fn say(h: &mut Harness, prompts: &[&str]) {
    for p in prompts {
        h.faux.push_text("ok");
        h.prompt(p).await;
    }
}

/// The user messages one can fork from: (entry id, text).
fn forkable(h: &Harness) -> Vec<(String, String)> {
    h.agent
        .session
        .get_branch(None)
        .into_iter()
        .filter_map(|e| match e {
            SessionEntry::Message(m) => match &m.message {
                pi::ai::types::Message::User(u) => Some((e.id().to_string(), u.content.text())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

async fn fork(h: &mut Harness, entry: &str) -> BranchOutcome {
    match h
        .agent
        .execute(SessionCommand::Fork(entry.into()))
        .await
        .unwrap()
    {
        Outcome::Forked(outcome) => outcome,
        other => panic!("{other:?}"),
    }
}

fn branched(text: &str) -> BranchOutcome {
    BranchOutcome::Branched {
        text: Some(text.into()),
    }
}

/// orig: AgentSession forking › should allow forking from single message
#[tokio::test]
async fn from_the_only_message() {
    let mut h = persisted();
    say(&mut h, &["Say hello"]).await;
    let old_file = h.agent.session.session_file().unwrap().to_path_buf();
    assert!(old_file.exists());
    let messages = forkable(&h);
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].1, "Say hello");
    assert_eq!(fork(&mut h, &messages[0].0).await, branched("Say hello"));
    assert!(h.agent.state.messages.is_empty());
    let file = h.agent.session.session_file().unwrap().to_path_buf();
    assert_ne!(file, old_file);
    assert!(!file.exists(), "written once there is an answer to keep");
    say(&mut h, &["again"]).await;
    assert!(file.exists());
}

/// orig: AgentSession forking › should support in-memory forking in --no-session mode
#[tokio::test]
async fn without_a_session_file() {
    let mut h = Harness::new();
    assert!(h.agent.session.session_file().is_none());
    say(&mut h, &["Say hi"]).await;
    let messages = forkable(&h);
    assert_eq!(messages.len(), 1);
    assert!(!h.agent.state.messages.is_empty());
    assert_eq!(fork(&mut h, &messages[0].0).await, branched("Say hi"));
    assert!(h.agent.state.messages.is_empty());
    assert!(h.agent.session.session_file().is_none());
}

/// orig: AgentSession forking › should fork from middle of conversation
#[tokio::test]
async fn from_the_middle() {
    let mut h = persisted();
    say(&mut h, &["Say one", "Say two", "Say three"]).await;
    let messages = forkable(&h);
    assert_eq!(messages.len(), 3);
    assert_eq!(fork(&mut h, &messages[1].0).await, branched("Say two"));
    let roles: Vec<&str> = h.agent.state.messages.iter().map(|m| m.role()).collect();
    assert_eq!(roles, ["user", "assistant"]);
    assert_eq!(forkable(&h).len(), 1);
    // An answer's entry is not a place to fork from.
    let answer = h.agent.session.leaf_id().unwrap().to_string();
    assert!(h.agent.execute(SessionCommand::Fork(answer)).await.is_err());
}
