//! v1/v2 fixtures load, migrate in place by atomic rename, and resolve to
//! the same context as the equivalent v3 fixture.

use std::fs;
use std::path::{Path, PathBuf};

use pi::session::{SessionEntry, SessionManager, convert_to_llm};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sessions")
        .join(name)
}

/// Copy a fixture into `dir`, plus a hard link to it that keeps the
/// original file's content if the file is replaced rather than rewritten.
fn stage(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let path = dir.join(name);
    fs::copy(fixture(name), &path).unwrap();
    let link = dir.join(format!("{name}.original"));
    fs::hard_link(&path, &link).unwrap();
    (path, link)
}

fn lines(path: &Path) -> Vec<Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Every number as a float, so `0` and `0.0` compare equal (JavaScript
/// writes whole floats without a fraction).
fn numbers_as_floats(value: Value) -> Value {
    match value {
        Value::Number(n) => Value::from(n.as_f64().unwrap()),
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_floats).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, numbers_as_floats(v)))
                .collect(),
        ),
        other => other,
    }
}

fn context_json(session: &SessionManager) -> Value {
    let context = session.build_context();
    numbers_as_floats(serde_json::json!({
        "messages": convert_to_llm(&context.messages),
        "thinkingLevel": context.thinking_level,
        "model": context.model.map(|(provider, model_id)| serde_json::json!({
            "provider": provider, "modelId": model_id
        })),
    }))
}

fn assert_migrated(name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (path, original) = stage(dir.path(), name);
    let before = fs::read(&path).unwrap();

    let session = SessionManager::open(&path).unwrap();

    // The old inode still holds the old content: the file was replaced by rename.
    assert_eq!(fs::read(&original).unwrap(), before);
    let migrated = lines(&path);
    assert_eq!(migrated[0]["type"], "session");
    assert_eq!(migrated[0]["version"], 3);
    let mut previous = Value::Null;
    for entry in &migrated[1..] {
        let id = entry["id"].as_str().expect("every entry has an id");
        assert_eq!(id.len(), 8);
        assert_eq!(entry["parentId"], previous, "entries are chained");
        previous = Value::from(id);
        assert_ne!(entry["message"]["role"], "hookMessage");
        assert!(entry.get("firstKeptEntryIndex").is_none());
    }
    let compaction = migrated.iter().find(|e| e["type"] == "compaction").unwrap();
    let kept = migrated
        .iter()
        .find(|e| e["id"] == compaction["firstKeptEntryId"])
        .expect("firstKeptEntryId points at an entry");
    assert_eq!(
        kept["message"]["content"][0]["text"],
        "Summarise Cargo.toml"
    );
    // No temporary files are left behind.
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    let v3 = SessionManager::open(&stage(dir.path(), "v3.jsonl").0).unwrap();
    assert_eq!(context_json(&session), context_json(&v3));
    assert_eq!(session.entries().len(), v3.entries().len());
    assert!(
        session
            .entries()
            .iter()
            .all(|e| !matches!(e, SessionEntry::Unknown(_)))
    );

    // Opening again changes nothing.
    let after_first_open = fs::read(&path).unwrap();
    let reopened = SessionManager::open(&path).unwrap();
    assert_eq!(fs::read(&path).unwrap(), after_first_open);
    assert_eq!(reopened.leaf_id(), session.leaf_id());
}

#[test]
fn v1_fixture_migrates_to_v3() {
    assert_migrated("v1.jsonl");
}

#[test]
fn v2_fixture_migrates_to_v3() {
    assert_migrated("v2.jsonl");
}

