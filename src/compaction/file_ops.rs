//! Files read and modified, tracked from `read`/`write`/`edit` tool calls and
//! carried from one summary to the next through entry `details`.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::ai::types::{ContentBlock, Message};

/// File paths touched by tool calls.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileOps {
    /// Paths passed to `read`.
    pub read: BTreeSet<String>,
    /// Paths passed to `write`.
    pub written: BTreeSet<String>,
    /// Paths passed to `edit`.
    pub edited: BTreeSet<String>,
}

impl FileOps {
    /// Record the file operations of an assistant message's tool calls.
    pub fn add_message(&mut self, message: &Message) {
        let Message::Assistant(assistant) = message else {
            return;
        };
        for block in &assistant.content {
            let ContentBlock::ToolCall(call) = block else {
                continue;
            };
            let Some(path) = call.arguments.get("path").and_then(Value::as_str) else {
                continue;
            };
            let set = match call.name.as_str() {
                "read" => &mut self.read,
                "write" => &mut self.written,
                "edit" => &mut self.edited,
                _ => continue,
            };
            set.insert(path.to_string());
        }
    }

    /// Merge `readFiles`/`modifiedFiles` from an earlier summary's details.
    pub fn add_details(&mut self, details: Option<&Value>) {
        let Some(details) = details else {
            return;
        };
        let strings = |key: &str| -> Vec<String> {
            details
                .get(key)
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        self.read.extend(strings("readFiles"));
        self.edited.extend(strings("modifiedFiles"));
    }

    /// Files only read (never modified), and files modified; both sorted.
    pub fn file_lists(&self) -> (Vec<String>, Vec<String>) {
        let modified: BTreeSet<&String> = self.edited.iter().chain(&self.written).collect();
        let read_only = self
            .read
            .iter()
            .filter(|f| !modified.contains(f))
            .cloned()
            .collect();
        (read_only, modified.into_iter().cloned().collect())
    }

    /// `{readFiles, modifiedFiles}` as stored in entry details.
    pub fn details(&self) -> Value {
        let (read, modified) = self.file_lists();
        json!({"readFiles": read, "modifiedFiles": modified})
    }

    /// The `<read-files>` / `<modified-files>` blocks appended to a summary
    /// (empty when no file was touched).
    pub fn format(&self) -> String {
        let (read, modified) = self.file_lists();
        let mut sections = Vec::new();
        if !read.is_empty() {
            sections.push(format!("<read-files>\n{}\n</read-files>", read.join("\n")));
        }
        if !modified.is_empty() {
            sections.push(format!(
                "<modified-files>\n{}\n</modified-files>",
                modified.join("\n")
            ));
        }
        if sections.is_empty() {
            String::new()
        } else {
            format!("\n\n{}", sections.join("\n\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{AssistantMessage, ToolCall};

    fn calls(list: &[(&str, &str)]) -> Message {
        let mut a = AssistantMessage::empty("x", "p", "m");
        a.content = list
            .iter()
            .map(|(name, path)| {
                ContentBlock::ToolCall(ToolCall {
                    id: "c".into(),
                    name: name.to_string(),
                    arguments: json!({"path": path}),
                    thought_signature: None,
                    raw_arguments: None,
                })
            })
            .collect();
        Message::Assistant(a)
    }

    #[test]
    fn modified_files_are_not_listed_as_read() {
        let mut ops = FileOps::default();
        ops.add_message(&calls(&[
            ("read", "b.rs"),
            ("read", "a.rs"),
            ("edit", "a.rs"),
            ("write", "c.rs"),
            ("bash", "ignored"),
        ]));
        ops.add_details(Some(
            &json!({"readFiles": ["old.rs"], "modifiedFiles": ["m.rs"]}),
        ));
        assert_eq!(
            ops.details(),
            json!({"readFiles": ["b.rs", "old.rs"], "modifiedFiles": ["a.rs", "c.rs", "m.rs"]})
        );
        assert_eq!(
            ops.format(),
            "\n\n<read-files>\nb.rs\nold.rs\n</read-files>\n\n<modified-files>\na.rs\nc.rs\nm.rs\n</modified-files>"
        );
        assert_eq!(FileOps::default().format(), "");
    }
}
