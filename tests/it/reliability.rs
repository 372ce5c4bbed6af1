//! Nothing runs away, nothing leaks, nothing is lost: extensions that try to
//! crash or end pi, the Lua memory limit, private file modes, prompts kept
//! across a kill, bounded waits on a stalled stream, terminal escapes in
//! print mode. The real `pi` binary runs against the offline demo provider or
//! a mock server on 127.0.0.1.

use crate::support::pi_cli::PiSandbox;

use std::io::Read;
use std::path::PathBuf;
use std::process::Child;
use std::time::{Duration, Instant};

/// Write `source` as an extension file in the sandbox and return its path.
fn extension(sandbox: &PiSandbox, name: &str, source: &str) -> PathBuf {
    let path = sandbox.root.path().join(name);
    std::fs::write(&path, source).unwrap();
    path
}

struct Finished {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// Peak resident set size in KiB.
    max_rss_kib: i64,
    elapsed: Duration,
}

/// Wait for `child`, reading its output, and measure its peak memory.
fn finish(mut child: Child, started: Instant) -> Finished {
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).ok();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).ok();
        s
    });
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data filled in by the kernel.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; the pointers are valid for the call.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    let elapsed = started.elapsed();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Finished {
        code,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
        max_rss_kib: usage.ru_maxrss,
        elapsed,
    }
}

