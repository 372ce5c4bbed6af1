//! Lua twins of pi's example extensions (extensions/examples/), each loaded
//! through the real host: in-process with a scripted front end, or as `-e`
//! extensions of the `pi` binary talking to a mock LLM server on 127.0.0.1.

#[path = "support/fake_ui.rs"]
mod fake_ui;
#[path = "support/pi_cli.rs"]
mod pi_cli;
#[path = "support/rpc_client.rs"]
mod rpc_client;
mod support;
#[path = "support/twins.rs"]
mod twins;

use std::time::Duration;

use pi::lua::ExtensionAction;
use serde_json::{Value, json};
use twins::{Cli, Twin, example, git, plain, repo, rpc_prompt, ui_request};

/// Every twin: a file or folder in extensions/examples.
const TWINS: &[&str] = &[
    "auto-commit-on-exit.lua",
    "bash-spawn-hook.lua",
    "bookmark.lua",
    "built-in-tool-renderer.lua",
    "claude-rules.lua",
    "commands.lua",
    "confirm-destructive.lua",
    "custom-compaction.lua",
    "custom-footer.lua",
    "custom-header.lua",
    "dirty-repo-guard.lua",
    "dynamic-resources",
    "dynamic-tools.lua",
    "event-bus.lua",
    "file-trigger.lua",
    "git-checkpoint.lua",
    "handoff.lua",
    "hello.lua",
    "inline-bash.lua",
    "input-transform.lua",
    "mac-system-theme.lua",
    "message-renderer.lua",
    "minimal-mode",
    "modal-editor.lua",
    "model-status.lua",
    "notify.lua",
    "overlay-test.lua",
    "permission-gate.lua",
    "pirate.lua",
    "plan-mode",
    "preset.lua",
    "prompt-customizer.lua",
    "protected-paths.lua",
    "provider-payload.lua",
    "qna.lua",
    "question.lua",
    "questionnaire.lua",
    "reload-runtime.lua",
    "rpc-demo.lua",
    "send-user-message.lua",
    "session-name.lua",
    "shutdown-command.lua",
    "snake.lua",
    "space-invaders.lua",
    "ssh.lua",
    "status-line.lua",
    "subagent",
    "summarize.lua",
    "system-prompt-header.lua",
    "tic-tac-toe.lua",
    "timed-confirm.lua",
    "titlebar-spinner.lua",
    "todo.lua",
    "tool-override.lua",
    "tools.lua",
    "trigger-compact.lua",
    "truncated-tool.lua",
    "widget-placement.lua",
    "working-indicator.lua",
    "working-message-test.lua",
];

fn has(actions: &[ExtensionAction], wanted: &ExtensionAction) -> bool {
    actions.iter().any(|a| a == wanted)
}

fn entry(id: &str, parent: Option<&str>, message: Value) -> Value {
    json!({"type": "message", "id": id, "parentId": parent, "timestamp": "2026-01-01T00:00:00Z", "message": message})
}

fn assistant(text: &str) -> Value {
    json!({"role": "assistant", "content": [{"type": "text", "text": text}], "stopReason": "stop"})
}

fn user(text: &str) -> Value {
    json!({"role": "user", "content": [{"type": "text", "text": text}]})
}

// ---------------------------------------------------------------------------
// Every twin loads on its own.

#[test]
fn every_twin_loads_alone_without_extension_errors() {
    let listed: std::collections::BTreeSet<String> = std::fs::read_dir(example(""))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "README.md" && n != "i18n-hello")
        .collect();
    let known: std::collections::BTreeSet<String> = TWINS.iter().map(|s| s.to_string()).collect();
    assert_eq!(listed, known, "TWINS lists every example");
    let sandbox = pi_cli::PiSandbox::new();
    for twin in TWINS {
        let path = example(twin).display().to_string();
        let _shared = twins::shared();
        let out = sandbox.run(
            &["--offline", "--provider", "demo", "-e", &path, "-p", "hi"],
            None,
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{twin}: {stderr}");
        assert!(
            !stderr.contains("xtension") && !stderr.contains("rror"),
            "{twin}: {stderr}"
        );
    }
}

// ---------------------------------------------------------------------------
// Tools, called by the mock model.

#[test]
fn hello_greets_through_the_model() {
    let cli = Cli::new();
    cli.tool_call("hello", json!({"name": "World"}))
        .text("done");
    let (stdout, _) = cli.ok(&["hello.lua"], &["-p", "greet the world"]);
    assert_eq!(stdout, "done\n");
    assert!(cli.tools(0).contains(&"hello".to_string()));
    assert_eq!(cli.tool_result(1), "Hello, World!");
}

#[test]
fn bash_spawn_hook_runs_commands_with_the_adjusted_environment() {
    let cli = Cli::new();
    cli.tool_call("bash", json!({"command": "echo hook=$PI_SPAWN_HOOK; pwd"}))
        .text("ok");
    cli.ok(&["bash-spawn-hook.lua"], &["-p", "run it"]);
    let result = cli.tool_result(1);
    assert!(result.starts_with("hook=1\n"), "{result}");
    assert!(
        result.contains(&cli.sandbox.project.display().to_string()),
        "{result}"
    );
    let cli = Cli::new();
    cli.tool_call("bash", json!({"command": "echo oops; exit 3"}))
        .text("ok");
    cli.ok(&["bash-spawn-hook.lua"], &["-p", "run it"]);
    assert_eq!(cli.tool_result(1), "oops\n\nCommand exited with code 3");
}

#[test]
fn dynamic_tools_registers_echo_session_at_start_and_more_by_command() {
    let cli = Cli::new();
    cli.tool_call("echo_session", json!({"message": "hi there"}))
        .text("ok");
    cli.ok(&["dynamic-tools.lua"], &["-p", "echo"]);
    assert!(cli.tools(0).contains(&"echo_session".to_string()));
    assert_eq!(cli.tool_result(1), "[session] hi there");
}

