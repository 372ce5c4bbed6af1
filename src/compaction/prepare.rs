//! Choosing what a compaction summarizes: the cut point (never between a
//! tool call and its result), the kept-recent budget, split turns, and the
//! file operations to carry forward.

use crate::ai::types::{BranchSummaryMessage, CompactionSummaryMessage, CustomMessage, Message};
use crate::config::settings_keys::CompactionSettings;
use crate::session::build_session_context;
use crate::session::entries::SessionEntry;
use crate::session::ids::iso_to_ms;

use super::file_ops::FileOps;
use super::tokens::{estimate_context_tokens, estimate_tokens};

/// Where a compaction cuts a path of entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutPoint {
    /// Index of the first entry kept.
    pub first_kept_entry_index: usize,
    /// Index of the user message starting the turn that is cut, when split.
    pub turn_start_index: Option<usize>,
    /// The cut lands inside a turn.
    pub is_split_turn: bool,
}

/// Everything a compaction needs, worked out before any model call.
#[derive(Debug, Clone)]
pub struct CompactionPreparation {
    /// Id of the first entry kept after the summary.
    pub first_kept_entry_id: String,
    /// Messages the summary replaces.
    pub messages_to_summarize: Vec<Message>,
    /// The early part of a split turn (summarized separately).
    pub turn_prefix_messages: Vec<Message>,
    /// The cut lands inside a turn.
    pub is_split_turn: bool,
    /// Context tokens before compaction.
    pub tokens_before: u64,
    /// The previous compaction's summary, updated iteratively.
    pub previous_summary: Option<String>,
    /// Files read and modified, including earlier summaries' lists.
    pub file_ops: FileOps,
    /// The settings used.
    pub settings: CompactionSettings,
}

/// The message an entry contributes to the context, if any.
pub fn entry_message(entry: &SessionEntry) -> Option<Message> {
    match entry {
        SessionEntry::Message(m) => Some(m.message.clone()),
        SessionEntry::CustomMessage(c) => Some(Message::Custom(CustomMessage {
            custom_type: c.custom_type.clone(),
            content: c.content.clone(),
            display: c.display,
            details: c.details.clone(),
            timestamp: iso_to_ms(&c.timestamp).unwrap_or(0),
        })),
        SessionEntry::BranchSummary(b) => Some(Message::BranchSummary(BranchSummaryMessage {
            summary: b.summary.clone(),
            from_id: b.from_id.clone(),
            timestamp: iso_to_ms(&b.timestamp).unwrap_or(0),
        })),
        SessionEntry::Compaction(c) => Some(Message::CompactionSummary(CompactionSummaryMessage {
            summary: c.summary.clone(),
            tokens_before: c.tokens_before,
            timestamp: iso_to_ms(&c.timestamp).unwrap_or(0),
        })),
        _ => None,
    }
}

fn is_valid_cut(entry: &SessionEntry) -> bool {
    match entry {
        SessionEntry::Message(m) => !matches!(m.message, Message::ToolResult(_)),
        SessionEntry::BranchSummary(_) | SessionEntry::CustomMessage(_) => true,
        _ => false,
    }
}

fn starts_turn(entry: &SessionEntry) -> bool {
    match entry {
        SessionEntry::BranchSummary(_) | SessionEntry::CustomMessage(_) => true,
        SessionEntry::Message(m) => {
            matches!(m.message, Message::User(_) | Message::BashExecution(_))
        }
        _ => false,
    }
}

/// The user message (or shell command, custom message, branch summary)
/// starting the turn that holds `index`, searching back to `start`.
pub fn find_turn_start(entries: &[&SessionEntry], index: usize, start: usize) -> Option<usize> {
    (start..=index).rev().find(|&i| starts_turn(entries[i]))
}

