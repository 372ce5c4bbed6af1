//! Support code for tests/lua_twins.rs: the example extensions loaded through the
//! real host, either in-process (a scripted front end plus the surface store)
//! or by running the `pi` binary against the mock LLM server.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use pi::lua::ui::surfaces::{SurfaceStore, Surfaces};
use pi::lua::{ExtensionAction, ExtensionHandle, HostConfig, SharedExtensionUi, SharedView};
use serde_json::{Value, json};

use crate::support::fake_ui::FakeUi;
use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};

/// Components have a 50 ms render budget measured on the wall clock, so the
/// in-process tests that draw them run alone; everything else (the `pi`
/// processes) shares the machine.
static GATE: RwLock<()> = RwLock::new(());

thread_local! {
    static SHARED_HERE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A share of the machine; a thread that already has one takes no second
/// (a waiting [`alone`] would otherwise block it against itself).
pub struct Shared(Option<RwLockReadGuard<'static, ()>>);

impl Drop for Shared {
    fn drop(&mut self) {
        SHARED_HERE.with(|n| n.set(n.get() - 1));
    }
}

/// Run alongside other tests that share the machine.
pub fn shared() -> Shared {
    let first = SHARED_HERE.with(|n| {
        n.set(n.get() + 1);
        n.get() == 1
    });
    Shared(first.then(|| GATE.read().unwrap_or_else(|e| e.into_inner())))
}

/// Run with no other test using the machine.
pub fn alone() -> RwLockWriteGuard<'static, ()> {
    GATE.write().unwrap_or_else(|e| e.into_inner())
}

/// The path of an example extension (a file or a folder).
pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/examples")
        .join(name)
}

/// One extension loaded in-process.
pub struct Twin {
    pub handle: ExtensionHandle,
    pub view: SharedView,
    pub store: SurfaceStore,
    /// The scripted front end (`None`: no UI, as in print mode).
    pub ui: Option<Arc<FakeUi>>,
    _alone: Option<RwLockWriteGuard<'static, ()>>,
}

impl Twin {
    /// Load `name` with a front end answering dialogs with `answers`.
    pub async fn start(name: &str, answers: Vec<Value>) -> Twin {
        Twin::start_in(name, answers, Path::new(env!("CARGO_MANIFEST_DIR"))).await
    }

    /// [`Twin::start`] with `cwd` as the working directory.
    pub async fn start_in(name: &str, answers: Vec<Value>, cwd: &Path) -> Twin {
        Twin::load(name, Some(FakeUi::new(answers)), cwd, SharedView::new(cwd)).await
    }

    /// Load `name` without a front end.
    pub async fn headless(name: &str, cwd: &Path) -> Twin {
        Twin::load(name, None, cwd, SharedView::new(cwd)).await
    }

    /// Load `name` with a prepared session view.
    pub async fn with_view(name: &str, answers: Vec<Value>, view: SharedView) -> Twin {
        let cwd = view.lock().cwd.clone();
        Twin::load(name, Some(FakeUi::new(answers)), &cwd, view).await
    }

    async fn load(name: &str, ui: Option<Arc<FakeUi>>, cwd: &Path, view: SharedView) -> Twin {
        // Twins with a front end draw components: they run alone.
        let gate = ui.is_some().then(alone);
        let store = view.lock().surfaces.clone();
        store.attach(80, 24);
        let mut config = HostConfig::new(vec![example(name)], cwd);
        config.ui = ui.clone().map(|u| u as SharedExtensionUi);
        let handle = ExtensionHandle::start(config, view.clone());
        let report = handle.load().await;
        assert!(report.errors.is_empty(), "{name}: {:?}", report.errors);
        Twin {
            handle,
            view,
            store,
            ui,
            _alone: gate,
        }
    }

    /// Emit `event` with `fields` (the `type` is added); panics on handler errors.
    pub async fn emit(&self, event: &str, fields: Value) -> Vec<Value> {
        let mut payload = fields;
        payload["type"] = json!(event);
        let out = self.handle.emit(event, payload).await;
        assert!(out.errors.is_empty(), "{event}: {:?}", out.errors);
        out.results
    }