fn run_demo(sandbox: &PiSandbox, extensions: &[&PathBuf], prompt: &str) -> Finished {
    let mut args: Vec<String> = vec!["--provider".into(), "demo".into()];
    for e in extensions {
        args.push("-e".into());
        args.push(e.display().to_string());
    }
    args.extend(["-p".to_string(), prompt.to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let started = Instant::now();
    let mut child = sandbox.spawn(&args);
    drop(child.stdin.take());
    finish(child, started)
}

#[test]
fn corrupted_bytecode_is_refused_and_pi_keeps_running() {
    let sandbox = PiSandbox::new();
    let ext = extension(
        &sandbox,
        "bytecode.lua",
        r#"
local chunk = string.dump(function() return 1 end)
local damaged = chunk:sub(1, 16) .. string.rep("\255", 48) .. chunk:sub(65)
local f, err = load(damaged)
if f then f() end
local g, err2 = load(chunk, "=dumped", "b")
if g then g() end
error("bytecode refused: " .. tostring(err) .. " / " .. tostring(err2))
"#,
    );
    let done = run_demo(&sandbox, &[&ext], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    assert!(done.stderr.contains("bytecode.lua"), "{}", done.stderr);
    assert!(
        done.stderr.contains("attempt to load a binary chunk"),
        "{}",
        done.stderr
    );
}

#[test]
fn an_extension_file_of_bytecode_is_not_run() {
    let sandbox = PiSandbox::new();
    let ext = sandbox.root.path().join("compiled.lua");
    let mut bytes = b"\x1bLua\x54\x00".to_vec();
    bytes.extend(std::iter::repeat_n(0xffu8, 64));
    std::fs::write(&ext, bytes).unwrap();
    let done = run_demo(&sandbox, &[&ext], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(done.stderr.contains("compiled.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("binary chunk"), "{}", done.stderr);
}

#[test]
fn os_exit_is_an_error_pointing_to_ctx_shutdown() {
    let sandbox = PiSandbox::new();
    let ext = extension(
        &sandbox,
        "quitter.lua",
        r#"
return function(pi)
  pi.on("session_start", function() os.exit(3) end)
end
"#,
    );
    let done = run_demo(&sandbox, &[&ext], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    assert!(done.stderr.contains("quitter.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("ctx.shutdown()"), "{}", done.stderr);
}

const HOG: &str = r#"
return function(pi)
  pi.on("session_start", function()
    hoard = {}
    for i = 1, 1e6 do hoard[i] = string.rep("x", 1e6) end
  end)
end
"#;

/// Runs after the hog at session start and again after the answer: it still
/// has room to work.
const NEIGHBOUR: &str = r#"
return function(pi)
  local function note(name)
    local s = string.rep("y", 8e6)
    local f = assert(io.open(name, "w"))
    f:write(#s)
    f:close()
  end
  pi.on("session_start", function() note("start.txt") end)
  pi.on("agent_end", function() note("end.txt") end)
end
"#;

#[test]
fn memory_hog_is_stopped_at_the_limit_and_others_carry_on() {
    let sandbox = PiSandbox::new();
    let hog = extension(&sandbox, "hog.lua", HOG);
    let neighbour = extension(&sandbox, "neighbour.lua", NEIGHBOUR);
    let done = run_demo(&sandbox, &[&hog, &neighbour], "hello");
    eprintln!(
        "memory hog: exit {:?}, peak RSS {} MiB, {:.2} s",
        done.code,
        done.max_rss_kib / 1024,
        done.elapsed.as_secs_f64()
    );
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    assert!(done.stderr.contains("hog.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("256 MiB"), "{}", done.stderr);
    assert!(
        done.max_rss_kib <= 1024 * 1024,
        "peak RSS {} KiB",
        done.max_rss_kib
    );
    assert!(done.elapsed < Duration::from_secs(15), "{:?}", done.elapsed);
    for file in ["start.txt", "end.txt"] {
        let written = std::fs::read_to_string(sandbox.project.join(file)).unwrap_or_default();
        assert_eq!(written, "8000000", "{file}: {}", done.stderr);
    }
}

#[test]
fn the_memory_limit_follows_the_setting() {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file("settings.json", r#"{"extensions.memoryLimitMb": 32}"#);
    let hog = extension(&sandbox, "hog.lua", HOG);
    let done = run_demo(&sandbox, &[&hog], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(done.stderr.contains("32 MiB"), "{}", done.stderr);
    assert!(
        done.max_rss_kib <= 512 * 1024,
        "peak RSS {} KiB",
        done.max_rss_kib
    );
}

#[test]
fn a_memory_hog_at_load_time_is_reported() {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file("settings.json", r#"{"extensions.memoryLimitMb": 32}"#);
    let hog = extension(
        &sandbox,
        "loadhog.lua",
        "local t = {}\nfor i = 1, 1e6 do t[i] = string.rep('x', 1e6) end\n",
    );
    let done = run_demo(&sandbox, &[&hog], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(done.stderr.contains("loadhog.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("32 MiB"), "{}", done.stderr);
}

// ----- nothing typed is lost --------------------------------------------------

use crate::support::{MockReply, MockServer, OpenAiSse};
use serde_json::Value;

const PROMPT: &str = "please remember this prompt";

/// A reply that streams some text and then neither finishes nor closes.
fn stalled_reply() -> MockReply {
    MockReply::openai(OpenAiSse::new().text("half an answer").without_done()).hold_open()
}

fn wait_for_requests(server: &MockServer, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.request_count() < n {
        assert!(Instant::now() < deadline, "pi never sent request {n}");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let the streamed text reach pi.
    std::thread::sleep(Duration::from_millis(600));
}

fn session_messages(sandbox: &PiSandbox) -> Vec<Value> {
    let files = sandbox.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "message")
        .map(|e| e["message"].clone())
        .collect()
}

fn mock_args(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["--model".to_string(), "mock/mock-model".to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn spawn_pi(sandbox: &PiSandbox, args: &[String]) -> Child {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    sandbox.spawn(&args)
}

fn send_signal(child: &Child, signal: i32) {
    // SAFETY: signals our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
}

#[test]
fn after_kill_9_mid_reply_continue_still_has_the_prompt() {
    let server = MockServer::start();
    server.push(stalled_reply());
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let mut child = spawn_pi(&sandbox, &mock_args(&["-p", PROMPT]));
    drop(child.stdin.take());
    wait_for_requests(&server, 1);
    send_signal(&child, libc::SIGKILL);
    child.wait().unwrap();

    let messages = session_messages(&sandbox);
    assert_eq!(messages[0]["role"], "user");
    assert!(messages[0].to_string().contains(PROMPT), "{messages:?}");

    server.push(MockReply::openai_text("I remember"));
    let out = sandbox.run(
        &["--model", "mock/mock-model", "-c", "-p", "what did I ask?"],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(body.contains(PROMPT), "{body}");
    assert!(body.contains("what did I ask?"), "{body}");
}

/// Start a run that stalls mid-reply, send `signal`, and check that pi ends
/// on its own with the prompt and the partial answer in the session.
fn signal_saves_the_partial_answer(mode: &[&str], signal: i32) {
    let server = MockServer::start();
    server.push(stalled_reply());
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let rpc = mode.contains(&"rpc");
    let mut args = mock_args(mode);
    if !rpc {
        args.extend(["-p".to_string(), PROMPT.to_string()]);
    }
    let mut child = spawn_pi(&sandbox, &args);
    let mut stdin = child.stdin.take();
    if let Some(stdin) = stdin.as_mut().filter(|_| rpc) {
        use std::io::Write;
        let line = serde_json::json!({"type": "prompt", "message": PROMPT}).to_string();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }
    if !rpc {
        stdin = None;
    }
    wait_for_requests(&server, 1);
    let started = Instant::now();
    send_signal(&child, signal);
    let done = finish(child, started);
    drop(stdin);
    assert!(
        done.elapsed < Duration::from_secs(10),
        "{mode:?} took {:?} after signal {signal}",
        done.elapsed
    );
    assert!(done.code.is_some(), "{mode:?}: killed by signal {signal}");
    let messages = session_messages(&sandbox);
    assert!(messages[0].to_string().contains(PROMPT), "{messages:?}");
    let answer = messages
        .iter()
        .find(|m| m["role"] == "assistant")
        .unwrap_or_else(|| panic!("{mode:?}/{signal}: no assistant message: {messages:?}"));
    assert!(answer.to_string().contains("half an answer"), "{answer}");
}

#[test]
fn sigterm_and_sighup_save_the_partial_answer_in_print_mode() {
    signal_saves_the_partial_answer(&[], libc::SIGTERM);
    signal_saves_the_partial_answer(&[], libc::SIGHUP);
    signal_saves_the_partial_answer(&[], libc::SIGINT);
}

#[test]
fn sigterm_and_sighup_save_the_partial_answer_in_json_mode() {
    signal_saves_the_partial_answer(&["--mode", "json"], libc::SIGTERM);
    signal_saves_the_partial_answer(&["--mode", "json"], libc::SIGHUP);
}

#[test]
fn sigterm_sighup_and_sigint_save_the_partial_answer_in_rpc_mode() {
    signal_saves_the_partial_answer(&["--mode", "rpc"], libc::SIGTERM);
    signal_saves_the_partial_answer(&["--mode", "rpc"], libc::SIGHUP);
    signal_saves_the_partial_answer(&["--mode", "rpc"], libc::SIGINT);
}

// ----- bounded waiting ---------------------------------------------------------

/// Headers, then silence until pi hangs up.
fn silent_reply() -> MockReply {
    MockReply::sse("").hold_open()
}

const QUICK_RETRIES: &str =
    r#"{"retry": {"maxRetries": 2, "baseDelayMs": 10, "provider": {"idleTimeoutMs": 400}}}"#;

#[test]
fn a_silent_stream_fails_with_a_clear_error_after_bounded_retries() {
    let server = MockServer::start();
    for _ in 0..3 {
        server.push(silent_reply());
    }
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", QUICK_RETRIES);
    let started = Instant::now();
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hello"], None);
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!(
        "silent stream: gave up after {:.2} s",
        elapsed.as_secs_f64()
    );
    assert!(!out.status.success());
    assert!(stderr.contains("no data from mock for 0.4 s"), "{stderr}");
    assert_eq!(server.request_count(), 3, "first try and two retries");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[test]
fn a_stall_is_retried_and_the_retry_answers() {
    let server = MockServer::start();
    server.push(silent_reply());
    server.push(MockReply::openai_text("second time lucky"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", QUICK_RETRIES);
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hello"], None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("second time lucky"), "{stdout}");
    assert_eq!(server.request_count(), 2);
}

#[test]
fn a_stream_of_only_done_is_an_error_not_an_empty_answer() {
    let server = MockServer::start();
    server.push(MockReply::sse("data: [DONE]\n\n"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", r#"{"retry": {"enabled": false}}"#);
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hello"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("without sending anything"), "{stderr}");
}

#[tokio::test]
async fn a_lua_tool_returning_a_number_is_an_error() {
    use pi::lua::{ExtensionHandle, HostConfig, SharedView};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("answer.lua");
    std::fs::write(
        &path,
        r#"
return function(pi)
  pi.registerTool({
    name = "answer",
    description = "Returns a bare number",
    execute = function() return 42 end,
  })
end
"#,
    )
    .unwrap();
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], "."), SharedView::new("."));
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let err = handle
        .execute_tool(
            "answer",
            "c1",
            serde_json::json!({}),
            tokio_util::sync::CancellationToken::new(),
            tx,
        )
        .await
        .unwrap_err();
    assert!(err.contains("answer"), "{err}");
    assert!(err.contains("must return a table"), "{err}");
    assert!(err.contains("number"), "{err}");
}

#[test]
fn a_session_from_a_newer_pi_is_not_appended_to() {
    let sandbox = PiSandbox::new();
    let file = sandbox.root.path().join("future.jsonl");
    let content = concat!(
        r#"{"type":"session","version":99,"id":"0c4a4d36-7a34-4b8e-9c55-6f1e52d1a001","timestamp":"2030-01-01T00:00:00.000Z","cwd":"/tmp"}"#,
        "\n"
    );
    std::fs::write(&file, content).unwrap();
    let out = sandbox.run(
        &[
            "--provider",
            "demo",
            "--session",
            &file.display().to_string(),
            "-p",
            "hi",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("future.jsonl"), "{stderr}");
    assert!(stderr.contains("version 99"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), content);
}

// ----- escape hygiene in print mode -----------------------------------------

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
        }
    };
    let err = run("hoard").await.unwrap_err();
    assert!(err.contains("32 MiB"), "{err}");
    let out = run("measure").await.unwrap();
    assert_eq!(out["content"][0]["text"], "8000000");
    let names: Vec<String> = handle.tools().await.into_iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["measure"]);
}
