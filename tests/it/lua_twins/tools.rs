//! Tools the mock model calls.

use super::*;

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
    // The built-in bash tool's own status line.
    assert_eq!(cli.tool_result(1), "oops\n\n\nCommand exited with code 3");
}

#[test]
fn dynamic_tools_registers_echo_session_at_start_and_more_by_command() {
    let cli = Cli::new();
    cli.tool_call("echo_session", json!({"message": "hi there"}))
        .text("ok");
    cli.ok(&["dynamic-tools.lua"], &["-p", "echo"]);
    assert!(cli.tools(0).contains(&"echo_session".to_string()));
    assert_eq!(cli.tool_result(1), "[session] hi there");
    let system = cli.system_prompt(0);
    assert!(
        system.contains("Echo back user-provided text with [session] prefix"),
        "a tool registered at session_start brings its prompt snippet: {system}"
    );
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
    twin.command("quit", "").await;
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
        .push_back(pi::lua::ui::tool_render::ToolRenderJob {
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

// structured-output: a terminating tool result ends the run without another model call.

#[test]
fn structured_output_ends_the_run_on_its_tool_call() {
    let cli = Cli::new();
    cli.tool_call(
        "structured_output",
        json!({"headline": "Release", "summary": "All green.", "actionItems": ["tag", "publish"]}),
    );
    let (_, stderr) = cli.ok(
        &["structured-output.lua"],
        &["-p", "summarize as structured output"],
    );
    assert_eq!(
        cli.server.request_count(),
        1,
        "no follow-up model call: {stderr}"
    );
    let entries = cli.session_entries();
    let result = entries
        .iter()
        .find(|e| e["message"]["role"] == "toolResult")
        .expect("the tool result is in the session");
    assert_eq!(
        result["message"]["content"][0]["text"],
        "Saved structured output: Release"
    );
    assert_eq!(
        result["message"]["details"]["actionItems"],
        json!(["tag", "publish"])
    );
}

#[test]
fn a_terminating_result_next_to_an_ordinary_one_does_not_end_the_run() {
    let cli = Cli::new();
    cli.server.push(support::MockReply::openai_tool_calls(&[
        (
            "call_a",
            "structured_output",
            json!({"headline": "H", "summary": "S", "actionItems": []}),
        ),
        ("call_b", "read", json!({"path": "hello.txt"})),
    ]));
    cli.text("both done");
    let (stdout, _) = cli.ok(&["structured-output.lua"], &["-p", "do both"]);
    assert_eq!(cli.server.request_count(), 2);
    assert_eq!(stdout, "both done\n");
}
