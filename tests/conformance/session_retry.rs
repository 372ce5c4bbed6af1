//! Automatic retry of a transient provider error inside a session: one failure then
//! success, every attempt failing until the retries run out, and a prompt that returns
//! only once the retry is over even when its listeners are slow.
//! orig-file: packages/coding-agent/test/agent-session-retry.test.ts

use crate::session_harness::Harness;

fn retry_events(h: &Harness) -> Vec<String> {
    h.events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|e| match e["type"].as_str()? {
            "auto_retry_start" => Some(format!("start:{}", e["attempt"])),
            "auto_retry_end" => Some(format!("end:success={}", e["success"])),
            _ => None,
        })
        .collect()
}

/// orig: AgentSession retry › retries after a transient error and succeeds
#[tokio::test]
async fn one_transient_error_then_success() {
    let mut h = Harness::new();
    h.faux.push_error("overloaded_error");
    h.faux.push_text("Success");
    h.prompt("Test").await;
    assert_eq!(h.faux.call_count(), 2);
    assert_eq!(retry_events(&h), ["start:1", "end:success=true"]);
    assert_eq!(h.agent.last_attempts, 2);
    assert_eq!(h.agent.last_assistant().unwrap().text(), "Success");
    // With retries off the same failure is final after one request.
    let mut h = Harness::new();
    h.agent.retry.settings.enabled = false;
    h.faux.push_error("overloaded_error");
    h.faux.push_text("Success");
    h.prompt("Test").await;
    assert_eq!(h.faux.call_count(), 1);
    assert!(retry_events(&h).is_empty());
}

/// orig: AgentSession retry › exhausts max retries and emits failure
#[tokio::test]
async fn retries_run_out() {
    let mut h = Harness::new();
    h.agent.retry.settings.max_retries = 2;
    for _ in 0..5 {
        h.faux.push_error("overloaded_error");
    }
    h.prompt("Test").await;
    assert_eq!(h.faux.call_count(), 3);
    let events = retry_events(&h);
    assert_eq!(events, ["start:1", "start:2", "end:success=false"]);
    let end = &h.of_type("auto_retry_end")[0];
    assert_eq!(end["finalError"], "overloaded_error");
    let last = h.agent.last_assistant().unwrap();
    assert_eq!(last.error_message.as_deref(), Some("overloaded_error"));
    assert_eq!(h.agent.last_attempts, 3);
}

/// orig: AgentSession retry › prompt waits for retry completion even when assistant message_end handling is delayed
#[tokio::test]
async fn a_slow_listener_does_not_end_the_prompt_early() {
    let mut h = Harness::new();
    h.agent.subscribe(Box::new(|e| {
        if let pi::agent::events::AgentEvent::MessageEnd { message } = e
            && matches!(message, pi::ai::types::Message::Assistant(_))
        {
            std::thread::sleep(std::time::Duration::from_millis(40));
        }
    }));
    h.faux.push_error("overloaded_error");
    h.faux.push_text("Success");
    h.prompt("Test").await;
    assert_eq!(h.faux.call_count(), 2);
    assert_eq!(h.faux.pending(), 0);
    assert_eq!(retry_events(&h), ["start:1", "end:success=true"]);
    assert_eq!(h.agent.last_assistant().unwrap().text(), "Success");
}
