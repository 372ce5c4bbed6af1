//! What loaded extensions contribute and how their handlers combine: tools and commands
//! from several extensions (the first extension keeps a tool name), handler failures
//! reported with their event, message renderers, flags (the first registration of a name
//! is kept; the command line sets a flag's value), `tool_result` results chaining, provider
//! registrations made and withdrawn at load time and later, and whether any handler
//! listens to an event. Extensions are Lua here, one file each.
//! orig-file: packages/coding-agent/test/extensions-runner.test.ts

use pi::agent::tool::ToolOutput;
use pi::ai::types::{ContentBlock, ToolCall};
use serde_json::json;

use crate::session_harness::Harness;

async fn runner(sources: &[&str]) -> Harness {
    let (h, errors) = Harness::with_extensions(sources).await;
    assert!(errors.is_empty(), "{errors:?}");
    h
}

fn handle(h: &Harness) -> &pi::lua::ExtensionHandle {
    &h.agent.extensions().unwrap().handle
}

fn tool_source(name: &str, description: &str) -> String {
    format!(
        r#"return function(pi)
  pi.registerTool({{ name = "{name}", label = "{name}", description = "{description}",
    parameters = {{ type = "object", properties = {{}} }},
    execute = function() return {{ content = {{ {{ type = "text", text = "ok" }} }} }} end }})
end"#
    )
}

fn command_source(name: &str, description: &str) -> String {
    format!(
        r#"return function(pi) pi.registerCommand("{name}", {{ description = "{description}", handler = function() end }}) end"#
    )
}

/// orig: ExtensionRunner › tool collection › collects tools from multiple extensions
#[tokio::test]
async fn tools_from_several_extensions() {
    let (a, b) = (
        tool_source("tool_a", "Test tool"),
        tool_source("tool_b", "Test tool"),
    );
    let h = runner(&[&a, &b]).await;
    let mut names: Vec<String> = handle(&h)
        .tools()
        .await
        .into_iter()
        .map(|t| t.name)
        .collect();
    names.sort();
    assert_eq!(names, ["tool_a", "tool_b"]);
    // The session offers both to the model.
    let offered: Vec<&str> = h.agent.state.tools.iter().map(|t| t.name()).collect();
    assert!(
        offered.contains(&"tool_a") && offered.contains(&"tool_b"),
        "{offered:?}"
    );
}

/// orig: ExtensionRunner › tool collection › keeps first tool when two extensions register the same name
#[tokio::test]
async fn the_first_extension_keeps_a_tool_name() {
    let (first, second) = (
        tool_source("shared", "first"),
        tool_source("shared", "second"),
    );
    let h = runner(&[&first, &second]).await;
    let tools = handle(&h).tools().await;
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].description, "first");
    let reports = h.reports();
    assert!(
        reports
            .iter()
            .any(|r| r.contains("\"shared\"") && r.contains("e1") && r.contains("e0")),
        "{reports:?}"
    );
    // One extension registering its own tool again replaces it.
    let again = format!(
        "{}\n",
        r#"return function(pi)
  for _, d in ipairs({ "old", "new" }) do
    pi.registerTool({ name = "mine", description = d, parameters = { type = "object", properties = {} },
      execute = function() return { content = {} } end })
  end
end"#
    );
    let h = runner(&[&again]).await;
    assert_eq!(handle(&h).tools().await[0].description, "new");
}

/// orig: ExtensionRunner › command collection › collects commands from multiple extensions
#[tokio::test]
async fn commands_from_several_extensions() {
    let (a, b) = (
        command_source("cmd-a", "Test command"),
        command_source("cmd-b", "Test command"),
    );
    let h = runner(&[&a, &b]).await;
    let mut names: Vec<String> = handle(&h)
        .commands()
        .await
        .into_iter()
        .map(|c| c.name)
        .collect();
    names.sort();
    assert_eq!(names, ["cmd-a", "cmd-b"]);
}

/// orig: ExtensionRunner › command collection › gets command by name
#[tokio::test]
async fn a_command_by_name() {
    let source = command_source("my-cmd", "My command");
    let h = runner(&[&source]).await;
    let commands = handle(&h).commands().await;
    let cmd = commands.iter().find(|c| c.name == "my-cmd").unwrap();
    assert_eq!(cmd.description.as_deref(), Some("My command"));
    assert!(cmd.extension.ends_with("e0.lua"));
    assert!(!commands.iter().any(|c| c.name == "not-exists"));
    assert!(handle(&h).run_command("my-cmd", "").await.is_ok());
    assert!(handle(&h).run_command("not-exists", "").await.is_err());
}

