//! system-select and cross-agent: agent definitions and other tools'
//! commands, from a session with the faux provider, a scripted UI, and the
//! terminal UI.

use super::*;

const REVIEWER: &str = "---\nname: reviewer\ndescription: Reviews code\ntools: read, Grep\n---\nYou review code. Be terse.\n";
const BUILDER: &str = "---\nname: builder\ndescription: Builds things\ntools:\n  - Read\n  - Write\n  - Bash\n---\n# Builder\nYou implement changes.\n";

#[tokio::test]
async fn system_select_switches_prompt_and_tools_and_switches_back() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".pi/agents/reviewer.md", REVIEWER);
    write(dir.path(), ".claude/agents/builder.md", BUILDER);
    write(
        dir.path(),
        ".claude/agents/reviewer.md",
        "---\nname: reviewer\n---\nshadowed\n",
    );
    let host = HostConfig::new(vec![playground("system-select.lua")], dir.path());
    let (mut agent, faux) = lua_agent::session_with_tools(
        host,
        SessionManager::in_memory(dir.path()),
        &["read", "bash", "edit", "write"],
    )
    .await;
    let signal = CancellationToken::new();

    agent
        .run_extension_command("system", "builder", &signal)
        .await
        .unwrap();
    faux.push_message(faux_message(vec![faux_text("ok")]));
    agent.prompt("hi".into(), Vec::new(), &signal).await;
    let ctx = faux.last_context().unwrap();
    let prompt = ctx.system_prompt.clone().unwrap();
    assert!(prompt.starts_with("sys"), "{prompt}");
    assert!(
        prompt.ends_with("# Agent: builder\n\n# Builder\nYou implement changes."),
        "{prompt}"
    );
    let mut tools = lua_agent::tool_names(&faux);
    tools.sort();
    assert_eq!(tools, ["bash", "read", "write"]);

    agent
        .run_extension_command("system", "reviewer", &signal)
        .await
        .unwrap();
    faux.push_message(faux_message(vec![faux_text("ok")]));
    agent.prompt("again".into(), Vec::new(), &signal).await;
    let prompt = faux.last_context().unwrap().system_prompt.clone().unwrap();
    assert!(prompt.ends_with("You review code. Be terse."), "{prompt}");
    assert!(
        !prompt.contains("shadowed") && !prompt.contains("Builder"),
        "{prompt}"
    );
    assert_eq!(lua_agent::tool_names(&faux), ["read"]);

    agent
        .run_extension_command("system", "default", &signal)
        .await
        .unwrap();
    faux.push_message(faux_message(vec![faux_text("ok")]));
    agent.prompt("plain".into(), Vec::new(), &signal).await;
    assert_eq!(
        faux.last_context().unwrap().system_prompt.as_deref(),
        Some("sys")
    );
    let mut tools = lua_agent::tool_names(&faux);
    tools.sort();
    assert_eq!(tools, ["bash", "edit", "read", "write"]);
}