#[tokio::test]
async fn dynamic_tools_command_adds_a_named_echo_tool_once() {
    let twin = Twin::start("dynamic-tools.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.command("add-echo-tool", "Shout_1").await;
    twin.command("add-echo-tool", "shout_1").await;
    twin.command("add-echo-tool", "bad name!").await;
    let notes = twin.notes();
    assert_eq!(
        notes,
        [
            "Registered dynamic tool: echo_session",
            "Registered dynamic tool: shout_1",
            "Tool already registered: shout_1",
            "Usage: /add-echo-tool <tool_name> (lowercase, numbers, underscores)"
        ]
    );
    let result = twin.tool("shout_1", json!({"message": "x"})).await.unwrap();
    assert_eq!(result["content"][0]["text"], "[shout_1] x");
}

#[test]
fn reload_runtime_tool_queues_the_reload_command() {
    let cli = Cli::new();
    cli.tool_call("reload_runtime", json!({}))
        .text("reloading")
        .text("reloaded");
    cli.ok(&["reload-runtime.lua"], &["-p", "reload please"]);
    assert_eq!(
        cli.tool_result(1),
        "Queued /reload-runtime as a follow-up command."
    );
    // As in pi, a message sent by an extension is never run as a command: the
    // queued follow-up reaches the model once the turn is over.
    assert_eq!(cli.last_user_text(2), "/reload-runtime");
}

#[tokio::test]
async fn reload_runtime_command_and_tool_ask_for_a_reload() {
    let twin = Twin::start("reload-runtime.lua", vec![]).await;
    twin.command("reload-runtime", "").await;
    assert!(has(&twin.actions(), &ExtensionAction::Reload));
    twin.tool("reload_runtime", json!({})).await.unwrap();
    let actions = twin.actions();
    assert!(
        has(
            &actions,
            &ExtensionAction::SendUserMessage {
                content: json!("/reload-runtime"),
                deliver_as: Some("followUp".into())
            }
        ),
        "{actions:?}"
    );
}

#[test]
fn shutdown_command_tools_answer_and_end_the_run() {
    let cli = Cli::new();
    cli.tool_call("finish_and_exit", json!({})).text("bye");
    let (stdout, _) = cli.ok(
        &["shutdown-command.lua"],
        &["-p", "finish", "and then this"],
    );
    assert_eq!(
        cli.tool_result(1),
        "Shutdown requested. Exiting after this response."
    );
    assert_eq!(stdout, "bye\n");
    assert_eq!(
        cli.server.request_count(),
        2,
        "the second prompt is skipped"
    );

    let cli = Cli::new();
    cli.tool_call("deploy_and_exit", json!({"environment": "staging"}))
        .text("deployed");
    cli.ok(&["shutdown-command.lua"], &["-p", "deploy"]);
    assert_eq!(cli.tool_result(1), "Done! Shutdown requested.");
}

#[tokio::test]
async fn shutdown_command_asks_pi_to_quit() {
    let twin = Twin::start("shutdown-command.lua", vec![]).await;
    twin.command("shutdown", "").await;
    assert!(has(&twin.actions(), &ExtensionAction::Shutdown));
}

#[test]
fn tool_override_read_blocks_secrets_and_logs_every_access() {
    let cli = Cli::new();
    cli.write(".env", "TOKEN=secret\n");
    cli.write("notes.txt", "one\ntwo\nthree\nfour\n");
    cli.tool_call("read", json!({"path": ".env"}));
    cli.tool_call(
        "read",
        json!({"path": "notes.txt", "offset": 2, "limit": 2}),
    );
    cli.text("done");
    cli.ok(&["tool-override.lua"], &["-p", "read things"]);
    let denied = cli.tool_result(1);
    assert!(
        denied.starts_with("Access denied: \".env\" matches a blocked pattern"),
        "{denied}"
    );
    assert!(!cli.body(1).contains("TOKEN=secret"));
    assert_eq!(cli.tool_result(2), "two\nthree");
    let log = std::fs::read_to_string(cli.sandbox.agent_dir.join("read-access.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(
        lines[0].contains("] BLOCKED: ") && lines[0].ends_with("/.env (matches blocked pattern)")
    );
    assert!(lines[1].contains("] ALLOWED: ") && lines[1].ends_with("/notes.txt"));
}

#[test]
fn truncated_tool_keeps_2000_lines_and_saves_the_rest() {
    let cli = Cli::new();
    let bin = cli.sandbox.root.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let rg = bin.join("rg");
    // A stand-in for ripgrep: 3000 matches for "needle", none otherwise.
    std::fs::write(
        &rg,
        "#!/bin/sh\nfor last; do :; done\ncase \"$*\" in *needle*) seq 1 3000 | sed 's/.*/f.txt:&:needle/';; *) exit 1;; esac\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&rg, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cli = cli;
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    cli.sandbox.env.push(("PATH".into(), path));
    cli.tool_call("rg", json!({"pattern": "needle"}));
    cli.tool_call("rg", json!({"pattern": "hay"}));
    cli.text("done");
    cli.ok(&["truncated-tool.lua"], &["-p", "search"]);
    let result = cli.tool_result(1);
    assert!(result.starts_with("f.txt:1:needle\n"), "{}", &result[..40]);
    let notice = result.find("[Output truncated").expect("a notice");
    assert!(
        result[..notice].ends_with("f.txt:2000:needle\n\n"),
        "{}",
        &result[notice - 40..]
    );
    assert!(
        result[notice..].starts_with("[Output truncated: showing 2000 of 3001 lines"),
        "{}",
        &result[notice..]
    );
    assert!(!result.contains("f.txt:2001:needle"));
    let saved = result
        .rsplit("Full output saved to: ")
        .next()
        .unwrap()
        .trim_end_matches(']');
    let full = std::fs::read_to_string(saved).unwrap();
    assert_eq!(full.lines().count(), 3000);
    let _ = std::fs::remove_file(saved);
    assert_eq!(cli.tool_result(2), "No matches found");
}

#[tokio::test]
async fn truncated_tool_renders_match_counts() {
    let twin = Twin::start("truncated-tool.lua", vec![]).await;
    twin.store
        .lock()
        .tool_jobs
        .push_back(pi::lua::tool_render::ToolRenderJob {
            call_id: "c1".into(),
            name: "rg".into(),
            args: json!({"pattern": "fn main", "path": "src"}),
            result: Some(
                json!({"content": [{"type": "text", "text": "a.rs:1:fn main"}],
            "details": {"matchCount": 1, "pattern": "fn main"}}),
            ),
            expanded: false,
            partial: false,
        });
    twin.store.wake_host();
    let (_, lines) = twin
        .until("rg row", |s| s.tool_lines.first().cloned())
        .await;
    assert_eq!(
        plain(&lines.call.unwrap()[0]).trim_end(),
        "rg \"fn main\" in src"
    );
    assert_eq!(plain(&lines.result.unwrap()[0]).trim_end(), "1 matches");
}

#[tokio::test]
async fn question_tool_takes_an_option_or_a_typed_answer() {
    let twin = Twin::start("question.lua", vec![]).await;
    let params = json!({"question": "Which database?", "options": [{"label": "Postgres"}, {"label": "SQLite", "description": "a file"}]});
    let run = {
        let h = twin.handle.clone();
        let params = params.clone();
        tokio::spawn(async move {
            let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
            h.execute_tool("question", "q1", params, Default::default(), tx)
                .await
        })
    };
    let (id, lines) = twin.custom_lines().await;
    assert_eq!(lines[1], " Which database?");
    assert_eq!(lines[3], "> 1. Postgres");
    assert_eq!(lines[5], "     a file");
    assert_eq!(lines[6], "  3. Type something.");
    twin.keys(id, &["down", "enter"]);
    let result = run.await.unwrap().unwrap();
    assert_eq!(result["content"][0]["text"], "User selected: 2. SQLite");
    assert_eq!(result["details"]["answer"], "SQLite");

    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move {
            let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
            h.execute_tool("question", "q2", params, Default::default(), tx)
                .await
        })
    };
    let id = twin
        .until("second dialog", |s| {
            s.customs
                .first()
                .filter(|c| !c.lines.is_empty())
                .map(|c| c.id)
        })
        .await;
    twin.keys(
        id,
        &[
            "down",
            "down",
            "enter",
            "M",
            "y",
            "S",
            "Q",
            "L",
            "backspace",
            "enter",
        ],
    );
    let result = run.await.unwrap().unwrap();
    assert_eq!(result["content"][0]["text"], "User wrote: MySQ");
    assert_eq!(result["details"]["wasCustom"], true);
}

#[test]
fn question_tool_reports_a_missing_ui_to_the_model() {
    let cli = Cli::new();
    cli.tool_call(
        "question",
        json!({"question": "Go?", "options": [{"label": "Yes"}]}),
    )
    .text("ok");
    cli.ok(&["question.lua"], &["-p", "ask me"]);
    assert_eq!(
        cli.tool_result(1),
        "Error: UI not available (running in non-interactive mode)"
    );
}

#[tokio::test]
async fn questionnaire_walks_tabs_and_submits_every_answer() {
    let twin = Twin::start("questionnaire.lua", vec![]).await;
    let params = json!({"questions": [
        {"id": "scope", "label": "Scope", "prompt": "How much?", "options": [
            {"value": "small", "label": "Small"}, {"value": "big", "label": "Big"}]},
        {"id": "when", "prompt": "When?", "allowOther": true, "options": [
            {"value": "now", "label": "Now"}]}
    ]});
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move {
            let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
            h.execute_tool("questionnaire", "q1", params, Default::default(), tx)
                .await
        })
    };
    let (id, lines) = twin.custom_lines().await;
    assert_eq!(lines[1].trim_end(), " ←  □ Scope   □ Q2   ✓ Submit  →");
    assert_eq!(lines[3], " How much?");
    twin.keys(id, &["down", "enter"]);
    twin.until("second tab", |s| {
        s.customs
            .first()?
            .lines
            .iter()
            .any(|l| plain(l) == " When?")
            .then_some(())
    })
    .await;
    twin.keys(id, &["down", "enter", "s", "o", "o", "n", "enter"]);
    twin.until("submit tab", |s| {
        let lines = &s.customs.first()?.lines;
        lines
            .iter()
            .any(|l| plain(l) == " Press Enter to submit")
            .then_some(())
    })
    .await;
    let lines = twin.custom_lines().await.1;
    assert!(lines.contains(&" Scope: Big".to_string()), "{lines:?}");
    assert!(
        lines.contains(&" Q2: (wrote) soon".to_string()),
        "{lines:?}"
    );
    twin.keys(id, &["enter"]);
    let result = run.await.unwrap().unwrap();
    assert_eq!(
        result["content"][0]["text"],
        "Scope: user selected: 2. Big\nQ2: user wrote: soon"
    );
    assert_eq!(result["details"]["cancelled"], false);
}

#[tokio::test]
async fn questionnaire_escape_cancels() {
    let twin = Twin::start("questionnaire.lua", vec![]).await;
    let params = json!({"questions": [{"id": "a", "prompt": "Pick", "options": [{"value": "x", "label": "X"}]}]});
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move {
            let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
            h.execute_tool("questionnaire", "q1", params, Default::default(), tx)
                .await
        })
    };
    let (id, lines) = twin.custom_lines().await;
    assert_eq!(lines[1], " Pick");
    twin.keys(id, &["escape"]);
    let result = run.await.unwrap().unwrap();
    assert_eq!(
        result["content"][0]["text"],
        "User cancelled the questionnaire"
    );
}

#[test]
fn todo_tool_keeps_its_list_in_the_results() {
    let cli = Cli::new();
    cli.tool_call("todo", json!({"action": "add", "text": "write tests"}));
    cli.tool_call("todo", json!({"action": "list"}));
    cli.text("done");
    cli.ok(&["todo.lua"], &["-p", "plan"]);
    assert_eq!(cli.tool_result(1), "Added #1");
    assert!(
        cli.tool_result(2).contains("write tests"),
        "{}",
        cli.tool_result(2)
    );
}

// ---------------------------------------------------------------------------
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
// Commands and chrome, driven in-process.

