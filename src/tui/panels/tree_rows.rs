//! The session tree flattened into display rows for `/tree`: depth-first,
//! indented only where the conversation branches, each entry on one line.

use std::collections::HashMap;

use crate::t;

use crate::session::call_label::missing_call_label;
use crate::session::manager::SessionManager;
use crate::session::preview::{EntryPreview, PreviewKind};

/// What kind of entry a row shows (for filters and colours).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// A user message.
    User,
    /// A user shell command (`!cmd`).
    Shell,
    /// A model answer.
    Assistant,
    /// A tool result.
    ToolResult,
    /// A compaction or branch summary.
    Summary,
    /// An extension message in the context.
    Custom,
    /// Model, thinking, label, name and extension-state entries.
    Setting,
}

/// How a row's text is coloured, as pi colours it: the first `head` bytes (a lead
/// such as `user: `) in the theme token `lead`, the rest in `body` (`None`: the
/// terminal's own colour).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Paint {
    /// Bytes of the text drawn in `lead`.
    pub head: usize,
    /// Theme token of the lead.
    pub lead: Option<&'static str>,
    /// Theme token of the rest.
    pub body: Option<&'static str>,
}

impl Paint {
    /// The whole text in `token`.
    fn all(token: &'static str) -> Self {
        Paint {
            head: 0,
            lead: None,
            body: Some(token),
        }
    }

    /// `text`'s lead, as the message `key` writes it before `{text}`, in `lead`;
    /// the rest in `body`. No lead when the translation puts the text first.
    fn led(key: &str, text: &str, lead: &'static str, body: Option<&'static str>) -> Self {
        let before = crate::i18n::t(key, &[("text", crate::i18n::Arg::from(""))]);
        let head = if text.starts_with(before.as_str()) {
            before.len()
        } else {
            0
        };
        Paint {
            head,
            lead: Some(lead),
            body,
        }
    }
}

/// One entry of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeRow {
    /// Entry id.
    pub id: String,
    /// Indentation level (grows only below branch points).
    pub depth: usize,
    /// One-line description, e.g. `user: Hello`.
    pub text: String,
    /// Entry kind.
    pub kind: RowKind,
    /// How the text is coloured.
    pub paint: Paint,
    /// Current label.
    pub label: Option<String>,
    /// When the label was set.
    pub label_time: Option<String>,
    /// On the path from the root to the current leaf.
    pub on_path: bool,
    /// Index of the first row after this entry's descendants.
    pub subtree_end: usize,
    /// A model answer with nothing to read (only tool calls, no error): shown only where
    /// the conversation is, as in pi.
    pub quiet: bool,
    /// Files the run of this (user message) entry changed, per its checkpoints.
    pub files: usize,
}

/// The flattened tree and where the leaf is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeData {
    /// Rows in depth-first order.
    pub rows: Vec<TreeRow>,
    /// Row of the current leaf.
    pub leaf_row: Option<usize>,
}

/// A row's kind, text and colours, the text translated now from the preview the
/// index keeps.
fn describe(preview: &EntryPreview) -> (RowKind, String, Paint) {
    let text = preview.text();
    let user = "pi.tui.tree.user";
    let assistant = "pi.tui.tree.assistant";
    let answer = |body: String, tone: Option<&'static str>| {
        let line = t!("pi.tui.tree.assistant", text = body);
        let paint = Paint::led(assistant, &line, "success", tone);
        (RowKind::Assistant, line, paint)
    };
    match preview.kind() {
        PreviewKind::User => {
            let line = t!("pi.tui.tree.user", text = text);
            let paint = Paint::led(user, &line, "accent", None);
            (RowKind::User, line, paint)
        }
        PreviewKind::Assistant if text.is_empty() => {
            answer(t!("pi.tui.tree.no_content"), Some("muted"))
        }
        PreviewKind::Assistant => answer(text.to_string(), None),
        PreviewKind::AssistantAborted => answer(t!("pi.tui.tree.aborted"), Some("muted")),
        PreviewKind::AssistantError => answer(t!("pi.tui.tree.error", error = text), Some("error")),
        // The call's label replaces this once the whole tree is walked.
        PreviewKind::ToolResult => (
            RowKind::ToolResult,
            missing_call_label(text),
            Paint::all("muted"),
        ),
        PreviewKind::Shell => (RowKind::Shell, text.to_string(), Paint::all("dim")),
        PreviewKind::CustomMessage => {
            // `[type] text`: the bracketed type in the label colour.
            let head = match text.find("] ") {
                Some(at) if text.starts_with('[') => at + 2,
                _ => 0,
            };
            let paint = Paint {
                head,
                lead: Some("customMessageLabel"),
                body: None,
            };
            (RowKind::Custom, text.to_string(), paint)
        }
        PreviewKind::BranchSummaryMessage => {
            let key = "pi.tui.tree.branch_summary";
            let line = t!("pi.tui.tree.branch_summary", text = text);
            let paint = Paint::led(key, &line, "warning", None);
            (RowKind::Summary, line, paint)
        }
        PreviewKind::CompactionMessage => (
            RowKind::Summary,
            t!("pi.tui.tree.compaction", count = preview.count()),
            Paint::all("borderAccent"),
        ),
        PreviewKind::Compaction => (
            RowKind::Summary,
            t!("pi.tui.tree.compaction_entry", count = preview.count()),
            Paint::all("borderAccent"),
        ),
        PreviewKind::BranchSummary => {
            let key = "pi.tui.tree.branch_summary_entry";
            let line = t!("pi.tui.tree.branch_summary_entry", text = text);
            let paint = Paint::led(key, &line, "warning", None);
            (RowKind::Summary, line, paint)
        }
        kind => (RowKind::Setting, setting(preview, kind), Paint::all("dim")),
    }
}

