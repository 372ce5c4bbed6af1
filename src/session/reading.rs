//! Reading a session: entries by id, branches, the tree and the context, all
//! from the index; a body kept in the file is read only when it is asked for.

use std::borrow::Cow;

use super::context::{
    ContextEntries, SessionContext, context_message, context_messages, plan_context,
};
use super::entries::SessionEntry;
use super::manager::SessionManager;
use super::store::{EntryList, IndexedEntry};
use super::tree::SessionTree;
use crate::agent::conversation::{Conversation, Part};

impl SessionManager {
    /// The current leaf's id (`None` before the first entry).
    pub fn leaf_id(&self) -> Option<&str> {
        self.leaf_id.as_deref()
    }

    /// The current leaf entry.
    pub fn leaf_entry(&self) -> Option<&SessionEntry> {
        self.leaf_id.as_deref().and_then(|id| self.entry(id))
    }

    /// The entry with this id.
    pub fn entry(&self, id: &str) -> Option<&SessionEntry> {
        self.index
            .get(&self.entries, id)
            .map(|position| self.entries.get(position))
    }

    /// Direct children of an entry, in append order.
    pub fn children(&self, parent_id: &str) -> Vec<&SessionEntry> {
        self.entries
            .metas()
            .enumerate()
            .filter(|(_, stored)| stored.parent_id() == Some(parent_id))
            .map(|(position, _)| self.entries.get(position))
            .collect()
    }

    /// The current label of an entry.
    pub fn label(&self, id: &str) -> Option<&str> {
        self.labels.get(id).map(|label| label.text.as_str())
    }

    /// Entries from the root down to `from` (default: the leaf), every type
    /// included.
    pub fn get_branch(&self, from: Option<&str>) -> Vec<&SessionEntry> {
        self.branch_positions(from)
            .into_iter()
            .map(|position| self.entries.get(position))
            .collect()
    }