    /// Run `/name args`; panics when it fails.
    pub async fn command(&self, name: &str, args: &str) {
        self.handle.run_command(name, args).await.unwrap();
    }

    /// Run tool `name` with `params` and return its result.
    pub async fn tool(&self, name: &str, params: Value) -> Result<Value, String> {
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        self.handle
            .execute_tool(name, "call-1", params, Default::default(), tx)
            .await
            .map_err(|e| e.to_string())
    }

    /// Recorded front-end requests of `method`.
    pub fn calls(&self, method: &str) -> Vec<Value> {
        self.ui.as_ref().expect("a front end").calls(method)
    }

    /// The messages of every `notify` so far.
    pub fn notes(&self) -> Vec<String> {
        self.calls("notify")
            .iter()
            .map(|n| n["message"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Requests the extension made of the session so far (taken).
    pub fn actions(&self) -> Vec<ExtensionAction> {
        self.view.take_actions()
    }

    /// Wait until `check` finds something in the published surfaces.
    pub async fn until<T>(&self, what: &str, check: impl Fn(&Surfaces) -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(v) = check(&self.store.lock()) {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Wait until the front end has recorded a request matching `check`.
    pub async fn until_call(&self, what: &str, check: impl Fn(&[Value]) -> bool) {
        let ui = self.ui.as_ref().expect("a front end");
        let deadline = Instant::now() + Duration::from_secs(20);
        while !check(&ui.log.lock().unwrap()) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The lines of the first custom component, once it has drawn some.
    pub async fn custom_lines(&self) -> (u64, Vec<String>) {
        self.until("a custom component", |s| {
            let c = s.customs.first()?;
            (!c.lines.is_empty()).then(|| (c.id, c.lines.iter().map(|l| plain(l)).collect()))
        })
        .await
    }

    /// Send keys to custom component `id`, one after another.
    pub fn keys(&self, id: u64, keys: &[&str]) {
        for key in keys {
            self.store.send_key(id, key.to_string());
        }
    }
}

/// `line` without ANSI escape sequences.
pub fn plain(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            match chars.next() {
                Some('[') => {
                    for c in chars.by_ref() {
                        if c.is_ascii_alphabetic() {
                            break;
                        }
                    }
                }
                Some(']') => {
                    for c in chars.by_ref() {
                        if c == '\x07' {
                            break;
                        }
                    }
                }
                _ => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The real `pi` binary against a mock OpenAI-compatible server.
pub struct Cli {
    pub server: MockServer,
    pub sandbox: PiSandbox,
    _shared: Shared,
}

impl Cli {
    /// A fresh server and sandbox.
    pub fn new() -> Cli {
        let shared = shared();
        let server = MockServer::start();
        let sandbox = PiSandbox::with_mock(&server, "openai-completions");
        Cli {
            server,
            sandbox,
            _shared: shared,
        }
    }

    /// Queue a reply that calls `tool` with `args`.
    pub fn tool_call(&self, tool: &str, args: Value) -> &Self {
        self.server.push(MockReply::openai_tool_calls(&[(
            &format!("call_{tool}"),
            tool,
            args,
        )]));
        self
    }

    /// Queue a plain text reply.
    pub fn text(&self, text: &str) -> &Self {
        self.server.push(MockReply::openai_text(text));
        self
    }

    /// Run `pi --model mock/mock-model -e <each of extensions> <rest>`.
    pub fn run(&self, extensions: &[&str], rest: &[&str]) -> Output {
        let paths: Vec<String> = extensions
            .iter()
            .map(|e| example(e).display().to_string())
            .collect();
        let mut args = vec!["--model", "mock/mock-model"];
        for p in &paths {
            args.push("-e");
            args.push(p);
        }
        args.extend_from_slice(rest);
        self.sandbox.run(&args, None)
    }

    /// [`Cli::run`], asserting success; returns (stdout, stderr).
    pub fn ok(&self, extensions: &[&str], rest: &[&str]) -> (String, String) {
        let out = self.run(extensions, rest);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "stdout: {stdout}\nstderr: {stderr}");
        (stdout, stderr)
    }

    /// The body of request `index` as JSON.
    pub fn request(&self, index: usize) -> Value {
        self.server.requests()[index].json().clone()
    }

    /// The body of request `index` as text.
    pub fn body(&self, index: usize) -> String {
        String::from_utf8_lossy(&self.server.requests()[index].body).into_owned()
    }

    /// The text of the last tool result in request `index`.
    pub fn tool_result(&self, index: usize) -> String {
        let request = self.request(index);
        let messages = request["messages"].as_array().expect("messages");
        let last = messages
            .iter()
            .rev()
            .find(|m| m["role"] == "tool")
            .expect("a tool result");
        match &last["content"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            other => other.to_string(),
        }
    }

    /// The system prompt of request `index`.
    pub fn system_prompt(&self, index: usize) -> String {
        let request = self.request(index);
        request["messages"]
            .as_array()
            .and_then(|m| {
                m.iter()
                    .find(|m| m["role"] == "system" || m["role"] == "developer")
            })
            .and_then(|m| m["content"].as_str())
            .unwrap_or_default()
            .to_string()
    }

    /// The text of the last user message of request `index`.
    pub fn last_user_text(&self, index: usize) -> String {
        let request = self.request(index);
        let user = request["messages"]
            .as_array()
            .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
            .cloned()
            .unwrap_or_default();
        match &user["content"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        }
    }

    /// Names of the tools offered in request `index`.
    pub fn tools(&self, index: usize) -> Vec<String> {
        self.request(index)["tools"]
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .filter_map(|t| t["function"]["name"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Write `content` to `path` inside the project.
    pub fn write(&self, path: &str, content: &str) {
        let path = self.sandbox.project.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    /// The entries of the only session file.
    pub fn session_entries(&self) -> Vec<Value> {
        let files = self.sandbox.session_files();
        assert_eq!(files.len(), 1, "{files:?}");
        crate::support::pi_cli::json_lines(&std::fs::read_to_string(&files[0]).unwrap())
    }
}

/// Run `git args` in `dir` with a fixed identity; panics when git fails.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A git repository with one commit of `hello.txt`.
pub fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    std::fs::write(dir.path().join("hello.txt"), "hello\n").unwrap();
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "start"]);
    dir
}

impl Cli {
    /// Start `pi --mode rpc` with the extensions and `rest`.
    pub fn rpc(&self, extensions: &[&str], rest: &[&str]) -> crate::support::rpc_client::RpcClient {
        let paths: Vec<String> = extensions
            .iter()
            .map(|e| example(e).display().to_string())
            .collect();
        let mut args = vec!["--mode", "rpc", "--model", "mock/mock-model"];
        for p in &paths {
            args.push("-e");
            args.push(p);
        }
        args.extend_from_slice(rest);
        crate::support::rpc_client::RpcClient::new(self.sandbox.spawn(&args))
    }

    /// Add models served by the mock server under `provider` (e.g. a stand-in
    /// for `openai/gpt-5.2`), next to `mock/mock-model`.
    pub fn add_models(&self, provider: &str, ids: &[&str]) {
        let path = self.sandbox.agent_dir.join("models.json");
        let mut config: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let models: Vec<Value> = ids
            .iter()
            .map(|id| json!({"id": id, "contextWindow": 100000, "maxTokens": 4096}))
            .collect();
        config["providers"][provider] = json!({
            "baseUrl": self.server.openai_base_url(), "api": "openai-completions",
            "apiKey": "test-key", "models": models,
        });
        std::fs::write(path, config.to_string()).unwrap();
    }
}

/// Send a prompt over RPC and wait until the agent is done with it.
pub fn rpc_prompt(rpc: &mut crate::support::rpc_client::RpcClient, message: &str) {
    rpc.send(json!({"type": "prompt", "message": message}));
    rpc.wait_for("agent_end", |v| v["type"] == "agent_end");
}

/// Wait for an `extension_ui_request` of `method`.
pub fn ui_request(rpc: &mut crate::support::rpc_client::RpcClient, method: &str) -> Value {
    rpc.wait_for(method, |v| {
        v["type"] == "extension_ui_request" && v["method"] == method
    })
    .value
}
