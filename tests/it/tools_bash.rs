//! Integration tests for the `bash` tool, including process-group killing.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pi::agent::tool::{AgentTool, ToolContext, ToolError, ToolOutput};
use pi::tools::{BashTool, ToolOptions};
use serde_json::{Value, json};

async fn bash(cwd: &Path, args: Value) -> Result<ToolOutput, ToolError> {
    BashTool::new(&ToolOptions::default())
        .execute("call", args, ToolContext::new(cwd))
        .await
}

/// Whether `pid` is gone (no such process, or a zombie awaiting its reaper).
fn process_is_gone(pid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    if !alive {
        return true;
    }
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            stat.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().starts_with('Z'))
                .unwrap_or(false)
        })
        .unwrap_or(true)
}

fn wait_until_gone(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        if process_is_gone(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Values of `KEY <pid>` lines in `text`.
fn pids_labelled(text: &str, key: &str) -> Vec<i32> {
    text.lines()
        .filter_map(|line| line.strip_prefix(key)?.trim().parse().ok())
        .collect()
}

#[tokio::test]
async fn merges_stdout_and_stderr_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let out = bash(dir.path(), json!({"command": "echo a; echo b >&2; echo c"}))
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "a\nb\nc\n");
    assert!(out.details.is_none());
}

#[tokio::test]
async fn runs_in_context_cwd_and_reports_empty_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = bash(dir.path(), json!({"command": "pwd"})).await.unwrap();
    let expected = std::fs::canonicalize(dir.path()).unwrap();
    assert_eq!(out.joined_text().trim(), expected.to_str().unwrap());
    let out = bash(dir.path(), json!({"command": "true"})).await.unwrap();
    assert_eq!(out.joined_text(), "(no output)");
}

#[tokio::test]
async fn non_zero_exit_is_an_error_with_output() {
    let dir = tempfile::tempdir().unwrap();
    let err = bash(dir.path(), json!({"command": "echo oops; exit 3"}))
        .await
        .unwrap_err();
    assert_eq!(err.message, "oops\n\n\nCommand exited with code 3");
    let err = bash(dir.path(), json!({"command": "exit 1"}))
        .await
        .unwrap_err();
    assert_eq!(err.message, "(no output)\n\nCommand exited with code 1");
}

#[tokio::test]
async fn long_output_keeps_tail_and_saves_full_log() {
    let dir = tempfile::tempdir().unwrap();
    let out = bash(dir.path(), json!({"command": "seq 1 3000"}))
        .await
        .unwrap();
    let text = out.joined_text();
    let details = out.details.unwrap();
    let full_path = PathBuf::from(details["fullOutputPath"].as_str().unwrap());
    let name = full_path.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("pi-bash-") && name.ends_with(".log") && name.len() == 28);
    assert!(text.starts_with("1002\n"));
    assert!(text.ends_with(&format!(
        "3000\n\n\n[Showing lines 1002-3001 of 3001. Full output: {}]",
        full_path.display()
    )));
    assert_eq!(details["truncation"]["truncatedBy"], "lines");
    assert_eq!(details["truncation"]["totalLines"], 3001);
    let saved = std::fs::read_to_string(&full_path).unwrap();
    assert!(saved.starts_with("1\n2\n") && saved.ends_with("2999\n3000\n"));
    std::fs::remove_file(full_path).unwrap();
}

#[tokio::test]
async fn huge_single_line_shows_its_tail() {
    let dir = tempfile::tempdir().unwrap();
    let out = bash(
        dir.path(),
        json!({"command": "head -c 70000 /dev/zero | tr '\\0' a"}),
    )
    .await
    .unwrap();
    let text = out.joined_text();
    let details = out.details.unwrap();
    let full_path = details["fullOutputPath"].as_str().unwrap().to_string();
    assert!(text.ends_with(&format!(
        "\n\n[Showing last 50.0KB of line 1 (line is 68.4KB). Full output: {full_path}]"
    )));
    assert_eq!(details["truncation"]["lastLinePartial"], true);
    std::fs::remove_file(full_path).unwrap();
}

#[tokio::test]
async fn streams_partial_updates() {
    let dir = tempfile::tempdir().unwrap();
    let updates: Arc<Mutex<Vec<ToolOutput>>> = Arc::default();
    let sink = updates.clone();
    let mut ctx = ToolContext::new(dir.path());
    ctx.on_update = Some(Arc::new(move |partial| sink.lock().unwrap().push(partial)));
    let out = BashTool::new(&ToolOptions::default())
        .execute(
            "call",
            json!({"command": "echo first; sleep 0.3; echo second"}),
            ctx,
        )
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "first\nsecond\n");
    let updates = updates.lock().unwrap();
    assert!(updates[0].content.is_empty(), "first update is empty");
    assert!(updates.iter().any(|u| u.joined_text() == "first\n"));
    assert_eq!(updates.last().unwrap().joined_text(), "first\nsecond\n");
}