    /// [`SessionManager::get_branch`] with each body that is only in the file
    /// read for its visit and not kept: a long branch passes through once.
    pub fn branch_loaded(&self, from: Option<&str>) -> impl Iterator<Item = Cow<'_, SessionEntry>> {
        self.branch_positions(from)
            .into_iter()
            .map(|position| self.entries.load(position))
    }

    /// The user messages' entries on the branch to the leaf, found from the
    /// index; only their bodies are read, and not kept.
    pub fn branch_user_messages(&self) -> impl Iterator<Item = Cow<'_, SessionEntry>> {
        self.branch_positions(None)
            .into_iter()
            .filter(|&position| self.entries.meta(position).role() == Some("user"))
            .map(|position| self.entries.load(position))
    }

    /// Every user message's entry in the order written, on any branch, found
    /// from the index; only their bodies are read, and not kept.
    pub fn user_messages(&self) -> impl Iterator<Item = Cow<'_, SessionEntry>> {
        (0..self.entries.len())
            .filter(|&position| self.entries.meta(position).role() == Some("user"))
            .map(|position| self.entries.load(position))
    }

    /// The ids of the entries from the root down to `from` (default: the
    /// leaf), read from the index alone.
    pub fn branch_ids(&self, from: Option<&str>) -> Vec<&str> {
        self.branch_positions(from)
            .into_iter()
            .map(|position| self.entries.meta(position).id())
            .collect()
    }

    /// The last entry on the branch to the leaf whose `type` is one of `kinds`
    /// and that `wanted` accepts; only entries of those types are read.
    pub fn last_on_branch(
        &self,
        kinds: &[&str],
        wanted: impl Fn(&SessionEntry) -> bool,
    ) -> Option<&SessionEntry> {
        self.branch_positions(None)
            .into_iter()
            .rev()
            .filter(|&position| kinds.contains(&self.entries.meta(position).kind()))
            .map(|position| self.entries.get(position))
            .find(|entry| wanted(entry))
    }

    /// Positions of the entries from the root down to `from` (default: the leaf).
    fn branch_positions(&self, from: Option<&str>) -> Vec<usize> {
        let mut path = Vec::new();
        let mut current = from
            .or(self.leaf_id.as_deref())
            .and_then(|id| self.index.get(&self.entries, id));
        while let Some(position) = current {
            if path.len() > self.entries.len() {
                break;
            }
            path.push(position);
            current = self.parent_position(position);
        }
        path.reverse();
        path
    }

    /// All entries arranged as a tree, with labels resolved; every body is
    /// read (see [`SessionManager::index_tree`] for the tree without them).
    pub fn get_tree(&self) -> SessionTree<'_> {
        SessionTree::build(self.entries(), |id| self.label_and_time(id))
    }

    /// All entries arranged as a tree from the index alone: ids, parents,
    /// times, labels and one-line descriptions; no body is read.
    pub fn index_tree(&self) -> SessionTree<'_, IndexedEntry<'_>> {
        self.entries.fill_previews();
        let entries: Vec<IndexedEntry<'_>> = (0..self.entries.len())
            .map(|position| IndexedEntry::new(&self.entries, position))
            .collect();
        SessionTree::arrange(
            &entries,
            |id| self.index.get(&self.entries, id),
            |id| self.label_and_time(id),
        )
    }

    /// For each entry in append order (each node of
    /// [`SessionManager::index_tree`]), whether it is on the branch from the
    /// root to the leaf.
    pub fn branch_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; self.entries.len()];
        for position in self.branch_positions(None) {
            mask[position] = true;
        }
        mask
    }

    /// An entry's current label and when it was set.
    fn label_and_time(&self, id: &str) -> Option<(&str, &str)> {
        self.labels
            .get(id)
            .map(|label| (label.text.as_str(), label.timestamp.as_str()))
    }

    /// What the model sees at the current leaf.
    pub fn build_context(&self) -> SessionContext {
        let Some(plan) = plan_context(self, self.leaf_id.as_deref()) else {
            return SessionContext::empty();
        };
        let messages = context_messages(&plan.sources, &|position| self.entries.load(position));
        plan.finish(messages)
    }

    /// [`SessionManager::build_context`], handing over the message bodies the
    /// session still holds from loading instead of copying them: right after
    /// opening a long session, its conversation is then held once.
    pub fn take_context(&mut self) -> SessionContext {
        let Some(plan) = plan_context(&*self, self.leaf_id.as_deref()) else {
            return SessionContext::empty();
        };
        let mut messages = Vec::with_capacity(plan.sources.len());
        for &position in &plan.sources {
            messages.extend(context_message(self.entries.take(position)));
        }
        self.entries.release_read_bodies();
        plan.finish(messages)
    }

    /// [`SessionManager::take_context`] with the messages as a [`Conversation`]: a
    /// message whose body is only in the session file stays there (with its role,
    /// tool calls and usage noted) and is read back when asked for, so a long
    /// session's history is not held in memory. The context's `messages` are left
    /// empty.
    pub fn take_conversation(&mut self) -> (SessionContext, Conversation) {
        let Some(plan) = plan_context(&*self, self.leaf_id.as_deref()) else {
            return (SessionContext::empty(), Conversation::new());
        };
        let mut parts = Vec::with_capacity(plan.sources.len());
        for &position in &plan.sources {
            match self.entries.stored_message(position) {
                Some(stored) => parts.push(Part::Stored(stored)),
                None => parts.extend(
                    context_message(self.entries.take(position))
                        .map(|message| Part::Held(Box::new(message))),
                ),
            }
        }
        self.entries.release_read_bodies();
        let context = plan.finish(Vec::new());
        let mut conversation: Conversation = match self.entries.message_source() {
            Some(source) => Conversation::assemble(parts, source),
            None => parts
                .into_iter()
                .filter_map(|part| match part {
                    Part::Held(message) => Some(*message),
                    Part::Stored(_) => None,
                })
                .collect(),
        };
        // A compaction summary leads the context: it comes first.
        let mut context = context;
        conversation.prepend(std::mem::take(&mut context.messages));
        (context, conversation)
    }

    /// All entries in append order (header excluded); bodies kept in the
    /// session file are read as they are visited.
    pub fn entries(&self) -> EntryList<'_> {
        EntryList::new(&self.entries)
    }

    /// The ids of all entries in append order, read from the index alone.
    pub fn entry_ids(&self) -> impl DoubleEndedIterator<Item = &str> {
        self.entries.metas().map(|stored| stored.id())
    }

    /// The entries of one `type`, in append order: only their bodies are read.
    pub fn entries_of_type<'a>(
        &'a self,
        kind: &'a str,
    ) -> impl DoubleEndedIterator<Item = &'a SessionEntry> + 'a {
        self.entries
            .metas()
            .enumerate()
            .filter(move |(_, stored)| stored.kind() == kind)
            .map(|(position, _)| self.entries.get(position))
    }

    /// How many entry bodies are in memory now (held, or read from the file
    /// and kept until the session next changes).
    pub fn bodies_in_memory(&self) -> usize {
        self.entries.metas().filter(|e| e.body_in_memory()).count()
    }
}

impl ContextEntries for SessionManager {
    fn count(&self) -> usize {
        self.entries.len()
    }
    fn position_of(&self, id: &str) -> Option<usize> {
        self.index.get(&self.entries, id)
    }
    fn parent_position(&self, position: usize) -> Option<usize> {
        let parent = self.entries.meta(position).parent_id()?;
        // In a chain the parent is the entry written just before: no lookup.
        match position.checked_sub(1) {
            Some(before) if self.ids_unique && self.entries.meta(before).id() == parent => {
                Some(before)
            }
            _ => self.index.get(&self.entries, parent),
        }
    }
    fn parent_id(&self, position: usize) -> Option<&str> {
        self.entries.meta(position).parent_id()
    }
    fn id(&self, position: usize) -> &str {
        self.entries.meta(position).id()
    }
    fn kind(&self, position: usize) -> &str {
        self.entries.meta(position).kind()
    }
    fn is_assistant(&self, position: usize) -> bool {
        self.entries.meta(position).is_assistant()
    }
    fn entry(&self, position: usize) -> Cow<'_, SessionEntry> {
        self.entries.load(position)
    }
}
