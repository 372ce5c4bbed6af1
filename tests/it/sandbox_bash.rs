//! The sandbox on the real kernel, through the real binary: the mock model asks for bash
//! tool calls and the tests read what the commands did, both in the tool results the
//! model was sent and on disk. Each refusal sits next to an allowed action in the same
//! run.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;

use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};
use serde_json::{Value, json};

/// Run pi once with `args`; the model calls bash with each of `commands` (in one turn)
/// and then answers. Returns the tool results in call order, and the run's stderr.
pub fn bash_results(
    sandbox: &PiSandbox,
    server: &MockServer,
    args: &[&str],
    commands: &[&str],
) -> (Vec<String>, String) {
    let calls: Vec<(String, &str, Value)> = commands
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("call_{i}"), "bash", json!({"command": c})))
        .collect();
    let calls: Vec<(&str, &str, Value)> = calls
        .iter()
        .map(|(id, n, a)| (id.as_str(), *n, a.clone()))
        .collect();
    server.push(MockReply::openai_tool_calls(&calls));
    server.push(MockReply::openai_text("done"));
    let mut full = vec!["--model", "mock/mock-model"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["-p", "go"]);
    let out = sandbox.run(&full, None);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (tool_results(server), stderr)
}

/// The content of every `tool` message of the last request, in order.
pub fn tool_results(server: &MockServer) -> Vec<String> {
    let request = server.last_request().expect("a request");
    request.json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| match &m["content"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

pub fn sandbox_with(settings: Value) -> (PiSandbox, MockServer) {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", &settings.to_string());
    (sandbox, server)
}

fn refused(result: &str) -> bool {
    result.contains("Permission denied") || result.contains("Read-only file system")
}

#[test]
fn workspace_write_confines_bash_and_everything_it_starts() {
    let (sandbox, server) = sandbox_with(json!({"sandbox": {"mode": "workspace-write"}}));
    let project = &sandbox.project;
    std::fs::create_dir(project.join(".git")).unwrap();
    std::fs::write(project.join(".git/config"), "[core]\n").unwrap();
    let home = dirs::home_dir().unwrap();
    let marker = format!("pi-sandbox-{}", std::process::id());
    let etc = format!("/etc/{marker}");
    let home_file = home.join(&marker);
    let root_file = format!("/root/{marker}-py");
    let commands = [
        format!("touch {etc}"),
        "touch ./ok && echo made".to_string(),
        "echo x >> .git/config".to_string(),
        format!("bash -c 'sh -c \"touch $HOME/{marker}\"'"),
        format!("python3 -c 'open(\"{root_file}\",\"w\")'"),
        "echo scratch > \"$TMPDIR/t\" && cat \"$TMPDIR/t\" && mkdir -p sub && echo y > sub/f && cat sub/f".to_string(),
    ];
    let commands: Vec<&str> = commands.iter().map(String::as_str).collect();
    let (results, stderr) = bash_results(&sandbox, &server, &[], &commands);
    assert_eq!(results.len(), 6, "{stderr}");
    assert!(refused(&results[0]), "{}", results[0]);
    assert!(!Path::new(&etc).exists());
    assert!(results[1].contains("made"), "{}", results[1]);
    assert!(project.join("ok").exists());
    assert!(refused(&results[2]), "{}", results[2]);
    assert_eq!(
        std::fs::read_to_string(project.join(".git/config")).unwrap(),
        "[core]\n"
    );
    assert!(refused(&results[3]), "{}", results[3]);
    assert!(!home_file.exists());
    assert!(results[4].contains("PermissionError"), "{}", results[4]);
    assert!(!Path::new(&root_file).exists());
    assert_eq!(results[5], "scratch\ny\n", "{}", results[5]);
}

#[test]
fn full_mode_is_the_default_and_confines_nothing() {
    let (sandbox, server) = sandbox_with(json!({}));
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("made-in-full");
    let command = format!("touch {} && echo x >> .git-like", target.display());
    let (results, stderr) = bash_results(&sandbox, &server, &[], &[&command]);
    assert_eq!(results.len(), 1, "{stderr}");
    assert!(target.exists(), "{}", results[0]);
}

#[test]
fn read_only_lets_bash_write_only_its_private_temp_folder() {
    let (sandbox, server) = sandbox_with(json!({}));
    let commands = [
        "touch ./nope",
        "echo t > \"$TMPDIR/scratch\" && cat \"$TMPDIR/scratch\"",
        "cat hello.txt",
    ];
    let (results, stderr) = bash_results(&sandbox, &server, &["--sandbox", "read-only"], &commands);
    assert_eq!(results.len(), 3, "{stderr}");
    assert!(refused(&results[0]), "{}", results[0]);
    assert!(!sandbox.project.join("nope").exists());
    assert_eq!(results[1], "t\n");
    assert_eq!(results[2], "hello world\n");
}

/// A one-shot HTTP server on 127.0.0.1 answering every connection with `reply`.
fn local_http_server(reply: &'static str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut buf = [0u8; 1024];
            let _ = stream.read(&mut buf);
            let body = format!(
                "HTTP/1.0 200 OK\r\nContent-Length: {}\r\n\r\n{reply}",
                reply.len()
            );
            let _ = stream.write_all(body.as_bytes());
        }
    });
    port
}

#[test]
fn the_network_is_off_inside_the_sandbox_unless_allowed() {
    let port = local_http_server("hello-from-server");
    let curl = format!("curl -sS -m 5 http://127.0.0.1:{port}/");
    let unix = "python3 -c 'import socket; a,b = socket.socketpair(); a.send(b\"unix-ok\"); print(b.recv(7).decode())'";

    let (sandbox, server) = sandbox_with(json!({"sandbox": {"mode": "workspace-write"}}));
    let (results, stderr) = bash_results(&sandbox, &server, &[], &[&curl, unix]);
    assert_eq!(results.len(), 2, "{stderr}");
    assert!(!results[0].contains("hello-from-server"), "{}", results[0]);
    assert!(results[0].contains("exited with code"), "{}", results[0]);
    assert_eq!(results[1], "unix-ok\n");

    let (sandbox, server) =
        sandbox_with(json!({"sandbox": {"mode": "workspace-write", "network": true}}));
    let (results, stderr) = bash_results(&sandbox, &server, &[], &[&curl]);
    assert_eq!(results, vec!["hello-from-server".to_string()], "{stderr}");
}
