//! Print and json mode run extensions that use `ctx.ui` without error:
//! dialogs return their defaults and setters do nothing.

use crate::support;
use crate::support::pi_cli;

use std::path::PathBuf;

use pi_cli::{PiSandbox, json_lines};
use serde_json::{Value, json};
use support::{MockReply, MockServer};

fn probe(mode: &[&str]) -> (Value, String) {
    let server = MockServer::start();
    server.push(MockReply::openai_text("done"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let ext = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/extensions/ui_everything.lua")
        .display()
        .to_string();
    let mut args = vec!["--model", "mock/mock-model", "-e", &ext];
    args.extend_from_slice(mode);
    args.push("hi");
    let out = sandbox.run(&args, None);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let files = sandbox.session_files();
    let entries = json_lines(&std::fs::read_to_string(&files[0]).unwrap());
    let probe = entries
        .into_iter()
        .find(|e| e["customType"] == "ui-probe")
        .expect("the extension ran");
    (probe["data"].clone(), stderr)
}

fn assert_headless(r: &Value, stderr: &str) {
    let builtin_themes = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/themes"))
        .unwrap()
        .count();
    assert_eq!(
        r,
        &json!({"hasUI": false, "select": "nil", "confirm": false, "input": "nil",
            "editor": "nil", "editorText": "", "expanded": false, "theme": true,
            "styled": r["styled"], "themes": builtin_themes})
    );
    assert!(r["styled"].as_str().unwrap().contains('x'));
    assert!(!stderr.contains("Error"), "{stderr}");
    assert!(
        stderr.contains("ctrl+shift+u"),
        "the shortcut warning is shown: {stderr}"
    );
}

#[test]
fn print_mode_gives_dialog_defaults_and_ignores_setters() {
    let (r, stderr) = probe(&["-p"]);
    assert_headless(&r, &stderr);
}

#[test]
fn json_mode_gives_dialog_defaults_and_ignores_setters() {
    let (r, stderr) = probe(&["--mode", "json"]);
    assert_headless(&r, &stderr);
}
