use serde_json::json;

use super::*;
use crate::ai::types::{ContentBlock, ToolCall, ToolResultMessage};

fn call(name: &str, args: Value) -> ToolCall {
    ToolCall {
        id: format!("id-{name}"),
        name: name.into(),
        arguments: args,
        thought_signature: None,
        raw_arguments: None,
    }
}

fn result(name: &str, text: &str, is_error: bool) -> ToolResultMessage {
    ToolResultMessage {
        tool_call_id: format!("id-{name}"),
        tool_name: name.into(),
        content: vec![ContentBlock::text(text)],
        details: None,
        is_error,
        timestamp: 0,
    }
}

const GUARD: RunLimits = RunLimits {
    repeated_failure: Some(3),
    max_turns: None,
    max_requests: None,
};

#[test]
fn the_same_call_failing_the_same_way_three_turns_in_a_row_is_reached() {
    let mut c = RunCounters::default();
    let bad = call("read", json!({}));
    for turn in 1..=3 {
        assert_eq!(c.reached(&GUARD), None, "turn {turn}");
        c.record_turn(
            std::slice::from_ref(&bad),
            &[result("read", "missing path", true)],
        );
    }
    let reached = c.reached(&GUARD).unwrap();
    assert_eq!(reached.code(), REPEATED_TOOL_FAILURE);
    assert_eq!(reached.payload()["toolName"], "read");
    assert_eq!(reached.payload()["times"], 3);
    let stop = reached.stop();
    assert!(stop.message.contains("`read`"), "{}", stop.message);
    assert!(stop.message.contains("missing path"), "{}", stop.message);
}

#[test]
fn other_arguments_another_error_or_a_success_start_the_count_again() {
    let mut c = RunCounters::default();
    let turns = [
        (json!({"path": "a"}), "nope", true),
        (json!({"path": "a"}), "nope", true),
        (json!({"path": "b"}), "nope", true),
        (json!({"path": "b"}), "other", true),
        (json!({"path": "b"}), "other", true),
        (json!({"path": "b"}), "fine", false),
        (json!({"path": "b"}), "other", true),
    ];
    for (args, text, is_error) in turns {
        c.record_turn(&[call("read", args)], &[result("read", text, is_error)]);
        assert_eq!(c.reached(&GUARD), None);
    }
    c.record_turn(
        &[call("read", json!({"path": "b"}))],
        &[result("read", "other", true)],
    );
    c.record_turn(
        &[call("read", json!({"path": "b"}))],
        &[result("read", "other", true)],
    );
    assert!(c.reached(&GUARD).is_some());
}

#[test]
fn a_failing_call_beside_a_succeeding_one_still_counts_per_turn() {
    let mut c = RunCounters::default();
    for _ in 0..3 {
        c.record_turn(
            &[call("ls", json!({})), call("nope", json!({"x": 1}))],
            &[
                result("ls", "a.txt", false),
                result("nope", "Tool nope not found", true),
            ],
        );
    }
    let reached = c.reached(&GUARD).unwrap();
    assert_eq!(reached.payload()["toolName"], "nope");
}

#[test]
fn continue_starts_the_count_again_and_stop_stops() {
    let mut c = RunCounters::default();
    let bad = [call("read", json!({}))];
    let failed = [result("read", "missing path", true)];
    for _ in 0..3 {
        c.record_turn(&bad, &failed);
    }
    let reached = c.reached(&GUARD).unwrap();
    assert!(!c.clone().apply(&GUARD, &reached, LimitDecision::Stop));
    assert!(c.apply(&GUARD, &reached, LimitDecision::Continue));
    assert_eq!(c.reached(&GUARD), None);
    c.record_turn(&bad, &failed);
    c.record_turn(&bad, &failed);
    assert_eq!(c.reached(&GUARD), None);
    c.record_turn(&bad, &failed);
    assert!(c.reached(&GUARD).is_some());
}

#[test]
fn turn_and_request_limits_are_reached_and_can_be_raised() {
    let limits = RunLimits {
        repeated_failure: None,
        max_turns: Some(5),
        max_requests: Some(8),
    };
    let mut c = RunCounters {
        turns: 4,
        requests: 4,
        ..Default::default()
    };
    assert_eq!(c.reached(&limits), None);
    c.turns = 5;
    c.requests = 5;
    let reached = c.reached(&limits).unwrap();
    assert_eq!(reached.code(), MAX_TURNS);
    assert!(reached.stop().message.contains('5'));
    // Continue grows the limit by its configured amount.
    assert!(c.apply(&limits, &reached, LimitDecision::Continue));
    c.turns = 9;
    c.requests = 7;
    assert_eq!(c.reached(&limits), None);
    c.requests = 8;
    let reached = c.reached(&limits).unwrap();
    assert_eq!(reached.code(), MAX_REQUESTS);
    assert!(c.apply(&limits, &reached, LimitDecision::SetMaxRequests(20)));
    assert_eq!(c.reached(&limits), None);
    c.turns = 10;
    let reached = c.reached(&limits).unwrap();
    assert_eq!(reached.code(), MAX_TURNS);
    // A limit that is not above the count does not let the run go on.
    assert!(!c.apply(&limits, &reached, LimitDecision::SetMaxTurns(10)));
}

#[test]
fn no_limits_are_never_reached() {
    let mut c = RunCounters {
        turns: 10_000,
        requests: 10_000,
        ..Default::default()
    };
    for _ in 0..10 {
        c.record_turn(&[call("read", json!({}))], &[result("read", "x", true)]);
    }
    assert_eq!(c.reached(&RunLimits::default()), None);
}
