//! End to end: tools that compose. Two extensions wrap the built-in `bash` with
//! `pi.wrapTool` and both apply, in load order or the order of settings `"tools.wrapOrder"`;
//! a failing wrapper is a tool error naming its extension; two extensions registering `read`
//! give one warning naming both and the owner settings `"tools.owners"` chose, in print mode
//! (stderr) and RPC (a notification); a tool registered by one extension is wrapped by
//! another.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::support::pi_cli::PiSandbox;
use crate::support::rpc_client::RpcClient;
use crate::support::{MockReply, MockServer};

const API: &str = "openai-completions";

/// `prefixer` puts `echo PREFIXED;` before the command; `reporter` appends to the result
/// the command it saw, so which one ran first shows in the result.
const PREFIXER: &str = r#"return function(pi)
  pi.wrapTool("bash", function(args, next, ctx)
    args.command = "echo PREFIXED; " .. args.command
    return next(args)
  end)
end
"#;

const REPORTER: &str = r#"return function(pi)
  pi.wrapTool("bash", function(args, next, ctx)
    local result = next(args)
    table.insert(result.content, { type = "text", text = "REPORTER saw [" .. args.command .. "]" })
    return result
  end)
end
"#;

fn extension(sandbox: &PiSandbox, name: &str, source: &str) -> String {
    let path: PathBuf = sandbox.root.path().join("exts").join(format!("{name}.lua"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, source).unwrap();
    path.display().to_string()
}

/// Run one prompt whose reply calls `tool` with `args`; returns the tool message the model
/// got back and pi's stderr.
fn call_tool(
    server: &MockServer,
    sandbox: &PiSandbox,
    exts: &[&str],
    tool: &str,
    args: Value,
) -> (String, String) {
    let before = server.requests().len();
    server.push(MockReply::openai_tool_calls(&[("call_1", tool, args)]));
    server.push(MockReply::openai_text("done"));
    let mut argv = vec!["--model", "mock/mock-model"];
    for e in exts {
        argv.extend_from_slice(&["-e", e]);
    }
    argv.extend_from_slice(&["-p", "go"]);
    let out = sandbox.run(&argv, None);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let requests = server.requests();
    assert_eq!(requests.len(), before + 2, "{stderr}");
    (requests.last().unwrap().tool_message(), stderr)
}

fn settings(sandbox: &PiSandbox, value: Value) {
    sandbox.write_agent_file("settings.json", &value.to_string());
}

#[test]
fn two_bash_wrappers_both_apply_in_load_order_or_the_configured_order() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let prefixer = extension(&sandbox, "prefixer", PREFIXER);
    let reporter = extension(&sandbox, "reporter", REPORTER);
    let args = json!({"command": "echo hi"});

    // Load order: the prefixer (loaded first) is outermost, so the reporter sees its prefix.
    let (tool, _) = call_tool(
        &server,
        &sandbox,
        &[&prefixer, &reporter],
        "bash",
        args.clone(),
    );
    assert!(tool.contains("PREFIXED\\nhi"), "{tool}");
    assert!(
        tool.contains("REPORTER saw [echo PREFIXED; echo hi]"),
        "{tool}"
    );

    // Settings put the reporter outside: it sees the command before the prefix.
    settings(
        &sandbox,
        json!({"tools.wrapOrder": {"bash": ["reporter", "prefixer"]}}),
    );
    let (tool, _) = call_tool(
        &server,
        &sandbox,
        &[&prefixer, &reporter],
        "bash",
        args.clone(),
    );
    assert!(tool.contains("PREFIXED\\nhi"), "{tool}");
    assert!(tool.contains("REPORTER saw [echo hi]"), "{tool}");

    // And back: the configured order is the load order.
    settings(
        &sandbox,
        json!({"tools.wrapOrder": {"bash": ["prefixer", "reporter"]}}),
    );
    let (tool, _) = call_tool(&server, &sandbox, &[&reporter, &prefixer], "bash", args);
    assert!(
        tool.contains("REPORTER saw [echo PREFIXED; echo hi]"),
        "{tool}"
    );
}