/// Cut `entries[start..end]` so that about `keep_recent_tokens` of the
/// newest messages stay. Cuts only at user, assistant, shell, custom and
/// branch-summary messages — never at a tool result — and pulls in the
/// non-message entries (model changes and the like) just before the cut.
pub fn find_cut_point(
    entries: &[&SessionEntry],
    start: usize,
    end: usize,
    keep_recent_tokens: u64,
) -> CutPoint {
    let cut_points: Vec<usize> = (start..end).filter(|&i| is_valid_cut(entries[i])).collect();
    let Some(&first) = cut_points.first() else {
        return CutPoint {
            first_kept_entry_index: start,
            turn_start_index: None,
            is_split_turn: false,
        };
    };
    let mut cut = first;
    let mut accumulated = 0;
    for i in (start..end).rev() {
        let SessionEntry::Message(m) = entries[i] else {
            continue;
        };
        accumulated += estimate_tokens(&m.message);
        if accumulated >= keep_recent_tokens {
            if let Some(&c) = cut_points.iter().find(|&&c| c >= i) {
                cut = c;
            }
            break;
        }
    }
    while cut > start {
        match entries[cut - 1] {
            SessionEntry::Compaction(_) | SessionEntry::Message(_) => break,
            _ => cut -= 1,
        }
    }
    let is_user =
        matches!(entries[cut], SessionEntry::Message(m) if matches!(m.message, Message::User(_)));
    let turn_start = if is_user {
        None
    } else {
        find_turn_start(entries, cut, start)
    };
    CutPoint {
        first_kept_entry_index: cut,
        turn_start_index: turn_start,
        is_split_turn: turn_start.is_some(),
    }
}

/// Work out a compaction of `path` (root to leaf). `None` when the leaf is
/// already a compaction or the cut entry has no id.
pub fn prepare_compaction(
    path: &[&SessionEntry],
    settings: CompactionSettings,
) -> Option<CompactionPreparation> {
    if matches!(path.last(), Some(SessionEntry::Compaction(_))) {
        return None;
    }
    let previous = path.iter().enumerate().rev().find_map(|(i, e)| match e {
        SessionEntry::Compaction(c) => Some((i, c)),
        _ => None,
    });
    let boundary_start = previous
        .map(|(i, c)| {
            path.iter()
                .position(|e| e.id() == c.first_kept_entry_id)
                .unwrap_or(i + 1)
        })
        .unwrap_or(0);
    if !path[boundary_start.min(path.len())..]
        .iter()
        .any(|e| entry_message(e).is_some())
    {
        return None;
    }
    let owned: Vec<SessionEntry> = path.iter().map(|e| (*e).clone()).collect();
    let leaf = path.last().map(|e| e.id());
    let tokens_before =
        estimate_context_tokens(&build_session_context(&owned, leaf).messages.into());

    let cut = find_cut_point(
        path,
        boundary_start,
        path.len(),
        settings.keep_recent_tokens,
    );
    let first_kept = path.get(cut.first_kept_entry_index)?;
    if first_kept.id().is_empty() {
        return None;
    }
    let history_end = match (cut.is_split_turn, cut.turn_start_index) {
        (true, Some(start)) => start,
        _ => cut.first_kept_entry_index,
    };
    let messages_of = |range: std::ops::Range<usize>| -> Vec<Message> {
        path[range]
            .iter()
            .filter(|e| !matches!(e, SessionEntry::Compaction(_)))
            .filter_map(|e| entry_message(e))
            .collect()
    };
    let messages_to_summarize = messages_of(boundary_start..history_end.max(boundary_start));
    let turn_prefix_messages = if cut.is_split_turn {
        messages_of(history_end..cut.first_kept_entry_index)
    } else {
        Vec::new()
    };
    let mut file_ops = FileOps::default();
    if let Some((_, c)) = previous
        && c.from_hook != Some(true)
    {
        file_ops.add_details(c.details.as_ref());
    }
    for message in messages_to_summarize.iter().chain(&turn_prefix_messages) {
        file_ops.add_message(message);
    }
    Some(CompactionPreparation {
        first_kept_entry_id: first_kept.id().to_string(),
        messages_to_summarize,
        turn_prefix_messages,
        is_split_turn: cut.is_split_turn,
        tokens_before,
        previous_summary: previous.map(|(_, c)| c.summary.clone()),
        file_ops,
        settings,
    })
}
