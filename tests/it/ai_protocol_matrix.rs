//! Every wire protocol against the same bad inputs on the mock server: an
//! HTML page instead of a stream, a stream that stops without its terminal
//! event, an error event mid-stream, an abort, and tool-call arguments that
//! are not valid JSON. Each protocol speaks its own documented framing.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use aws_smithy_eventstream::frame::write_message_to;
use aws_smithy_types::event_stream::{Header, HeaderValue, Message};
use pi::ai::events::AssistantMessageEvent;
use pi::ai::model::Model;
use pi::ai::providers::bedrock::BedrockConverseStream;
use pi::ai::providers::google::vertex::GoogleVertex;
use pi::ai::providers::openai_responses::azure::AzureOpenAiResponses;
use pi::ai::stream::{ProviderRegistry, StreamOptions};
use pi::ai::types::{AssistantMessage, StopReason};
use pi::config::config_value::Env;
use serde_json::{Value, json};
use support::llm::{options, user_context};
use support::{AnthropicSse, MockReply, MockServer, OpenAiSse};

/// The protocols under test.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Protocol {
    Anthropic,
    Completions,
    Responses,
    Azure,
    Google,
    Vertex,
    Mistral,
    Bedrock,
}

const ALL: [Protocol; 8] = [
    Protocol::Anthropic,
    Protocol::Completions,
    Protocol::Responses,
    Protocol::Azure,
    Protocol::Google,
    Protocol::Vertex,
    Protocol::Mistral,
    Protocol::Bedrock,
];

/// The partial text every truncated stream carries.
const PARTIAL: &str = "Let me look.";

fn model_json(api: &str, provider: &str, id: &str, base_url: &str) -> Model {
    serde_json::from_value(json!({
        "id": id, "name": id, "api": api, "provider": provider, "baseUrl": base_url,
        "reasoning": true, "input": ["text", "image"],
        "cost": {"input": 1.0, "output": 2.0, "cacheRead": 0.1, "cacheWrite": 0.0},
        "contextWindow": 128000, "maxTokens": 16000
    }))
    .unwrap()
}

fn sse_lines(items: &[Value]) -> String {
    items.iter().map(|v| format!("data: {v}\n\n")).collect()
}

fn typed_sse(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {}\n\n", e["type"].as_str().unwrap(), e))
        .collect()
}

fn bedrock_frame(headers: &[(&str, &str)], payload: &Value) -> Vec<u8> {
    let mut message = Message::new(payload.to_string().into_bytes());
    for (name, value) in headers {
        message = message.add_header(Header::new(
            name.to_string(),
            HeaderValue::String(value.to_string().into()),
        ));
    }
    let mut buf = Vec::new();
    write_message_to(&message, &mut buf).unwrap();
    buf
}

fn bedrock_event(kind: &str, payload: Value) -> Vec<u8> {
    bedrock_frame(
        &[
            (":message-type", "event"),
            (":event-type", kind),
            (":content-type", "application/json"),
        ],
        &payload,
    )
}

fn responses_text_events() -> Vec<Value> {
    vec![
        json!({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}),
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 0, "delta": PARTIAL}),
    ]
}

