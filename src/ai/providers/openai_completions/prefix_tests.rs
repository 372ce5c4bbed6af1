use serde_json::{Value, json};

use super::*;
use crate::ai::providers::openai_completions::request::body_bytes;
use crate::ai::settled::SettledPart;
use crate::ai::types::{
    AssistantMessage, ContentBlock, StopReason, ToolCall, ToolResultMessage, ToolSpec, UserMessage,
};

fn model(compat: Option<Value>) -> Model {
    let mut v = json!({
        "id": "m", "name": "m", "api": "openai-completions", "provider": "p",
        "baseUrl": "http://x", "reasoning": true, "input": ["text", "image"], "maxTokens": 8000
    });
    if let Some(c) = compat {
        v["compat"] = c;
    }
    serde_json::from_value(v).unwrap()
}

fn user(text: &str) -> Message {
    Message::User(UserMessage {
        timestamp: 0,
        ..UserMessage::text(text)
    })
}

/// An assistant turn of another model calling a tool, and the tool's result.
fn tool_round(id: &str, result: Option<&str>) -> Vec<Message> {
    let mut a = AssistantMessage::empty("anthropic-messages", "anthropic", "claude");
    a.content = vec![
        ContentBlock::text(format!("reading {id}")),
        ContentBlock::ToolCall(ToolCall {
            id: id.into(),
            name: "read".into(),
            arguments: json!({"path": format!("{id}.txt")}),
            thought_signature: None,
            raw_arguments: None,
        }),
    ];
    a.stop_reason = StopReason::ToolUse;
    a.timestamp = 0;
    let mut out = vec![Message::Assistant(a)];
    if let Some(text) = result {
        out.push(Message::ToolResult(ToolResultMessage {
            tool_call_id: id.into(),
            tool_name: "read".into(),
            content: vec![ContentBlock::text(text)],
            details: None,
            is_error: false,
            timestamp: 1,
        }));
    }
    out
}

fn context(messages: Vec<Message>) -> Arc<Context> {
    Arc::new(Context {
        system_prompt: Some("sys".into()),
        messages,
        tools: vec![ToolSpec {
            name: "read".into(),
            description: "Read a file".into(),
            parameters: json!({"type": "object"}),
        }],
    })
}

/// The body through the cache, checked against the body converted whole.
fn send(cache: &PrefixCache, model: &Model, context: &Arc<Context>) -> Vec<u8> {
    let compat = OpenAiCompat::for_model(model);
    let options = StreamOptions {
        session_id: Some("s".into()),
        ..Default::default()
    };
    let cached = cache.body_bytes(model, context, &options, &compat);
    let whole = body_bytes(model, context, &options, &compat);
    assert_eq!(
        String::from_utf8(cached.clone()).unwrap(),
        String::from_utf8(whole).unwrap()
    );
    cached
}

/// Three turns of one conversation: each request takes the settled part of the one
/// before as it was, and the bodies are those converted whole.
fn grown(cache: &PrefixCache, model: &Model) -> Vec<Message> {
    let mut messages = vec![user("first")];
    messages.extend(tool_round("a", Some("A")));
    send(cache, model, &context(messages.clone()));
    // The only user message is the first: nothing settled yet.
    assert_eq!(cache.covered(), (0, 0));
    messages.push(user("second"));
    send(cache, model, &context(messages.clone()));
    assert_eq!(cache.covered(), (3, 0));
    messages.extend(tool_round("b", Some("B")));
    messages.push(user("third"));
    send(cache, model, &context(messages.clone()));
    assert_eq!(cache.covered(), (6, 3));
    messages
}

#[test]
fn a_growing_conversation_reuses_its_settled_part() {
    let cache = PrefixCache::default();
    let m = model(None);
    let mut messages = grown(&cache, &m);
    // A call left without a result before the next user message, and a bridge.
    let strict = model(Some(json!({"requiresAssistantAfterToolResult": true})));
    let strict_cache = PrefixCache::default();
    grown(&strict_cache, &strict);
    messages.extend(tool_round("c", None));
    messages.push(user("fourth"));
    send(&cache, &m, &context(messages.clone()));
    assert_eq!(cache.covered(), (8, 6));
}

