//! Provider dispatch: pick the wire protocol for a model and run its stream.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use crate::ai::events::{AssistantStream, MessageBuilder};
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::types::{Context, StopReason};

pub use crate::ai::errors::{ProviderError, ProviderErrorKind};

/// Options for one request.
#[derive(Clone, Default)]
pub struct StreamOptions {
    /// API key or bearer token.
    pub api_key: Option<String>,
    /// Output token cap (defaults per model).
    pub max_tokens: Option<u64>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Thinking level (`None` or `Off` disables thinking).
    pub reasoning: Option<ThinkingLevel>,
    /// Cancels the request.
    pub signal: CancellationToken,
    /// Extra headers (after model headers).
    pub headers: BTreeMap<String, String>,
    /// Session id, for prompt-cache keys.
    pub session_id: Option<String>,
    /// Sees (and may replace) the request body, then the response status.
    pub hooks: Option<Arc<dyn RequestHooks>>,
    /// When a retried request's total time (`retry.totalTimeoutMs`) ends: its wait for
    /// the first byte ends there at the latest.
    pub deadline: Option<std::time::Instant>,
    /// The settled part of the conversation kept from an earlier request (then the
    /// context's messages are only those after it), and where the provider reports the
    /// one it writes; only for providers with a [`ApiProvider::settled_format`].
    pub settled: Option<Arc<crate::ai::settled::SettledExchange>>,
}

/// Observes one HTTP request of a provider: extensions'
/// `before_provider_request` and `after_provider_response`.
#[async_trait]
pub trait RequestHooks: Send + Sync {
    /// The provider-specific body about to be sent; returns the body to send.
    async fn before_request(&self, payload: serde_json::Value) -> serde_json::Value;
    /// The response status and headers (lower-case names), before the body is read.
    async fn after_response(&self, status: u16, headers: BTreeMap<String, String>);
}

/// One request as a provider sees it.
pub struct StreamRequest {
    /// Target model.
    pub model: Model,
    /// Prompt, messages and tools.
    pub context: Arc<Context>,
    /// Request options.
    pub options: StreamOptions,
}

/// A wire protocol implementation.
#[async_trait]
pub trait ApiProvider: Send + Sync {
    /// The `api` name this provider serves (`anthropic-messages`, ...).
    fn api(&self) -> &str;

    /// Run the request, driving `out`. Return `Ok` after calling `out.done(..)`;
    /// return `Err` for any failure (the caller emits the error event).
    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError>;

    /// The format of the settled parts this provider takes and reports through
    /// [`StreamOptions::settled`] (`None`: it takes none, every message is sent).
    fn settled_format(&self) -> Option<&'static str> {
        None
    }
}

/// The providers known to this build, by api name.
#[derive(Clone, Default)]
pub struct ProviderRegistry {
    providers: BTreeMap<String, Arc<dyn ApiProvider>>,
    /// Serves every api no registered provider serves (providers that extensions stream).
    fallback: Option<Arc<dyn ApiProvider>>,
}

impl ProviderRegistry {
    /// Add or replace a provider.
    pub fn register(&mut self, p: Arc<dyn ApiProvider>) {
        self.providers.insert(p.api().to_string(), p);
    }

    /// Hand every api without a provider of its own to `p` (which fails the request
    /// itself when it does not serve the api either).
    pub fn set_fallback(&mut self, p: Arc<dyn ApiProvider>) {
        self.fallback = Some(p);
    }

    /// Look up a provider.
    pub fn get(&self, api: &str) -> Option<Arc<dyn ApiProvider>> {
        self.providers.get(api).or(self.fallback.as_ref()).cloned()
    }

    /// The settled-part format of the provider serving `api` (see
    /// [`ApiProvider::settled_format`]).
    pub fn settled_format(&self, api: &str) -> Option<&'static str> {
        self.get(api).and_then(|p| p.settled_format())
    }

    /// Start streaming a reply. Never fails: problems arrive as an `error` event.
    pub fn stream(
        &self,
        model: Model,
        context: Arc<Context>,
        options: StreamOptions,
    ) -> AssistantStream {
        let (tx, rx) = crate::ai::event_channel::event_channel();
        let provider = self.get(&model.api);
        let req = StreamRequest {
            model,
            context,
            options,
        };
        tokio::spawn(async move {
            let mut out =
                MessageBuilder::new(&req.model.api, &req.model.provider, &req.model.id, tx);
            let Some(provider) = provider else {
                out.fail(
                    StopReason::Error,
                    format!("No API provider registered for api: {}", req.model.api),
                );
                return;
            };
            let signal = req.options.signal.clone();
            // An abort always wins, also over a provider that finishes at once.
            let result = tokio::select! {
                biased;
                _ = signal.cancelled() => None,
                r = provider.stream(&req, &mut out) => Some(r),
            };
            match result {
                None => out.fail(StopReason::Aborted, "Request was aborted"),
                Some(Err(e)) if signal.is_cancelled() => {
                    let _ = e;
                    out.fail(StopReason::Aborted, "Request was aborted")
                }
                Some(Err(e)) => {
                    let partial = out.partial_mut();
                    partial.retry_after_ms = e.retry_after.map(|s| (s * 1000.0) as u64);
                    partial.error_kind = Some(e.kind);
                    out.fail(StopReason::Error, e.message)
                }
                Some(Ok(())) => {
                    if !out.is_finished() {
                        out.fail(
                            StopReason::Error,
                            "Provider stream ended without a final message",
                        );
                    }
                }
            }
        });
        AssistantStream::new(rx)
    }
}
