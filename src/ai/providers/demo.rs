//! The built-in offline `demo` provider: scripted replies, no account, no
//! network. It lets a newcomer try the terminal UI, the tools and extension
//! tools before adding an API key. Every reply says that it is scripted.
//!
//! The script: the first message of a conversation gets a short tour that
//! calls `ls` on the project, then `read` on its README (or the first file
//! listed), then explains how to add a real model. Later messages are
//! answered by keyword: `ls`/`files`, `read <path>`, `tools`, `markdown`,
//! anything else gets the help text.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::json;

use crate::ai::events::MessageBuilder;
use crate::ai::model::{Model, ModelCost};
use crate::ai::providers::faux::{FauxProvider, faux_message, faux_text, faux_tool_call};
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::ai::types::{AssistantMessage, ContentBlock, Context, Message, ToolResultMessage};
use crate::t;

/// Provider (and api) name of the demo model.
pub const DEMO_PROVIDER: &str = "demo";
/// Model id of the demo model.
pub const DEMO_MODEL_ID: &str = "demo";

/// How to add a real model, shown by the demo and the start-up notice.
pub fn add_key_help() -> String {
    t!("pi.demo.add_key_help")
}

/// The scripted demo model (free, text only, no thinking).
pub fn demo_model() -> Model {
    Model {
        id: DEMO_MODEL_ID.into(),
        name: "Demo (scripted, offline)".into(),
        api: DEMO_PROVIDER.into(),
        provider: DEMO_PROVIDER.into(),
        base_url: "offline:".into(),
        reasoning: false,
        thinking_level_map: None,
        input: vec!["text".into()],
        cost: ModelCost::default(),
        context_window: 128_000,
        max_tokens: 16_384,
        headers: None,
        compat: None,
    }
}

/// True for the demo model.
pub fn is_demo(model: &Model) -> bool {
    model.provider == DEMO_PROVIDER
}

/// The scripted provider; streams its replies in small chunks like a real model.
#[derive(Clone)]
pub struct DemoProvider {
    inner: FauxProvider,
}

impl Default for DemoProvider {
    fn default() -> Self {
        Self::new()
    }
}

impl DemoProvider {
    /// A demo provider streaming at a readable pace.
    pub fn new() -> Self {
        DemoProvider {
            inner: FauxProvider::new()
                .with_api(DEMO_PROVIDER)
                .with_chunk_chars(6)
                .with_chunk_delay(Duration::from_millis(8)),
        }
    }
}

#[async_trait]
impl ApiProvider for DemoProvider {
    fn api(&self) -> &str {
        DEMO_PROVIDER
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let reply = demo_reply(&req.context);
        self.inner.push_message(reply);
        self.inner.stream(req, out).await?;
        self.inner.clear_log();
        Ok(())
    }
}

/// The scripted reply to a conversation.
pub fn demo_reply(context: &Context) -> AssistantMessage {
    let mut message = faux_message(match context.messages.last() {
        Some(Message::ToolResult(result)) => after_tool(context, result),
        Some(Message::User(user)) => {
            let first = context
                .messages
                .iter()
                .filter(|m| matches!(m, Message::User(_)))
                .count()
                == 1;
            answer(&user.content.text(), first, context)
        }
        _ => vec![faux_text(&help_text())],
    });
    message.provider = DEMO_PROVIDER.into();
    message.api = DEMO_PROVIDER.into();
    message.model = DEMO_MODEL_ID.into();
    message
}

fn has_tool(context: &Context, name: &str) -> bool {
    context.tools.iter().any(|t| t.name == name)
}

fn answer(prompt: &str, first: bool, context: &Context) -> Vec<ContentBlock> {
    let lower = prompt.to_lowercase();
    let words: Vec<&str> = prompt.split_whitespace().collect();
    if let Some(i) = words.iter().position(|w| w.eq_ignore_ascii_case("read"))
        && let Some(path) = words.get(i + 1)
        && has_tool(context, "read")
    {
        let path = path.trim_start_matches('@');
        return vec![
            faux_text(&t!("pi.demo.reading", path = path)),
            faux_tool_call("read", json!({ "path": path, "limit": 40 })),
        ];
    }
    if lower.contains("tools") {
        return vec![faux_text(&tools_text(context))];
    }
    if lower.contains("markdown") {
        return vec![faux_text(&t!("pi.demo.markdown"))];
    }
    let wants_listing = first
        || words
            .iter()
            .any(|w| matches!(w.to_lowercase().as_str(), "ls" | "files" | "list"));
    if wants_listing && let Some(call) = listing_call(context) {
        return vec![faux_text(&t!("pi.demo.intro")), call];
    }
    vec![faux_text(&help_text())]
}

