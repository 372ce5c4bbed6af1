//! The retry line of the transcript: one line per retried request, counted down in place,
//! replaced by one verdict or nothing, and an unretried failure shown as before.

use super::*;
use crate::agent::events::AgentEvent;
use crate::ai::error_kind::NetworkCause;
use crate::ai::types::{ContentBlock, Message};
use crate::tui::transcript::render::render_item;

const DROPPED: &str = "Network error: error sending request for url (http://127.0.0.1:9/v1/chat/completions): client error (SendRequest): connection closed before message completed";

fn failed(error: &str) -> AssistantMessage {
    let mut a = AssistantMessage::empty("api", "mock", "m");
    a.stop_reason = StopReason::Error;
    a.error_message = Some(error.to_string());
    a.error_kind = Some(ProviderErrorKind::Network(NetworkCause::Closed));
    a
}

/// One try: the answer starts, then ends as `message`.
fn attempt(t: &mut Transcript, message: AssistantMessage) {
    let mut empty = message.clone();
    empty.stop_reason = StopReason::Stop;
    empty.error_message = None;
    t.apply(&AgentEvent::MessageStart {
        message: Message::Assistant(empty),
    });
    t.apply(&AgentEvent::MessageEnd {
        message: Message::Assistant(message),
    });
}

fn retry(t: &mut Transcript, attempt: u32, delay_ms: u64) {
    t.apply(&AgentEvent::AutoRetryStart {
        attempt,
        max_attempts: 3,
        delay_ms,
        error_message: DROPPED.into(),
    });
}

fn screen(t: &Transcript, expanded: bool) -> String {
    let options = RenderOptions {
        width: 200,
        tools_expanded: expanded,
        thinking_expanded: false,
        expand_key: "ctrl+o".into(),
        hidden_thinking_label: None,
        images: Default::default(),
    };
    let theme = Theme::plain();
    t.items
        .iter()
        .flat_map(|i| render_item(i, &options, &theme))
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn retry_lines(screen: &str) -> usize {
    screen.lines().filter(|l| l.contains("Retrying (")).count()
}

#[test]
fn a_retried_request_is_one_line_then_one_verdict() {
    let mut t = Transcript::new();
    t.base_url = "http://127.0.0.1:9/v1".into();
    for n in 1..=3 {
        attempt(&mut t, failed(DROPPED));
        retry(&mut t, n, 1000 * u64::from(n));
        let shown = screen(&t, false);
        assert_eq!(retry_lines(&shown), 1, "{shown}");
        assert!(
            shown.contains(&format!("Retrying ({n}/3) in {n}s: connection closed")),
            "{shown}"
        );
        assert!(!shown.contains("Network error"), "{shown}");
        assert!(t.settled_len() < t.items.len(), "the line may still change");
    }
    attempt(&mut t, failed(DROPPED));
    t.apply(&AgentEvent::AutoRetryEnd {
        success: false,
        attempt: 3,
        final_error: Some(DROPPED.into()),
    });
    let shown = screen(&t, false);
    assert_eq!(retry_lines(&shown), 0, "{shown}");
    let text: Vec<&str> = shown.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        text,
        [
            " 4 attempts failed: connection closed. Check the base URL (http://127.0.0.1:9/v1) and your network. (ctrl+o to expand)"
        ]
    );
    assert_eq!(t.settled_len(), t.items.len());
    let expanded = screen(&t, true);
    assert!(expanded.contains(DROPPED), "{expanded}");
    assert!(!expanded.contains("to expand"), "{expanded}");
}

#[test]
fn a_retry_that_answers_leaves_only_the_answer() {
    let mut t = Transcript::new();
    attempt(&mut t, failed(DROPPED));
    retry(&mut t, 1, 2000);
    let mut ok = AssistantMessage::empty("api", "mock", "m");
    ok.content.push(ContentBlock::text("all good"));
    attempt(&mut t, ok);
    t.apply(&AgentEvent::AutoRetryEnd {
        success: true,
        attempt: 1,
        final_error: None,
    });
    let shown = screen(&t, false);
    assert!(shown.contains("all good"), "{shown}");
    assert!(
        !shown.contains("Retrying") && !shown.contains("connection closed"),
        "{shown}"
    );
    assert_eq!(t.settled_len(), t.items.len());
}

#[test]
fn a_failure_that_is_not_retried_shows_its_error_when_the_run_ends() {
    let mut t = Transcript::new();
    attempt(&mut t, failed(DROPPED));
    assert!(
        !screen(&t, false).contains("Error:"),
        "held while undecided"
    );
    t.settle_retries();
    let shown = screen(&t, false);
    assert!(shown.contains(&format!("Error: {DROPPED}")), "{shown}");
    // An error that is never retried is shown at once.
    let mut t = Transcript::new();
    let mut denied = failed("401 invalid key");
    denied.error_kind = Some(ProviderErrorKind::Auth);
    attempt(&mut t, denied);
    assert!(screen(&t, false).contains("Error: 401 invalid key"));
}

#[test]
fn the_countdown_counts_down_then_the_retry_runs() {
    let mut t = Transcript::new();
    attempt(&mut t, failed(DROPPED));
    let start = Instant::now();
    retry(&mut t, 1, 3000);
    assert_eq!(t.retry_countdown(), Some(3));
    assert!(t.tick_retry(start + Duration::from_millis(1500)));
    assert_eq!(t.retry_countdown(), Some(2));
    assert!(
        !t.tick_retry(start + Duration::from_millis(1600)),
        "same second"
    );
    assert!(t.tick_retry(start + Duration::from_millis(3100)));
    assert_eq!(t.retry_countdown(), None);
    assert!(screen(&t, false).contains("Retrying (1/3): connection closed"));
}

#[test]
fn stopping_the_wait_says_so() {
    let mut t = Transcript::new();
    attempt(&mut t, failed(DROPPED));
    retry(&mut t, 1, 2000);
    t.apply(&AgentEvent::AutoRetryEnd {
        success: false,
        attempt: 1,
        final_error: Some(RETRY_CANCELLED.into()),
    });
    let shown = screen(&t, false);
    assert!(
        shown.contains("Retrying stopped after 1 failed attempt: connection closed."),
        "{shown}"
    );
    assert_eq!(retry_lines(&shown), 0);
}