#[tokio::test]
async fn system_select_offers_every_agent_in_a_dialog_and_shows_the_choice() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".pi/agents/reviewer.md", REVIEWER);
    write(dir.path(), ".gemini/agents/builder.md", BUILDER);
    let ui = FakeUi::new(vec![
        json!({"value": "reviewer — Reviews code [.pi/agents]"}),
    ]);
    let (handle, view) = start("system-select.lua", dir.path(), Some(ui.clone())).await;
    view.lock().all_tools = ["read", "grep", "bash"]
        .iter()
        .map(|n| json!({"name": n, "description": "", "parameters": {}}))
        .collect();
    view.lock().active_tools = vec!["read".into(), "bash".into()];
    handle.run_command("system", "").await.unwrap();
    let select = &ui.calls("select")[0];
    let options: Vec<&str> = select["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    assert_eq!(options[0], "default (pi's own prompt and tools)");
    assert_eq!(options[1], "reviewer — Reviews code [.pi/agents]");
    assert_eq!(options[2], "builder — Builds things [.gemini/agents]");
    assert!(
        view.take_actions()
            .contains(&ExtensionAction::SetActiveTools(vec![
                "read".into(),
                "grep".into()
            ]))
    );
    let status = ui.calls("setStatus").pop().unwrap();
    assert_eq!(status["statusText"], "agent: reviewer");

    handle.run_command("system", "nobody").await.unwrap();
    let error = notes(&ui).pop().unwrap();
    assert!(
        error.contains("No agent named \"nobody\"") && error.contains("reviewer, builder"),
        "{error}"
    );
    assert_eq!(
        handle.complete_command("system", "bu").await,
        vec![json!("builder")]
    );

    // After /reload the agent is still on, and "default" restores the tools
    // that were active before the first switch.
    assert!(handle.reload().await.errors.is_empty());
    let event = json!({"type": "before_agent_start", "prompt": "hi", "systemPrompt": "base"});
    let out = handle.emit("before_agent_start", event).await;
    assert_eq!(
        out.event["systemPrompt"],
        "base\n\n# Agent: reviewer\n\nYou review code. Be terse."
    );
    view.take_actions();
    handle.run_command("system", "default").await.unwrap();
    assert!(
        view.take_actions()
            .contains(&ExtensionAction::SetActiveTools(vec![
                "read".into(),
                "bash".into()
            ]))
    );
    let out = handle
        .emit(
            "before_agent_start",
            json!({"type": "before_agent_start", "systemPrompt": "base"}),
        )
        .await;
    assert_eq!(out.event["systemPrompt"], "base");
}

#[tokio::test]
async fn cross_agent_registers_other_tools_commands_and_expands_arguments() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".claude/commands/review.md",
        "---\ndescription: Review a file\nargument-hint: <file> [mode]\n---\nReview $ARGUMENTS carefully. Start with $1, mode $2.\n",
    );
    write(
        dir.path(),
        ".claude/commands/prime.md",
        "---\ndescription: Load the project context\n---\nRead the README and summarise it.\n",
    );
    write(
        dir.path(),
        ".claude/commands/git/commit.md",
        "Write a commit message for the staged diff.\n",
    );
    write(
        dir.path(),
        ".gemini/commands/explain.toml",
        "description = \"Explain code\"\nprompt = \"\"\"\nExplain {{args}} to a newcomer.\n\"\"\"\n",
    );
    write(
        dir.path(),
        ".codex/prompts/plan.md",
        "# Plan\nMake a plan.\n",
    );
    write(
        dir.path(),
        ".claude/skills/pdf/SKILL.md",
        "---\nname: pdf-tools\ndescription: PDFs\n---\nbody\n",
    );
    write(
        dir.path(),
        ".claude/agents/scout.md",
        "---\nname: scout\n---\nLook around.\n",
    );
    write(
        dir.path(),
        ".pi/agents/planner.md",
        "---\nname: planner\n---\nPlan.\n",
    );
    let ui = FakeUi::new(vec![]);
    let (handle, view) = start("cross-agent.lua", dir.path(), Some(ui.clone())).await;

    let commands = handle.commands().await;
    let find = |name: &str| {
        commands
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no /{name}"))
    };
    assert_eq!(
        find("claude:review").description.as_deref(),
        Some("[.claude] Review a file <file> [mode]")
    );
    assert_eq!(
        find("claude:git:commit").description.as_deref(),
        Some("[.claude] Write a commit message for the staged diff.")
    );
    assert_eq!(
        find("gemini:explain").description.as_deref(),
        Some("[.gemini] Explain code")
    );
    assert_eq!(
        find("codex:plan").description.as_deref(),
        Some("[.codex] Plan")
    );

    // The seed's names: the file name itself, as in the tool the file comes from.
    assert_eq!(
        find("prime").description.as_deref(),
        Some("[.claude] Load the project context")
    );
    assert!(commands.iter().any(|c| c.name == "claude:prime"));
    assert!(commands.iter().any(|c| c.name == "review"));
    handle.run_command("prime", "").await.unwrap();
    assert_eq!(user_messages(&view), ["Read the README and summarise it."]);
    handle
        .run_command("claude:review", "src/lib.rs strict")
        .await
        .unwrap();
    handle
        .run_command("gemini:explain", "the parser")
        .await
        .unwrap();
    handle
        .run_command("codex:plan", "for the release")
        .await
        .unwrap();
    assert_eq!(
        user_messages(&view),
        [
            "Review src/lib.rs strict carefully. Start with src/lib.rs, mode strict.",
            "Explain the parser to a newcomer.\n",
            "# Plan\nMake a plan.\n\n\nfor the release",
        ]
    );

    let summary = notes(&ui).join("\n");
    for line in [
        "  .claude (3 commands): /git:commit, /prime, /review",
        "  .claude/skills (1 skill): pdf-tools",
        "  .claude/agents (1 agent): @scout",
        "  .gemini (1 command): /explain",
        "  .codex (1 command): /plan",
        "  .pi/agents (1 agent): @planner",
    ] {
        assert!(summary.contains(line), "{line:?} in {summary}");
    }
}

