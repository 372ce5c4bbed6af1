//! The playground extensions in Traditional Chinese: the real `pi` binary in tmux with
//! `PI_LOCALE=zh-TW` and the playground loaded with `-e`. The screens of tilldone,
//! damage-control, subagent-widget, agent-team, agent-chain and pi-pi may contain Latin
//! words only from the allow-list of the working-day check, plus the extensions' own
//! names and the test's tool arguments.

use crate::support;
use crate::support::pi_cli::PiSandbox;
use crate::support::tui_harness::*;
use crate::tui_i18n_e2e::english_words;

use std::time::Duration;

use serde_json::json;
use support::{MockReply, MockServer};

const WAIT: Duration = Duration::from_secs(40);

/// Names on these screens that are names, not English text.
const NAMES: &[&str] = &[
    "tilldone",
    "damage-control",
    "frobnicate",
    "subagent-widget",
    "subagent-result",
    "tilldone-nudge",
];

fn assert_chinese(screen: &str, what: &str) {
    let words: Vec<String> = english_words(screen)
        .into_iter()
        .filter(|w| !NAMES.contains(&w.to_lowercase().as_str()))
        .collect();
    assert!(
        words.is_empty(),
        "English on the {what} screen: {words:?}\n{screen}"
    );
}

fn launch(sandbox: PiSandbox, extensions: &[&str]) -> Session {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("extensions/playground");
    let mut args = String::from("--model mock/mock-model");
    for name in extensions {
        args.push_str(&format!(" -e {}", quote(&dir.join(name).to_string_lossy())));
    }
    let pi = Session::start(sandbox, &args);
    pi.tmux
        .wait_for("pi to start", WAIT, |s| s.contains("mock-model"));
    std::thread::sleep(Duration::from_millis(500));
    pi
}

fn zh_tw_sandbox(server: &MockServer) -> PiSandbox {
    let mut sandbox = PiSandbox::with_mock(server, "openai-completions");
    sandbox.env.push(("PI_LOCALE".into(), "zh-TW".into()));
    let home = sandbox.root.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    sandbox
        .env
        .push(("HOME".into(), home.display().to_string()));
    sandbox
}

#[test]
fn tilldone_and_damage_control_speak_traditional_chinese() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "tilldone",
        json!({"action": "add", "text": "寫測試\n發布"}),
    )]));
    server.push(MockReply::openai_tool_calls(&[(
        "c2",
        "tilldone",
        json!({"action": "toggle", "id": 1}),
    )]));
    server.push(MockReply::openai_text("先做到這裡。"));
    // The nudge starts another turn.
    server.push(MockReply::openai_text("好的，我會繼續。"));
    let sandbox = zh_tw_sandbox(&server);
    let pi = launch(sandbox, &["tilldone.lua"]);
    pi.send("開始工作");
    let screen = pi.tmux.wait_for("the nudge and its answer", WAIT, |s| {
        s.contains("好的，我會繼續。") && s.contains("進行中")
    });
    assert!(screen.contains("項 TillDone 任務未完成"), "{screen}");
    assert!(screen.contains("TillDone：2 項任務（剩 2 項）"), "{screen}");
    assert_chinese(&screen, "tilldone");
    pi.quit_and_check_terminal();

    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "bash",
        json!({"command": "frobnicate 全部"}),
    )]));
    server.push(MockReply::openai_text("不該被問到。"));
    let sandbox = zh_tw_sandbox(&server);
    std::fs::create_dir_all(sandbox.project.join(".pi")).unwrap();
    std::fs::write(
        sandbox.project.join(".pi/damage-control-rules.yaml"),
        "bashToolPatterns:\n  - pattern: '\\bfrobnicate\\b'\n    reason: 這個專案禁止執行這個指令\n",
    )
    .unwrap();
    let pi = launch(sandbox, &["damage-control.lua"]);
    let screen = pi
        .tmux
        .wait_for("the rules loaded", WAIT, |s| s.contains("已攔下 0 次"));
    assert!(screen.contains("條規則"), "{screen}");
    assert_chinese(&screen, "damage-control start-up");
    pi.send("整理一下");
    let screen = pi.tmux.wait_for("the block", WAIT, |s| {
        s.contains("已攔下 1 次")
            && s.contains("已被 damage-control 攔下：這個專案禁止執行這個指令")
    });
    assert_chinese(&screen, "damage-control block");
    assert_eq!(server.request_count(), 1, "the block aborted the turn");
    pi.send("/damage-control");
    let screen = pi
        .tmux
        .wait_for("the summary", WAIT, |s| s.contains("條指令規則"));
    assert_chinese(&screen, "/damage-control");
    pi.quit_and_check_terminal();
}

#[test]
fn orchestration_extensions_speak_traditional_chinese() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let sandbox = zh_tw_sandbox(&server);
    std::fs::create_dir_all(sandbox.project.join(".pi/agents")).unwrap();
    std::fs::write(
        sandbox.project.join(".pi/agents/teams.yaml"),
        "核心:\n  - scout\n  - planner\n  - builder\n",
    )
    .unwrap();
    std::fs::write(
        sandbox.project.join(".pi/agents/agent-chain.yaml"),
        "規劃實作:\n  description: 先規劃再實作\n  steps:\n    - agent: planner\n    - agent: builder\n",
    )
    .unwrap();
    let pi = launch(sandbox, &["agent-team.lua"]);
    let screen = pi.tmux.wait_for("the team grid", WAIT, |s| {
        s.contains("團隊 核心") && s.contains("實作者")
    });
    assert!(screen.contains("[-----] 0%"), "{screen}");
    assert!(screen.contains("閒置"), "{screen}");
    assert_chinese(&screen, "agent-team");
    pi.quit_and_check_terminal();

    let server = MockServer::start();
    let sandbox = zh_tw_sandbox(&server);
    std::fs::create_dir_all(sandbox.project.join(".pi/agents")).unwrap();
    std::fs::write(
        sandbox.project.join(".pi/agents/agent-chain.yaml"),
        "規劃實作:\n  description: 先規劃再實作\n  steps:\n    - agent: planner\n    - agent: builder\n",
    )
    .unwrap();
    let pi = launch(sandbox, &["agent-chain.lua"]);
    let screen = pi.tmux.wait_for("the chain widget", WAIT, |s| {
        s.contains("流程鏈 規劃實作") && s.contains("等待中")
    });
    assert!(
        screen.contains("規劃者") && screen.contains("實作者"),
        "{screen}"
    );
    assert_chinese(&screen, "agent-chain");
    pi.quit_and_check_terminal();

    let server = MockServer::start();
    let pi = launch(zh_tw_sandbox(&server), &["pi-pi.lua"]);
    let screen = pi.tmux.wait_for("the experts", WAIT, |s| {
        s.contains("專家（9）") && s.contains("主題專家")
    });
    assert_chinese(&screen, "pi-pi");
    pi.quit_and_check_terminal();

    let server = MockServer::start();
    server.push(MockReply::openai_text("有 3 個檔案。"));
    server.push(MockReply::openai_text("收到。"));
    let pi = launch(zh_tw_sandbox(&server), &["subagent-widget.lua"]);
    pi.send("/sub 數一數檔案");
    let screen = pi.tmux.wait_for("the sub-agent's result", WAIT, |s| {
        s.contains("子代理 #1") && s.contains("收到。")
    });
    assert!(screen.contains("有 3 個檔案。"), "{screen}");
    assert_chinese(&screen, "subagent-widget");
    pi.quit_and_check_terminal();
}
