//! The start-up update check against a local listener standing in for the version
//! service: the notice appears, a second start the same day asks nobody, and
//! `PI_SKIP_VERSION_CHECK` keeps pi from asking at all.

use crate::support;
use crate::support::tui_harness;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use support::MockServer;
use support::pi_cli::PiSandbox;
use tui_harness::*;

/// A listener answering every request with `{"version":"99.0.0"}`; returns its address and
/// the number of requests so far.
fn version_service() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}/latest", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            seen.fetch_add(1, Ordering::SeqCst);
            let body = r#"{"version":"99.0.0"}"#;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (address, count)
}

/// Start pi online (the harness starts it offline) with `extra` environment.
fn start_online(sandbox: &PiSandbox, extra: &str) -> (Tmux, std::path::PathBuf) {
    let after = sandbox
        .root
        .path()
        .join(format!("after-{}.txt", rand_suffix()));
    let before = sandbox.root.path().join("before.txt");
    let command = pi_command(sandbox, "--model mock/mock-model", &before, &after)
        .replace(" PI_OFFLINE=1 ", &format!(" {extra} "));
    (Tmux::start(&command, &sandbox.project), after)
}

fn quit(tmux: &Tmux, after: &std::path::Path) {
    tmux.key("C-d");
    wait_for_file(after, Duration::from_secs(20));
}

#[test]
fn a_newer_version_is_announced_at_most_once_a_day_and_never_when_skipped() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let (url, requests) = version_service();
    let mut sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox
        .env
        .push(("PI_VERSION_CHECK_URL".into(), url.clone()));

    // Off unless asked for: nothing leaves the machine at start-up by default.
    let (tmux, after) = start_online(&sandbox, "");
    tmux.wait_for("the editor", Duration::from_secs(20), |s| {
        s.contains("mock-model")
    });
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        requests.load(Ordering::SeqCst),
        0,
        "asked without the setting"
    );
    quit(&tmux, &after);

    sandbox.write_agent_file("settings.json", r#"{"enableUpdateCheck": true}"#);
    let (tmux, after) = start_online(&sandbox, "");
    tmux.wait_for("the update notice", Duration::from_secs(20), |s| {
        s.contains("pi 99.0.0 is out")
    });
    assert_eq!(requests.load(Ordering::SeqCst), 1);
    quit(&tmux, &after);
    let record = std::fs::read_to_string(sandbox.agent_dir.join("update-check.json")).unwrap();
    assert!(record.contains("99.0.0"), "{record}");

    let (tmux, after) = start_online(&sandbox, "");
    tmux.wait_for("the remembered notice", Duration::from_secs(20), |s| {
        s.contains("pi 99.0.0 is out")
    });
    assert_eq!(
        requests.load(Ordering::SeqCst),
        1,
        "asked again the same day"
    );
    quit(&tmux, &after);

    std::fs::remove_file(sandbox.agent_dir.join("update-check.json")).unwrap();
    let (tmux, after) = start_online(&sandbox, "PI_SKIP_VERSION_CHECK=1");
    tmux.wait_for("the editor", Duration::from_secs(20), |s| {
        s.contains("mock-model")
    });
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!tmux.screen().contains("99.0.0"));
    quit(&tmux, &after);
    assert_eq!(
        requests.load(Ordering::SeqCst),
        1,
        "PI_SKIP_VERSION_CHECK asks nobody"
    );
    assert!(!sandbox.agent_dir.join("update-check.json").exists());
}

#[test]
fn version_answers_at_once_without_touching_the_network() {
    let (url, requests) = version_service();
    let started = std::time::Instant::now();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_pi"))
        .arg("--version")
        .env("PI_VERSION_CHECK_URL", url)
        .env_remove("PI_OFFLINE")
        .output()
        .unwrap();
    let took = started.elapsed();
    assert!(output.status.success());
    assert!(
        took < Duration::from_millis(500),
        "pi --version took {took:?}"
    );
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(requests.load(Ordering::SeqCst), 0);
}
