//! End to end in tmux: `/settings`, `/scoped-models`, `/changelog` and the
//! prompt history kept across runs. Skipped when tmux is not installed.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::time::Duration;

use pi_cli::PiSandbox;
use serde_json::Value;
use support::{MockReply, MockServer};

use tui_harness::*;

const WAIT: Duration = Duration::from_secs(20);

fn settings_file(sandbox: &PiSandbox) -> Value {
    let text = std::fs::read_to_string(sandbox.agent_dir.join("settings.json")).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

#[test]
fn settings_panel_writes_settings_json_and_hides_the_header() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |_| {});
    pi.send("/settings");
    pi.tmux.wait_for("the settings list", WAIT, |s| {
        // tmux draws no images: the two image display settings are left out.
        s.contains("Settings") && s.contains("Auto-compact") && s.contains("(1/19)")
    });
    // Typing filters the list down to the entry.
    pi.tmux.type_text("quiet");
    pi.tmux.wait_for("quiet startup highlighted", WAIT, |s| {
        s.contains("→ Quiet startup") && s.contains("Disable verbose printing at startup")
    });
    pi.tmux.key("Enter");
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the header gone", WAIT, |s| !s.contains("pi v"));
    let deadline = std::time::Instant::now() + WAIT;
    while settings_file(&pi.sandbox)["quietStartup"] != Value::Bool(true) {
        assert!(
            std::time::Instant::now() < deadline,
            "settings.json: {}",
            settings_file(&pi.sandbox)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    pi.quit_and_check_terminal();
}

#[test]
fn changelog_and_prompt_history_across_runs() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("first answer"));
    let pi = Session::launch(&server, |_| {});
    pi.send("/changelog");
    // The newest entry sits at the bottom, next to the editor.
    let changelog = include_str!("../../CHANGELOG.md").replace('`', "");
    let last_word = changelog.split_whitespace().last().unwrap().to_string();
    pi.tmux.wait_for("the changelog", WAIT, |s| {
        s.replace('`', "").contains(&last_word)
    });
    pi.send("a prompt to remember");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("first answer"));
    pi.quit_and_check_terminal();

    let Session { sandbox, tmux, .. } = pi;
    drop(tmux);
    let pi = Session::start(sandbox, "--model mock/mock-model");
    pi.tmux
        .wait_for("the new run", WAIT, |s| s.contains("mock-model"));
    pi.tmux.key("Up");
    pi.tmux.wait_for("the remembered prompt", WAIT, |s| {
        s.contains("a prompt to remember")
    });
    pi.tmux.key("C-c");
    pi.quit_and_check_terminal();
}

fn two_model_sandbox(server: &MockServer, sandbox: &mut PiSandbox) {
    let base = server.openai_base_url();
    sandbox.write_agent_file(
        "models.json",
        &serde_json::json!({"providers": {"mock": {
            "baseUrl": base, "api": "openai-completions", "apiKey": "test-key",
            "models": [
                {"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096},
                {"id": "other-model", "contextWindow": 50000, "maxTokens": 4096}
            ]
        }}})
        .to_string(),
    );
}

#[test]
fn resume_selector_renames_deletes_and_restores_the_sessions_model() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("kept answer"));
    server.push(MockReply::openai_text("doomed answer"));
    let pi = Session::launch(&server, |sandbox| {
        two_model_sandbox(&server, sandbox);
        for (prompt, model) in [
            ("the session to keep", "mock/other-model"),
            ("the session to delete", "mock/mock-model"),
        ] {
            let out = sandbox.run(&["--model", model, "-p", prompt], None);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    assert_eq!(pi.sandbox.session_files().len(), 2);
    pi.send("/resume");
    pi.tmux.wait_for("the selector", WAIT, |s| {
        s.contains("Resume Session (Current Folder)")
            && s.contains("→ the session to delete")
            && s.contains("the session to keep")
    });
    pi.tmux.key("C-d");
    pi.tmux
        .wait_for("the confirmation", WAIT, |s| s.contains("Delete session?"));
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the deleted session gone", WAIT, |s| {
        !s.contains("the session to delete") && s.contains("→ the session to keep")
    });
    pi.tmux.key("C-r");
    pi.tmux.type_text("Kept work");
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the new name", WAIT, |s| s.contains("→ Kept work"));
    pi.tmux.key("Tab");
    // Every folder's sessions arrive as they are read: Enter once the renamed one is
    // listed and highlighted.
    pi.tmux.wait_for("all folders", WAIT, |s| {
        s.contains("Resume Session (All)") && s.contains("→ Kept work")
    });
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the resumed session", WAIT, |s| {
        s.contains("kept answer") && s.contains("other-model") && s.contains("Kept work")
    });
    pi.quit_and_check_terminal();
    let files = pi.sandbox.session_files();
    assert_eq!(files.len(), 1, "one session deleted: {files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("\"name\":\"Kept work\""), "{text}");
}

