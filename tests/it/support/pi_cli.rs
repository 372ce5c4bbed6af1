//! Running the real `pi` binary in a sandbox: a temporary agent directory with
//! a `models.json` pointing at a [`MockServer`], a temporary project directory,
//! and an environment without provider keys. Include it with
//! `#[path = "support/pi_cli.rs"] mod pi_cli;` next to `mod support;`.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::{Value, json};

use crate::support::mock_server::MockServer;

/// Environment variables that could leak real credentials or settings into a test.
pub const SCRUBBED_ENV: [&str; 14] = [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_OAUTH_TOKEN",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GROQ_API_KEY",
    "CEREBRAS_API_KEY",
    "XAI_API_KEY",
    "OPENROUTER_API_KEY",
    "MISTRAL_API_KEY",
    "DEEPSEEK_API_KEY",
    "ZAI_API_KEY",
    "PI_CODING_AGENT_SESSION_DIR",
    "PI_CODING_AGENT_DIR",
    "PI_PACKAGE_DIR",
];

/// A sandbox for one or more `pi` runs.
pub struct PiSandbox {
    /// Holds the agent and project directories.
    pub root: tempfile::TempDir,
    /// `PI_CODING_AGENT_DIR`.
    pub agent_dir: PathBuf,
    /// The working directory of runs.
    pub project: PathBuf,
    /// Extra environment for runs.
    pub env: Vec<(String, String)>,
}

impl PiSandbox {
    /// An empty sandbox: agent dir, project dir with `hello.txt`.
    pub fn new() -> Self {
        let root = tempfile::tempdir().expect("temp dir");
        let agent_dir = root.path().join("agent");
        let project = root.path().join("proj");
        std::fs::create_dir_all(&agent_dir).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        let project = project.canonicalize().unwrap();
        std::fs::write(project.join("hello.txt"), "hello world\n").unwrap();
        PiSandbox {
            root,
            agent_dir,
            project,
            env: Vec::new(),
        }
    }

    /// A sandbox whose `mock/mock-model` speaks `api` to `server`.
    pub fn with_mock(server: &MockServer, api: &str) -> Self {
        let sandbox = PiSandbox::new();
        let base_url = if api == "openai-completions" {
            server.openai_base_url()
        } else {
            server.anthropic_base_url()
        };
        sandbox.write_agent_file(
            "models.json",
            &json!({"providers": {"mock": {
                "baseUrl": base_url, "api": api, "apiKey": "test-key",
                "models": [{"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096,
                            "cost": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 0}}]
            }}})
            .to_string(),
        );
        sandbox
    }

    /// Write a file into the agent directory.
    pub fn write_agent_file(&self, name: &str, content: &str) {
        std::fs::write(self.agent_dir.join(name), content).unwrap();
    }

    /// Run `pi` with `args` in the project directory, feeding `stdin` if given.
    pub fn run(&self, args: &[&str], stdin: Option<&str>) -> Output {
        let mut child = self.spawn(args);
        let mut input = child.stdin.take().unwrap();
        if let Some(text) = stdin {
            input.write_all(text.as_bytes()).unwrap();
        }
        drop(input);
        child.wait_with_output().expect("pi output")
    }

    /// Start `pi` with piped stdin/stdout/stderr and return the child.
    pub fn spawn(&self, args: &[&str]) -> Child {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi"));
        cmd.args(args).current_dir(&self.project);
        for var in SCRUBBED_ENV {
            cmd.env_remove(var);
        }
        cmd.env("PI_CODING_AGENT_DIR", &self.agent_dir)
            .env("PI_OFFLINE", "1");
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd.spawn().expect("spawn pi")
    }

    /// All session files written so far.
    pub fn session_files(&self) -> Vec<PathBuf> {
        let mut files = Vec::new();
        collect_jsonl(&self.agent_dir.join("sessions"), &mut files);
        files.sort();
        files
    }
}

fn collect_jsonl(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_jsonl(&path, out);
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
}

/// Parse JSON lines.
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// Drop ids, timestamps and response ids, and replace `cwd` by `<cwd>`, as the
/// reference fixtures were normalised.
pub fn normalise(value: &Value, cwd: &str) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| {
                    !matches!(k.as_str(), "id" | "parentId" | "timestamp" | "responseId")
                })
                .map(|(k, v)| (k.clone(), normalise(v, cwd)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| normalise(v, cwd)).collect()),
        Value::String(s) => Value::String(s.replace(cwd, "<cwd>")),
        other => other.clone(),
    }
}

/// A reference fixture from `tests/fixtures/reference/`.
pub fn reference_fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reference")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}
