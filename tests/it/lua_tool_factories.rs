//! `pi.createReadTool`/`createWriteTool`/`createEditTool`/`createBashTool`: the built-in
//! tools with their I/O going through Lua operations (tests/fixtures/extensions/
//! tool_factories.lua keeps its files in a table and fakes a command transport).

use std::path::Path;
use std::time::Duration;

use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::support::lua_agent::fixture;

async fn host(name: &str, cwd: &Path) -> (ExtensionHandle, Vec<String>) {
    let config = HostConfig::new(vec![fixture(name)], cwd);
    let handle = ExtensionHandle::start(config, SharedView::new(cwd));
    let report = handle.load().await;
    let errors = report.errors.iter().map(|e| e.message.clone()).collect();
    (handle, errors)
}

async fn run(handle: &ExtensionHandle, tool: &str, params: Value) -> Result<Value, String> {
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    handle
        .execute_tool(tool, "call-1", params, CancellationToken::new(), tx)
        .await
        .map_err(|e| e.to_string())
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn created_file_tools_keep_the_built_in_output_over_custom_operations() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, errors) = host("tool_factories.lua", dir.path()).await;
    assert!(errors.is_empty(), "{errors:?}");
    let names: Vec<String> = handle.tools().await.into_iter().map(|t| t.name).collect();
    for name in ["read", "write", "edit", "bash", "hooked"] {
        assert!(names.contains(&name.to_string()), "{names:?}");
    }
    let read = handle
        .tools()
        .await
        .into_iter()
        .find(|t| t.name == "read")
        .unwrap();
    assert!(read.description.starts_with("Read the contents of a file."));
    assert_eq!(read.prompt_snippet.as_deref(), Some("Read file contents"));

    // read: offsets, limits and truncation notices of the built-in tool.
    let out = run(&handle, "read", json!({"path": "a.txt"}))
        .await
        .unwrap();
    assert_eq!(text(&out), "alpha\nbeta\ngamma\n");
    let out = run(
        &handle,
        "read",
        json!({"path": "a.txt", "offset": 2, "limit": 1}),
    )
    .await
    .unwrap();
    assert_eq!(
        text(&out),
        "beta\n\n[2 more lines in file. Use offset=3 to continue.]"
    );
    let out = run(&handle, "read", json!({"path": "big.txt"}))
        .await
        .unwrap();
    assert!(
        text(&out)
            .ends_with("line 2000\n\n[Showing lines 1-2000 of 3000. Use offset=2001 to continue.]"),
        "{}",
        text(&out)
    );
    assert_eq!(out["details"]["truncation"]["truncatedBy"], "lines");
    // The operation's own error reaches the model.
    let err = run(&handle, "read", json!({"path": "nope.txt"}))
        .await
        .unwrap_err();
    assert_eq!(err, "ENOENT: remote /virtual/nope.txt");

    // write: parent folder first, then the file, through the operations.
    let out = run(
        &handle,
        "write",
        json!({"path": "new/b.txt", "content": "fresh"}),
    )
    .await
    .unwrap();
    assert_eq!(text(&out), "Successfully wrote 5 bytes to new/b.txt");
    let dump = run(&handle, "dump", json!({"path": "/virtual/new/b.txt"}))
        .await
        .unwrap();
    assert_eq!(text(&dump), "fresh");
    assert_eq!(
        dump["details"]["log"],
        json!(["mkdir /virtual/new", "write /virtual/new/b.txt"])
    );
    assert!(!dir.path().join("new").exists());

    // edit: the built-in matching, legacy arguments and diff.
    let out = run(
        &handle,
        "edit",
        json!({"path": "a.txt", "oldText": "beta", "newText": "BETA"}),
    )
    .await
    .unwrap();
    assert_eq!(text(&out), "Successfully replaced 1 block(s) in a.txt.");
    assert_eq!(out["details"]["firstChangedLine"], 2);
    let diff = out["details"]["diff"].as_str().unwrap();
    assert!(
        diff.contains("-2 beta") && diff.contains("+2 BETA"),
        "{diff}"
    );
    let dump = run(&handle, "dump", json!({"path": "/virtual/a.txt"}))
        .await
        .unwrap();
    assert_eq!(text(&dump), "alpha\nBETA\ngamma\n");
    let err = run(
        &handle,
        "edit",
        json!({"path": "a.txt", "edits": [{"oldText": "zeta", "newText": "x"}]}),
    )
    .await
    .unwrap_err();
    assert!(
        err.starts_with("Could not find the exact text in a.txt"),
        "{err}"
    );
    let err = run(
        &handle,
        "edit",
        json!({"path": "gone.txt", "oldText": "a", "newText": "b"}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err,
        "Could not edit file: gone.txt. ENOENT: remote /virtual/gone.txt."
    );
}

#[tokio::test]
async fn created_bash_tool_streams_custom_exec_output_with_built_in_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, errors) = host("tool_factories.lua", dir.path()).await;
    assert!(errors.is_empty(), "{errors:?}");
    let cwd = dir.path().display().to_string();

    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let out = handle
        .execute_tool(
            "bash",
            "c1",
            json!({"command": "ls"}),
            CancellationToken::new(),
            tx,
        )
        .await
        .unwrap();
    assert_eq!(text(&out), format!("ran ls\nin {cwd}\n"));
    let mut partials = Vec::new();
    while let Ok(p) = rx.try_recv() {
        partials.push(p);
    }
    assert!(
        partials.iter().any(|p| text(p).starts_with("ran ls")),
        "output streams as partial results: {partials:?}"
    );

    let err = run(&handle, "bash", json!({"command": "fail"}))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        format!("ran fail\nin {cwd}\n\n\nCommand exited with code 2")
    );

    let signal = CancellationToken::new();
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let hang = handle.execute_tool("bash", "c2", json!({"command": "hang"}), signal.clone(), tx);
    let abort = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        signal.cancel();
    };
    let (result, ()) = tokio::join!(hang, abort);
    assert_eq!(result.unwrap_err().to_string(), "Command aborted");
}

#[tokio::test]
async fn spawn_hook_adjusts_command_cwd_and_env_of_the_local_shell() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, errors) = host("tool_factories.lua", dir.path()).await;
    assert!(errors.is_empty(), "{errors:?}");
    let out = run(
        &handle,
        "hooked",
        json!({"command": "echo \"$GREETING\"; pwd"}),
    )
    .await
    .unwrap();
    // The prefix runs before the command; the hook set the environment and cwd.
    assert_eq!(text(&out), "hi!\n/\n");
    let err = run(&handle, "hooked", json!({"command": "exit 4"}))
        .await
        .unwrap_err();
    assert_eq!(err, "(no output)\n\nCommand exited with code 4");
}

#[tokio::test]
async fn a_spawn_hook_that_is_not_a_function_is_named_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let (_handle, errors) = host("tool_factories_bad.lua", dir.path()).await;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("createBashTool: spawnHook must be a function, got string"),
        "{errors:?}"
    );
}
