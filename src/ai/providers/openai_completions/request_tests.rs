use std::collections::BTreeMap;

use serde_json::json;

use super::*;
use crate::ai::providers::openai_completions::messages::ASSISTANT_BRIDGE;
use crate::ai::types::{
    AssistantMessage, ContentBlock, ThinkingContent, ToolCall, ToolResultMessage, UserContent,
    UserMessage,
};

fn model(provider: &str, url: &str, compat: Option<Value>) -> Model {
    let mut v = json!({
        "id": "m", "name": "m", "api": "openai-completions", "provider": provider,
        "baseUrl": url, "reasoning": true, "input": ["text", "image"], "maxTokens": 8000
    });
    if let Some(c) = compat {
        v["compat"] = c;
    }
    serde_json::from_value(v).unwrap()
}

fn body(m: &Model, ctx: &Context, level: Option<ThinkingLevel>) -> Value {
    let options = StreamOptions {
        reasoning: level,
        session_id: Some("s1".into()),
        ..Default::default()
    };
    build_body(m, ctx, &options, &OpenAiCompat::for_model(m))
}

fn tool_turn(result_content: Vec<ContentBlock>) -> Vec<Message> {
    let mut a = AssistantMessage::empty("openai-completions", "p", "m");
    a.content = vec![
        ContentBlock::Thinking(ThinkingContent {
            thinking: "think".into(),
            thinking_signature: Some("reasoning_content".into()),
            redacted: None,
        }),
        ContentBlock::ToolCall(ToolCall {
            id: "c1".into(),
            name: "read".into(),
            arguments: json!({"path": "x"}),
            thought_signature: None,
            raw_arguments: None,
        }),
    ];
    vec![
        Message::User(UserMessage::text("go")),
        Message::Assistant(a),
        Message::ToolResult(ToolResultMessage {
            tool_call_id: "c1".into(),
            tool_name: "read".into(),
            content: result_content,
            details: None,
            is_error: false,
            timestamp: 0,
        }),
        Message::User(UserMessage::text("next")),
    ]
}

fn ctx(messages: Vec<Message>) -> Context {
    Context {
        system_prompt: Some("sys".into()),
        messages,
        tools: Vec::new(),
    }
}

#[test]
fn bridges_tool_results_and_forwards_tool_images() {
    let m = model(
        "p",
        "http://x",
        Some(json!({"requiresAssistantAfterToolResult": true})),
    );
    let c = ctx(tool_turn(vec![ContentBlock::text("file")]));
    let msgs = body(&m, &c, None)["messages"].clone();
    let roles: Vec<_> = msgs
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].clone())
        .collect();
    assert_eq!(
        roles,
        [
            json!("developer"),
            json!("user"),
            json!("assistant"),
            json!("tool"),
            json!("assistant"),
            json!("user")
        ]
    );
    assert_eq!(msgs[2]["content"], json!(""));
    assert_eq!(msgs[4]["content"], json!(ASSISTANT_BRIDGE));

    let m = model("p", "http://x", None);
    let c = ctx(tool_turn(vec![ContentBlock::image("QUJD", "image/png")]));
    let msgs = body(&m, &c, None)["messages"].clone();
    assert_eq!(msgs[3]["content"], json!("(see attached image)"));
    assert_eq!(
        msgs[4]["content"][0]["text"],
        json!("Attached image(s) from tool result:")
    );
    assert_eq!(
        msgs[4]["content"][1]["image_url"]["url"],
        json!("data:image/png;base64,QUJD")
    );
}

#[test]
fn thinking_replay_follows_compat() {
    let c = ctx(tool_turn(vec![ContentBlock::text("file")]));
    let plain = body(&model("p", "http://x", None), &c, None);
    assert_eq!(plain["messages"][2]["reasoning_content"], json!("think"));
    assert_eq!(plain["messages"][2]["content"], Value::Null);
    // Tool history without tools still sends an empty tool list.
    assert_eq!(plain["tools"], json!([]));

    let as_text = body(
        &model(
            "p",
            "http://x",
            Some(json!({"requiresThinkingAsText": true})),
        ),
        &c,
        None,
    );
    assert_eq!(
        as_text["messages"][2]["content"],
        json!([{"type": "text", "text": "think"}])
    );
    assert!(as_text["messages"][2].get("reasoning_content").is_none());
}

