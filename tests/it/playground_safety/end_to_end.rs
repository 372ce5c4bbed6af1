//! damage-control end to end: `pi -p` against a mock LLM server, and the terminal UI.

use super::*;

#[test]
fn a_project_rule_blocks_the_models_command_with_its_reason_and_the_turn_stops() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_frob",
        "bash",
        json!({"command": "frobnicate --all"}),
    )]));
    server.push(MockReply::openai_text("I should not be asked again."));
    let mut sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let home = sandbox.root.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    sandbox
        .env
        .push(("HOME".into(), home.display().to_string()));
    write(
        &sandbox.project,
        ".pi/damage-control-rules.yaml",
        "bashToolPatterns:\n  - pattern: '\\bfrobnicate\\b'\n    reason: frobnicating is off limits here\n",
    );
    // The global file (in the agent folder) adds to the rules as well.
    write(
        &sandbox.agent_dir,
        "damage-control-rules.yaml",
        "readOnlyPaths:\n  - generated/\n",
    );
    let ext = playground("damage-control.lua").display().to_string();
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "-e",
            &ext,
            "-p",
            "frobnicate everything",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        server.request_count(),
        1,
        "the block aborted the turn: {stderr}"
    );
    let files = sandbox.session_files();
    let entries = json_lines(&std::fs::read_to_string(&files[0]).unwrap());
    let result = entries
        .iter()
        .find(|e| e["message"]["role"] == "toolResult")
        .unwrap();
    assert_eq!(result["message"]["isError"], true);
    let text = result["message"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("BLOCKED by damage-control: frobnicating is off limits here"),
        "{text}"
    );
    let log = entries
        .iter()
        .find(|e| e["customType"] == "damage-control-log")
        .unwrap();
    assert_eq!(log["data"]["input"]["command"], "frobnicate --all");
    assert_eq!(log["data"]["action"], "blocked");
}

#[test]
fn damage_control_asks_in_the_terminal_ui_with_no_preselected_and_enter_blocks() {
    if !tui_harness::tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_drop",
        "bash",
        json!({"command": "git stash drop"}),
    )]));
    server.push(MockReply::openai_text("Should never be asked."));
    let mut sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let home = sandbox.root.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    sandbox
        .env
        .push(("HOME".into(), home.display().to_string()));
    let ext = playground("damage-control.lua").display().to_string();
    let args = format!("--model mock/mock-model -e {}", tui_harness::quote(&ext));
    let pi = tui_harness::Session::start(sandbox, &args);
    let wait = Duration::from_secs(30);
    pi.tmux
        .wait_for("the footer slot", wait, |s| s.contains("0 blocked"));
    pi.send("tidy the stash");
    let screen = pi.tmux.wait_for("the question", wait, |s| {
        s.contains("dangerous command") && s.contains("→ No, block it")
    });
    assert!(
        screen.contains("git stash drop deletes a stash"),
        "{screen}"
    );
    assert_eq!(server.request_count(), 1, "the tool waits for the answer");
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the refusal", wait, |s| s.contains("· 1 blocked"));
    assert!(
        !screen.contains("Run it anyway?"),
        "the dialog closed: {screen}"
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(server.request_count(), 1, "the turn was aborted");
    pi.quit_and_check_terminal();
}
