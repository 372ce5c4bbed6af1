//! The session as a tree of entries, for `/tree`-style navigation.

use std::collections::HashMap;

use super::entries::SessionEntry;
use super::ids::iso_to_ms;
use super::store::IndexedEntry;

/// What the tree needs of an entry: its id, parent and time. Both a full
/// entry and an index record ([`IndexedEntry`]) can be arranged.
pub trait TreeItem: Copy {
    /// The entry's id (empty when it has none).
    fn item_id(&self) -> &str;
    /// The entry's parent id.
    fn item_parent_id(&self) -> Option<&str>;
    /// When the entry was written (ISO 8601).
    fn item_timestamp(&self) -> &str;
}

impl TreeItem for &SessionEntry {
    fn item_id(&self) -> &str {
        self.id()
    }
    fn item_parent_id(&self) -> Option<&str> {
        self.parent_id()
    }
    fn item_timestamp(&self) -> &str {
        self.timestamp()
    }
}

impl TreeItem for IndexedEntry<'_> {
    fn item_id(&self) -> &str {
        self.id()
    }
    fn item_parent_id(&self) -> Option<&str> {
        self.parent_id()
    }
    fn item_timestamp(&self) -> &str {
        self.timestamp()
    }
}

/// One entry in a [`SessionTree`].
#[derive(Debug, Clone)]
pub struct SessionTreeNode<'a, E = &'a SessionEntry> {
    /// The entry (whole, or as the index holds it).
    pub entry: E,
    /// Indexes (into [`SessionTree::nodes`]) of its children, oldest first.
    pub children: Vec<usize>,
    /// The entry's current label, if any.
    pub label: Option<&'a str>,
    /// When that label was set (ISO 8601).
    pub label_timestamp: Option<&'a str>,
}

/// Every entry arranged by parent. Stored flat so arbitrarily deep sessions
/// never recurse.
#[derive(Debug, Clone)]
pub struct SessionTree<'a, E = &'a SessionEntry> {
    /// All nodes, in entry order.
    pub nodes: Vec<SessionTreeNode<'a, E>>,
    /// Indexes of root nodes: entries without a parent, or whose parent is
    /// missing (orphans).
    pub roots: Vec<usize>,
}

impl<E> Default for SessionTree<'_, E> {
    fn default() -> Self {
        SessionTree {
            nodes: Vec::new(),
            roots: Vec::new(),
        }
    }
}

impl<'a, E: TreeItem> SessionTree<'a, E> {
    /// Arrange `entries`; `label_of` gives an entry's label and its timestamp.
    pub fn build(
        entries: impl IntoIterator<Item = E>,
        label_of: impl Fn(&str) -> Option<(&'a str, &'a str)>,
    ) -> Self {
        let entries: Vec<E> = entries.into_iter().collect();
        let mut position: HashMap<&str, usize> = HashMap::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            if !entry.item_id().is_empty() {
                position.insert(entry.item_id(), index);
            }
        }
        Self::arrange(&entries, |id| position.get(id).copied(), label_of)
    }

    /// Arrange `entries` whose positions by id `position_of` gives (an index
    /// the caller already holds; an id used twice gives its last entry);
    /// `label_of` gives an entry's label and its timestamp.
    pub fn arrange(
        entries: &[E],
        position_of: impl Fn(&str) -> Option<usize>,
        label_of: impl Fn(&str) -> Option<(&'a str, &'a str)>,
    ) -> Self {
        let mut nodes: Vec<SessionTreeNode<'a, E>> = entries
            .iter()
            .map(|entry| {
                let label = label_of(entry.item_id());
                SessionTreeNode {
                    entry: *entry,
                    children: Vec::new(),
                    label: label.map(|(text, _)| text),
                    label_timestamp: label.map(|(_, time)| time),
                }
            })
            .collect();
        let mut roots = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            let parent = entry
                .item_parent_id()
                .filter(|parent| !parent.is_empty() && *parent != entry.item_id())
                .and_then(&position_of);
            match parent {
                Some(parent) => nodes[parent].children.push(index),
                None => roots.push(index),
            }
        }
        // Only siblings need their times: a chain is left as it is.
        for node in nodes.iter_mut().filter(|node| node.children.len() > 1) {
            node.children.sort_by_cached_key(|&child| {
                iso_to_ms(entries[child].item_timestamp()).unwrap_or(0)
            });
        }
        SessionTree { nodes, roots }
    }

    /// The children of a node.
    pub fn children_of(&self, node: usize) -> impl Iterator<Item = &SessionTreeNode<'a, E>> {
        self.nodes[node]
            .children
            .iter()
            .map(move |&child| &self.nodes[child])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, parent: Option<&str>, time: &str) -> SessionEntry {
        SessionEntry::parse_line(
            &serde_json::json!({
                "type": "session_info", "id": id, "parentId": parent, "timestamp": time, "name": id
            })
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn children_sorted_by_time_and_orphans_are_roots() {
        let entries = vec![
            entry("a", None, "2024-01-01T00:00:00.000Z"),
            entry("c", Some("a"), "2024-01-01T00:00:02.000Z"),
            entry("b", Some("a"), "2024-01-01T00:00:01.000Z"),
            entry("o", Some("missing"), "2024-01-01T00:00:03.000Z"),
        ];
        let tree = SessionTree::build(&entries, |id| (id == "b").then_some(("lbl", "t")));
        assert_eq!(tree.roots, vec![0, 3]);
        let kids: Vec<&str> = tree.children_of(0).map(|n| n.entry.id()).collect();
        assert_eq!(kids, ["b", "c"]);
        assert_eq!(tree.nodes[2].label, Some("lbl"));
    }

    #[test]
    fn the_index_tree_arranges_as_the_whole_entries_and_marks_the_branch() {
        let mut s = crate::session::SessionManager::in_memory(std::path::Path::new("/p"));
        let a = s.append_session_info("a");
        s.append_session_info("b");
        s.branch(&a).unwrap();
        s.append_session_info("c");
        s.append_label_change(&a, Some("start")).unwrap();
        let whole = s.get_tree();
        let index = s.index_tree();
        assert_eq!(index.roots, whole.roots);
        assert_eq!(index.nodes.len(), 4);
        for (i, w) in index.nodes.iter().zip(&whole.nodes) {
            assert_eq!(i.entry.id(), w.entry.id());
            assert_eq!(i.children, w.children);
            assert_eq!(i.label, w.label);
        }
        assert_eq!(index.nodes[0].children, [1, 2]);
        assert_eq!(index.nodes[0].label, Some("start"));
        assert_eq!(s.branch_mask(), [true, false, true, true]);
    }
}
