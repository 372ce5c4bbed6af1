//! Tree navigation, labels, and context resolution with compaction.

use std::path::Path;

use pi::ai::model::ThinkingLevel;
use pi::ai::types::{AssistantMessage, ContentBlock, Message, UserContent, UserMessage};
use pi::session::{SessionEntry, SessionError, SessionManager, build_session_context};

fn user(text: &str) -> Message {
    Message::User(UserMessage::text(text))
}

fn assistant_from(provider: &str, model: &str, text: &str) -> Message {
    let mut reply = AssistantMessage::empty("anthropic-messages", provider, model);
    reply.content.push(ContentBlock::text(text));
    Message::Assistant(reply)
}

fn assistant(text: &str) -> Message {
    assistant_from("anthropic", "claude-x", text)
}

/// A short description of each context message, e.g. `user:hi`.
fn describe(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .map(|message| match message {
            Message::User(m) => format!("user:{}", m.content.text()),
            Message::Assistant(m) => format!("assistant:{}", m.text()),
            Message::Custom(m) => format!("custom:{}", m.content.text()),
            Message::BranchSummary(m) => format!("branch:{}", m.summary),
            Message::CompactionSummary(m) => format!("compaction:{}", m.summary),
            other => other.role().to_string(),
        })
        .collect()
}

fn ids(entries: &[&SessionEntry]) -> Vec<String> {
    entries.iter().map(|e| e.id().to_string()).collect()
}

#[test]
fn branching_keeps_history_and_builds_a_tree() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    let u1 = session.append_message(user("hello"));
    let a1 = session.append_message(assistant("hi"));
    let u2 = session.append_message(user("approach A"));
    let a2 = session.append_message(assistant("doing A"));
    session.branch(&a1).unwrap();
    let u3 = session.append_message(user("approach B"));

    assert_eq!(session.leaf_id(), Some(u3.as_str()));
    assert_eq!(
        ids(&session.get_branch(None)),
        [u1.clone(), a1.clone(), u3.clone()]
    );
    assert_eq!(
        ids(&session.get_branch(Some(&a2))),
        [u1.clone(), a1.clone(), u2.clone(), a2.clone()]
    );
    assert_eq!(ids(&session.children(&a1)), [u2.clone(), u3.clone()]);
    assert_eq!(session.entries().len(), 5);
    assert_eq!(
        describe(&session.build_context().messages),
        ["user:hello", "assistant:hi", "user:approach B"]
    );

    session.append_label_change(&u2, Some("idea A")).unwrap();
    let tree = session.get_tree();
    assert_eq!(tree.roots.len(), 1);
    let root = &tree.nodes[tree.roots[0]];
    assert_eq!(root.entry.id(), u1);
    let a1_node = tree.children_of(tree.roots[0]).next().unwrap();
    assert_eq!(a1_node.entry.id(), a1);
    let branches: Vec<(&str, Option<&str>)> = a1_node
        .children
        .iter()
        .map(|&i| (tree.nodes[i].entry.id(), tree.nodes[i].label))
        .collect();
    assert_eq!(
        branches,
        [(u2.as_str(), Some("idea A")), (u3.as_str(), None)]
    );
}

#[test]
fn unknown_ids_are_rejected() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    session.append_message(user("x"));
    assert!(matches!(
        session.branch("nope"),
        Err(SessionError::EntryNotFound { .. })
    ));
    assert!(session.append_label_change("nope", Some("l")).is_err());
    assert!(
        session
            .branch_with_summary(Some("nope"), "s", None, None)
            .is_err()
    );
    assert_eq!(session.entries().len(), 1);
}

#[test]
fn reset_leaf_starts_a_new_root_and_empties_the_context() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    session.append_message(user("first"));
    session.append_thinking_level_change(ThinkingLevel::High);
    session.reset_leaf();
    let context = session.build_context();
    assert!(context.messages.is_empty());
    assert_eq!(context.thinking_level, "off");
    assert_eq!(context.model, None);
    let root = session.append_message(user("again"));
    assert_eq!(session.entry(&root).unwrap().parent_id(), None);
    assert_eq!(session.get_tree().roots.len(), 2);
}

