//! The head of an entry line: what the index keeps of an entry whose body stays
//! in the file (type, id, parent, time, a message's facts and the entry's
//! one-line preview), read without building the body. Every other field is
//! still checked for the shape its type requires, then dropped: a line read
//! this way is one the full reading accepts, with the same facts and preview.
//! Anything less certain (a tag that is not its object's first key, a type or
//! role not covered here, any shape error) is left to the full reading.

use std::marker::PhantomData;
use std::sync::Arc;

use serde::de::{self, Deserialize, Deserializer};

use super::blocks_head::{BlocksHead, ContentHead};
use super::entries::sniff_type;
use super::entry_names::EntryNames;
use super::head_json::{Any, Name, OneLine, ReadTagged, Str, TaggedVisitor};
use super::preview::{
    EntryPreview, PreviewKind, answer_is_quiet, assistant_parts, shell_line, tagged_line,
};
use crate::agent::conversation::MessageFacts;
use crate::ai::types::{StopReason, Usage};

/// What the index keeps of an entry read by its head.
#[derive(Debug)]
pub(super) struct EntryHead {
    /// The entry's type, id, parent id and timestamp.
    pub(super) names: EntryNames,
    /// A `message` entry's role, tool calls and usage.
    pub(super) facts: Option<MessageFacts>,
    /// Its one-line description.
    pub(super) preview: EntryPreview,
}

impl EntryHead {
    /// The head of `line` (one entry line, as written); `None` when the line is
    /// to be read in full.
    pub(super) fn read(line: &str) -> Option<EntryHead> {
        match sniff_type(line)? {
            "message" => {
                let entry: MessageLine = serde_json::from_str(line).ok()?;
                let (facts, preview) = entry.message.facts_and_preview();
                Some(entry.base.head("message", Some(facts), preview))
            }
            "branch_summary" => {
                let entry: BranchSummaryLine = serde_json::from_str(line).ok()?;
                let preview = plain(PreviewKind::BranchSummary, entry.summary.0);
                Some(entry.base.head("branch_summary", None, preview))
            }
            "custom_message" => {
                let entry: CustomMessageLine = serde_json::from_str(line).ok()?;
                let text = tagged_line(&entry.custom_type.0, &entry.content.0);
                let preview = plain(PreviewKind::CustomMessage, text);
                Some(entry.base.head("custom_message", None, preview))
            }
            "custom" => {
                let entry: CustomLine = serde_json::from_str(line).ok()?;
                let preview = plain(PreviewKind::Custom, entry.custom_type.0.into_owned());
                Some(entry.base.head("custom", None, preview))
            }
            _ => None,
        }
    }

    /// Whether this is a `message` entry holding an assistant message.
    pub(super) fn is_assistant(&self) -> bool {
        self.facts.as_ref().is_some_and(|f| f.role == "assistant")
    }
}

fn plain(kind: PreviewKind, text: String) -> EntryPreview {
    EntryPreview::from_parts(kind, text, false)
}

/// The fields every entry shares, as read.
struct Base<'a> {
    id: Name<'a>,
    parent_id: Option<Name<'a>>,
    timestamp: Name<'a>,
}

impl Base<'_> {
    fn head(
        self,
        kind: &'static str,
        facts: Option<MessageFacts>,
        preview: EntryPreview,
    ) -> EntryHead {
        EntryHead {
            names: EntryNames::new(
                kind,
                &self.id.0,
                self.parent_id.as_ref().map(|p| &*p.0),
                &self.timestamp.0,
            ),
            facts,
            preview,
        }
    }
}

/// Declares the head of an entry line: the entry's own fields and the shared
/// ones (`id`, `parentId`, `timestamp`), gathered into a [`Base`].
macro_rules! line_head {
    ($name:ident { $($own:tt)* }) => {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Raw<'a> {
            $($own)*
            #[serde(borrow)]
            id: Name<'a>,
            #[serde(borrow, default)]
            parent_id: Option<Name<'a>>,
            #[serde(borrow)]
            timestamp: Name<'a>,
        }
    };
}

/// A `message` line.
struct MessageLine<'a> {
    base: Base<'a>,
    message: MessageHead,
}

