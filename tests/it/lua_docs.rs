//! docs/extensions.md is tested: every Lua block loads as an extension, and
//! the three worked examples (blocks tagged `example=<name>`) behave as the
//! page says.

use crate::support::lua_agent;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lua_agent::session_with_tools;
use pi::ai::providers::faux::{faux_message, faux_text, faux_tool_call_with_id};
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi::session::manager::SessionManager;
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// Every fenced block whose info string starts with `lua`, keyed by its
/// `example=` name (or `block-N`).
fn lua_blocks() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/extensions.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) if info.split_whitespace().next() == Some("lua") => {
                let name = info
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("example="))
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("block-{}", blocks.len()));
                current = Some((name, String::new()));
            }
            (Some(_), Some("")) => blocks.push(current.take().unwrap()),
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

fn write_examples(dir: &Path) -> HashMap<String, PathBuf> {
    lua_blocks()
        .into_iter()
        .map(|(name, body)| {
            let path = dir.join(format!("{name}.lua"));
            std::fs::write(&path, body).unwrap();
            (name, path)
        })
        .collect()
}

#[tokio::test]
async fn every_lua_block_loads_as_an_extension() {
    let dir = tempfile::tempdir().unwrap();
    let examples = write_examples(dir.path());
    assert!(examples.len() >= 4, "{:?}", examples.keys());
    for name in ["permission-gate", "todo-tool", "plan-mode"] {
        assert!(
            examples.contains_key(name),
            "worked example {name} is tagged"
        );
    }
    let mut paths: Vec<PathBuf> = examples.values().cloned().collect();
    paths.sort();
    let handle = ExtensionHandle::start(
        HostConfig::new(paths.clone(), dir.path()),
        SharedView::new(dir.path()),
    );
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.loaded.len(), paths.len());
}

#[tokio::test]
async fn permission_gate_blocks_rm_rf_sudo_and_protected_files() {
    let dir = tempfile::tempdir().unwrap();
    let examples = write_examples(dir.path());
    let handle = ExtensionHandle::start(
        HostConfig::new(vec![examples["permission-gate"].clone()], dir.path()),
        SharedView::new(dir.path()),
    );
    assert!(handle.load().await.errors.is_empty());
    let call = |tool: &str, input: serde_json::Value| json!({"type": "tool_call", "toolCallId": "1", "toolName": tool, "input": input});
    let reason = |out: pi::lua::Dispatched| out.block_reason();
    let out = handle
        .emit("tool_call", call("bash", json!({"command": "rm -rf /"})))
        .await;
    assert_eq!(
        reason(out).as_deref(),
        Some("permission-gate: rm -rf is not allowed")
    );
    let out = handle
        .emit("tool_call", call("bash", json!({"command": "sudo ls"})))
        .await;
    assert_eq!(
        reason(out).as_deref(),
        Some("permission-gate: sudo was not confirmed")
    );
    let out = handle
        .emit(
            "tool_call",
            call("write", json!({"path": "app/.env", "content": ""})),
        )
        .await;
    assert_eq!(
        reason(out).as_deref(),
        Some("permission-gate: app/.env is protected")
    );
    let out = handle
        .emit(
            "tool_call",
            call("write", json!({"path": "notes.md", "content": ""})),
        )
        .await;
    assert_eq!(reason(out), None);
}

#[tokio::test]
async fn todo_tool_state_follows_the_branch_across_reload() {
    let dir = tempfile::tempdir().unwrap();
    let examples = write_examples(dir.path());
    let host = HostConfig::new(vec![examples["todo-tool"].clone()], dir.path());
    let (mut agent, faux) =
        session_with_tools(host, SessionManager::in_memory(dir.path()), &[]).await;
    let signal = CancellationToken::new();
    faux.push_message(faux_message(vec![faux_tool_call_with_id(
        "c1",
        "todo",
        json!({"action": "add", "text": "buy milk"}),
    )]));
    faux.push_message(faux_message(vec![faux_text("added")]));
    agent
        .prompt("remember milk".into(), Vec::new(), &signal)
        .await;
    agent.reload_extensions().await.unwrap();
    faux.push_message(faux_message(vec![faux_tool_call_with_id(
        "c2",
        "todo",
        json!({"action": "list"}),
    )]));
    faux.push_message(faux_message(vec![faux_text("listed")]));
    agent
        .prompt("what is left?".into(), Vec::new(), &signal)
        .await;
    let results: Vec<String> = agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["message"]["role"] == "toolResult")
        .map(|e| {
            e["message"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(results, vec!["1. [ ] buy milk", "1. [ ] buy milk"]);
}

#[tokio::test]
async fn plan_mode_flag_and_command_toggle_tools_and_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let examples = write_examples(dir.path());
    let mut host = HostConfig::new(vec![examples["plan-mode"].clone()], dir.path());
    host.cli_flags = vec![("plan".into(), None)];
    let (mut agent, faux) = session_with_tools(
        host,
        SessionManager::in_memory(dir.path()),
        &["read", "bash", "edit", "write"],
    )
    .await;
    let names = |agent: &pi::core::agent_session::AgentSession| -> Vec<String> {
        agent
            .state
            .tools
            .iter()
            .map(|t| t.name().to_string())
            .collect()
    };
    assert_eq!(names(&agent), vec!["read", "bash"]);
    let signal = CancellationToken::new();
    faux.push_text("a plan");
    agent.prompt("refactor".into(), Vec::new(), &signal).await;
    let prompt = faux.last_context().unwrap().system_prompt.clone().unwrap();
    assert!(prompt.contains("PLAN MODE"), "{prompt}");

    agent.reload_extensions().await.unwrap();
    assert_eq!(names(&agent), vec!["read", "bash"], "state survives reload");
    agent
        .run_extension_command("plan", "", &signal)
        .await
        .unwrap();
    assert_eq!(names(&agent), vec!["read", "bash", "edit", "write"]);
    faux.push_text("doing it");
    agent.prompt("go".into(), Vec::new(), &signal).await;
    let prompt = faux.last_context().unwrap().system_prompt.clone().unwrap();
    assert!(!prompt.contains("PLAN MODE"), "{prompt}");
}
