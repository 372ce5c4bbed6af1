//! The `mcp` extension in use: Escape (an RPC abort) cancels a call, `/mcp` lists and
//! disables servers, quitting leaves no server behind, project servers need trust, and
//! the reference server answers over streamable HTTP too.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::mcp_servers::{
    everything, extension, gateway, mcp_json, scripted, servers_or_skip,
};
use crate::support::pi_cli::PiSandbox;
use crate::support::rpc_client::RpcClient;
use crate::support::{MockReply, MockServer};

/// Run the command `text` (once the previous one is over) and return the next notice.
fn command(rpc: &mut RpcClient, text: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let response = rpc.call(json!({"type": "prompt", "message": text}));
        if response["success"] == true {
            break;
        }
        assert!(Instant::now() < deadline, "{response}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let line = rpc.wait_for(text, |v| {
        v["type"] == "extension_ui_request" && v["method"] == "notify"
    });
    line.value["message"].as_str().unwrap().to_string()
}

fn gone(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        // SAFETY: signal 0 only checks that the process exists.
        if unsafe { libc::kill(pid, 0) } != 0 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn escape_cancels_a_call_and_mcp_lists_disables_and_quitting_stops_the_server() {
    let Some(dir) = servers_or_skip() else { return };
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let log = sandbox.root.path().join("pids.log");
    let program = everything(dir).display().to_string();
    sandbox.write_agent_file(
        "mcp.json",
        &mcp_json(json!({"everything": {
            "command": "sh",
            "args": ["-c", format!("echo $$ >> '{}'; exec {program} stdio", log.display())],
        }})),
    );
    // Listed first, so that the abort lands in the long call, not in the start.
    server.set_handler(scripted(vec![
        ("mcp", json!({"server": "everything"})),
        gateway(
            "everything",
            "trigger-long-running-operation",
            json!({"duration": 60, "steps": 2}),
        ),
    ]));
    let ext = extension("mcp");
    let mut rpc =
        RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model", "-e", &ext]));
    rpc.call(json!({"type": "prompt", "message": "go"}));
    let long_call = |v: &serde_json::Value| v["args"]["tool"] == "trigger-long-running-operation";
    rpc.seen_or_wait("the call", |v| {
        v["type"] == "tool_execution_start" && long_call(v)
    });
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    rpc.call(json!({"type": "abort"}));
    let end = rpc.seen_or_wait("the cancelled call", |v| {
        v["type"] == "tool_execution_end" && v["toolCallId"] == "call-1"
    });
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(end.value["isError"], true, "{}", end.value);
    assert!(
        end.value["result"].to_string().contains("was cancelled"),
        "{}",
        end.value
    );
    rpc.seen_or_wait("the end of the run", |v| v["type"] == "agent_end");

    let list = command(&mut rpc, "/mcp");
    assert!(
        list.starts_with("MCP servers: 1\neverything (stdio): connected, "),
        "{list}"
    );
    assert!(list.contains("everything_echo, "), "{list}");

    let done = command(&mut rpc, "/mcp disable everything");
    assert_eq!(done, "MCP server everything disabled for this session");
    let first_pid: i32 = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(gone(first_pid), "a disabled server keeps running");
    let list = command(&mut rpc, "/mcp");
    assert!(list.contains("everything (stdio): disabled"), "{list}");

    let done = command(&mut rpc, "/mcp reconnect everything");
    assert!(
        done.starts_with("MCP server everything connected: "),
        "{done}"
    );
    let pids: Vec<i32> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pids.len(), 2);
    assert!(!gone(pids[1]), "the reconnected server runs");
    assert_eq!(rpc.finish(), 0);
    assert!(gone(pids[1]), "the server outlived pi");
}

#[test]
fn project_servers_load_only_in_a_trusted_project() {
    let Some(dir) = servers_or_skip() else { return };
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let program = everything(dir).display().to_string();
    let entry = json!({"command": program, "args": ["stdio"]});
    sandbox.write_agent_file("mcp.json", &mcp_json(json!({"mine": entry})));
    std::fs::create_dir_all(sandbox.project.join(".pi")).unwrap();
    std::fs::write(
        sandbox.project.join(".pi/mcp.json"),
        mcp_json(json!({"proj": entry})),
    )
    .unwrap();
    server.set_handler(|_| MockReply::anthropic_text("ok"));
    let ext = extension("mcp");
    let tools_of = |n: usize| server.requests()[n].json()["tools"].to_string();

    let out = sandbox.run(
        &["-p", "--model", "mock/mock-model", "-e", &ext, "hi"],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "MCP servers of this project were skipped because the folder is not trusted: proj"
        ),
        "{stderr}"
    );
    // No server has been listed yet: both are reached through the `mcp` tool, which
    // names the servers it serves.
    let servers_of = |n: usize| {
        let tools = server.requests()[n].json()["tools"].clone();
        let mcp = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "mcp")
            .cloned();
        mcp.map(|t| t["input_schema"]["properties"]["server"]["enum"].clone())
    };
    assert_eq!(servers_of(0), Some(json!(["mine"])), "{}", tools_of(0));

    let out = sandbox.run(
        &[
            "-p",
            "--approve",
            "--model",
            "mock/mock-model",
            "-e",
            &ext,
            "hi",
        ],
        None,
    );
    assert!(out.status.success());
    assert_eq!(
        servers_of(1),
        Some(json!(["mine", "proj"])),
        "{}",
        tools_of(1)
    );
}

#[test]
fn the_reference_server_over_streamable_http() {
    let Some(dir) = servers_or_skip() else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = std::process::Command::new(everything(dir))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    sandbox.write_agent_file(
        "mcp.json",
        &mcp_json(json!({"everything": {"url": format!("http://127.0.0.1:{port}/mcp")}})),
    );
    server.set_handler(scripted(vec![
        gateway("everything", "echo", json!({"message": "over http"})),
        gateway("everything", "get-sum", json!({"a": 20, "b": 22})),
    ]));
    let ext = extension("mcp");
    let out = sandbox.run(
        &[
            "--mode",
            "json",
            "-p",
            "--model",
            "mock/mock-model",
            "-e",
            &ext,
            "go",
        ],
        None,
    );
    let _ = child.kill();
    let _ = child.wait();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let results = crate::support::mcp_servers::tool_results(&stdout);
    assert_eq!(
        results.len(),
        2,
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !results[0].2 && results[0].1.contains("over http"),
        "{results:?}"
    );
    assert!(!results[1].2 && results[1].1.contains("42"), "{results:?}");
}
