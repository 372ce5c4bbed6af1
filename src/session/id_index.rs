//! Finding an entry's position by its id. The table holds positions only: an
//! id is hashed where the store keeps it and compared there, so indexing a
//! long session allocates no string per entry.

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::store::EntryStore;

/// Positions of a store's entries, found by id. When two entries share an id,
/// the one indexed last is found.
#[derive(Debug, Default)]
pub(super) struct IdIndex {
    table: HashTable<usize>,
    hasher: DefaultHashBuilder,
}

impl IdIndex {
    /// Index every entry of `store` that has an id, in append order. Returns
    /// whether no two entries share an id.
    pub(super) fn rebuild(&mut self, store: &EntryStore) -> bool {
        self.table.clear();
        let hasher = &self.hasher;
        self.table
            .reserve(store.len(), |&at| hasher.hash_one(store.meta(at).id()));
        let mut unique = true;
        for position in 0..store.len() {
            if !store.meta(position).id().is_empty() {
                unique &= !self.insert(store, position);
            }
        }
        unique
    }

    /// The position of the entry with this id.
    pub(super) fn get(&self, store: &EntryStore, id: &str) -> Option<usize> {
        self.table
            .find(self.hasher.hash_one(id), |&at| store.meta(at).id() == id)
            .copied()
    }

    /// Whether an entry has this id.
    pub(super) fn contains(&self, store: &EntryStore, id: &str) -> bool {
        self.get(store, id).is_some()
    }

    /// Index the entry at `position` of `store` (already there) by its id;
    /// returns whether another entry had that id (it is found no longer).
    pub(super) fn insert(&mut self, store: &EntryStore, position: usize) -> bool {
        let id = store.meta(position).id();
        let hash = self.hasher.hash_one(id);
        if let Some(at) = self.table.find_mut(hash, |&at| store.meta(at).id() == id) {
            *at = position;
            return true;
        }
        let hasher = &self.hasher;
        self.table
            .insert_unique(hash, position, |&at| hasher.hash_one(store.meta(at).id()));
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::entries::{LabelEntry, SessionEntry};

    fn label(id: &str) -> SessionEntry {
        SessionEntry::Label(LabelEntry {
            id: id.to_string(),
            parent_id: None,
            timestamp: "2025-01-01T00:00:00.000Z".to_string(),
            target_id: "x".to_string(),
            label: None,
        })
    }

    fn store_of(ids: &[&str]) -> EntryStore {
        let mut store = EntryStore::default();
        for id in ids {
            store.push(label(id));
        }
        store
    }

    #[test]
    fn every_id_is_found_at_its_position_and_others_are_not() {
        let ids: Vec<String> = (0..5000).map(|n| format!("{n:08x}")).collect();
        let store = store_of(&ids.iter().map(String::as_str).collect::<Vec<_>>());
        let mut index = IdIndex::default();
        assert!(index.rebuild(&store));
        for (position, id) in ids.iter().enumerate() {
            assert_eq!(index.get(&store, id), Some(position));
        }
        assert_eq!(index.get(&store, "absent"), None);
        assert!(!index.contains(&store, "0000138g"));
    }

    #[test]
    fn a_shared_id_finds_the_entry_indexed_last() {
        let store = store_of(&["a", "b", "a", "", "c", ""]);
        let mut index = IdIndex::default();
        assert!(!index.rebuild(&store));
        assert_eq!(index.get(&store, "a"), Some(2));
        assert_eq!(index.get(&store, "b"), Some(1));
        assert_eq!(index.get(&store, ""), None);
    }

    #[test]
    fn entries_appended_after_a_rebuild_are_found() {
        let mut store = store_of(&["a", "b"]);
        let mut index = IdIndex::default();
        assert!(index.rebuild(&store));
        for n in 0..100 {
            store.push(label(&format!("n{n}")));
            assert!(!index.insert(&store, store.len() - 1));
        }
        store.push(label("b"));
        assert!(index.insert(&store, store.len() - 1));
        assert_eq!(index.get(&store, "n57"), Some(59));
        assert_eq!(index.get(&store, "b"), Some(102));
        assert!(index.contains(&store, "a"));
    }
}
