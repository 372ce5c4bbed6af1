//! End to end in Traditional Chinese: the real `pi` binary in tmux with `PI_LOCALE=zh-TW`
//! against the mock LLM server. Every screen a user meets in a working day (start-up,
//! footer, a streamed answer with bash, read, edit and write rows, the `/` menu,
//! `/model`, `/settings`, `/resume`, `/hotkeys`, `/session`, a confirm dialog, extension
//! notifications and a provider error) may contain Latin-script words only from an allow-list of proper
//! nouns, commands, key names, paths, model names and the test's own tool arguments.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::time::Duration;

use serde_json::json;
use support::{MockReply, MockServer};
use tui_harness::*;

const WAIT: Duration = Duration::from_secs(30);

/// Latin-script words allowed on a zh-TW screen (lower case).
const ALLOWED: &[&str] = &[
    // Product, provider and model names, formats.
    "pi",
    "mock",
    "mock-model",
    "openai",
    "anthropic",
    "json",
    "jsonl",
    "html",
    "api",
    "lua",
    "markdown",
    "git",
    "tmux",
    "bcp-47",
    "utf-8",
    "id",
    "url",
    "oauth",
    "ok",
    "token",
    "tokens",
    "k",
    "m",
    "llm",
    "cwd",
    "ansi",
    "github",
    "gist",
    // `/resume`'s search syntax (`re:<pattern>`), typed as it is.
    "re",
    // Tool names (they are the tools' identifiers).
    "bash",
    "read",
    "edit",
    "write",
    "grep",
    "find",
    "ls",
    // Key names.
    "ctrl",
    "alt",
    "shift",
    "esc",
    "escape",
    "enter",
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
    "insert",
    "super",
    "meta",
    "cmd",
    "option",
    "return",
    // Lua code quoted in extension errors; the test extension's name and tool arguments.
    "function",
    "setup",
    "activate",
    "number",
    "integer",
    "echo",
    "ship",
];

