//! Growing the tree: appending entries under the leaf and moving the leaf.

use serde_json::Value;

use crate::ai::model::ThinkingLevel;
use crate::ai::types::{Message, UserContent};

use super::entries::{
    BranchSummaryEntry, CompactionEntry, CustomEntry, CustomMessageEntry, LabelEntry, MessageEntry,
    ModelChangeEntry, SessionEntry, SessionInfoEntry, ThinkingLevelChangeEntry,
};
use super::error::SessionError;
use super::ids::{new_entry_id, now_iso};
use super::manager::{SessionManager, apply_label};

impl SessionManager {
    // ----- appending -------------------------------------------------------

    fn next_id(&self) -> String {
        new_entry_id(|candidate| self.index.contains(&self.entries, candidate))
    }

    fn append_entry(&mut self, entry: SessionEntry) -> String {
        let id = entry.id().to_string();
        self.has_message |= entry.is_message();
        self.entries.release_read_bodies();
        self.entries.push(entry);
        if self.index.insert(&self.entries, self.entries.len() - 1) {
            self.ids_unique = false;
        }
        self.leaf_id = Some(id.clone());
        self.write_pending();
        id
    }

    /// Append a message under the leaf; returns its entry id.
    pub fn append_message(&mut self, message: Message) -> String {
        let entry = MessageEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            message,
        };
        self.append_entry(SessionEntry::Message(entry))
    }

    /// Record a thinking level change; returns its entry id.
    pub fn append_thinking_level_change(&mut self, level: ThinkingLevel) -> String {
        let entry = ThinkingLevelChangeEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            thinking_level: level.as_str().to_string(),
        };
        self.append_entry(SessionEntry::ThinkingLevelChange(entry))
    }

    /// Record a model change; returns its entry id.
    pub fn append_model_change(&mut self, provider: &str, model_id: &str) -> String {
        let entry = ModelChangeEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            provider: provider.to_string(),
            model_id: model_id.to_string(),
        };
        self.append_entry(SessionEntry::ModelChange(entry))
    }

    /// Record a compaction; returns its entry id.
    pub fn append_compaction(
        &mut self,
        summary: &str,
        first_kept_entry_id: &str,
        tokens_before: u64,
        details: Option<Value>,
        from_hook: Option<bool>,
    ) -> String {
        let entry = CompactionEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            summary: summary.to_string(),
            first_kept_entry_id: first_kept_entry_id.to_string(),
            tokens_before,
            details,
            from_hook,
        };
        self.append_entry(SessionEntry::Compaction(entry))
    }

    /// Store extension state (never sent to the model); returns its entry id.
    pub fn append_custom_entry(&mut self, custom_type: &str, data: Option<Value>) -> String {
        let entry = CustomEntry {
            custom_type: custom_type.to_string(),
            data,
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
        };
        self.append_entry(SessionEntry::Custom(entry))
    }

    /// Store an extension message that is part of the model context;
    /// returns its entry id.
    pub fn append_custom_message_entry(
        &mut self,
        custom_type: &str,
        content: UserContent,
        display: bool,
        details: Option<Value>,
    ) -> String {
        let entry = CustomMessageEntry {
            custom_type: custom_type.to_string(),
            content,
            display,
            details,
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
        };
        self.append_entry(SessionEntry::CustomMessage(entry))
    }

    /// Set (or, with `None` or an empty label, clear) the label of an
    /// existing entry; returns the label entry's id.
    pub fn append_label_change(
        &mut self,
        target_id: &str,
        label: Option<&str>,
    ) -> Result<String, SessionError> {
        self.require_entry(target_id)?;
        let entry = LabelEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            target_id: target_id.to_string(),
            label: label.map(str::to_string),
        };
        apply_label(&mut self.labels, &entry);
        Ok(self.append_entry(SessionEntry::Label(entry)))
    }

    /// Set the session's display name (trimmed; empty clears it); returns
    /// the entry id.
    pub fn append_session_info(&mut self, name: &str) -> String {
        let entry = SessionInfoEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            name: Some(name.trim().to_string()),
        };
        self.append_entry(SessionEntry::SessionInfo(entry))
    }

    // ----- navigation ------------------------------------------------------

    /// Move the leaf to an existing entry; the next append branches from it.
    pub fn branch(&mut self, entry_id: &str) -> Result<(), SessionError> {
        self.require_entry(entry_id)?;
        self.leaf_id = Some(entry_id.to_string());
        Ok(())
    }

    /// Move the leaf before the first entry; the next append is a new root.
    pub fn reset_leaf(&mut self) {
        self.leaf_id = None;
    }

    /// Move the leaf to `from` (or before the first entry) and append a
    /// summary of the branch being left; returns the summary entry's id.
    pub fn branch_with_summary(
        &mut self,
        from: Option<&str>,
        summary: &str,
        details: Option<Value>,
        from_hook: Option<bool>,
    ) -> Result<String, SessionError> {
        if let Some(id) = from {
            self.require_entry(id)?;
        }
        self.leaf_id = from.map(str::to_string);
        let entry = BranchSummaryEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            from_id: from.unwrap_or("root").to_string(),
            summary: summary.to_string(),
            details,
            from_hook,
        };
        Ok(self.append_entry(SessionEntry::BranchSummary(entry)))
    }

    fn require_entry(&self, id: &str) -> Result<(), SessionError> {
        if self.index.contains(&self.entries, id) {
            Ok(())
        } else {
            Err(SessionError::EntryNotFound { id: id.to_string() })
        }
    }
}
