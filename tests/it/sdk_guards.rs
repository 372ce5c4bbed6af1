//! The Rust SDK's guards, driven in-process against the mock LLM server: a run stopped by
//! its limits is an error with its code, and the permission callback answers the policy's
//! questions.

use pi::sdk::{Message, SdkError};
use serde_json::json;

use crate::sdk::{drain, kinds, options, sandbox, start};
use crate::support::{MockReply, MockServer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_past_its_turn_limit_or_repeating_a_failing_call_is_a_stopped_error() {
    let server = MockServer::start();
    server.set_handler(|req| {
        let asked = req.json()["messages"].to_string();
        if asked.contains("call the missing tool") {
            MockReply::anthropic_tool_calls(&[("call_nope", "nope", json!({}))])
        } else {
            MockReply::anthropic_tool_calls(&[("call_ls", "ls", json!({}))])
        }
    });
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox).tools(["ls"]).max_turns(3)).await;
    let mut events = session.events();
    match session.prompt("list forever").await {
        Err(SdkError::Stopped { code, message }) => {
            assert_eq!(code, "max_turns");
            assert!(message.contains("limit of 3 turns"), "{message}");
        }
        other => panic!("expected a stop, got {other:?}"),
    }
    assert_eq!(server.request_count(), 3);
    let kinds = kinds(&drain(&mut events));
    assert_eq!(kinds[kinds.len() - 2..], ["run_stopped", "agent_end"]);

    // The next prompt is a new run with its own counts: the guard stops it first.
    match session.prompt("call the missing tool").await {
        Err(SdkError::Stopped { code, message }) => {
            assert_eq!(code, "repeated_tool_failure");
            assert!(message.contains("`nope`"), "{message}");
        }
        other => panic!("expected a stop, got {other:?}"),
    }
    assert_eq!(server.request_count(), 6);
}

#[tokio::test]
async fn the_permission_callback_answers_questions_and_a_refusal_names_the_rule() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_tool_calls(&[
        ("c_yes", "bash", json!({"command": "touch yes.txt"})),
        ("c_no", "bash", json!({"command": "touch no.txt"})),
    ]));
    server.push(MockReply::anthropic_text("Done."));
    let sandbox = sandbox(&server);
    sandbox.write_agent_file(
        "settings.json",
        &json!({"permissions": [{"tool": "bash", "pattern": "touch *", "action": "ask"}]})
            .to_string(),
    );
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = asked.clone();
    let session = start(options(&sandbox).on_permission(move |q| {
        seen.lock().unwrap().push(q.clone());
        if q.subject == "touch yes.txt" {
            pi::sdk::PermissionAnswer::Once
        } else {
            pi::sdk::PermissionAnswer::No
        }
    }))
    .await;
    session.prompt("touch both").await.unwrap();
    let asked = asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert_eq!(asked[0].tool, "bash");
    assert_eq!(asked[0].rule, "bash \"touch *\" → ask (user)");
    assert!(sandbox.project.join("yes.txt").exists());
    assert!(!sandbox.project.join("no.txt").exists());
    let refusal = session
        .messages()
        .iter()
        .find_map(|m| match m {
            Message::ToolResult(r) if r.tool_call_id == "c_no" => {
                Some(serde_json::to_string(r).unwrap())
            }
            _ => None,
        })
        .unwrap();
    assert!(
        refusal.contains("refused") && refusal.contains("touch *"),
        "{refusal}"
    );
}
