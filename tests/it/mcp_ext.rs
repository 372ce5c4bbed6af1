//! The shipped `mcp` extension against real MCP servers installed from the registries:
//! the reference "everything" server over stdio and a server written with the
//! official Python SDK over streamable HTTP, driven by a scripted model.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::mcp_servers::{
    everything, extension, gateway, mcp_json, python, scripted, servers_or_skip, tool_results,
};
use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};

/// A stdio server entry that records each start in `log` before running `program`.
fn logged(log: &Path, program: &str, args: &str) -> serde_json::Value {
    json!({
        "command": "sh",
        "args": ["-c", format!("echo started >> '{}'; exec {program} {args}", log.display())],
    })
}

fn starts(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |s| s.lines().count())
}

fn run_json(sandbox: &PiSandbox, prompt: &str) -> String {
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
            prompt,
        ],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "pi failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// How many processes carry `marker` in their environment (as `pgrep` would find them).
fn processes_with(marker: &str) -> usize {
    let needle = marker.as_bytes();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("environ")).ok())
        .filter(|env| env.windows(needle.len()).any(|w| w == needle))
        .count()
}

#[test]
fn everything_over_stdio_echoes_and_adds_and_starts_only_on_first_call() {
    let Some(dir) = servers_or_skip() else { return };
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let log = sandbox.root.path().join("starts.log");
    let program = everything(dir).display().to_string();
    let marker = format!("PI_MCP_MARK={}", sandbox.root.path().display());
    let mut entry = logged(&log, &program, "stdio");
    entry["env"] = json!({"PI_MCP_MARK": sandbox.root.path().display().to_string()});
    sandbox.write_agent_file("mcp.json", &mcp_json(json!({"everything": entry})));
    // First run, nothing cached: the model sees the `mcp` tool, which starts the server
    // and lists its tools; then it calls them through `mcp`.
    let before_first_call = std::sync::Arc::new(std::sync::Mutex::new(None));
    let (seen, log2, mark2) = (before_first_call.clone(), log.clone(), marker.clone());
    let script = scripted(vec![
        ("mcp", json!({"server": "everything"})),
        (
            "mcp",
            json!({"server": "everything", "tool": "echo", "arguments": {"message": "hello from pi"}}),
        ),
        (
            "mcp",
            json!({"server": "everything", "tool": "get-sum", "arguments": {"a": 2, "b": 40}}),
        ),
    ]);
    server.set_handler(move |req| {
        seen.lock()
            .unwrap()
            .get_or_insert((starts(&log2), processes_with(&mark2)));
        script(req)
    });
    let out = run_json(&sandbox, "go");
    assert_eq!(
        *before_first_call.lock().unwrap(),
        Some((0, 0)),
        "started before the call"
    );
    let tools = server.requests()[0].json()["tools"].to_string();
    assert!(
        tools.contains("\"mcp\"") && !tools.contains("everything_echo"),
        "{tools}"
    );
    let results = tool_results(&out);
    assert_eq!(results.len(), 3, "{out}");
    assert!(
        !results[0].2
            && results[0]
                .1
                .starts_with("MCP server everything is connected and has 13 tools.")
            && results[0].1.contains("- echo (everything_echo): "),
        "{results:?}"
    );
    assert!(
        !results[1].2 && results[1].1.contains("hello from pi"),
        "{results:?}"
    );
    assert!(!results[2].2 && results[2].1.contains("42"), "{results:?}");
    assert_eq!(starts(&log), 1);
    assert_eq!(processes_with(&marker), 0, "the server outlived pi");

    // Second run: the cached tools are offered under their own names (no `mcp` tool),
    // and no server runs until the model calls one.
    let seen_before_call = std::sync::Arc::new(std::sync::Mutex::new(None));
    let (seen, log2) = (seen_before_call.clone(), log.clone());
    let script = scripted(vec![("everything_echo", json!({"message": "again"}))]);
    server.set_handler(move |req| {
        seen.lock().unwrap().get_or_insert(starts(&log2));
        script(req)
    });
    let n = server.requests().len();
    let out = run_json(&sandbox, "go");
    assert_eq!(
        *seen_before_call.lock().unwrap(),
        Some(1),
        "started before the call"
    );
    let tools = server.requests()[n].json()["tools"].to_string();
    assert!(
        tools.contains("everything_echo") && !tools.contains("\"mcp\""),
        "{tools}"
    );
    let results = tool_results(&out);
    assert!(results[0].1.contains("again"), "{results:?}");
    assert_eq!(starts(&log), 2);
}

#[test]
fn everything_prompts_become_commands() {
    let Some(dir) = servers_or_skip() else { return };
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let program = everything(dir).display().to_string();
    sandbox.write_agent_file(
        "mcp.json",
        &mcp_json(json!({"everything": {"command": program, "args": ["stdio"]}})),
    );
    // The prompts become commands once the server is listed; later sessions know them
    // from the start.
    server.set_handler(scripted(vec![("mcp", json!({"server": "everything"}))]));
    run_json(&sandbox, "hello");
    server.set_handler(|_| MockReply::anthropic_text("ok"));
    run_json(&sandbox, "/everything:simple-prompt");
    let texts: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.json().to_string())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("This is a simple prompt without arguments.")),
        "{texts:?}"
    );
}

