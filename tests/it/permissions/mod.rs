//! The permission policy end to end: `pi -p` refusing with the rule named, Lua
//! `permission` handlers, RPC questions answered once / always / no, and the terminal UI's
//! question for the danger floor.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::pi_cli::{PiSandbox, json_lines};
use crate::support::{MockReply, MockServer};

mod print;
mod rpc;
mod tui;

/// A sandbox whose user settings hold `rules`, with a private home folder.
fn sandbox_with_rules(server: &MockServer, api: &str, rules: Value) -> PiSandbox {
    let mut sandbox = PiSandbox::with_mock(server, api);
    let home = sandbox.root.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    sandbox
        .env
        .push(("HOME".into(), home.display().to_string()));
    sandbox.write_agent_file(
        "settings.json",
        &json!({ "permissions": rules }).to_string(),
    );
    sandbox
}

/// Every tool result of the session files, by call id: (is error, text).
fn tool_results(sandbox: &PiSandbox) -> Vec<(String, bool, String)> {
    let mut out = Vec::new();
    for file in sandbox.session_files() {
        for e in json_lines(&std::fs::read_to_string(file).unwrap()) {
            let m = &e["message"];
            if m["role"] == "toolResult" {
                out.push((
                    m["toolCallId"].as_str().unwrap_or("").to_string(),
                    m["isError"] == true,
                    m["content"][0]["text"].as_str().unwrap_or("").to_string(),
                ));
            }
        }
    }
    out
}

fn result_of<'a>(results: &'a [(String, bool, String)], id: &str) -> &'a (String, bool, String) {
    results
        .iter()
        .find(|r| r.0 == id)
        .unwrap_or_else(|| panic!("no result for {id}: {results:?}"))
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}
