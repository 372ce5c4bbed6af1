//! Builders for SSE bodies shaped like the providers' documented streams.
//!
//! Text, thinking and JSON arguments are split into several deltas
//! ([`DELTA_CHARS`] characters each) so parsers see realistic fragments.

use serde_json::{Value, json};

/// Characters per text/thinking/argument delta.
pub const DELTA_CHARS: usize = 4;

/// Input tokens reported by the convenience replies.
pub const MOCK_INPUT_TOKENS: u64 = 10;
/// Output tokens reported by the convenience replies.
pub const MOCK_OUTPUT_TOKENS: u64 = 5;

fn pieces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars
        .chunks(DELTA_CHARS)
        .map(|c| c.iter().collect())
        .collect()
}

/// An Anthropic Messages stream: `message_start`, content blocks,
/// `message_delta`, `message_stop`, plus `ping` and `error` events.
#[derive(Debug, Clone, Default)]
pub struct AnthropicSse {
    events: Vec<(String, Value)>,
    next_index: u64,
}

impl AnthropicSse {
    /// An empty stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// `message_start`, text, `end_turn`, `message_stop`.
    pub fn text_reply(text: &str) -> Self {
        Self::new()
            .message_start("msg_mock", MOCK_INPUT_TOKENS)
            .text(text)
            .message_delta("end_turn", MOCK_OUTPUT_TOKENS)
            .message_stop()
    }

    /// `message_start`, one `tool_use` block per call, `tool_use`, `message_stop`.
    pub fn tool_calls_reply(calls: &[(&str, &str, Value)]) -> Self {
        let mut s = Self::new().message_start("msg_mock", MOCK_INPUT_TOKENS);
        for (id, name, input) in calls {
            s = s.tool_use(id, name, input);
        }
        s.message_delta("tool_use", MOCK_OUTPUT_TOKENS)
            .message_stop()
    }

    /// Any event.
    pub fn event(mut self, name: &str, data: Value) -> Self {
        self.events.push((name.to_string(), data));
        self
    }

    /// `message_start` with an id and input tokens.
    pub fn message_start(self, id: &str, input_tokens: u64) -> Self {
        self.message_start_usage(
            id,
            json!({"input_tokens": input_tokens, "output_tokens": 1}),
        )
    }

    /// `message_start` with a full usage object (cache fields included).
    pub fn message_start_usage(self, id: &str, usage: Value) -> Self {
        self.event(
            "message_start",
            json!({"type": "message_start", "message": {
                "id": id, "type": "message", "role": "assistant", "model": "claude-mock",
                "content": [], "stop_reason": null, "stop_sequence": null, "usage": usage
            }}),
        )
    }

    /// A `ping`.
    pub fn ping(self) -> Self {
        self.event("ping", json!({"type": "ping"}))
    }

    fn block_start(mut self, block: Value) -> (Self, u64) {
        let index = self.next_index;
        self.next_index += 1;
        (
            self.event(
                "content_block_start",
                json!({"type": "content_block_start", "index": index, "content_block": block}),
            ),
            index,
        )
    }

    fn delta(self, index: u64, delta: Value) -> Self {
        self.event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        )
    }

    fn block_stop(self, index: u64) -> Self {
        self.event(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        )
    }

    /// A text block streamed as several `text_delta`s.
    pub fn text(self, text: &str) -> Self {
        let (mut s, i) = self.block_start(json!({"type": "text", "text": ""}));
        for p in pieces(text) {
            s = s.delta(i, json!({"type": "text_delta", "text": p}));
        }
        s.block_stop(i)
    }

    /// A thinking block: `thinking_delta`s then one `signature_delta`.
    pub fn thinking(self, thinking: &str, signature: &str) -> Self {
        let (mut s, i) =
            self.block_start(json!({"type": "thinking", "thinking": "", "signature": ""}));
        for p in pieces(thinking) {
            s = s.delta(i, json!({"type": "thinking_delta", "thinking": p}));
        }
        s.delta(
            i,
            json!({"type": "signature_delta", "signature": signature}),
        )
        .block_stop(i)
    }

    /// A `redacted_thinking` block.
    pub fn redacted_thinking(self, data: &str) -> Self {
        let (s, i) = self.block_start(json!({"type": "redacted_thinking", "data": data}));
        s.block_stop(i)
    }

    /// A `tool_use` block whose input arrives as `input_json_delta` fragments.
    pub fn tool_use(self, id: &str, name: &str, input: &Value) -> Self {
        let (mut s, i) =
            self.block_start(json!({"type": "tool_use", "id": id, "name": name, "input": {}}));
        for p in pieces(&input.to_string()) {
            s = s.delta(i, json!({"type": "input_json_delta", "partial_json": p}));
        }
        s.block_stop(i)
    }

    /// `message_delta` with a stop reason and output tokens.
    pub fn message_delta(self, stop_reason: &str, output_tokens: u64) -> Self {
        self.message_delta_usage(stop_reason, json!({"output_tokens": output_tokens}))
    }

    /// `message_delta` with a full usage object.
    pub fn message_delta_usage(self, stop_reason: &str, usage: Value) -> Self {
        self.event(
            "message_delta",
            json!({"type": "message_delta",
                   "delta": {"stop_reason": stop_reason, "stop_sequence": null},
                   "usage": usage}),
        )
    }

    /// `message_stop`.
    pub fn message_stop(self) -> Self {
        self.event("message_stop", json!({"type": "message_stop"}))
    }

    /// A mid-stream `error` event.
    pub fn error(self, kind: &str, message: &str) -> Self {
        self.event(
            "error",
            json!({"type": "error", "error": {"type": kind, "message": message}}),
        )
    }

    /// The SSE body.
    pub fn build(&self) -> String {
        self.events
            .iter()
            .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
            .collect()
    }
}

