//! Over RPC an `ask` is an `extension_ui_request` (select) the client answers: once, always
//! (remembered for the session, and in its file for `pi -c`), or no (a tool error).

use super::*;
use crate::support::rpc_client::RpcClient;

const API: &str = "anthropic-messages";

fn touch(server: &MockServer, id: &str, file: &str) {
    server.push(MockReply::anthropic_tool_calls(&[(
        id,
        "bash",
        json!({"command": format!("touch {file}")}),
    )]));
    server.push(MockReply::anthropic_text("ok"));
}

/// Prompt, answer the question with `answer` (`None`: expect no question), and return the
/// tool's end event.
fn prompt_and_answer(rpc: &mut RpcClient, answer: Option<&str>) -> Value {
    rpc.call(json!({"type": "prompt", "message": "touch it"}));
    if let Some(answer) = answer {
        let ask = rpc.wait_for("the question", |v| {
            v["type"] == "extension_ui_request" && v["method"] == "select"
        });
        let title = ask.value["title"].as_str().unwrap();
        assert!(
            title.contains("touch") && title.contains("bash \"touch *\" → ask (user)"),
            "{title}"
        );
        let options: Vec<&str> = ask.value["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap())
            .collect();
        assert_eq!(
            options,
            [
                "Yes, once",
                "Yes, always for this command in this session",
                "No"
            ]
        );
        let id = ask.value["id"].as_str().unwrap();
        rpc.send_raw(
            &json!({"type": "extension_ui_response", "id": id, "value": answer}).to_string(),
        );
    }
    let end = rpc.event("tool_execution_end");
    rpc.event("agent_end");
    end
}

#[test]
fn an_ask_rule_is_answered_once_no_and_always_and_always_outlives_the_process() {
    let server = MockServer::start();
    touch(&server, "c1", "once.txt");
    touch(&server, "c2", "refused.txt");
    touch(&server, "c3", "always.txt");
    touch(&server, "c4", "always.txt");
    let sandbox = sandbox_with_rules(
        &server,
        API,
        json!([{"tool": "bash", "pattern": "touch *", "action": "ask"}]),
    );
    let mut rpc = RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model"]));

    let end = prompt_and_answer(&mut rpc, Some("Yes, once"));
    assert_eq!(end["isError"], false, "{end}");
    assert!(sandbox.project.join("once.txt").exists());

    let end = prompt_and_answer(&mut rpc, Some("No"));
    assert_eq!(end["isError"], true, "{end}");
    assert!(
        end["result"]
            .to_string()
            .contains("The user refused this call"),
        "{end}"
    );
    assert!(!sandbox.project.join("refused.txt").exists());

    let end = prompt_and_answer(
        &mut rpc,
        Some("Yes, always for this command in this session"),
    );
    assert_eq!(end["isError"], false, "{end}");
    std::fs::remove_file(sandbox.project.join("always.txt")).unwrap();
    // Asked no more: the same command runs at once.
    let end = prompt_and_answer(&mut rpc, None);
    assert_eq!(end["isError"], false, "{end}");
    assert!(sandbox.project.join("always.txt").exists());
    let asked = rpc
        .seen
        .iter()
        .filter(|l| l.value["type"] == "extension_ui_request" && l.value["method"] == "select")
        .count();
    assert_eq!(asked, 3, "the fourth call was not asked about");
    assert_eq!(rpc.finish(), 0);

    // The answer is kept in the session file: `pi -c -p` (nobody to ask) runs it too,
    // while another command the rule asks about is still refused.
    server.push(MockReply::anthropic_tool_calls(&[
        ("c5", "bash", json!({"command": "touch always.txt"})),
        ("c6", "bash", json!({"command": "touch other.txt"})),
    ]));
    server.push(MockReply::anthropic_text("ok"));
    sandbox.run(&["--model", "mock/mock-model", "-c", "-p", "again"], None);
    let results = tool_results(&sandbox);
    assert!(!result_of(&results, "c5").1, "{results:?}");
    let (_, error, text) = result_of(&results, "c6");
    assert!(*error && text.contains("no one to ask"), "{text}");
}
