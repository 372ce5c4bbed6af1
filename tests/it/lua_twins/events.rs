//! Events that shape the outgoing request.

use super::*;

// Events that shape the request.

#[test]
fn permission_gate_blocks_rm_rf_without_a_ui() {
    let cli = Cli::new();
    cli.write("keep/file.txt", "x");
    cli.tool_call("bash", json!({"command": "rm -rf keep"}))
        .text("ok");
    cli.ok(&["permission-gate.lua"], &["-p", "clean"]);
    assert!(cli.sandbox.project.join("keep/file.txt").exists());
    assert!(
        cli.tool_result(1).contains("no UI"),
        "{}",
        cli.tool_result(1)
    );
}

#[test]
fn protected_paths_refuses_writes_to_env_files() {
    let cli = Cli::new();
    cli.tool_call("write", json!({"path": ".env", "content": "X=1"}))
        .text("ok");
    cli.ok(&["protected-paths.lua"], &["-p", "write"]);
    assert!(!cli.sandbox.project.join(".env").exists());
    assert!(
        cli.tool_result(1).contains(".env"),
        "{}",
        cli.tool_result(1)
    );
}

#[test]
fn pirate_mode_changes_the_system_prompt_only_while_on() {
    let cli = Cli::new();
    cli.text("plain").text("arrr");
    cli.ok(&["pirate.lua"], &["-p", "first", "/pirate", "second"]);
    assert!(!cli.system_prompt(0).contains("PIRATE MODE"));
    assert!(
        cli.system_prompt(1)
            .contains("IMPORTANT: You are now in PIRATE MODE.")
    );
}

#[test]
fn claude_rules_lists_rule_files_in_the_system_prompt() {
    let cli = Cli::new();
    cli.write(".claude/rules/testing.md", "# Tests\n");
    cli.write(".claude/rules/api/design.md", "# API\n");
    cli.write(".claude/rules/notes.txt", "not a rule");
    cli.text("ok");
    cli.ok(&["claude-rules.lua"], &["-p", "hi"]);
    let prompt = cli.system_prompt(0);
    assert!(
        prompt.contains("available in .claude/rules/:\n\n- .claude/rules/api/design.md\n- .claude/rules/testing.md\n"),
        "{prompt}"
    );
    assert!(!prompt.contains("notes.txt"));
}

#[test]
fn prompt_customizer_adds_guidance_for_active_tools() {
    let cli = Cli::new();
    cli.text("ok");
    cli.ok(
        &["prompt-customizer.lua"],
        &["--tools", "read,bash", "-p", "hi"],
    );
    let prompt = cli.system_prompt(0);
    assert!(
        prompt.contains("## Tool Guidance\n\n• Use the `read` tool"),
        "{prompt}"
    );
    assert!(prompt.contains("• Execute commands with the `bash` tool."));
    assert!(!prompt.contains("• Use the `write` tool"));
    assert!(prompt.contains("## Extension-Added Context"));
}

#[test]
fn input_transform_rewrites_quick_questions_and_answers_ping_itself() {
    let cli = Cli::new();
    cli.text("Rust is a language.");
    cli.ok(
        &["input-transform.lua"],
        &["-p", "?quick What is Rust?", "ping"],
    );
    assert_eq!(
        cli.server.request_count(),
        1,
        "ping never reaches the model"
    );
    assert_eq!(
        cli.last_user_text(0),
        "Respond briefly in 1-2 sentences: What is Rust?"
    );
}

#[test]
fn inline_bash_expands_commands_in_the_prompt() {
    let cli = Cli::new();
    cli.text("ok");
    cli.ok(
        &["inline-bash.lua"],
        &["-p", "The answer is !{echo $((6 * 7))} and !{printf x}."],
    );
    assert_eq!(cli.last_user_text(0), "The answer is 42 and x.");
}

#[test]
fn send_user_message_commands_send_what_you_typed() {
    let cli = Cli::new();
    cli.text("four").text("short");
    cli.ok(
        &["send-user-message.lua"],
        &["-p", "/ask What is 2+2?", "/askwith list files"],
    );
    assert_eq!(cli.last_user_text(0), "What is 2+2?");
    assert_eq!(
        cli.last_user_text(1),
        "User request: list files\nPlease respond concisely."
    );
}

