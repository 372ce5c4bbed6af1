//! End to end in tmux with `PI_LOCALE=zh-TW`: `/lang en` turns the header and footer already
//! on screen into English without a restart, `/lang zh-TW` brings Chinese back, and the
//! zh-TW pack's alias `/模型` opens the model selector. Skipped when tmux is not installed.

use crate::support;
use crate::support::tui_harness;

use std::time::Duration;

use serde_json::{Value, json};
use support::MockServer;

use tui_harness::*;

const WAIT: Duration = Duration::from_secs(30);

fn chinese(s: &str) -> bool {
    s.contains("中斷") && s.contains("mock-model • 思考關閉")
}

fn english(s: &str) -> bool {
    s.contains("interrupt") && s.contains("mock-model • thinking off")
}

#[test]
fn lang_switches_what_is_on_screen_and_the_model_alias_opens_the_selector() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |sandbox| {
        // A reasoning model, so the footer carries words ("thinking off").
        sandbox.write_agent_file(
            "models.json",
            &json!({"providers": {"mock": {
                "baseUrl": server.openai_base_url(), "api": "openai-completions",
                "apiKey": "test-key",
                "models": [{"id": "mock-model", "reasoning": true, "contextWindow": 100000,
                            "maxTokens": 4096}]
            }}})
            .to_string(),
        );
        sandbox.write_agent_file("settings.json", r#"{"defaultThinkingLevel": "off"}"#);
        sandbox.env.push(("PI_LOCALE".into(), "zh-TW".into()));
    });
    pi.tmux
        .wait_for("the zh-TW header and footer", WAIT, chinese);

    pi.send("/lang en");
    let screen = pi
        .tmux
        .wait_for("the English header and footer", WAIT, english);
    assert!(!screen.contains("中斷"), "{screen}");
    let settings = std::fs::read_to_string(pi.sandbox.agent_dir.join("settings.json")).unwrap();
    let settings: Value = serde_json::from_str(&settings).unwrap();
    assert_eq!(settings["locale"], "en");

    pi.send("/lang zh-TW");
    let screen = pi.tmux.wait_for("Chinese again", WAIT, chinese);
    assert!(!screen.contains("interrupt"), "{screen}");

    pi.tmux.type_text("/模型");
    // A key sent right after Escape would arrive as Alt+key: let Escape land alone.
    pi.tmux.key("Escape");
    std::thread::sleep(std::time::Duration::from_millis(300));
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the model selector", WAIT, |s| {
        s.contains("選擇模型") && s.contains("mock-model")
    });
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the selector closed", WAIT, |s| !s.contains("選擇模型"));
    std::thread::sleep(std::time::Duration::from_millis(300));
    pi.quit_and_check_terminal();
}
