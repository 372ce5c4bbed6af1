//! Escape hygiene in print mode: control sequences dropped on a terminal, pipes byte-exact.

use super::stop_and_resume::*;
use super::*;

const HOSTILE: &str = "\u{1b}]52;c;aGFja2Vk\u{7}\u{1b}[2J\u{1b}[1mbold\u{1b}[0m plain";

/// The model runs a command whose output holds a clipboard write and a screen
/// clear, then repeats that output in its answer.
fn hostile_server() -> MockServer {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_1",
        "bash",
        serde_json::json!({"command": "printf '\\033]52;c;aGFja2Vk\\007\\033[2J'"}),
    )]));
    server.push(MockReply::openai_text(HOSTILE));
    server
}

#[test]
fn print_mode_on_a_terminal_drops_control_sequences_but_keeps_styling() {
    let server = hostile_server();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let pi = env!("CARGO_BIN_EXE_pi");
    let line = format!("'{pi}' --model mock/mock-model -p 'show me'");
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(&sandbox.project)
        .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
        .env("PI_OFFLINE", "1")
        .env_remove("OPENAI_API_KEY")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script(1) runs pi on a pseudo-terminal");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{shown}");
    let tool_result = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(tool_result.contains("]52;c;aGFja2Vk"), "{tool_result}");
    assert!(shown.contains("\u{1b}[1mbold\u{1b}[0m plain"), "{shown:?}");
    assert!(!shown.contains("]52;"), "{shown:?}");
    assert!(!shown.contains("\u{1b}[2J"), "{shown:?}");
}

#[test]
fn print_mode_into_a_pipe_is_byte_exact() {
    let server = hostile_server();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "show me"], None);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{HOSTILE}\n"));
}

/// The pids of `pid`'s children.
fn children(pid: i32) -> Vec<i32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

#[test]
fn sigterm_and_sighup_in_the_terminal_ui_save_the_partial_answer() {
    use crate::support::tui_harness::{Session, tmux_available, wait_for_file};
    if !tmux_available() {
        eprintln!("tmux is not installed; skipping");
        return;
    }
    for signal in [libc::SIGTERM, libc::SIGHUP] {
        let server = MockServer::start();
        server.push(stalled_reply());
        let pi = Session::launch(&server, |_| {});
        pi.send(PROMPT);
        pi.tmux
            .wait_for("streamed text", Duration::from_secs(20), |s| {
                s.contains("half an answer")
            });
        let shell: i32 = pi
            .tmux
            .tmux(&["display-message", "-p", "#{pane_pid}"])
            .trim()
            .parse()
            .unwrap();
        let pids = children(shell);
        assert_eq!(pids.len(), 1, "the shell runs pi only: {pids:?}");
        // SAFETY: signals the pi started by this test.
        assert_eq!(unsafe { libc::kill(pids[0], signal) }, 0);
        wait_for_file(&pi.after, Duration::from_secs(20));
        let messages = session_messages(&pi.sandbox);
        assert!(messages[0].to_string().contains(PROMPT), "{messages:?}");
        assert!(
            messages
                .iter()
                .any(|m| m["role"] == "assistant" && m.to_string().contains("half an answer")),
            "signal {signal}: {messages:?}"
        );
        pi.tmux.tmux(&["kill-server"]);
    }
}

#[tokio::test]
async fn a_tool_that_fills_memory_is_stopped_and_its_neighbour_still_runs() {
    use pi::lua::{ExtensionHandle, HostConfig, SharedView};
    let dir = tempfile::tempdir().unwrap();
    let hog = dir.path().join("hoarder.lua");
    std::fs::write(
        &hog,
        r#"
return function(pi)
  pi.registerTool({ name = "hoard", description = "fills memory", execute = function()
    store = {}
    for i = 1, 1e6 do store[i] = string.rep("x", 1e6) end
  end })
end
"#,
    )
    .unwrap();
    let neighbour = dir.path().join("neighbour.lua");
    std::fs::write(
        &neighbour,
        r#"
return function(pi)
  pi.registerTool({ name = "measure", description = "needs some memory", execute = function()
    local s = string.rep("y", 8e6)
    return { content = { { type = "text", text = tostring(#s) } } }
  end })
end
"#,
    )
    .unwrap();
    let mut config = HostConfig::new(vec![hog, neighbour], ".");
    config.memory_limit_mb = 32;
    let handle = ExtensionHandle::start(config, SharedView::new("."));
    assert!(handle.load().await.errors.is_empty());
    let run = |name: &'static str| {
        let handle = handle.clone();
        async move {
            let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
            let signal = tokio_util::sync::CancellationToken::new();
            handle
                .execute_tool(name, "c", serde_json::json!({}), signal, tx)
                .await
                .map_err(|e| e.to_string())
        }
    };
    let err = run("hoard").await.unwrap_err();
    assert!(err.contains("32 MiB"), "{err}");
    let out = run("measure").await.unwrap();
    assert_eq!(out["content"][0]["text"], "8000000");
    let names: Vec<String> = handle.tools().await.into_iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["measure"]);
}
