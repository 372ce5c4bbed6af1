//! An in-process provider for tests: replies come from a script and are
//! streamed in small chunks through [`MessageBuilder`], like a real reply.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use pi::ai::{providers::faux::FauxProvider, stream::ProviderRegistry};
//! let faux = FauxProvider::new();
//! faux.push_text("Hello");
//! let mut registry = ProviderRegistry::builtin();
//! registry.register(Arc::new(faux.clone()));
//! let model = faux.model();
//! ```

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;

use crate::ai::cost::apply_cost;
use crate::ai::events::MessageBuilder;
use crate::ai::model::{Model, ModelCost};
use crate::ai::stream::{ApiProvider, ProviderError, StreamOptions, StreamRequest};
use crate::ai::types::{
    AssistantMessage, ContentBlock, Context, Message, StopReason, TextContent, ThinkingContent,
    ToolCall, UserContent,
};

/// Builds a reply from the request and the 1-based call number.
pub type FauxResponder = Arc<dyn Fn(&StreamRequest, usize) -> AssistantMessage + Send + Sync>;

/// One scripted reply.
#[derive(Clone)]
pub enum FauxReply {
    /// A fixed message (its `stopReason` `error`/`aborted` makes the call fail).
    Message(Box<AssistantMessage>),
    /// A reply computed from the request.
    Respond(FauxResponder),
}

/// What the provider received on one call.
#[derive(Clone)]
pub struct FauxRequest {
    /// The model requested.
    pub model: Model,
    /// The context sent.
    pub context: Arc<Context>,
    /// The request options.
    pub options: StreamOptions,
}

#[derive(Default)]
struct FauxState {
    replies: VecDeque<FauxReply>,
    requests: Vec<FauxRequest>,
}

/// Scripted provider; clones share the script and the call log.
#[derive(Clone)]
pub struct FauxProvider {
    api: String,
    chunk_chars: usize,
    delay: Option<Duration>,
    state: Arc<Mutex<FauxState>>,
}

impl Default for FauxProvider {
    fn default() -> Self {
        Self::new()
    }
}

impl FauxProvider {
    /// A provider serving api `faux`, streaming 4-character chunks.
    pub fn new() -> Self {
        FauxProvider {
            api: "faux".to_string(),
            chunk_chars: 4,
            delay: None,
            state: Arc::default(),
        }
    }

    /// Serve a different api name.
    pub fn with_api(mut self, api: &str) -> Self {
        self.api = api.to_string();
        self
    }

    /// Stream text in chunks of `chars` characters (at least 1).
    pub fn with_chunk_chars(mut self, chars: usize) -> Self {
        self.chunk_chars = chars.max(1);
        self
    }

    /// Sleep between chunks (lets tests abort mid-stream).
    pub fn with_chunk_delay(mut self, delay: Duration) -> Self {
        self.delay = Some(delay);
        self
    }

