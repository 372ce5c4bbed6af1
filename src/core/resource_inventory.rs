//! What `/reload` can find again (extensions, skills, prompt templates, themes,
//! providers), each with a fingerprint of its content, so that a reload can say what
//! was added, changed and removed instead of only how many things it loaded.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Read;
use std::path::Path;

use crate::core::agent_session::AgentSession;

/// The kinds of resource a reload reports on, in the order they are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ResourceKind {
    /// Lua extension entry files.
    Extensions,
    /// `SKILL.md` skills.
    Skills,
    /// Prompt templates.
    Prompts,
    /// Theme files.
    Themes,
    /// Providers registered by extensions.
    Providers,
}

impl ResourceKind {
    /// The translated plural name (`extensions`, `skills`, ...).
    pub fn label(self) -> String {
        let key = match self {
            ResourceKind::Extensions => "pi.cmd.reload.kind.extensions",
            ResourceKind::Skills => "pi.cmd.reload.kind.skills",
            ResourceKind::Prompts => "pi.cmd.reload.kind.prompts",
            ResourceKind::Themes => "pi.cmd.reload.kind.themes",
            ResourceKind::Providers => "pi.cmd.reload.kind.providers",
        };
        crate::i18n::t(key, &[])
    }
}

/// Resources by kind: each one's shown name and a fingerprint of what it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourceInventory {
    kinds: BTreeMap<ResourceKind, BTreeMap<String, u64>>,
}

/// What changed in one kind between two inventories.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindChanges {
    /// Names new in the second inventory.
    pub added: Vec<String>,
    /// Names in both whose fingerprint differs.
    pub changed: Vec<String>,
    /// Names gone from the second inventory.
    pub removed: Vec<String>,
}

impl KindChanges {
    /// Nothing was added, changed or removed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }
}

impl ResourceInventory {
    /// Record `name` of `kind` with the fingerprint of `content`.
    pub fn insert(&mut self, kind: ResourceKind, name: String, content: impl Hash) {
        let mut hasher = DefaultHasher::new();
        content.hash(&mut hasher);
        self.kinds
            .entry(kind)
            .or_default()
            .insert(name, hasher.finish());
    }

    /// Record the file at `path` as `name` of `kind`, fingerprinted by its bytes (at most
    /// the first MiB; an unreadable file counts as empty).
    pub fn insert_file(&mut self, kind: ResourceKind, name: String, path: &Path) {
        let mut bytes = Vec::new();
        if let Ok(file) = std::fs::File::open(path) {
            let _ = file.take(1 << 20).read_to_end(&mut bytes);
        }
        self.insert(kind, name, bytes);
    }

    /// Take in every resource of `other` (another part of the same moment's inventory).
    pub fn absorb(&mut self, other: ResourceInventory) {
        for (kind, names) in other.kinds {
            self.kinds.entry(kind).or_default().extend(names);
        }
    }

    /// How many resources of `kind` there are.
    pub fn count(&self, kind: ResourceKind) -> usize {
        self.kinds.get(&kind).map_or(0, BTreeMap::len)
    }

    /// What changed from `self` to `after`, by kind; kinds without changes are left out.
    pub fn changes_to(&self, after: &ResourceInventory) -> Vec<(ResourceKind, KindChanges)> {
        let empty = BTreeMap::new();
        let mut kinds: Vec<ResourceKind> = self
            .kinds
            .keys()
            .chain(after.kinds.keys())
            .copied()
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
            .into_iter()
            .filter_map(|kind| {
                let old = self.kinds.get(&kind).unwrap_or(&empty);
                let new = after.kinds.get(&kind).unwrap_or(&empty);
                let changes = KindChanges {
                    added: new
                        .keys()
                        .filter(|n| !old.contains_key(*n))
                        .cloned()
                        .collect(),
                    changed: new
                        .iter()
                        .filter(|(n, f)| old.get(*n).is_some_and(|o| o != *f))
                        .map(|(n, _)| n.clone())
                        .collect(),
                    removed: old
                        .keys()
                        .filter(|n| !new.contains_key(*n))
                        .cloned()
                        .collect(),
                };
                (!changes.is_empty()).then_some((kind, changes))
            })
            .collect()
    }
}