/// A free port on 127.0.0.1.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Kills and reaps the server process when dropped.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn python_sdk_server_over_streamable_http() {
    let Some(dir) = servers_or_skip() else { return };
    let port = free_port();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/py_server.py");
    let child = std::process::Command::new(python(dir))
        .arg(&script)
        .arg(port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let _guard = KillOnDrop(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the Python server did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    sandbox.write_agent_file(
        "mcp.json",
        &mcp_json(json!({"py": {"url": format!("http://127.0.0.1:{port}/mcp")}})),
    );
    server.set_handler(scripted(vec![
        gateway("py", "shout", json!({"text": "quiet"})),
        gateway("py", "multiply", json!({"a": 6, "b": 7})),
    ]));
    let out = run_json(&sandbox, "go");
    let results = tool_results(&out);
    assert_eq!(results.len(), 2, "{out}");
    assert_eq!(results[0].1, "QUIET!", "{results:?}");
    assert_eq!(results[1].1, "42", "{results:?}");
    assert!(!results[0].2 && !results[1].2);
}

#[test]
fn a_killed_server_gives_a_tool_error_and_the_next_call_reconnects() {
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
            "timeout": 20000,
        }})),
    );
    // The server is started and listed first, so the kill lands in the long call.
    let script = scripted(vec![
        ("mcp", json!({"server": "everything"})),
        gateway(
            "everything",
            "trigger-long-running-operation",
            json!({"duration": 30, "steps": 3}),
        ),
        gateway("everything", "echo", json!({"message": "back again"})),
    ]);
    let log2 = log.clone();
    server.set_handler(move |req| {
        if crate::support::scenario::tool_results_in(req) == 1 {
            let log = log2.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(1500));
                let pid: i32 = std::fs::read_to_string(&log)
                    .unwrap()
                    .lines()
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                // SAFETY: kill(2) on the server this test configured.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            });
        }
        script(req)
    });
    let started = Instant::now();
    let out = run_json(&sandbox, "go");
    let results = tool_results(&out);
    assert_eq!(results.len(), 3, "{out}");
    assert!(results[1].2, "{results:?}");
    assert!(
        results[1].1.contains("stopped during the call"),
        "{results:?}"
    );
    assert!(
        !results[2].2 && results[2].1.contains("back again"),
        "{results:?}"
    );
    // The whole run, starts included, is shorter than the call's 20 s timeout.
    assert!(
        started.elapsed() < Duration::from_secs(19),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
}

#[test]
fn a_server_that_never_initializes_is_reported_and_skipped() {
    let Some(dir) = servers_or_skip() else { return };
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let program = everything(dir).display().to_string();
    sandbox.write_agent_file(
        "mcp.json",
        &mcp_json(json!({
            "mute": {"command": "sh", "args": ["-c", "cat > /dev/null"], "initTimeout": 1500},
            "everything": {"command": program, "args": ["stdio"]},
        })),
    );
    server.set_handler(scripted(vec![
        ("mcp", json!({"server": "mute"})),
        gateway("everything", "echo", json!({"message": "still here"})),
    ]));
    let ext = extension("mcp");
    let started = Instant::now();
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
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("MCP server mute did not answer initialize within 1500 ms"),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(15));
    let results = tool_results(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(
        results[0].2
            && results[0]
                .1
                .starts_with("MCP server mute did not answer initialize"),
        "{results:?}"
    );
    assert!(
        !results[1].2 && results[1].1.contains("still here"),
        "{results:?}"
    );
}

#[test]
fn a_server_answering_garbage_gives_a_clear_tool_error_and_the_others_carry_on() {
    let Some(dir) = servers_or_skip() else { return };
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/garbage_server.py");
    let program = everything(dir).display().to_string();
    sandbox.write_agent_file(
        "mcp.json",
        &mcp_json(json!({
            "garbage": {"command": "python3", "args": [script], "timeout": 1500},
            "everything": {"command": program, "args": ["stdio"]},
        })),
    );
    server.set_handler(scripted(vec![
        gateway("garbage", "broken", json!({})),
        gateway("everything", "echo", json!({"message": "unharmed"})),
    ]));
    let started = Instant::now();
    let ext = extension("mcp");
    let run = sandbox.run(
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
    let out = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("MCP server garbage: tool bad left out: "),
        "{stderr}"
    );
    let results = tool_results(&out);
    assert_eq!(results.len(), 2, "{out}");
    assert!(results[0].2, "{results:?}");
    assert_eq!(
        results[0].1,
        "MCP server garbage did not answer tools/call within 1500 ms; it will be restarted on \
         the next call. It wrote output that is not JSON-RPC: Traceback (most recent call \
         last): <this is not JSON>"
    );
    assert!(
        !results[1].2 && results[1].1.contains("unharmed"),
        "{results:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn resources_are_listed_and_read_through_mcp_resource() {
    let Some(dir) = servers_or_skip() else { return };
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let program = everything(dir).display().to_string();
    sandbox.write_agent_file(
        "mcp.json",
        &mcp_json(json!({"everything": {"command": program, "args": ["stdio"]}})),
    );
    server.set_handler(scripted(vec![
        ("mcp_resource", json!({"server": "everything"})),
        (
            "mcp_resource",
            json!({"server": "everything", "uri": "demo://resource/static/document/features.md"}),
        ),
        ("mcp_resource", json!({"server": "nowhere"})),
    ]));
    let out = run_json(&sandbox, "go");
    let results = tool_results(&out);
    assert_eq!(results.len(), 3, "{out}");
    assert!(
        results[0]
            .1
            .contains("demo://resource/static/document/features.md  features.md  (text/markdown)"),
        "{results:?}"
    );
    assert!(
        results[1].1.starts_with("# Everything Server - Features"),
        "{results:?}"
    );
    assert_eq!(
        results[2],
        (
            "mcp_resource".into(),
            "No MCP server named nowhere".into(),
            true
        )
    );
}
