//! Moving around the session tree inside a session: to a user message (its text comes
//! back for the editor and the leaf goes to its parent) or to any other entry (it becomes
//! the leaf), with or without a summary of the branch left behind, where that summary is
//! attached, stopping a summary midway, moving to where one already is, and custom
//! summary instructions. pi 0.73.1 runs these against a live model; here the faux model
//! answers.
//! orig-file: packages/coding-agent/test/agent-session-tree-navigation.test.ts

use std::time::Duration;

use pi::ai::providers::faux::FauxProvider;
use pi::core::tree_navigation::{NavigateOptions, NavigateOutcome};
use pi::session::entries::SessionEntry;
use pi::session::manager::SessionManager;

use crate::session_harness::Harness;

/// A session where each of `prompts` was sent and answered.
async fn conversation(prompts: &[&str]) -> Harness {
    let mut h = Harness::new();
    h.agent.compaction.keep_recent_tokens = 1;
    for (i, p) in prompts.iter().enumerate() {
        h.faux.push_text(&format!("answer {}", i + 1));
        h.prompt(p).await;
    }
    h
}

fn ids_of(h: &Harness, role: &str) -> Vec<String> {
    h.agent
        .session
        .entries()
        .iter()
        .filter(|e| match e {
            SessionEntry::Message(m) => m.message.role() == role,
            _ => false,
        })
        .map(|e| e.id().to_string())
        .collect()
}

async fn navigate(h: &mut Harness, target: &str, summarize: bool) -> NavigateOutcome {
    let options = NavigateOptions {
        summarize,
        ..Default::default()
    };
    h.agent
        .navigate_tree(target, &options, &h.signal.clone())
        .await
        .unwrap()
}

fn moved(text: Option<&str>) -> NavigateOutcome {
    NavigateOutcome::Moved {
        editor_text: text.map(str::to_string),
    }
}

/// The branch summary entries, in order.
fn summaries(h: &Harness) -> Vec<(String, Option<String>, String)> {
    h.agent
        .session
        .entries()
        .iter()
        .filter_map(|e| match e {
            SessionEntry::BranchSummary(b) => {
                Some((b.id.clone(), b.parent_id.clone(), b.summary.clone()))
            }
            _ => None,
        })
        .collect()
}

/// orig: AgentSession tree navigation e2e › should navigate to user message and put text in editor
#[tokio::test]
async fn to_the_first_user_message() {
    let mut h = conversation(&["First message", "Second message"]).await;
    let first = ids_of(&h, "user")[0].clone();
    assert_eq!(
        navigate(&mut h, &first, false).await,
        moved(Some("First message"))
    );
    assert_eq!(h.agent.session.leaf_id(), None, "an empty conversation");
    assert!(h.agent.state.messages.is_empty());
}

/// orig: AgentSession tree navigation e2e › should navigate to non-user message without editor text
#[tokio::test]
async fn to_an_answer() {
    let mut h = conversation(&["Hello"]).await;
    let answer = ids_of(&h, "assistant")[0].clone();
    let user = ids_of(&h, "user")[0].clone();
    navigate(&mut h, &user, false).await;
    assert_eq!(navigate(&mut h, &answer, false).await, moved(None));
    assert_eq!(h.agent.session.leaf_id(), Some(answer.as_str()));
    assert_eq!(h.agent.state.messages.len(), 2);
}

/// orig: AgentSession tree navigation e2e › should create branch summary when navigating with summarize=true
#[tokio::test]
async fn to_the_root_with_a_summary() {
    let mut h = conversation(&["What is 2+2?", "What is 3+3?"]).await;
    let first = ids_of(&h, "user")[0].clone();
    h.faux.push_text("They asked two sums.");
    assert_eq!(
        navigate(&mut h, &first, true).await,
        moved(Some("What is 2+2?"))
    );
    let all = summaries(&h);
    assert_eq!(all.len(), 1);
    let (id, parent, text) = &all[0];
    assert!(text.contains("They asked two sums."), "{text}");
    assert_eq!(
        *parent, None,
        "a root entry: the target was the first message"
    );
    assert_eq!(h.agent.session.leaf_id(), Some(id.as_str()));
}

/// orig: AgentSession tree navigation e2e › should attach summary to correct parent when navigating to nested user message
#[tokio::test]
async fn to_a_nested_user_message_with_a_summary() {
    let mut h = conversation(&["Message one", "Message two", "Message three"]).await;
    let users = ids_of(&h, "user");
    assert_eq!(users.len(), 3);
    let a1 = ids_of(&h, "assistant")[0].clone();
    h.faux.push_text("summary of two and three");
    assert_eq!(
        navigate(&mut h, &users[1], true).await,
        moved(Some("Message two"))
    );
    let (_, parent, _) = summaries(&h).remove(0);
    assert_eq!(parent.as_deref(), Some(a1.as_str()));
    let mut kinds: Vec<&str> = h
        .agent
        .session
        .children(&a1)
        .iter()
        .map(|e| e.type_name())
        .collect();
    kinds.sort();
    assert_eq!(kinds, ["branch_summary", "message"]);
}

