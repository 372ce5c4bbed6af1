//! A command the sandbox refused: over RPC the client is asked (an
//! `extension_ui_request`) whether to run it outside the sandbox; "once" re-runs it,
//! "always" also remembers it for the session, "no" leaves the model a tool error naming
//! the mode. The user's own `!` commands (RPC `bash`) are offered the same way. In print
//! mode nobody is asked and the error says how to allow it.

use crate::sandbox_bash::{bash_results, sandbox_with};
use crate::support::MockReply;
use crate::support::rpc_client::RpcClient;
use serde_json::{Value, json};

fn answer_select(rpc: &mut RpcClient, choice: &str) -> Value {
    let ask = rpc.wait_for("the sandbox question", |v| {
        v["type"] == "extension_ui_request" && v["method"] == "select"
    });
    let id = ask.value["id"].as_str().unwrap().to_string();
    rpc.send_raw(&json!({"type": "extension_ui_response", "id": id, "value": choice}).to_string());
    ask.value
}

#[test]
fn rpc_asks_to_run_a_refused_command_outside_and_remembers_always() {
    let (sandbox, server) = sandbox_with(json!({"sandbox": {"mode": "workspace-write"}}));
    let outside = tempfile::tempdir().unwrap();
    let first = outside.path().join("first");
    let touch = format!("touch {}", first.display());
    let other = format!("touch {}", outside.path().join("other").display());
    let bash = |id: &str, command: &str| {
        MockReply::openai_tool_calls(&[(id, "bash", json!({"command": command}))])
    };
    server.push(bash("c1", &touch));
    server.push(MockReply::openai_text("one"));
    server.push(bash("c2", &touch));
    server.push(MockReply::openai_text("two"));
    server.push(bash("c3", &other));
    server.push(MockReply::openai_text("three"));
    let mut rpc = RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model"]));

    // Refused, asked, "always": it runs outside the sandbox.
    rpc.call(json!({"type": "prompt", "message": "first"}));
    let ask = answer_select(&mut rpc, "Yes, always for this command");
    assert!(
        ask["title"].as_str().unwrap().contains("workspace-write"),
        "{ask}"
    );
    assert!(ask["title"].as_str().unwrap().contains(&touch), "{ask}");
    assert_eq!(
        ask["options"],
        json!(["Yes, once", "Yes, always for this command", "No"])
    );
    let end = rpc.event("tool_execution_end");
    assert_eq!(end["isError"], false, "{end}");
    assert!(first.exists());
    rpc.event("agent_end");

    // The same command again: not asked, run outside.
    std::fs::remove_file(&first).unwrap();
    rpc.call(json!({"type": "prompt", "message": "second"}));
    let end = rpc.event("tool_execution_end");
    assert_eq!(end["isError"], false, "{end}");
    assert!(first.exists());
    rpc.event("agent_end");
    let asked = rpc
        .seen
        .iter()
        .filter(|l| l.value["type"] == "extension_ui_request" && l.value["method"] == "select")
        .count();
    assert_eq!(asked, 1, "asked the first time only");

    // Another command: asked again; "No" leaves a tool error naming the mode.
    rpc.call(json!({"type": "prompt", "message": "third"}));
    answer_select(&mut rpc, "No");
    let end = rpc.event("tool_execution_end");
    assert_eq!(end["isError"], true, "{end}");
    let text = end["result"].to_string();
    assert!(
        text.contains("Permission denied") && text.contains("--sandbox full"),
        "{text}"
    );
    assert!(!outside.path().join("other").exists());
    rpc.event("agent_end");
}

#[test]
fn a_users_bash_command_refused_by_the_sandbox_is_offered_outside_too() {
    let (sandbox, _server) = sandbox_with(json!({"sandbox": {"mode": "workspace-write"}}));
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("mine");
    let touch = format!("touch {}", target.display());
    let mut rpc = RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model"]));

    // "No": the refusal stands, with how to allow it.
    let id = rpc.send(json!({"type": "bash", "command": touch}));
    let ask = answer_select(&mut rpc, "No");
    assert!(ask["title"].as_str().unwrap().contains(&touch), "{ask}");
    let refused = rpc.response(&id);
    assert_eq!(refused["data"]["exitCode"], 1, "{refused}");
    let output = refused["data"]["output"].as_str().unwrap();
    assert!(
        output.contains("Permission denied") && output.contains("--sandbox full"),
        "{output}"
    );
    assert!(!output.contains("Command exited with code"), "{output}");
    assert!(!target.exists());

    // "Once": the same command runs outside the sandbox.
    let id = rpc.send(json!({"type": "bash", "command": touch}));
    answer_select(&mut rpc, "Yes, once");
    let done = rpc.response(&id);
    assert_eq!(done["data"]["exitCode"], 0, "{done}");
    assert!(target.exists());

    // A command the sandbox allows is not asked about.
    let id = rpc.send(json!({"type": "bash", "command": "touch inside"}));
    let inside = rpc.response(&id);
    assert_eq!(inside["data"]["exitCode"], 0, "{inside}");
    assert!(sandbox.project.join("inside").exists());
    let asked = rpc
        .seen
        .iter()
        .filter(|l| l.value["type"] == "extension_ui_request" && l.value["method"] == "select")
        .count();
    assert_eq!(asked, 2);
}

#[test]
fn print_mode_refuses_and_says_how_to_allow_it() {
    let (sandbox, server) = sandbox_with(json!({"sandbox": {"mode": "read-only"}}));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let curl = format!(
        "curl -sS -m 5 http://127.0.0.1:{}/",
        listener.local_addr().unwrap().port()
    );
    let commands = ["touch x", "echo fine", &curl, "exit 3"];
    let (results, stderr) = bash_results(&sandbox, &server, &[], &commands);
    assert!(
        results[0].contains("Permission denied"),
        "{results:?} {stderr}"
    );
    assert!(
        results[0].contains("The sandbox (read-only) refused this"),
        "{}",
        results[0]
    );
    assert!(results[0].contains("--sandbox full"), "{}", results[0]);
    assert_eq!(results[1], "fine\n");
    assert!(!sandbox.project.join("x").exists());
    // curl only says it could not connect; with the network off that is the sandbox.
    assert!(
        results[2].contains("The sandbox (read-only) refused this"),
        "{}",
        results[2]
    );
    // A failure of another kind is left alone.
    assert!(!results[3].contains("sandbox"), "{}", results[3]);
}