/// Command the demo runs through `bash` when the `ls` tool is not active.
const LISTING_COMMAND: &str = "ls -p";

/// A call listing the project: the `ls` tool, else `bash` running `ls -p`.
fn listing_call(context: &Context) -> Option<ContentBlock> {
    if has_tool(context, "ls") {
        Some(faux_tool_call("ls", json!({ "path": "." })))
    } else if has_tool(context, "bash") {
        Some(faux_tool_call(
            "bash",
            json!({ "command": LISTING_COMMAND }),
        ))
    } else {
        None
    }
}

/// True when the last assistant message ran the demo's listing.
fn listed_last(context: &Context, result: &ToolResultMessage) -> bool {
    if result.tool_name == "ls" {
        return true;
    }
    context.messages.iter().rev().find_map(|m| match m {
        Message::Assistant(a) => Some(a.content.iter().any(|b| {
            matches!(b, ContentBlock::ToolCall(c)
                if c.name == "bash" && c.arguments["command"] == LISTING_COMMAND)
        })),
        _ => None,
    }) == Some(true)
}

fn after_tool(context: &Context, result: &ToolResultMessage) -> Vec<ContentBlock> {
    let output = result
        .content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    if result.is_error {
        return vec![faux_text(&format!(
            "{} {}",
            t!("pi.demo.tool_error", tool = result.tool_name.as_str()),
            help_text()
        ))];
    }
    if listed_last(context, result) && has_tool(context, "read") {
        // The ls and bash tools' words for an empty folder / output.
        let entries: Vec<&str> = output
            .lines()
            .map(str::trim)
            .filter(|e| !matches!(*e, "(no output)" | "(empty directory)"))
            .collect();
        if entries.iter().all(|e| e.is_empty()) {
            return vec![faux_text(&format!(
                "{}\n\n{}",
                t!("pi.demo.folder_empty"),
                help_text()
            ))];
        }
        let file = entries
            .iter()
            .find(|e| e.eq_ignore_ascii_case("readme.md"))
            .or_else(|| {
                entries
                    .iter()
                    .find(|e| !e.is_empty() && !e.ends_with('/') && !e.starts_with('['))
            });
        if let Some(file) = file {
            let count = entries.iter().filter(|e| !e.is_empty()).count();
            return vec![
                faux_text(&t!("pi.demo.listed", count = count, file = *file)),
                faux_tool_call("read", json!({ "path": file, "limit": 20 })),
            ];
        }
    }
    let lines = output.lines().count();
    vec![faux_text(&format!(
        "{}\n\n{}",
        t!(
            "pi.demo.tool_returned",
            tool = result.tool_name.as_str(),
            count = lines
        ),
        help_text()
    ))]
}

fn tools_text(context: &Context) -> String {
    let mut text = t!("pi.demo.tools_title");
    text.push_str("\n\n");
    for tool in &context.tools {
        let summary = tool.description.lines().next().unwrap_or("");
        text.push_str(&format!("- `{}`: {summary}\n", tool.name));
    }
    text.push('\n');
    text.push_str(&t!("pi.demo.tools_note"));
    text
}

fn help_text() -> String {
    format!("{}\n\n{}", t!("pi.demo.help"), add_key_help())
}

