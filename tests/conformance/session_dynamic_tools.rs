//! A tool an extension registers while the session starts (in `session_start`) is offered
//! at once: among the session's tools, active, and in the system prompt with its snippet
//! and guidelines.
//! orig-file: packages/coding-agent/test/agent-session-dynamic-tools.test.ts

use pi::app::prompt_setup::system_prompt;
use pi::cli::args::Args;

use crate::session_harness::Harness;

const DYNAMIC: &str = r#"return function(pi)
  pi.on("session_start", function()
    pi.registerTool({
      name = "dynamic_tool", label = "Dynamic Tool",
      description = "Tool registered from session_start",
      promptSnippet = "Run dynamic test behavior",
      promptGuidelines = { "Use dynamic_tool when the user asks for dynamic behavior tests." },
      parameters = { type = "object", properties = {} },
      execute = function() return { content = { { type = "text", text = "ok" } } } end,
    })
  end)
end"#;

/// orig: AgentSession dynamic tool registration › refreshes tool registry when tools are registered after initialization
#[tokio::test]
async fn a_tool_registered_at_session_start_is_offered() {
    let mut h = Harness::new();
    let args =
        Args::parse_from_argv(&["pi".to_string(), "--no-context-files".to_string()]).unwrap();
    let cwd = h._tmp.path().to_path_buf();
    let prompt = system_prompt(
        &args,
        &cwd.join("agent"),
        &cwd,
        None,
        &h.agent.state.tools,
        &[],
    );
    assert!(!prompt.text.contains("dynamic_tool"));
    h.agent.state.system_prompt = prompt.text;
    h.agent.prompt_for_tools = Some(prompt.rebuild);
    let errors = h.load_extensions(&[DYNAMIC], |_| {}).await;
    assert!(errors.is_empty(), "{errors:?}");
    let registered = h.agent.extensions().unwrap().handle.tools().await;
    assert!(registered.iter().any(|t| t.name == "dynamic_tool"));
    assert!(
        h.agent
            .state
            .tools
            .iter()
            .any(|t| t.name() == "dynamic_tool")
    );
    let text = &h.agent.state.system_prompt;
    assert!(
        text.contains("- dynamic_tool: Run dynamic test behavior"),
        "{text}"
    );
    assert!(
        text.contains("- Use dynamic_tool when the user asks for dynamic behavior tests."),
        "{text}"
    );
    // The model is offered it.
    h.faux.push_text("ok");
    h.prompt("hi").await;
    let offered = h.faux.last_context().unwrap();
    assert!(offered.tools.iter().any(|t| t.name == "dynamic_tool"));
}