#[tokio::test]
async fn widget_placement_puts_widgets_above_and_below() {
    let twin = Twin::start("widget-placement.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let widgets = twin.calls("setWidget");
    assert_eq!(widgets.len(), 2);
    assert_eq!(widgets[0]["widgetKey"], "widget-above");
    assert_eq!(widgets[0]["widgetLines"], json!(["Above editor widget"]));
    assert_eq!(widgets[0]["widgetPlacement"], "aboveEditor");
    assert_eq!(widgets[1]["widgetLines"], json!(["Below editor widget"]));
    assert_eq!(widgets[1]["widgetPlacement"], "belowEditor");
}

#[tokio::test]
async fn system_prompt_header_shows_the_prompt_length() {
    let twin = Twin::start("system-prompt-header.lua", vec![]).await;
    twin.view.lock().system_prompt = "You are π.".into();
    twin.emit("agent_start", json!({})).await;
    twin.emit("session_shutdown", json!({"reason": "quit"}))
        .await;
    let status = twin.calls("setStatus");
    assert_eq!(status[0]["statusText"], "System: 10 chars");
    assert_eq!(status[0]["statusKey"], "system-prompt");
    assert!(status[1]["statusText"].is_null());
}

#[tokio::test]
async fn working_message_test_sets_message_and_indicator() {
    let twin = Twin::start("working-message-test.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let message = &twin.calls("setWorkingMessage")[0]["message"];
    assert_eq!(plain(message.as_str().unwrap()), "Working... (custom)");
    let indicator = &twin.calls("setWorkingIndicator")[0];
    assert_eq!(plain(indicator["frames"][0].as_str().unwrap()), "●");
    assert_eq!(indicator["frames"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn working_indicator_command_switches_modes() {
    let twin = Twin::start("working-indicator.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.command("working-indicator", "dot").await;
    twin.command("working-indicator", "none").await;
    twin.command("working-indicator", "reset").await;
    twin.command("working-indicator", "").await;
    twin.command("working-indicator", "wobble").await;
    let indicators = twin.calls("setWorkingIndicator");
    assert_eq!(indicators[0]["frames"].as_array().unwrap().len(), 10);
    assert_eq!(plain(indicators[1]["frames"][0].as_str().unwrap()), "●");
    assert_eq!(indicators[2]["frames"], json!([]));
    assert!(indicators[3].get("frames").is_none());
    let status = twin.calls("setStatus");
    assert_eq!(
        plain(status.last().unwrap()["statusText"].as_str().unwrap()),
        "Indicator: pi default spinner"
    );
    assert_eq!(
        twin.notes(),
        [
            "Working indicator set to: static dot",
            "Working indicator set to: hidden",
            "Working indicator set to: pi default spinner",
            "Working indicator: pi default spinner",
            "Usage: /working-indicator [dot|pulse|none|spinner|reset]"
        ]
    );
}

#[tokio::test]
async fn session_name_sets_and_shows_the_name() {
    let twin = Twin::start("session-name.lua", vec![]).await;
    twin.command("session-name", "").await;
    twin.command("session-name", "  Refactor parser ").await;
    assert!(has(
        &twin.actions(),
        &ExtensionAction::SetSessionName("Refactor parser".into())
    ));
    twin.view.lock().session_name = Some("Refactor parser".into());
    twin.command("session-name", "").await;
    assert_eq!(
        twin.notes(),
        [
            "No session name set",
            "Session named: Refactor parser",
            "Session: Refactor parser"
        ]
    );
}

#[tokio::test]
async fn model_status_announces_switches_but_not_restores() {
    let twin = Twin::start("model-status.lua", vec![]).await;
    let model = json!({"provider": "anthropic", "id": "claude-x"});
    twin.emit("model_select", json!({"model": model, "source": "set"}))
        .await;
    twin.emit("model_select", json!({"model": {"provider": "openai", "id": "gpt-y"}, "previousModel": model, "source": "restore"})).await;
    assert_eq!(twin.notes(), ["Model: anthropic/claude-x"]);
    let status: Vec<Value> = twin
        .calls("setStatus")
        .iter()
        .map(|s| s["statusText"].clone())
        .collect();
    assert_eq!(status, [json!("🤖 claude-x"), json!("🤖 gpt-y")]);
}

#[tokio::test]
async fn event_bus_shows_events_from_the_bus() {
    let twin = Twin::start("event-bus.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.command("emit", "deploy done").await;
    twin.command("emit", "").await;
    assert_eq!(
        twin.notes(),
        [
            "Event from event-bus-example: Session started",
            "Event from /emit command: deploy done",
            "Event from /emit command: hello"
        ]
    );
}

#[tokio::test]
async fn bookmark_labels_the_last_reply_and_unbookmark_removes_it() {
    let view = pi::lua::SharedView::new(env!("CARGO_MANIFEST_DIR"));
    view.lock().entries = vec![
        entry("u1", None, user("hi")),
        entry("a1", Some("u1"), assistant("hello")),
        entry("u2", Some("a1"), user("more")),
    ];
    let twin = Twin::with_view("bookmark.lua", vec![], view).await;
    twin.command("unbookmark", "").await;
    twin.command("bookmark", "good answer").await;
    assert!(has(
        &twin.actions(),
        &ExtensionAction::SetLabel {
            entry_id: "a1".into(),
            label: Some("good answer".into())
        }
    ));
    twin.view
        .lock()
        .entries
        .push(json!({"type": "label", "id": "l1", "parentId": "u2",
        "targetId": "a1", "label": "good answer"}));
    twin.command("unbookmark", "").await;
    assert_eq!(
        twin.notes(),
        [
            "No bookmarked entry found",
            "Bookmarked as: good answer",
            "Removed bookmark: good answer"
        ]
    );
    assert!(has(
        &twin.actions(),
        &ExtensionAction::SetLabel {
            entry_id: "a1".into(),
            label: None
        }
    ));
}

#[test]
fn file_trigger_turns_file_contents_into_a_turn() {
    let mut cli = Cli::new();
    let trigger = cli.sandbox.root.path().join("trigger.txt");
    cli.sandbox
        .env
        .push(("PI_TRIGGER_FILE".into(), trigger.display().to_string()));
    cli.text("On it.");
    let mut rpc = cli.rpc(&["file-trigger.lua"], &["--no-session"]);
    let note = ui_request(&mut rpc, "notify");
    assert_eq!(note["message"], format!("Watching {}", trigger.display()));
    std::fs::write(&trigger, "Run the tests\n").unwrap();
    rpc.wait_for("agent_end", |v| v["type"] == "agent_end");
    assert_eq!(cli.last_user_text(0), "External trigger: Run the tests");
    assert_eq!(std::fs::read_to_string(&trigger).unwrap(), "");
    rpc.finish();
}

#[tokio::test]
async fn mac_system_theme_picks_light_without_macos() {
    let twin = Twin::start("mac-system-theme.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.until_call("setTheme", |log| {
        log.iter().any(|r| r["method"] == "setTheme")
    })
    .await;
    assert_eq!(twin.calls("setTheme")[0]["name"], "light");
    twin.emit("session_shutdown", json!({"reason": "quit"}))
        .await;
}

#[tokio::test]
async fn titlebar_spinner_animates_while_the_agent_works() {
    let twin = Twin::start("titlebar-spinner.lua", vec![]).await;
    twin.emit("agent_start", json!({})).await;
    twin.until_call("a spinner frame", |log| {
        log.iter().any(|r| {
            r["method"] == "setTitle" && r["title"].as_str().unwrap().starts_with("⠙ π - ")
        })
    })
    .await;
    twin.emit("agent_end", json!({"messages": []})).await;
    let titles = twin.calls("setTitle");
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(titles.last().unwrap()["title"], format!("π - {folder}"));
    assert!(
        titles
            .iter()
            .any(|t| t["title"] == format!("⠋ π - {folder}"))
    );
}

#[tokio::test]
async fn trigger_compact_compacts_on_command_and_past_the_threshold() {
    let twin = Twin::start("trigger-compact.lua", vec![]).await;
    twin.command("trigger-compact", "keep the todo list").await;
    assert!(has(
        &twin.actions(),
        &ExtensionAction::Compact(Some("keep the todo list".into()))
    ));
    twin.emit("session_compact", json!({})).await;
    for tokens in [90_000, 99_000, 120_000, 130_000] {
        twin.view.lock().context_usage =
            json!({"tokens": tokens, "contextWindow": 200000, "percent": 50});
        twin.emit("turn_end", json!({})).await;
    }
    assert_eq!(
        twin.actions(),
        [ExtensionAction::Compact(None)],
        "only crossing the line compacts"
    );
    assert_eq!(
        twin.notes(),
        [
            "Compaction started",
            "Compaction completed",
            "Compaction started"
        ]
    );
}

#[tokio::test]
async fn commands_lists_commands_by_source_and_shows_a_path() {
    let twin = Twin::start(
        "commands.lua",
        vec![
            json!({"value": "/commands - List available slash commands"}),
            json!({"confirmed": true}),
        ],
    )
    .await;
    twin.command("commands", "").await;
    let select = &twin.calls("select")[0];
    assert_eq!(select["title"], "Available Commands");
    assert_eq!(
        select["options"],
        json!([
            "--- Extensions ---",
            "/commands - List available slash commands"
        ])
    );
    let notes = twin.notes();
    assert!(
        notes[0].ends_with("extensions/examples/commands.lua"),
        "{notes:?}"
    );
    twin.command("commands", "skill").await;
    assert_eq!(twin.notes()[1], "No skill commands found");
    let completions = twin.handle.complete_command("commands", "p").await;
    assert_eq!(completions[0]["value"], "prompt");
}

#[tokio::test]
async fn custom_header_draws_the_mascot_and_can_be_removed() {
    let twin = Twin::start("custom-header.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let header = twin.until("header", |s| s.header.clone()).await;
    let lines: Vec<String> = header.iter().map(|l| plain(l)).collect();
    assert_eq!(lines[1], "     █▌  █▌");
    assert_eq!(lines[2], "  ██████████████");
    assert_eq!(lines[3], "     ██    ██");
    assert!(lines[8].starts_with("   shitty coding agent"));
    twin.command("builtin-header", "").await;
    twin.until("no header", |s| s.header.is_none().then_some(()))
        .await;
    assert_eq!(twin.notes(), ["Built-in header restored"]);
}

#[tokio::test]
async fn rpc_demo_uses_every_dialog_and_chrome_call() {
    let twin = Twin::start(
        "rpc-demo.lua",
        vec![
            json!({"value": "Block"}),
            json!({"value": "typed"}),
            json!({"value": "a\nb"}),
            json!({"confirmed": false}),
        ],
    )
    .await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    assert_eq!(twin.calls("setTitle")[0]["title"], "pi RPC Demo");
    assert_eq!(
        twin.calls("setWidget")[0]["widgetLines"],
        json!(["--- RPC Extension UI Demo ---", "Loaded and ready."])
    );
    twin.emit("turn_start", json!({})).await;
    twin.emit("turn_end", json!({})).await;
    let status: Vec<Value> = twin
        .calls("setStatus")
        .iter()
        .map(|s| s["statusText"].clone())
        .collect();
    assert_eq!(
        status,
        [
            json!("Turns: 0"),
            json!("Turn 1 running..."),
            json!("Turn 1 done")
        ]
    );
    let blocked = twin
        .emit(
            "tool_call",
            json!({"toolName": "bash", "toolCallId": "c", "input": {"command": "sudo rm -rf /"}}),
        )
        .await;
    assert_eq!(blocked[0]["reason"], "Blocked by user");
    assert!(
        twin.emit(
            "tool_call",
            json!({"toolName": "bash", "toolCallId": "d", "input": {"command": "ls"}})
        )
        .await
        .is_empty()
    );
    twin.command("rpc-input", "").await;
    twin.command("rpc-editor", "").await;
    let cancelled = twin
        .emit("session_before_switch", json!({"reason": "new"}))
        .await;
    assert_eq!(cancelled[0]["cancel"], true);
    twin.command("rpc-prefill", "").await;
    assert_eq!(
        twin.calls("set_editor_text")[0]["text"],
        "This text was set by the rpc-demo extension."
    );
    assert_eq!(
        twin.notes(),
        [
            "Command blocked by user",
            "You entered: typed",
            "Editor submitted (2 lines)",
            "Clear cancelled",
            "Editor prefilled"
        ]
    );
}

#[tokio::test]
async fn confirm_destructive_asks_before_new_resume_and_fork() {
    let view = pi::lua::SharedView::new(env!("CARGO_MANIFEST_DIR"));
    view.lock().entries = vec![entry("u1", None, user("hi"))];
    let twin = Twin::with_view(
        "confirm-destructive.lua",
        vec![
            json!({"confirmed": false}),
            json!({"confirmed": true}),
            json!({"value": "No, stay in current session"}),
        ],
        view,
    )
    .await;
    let out = twin
        .emit("session_before_switch", json!({"reason": "new"}))
        .await;
    assert_eq!(out[0]["cancel"], true);
    let out = twin
        .emit("session_before_switch", json!({"reason": "resume"}))
        .await;
    assert!(out.is_empty());
    let out = twin
        .emit(
            "session_before_fork",
            json!({"entryId": "0123456789abcdef"}),
        )
        .await;
    assert_eq!(out[0]["cancel"], true);
    assert_eq!(twin.calls("confirm")[1]["title"], "Switch session?");
    assert_eq!(
        twin.calls("select")[0]["title"],
        "Fork from entry 01234567?"
    );
    assert_eq!(twin.notes(), ["Clear cancelled", "Fork cancelled"]);
}

#[tokio::test]
async fn dirty_repo_guard_stops_switching_with_uncommitted_changes() {
    let dir = repo();
    let twin = Twin::start_in(
        "dirty-repo-guard.lua",
        vec![json!({"value": "No, let me commit first"})],
        dir.path(),
    )
    .await;
    let out = twin
        .emit("session_before_switch", json!({"reason": "new"}))
        .await;
    assert!(out.is_empty(), "a clean tree lets you go");
    std::fs::write(dir.path().join("hello.txt"), "changed\n").unwrap();
    std::fs::write(dir.path().join("extra.txt"), "new\n").unwrap();
    let out = twin
        .emit("session_before_switch", json!({"reason": "new"}))
        .await;
    assert_eq!(out[0]["cancel"], true);
    assert_eq!(
        twin.calls("select")[0]["title"],
        "You have 2 uncommitted file(s). new session anyway?"
    );
    assert_eq!(twin.notes(), ["Commit your changes first"]);

    let headless = Twin::headless("dirty-repo-guard.lua", dir.path()).await;
    let out = headless
        .emit("session_before_fork", json!({"entryId": "x"}))
        .await;
    assert_eq!(out[0]["cancel"], true);
}

#[tokio::test]
async fn git_checkpoint_restores_code_when_forking() {
    let dir = repo();
    let view = pi::lua::SharedView::new(dir.path());
    view.lock().entries = vec![entry("e1", None, user("edit it"))];
    view.lock().leaf_id = Some("e1".into());
    let twin = Twin::with_view(
        "git-checkpoint.lua",
        vec![json!({"value": "Yes, restore code to that point"})],
        view,
    )
    .await;
    std::fs::write(dir.path().join("hello.txt"), "checkpointed\n").unwrap();
    twin.emit(
        "tool_result",
        json!({"toolName": "bash", "toolCallId": "c", "input": {}, "content": []}),
    )
    .await;
    twin.emit("turn_start", json!({})).await;
    git(dir.path(), &["checkout", "-q", "--", "hello.txt"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("hello.txt")).unwrap(),
        "hello\n"
    );
    twin.emit("session_before_fork", json!({"entryId": "e1"}))
        .await;
    assert_eq!(
        std::fs::read_to_string(dir.path().join("hello.txt")).unwrap(),
        "checkpointed\n"
    );
    assert_eq!(twin.notes(), ["Code restored to checkpoint"]);
}

#[tokio::test]
async fn tools_command_toggles_a_tool_and_saves_the_choice() {
    let view = pi::lua::SharedView::new(env!("CARGO_MANIFEST_DIR"));
    view.lock().all_tools = ["read", "bash", "edit"]
        .iter()
        .map(|n| json!({"name": n, "description": n, "parameters": {}}))
        .collect();
    view.lock().active_tools = vec!["read".into(), "bash".into(), "edit".into()];
    let twin = Twin::with_view("tools.lua", vec![], view).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("tools", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert_eq!(lines[0].trim_end(), "Tool Configuration");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("bash") && l.contains("enabled")),
        "{lines:?}"
    );
    twin.keys(id, &["down", "enter", "escape"]);
    run.await.unwrap().unwrap();
    let actions = twin.actions();
    assert!(
        has(
            &actions,
            &ExtensionAction::SetActiveTools(vec!["read".into(), "edit".into()])
        ),
        "{actions:?}"
    );
    assert!(has(
        &actions,
        &ExtensionAction::AppendEntry {
            custom_type: "tools-config".into(),
            data: Some(json!({"enabledTools": ["read", "edit"]}))
        }
    ));
}

#[tokio::test]
async fn tools_restores_the_saved_choice_from_the_branch() {
    let view = pi::lua::SharedView::new(env!("CARGO_MANIFEST_DIR"));
    view.lock().all_tools = ["read", "bash"]
        .iter()
        .map(|n| json!({"name": n, "description": n, "parameters": {}}))
        .collect();
    view.lock().entries = vec![
        json!({"type": "custom", "id": "c1", "parentId": null, "customType": "tools-config",
        "data": {"enabledTools": ["bash", "gone"]}}),
    ];
    view.lock().leaf_id = Some("c1".into());
    let twin = Twin::with_view("tools.lua", vec![], view).await;
    twin.emit("session_start", json!({"reason": "resume"}))
        .await;
    assert_eq!(
        twin.actions(),
        [ExtensionAction::SetActiveTools(vec!["bash".into()])]
    );
}

// ---------------------------------------------------------------------------
// The twins that shipped before: a short check of each through this harness.

#[tokio::test]
async fn status_line_counts_turns() {
    let twin = Twin::start("status-line.lua", vec![]).await;
    twin.emit("turn_start", json!({})).await;
    let status = twin.calls("setStatus");
    assert!(plain(status[0]["statusText"].as_str().unwrap()).ends_with("turn 1…"));
}

#[tokio::test]
async fn timed_confirm_times_out_to_no() {
    let twin = Twin::start(
        "timed-confirm.lua",
        vec![json!({"confirmed": false}), json!({})],
    )
    .await;
    twin.command("timed-confirm", "50").await;
    assert_eq!(twin.calls("confirm")[0]["timeout"], 50);
    assert_eq!(twin.notes()[0], "Not confirmed (declined or timed out)");
}

#[tokio::test]
async fn custom_footer_shows_the_model_and_context() {
    let view = pi::lua::SharedView::new(env!("CARGO_MANIFEST_DIR"));
    view.lock().model = json!({"id": "m-1"});
    view.lock().context_usage = json!({"tokens": 10, "contextWindow": 100, "percent": 10});
    let twin = Twin::with_view("custom-footer.lua", vec![], view).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let footer = twin.until("footer", |s| s.footer.clone()).await;
    assert!(
        plain(&footer[0]).ends_with("m-1 █░░░░░░░░░ 10%"),
        "{footer:?}"
    );
}

#[tokio::test]
async fn message_renderer_sends_a_status_report() {
    let twin = Twin::start("message-renderer.lua", vec![]).await;
    twin.command("report", "error: disk full").await;
    let actions = format!("{:?}", twin.actions());
    assert!(
        actions.contains("status-report") && actions.contains("disk full"),
        "{actions}"
    );
}

#[tokio::test]
async fn modal_editor_starts_in_insert_mode() {
    let twin = Twin::start("modal-editor.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.until("mode line", |s| {
        s.editor
            .as_ref()
            .filter(|e| plain(&e[0]) == "-- INSERT --")
            .map(|_| ())
    })
    .await;
    twin.store.send_key(0, "escape".into());
    twin.until("normal mode", |s| {
        s.editor
            .as_ref()
            .filter(|e| plain(&e[0]).contains("NORMAL"))
            .map(|_| ())
    })
    .await;
}

#[tokio::test]
async fn snake_opens_an_overlay_and_escape_closes_it() {
    let twin = Twin::start("snake.lua", vec![]).await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("snake", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert!(lines[0].contains("SNAKE"), "{lines:?}");
    twin.keys(id, &["escape"]);
    run.await.unwrap().unwrap();
}

// ---------------------------------------------------------------------------
// Twins that ask a model themselves, through a one-shot pi process.

#[test]
fn qna_puts_the_extracted_questions_in_the_editor() {
    let cli = Cli::new();
    cli.text("Which database do you prefer? Should we use TypeScript?");
    cli.text("Q: Which database do you prefer?\nA: \n\nQ: Should we use TypeScript?\nA: ");
    let mut rpc = cli.rpc(&["qna.lua"], &["--no-session"]);
    rpc_prompt(&mut rpc, "plan the app");
    rpc.send(json!({"type": "prompt", "message": "/qna"}));
    let editor = ui_request(&mut rpc, "set_editor_text");
    assert_eq!(
        editor["text"],
        "Q: Which database do you prefer?\nA: \n\nQ: Should we use TypeScript?\nA:"
    );
    let note = ui_request(&mut rpc, "notify");
    assert_eq!(
        note["message"],
        "Questions loaded. Edit and submit when ready."
    );
    let asked = cli.request(1);
    let system = &asked["messages"][0]["content"];
    assert!(
        system
            .as_str()
            .unwrap()
            .starts_with("You are a question extractor."),
        "{system}"
    );
    assert!(
        cli.last_user_text(1)
            .contains("Which database do you prefer? Should we use TypeScript?")
    );
    rpc.finish();
}

#[test]
fn qna_needs_an_answer_to_work_on() {
    let cli = Cli::new();
    let mut rpc = cli.rpc(&["qna.lua"], &["--no-session"]);
    rpc.send(json!({"type": "prompt", "message": "/qna"}));
    assert_eq!(
        ui_request(&mut rpc, "notify")["message"],
        "No assistant messages found"
    );
    rpc.finish();
    assert_eq!(cli.server.request_count(), 0);
}

#[test]
fn handoff_drafts_a_prompt_and_opens_it_in_a_new_session() {
    let cli = Cli::new();
    cli.text("I refactored the login form in src/login.rs.");
    cli.text("## Context\nLogin form refactored.\n\n## Task\nDo the same for teams.");
    let mut rpc = cli.rpc(&["handoff.lua"], &[]);
    rpc_prompt(&mut rpc, "refactor the login form");
    rpc.send(json!({"type": "prompt", "message": "/handoff do the same for teams"}));
    let editor = ui_request(&mut rpc, "editor");
    assert_eq!(editor["title"], "Edit handoff prompt");
    assert_eq!(
        editor["prefill"],
        "## Context\nLogin form refactored.\n\n## Task\nDo the same for teams."
    );
    rpc.send_raw(&json!({"type": "extension_ui_response", "id": editor["id"], "value": "## Task\nTeams, please."}).to_string());
    let text = ui_request(&mut rpc, "set_editor_text");
    assert_eq!(text["text"], "## Task\nTeams, please.");
    let user = cli.last_user_text(1);
    assert!(user.starts_with("## Conversation History\n\n[User]: refactor the login form\n\n[Assistant]: I refactored"), "{user}");
    assert!(
        user.ends_with("## User's Goal for New Thread\n\ndo the same for teams"),
        "{user}"
    );
    assert!(
        cli.system_prompt(1)
            .starts_with("You are a context transfer assistant.")
    );
    // The draft lands in the editor of the new session.
    assert_eq!(
        ui_request(&mut rpc, "notify")["message"],
        "Handoff ready. Submit when ready."
    );
    rpc.finish();
}

#[test]
fn summarize_asks_its_model_for_a_summary_of_the_conversation() {
    let cli = Cli::new();
    cli.add_models("openai", &["gpt-5.2"]);
    cli.text("Sure, the parser now handles comments.");
    cli.text("## Goals\nParser work.");
    let mut rpc = cli.rpc(&["summarize.lua"], &["--no-session"]);
    rpc_prompt(&mut rpc, "teach the parser comments");
    rpc.send(json!({"type": "prompt", "message": "/summarize"}));
    assert_eq!(
        ui_request(&mut rpc, "notify")["message"],
        "Preparing summary..."
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while cli.server.request_count() < 2 {
        assert!(std::time::Instant::now() < deadline, "no summary request");
        std::thread::sleep(Duration::from_millis(20));
    }
    let asked = cli.request(1);
    assert_eq!(asked["model"], "gpt-5.2");
    let prompt = cli.last_user_text(1);
    assert!(prompt.starts_with("Summarize this conversation so I can resume it later."));
    assert!(prompt.contains("<conversation>\nUser: teach the parser comments\n\nAssistant: Sure, the parser now handles comments.\n</conversation>"), "{prompt}");
    rpc.finish();
}

#[test]
fn custom_compaction_replaces_the_summary_with_its_own() {
    let cli = Cli::new();
    cli.add_models("google", &["gemini-2.5-flash"]);
    cli.sandbox.write_agent_file(
        "settings.json",
        r#"{"compaction": {"keepRecentTokens": 1}}"#,
    );
    cli.text("First answer.").text("Second answer.");
    cli.text("## Goals\nEverything so far.");
    cli.ok(
        &["custom-compaction.lua", "trigger-compact.lua"],
        &[
            "-p",
            "first question",
            "second question",
            "/trigger-compact",
        ],
    );
    let asked = cli.request(2);
    assert_eq!(asked["model"], "gemini-2.5-flash");
    let prompt = cli.last_user_text(2);
    assert!(
        prompt.starts_with("You are a conversation summarizer."),
        "{prompt}"
    );
    assert!(prompt.contains("[User]: first question"), "{prompt}");
    let compaction = cli
        .session_entries()
        .into_iter()
        .find(|e| e["type"] == "compaction")
        .expect("a compaction entry");
    assert_eq!(compaction["summary"], "## Goals\nEverything so far.");
}

#[tokio::test]
async fn preset_applies_tools_thinking_and_instructions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".pi")).unwrap();
    std::fs::write(
        dir.path().join(".pi/presets.json"),
        r#"{"plan": {"thinkingLevel": "high", "tools": ["read", "nope"], "instructions": "PLAN ONLY."},
            "fast": {"thinkingLevel": "off"}}"#,
    )
    .unwrap();
    let view = pi::lua::SharedView::new(dir.path());
    view.lock().all_tools = ["read", "bash"]
        .iter()
        .map(|n| json!({"name": n, "description": n, "parameters": {}}))
        .collect();
    view.lock().active_tools = vec!["read".into(), "bash".into()];
    view.lock().thinking_level = "medium".into();
    let twin = Twin::with_view("preset.lua", vec![json!({"value": "fast"})], view).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.command("preset", "plan").await;
    assert_eq!(
        twin.actions(),
        [
            ExtensionAction::SetThinkingLevel("high".into()),
            ExtensionAction::SetActiveTools(vec!["read".into()])
        ]
    );
    let out = twin
        .emit(
            "before_agent_start",
            json!({"prompt": "x", "systemPrompt": "BASE"}),
        )
        .await;
    assert_eq!(out[0]["systemPrompt"], "BASE\n\nPLAN ONLY.");
    let status = twin.calls("setStatus");
    assert_eq!(
        plain(status.last().unwrap()["statusText"].as_str().unwrap()),
        "preset:plan"
    );
    // The shortcut cycles (none) → fast → plan → (none): from plan back to the start.
    twin.handle.run_shortcut("ctrl+shift+u").await.unwrap();
    assert_eq!(
        twin.actions(),
        [
            ExtensionAction::SetThinkingLevel("medium".into()),
            ExtensionAction::SetActiveTools(vec!["read".into(), "bash".into()])
        ]
    );
    twin.command("preset", "nothing").await;
    assert_eq!(
        twin.notes(),
        [
            "Preset \"plan\": Unknown tools: nope",
            "Preset \"plan\" activated",
            "Preset cleared, defaults restored",
            "Unknown preset \"nothing\". Available: fast, plan"
        ]
    );
}

#[tokio::test]
async fn preset_selector_lists_presets_and_activates_the_pick() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".pi")).unwrap();
    std::fs::write(
        dir.path().join(".pi/presets.json"),
        r#"{"fast": {"thinkingLevel": "off"}}"#,
    )
    .unwrap();
    let twin = Twin::start_in("preset.lua", vec![], dir.path()).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("preset", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert!(
        lines.iter().any(|l| l.contains("Select Preset")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("fast") && l.contains("thinking:off")),
        "{lines:?}"
    );
    twin.keys(id, &["enter"]);
    run.await.unwrap().unwrap();
    assert_eq!(
        twin.actions(),
        [ExtensionAction::SetThinkingLevel("off".into())]
    );
}

#[test]
fn preset_flag_adds_the_instructions_to_the_system_prompt() {
    let cli = Cli::new();
    cli.write(
        ".pi/presets.json",
        r#"{"review": {"instructions": "Review only; never edit."}}"#,
    );
    cli.text("ok");
    cli.ok(
        &["preset.lua"],
        &["--approve", "--preset", "review", "-p", "look"],
    );
    assert!(
        cli.system_prompt(0)
            .ends_with("\n\nReview only; never edit."),
        "{}",
        cli.system_prompt(0)
    );
}

// ---------------------------------------------------------------------------
// Plan mode.

#[test]
fn plan_mode_flag_limits_tools_and_blocks_changing_commands() {
    let cli = Cli::new();
    cli.write("keep.txt", "x");
    cli.server.push(support::MockReply::openai_tool_calls(&[
        ("c1", "bash", json!({"command": "rm keep.txt"})),
        ("c2", "bash", json!({"command": "ls"})),
        ("c3", "bash", json!({"command": "cat keep.txt > copy.txt"})),
    ]));
    cli.text("Plan:\n1. Read the config loader\n2. Add a test for defaults");
    cli.ok(&["plan-mode"], &["--plan", "-p", "look around"]);
    assert_eq!(cli.tools(0), ["read", "bash", "grep", "find", "ls"]);
    assert!(cli.body(0).contains("[PLAN MODE ACTIVE]"));
    assert!(cli.sandbox.project.join("keep.txt").exists());
    assert!(!cli.sandbox.project.join("copy.txt").exists());
    let request = cli.request(1);
    let results: Vec<String> = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].to_string())
        .collect();
    assert!(
        results[0].contains("Plan mode: command blocked (not allowlisted)"),
        "{results:?}"
    );
    assert!(
        results[1].contains("keep.txt") && !results[1].contains("blocked"),
        "{results:?}"
    );
    assert!(
        results[2].contains("Plan mode: command blocked"),
        "{results:?}"
    );
}

