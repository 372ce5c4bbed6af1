//! The wire protocols pi speaks, one module each, and the list of them. Each module keeps
//! only what is its own (request body, stream events, authentication); HTTP, SSE and the
//! provider trait come from the rest of `ai`.

pub mod anthropic;
pub mod bedrock;
pub mod cloudflare;
pub mod demo;
pub mod faux;
pub mod google;
pub mod mistral;
pub mod openai_completions;
pub mod openai_responses;
pub mod settled_slot;

use std::sync::Arc;

use crate::ai::stream::ProviderRegistry;

impl ProviderRegistry {
    /// The built-in wire protocols.
    pub fn builtin() -> Self {
        let mut r = ProviderRegistry::default();
        r.register(Arc::new(anthropic::AnthropicMessages::default()));
        r.register(Arc::new(openai_completions::OpenAiCompletions::default()));
        r.register(Arc::new(openai_responses::OpenAiResponses));
        r.register(Arc::new(openai_responses::codex::OpenAiCodexResponses));
        r.register(Arc::new(
            openai_responses::azure::AzureOpenAiResponses::default(),
        ));
        r.register(Arc::new(bedrock::BedrockConverseStream::default()));
        r.register(Arc::new(google::GoogleGenerativeAi));
        r.register(Arc::new(google::gemini_cli::GoogleGeminiCli));
        r.register(Arc::new(mistral::MistralConversations));
        r.register(Arc::new(google::vertex::GoogleVertex::default()));
        r.register(demo::demo_provider());
        r
    }
}