#[test]
fn cross_agent_reads_the_home_folder_and_its_commands_run_in_the_terminal_ui() {
    if !tui_harness::tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("hello back"));
    server.push(MockReply::openai_text("summary done"));
    let mut sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let home = sandbox.root.path().join("home");
    write(
        &home,
        ".claude/commands/greet.md",
        "Say hello to $ARGUMENTS.\n",
    );
    write(
        &sandbox.project,
        ".claude/commands/greet.md",
        "Project greeting for $1.\n",
    );
    write(&home, ".codex/prompts/summary.md", "Summarise the repo.\n");
    sandbox
        .env
        .push(("HOME".into(), home.display().to_string()));
    let ext = playground("cross-agent.lua").display().to_string();
    let args = format!("--model mock/mock-model -e {}", tui_harness::quote(&ext));
    let pi = tui_harness::Session::start(sandbox, &args);
    let wait = Duration::from_secs(30);
    let screen = pi
        .tmux
        .wait_for("the summary", wait, |s| s.contains("(1 command): /summary"));
    assert!(screen.contains(".claude (1 command): /greet"), "{screen}");
    assert!(
        screen.contains("~/.codex (1 command): /summary"),
        "{screen}"
    );

    pi.send("/greet Ada");
    pi.tmux
        .wait_for("the first answer", wait, |s| s.contains("hello back"));
    let body = String::from_utf8_lossy(&server.requests()[0].body).into_owned();
    assert!(body.contains("Project greeting for Ada."), "{body}");
    assert!(
        !body.contains("Say hello"),
        "the project command wins: {body}"
    );

    pi.send("/summary");
    pi.tmux
        .wait_for("the second answer", wait, |s| s.contains("summary done"));
    let body = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(body.contains("Summarise the repo."), "{body}");
    pi.quit_and_check_terminal();
}

#[tokio::test]
async fn a_users_agent_file_shows_in_system_and_in_the_teams_that_name_it() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".pi/agents/foo.md",
        "---\nname: foo\ndescription: \"Does foo: things\"\ntools: [read, bash]\n---\nYou are foo.\n",
    );
    write(
        dir.path(),
        ".pi/agents/teams.yaml",
        "mine:\n  - foo\n  - scout\n",
    );
    let ui = FakeUi::new(vec![json!({"cancelled": true})]);
    let (handle, _) = start("system-select.lua", dir.path(), Some(ui.clone())).await;
    handle.run_command("system", "").await.unwrap();
    let options = ui.calls("select")[0]["options"].clone();
    let options: Vec<String> = options
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap().to_string())
        .collect();
    assert_eq!(options[1], "foo — Does foo: things [.pi/agents]");
    // The bundled agents are offered too.
    for bundled in [
        "scout",
        "planner",
        "plan-reviewer",
        "builder",
        "reviewer",
        "red-team",
        "documenter",
        "bowser",
    ] {
        assert!(
            options
                .iter()
                .any(|o| o.starts_with(&format!("{bundled} — ")) && o.ends_with("[bundled]")),
            "{bundled} in {options:?}"
        );
    }

    let ui = FakeUi::new(vec![]);
    let (team, _) = start("agent-team.lua", dir.path(), Some(ui.clone())).await;
    let out = team
        .emit(
            "before_agent_start",
            json!({"type": "before_agent_start", "systemPrompt": "base"}),
        )
        .await;
    let prompt = out.event["systemPrompt"].as_str().unwrap();
    assert!(prompt.contains("## Active team: mine"), "{prompt}");
    assert!(
        prompt.contains("Dispatch as: `foo`\nDoes foo: things\nTools: read,bash"),
        "{prompt}"
    );
    assert!(
        prompt.contains("Dispatch as: `scout`"),
        "a bundled agent on the user's team: {prompt}"
    );
    assert!(!prompt.contains("`builder`"), "{prompt}");
}
