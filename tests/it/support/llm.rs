//! Models, contexts and stream collection for tests that talk to the mock server.

use std::sync::Arc;

use pi::ai::model::Model;
use pi::ai::stream::{ProviderRegistry, StreamOptions};
use pi::ai::types::{AssistantMessage, Context, Message, UserMessage};
use serde_json::{Value, json};

/// An `anthropic-messages` model (provider `anthropic`) served at `base_url`.
pub fn anthropic_model(base_url: &str, id: &str) -> Model {
    serde_json::from_value(json!({
        "id": id, "name": id, "api": "anthropic-messages", "provider": "anthropic",
        "baseUrl": base_url, "reasoning": true, "input": ["text", "image"],
        "cost": {"input": 3.0, "output": 15.0, "cacheRead": 0.3, "cacheWrite": 3.75},
        "contextWindow": 200000, "maxTokens": 64000
    }))
    .expect("valid model")
}

/// An `openai-completions` model (provider `openai`) served at `base_url`.
pub fn openai_model(base_url: &str, id: &str) -> Model {
    serde_json::from_value(json!({
        "id": id, "name": id, "api": "openai-completions", "provider": "openai",
        "baseUrl": base_url, "reasoning": true, "input": ["text", "image"],
        "cost": {"input": 2.0, "output": 8.0, "cacheRead": 0.5, "cacheWrite": 0.0},
        "contextWindow": 400000, "maxTokens": 128000
    }))
    .expect("valid model")
}

/// A context with one user message and no tools.
pub fn user_context(text: &str) -> Arc<Context> {
    Arc::new(Context {
        system_prompt: Some("You are a test.".into()),
        messages: vec![Message::User(UserMessage::text(text))],
        tools: Vec::new(),
    })
}

/// Options carrying a dummy API key.
pub fn options() -> StreamOptions {
    StreamOptions {
        api_key: Some("test-key".into()),
        ..Default::default()
    }
}

/// Run one request through the built-in providers; return every event as
/// JSON (timestamps removed, so runs compare equal) and the final message.
pub async fn collect(
    model: &Model,
    context: Arc<Context>,
    options: StreamOptions,
) -> (Vec<Value>, AssistantMessage) {
    let mut stream = ProviderRegistry::builtin().stream(model.clone(), context, options);
    let mut events = Vec::new();
    while let Some(ev) = stream.next().await {
        let mut v = serde_json::to_value(&ev).expect("event serialises");
        strip_timestamps(&mut v);
        events.push(v);
    }
    (events, stream.result().await)
}

/// Remove every `timestamp` field, recursively.
pub fn strip_timestamps(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("timestamp");
            map.values_mut().for_each(strip_timestamps);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_timestamps),
        _ => {}
    }
}

/// The `type` of each event.
pub fn kinds(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["type"].as_str().unwrap_or("?").to_string())
        .collect()
}
