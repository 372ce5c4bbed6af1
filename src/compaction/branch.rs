//! Branch summaries for `/tree`: what lies between the old leaf and the
//! common ancestor with the target, summarized within a token budget.

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::agent::agent_loop::AgentLoopConfig;
use crate::ai::types::Message;
use crate::session::entries::SessionEntry;
use crate::session::manager::SessionManager;

use super::error::SummaryError;
use super::file_ops::FileOps;
use super::prepare::entry_message;
use super::prompts::{BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_PROMPT};
use super::serialize::serialize_conversation;
use super::summarize::complete_summary;
use super::tokens::estimate_tokens;

/// Entries left behind when moving from `old_leaf` to `target`, oldest
/// first, and the deepest entry both paths share.
pub fn collect_entries_for_branch_summary<'a>(
    session: &'a SessionManager,
    old_leaf: Option<&str>,
    target: &str,
) -> (Vec<&'a SessionEntry>, Option<String>) {
    let Some(old_leaf) = old_leaf else {
        return (Vec::new(), None);
    };
    let old_path: std::collections::HashSet<&str> = session
        .get_branch(Some(old_leaf))
        .iter()
        .map(|e| e.id())
        .collect();
    let common = session
        .get_branch(Some(target))
        .iter()
        .rev()
        .find(|e| old_path.contains(e.id()))
        .map(|e| e.id().to_string());
    let mut entries = Vec::new();
    let mut current = Some(old_leaf);
    while let Some(id) = current {
        if Some(id) == common.as_deref() {
            break;
        }
        let Some(entry) = session.entry(id) else {
            break;
        };
        entries.push(entry);
        current = entry.parent_id();
    }
    entries.reverse();
    (entries, common)
}

/// Messages of `entries` (tool results left out) that fit `token_budget`
/// (0 = no limit), newest kept first, and the file operations of all of them.
pub fn prepare_branch_entries(
    entries: &[&SessionEntry],
    token_budget: u64,
) -> (Vec<Message>, FileOps) {
    let mut file_ops = FileOps::default();
    for entry in entries {
        if let SessionEntry::BranchSummary(b) = entry
            && b.from_hook != Some(true)
        {
            file_ops.add_details(b.details.as_ref());
        }
    }
    let mut messages = Vec::new();
    let mut total = 0;
    for entry in entries.iter().rev() {
        let message = match entry {
            SessionEntry::Message(m) if matches!(m.message, Message::ToolResult(_)) => None,
            other => entry_message(other),
        };
        let Some(message) = message else { continue };
        file_ops.add_message(&message);
        let tokens = estimate_tokens(&message);
        if token_budget > 0 && total + tokens > token_budget {
            let is_summary = matches!(
                entry,
                SessionEntry::Compaction(_) | SessionEntry::BranchSummary(_)
            );
            if is_summary && (total as f64) < token_budget as f64 * 0.9 {
                messages.push(message);
            }
            break;
        }
        messages.push(message);
        total += tokens;
    }
    messages.reverse();
    (messages, file_ops)
}

/// A generated branch summary and its `{readFiles, modifiedFiles}`.
#[derive(Debug, Clone, PartialEq)]
pub struct BranchSummary {
    /// Summary text, preamble and file lists included.
    pub summary: String,
    /// Entry details.
    pub details: Value,
}

/// Summarize the abandoned `entries` with the model. `custom` adds focus
/// instructions (or replaces the prompt when `replace` is set).
pub async fn generate_branch_summary(
    entries: &[&SessionEntry],
    config: &AgentLoopConfig,
    reserve_tokens: u64,
    custom: Option<&str>,
    replace: bool,
    signal: &CancellationToken,
) -> Result<BranchSummary, SummaryError> {
    let window = if config.model.context_window > 0 {
        config.model.context_window
    } else {
        128_000
    };
    let (messages, file_ops) =
        prepare_branch_entries(entries, window.saturating_sub(reserve_tokens));
    if messages.is_empty() {
        return Ok(BranchSummary {
            summary: "No content to summarize".to_string(),
            details: file_ops.details(),
        });
    }
    let instructions = match custom.filter(|c| !c.trim().is_empty()) {
        Some(c) if replace => c.to_string(),
        Some(c) => format!("{BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: {c}"),
        None => BRANCH_SUMMARY_PROMPT.to_string(),
    };
    let prompt = format!(
        "<conversation>\n{}\n</conversation>\n\n{instructions}",
        serialize_conversation(&messages)
    );
    let text = complete_summary(config, prompt, 2048, false, signal).await?;
    let mut summary = format!("{BRANCH_SUMMARY_PREAMBLE}{text}");
    summary.push_str(&file_ops.format());
    Ok(BranchSummary {
        summary,
        details: file_ops.details(),
    })
}