/// orig: AgentSession tree navigation e2e › should attach summary to selected node when navigating to assistant message
#[tokio::test]
async fn to_an_answer_with_a_summary() {
    let mut h = conversation(&["Hello", "Goodbye"]).await;
    let a1 = ids_of(&h, "assistant")[0].clone();
    h.faux.push_text("they said goodbye");
    assert_eq!(navigate(&mut h, &a1, true).await, moved(None));
    let (id, parent, _) = summaries(&h).remove(0);
    assert_eq!(parent.as_deref(), Some(a1.as_str()));
    assert_eq!(h.agent.session.leaf_id(), Some(id.as_str()));
}

/// orig: AgentSession tree navigation e2e › should handle abort during summarization
#[tokio::test]
async fn stopping_the_summary_leaves_the_session_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let session = SessionManager::in_memory(tmp.path());
    let faux = FauxProvider::new()
        .with_chunk_chars(1)
        .with_chunk_delay(Duration::from_millis(5));
    let mut h = Harness::with_faux(tmp, session, faux);
    for p in ["Tell me about something", "Continue"] {
        h.faux.push_text("ok");
        h.prompt(p).await;
    }
    let before = h.agent.session.entries().len();
    let leaf = h.agent.session.leaf_id().map(str::to_string);
    let first = ids_of(&h, "user")[0].clone();
    h.faux
        .push_text(&"a very long summary that streams slowly ".repeat(20));
    let signal = tokio_util::sync::CancellationToken::new();
    let stop = signal.clone();
    let options = NavigateOptions {
        summarize: true,
        ..Default::default()
    };
    let (result, ()) = tokio::join!(h.agent.navigate_tree(&first, &options, &signal), async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        stop.cancel();
    });
    assert!(result.is_err(), "{result:?}");
    assert_eq!(h.agent.session.entries().len(), before);
    assert_eq!(h.agent.session.leaf_id().map(str::to_string), leaf);
    assert!(summaries(&h).is_empty());
}

/// orig: AgentSession tree navigation e2e › should not create summary when navigating without summarize option
#[tokio::test]
async fn without_a_summary_nothing_is_added() {
    let mut h = conversation(&["First", "Second"]).await;
    let before = h.agent.session.entries().len();
    let first = ids_of(&h, "user")[0].clone();
    navigate(&mut h, &first, false).await;
    assert_eq!(h.agent.session.entries().len(), before);
    assert!(summaries(&h).is_empty());
    assert_eq!(h.faux.call_count(), 2, "no summary was asked for");
}

/// orig: AgentSession tree navigation e2e › should handle navigation to same position (no-op)
#[tokio::test]
async fn to_where_one_is_already() {
    let mut h = conversation(&["Hello"]).await;
    let leaf = h.agent.session.leaf_id().unwrap().to_string();
    let before = h.agent.session.entries().len();
    assert_eq!(navigate(&mut h, &leaf, true).await, moved(None));
    assert_eq!(h.agent.session.leaf_id(), Some(leaf.as_str()));
    assert_eq!(h.agent.session.entries().len(), before);
    assert_eq!(h.faux.call_count(), 1, "nothing left behind to summarize");
}

/// orig: AgentSession tree navigation e2e › should support custom summarization instructions
#[tokio::test]
async fn custom_summary_instructions_reach_the_model() {
    let mut h = conversation(&["What is TypeScript?"]).await;
    let first = ids_of(&h, "user")[0].clone();
    h.faux.push_text("A language. MONKEY MONKEY MONKEY");
    let options = NavigateOptions {
        summarize: true,
        custom_instructions: Some("End with exactly: MONKEY MONKEY MONKEY.".into()),
        ..Default::default()
    };
    h.agent
        .navigate_tree(&first, &options, &h.signal.clone())
        .await
        .unwrap();
    let asked = h.faux.last_context().unwrap();
    let prompt = match asked.messages.last().unwrap() {
        pi::ai::types::Message::User(u) => u.content.text(),
        other => panic!("{other:?}"),
    };
    assert!(
        prompt.contains("End with exactly: MONKEY MONKEY MONKEY."),
        "{prompt}"
    );
    assert!(summaries(&h)[0].2.contains("MONKEY MONKEY MONKEY"));
}

/// orig: AgentSession tree navigation - branch scenarios › should navigate between branches correctly
#[tokio::test]
async fn between_branches() {
    let mut h = conversation(&["Main branch start", "Main branch continue"]).await;
    let a1 = ids_of(&h, "assistant")[0].clone();
    let u2 = ids_of(&h, "user")[1].clone();
    h.agent.session.branch(&a1).unwrap();
    h.agent.state.messages = h.agent.session.build_context().messages.into();
    h.faux.push_text("branch answer");
    h.prompt("Branch path").await;
    h.faux.push_text("They took a side path.");
    assert_eq!(
        navigate(&mut h, &u2, true).await,
        moved(Some("Main branch continue"))
    );
    // The summary covers the branch left behind, not the main path.
    let asked = h.faux.last_context().unwrap();
    let prompt = match asked.messages.last().unwrap() {
        pi::ai::types::Message::User(u) => u.content.text(),
        other => panic!("{other:?}"),
    };
    assert!(prompt.contains("Branch path"), "{prompt}");
    assert!(!prompt.contains("Main branch continue"), "{prompt}");
    assert!(!summaries(&h)[0].2.is_empty());
}
