//! Declared capabilities of extensions: an extension that declares only `fs.read` of
//! the workspace is refused every other right (each refusal names the capability) while
//! its declared read works and another extension carries on; an extension that declares
//! nothing works as before and pi names it once per session; `pi install` lists what a
//! package's extensions request and refuses without `--yes` when it cannot ask.

use std::path::Path;

use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::support::lua_agent::{custom_entries, session_with, write_extension};
use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};

const READER: &str = r#"
return {
  capabilities = { fs = { read = { "." } } },
  setup = function(pi)
    pi.registerCommand("probe", { handler = function()
      local function try(f, ...)
        local ok, e = pcall(f, ...)
        return ok and "ok" or tostring(e)
      end
      local r = {}
      r.read = pi.fs.read("data.txt")
      local f = io.open("data.txt", "r")
      r.io_read = f:read("a")
      f:close()
      r.fs_write = try(pi.fs.write, "out.txt", "x")
      r.exec = try(pi.exec, "echo", { "hi" })
      r.spawn = try(pi.spawn, "echo", { "hi" })
      r.io_write = try(io.open, "out.txt", "w")
      r.os_execute = try(os.execute, "true")
      r.os_remove = try(os.remove, "data.txt")
      r.native = try(require, "native")
      r.getenv = try(os.getenv, "HOME")
      r.http = try(pi.http.request, { url = "http://127.0.0.1:9/x" })
      r.loadlib = try(package.loadlib, "x", "y")
      r.debug = type(debug)
      local _, bytecode = load(string.dump(function() return 1 end))
      r.bytecode = tostring(bytecode)
      r.read_tool = try(pi.createReadTool)
      r.write_tool = try(pi.createWriteTool)
      r.bash_tool = try(pi.createBashTool)
      r.own_bash = try(pi.createBashTool, { operations = { exec = function() end } })
      r.same_io = _G.io == io and load("return io")() == io
      r.meta = tostring(getmetatable(_G))
      pi.appendEntry("probe", r)
    end })
  end,
}
"#;

fn other_source(target: &Path) -> String {
    format!(
        r#"return function(pi)
  pi.registerCommand("other", {{ handler = function()
    pi.fs.write("other.txt", "from other")
    local f = assert(io.open({path:?}, "w"))
    f:write("raw io")
    f:close()
    pi.appendEntry("other", {{ home = os.getenv("HOME") ~= nil }})
  end }})
end"#,
        path = target.display().to_string()
    )
}

#[tokio::test]
async fn a_read_only_extension_is_refused_the_rest_and_others_carry_on() {
    let ws = tempfile::tempdir().unwrap();
    let ext = tempfile::tempdir().unwrap();
    std::fs::write(ws.path().join("data.txt"), "the data").unwrap();
    std::fs::write(ext.path().join("native.so"), "not really a library").unwrap();
    let reader = write_extension(ext.path(), "reader.lua", READER);
    let raw_target = ws.path().join("other-raw.txt");
    let other = write_extension(ext.path(), "other.lua", &other_source(&raw_target));
    let (mut agent, _faux) = session_with(vec![reader, other], ws.path()).await;
    let none = CancellationToken::new();
    agent
        .run_extension_command("probe", "", &none)
        .await
        .unwrap();
    let r = custom_entries(&agent, "probe").pop().expect("probe ran");
    assert_eq!(r["read"], "the data");
    assert_eq!(r["io_read"], "the data");
    for (key, capability) in [
        ("fs_write", "fs.write"),
        ("exec", "exec"),
        ("spawn", "exec"),
        ("io_write", "fs.write"),
        ("os_execute", "exec"),
        ("os_remove", "fs.write"),
        ("getenv", "env"),
        ("http", "net"),
        ("write_tool", "fs.write"),
        ("bash_tool", "exec"),
    ] {
        let e = r[key].as_str().unwrap();
        assert!(
            e.contains("\"reader\"") && e.contains(capability) && e.contains("capabilities = {"),
            "{key}: {e}"
        );
    }
    let native = r["native"].as_str().unwrap();
    assert!(
        native.contains("native code") && native.contains("native.so"),
        "{native}"
    );
    assert!(
        r["loadlib"].as_str().unwrap().contains("native code"),
        "{r}"
    );
    assert_eq!(r["read_tool"], "ok", "fs.read of the workspace is declared");
    assert_eq!(
        r["own_bash"], "ok",
        "a bash tool over its own exec needs no exec"
    );
    assert_eq!(r["debug"], "nil");
    assert!(r["bytecode"].as_str().unwrap().contains("binary"), "{r}");
    assert_eq!(r["same_io"], true);
    assert_eq!(r["meta"], "false");
    assert!(!ws.path().join("out.txt").exists());
    assert!(ws.path().join("data.txt").exists());

    // The other extension, declaring nothing, still has every right.
    agent
        .run_extension_command("other", "", &none)
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(ws.path().join("other.txt")).unwrap(),
        "from other"
    );
    assert_eq!(std::fs::read_to_string(&raw_target).unwrap(), "raw io");
    assert_eq!(custom_entries(&agent, "other"), vec![json!({"home": true})]);
}

