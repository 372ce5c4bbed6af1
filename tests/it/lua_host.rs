//! The extension host on its own: loading, event contracts, tools, reload,
//! runaway handlers, load errors. Fixtures live in tests/fixtures/extensions.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use serde_json::json;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/extensions")
        .join(name)
}

async fn host(names: &[&str]) -> (ExtensionHandle, pi::lua::LoadReport) {
    let mut config = HostConfig::new(names.iter().map(|n| fixture(n)).collect(), ".");
    config.instruction_budget = 2_000_000;
    let handle = ExtensionHandle::start(config, SharedView::new("."));
    let report = handle.load().await;
    (handle, report)
}

#[tokio::test]
async fn tool_call_blocks_rm_rf_and_mutates_input() {
    let (h, report) = host(&["guard.lua"]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let out = h
        .emit(
            "tool_call",
            json!({"type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": {"command": "rm -rf /"}}),
        )
        .await;
    assert_eq!(
        out.block_reason().as_deref(),
        Some("guard: rm -rf is not allowed")
    );
    let out = h
        .emit(
            "tool_call",
            json!({"type": "tool_call", "toolName": "bash", "toolCallId": "2", "input": {"command": "echo original"}}),
        )
        .await;
    assert_eq!(out.block_reason(), None);
    assert_eq!(out.event["input"]["command"], "echo mutated");
}

#[tokio::test]
async fn tool_result_patches_chain_across_extensions() {
    let (h, _) = host(&["patch_a.lua", "patch_b.lua"]).await;
    let out = h
        .emit(
            "tool_result",
            json!({"type": "tool_result", "toolName": "bash", "content": [{"type": "text", "text": "out"}], "isError": false}),
        )
        .await;
    assert_eq!(out.event["content"][0]["text"], "out [a] [b]");
    assert_eq!(out.event["details"], json!({"chained": true}));
}

#[tokio::test]
async fn syntax_error_is_reported_with_file_and_line_and_others_load() {
    let (h, report) = host(&["broken.lua", "guard.lua"]).await;
    assert_eq!(report.loaded, vec![fixture("guard.lua")]);
    assert_eq!(report.errors.len(), 1);
    let message = &report.errors[0].message;
    assert!(message.contains("broken.lua:3"), "{message}");
    let out = h
        .emit(
            "tool_call",
            json!({"type": "tool_call", "toolName": "bash", "input": {"command": "rm -rf x"}}),
        )
        .await;
    assert!(out.block_reason().is_some());
}

#[tokio::test]
async fn runaway_handler_is_stopped_with_its_location_and_later_handlers_run() {
    let (h, report) = host(&["spin.lua", "guard.lua"]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let started = Instant::now();
    let out = h
        .emit(
            "tool_call",
            json!({"type": "tool_call", "toolName": "bash", "input": {"command": "rm -rf x"}}),
        )
        .await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(out.errors.len(), 1, "{:?}", out.errors);
    assert!(out.errors[0].contains("spin.lua:4"), "{}", out.errors[0]);
    assert!(
        out.errors[0].contains("without yielding"),
        "{}",
        out.errors[0]
    );
    assert!(
        out.block_reason().is_some(),
        "guard still ran after the runaway handler"
    );
}

#[tokio::test]
async fn fifty_reloads_leave_one_handler_and_keep_state() {
    let (h, _) = host(&["counter.lua"]).await;
    for _ in 0..50 {
        let report = h.reload().await;
        assert!(report.errors.is_empty());
    }
    let out = h.emit("turn_start", json!({"type": "turn_start"})).await;
    assert_eq!(out.results, vec![json!({"loads": 51})]);
}

#[tokio::test]
async fn require_loads_sibling_modules() {
    let (h, report) = host(&["with_module/init.lua"]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let out = h.emit("turn_start", json!({"type": "turn_start"})).await;
    assert_eq!(out.results, vec![json!({"greeting": "hello pi"})]);
}

#[tokio::test]
async fn custom_tool_streams_updates_and_returns_details() {
    let (h, _) = host(&["tools.lua"]).await;
    let names: Vec<String> = h.tools().await.into_iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["progress", "explode", "wait_exec"]);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let result = h
        .execute_tool(
            "progress",
            "call-7",
            json!({"steps": 3}),
            CancellationToken::new(),
            tx,
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "done 3");
    assert_eq!(result["details"], json!({"steps": 3, "id": "call-7"}));
    let mut updates = Vec::new();
    while let Ok(u) = rx.try_recv() {
        updates.push(u["content"][0]["text"].as_str().unwrap().to_string());
    }
    assert_eq!(updates, vec!["step 1", "step 2", "step 3"]);

    let (tx, _rx) = mpsc::unbounded_channel();
    let err = h
        .execute_tool("explode", "c", json!({}), CancellationToken::new(), tx)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        pi::lua::error::ToolRunError::Raised(pi::lua::error::LuaFailure::Raised {
            text: "boom from lua".into()
        })
    );
}

#[tokio::test]
async fn pi_exec_is_killed_when_the_signal_fires() {
    let (h, _) = host(&["tools.lua"]).await;
    let signal = CancellationToken::new();
    let trigger = signal.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let (tx, _rx) = mpsc::unbounded_channel();
    let result = h
        .execute_tool("wait_exec", "c", json!({}), signal, tx)
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "killed");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn invalid_tool_schema_is_rejected_at_registration() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad_schema.lua");
    std::fs::write(
        &path,
        "return function(pi)\n  pi.registerTool({ name = 'bad', description = 'x', parameters = { type = 'nonsense' }, execute = function() end })\nend\n",
    )
    .unwrap();
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], "."), SharedView::new("."));
    let report = handle.load().await;
    assert_eq!(report.errors.len(), 1);
    assert!(
        report.errors[0].message.contains("not a valid JSON Schema"),
        "{}",
        report.errors[0].message
    );
    assert!(handle.tools().await.is_empty());
}

