//! A short description of one entry, kept in the session index so that the
//! tree of a long session can be listed without reading any body back from
//! the file. Only the untranslated parts are kept (the locale can change
//! before the tree is shown): the kind of line, the first words of its text,
//! whether an answer has nothing to read, and what ties a tool result to the
//! call that produced it (an answer's calls with their labels, a result's call id).

use serde::{Deserialize, Serialize};

use crate::ai::types::{ContentBlock, Message, StopReason, UserContent};

use super::call_label::{call_label, home};
use super::entries::SessionEntry;

/// Longest one-line text kept per entry (in characters, before the `…`): pi cuts a
/// tree row's text at 200 characters.
pub const PREVIEW_CHARS: usize = 200;

/// What an entry's line says, and so how its [`EntryPreview::text`] is read.
/// A session's kept index stores a kind by its position: a new kind goes last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PreviewKind {
    /// A user message; text: its first words.
    User,
    /// A model answer; text: its first words, empty when it has none (and
    /// was neither stopped nor failed). Its calls' labels are kept too
    /// ([`EntryPreview::tool_calls`]).
    Assistant,
    /// A model answer with no text that failed (and was not stopped); text:
    /// the error's first words.
    AssistantError,
    /// A tool result; text: the tool's name. It also keeps the id of the
    /// call it answers ([`EntryPreview::tool_call_id`]).
    ToolResult,
    /// A user shell command; text: the whole line, `!command`.
    Shell,
    /// An extension message (in a message or a `custom_message` entry); text:
    /// the whole line, `[type] first words`.
    CustomMessage,
    /// A branch summary carried as a message; text: its first words.
    BranchSummaryMessage,
    /// A compaction summary carried as a message; text: the tokens before it.
    CompactionMessage,
    /// A `compaction` entry; text: the tokens before it.
    Compaction,
    /// A `branch_summary` entry; text: its first words.
    BranchSummary,
    /// A model change; text: see [`EntryPreview::model`].
    Model,
    /// A thinking level change; text: the level.
    Thinking,
    /// A label set on an entry; text: the label.
    Label,
    /// A label removed; no text.
    LabelCleared,
    /// The session's name set; text: the name.
    Name,
    /// An extension's state entry; text: its custom type.
    Custom,
    /// An entry this version cannot read; no text.
    Unknown,
    /// A model answer with no text that was stopped; no text.
    AssistantAborted,
}

/// The untranslated parts of an entry's one-line description (kept in the
/// session's index file as they are, see `index_cache`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryPreview {
    /// The text up to `split`, then what ties results to calls: an answer's
    /// [`CallList`], a tool result's call id.
    text: Box<str>,
    split: u32,
    kind: PreviewKind,
    quiet: bool,
}

impl EntryPreview {
    /// The preview of `entry`.
    pub fn of(entry: &SessionEntry) -> Self {
        let (kind, text, tail) = parts(entry);
        Self::with_tail(kind, text, &tail, is_quiet(entry))
    }

    /// A preview made from its parts (`quiet` only for an answer with nothing to read).
    pub(super) fn from_parts(kind: PreviewKind, text: String, quiet: bool) -> Self {
        Self::with_tail(kind, text, "", quiet)
    }

    /// A preview made from its parts, `tail` being an answer's [`CallList`] or a
    /// tool result's call id.
    pub(super) fn with_tail(kind: PreviewKind, mut text: String, tail: &str, quiet: bool) -> Self {
        // A text longer than `u32::MAX` bytes cannot come out of `one_line`.
        let split = u32::try_from(text.len()).unwrap_or(u32::MAX);
        text.push_str(tail);
        EntryPreview {
            text: text.into_boxed_str(),
            split,
            kind,
            quiet,
        }
    }

    /// What the line says.
    pub fn kind(&self) -> PreviewKind {
        self.kind
    }

    /// Its text, as described by [`PreviewKind`].
    pub fn text(&self) -> &str {
        &self.text[..self.split as usize]
    }

    fn tail(&self) -> &str {
        &self.text[self.split as usize..]
    }

    /// The id of the call a tool result answers (`None` for any other kind).
    pub fn tool_call_id(&self) -> Option<&str> {
        (self.kind == PreviewKind::ToolResult).then(|| self.tail())
    }

    /// An answer's tool calls: each call's id and the label `/tree` shows for
    /// its result (none for any other kind).
    pub fn tool_calls(&self) -> impl Iterator<Item = (&str, &str)> {
        let answer = matches!(
            self.kind,
            PreviewKind::Assistant | PreviewKind::AssistantAborted | PreviewKind::AssistantError
        );
        CallList::read(if answer { self.tail() } else { "" })
    }

