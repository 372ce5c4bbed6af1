//! Plan mode, ssh through a stand-in `ssh`, and subagents as pi processes.

use super::*;

// Plan mode.

/// The tool results of request `index`, in order.
fn tool_results(cli: &Cli, index: usize) -> Vec<String> {
    cli.request(index)["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].to_string())
        .collect()
}

/// Queue calls that try to change the project and one that only reads it.
fn queue_changing_and_reading_calls(cli: &Cli) {
    cli.write("keep.txt", "x");
    cli.server.push(support::MockReply::openai_tool_calls(&[
        ("c1", "bash", json!({"command": "rm keep.txt"})),
        ("c2", "bash", json!({"command": "ls"})),
        ("c3", "bash", json!({"command": "cat keep.txt > copy.txt"})),
        ("c4", "write", json!({"path": "new.txt", "content": "y"})),
    ]));
    cli.text("Plan:\n1. Read the config loader\n2. Add a test for defaults");
}

#[test]
fn plan_mode_flag_runs_the_session_in_the_read_only_sandbox() {
    let cli = Cli::new();
    queue_changing_and_reading_calls(&cli);
    cli.ok(&["plan-mode"], &["--plan", "-p", "look around"]);
    // Every tool stays available: the sandbox, not a tool list, keeps files unchanged.
    assert!(
        cli.tools(0).contains(&"write".to_string()),
        "{:?}",
        cli.tools(0)
    );
    assert!(cli.body(0).contains("[PLAN MODE ACTIVE]"));
    assert!(cli.body(0).contains("read-only sandbox"));
    let project = &cli.sandbox.project;
    assert!(project.join("keep.txt").exists());
    assert!(!project.join("copy.txt").exists());
    assert!(!project.join("new.txt").exists());
    let results = tool_results(&cli, 1);
    assert!(
        results[1].contains("keep.txt") && !results[1].contains("read-only"),
        "{results:?}"
    );
    for refused in [&results[0], &results[2], &results[3]] {
        assert!(!refused.contains("not allowlisted"), "{results:?}");
    }
    assert!(results[3].contains("read-only"), "{results:?}");
}

#[test]
fn plan_mode_falls_back_to_read_only_tools_where_the_kernel_cannot_confine() {
    let mut cli = Cli::new();
    cli.sandbox
        .env
        .push(("PI_SANDBOX_SIMULATE_MISSING".into(), "landlock".into()));
    queue_changing_and_reading_calls(&cli);
    cli.ok(&["plan-mode"], &["--plan", "-p", "look around"]);
    assert_eq!(cli.tools(0), ["read", "bash", "grep", "find", "ls"]);
    assert!(cli.body(0).contains("allowlist of read-only commands"));
    assert!(cli.sandbox.project.join("keep.txt").exists());
    assert!(!cli.sandbox.project.join("copy.txt").exists());
    let results = tool_results(&cli, 1);
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
        [ExtensionAction::SetSandbox(
            pi::sandbox::SandboxMode::ReadOnly
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
    cli.tool_call("read", json!({"path": "notes/a.txt", "limit": 1}));
    cli.tool_call("bash", json!({"command": "echo oops; exit 3"}));
    cli.tool_call(
        "edit",
        json!({"path": "notes/a.txt", "edits": [{"oldText": "missing", "newText": "x"}]}),
    );
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
    // The built-in tools' own output: the file as it is, their continuation notice,
    // status line and edit matching errors.
    assert_eq!(cli.tool_result(3), "bye remote\nline 2\n");
    assert_eq!(cli.tool_result(4), format!("a.txt\n{}\n", remote.display()));
    assert_eq!(
        cli.tool_result(5),
        "bye remote\n\n[2 more lines in file. Use offset=2 to continue.]"
    );
    assert_eq!(cli.tool_result(6), "oops\n\n\nCommand exited with code 3");
    let missing = cli.tool_result(7);
    assert!(missing.starts_with("Could not find"), "{missing}");
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