/// orig: ExtensionRunner › command collection › filters out commands conflict with reseved
#[tokio::test]
async fn a_command_named_like_pis_own_is_kept() {
    // pi 0.58.3 dropped such a command with a warning; pi 0.73.1 keeps it (RPC and print
    // mode run it, the terminal UI keeps its own command of that name), as here.
    let (a, b) = (
        command_source("model", "Shadows /model"),
        command_source("cmd-b", "Test command"),
    );
    let h = runner(&[&a, &b]).await;
    let mut names: Vec<String> = handle(&h)
        .commands()
        .await
        .into_iter()
        .map(|c| c.name)
        .collect();
    names.sort();
    assert_eq!(names, ["cmd-b", "model"]);
}

/// orig: ExtensionRunner › error handling › calls error listeners when handler throws
#[tokio::test]
async fn a_failing_handler_is_reported_with_its_event() {
    let h = runner(&[
        r#"return function(pi) pi.on("context", function() error("Handler error!") end) end"#,
    ])
    .await;
    let out = handle(&h)
        .emit("context", json!({"type": "context", "messages": []}))
        .await;
    assert_eq!(out.errors.len(), 1, "{:?}", out.errors);
    assert!(out.errors[0].contains("Handler error!"));
    assert!(out.errors[0].contains("context"));
    assert!(h.reports().iter().any(|r| r.contains("Handler error!")));
}

/// orig: ExtensionRunner › message renderers › gets message renderer by type
#[tokio::test]
async fn message_renderers_by_type() {
    let h = runner(&[r#"return function(pi) pi.registerMessageRenderer("my-type", function() return nil end) end"#]).await;
    let renderers = handle(&h).registrations().await.renderers;
    assert!(renderers.iter().any(|r| r == "my-type"));
    assert!(!renderers.iter().any(|r| r == "not-exists"));
}

/// orig: ExtensionRunner › flags › collects flags from extensions
#[tokio::test]
async fn flags_from_extensions() {
    let h = runner(&[
        r#"return function(pi) pi.registerFlag("my-flag", { description = "My flag" }) end"#,
    ])
    .await;
    let flags = handle(&h).registrations().await.flags;
    assert_eq!(flags.len(), 1);
    assert_eq!(flags[0].name, "my-flag");
    assert_eq!(flags[0].description.as_deref(), Some("My flag"));
}

/// orig: ExtensionRunner › flags › keeps first flag when two extensions register the same name
#[tokio::test]
async fn the_first_flag_of_a_name_is_kept() {
    let first = r#"return function(pi)
  pi.registerFlag("shared-flag", { description = "first", type = "boolean", default = true })
  pi.registerCommand("flag", { handler = function() pi.appendEntry("flag", { value = pi.getFlag("shared-flag") }) end })
end"#;
    let second = r#"return function(pi) pi.registerFlag("shared-flag", { description = "second", type = "boolean", default = false }) end"#;
    let (h, errors) = Harness::with_extensions(&[first, second]).await;
    // As in 0.73.1 both extensions load; the second registration is reported (a
    // warning naming the flag and both extensions) and changes nothing.
    assert!(errors.is_empty(), "{errors:?}");
    let warned: Vec<String> = h
        .reports()
        .into_iter()
        .filter(|r| r.contains("--shared-flag"))
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", h.reports());
    let flags = handle(&h).registrations().await.flags;
    assert_eq!(flags.len(), 1);
    assert_eq!(flags[0].description.as_deref(), Some("first"));
    handle(&h).run_command("flag", "").await.unwrap();
    let mut h = h;
    h.agent.session_event("session_start", "startup").await;
    let data: Vec<serde_json::Value> = h
        .agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["customType"] == "flag")
        .map(|e| e["data"]["value"].clone())
        .collect();
    assert_eq!(data, [json!(true)], "the first default");
}

/// orig: ExtensionRunner › flags › can set flag values
#[tokio::test]
async fn the_command_line_sets_a_flag() {
    let source = r#"return function(pi)
  pi.registerFlag("test-flag", { description = "Test flag", type = "string", default = "none" })
  pi.on("input", function() return { action = "transform", text = tostring(pi.getFlag("test-flag")) } end)
end"#;
    let (h, errors) = Harness::with_extensions(&[source]).await;
    assert!(errors.is_empty());
    assert_eq!(
        ask(&h).await,
        pi::core::extension_bridge::InputOutcome::Continue("none".into(), vec![])
    );
    let (h, errors) = Harness::with_extensions_config(&[source], |host| {
        host.cli_flags = vec![("test-flag".into(), Some("on".into()))];
    })
    .await;
    assert!(errors.is_empty());
    assert_eq!(
        ask(&h).await,
        pi::core::extension_bridge::InputOutcome::Continue("on".into(), vec![])
    );
}

async fn ask(h: &Harness) -> pi::core::extension_bridge::InputOutcome {
    let ext = h.agent.extensions().unwrap();
    ext.input("x".into(), vec![], "interactive").await
}

fn call() -> ToolCall {
    serde_json::from_value(
        json!({"type": "toolCall", "id": "call-1", "name": "my_tool", "arguments": {}}),
    )
    .unwrap()
}

/// orig: ExtensionRunner › tool_result chaining › chains content modifications across handlers
#[tokio::test]
async fn tool_result_changes_chain() {
    let append = |tag: &str| {
        format!(
            r#"return function(pi) pi.on("tool_result", function(e)
  local content = {{}}
  for i, b in ipairs(e.content) do content[i] = b end
  table.insert(content, {{ type = "text", text = "{tag}" }})
  return {{ content = content }}
end) end"#
        )
    };
    let (one, two) = (append("ext1"), append("ext2"));
    let h = runner(&[&one, &two]).await;
    let mut output = ToolOutput {
        content: vec![ContentBlock::text("base")],
        details: Some(json!({"initial": true})),
        terminate: false,
    };
    let mut is_error = false;
    h.agent
        .extensions()
        .unwrap()
        .tool_result(&call(), &mut output, &mut is_error)
        .await;
    let texts: Vec<String> = output
        .content
        .iter()
        .filter_map(|b| b.as_text().map(str::to_string))
        .collect();
    assert_eq!(texts, ["base", "ext1", "ext2"]);
    assert!(!is_error);
}

