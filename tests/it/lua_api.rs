//! The `pi` API from Lua (tests/fixtures/extensions/api_spec.lua checks
//! each function from inside the VM) and its effects on the session.

use crate::support::lua_agent;

use lua_agent::{custom_entries, fixture, session_with_config};
use pi::ai::providers::faux::{faux_message, faux_text, faux_tool_call_with_id};
use pi::ai::types::{ContentBlock, Message, UserContent};
use pi::lua::HostConfig;
use pi::session::manager::SessionManager;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn assert_no_failures(entries: &[Value]) {
    for e in entries {
        // An empty Lua table encodes as `{}`.
        assert!(
            e["failures"] == json!({}) || e["failures"] == json!([]),
            "{e}"
        );
    }
}

fn request_texts(faux: &pi::ai::providers::faux::FauxProvider) -> Vec<String> {
    let ctx = faux.last_context().unwrap();
    ctx.messages
        .iter()
        .filter_map(|m| match m {
            Message::User(u) => Some(match &u.content {
                UserContent::Text(t) => t.clone(),
                UserContent::Blocks(b) => b
                    .iter()
                    .filter_map(ContentBlock::as_text)
                    .collect::<Vec<_>>()
                    .join(""),
            }),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn every_pi_method_works_from_lua() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), "fs content").unwrap();
    let mut host = HostConfig::new(vec![fixture("api_spec.lua")], dir.path());
    host.cli_flags = vec![
        ("plan".into(), None),
        ("target".into(), Some("prod".into())),
    ];
    let (mut agent, faux) = session_with_config(host, SessionManager::in_memory(dir.path())).await;

    let start = custom_entries(&agent, "spec");
    assert_eq!(start.len(), 1, "{start:?}");
    assert_no_failures(&start);

    // What the session did for the extension.
    assert_eq!(agent.session.session_name(), Some("spec session"));
    assert_eq!(agent.config.model.provider, "spec-proxy");
    assert_eq!(agent.config.model.id, "proxied");
    assert_eq!(agent.config.model.base_url, "http://127.0.0.1:9");
    let auth = (agent.config.auth)(&agent.config.model).unwrap();
    assert_eq!(auth.api_key.as_deref(), Some("SPEC_KEY"));
    let active: Vec<_> = agent
        .state
        .tools
        .iter()
        .map(|t| t.name().to_string())
        .collect();
    assert_eq!(active, vec!["read", "spec_tool"]);

    // Registrations are listed.
    let ext = agent.extensions().unwrap();
    let reg = ext.handle.registrations().await;
    let commands: Vec<_> = reg.commands.iter().map(|c| c.name.as_str()).collect();
    // Registered twice by one extension, `review` is the second registration.
    assert_eq!(commands, vec!["review", "model", "spec"]);
    assert_eq!(reg.commands[0].description.as_deref(), Some("second"));
    assert_eq!(reg.shortcuts[0].shortcut, "ctrl+shift+p");
    assert_eq!(reg.renderers, vec!["spec-note"]);
    let flags: Vec<_> = reg
        .flags
        .iter()
        .map(|f| (f.name.as_str(), f.kind.as_str()))
        .collect();
    assert_eq!(flags, vec![("plan", "boolean"), ("target", "string")]);
    assert_eq!(reg.providers, vec!["spec-proxy"]);
    let completions = ext.handle.complete_command("spec", "ab").await;
    assert_eq!(
        completions,
        vec![json!({"value": "ab-one", "label": "one"})]
    );

    // A turn: prepareArguments maps `file` to `path`, pi.fs works inside
    // the tool, and the nextTurn message rides along with the prompt.
    let faux_model = faux.model();
    agent.set_model(faux_model, "set").await;
    faux.push_message(faux_message(vec![faux_tool_call_with_id(
        "c1",
        "spec_tool",
        json!({"file": "in.txt"}),
    )]));
    faux.push_message(faux_message(vec![faux_text("ok")]));
    let signal = CancellationToken::new();
    agent
        .prompt("use the tool".into(), Vec::new(), &signal)
        .await;
    let spec = custom_entries(&agent, "spec");
    assert_eq!(spec.len(), 2, "{spec:?}");
    assert_no_failures(&spec);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sub/out.txt")).unwrap(),
        "fs content!"
    );
    let first_request = &faux.requests()[0];
    let texts: Vec<String> = first_request
        .context
        .messages
        .iter()
        .map(|m| serde_json::to_string(m).unwrap())
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("next turn note")),
        "{texts:?}"
    );

    // Commands: their ctx, sendUserMessage starting a turn, ctx.reload().
    faux.push_message(faux_message(vec![faux_text("answered")]));
    agent
        .run_extension_command("spec", "prompt", &signal)
        .await
        .unwrap();
    assert_eq!(request_texts(&faux).last().unwrap(), "from the command");
    agent
        .run_extension_command("spec", "reload", &signal)
        .await
        .unwrap();
    let spec = custom_entries(&agent, "spec");
    assert_no_failures(&spec);
    assert_eq!(spec.last().unwrap()["args"], "reload");
    let err = agent
        .run_extension_command("nope", "", &signal)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("/nope"), "{err}");
}