#[test]
fn an_untrusted_project_is_asked_about_once_and_the_answer_kept() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let extensions = sandbox.project.join(".pi/extensions");
    std::fs::create_dir_all(&extensions).unwrap();
    let marker = sandbox.project.join("marker.txt");
    std::fs::write(
        extensions.join("marker.lua"),
        format!(
            "local f = io.open({:?}, 'w') f:write('ran') f:close()\nreturn function(pi) end\n",
            marker.to_str().unwrap()
        ),
    )
    .unwrap();
    let trust_file = sandbox.agent_dir.join("trust.json");
    let pi = Session::start(sandbox, "--model mock/mock-model");
    let question = pi.tmux.wait_for("the trust question", WAIT, |s| {
        s.contains("Trust this folder?")
    });
    assert!(
        question.contains("Its .pi/ holds 1 extension: marker.lua."),
        "exactly what the folder holds: {question}"
    );
    assert!(!question.contains("skill"), "no kind it lacks: {question}");
    assert!(!marker.exists(), "extension code ran before the answer");
    pi.tmux.key("Up");
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the editor and footer", WAIT, |s| {
        s.contains("mock-model") && s.contains("pi v")
    });
    assert!(
        marker.exists(),
        "the trusted project's extension did not load"
    );
    let recorded = std::fs::read_to_string(&trust_file).unwrap();
    assert!(recorded.contains("\"trusted\": true"), "{recorded}");
    pi.quit_and_check_terminal();
}

#[test]
fn declining_trust_is_remembered_and_said_in_one_line() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let skill = sandbox.project.join(".pi/skills/tidy");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: tidy\ndescription: Tidy up\n---\nTidy.\n",
    )
    .unwrap();
    std::fs::write(sandbox.project.join(".pi/settings.json"), "{}").unwrap();
    let trust_file = sandbox.agent_dir.join("trust.json");
    let pi = Session::start(sandbox, "--model mock/mock-model");
    let question = pi.tmux.wait_for("the trust question", WAIT, |s| {
        s.contains("Trust this folder?")
    });
    assert!(
        question.contains("Its .pi/ holds 1 skill · settings."),
        "{question}"
    );
    assert!(!question.contains("extension:"), "{question}");
    // No is the highlighted answer.
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the notice of what was not loaded", WAIT, |s| {
            s.contains("Not loaded (folder not trusted): 1 skill")
        });
    assert!(screen.contains("mock-model"), "{screen}");
    let recorded = std::fs::read_to_string(&trust_file).unwrap();
    assert!(recorded.contains("\"trusted\": false"), "{recorded}");
    pi.quit_and_check_terminal();

    let Session { sandbox, tmux, .. } = pi;
    drop(tmux);
    let again = Session::start(sandbox, "--model mock/mock-model");
    let screen = again
        .tmux
        .wait_for("a start without the question", WAIT, |s| {
            s.contains("mock-model") && s.contains("pi v")
        });
    assert!(!screen.contains("Trust this folder?"), "{screen}");
    assert!(
        screen.contains("Not loaded (folder not trusted)"),
        "{screen}"
    );
    again.quit_and_check_terminal();
}

/// A stored session of `cwd` with one exchange, written by hand into the agent folder.
fn session_of_folder(
    sandbox: &PiSandbox,
    cwd: &std::path::Path,
    id: &str,
    prompt: &str,
    answer: &str,
    minute: u32,
) {
    let dir = sandbox.agent_dir.join("sessions").join(format!("--{id}--"));
    std::fs::create_dir_all(&dir).unwrap();
    let ms = 1_764_000_000_000_i64 + i64::from(minute) * 60_000;
    let lines = [
        serde_json::json!({"type": "session", "version": 3, "id": id,
            "timestamp": "2025-11-24T00:00:00.000Z", "cwd": cwd}),
        serde_json::json!({"type": "message", "id": "u1", "parentId": null,
            "timestamp": "2025-11-24T00:00:01.000Z",
            "message": {"role": "user", "content": prompt, "timestamp": ms}}),
        serde_json::json!({"type": "message", "id": "a1", "parentId": "u1",
            "timestamp": "2025-11-24T00:00:02.000Z",
            "message": {"role": "assistant", "content": [{"type": "text", "text": answer}],
                "api": "openai-completions", "provider": "mock", "model": "mock-model",
                "stopReason": "stop", "timestamp": ms + 1}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join(format!("{id}.jsonl")), text).unwrap();
}

#[test]
fn resume_lists_every_folders_sessions_and_opens_one_in_its_folder() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |sandbox| {
        let elsewhere = sandbox.root.path().join("elsewhere-project");
        std::fs::create_dir_all(&elsewhere).unwrap();
        for i in 0..30 {
            let folder = sandbox.root.path().join(format!("older-{i}"));
            std::fs::create_dir_all(&folder).unwrap();
            session_of_folder(
                sandbox,
                &folder,
                &format!("older{i}"),
                &format!("older talk {i}"),
                "old",
                i,
            );
        }
        session_of_folder(
            sandbox,
            &elsewhere,
            "wanted",
            "the session made elsewhere",
            "answer from elsewhere",
            100,
        );
    });
    pi.send("/resume");
    pi.tmux.wait_for("this folder's (empty) list", WAIT, |s| {
        s.contains("Resume Session (Current Folder)") && !s.contains("made elsewhere")
    });
    pi.tmux.key("Tab");
    pi.tmux.wait_for("every folder's sessions", WAIT, |s| {
        s.contains("Resume Session (All)")
            && s.contains("the session made elsewhere")
            && s.contains("older talk")
            && s.contains("elsewhere-project")
    });
    pi.tmux.type_text("\"made elsewhere\"");
    pi.tmux.wait_for("the search narrowed to it", WAIT, |s| {
        s.contains("→ the session made elsewhere") && !s.contains("older talk")
    });
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the session resumed in its folder", WAIT, |s| {
            s.contains("answer from elsewhere") && !s.contains("Resume Session")
        });
    // The footer names the session's folder, not the project pi started in.
    assert!(screen.contains("elsewhere-project"), "{screen}");
    pi.quit_and_check_terminal();
}