/// The text of a settings-like entry (model, thinking level, label, name, extension state).
fn setting(preview: &EntryPreview, kind: PreviewKind) -> String {
    let text = preview.text();
    match kind {
        // pi shows the model's id alone.
        PreviewKind::Model => t!("pi.tui.tree.model", id = preview.model().1),
        PreviewKind::Thinking => t!("pi.tui.tree.thinking", level = text),
        PreviewKind::Label => t!("pi.tui.tree.label", label = text),
        PreviewKind::LabelCleared => t!("pi.tui.tree.label_cleared"),
        PreviewKind::Name => t!("pi.tui.tree.name", name = text),
        PreviewKind::Custom => t!("pi.tui.tree.custom", kind = text),
        _ => t!("pi.tui.tree.unknown"),
    }
}

/// A step of the depth-first walk in [`flatten`].
struct Visit {
    node: usize,
    depth: usize,
    /// Closes the node's subtree (records where it ends).
    exit: bool,
}

/// Flatten `session`'s tree. Children of an entry with several children
/// are indented one level; a single child continues at the same level. A tool
/// result shows the call that produced it, found by its id among the answers of
/// the whole tree (the last one listed wins when an id repeats), or `[tool]`.
/// Only the session's index is consulted: no entry body is read.
pub fn flatten(session: &SessionManager) -> TreeData {
    let tree = session.index_tree();
    // Which nodes are on the path to the leaf: their branch is listed first, as in pi.
    let on_path = session.branch_mask();
    let leaf = session.leaf_id();
    let mut data = TreeData {
        rows: Vec::with_capacity(tree.nodes.len()),
        leaf_row: None,
    };
    let mut stack: Vec<Visit> = Vec::new();
    let roots_depth = usize::from(tree.roots.len() > 1);
    push_children(&mut stack, &tree.roots, &on_path, roots_depth);
    let mut row_of_node = vec![usize::MAX; tree.nodes.len()];
    // Call id → label, and the rows of results waiting for theirs.
    let mut labels: HashMap<&str, &str> = HashMap::new();
    let mut results: Vec<(usize, &str)> = Vec::new();
    while let Some(visit) = stack.pop() {
        let Visit { node, depth, exit } = visit;
        if exit {
            let row = row_of_node[node];
            data.rows[row].subtree_end = data.rows.len();
            continue;
        }
        let n = &tree.nodes[node];
        let preview = n.entry.preview();
        let (kind, text, paint) = describe(preview);
        labels.extend(preview.tool_calls());
        if let Some(call_id) = preview.tool_call_id() {
            results.push((data.rows.len(), call_id));
        }
        let id = n.entry.id();
        if Some(id) == leaf {
            data.leaf_row = Some(data.rows.len());
        }
        row_of_node[node] = data.rows.len();
        data.rows.push(TreeRow {
            id: id.to_string(),
            depth,
            text,
            kind,
            paint,
            label: n.label.map(str::to_string),
            label_time: n.label_timestamp.map(str::to_string),
            on_path: on_path[node],
            subtree_end: 0,
            quiet: n.entry.preview().quiet(),
            files: 0,
        });
        stack.push(Visit {
            node,
            depth,
            exit: true,
        });
        let depth = depth + usize::from(n.children.len() > 1);
        push_children(&mut stack, &n.children, &on_path, depth);
    }
    for (row, call_id) in results {
        if let Some(label) = labels.get(call_id) {
            data.rows[row].text = (*label).to_string();
        }
    }
    data
}

