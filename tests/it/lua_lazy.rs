//! Lazy activation and the host's timings: an extension that returns
//! `{ setup, activate }` is listed from its spec and set up on its first command, tool,
//! event, flag or file type; every load and handler is timed.

use std::path::{Path, PathBuf};

use pi::lua::profile::ExtStatus;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use serde_json::json;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// A lazy extension declaring `/cmdN` that writes `ran N <args>` to `out` when run.
fn lazy_command(dir: &Path, n: usize, out: &Path) -> PathBuf {
    let path = dir.join(format!("lazy{n:02}.lua"));
    let source = format!(
        "return {{\n\
           capabilities = {{ fs = {{ write = {{ {out:?} }} }} }},\n\
           activate = {{ commands = {{ {{ name = 'cmd{n}', description = 'command {n}' }} }} }},\n\
           setup = function(pi)\n\
             pi.registerCommand('cmd{n}', {{ description = 'command {n}', handler = function(args)\n\
               local f = assert(io.open({out:?}, 'w'))\n\
               f:write('ran {n} ' .. args)\n\
               f:close()\n\
             end }})\n\
           end,\n\
         }}\n",
        out = out.display().to_string()
    );
    std::fs::write(&path, source).unwrap();
    path
}

async fn start(paths: Vec<PathBuf>, cwd: &Path) -> (ExtensionHandle, SharedView) {
    let view = SharedView::new(cwd);
    view.lock().capture_messages = true;
    let handle = ExtensionHandle::start(HostConfig::new(paths, cwd), view.clone());
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    (handle, view)
}

fn statuses(profile: &pi::lua::profile::Profile) -> Vec<ExtStatus> {
    profile.extensions.iter().map(|e| e.status).collect()
}

#[tokio::test]
async fn sixty_lazy_extensions_list_their_commands_and_only_the_used_one_loads() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let paths: Vec<PathBuf> = (0..60).map(|n| lazy_command(dir.path(), n, &out)).collect();
    let (handle, _view) = start(paths, dir.path()).await;

    let commands = handle.commands().await;
    assert_eq!(commands.len(), 60, "every declared command is listed");
    assert_eq!(commands[7].name, "cmd7");
    assert_eq!(commands[7].description.as_deref(), Some("command 7"));
    let profile = handle.profile().await;
    assert!(statuses(&profile).iter().all(|s| *s == ExtStatus::Lazy));

    handle.run_command("cmd7", "hello").await.unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "ran 7 hello");
    let profile = handle.profile().await;
    for (n, ext) in profile.extensions.iter().enumerate() {
        let want = if n == 7 {
            ExtStatus::Loaded
        } else {
            ExtStatus::Lazy
        };
        assert_eq!(ext.status, want, "extension {n}");
        assert!(ext.lazy);
    }
    let seven = &profile.extensions[7];
    assert!(seven.load_ms > 0.0);
    let run = seven.handlers.iter().find(|h| h.name == "/cmd7").unwrap();
    assert_eq!(run.count, 1);

    // The second run goes straight to the registered command.
    handle.run_command("cmd7", "again").await.unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "ran 7 again");
    assert_eq!(
        handle.commands().await.len(),
        60,
        "no duplicate once loaded"
    );
}

#[tokio::test]
async fn a_lazy_tool_is_advertised_with_its_schema_and_loads_when_called() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shout.lua");
    std::fs::write(
        &path,
        r#"
local schema = { type = "object", properties = { text = { type = "string" } }, required = { "text" } }
return {
  activate = { tools = { { name = "shout", description = "Upper-cases text", parameters = schema } } },
  setup = function(pi)
    pi.registerTool({ name = "shout", label = "Shout", description = "Upper-cases text", parameters = schema,
      execute = function(id, params) return { content = { { type = "text", text = params.text:upper() } } } end })
  end,
}
"#,
    )
    .unwrap();
    let (handle, _view) = start(vec![path], dir.path()).await;
    let tools = handle.tools().await;
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].description, "Upper-cases text");
    assert_eq!(tools[0].parameters["required"], json!(["text"]));
    assert_eq!(statuses(&handle.profile().await), vec![ExtStatus::Lazy]);

    let (updates, _rx) = mpsc::unbounded_channel();
    let result = handle
        .execute_tool(
            "shout",
            "c1",
            json!({"text": "hi"}),
            CancellationToken::new(),
            updates,
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "HI");
    let profile = handle.profile().await;
    assert_eq!(statuses(&profile), vec![ExtStatus::Loaded]);
    assert!(
        profile.extensions[0]
            .handlers
            .iter()
            .any(|h| h.name == "tool:shout")
    );
    assert_eq!(
        handle.tools().await[0].label,
        "Shout",
        "the registered tool replaces the spec"
    );
}