    /// A model answer with nothing to read: no text, and it neither failed
    /// nor was cut short.
    pub fn quiet(&self) -> bool {
        self.quiet
    }

    /// The token count of a compaction (0 for any other kind).
    pub fn count(&self) -> u64 {
        self.text().parse().unwrap_or(0)
    }

    /// The provider and model id of a model change (both empty for any other
    /// kind). They are kept as the provider's length in bytes, `:`, then the
    /// provider and the model id.
    pub fn model(&self) -> (&str, &str) {
        let Some((len, rest)) = self.text().split_once(':') else {
            return ("", "");
        };
        match len.parse::<usize>() {
            Ok(len) if self.kind == PreviewKind::Model && rest.is_char_boundary(len) => {
                rest.split_at(len)
            }
            _ => ("", ""),
        }
    }
}

/// An answer's tool calls, each as its id and its label, packed in one text:
/// per call, the id's length in bytes, `:`, the id, then the same for the label.
#[derive(Debug, Default)]
pub(super) struct CallList(String);

impl CallList {
    /// Add a call.
    pub(super) fn push(&mut self, id: &str, label: &str) {
        for part in [id, label] {
            self.0.push_str(&part.len().to_string());
            self.0.push(':');
            self.0.push_str(part);
        }
    }

    /// Add a call to tool `name` with `args`, labelled as `/tree` shows its result.
    pub(super) fn push_call(&mut self, id: &str, name: &str, args: &serde_json::Value) {
        self.push(id, &call_label(name, args, home()));
    }

    /// The packed text.
    pub(super) fn as_str(&self) -> &str {
        &self.0
    }

    /// The calls packed in `text`.
    fn read(text: &str) -> impl Iterator<Item = (&str, &str)> {
        let mut rest = text;
        std::iter::from_fn(move || {
            let id = take_part(&mut rest)?;
            let label = take_part(&mut rest)?;
            Some((id, label))
        })
    }
}

/// The next length-prefixed part of `rest`.
fn take_part<'a>(rest: &mut &'a str) -> Option<&'a str> {
    let (len, after) = rest.split_once(':')?;
    let len: usize = len.parse().ok()?;
    let part = after.get(..len)?;
    *rest = &after[len..];
    Some(part)
}

/// The first words of `text` on one line, cut at [`PREVIEW_CHARS`] with no mark,
/// as pi cuts them: a line break, tab or other control whitespace becomes a space,
/// any other character stays (runs of spaces too, as pi shows them), and
/// whitespace at either end (of the cut text too) goes. Only the beginning of a
/// long text is looked at.
pub(super) fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(PREVIEW_CHARS + 4));
    let mut chars = 0;
    // Where the whitespace met since the last word starts: it is shown only
    // when a word follows.
    let mut held: Option<usize> = None;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let at = text.len() - rest.len();
        // A run of visible ASCII is taken at once; any other character alone.
        let run = rest.bytes().take_while(u8::is_ascii_graphic).count();
        let (word, len) = if run > 0 {
            (&rest[..run], run)
        } else {
            (&rest[..c.len_utf8()], 1)
        };
        rest = &rest[word.len()..];
        if run == 0 && c.is_whitespace() {
            if chars > 0 && held.is_none() {
                held = Some(at);
            }
            continue;
        }
        if let Some(from) = held.take() {
            for space in text[from..at].chars() {
                if chars >= PREVIEW_CHARS {
                    return trimmed(out);
                }
                out.push(if space.is_control() { ' ' } else { space });
                chars += 1;
            }
        }
        let room = PREVIEW_CHARS.saturating_sub(chars);
        if len > room {
            // Only a run of ASCII is cut inside: one byte per character.
            out.push_str(&word[..room]);
            return trimmed(out);
        }
        out.push_str(word);
        chars += len;
    }
    out
}

/// `text` without the whitespace it ends with.
fn trimmed(mut text: String) -> String {
    text.truncate(text.trim_end().len());
    text
}

