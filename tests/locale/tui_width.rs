//! Width in Traditional Chinese: at 40, 80 and 120 columns no line pi renders (header,
//! footer, working line, user and assistant messages, bash/read/edit/write tool rows,
//! notices, `/hotkeys`, `/session`, the `/model`, `/settings` and `/resume` panels) is
//! wider than the terminal. Double-width characters count as two columns. Lines are
//! measured before the terminal clips them, so an overflow cannot hide.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::messages::{assistant, user};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use pi::agent::agent_loop::AgentQueues;
use pi::agent::events::{AgentEvent, ToolResultPayload};
use pi::ai::types::ContentBlock;
use pi::session::SessionManager;
use pi::tui::app::App;
use pi::tui::app::session_task::UiEvent;
use pi::tui::chrome::{FooterInfo, LoadedItem, LoadedResources, footer_lines, working_line};
use pi::tui::transcript::render::{RenderOptions, render_item};
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;
use ratatui::text::Line;
use serde_json::{Value, json};

const WIDTHS: [usize; 3] = [40, 80, 120];

fn line_text(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

fn assert_fits(lines: &[Line<'_>], width: usize, what: &str) {
    assert!(!lines.is_empty(), "{what} rendered nothing at {width}");
    for line in lines {
        let text = line_text(line);
        assert!(
            pi::ui_kit::text::width(&text) <= width,
            "{what} at {width} columns: {} columns wide:\n{text}",
            pi::ui_kit::text::width(&text)
        );
    }
}

fn app(session_dir: PathBuf) -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: PathBuf::from("/srv/projects/一個名稱很長的專案資料夾/子資料夾/更深的資料夾"),
        git_branch: Some("功能/繁體中文介面".into()),
        session_name: Some("整理繁體中文介面的工作階段名稱".into()),
        model_id: "claude-sonnet-4-5".into(),
        provider: "anthropic".into(),
        reasoning: true,
        thinking: "medium".into(),
        context_tokens: 123_456,
        context_window: 200_000,
        several_providers: true,
        ..FooterInfo::default()
    };
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        footer,
    );
    app.models = pi::ai::catalog::builtin_models()
        .take(30)
        .cloned()
        .collect();
    app.session_dir = Some(session_dir);
    app.session_id = "01a204ac-bbfc-7666-84f6-fd9bf74c37d7".into();
    app
}

fn event(app: &mut App, e: AgentEvent) {
    app.handle_ui_event(UiEvent::Agent(Box::new(e)));
}

fn key(app: &mut App, code: KeyCode) {
    app.handle_terminal_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn command(app: &mut App, text: &str) {
    app.overlay = None;
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
    key(app, KeyCode::Enter);
}

fn tool(app: &mut App, name: &str, args: Value, output: &str, details: Option<Value>, error: bool) {
    let id = format!("call_{name}_{error}");
    event(
        app,
        AgentEvent::ToolExecutionStart {
            tool_call_id: id.clone(),
            tool_name: name.into(),
            args,
        },
    );
    event(
        app,
        AgentEvent::ToolExecutionEnd {
            tool_call_id: id,
            tool_name: name.into(),
            result: ToolResultPayload {
                content: vec![ContentBlock::text(output)],
                details,
            },
            is_error: error,
        },
    );
}

/// A conversation with every kind of row, in zh-TW.
fn fill(app: &mut App) {
    let long =
        "這是一段很長的繁體中文句子，用來確認在窄的終端機裡也會正確換行，不會超出畫面的寬度。"
            .repeat(3);
    for message in [
        user(&long),
        assistant(&format!(
            "## 計畫\n\n1. {long}\n2. 修改 `src/主程式.rs`\n\n```rust\nfn 主() {{}}\n```\n\n| 工具 | 用途 |\n|---|---|\n| 讀取 | {long} |"
        )),
    ] {
        event(
            app,
            AgentEvent::MessageStart {
                message: message.clone(),
            },
        );
        event(app, AgentEvent::MessageEnd { message });
    }
    let path = "src/一個很長的資料夾名稱/另一個很長的資料夾名稱/檔案名稱也很長的程式碼.rs";
    tool(
        app,
        "bash",
        json!({"command": format!("echo {long}")}),
        &long,
        Some(json!({"exitCode": 0})),
        false,
    );
    tool(
        app,
        "bash",
        json!({"command": "false"}),
        "",
        Some(json!({"exitCode": 1})),
        true,
    );
    tool(
        app,
        "read",
        json!({"path": path, "offset": 10, "limit": 200}),
        &format!("{long}\n").repeat(30),
        None,
        false,
    );
    tool(
        app,
        "edit",
        json!({"path": path}),
        "已成功取代文字",
        Some(json!({"diff": format!(" 1 {long}\n-2 舊的\n+2 {long}\n 3 }}")})),
        false,
    );
    tool(
        app,
        "write",
        json!({"path": path, "content": format!("{long}\n").repeat(12)}),
        "",
        None,
        false,
    );
    tool(
        app,
        "edit",
        json!({"path": path}),
        &format!("找不到要取代的文字：{long}"),
        None,
        true,
    );
    app.handle_ui_event(UiEvent::Failed(format!("錯誤：{long}")));
    app.handle_ui_event(UiEvent::Notice(long.clone()));
}

fn transcript_lines(app: &App, width: usize, expanded: bool) -> Vec<Line<'static>> {
    let options = RenderOptions {
        width,
        tools_expanded: expanded,
        thinking_expanded: expanded,
        expand_key: app.keys.keys_text("app.tools.expand"),
        hidden_thinking_label: None,
        images: Default::default(),
    };
    app.transcript
        .items
        .iter()
        .flat_map(|item| render_item(item, &options, &app.theme))
        .collect()
}