/// Queue `children` (oldest first) to be visited next at `depth`: those on
/// the path to the leaf first, then the others, each in their order.
fn push_children(stack: &mut Vec<Visit>, children: &[usize], on_path: &[bool], depth: usize) {
    let others = children.iter().rev().filter(|&&c| !on_path[c]);
    let leading = children.iter().rev().filter(|&&c| on_path[c]);
    for &node in others.chain(leading) {
        stack.push(Visit {
            node,
            depth,
            exit: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{AssistantMessage, BashExecutionMessage};
    use crate::ai::types::{ContentBlock, Message, ToolResultMessage, UserMessage};
    use crate::tui::panels::tree_rows_tests::call;
    use crate::tui::panels::tree_selector::{TreeFilter, TreeSelector};

    /// hello → [bash call] → result → "done" → !ls → "thanks" → [read call] (leaf).
    fn with_tools() -> SessionManager {
        let mut s = SessionManager::in_memory(std::path::Path::new("/p"));
        s.append_message(Message::User(UserMessage::text("hello")));
        s.append_message(call(
            "c1",
            "bash",
            serde_json::json!({"command": "echo hi"}),
        ));
        s.append_message(Message::ToolResult(ToolResultMessage {
            tool_call_id: "c1".into(),
            tool_name: "bash".into(),
            content: vec![ContentBlock::text("hi")],
            details: None,
            is_error: false,
            timestamp: 0,
        }));
        let mut done = AssistantMessage::empty("x", "p", "m");
        done.content.push(ContentBlock::text("done"));
        s.append_message(Message::Assistant(done));
        s.append_message(Message::BashExecution(BashExecutionMessage {
            command: "ls".into(),
            output: "a.txt".into(),
            exit_code: Some(0),
            cancelled: false,
            truncated: false,
            full_output_path: None,
            exclude_from_context: None,
            timestamp: 0,
        }));
        s.append_message(Message::User(UserMessage::text("thanks")));
        s.append_message(call("c2", "read", serde_json::json!({"path": "a.txt"})));
        s
    }

    fn shown(filter: TreeFilter) -> Vec<String> {
        let data = flatten(&with_tools());
        let t = TreeSelector::new(data.clone(), filter);
        t.visible_rows()
            .iter()
            .map(|&r| data.rows[r].text.clone())
            .collect()
    }

    #[test]
    fn answers_with_only_tool_calls_show_only_where_the_conversation_is() {
        assert_eq!(
            shown(TreeFilter::Default),
            [
                "user: hello",
                "[bash: echo hi]",
                "assistant: done",
                "!ls",
                "user: thanks",
                "assistant: (no content)",
            ]
        );
        assert_eq!(shown(TreeFilter::All).len(), 6, "hidden in every filter");
    }

    #[test]
    fn a_row_too_long_for_the_width_ends_with_three_dots() {
        let t = TreeSelector::new(flatten(&with_tools()), TreeFilter::All);
        let lines: Vec<String> = t
            .lines(&crate::ui_kit::theme::Theme::plain(), 16)
            .iter()
            .map(|l| l.to_string())
            .collect();
        let row = lines.iter().find(|l| l.contains("[bash: ")).unwrap();
        assert_eq!(row, "  • [bash: ec...", "{lines:#?}");
    }

    #[test]
    fn shell_commands_are_not_user_messages() {
        assert_eq!(shown(TreeFilter::UserOnly), ["user: hello", "user: thanks"]);
        assert!(shown(TreeFilter::NoTools).contains(&"!ls".to_string()));
    }

    #[test]
    fn messages_whose_runs_changed_files_are_marked_with_the_count() {
        let mut data = flatten(&with_tools());
        let a = data
            .rows
            .iter()
            .position(|r| r.text.contains("hello"))
            .unwrap();
        data.rows[a].files = 3;
        let id = data.rows[a].id.clone();
        let t = TreeSelector::new(data, TreeFilter::All);
        assert_eq!(t.files_of(&id), 3);
        let lines: Vec<String> = t
            .lines(&crate::ui_kit::theme::Theme::plain(), 120)
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.to_string()).collect())
            .collect();
        let marked: Vec<&String> = lines.iter().filter(|l| l.contains("[files: 3]")).collect();
        assert_eq!(marked.len(), 1, "{lines:#?}");
        assert!(marked[0].contains("hello"));
    }
}
