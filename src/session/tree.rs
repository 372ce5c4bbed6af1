//! The session as a tree of entries, for `/tree`-style navigation.

use std::collections::HashMap;

use super::entries::SessionEntry;
use super::ids::iso_to_ms;

/// One entry in a [`SessionTree`].
#[derive(Debug, Clone)]
pub struct SessionTreeNode<'a> {
    /// The entry.
    pub entry: &'a SessionEntry,
    /// Indexes (into [`SessionTree::nodes`]) of its children, oldest first.
    pub children: Vec<usize>,
    /// The entry's current label, if any.
    pub label: Option<&'a str>,
    /// When that label was set (ISO 8601).
    pub label_timestamp: Option<&'a str>,
}

/// Every entry arranged by parent. Stored flat so arbitrarily deep sessions
/// never recurse.
#[derive(Debug, Clone, Default)]
pub struct SessionTree<'a> {
    /// All nodes, in entry order.
    pub nodes: Vec<SessionTreeNode<'a>>,
    /// Indexes of root nodes: entries without a parent, or whose parent is
    /// missing (orphans).
    pub roots: Vec<usize>,
}

impl<'a> SessionTree<'a> {
    /// Arrange `entries`; `label_of` gives an entry's label and its timestamp.
    pub fn build(
        entries: impl IntoIterator<Item = &'a SessionEntry>,
        label_of: impl Fn(&str) -> Option<(&'a str, &'a str)>,
    ) -> Self {
        let entries: Vec<&'a SessionEntry> = entries.into_iter().collect();
        let mut position: HashMap<&str, usize> = HashMap::with_capacity(entries.len());
        let mut nodes = Vec::with_capacity(entries.len());
        for (index, &entry) in entries.iter().enumerate() {
            let label = label_of(entry.id());
            nodes.push(SessionTreeNode {
                entry,
                children: Vec::new(),
                label: label.map(|(text, _)| text),
                label_timestamp: label.map(|(_, time)| time),
            });
            if !entry.id().is_empty() {
                position.insert(entry.id(), index);
            }
        }
        let mut roots = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            let parent = entry
                .parent_id()
                .filter(|parent| *parent != entry.id())
                .and_then(|parent| position.get(parent).copied());
            match parent {
                Some(parent) => nodes[parent].children.push(index),
                None => roots.push(index),
            }
        }
        let times: Vec<i64> = entries
            .iter()
            .map(|entry| iso_to_ms(entry.timestamp()).unwrap_or(0))
            .collect();
        for node in &mut nodes {
            node.children.sort_by_key(|&child| times[child]);
        }
        SessionTree { nodes, roots }
    }

    /// The children of a node.
    pub fn children_of(&self, node: usize) -> impl Iterator<Item = &SessionTreeNode<'a>> {
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
}