/// orig: ExtensionRunner › tool_result chaining › preserves previous modifications when later handlers return partial patches
#[tokio::test]
async fn a_later_partial_change_keeps_earlier_ones() {
    let h = runner(&[
        r#"return function(pi) pi.on("tool_result", function() return { content = { { type = "text", text = "first" } }, details = { source = "ext1" } } end) end"#,
        r#"return function(pi) pi.on("tool_result", function() return { isError = true } end) end"#,
    ])
    .await;
    let mut output = ToolOutput {
        content: vec![ContentBlock::text("base")],
        details: Some(json!({"initial": true})),
        terminate: false,
    };
    let mut is_error = false;
    h.agent
        .extensions()
        .unwrap()
        .tool_result(&call(), &mut output, &mut is_error)
        .await;
    assert_eq!(output.content, vec![ContentBlock::text("first")]);
    assert_eq!(output.details, Some(json!({"source": "ext1"})));
    assert!(is_error);
}

const PROVIDER: &str = r#"{ baseUrl = "http://127.0.0.1:9/v1", apiKey = "PROVIDER_TEST_KEY", api = "openai-completions",
  models = { { id = "instant-model", name = "Instant Model", reasoning = false, input = { "text" },
    cost = { input = 0, output = 0, cacheRead = 0, cacheWrite = 0 }, contextWindow = 128000, maxTokens = 4096 } } }"#;

/// orig: ExtensionRunner › provider registration › pre-bind unregister removes all queued registrations for a provider
#[tokio::test]
async fn withdrawing_a_provider_at_load_removes_every_registration() {
    let withdrawn = format!(
        r#"return function(pi)
  pi.registerProvider("queued-provider", {PROVIDER})
  pi.registerProvider("queued-provider", {PROVIDER})
  pi.unregisterProvider("queued-provider")
  pi.registerProvider("kept-provider", {PROVIDER})
end"#
    );
    let h = runner(&[&withdrawn]).await;
    let providers = handle(&h).registrations().await.providers;
    assert_eq!(providers, ["kept-provider"]);
}

/// orig: ExtensionRunner › provider registration › post-bind register and unregister take effect immediately
#[tokio::test]
async fn a_provider_registered_later_is_there_at_once() {
    let source = format!(
        r#"return function(pi)
  pi.registerCommand("add", {{ handler = function() pi.registerProvider("instant-provider", {PROVIDER}) end }})
  pi.registerCommand("remove", {{ handler = function() pi.unregisterProvider("instant-provider") end }})
end"#
    );
    let h = runner(&[&source]).await;
    assert!(handle(&h).registrations().await.providers.is_empty());
    handle(&h).run_command("add", "").await.unwrap();
    assert_eq!(
        handle(&h).registrations().await.providers,
        ["instant-provider"]
    );
    handle(&h).run_command("remove", "").await.unwrap();
    assert!(handle(&h).registrations().await.providers.is_empty());
}

/// orig: ExtensionRunner › hasHandlers › returns true when handlers exist for event type
#[tokio::test]
async fn whether_a_handler_listens() {
    let h =
        runner(&[r#"return function(pi) pi.on("tool_call", function() return nil end) end"#]).await;
    assert!(handle(&h).has_handlers("tool_call"));
    assert!(!handle(&h).has_handlers("agent_end"));
}