#[test]
fn thinking_formats_request_reasoning_their_own_way() {
    let c = ctx(vec![Message::User(UserMessage::text("q"))]);
    let ds = model("deepseek", "https://api.deepseek.com", None);
    let b = body(&ds, &c, Some(ThinkingLevel::High));
    assert_eq!(b["thinking"], json!({"type": "enabled"}));
    assert_eq!(b["reasoning_effort"], json!("high"));
    assert_eq!(body(&ds, &c, None)["thinking"], json!({"type": "disabled"}));

    let or = model(
        "openrouter",
        "https://openrouter.ai/api/v1",
        Some(json!({"openRouterRouting": {"only": ["x"]}})),
    );
    assert_eq!(
        body(&or, &c, Some(ThinkingLevel::Low))["reasoning"],
        json!({"effort": "low"})
    );
    let off = body(&or, &c, None);
    assert_eq!(off["reasoning"], json!({"effort": "none"}));
    assert_eq!(off["provider"], json!({"only": ["x"]}));

    let zai = model("zai", "https://api.z.ai/api/paas/v4", None);
    assert_eq!(
        body(&zai, &c, Some(ThinkingLevel::Medium))["enable_thinking"],
        json!(true)
    );
    assert!(
        body(&zai, &c, Some(ThinkingLevel::Medium))
            .get("reasoning_effort")
            .is_none()
    );

    let qwen = model(
        "local",
        "http://localhost",
        Some(json!({"thinkingFormat": "qwen-chat-template"})),
    );
    assert_eq!(
        body(&qwen, &c, None)["chat_template_kwargs"],
        json!({"enable_thinking": false, "preserve_thinking": true})
    );
}

#[test]
fn level_map_values_are_sent_including_off() {
    let c = ctx(vec![Message::User(UserMessage::text("q"))]);
    let mut m = model("p", "http://x", None);
    m.thinking_level_map = Some(BTreeMap::from([
        ("off".to_string(), Some("none".to_string())),
        ("high".to_string(), Some("max".to_string())),
    ]));
    assert_eq!(
        body(&m, &c, Some(ThinkingLevel::High))["reasoning_effort"],
        json!("max")
    );
    assert_eq!(body(&m, &c, None)["reasoning_effort"], json!("none"));
    let legacy = model(
        "p",
        "http://x",
        Some(json!({"reasoningEffortMap": {"low": "minimal"}})),
    );
    assert_eq!(
        body(&legacy, &c, Some(ThinkingLevel::Low))["reasoning_effort"],
        json!("minimal")
    );
}

#[test]
fn openai_endpoint_gets_prompt_cache_key_and_openrouter_anthropic_gets_markers() {
    let c = Context {
        tools: vec![ToolSpec {
            name: "t".into(),
            description: "d".into(),
            parameters: json!({"type": "object"}),
        }],
        ..ctx(vec![Message::User(UserMessage::text("q"))])
    };
    let openai = model("openai", "https://api.openai.com/v1", None);
    assert_eq!(body(&openai, &c, None)["prompt_cache_key"], json!("s1"));
    assert!(
        body(&model("p", "http://x", None), &c, None)
            .get("prompt_cache_key")
            .is_none()
    );

    let mut or = model("openrouter", "https://openrouter.ai/api/v1", None);
    or.id = "anthropic/claude-sonnet-4".into();
    let b = body(&or, &c, None);
    let marker = json!({"type": "ephemeral"});
    assert_eq!(b["messages"][0]["content"][0]["cache_control"], marker);
    assert_eq!(b["messages"][1]["content"][0]["cache_control"], marker);
    assert_eq!(b["tools"][0]["cache_control"], marker);
}

#[test]
fn tool_call_ids_keep_call_part_and_openai_limit() {
    let openai = model("openai", "http://x", None);
    assert_eq!(
        normalize_tool_call_id(&openai, "call_1|fc_very+long/="),
        "call_1"
    );
    assert_eq!(normalize_tool_call_id(&openai, &"a".repeat(50)).len(), 40);
    let other = model("groq", "http://x", None);
    assert_eq!(normalize_tool_call_id(&other, &"a".repeat(50)).len(), 50);
}