impl<'de> Deserialize<'de> for MessageLine<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        line_head!(MessageLine {
            message: MessageHead,
        });
        let raw = Raw::deserialize(deserializer)?;
        Ok(MessageLine {
            base: Base {
                id: raw.id,
                parent_id: raw.parent_id,
                timestamp: raw.timestamp,
            },
            message: raw.message,
        })
    }
}

/// A `branch_summary` line.
struct BranchSummaryLine<'a> {
    base: Base<'a>,
    summary: OneLine,
}

impl<'de> Deserialize<'de> for BranchSummaryLine<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        line_head!(BranchSummaryLine {
            #[serde(rename = "fromId")]
            _from_id: Str,
            summary: OneLine,
            #[serde(rename = "details", default)]
            _details: Option<Any>,
            #[serde(rename = "fromHook", default)]
            _from_hook: Option<bool>,
        });
        let raw = Raw::deserialize(deserializer)?;
        Ok(BranchSummaryLine {
            base: Base {
                id: raw.id,
                parent_id: raw.parent_id,
                timestamp: raw.timestamp,
            },
            summary: raw.summary,
        })
    }
}

/// A `custom_message` line.
struct CustomMessageLine<'a> {
    base: Base<'a>,
    custom_type: Name<'a>,
    content: ContentHead,
}

impl<'de> Deserialize<'de> for CustomMessageLine<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        line_head!(CustomMessageLine {
            #[serde(borrow)]
            custom_type: Name<'a>,
            content: ContentHead,
            #[serde(rename = "display")]
            _display: bool,
            #[serde(rename = "details", default)]
            _details: Option<Any>,
        });
        let raw = Raw::deserialize(deserializer)?;
        Ok(CustomMessageLine {
            base: Base {
                id: raw.id,
                parent_id: raw.parent_id,
                timestamp: raw.timestamp,
            },
            custom_type: raw.custom_type,
            content: raw.content,
        })
    }
}

/// A `custom` line.
struct CustomLine<'a> {
    base: Base<'a>,
    custom_type: Name<'a>,
}

impl<'de> Deserialize<'de> for CustomLine<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        line_head!(CustomLine {
            #[serde(borrow)]
            custom_type: Name<'a>,
            #[serde(rename = "data", default)]
            _data: Option<Any>,
        });
        let raw = Raw::deserialize(deserializer)?;
        Ok(CustomLine {
            base: Base {
                id: raw.id,
                parent_id: raw.parent_id,
                timestamp: raw.timestamp,
            },
            custom_type: raw.custom_type,
        })
    }
}

/// What the preview and the facts need of a message.
enum MessageHead {
    User(OneLine),
    Assistant(Box<AnswerHead>),
    ToolResult { tool: String, call_id: String },
    Shell(OneLine),
    Custom { custom_type: String, line: String },
    BranchSummary(OneLine),
}

