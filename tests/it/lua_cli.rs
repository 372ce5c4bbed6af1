//! End to end: the real `pi` binary with `-e` Lua extensions against a mock
//! LLM server on 127.0.0.1 (fixtures in tests/fixtures/extensions).

use crate::support;
use crate::support::pi_cli;

use std::path::PathBuf;
use std::process::Output;

use pi_cli::{PiSandbox, json_lines};
use serde_json::{Value, json};
use support::{MockReply, MockServer};

const API: &str = "openai-completions";

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/extensions")
        .join(name)
        .display()
        .to_string()
}

fn run_with(sandbox: &PiSandbox, extensions: &[&str], rest: &[&str]) -> Output {
    let paths: Vec<String> = extensions.iter().map(|e| fixture(e)).collect();
    let mut args = vec!["--model", "mock/mock-model"];
    for p in &paths {
        args.push("-e");
        args.push(p);
    }
    args.extend_from_slice(rest);
    sandbox.run(&args, None)
}

fn body(server: &MockServer, index: usize) -> String {
    String::from_utf8_lossy(&server.requests()[index].body).into_owned()
}

fn session_entries(sandbox: &PiSandbox) -> Vec<Value> {
    let files = sandbox.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    json_lines(&std::fs::read_to_string(&files[0]).unwrap())
}

fn tool_results(sandbox: &PiSandbox) -> Vec<Value> {
    session_entries(sandbox)
        .into_iter()
        .filter(|e| e["message"]["role"] == "toolResult")
        .map(|e| e["message"].clone())
        .collect()
}

#[test]
fn tool_call_handler_blocks_rm_rf_and_rewrites_a_command() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        ("call_rm", "bash", json!({"command": "rm -rf ./important"})),
        ("call_echo", "bash", json!({"command": "echo original"})),
    ]));
    server.push(MockReply::openai_text("all done"));
    let sandbox = PiSandbox::with_mock(&server, API);
    std::fs::create_dir_all(sandbox.project.join("important")).unwrap();
    let out = run_with(&sandbox, &["guard.lua"], &["-p", "clean up"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "all done\n");
    assert!(
        sandbox.project.join("important").exists(),
        "rm -rf did not run"
    );
    let second = body(&server, 1);
    assert!(second.contains("guard: rm -rf is not allowed"), "{second}");
    assert!(second.contains("mutated"), "{second}");
    let results = tool_results(&sandbox);
    assert_eq!(results[0]["isError"], true);
    assert_eq!(results[1]["content"][0]["text"], "mutated\n");
}