#[tokio::test]
async fn events_flags_and_file_types_each_load_their_extension() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, activate: &str| {
        let path = dir.path().join(format!("{name}.lua"));
        let source = format!(
            "return {{ activate = {{ {activate} }}, setup = function(pi)\n\
               pi.on('agent_start', function() end)\n\
             end }}\n"
        );
        std::fs::write(&path, source).unwrap();
        path
    };
    let on_event = write("on_event", "events = { 'turn_start' }");
    let on_flag = write("on_flag", "flags = { '--plan' }");
    let on_csv = write("on_csv", "fileTypes = { '.csv' }");
    let untouched = write("untouched", "events = { 'agent_end' }");
    let view = SharedView::new(dir.path());
    view.lock().capture_messages = true;
    let mut config = HostConfig::new(vec![on_event, on_flag, on_csv, untouched], dir.path());
    config.cli_flags = vec![("plan".into(), None)];
    let handle = ExtensionHandle::start(config, view);
    assert!(handle.load().await.errors.is_empty());
    let lazy = ExtStatus::Lazy;
    let loaded = ExtStatus::Loaded;
    assert_eq!(
        statuses(&handle.profile().await),
        vec![lazy, loaded, lazy, lazy],
        "the given flag loads its extension at start"
    );

    assert!(
        handle.has_handlers("turn_start"),
        "a declared event reaches the host"
    );
    handle
        .emit("turn_start", json!({"type": "turn_start"}))
        .await;
    assert_eq!(
        statuses(&handle.profile().await),
        vec![loaded, loaded, lazy, lazy]
    );

    // Reading another type leaves the csv extension alone; reading a .CSV loads it.
    let call =
        |path: &str| json!({"type": "tool_call", "toolName": "read", "input": {"path": path}});
    handle.emit("tool_call", call("notes.md")).await;
    assert_eq!(statuses(&handle.profile().await)[2], lazy);
    handle.emit("tool_call", call("data/Sales.CSV")).await;
    assert_eq!(
        statuses(&handle.profile().await),
        vec![loaded, loaded, loaded, lazy]
    );
}

#[tokio::test]
async fn a_spec_without_triggers_loads_at_once_and_a_bad_tool_spec_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let eager = dir.path().join("eager.lua");
    std::fs::write(
        &eager,
        "return { future = true, setup = function(pi) pi.registerCommand('now', { handler = function() end }) end }",
    )
    .unwrap();
    let bad = dir.path().join("bad.lua");
    std::fs::write(
        &bad,
        "return { activate = { tools = { 'shout' } }, setup = function(pi) end }",
    )
    .unwrap();
    let view = SharedView::new(dir.path());
    view.lock().capture_messages = true;
    let handle =
        ExtensionHandle::start(HostConfig::new(vec![eager, bad.clone()], dir.path()), view);
    let report = handle.load().await;
    assert_eq!(report.loaded.len(), 1);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].path, bad);
    assert!(
        report.errors[0]
            .message
            .contains("description and parameters"),
        "{}",
        report.errors[0].message
    );
    let profile = handle.profile().await;
    assert_eq!(
        statuses(&profile),
        vec![ExtStatus::Loaded, ExtStatus::Error]
    );
    assert!(profile.extensions[1].last_error.is_some());
    assert_eq!(handle.commands().await[0].name, "now");
}

#[tokio::test]
async fn handler_times_are_counted_and_a_slow_handler_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slow.lua");
    std::fs::write(
        &path,
        "return function(pi)\n\
           pi.on('turn_start', function() pi.sleep(30) end)\n\
           pi.on('turn_end', function() end)\n\
           pi.registerCommand('nap', { handler = function() pi.sleep(30) end })\n\
         end\n",
    )
    .unwrap();
    let view = SharedView::new(dir.path());
    view.lock().capture_messages = true;
    let mut config = HostConfig::new(vec![path], dir.path());
    config.slow_handler_ms = 20;
    let handle = ExtensionHandle::start(config, view.clone());
    assert!(handle.load().await.errors.is_empty());
    for _ in 0..3 {
        handle
            .emit("turn_start", json!({"type": "turn_start"}))
            .await;
    }
    handle.emit("turn_end", json!({"type": "turn_end"})).await;
    handle.run_command("nap", "").await.unwrap();
    let profile = handle.profile().await;
    let ext = &profile.extensions[0];
    let slow = ext
        .handlers
        .iter()
        .find(|h| h.name == "turn_start")
        .unwrap();
    assert_eq!(slow.count, 3);
    assert!(slow.max_ms >= 30.0 && slow.total_ms >= 90.0, "{slow:?}");
    let quick = ext.handlers.iter().find(|h| h.name == "turn_end").unwrap();
    assert_eq!(quick.count, 1);
    assert!(quick.max_ms < 20.0);
    assert_eq!(ext.handlers[0].name, "turn_start", "slowest total first");
    let nap = ext.handlers.iter().find(|h| h.name == "/nap").unwrap();
    assert!(nap.count == 1 && nap.max_ms >= 30.0, "{nap:?}");
    assert!(profile.vm_memory_bytes > 0 && ext.memory_bytes > 0);
    let warnings: Vec<String> = view
        .take_messages()
        .into_iter()
        .filter(|m| m.contains("slowHandlerMs"))
        .collect();
    assert_eq!(
        warnings.len(),
        1,
        "a slow command is not named: {warnings:?}"
    );
    assert!(warnings[0].contains("slow.lua") && warnings[0].contains("turn_start"));
}