#[tokio::test]
async fn json_helpers_and_session_view_are_available() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("probe.lua");
    std::fs::write(
        &path,
        r#"return function(pi)
  pi.on("agent_start", function(event, ctx)
    local decoded = pi.json.decode('{"a": [1, 2]}')
    pi.appendEntry("probe", { seen = #decoded.a })
    return {
      encoded = pi.json.encode({ x = 1 }),
      cwd = ctx.cwd,
      hasUI = ctx.hasUI,
      leaf = ctx.sessionManager.getLeafId(),
      branch = #ctx.sessionManager.getBranch(),
      thinking = pi.getThinkingLevel(),
      confirmed = ctx.ui.confirm("t", "m"),
    }
  end)
end
"#,
    )
    .unwrap();
    let view = SharedView::new("/work");
    {
        let mut v = view.lock();
        v.thinking_level = "high".into();
        v.leaf_id = Some("b".into());
        v.entries = vec![
            json!({"id": "a", "parentId": null}),
            json!({"id": "b", "parentId": "a"}),
        ];
    }
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], "."), view.clone());
    handle.load().await;
    let out = handle
        .emit("agent_start", json!({"type": "agent_start"}))
        .await;
    assert_eq!(
        out.results[0],
        json!({"encoded": "{\"x\":1}", "cwd": "/work", "hasUI": false, "leaf": "b", "branch": 2, "thinking": "high", "confirmed": false})
    );
    assert_eq!(
        view.take_actions(),
        vec![pi::lua::ExtensionAction::AppendEntry {
            custom_type: "probe".into(),
            data: Some(json!({"seen": 2}))
        }]
    );
}

#[tokio::test]
async fn wrong_return_shapes_are_reported_with_the_field_name() {
    let (h, report) = host(&["bad_shape.lua"]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let out = h
        .emit(
            "tool_call",
            json!({"type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": {"command": "ls"}}),
        )
        .await;
    assert_eq!(out.block_reason(), None, "a malformed block does not block");
    assert!(
        out.errors[0].contains("`block`") && out.errors[0].contains("boolean"),
        "{:?}",
        out.errors
    );
    let out = h
        .emit("input", json!({"type": "input", "text": "hi"}))
        .await;
    assert!(
        out.errors[0].contains("returned a string") && out.errors[0].contains("bad_shape.lua"),
        "{:?}",
        out.errors
    );
    assert_eq!(out.event["text"], "hi");
}

#[tokio::test]
async fn require_outside_the_extension_folder_is_refused() {
    let (_, report) = host(&["escape/init.lua", "guard.lua"]).await;
    assert_eq!(report.loaded, vec![fixture("guard.lua")]);
    assert!(
        report.errors[0]
            .message
            .contains("only modules inside the extension folder"),
        "{:?}",
        report.errors
    );
}

/// As in pi 0.73.1, a flag two extensions register stays the first one's: both load,
/// and the second registration is reported as a warning naming the flag and both.
#[tokio::test]
async fn a_flag_registered_twice_stays_the_first_extensions() {
    let view = SharedView::new(".");
    view.lock().capture_messages = true;
    let paths = vec![fixture("api_spec.lua"), fixture("flag_clash.lua")];
    let mut config = HostConfig::new(paths.clone(), ".");
    config.instruction_budget = 2_000_000;
    let h = ExtensionHandle::start(config, view.clone());
    let report = h.load().await;
    assert_eq!(report.loaded, paths);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let flags = h.registrations().await.flags;
    assert_eq!(flags.len(), 2);
    let plan = flags.iter().find(|f| f.name == "plan").unwrap();
    assert_eq!(plan.extension, fixture("api_spec.lua"));
    let messages = view.lock().messages.clone();
    let warned: Vec<&String> = messages.iter().filter(|m| m.contains("--plan")).collect();
    assert_eq!(warned.len(), 1, "{messages:?}");
    assert!(
        warned[0].contains("api_spec") && warned[0].contains("flag_clash"),
        "{warned:?}"
    );
}