/// What the preview and the facts need of an answer.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct AnswerHead {
    content: BlocksHead,
    #[serde(rename = "api", default)]
    _api: Str,
    #[serde(rename = "provider", default)]
    _provider: Str,
    #[serde(rename = "model", default)]
    _model: Str,
    #[serde(rename = "responseModel", default)]
    _response_model: Option<Str>,
    #[serde(rename = "responseId", default)]
    _response_id: Option<Str>,
    #[serde(default)]
    usage: Usage,
    #[serde(default)]
    stop_reason: StopReason,
    #[serde(default)]
    error_message: Option<OneLine>,
    #[serde(rename = "timestamp", default)]
    _timestamp: Any,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct UserHead {
    content: ContentHead,
    #[serde(rename = "timestamp", default)]
    _timestamp: Any,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolResultHead<'a> {
    #[serde(borrow)]
    tool_call_id: Name<'a>,
    #[serde(borrow)]
    tool_name: Name<'a>,
    #[serde(rename = "content")]
    _content: BlocksHead,
    #[serde(rename = "details", default)]
    _details: Option<Any>,
    #[serde(rename = "isError", default)]
    _is_error: bool,
    #[serde(rename = "timestamp", default)]
    _timestamp: Any,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ShellHead {
    command: OneLine,
    #[serde(rename = "output")]
    _output: Str,
    #[serde(rename = "exitCode", default)]
    _exit_code: Option<i32>,
    #[serde(rename = "cancelled", default)]
    _cancelled: bool,
    #[serde(rename = "truncated", default)]
    _truncated: bool,
    #[serde(rename = "fullOutputPath", default)]
    _full_output_path: Option<Str>,
    #[serde(rename = "excludeFromContext", default)]
    _exclude_from_context: Option<bool>,
    #[serde(rename = "timestamp", default)]
    _timestamp: Any,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct CustomHead<'a> {
    #[serde(borrow)]
    custom_type: Name<'a>,
    content: ContentHead,
    #[serde(rename = "display", default)]
    _display: bool,
    #[serde(rename = "details", default)]
    _details: Option<Any>,
    #[serde(rename = "timestamp", default)]
    _timestamp: Any,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct BranchSummaryHead {
    summary: OneLine,
    #[serde(rename = "fromId")]
    _from_id: Str,
    #[serde(rename = "timestamp", default)]
    _timestamp: Any,
}

impl<'de> ReadTagged<'de> for MessageHead {
    const TAG: &'static str = "role";

    fn read<D: Deserializer<'de>>(name: &str, rest: D) -> Result<Self, D::Error> {
        Ok(match name {
            "user" => MessageHead::User(UserHead::deserialize(rest)?.content.0.into()),
            "assistant" => MessageHead::Assistant(Box::new(AnswerHead::deserialize(rest)?)),
            "toolResult" => {
                let result = ToolResultHead::deserialize(rest)?;
                MessageHead::ToolResult {
                    tool: result.tool_name.0.into_owned(),
                    call_id: result.tool_call_id.0.into_owned(),
                }
            }
            "bashExecution" => MessageHead::Shell(ShellHead::deserialize(rest)?.command),
            "custom" | "hookMessage" => {
                let custom = CustomHead::deserialize(rest)?;
                MessageHead::Custom {
                    custom_type: custom.custom_type.0.into_owned(),
                    line: custom.content.0,
                }
            }
            "branchSummary" => {
                MessageHead::BranchSummary(BranchSummaryHead::deserialize(rest)?.summary)
            }
            _ => return Err(de::Error::custom("a role read in full")),
        })
    }
}

impl<'de> Deserialize<'de> for MessageHead {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TaggedVisitor::<MessageHead>(PhantomData))
    }
}

impl From<String> for OneLine {
    fn from(line: String) -> Self {
        OneLine(line)
    }
}

impl MessageHead {
    fn facts_and_preview(self) -> (MessageFacts, EntryPreview) {
        let facts = |role| MessageFacts {
            role,
            tool_calls: 0,
            usage: None,
        };
        match self {
            MessageHead::User(line) => (facts("user"), plain(PreviewKind::User, line.0)),
            MessageHead::Assistant(answer) => {
                let AnswerHead {
                    content,
                    usage,
                    stop_reason,
                    error_message,
                    ..
                } = *answer;
                let labels = content.labels;
                let first = content.first.unwrap_or_default();
                let quiet = answer_is_quiet(&first, stop_reason, error_message.is_some());
                let (kind, text) = assistant_parts(first, stop_reason, error_message.map(|e| e.0));
                let facts = MessageFacts {
                    role: "assistant",
                    tool_calls: content.tool_calls,
                    usage: Some(Arc::new(usage)),
                };
                let preview = EntryPreview::with_tail(kind, text, labels.as_str(), quiet);
                (facts, preview)
            }
            MessageHead::ToolResult { tool, call_id } => (
                facts("toolResult"),
                EntryPreview::with_tail(PreviewKind::ToolResult, tool, &call_id, false),
            ),
            MessageHead::Shell(command) => (
                facts("bashExecution"),
                plain(PreviewKind::Shell, shell_line(&command.0)),
            ),
            MessageHead::Custom { custom_type, line } => (
                facts("custom"),
                plain(PreviewKind::CustomMessage, tagged_line(&custom_type, &line)),
            ),
            MessageHead::BranchSummary(summary) => (
                facts("branchSummary"),
                plain(PreviewKind::BranchSummaryMessage, summary.0),
            ),
        }
    }
}

#[cfg(test)]
#[path = "entry_head_tests.rs"]
pub(super) mod tests;
