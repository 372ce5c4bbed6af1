use super::*;
use crate::ai::types::{AssistantMessage, ToolCall};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Messages kept as JSON at known places, counting how often one is read.
struct Lines {
    text: String,
    reads: AtomicUsize,
}

impl MessageSource for Lines {
    fn read(&self, offset: u64, len: u32) -> Option<Message> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        let line = self
            .text
            .get(offset as usize..offset as usize + len as usize)?;
        serde_json::from_str(line).ok()
    }
}

fn answer(text: &str, calls: usize, input: u64) -> Message {
    let mut a = AssistantMessage::empty("openai-completions", "mock", "m");
    a.content.push(ContentBlock::text(text));
    for k in 0..calls {
        a.content.push(ContentBlock::ToolCall(ToolCall {
            id: format!("c{k}"),
            name: "read".into(),
            arguments: serde_json::json!({"path": "x"}),
            thought_signature: None,
            raw_arguments: None,
        }));
    }
    a.usage.input = input;
    Message::Assistant(a)
}

/// `messages` written one per line; every one left in the "file".
fn stored(messages: &[Message]) -> (Conversation, Arc<Lines>) {
    let mut text = String::new();
    let mut parts = Vec::new();
    for m in messages {
        let line = serde_json::to_string(m).unwrap();
        parts.push(Part::Stored(StoredMessage {
            offset: text.len() as u64,
            len: line.len() as u32,
            facts: MessageFacts::of(m),
        }));
        text.push_str(&line);
        text.push('\n');
    }
    let lines = Arc::new(Lines {
        text,
        reads: AtomicUsize::new(0),
    });
    (Conversation::assemble(parts, lines.clone()), lines)
}

fn sample() -> Vec<Message> {
    vec![
        Message::User(UserMessage::text("hello")),
        answer("reading", 2, 10),
        Message::User(UserMessage::text("thanks")),
        answer("done", 0, 30),
    ]
}

#[test]
fn messages_left_in_the_file_read_back_equal_the_originals() {
    let messages = sample();
    let (conversation, lines) = stored(&messages);
    assert_eq!(conversation.len(), 4);
    assert_eq!(conversation.held(), 0);
    assert_eq!(conversation, messages);
    assert_eq!(conversation.to_vec(), messages);
    let backwards: Vec<Message> = conversation.iter().rev().map(Cow::into_owned).collect();
    let mut expected = messages.clone();
    expected.reverse();
    assert_eq!(backwards, expected);
    assert!(lines.reads.load(Ordering::Relaxed) >= 12);
}

#[test]
fn facts_come_without_reading_a_message() {
    let messages = sample();
    let (conversation, lines) = stored(&messages);
    let facts = conversation.facts(1);
    assert_eq!(facts.role, "assistant");
    assert_eq!(facts.tool_calls, 2);
    assert_eq!(facts.usage.as_ref().map(|u| u.input), Some(10));
    assert_eq!(conversation.facts(2).role, "user");
    assert_eq!(conversation.facts(2).usage, None);
    assert_eq!(lines.reads.load(Ordering::Relaxed), 0);
    // A held message gives the same facts.
    let held: Conversation = messages.into();
    assert_eq!(held.facts(1), facts);
}

#[test]
fn appending_popping_and_changing_the_last_message_work_on_both_kinds() {
    let messages = sample();
    let (mut conversation, _) = stored(&messages);
    conversation.push(Message::User(UserMessage::text("more")));
    assert_eq!(conversation.len(), 5);
    assert_eq!(conversation.held(), 1);
    assert!(matches!(conversation.pop(), Some(Message::User(_))));
    // The last one is in the file: changing it brings it into memory.
    if let Some(Message::Assistant(a)) = conversation.last_mut() {
        a.content.push(ContentBlock::text("!"));
    }
    assert_eq!(conversation.held(), 1);
    let Some(Message::Assistant(last)) = conversation.last().as_deref().cloned() else {
        panic!("the last message is an answer");
    };
    assert_eq!(last.text(), "done!");
    assert_eq!(conversation.pop().map(|m| m.role()), Some("assistant"));
    conversation.truncate(1);
    assert_eq!(conversation, messages[..1].to_vec());
    conversation.prepend(vec![answer("first", 0, 0)]);
    assert_eq!(conversation.facts(0).role, "assistant");
    assert_eq!(conversation.len(), 2);
}

#[test]
fn a_clone_shares_held_messages_and_serialises_like_a_list() {
    let messages = sample();
    let conversation: Conversation = messages.clone().into();
    let copy = conversation.clone();
    assert_eq!(copy, conversation);
    let (stored, _) = stored(&messages);
    assert_eq!(
        serde_json::to_string(&stored).unwrap(),
        serde_json::to_string(&messages).unwrap()
    );
}

#[test]
fn a_message_the_file_no_longer_holds_is_stood_in_for() {
    let (conversation, lines) = stored(&sample());
    let cut = Arc::new(Lines {
        text: lines.text[..10].to_string(),
        reads: AtomicUsize::new(0),
    });
    let parts = (0..conversation.len())
        .map(|at| match &conversation.slots[at] {
            Slot::Stored { offset, len, facts } => Part::Stored(StoredMessage {
                offset: *offset,
                len: *len,
                facts: facts.clone(),
            }),
            Slot::Held(m) => Part::Held(Box::new((**m).clone())),
        })
        .collect();
    let cut = Conversation::assemble(parts, cut);
    assert_eq!(cut.len(), 4);
    let Some(Message::User(u)) = cut.get(3).as_deref().cloned() else {
        panic!("a stand-in user message");
    };
    assert!(u.content.text().contains("assistant"), "{u:?}");
}

#[test]
fn reading_from_a_place_on_gives_the_messages_in_order_once_each() {
    let messages: Vec<Message> = (0..300)
        .map(|k| match k % 2 {
            0 => Message::User(UserMessage::text(format!("question {k}"))),
            _ => answer(&format!("answer {k}"), k % 3, k as u64),
        })
        .collect();
    let (mut conversation, lines) = stored(&messages);
    conversation.push(Message::User(UserMessage::text("held")));
    for start in [0, 1, 150, 299, 300, 301, 400] {
        let read: Vec<Message> = conversation
            .read_from(start)
            .into_iter()
            .map(Cow::into_owned)
            .collect();
        let expected: Vec<Message> = conversation
            .iter()
            .skip(start)
            .map(Cow::into_owned)
            .collect();
        assert_eq!(read, expected, "from {start}");
    }
    lines.reads.store(0, Ordering::Relaxed);
    assert_eq!(conversation.read_from(100).len(), 201);
    assert_eq!(
        lines.reads.load(Ordering::Relaxed),
        200,
        "each stored message read once"
    );
}
