//! Commands and chrome, driven in-process.

use super::*;

// Commands and chrome, driven in-process. (widget-placement, system-prompt-header,
// session-name, event-bus and hidden-thinking-label are tested by their `*_test.lua` files
// with `pi test`.)

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
    assert!(twin.actions().iter().any(|a| matches!(
        a,
        ExtensionAction::Compact { instructions: Some(i), callback: Some(_) }
            if i == "keep the todo list"
    )));
    for tokens in [90_000, 99_000, 120_000, 130_000] {
        twin.view.lock().context_usage =
            json!({"tokens": tokens, "contextWindow": 200000, "percent": 50});
        twin.emit("turn_end", json!({})).await;
    }
    assert!(
        matches!(
            twin.actions().as_slice(),
            [ExtensionAction::Compact {
                instructions: None,
                callback: Some(_)
            }]
        ),
        "only crossing the line compacts"
    );
    assert_eq!(
        twin.notes(),
        ["Compaction started", "Compaction started"],
        "completion is told by onComplete, which runs once pi has compacted"
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
    use pi::checkpoint::{CheckpointKind, CheckpointStore};
    let dir = repo();
    let sessions = dir.path().join(".sessions");
    // pi's own checkpoint of a run that changed hello.txt, made for message e1.
    let mut store = CheckpointStore::open(&sessions, "s1", dir.path(), Default::default());
    store.begin_run(CheckpointKind::Prompt, Some("e1".into()));
    store.before_write(&dir.path().join("hello.txt")).unwrap();
    std::fs::write(dir.path().join("hello.txt"), "changed by the agent\n").unwrap();
    store.finish_run().unwrap().expect("a checkpoint");
    let view = pi::lua::SharedView::new(dir.path());
    view.lock().entries = vec![entry("e1", None, user("edit it"))];
    view.lock().leaf_id = Some("e1".into());
    view.lock().session_file = Some(sessions.join("s1.jsonl").display().to_string());
    view.lock().header = json!({"id": "s1"});
    let twin = Twin::with_view(
        "git-checkpoint.lua",
        vec![json!({"value": "Yes, restore code to that point"})],
        view,
    )
    .await;
    twin.emit(
        "checkpoint",
        json!({"id": "x", "entryId": "e1", "files": ["hello.txt"], "pruned": 0}),
    )
    .await;
    // Forking from a message without a checkpoint asks nothing.
    twin.emit("session_before_fork", json!({"entryId": "other"}))
        .await;
    assert!(twin.calls("select").is_empty());
    twin.emit("session_before_fork", json!({"entryId": "e1"}))
        .await;
    assert_eq!(
        std::fs::read_to_string(dir.path().join("hello.txt")).unwrap(),
        "hello\n"
    );
    assert_eq!(
        twin.notes(),
        ["Code restored to checkpoint (1 file(s), 0 kept)"]
    );
    // The git repository was not used: nothing staged, no stash.
    let stash = std::process::Command::new("git")
        .args(["stash", "list"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(stash.stdout.is_empty());
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