#[test]
fn before_agent_start_extends_the_system_prompt_and_input_is_transformed() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let out = run_with(&sandbox, &["prompt.lua"], &["-p", "rewrite: hello"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let request = server.requests()[0].json().clone();
    let messages = request["messages"].as_array().unwrap();
    let system = messages[0]["content"].to_string();
    assert!(
        system.contains("EXTENSION-RULE: answer in haiku"),
        "{system}"
    );
    assert!(
        messages.last().unwrap()["content"]
            .to_string()
            .contains("rewritten hello")
    );
}

#[test]
fn handled_input_never_reaches_the_model() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let out = run_with(&sandbox, &["prompt.lua"], &["-p", "swallow me"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.request_count(), 0);
}

#[test]
fn custom_tool_streams_updates_and_results_are_patched_in_a_chain() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_p",
        "progress",
        json!({"steps": 2}),
    )]));
    server.push(MockReply::openai_text("counted"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let out = run_with(
        &sandbox,
        &["tools.lua", "patch_a.lua", "patch_b.lua"],
        &["--mode", "json", "count"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = server.requests()[0].json().clone();
    let tool_names: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(tool_names.contains(&"progress"), "{tool_names:?}");
    let events = json_lines(&String::from_utf8_lossy(&out.stdout));
    let updates: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "tool_execution_update")
        .map(|e| e["partialResult"]["content"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(updates, vec!["step 1", "step 2"]);
    let results = tool_results(&sandbox);
    assert_eq!(results[0]["content"][0]["text"], "done 2 [a] [b]");
    assert_eq!(results[0]["details"], json!({"chained": true}));
}

#[test]
fn custom_tool_details_are_persisted_and_errors_become_error_results() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        ("call_p", "progress", json!({"steps": 1})),
        ("call_x", "explode", json!({})),
    ]));
    server.push(MockReply::openai_text("fine"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let out = run_with(&sandbox, &["tools.lua"], &["-p", "go"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = tool_results(&sandbox);
    assert_eq!(results[0]["details"], json!({"steps": 1, "id": "call_p"}));
    assert_eq!(results[0]["isError"], false);
    assert_eq!(results[1]["isError"], true);
    assert_eq!(results[1]["content"][0]["text"], "boom from lua");
}

#[test]
fn runaway_handler_is_stopped_and_the_turn_continues() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_rm",
        "bash",
        json!({"command": "rm -rf ./important"}),
    )]));
    server.push(MockReply::openai_text("survived"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let out = run_with(&sandbox, &["spin.lua", "guard.lua"], &["-p", "go"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "survived\n");
    assert!(stderr.contains("spin.lua:4"), "{stderr}");
    assert!(body(&server, 1).contains("guard: rm -rf is not allowed"));
}

#[test]
fn syntax_error_names_file_and_line_while_other_extensions_work() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_rm",
        "bash",
        json!({"command": "rm -rf ./important"}),
    )]));
    server.push(MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let out = run_with(&sandbox, &["broken.lua", "guard.lua"], &["-p", "go"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("broken.lua:3"), "{stderr}");
    assert!(body(&server, 1).contains("guard: rm -rf is not allowed"));
}

#[test]
fn project_extensions_are_discovered_and_no_extensions_skips_them() {
    let server = MockServer::start();
    for reply in ["one", "two", "three", "four", "five"] {
        server.push(MockReply::openai_text(reply));
    }
    let sandbox = PiSandbox::with_mock(&server, API);
    let dir = sandbox.project.join(".pi/extensions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("prompt.lua"), dir.join("prompt.lua")).unwrap();
    let marker = sandbox.project.join("marker.txt");
    std::fs::write(
        dir.join("marker.lua"),
        format!(
            "local f = io.open({:?}, 'w') f:write('ran') f:close()\nreturn function(pi) end\n",
            marker.to_str().unwrap()
        ),
    )
    .unwrap();

    // Untrusted: the project's extension code never runs, and pi says how to approve.
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hi"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("not trusted") && stderr.contains("--approve"),
        "{stderr}"
    );
    assert!(!marker.exists(), "untrusted extension code ran");
    assert!(!body(&server, 0).contains("EXTENSION-RULE"));

    // --approve trusts the folder for this run.
    let out = sandbox.run(
        &["--model", "mock/mock-model", "--approve", "-p", "hi"],
        None,
    );
    assert!(out.status.success());
    assert!(marker.exists());
    assert!(body(&server, 1).contains("EXTENSION-RULE"));
    assert!(
        !sandbox.agent_dir.join("trust.json").exists(),
        "a flag is not remembered"
    );

    // A recorded decision trusts it without the flag; --no-approve still wins.
    let mut store = pi::config::trust::TrustStore::load(&sandbox.agent_dir);
    store.record(&sandbox.project, true).unwrap();
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hi"], None);
    assert!(out.status.success());
    assert!(body(&server, 2).contains("EXTENSION-RULE"));
    let out = sandbox.run(&["--model", "mock/mock-model", "-na", "-p", "hi"], None);
    assert!(out.status.success());
    assert!(!body(&server, 3).contains("EXTENSION-RULE"));

    let out = sandbox.run(
        &["--model", "mock/mock-model", "--no-extensions", "-p", "hi"],
        None,
    );
    assert!(out.status.success());
    assert!(!body(&server, 4).contains("EXTENSION-RULE"));
}

#[test]
fn extension_flags_choose_a_registered_provider_and_hooks_see_the_request() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("via proxy"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let url = server.openai_base_url();
    let out = run_with(
        &sandbox,
        &["provider.lua"],
        &["--proxy-url", &url, "--loud", "-p", "hi"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "via proxy\n");
    let request = &server.requests()[0];
    let json = request.json.clone().unwrap();
    assert_eq!(json["model"], "proxied-model");
    assert_eq!(json["temperature"], 0.25);
    assert_eq!(json["user"], "loud");
    let auth = request
        .headers
        .iter()
        .find(|(k, _)| k == "authorization")
        .map(|(_, v)| v.as_str());
    assert_eq!(auth, Some("Bearer proxy-secret"));
    assert_eq!(json["messages"].to_string().matches(&url).count(), 0);
    let responses: Vec<Value> = session_entries(&sandbox)
        .into_iter()
        .filter(|e| e["customType"] == "response")
        .map(|e| e["data"].clone())
        .collect();
    assert_eq!(responses.len(), 1, "{responses:?}");
    assert_eq!(responses[0]["status"], 200);
    assert!(
        responses[0]["contentType"]
            .as_str()
            .unwrap()
            .contains("text/event-stream")
    );
}

#[test]
fn an_option_no_extension_registers_is_an_error() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let out = run_with(&sandbox, &["provider.lua"], &["--frobnicate", "-p", "hi"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--frobnicate") && stderr.contains("pi --help"),
        "{stderr}"
    );
    assert!(server.requests().is_empty());
}

#[test]
fn a_failing_handler_is_reported_once_and_the_tool_still_runs() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        ("call_1", "bash", json!({"command": "echo first"})),
        ("call_2", "bash", json!({"command": "echo second"})),
    ]));
    server.push(MockReply::openai_text("done"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let out = run_with(&sandbox, &["failing_handler.lua"], &["-p", "go"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stderr.matches("handler exploded").count(), 1, "{stderr}");
    assert!(stderr.contains("failing_handler.lua"), "{stderr}");
    let results = tool_results(&sandbox);
    assert_eq!(results[0]["content"][0]["text"], "first\n");
    assert_eq!(results[1]["content"][0]["text"], "second\n");
}

#[test]
fn a_prompt_naming_an_extension_command_runs_the_command() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("relayed"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let ext = sandbox.project.join("relay.lua");
    std::fs::write(
        &ext,
        r#"return function(pi)
  pi.registerCommand("relay", {
    description = "Send the arguments on, upper-cased",
    handler = function(args, ctx) pi.sendUserMessage("RELAYED " .. string.upper(args)) end,
  })
  pi.registerCommand("broken", {
    handler = function(args, ctx) error("the command failed on purpose") end,
  })
end"#,
    )
    .unwrap();
    let ext = ext.display().to_string();
    let args = [
        "--model",
        "mock/mock-model",
        "-e",
        &ext,
        "-p",
        "/relay hello there",
    ];
    let out = sandbox.run(&args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.request_count(), 1);
    let sent = body(&server, 0);
    assert!(sent.contains("RELAYED HELLO THERE"), "{sent}");
    assert!(
        !sent.contains("/relay"),
        "the command text never reaches the model: {sent}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "relayed\n");

    let args = ["--model", "mock/mock-model", "-e", &ext, "-p", "/broken"];
    let out = sandbox.run(&args, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the command failed on purpose"), "{stderr}");
    assert_eq!(server.request_count(), 1, "a failed command sends nothing");
}
