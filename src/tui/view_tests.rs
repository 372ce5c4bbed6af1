//! Snapshot tests of whole screens rendered into ratatui's TestBackend at
//! 80x24 and 40x12 (plain theme, so the snapshots show text only).

use std::path::PathBuf;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

use crate::agent::agent_loop::AgentQueues;
use crate::agent::events::{AgentEvent, ToolResultPayload};
use crate::ai::types::{AssistantMessage, ContentBlock, Message, UserContent, UserMessage};
use crate::session::list_stream::SessionStream;
use crate::tui::app::App;
use crate::tui::app::session_task::UiEvent;
use crate::tui::chrome::FooterInfo;
use crate::tui::view::draw;
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

pub(super) fn app() -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: PathBuf::from("/srv/projects/pi"),
        model_id: "claude-sonnet-4-5".into(),
        provider: "anthropic".into(),
        reasoning: true,
        thinking: "medium".into(),
        context_window: 200_000,
        ..FooterInfo::default()
    };
    App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        footer,
    )
}

pub(super) fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..height {
        let mut row = String::new();
        let mut skip = 0;
        for x in 0..width {
            let symbol = buffer[(x, y)].symbol();
            if skip > 0 {
                skip -= 1;
                continue;
            }
            skip = ratatui::buffer::CellWidth::cell_width(symbol).saturating_sub(1) as usize;
            row.push_str(symbol);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

fn event(app: &mut App, e: AgentEvent) {
    app.handle_ui_event(UiEvent::Agent(Box::new(e)));
}

fn user(text: &str) -> Message {
    Message::User(UserMessage {
        content: UserContent::Text(text.into()),
        timestamp: 0,
    })
}

fn assistant(text: &str) -> Message {
    let mut a = AssistantMessage::empty("openai-completions", "anthropic", "m");
    a.content.push(ContentBlock::text(text));
    a.usage.input = 1234;
    a.usage.output = 56;
    Message::Assistant(a)
}

const ANSWER: &str = "Here is **the plan**:\n\n1. Read `main.rs`\n2. Fix it\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n\n| tool | use |\n|------|-----|\n| read | files |\n| bash | shell |\n";

#[test]
fn empty_screen() {
    let mut a = app();
    insta::assert_snapshot!("empty_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("empty_40x12", screen(&mut a, 40, 12));
}

#[test]
fn streamed_answer_with_code_block_and_table() {
    let mut a = app();
    event(
        &mut a,
        AgentEvent::MessageStart {
            message: user("explain the plan"),
        },
    );
    event(
        &mut a,
        AgentEvent::MessageStart {
            message: assistant(""),
        },
    );
    let half = &ANSWER[..60];
    let mut partial = assistant(half);
    if let Message::Assistant(m) = &mut partial {
        m.usage = Default::default();
    }
    a.transcript.apply(&AgentEvent::MessageEnd {
        message: partial.clone(),
    });
    // Back to streaming: the partial line must not be parsed as markdown yet.
    if let Some(crate::tui::transcript::Item::Assistant { streaming, .. }) =
        a.transcript.items.last_mut()
    {
        *streaming = true;
    }
    a.transcript.revision += 1;
    a.transcript.item_revisions[1] += 1000;
    insta::assert_snapshot!("streaming_80x24", screen(&mut a, 80, 24));
    event(
        &mut a,
        AgentEvent::MessageEnd {
            message: assistant(ANSWER),
        },
    );
    insta::assert_snapshot!("answer_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("answer_40x12", screen(&mut a, 40, 12));
}

fn tool(
    a: &mut App,
    name: &str,
    args: Value,
    output: &str,
    details: Option<Value>,
    is_error: bool,
) {
    event(
        a,
        AgentEvent::ToolExecutionStart {
            tool_call_id: format!("call_{name}"),
            tool_name: name.into(),
            args: args.clone(),
        },
    );
    event(
        a,
        AgentEvent::ToolExecutionEnd {
            tool_call_id: format!("call_{name}"),
            tool_name: name.into(),
            result: ToolResultPayload {
                content: vec![ContentBlock::text(output)],
                details,
            },
            is_error,
        },
    );
    // Durations are wall-clock; keep snapshots stable.
    if let Some(crate::tui::transcript::Item::Tool(row)) = a.transcript.items.last_mut() {
        row.duration = Some(std::time::Duration::from_millis(1200));
    }
    a.transcript.item_revisions.iter_mut().for_each(|r| *r += 1);
}

fn numbered(n: usize, prefix: &str) -> String {
    (1..=n)
        .map(|i| format!("{prefix}{i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn tool_rows_collapsed_and_expanded() {
    let cases: Vec<(&str, Value, String, Option<Value>, bool)> = vec![
        (
            "bash",
            json!({"command": "cargo test"}),
            numbered(9, "test line "),
            Some(json!({"exitCode": 0})),
            false,
        ),
        (
            "read",
            json!({"path": "src/main.rs", "offset": 1, "limit": 14}),
            numbered(14, "code "),
            None,
            false,
        ),
        (
            "edit",
            json!({"path": "src/lib.rs"}),
            "Successfully replaced text".into(),
            Some(json!({"diff": " 1 fn a() {\n-2     old();\n+2     new();\n 3 }"})),
            false,
        ),
        (
            "write",
            json!({"path": "notes.md", "content": numbered(12, "note ")}),
            "Wrote 12 lines".into(),
            None,
            false,
        ),
        (
            "grep",
            json!({"pattern": "TODO", "path": "src"}),
            numbered(18, "src/a.rs:1: TODO "),
            None,
            false,
        ),
        (
            "find",
            json!({"pattern": "*.rs"}),
            numbered(22, "src/file"),
            None,
            false,
        ),
        (
            "ls",
            json!({"path": "."}),
            numbered(3, "entry"),
            None,
            false,
        ),
        (
            "bash",
            json!({"command": "false"}),
            "Command exited with code 1".into(),
            None,
            true,
        ),
    ];
    for (i, (name, args, output, details, is_error)) in cases.into_iter().enumerate() {
        let mut a = app();
        tool(&mut a, name, args, &output, details, is_error);
        insta::assert_snapshot!(
            format!("tool_{i}_{name}_collapsed_80x24"),
            screen(&mut a, 80, 24)
        );
        a.tools_expanded = true;
        insta::assert_snapshot!(
            format!("tool_{i}_{name}_expanded_80x24"),
            screen(&mut a, 80, 24)
        );
        if i == 0 {
            a.tools_expanded = false;
            insta::assert_snapshot!("tool_bash_collapsed_40x12", screen(&mut a, 40, 12));
        }
    }
}

#[test]
fn footer_with_long_cwd_and_cjk_session_name() {
    let mut a = app();
    a.footer.cwd =
        PathBuf::from("/srv/projects/a/very/long/path/that/keeps/going/and/going/repository");
    a.footer.git_branch = Some("feature/interactive-terminal-ui".into());
    a.footer.session_name = Some("日本語のセッション名前".into());
    a.footer.several_providers = true;
    event(
        &mut a,
        AgentEvent::MessageEnd {
            message: assistant("ok"),
        },
    );
    insta::assert_snapshot!("footer_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("footer_40x12", screen(&mut a, 40, 12));
}

#[test]
fn queued_messages_and_model_selector() {
    let mut a = app();
    a.busy_since = Some(std::time::Instant::now() - std::time::Duration::from_secs(3));
    for text in ["first steer", "second steer"] {
        a.queues.steering.push(user(text));
    }
    a.queues.follow_up.push(user("then summarise"));
    let shown = screen(&mut a, 80, 24);
    // The spinner frame depends on the clock; compare everything else.
    let stable: String = shown
        .lines()
        .map(|l| {
            if l.contains("Working...") {
                " <spinner> Working..."
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("queued_80x24", stable);

    let mut a = app();
    a.models = ["claude-sonnet-4-5", "claude-haiku-4-5", "gpt-4o"]
        .iter()
        .map(|id| {
            let mut m: crate::ai::model::Model = serde_json::from_value(json!({
                "id": id, "name": id, "api": "openai-completions", "provider": "anthropic",
                "baseUrl": "http://127.0.0.1", "reasoning": true, "input": ["text"],
                "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
                "contextWindow": 200000, "maxTokens": 8192
            }))
            .unwrap();
            m.provider = if id.starts_with("gpt") {
                "openai".into()
            } else {
                "anthropic".into()
            };
            m
        })
        .collect();
    a.editor.set_text("/model");
    a.handle_terminal_event(crossterm::event::Event::Key(
        crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Enter,
            crossterm::event::KeyModifiers::NONE,
        ),
    ));
    insta::assert_snapshot!("model_selector_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("model_selector_40x12", screen(&mut a, 40, 12));
}

#[test]
fn too_narrow_terminal_shows_a_notice() {
    let mut a = app();
    let shown = screen(&mut a, 19, 5);
    assert_eq!(shown.lines().next(), Some("Terminal too narrow"));
}

#[test]
fn session_selector() {
    use crate::session::list::SessionInfo;
    use crate::tui::app::Overlay;
    use crate::tui::panels::session::SessionPanel;
    use chrono::{TimeZone, Utc};
    let mut a = app();
    let sessions = [
        ("Refactor the footer", (2026, 11, 20, 10, 15), 12),
        ("日本語のセッション", (2026, 11, 19, 8, 0), 3),
        ("fix flaky test in tools_bash", (2026, 11, 18, 17, 42), 40),
    ]
    .iter()
    .map(|(title, (y, mo, d, h, mi), count)| {
        let at = Utc.with_ymd_and_hms(*y, *mo, *d, *h, *mi, 0).unwrap();
        SessionInfo {
            path: PathBuf::from(format!("/sessions/{title}.jsonl")),
            id: title.to_string(),
            cwd: "/work/project".into(),
            name: None,
            parent_session_path: None,
            created: at,
            modified: at,
            message_count: *count,
            first_message: title.to_string(),
            all_messages_text: title.to_string(),
        }
    })
    .collect();
    let now = Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap();
    let panel = SessionPanel::new(
        sessions,
        Box::new(|| SessionStream::ready(Vec::new())),
        &Keybindings::default(),
    )
    .with_active(Some(PathBuf::from("/sessions/日本語のセッション.jsonl")))
    .with_now(now);
    a.overlay = Some(Overlay::Panel(Box::new(panel)));
    insta::assert_snapshot!("session_selector_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("session_selector_40x12", screen(&mut a, 40, 12));
}

#[test]
fn page_up_scrolls_back_to_earlier_lines() {
    let mut a = app();
    event(
        &mut a,
        AgentEvent::MessageStart {
            message: user("explain the plan"),
        },
    );
    event(
        &mut a,
        AgentEvent::MessageStart {
            message: assistant(""),
        },
    );
    event(
        &mut a,
        AgentEvent::MessageEnd {
            message: assistant(ANSWER),
        },
    );
    let bottom = screen(&mut a, 40, 12);
    assert!(!bottom.contains("explain the plan"), "{bottom}");
    let page_up = || {
        crossterm::event::Event::Key(crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::PageUp,
            crossterm::event::KeyModifiers::NONE,
        ))
    };
    a.handle_terminal_event(page_up());
    let one_page = screen(&mut a, 40, 12);
    assert_ne!(one_page, bottom);
    assert!(one_page.contains("println!"), "{one_page}");
    a.handle_terminal_event(page_up());
    let two_pages = screen(&mut a, 40, 12);
    assert!(two_pages.contains("2. Fix it"), "{two_pages}");
    for _ in 0..10 {
        a.handle_terminal_event(page_up());
    }
    let top = screen(&mut a, 40, 12);
    assert!(top.contains("pi v"), "{top}");
    a.handle_terminal_event(page_up());
    assert_eq!(screen(&mut a, 40, 12), top, "the header is the top");
}

#[test]
fn quiet_startup_hides_the_header() {
    let mut a = app();
    a.quiet_startup = true;
    let shown = screen(&mut a, 80, 24);
    assert!(!shown.contains("pi v"), "{shown}");
    assert!(shown.starts_with("\n────"), "{shown}");
}

#[test]
fn editor_rules_take_the_thinking_level_colour() {
    let mut a = app();
    a.theme = Theme::default();
    let mut terminal = Terminal::new(TestBackend::new(40, 12)).unwrap();
    terminal.draw(|f| draw(f, &mut a)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let rule_row = (0..12)
        .find(|y| buffer[(0, *y)].symbol() == "─")
        .expect("editor rule");
    assert_eq!(
        Some(buffer[(0, rule_row)].fg),
        a.theme.color("thinkingMedium")
    );
}

#[test]
fn markdown_links_become_osc8_hyperlinks() {
    let mut a = app();
    let answer = assistant("Read [the docs](https://example.com/docs) first.");
    event(
        &mut a,
        AgentEvent::MessageStart {
            message: answer.clone(),
        },
    );
    event(&mut a, AgentEvent::MessageEnd { message: answer });
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| draw(f, &mut a)).unwrap();
    let buffer = terminal.backend().buffer();
    let symbols: Vec<&str> = buffer.content().iter().map(|c| c.symbol()).collect();
    let opens = symbols
        .iter()
        .filter(|s| s.starts_with("\x1b]8;;https://example.com/docs\x1b\\"))
        .count();
    let closes = symbols
        .iter()
        .filter(|s| s.ends_with("\x1b]8;;\x1b\\"))
        .count();
    assert_eq!(opens, 2, "the link text and the shown URL are links");
    assert_eq!(closes, 2);
    assert!(
        symbols.contains(&"\x1b]8;;https://example.com/docs\x1b\\t"),
        "the link starts at its text"
    );
}

#[test]
fn tree_selector() {
    use crate::session::SessionManager;
    use crate::tui::app::Overlay;
    use crate::tui::panels::tree_rows::flatten;
    use crate::tui::panels::tree_selector::{TreeFilter, TreeSelector};
    let mut s = SessionManager::in_memory(std::path::Path::new("/p"));
    s.append_message(user("Hello, can you help me refactor the parser?"));
    let hi = s.append_message(assistant("Of course! Which part first?"));
    s.append_message(user("Let's try approach A: a hand-written lexer"));
    s.append_message(assistant("For approach A we start with tokens."));
    s.branch(&hi).unwrap();
    s.append_message(user("Actually, approach B: use a parser combinator crate"));
    s.append_message(assistant("For approach B, nom is a good fit."));
    s.append_label_change(&hi, Some("checkpoint")).unwrap();
    let mut a = app();
    a.overlay = Some(Overlay::Tree(TreeSelector::new(
        flatten(&s),
        TreeFilter::Default,
    )));
    insta::assert_snapshot!("tree_selector_80x24", screen(&mut a, 80, 24));
    insta::assert_snapshot!("tree_selector_40x12", screen(&mut a, 40, 12));
}

#[test]
fn tree_selector_user_only() {
    use crate::session::SessionManager;
    use crate::tui::app::Overlay;
    use crate::tui::panels::tree_rows::flatten;
    use crate::tui::panels::tree_selector::{TreeFilter, TreeSelector};
    // hello → hi → {B → nom → {tests (leaf), docs}, A → tokens → errors}
    let mut s = SessionManager::in_memory(std::path::Path::new("/p"));
    s.append_message(user("Hello, can you help me refactor the parser?"));
    let hi = s.append_message(assistant("Of course! Which part first?"));
    s.append_message(user("Let's try approach A: a hand-written lexer"));
    s.append_message(assistant("For approach A we start with tokens."));
    s.append_message(user("Now the error messages"));
    s.branch(&hi).unwrap();
    s.append_message(user("Actually, approach B: use a parser combinator crate"));
    let nom = s.append_message(assistant("For approach B, nom is a good fit."));
    s.append_message(user("Write the docs first"));
    s.branch(&nom).unwrap();
    s.append_message(user("Add tests for the combinators"));
    let mut a = app();
    a.overlay = Some(Overlay::Tree(TreeSelector::new(
        flatten(&s),
        TreeFilter::UserOnly,
    )));
    // The hidden answers pass their children up: the branches hang off the
    // user messages shown, each with its own connector.
    insta::assert_snapshot!("tree_selector_user_only", screen(&mut a, 80, 20));
}

#[test]
fn compaction_summary_in_the_transcript() {
    let mut a = app();
    event(
        &mut a,
        AgentEvent::CompactionStart {
            reason: "manual".into(),
        },
    );
    event(
        &mut a,
        AgentEvent::CompactionEnd {
            reason: "manual".into(),
            result: Some(json!({
                "summary": "## Goal\nRefactor the parser\n\n<read-files>\nsrc/parser.rs\n</read-files>",
                "firstKeptEntryId": "abcd1234", "tokensBefore": 48213, "details": {}
            })),
            aborted: false,
            will_retry: false,
            error_message: None,
        },
    );
    insta::assert_snapshot!("compaction_summary_collapsed", screen(&mut a, 60, 14));
    a.tools_expanded = true;
    a.cache.clear();
    insta::assert_snapshot!("compaction_summary_expanded", screen(&mut a, 60, 14));
}

#[test]
fn a_panel_taller_than_the_screen_loses_its_top_rows_and_keeps_its_end() {
    let mut a = app();
    let messages = (1..=30)
        .map(|i| (format!("u{i}"), format!("message {i}")))
        .collect();
    a.handle_ui_event(UiEvent::ForkMessages(messages));
    let text = screen(&mut a, 80, 24);
    let lines: Vec<&str> = text.lines().collect();
    // The footer's two lines close the screen, right under the panel's closing rule.
    let rule = "─".repeat(80);
    assert_eq!(lines[lines.len() - 3].trim_end(), rule, "{text}");
    assert_eq!(lines[lines.len() - 5].trim_end(), "  (30/30)", "{text}");
    assert!(text.contains("› message 30"), "{text}");
    assert!(
        !text.contains("Fork from Message"),
        "the top scrolled off:\n{text}"
    );
    assert_eq!(lines.len(), 24);
}
