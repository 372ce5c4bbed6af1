//! The bundled extensions in the real terminal UI (tmux): the `/jobs` and `/mcp` panels
//! (lists with state, a detail view on Enter, keys that stop a job or reconnect and
//! disable a server), and Escape cancelling an MCP call.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::mcp_servers::{everything, extension, mcp_json, servers_or_skip};
use crate::support::pi_cli::PiSandbox;
use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

const WAIT: Duration = Duration::from_secs(20);

/// pi in tmux with the bundled extension `name` loaded.
fn launch(server: &MockServer, name: &str, prepare: impl FnOnce(&PiSandbox)) -> Session {
    let sandbox = PiSandbox::with_mock(server, "openai-completions");
    prepare(&sandbox);
    let args = format!("--model mock/mock-model -e {}", quote(&extension(name)));
    let pi = Session::start(sandbox, &args);
    pi.tmux
        .wait_for("the editor", WAIT, |s| s.contains("mock-model"));
    pi
}

/// Whether process `pid` has ended (within five seconds).
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

/// The pids named "(pid N)" in the tool results sent to the model.
fn job_pids(server: &MockServer) -> Vec<i32> {
    let text = server.last_request().unwrap().json().to_string();
    text.split("(pid ")
        .skip(1)
        .filter_map(|s| s.split(')').next()?.parse().ok())
        .collect()
}

#[test]
fn jobs_panel_lists_shows_output_and_stops_a_job() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        (
            "c1",
            "bg_start",
            json!({"command": "for i in 1 2 3; do echo tick $i; done; exec sleep 300"}),
        ),
        (
            "c2",
            "bg_start",
            json!({"command": "echo other job; exec sleep 300"}),
        ),
    ]));
    server.push(MockReply::openai_text("Both started."));
    let pi = launch(&server, "background", |_| {});
    pi.send("start two jobs");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("Both started."));
    let pids = job_pids(&server);
    assert_eq!(pids.len(), 2, "{pids:?}");

    pi.send("/jobs");
    let screen = pi.tmux.wait_for("the panel", WAIT, |s| {
        s.contains("Background jobs: 2") && s.contains("tick 3") && s.contains("other job")
    });
    assert!(screen.contains("› [1] running · "), "{screen}");
    assert!(screen.contains("[2] running · "), "{screen}");
    assert!(
        screen.contains("enter output · s stop · esc close"),
        "{screen}"
    );

    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for("the output of job 1", WAIT, |s| {
        s.contains("s stop · esc back")
    });
    assert!(
        screen.contains("  tick 1\n") && screen.contains("  tick 2\n"),
        "{screen}"
    );
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the list again", WAIT, |s| s.contains("Background jobs: 2"));

    pi.tmux.key("Down");
    pi.tmux.key("s");
    let screen = pi
        .tmux
        .wait_for("job 2 stopped", WAIT, |s| s.contains("[2] stopped · "));
    assert!(screen.contains("[1] running · "), "{screen}");
    assert!(gone(pids[1]), "the stopped job still runs");
    assert!(!gone(pids[0]), "the other job was stopped too");

    pi.tmux.key("Escape");
    pi.tmux.wait_for("the panel closed", WAIT, |s| {
        !s.contains("Background jobs:")
    });
    pi.quit_and_check_terminal();
    assert!(gone(pids[0]), "job 1 outlived pi");
}

