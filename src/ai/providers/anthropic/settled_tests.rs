use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::ai::settled::SettledPart;
use crate::ai::types::{
    AssistantMessage, ContentBlock, StopReason, ThinkingContent, ToolCall, ToolResultMessage,
    ToolSpec, UserContent, UserMessage,
};
use crate::session::build_session_context;
use crate::session::convert::convert_to_llm;
use crate::session::load::{MigrationWrite, load_session_file};

fn model(id: &str) -> Model {
    serde_json::from_value(json!({
        "id": id, "name": id, "api": "anthropic-messages", "provider": "anthropic",
        "baseUrl": "http://x", "reasoning": true, "input": ["text", "image"], "maxTokens": 64000
    }))
    .unwrap()
}

fn user(text: &str) -> Message {
    Message::User(UserMessage {
        timestamp: 0,
        ..UserMessage::text(text)
    })
}

fn user_blocks(blocks: Vec<ContentBlock>) -> Message {
    Message::User(UserMessage {
        content: UserContent::Blocks(blocks),
        timestamp: 0,
    })
}

fn assistant(of: &str, content: Vec<ContentBlock>, stop: StopReason) -> Message {
    let mut a = AssistantMessage::empty("anthropic-messages", "anthropic", of);
    a.content = content;
    a.stop_reason = stop;
    a.timestamp = 0;
    Message::Assistant(a)
}

fn call(id: &str, name: &str) -> ContentBlock {
    ContentBlock::ToolCall(ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: json!({"path": format!("{id}.txt")}),
        thought_signature: None,
        raw_arguments: None,
    })
}

fn thinking(text: &str, signature: Option<&str>, redacted: bool) -> ContentBlock {
    ContentBlock::Thinking(ThinkingContent {
        thinking: text.into(),
        thinking_signature: signature.map(str::to_string),
        redacted: redacted.then_some(true),
    })
}

fn result(id: &str, content: Vec<ContentBlock>) -> Message {
    Message::ToolResult(ToolResultMessage {
        tool_call_id: id.into(),
        tool_name: "read".into(),
        content,
        details: None,
        is_error: false,
        timestamp: 0,
    })
}

/// A `read` call by a model `of` and its result, `output`.
fn read_round(of: &str, id: &str, output: &str) -> [Message; 2] {
    [
        assistant(of, vec![call(id, "read")], StopReason::ToolUse),
        result(id, vec![ContentBlock::text(output)]),
    ]
}

fn context_with(system: Option<&str>, messages: Vec<Message>) -> Arc<Context> {
    Arc::new(Context {
        system_prompt: system.map(str::to_string),
        messages,
        tools: vec![ToolSpec {
            name: "read".into(),
            description: "Read a file".into(),
            parameters: json!({"type": "object", "properties": {}}),
        }],
    })
}