#[tokio::test]
async fn timeout_kills_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let err = bash(
        dir.path(),
        json!({"command": "echo start; sleep 30", "timeout": 0.5}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.message,
        "start\n\n\nCommand timed out after 0.5 seconds"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn abort_kills_child_and_grandchildren() {
    let dir = tempfile::tempdir().unwrap();
    let seen = Arc::new(Mutex::new(String::new()));
    let sink = seen.clone();
    let mut ctx = ToolContext::new(dir.path());
    ctx.on_update = Some(Arc::new(move |partial: ToolOutput| {
        *sink.lock().unwrap() = partial.joined_text();
    }));
    let signal = ctx.signal.clone();
    let command = "echo \"SHELL $$\"; sleep 100 & echo \"BG $!\"; \
                   bash -c 'echo \"INNER $$\"; sleep 100; true'";
    let task = tokio::spawn(async move {
        BashTool::new(&ToolOptions::default())
            .execute("call", json!({"command": command}), ctx)
            .await
    });

    let deadline = Instant::now() + Duration::from_secs(5);
    let text = loop {
        let text = seen.lock().unwrap().clone();
        if text.contains("INNER") || Instant::now() > deadline {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let pids: Vec<i32> = ["SHELL", "BG", "INNER"]
        .iter()
        .flat_map(|key| pids_labelled(&text, key))
        .collect();
    assert_eq!(pids.len(), 3, "expected three pids in {text:?}");

    let started = Instant::now();
    signal.cancel();
    let err = task.await.unwrap().unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(
        err.message.ends_with("\n\nCommand aborted"),
        "{}",
        err.message
    );
    for pid in pids {
        assert!(wait_until_gone(pid), "process {pid} survived the abort");
    }
}

#[tokio::test]
async fn returns_promptly_when_escaped_grandchild_holds_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = bash(
        dir.path(),
        json!({"command": "setsid sleep 30 & echo \"PID $!\""}),
    )
    .await
    .unwrap();
    assert!(started.elapsed() < Duration::from_secs(3));
    let pid = pids_labelled(&out.joined_text(), "PID")[0];
    // SAFETY: killing the helper this test started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

#[tokio::test]
async fn already_aborted_signal_does_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let ctx = ToolContext::new(dir.path());
    ctx.signal.cancel();
    let err = BashTool::new(&ToolOptions::default())
        .execute("call", json!({"command": "touch ran"}), ctx)
        .await
        .unwrap_err();
    assert_eq!(err.message, "Command aborted");
    assert!(!marker.exists());
}

#[tokio::test]
async fn command_prefix_and_bin_dir_apply() {
    let dir = tempfile::tempdir().unwrap();
    let options = ToolOptions {
        shell_command_prefix: Some("export GREETING=hi".into()),
        bin_dir: Some(PathBuf::from("/opt/pi-test-bin")),
        ..ToolOptions::default()
    };
    let out = BashTool::new(&options)
        .execute(
            "call",
            json!({"command": "echo $GREETING; echo $PATH"}),
            ToolContext::new(dir.path()),
        )
        .await
        .unwrap();
    let text = out.joined_text();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("hi"));
    assert!(lines.next().unwrap().starts_with("/opt/pi-test-bin:"));
}

#[tokio::test]
async fn custom_shell_must_exist() {
    let dir = tempfile::tempdir().unwrap();
    let options = ToolOptions {
        shell_path: Some(PathBuf::from("/no/such/shell")),
        ..ToolOptions::default()
    };
    let err = BashTool::new(&options)
        .execute(
            "call",
            json!({"command": "true"}),
            ToolContext::new(dir.path()),
        )
        .await
        .unwrap_err();
    assert_eq!(err.message, "Custom shell path not found: /no/such/shell");
}

#[tokio::test]
async fn missing_cwd_is_reported() {
    let err = bash(Path::new("/no/such/dir"), json!({"command": "true"}))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "Working directory does not exist: /no/such/dir\nCannot execute bash commands."
    );
}

#[tokio::test]
async fn a_background_child_with_redirected_output_does_not_hold_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = bash(
        dir.path(),
        json!({"command": "sleep 300 > /dev/null 2>&1 & echo started; echo \"PID $!\""}),
    )
    .await
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    let text = out.joined_text();
    assert!(text.starts_with("started\n"), "{text}");
    let pid = pids_labelled(&text, "PID")[0];
    // SAFETY: killing the child this test started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

#[tokio::test]
async fn a_background_child_keeping_the_pipe_does_not_hold_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = bash(
        dir.path(),
        json!({"command": "sleep 300 & echo started; echo \"PID $!\""}),
    )
    .await
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    let text = out.joined_text();
    assert!(text.starts_with("started\n"), "{text}");
    let pid = pids_labelled(&text, "PID")[0];
    // SAFETY: killing the child this test started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}
