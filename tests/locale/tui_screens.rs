//! Whole screens in Traditional Chinese: the header's key help (Ctrl+O), `/hotkeys`, the
//! `/` menu with its position counter and the zh-TW command aliases, `/tree`, `/fork`,
//! `/model`, and user markdown, a folded `/skill:` message and `!` / `!!` rows. Each is
//! pictured and carries no English beyond key names, commands and proper names.

use std::path::PathBuf;

use crate::messages::{assistant, user};
use pi::agent::agent_loop::AgentQueues;
use pi::session::SessionManager;
use pi::tui::app::App;
use pi::tui::app::session_task::UiEvent;
use pi::tui::chrome::FooterInfo;
use pi::tui::transcript::{Item, ToolRow};
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

/// Latin words allowed: key names, slash commands and their arguments, the product, the
/// model and provider, file names and the shell commands typed.
const ALLOWED: &[&str] = &[
    "pi",
    "ctrl",
    "alt",
    "shift",
    "enter",
    "esc",
    "escape",
    "tab",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    "backspace",
    "delete",
    "space",
    "claude",
    "sonnet",
    "latest",
    "anthropic",
    "openai",
    "gpt",
    "mock",
    "srv",
    "md",
    "rs",
    "echo",
    "pdf",
    "skill",
    "token",
    "tokens",
    "oauth",
];

fn app() -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: PathBuf::from("/srv/專案"),
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

fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| pi::tui::view::draw(f, app)).unwrap();
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
            skip = pi::ui_kit::text::width(symbol).saturating_sub(1);
            row.push_str(symbol);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// English words on `screen`, apart from the allowed ones, slash commands (`/name`,
/// `/skill:name`) and the version.
fn english(screen: &str) -> Vec<String> {
    let mut words = Vec::new();
    for token in screen.split(|c: char| c.is_whitespace() || "│·,()[]".contains(c)) {
        if token.starts_with('/') {
            continue;
        }
        for word in token.split(|c: char| !c.is_ascii_alphabetic()) {
            if word.len() >= 2 && !ALLOWED.contains(&word.to_lowercase().as_str()) {
                words.push(word.to_string());
            }
        }
    }
    words
}

fn assert_no_english(screen: &str) {
    let words = english(screen);
    assert!(words.is_empty(), "English {words:?} on:\n{screen}");
}

/// 你好 → 好的 → {方案乙 → 用組合子 → {寫測試 (leaf), 先寫文件}, 方案甲 → 手寫 → 錯誤訊息}
fn branched() -> SessionManager {
    let mut s = SessionManager::in_memory(std::path::Path::new("/srv/專案"));
    s.append_message(user("你好，可以幫我重構解析器嗎？"));
    let hi = s.append_message(assistant("好的！先從哪裡開始？"));
    s.append_message(user("試試方案甲：手寫詞法分析器"));
    s.append_message(assistant("方案甲先從記號開始。"));
    s.append_message(user("接著處理錯誤訊息"));
    s.branch(&hi).unwrap();
    s.append_message(user("其實用方案乙：解析器組合子套件"));
    let nom = s.append_message(assistant("方案乙很適合用組合子。"));
    s.append_message(user("先寫文件"));
    s.branch(&nom).unwrap();
    s.append_message(user("為組合子加上測試"));
    s.append_label_change(&hi, Some("檢查點")).unwrap();
    s
}

#[test]
fn header_key_help_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let mut a = app();
    a.tools_expanded = true;
    let text = screen(&mut a, 80, 30);
    assert!(text.contains("ctrl+z"), "{text}");
    assert_no_english(&text);
    insta::assert_snapshot!("header_key_help_zh_tw_80x30", text);
}

#[test]
fn hotkeys_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let mut a = app();
    let text = pi::tui::app::hotkeys::hotkeys_markdown(&a.keys, &[]);
    a.transcript.push(Item::Help { text });
    let text = screen(&mut a, 100, 130);
    assert!(text.contains("Ctrl+C") && text.contains(" pi v"), "{text}");
    assert_no_english(&text);
    insta::assert_snapshot!("hotkeys_zh_tw_100x130", text);
}