#[test]
fn a_change_before_the_settled_point_converts_again() {
    let m = model(None);
    let cache = PrefixCache::default();
    let messages = grown(&cache, &m);

    // Another system prompt.
    let mut other = (*context(messages.clone())).clone();
    other.system_prompt = Some("another".into());
    send(&cache, &m, &Arc::new(other));
    assert_eq!(cache.covered(), (6, 0));

    // An earlier message edited.
    grown(&cache, &m);
    let mut edited = messages.clone();
    edited[2] = tool_round("a", Some("changed"))[1].clone();
    send(&cache, &m, &context(edited));
    assert_eq!(cache.covered(), (6, 0));

    // Another model.
    grown(&cache, &m);
    let mut renamed = m.clone();
    renamed.id = "m2".into();
    send(&cache, &renamed, &context(messages.clone()));
    assert_eq!(cache.covered(), (6, 0));

    // Other tools: the entries do not depend on them and are kept; the body has the new tools.
    grown(&cache, &m);
    let mut tools = (*context(messages.clone())).clone();
    tools.tools.clear();
    let body = send(&cache, &m, &Arc::new(tools));
    assert_eq!(cache.covered(), (6, 6));
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(body["tools"], json!([]));

    // Unchanged: taken as it was.
    grown(&cache, &m);
    send(&cache, &m, &context(messages));
    assert_eq!(cache.covered(), (6, 6));
}

#[test]
fn renamed_ids_and_cache_markers_convert_whole() {
    let m = model(None);
    let cache = PrefixCache::default();
    let mut messages = vec![user("first")];
    messages.extend(tool_round("call|item", Some("A")));
    messages.push(user("second"));
    send(&cache, &m, &context(messages.clone()));
    assert_eq!(cache.covered(), (0, 0));

    let marked = model(Some(json!({"cacheControlFormat": "anthropic"})));
    grown(&cache, &m);
    let mut plain = vec![user("first")];
    plain.extend(tool_round("a", Some("A")));
    plain.push(user("second"));
    send(&cache, &marked, &context(plain));
    assert_eq!(cache.covered(), (0, 0));
}

/// The body of `messages` in a new cache, reporting its settled part.
fn written(m: &Model, messages: &[Message]) -> (Vec<u8>, WrittenSettled) {
    let exchange = Arc::new(SettledExchange::new(None));
    let options = StreamOptions {
        session_id: Some("s".into()),
        settled: Some(Arc::clone(&exchange)),
        ..Default::default()
    };
    let compat = OpenAiCompat::for_model(m);
    let body = PrefixCache::default().body_bytes(m, &context(messages.to_vec()), &options, &compat);
    (body, exchange.take_written().expect("a settled part"))
}

/// The body of the messages after `part` in a new cache, given `part` (made for `made_for`).
fn given(
    m: &Model,
    made_for: &Model,
    part: &WrittenSettled,
    messages: &[Message],
) -> (Vec<u8>, Option<WrittenSettled>) {
    let earlier = messages[..part.count].to_vec();
    let exchange = Arc::new(SettledExchange::new(Some(SettledPart {
        format: super::super::SETTLED_FORMAT.into(),
        model: made_for.clone(),
        system_prompt: Some("sys".into()),
        count: part.count,
        bytes: part.bytes.clone(),
        after_tool_result: part.after_tool_result,
        tool_history: part.tool_history,
        messages: Arc::new(move || earlier.clone()),
    })));
    let options = StreamOptions {
        session_id: Some("s".into()),
        settled: Some(Arc::clone(&exchange)),
        ..Default::default()
    };
    let compat = OpenAiCompat::for_model(m);
    let rest = context(messages[part.count..].to_vec());
    let body = PrefixCache::default().body_bytes(m, &rest, &options, &compat);
    (body, exchange.take_written())
}

