//! When a session compacts on its own after a run: a context overflow is compacted and
//! retried once (a second overflow is reported, not compacted again); an answer from before
//! the latest compaction never triggers one; a failed answer is measured from the last
//! answer that finished after the latest compaction; and messages queued while the
//! compaction ran are delivered once it is done. The faux model's window is 128,000 tokens
//! with 16,384 reserved, so more than 111,616 tokens pass the threshold.
//! orig-file: packages/coding-agent/test/agent-session-auto-compaction-queue.test.ts

use pi::agent::events::AgentEvent;
use pi::ai::types::Message;
use pi::session::manager::SessionManager;

use crate::session_harness::{Harness, answer, failed, now, user};

/// Just under the threshold: an answer with this usage does not compact by itself.
const NEAR: u64 = 111_600;

fn reasons(h: &Harness) -> Vec<String> {
    h.of_type("compaction_start")
        .iter()
        .map(|e| e["reason"].as_str().unwrap().to_string())
        .collect()
}

/// A prompt long enough to push a context of [`NEAR`] tokens past the threshold.
fn long_prompt() -> String {
    "another prompt ".repeat(30)
}

/// A session holding one earlier exchange, compacting down to the last message.
async fn with_history() -> Harness {
    let mut h = Harness::new();
    h.agent.compaction.keep_recent_tokens = 1;
    h.faux.push_text("first answer");
    h.prompt("first question").await;
    h
}

/// orig: AgentSession auto-compaction queue resume › should resume after threshold compaction when only agent-level queued messages exist
#[tokio::test]
async fn a_message_queued_during_compaction_is_delivered_after_it() {
    let mut h = with_history().await;
    let queue = h.agent.queues.follow_up.clone();
    h.agent.subscribe(Box::new(move |e| {
        if matches!(e, AgentEvent::CompactionStart { .. }) {
            queue.push(user("Queued custom", now()));
        }
    }));
    h.faux.push_message(answer("big answer", 120_000, now()));
    // The history, then the start of the turn kept in part.
    h.faux.push_text("## Goal\nsummary");
    h.faux.push_text("## Original Request\nsecond question");
    h.faux.push_text("answer to the queued message");
    h.prompt("second question").await;
    assert_eq!(reasons(&h), ["threshold"]);
    assert_eq!(
        h.faux.call_count(),
        5,
        "first answer, answer, two summaries, the queued message"
    );
    let last = h.faux.last_context().unwrap();
    let texts: Vec<String> = last
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::User(u) => Some(u.content.text()),
            _ => None,
        })
        .collect();
    assert_eq!(texts.last().unwrap(), "Queued custom");
    assert_eq!(
        h.agent.last_assistant().unwrap().text(),
        "answer to the queued message"
    );
    assert!(h.agent.queues.follow_up.is_empty());
}

/// orig: AgentSession auto-compaction queue resume › should not compact repeatedly after overflow recovery already attempted
#[tokio::test]
async fn an_overflow_after_the_recovery_is_reported_not_compacted_again() {
    let mut h = with_history().await;
    h.faux.push_message(failed("prompt is too long", now()));
    h.faux.push_text("## Goal\nsummary");
    h.faux.push_message(failed("prompt is too long", now() + 1));
    h.faux.push_text("never asked for");
    h.prompt("second question").await;
    assert_eq!(reasons(&h), ["overflow"], "one compaction only");
    assert_eq!(
        h.faux.call_count(),
        4,
        "first answer, overflow, summary, one retry"
    );
    assert_eq!(h.faux.pending(), 1);
    let ends = h.of_type("compaction_end");
    assert_eq!(ends.len(), 2);
    assert!(ends[0]["result"].is_object() && ends[0]["willRetry"] == true);
    assert_eq!(
        ends[1]["errorMessage"],
        "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model."
    );
    assert_eq!(ends[1]["reason"], "overflow");
    assert_eq!(ends[1]["willRetry"], false);
}

