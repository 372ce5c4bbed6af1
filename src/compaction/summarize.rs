//! Asking the model for summaries: compaction (first or iterative, plus the
//! prefix of a split turn) and the merged result stored in the entry.

use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::agent::agent_loop::AgentLoopConfig;
use crate::ai::model::ThinkingLevel;
use crate::ai::stream::StreamOptions;
use crate::ai::types::{ContentBlock, Context, Message, StopReason, UserMessage};

use super::error::{CompactionError, SummaryError, SummaryPart};
use super::prepare::CompactionPreparation;
use super::prompts::{
    SUMMARIZATION_PROMPT, SUMMARIZATION_SYSTEM_PROMPT, TURN_PREFIX_SUMMARIZATION_PROMPT,
    UPDATE_SUMMARIZATION_PROMPT,
};
use super::serialize::serialize_conversation;

/// What a compaction produced, ready to append as a `compaction` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct CompactionResult {
    /// The summary text (file lists appended).
    pub summary: String,
    /// First entry kept after the summary.
    pub first_kept_entry_id: String,
    /// Context tokens before compaction.
    pub tokens_before: u64,
    /// `{readFiles, modifiedFiles}` or an extension's own data.
    pub details: Option<Value>,
}

impl CompactionResult {
    /// `{summary, firstKeptEntryId, tokensBefore, details}` as events and
    /// RPC responses show it.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "summary": self.summary,
            "firstKeptEntryId": self.first_kept_entry_id,
            "tokensBefore": self.tokens_before,
            "details": self.details.clone().unwrap_or(Value::Object(Default::default())),
        })
    }
}

/// One non-streamed summarization request with the session's model and
/// credentials; returns the reply's text or the error message.
pub async fn complete_summary(
    config: &AgentLoopConfig,
    prompt: String,
    max_tokens: u64,
    thinking: bool,
    signal: &CancellationToken,
) -> Result<String, SummaryError> {
    let auth = (config.auth)(&config.model).map_err(SummaryError::Auth)?;
    let context = Arc::new(Context {
        system_prompt: Some(SUMMARIZATION_SYSTEM_PROMPT.to_string()),
        messages: vec![Message::User(UserMessage {
            content: crate::ai::types::UserContent::Blocks(vec![ContentBlock::text(prompt)]),
            timestamp: crate::ai::types::now_ms(),
        })],
        tools: Vec::new(),
    });
    let reasoning = (thinking && config.model.reasoning && config.thinking != ThinkingLevel::Off)
        .then_some(config.thinking);
    let options = StreamOptions {
        api_key: auth.api_key,
        headers: auth.headers,
        max_tokens: Some(max_tokens),
        reasoning,
        signal: signal.clone(),
        ..Default::default()
    };
    let reply = config
        .providers
        .stream(config.model.clone(), context, options)
        .result()
        .await;
    match reply.stop_reason {
        StopReason::Aborted => Err(SummaryError::Aborted),
        StopReason::Error => Err(SummaryError::Model {
            message: reply.error_message,
        }),
        _ => Ok(reply
            .content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text(t) => Some(t.text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

/// The prompt text summarizing `messages`, updating `previous` when given.
pub fn summary_prompt(
    messages: &[Message],
    previous: Option<&str>,
    custom_instructions: Option<&str>,
) -> String {
    let mut base = if previous.is_some() {
        UPDATE_SUMMARIZATION_PROMPT.to_string()
    } else {
        SUMMARIZATION_PROMPT.to_string()
    };
    if let Some(extra) = custom_instructions.filter(|s| !s.trim().is_empty()) {
        base = format!("{base}\n\nAdditional focus: {extra}");
    }
    let mut text = format!(
        "<conversation>\n{}\n</conversation>\n\n",
        serialize_conversation(messages)
    );
    if let Some(previous) = previous {
        text.push_str(&format!(
            "<previous-summary>\n{previous}\n</previous-summary>\n\n"
        ));
    }
    text.push_str(&base);
    text
}

/// Summarize a prepared compaction with the model: the history (updating
/// the previous summary), plus the split turn's prefix when the cut lands
/// mid-turn; the file lists are appended.
pub async fn compact(
    preparation: &CompactionPreparation,
    config: &AgentLoopConfig,
    custom_instructions: Option<&str>,
    signal: &CancellationToken,
) -> Result<CompactionResult, CompactionError> {
    let reserve = preparation.settings.reserve_tokens;
    let history = async {
        if preparation.is_split_turn && preparation.messages_to_summarize.is_empty() {
            return Ok("No prior history.".to_string());
        }
        let prompt = summary_prompt(
            &preparation.messages_to_summarize,
            preparation.previous_summary.as_deref(),
            custom_instructions,
        );
        complete_summary(config, prompt, reserve * 8 / 10, true, signal)
            .await
            .map_err(|cause| CompactionError::Summary {
                part: SummaryPart::History,
                cause,
            })
    };
    let mut summary = if preparation.is_split_turn && !preparation.turn_prefix_messages.is_empty() {
        let prefix = async {
            let prompt = format!(
                "<conversation>\n{}\n</conversation>\n\n{TURN_PREFIX_SUMMARIZATION_PROMPT}",
                serialize_conversation(&preparation.turn_prefix_messages)
            );
            complete_summary(config, prompt, reserve / 2, true, signal)
                .await
                .map_err(|cause| CompactionError::Summary {
                    part: SummaryPart::TurnPrefix,
                    cause,
                })
        };
        let (history, prefix) = tokio::join!(history, prefix);
        format!(
            "{}\n\n---\n\n**Turn Context (split turn):**\n\n{}",
            history?, prefix?
        )
    } else {
        history.await?
    };
    summary.push_str(&preparation.file_ops.format());
    Ok(CompactionResult {
        summary,
        first_kept_entry_id: preparation.first_kept_entry_id.clone(),
        tokens_before: preparation.tokens_before,
        details: Some(preparation.file_ops.details()),
    })
}