#[test]
fn mcp_panel_lists_reconnects_and_disables_servers() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed");
        return;
    }
    let Some(dir) = servers_or_skip() else { return };
    let server = MockServer::start();
    let log = std::env::temp_dir().join(format!("pi-mcp-panel-{}.log", rand_suffix()));
    let program = everything(dir).display().to_string();
    let config = mcp_json(json!({
        "everything": {
            "command": "sh",
            "args": ["-c", format!("echo $$ >> '{}'; exec {program} stdio", log.display())],
            "initTimeout": 60000,
        },
        "mute": {"command": "sh", "args": ["-c", "exec cat > /dev/null"], "initTimeout": 1000},
    }));
    let pi = launch(&server, "mcp", |s| s.write_agent_file("mcp.json", &config));
    pi.send("/mcp");
    let screen = pi
        .tmux
        .wait_for("the panel", WAIT, |s| s.contains("MCP servers: 2"));
    assert!(
        screen.contains("› everything (stdio) · not started · tools not listed yet"),
        "{screen}"
    );
    assert!(
        screen.contains("mute (stdio) · not started · tools not listed yet"),
        "{screen}"
    );
    assert!(!log.exists(), "a server started before it was asked for");

    pi.tmux.key("r");
    pi.tmux.wait_for("everything connected", 3 * WAIT, |s| {
        s.contains("everything (stdio) · connected · 13 tools")
    });
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("its tools", WAIT, |s| s.contains("everything_get_sum"));
    assert!(
        screen.contains("  everything_echo  Echoes back"),
        "{screen}"
    );
    pi.tmux.key("Escape");

    pi.tmux.key("Down");
    pi.tmux.key("r");
    let screen = pi
        .tmux
        .wait_for("mute failed", WAIT, |s| s.contains("mute (stdio) · failed"));
    assert!(
        screen.contains("MCP server mute did not answer initialize within 1000 ms"),
        "{screen}"
    );

    pi.tmux.key("Up");
    pi.tmux.key("d");
    pi.tmux.wait_for("everything disabled", WAIT, |s| {
        s.contains("everything (stdio) · disabled")
    });
    let pid: i32 = std::fs::read_to_string(&log)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(gone(pid), "a disabled server keeps running");
    pi.tmux.key("d");
    pi.tmux.wait_for("everything enabled again", WAIT, |s| {
        s.contains("everything (stdio) · not started · 13 tools")
    });
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the panel closed", WAIT, |s| !s.contains("MCP servers: 2"));
    pi.quit_and_check_terminal();
    let _ = std::fs::remove_file(&log);
}

#[test]
fn escape_cancels_an_mcp_call_that_never_returns() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "mcp",
        json!({"server": "tiny", "tool": "hang"}),
    )]));
    let script = std::path::Path::new(&extension("mcp")).join("tests/tiny_server.py");
    let pi = launch(&server, "mcp", |s| {
        let log = s.root.path().join("starts.log");
        let config = mcp_json(json!({"tiny": {"command": "python3", "args": [script, log]}}));
        s.write_agent_file("mcp.json", &config);
    });
    pi.send("wait for it");
    pi.tmux.wait_for("the call under way", WAIT, |s| {
        s.contains(r#"mcp {"server":"tiny","tool":"hang"}"#)
    });
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    pi.tmux.key("Escape");
    pi.tmux.wait_for("the cancelled call", WAIT, |s| {
        s.contains("The call to MCP server tiny was cancelled.")
    });
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    pi.quit_and_check_terminal();
}

#[test]
fn the_panels_speak_the_chosen_language() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed");
        return;
    }
    let server = MockServer::start();
    let pi = launch(&server, "mcp", |s| {
        s.write_agent_file("settings.json", &json!({"locale": "zh-CN"}).to_string());
        let config = mcp_json(json!({"quiet": {"command": "true"}}));
        s.write_agent_file("mcp.json", &config);
    });
    pi.send("/mcp");
    let screen = pi
        .tmux
        .wait_for("the panel", WAIT, |s| s.contains("MCP 服务器：1"));
    assert!(
        screen.contains("› quiet (stdio) · 未启动 · 尚未列出工具"),
        "{screen}"
    );
    assert!(
        screen.contains("↑↓ 选择 · enter 工具 · r 重新连接 · d 禁用/启用 · esc 关闭"),
        "{screen}"
    );
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the panel closed", WAIT, |s| !s.contains("MCP 服务器：1"));
    pi.quit_and_check_terminal();
}