#[test]
fn v1_migration_keeps_legacy_header_fields_and_pi_key_order() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = stage(dir.path(), "v1.jsonl");
    SessionManager::open(&path).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.starts_with(r#"{"type":"session","id":"0194a1b2-0000-7000-8000-000000000001""#));
    assert!(first.ends_with(r#""thinkingLevel":"medium","version":3}"#));
    let second = text.lines().nth(1).unwrap();
    assert!(second.starts_with(
        r#"{"type":"thinking_level_change","timestamp":"2025-01-15T10:00:00.000Z","thinkingLevel":"medium","id":""#
    ));
    assert!(second.ends_with(r#","parentId":null}"#));
}

#[test]
fn v3_fixture_is_left_untouched_and_matches_reference_context() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = stage(dir.path(), "v3.jsonl");
    let before = fs::read(&path).unwrap();
    let session = SessionManager::open(&path).unwrap();
    assert_eq!(fs::read(&path).unwrap(), before);

    let expected = numbers_as_floats(
        serde_json::from_str(&fs::read_to_string(fixture("v3.llm-context.json")).unwrap()).unwrap(),
    );
    assert_eq!(context_json(&session), expected);
    assert_eq!(session.build_context().thinking_level, "high");
}

#[test]
fn forking_an_old_session_leaves_the_source_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (source, _) = stage(dir.path(), "v2.jsonl");
    let before = fs::read(&source).unwrap();
    let target_dir = dir.path().join("forks");
    let fork = SessionManager::fork_from(&source, Path::new("/elsewhere"), &target_dir).unwrap();
    assert_eq!(fs::read(&source).unwrap(), before);
    let written = lines(fork.session_file().unwrap());
    assert_eq!(written[0]["version"], 3);
    assert_eq!(written[0]["cwd"], "/elsewhere");
    assert_eq!(
        written[0]["parentSession"],
        source.to_string_lossy().as_ref()
    );
    assert!(
        written
            .iter()
            .all(|e| e["message"]["role"] != "hookMessage")
    );
    let v3 = SessionManager::open(&stage(dir.path(), "v3.jsonl").0).unwrap();
    assert_eq!(context_json(&fork), context_json(&v3));
}

/// A v1 session in the shape early pi versions wrote: usage without
/// `totalTokens`, an aborted assistant message with no content, a model
/// change, a tool round trip.
const EARLY_V1: &str = r##"{"type":"session","id":"early-1","timestamp":"2025-11-20T10:00:00.000Z","cwd":"/tmp/early","provider":"anthropic","modelId":"claude-sonnet-4-5","thinkingLevel":"off"}
{"type":"message","timestamp":"2025-11-20T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"/mode"}],"timestamp":1763632801000}}
{"type":"message","timestamp":"2025-11-20T10:00:02.000Z","message":{"role":"assistant","content":[],"api":"openai-responses","provider":"openai","model":"gpt-5.1-codex","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"aborted","timestamp":1763632802000,"errorMessage":"Request was aborted"}}
{"type":"model_change","timestamp":"2025-11-20T10:00:03.000Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}
{"type":"message","timestamp":"2025-11-20T10:00:04.000Z","message":{"role":"user","content":[{"type":"text","text":"read the theme docs"}],"timestamp":1763632804000}}
{"type":"message","timestamp":"2025-11-20T10:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Reading it."},{"type":"toolCall","id":"toolu_1","name":"read","arguments":{"path":"docs/theme.md"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":3,"output":80,"cacheRead":0,"cacheWrite":4000,"cost":{"input":0.000009,"output":0.0012,"cacheRead":0,"cacheWrite":0.015,"total":0.016209}},"stopReason":"toolUse","timestamp":1763632805000}}
{"type":"message","timestamp":"2025-11-20T10:00:06.000Z","message":{"role":"toolResult","toolCallId":"toolu_1","toolName":"read","content":[{"type":"text","text":"# Themes"}],"isError":false,"timestamp":1763632806000}}
{"type":"message","timestamp":"2025-11-20T10:00:07.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":2,"cacheRead":4000,"cacheWrite":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1763632807000}}
"##;

#[test]
fn early_sessions_without_total_tokens_keep_every_assistant_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("early.jsonl");
    fs::write(&path, EARLY_V1).unwrap();
    let session = SessionManager::open(&path).unwrap();
    assert!(
        session.unreadable_lines().is_empty(),
        "{:?}",
        session.unreadable_lines()
    );
    assert_eq!(session.load_warning(), None);
    let messages = session.build_context().messages;
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| match m {
            pi::ai::types::Message::User(_) => "user",
            pi::ai::types::Message::Assistant(_) => "assistant",
            pi::ai::types::Message::ToolResult(_) => "toolResult",
            _ => "other",
        })
        .collect();
    assert_eq!(
        roles,
        [
            "user",
            "assistant",
            "user",
            "assistant",
            "toolResult",
            "assistant"
        ]
    );
    let pi::ai::types::Message::Assistant(last) = &messages[5] else {
        unreachable!()
    };
    // A missing total is the sum of the counts, as pi computes it.
    assert_eq!(last.usage.total_tokens, 10 + 2 + 4000);
}

#[test]
fn an_unreadable_line_is_kept_in_the_file_and_reported_with_its_number() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.jsonl");
    let text = concat!(
        r#"{"type":"session","version":3,"id":"m","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp"}"#,
        "\n",
        r#"{"type":"message","id":"a1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}"#,
        "\n",
        r#"{"type":"message","id":"a2","parentId":"a1","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":"not a list"}}"#,
        "\n",
        "{\"type\":\"message\",\"id\":\"a3\",\"par\n",
    );
    fs::write(&path, text).unwrap();
    let session = SessionManager::open(&path).unwrap();
    assert_eq!(session.unreadable_lines(), &[3, 4]);
    let warning = session.load_warning().unwrap();
    assert!(warning.contains("mixed.jsonl"), "{warning}");
    assert!(
        warning.contains("2 lines") && warning.contains("line 3"),
        "{warning}"
    );
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        text,
        "the file is untouched"
    );
}