/// A registry entry for the demo provider.
pub fn demo_provider() -> Arc<dyn ApiProvider> {
    Arc::new(DemoProvider::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{ToolSpec, UserMessage};

    fn tool(name: &str) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            description: format!("{name} things"),
            parameters: json!({"type": "object"}),
        }
    }

    fn context(messages: Vec<Message>) -> Context {
        Context {
            system_prompt: None,
            messages,
            tools: vec![tool("ls"), tool("read"), tool("greet")],
        }
    }

    fn calls(message: &AssistantMessage) -> Vec<(String, serde_json::Value)> {
        message
            .content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::ToolCall(c) => Some((c.name.clone(), c.arguments.clone())),
                _ => None,
            })
            .collect()
    }

    fn tool_result(name: &str, text: &str) -> Message {
        Message::ToolResult(ToolResultMessage {
            tool_call_id: "t1".into(),
            tool_name: name.into(),
            content: vec![faux_text(text)],
            details: None,
            is_error: false,
            timestamp: 0,
        })
    }

    #[test]
    fn first_message_lists_then_reads_the_readme_then_explains() {
        let first = demo_reply(&context(vec![Message::User(UserMessage::text("hi"))]));
        assert_eq!(calls(&first), vec![("ls".into(), json!({"path": "."}))]);
        let after_ls = demo_reply(&context(vec![
            Message::User(UserMessage::text("hi")),
            Message::Assistant(first),
            tool_result("ls", "src/\nCargo.toml\nREADME.md\n"),
        ]));
        assert_eq!(
            calls(&after_ls),
            vec![("read".into(), json!({"path": "README.md", "limit": 20}))]
        );
        let done = demo_reply(&context(vec![
            Message::User(UserMessage::text("hi")),
            tool_result("read", "# Title\ntext"),
        ]));
        assert!(calls(&done).is_empty());
        let text = done.text();
        assert!(text.contains("scripted"), "{text}");
        assert!(text.contains("ANTHROPIC_API_KEY"), "{text}");
        assert!(text.contains("/login"), "{text}");
    }

    #[test]
    fn an_empty_folder_is_said_to_be_empty_and_nothing_is_read() {
        for (tool_name, empty) in [("ls", "(empty directory)"), ("bash", "(no output)")] {
            let mut ctx = context(vec![Message::User(UserMessage::text("hi"))]);
            ctx.tools = vec![tool(tool_name), tool("read")];
            let first = demo_reply(&ctx);
            ctx.messages.push(Message::Assistant(first));
            ctx.messages.push(tool_result(tool_name, empty));
            let reply = demo_reply(&ctx);
            assert!(calls(&reply).is_empty(), "{tool_name}: {:?}", calls(&reply));
            assert!(reply.text().contains("folder is empty"), "{}", reply.text());
            // A folder with a file still gets it read.
            ctx.messages.pop();
            ctx.messages.push(tool_result(tool_name, "notes.txt\n"));
            assert_eq!(
                calls(&demo_reply(&ctx)),
                vec![("read".into(), json!({"path": "notes.txt", "limit": 20}))]
            );
        }
    }

    #[test]
    fn without_the_ls_tool_the_listing_runs_through_bash() {
        let mut ctx = context(vec![Message::User(UserMessage::text("hi"))]);
        ctx.tools = vec![tool("read"), tool("bash")];
        let first = demo_reply(&ctx);
        assert_eq!(
            calls(&first),
            vec![("bash".into(), json!({"command": "ls -p"}))]
        );
        ctx.messages.push(Message::Assistant(first));
        ctx.messages.push(tool_result("bash", "docs/\nnotes.txt\n"));
        assert_eq!(
            calls(&demo_reply(&ctx)),
            vec![("read".into(), json!({"path": "notes.txt", "limit": 20}))]
        );
    }

    #[test]
    fn later_messages_answer_by_keyword() {
        let ctx = |text: &str| {
            context(vec![
                Message::User(UserMessage::text("hi")),
                Message::User(UserMessage::text(text)),
            ])
        };
        assert_eq!(
            calls(&demo_reply(&ctx("please read @src/main.rs"))),
            vec![("read".into(), json!({"path": "src/main.rs", "limit": 40}))]
        );
        let tools = demo_reply(&ctx("which tools?")).text();
        assert!(tools.contains("`greet`"), "{tools}");
        let other = demo_reply(&ctx("what is 2+2")).text();
        assert!(other.contains("scripted"), "{other}");
        assert!(calls(&demo_reply(&ctx("what is 2+2"))).is_empty());
    }
}
