//! The session header and every entry type, serialised field for field as
//! pi writes them (camelCase keys in pi's order, absent optionals omitted).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::ai::types::{Message, UserContent};

/// The session format version written by this crate.
pub const CURRENT_SESSION_VERSION: u32 = 3;

/// First line of a session file: metadata, not part of the entry tree.
/// Reading one requires `"type":"session"` and a string `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename = "session",
    rename_all = "camelCase",
    try_from = "RawHeader"
)]
pub struct SessionHeader {
    /// Format version; 1 when absent (v1 files).
    pub version: u32,
    /// Session id (a UUID).
    pub id: String,
    /// Creation time, ISO 8601.
    pub timestamp: String,
    /// Working directory the session belongs to (empty in old sessions).
    pub cwd: String,
    /// Path of the session this one was forked or cloned from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_session: Option<String>,
}

/// A header as read, before its type is checked.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawHeader {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    version: Option<Value>,
    id: String,
    #[serde(default)]
    timestamp: Option<Value>,
    #[serde(default)]
    cwd: Option<Value>,
    #[serde(default)]
    parent_session: Option<Value>,
}

impl TryFrom<RawHeader> for SessionHeader {
    type Error = String;

    fn try_from(raw: RawHeader) -> Result<Self, Self::Error> {
        if raw.kind != "session" {
            return Err(format!(
                "expected a session header, found type {}",
                raw.kind
            ));
        }
        let text = |value: Option<Value>| match value {
            Some(Value::String(text)) => Some(text),
            _ => None,
        };
        Ok(SessionHeader {
            version: raw
                .version
                .and_then(|v| v.as_u64())
                .and_then(|v| u32::try_from(v).ok())
                .unwrap_or(1),
            id: raw.id,
            timestamp: text(raw.timestamp).unwrap_or_default(),
            cwd: text(raw.cwd).unwrap_or_default(),
            parent_session: text(raw.parent_session),
        })
    }
}

