//! Every mode notices when its output cannot be written or its input cannot
//! be read: a message on stderr and a failure code, never a silent success.
//! And nothing an extension prints reaches the JSON streams of RPC and JSON mode.

use super::*;
use std::io::Write;
use std::process::Stdio;

const PROMPT_LINE: &str = "{\"type\":\"prompt\",\"message\":\"hello\",\"id\":\"p1\"}\n";

#[test]
fn rpc_with_its_stdout_closed_fails_with_a_message() {
    let sandbox = PiSandbox::new();
    let mut child = sandbox.spawn(&["--provider", "demo", "--mode", "rpc"]);
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(PROMPT_LINE.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("pi stopped: could not write to standard output"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn rpc_with_unreadable_stdin_fails_with_a_message_and_readable_stdin_succeeds() {
    let sandbox = PiSandbox::new();
    let run = |stdin: Stdio| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pi"))
            .args(["--provider", "demo", "--mode", "rpc"])
            .current_dir(&sandbox.project)
            .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
            .env("PI_OFFLINE", "1")
            .stdin(stdin)
            .output()
            .unwrap()
    };
    // A folder as stdin: every read fails (EISDIR).
    let folder = std::fs::File::open(&sandbox.project).unwrap();
    let out = run(Stdio::from(folder));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("pi stopped: could not read standard input"),
        "{stderr}"
    );
    // A file of commands is read to its end and answered.
    let commands = sandbox.root.path().join("commands.jsonl");
    std::fs::write(&commands, "{\"type\":\"get_state\",\"id\":\"s1\"}\n").unwrap();
    let out = run(Stdio::from(std::fs::File::open(&commands).unwrap()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"id\":\"s1\""));
}

#[test]
fn print_mode_with_unreadable_stdin_fails_with_a_message() {
    let sandbox = PiSandbox::new();
    let run = |stdin: Stdio| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pi"))
            .args(["--provider", "demo", "-p", "hello"])
            .current_dir(&sandbox.project)
            .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
            .env("PI_OFFLINE", "1")
            .stdin(stdin)
            .output()
            .unwrap()
    };
    let out = run(Stdio::from(std::fs::File::open(&sandbox.project).unwrap()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("could not read standard input"), "{stderr}");
    assert!(out.stdout.is_empty());
    // Piped text that is not all UTF-8 still reaches the model, decoded.
    let piped = sandbox.root.path().join("piped.txt");
    std::fs::write(&piped, b"notes \xff here\n").unwrap();
    let out = run(Stdio::from(std::fs::File::open(&piped).unwrap()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let session = sandbox.session_files().pop().expect("a session");
    let saved = std::fs::read_to_string(session).unwrap();
    assert!(saved.contains("notes \u{fffd} here"), "{saved}");
}

/// Prints while loading, at session start and at the end of a run.
const PRINTER: &str = r#"
print("printed while loading")
return function(pi)
  pi.on("session_start", function() print("printed at session_start"); io.write("io.write text\n") end)
  pi.on("agent_end", function() print("printed at agent_end") end)
end
"#;

/// Every line of `stdout` is a JSON value; what the extension printed is on stderr.
fn assert_json_lines_only(stdout: &str, stderr: &str) {
    assert!(stdout.lines().count() > 3, "{stdout}");
    for line in stdout.lines() {
        assert!(
            serde_json::from_str::<Value>(line).is_ok(),
            "not JSON: {line:?}"
        );
    }
    for printed in [
        "printed while loading",
        "printed at session_start",
        "io.write text",
        "printed at agent_end",
    ] {
        assert!(stderr.contains(printed), "{printed}: {stderr}");
        assert!(!stdout.contains(printed), "{printed}: {stdout}");
    }
}

#[test]
fn what_an_extension_prints_never_reaches_the_json_streams() {
    let sandbox = PiSandbox::new();
    let ext = extension(&sandbox, "printer.lua", PRINTER);
    let ext = ext.display().to_string();
    let out = sandbox.run(
        &["--provider", "demo", "--mode", "json", "-e", &ext, "hello"],
        None,
    );
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert_json_lines_only(&stdout, &stderr);

    let mut child = sandbox.spawn(&["--provider", "demo", "--mode", "rpc", "-e", &ext]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(PROMPT_LINE.as_bytes()).unwrap();
    let mut stdout_pipe = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout_pipe, &mut text).unwrap();
        text
    });
    std::thread::sleep(Duration::from_secs(3));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = reader.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("\"agent_end\""), "{stdout}");
    assert_json_lines_only(&stdout, &stderr);
}