fn context(messages: Vec<Message>) -> Arc<Context> {
    context_with(Some("sys"), messages)
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

/// The body through the cache, checked against the body converted whole.
fn send(cache: &SettledCache, m: &Model, ctx: &Arc<Context>, oauth: bool) -> String {
    let options = StreamOptions::default();
    let cached = text(cache.body_bytes(m, ctx, &options, oauth));
    let whole = serde_json::to_string(&build_body(m, ctx, &options, oauth)).unwrap();
    assert!(
        cached == whole,
        "the bodies differ at {}",
        ctx.messages.len()
    );
    cached
}

/// A conversation of everything the conversion treats apart: signed, unsigned and
/// redacted thinking, another model's thinking, images in prompts and tool results,
/// blank prompts and texts, an errored turn, a call left without a result, parallel
/// calls, consecutive prompts and answers.
fn varied() -> Vec<Message> {
    let own = "claude-sonnet-4-5";
    let image = ContentBlock::image("aGVsbG8=", "image/png");
    vec![
        user("first"),
        assistant(
            own,
            vec![
                thinking("plan", Some("sig-1"), false),
                ContentBlock::text("reading"),
                call("a", "read"),
                call("b", "bash"),
            ],
            StopReason::ToolUse,
        ),
        result("a", vec![ContentBlock::text("A")]),
        result("b", vec![image.clone()]),
        user_blocks(vec![ContentBlock::text("look"), image.clone()]),
        assistant(
            own,
            vec![thinking("", Some("sealed"), true), ContentBlock::text("  ")],
            StopReason::Stop,
        ),
        user("   "),
        assistant(
            "gpt-5",
            vec![thinking("other", Some("x"), false)],
            StopReason::Stop,
        ),
        assistant(own, vec![ContentBlock::text("broken")], StopReason::Error),
        user("again"),
        user("and again"),
        assistant(own, vec![call("c", "edit")], StopReason::ToolUse),
        user("interrupted"),
        assistant(
            own,
            vec![thinking("unsigned", None, false)],
            StopReason::Stop,
        ),
        assistant(own, vec![call("d", "read")], StopReason::ToolUse),
        result("d", vec![ContentBlock::text("D"), image]),
        user("last"),
        assistant(own, vec![ContentBlock::text("done")], StopReason::Stop),
    ]
}

/// Every request of `messages` (each cut after a message), through one cache.
fn every_cut(messages: &[Message], m: &Model, oauth: bool) -> Vec<(usize, (usize, usize))> {
    let cache = SettledCache::default();
    let mut covered = Vec::new();
    for cut in 1..=messages.len() {
        send(&cache, m, &context(messages[..cut].to_vec()), oauth);
        covered.push((cut, cache.covered()));
    }
    covered
}

#[test]
fn varied_conversations_match_the_whole_conversion_at_every_cut() {
    for m in [model("claude-sonnet-4-5"), model("claude-opus-4-6")] {
        for oauth in [false, true] {
            let covered = every_cut(&varied(), &m, oauth);
            // Each request after the third prompt takes the part of the one before.
            let (_, at_last) = covered[16];
            assert_eq!(at_last, (16, 12), "{} {oauth}", m.id);
            assert!(
                covered
                    .iter()
                    .filter(|(_, (_, reused))| *reused > 0)
                    .count()
                    > 8
            );
        }
    }
}

#[test]
fn a_blank_last_prompt_after_tool_results_converts_whole() {
    let m = model("claude-sonnet-4-5");
    let cache = SettledCache::default();
    let mut messages = vec![user("first")];
    messages.extend(read_round(&m.id, "a", "A"));
    messages.push(user("second"));
    send(&cache, &m, &context(messages.clone()), false);
    assert_eq!(cache.covered(), (3, 0));
    // Allowed: a prompt with text takes the part and carries the marker itself.
    let mut next = messages.clone();
    next.extend(read_round(&m.id, "b", "B"));
    next.push(user("third"));
    send(&cache, &m, &context(next.clone()), false);
    assert_eq!(cache.covered(), (6, 3));
    // A blank prompt: the marker goes on the tool results before it.
    *next.last_mut().unwrap() = user(" ");
    let body = send(&cache, &m, &context(next), false);
    assert_eq!(cache.covered(), (0, 0));
    let body: Value = serde_json::from_str(&body).unwrap();
    let last = &body["messages"].as_array().unwrap().last().unwrap()["content"][0];
    assert_eq!(last["type"], "tool_result");
    assert_eq!(last["cache_control"], json!({"type": "ephemeral"}));
}

/// Three prompts of one conversation; the third request takes the second's part.
fn grown(cache: &SettledCache, m: &Model, oauth: bool) -> Vec<Message> {
    let mut messages = vec![user("first")];
    messages.extend(read_round(&m.id, "a", "A"));
    messages.push(user("second"));
    send(cache, m, &context(messages.clone()), oauth);
    messages.push(assistant(
        &m.id,
        vec![ContentBlock::text("ok")],
        StopReason::Stop,
    ));
    messages.push(user("third"));
    send(cache, m, &context(messages.clone()), oauth);
    assert_eq!(cache.covered(), (5, 3));
    messages.push(assistant(
        &m.id,
        vec![ContentBlock::text("ok")],
        StopReason::Stop,
    ));
    messages.push(user("fourth"));
    messages
}

#[test]
fn a_changed_earlier_message_is_converted_again() {
    let m = model("claude-sonnet-4-5");
    let cache = SettledCache::default();
    let messages = grown(&cache, &m, false);
    send(&cache, &m, &context(messages.clone()), false);
    assert_eq!(cache.covered(), (7, 5));

    grown(&cache, &m, false);
    let mut edited = messages.clone();
    edited[2] = result("a", vec![ContentBlock::text("changed")]);
    let body = send(&cache, &m, &context(edited), false);
    assert_eq!(cache.covered(), (7, 0));
    assert!(body.contains("\"changed\""));
}

#[test]
fn another_model_system_prompt_or_sign_in_is_converted_again() {
    let m = model("claude-sonnet-4-5");
    let cache = SettledCache::default();
    let messages = grown(&cache, &m, false);
    let other = model("claude-opus-4-5");
    send(&cache, &other, &context(messages.clone()), false);
    assert_eq!(cache.covered(), (7, 0));

    grown(&cache, &m, false);
    send(
        &cache,
        &m,
        &context_with(Some("other"), messages.clone()),
        false,
    );
    assert_eq!(cache.covered(), (7, 0));

    // Claude Code's tool names: "read" is sent as "Read" with a subscription.
    grown(&cache, &m, false);
    let body = send(&cache, &m, &context(messages.clone()), true);
    assert_eq!(cache.covered(), (7, 0));
    assert!(body.contains("\"name\":\"Read\""));
    send(&cache, &m, &context(messages.clone()), true);
    assert_eq!(cache.covered(), (7, 7));

    grown(&cache, &m, false);
    send(&cache, &m, &context(messages), false);
    assert_eq!(cache.covered(), (7, 5));
}

#[test]
fn renamed_tool_call_ids_convert_whole() {
    let m = model("claude-sonnet-4-5");
    let cache = SettledCache::default();
    let mut messages = vec![user("first")];
    messages.extend(read_round("gpt-5", "call|item", "A"));
    messages.push(user("second"));
    let body = send(&cache, &m, &context(messages.clone()), false);
    assert_eq!(cache.covered(), (0, 0));
    assert!(body.contains("\"tool_use_id\":\"call_item\""));
    // Allowed: an id the API accepts.
    messages.splice(1..3, read_round("gpt-5", "call_item", "A"));
    send(&cache, &m, &context(messages), false);
    assert_eq!(cache.covered(), (3, 0));
}

/// The body of `messages` in a new cache, and the settled part it reports.
fn written(m: &Model, messages: &[Message], oauth: bool) -> (String, Option<WrittenSettled>) {
    let exchange = Arc::new(SettledExchange::new(None));
    let options = StreamOptions {
        settled: Some(Arc::clone(&exchange)),
        ..Default::default()
    };
    let ctx = context(messages.to_vec());
    let body = SettledCache::default().body_bytes(m, &ctx, &options, oauth);
    (text(body), exchange.take_written())
}

/// What a given part was written under.
struct Made<'a> {
    format: &'a str,
    model: &'a Model,
    system_prompt: &'a str,
}