/// Words of Latin script on `screen` that are not allowed. Commands (`/model`), paths and
/// file names and dotted identifiers (`hello.txt`, `~/.pi/agent`, `app.model.select`),
/// flags (`--model`) and key combinations of allowed key names are skipped.
pub(crate) fn english_words(screen: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in screen.split(|c: char| !c.is_ascii_graphic()) {
        if token.contains('/') {
            continue;
        }
        let token = token.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        if token.is_empty()
            || token.contains('\\')
            || token.contains('~')
            || token.contains('@')
            || token.contains('=')
            || token.contains('_')
            || token.starts_with('-')
            || token.contains('.')
        {
            continue;
        }
        for word in latin_runs(token) {
            let lower = word.to_lowercase();
            let parts_ok = lower
                .split('+')
                .all(|p| p.len() < 2 || ALLOWED.contains(&p) || is_hex_or_number(p));
            let id = lower.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
                && lower.chars().any(|c| c.is_ascii_digit());
            if !parts_ok && !id && !ALLOWED.contains(&lower.as_str()) {
                out.push(word.to_string());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Runs of `[A-Za-z0-9]` joined by `-`, `+` or `.`, containing a letter.
fn latin_runs(token: &str) -> Vec<&str> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, c) in token.char_indices() {
        let part = c.is_ascii_alphanumeric() || (start.is_some() && "-+.".contains(c));
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push(token[s..i].trim_end_matches(['-', '+', '.']));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push(token[s..].trim_end_matches(['-', '+', '.']));
    }
    runs.into_iter()
        .filter(|r| r.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 2)
        .collect()
}

fn is_hex_or_number(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_hexdigit()) && word.chars().any(|c| c.is_ascii_digit())
}

fn assert_chinese(screen: &str, what: &str) {
    let words = english_words(screen);
    assert!(
        words.is_empty(),
        "English on the {what} screen: {words:?}\n{screen}"
    );
}

const SHIP_EXTENSION: &str = r#"
return function(pi)
  pi.registerCommand("ship", {
    description = "Ship the current change",
    handler = function(_, ctx)
      ctx.ui.notify("Checkpoint saved", "info")
      ctx.ui.notify("Permission denied", "error")
      pi.log.warn("3 files changed")
    end,
  })
  pi.registerCommand("prune", {
    description = "Delete stale branches",
    handler = function(_, ctx)
      if not ctx.ui.confirm("刪除舊分支？", "將刪除 3 個分支") then
        ctx.ui.notify("已保留分支", "info")
      end
    end,
  })
end
"#;

const SHIP_HACK: &str = r#"
return {
  id = "ship-extension",
  locales = { "zh-TW" },
  exact = {
    ["Ship the current change"] = "發布目前的變更",
    ["Delete stale branches"] = "刪除舊分支",
  },
}
"#;

#[test]
fn a_working_day_in_zh_tw_shows_no_english() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let mut sandbox = pi_cli::PiSandbox::with_mock(&server, "openai-completions");
    sandbox.env.push(("PI_LOCALE".into(), "zh-TW".into()));
    server.push(MockReply::openai_text("好的。"));
    let earlier = sandbox.run(&["--model", "mock/mock-model", "-p", "上一次的工作"], None);
    assert!(earlier.status.success(), "{earlier:?}");
    server.push(MockReply::openai_tool_calls(&[
        ("call_1", "bash", json!({"command": "echo 你好"})),
        ("call_2", "read", json!({"path": "hello.txt"})),
        (
            "call_3",
            "edit",
            json!({"path": "hello.txt", "oldText": "世界", "newText": "台灣"}),
        ),
        (
            "call_4",
            "write",
            json!({"path": "notes.txt", "content": "第一行\n第二行\n"}),
        ),
    ]));
    server.push(MockReply::openai_text("全部完成，檔案都整理好了。"));
    std::fs::write(sandbox.project.join("hello.txt"), "你好世界\n").unwrap();
    let extensions = sandbox.agent_dir.join("extensions");
    std::fs::create_dir_all(&extensions).unwrap();
    std::fs::write(extensions.join("ship.lua"), SHIP_EXTENSION).unwrap();
    std::fs::write(extensions.join("broken.lua"), "return 42").unwrap();
    let hacks = sandbox.agent_dir.join("core-hacks");
    std::fs::create_dir_all(&hacks).unwrap();
    std::fs::write(hacks.join("ship.lua"), SHIP_HACK).unwrap();
    let pi = Session::start(sandbox, "--model mock/mock-model");

    // The load error is reported once the extension thread has tried the file,
    // which may be a frame after the footer.
    let screen = pi
        .tmux
        .wait_for("start-up, footer and load error", WAIT, |s| {
            s.contains("mock-model")
                && s.contains("broken.lua")
                && s.contains("擴充功能錯誤：無法載入")
        });
    assert_chinese(&screen, "start-up with an extension load error");

    pi.send("請整理檔案");
    let screen = pi
        .tmux
        .wait_for("the streamed answer", WAIT, |s| s.contains("全部完成"));
    // The first tool rows may have scrolled into the terminal's history.
    let shown = pi.tmux.history();
    assert!(shown.contains("echo 你好"), "{shown}");
    assert!(shown.contains("notes.txt"), "{shown}");
    assert_chinese(&screen, "answer with tool rows");
    assert_eq!(
        std::fs::read_to_string(pi.sandbox.project.join("hello.txt")).unwrap(),
        "你好台灣\n"
    );

    pi.tmux.type_text("/");
    let screen = pi
        .tmux
        .wait_for("the / menu", WAIT, |s| s.contains("/model"));
    assert_chinese(&screen, "/ menu");
    pi.tmux.type_text("sh");
    let screen = pi
        .tmux
        .wait_for("the extension command", WAIT, |s| s.contains("/ship"));
    assert!(
        screen.contains("發布目前的變更"),
        "core hack on a description: {screen}"
    );
    assert_chinese(&screen, "/ menu with an extension command");
    pi.tmux.key("C-c");

    for (command, marker) in [
        ("/model", "mock-model"),
        ("/settings", "自動壓縮"),
        ("/resume", "上一次的工作"),
    ] {
        pi.send(command);
        let screen = pi.tmux.wait_for(command, WAIT, |s| {
            s.matches(marker).count() >= 1 && !s.contains(&format!("> {command}"))
        });
        assert_chinese(&screen, command);
        pi.tmux.key("Escape");
        std::thread::sleep(Duration::from_millis(300));
    }

    pi.send("/hotkeys");
    let screen = pi.tmux.wait_for("/hotkeys", WAIT, |s| s.contains("Ctrl+"));
    assert_chinese(&screen, "/hotkeys");

    pi.send("/session");
    let screen = pi.tmux.wait_for("/session", WAIT, |s| s.contains(".jsonl"));
    assert_chinese(&screen, "/session");

    pi.send("/ship");
    let screen = pi
        .tmux
        .wait_for("extension notifications", WAIT, |s| s.contains("權限遭拒"));
    assert!(screen.contains("已建立檢查點"), "{screen}");
    assert!(screen.contains("[ship] 警告: 已變更 3 個檔案"), "{screen}");
    assert_chinese(&screen, "extension notifications");

    pi.send("/prune");
    let screen = pi
        .tmux
        .wait_for("a confirm dialog", WAIT, |s| s.contains("將刪除 3 個分支"));
    assert!(screen.contains("是") && screen.contains("否"), "{screen}");
    assert_chinese(&screen, "confirm dialog");
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the dialog answer", WAIT, |s| s.contains("已保留分支"));

    server.push(MockReply::openai_error(400, "配額不足"));
    pi.send("再試一次");
    let screen = pi
        .tmux
        .wait_for("the provider error", WAIT, |s| s.contains("配額不足"));
    assert_chinese(&screen, "provider error");

    pi.quit_and_check_terminal();
}