#[tokio::test]
async fn with_every_spec_cached_no_vm_starts_until_the_first_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let cache = dir.path().join("cache/lazy.json");
    let paths: Vec<PathBuf> = (0..3).map(|n| lazy_command(dir.path(), n, &out)).collect();
    let start_cached = |paths: Vec<PathBuf>| {
        let mut config = HostConfig::new(paths, dir.path());
        config.spec_cache = Some(cache.clone());
        ExtensionHandle::start(config, SharedView::new(dir.path()))
    };
    // The first start runs every file and fills the cache.
    let first = start_cached(paths.clone());
    assert!(first.load().await.errors.is_empty());
    assert!(first.profile().await.vm_memory_bytes > 0);
    assert!(cache.is_file());
    drop(first);

    // The next start answers from the cache: no VM, the commands still listed.
    let second = start_cached(paths.clone());
    assert_eq!(second.load().await.loaded.len(), 3);
    let profile = second.profile().await;
    assert_eq!(profile.vm_memory_bytes, 0, "no VM yet");
    assert_eq!(statuses(&profile), vec![ExtStatus::Lazy; 3]);
    let names: Vec<String> = second
        .commands()
        .await
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(names, ["cmd0", "cmd1", "cmd2"]);
    second.run_command("cmd2", "x").await.unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "ran 2 x");
    let profile = second.profile().await;
    assert!(profile.vm_memory_bytes > 0);
    assert_eq!(
        statuses(&profile),
        vec![ExtStatus::Lazy, ExtStatus::Lazy, ExtStatus::Loaded]
    );
    drop(second);

    // A changed file is read again; an extension that is not lazy loads at start.
    std::fs::write(
        &paths[0],
        "return { activate = { commands = { 'renamed' } }, setup = function(pi) end }",
    )
    .unwrap();
    let third = start_cached(paths.clone());
    third.load().await;
    assert!(
        third.profile().await.vm_memory_bytes > 0,
        "a stale entry loads the files"
    );
    assert_eq!(third.commands().await[0].name, "renamed");
    drop(third);
    let eager = dir.path().join("eager.lua");
    std::fs::write(&eager, "return function(pi) end").unwrap();
    let fourth = start_cached(vec![paths[1].clone(), eager]);
    fourth.load().await;
    let profile = fourth.profile().await;
    assert!(profile.vm_memory_bytes > 0);
    assert_eq!(statuses(&profile), vec![ExtStatus::Lazy, ExtStatus::Loaded]);
}

#[tokio::test]
async fn the_model_sees_a_lazy_tool_and_calling_it_loads_the_extension() {
    use crate::support::lua_agent::session_with_tools;
    use pi::ai::providers::faux::{faux_message, faux_text, faux_tool_call_with_id};
    use pi::session::manager::SessionManager;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shout.lua");
    std::fs::write(
        &path,
        r#"
local schema = { type = "object", properties = { text = { type = "string" } }, required = { "text" } }
return {
  activate = { tools = { { name = "shout", description = "Upper-cases text", parameters = schema } } },
  setup = function(pi)
    pi.registerTool({ name = "shout", label = "Shout", description = "Upper-cases text", parameters = schema,
      execute = function(id, params) return { content = { { type = "text", text = params.text:upper() } } } end })
  end,
}
"#,
    )
    .unwrap();
    let host = HostConfig::new(vec![path], dir.path());
    let (mut agent, faux) =
        session_with_tools(host, SessionManager::in_memory(dir.path()), &[]).await;
    let handle = agent.extensions().unwrap().handle.clone();
    assert_eq!(statuses(&handle.profile().await), vec![ExtStatus::Lazy]);

    faux.push_message(faux_message(vec![faux_tool_call_with_id(
        "c1",
        "shout",
        json!({"text": "quiet"}),
    )]));
    faux.push_message(faux_message(vec![faux_text("done")]));
    agent
        .prompt("shout it".into(), Vec::new(), &CancellationToken::new())
        .await;

    // The first request went out before the extension was set up.
    let first = faux.requests()[0].context.clone();
    let tool = first.tools.iter().find(|t| t.name == "shout").unwrap();
    assert_eq!(tool.description, "Upper-cases text");
    assert_eq!(tool.parameters["required"], json!(["text"]));
    let results: Vec<serde_json::Value> = agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["message"]["role"] == "toolResult")
        .collect();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["message"]["content"][0]["text"], "QUIET");
    assert_eq!(statuses(&handle.profile().await), vec![ExtStatus::Loaded]);
}
