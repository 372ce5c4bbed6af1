//! A `-p` turn continuing a session sends the settled part of the conversation kept by
//! the turn before (`<agentDir>/cache/settled`) as it is, and builds the request in full
//! whenever anything that decided those bytes changed.

use std::path::{Path, PathBuf};

use crate::support;
use crate::support::pi_cli;

use pi_cli::{PiSandbox, json_lines};
use support::{MockReply, MockServer};

fn answering() -> (MockServer, PiSandbox) {
    answering_with("openai-completions")
}

/// A mock answering "ok" in `api`'s wire format, and a sandbox with a model of it.
fn answering_with(api: &str) -> (MockServer, PiSandbox) {
    let server = MockServer::start();
    match api {
        "openai-completions" => server.set_handler(|_| MockReply::openai_text("ok")),
        _ => server.set_handler(|_| MockReply::anthropic_text("ok")),
    }
    let sandbox = PiSandbox::with_mock(&server, api);
    (server, sandbox)
}

fn run(sandbox: &PiSandbox, args: &[&str]) {
    let out = sandbox.run(args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn turn(sandbox: &PiSandbox, session: &Path, prompt: &str, extra: &[&str]) {
    let session = session.to_str().unwrap();
    let mut args = vec![
        "--model",
        "mock/mock-model",
        "--session",
        session,
        "-p",
        prompt,
    ];
    args.extend_from_slice(extra);
    run(sandbox, &args);
}

fn last_body(server: &MockServer) -> String {
    let requests = server.requests();
    String::from_utf8(requests.last().expect("a request").body.clone()).unwrap()
}

fn kept_parts(sandbox: &PiSandbox) -> Vec<PathBuf> {
    let dir = sandbox.agent_dir.join("cache").join("settled");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|read| read.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// A session of two `-p` turns ("one", then "two"): the second keeps the settled part
/// of its request.
fn two_turns(sandbox: &PiSandbox) -> PathBuf {
    run(sandbox, &["--model", "mock/mock-model", "-p", "one"]);
    let file = sandbox.session_files().remove(0);
    turn(sandbox, &file, "two", &[]);
    assert_eq!(kept_parts(sandbox).len(), 1);
    file
}

/// Change the first prompt in the kept part's bytes ("one" becomes "ONE"): a request
/// that sends them shows it.
fn mark_kept_part(sandbox: &PiSandbox) {
    let path = kept_parts(sandbox).remove(0);
    let data = std::fs::read(&path).unwrap();
    let newline = data.iter().position(|&b| b == b'\n').unwrap();
    let bytes = String::from_utf8(data[newline + 1..].to_vec()).unwrap();
    assert!(bytes.contains("\"one\""), "{bytes}");
    let mut marked = data[..=newline].to_vec();
    marked.extend_from_slice(bytes.replace("\"one\"", "\"ONE\"").as_bytes());
    std::fs::write(&path, marked).unwrap();
}

/// The body of a third turn sent with the part the second kept, and of the same turn
/// on a copy of the session after every kept part was removed; the copy (its part now
/// kept by that turn).
fn third_turn_with_and_without_the_part(
    server: &MockServer,
    sandbox: &PiSandbox,
) -> (String, String, PathBuf) {
    let file = two_turns(sandbox);
    let twin = file.with_file_name("twin.jsonl");
    std::fs::copy(&file, &twin).unwrap();
    turn(sandbox, &file, "three", &[]);
    let with_part = last_body(server);
    for path in kept_parts(sandbox) {
        std::fs::remove_file(path).unwrap();
    }
    turn(sandbox, &twin, "three", &[]);
    (with_part, last_body(server), twin)
}

#[test]
fn print_turn_body_is_the_same_with_the_kept_part() {
    let (server, sandbox) = answering();
    let (with_part, without, twin) = third_turn_with_and_without_the_part(&server, &sandbox);
    assert_eq!(with_part, without);
    assert!(with_part.contains("\"one\"") && with_part.contains("\"three\""));
    // The part grew with the third turn and is used by a fourth: "one" … "three" sent as
    // kept.
    mark_kept_part(&sandbox);
    turn(&sandbox, &twin, "four", &[]);
    let body = last_body(&server);
    assert!(
        body.contains("\"ONE\"") && body.contains("\"two\""),
        "{body}"
    );
}

#[test]
fn print_turn_with_anthropic_messages_sends_the_kept_part_as_it_is() {
    let (server, sandbox) = answering_with("anthropic-messages");
    let (with_part, without, twin) = third_turn_with_and_without_the_part(&server, &sandbox);
    assert_eq!(with_part, without);
    assert!(with_part.contains("\"one\"") && with_part.contains("cache_control"));
    mark_kept_part(&sandbox);
    turn(&sandbox, &twin, "four", &[]);
    let body = last_body(&server);
    assert!(
        body.contains("\"ONE\"") && body.contains("\"four\""),
        "{body}"
    );
}

#[test]
fn print_turn_sends_the_kept_part_as_it_is() {
    let (server, sandbox) = answering();
    let file = two_turns(&sandbox);
    mark_kept_part(&sandbox);
    turn(&sandbox, &file, "three", &[]);
    let body = last_body(&server);
    assert!(
        body.contains("\"ONE\"") && body.contains("\"three\""),
        "{body}"
    );
}

/// After two turns and a marked part, `change` the run; the third turn's body must be
/// built in full: the real first prompt, not the marked one.
fn not_used_after(change: impl Fn(&PiSandbox, &Path) -> Vec<String>) -> String {
    let (server, sandbox) = answering();
    let file = two_turns(&sandbox);
    mark_kept_part(&sandbox);
    let extra = change(&sandbox, &file);
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    turn(&sandbox, &file, "three", &extra);
    let body = last_body(&server);
    assert!(
        !body.contains("\"ONE\"") && body.contains("\"three\""),
        "{body}"
    );
    body
}

fn models_json(compat: serde_json::Value) -> String {
    serde_json::json!({"providers": {"mock": {
        "baseUrl": "BASE", "api": "openai-completions", "apiKey": "test-key",
        "models": [{"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096,
                    "cost": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 0},
                    "compat": compat},
                   {"id": "mock-model-2", "contextWindow": 100000, "maxTokens": 4096}]
    }}})
    .to_string()
}

fn rewrite_models(sandbox: &PiSandbox, compat: serde_json::Value) {
    let path = sandbox.agent_dir.join("models.json");
    let old: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let base = old["providers"]["mock"]["baseUrl"]
        .as_str()
        .unwrap()
        .to_string();
    sandbox.write_agent_file("models.json", &models_json(compat).replace("BASE", &base));
}

#[test]
fn print_turn_kept_part_not_used_for_another_model_or_prompt() {
    let body = not_used_after(|sandbox, _| {
        rewrite_models(sandbox, serde_json::json!({}));
        ["--model", "mock/mock-model-2"].map(String::from).to_vec()
    });
    assert!(body.contains("\"one\"") && body.contains("mock-model-2"));
    let body = not_used_after(|_, _| {
        ["--append-system-prompt", "Answer briefly."]
            .map(String::from)
            .to_vec()
    });
    assert!(body.contains("\"one\"") && body.contains("Answer briefly."));
    let body = not_used_after(|sandbox, _| {
        rewrite_models(sandbox, serde_json::json!({"supportsStore": false}));
        Vec::new()
    });
    assert!(body.contains("\"one\"") && !body.contains("\"store\""));
}

fn entry_ids(file: &Path) -> Vec<(String, String)> {
    json_lines(&std::fs::read_to_string(file).unwrap())
        .iter()
        .skip(1)
        .map(|e| {
            let text = e["message"]["content"].to_string();
            (e["id"].as_str().unwrap().to_string(), text)
        })
        .collect()
}

fn append_entry(file: &Path, entry: serde_json::Value) {
    let mut text = std::fs::read_to_string(file).unwrap();
    text.push_str(&entry.to_string());
    text.push('\n');
    std::fs::write(file, text).unwrap();
}

#[test]
fn print_turn_kept_part_not_used_for_an_edited_or_branched_session() {
    let body = not_used_after(|_, file| {
        let text = std::fs::read_to_string(file).unwrap();
        // The first prompt, covered by the kept part, edited in place (same length).
        std::fs::write(file, text.replace("\"text\":\"one\"", "\"text\":\"eno\"")).unwrap();
        Vec::new()
    });
    assert!(
        body.contains("\"eno\"") && !body.contains("\"one\""),
        "{body}"
    );
    let body = not_used_after(|_, file| {
        let ids = entry_ids(file);
        let (first, _) = ids.iter().find(|(_, text)| text.contains("one")).unwrap();
        append_entry(
            file,
            serde_json::json!({"type": "message", "id": "branch01", "parentId": first,
                "timestamp": "2026-01-01T00:00:00.000Z",
                "message": {"role": "user", "content": "another way", "timestamp": 1}}),
        );
        Vec::new()
    });
    assert!(body.contains("\"one\"") && body.contains("another way"));
    assert!(!body.contains("\"two\""), "{body}");
}

#[test]
fn print_turn_kept_part_not_used_after_a_compaction() {
    let body = not_used_after(|_, file| {
        let ids = entry_ids(file);
        let (first, _) = ids.iter().find(|(_, text)| text.contains("one")).unwrap();
        let (last, _) = ids.last().unwrap();
        append_entry(
            file,
            serde_json::json!({"type": "compaction", "id": "compact1", "parentId": last,
                "timestamp": "2026-01-01T00:00:00.000Z", "summary": "Earlier talk.",
                "firstKeptEntryId": first, "tokensBefore": 100}),
        );
        Vec::new()
    });
    assert!(body.contains("Earlier talk.") && body.contains("\"one\""));
}

#[test]
fn print_turn_ignores_a_corrupt_kept_part() {
    let (server, sandbox) = answering();
    let file = two_turns(&sandbox);
    let path = kept_parts(&sandbox).remove(0);
    std::fs::write(&path, b"{\"version\":1,\"format\":\n\0\0garbage").unwrap();
    turn(&sandbox, &file, "three", &[]);
    let body = last_body(&server);
    assert!(
        body.contains("\"one\"") && body.contains("\"three\""),
        "{body}"
    );
    // Replaced by a good one.
    mark_kept_part(&sandbox);
    turn(&sandbox, &file, "four", &[]);
    assert!(last_body(&server).contains("\"ONE\""));
}