#[test]
fn labels_set_replace_and_clear() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    let target = session.append_message(user("x"));
    session.append_label_change(&target, Some("one")).unwrap();
    session.append_label_change(&target, Some("two")).unwrap();
    assert_eq!(session.label(&target), Some("two"));
    session.append_label_change(&target, Some("")).unwrap();
    assert_eq!(session.label(&target), None);
    session.append_label_change(&target, Some("three")).unwrap();
    session.append_label_change(&target, None).unwrap();
    assert_eq!(session.label(&target), None);
    // Labels never reach the model.
    assert_eq!(describe(&session.build_context().messages), ["user:x"]);
}

#[test]
fn context_uses_the_latest_compaction_on_the_path() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    session.append_message(user("u1"));
    session.append_message(assistant("a1"));
    let u2 = session.append_message(user("u2"));
    session.append_message(assistant("a2"));
    let before_compaction = session.leaf_id().unwrap().to_string();
    session.append_compaction("first summary", &u2, 1000, None, None);
    let u3 = session.append_message(user("u3"));
    session.append_message(assistant("a3"));
    assert_eq!(
        describe(&session.build_context().messages),
        [
            "compaction:first summary",
            "user:u2",
            "assistant:a2",
            "user:u3",
            "assistant:a3"
        ]
    );

    session.append_compaction("second summary", &u3, 2000, None, None);
    session.append_message(user("u4"));
    let context = session.build_context();
    assert_eq!(
        describe(&context.messages),
        [
            "compaction:second summary",
            "user:u3",
            "assistant:a3",
            "user:u4"
        ]
    );
    match &context.messages[0] {
        Message::CompactionSummary(summary) => assert_eq!(summary.tokens_before, 2000),
        other => panic!("unexpected {}", other.role()),
    }

    // A branch from before the compaction does not see it.
    session.branch(&before_compaction).unwrap();
    session.append_message(user("alt"));
    assert_eq!(
        describe(&session.build_context().messages),
        [
            "user:u1",
            "assistant:a1",
            "user:u2",
            "assistant:a2",
            "user:alt"
        ]
    );
}

#[test]
fn compaction_with_unknown_first_kept_keeps_only_later_messages() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    session.append_message(user("u1"));
    session.append_compaction("s", "missing", 1, None, None);
    session.append_message(user("u2"));
    assert_eq!(
        describe(&session.build_context().messages),
        ["compaction:s", "user:u2"]
    );
}

#[test]
fn thinking_level_and_model_come_from_the_path() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    session.append_model_change("openai", "gpt-4o");
    let start = session.append_thinking_level_change(ThinkingLevel::Low);
    assert_eq!(
        session.build_context().model,
        Some(("openai".to_string(), "gpt-4o".to_string()))
    );
    session.append_message(assistant_from("anthropic", "claude-y", "x"));
    session.append_thinking_level_change(ThinkingLevel::Xhigh);
    let context = session.build_context();
    assert_eq!(context.thinking_level, "xhigh");
    assert_eq!(context.thinking(), Some(ThinkingLevel::Xhigh));
    assert_eq!(
        context.model,
        Some(("anthropic".to_string(), "claude-y".to_string()))
    );
    session.branch(&start).unwrap();
    let context = session.build_context();
    assert_eq!(context.thinking_level, "low");
    assert_eq!(
        context.model,
        Some(("openai".to_string(), "gpt-4o".to_string()))
    );
}