/// The body of the messages after `part` in a new cache, given `part`, checked against
/// the body of the whole conversation; and the part it reports.
fn given(
    m: &Model,
    made: &Made<'_>,
    part: &WrittenSettled,
    messages: &[Message],
    oauth: bool,
) -> (String, Option<WrittenSettled>) {
    let earlier = messages[..part.count].to_vec();
    let exchange = Arc::new(SettledExchange::new(Some(SettledPart {
        format: made.format.into(),
        model: made.model.clone(),
        system_prompt: Some(made.system_prompt.into()),
        count: part.count,
        bytes: part.bytes.clone(),
        after_tool_result: part.after_tool_result,
        tool_history: part.tool_history,
        messages: Arc::new(move || earlier.clone()),
    })));
    let options = StreamOptions {
        settled: Some(Arc::clone(&exchange)),
        ..Default::default()
    };
    let rest = context(messages[part.count..].to_vec());
    let body = text(SettledCache::default().body_bytes(m, &rest, &options, oauth));
    (body, exchange.take_written())
}

/// `part` with the first prompt spelt "FIRST": a body that sends its bytes shows it.
fn marked(part: &WrittenSettled) -> WrittenSettled {
    let mut marked = part.clone();
    marked.bytes = text(marked.bytes).replace("first", "FIRST").into_bytes();
    marked
}