#[test]
fn a_failing_or_blocking_wrapper_is_a_tool_error_not_a_crash() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let broken = extension(
        &sandbox,
        "broken",
        r#"return function(pi)
  pi.wrapTool("read", function(args, next) error("no reading today") end)
  pi.wrapTool("bash", function(args, next)
    if args.command:find("rm ") then return { block = true, reason = "rm is not allowed here" } end
    return next(args)
  end)
end
"#,
    );
    let (tool, _) = call_tool(
        &server,
        &sandbox,
        &[&broken],
        "read",
        json!({"path": "hello.txt"}),
    );
    assert!(
        tool.contains("extension broken failed while wrapping the tool read: ")
            && tool.contains("broken.lua:2: no reading today"),
        "{tool}"
    );
    let (tool, _) = call_tool(
        &server,
        &sandbox,
        &[&broken],
        "bash",
        json!({"command": "rm x"}),
    );
    assert!(tool.contains("rm is not allowed here"), "{tool}");
    let (tool, _) = call_tool(
        &server,
        &sandbox,
        &[&broken],
        "bash",
        json!({"command": "echo ok"}),
    );
    assert!(tool.contains("ok"), "{tool}");
    assert!(!tool.contains("not allowed"), "{tool}");
}

fn reader(tag: &str) -> String {
    format!(
        r#"return function(pi)
  pi.registerTool({{
    name = "read", label = "Read", description = "reads",
    parameters = {{ type = "object", properties = {{ path = {{ type = "string" }} }} }},
    execute = function(id, params) return {{ content = "read by {tag}" }} end,
  }})
end
"#
    )
}

fn conflict_line(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.contains("is registered by both"))
        .collect()
}

#[test]
fn two_extensions_registering_read_warn_once_and_settings_choose_the_owner() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let first = extension(&sandbox, "reader-one", &reader("one"));
    let second = extension(&sandbox, "reader-two", &reader("two"));
    let args = json!({"path": "hello.txt"});

    // Default (as pi 0.73.1): the one loaded first is used, and the warning says so.
    let (tool, stderr) = call_tool(&server, &sandbox, &[&first, &second], "read", args.clone());
    assert!(tool.contains("read by one"), "{tool}");
    let lines = conflict_line(&stderr);
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].contains(
            "tool \"read\" is registered by both reader-one and reader-two; reader-one's is used"
        ),
        "{stderr}"
    );

    settings(&sandbox, json!({"tools.owners": {"read": "reader-two"}}));
    let (tool, stderr) = call_tool(&server, &sandbox, &[&first, &second], "read", args);
    assert!(tool.contains("read by two"), "{tool}");
    let lines = conflict_line(&stderr);
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("reader-two's is used"), "{stderr}");

    // RPC: the same warning reaches the client as a notification.
    let mut client = RpcClient::new(sandbox.spawn(&[
        "--mode",
        "rpc",
        "--model",
        "mock/mock-model",
        "-e",
        &first,
        "-e",
        &second,
    ]));
    let seen = client.seen_or_wait("the conflict notification", |v| {
        v["type"] == "extension_ui_request"
            && v["method"] == "notify"
            && v["message"]
                .as_str()
                .is_some_and(|m| m.contains("is registered by both reader-one and reader-two"))
    });
    let message = seen.value["message"].as_str().unwrap().to_string();
    assert!(message.contains("reader-two's is used"), "{message}");
    assert_eq!(seen.value["notifyType"], "warning");
    client.kill();
}

#[test]
fn a_tool_registered_by_one_extension_is_wrapped_by_another() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let owner = extension(
        &sandbox,
        "shouter",
        r#"return function(pi)
  pi.registerTool({
    name = "shout", label = "Shout", description = "says it loudly",
    parameters = { type = "object", properties = { text = { type = "string" } } },
    execute = function(id, params) return { content = "SHOUT " .. params.text, details = { n = 1 } } end,
  })
end
"#,
    );
    let wrapper = extension(
        &sandbox,
        "politeness",
        r#"return function(pi)
  pi.wrapTool("shout", function(args, next)
    args.text = args.text .. " please"
    local result = next(args)
    result.content[1].text = result.content[1].text .. " (details n=" .. result.details.n .. ")"
    return result
  end)
end
"#,
    );
    let (tool, stderr) = call_tool(
        &server,
        &sandbox,
        &[&owner, &wrapper],
        "shout",
        json!({"text": "hi"}),
    );
    assert!(tool.contains("SHOUT hi please (details n=1)"), "{tool}");
    assert!(!stderr.contains("rror"), "{stderr}");
}