#[test]
fn branch_summaries_and_custom_messages_join_the_context() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    let u1 = session.append_message(user("u1"));
    session.append_message(assistant("a1"));
    let summary = session
        .branch_with_summary(Some(&u1), "tried a1", None, None)
        .unwrap();
    assert_eq!(
        session.entry(&summary).unwrap().parent_id(),
        Some(u1.as_str())
    );
    match session.entry(&summary).unwrap() {
        SessionEntry::BranchSummary(entry) => assert_eq!(entry.from_id, u1),
        other => panic!("unexpected {}", other.type_name()),
    }
    let note = session.append_custom_message_entry(
        "note",
        UserContent::Text("remember".into()),
        false,
        None,
    );
    session.append_custom_entry("state", None);
    let context = session.build_context();
    assert_eq!(
        describe(&context.messages),
        ["user:u1", "branch:tried a1", "custom:remember"]
    );
    let expected_ms =
        chrono::DateTime::parse_from_rfc3339(session.entry(&note).unwrap().timestamp())
            .unwrap()
            .timestamp_millis();
    match &context.messages[2] {
        Message::Custom(custom) => {
            assert_eq!(custom.timestamp, expected_ms);
            assert!(!custom.display);
        }
        other => panic!("unexpected {}", other.role()),
    }

    // From the very start: fromId is "root"; empty summaries are not sent.
    let root_summary = session.branch_with_summary(None, "", None, None).unwrap();
    match session.entry(&root_summary).unwrap() {
        SessionEntry::BranchSummary(entry) => {
            assert_eq!(entry.from_id, "root");
            assert_eq!(entry.parent_id, None);
        }
        other => panic!("unexpected {}", other.type_name()),
    }
    assert!(session.build_context().messages.is_empty());
}

#[test]
fn free_function_falls_back_to_the_last_entry() {
    let mut session = SessionManager::in_memory(Path::new("/p"));
    session.append_message(user("a"));
    session.append_message(user("b"));
    let entries = &session.entries().to_vec();
    assert_eq!(
        describe(&build_session_context(entries, Some("unknown")).messages),
        ["user:a", "user:b"]
    );
    assert!(build_session_context(entries, None).messages.is_empty());
    assert!(build_session_context(&[], Some("x")).messages.is_empty());
}

#[test]
fn branched_session_keeps_one_path_and_its_labels() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::create(Path::new("/p"), dir.path());
    let u1 = session.append_message(user("u1"));
    let a1 = session.append_message(assistant("a1"));
    let off_path = session.append_message(user("other"));
    session.append_label_change(&u1, Some("start")).unwrap();
    session
        .append_label_change(&off_path, Some("elsewhere"))
        .unwrap();
    let original = session.session_file().unwrap().to_path_buf();

    let new_file = session.create_branched_session(&a1).unwrap().unwrap();
    assert_ne!(new_file, original);
    assert!(
        new_file.exists(),
        "written at once: the path has an assistant message"
    );
    assert_eq!(
        session.header().parent_session.as_deref(),
        original.to_str()
    );
    let kinds: Vec<&str> = session.entries().iter().map(|e| e.type_name()).collect();
    assert_eq!(kinds, ["message", "message", "label"]);
    assert_eq!(session.label(&u1), Some("start"));
    assert_eq!(session.label(&off_path), None);
    let label = session.entries().last().unwrap();
    assert_eq!(label.parent_id(), Some(a1.as_str()));
    assert_eq!(session.leaf_id(), Some(label.id()));

    let reopened = SessionManager::open(&new_file).unwrap();
    assert_eq!(reopened.entries(), session.entries());
    session.append_message(user("continue"));
    session.sync().unwrap();
    assert_eq!(SessionManager::open(&new_file).unwrap().entries().len(), 4);
}

#[test]
fn branched_session_holding_only_a_prompt_is_written_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::create(Path::new("/p"), dir.path());
    let u1 = session.append_message(user("u1"));
    session.append_message(assistant("a1"));
    let new_file = session.create_branched_session(&u1).unwrap().unwrap();
    let text = std::fs::read_to_string(&new_file).unwrap();
    assert_eq!(text.lines().count(), 2);
    session.append_message(assistant("reply"));
    let text = std::fs::read_to_string(&new_file).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(text.starts_with(r#"{"type":"session""#));
}