fn completions_chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({"id": "c1", "object": "chat.completion.chunk", "model": "m",
           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

impl Protocol {
    fn model(self, server: &MockServer) -> Model {
        let url = server.url();
        match self {
            Protocol::Anthropic => model_json(
                "anthropic-messages",
                "anthropic",
                "claude-sonnet-4-5",
                &server.anthropic_base_url(),
            ),
            Protocol::Completions => model_json(
                "openai-completions",
                "openai",
                "gpt-test",
                &server.openai_base_url(),
            ),
            Protocol::Responses => model_json(
                "openai-responses",
                "openai",
                "gpt-5",
                &server.openai_base_url(),
            ),
            Protocol::Azure => model_json(
                "azure-openai-responses",
                "azure-openai-responses",
                "gpt-5",
                &format!("{url}/openai/v1"),
            ),
            Protocol::Google => {
                model_json("google-generative-ai", "google", "gemini-2.5-pro", &url)
            }
            Protocol::Vertex => {
                model_json("google-vertex", "google-vertex", "gemini-2.5-pro", &url)
            }
            Protocol::Mistral => model_json(
                "mistral-conversations",
                "mistral",
                "magistral-medium-latest",
                &url,
            ),
            Protocol::Bedrock => model_json(
                "bedrock-converse-stream",
                "amazon-bedrock",
                "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
                &url,
            ),
        }
    }

    fn registry(self) -> ProviderRegistry {
        let mut r = ProviderRegistry::builtin();
        let env = Env::from_pairs(&[
            ("AWS_ACCESS_KEY_ID", "AKIDTEST"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
            ("AWS_REGION", "us-west-2"),
        ]);
        r.register(Arc::new(BedrockConverseStream::with_env(env)));
        r.register(Arc::new(GoogleVertex::with_env(Env::from_pairs(&[]))));
        r.register(Arc::new(AzureOpenAiResponses::with_env(Env::from_pairs(
            &[],
        ))));
        r
    }

    /// A stream reply carrying [`PARTIAL`] as text, then (optionally) the
    /// protocol's mid-stream error, and never the terminal event.
    fn partial_reply(self, with_error: bool) -> MockReply {
        match self {
            Protocol::Anthropic => {
                let s = AnthropicSse::new().message_start("m", 1).text(PARTIAL);
                let s = if with_error {
                    s.error("overloaded_error", "Overloaded")
                } else {
                    s
                };
                MockReply::sse(s.build())
            }
            Protocol::Completions => {
                let s = OpenAiSse::new().text(PARTIAL).without_done();
                let s = if with_error {
                    s.error("upstream exploded")
                } else {
                    s
                };
                MockReply::sse(s.build())
            }
            Protocol::Responses | Protocol::Azure => {
                let mut events = responses_text_events();
                if with_error {
                    events.push(
                        json!({"type": "response.failed", "response": {"id": "resp_1",
                        "status": "failed", "error": {"code": "server_error", "message": "boom"}}}),
                    );
                }
                MockReply::sse(typed_sse(&events))
            }
            Protocol::Google | Protocol::Vertex => {
                let mut chunks = vec![json!({"candidates": [{"content": {"role": "model",
                    "parts": [{"text": PARTIAL}]}}]})];
                if with_error {
                    chunks.push(json!({"error": {"code": 503, "status": "UNAVAILABLE",
                        "message": "The model is overloaded."}}));
                }
                MockReply::sse(sse_lines(&chunks))
            }
            Protocol::Mistral => {
                let mut chunks = vec![completions_chunk(json!({"content": PARTIAL}), None)];
                if with_error {
                    chunks.push(json!({"object": "error", "message": "Service unavailable",
                        "type": "service_unavailable", "code": 503}));
                }
                MockReply::sse(sse_lines(&chunks))
            }
            Protocol::Bedrock => {
                let mut frames = vec![
                    bedrock_event("messageStart", json!({"role": "assistant"})),
                    bedrock_event(
                        "contentBlockDelta",
                        json!({"contentBlockIndex": 0, "delta": {"text": PARTIAL}}),
                    ),
                ];
                if with_error {
                    frames.push(bedrock_frame(
                        &[
                            (":message-type", "exception"),
                            (":exception-type", "throttlingException"),
                        ],
                        &json!({"message": "Too many requests"}),
                    ));
                }
                MockReply::status(200)
                    .header("content-type", "application/vnd.amazon.eventstream")
                    .body(frames.concat())
            }
        }
    }

    /// A complete reply with one `read` call whose arguments are cut-off JSON;
    /// `None` where the protocol sends arguments as structured objects.
    fn broken_arguments_reply(self) -> Option<MockReply> {
        const BROKEN: &str = "{\"path\": \"a.rs\", oops";
        Some(match self {
            Protocol::Anthropic => {
                let s = AnthropicSse::new()
                    .message_start("m", 1)
                    .event(
                        "content_block_start",
                        json!({"type": "content_block_start", "index": 0, "content_block":
                            {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {}}}),
                    )
                    .event(
                        "content_block_delta",
                        json!({"type": "content_block_delta", "index": 0,
                            "delta": {"type": "input_json_delta", "partial_json": BROKEN}}),
                    )
                    .event(
                        "content_block_stop",
                        json!({"type": "content_block_stop", "index": 0}),
                    )
                    .message_delta("tool_use", 5)
                    .message_stop();
                MockReply::sse(s.build())
            }
            Protocol::Completions | Protocol::Mistral => {
                let call = json!({"tool_calls": [{"index": 0, "id": "call1abcd", "type": "function",
                    "function": {"name": "read", "arguments": BROKEN}}]});
                let mut body = sse_lines(&[
                    completions_chunk(call, None),
                    completions_chunk(json!({}), Some("tool_calls")),
                ]);
                body.push_str("data: [DONE]\n\n");
                MockReply::sse(body)
            }
            Protocol::Responses | Protocol::Azure => {
                let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_a",
                    "name": "read", "arguments": BROKEN});
                MockReply::sse(typed_sse(&[
                    json!({"type": "response.created", "response": {"id": "r", "status": "in_progress"}}),
                    json!({"type": "response.output_item.added", "output_index": 0,
                           "item": {"type": "function_call", "id": "fc_1", "call_id": "call_a",
                                    "name": "read", "arguments": ""}}),
                    json!({"type": "response.function_call_arguments.delta", "output_index": 0,
                           "delta": BROKEN}),
                    json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
                    json!({"type": "response.completed", "response": {"id": "r", "status": "completed",
                           "usage": {"input_tokens": 5, "output_tokens": 5, "total_tokens": 10}}}),
                ]))
            }
            Protocol::Google | Protocol::Vertex => return None,
            Protocol::Bedrock => {
                let frames = [
                    bedrock_event("messageStart", json!({"role": "assistant"})),
                    bedrock_event(
                        "contentBlockStart",
                        json!({"contentBlockIndex": 0,
                               "start": {"toolUse": {"toolUseId": "tooluse_a", "name": "read"}}}),
                    ),
                    bedrock_event(
                        "contentBlockDelta",
                        json!({"contentBlockIndex": 0, "delta": {"toolUse": {"input": BROKEN}}}),
                    ),
                    bedrock_event("contentBlockStop", json!({"contentBlockIndex": 0})),
                    bedrock_event("messageStop", json!({"stopReason": "tool_use"})),
                    bedrock_event(
                        "metadata",
                        json!({"usage": {"inputTokens": 5, "outputTokens": 5, "totalTokens": 10}}),
                    ),
                ];
                MockReply::status(200)
                    .header("content-type", "application/vnd.amazon.eventstream")
                    .body(frames.concat())
            }
        })
    }
}

async fn run(protocol: Protocol, server: &MockServer, opts: StreamOptions) -> AssistantMessage {
    protocol
        .registry()
        .stream(protocol.model(server), user_context("go"), opts)
        .result()
        .await
}

#[tokio::test]
async fn html_instead_of_a_stream_names_the_status_and_first_bytes() {
    let page = "<!DOCTYPE html><html><head><title>Sign in to the proxy</title></head></html>";
    for protocol in ALL {
        let server = MockServer::start();
        server.push(
            MockReply::status(200)
                .header("content-type", "text/html; charset=utf-8")
                .body(page),
        );
        // A page served under a stream content type is recognised by its bytes.
        server.push(
            MockReply::status(200)
                .header("content-type", "text/event-stream")
                .body(page),
        );
        for _ in 0..2 {
            let msg = run(protocol, &server, options()).await;
            assert_eq!(msg.stop_reason, StopReason::Error, "{protocol:?}");
            let err = msg.error_message.unwrap_or_default();
            assert!(err.contains("HTML"), "{protocol:?}: {err}");
            assert!(err.contains("status 200"), "{protocol:?}: {err}");
            assert!(err.contains("Sign in to the proxy"), "{protocol:?}: {err}");
        }
    }
}

#[tokio::test]
async fn stream_without_terminal_event_is_an_error_keeping_partial_text() {
    for protocol in ALL {
        let server = MockServer::start();
        server.push(protocol.partial_reply(false));
        let msg = run(protocol, &server, options()).await;
        assert_eq!(
            msg.stop_reason,
            StopReason::Error,
            "{protocol:?}: {:?}",
            msg.error_message
        );
        assert!(msg.error_message.is_some(), "{protocol:?}");
        assert_eq!(msg.text(), PARTIAL, "{protocol:?}");
    }
}

#[tokio::test]
async fn error_event_mid_stream_fails_the_reply_keeping_partial_text() {
    for protocol in ALL {
        let server = MockServer::start();
        server.push(protocol.partial_reply(true));
        let msg = run(protocol, &server, options()).await;
        assert_eq!(msg.stop_reason, StopReason::Error, "{protocol:?}");
        let err = msg.error_message.clone().unwrap_or_default();
        assert!(
            [
                "Overloaded",
                "exploded",
                "boom",
                "overloaded",
                "unavailable",
                "Too many"
            ]
            .iter()
            .any(|w| err.contains(w)),
            "{protocol:?}: {err}"
        );
        assert_eq!(msg.text(), PARTIAL, "{protocol:?}");
    }
}

#[tokio::test]
async fn abort_mid_stream_reports_aborted_and_closes_the_connection() {
    for protocol in ALL {
        let server = MockServer::start();
        server.push(protocol.partial_reply(false).hold_open());
        let opts = options();
        let signal = opts.signal.clone();
        let mut stream =
            protocol
                .registry()
                .stream(protocol.model(&server), user_context("go"), opts);
        let mut saw_delta = false;
        while let Some(ev) = stream.next().await {
            if matches!(ev, AssistantMessageEvent::TextDelta { .. }) && !saw_delta {
                saw_delta = true;
                signal.cancel();
            }
        }
        let msg = stream.result().await;
        assert!(saw_delta, "{protocol:?}");
        assert_eq!(msg.stop_reason, StopReason::Aborted, "{protocol:?}");
        assert_eq!(msg.text(), PARTIAL, "{protocol:?}");
        assert!(
            server.wait_for_disconnects(1, Duration::from_secs(10)),
            "{protocol:?}: the stream was not closed"
        );
    }
}

#[tokio::test]
async fn unparseable_tool_arguments_still_yield_a_tool_call_to_validate() {
    for protocol in ALL {
        let Some(reply) = protocol.broken_arguments_reply() else {
            continue;
        };
        let server = MockServer::start();
        server.push(reply);
        let msg = run(protocol, &server, options()).await;
        assert_eq!(
            msg.stop_reason,
            StopReason::ToolUse,
            "{protocol:?}: {:?}",
            msg.error_message
        );
        let calls = msg.tool_calls();
        assert_eq!(calls.len(), 1, "{protocol:?}");
        assert_eq!(calls[0].name, "read", "{protocol:?}");
        // Best effort: an object (the readable prefix) goes on to the tool's
        // schema validation, which reports what is missing to the model.
        assert!(calls[0].arguments.is_object(), "{protocol:?}");
    }
}