#[test]
fn no_zh_tw_line_is_wider_than_the_terminal() {
    pi::i18n::set_locale("zh-TW");
    assert_eq!(pi::i18n::t("pi.settings.title", &[]), "設定");
    let sessions = tempfile::tempdir().unwrap();
    for (first, name) in [
        (
            "把整個專案的錯誤訊息改成繁體中文，並且確認每個畫面在窄終端機裡都不會超出寬度",
            None,
        ),
        (
            "整理測試",
            Some("一個很長很長的工作階段名稱，用來測試續用清單的截斷"),
        ),
    ] {
        let mut session = SessionManager::create(Path::new("/srv/專案"), sessions.path());
        session.append_message(user(first));
        session.append_message(assistant("好的"));
        if let Some(name) = name {
            session.append_session_info(name);
        }
        session.sync().unwrap();
    }
    let mut a = app(sessions.path().to_path_buf());
    fill(&mut a);
    command(&mut a, "/hotkeys");
    command(&mut a, "/session");
    let skill = Path::new("/srv/專案/.pi/skills/整理測試與錯誤訊息的技能/SKILL.md");
    a.resources = LoadedResources {
        context: LoadedResources::context_entries(
            &[Path::new("/srv/專案/一個很長很長的資料夾名稱/AGENTS.md").to_path_buf()],
            Path::new("/srv/專案"),
        ),
        skills: vec![LoadedItem::new(
            "整理測試與錯誤訊息的技能".into(),
            skill,
            "auto",
            "project",
            None,
        )],
        ..Default::default()
    };
    for width in WIDTHS {
        for expanded in [false, true] {
            a.tools_expanded = expanded;
            assert_fits(&pi::tui::view::header_lines(&a, width), width, "header");
        }
        a.tools_expanded = false;
        assert_fits(&footer_lines(&a.footer, &a.theme, width), width, "footer");
        let interrupt = a.keys.keys_text("app.interrupt");
        let working = working_line(Duration::from_secs(3725), &interrupt, None, &a.theme, width);
        assert_fits(&[working], width, "working line");
        let retrying = pi::tui::chrome::waiting_label(Some(59), &interrupt);
        let working = working_line(
            Duration::from_secs(3725),
            &interrupt,
            retrying,
            &a.theme,
            width,
        );
        assert_fits(&[working], width, "working line while a retry waits");
        assert_fits(&transcript_lines(&a, width, false), width, "transcript");
        assert_fits(
            &transcript_lines(&a, width, true),
            width,
            "expanded transcript",
        );
        for (open, what) in [
            ("/model", "model selector"),
            ("/settings", "settings"),
            ("/resume", "resume"),
        ] {
            command(&mut a, open);
            let overlay = a
                .overlay
                .as_ref()
                .unwrap_or_else(|| panic!("{open} opened nothing"));
            let lines = overlay.lines(&a.theme, width);
            assert_fits(&lines, width, what);
            if open == "/resume" {
                let text: String = lines.iter().map(line_text).collect();
                assert!(text.contains("整理") || text.contains("把整個"), "{text}");
            }
        }
        a.overlay = None;
        for (w, h) in [(width as u16, 12u16), (width as u16, 30)] {
            let mut terminal =
                ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
            terminal.draw(|f| pi::tui::view::draw(f, &mut a)).unwrap();
        }
    }
    let all: String = transcript_lines(&a, 80, false)
        .iter()
        .map(line_text)
        .collect();
    assert!(all.contains("工作階段資訊"), "/session ran: {all}");
}