#[test]
fn base_url_alone_selects_the_compat_flags() {
    let c = ctx(vec![Message::User(UserMessage::text("q"))]);
    let c = Context {
        system_prompt: Some("sys".into()),
        ..c
    };
    let plain = body(
        &model("custom", "https://api.openai.com/v1", None),
        &c,
        Some(ThinkingLevel::High),
    );
    assert_eq!(plain["messages"][0]["role"], json!("developer"));
    assert_eq!(plain["reasoning_effort"], json!("high"));
    assert!(plain.get("max_completion_tokens").is_some());
    assert_eq!(plain["stream_options"], json!({"include_usage": true}));

    let grok = body(
        &model("custom", "https://api.x.ai/v1", None),
        &c,
        Some(ThinkingLevel::High),
    );
    assert_eq!(grok["messages"][0]["role"], json!("system"));
    assert!(grok.get("reasoning_effort").is_none());
    assert!(grok.get("store").is_none());

    let moonshot = body(
        &model("custom", "https://api.moonshot.ai/v1", None),
        &c,
        None,
    );
    assert!(moonshot.get("max_tokens").is_some());
    assert!(moonshot.get("max_completion_tokens").is_none());

    let deepseek = body(
        &model("custom", "https://api.deepseek.com", None),
        &c,
        Some(ThinkingLevel::High),
    );
    assert_eq!(deepseek["thinking"], json!({"type": "enabled"}));

    let ollama = body(
        &model("custom", "http://localhost:11434/v1", None),
        &c,
        None,
    );
    assert_eq!(ollama["messages"][0]["role"], json!("system"));
    assert!(ollama.get("max_tokens").is_some());
}

/// The bytes sent are written from the conversation directly: they are exactly the body
/// value's serialisation, for every shape of message and compat setting.
#[test]
fn bytes_sent_are_the_body_value_serialised() {
    let mut openrouter = model("openrouter", "https://openrouter.ai/api/v1", None);
    openrouter.id = "anthropic/claude-sonnet-4".into();
    let strict = json!({
        "requiresAssistantAfterToolResult": true, "requiresThinkingAsText": true,
        "requiresToolResultName": true, "requiresReasoningContentOnAssistantMessages": true,
        "maxTokensField": "max_tokens"
    });
    let models = [
        model("p", "http://x", None),
        model("openai", "https://api.openai.com/v1", None),
        openrouter,
        model("p", "http://x", Some(strict)),
    ];
    let mut foreign = tool_turn(vec![ContentBlock::text("one"), ContentBlock::text("")]);
    if let Message::Assistant(a) = &mut foreign[1] {
        a.model = "other".into();
        a.content.push(ContentBlock::text("said \"this\"\n\tand ü"));
    }
    let contexts = [
        ctx(tool_turn(vec![
            ContentBlock::image("QUJD", "image/png"),
            ContentBlock::text("a\"b\n"),
        ])),
        ctx(tool_turn(vec![])),
        ctx(foreign),
        Context {
            system_prompt: None,
            messages: vec![Message::User(UserMessage {
                content: UserContent::Blocks(vec![ContentBlock::image("QUJD", "image/jpeg")]),
                timestamp: 0,
            })],
            tools: vec![ToolSpec {
                name: "t".into(),
                description: "d".into(),
                parameters: json!({"type": "object"}),
            }],
        },
    ];
    for m in &models {
        for c in &contexts {
            let options = StreamOptions {
                reasoning: Some(ThinkingLevel::High),
                session_id: Some("s1".into()),
                temperature: Some(0.25),
                ..Default::default()
            };
            let compat = OpenAiCompat::for_model(m);
            let value = build_body(m, c, &options, &compat);
            let bytes = body_bytes(m, c, &options, &compat);
            assert_eq!(
                String::from_utf8(bytes).unwrap(),
                serde_json::to_string(&value).unwrap()
            );
        }
    }
}

/// A small conversation's body, as text: keys in pi's order, the image as a data URL.
#[test]
fn body_bytes_spell_the_request() {
    let m = model("p", "http://x", Some(json!({"supportsStore": false})));
    let c = Context {
        system_prompt: Some("sys".into()),
        messages: vec![Message::User(UserMessage {
            content: UserContent::Blocks(vec![
                ContentBlock::text("look"),
                ContentBlock::image("QUJD", "image/png"),
            ]),
            timestamp: 0,
        })],
        tools: Vec::new(),
    };
    let options = StreamOptions::default();
    let bytes = body_bytes(&m, &c, &options, &OpenAiCompat::for_model(&m));
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        concat!(
            r#"{"model":"m","messages":[{"role":"developer","content":"sys"},"#,
            r#"{"role":"user","content":[{"type":"text","text":"look"},"#,
            r#"{"type":"image_url","image_url":{"url":"data:image/png;base64,QUJD"}}]}],"#,
            r#""stream":true,"stream_options":{"include_usage":true},"max_completion_tokens":8000}"#
        )
    );
}