/// A session whose file holds `user`, an answer using `tokens` made ten seconds ago and,
/// with `compacted`, a compaction after it.
fn resumed(tokens: u64, compacted: bool) -> Harness {
    let tmp = tempfile::tempdir().unwrap();
    let mut session = SessionManager::in_memory(tmp.path());
    let old = now() - 10_000;
    session.append_message(user("before compaction", old - 1000));
    session.append_message(Message::Assistant(answer("large response", tokens, old)));
    if compacted {
        let first = session.entries()[0].id().to_string();
        session.append_compaction("summary", &first, tokens, None, Some(false));
    }
    let mut h = Harness::with_session(tmp, session);
    h.agent.compaction.keep_recent_tokens = 1;
    h.agent.state.messages = h.agent.session.build_context().messages.into();
    h
}

/// orig: AgentSession auto-compaction queue resume › should ignore stale pre-compaction assistant usage on pre-prompt compaction checks
#[tokio::test]
async fn usage_from_before_the_compaction_does_not_compact_before_a_prompt() {
    let mut h = resumed(610_000, true);
    h.faux.push_text("ok");
    h.prompt("session recovery payload").await;
    assert!(reasons(&h).is_empty());
    assert_eq!(h.faux.call_count(), 1);
    // The same answer without a compaction after it compacts before the prompt goes out.
    let mut h = resumed(610_000, false);
    h.faux.push_text("## Goal\nsummary");
    h.faux.push_text("ok");
    h.prompt("session recovery payload").await;
    assert_eq!(reasons(&h), ["threshold"]);
}

/// orig: AgentSession auto-compaction queue resume › should trigger threshold compaction for error messages using last successful usage
#[tokio::test]
async fn a_failed_answer_is_measured_from_the_last_good_one() {
    let mut h = Harness::new();
    h.agent.retry.settings.enabled = false;
    h.agent.compaction.keep_recent_tokens = 1;
    h.agent.state.messages = vec![
        user("hello", now() - 1000),
        Message::Assistant(answer("large successful response", NEAR, now() - 900)),
    ]
    .into();
    h.faux.push_message(failed("529 overloaded", now()));
    h.faux.push_text("## Goal\nsummary");
    h.prompt(&long_prompt()).await;
    assert_eq!(reasons(&h), ["threshold"]);
    assert_eq!(
        h.faux.call_count(),
        2,
        "the failed answer, then the summary"
    );
}

/// orig: AgentSession auto-compaction queue resume › should not trigger threshold compaction for error messages when no prior usage exists
#[tokio::test]
async fn a_failed_answer_without_any_usage_does_not_compact() {
    let mut h = Harness::new();
    h.agent.retry.settings.enabled = false;
    h.agent.compaction.keep_recent_tokens = 1;
    h.faux.push_message(failed("529 overloaded", now()));
    h.prompt(&long_prompt()).await;
    assert!(reasons(&h).is_empty());
    assert_eq!(h.faux.call_count(), 1);
    // A finished answer past the threshold in the same session does compact.
    h.faux.push_message(answer("big", 120_000, now()));
    h.faux.push_text("## Goal\nsummary");
    h.prompt("again").await;
    assert_eq!(reasons(&h), ["threshold"]);
}

/// orig: AgentSession auto-compaction queue resume › should not trigger threshold compaction for error messages when only kept pre-compaction usage exists
#[tokio::test]
async fn a_failed_answer_is_not_measured_from_before_the_compaction() {
    let mut h = resumed(NEAR, true);
    h.agent.retry.settings.enabled = false;
    h.faux.push_message(failed("529 overloaded", now()));
    h.faux.push_text("## Goal\nsummary");
    h.prompt(&long_prompt()).await;
    assert!(reasons(&h).is_empty());
    assert_eq!(h.faux.call_count(), 1);
    // Without the compaction the same usage counts, and compacts.
    let mut h = resumed(NEAR, false);
    h.agent.retry.settings.enabled = false;
    h.faux.push_message(failed("529 overloaded", now()));
    h.faux.push_text("## Goal\nsummary");
    h.prompt(&long_prompt()).await;
    assert_eq!(reasons(&h), ["threshold"]);
}
