//! The `openai-completions` wire protocol.

use async_trait::async_trait;

use super::events::MessageBuilder;
use super::stream::{ApiProvider, ProviderError, StreamRequest};

/// OpenAI Chat Completions API over SSE.
#[derive(Default)]
pub struct OpenAiCompletions;

#[async_trait]
impl ApiProvider for OpenAiCompletions {
    fn api(&self) -> &str {
        "openai-completions"
    }

    async fn stream(
        &self,
        _req: &StreamRequest,
        _out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        Err(ProviderError::new("not implemented"))
    }
}