#[tokio::test]
async fn plan_mode_turns_the_plan_into_tracked_steps() {
    let twin = Twin::start(
        "plan-mode/init.lua",
        vec![json!({"value": "Execute the plan (track progress)"})],
    )
    .await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.command("plan", "").await;
    assert_eq!(
        twin.actions(),
        [ExtensionAction::SetActiveTools(
            ["read", "bash", "grep", "find", "ls", "questionnaire"]
                .map(String::from)
                .to_vec()
        )]
    );
    let reply = assistant(
        "**Plan:**\n1. Read the `config` loader\n2) Add a regression test for defaults\n3. ok",
    );
    twin.emit("agent_end", json!({"messages": [user("plan it"), reply]}))
        .await;
    let actions = twin.actions();
    let steps = actions.iter().find_map(|a| match a {
        ExtensionAction::SendMessage {
            custom_type,
            content,
            ..
        } if custom_type == "plan-todo-list" => Some(content.clone()),
        _ => None,
    });
    assert_eq!(
        steps,
        Some(json!(
            "**Plan Steps (2):**\n\n1. ☐ Config loader\n2. ☐ A regression test for defaults"
        ))
    );
    assert!(actions.iter().any(|a| matches!(a, ExtensionAction::SendMessage { custom_type, content, trigger_turn: true, .. }
        if custom_type == "plan-mode-execute" && content == &json!("Execute the plan. Start with: Config loader"))), "{actions:?}");
    let out = twin
        .emit(
            "before_agent_start",
            json!({"prompt": "", "systemPrompt": ""}),
        )
        .await;
    assert!(
        out[0]["message"]["content"]
            .as_str()
            .unwrap()
            .contains("Remaining steps:\n1. Config loader\n2. A regression test")
    );
    twin.emit(
        "turn_end",
        json!({"message": assistant("Done with it [DONE:1]")}),
    )
    .await;
    let widget = twin.calls("setWidget").last().unwrap().clone();
    let lines: Vec<String> = widget["widgetLines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| plain(l.as_str().unwrap()))
        .collect();
    assert_eq!(
        lines,
        ["☑ Config loader", "☐ A regression test for defaults"]
    );
    twin.emit("turn_end", json!({"message": assistant("[done:2]")}))
        .await;
    twin.emit("agent_end", json!({"messages": []})).await;
    let actions = twin.actions();
    assert!(actions.iter().any(|a| matches!(a, ExtensionAction::SendMessage { custom_type, .. } if custom_type == "plan-complete")), "{actions:?}");
    twin.command("todos", "").await;
    assert_eq!(
        twin.notes().last().unwrap(),
        "No todos. Create a plan first with /plan"
    );
}

#[tokio::test]
async fn plan_mode_hides_old_plan_instructions_outside_plan_mode() {
    let twin = Twin::start("plan-mode/init.lua", vec![]).await;
    let messages = json!([
        {"role": "custom", "customType": "plan-mode-context", "content": "[PLAN MODE ACTIVE] ..."},
        user("[PLAN MODE ACTIVE] old"),
        user("keep me"),
    ]);
    let out = twin.emit("context", json!({"messages": messages})).await;
    assert_eq!(out[0]["messages"], json!([user("keep me")]));
}

// ---------------------------------------------------------------------------
// ssh: a stand-in `ssh` on PATH runs the remote command locally.

#[test]
fn ssh_runs_every_tool_on_the_remote() {
    let mut cli = Cli::new();
    let root = cli.sandbox.root.path().to_path_buf();
    let remote = root.join("remote");
    std::fs::create_dir_all(&remote).unwrap();
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = root.join("ssh.log");
    std::fs::write(
        bin.join("ssh"),
        format!(
            "#!/bin/sh\necho \"$1\" >> {}\nshift\nexec bash -c \"$1\"\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("ssh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    cli.sandbox.env.push(("PATH".into(), path));
    cli.tool_call(
        "write",
        json!({"path": "notes/a.txt", "content": "hello remote\nline 2\n"}),
    );
    cli.tool_call(
        "edit",
        json!({"path": "notes/a.txt", "oldText": "hello", "newText": "bye"}),
    );
    cli.tool_call("read", json!({"path": "notes/a.txt"}));
    cli.tool_call("bash", json!({"command": "ls notes && pwd"}));
    cli.text("done");
    let target = format!("dev@box:{}", remote.display());
    cli.ok(&["ssh.lua"], &["--ssh", &target, "-p", "work remotely"]);
    assert_eq!(
        std::fs::read_to_string(remote.join("notes/a.txt")).unwrap(),
        "bye remote\nline 2\n"
    );
    assert!(!cli.sandbox.project.join("notes").exists());
    assert_eq!(
        cli.tool_result(1),
        "Successfully wrote 20 bytes to notes/a.txt"
    );
    assert_eq!(
        cli.tool_result(2),
        "Successfully replaced 1 block(s) in notes/a.txt."
    );
    assert_eq!(cli.tool_result(3), "bye remote\nline 2");
    assert_eq!(cli.tool_result(4), format!("a.txt\n{}\n", remote.display()));
    assert!(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .all(|l| l == "dev@box")
    );
    let prompt = cli.system_prompt(0);
    assert!(
        prompt.contains(&format!(
            "Current working directory: {} (via SSH: dev@box)",
            remote.display()
        )),
        "{prompt}"
    );
}

#[test]
fn ssh_leaves_the_built_in_tools_alone_without_the_flag() {
    let cli = Cli::new();
    cli.tool_call("read", json!({"path": "hello.txt"}))
        .text("ok");
    cli.ok(&["ssh.lua"], &["-p", "read"]);
    assert_eq!(cli.tool_result(1), "hello world\n");
}

#[tokio::test]
async fn overlay_test_draws_aligned_rows_and_reports_the_typed_query() {
    let twin = Twin::start("overlay-test.lua", vec![]).await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("overlay-test", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert!(twin.store.lock().customs[0].overlay.is_some());
    assert!(lines[1].starts_with("│ 🧪 Overlay Test"), "{lines:?}");
    assert!(
        lines
            .iter()
            .skip(1)
            .take(lines.len() - 2)
            .all(|l| l.ends_with('│')),
        "{lines:?}"
    );
    assert_eq!(lines[9].trim_end_matches('│').trim_end(), "│ ▶ Search:");
    twin.keys(id, &["h", "i", "left", "X", "enter"]);
    run.await.unwrap().unwrap();
    assert_eq!(twin.notes(), ["Search: \"hXi\""]);
}

// ---------------------------------------------------------------------------
// subagent: agents are pi processes talking to the same mock server.

fn subagent_cli() -> Cli {
    let cli = Cli::new();
    let agents = cli.sandbox.agent_dir.join("agents");
    std::fs::create_dir_all(&agents).unwrap();
    std::fs::write(
        agents.join("finder.md"),
        "---\nname: finder\ndescription: Looks things up\ntools: read, ls\nmodel: mock/mock-model\n---\n\nYou are the finder agent.\n",
    )
    .unwrap();
    cli
}

fn text_of(request: &Value) -> String {
    let user = request["messages"]
        .as_array()
        .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
        .cloned()
        .unwrap_or_default();
    match &user["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[test]
fn subagent_runs_one_agent_in_its_own_process() {
    let cli = subagent_cli();
    cli.tool_call(
        "subagent",
        json!({"agent": "finder", "task": "find the config"}),
    );
    cli.text("It is in config/app.toml.");
    cli.text("done");
    cli.ok(&["subagent"], &["-p", "delegate"]);
    let sub = cli.request(1);
    assert_eq!(text_of(&sub), "Task: find the config");
    assert!(cli.system_prompt(1).contains("You are the finder agent."));
    assert_eq!(cli.tools(1), ["read", "ls"]);
    assert_eq!(cli.tool_result(2), "It is in config/app.toml.");
}

#[test]
fn subagent_chains_outputs_through_previous() {
    let cli = subagent_cli();
    cli.tool_call(
        "subagent",
        json!({"chain": [{"agent": "finder", "task": "list modules"}, {"agent": "finder", "task": "plan from {previous}"}]}),
    );
    cli.text("alpha, beta");
    cli.text("Plan: touch alpha");
    cli.text("done");
    cli.ok(&["subagent"], &["-p", "delegate"]);
    assert_eq!(text_of(&cli.request(2)), "Task: plan from alpha, beta");
    assert_eq!(cli.tool_result(3), "Plan: touch alpha");
}

#[test]
fn subagent_runs_tasks_in_parallel_and_sums_them_up() {
    let cli = subagent_cli();
    cli.tool_call(
        "subagent",
        json!({"tasks": [{"agent": "finder", "task": "one"}, {"agent": "finder", "task": "two"}, {"agent": "nobody", "task": "three"}]}),
    );
    cli.server.set_handler(|request| {
        let body = request.json();
        let task = text_of(body);
        if let Some(task) = task.strip_prefix("Task: ") {
            support::MockReply::openai_text(&format!("did {task}"))
        } else {
            support::MockReply::openai_text("all done")
        }
    });
    cli.ok(&["subagent"], &["-p", "fan out"]);
    let result = cli.tool_result(3);
    assert!(result.starts_with("Parallel: 2/3 succeeded\n\n[finder] completed: did one\n\n[finder] completed: did two\n\n[nobody] failed: (no output)"), "{result}");
}

#[test]
fn subagent_reports_unknown_agents_and_bad_parameters() {
    let cli = subagent_cli();
    cli.tool_call("subagent", json!({"agent": "ghost", "task": "boo"}));
    cli.tool_call("subagent", json!({"task": "no agent"}));
    cli.text("ok");
    cli.ok(&["subagent"], &["-p", "delegate"]);
    assert_eq!(
        cli.tool_result(1),
        "Agent failed: Unknown agent: \"ghost\". Available agents: \"finder\"."
    );
    assert_eq!(
        cli.tool_result(2),
        "Invalid parameters. Provide exactly one mode.\nAvailable agents: finder (user)"
    );
}

// ---------------------------------------------------------------------------
// tic-tac-toe.

#[test]
fn tic_tac_toe_runs_a_burst_of_moves_in_order() {
    let cli = Cli::new();
    cli.server.push(support::MockReply::openai_tool_calls(&[
        ("c1", "tic_tac_toe", json!({"action": "move_down"})),
        ("c2", "tic_tac_toe", json!({"action": "move_right"})),
        ("c3", "tic_tac_toe_see_board", json!({})),
        ("c4", "tic_tac_toe", json!({"action": "play"})),
    ]));
    cli.text("waiting for X");
    cli.ok(&["tic-tac-toe.lua"], &["-p", "your move"]);
    let request = cli.request(1);
    let results: Vec<String> = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| {
            m["content"]
                .as_str()
                .map(String::from)
                .unwrap_or_else(|| m["content"].to_string())
        })
        .collect();
    assert!(
        results[0].contains("Moved down. Cursor: (1, 0)"),
        "{results:?}"
    );
    assert!(
        results[1].contains("Moved right. Cursor: (1, 1)"),
        "{results:?}"
    );
    assert!(
        results[2].contains("<[1,1]>") && results[2].contains("Your cursor: (row=1, col=1)"),
        "{results:?}"
    );
    assert!(results[3].contains("It is not your turn."), "{results:?}");
}

#[tokio::test]
async fn tic_tac_toe_board_takes_the_users_move_and_shows_the_reply() {
    let twin = Twin::start("tic-tac-toe.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("tic-tac-toe", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert!(lines[0].contains(" Tic-Tac-Toe "), "{lines:?}");
    assert!(lines[2].contains("Turn: X (You)"), "{lines:?}");
    twin.keys(id, &["enter"]);
    twin.until("X in the centre", |s| {
        s.customs
            .first()?
            .lines
            .iter()
            .any(|l| plain(l).contains("│   ╳   │"))
            .then_some(())
    })
    .await;
    let actions = twin.actions();
    assert!(actions.contains(&ExtensionAction::SetSessionName("Tic-Tac-Toe".into())));
    let sent = actions.iter().find_map(|a| match a {
        ExtensionAction::SendMessage {
            custom_type,
            content,
            trigger_turn: true,
            ..
        } if custom_type == "tic-tac-toe-move" => content.as_str().map(String::from),
        _ => None,
    });
    assert!(
        sent.unwrap()
            .starts_with("Player X played at (row=1, col=1). It is now Player O's turn.")
    );
    let out = twin
        .emit(
            "before_agent_start",
            json!({"prompt": "", "systemPrompt": "S"}),
        )
        .await;
    assert!(
        out[0]["systemPrompt"]
            .as_str()
            .unwrap()
            .contains("## Tic-Tac-Toe (you are Player O)")
    );
    let played = twin
        .tool("tic_tac_toe", json!({"action": "play"}))
        .await
        .unwrap();
    assert_eq!(
        played["content"][0]["text"],
        "Placed O at (0,0). Cursor reset to (0,0). Your turn, X!"
    );
    twin.until("O in the corner", |s| {
        s.customs
            .first()?
            .lines
            .iter()
            .any(|l| plain(l).contains("│   ◯   │"))
            .then_some(())
    })
    .await;
    assert_eq!(
        twin.tool("tic_tac_toe", json!({"action": "play"}))
            .await
            .unwrap_err(),
        "It is not your turn."
    );
    twin.keys(id, &["escape"]);
    run.await.unwrap().unwrap();
}

// ---------------------------------------------------------------------------
// space-invaders.

fn ship_column(lines: &[String]) -> Option<usize> {
    let row = lines.get(25)?;
    row.chars().position(|c| c == '▲')
}

#[tokio::test]
async fn space_invaders_moves_the_ship_and_saves_on_pause() {
    let twin = Twin::start("space-invaders.lua", vec![]).await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("invaders", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert!(
        lines.len() > 1 && lines[1].contains("SPACE INVADERS") && lines[1].contains("Score: 0"),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 30);
    let start = ship_column(&lines).expect("the ship");
    assert!(
        lines[3..].iter().any(|l| l.contains("╲▼╱")),
        "aliens are drawn"
    );
    twin.keys(id, &["left"]);
    twin.until("ship moved left", |s| {
        let lines: Vec<String> = s.customs.first()?.lines.iter().map(|l| plain(l)).collect();
        (ship_column(&lines)? + 1 == start).then_some(())
    })
    .await;
    twin.keys(id, &["escape"]);
    run.await.unwrap().unwrap();
    let saved = twin.actions().into_iter().find_map(|a| match a {
        ExtensionAction::AppendEntry { custom_type, data }
            if custom_type == "space-invaders-save" =>
        {
            data
        }
        _ => None,
    });
    let saved = saved.expect("the game is saved");
    assert_eq!(saved["aliens"].as_array().unwrap().len(), 55);
    assert_eq!(saved["player"]["lives"], 3);
}

#[tokio::test]
async fn space_invaders_needs_a_ui() {
    let dir = tempfile::tempdir().unwrap();
    let twin = Twin::headless("space-invaders.lua", dir.path()).await;
    twin.view.lock().capture_messages = true;
    twin.command("invaders", "").await;
    assert_eq!(
        twin.view.take_messages(),
        ["Error: Space Invaders requires interactive mode"]
    );
}

// ---------------------------------------------------------------------------
// built-in-tool-renderer.

#[test]
fn built_in_tool_renderer_tools_still_read_write_edit_and_run() {
    let cli = Cli::new();
    cli.tool_call(
        "write",
        json!({"path": "src/a.txt", "content": "one\ntwo\nthree\n"}),
    );
    cli.tool_call("edit", json!({"path": "src/a.txt", "edits": [{"oldText": "two", "newText": "2"}, {"oldText": "three", "newText": "3"}]}));
    cli.tool_call(
        "edit",
        json!({"path": "src/a.txt", "oldText": "one", "newText": "1"}),
    );
    cli.tool_call(
        "edit",
        json!({"path": "src/a.txt", "edits": [{"oldText": "missing", "newText": "x"}]}),
    );
    cli.tool_call(
        "read",
        json!({"path": "src/a.txt", "offset": 2, "limit": 1}),
    );
    cli.tool_call("bash", json!({"command": "echo out; exit 4"}));
    cli.text("done");
    cli.ok(&["built-in-tool-renderer.lua"], &["-p", "work"]);
    assert_eq!(
        std::fs::read_to_string(cli.sandbox.project.join("src/a.txt")).unwrap(),
        "1\n2\n3\n"
    );
    assert_eq!(
        cli.tool_result(1),
        "Successfully wrote 14 bytes to src/a.txt"
    );
    assert_eq!(
        cli.tool_result(2),
        "Successfully replaced 2 block(s) in src/a.txt."
    );
    assert_eq!(
        cli.tool_result(3),
        "Successfully replaced 1 block(s) in src/a.txt."
    );
    assert!(
        cli.tool_result(4)
            .starts_with("Could not find edits[0] in src/a.txt."),
        "{}",
        cli.tool_result(4)
    );
    assert_eq!(
        cli.tool_result(5),
        "2\n\n[1 more lines in file. Use offset=3 to continue.]"
    );
    assert_eq!(cli.tool_result(6), "out\n\nCommand exited with code 4");
}

#[tokio::test]
async fn built_in_tool_renderer_draws_compact_rows() {
    let twin = Twin::start("built-in-tool-renderer.lua", vec![]).await;
    let jobs = [
        (
            "c1",
            "read",
            json!({"path": "a.rs", "offset": 3}),
            json!({"content": [{"type": "text", "text": "x\ny\nz"}], "details": {}}),
        ),
        (
            "c2",
            "bash",
            json!({"command": "make test"}),
            json!({"content": [{"type": "text", "text": "ok\n\nall good"}], "details": {}}),
        ),
        (
            "c3",
            "edit",
            json!({"path": "a.rs"}),
            json!({"content": [{"type": "text", "text": "Successfully replaced 1 block(s) in a.rs."}],
            "details": {"diff": "@@ line 1 @@\n-old\n+new\n+more"}}),
        ),
        (
            "c4",
            "write",
            json!({"path": "b.rs", "content": "a\nb"}),
            json!({"content": [{"type": "text", "text": "Successfully wrote 3 bytes to b.rs"}], "details": {}}),
        ),
    ];
    for (id, name, args, result) in jobs {
        twin.store
            .lock()
            .tool_jobs
            .push_back(pi::lua::tool_render::ToolRenderJob {
                call_id: id.into(),
                name: name.into(),
                args,
                result: Some(result),
                expanded: false,
                partial: false,
            });
    }
    twin.store.wake_host();
    let rows = twin
        .until("four rows", |s| {
            (s.tool_lines.len() == 4).then(|| s.tool_lines.clone())
        })
        .await;
    let shown: Vec<(String, String)> = rows
        .iter()
        .map(|(_, l)| {
            (
                plain(&l.call.as_ref().unwrap()[0]).trim_end().to_string(),
                plain(&l.result.as_ref().unwrap()[0]).trim_end().to_string(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("read a.rs (offset=3)".to_string(), "3 lines".to_string()),
            ("$ make test".to_string(), "done (2 lines)".to_string()),
            ("edit a.rs".to_string(), "+2 / -1".to_string()),
            ("write b.rs (2 lines)".to_string(), "Written".to_string()),
        ]
    );
    assert!(rows[2].1.self_shell);
}

// ---------------------------------------------------------------------------
// minimal-mode.

#[test]
fn minimal_mode_tools_find_grep_list_and_edit() {
    let cli = Cli::new();
    cli.write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
    cli.write("src/lib.rs", "pub fn lib() {}\n");
    cli.write("notes.md", "todo\n");
    cli.tool_call("find", json!({"pattern": "*.rs"}));
    cli.tool_call("grep", json!({"pattern": "fn [a-z]+", "path": "src"}));
    cli.tool_call("ls", json!({}));
    cli.tool_call(
        "edit",
        json!({"path": "notes.md", "edits": [{"oldText": "todo", "newText": "done"}]}),
    );
    cli.text("ok");
    cli.ok(&["minimal-mode"], &["-p", "look"]);
    assert_eq!(cli.tool_result(1), "src/lib.rs\nsrc/main.rs");
    let grep = cli.tool_result(2);
    assert!(
        grep.contains("src/main.rs:1:fn main() {") && grep.contains("src/lib.rs:1:pub fn lib() {}"),
        "{grep}"
    );
    assert_eq!(cli.tool_result(3), "hello.txt\nnotes.md\nsrc/");
    assert_eq!(
        std::fs::read_to_string(cli.sandbox.project.join("notes.md")).unwrap(),
        "done\n"
    );
    let tools = cli.tools(0);
    for name in ["read", "bash", "edit", "write", "find", "grep", "ls"] {
        assert!(tools.contains(&name.to_string()), "{tools:?}");
    }
}

#[tokio::test]
async fn minimal_mode_hides_output_until_expanded() {
    let twin = Twin::start("minimal-mode/init.lua", vec![]).await;
    let result = json!({"content": [{"type": "text", "text": "a.rs\nb.rs\nc.rs"}], "details": {}});
    for (id, name, args, expanded) in [
        ("c1", "bash", json!({"command": "ls", "timeout": 5}), false),
        ("c2", "find", json!({"pattern": "*.rs"}), false),
        ("c3", "find", json!({"pattern": "*.rs"}), true),
        (
            "c4",
            "read",
            json!({"path": "a.rs", "offset": 2, "limit": 3}),
            false,
        ),
    ] {
        twin.store
            .lock()
            .tool_jobs
            .push_back(pi::lua::tool_render::ToolRenderJob {
                call_id: id.into(),
                name: name.into(),
                args,
                result: Some(result.clone()),
                expanded,
                partial: false,
            });
    }
    twin.store.wake_host();
    let rows = twin
        .until("four rows", |s| {
            (s.tool_lines.len() == 4).then(|| s.tool_lines.clone())
        })
        .await;
    let text = |i: usize| -> (String, Vec<String>) {
        let l = &rows[i].1;
        (
            plain(&l.call.as_ref().unwrap()[0]).trim_end().to_string(),
            l.result
                .as_ref()
                .map(|r| r.iter().map(|x| plain(x).trim_end().to_string()).collect())
                .unwrap_or_default(),
        )
    };
    assert_eq!(text(0).0, "$ ls (timeout 5s)");
    assert!(text(0).1.iter().all(|l| l.is_empty()), "{:?}", text(0).1);
    assert_eq!(text(1).0, "find *.rs in .");
    assert_eq!(text(1).1, [" → 3 files"]);
    assert_eq!(text(2).1, ["", "a.rs", "b.rs", "c.rs"]);
    assert_eq!(text(3).0, "read a.rs:2-4");
}