/// The first text block of `blocks`.
fn first_text(blocks: &[ContentBlock]) -> &str {
    blocks
        .iter()
        .find_map(|b| match b {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .unwrap_or("")
}

/// The first text of user or custom content.
fn content_text(content: &UserContent) -> &str {
    match content {
        UserContent::Text(t) => t,
        UserContent::Blocks(blocks) => first_text(blocks),
    }
}

/// A message's kind, text and tail (see [`EntryPreview::with_tail`]).
fn message_parts(message: &Message) -> (PreviewKind, String, String) {
    let (kind, text) = match message {
        Message::User(u) => (PreviewKind::User, one_line(content_text(&u.content))),
        Message::Assistant(a) => {
            let error = a.error_message.as_deref().map(one_line);
            let line = one_line(first_text(&a.content));
            let (kind, text) = assistant_parts(line, a.stop_reason, error);
            let mut list = CallList::default();
            for call in a.tool_calls() {
                list.push_call(&call.id, &call.name, &call.arguments);
            }
            return (kind, text, list.0);
        }
        Message::ToolResult(r) => {
            let text = r.tool_name.clone();
            return (PreviewKind::ToolResult, text, r.tool_call_id.clone());
        }
        Message::BashExecution(b) => (PreviewKind::Shell, shell_line(&one_line(&b.command))),
        Message::Custom(c) => (
            PreviewKind::CustomMessage,
            tagged_line(&c.custom_type, &one_line(content_text(&c.content))),
        ),
        Message::BranchSummary(s) => (PreviewKind::BranchSummaryMessage, one_line(&s.summary)),
        Message::CompactionSummary(s) => {
            (PreviewKind::CompactionMessage, s.tokens_before.to_string())
        }
    };
    (kind, text, String::new())
}

/// An answer's kind and text from its first words (`line`), why it stopped
/// and its error's first words: the words when there are any, else that it
/// was stopped, else its error.
pub(super) fn assistant_parts(
    line: String,
    stop: StopReason,
    error: Option<String>,
) -> (PreviewKind, String) {
    match error {
        _ if !line.is_empty() => (PreviewKind::Assistant, line),
        _ if stop == StopReason::Aborted => (PreviewKind::AssistantAborted, line),
        Some(error) => (PreviewKind::AssistantError, error),
        None => (PreviewKind::Assistant, line),
    }
}

/// `[tag] line`: a tool result's or an extension message's text.
pub(super) fn tagged_line(tag: &str, line: &str) -> String {
    format!("[{tag}] {line}")
}

/// `!command`: a user shell command's text.
pub(super) fn shell_line(line: &str) -> String {
    format!("!{line}")
}

/// An entry's kind, text and tail (see [`EntryPreview::with_tail`]).
fn parts(entry: &SessionEntry) -> (PreviewKind, String, String) {
    let (kind, text) = match entry {
        SessionEntry::Message(m) => return message_parts(&m.message),
        SessionEntry::Compaction(c) => (PreviewKind::Compaction, c.tokens_before.to_string()),
        SessionEntry::BranchSummary(b) => (PreviewKind::BranchSummary, one_line(&b.summary)),
        SessionEntry::CustomMessage(c) => (
            PreviewKind::CustomMessage,
            tagged_line(&c.custom_type, &one_line(content_text(&c.content))),
        ),
        SessionEntry::ModelChange(m) => (
            PreviewKind::Model,
            format!("{}:{}{}", m.provider.len(), m.provider, m.model_id),
        ),
        SessionEntry::ThinkingLevelChange(t) => (PreviewKind::Thinking, t.thinking_level.clone()),
        SessionEntry::Label(l) => match &l.label {
            Some(label) => (PreviewKind::Label, label.clone()),
            None => (PreviewKind::LabelCleared, String::new()),
        },
        SessionEntry::SessionInfo(i) => (PreviewKind::Name, i.name.clone().unwrap_or_default()),
        SessionEntry::Custom(c) => (PreviewKind::Custom, c.custom_type.clone()),
        SessionEntry::Unknown(_) => (PreviewKind::Unknown, String::new()),
    };
    (kind, text, String::new())
}

/// Whether `entry` is an answer with no text that neither failed nor was cut short.
fn is_quiet(entry: &SessionEntry) -> bool {
    match entry {
        SessionEntry::Message(m) => match &m.message {
            Message::Assistant(a) => answer_is_quiet(
                first_text(&a.content),
                a.stop_reason,
                a.error_message.is_some(),
            ),
            _ => false,
        },
        _ => false,
    }
}

/// Whether an answer whose first text is `text` is quiet: no text (only
/// whitespace), stopped or calling tools, and no error.
pub(super) fn answer_is_quiet(text: &str, stop: StopReason, error: bool) -> bool {
    text.trim().is_empty() && matches!(stop, StopReason::Stop | StopReason::ToolUse) && !error
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(json: serde_json::Value) -> SessionEntry {
        SessionEntry::parse_line(&json.to_string()).unwrap()
    }

    #[test]
    fn a_model_change_keeps_provider_and_model_apart() {
        let preview = EntryPreview::of(&entry(serde_json::json!({
            "type": "model_change", "id": "a", "parentId": null,
            "timestamp": "2024-01-01T00:00:00.000Z", "provider": "p:1/x", "modelId": "m:2/y"
        })));
        assert_eq!(preview.kind(), PreviewKind::Model);
        assert_eq!(preview.model(), ("p:1/x", "m:2/y"));
        assert_eq!(preview.count(), 0);
    }

    #[test]
    fn long_text_is_cut_to_one_line() {
        let text = format!("a\n\n b {}", "x".repeat(400));
        let preview = EntryPreview::of(&entry(serde_json::json!({
            "type": "message", "id": "a", "parentId": null,
            "timestamp": "2024-01-01T00:00:00.000Z",
            "message": {"role": "user", "content": text, "timestamp": 1}
        })));
        assert_eq!(preview.kind(), PreviewKind::User);
        assert_eq!(preview.text().chars().count(), PREVIEW_CHARS);
        assert!(preview.text().starts_with("a   b xxx"));
        assert!(preview.text().ends_with('x'), "no mark at the cut");
        assert!(!preview.quiet());
    }

    #[test]
    fn a_text_cut_between_words_loses_the_spaces_before_the_cut() {
        let exact = "x".repeat(PREVIEW_CHARS);
        assert_eq!(one_line(&format!("  {exact}\t\n ")), exact);
        assert_eq!(one_line(&format!("{exact} y")), exact);
        assert_eq!(one_line(&format!("{} \n y", &exact[3..])), &exact[3..]);
        assert_eq!(
            one_line(&format!("{} \n yz", &exact[4..])),
            format!("{}   y", &exact[4..])
        );
        assert_eq!(one_line(&format!("{exact}y")), exact);
        assert_eq!(one_line(" a \u{3000} b\r\nc "), "a \u{3000} b  c");
        assert_eq!(
            one_line("done:\n\n**changes**\t1."),
            "done:  **changes** 1."
        );
        assert_eq!(one_line(" \n "), "");
    }

    /// One character at a time: what [`one_line`] must give.
    fn one_line_by_chars(text: &str) -> String {
        let mut out = String::new();
        let mut chars = 0;
        let mut held = Vec::new();
        for c in text.chars() {
            if c.is_whitespace() {
                if chars > 0 {
                    held.push(c);
                }
                continue;
            }
            for space in held.drain(..) {
                if chars >= PREVIEW_CHARS {
                    return out.trim_end().to_string();
                }
                out.push(if space.is_control() { ' ' } else { space });
                chars += 1;
            }
            if chars >= PREVIEW_CHARS {
                return out.trim_end().to_string();
            }
            out.push(c);
            chars += 1;
        }
        out
    }

    #[test]
    fn runs_of_ascii_are_cut_as_single_characters_are() {
        let pieces = [
            "a",
            "word",
            " ",
            "\n",
            "\t\r\n ",
            "é",
            "日本",
            "\u{3000}",
            "\u{85}",
            "\u{1f}",
            "\u{7f}",
            "x".repeat(37).leak(),
            "-=+",
            "\u{a0}",
            "👍🏽",
        ];
        let mut seed = 7u64;
        for _ in 0..3000 {
            let mut text = String::new();
            while text.chars().count() < 400 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let piece = pieces[(seed >> 33) as usize % pieces.len()];
                text.push_str(piece);
                if (seed >> 20).is_multiple_of(9) {
                    assert_eq!(one_line(&text), one_line_by_chars(&text), "{text:?}");
                }
            }
            assert_eq!(one_line(&text), one_line_by_chars(&text), "{text:?}");
        }
        for n in PREVIEW_CHARS - 2..PREVIEW_CHARS + 3 {
            for tail in ["", " ", "y", " y", "é", "\n\n"] {
                let text = format!("{}{tail}", "x".repeat(n));
                assert_eq!(one_line(&text), one_line_by_chars(&text), "{text:?}");
            }
        }
    }

    #[test]
    fn a_compaction_keeps_its_token_count() {
        let preview = EntryPreview::of(&entry(serde_json::json!({
            "type": "compaction", "id": "c", "parentId": null,
            "timestamp": "2024-01-01T00:00:00.000Z", "summary": "s",
            "firstKeptEntryId": "a", "tokensBefore": 12345
        })));
        assert_eq!(preview.kind(), PreviewKind::Compaction);
        assert_eq!(preview.count(), 12345);
        assert_eq!(preview.model(), ("", ""));
    }
}