#[test]
fn a_given_settled_part_is_sent_as_is_and_grows() {
    let m = model(None);
    let mut messages = vec![user("first")];
    messages.extend(tool_round("a", Some("A")));
    messages.push(user("second"));
    let (_, first) = written(&m, &messages);
    assert_eq!(first.count, 3);
    assert!(first.tool_history);
    messages.extend(tool_round("b", Some("B")));
    messages.push(user("third"));
    let (whole, all) = written(&m, &messages);
    let (body, grown) = given(&m, &m, &first, &messages);
    assert_eq!(
        String::from_utf8(body).unwrap(),
        String::from_utf8(whole).unwrap()
    );
    assert_eq!(grown, Some(all));
    // The given bytes are what is sent: a change in them shows in the body.
    let mut marked = first.clone();
    let text = String::from_utf8(marked.bytes)
        .unwrap()
        .replace("first", "FIRST");
    marked.bytes = text.into_bytes();
    let (body, _) = given(&m, &m, &marked, &messages);
    assert!(String::from_utf8(body).unwrap().contains("FIRST"));
}

#[test]
fn a_given_part_that_does_not_fit_converts_the_whole_conversation() {
    let m = model(None);
    let mut messages = vec![user("first")];
    messages.extend(tool_round("a", Some("A")));
    messages.push(user("second"));
    let (_, first) = written(&m, &messages);
    let mut marked = first.clone();
    let text = String::from_utf8(marked.bytes)
        .unwrap()
        .replace("first", "FIRST");
    marked.bytes = text.into_bytes();
    messages.push(user("third"));
    let (whole, all) = written(&m, &messages);
    // Made for another model: the messages are converted again, from the start.
    let mut other = m.clone();
    other.id = "m2".into();
    let (body, reported) = given(&m, &other, &marked, &messages);
    assert_eq!(
        String::from_utf8(body).unwrap(),
        String::from_utf8(whole.clone()).unwrap()
    );
    assert_eq!(reported, Some(all));
    // Cache markers land near the end: never taken as they are.
    let marks = model(Some(json!({"cacheControlFormat": "anthropic"})));
    let (body, _) = given(&marks, &marks, &marked, &messages);
    assert!(!String::from_utf8(body).unwrap().contains("FIRST"));
}

#[test]
fn tool_history_in_a_given_part_still_sends_an_empty_tool_list() {
    let m = model(None);
    let mut messages = vec![user("first")];
    messages.extend(tool_round("a", Some("A")));
    messages.push(user("second"));
    let (_, first) = written(&m, &messages);
    messages.push(user("third"));
    let earlier = messages[..first.count].to_vec();
    let exchange = Arc::new(SettledExchange::new(Some(SettledPart {
        format: super::super::SETTLED_FORMAT.into(),
        model: m.clone(),
        system_prompt: Some("sys".into()),
        count: first.count,
        bytes: first.bytes.clone(),
        after_tool_result: first.after_tool_result,
        tool_history: first.tool_history,
        messages: Arc::new(move || earlier.clone()),
    })));
    let compat = OpenAiCompat::for_model(&m);
    let no_tools = |messages: Vec<Message>| {
        let mut c = (*context(messages)).clone();
        c.tools.clear();
        Arc::new(c)
    };
    let options = StreamOptions {
        settled: Some(exchange),
        ..Default::default()
    };
    let rest = no_tools(messages[first.count..].to_vec());
    let body = PrefixCache::default().body_bytes(&m, &rest, &options, &compat);
    let whole = body_bytes(&m, &no_tools(messages), &StreamOptions::default(), &compat);
    assert_eq!(
        String::from_utf8(body).unwrap(),
        String::from_utf8(whole.clone()).unwrap()
    );
    let body: Value = serde_json::from_slice(&whole).unwrap();
    assert_eq!(body["tools"], json!([]));
}