#[test]
fn a_given_part_is_sent_as_is_and_grows() {
    let m = model("claude-sonnet-4-5");
    let cache = SettledCache::default();
    let messages = grown(&cache, &m, false);
    let (_, first) = written(&m, &messages[..6], false);
    let first = first.expect("a settled part");
    assert_eq!((first.count, first.tool_history), (5, true));
    let (whole, all) = written(&m, &messages, false);
    let made = Made {
        format: SETTLED_FORMAT,
        model: &m,
        system_prompt: "sys",
    };
    let (body, grown) = given(&m, &made, &first, &messages, false);
    assert_eq!(body, whole);
    assert_eq!(grown, all);
    let (body, _) = given(&m, &made, &marked(&first), &messages, false);
    assert!(body.contains("FIRST"));
    // Across every cut of the varied conversation, from the part of each earlier prompt.
    let varied = varied();
    for cut in 2..=varied.len() {
        let Some(part) = written(&m, &varied[..cut], false).1 else {
            continue;
        };
        for later in cut..=varied.len() {
            let (whole, all) = written(&m, &varied[..later], false);
            let (body, reported) = given(&m, &made, &part, &varied[..later], false);
            assert!(body == whole, "{cut}..{later}");
            if reported.is_some() {
                assert_eq!(reported, all, "{cut}..{later}");
            }
        }
    }
}

#[test]
fn a_given_part_that_does_not_fit_is_not_used() {
    let m = model("claude-sonnet-4-5");
    let messages = grown(&SettledCache::default(), &m, false);
    let (_, first) = written(&m, &messages[..6], false);
    let first = marked(&first.expect("a settled part"));
    let (whole, all) = written(&m, &messages, false);
    let fits = Made {
        format: SETTLED_FORMAT,
        model: &m,
        system_prompt: "sys",
    };
    let other_model = model("claude-opus-4-5");
    let refused = [
        Made {
            model: &other_model,
            ..fits
        },
        Made {
            system_prompt: "other",
            ..fits
        },
        Made {
            format: "openai-completions/1",
            ..fits
        },
    ];
    for made in &refused {
        let (body, reported) = given(&m, made, &first, &messages, false);
        assert_eq!(body, whole);
        assert_eq!(reported, all);
    }
    // With a subscription: converted whole, and no part reported for other processes.
    let (oauth_whole, none) = written(&m, &messages, true);
    assert_eq!(none, None);
    let (body, reported) = given(&m, &fits, &first, &messages, true);
    assert_eq!((body, reported), (oauth_whole, None));
    // Allowed: the marked bytes are sent.
    let (body, _) = given(&m, &fits, &first, &messages, false);
    assert!(body.contains("FIRST"));
}

/// The model messages of a session file of the fixtures, at its last entry.
fn fixture(path: &str) -> Vec<Message> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let loaded = load_session_file(&path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap();
    let leaf = loaded.entries.last().map(|e| e.id());
    convert_to_llm(&build_session_context(&loaded.entries, leaf).messages)
}

#[test]
fn fixture_sessions_match_the_whole_conversion_at_every_prompt() {
    let sonnet = model("claude-sonnet-4-5");
    let opus = model("claude-opus-4-5");
    for path in [
        "tests/fixtures/conformance/large-session.jsonl",
        "tests/fixtures/conformance/before-compaction.jsonl",
        "tests/fixtures/sessions/v1.jsonl",
        "tests/fixtures/sessions/v3.jsonl",
        "tests/fixtures/export/branched.jsonl",
        "tests/fixtures/export/compacted.jsonl",
    ] {
        let messages = fixture(path);
        let prompts: Vec<usize> = (0..messages.len())
            .filter(|&i| matches!(messages[i], Message::User(_)))
            .collect();
        assert!(prompts.len() > 1, "{path}");
        for (m, oauth) in [(&sonnet, false), (&opus, false), (&sonnet, true)] {
            let cache = SettledCache::default();
            let mut before = 0;
            for (n, &at) in prompts.iter().enumerate() {
                // The prompt's request, then the turn's last one (after its last tool
                // results): each takes the part of the one before.
                send(&cache, m, &context(messages[..=at].to_vec()), oauth);
                assert_eq!(cache.covered(), (at, before), "{path} {at}");
                let next = prompts.get(n + 1).copied().unwrap_or(messages.len());
                let results = (at..next).rfind(|&i| matches!(messages[i], Message::ToolResult(_)));
                if let Some(last) = results {
                    send(&cache, m, &context(messages[..=last].to_vec()), oauth);
                    assert_eq!(cache.covered(), (at, at), "{path} {last}");
                }
                before = at;
            }
        }
    }
}
