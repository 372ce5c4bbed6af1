//! pi 0.73.1's own RPC client library (`RpcClient`, shipped in its npm package) drives our
//! binary through every public method: tests/rpc_compat/rpc-client-compat.mjs checks each
//! result's shape and the order of the events, against the mock LLM on 127.0.0.1.
//!
//! The package is looked for in `PI_ORACLE_PACKAGE`, else in `target/oracle` (where
//! scripts/test.sh installs it); when missing it is installed there with npm. The test is
//! skipped, saying why, only when that install fails (the registry is unreachable).
//! `PI_RPC_COMPAT_BIN` runs the same script against another program instead of ours, for
//! instance pi 0.73.1's own `dist/cli.js`, to check the script's expectations.

use crate::support;
use crate::support::pi_cli;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use pi_cli::PiSandbox;
use serde_json::{Value, json};
use support::{MockReply, MockServer};

/// The pinned package.
const PACKAGE: &str = "@mariozechner/pi-coding-agent@0.73.1";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The package folder, installing it when missing; `Err` says why it cannot be had.
fn oracle_package() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("PI_ORACLE_PACKAGE") {
        return Ok(PathBuf::from(dir));
    }
    let prefix = repo().join("target/oracle");
    let dir = prefix.join("node_modules/@mariozechner/pi-coding-agent");
    if dir.join("dist/index.js").is_file() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&prefix).map_err(|e| e.to_string())?;
    let out = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(PACKAGE)
        .output()
        .map_err(|e| format!("npm could not run: {e}"))?;
    if !out.status.success() || !dir.join("dist/index.js").is_file() {
        return Err(format!(
            "npm install {PACKAGE} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(dir)
}

/// The text of the last message of an Anthropic request.
fn last_text(body: &Value) -> String {
    let Some(last) = body["messages"].as_array().and_then(|m| m.last()) else {
        return String::new();
    };
    match &last["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

fn reply(body: &Value) -> MockReply {
    let text = last_text(body);
    if text.contains("SLOW") {
        let reply = MockReply::anthropic_text(
            "A long answer, streamed slowly in pieces, so that there is time to steer it.",
        );
        let len = reply.body_bytes().len();
        return reply
            .split_at(&[len / 3, 2 * len / 3])
            .delay(Duration::from_millis(400));
    }
    let short: String = text.chars().take(40).collect();
    MockReply::anthropic_text(&format!("Reply to: {short}"))
}

#[test]
fn pi_rpc_client_drives_every_public_method() {
    let package = match oracle_package() {
        Ok(dir) => dir,
        Err(why) => {
            println!("skipped: pi 0.73.1's RpcClient is not available ({why})");
            return;
        }
    };
    let server = MockServer::start();
    server.set_handler(|req| reply(req.json()));
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.anthropic_base_url(), "api": "anthropic-messages", "apiKey": "k",
            "models": [
                {"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096},
                {"id": "mock-thinker", "reasoning": true}
            ]
        }}})
        .to_string(),
    );
    std::fs::create_dir_all(sandbox.agent_dir.join("prompts")).unwrap();
    sandbox.write_agent_file(
        "prompts/greet.md",
        "---\ndescription: Say hello\n---\nSay hello to $1\n",
    );
    let script = repo().join("tests/rpc_compat/rpc-client-compat.mjs");
    let mut node = Command::new("node");
    for var in pi_cli::SCRUBBED_ENV {
        node.env_remove(var);
    }
    let out = node
        .arg(&script)
        .current_dir(&sandbox.project)
        .env("PI_ORACLE_PACKAGE", &package)
        .env(
            "PI_BIN",
            std::env::var_os("PI_RPC_COMPAT_BIN").unwrap_or(env!("CARGO_BIN_EXE_pi").into()),
        )
        .env("PI_PROJECT", &sandbox.project)
        .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
        .env("PI_OFFLINE", "1")
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{}", stdout.trim());
    assert!(
        out.status.success() && stdout.starts_with("ok "),
        "the RpcClient script failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(Path::new(&sandbox.project.join("out.html")).is_file());
}