#[tokio::test]
async fn send_user_message_steers_or_queues_while_busy() {
    let twin = Twin::start("send-user-message.lua", vec![]).await;
    twin.view.lock().idle = false;
    twin.command("ask", "now?").await;
    twin.command("steer", "focus on tests").await;
    twin.command("followup", "then docs").await;
    twin.command("steer", "  ").await;
    let actions = twin.actions();
    assert_eq!(
        actions,
        [
            ExtensionAction::SendUserMessage {
                content: json!("focus on tests"),
                deliver_as: Some("steer".into())
            },
            ExtensionAction::SendUserMessage {
                content: json!("then docs"),
                deliver_as: Some("followUp".into())
            }
        ]
    );
    assert_eq!(
        twin.notes(),
        [
            "Agent is busy. Use /steer or /followup instead.",
            "Follow-up queued",
            "Usage: /steer <message>"
        ]
    );
}

#[test]
fn provider_payload_logs_requests_and_responses() {
    let cli = Cli::new();
    cli.text("ok");
    cli.ok(&["provider-payload.lua"], &["-p", "log me"]);
    let log =
        std::fs::read_to_string(cli.sandbox.project.join(".pi/provider-payload.log")).unwrap();
    let first = log.split("\n\n").next().unwrap();
    let payload: Value = serde_json::from_str(first).unwrap();
    assert_eq!(payload["model"], "mock-model");
    assert!(log.contains("\n\n[200] {"), "{log}");
}

#[tokio::test]
async fn dynamic_resources_offers_its_skill_prompt_and_theme() {
    let twin = Twin::start("dynamic-resources/init.lua", vec![]).await;
    let out = twin
        .emit(
            "resources_discover",
            json!({"cwd": "/", "reason": "startup"}),
        )
        .await;
    let dir = example("dynamic-resources");
    let first = |key: &str| std::path::PathBuf::from(out[0][key][0].as_str().unwrap());
    assert_eq!(first("skillPaths"), dir.join("SKILL.md"));
    assert_eq!(first("promptPaths"), dir.join("dynamic.md"));
    assert_eq!(first("themePaths"), dir.join("dynamic.json"));
    let skill = std::fs::read_to_string(first("skillPaths")).unwrap();
    assert!(skill.starts_with("---\nname: dynamic-resources\n"));
    let theme: Value =
        serde_json::from_str(&std::fs::read_to_string(first("themePaths")).unwrap()).unwrap();
    assert_eq!(theme["name"], "dynamic-resources");
}

#[test]
fn dynamic_resources_skill_reaches_the_system_prompt_and_its_template_expands() {
    let cli = Cli::new();
    cli.text("listed").text("expanded");
    cli.ok(&["dynamic-resources"], &["-p", "hi", "/dynamic"]);
    let system = cli.system_prompt(0);
    assert!(system.contains("dynamic-resources"), "{system}");
    assert!(
        system.contains("A skill contributed by an extension through resources_discover"),
        "{system}"
    );
    assert!(
        cli.last_user_text(1)
            .starts_with("Give an overview of how this repository is laid out"),
        "{}",
        cli.last_user_text(1)
    );
}

#[test]
fn notify_sends_an_osc_777_notification_when_the_agent_ends() {
    let cli = Cli::new();
    cli.text("finished");
    let (stdout, _) = cli.ok(&["notify.lua"], &["-p", "work"]);
    assert!(
        stdout.contains("\x1b]777;notify;Pi;Ready for input\x07"),
        "{stdout:?}"
    );
}

#[test]
fn auto_commit_on_exit_commits_with_the_last_reply() {
    let cli = Cli::new();
    let project = &cli.sandbox.project;
    git(project, &["init", "-q"]);
    git(project, &["add", "."]);
    git(project, &["commit", "-qm", "start"]);
    std::fs::write(project.join("new.txt"), "new\n").unwrap();
    let mut cli = cli;
    for (k, v) in [
        ("GIT_AUTHOR_NAME", "Test"),
        ("GIT_AUTHOR_EMAIL", "t@example.com"),
        ("GIT_COMMITTER_NAME", "Test"),
        ("GIT_COMMITTER_EMAIL", "t@example.com"),
    ] {
        cli.sandbox.env.push((k.into(), v.into()));
    }
    cli.text("Added new.txt with a greeting for everyone who reads this repository\nMore.");
    cli.ok(&["auto-commit-on-exit.lua"], &["-p", "add a file"]);
    let subject = git(&cli.sandbox.project, &["log", "-1", "--format=%s"]);
    assert_eq!(
        subject.trim(),
        "[pi] Added new.txt with a greeting for everyone who rea..."
    );
    assert_eq!(git(&cli.sandbox.project, &["status", "--porcelain"]), "");
}

// ---------------------------------------------------------------------------