#[test]
fn the_word_check_catches_english() {
    assert_eq!(
        english_words("模型 mock-model • ctrl+o 展開 ~/.pi/agent hello.txt /model"),
        Vec::<String>::new()
    );
    assert_eq!(
        english_words("Working... 處理中 (press esc)"),
        vec!["Working", "press"]
    );
    assert_eq!(
        english_words("錯誤：Permission denied"),
        vec!["Permission", "denied"]
    );
}

/// The lines between the first two rules: what replaces the editor (the demo start-up
/// notice above quotes a shell command and the footer names the `demo` model).
fn dialog_region(screen: &str) -> String {
    screen
        .lines()
        .skip_while(|l| !l.starts_with('─'))
        .skip(1)
        .take_while(|l| !l.starts_with('─'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_login_dialog_in_zh_tw_shows_no_english() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let mut sandbox = pi_cli::PiSandbox::new();
    sandbox.env.push(("PI_LOCALE".into(), "zh-TW".into()));
    let pi = Session::start(sandbox, "");
    pi.tmux.wait_for("the demo start", WAIT, |s| {
        s.contains("pi v") && s.contains("/login")
    });
    pi.tmux.type_text("/login");
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the method choice", WAIT, |s| s.contains("選擇驗證方式"));
    assert!(
        screen.contains("使用訂閱方案") && screen.contains("使用 API 金鑰"),
        "{screen}"
    );
    assert_chinese(&dialog_region(&screen), "login method");
    pi.tmux.key("Down");
    pi.tmux.key("Enter");
    pi.tmux.type_text("anthropic");
    let screen = pi.tmux.wait_for("the providers", WAIT, |s| {
        s.contains("選擇 API 金鑰的供應商") && s.contains("> anthropic") && s.contains("（1/1）")
    });
    assert_chinese(&dialog_region(&screen), "API key providers");
    pi.tmux.key("Enter");
    pi.tmux.type_text("sk-typed");
    let screen = pi.tmux.wait_for("the key field", WAIT, |s| {
        s.contains("輸入 anthropic 的 API 金鑰")
    });
    assert!(!screen.contains("sk-typed"), "{screen}");
    assert_chinese(&dialog_region(&screen), "API key field");
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the editor back", WAIT, |s| !s.contains("金鑰不會顯示"));
    assert!(
        !pi.sandbox.agent_dir.join("auth.json").exists(),
        "Esc saves nothing"
    );
    pi.quit_and_check_terminal();
}