#[tokio::test]
async fn extensions_without_declarations_are_named_once_per_session() {
    let ws = tempfile::tempdir().unwrap();
    let ext = tempfile::tempdir().unwrap();
    let paths = vec![
        write_extension(ext.path(), "plain.lua", "return function(pi) end"),
        write_extension(ext.path(), "reader.lua", READER),
        write_extension(
            ext.path(),
            "legacy.lua",
            "return { setup = function(pi) end }",
        ),
    ];
    let view = SharedView::new(ws.path());
    view.lock().capture_messages = true;
    let handle = ExtensionHandle::start(HostConfig::new(paths, ws.path()), view.clone());
    assert!(handle.load().await.errors.is_empty());
    assert!(handle.reload().await.errors.is_empty());
    assert!(handle.reload().await.errors.is_empty());
    let notices: Vec<String> = view
        .take_messages()
        .into_iter()
        .filter(|m| m.contains("unrestricted"))
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains("plain, legacy"), "{}", notices[0]);
    assert!(!notices[0].contains("reader"), "{}", notices[0]);
}

#[test]
fn print_mode_keeps_the_notice_off_stdout() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("fine"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let ext = sandbox.project.join("plain.lua");
    std::fs::write(&ext, "return function(pi) end").unwrap();
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "-e",
            ext.to_str().unwrap(),
            "-p",
            "hi",
        ],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout.trim(), "fine");
    assert_eq!(
        stderr.matches("run unrestricted: plain").count(),
        1,
        "{stderr}"
    );
}

fn package(root: &Path) {
    let pkg = root.join("pkg");
    std::fs::create_dir_all(pkg.join("extensions")).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        json!({"name": "pkg", "pi": {"extensions": ["extensions"],
               "capabilities": {"net": ["api.github.com"]}}})
        .to_string(),
    )
    .unwrap();
    std::fs::write(
        pkg.join("extensions/gitty.lua"),
        "return { capabilities = { exec = { 'git' }, fs = { write = { '$extension/cache' } } },\n\
         setup = function(pi) end }",
    )
    .unwrap();
}

fn settings(sandbox: &PiSandbox) -> Value {
    std::fs::read_to_string(sandbox.agent_dir.join("settings.json"))
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or(json!({}))
}

#[test]
fn install_lists_the_request_and_needs_yes_without_a_terminal() {
    let sandbox = PiSandbox::new();
    package(sandbox.root.path());
    let refused = sandbox.run(&["install", "../pkg"], None);
    let stdout = String::from_utf8_lossy(&refused.stdout);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("extensions/gitty.lua:"), "{stdout}");
    assert!(stdout.contains("exec: git"), "{stdout}");
    assert!(stdout.contains("net: api.github.com"), "manifest: {stdout}");
    assert!(stdout.contains("fs.write: $extension/cache"), "{stdout}");
    assert!(stderr.contains("--yes"), "{stderr}");
    assert_eq!(settings(&sandbox).get("packages"), None);

    let accepted = sandbox.run(&["install", "../pkg", "--yes"], None);
    assert!(
        accepted.status.success(),
        "{}",
        String::from_utf8_lossy(&accepted.stderr)
    );
    assert!(String::from_utf8_lossy(&accepted.stdout).contains("exec: git"));
    assert_eq!(settings(&sandbox)["packages"].as_array().unwrap().len(), 1);

    let listed = sandbox.run(&["list"], None);
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(listed.contains("extensions/gitty.lua:"), "{listed}");
    assert!(listed.contains("exec: git"), "{listed}");
}