/// An OpenAI Chat Completions stream of `chat.completion.chunk`s ending in `data: [DONE]`.
#[derive(Debug, Clone)]
pub struct OpenAiSse {
    chunks: Vec<Value>,
    id: String,
    model: String,
    done: bool,
}

impl Default for OpenAiSse {
    fn default() -> Self {
        Self::new()
    }
}

impl OpenAiSse {
    /// An empty stream (id `chatcmpl-mock`, model `gpt-mock`).
    pub fn new() -> Self {
        OpenAiSse {
            chunks: Vec::new(),
            id: "chatcmpl-mock".into(),
            model: "gpt-mock".into(),
            done: true,
        }
    }

    /// Text, `finish_reason: stop`, a usage chunk.
    pub fn text_reply(text: &str) -> Self {
        Self::new()
            .text(text)
            .finish("stop")
            .usage(MOCK_INPUT_TOKENS, MOCK_OUTPUT_TOKENS, 0)
    }

    /// One streamed tool call per entry, `finish_reason: tool_calls`, usage.
    pub fn tool_calls_reply(calls: &[(&str, &str, Value)]) -> Self {
        let mut s = Self::new();
        for (i, (id, name, args)) in calls.iter().enumerate() {
            s = s.tool_call(i as u64, id, name, args);
        }
        s.finish("tool_calls")
            .usage(MOCK_INPUT_TOKENS, MOCK_OUTPUT_TOKENS, 0)
    }

    /// Report `model` in every chunk.
    pub fn model(mut self, model: &str) -> Self {
        self.model = model.to_string();
        self
    }

    /// Leave out the final `data: [DONE]`.
    pub fn without_done(mut self) -> Self {
        self.done = false;
        self
    }

    /// Any chunk, sent as-is.
    pub fn raw(mut self, chunk: Value) -> Self {
        self.chunks.push(chunk);
        self
    }

    fn choice(self, delta: Value, finish: Option<&str>) -> Self {
        let chunk = json!({
            "id": self.id, "object": "chat.completion.chunk", "created": 1_700_000_000,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        });
        self.raw(chunk)
    }

    /// Text as several `delta.content` chunks.
    pub fn text(self, text: &str) -> Self {
        pieces(text)
            .into_iter()
            .fold(self, |s, p| s.choice(json!({"content": p}), None))
    }

    /// Reasoning as several `delta.reasoning_content` chunks.
    pub fn reasoning(self, text: &str) -> Self {
        pieces(text)
            .into_iter()
            .fold(self, |s, p| s.choice(json!({"reasoning_content": p}), None))
    }

    /// A tool call: a first chunk with id and name, then argument fragments.
    pub fn tool_call(self, index: u64, id: &str, name: &str, arguments: &Value) -> Self {
        self.raw_tool_call(index, id, name, &arguments.to_string())
    }

    /// A tool call whose arguments text is `raw`, exactly (it may not be JSON).
    pub fn raw_tool_call(self, index: u64, id: &str, name: &str, raw: &str) -> Self {
        let s = self.choice(
            json!({"tool_calls": [{"index": index, "id": id, "type": "function",
                                   "function": {"name": name, "arguments": ""}}]}),
            None,
        );
        pieces(raw).into_iter().fold(s, |s, p| {
            s.choice(
                json!({"tool_calls": [{"index": index, "function": {"arguments": p}}]}),
                None,
            )
        })
    }

    /// A chunk with an empty delta and `finish_reason`.
    pub fn finish(self, reason: &str) -> Self {
        self.choice(json!({}), Some(reason))
    }

    /// The final usage chunk (`choices: []`).
    pub fn usage(self, prompt_tokens: u64, completion_tokens: u64, cached_tokens: u64) -> Self {
        let chunk = json!({
            "id": self.id, "object": "chat.completion.chunk", "created": 1_700_000_000,
            "model": self.model, "choices": [],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens,
                      "prompt_tokens_details": {"cached_tokens": cached_tokens}}
        });
        self.raw(chunk)
    }

    /// A mid-stream error chunk.
    pub fn error(self, message: &str) -> Self {
        self.raw(json!({"error": {"message": message, "type": "server_error", "code": null}}))
    }

    /// The SSE body.
    pub fn build(&self) -> String {
        let mut out: String = self
            .chunks
            .iter()
            .map(|c| format!("data: {c}\n\n"))
            .collect();
        if self.done {
            out.push_str("data: [DONE]\n\n");
        }
        out
    }
}
