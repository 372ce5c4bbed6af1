//! The authoring loop: `/reload` finds extension files again (added, broken, removed),
//! load errors name the file and line while the other extensions keep working, and an
//! event name pi never emits is a warning, not a failed load.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pi::lua::handle::Rediscover;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};

use crate::support::pi_cli::PiSandbox;

fn write(dir: &Path, name: &str, source: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path
}

fn command_extension(name: &str) -> String {
    format!(
        "return function(pi)\n  pi.registerCommand(\"{name}\", {{ description = \"{name}\", \
         handler = function(args, ctx) ctx.ui.notify(\"{name} ran\", \"info\") end }})\nend\n"
    )
}

/// A host whose every load lists the `.lua` files of `dir`, as pi's discovery does.
async fn host_over(dir: &Path, view: &SharedView) -> ExtensionHandle {
    let folder = dir.to_path_buf();
    let list = move || pi::lua::discovery::extensions_in_dir(&folder);
    let mut config = HostConfig::new(list(), dir);
    config.rediscover = Some(Rediscover(Arc::new(list)));
    let handle = ExtensionHandle::start(config, view.clone());
    handle.load().await;
    handle
}

async fn command_names(handle: &ExtensionHandle) -> Vec<String> {
    let mut names: Vec<String> = handle
        .commands()
        .await
        .into_iter()
        .map(|c| c.name)
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn reload_loads_new_files_reports_broken_ones_and_forgets_removed_ones() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.lua", &command_extension("alpha"));
    let view = SharedView::new(dir.path());
    view.lock().capture_messages = true;
    let handle = host_over(dir.path(), &view).await;
    assert_eq!(command_names(&handle).await, ["alpha"]);

    let second = write(dir.path(), "b.lua", &command_extension("beta"));
    let report = handle.reload().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(command_names(&handle).await, ["alpha", "beta"]);
    assert_eq!(handle.paths().len(), 2, "the handle knows the files loaded");

    let broken = write(
        dir.path(),
        "c.lua",
        "return function(pi)\n  pi.registerCommand(\"gamma\", {\nend\n",
    );
    view.take_messages();
    let report = handle.reload().await;
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    assert_eq!(report.errors[0].path, broken);
    let shown = view.take_messages().join("\n");
    assert!(
        shown.contains("c.lua:3"),
        "file and line are named: {shown}"
    );
    assert_eq!(
        command_names(&handle).await,
        ["alpha", "beta"],
        "the others stay loaded"
    );
    handle.run_command("alpha", "").await.unwrap();
    assert!(view.take_messages().iter().any(|m| m.contains("alpha ran")));

    std::fs::remove_file(&second).unwrap();
    std::fs::remove_file(&broken).unwrap();
    let report = handle.reload().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(command_names(&handle).await, ["alpha"], "beta is gone");
}

#[tokio::test]
async fn a_host_with_nothing_to_load_starts_no_vm_until_a_reload_finds_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let view = SharedView::new(dir.path());
    let handle = host_over(dir.path(), &view).await;
    assert!(command_names(&handle).await.is_empty());
    let input = serde_json::json!({"text": "x"});
    assert_eq!(handle.emit("input", input).await.event["text"], "x");
    assert!(
        !handle.is_started(),
        "no host thread while there is nothing to run"
    );

    write(dir.path(), "late.lua", &command_extension("late"));
    let report = handle.reload().await;
    assert!(handle.is_started());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(command_names(&handle).await, ["late"]);
    handle.run_command("late", "").await.unwrap();
}

#[tokio::test]
async fn an_event_pi_never_emits_is_a_warning_and_the_extension_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "old.lua",
        "return function(pi)\n  pi.on(\"session_switch\", function() end)\n  \
         pi.on(\"session_switch\", function() end)\n  \
         pi.registerCommand(\"still\", { handler = function() end })\nend\n",
    );
    let view = SharedView::new(dir.path());
    view.lock().capture_messages = true;
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], dir.path()), view.clone());
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(command_names(&handle).await, ["still"]);
    let warnings: Vec<String> = view
        .take_messages()
        .into_iter()
        .filter(|m| m.contains("session_switch"))
        .collect();
    assert_eq!(warnings.len(), 1, "warned once: {warnings:?}");
    assert!(warnings[0].starts_with("Warning: ") && warnings[0].contains("old.lua"));
}

#[test]
fn a_prompt_run_reports_a_broken_extension_on_stderr_and_still_answers() {
    let sandbox = PiSandbox::new();
    let good = write(&sandbox.project, "good.lua", &command_extension("fine"));
    let bad = write(
        &sandbox.project,
        "bad.lua",
        "return function(pi)\n  error(\"boom\")\nend\n",
    );
    let out = sandbox.run(
        &[
            "--provider",
            "demo",
            "-e",
            good.to_str().unwrap(),
            "-e",
            bad.to_str().unwrap(),
            "-p",
            "hi",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("bad.lua:2"), "{stderr}");
    assert!(!stderr.contains("good.lua"), "{stderr}");
    assert!(!out.stdout.is_empty(), "the prompt is still answered");
}
