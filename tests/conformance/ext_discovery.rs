//! Finding extension files and loading them: direct files of the `extensions` folder,
//! folders with an entry file (`init.lua` before `index.lua`) or a `package.json` naming
//! their entries, what is not an extension, explicit paths, load failures, and what a
//! loaded extension registered. Extensions are Lua here: `init.lua`/`index.lua` stand for
//! pi 0.73.1's `index.ts`/`index.js`.
//! orig-file: packages/coding-agent/test/extensions-discovery.test.ts

use std::path::{Path, PathBuf};

use pi::lua::discovery::{DiscoveryInput, discover_extensions};
use pi::lua::{ExtensionHandle, HostConfig, LoadReport, SharedView};

const COMMAND: &str =
    r#"return function(pi) pi.registerCommand("test", { handler = function() end }) end"#;

fn tool(name: &str) -> String {
    format!(
        r#"return function(pi)
  pi.registerTool({{ name = "{name}", label = "{name}", description = "Test tool",
    parameters = {{ type = "object", properties = {{}} }},
    execute = function() return {{ content = {{ {{ type = "text", text = "ok" }} }} }} end }})
end"#
    )
}

struct Dir {
    tmp: tempfile::TempDir,
}

impl Dir {
    fn new() -> Self {
        let d = Dir {
            tmp: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir_all(d.ext()).unwrap();
        d
    }

    /// The `extensions` folder of the agent folder.
    fn ext(&self) -> PathBuf {
        self.tmp.path().join("extensions")
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.ext().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// What discovery finds with the agent folder and the working folder both here, and
    /// `explicit` given with `-e`.
    fn discover(&self, explicit: &[&Path]) -> Vec<PathBuf> {
        discover_extensions(&DiscoveryInput {
            agent_dir: self.tmp.path().to_path_buf(),
            cwd: self.tmp.path().to_path_buf(),
            cli_paths: explicit.iter().map(|p| p.display().to_string()).collect(),
            ..Default::default()
        })
    }

    /// Discover, then load what was found.
    async fn load(&self, explicit: &[&Path]) -> (LoadReport, ExtensionHandle) {
        load_paths(self.discover(explicit), self.tmp.path()).await
    }
}

async fn load_paths(paths: Vec<PathBuf>, cwd: &Path) -> (LoadReport, ExtensionHandle) {
    let view = SharedView::new(cwd);
    view.lock().capture_messages = true;
    let handle = ExtensionHandle::start(HostConfig::new(paths, cwd), view);
    let report = handle.load().await;
    (report, handle)
}

fn names(paths: &[PathBuf], root: &Path) -> Vec<String> {
    let mut out: Vec<String> = paths
        .iter()
        .map(|p| {
            p.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    out.sort();
    out
}

/// orig: extensions discovery › discovers direct .ts files in extensions/
#[tokio::test]
async fn direct_files() {
    let d = Dir::new();
    d.write("foo.lua", COMMAND);
    d.write("bar.lua", COMMAND);
    d.write("notes.md", "not an extension");
    let (report, _) = d.load(&[]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(names(&report.loaded, &d.ext()), ["bar.lua", "foo.lua"]);
}

// orig-skip: extensions discovery › discovers direct .js files in extensions/ — extensions are Lua here; there is no second source language to find (direct `*.lua` files are the case above).

/// orig: extensions discovery › discovers subdirectory with index.ts
#[test]
fn a_folder_with_init_lua() {
    let d = Dir::new();
    d.write("my-ext/init.lua", COMMAND);
    assert_eq!(names(&d.discover(&[]), &d.ext()), ["my-ext/init.lua"]);
}

/// orig: extensions discovery › discovers subdirectory with index.js
#[test]
fn a_folder_with_index_lua() {
    let d = Dir::new();
    d.write("my-ext/index.lua", COMMAND);
    assert_eq!(names(&d.discover(&[]), &d.ext()), ["my-ext/index.lua"]);
}

/// orig: extensions discovery › prefers index.ts over index.js
#[test]
fn init_lua_before_index_lua() {
    let d = Dir::new();
    d.write("my-ext/init.lua", COMMAND);
    d.write("my-ext/index.lua", COMMAND);
    assert_eq!(names(&d.discover(&[]), &d.ext()), ["my-ext/init.lua"]);
}

/// orig: extensions discovery › discovers subdirectory with package.json pi field
#[test]
fn a_folder_with_a_manifest() {
    let d = Dir::new();
    d.write("my-package/src/main.lua", COMMAND);
    d.write(
        "my-package/package.json",
        r#"{"name": "my-package", "pi": {"extensions": ["./src/main.lua"]}}"#,
    );
    assert_eq!(
        names(&d.discover(&[]), &d.ext()),
        ["my-package/src/main.lua"]
    );
}

/// orig: extensions discovery › package.json can declare multiple extensions
#[test]
fn a_manifest_with_several_extensions() {
    let d = Dir::new();
    d.write("my-package/ext1.lua", COMMAND);
    d.write("my-package/ext2.lua", COMMAND);
    d.write(
        "my-package/package.json",
        r#"{"pi": {"extensions": ["./ext1.lua", "./ext2.lua"]}}"#,
    );
    assert_eq!(
        names(&d.discover(&[]), &d.ext()),
        ["my-package/ext1.lua", "my-package/ext2.lua"]
    );
}

/// orig: extensions discovery › package.json with pi field takes precedence over index.ts
#[test]
fn a_manifest_before_init_lua() {
    let d = Dir::new();
    d.write("my-package/init.lua", COMMAND);
    d.write("my-package/custom.lua", COMMAND);
    d.write(
        "my-package/package.json",
        r#"{"pi": {"extensions": ["./custom.lua"]}}"#,
    );
    assert_eq!(names(&d.discover(&[]), &d.ext()), ["my-package/custom.lua"]);
}

/// orig: extensions discovery › ignores package.json without pi field, falls back to index.ts
#[test]
fn a_manifest_without_pi_falls_back_to_init_lua() {
    let d = Dir::new();
    d.write("my-package/init.lua", COMMAND);
    d.write(
        "my-package/package.json",
        r#"{"name": "my-package", "version": "1.0.0"}"#,
    );
    assert_eq!(names(&d.discover(&[]), &d.ext()), ["my-package/init.lua"]);
}

/// orig: extensions discovery › ignores subdirectory without index or package.json
#[test]
fn a_folder_without_an_entry_is_not_an_extension() {
    let d = Dir::new();
    d.write("not-an-extension/helper.lua", COMMAND);
    d.write("not-an-extension/README.md", "nothing");
    assert!(d.discover(&[]).is_empty());
    // With an entry file it is one.
    d.write("not-an-extension/init.lua", COMMAND);
    assert_eq!(d.discover(&[]).len(), 1);
}

/// orig: extensions discovery › does not recurse beyond one level
#[test]
fn only_one_level_deep() {
    let d = Dir::new();
    d.write("container/nested/init.lua", COMMAND);
    assert!(d.discover(&[]).is_empty());
}

/// orig: extensions discovery › handles mixed direct files and subdirectories
#[tokio::test]
async fn files_folders_and_manifests_together() {
    let d = Dir::new();
    d.write("direct.lua", COMMAND);
    d.write("with-index/init.lua", COMMAND);
    d.write("with-manifest/entry.lua", COMMAND);
    d.write(
        "with-manifest/package.json",
        r#"{"pi": {"extensions": ["./entry.lua"]}}"#,
    );
    let (report, _) = d.load(&[]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.loaded.len(), 3);
}

/// orig: extensions discovery › skips non-existent paths declared in package.json
#[test]
fn missing_manifest_entries_are_skipped() {
    let d = Dir::new();
    d.write("my-package/exists.lua", COMMAND);
    d.write(
        "my-package/package.json",
        r#"{"pi": {"extensions": ["./exists.lua", "./missing.lua"]}}"#,
    );
    assert_eq!(names(&d.discover(&[]), &d.ext()), ["my-package/exists.lua"]);
}

/// orig: extensions discovery › loads extensions and registers commands
#[tokio::test]
async fn a_loaded_extension_registers_its_command() {
    let d = Dir::new();
    d.write("with-command.lua", COMMAND);
    let (report, handle) = d.load(&[]).await;
    assert_eq!(report.loaded.len(), 1);
    let commands = handle.commands().await;
    assert_eq!(commands.len(), 1);
    assert_eq!(commands[0].name, "test");
}

/// orig: extensions discovery › loads extensions and registers tools
#[tokio::test]
async fn a_loaded_extension_registers_its_tool() {
    let d = Dir::new();
    d.write("with-tool.lua", &tool("my-tool"));
    let (report, handle) = d.load(&[]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let tools = handle.tools().await;
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "my-tool");
}

/// orig: extensions discovery › reports errors for invalid extension code
#[tokio::test]
async fn invalid_code_is_a_load_error() {
    let d = Dir::new();
    d.write("invalid.lua", "this is not valid lua code");
    d.write("valid.lua", COMMAND);
    let (report, _) = d.load(&[]).await;
    assert_eq!(report.errors.len(), 1);
    assert!(report.errors[0].path.ends_with("invalid.lua"));
    assert_eq!(names(&report.loaded, &d.ext()), ["valid.lua"]);
}

/// orig: extensions discovery › handles explicitly configured paths
#[tokio::test]
async fn an_explicit_path() {
    let d = Dir::new();
    let custom = d.tmp.path().join("custom-location/my-ext.lua");
    std::fs::create_dir_all(custom.parent().unwrap()).unwrap();
    std::fs::write(&custom, COMMAND).unwrap();
    let (report, _) = d.load(&[&custom]).await;
    assert!(report.errors.is_empty());
    assert_eq!(report.loaded, vec![custom]);
}

/// orig: extensions discovery › resolves dependencies from extension's own node_modules
#[tokio::test]
async fn a_folder_extension_requires_its_own_modules() {
    // Lua's counterpart of an extension's own dependencies: modules beside its entry file.
    let d = Dir::new();
    d.write(
        "with-deps/init.lua",
        r#"local ms = require("duration")
return function(pi)
  pi.registerTool({ name = "parse_duration", description = "Parse a duration",
    parameters = { type = "object", properties = {} },
    execute = function() return { content = { { type = "text", text = tostring(ms.parse("2s")) } } } end })
end"#,
    );
    d.write(
        "with-deps/duration.lua",
        "return { parse = function(s) return tonumber(s:match('^(%d+)s$')) * 1000 end }",
    );
    let (report, handle) = d.load(&[]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(names(&report.loaded, &d.ext()), ["with-deps/init.lua"]);
    assert_eq!(handle.tools().await[0].name, "parse_duration");
}

/// orig: extensions discovery › registers message renderers
#[tokio::test]
async fn a_loaded_extension_registers_its_renderer() {
    let d = Dir::new();
    d.write(
        "with-renderer.lua",
        r#"return function(pi) pi.registerMessageRenderer("my-custom-type", function() return nil end) end"#,
    );
    let (report, handle) = d.load(&[]).await;
    assert!(report.errors.is_empty());
    assert_eq!(handle.registrations().await.renderers, ["my-custom-type"]);
}

/// orig: extensions discovery › reports error when extension throws during initialization
#[tokio::test]
async fn a_failing_start_is_a_load_error() {
    let d = Dir::new();
    d.write(
        "throws.lua",
        r#"return function(pi) error("Initialization failed!") end"#,
    );
    let (report, _) = d.load(&[]).await;
    assert_eq!(report.errors.len(), 1);
    assert!(
        report.errors[0].message.contains("Initialization failed!"),
        "{:?}",
        report.errors
    );
    assert!(report.loaded.is_empty());
}

/// orig: extensions discovery › reports error when extension has no default export
#[tokio::test]
async fn a_file_that_returns_no_function_is_a_load_error() {
    let d = Dir::new();
    d.write(
        "no-factory.lua",
        r#"local M = {} function M.register(pi) end return M"#,
    );
    d.write("a-string.lua", r#"return "not a function""#);
    let (report, _) = d.load(&[]).await;
    assert_eq!(report.errors.len(), 2, "{report:?}");
    assert!(
        report
            .errors
            .iter()
            .any(|e| e.path.ends_with("no-factory.lua"))
    );
    assert!(
        report
            .errors
            .iter()
            .any(|e| e.path.ends_with("a-string.lua"))
    );
    assert!(report.loaded.is_empty());
}

/// orig: extensions discovery › allows multiple extensions to register different tools
#[tokio::test]
async fn several_extensions_with_their_own_tools() {
    let d = Dir::new();
    d.write("tool-a.lua", &tool("tool-a"));
    d.write("tool-b.lua", &tool("tool-b"));
    let (report, handle) = d.load(&[]).await;
    assert_eq!(report.loaded.len(), 2);
    let mut tools: Vec<String> = handle.tools().await.into_iter().map(|t| t.name).collect();
    tools.sort();
    assert_eq!(tools, ["tool-a", "tool-b"]);
}

/// orig: extensions discovery › loads extension with event handlers
#[tokio::test]
async fn a_loaded_extension_listens() {
    let d = Dir::new();
    d.write(
        "with-handlers.lua",
        r#"return function(pi)
  pi.on("agent_start", function() end)
  pi.on("tool_call", function() return nil end)
  pi.on("agent_end", function() end)
end"#,
    );
    let (report, handle) = d.load(&[]).await;
    assert!(report.errors.is_empty());
    for event in ["agent_start", "tool_call", "agent_end"] {
        assert!(handle.has_handlers(event), "{event}");
    }
    assert!(!handle.has_handlers("input"));
}

/// orig: extensions discovery › loads extension with shortcuts
#[tokio::test]
async fn a_loaded_extension_registers_its_shortcut() {
    let d = Dir::new();
    d.write(
        "with-shortcut.lua",
        r#"return function(pi) pi.registerShortcut("ctrl+shift+p", { description = "Test shortcut", handler = function() end }) end"#,
    );
    let (report, handle) = d.load(&[]).await;
    assert!(report.errors.is_empty());
    let shortcuts = handle.registrations().await.shortcuts;
    assert_eq!(shortcuts.len(), 1);
    assert_eq!(shortcuts[0].shortcut, "ctrl+shift+p");
}

/// orig: extensions discovery › loads extension with flags
#[tokio::test]
async fn a_loaded_extension_registers_its_flag() {
    let d = Dir::new();
    d.write(
        "with-flag.lua",
        r#"return function(pi) pi.registerFlag("my-flag", { description = "My custom flag" }) end"#,
    );
    let (report, handle) = d.load(&[]).await;
    assert!(report.errors.is_empty());
    let flags = handle.registrations().await.flags;
    assert_eq!(flags.len(), 1);
    assert_eq!(flags[0].name, "my-flag");
}

/// orig: extensions discovery › loadExtensions only loads explicit paths without discovery
#[tokio::test]
async fn loading_given_paths_discovers_nothing_more() {
    let d = Dir::new();
    d.write("discovered.lua", COMMAND);
    let explicit = d.tmp.path().join("explicit.lua");
    std::fs::write(&explicit, COMMAND).unwrap();
    let (report, _) = load_paths(vec![explicit.clone()], d.tmp.path()).await;
    assert_eq!(report.loaded, vec![explicit]);
}

/// orig: extensions discovery › loadExtensions with no paths loads nothing
#[tokio::test]
async fn loading_no_paths_loads_nothing() {
    let d = Dir::new();
    d.write("discovered.lua", COMMAND);
    let (report, handle) = load_paths(Vec::new(), d.tmp.path()).await;
    assert!(report.loaded.is_empty() && report.errors.is_empty());
    assert!(handle.commands().await.is_empty());
}
