use std::path::Path;

use super::*;
use crate::ai::settled::WrittenSettled;
use crate::ai::types::UserMessage;

fn user(text: &str) -> Message {
    Message::User(UserMessage {
        timestamp: 1,
        ..UserMessage::text(text)
    })
}

fn text(message: &Message) -> String {
    match message {
        Message::User(u) => u.content.text(),
        other => panic!("not a user message: {other:?}"),
    }
}

/// Drops messages saying `skip`, passes the rest.
fn convert(message: Cow<'_, Message>) -> Option<Message> {
    Some(message.into_owned()).filter(|m| text(m) != "skip")
}

fn model() -> Model {
    serde_json::from_value(serde_json::json!({
        "id": "m", "name": "m", "api": "openai-completions", "provider": "mock",
        "baseUrl": "http://x", "reasoning": false, "input": ["text"], "maxTokens": 100
    }))
    .unwrap()
}

fn config(dir: &Path) -> SettledConfig {
    SettledConfig {
        store: SettledStore::new(dir, "s", &dir.join("s.jsonl")),
        convert_one: convert,
    }
}

fn conversation(texts: &[&str]) -> Conversation {
    texts.iter().map(|t| user(t)).collect()
}

#[test]
fn a_kept_part_covers_the_messages_it_was_written_for() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let m = model();
    let first = conversation(&["a", "skip", "b", "c"]);
    let turn = SettledTurn::prepare(&config, "f/1", &m, Some("sys"), &first);
    assert!(turn.exchange.given.is_none());
    let sent: Vec<String> = turn.messages.iter().map(text).collect();
    assert_eq!(sent, ["a", "b", "c"]);
    // The provider settled the first two model messages ("a", "b"): the conversation's
    // first three.
    turn.exchange.set_written(WrittenSettled {
        count: 2,
        bytes: b"AB".to_vec(),
        after_tool_result: false,
        tool_history: false,
    });
    turn.keep(&config, &first);

    let mut next = first.clone();
    next.push(user("d"));
    let turn = SettledTurn::prepare(&config, "f/1", &m, Some("sys"), &next);
    let given = turn.exchange.given.as_ref().expect("the kept part");
    assert_eq!((given.count, given.bytes.as_slice()), (2, &b"AB"[..]));
    let covered: Vec<String> = (given.messages)().iter().map(text).collect();
    assert_eq!(covered, ["a", "b"]);
    let sent: Vec<String> = turn.messages.iter().map(text).collect();
    assert_eq!(sent, ["c", "d"]);

    // Another system prompt: everything is converted.
    let turn = SettledTurn::prepare(&config, "f/1", &m, None, &next);
    assert!(turn.exchange.given.is_none());
    assert_eq!(turn.messages.len(), 4);
}

#[test]
fn a_part_reaching_no_further_is_not_written_again() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let m = model();
    let first = conversation(&["a", "b"]);
    let turn = SettledTurn::prepare(&config, "f/1", &m, None, &first);
    turn.exchange.set_written(WrittenSettled {
        count: 1,
        bytes: b"A".to_vec(),
        after_tool_result: false,
        tool_history: false,
    });
    turn.keep(&config, &first);
    let path = dir.path().join("cache/settled/s.settled");
    let written = std::fs::read(&path).unwrap();

    let mut next = first.clone();
    next.push(user("c"));
    let turn = SettledTurn::prepare(&config, "f/1", &m, None, &next);
    assert_eq!(turn.exchange.given_count(), 1);
    // The same coverage with other bytes is not written.
    turn.exchange.set_written(WrittenSettled {
        count: 1,
        bytes: b"X".to_vec(),
        after_tool_result: false,
        tool_history: false,
    });
    turn.keep(&config, &next);
    assert_eq!(std::fs::read(&path).unwrap(), written);
}
