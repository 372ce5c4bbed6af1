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

/// `ctx.navigateTree` from a command: the leaf moves to the chosen entry, the branch left
/// behind is summarized (by a `session_before_tree` handler here) and labelled, the context
/// follows the new path, and `session_tree` reports the move.
#[tokio::test]
async fn navigate_tree_moves_the_leaf_summarizes_labels_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let ext = lua_agent::write_extension(
        dir.path(),
        "nav.lua",
        r#"return function(pi)
  pi.on("session_before_tree", function(event)
    local p = event.preparation
    pi.appendEntry("before", { target = p.targetId, wants = p.userWantsSummary, label = p.label })
    return { summary = { summary = "left: " .. #p.entriesToSummarize .. " entries" } }
  end)
  pi.on("session_tree", function(event)
    pi.appendEntry("moved", { newLeaf = event.newLeafId, old = event.oldLeafId,
      summary = event.summaryEntry and event.summaryEntry.summary, fromExtension = event.fromExtension })
  end)
  pi.registerCommand("go", { handler = function(args, ctx)
    local r = ctx.navigateTree(args, { summarize = true, label = "checkpoint" })
    assert(r.cancelled == false)
  end })
end
"#,
    );
    let (mut agent, faux) = session_with(vec![ext], dir.path()).await;
    let signal = CancellationToken::new();
    faux.push_text("first answer");
    agent.prompt("first".into(), Vec::new(), &signal).await;
    let first_answer = agent.session.leaf_id().unwrap().to_string();
    faux.push_text("second answer");
    agent.prompt("second".into(), Vec::new(), &signal).await;
    let old_leaf = agent.session.leaf_id().unwrap().to_string();
    assert_eq!(agent.state.messages.len(), 4);

    agent
        .run_extension_command("go", &first_answer, &signal)
        .await
        .unwrap();

    let before = custom_entries(&agent, "before");
    assert_eq!(before[0]["target"], first_answer.as_str());
    assert_eq!(before[0]["wants"], true);
    assert_eq!(before[0]["label"], "checkpoint");
    let moved = custom_entries(&agent, "moved");
    assert_eq!(moved[0]["old"], old_leaf.as_str());
    assert_eq!(moved[0]["summary"], "left: 2 entries");
    assert_eq!(moved[0]["fromExtension"], true);
    // The context is the first exchange plus the summary of what was left.
    let texts: Vec<String> = agent
        .state
        .messages
        .iter()
        .map(|m| serde_json::to_value(m).unwrap().to_string())
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("first answer")),
        "{texts:?}"
    );
    assert!(
        !texts.iter().any(|t| t.contains("second answer")),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("left: 2 entries")),
        "{texts:?}"
    );
    let entries: Vec<serde_json::Value> = agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    let summary = entries
        .iter()
        .find(|e| e["type"] == "branch_summary")
        .expect("a branch summary entry");
    assert_eq!(summary["parentId"], first_answer.as_str());
    assert!(
        entries.iter().any(|e| e["type"] == "label"
            && e["targetId"] == summary["id"]
            && e["label"] == "checkpoint"),
        "{entries:?}"
    );
}

/// `ctx.newSession{parentSession, withSession}`: the new header names the parent, and the
/// callback runs in the new session (its message starts a turn there).
#[tokio::test]
async fn new_session_records_the_parent_and_runs_with_session_in_the_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let ext = lua_agent::write_extension(
        dir.path(),
        "handoff.lua",
        r#"return function(pi)
  pi.registerCommand("handoff", { handler = function(args, ctx)
    ctx.newSession({ parentSession = "/sessions/parent.jsonl", withSession = function(new_ctx)
      new_ctx.sendUserMessage("kickoff: " .. args)
    end })
  end })
end
"#,
    );
    let (mut agent, faux) = session_with(vec![ext], dir.path()).await;
    let signal = CancellationToken::new();
    faux.push_text("old answer");
    agent.prompt("old work".into(), Vec::new(), &signal).await;
    let old_id = agent.session.session_id().to_string();
    faux.push_text("new answer");
    agent
        .run_extension_command("handoff", "go on", &signal)
        .await
        .unwrap();
    assert_ne!(agent.session.session_id(), old_id);
    assert_eq!(
        agent.session.header().parent_session.as_deref(),
        Some("/sessions/parent.jsonl")
    );
    let texts: Vec<String> = agent
        .state
        .messages
        .iter()
        .map(|m| serde_json::to_value(m).unwrap().to_string())
        .collect();
    assert!(texts[0].contains("kickoff: go on"), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("new answer")), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains("old work")), "{texts:?}");
}
