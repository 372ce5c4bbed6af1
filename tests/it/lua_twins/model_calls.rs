//! Twins that ask a model themselves, through a one-shot pi process.

use super::*;

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

// ---------------------------------------------------------------------------
// custom-provider-gitlab-duo: a GitLab token traded for a gateway token, the reply
// streamed by pi's own Anthropic protocol (`stream.forward`), all against the mock server.

#[test]
fn gitlab_duo_trades_the_gitlab_token_and_streams_through_the_gateway() {
    let mut cli = Cli::new();
    let url = cli.server.url();
    cli.server.push(support::MockReply::json(
        200,
        json!({"token": "gateway-1", "headers": {"x-gitlab-instance-id": "inst-7"}}),
    ));
    cli.server
        .push(support::MockReply::anthropic_text("hello from Duo"));
    for (k, v) in [
        ("GITLAB_URL", url.as_str()),
        ("GITLAB_AI_GATEWAY_URL", url.as_str()),
        ("GITLAB_TOKEN", "glpat-abc"),
    ] {
        cli.sandbox.env.push((k.into(), v.into()));
    }
    let (stdout, _) = cli.ok(
        &["custom-provider-gitlab-duo"],
        &[
            "--model",
            "gitlab-duo/claude-sonnet-4-5-20250929",
            "-p",
            "hi",
        ],
    );
    assert_eq!(stdout, "hello from Duo\n");
    let requests = cli.server.requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    assert_eq!(
        requests[0].path,
        "/api/v4/ai/third_party_agents/direct_access"
    );
    assert_eq!(
        requests[0].header("authorization"),
        Some("Bearer glpat-abc")
    );
    assert_eq!(requests[1].path, "/ai/v1/proxy/anthropic/v1/messages");
    assert_eq!(
        requests[1].header("authorization"),
        Some("Bearer gateway-1")
    );
    assert_eq!(requests[1].header("x-gitlab-instance-id"), Some("inst-7"));
    assert_eq!(requests[1].json()["model"], "claude-sonnet-4-5-20250929");
}

#[test]
fn gitlab_duo_refreshes_an_expired_login_before_the_request() {
    let mut cli = Cli::new();
    let url = cli.server.url();
    std::fs::write(
        cli.sandbox.agent_dir.join("auth.json"),
        json!({"gitlab-duo": {"type": "oauth", "access": "old", "refresh": "r-old", "expires": 1000}})
            .to_string(),
    )
    .unwrap();
    cli.server.push(support::MockReply::json(
        200,
        json!({"access_token": "glo-new", "refresh_token": "r-new", "expires_in": 7200, "created_at": 4_000_000_000u64}),
    ));
    cli.server.push(support::MockReply::json(
        200,
        json!({"token": "gateway-2", "headers": {}}),
    ));
    cli.server
        .push(support::MockReply::anthropic_text("refreshed"));
    for (k, v) in [
        ("GITLAB_URL", url.as_str()),
        ("GITLAB_AI_GATEWAY_URL", url.as_str()),
    ] {
        cli.sandbox.env.push((k.into(), v.into()));
    }
    let (stdout, _) = cli.ok(
        &["custom-provider-gitlab-duo"],
        &[
            "--model",
            "gitlab-duo/claude-haiku-4-5-20251001",
            "-p",
            "hi",
        ],
    );
    assert_eq!(stdout, "refreshed\n");
    let requests = cli.server.requests();
    assert_eq!(requests[0].path, "/oauth/token");
    let body = String::from_utf8_lossy(&requests[0].body).into_owned();
    assert!(
        body.contains("grant_type=refresh_token") && body.contains("refresh_token=r-old"),
        "{body}"
    );
    assert_eq!(requests[1].header("authorization"), Some("Bearer glo-new"));
    assert_eq!(
        requests[2].header("authorization"),
        Some("Bearer gateway-2")
    );
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(cli.sandbox.agent_dir.join("auth.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(stored["gitlab-duo"]["access"], "glo-new");
    assert_eq!(stored["gitlab-duo"]["refresh"], "r-new");
}

// ---------------------------------------------------------------------------
// custom-provider-anthropic: its own streaming of Anthropic's Messages API from Lua.

#[test]
fn custom_anthropic_streams_tool_calls_thinking_and_text_itself() {
    let mut cli = Cli::new();
    let url = cli.server.url();
    cli.server.push(support::MockReply::anthropic_tool_calls(&[(
        "toolu_1",
        "bash",
        json!({"command": "echo hi"}),
    )]));
    cli.server.push(support::MockReply::anthropic_thinking(
        "pondering",
        "sig",
        "the tool said hi",
    ));
    for (k, v) in [
        ("CUSTOM_ANTHROPIC_BASE_URL", url.as_str()),
        ("CUSTOM_ANTHROPIC_API_KEY", "sk-ant-test"),
    ] {
        cli.sandbox.env.push((k.into(), v.into()));
    }
    let (stdout, _) = cli.ok(
        &["custom-provider-anthropic"],
        &[
            "--model",
            "custom-anthropic/claude-sonnet-4-5",
            "-p",
            "run echo",
        ],
    );
    assert_eq!(stdout, "the tool said hi\n");
    let requests = cli.server.requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    assert_eq!(requests[0].path, "/v1/messages");
    assert_eq!(requests[0].header("x-api-key"), Some("sk-ant-test"));
    let first = requests[0].json();
    assert_eq!(first["model"], "claude-sonnet-4-5");
    assert_eq!(first["stream"], true);
    assert!(
        first["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "bash"),
        "{first}"
    );
    let second = requests[1].json();
    let messages = second["messages"].as_array().unwrap();
    let result = &messages.last().unwrap()["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["tool_use_id"], "toolu_1");
    assert_eq!(result["content"], "hi\n");
    assert_eq!(messages[1]["content"][0]["type"], "tool_use");
    assert_eq!(messages[1]["content"][0]["input"]["command"], "echo hi");
}

#[test]
fn custom_anthropic_refreshes_its_login_and_sends_the_token_as_bearer() {
    let mut cli = Cli::new();
    let url = cli.server.url();
    std::fs::write(
        cli.sandbox.agent_dir.join("auth.json"),
        json!({"custom-anthropic": {"type": "oauth", "access": "sk-ant-oat-old", "refresh": "rt-1", "expires": 1000}})
            .to_string(),
    )
    .unwrap();
    cli.server.push(support::MockReply::json(
        200,
        json!({"access_token": "sk-ant-oat-new", "refresh_token": "rt-2", "expires_in": 3600}),
    ));
    cli.server
        .push(support::MockReply::anthropic_text("signed in"));
    for (k, v) in [
        ("CUSTOM_ANTHROPIC_BASE_URL", url.as_str()),
        ("CUSTOM_ANTHROPIC_OAUTH_URL", url.as_str()),
    ] {
        cli.sandbox.env.push((k.into(), v.into()));
    }
    let (stdout, _) = cli.ok(
        &["custom-provider-anthropic"],
        &["--model", "custom-anthropic/claude-opus-4-5", "-p", "hi"],
    );
    assert_eq!(stdout, "signed in\n");
    let requests = cli.server.requests();
    assert_eq!(requests[0].path, "/v1/oauth/token");
    assert_eq!(requests[0].json()["grant_type"], "refresh_token");
    assert_eq!(requests[0].json()["refresh_token"], "rt-1");
    assert_eq!(
        requests[1].header("authorization"),
        Some("Bearer sk-ant-oat-new")
    );
    assert!(
        requests[1]
            .header("anthropic-beta")
            .is_some_and(|b| b.contains("oauth"))
    );
}