#[tokio::test]
async fn steer_and_follow_up_messages_reach_the_running_turn() {
    let dir = tempfile::tempdir().unwrap();
    let ext = lua_agent::write_extension(
        dir.path(),
        "steer.lua",
        r#"return function(pi)
  pi.on("tool_execution_end", function(event, ctx)
    pi.sendMessage({ customType = "note", content = "steered note" }, { deliverAs = "steer" })
    pi.sendUserMessage("follow-up question", { deliverAs = "followUp" })
  end)
  pi.on("agent_end", function(event, ctx)
    if not pi.state.triggered then
      pi.state.triggered = true
      pi.sendMessage({ customType = "note", content = "after the run" }, { triggerTurn = true })
    end
  end)
end"#,
    );
    let (mut agent, faux) = lua_agent::session_with(vec![ext], dir.path()).await;
    agent.state.tools = agent.extensions().unwrap().all_tools.clone();
    faux.push_message(faux_message(vec![faux_tool_call_with_id(
        "c1",
        "bash",
        json!({"command": "true"}),
    )]));
    faux.push_message(faux_message(vec![faux_text("after steer")]));
    faux.push_message(faux_message(vec![faux_text("after follow-up")]));
    faux.push_message(faux_message(vec![faux_text("after trigger")]));
    agent
        .prompt("start".into(), Vec::new(), &CancellationToken::new())
        .await;
    let requests = faux.requests();
    assert_eq!(requests.len(), 4);
    let as_text = |i: usize| serde_json::to_string(&requests[i].context.messages).unwrap();
    assert!(as_text(1).contains("steered note"), "{}", as_text(1));
    assert!(!as_text(1).contains("follow-up question"));
    assert!(as_text(2).contains("follow-up question"), "{}", as_text(2));
    assert!(as_text(3).contains("after the run"), "{}", as_text(3));
}

#[tokio::test]
async fn notify_and_errors_are_captured_for_the_terminal_ui() {
    let dir = tempfile::tempdir().unwrap();
    let ext = lua_agent::write_extension(
        dir.path(),
        "talk.lua",
        r#"return function(pi)
  pi.registerCommand("talk", { handler = function(args, ctx)
    ctx.ui.notify("hello from " .. args, "info")
    ctx.ui.notify("it broke", "error")
    pi.log.warn("a log line")
    error("command failed")
  end })
end"#,
    );
    let (mut agent, _faux) = lua_agent::session_with(vec![ext], dir.path()).await;
    let view = agent.extensions().unwrap().view.clone();
    let signal = CancellationToken::new();
    // Without a terminal UI notifications are dropped.
    let _ = agent.run_extension_command("talk", "print", &signal).await;
    assert!(!view.take_messages().iter().any(|m| m.contains("hello")));
    view.lock().capture_messages = true;
    let err = agent
        .run_extension_command("talk", "tui", &signal)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("command failed") && err.contains("talk.lua"),
        "{err}"
    );
    assert_eq!(
        view.take_messages(),
        vec![
            "hello from tui",
            "Error: it broke",
            "[talk] warn: a log line"
        ]
    );
}

#[tokio::test]
async fn a_message_sent_while_idle_is_shown_at_once_without_a_turn() {
    let dir = tempfile::tempdir().unwrap();
    let ext = lua_agent::write_extension(
        dir.path(),
        "note.lua",
        r#"return function(pi)
  pi.registerCommand("note", { handler = function(args, ctx)
    pi.sendMessage({ customType = "note", content = "idle " .. args, display = true })
  end })
end"#,
    );
    let (mut agent, faux) = lua_agent::session_with(vec![ext], dir.path()).await;
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = seen.clone();
    agent.subscribe(Box::new(move |e: &pi::agent::events::AgentEvent| {
        sink.lock().unwrap().push(serde_json::to_value(e).unwrap());
    }));
    agent
        .run_extension_command("note", "hello", &CancellationToken::new())
        .await
        .unwrap();
    let seen = seen.lock().unwrap();
    let kinds: Vec<&str> = seen.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds, ["message_start", "message_end"], "{seen:?}");
    assert_eq!(seen[1]["message"]["customType"], "note");
    assert_eq!(seen[1]["message"]["content"], "idle hello");
    assert!(faux.requests().is_empty(), "no turn runs");
    assert_eq!(custom_message_count(&agent), 1);
}

fn custom_message_count(agent: &pi::core::agent_session::AgentSession) -> usize {
    agent
        .state
        .messages
        .iter()
        .filter(|m| matches!(**m, Message::Custom(_)))
        .count()
}
