//! The `anthropic-messages` wire protocol.

use async_trait::async_trait;

use super::events::MessageBuilder;
use super::stream::{ApiProvider, ProviderError, StreamRequest};

/// Anthropic Messages API over SSE.
#[derive(Default)]
pub struct AnthropicMessages;

#[async_trait]
impl ApiProvider for AnthropicMessages {
    fn api(&self) -> &str {
        "anthropic-messages"
    }

    async fn stream(
        &self,
        _req: &StreamRequest,
        _out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        Err(ProviderError::new("not implemented"))
    }
}