/// The lines of a reload's report below its first: one per kind that changed, naming
/// what was added, changed and removed, or one saying nothing changed.
pub fn describe_changes(before: &ResourceInventory, after: &ResourceInventory) -> Vec<String> {
    let changes = before.changes_to(after);
    if changes.is_empty() {
        return vec![crate::t!("pi.cmd.reload.unchanged")];
    }
    changes
        .into_iter()
        .map(|(kind, c)| {
            let mut parts = Vec::new();
            for (names, key) in [
                (&c.added, "pi.cmd.reload.added"),
                (&c.changed, "pi.cmd.reload.updated"),
                (&c.removed, "pi.cmd.reload.removed"),
            ] {
                if !names.is_empty() {
                    parts.push(crate::t!(key, names = names.join(", ")));
                }
            }
            format!("{}: {}", kind.label(), parts.join("; "))
        })
        .collect()
}

impl AgentSession {
    /// The extensions, skills, prompt templates and extension providers loaded now.
    pub fn resource_inventory(&self) -> ResourceInventory {
        let mut inventory = ResourceInventory::default();
        for skill in &self.skills {
            inventory.insert_file(ResourceKind::Skills, skill.name.clone(), &skill.file_path);
        }
        for template in &self.templates {
            let name = format!("/{}", template.name);
            inventory.insert_file(ResourceKind::Prompts, name, &template.file_path);
        }
        if let Some(ext) = self.extensions() {
            for path in ext.handle.paths() {
                inventory.insert_file(ResourceKind::Extensions, shown_name(&path), &path);
            }
            for (name, definition) in &ext.view.lock().providers {
                inventory.insert(
                    ResourceKind::Providers,
                    name.clone(),
                    definition.to_string(),
                );
            }
        }
        inventory
    }
}

/// A file's name as listed: its file name, or for `index.lua` its folder's name.
pub fn shown_name(path: &Path) -> String {
    let file = path.file_name().map(|f| f.to_string_lossy().to_string());
    match file.as_deref() {
        Some("index.lua") | Some("init.lua") => path
            .parent()
            .and_then(Path::file_name)
            .map(|f| f.to_string_lossy().to_string())
            .unwrap_or_default(),
        Some(name) => name.to_string(),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_name_what_was_added_changed_and_removed_per_kind() {
        let mut before = ResourceInventory::default();
        before.insert(ResourceKind::Extensions, "a.lua".into(), "v1");
        before.insert(ResourceKind::Extensions, "b.lua".into(), "same");
        before.insert(ResourceKind::Skills, "old-skill".into(), "x");
        let mut after = ResourceInventory::default();
        after.insert(ResourceKind::Extensions, "a.lua".into(), "v2");
        after.insert(ResourceKind::Extensions, "b.lua".into(), "same");
        after.insert(ResourceKind::Extensions, "c.lua".into(), "new");
        let changes = before.changes_to(&after);
        assert_eq!(
            changes,
            vec![
                (
                    ResourceKind::Extensions,
                    KindChanges {
                        added: vec!["c.lua".into()],
                        changed: vec!["a.lua".into()],
                        removed: vec![],
                    }
                ),
                (
                    ResourceKind::Skills,
                    KindChanges {
                        added: vec![],
                        changed: vec![],
                        removed: vec!["old-skill".into()],
                    }
                ),
            ]
        );
        let lines = describe_changes(&before, &after);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].contains("c.lua") && lines[0].contains("a.lua"),
            "{lines:?}"
        );
        assert!(lines[1].contains("old-skill"), "{lines:?}");
        assert!(
            !lines.concat().contains("b.lua"),
            "an unchanged file is not listed"
        );
        // Nothing changed: one line says so.
        let same = describe_changes(&after, &after);
        assert_eq!(same.len(), 1);
        assert!(!same[0].contains("c.lua"), "{same:?}");
    }

    #[test]
    fn an_index_file_is_named_by_its_folder() {
        assert_eq!(shown_name(Path::new("/x/ext/tools/index.lua")), "tools");
        assert_eq!(shown_name(Path::new("/x/ext/hello.lua")), "hello.lua");
    }
}