#[test]
fn slash_menu_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let mut a = app();
    a.editor.set_text("/");
    a.completion = Some(0);
    let text = screen(&mut a, 80, 24);
    let total = a.completions().len();
    assert!(text.contains(&format!("（1/{total}）")), "{text}");
    assert_no_english(&text);
    insta::assert_snapshot!("slash_menu_zh_tw_80x24", text);
    // The locale's aliases close the list, each naming the command it stands for.
    a.completion = Some(total - 1);
    let text = screen(&mut a, 80, 24);
    assert!(text.contains(&format!("（{total}/{total}）")), "{text}");
    assert!(text.contains("/模型") && text.contains("/續"), "{text}");
    assert_no_english(&text);
    insta::assert_snapshot!("slash_menu_aliases_zh_tw_80x24", text);
}

#[test]
fn tree_selector_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let mut a = app();
    let data = pi::tui::panels::tree_rows::flatten(&branched());
    a.handle_ui_event(UiEvent::Tree(Box::new(data)));
    let text = screen(&mut a, 80, 24);
    assert!(
        text.contains("├─ • 使用者") || text.contains("├─"),
        "{text}"
    );
    assert_no_english(&text);
    insta::assert_snapshot!("tree_selector_zh_tw_80x24", text);
}

#[test]
fn fork_selector_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let mut a = app();
    a.handle_ui_event(UiEvent::ForkMessages(vec![
        ("u1".into(), "你好，可以幫我重構解析器嗎？".into()),
        ("u2".into(), "其實用方案乙：解析器組合子套件".into()),
        ("u3".into(), "為組合子加上測試".into()),
    ]));
    let text = screen(&mut a, 80, 24);
    assert!(text.contains("為組合子加上測試"), "{text}");
    assert_no_english(&text);
    insta::assert_snapshot!("fork_selector_zh_tw_80x24", text);
}

#[test]
fn model_selector_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let mut a = app();
    a.models = pi::ai::catalog::builtin_models()
        .filter(|m| m.provider == "anthropic" && m.id.starts_with("claude-sonnet"))
        .take(4)
        .cloned()
        .collect();
    for c in "/model".chars() {
        a.handle_terminal_event(crossterm::event::Event::Key(
            crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Char(c),
                crossterm::event::KeyModifiers::NONE,
            ),
        ));
    }
    a.handle_terminal_event(crossterm::event::Event::Key(
        crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Enter,
            crossterm::event::KeyModifiers::NONE,
        ),
    ));
    let text = screen(&mut a, 80, 24);
    assert!(text.contains("claude-sonnet"), "{text}");
    assert_no_english(&text);
    insta::assert_snapshot!("model_selector_zh_tw_80x24", text);
}

#[test]
fn user_markdown_skill_and_bash_rows_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let mut a = app();
    a.transcript.push(Item::User {
        text: "請**修正** `解析器`".into(),
    });
    a.transcript.push(Item::User {
        text: "<skill name=\"pdf\" location=\"/s/pdf/SKILL.md\">\n路徑相對於 /s/pdf。\n\n技能內容\n</skill>\n\n拆開檔案".into(),
    });
    for (id, exclude) in [("user-bash-1", false), ("user-bash-2", true)] {
        let mut args = json!({"command": "echo 你好"});
        if exclude {
            args["excludeFromContext"] = true.into();
        }
        a.transcript.push(Item::Tool(ToolRow {
            id: id.into(),
            name: "bash".into(),
            args,
            output: "你好".into(),
            details: None,
            is_error: false,
            done: true,
            duration: None,
            started: None,
            custom: None,
        }));
    }
    let text = screen(&mut a, 80, 30);
    assert!(text.contains("請修正 解析器"), "{text}");
    assert!(
        !text.contains("技能內容") && text.contains("拆開檔案"),
        "{text}"
    );
    assert_no_english(&text);
    insta::assert_snapshot!("user_markdown_skill_bash_zh_tw_80x30", text);
}
