//! Extensions inside an `AgentSession` driven by the faux provider: reload
//! swaps tools, details are rebuilt from the branch after reload.

use crate::support::lua_agent;

use lua_agent::{custom_entries, fixture, session_with, tool_names};
use pi::ai::providers::faux::{faux_message, faux_text, faux_tool_call_with_id};
use serde_json::json;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn a_deleted_extensions_tool_is_gone_after_reload() {
    let dir = tempfile::tempdir().unwrap();
    let ext = dir.path().join("temp_tool.lua");
    std::fs::write(
        &ext,
        "return function(pi)\n  pi.registerTool({ name = 'temp_tool', description = 'temporary', execute = function() return { content = 'x' } end })\nend\n",
    )
    .unwrap();
    let (mut agent, faux) = session_with(vec![ext.clone()], dir.path()).await;
    let signal = CancellationToken::new();
    faux.push_text("one");
    agent.prompt("hi".into(), Vec::new(), &signal).await;
    assert_eq!(tool_names(&faux), vec!["temp_tool"]);

    std::fs::remove_file(&ext).unwrap();
    let report = agent.reload_extensions().await.unwrap();
    assert_eq!(report.errors.len(), 1, "the deleted file fails to load");
    faux.push_text("two");
    agent.prompt("again".into(), Vec::new(), &signal).await;
    assert!(tool_names(&faux).is_empty(), "{:?}", tool_names(&faux));
}

#[tokio::test]
async fn tool_details_are_persisted_and_rebuilt_from_the_branch_after_reload() {
    let dir = tempfile::tempdir().unwrap();
    let (mut agent, faux) = session_with(
        vec![fixture("tools.lua"), fixture("rebuild.lua")],
        dir.path(),
    )
    .await;
    assert_eq!(
        custom_entries(&agent, "rebuilt"),
        vec![json!({"reason": "startup", "steps": 0})]
    );
    faux.push_message(faux_message(vec![faux_tool_call_with_id(
        "c1",
        "progress",
        json!({"steps": 2}),
    )]));
    faux.push_message(faux_message(vec![faux_text("done")]));
    let signal = CancellationToken::new();
    agent.prompt("count".into(), Vec::new(), &signal).await;
    agent.reload_extensions().await.unwrap();
    assert_eq!(
        custom_entries(&agent, "rebuilt"),
        vec![
            json!({"reason": "startup", "steps": 0}),
            json!({"reason": "reload", "steps": 2})
        ]
    );
}

#[tokio::test]
async fn a_tool_registered_by_a_command_is_offered_at_once_and_set_active_tools_sticks() {
    let dir = tempfile::tempdir().unwrap();
    let ext = lua_agent::write_extension(
        dir.path(),
        "late.lua",
        r#"return function(pi)
  pi.registerTool({ name = "early", description = "from the start", execute = function() return { content = "e" } end })
  pi.registerCommand("add-tool", { handler = function(args, ctx)
    pi.registerTool({ name = "late", description = "added later", execute = function() return { content = "l" } end })
  end })
  pi.registerCommand("only-late", { handler = function(args, ctx)
    pi.setActiveTools({ "late" })
  end })
end"#,
    );
    let (mut agent, faux) = session_with(vec![ext], dir.path()).await;
    let signal = CancellationToken::new();
    agent
        .run_extension_command("add-tool", "", &signal)
        .await
        .unwrap();
    faux.push_text("one");
    agent.prompt("hi".into(), Vec::new(), &signal).await;
    assert_eq!(tool_names(&faux), vec!["early", "late"]);
    agent
        .run_extension_command("only-late", "", &signal)
        .await
        .unwrap();
    faux.push_text("two");
    agent.prompt("again".into(), Vec::new(), &signal).await;
    assert_eq!(tool_names(&faux), vec!["late"]);
    agent.reload_extensions().await.unwrap();
    faux.push_text("three");
    agent
        .prompt("after reload".into(), Vec::new(), &signal)
        .await;
    assert!(
        tool_names(&faux).is_empty(),
        "early stays off, late (registered by the command) is gone: {:?}",
        tool_names(&faux)
    );
}