/// Declares an entry struct: the fields every entry shares (`id`, `parentId`,
/// `timestamp`) and then its own, or its own first when followed by `base last`.
macro_rules! entry_struct {
    ($(#[$meta:meta])* $name:ident { $($own:tt)* }) => {
        entry_struct!(@build [$(#[$meta])*] $name [] [$($own)*]);
    };
    ($(#[$meta:meta])* $name:ident { $($own:tt)* } base last) => {
        entry_struct!(@build [$(#[$meta])*] $name [$($own)*] []);
    };
    (@build [$(#[$meta:meta])*] $name:ident [$($before:tt)*] [$($after:tt)*]) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $($before)*
            /// Entry id (8 hex chars).
            pub id: String,
            /// Parent entry id, `None` for a root.
            #[serde(default)]
            pub parent_id: Option<String>,
            /// ISO 8601 creation time.
            pub timestamp: String,
            $($after)*
        }
    };
}

entry_struct! {
    /// A conversation message (`type: "message"`).
    MessageEntry {
        /// The message.
        pub message: Message,
    }
}

entry_struct! {
    /// A thinking level switch (`type: "thinking_level_change"`).
    ThinkingLevelChangeEntry {
        /// The new level as written (`off`, `minimal`, ... `xhigh`).
        pub thinking_level: String,
    }
}

entry_struct! {
    /// A model switch (`type: "model_change"`).
    ModelChangeEntry {
        /// Provider name.
        pub provider: String,
        /// Model id.
        pub model_id: String,
    }
}

entry_struct! {
    /// A context compaction (`type: "compaction"`).
    CompactionEntry {
        /// Summary of the compacted history.
        pub summary: String,
        /// First entry kept verbatim after the summary.
        #[serde(default)]
        pub first_kept_entry_id: String,
        /// Context size before compaction.
        pub tokens_before: u64,
        /// Implementation data (`{readFiles, modifiedFiles}` by default).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub details: Option<Value>,
        /// True when an extension produced the compaction.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub from_hook: Option<bool>,
    }
}

entry_struct! {
    /// Summary of an abandoned branch (`type: "branch_summary"`).
    BranchSummaryEntry {
        /// Leaf of the abandoned branch, or `root`.
        pub from_id: String,
        /// The summary text.
        pub summary: String,
        /// File tracking data or extension data.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub details: Option<Value>,
        /// True when an extension produced the summary.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub from_hook: Option<bool>,
    }
}

entry_struct! {
    /// Extension state, never sent to the model (`type: "custom"`).
    CustomEntry {
        /// Extension-defined type.
        pub custom_type: String,
        /// Extension data.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub data: Option<Value>,
    } base last
}

entry_struct! {
    /// An extension message that is part of the model context (`type: "custom_message"`).
    CustomMessageEntry {
        /// Extension-defined type.
        pub custom_type: String,
        /// Text or text/image blocks.
        pub content: UserContent,
        /// Whether the UI shows it.
        pub display: bool,
        /// Extension metadata, not sent to the model.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub details: Option<Value>,
    } base last
}

entry_struct! {
    /// A user bookmark on another entry (`type: "label"`).
    LabelEntry {
        /// The labelled entry.
        pub target_id: String,
        /// The label; absent or empty clears it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub label: Option<String>,
    }
}

entry_struct! {
    /// Session metadata such as the display name (`type: "session_info"`).
    SessionInfoEntry {
        /// Display name; absent or empty clears it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
    }
}

/// Declares [`SessionEntry`] with a variant per entry type and its `type`
/// name, and the lookups between the two.
macro_rules! session_entry {
    ($($(#[$doc:meta])* $variant:ident($entry:ident) = $kind:literal,)*) => {
        /// One line of a session file after the header.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(tag = "type")]
        pub enum SessionEntry {
            $(
                $(#[$doc])*
                #[serde(rename = $kind)]
                $variant($entry),
            )*
            /// An entry of a type this version does not know (or cannot read),
            /// kept verbatim so it survives a load and a rewrite.
            #[serde(untagged)]
            Unknown(Value),
        }

        /// The `type` of every known entry.
        pub(super) const KNOWN_TYPES: &[&str] = &[$($kind),*];

        impl SessionEntry {
            /// The type and the fields every entry shares (an unknown entry's
            /// as its JSON has them, empty when it has none).
            fn base(&self) -> EntryBase<'_> {
                match self {
                    $(SessionEntry::$variant(e) => EntryBase {
                        kind: $kind,
                        id: &e.id,
                        parent_id: e.parent_id.as_deref(),
                        timestamp: &e.timestamp,
                    },)*
                    SessionEntry::Unknown(raw) => EntryBase {
                        kind: raw_str(raw, "type").unwrap_or(""),
                        id: raw_str(raw, "id").unwrap_or(""),
                        parent_id: raw_str(raw, "parentId"),
                        timestamp: raw_str(raw, "timestamp").unwrap_or(""),
                    },
                }
            }
        }

        /// The entry of the known type `kind` read from `source`; `None` for
        /// another type or when the entry does not have its type's shape.
        fn read_typed(kind: &str, source: impl EntrySource) -> Option<SessionEntry> {
            match kind {
                $($kind => source.read().map(SessionEntry::$variant),)*
                _ => None,
            }
        }
    };
}

session_entry! {
    /// `message`
    Message(MessageEntry) = "message",
    /// `thinking_level_change`
    ThinkingLevelChange(ThinkingLevelChangeEntry) = "thinking_level_change",
    /// `model_change`
    ModelChange(ModelChangeEntry) = "model_change",
    /// `compaction`
    Compaction(CompactionEntry) = "compaction",
    /// `branch_summary`
    BranchSummary(BranchSummaryEntry) = "branch_summary",
    /// `custom`
    Custom(CustomEntry) = "custom",
    /// `custom_message`
    CustomMessage(CustomMessageEntry) = "custom_message",
    /// `label`
    Label(LabelEntry) = "label",
    /// `session_info`
    SessionInfo(SessionInfoEntry) = "session_info",
}

/// Borrowed view of the type and the fields shared by all entry types.
struct EntryBase<'a> {
    kind: &'a str,
    id: &'a str,
    parent_id: Option<&'a str>,
    timestamp: &'a str,
}

/// What a typed entry is read from: a JSON line or an already-parsed value.
trait EntrySource {
    /// The entry as a `T`; `None` when it does not have that shape.
    fn read<T: DeserializeOwned>(self) -> Option<T>;
}

impl EntrySource for &str {
    fn read<T: DeserializeOwned>(self) -> Option<T> {
        serde_json::from_str(self).ok()
    }
}

impl EntrySource for &Value {
    fn read<T: DeserializeOwned>(self) -> Option<T> {
        T::deserialize(self).ok()
    }
}

impl SessionEntry {
    /// The entry's `type` as written.
    pub fn type_name(&self) -> &str {
        self.base().kind
    }

    /// True for an entry of a known type whose shape could not be read (it
    /// is kept as [`SessionEntry::Unknown`] so that nothing is lost).
    pub fn is_unreadable(&self) -> bool {
        matches!(self, SessionEntry::Unknown(_)) && KNOWN_TYPES.contains(&self.type_name())
    }

    /// The entry id; empty for an unknown entry that carries none.
    pub fn id(&self) -> &str {
        self.base().id
    }

    /// The parent entry id, `None` for a root.
    pub fn parent_id(&self) -> Option<&str> {
        self.base().parent_id
    }

    /// The ISO 8601 creation time (empty when an unknown entry has none).
    pub fn timestamp(&self) -> &str {
        self.base().timestamp
    }

    /// The message of a `message` entry.
    pub fn as_message(&self) -> Option<&Message> {
        match self {
            SessionEntry::Message(e) => Some(&e.message),
            _ => None,
        }
    }

    /// True for a `message` entry (any role).
    pub fn is_message(&self) -> bool {
        matches!(self, SessionEntry::Message(_))
    }

    /// True for a `message` entry holding an assistant message.
    pub fn is_assistant_message(&self) -> bool {
        matches!(self, SessionEntry::Message(e) if matches!(e.message, Message::Assistant(_)))
    }

    /// Parse one JSON line. Returns `None` when the line is not valid JSON
    /// (or not an object); a well-formed line of an unknown or unreadable
    /// type becomes [`SessionEntry::Unknown`].
    pub fn parse_line(line: &str) -> Option<SessionEntry> {
        let typed = match sniff_type(line) {
            Some(kind) => read_typed(kind, line),
            None => serde_json::from_str::<TypeProbe>(line)
                .ok()
                .and_then(|probe| read_typed(probe.kind.as_deref().unwrap_or(""), line)),
        };
        if typed.is_some() {
            return typed;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(raw @ Value::Object(_)) => Some(SessionEntry::Unknown(raw)),
            _ => None,
        }
    }

    /// Convert an already-parsed JSON object (unknown or unreadable types
    /// become [`SessionEntry::Unknown`]).
    pub fn from_value(raw: Value) -> SessionEntry {
        let kind = raw.get("type").and_then(Value::as_str).unwrap_or("");
        read_typed(kind, &raw).unwrap_or(SessionEntry::Unknown(raw))
    }

    /// The entry as one JSON line (no trailing newline).
    #[expect(
        clippy::expect_used,
        reason = "these types serialise to JSON without fail (string keys only)"
    )]
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("session entries always serialise")
    }
}

impl<'de> Deserialize<'de> for SessionEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(SessionEntry::from_value)
    }
}

fn raw_str<'a>(raw: &'a Value, key: &str) -> Option<&'a str> {
    raw.get(key).and_then(Value::as_str)
}

#[derive(Deserialize)]
struct TypeProbe<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<std::borrow::Cow<'a, str>>,
}

/// Fast path for lines written by pi or this crate, which start with the type.
pub(super) fn sniff_type(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("{\"type\":\"")?;
    let end = rest.find('"')?;
    let kind = &rest[..end];
    (!kind.contains('\\')).then_some(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_serialises_in_pi_key_order() {
        let header = SessionHeader {
            version: 3,
            id: "abc".into(),
            timestamp: "2024-12-03T14:00:00.000Z".into(),
            cwd: "/p".into(),
            parent_session: None,
        };
        assert_eq!(
            serde_json::to_string(&header).unwrap(),
            r#"{"type":"session","version":3,"id":"abc","timestamp":"2024-12-03T14:00:00.000Z","cwd":"/p"}"#
        );
    }

    #[test]
    fn header_requires_session_type_and_string_id() {
        assert!(serde_json::from_str::<SessionHeader>(r#"{"type":"message","id":"x"}"#).is_err());
        assert!(serde_json::from_str::<SessionHeader>(r#"{"type":"session","id":5}"#).is_err());
        assert!(serde_json::from_str::<SessionHeader>(r#"{"id":"x"}"#).is_err());
    }

    #[test]
    fn header_without_version_is_v1() {
        let header: SessionHeader =
            serde_json::from_str(r#"{"type":"session","id":"x","timestamp":"t"}"#).unwrap();
        assert_eq!(header.version, 1);
        assert_eq!(header.cwd, "");
    }

    #[test]
    fn custom_entry_puts_base_fields_last() {
        let line = r#"{"type":"custom","customType":"ext","data":{"n":1},"id":"a1b2c3d4","parentId":null,"timestamp":"t"}"#;
        let entry = SessionEntry::parse_line(line).unwrap();
        assert!(matches!(entry, SessionEntry::Custom(_)));
        assert_eq!(entry.to_json_line(), line);
    }

    #[test]
    fn unknown_type_is_kept_verbatim() {
        let line =
            r#"{"type":"future_thing","id":"deadbeef","parentId":"a","timestamp":"t","x":[1,2]}"#;
        let entry = SessionEntry::parse_line(line).unwrap();
        assert!(matches!(entry, SessionEntry::Unknown(_)));
        assert_eq!(entry.id(), "deadbeef");
        assert_eq!(entry.parent_id(), Some("a"));
        assert_eq!(entry.type_name(), "future_thing");
        assert_eq!(entry.to_json_line(), line);
    }

    #[test]
    fn unreadable_known_type_is_kept_as_unknown() {
        let line = r#"{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"alien"}}"#;
        let entry = SessionEntry::parse_line(line).unwrap();
        assert!(matches!(entry, SessionEntry::Unknown(_)));
        assert_eq!(entry.to_json_line(), line);
    }

    #[test]
    fn malformed_json_is_rejected() {
        assert!(SessionEntry::parse_line(r#"{"type":"message","id":"#).is_none());
        assert!(SessionEntry::parse_line("[1,2]").is_none());
    }

    #[test]
    fn type_need_not_come_first() {
        let line = r#"{"id":"a","type":"label","parentId":null,"timestamp":"t","targetId":"b","label":"x"}"#;
        let entry = SessionEntry::parse_line(line).unwrap();
        assert!(matches!(entry, SessionEntry::Label(ref l) if l.label.as_deref() == Some("x")));
    }
}
