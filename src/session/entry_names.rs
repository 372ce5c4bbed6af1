//! An indexed entry's type, id, parent id and timestamp, kept in one allocation
//! (the type of a known entry in none): a long session's index holds one per
//! entry.

use std::borrow::Cow;

use super::entries::KNOWN_TYPES;

/// The names an index record keeps of its entry.
#[derive(Debug, Clone)]
pub(super) struct EntryNames {
    kind: Cow<'static, str>,
    /// The id, the parent id (when there is one) and the timestamp, one after another.
    text: Box<str>,
    id_end: usize,
    parent_end: usize,
    has_parent: bool,
}

impl EntryNames {
    /// The names of an entry of type `kind`.
    pub(super) fn new(kind: &str, id: &str, parent_id: Option<&str>, timestamp: &str) -> Self {
        let kind = match KNOWN_TYPES.iter().find(|known| **known == kind) {
            Some(known) => Cow::Borrowed(*known),
            None => Cow::Owned(kind.to_string()),
        };
        let parent = parent_id.unwrap_or("");
        let mut text = String::with_capacity(id.len() + parent.len() + timestamp.len());
        text.push_str(id);
        text.push_str(parent);
        text.push_str(timestamp);
        EntryNames {
            kind,
            text: text.into_boxed_str(),
            id_end: id.len(),
            parent_end: id.len() + parent.len(),
            has_parent: parent_id.is_some(),
        }
    }

    /// The entry's `type`.
    pub(super) fn kind(&self) -> &str {
        &self.kind
    }

    /// The entry's id.
    pub(super) fn id(&self) -> &str {
        &self.text[..self.id_end]
    }

    /// The entry's parent id.
    pub(super) fn parent_id(&self) -> Option<&str> {
        self.has_parent
            .then(|| &self.text[self.id_end..self.parent_end])
    }

    /// When the entry was written.
    pub(super) fn timestamp(&self) -> &str {
        &self.text[self.parent_end..]
    }
}

#[cfg(test)]
mod tests {
    use super::EntryNames;

    #[test]
    fn names_read_back_as_given() {
        let names = EntryNames::new("message", "a1", Some("p"), "2025-01-01T00:00:00.000Z");
        assert_eq!(names.kind(), "message");
        assert_eq!(names.id(), "a1");
        assert_eq!(names.parent_id(), Some("p"));
        assert_eq!(names.timestamp(), "2025-01-01T00:00:00.000Z");
        let root = EntryNames::new("x-ext", "", Some(""), "");
        assert_eq!(root.kind(), "x-ext");
        assert_eq!(
            (root.id(), root.parent_id(), root.timestamp()),
            ("", Some(""), "")
        );
        let orphan = EntryNames::new("label", "é", None, "t");
        assert_eq!(
            (orphan.id(), orphan.parent_id(), orphan.timestamp()),
            ("é", None, "t")
        );
    }
}