    /// A model served by this provider (`faux-1`, text and images, free).
    pub fn model(&self) -> Model {
        Model {
            id: "faux-1".into(),
            name: "Faux Model".into(),
            api: self.api.clone(),
            provider: "faux".into(),
            base_url: "http://localhost:0".into(),
            reasoning: false,
            thinking_level_map: None,
            input: vec!["text".into(), "image".into()],
            cost: ModelCost::default(),
            context_window: 128_000,
            max_tokens: 16_384,
            headers: None,
            compat: None,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, FauxState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queue a reply.
    pub fn push(&self, reply: FauxReply) {
        self.state().replies.push_back(reply);
    }

    /// Queue a fixed message.
    pub fn push_message(&self, message: AssistantMessage) {
        self.push(FauxReply::Message(Box::new(message)));
    }

    /// Queue a plain text reply.
    pub fn push_text(&self, text: &str) {
        self.push_message(faux_message(vec![faux_text(text)]));
    }

    /// Queue a failed reply with `error` as its message.
    pub fn push_error(&self, error: &str) {
        let mut msg = faux_message(Vec::new());
        msg.stop_reason = StopReason::Error;
        msg.error_message = Some(error.to_string());
        self.push_message(msg);
    }

    /// Queue a reply computed from the request.
    pub fn push_fn(
        &self,
        respond: impl Fn(&StreamRequest, usize) -> AssistantMessage + Send + Sync + 'static,
    ) {
        self.push(FauxReply::Respond(Arc::new(respond)));
    }

    /// Replies still queued.
    pub fn pending(&self) -> usize {
        self.state().replies.len()
    }

    /// Number of requests received.
    pub fn call_count(&self) -> usize {
        self.state().requests.len()
    }

    /// Every request received, oldest first.
    pub fn requests(&self) -> Vec<FauxRequest> {
        self.state().requests.clone()
    }

    /// Forget the requests received so far.
    pub fn clear_log(&self) {
        self.state().requests.clear();
    }

    /// The context of the most recent request.
    pub fn last_context(&self) -> Option<Arc<Context>> {
        self.state().requests.last().map(|r| r.context.clone())
    }

    async fn pause(&self) {
        match self.delay {
            Some(d) => tokio::time::sleep(d).await,
            None => tokio::task::yield_now().await,
        }
    }

    async fn stream_text(&self, text: &str, mut emit: impl FnMut(&str)) {
        for piece in chunks(text, self.chunk_chars) {
            self.pause().await;
            emit(piece);
        }
    }
}

#[async_trait]
impl ApiProvider for FauxProvider {
    fn api(&self) -> &str {
        &self.api
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let (reply, call) = {
            let mut state = self.state();
            state.requests.push(FauxRequest {
                model: req.model.clone(),
                context: req.context.clone(),
                options: req.options.clone(),
            });
            (state.replies.pop_front(), state.requests.len())
        };
        let Some(reply) = reply else {
            return Err(ProviderError::new("No more faux responses queued"));
        };
        let script = match reply {
            FauxReply::Message(m) => *m,
            FauxReply::Respond(f) => f(req, call),
        };
        {
            let partial = out.partial_mut();
            partial.response_id = script.response_id.clone();
            partial.usage = script.usage.clone();
            if partial.usage == Default::default() {
                partial.usage.input = estimate_tokens(&context_text(&req.context));
                partial.usage.output = estimate_tokens(&content_text(&script.content));
                partial.usage.total_tokens = partial.usage.input + partial.usage.output;
            }
            apply_cost(&req.model, &mut partial.usage);
        }
        out.start();
        for block in &script.content {
            match block {
                ContentBlock::Text(t) => {
                    out.text_start();
                    self.stream_text(&t.text, |d| out.text_delta(d)).await;
                    if let Some(sig) = &t.text_signature {
                        out.set_text_signature(sig.clone());
                    }
                }
                ContentBlock::Thinking(t) if t.redacted == Some(true) => {
                    out.redacted_thinking(t.thinking_signature.as_deref().unwrap_or(""));
                }
                ContentBlock::Thinking(t) => {
                    out.thinking_start();
                    self.stream_text(&t.thinking, |d| out.thinking_delta(d))
                        .await;
                    if let Some(sig) = &t.thinking_signature {
                        out.thinking_signature_delta(sig);
                    }
                }
                ContentBlock::ToolCall(c) => {
                    let idx = out.toolcall_start(&c.id, &c.name);
                    let json = c.arguments.to_string();
                    self.stream_text(&json, |d| out.toolcall_delta(idx, d))
                        .await;
                }
                ContentBlock::Image(_) => {}
            }
            out.end_block();
        }
        match script.stop_reason {
            StopReason::Error | StopReason::Aborted => {
                out.partial_mut().retry_after_ms = script.retry_after_ms;
                let message = script
                    .error_message
                    .unwrap_or_else(|| "Faux provider error".to_string());
                out.fail(script.stop_reason, message);
            }
            reason => out.done(reason),
        }
        Ok(())
    }
}

/// Split `text` into pieces of at most `size` characters (one empty piece for "").
fn chunks(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (count, (i, _)) in text.char_indices().enumerate() {
        if count > 0 && count % size == 0 {
            out.push(&text[start..i]);
            start = i;
        }
    }
    out.push(&text[start..]);
    out
}

fn estimate_tokens(text: &str) -> u64 {
    text.chars().count().div_ceil(4) as u64
}

fn content_text(content: &[ContentBlock]) -> String {
    content
        .iter()
        .map(|b| match b {
            ContentBlock::Text(t) => t.text.clone(),
            ContentBlock::Thinking(t) => t.thinking.clone(),
            ContentBlock::ToolCall(c) => format!("{}:{}", c.name, c.arguments),
            ContentBlock::Image(i) => format!("[image:{}:{}]", i.mime_type, i.data.len()),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn context_text(context: &Context) -> String {
    let mut parts = Vec::new();
    if let Some(p) = &context.system_prompt {
        parts.push(format!("system:{p}"));
    }
    for m in &context.messages {
        let text = match m {
            Message::User(u) => match &u.content {
                UserContent::Text(s) => s.clone(),
                UserContent::Blocks(b) => content_text(b),
            },
            Message::Assistant(a) => content_text(&a.content),
            Message::ToolResult(r) => format!("{}\n{}", r.tool_name, content_text(&r.content)),
            _ => String::new(),
        };
        parts.push(format!("{}:{text}", m.role()));
    }
    if !context.tools.is_empty() {
        parts.push(format!(
            "tools:{}",
            serde_json::to_string(&context.tools).unwrap_or_default()
        ));
    }
    parts.join("\n\n")
}

/// A text block.
pub fn faux_text(text: &str) -> ContentBlock {
    ContentBlock::Text(TextContent {
        text: text.to_string(),
        text_signature: None,
    })
}

/// A thinking block.
pub fn faux_thinking(thinking: &str) -> ContentBlock {
    ContentBlock::Thinking(ThinkingContent {
        thinking: thinking.to_string(),
        thinking_signature: None,
        redacted: None,
    })
}

/// A tool call with a fresh id.
pub fn faux_tool_call(name: &str, arguments: Value) -> ContentBlock {
    faux_tool_call_with_id(
        &format!("tool_{}", uuid::Uuid::new_v4().simple()),
        name,
        arguments,
    )
}

/// A tool call with the given id.
pub fn faux_tool_call_with_id(id: &str, name: &str, arguments: Value) -> ContentBlock {
    ContentBlock::ToolCall(ToolCall {
        id: id.to_string(),
        name: name.to_string(),
        arguments,
        thought_signature: None,
        raw_arguments: None,
    })
}

/// A finished reply with `content` (stop reason `stop`, or `toolUse` when it calls tools).
pub fn faux_message(content: Vec<ContentBlock>) -> AssistantMessage {
    let mut msg = AssistantMessage::empty("faux", "faux", "faux-1");
    msg.content = content;
    msg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::events::AssistantMessageEvent;
    use crate::ai::stream::ProviderRegistry;
    use crate::ai::types::UserMessage;
    use serde_json::json;

    fn registry(faux: &FauxProvider) -> ProviderRegistry {
        let mut r = ProviderRegistry::default();
        r.register(Arc::new(faux.clone()));
        r
    }

    fn context(text: &str) -> Arc<Context> {
        Arc::new(Context {
            system_prompt: Some("sys".into()),
            messages: vec![Message::User(UserMessage::text(text))],
            tools: vec![],
        })
    }

    #[tokio::test]
    async fn streams_scripted_blocks_in_chunks() {
        let faux = FauxProvider::new().with_chunk_chars(2);
        faux.push_message(faux_message(vec![
            faux_thinking("plan"),
            faux_text("Hello!"),
            faux_tool_call_with_id("t1", "bash", json!({"command": "ls"})),
        ]));
        let mut stream = registry(&faux).stream(faux.model(), context("hi"), Default::default());
        let mut text_deltas = Vec::new();
        while let Some(ev) = stream.next().await {
            if let AssistantMessageEvent::TextDelta { delta, .. } = &ev {
                text_deltas.push(delta.clone());
            }
        }
        assert_eq!(text_deltas, ["He", "ll", "o!"]);
        let requests = faux.requests();
        assert_eq!(requests.len(), 1);
        assert_eq!(requests[0].context.system_prompt.as_deref(), Some("sys"));
    }

    #[tokio::test]
    async fn responders_see_the_request_and_errors_fail_the_stream() {
        let faux = FauxProvider::new();
        faux.push_fn(|req, n| {
            let text = req.context.messages.len().to_string();
            faux_message(vec![faux_text(&format!("call {n}: {text} message(s)"))])
        });
        faux.push_error("503 overloaded");
        let r = registry(&faux);
        let first = r
            .stream(faux.model(), context("a"), Default::default())
            .result()
            .await;
        assert_eq!(first.text(), "call 1: 1 message(s)");
        assert_eq!(first.stop_reason, StopReason::Stop);
        assert!(first.usage.input > 0 && first.usage.output > 0);
        let second = r
            .stream(faux.model(), context("b"), Default::default())
            .result()
            .await;
        assert_eq!(second.stop_reason, StopReason::Error);
        assert_eq!(second.error_message.as_deref(), Some("503 overloaded"));
        let third = r
            .stream(faux.model(), context("c"), Default::default())
            .result()
            .await;
        assert_eq!(
            third.error_message.as_deref(),
            Some("No more faux responses queued")
        );
        assert_eq!(faux.call_count(), 3);
        assert_eq!(faux.pending(), 0);
    }

    #[tokio::test]
    async fn cancelling_mid_stream_aborts() {
        let faux = FauxProvider::new()
            .with_chunk_chars(1)
            .with_chunk_delay(Duration::from_millis(20));
        faux.push_text("a long reply that takes a while");
        let options = StreamOptions::default();
        let signal = options.signal.clone();
        let mut stream = registry(&faux).stream(faux.model(), context("x"), options);
        while let Some(ev) = stream.next().await {
            if matches!(ev, AssistantMessageEvent::TextDelta { .. }) {
                signal.cancel();
            }
        }
        let msg = stream.result().await;
        assert_eq!(msg.stop_reason, StopReason::Aborted);
        assert!(msg.text().len() < 5, "{}", msg.text());
    }

    #[test]
    fn chunks_respect_char_boundaries() {
        assert_eq!(chunks("h\u{e9}llo", 2), ["h\u{e9}", "ll", "o"]);
        assert_eq!(chunks("", 3), [""]);
    }
}
