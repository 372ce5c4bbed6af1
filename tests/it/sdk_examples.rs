//! The SDK's example programs (`examples/sdk/`), built with cargo and run against the
//! mock LLM server through a `models.json` in a temporary agent directory.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::support::pi_cli::PiSandbox;
use crate::support::sse_builders::AnthropicSse;
use crate::support::{MockReply, MockServer};

/// Variables cargo sets for the test process (names or prefixes).
const RUN_TIME_VARS: [&str; 8] = [
    "CARGO_MANIFEST_",
    "CARGO_PKG_",
    "CARGO_CRATE_NAME",
    "CARGO_BIN_",
    "CARGO_PRIMARY_PACKAGE",
    "CARGO_TARGET_TMPDIR",
    "CARGO_RUSTC_CURRENT_DIR",
    "OUT_DIR",
];

/// Build the two examples once (cargo answers at once when they are up to date) and
/// return their executables by name.
fn example_binaries() -> &'static Vec<(String, PathBuf)> {
    static BUILT: OnceLock<Vec<(String, PathBuf)>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut command = Command::new(cargo);
        command
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["build", "--locked", "--message-format=json"])
            .args([
                "--example",
                "sdk_minimal",
                "--example",
                "sdk_session_control",
            ])
            .stderr(Stdio::inherit());
        // What cargo sets for a running test is not part of a build's environment; a
        // dependency's build script that watches one of them (ring watches
        // CARGO_MANIFEST_DIR) would otherwise be rebuilt here, and again by the next
        // ordinary build.
        for (name, _) in std::env::vars() {
            if RUN_TIME_VARS.iter().any(|prefix| name.starts_with(prefix)) {
                command.env_remove(name);
            }
        }
        let output = command.output().expect("run cargo");
        assert!(output.status.success(), "the examples build");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact")
            .filter_map(|m| {
                let name = m["target"]["name"].as_str()?.to_string();
                let exe = m["executable"].as_str()?;
                Some((name, PathBuf::from(exe)))
            })
            .collect()
    })
}

fn run_example(name: &str, sandbox: &PiSandbox, args: &[&str]) -> Output {
    let exe = example_binaries()
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, exe)| exe.clone())
        .unwrap_or_else(|| panic!("cargo built no {name}"));
    let mut command = Command::new(exe);
    command
        .args(args)
        .current_dir(&sandbox.project)
        .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
        .env("PI_OFFLINE", "1")
        .stdin(Stdio::null());
    for var in [
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "PI_CODING_AGENT_SESSION_DIR",
    ] {
        command.env_remove(var);
    }
    command.output().expect("run the example")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_minimal_example_prints_the_streamed_answer() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("Hello from the minimal example."));
    let sandbox = super::sdk::sandbox(&server);
    let output = run_example(
        "sdk_minimal",
        &sandbox,
        &["--model", "mock/mock-model", "Who", "are", "you?"],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout(&output), "Hello from the minimal example.\n");
    let request = server.last_request().unwrap();
    assert_eq!(request.json()["model"], "mock-model");
    assert!(
        request.json()["messages"]
            .to_string()
            .contains("Who are you?")
    );
}

#[test]
fn the_minimal_example_reports_a_setup_error() {
    let server = MockServer::start();
    let sandbox = super::sdk::sandbox(&server);
    let output = run_example("sdk_minimal", &sandbox, &["--model", "nosuch/model", "hi"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("nosuch"), "{stderr}");
    assert_eq!(server.request_count(), 0);
}

#[test]
fn the_session_control_example_steers_switches_models_and_aborts() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_tool_calls(&[(
        "call_1",
        "ls",
        json!({"path": "."}),
    )]));
    server.push(MockReply::anthropic_text("Just hello.txt."));
    server.push(MockReply::anthropic_text("Hello!"));
    server.push(
        MockReply::anthropic(
            AnthropicSse::new()
                .message_start("msg_open", 5)
                .text("Once upon"),
        )
        .hold_open(),
    );
    let sandbox = super::sdk::sandbox(&server);
    let output = run_example(
        "sdk_session_control",
        &sandbox,
        &[
            "--model",
            "mock/mock-model",
            "--switch-to",
            "mock/mock-model-2",
        ],
    );
    let text = stdout(&output);
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for expected in [
        "[tool] ls",
        "[steering] Keep the answer under ten words.",
        "answer: Just hello.txt.",
        "== switched to mock/mock-model-2",
        "answer: Hello!",
        "aborted: true, partial answer: Once",
        "model: mock/mock-model-2",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 4);
    // Only the chosen tools are offered.
    let tools = requests[0].json()["tools"].to_string();
    assert!(tools.contains("\"ls\"") && tools.contains("\"read\"") && !tools.contains("bash"));
    // The steering message reaches the request after the tool ran.
    let second = requests[1].json()["messages"].to_string();
    assert!(
        second.contains("Keep the answer under ten words."),
        "{second}"
    );
    assert!(second.contains("hello.txt"), "{second}");
    // The switch changes the model of the next requests.
    let models: Vec<&str> = requests
        .iter()
        .map(|r| r.json()["model"].as_str().unwrap())
        .collect();
    assert_eq!(
        models,
        ["mock-model", "mock-model", "mock-model-2", "mock-model-2"]
    );
}
