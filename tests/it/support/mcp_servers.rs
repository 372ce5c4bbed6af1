//! The MCP servers the extension tests drive, installed from the registries by
//! `scripts/mcp-test-servers.sh` into `<target>/mcp-servers/` (once per run), and a
//! scripted model that calls tools in turn.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};

use super::mock_server::{CapturedRequest, MockReply};
use super::scenario::tool_results_in;

/// The cache folder with `npm/` (the reference "everything" server) and `venv/` (the
/// Python SDK), or why it could not be installed (the registries are out of reach).
pub fn servers() -> Result<&'static Path, &'static str> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let target = std::env::var("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|_| root.join("target"));
        let dir = target.join("mcp-servers");
        let out = Command::new(root.join("scripts/mcp-test-servers.sh"))
            .arg(&dir)
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(dir)
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    })
    .as_ref()
    .map(PathBuf::as_path)
    .map_err(String::as_str)
}

/// The installed servers, or `None` after printing why the test is skipped.
pub fn servers_or_skip() -> Option<&'static Path> {
    match servers() {
        Ok(dir) => Some(dir),
        Err(why) => {
            eprintln!("skipped: the MCP test servers could not be installed: {why}");
            None
        }
    }
}

/// The `everything` server's program.
pub fn everything(dir: &Path) -> PathBuf {
    dir.join("npm/node_modules/.bin/mcp-server-everything")
}

/// The Python of the virtual environment holding the `mcp` SDK.
pub fn python(dir: &Path) -> PathBuf {
    dir.join("venv/bin/python")
}

/// A model that makes `calls` one per turn, then answers "done".
pub fn scripted(calls: Vec<(&'static str, Value)>) -> impl Fn(&CapturedRequest) -> MockReply {
    move |req| {
        let n = tool_results_in(req);
        match calls.get(n) {
            Some((name, args)) => {
                MockReply::anthropic_tool_calls(&[(&format!("call-{n}"), name, args.clone())])
            }
            None => MockReply::anthropic_text("done"),
        }
    }
}

/// A scripted call of `tool` of `server` through the `mcp` tool (a server not listed yet).
pub fn gateway(server: &str, tool: &str, arguments: Value) -> (&'static str, Value) {
    (
        "mcp",
        json!({"server": server, "tool": tool, "arguments": arguments}),
    )
}

/// The `tool_execution_end` events of a `--mode json` run: (tool, text, isError).
pub fn tool_results(stdout: &str) -> Vec<(String, String, bool)> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["type"] == "tool_execution_end")
        .map(|e| {
            let text = e["result"]["content"]
                .as_array()
                .map(|c| {
                    c.iter()
                        .filter_map(|b| b["text"].as_str())
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .unwrap_or_default();
            (
                e["toolName"].as_str().unwrap_or_default().to_string(),
                text,
                e["isError"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

/// An `mcp.json` with `servers`.
pub fn mcp_json(servers: Value) -> String {
    json!({ "mcpServers": servers }).to_string()
}

/// Path of the shipped extension `name` (`extensions/<name>`).
pub fn extension(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("extensions")
        .join(name)
        .display()
        .to_string()
}
