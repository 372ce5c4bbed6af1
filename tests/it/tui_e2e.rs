//! End to end: the real `pi` binary in interactive mode inside tmux, against
//! the mock LLM server. Skipped (with a message) when tmux is not installed.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use pi_cli::PiSandbox;
use serde_json::json;
use support::sse_builders::OpenAiSse;
use support::{MockReply, MockServer};

use tui_harness::*;

#[test]
fn prompt_streams_answer_with_a_bash_row_and_ctrl_d_restores_the_terminal() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_1",
        "bash",
        json!({"command": "echo tool-said-hello"}),
    )]));
    server.push(MockReply::openai_text(
        "All done.\n\n```rust\nfn main() {}\n```\n\nThe **tool** worked.",
    ));
    let pi = Session::launch(&server, |_| {});
    pi.send("run the tool please");
    let screen = pi
        .tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("The tool worked.")
        });
    assert!(screen.contains("run the tool please"), "{screen}");
    assert!(screen.contains("$ echo tool-said-hello"), "{screen}");
    assert!(screen.contains("\n tool-said-hello"), "{screen}");
    assert!(screen.contains("fn main() {}"), "{screen}");
    assert!(
        !screen.contains("**tool**"),
        "markdown was rendered: {screen}"
    );
    assert_eq!(server.request_count(), 2);
    pi.quit_and_check_terminal();
    assert_eq!(pi.sandbox.session_files().len(), 1, "one session saved");
}

/// A running interactive pi in tmux with `stty -a` recorded around it.
#[test]
fn escape_aborts_a_streaming_answer() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(
        MockReply::openai(
            OpenAiSse::new()
                .text("Partial answer that never ends")
                .without_done(),
        )
        .hold_open(),
    );
    let pi = Session::launch(&server, |_| {});
    pi.send("tell me a story");
    pi.tmux
        .wait_for("streamed text", Duration::from_secs(20), |s| {
            s.contains("Partial answer that never ends") && s.contains("Working...")
        });
    pi.tmux.key("Escape");
    let screen = pi.tmux.wait_for("the abort", Duration::from_secs(20), |s| {
        s.contains("Operation aborted") && !s.contains("Working...")
    });
    assert!(screen.contains("tell me a story"), "{screen}");
    assert!(
        server.wait_for_disconnects(1, Duration::from_secs(10)),
        "the stream was closed"
    );
    pi.quit_and_check_terminal();
}

#[test]
fn enter_while_a_tool_runs_queues_a_steering_message() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_1",
        "bash",
        json!({"command": "while [ ! -f release ]; do sleep 0.05; done; echo released"}),
    )]));
    server.push(MockReply::openai_text("Steered as asked."));
    let pi = Session::launch(&server, |_| {});
    pi.send("start the long tool");
    pi.tmux
        .wait_for("the running tool", Duration::from_secs(20), |s| {
            s.contains("while [ ! -f release ]") && s.contains("Working...")
        });
    pi.send("also check the tests");
    pi.tmux
        .wait_for("the queued message", Duration::from_secs(20), |s| {
            s.contains("Steering: also check the tests")
        });
    std::fs::write(pi.sandbox.project.join("release"), "").unwrap();
    let screen = pi
        .tmux
        .wait_for("the steered answer", Duration::from_secs(20), |s| {
            s.contains("Steered as asked.") && !s.contains("Steering:")
        });
    assert!(screen.contains("released"), "{screen}");
    let second = server.requests()[1].json().to_string();
    assert!(
        second.contains("also check the tests"),
        "steering message sent: {second}"
    );
    pi.quit_and_check_terminal();
}

#[test]
fn model_command_switches_the_model() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("answered by the other model"));
    let pi = Session::launch(&server, |sandbox| {
        let base = server.openai_base_url();
        sandbox.write_agent_file(
            "models.json",
            &json!({"providers": {"mock": {
                "baseUrl": base, "api": "openai-completions", "apiKey": "test-key",
                "models": [
                    {"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096},
                    {"id": "other-model", "contextWindow": 50000, "maxTokens": 4096}
                ]
            }}})
            .to_string(),
        );
    });
    pi.send("/model");
    pi.tmux
        .wait_for("the selector", Duration::from_secs(20), |s| {
            s.contains("Select model") && s.contains("other-model")
        });
    pi.tmux.type_text("other");
    pi.tmux.key("Enter");
    pi.tmux.wait_for(
        "the new model in the footer",
        Duration::from_secs(20),
        |s| s.contains("Model: mock/other-model") && s.contains("/50k"),
    );
    pi.send("hello");
    pi.tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("answered by the other model")
        });
    assert_eq!(server.requests()[0].json()["model"], "other-model");
    pi.quit_and_check_terminal();
}

#[test]
fn the_model_chosen_with_slash_model_is_active_after_a_restart() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.openai_base_url(), "api": "openai-completions", "apiKey": "k",
            "models": [
                {"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096},
                {"id": "other-model", "contextWindow": 50000, "maxTokens": 4096}
            ]
        }}})
        .to_string(),
    );
    sandbox.write_agent_file(
        "settings.json",
        r#"{"defaultProvider": "mock", "defaultModel": "mock-model"}"#,
    );
    let pi = Session::start(sandbox, "");
    pi.tmux
        .wait_for("the first model", Duration::from_secs(20), |s| {
            s.contains("mock-model") && s.contains("/100k")
        });
    pi.send("/model");
    pi.tmux
        .wait_for("the selector", Duration::from_secs(20), |s| {
            s.contains("other-model")
        });
    pi.tmux.type_text("other");
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the switch", Duration::from_secs(20), |s| {
            s.contains("Model: mock/other-model") && s.contains("/50k")
        });
    // Ctrl+P twice: one status line, updated in place.
    pi.tmux.key("C-p");
    pi.tmux
        .wait_for("the cycled model", Duration::from_secs(20), |s| {
            s.contains("Model: mock/mock-model")
        });
    pi.tmux.key("C-p");
    let screen = pi
        .tmux
        .wait_for("the model back", Duration::from_secs(20), |s| {
            s.contains("Model: mock/other-model") && !s.contains("Model: mock/mock-model")
        });
    assert_eq!(screen.matches("Model: mock/").count(), 1, "{screen}");
    pi.quit_and_check_terminal();
    let saved: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(pi.sandbox.agent_dir.join("settings.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(saved["defaultProvider"], "mock");
    assert_eq!(saved["defaultModel"], "other-model");

    let Session {
        sandbox,
        tmux,
        after,
        ..
    } = pi;
    drop(tmux);
    std::fs::remove_file(after).unwrap();
    let again = Session::start(sandbox, "");
    again
        .tmux
        .wait_for("the remembered model", Duration::from_secs(20), |s| {
            s.contains("other-model") && s.contains("/50k")
        });
    again.quit_and_check_terminal();
}

#[test]
fn resume_command_continues_an_earlier_session() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("I will remember."));
    server.push(MockReply::openai_text("The word was pineapple."));
    let pi = Session::launch(&server, |sandbox| {
        let out = sandbox.run(
            &[
                "--model",
                "mock/mock-model",
                "-p",
                "remember the word pineapple",
            ],
            None,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
    pi.send("/resume");
    pi.tmux
        .wait_for("the session selector", Duration::from_secs(20), |s| {
            s.contains("Resume Session") && s.contains("remember the word pineapple")
        });
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the resumed transcript", Duration::from_secs(20), |s| {
            s.contains("I will remember.")
                && !s.contains("Resume Session")
                && !s.contains("Working")
        });
    pi.send("which word?");
    pi.tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("The word was pineapple.")
        });
    let request = server.requests()[1].json().to_string();
    assert!(request.contains("remember the word pineapple"), "{request}");
    pi.quit_and_check_terminal();
    let files = pi.sandbox.session_files();
    assert_eq!(
        files.len(),
        1,
        "the resumed session was continued: {files:?}"
    );
}

#[test]
fn ctrl_g_edits_the_message_in_the_external_editor() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("Got your edited message."));
    let pi = Session::launch(&server, |sandbox| {
        // An "editor" that reads one line from the terminal, so every
        // keystroke must reach it rather than pi.
        let script = sandbox.root.path().join("editor.sh");
        let ready = sandbox.root.path().join("editor-ready");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\ntouch {}\nIFS= read -r line\nprintf '%s' \"$line\" > \"$1\"\n",
                quote(&ready.to_string_lossy())
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        sandbox
            .env
            .push(("VISUAL".into(), script.to_string_lossy().to_string()));
    });
    pi.tmux.type_text("draft");
    pi.tmux.key("C-g");
    wait_for_file_to_exist(&pi.sandbox.root.path().join("editor-ready"));
    pi.tmux.type_text("written in the editor");
    pi.tmux.key("Enter");
    // pi's own redraw, not the terminal's echo of the line typed for the editor: the text
    // sits in the editor, right under its top rule (pi is in raw mode again by then, so
    // Enter sends it instead of arriving as a cooked-mode line feed).
    pi.tmux
        .wait_for("the edited text", Duration::from_secs(20), |s| {
            let rows: Vec<&str> = s.lines().map(str::trim_end).collect();
            rows.windows(2)
                .any(|w| w[0].starts_with('─') && w[1] == "written in the editor")
                && !s.contains("draft")
                && s.contains("mock-model")
        });
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("Got your edited message.")
        });
    let request = server.requests()[0].json().to_string();
    assert!(request.contains("written in the editor"), "{request}");
    pi.quit_and_check_terminal();
}

fn wait_for_file_to_exist(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_edited_theme_file_is_applied_without_restart() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let theme_path = std::cell::RefCell::new(PathBuf::new());
    let theme_with_error = |hex: &str| {
        let builtin =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("themes/dark.json"))
                .unwrap();
        let mut theme: serde_json::Value = serde_json::from_str(&builtin).unwrap();
        theme["name"] = json!("mine");
        theme["colors"]["error"] = json!(hex);
        theme.to_string()
    };
    let pi = Session::launch(&server, |sandbox| {
        let dir = sandbox.agent_dir.join("themes");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("mine.json");
        std::fs::write(&path, theme_with_error("#ff0000")).unwrap();
        sandbox.write_agent_file("settings.json", r#"{"theme": "mine"}"#);
        *theme_path.borrow_mut() = path;
    });
    pi.send("/no-such-command");
    let coloured = |s: &str, rgb: &str| {
        s.lines()
            .any(|l| l.contains("Unknown command") && l.contains(&format!("38;2;{rgb}m")))
    };
    let styled = || pi.tmux.tmux(&["capture-pane", "-p", "-e"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !coloured(&styled(), "255;0;0") {
        assert!(
            Instant::now() < deadline,
            "error colour never shown:\n{}",
            styled()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::fs::write(&*theme_path.borrow(), theme_with_error("#00ff00")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !coloured(&styled(), "0;255;0") {
        assert!(
            Instant::now() < deadline,
            "theme not reloaded:\n{}",
            styled()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    pi.quit_and_check_terminal();
}

#[test]
fn without_credentials_pi_starts_on_the_scripted_demo_provider() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let sandbox = PiSandbox::new();
    std::fs::write(
        sandbox.project.join("README.md"),
        "# Demo project\nreadme-first-line-marker\n",
    )
    .unwrap();
    let pi = Session::start(sandbox, "");
    pi.tmux
        .wait_for("the demo notice", Duration::from_secs(20), |s| {
            s.contains("offline demo provider")
                && s.contains("ANTHROPIC_API_KEY")
                && s.contains("/login")
                && s.contains("demo: scripted replies")
                && s.contains("pi v")
        });
    pi.send("hello");
    let screen = pi
        .tmux
        .wait_for("the scripted tour", Duration::from_secs(30), |s| {
            s.contains("readme-first-line-marker") && s.contains("no model reads")
        });
    assert!(screen.contains("README.md"), "{screen}");
    pi.quit_and_check_terminal();
}

#[test]
fn bang_runs_a_user_command_and_double_bang_keeps_it_out_of_context() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("Seen it."));
    let pi = Session::launch(&server, |_| {});
    pi.send("!echo visible-$((20+22))");
    pi.tmux
        .wait_for("the user command row", Duration::from_secs(20), |s| {
            s.contains("$ echo visible-$((20+22))")
                && s.contains("visible-42")
                && !s.contains("Working")
        });
    pi.send("!!echo hidden-$((1+1))");
    pi.tmux
        .wait_for("the excluded command row", Duration::from_secs(20), |s| {
            s.contains("hidden-2") && !s.contains("Working")
        });
    pi.send("what did you see?");
    pi.tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("Seen it.")
        });
    let request = server.requests()[0].json().to_string();
    assert!(request.contains("visible-42"), "{request}");
    assert!(!request.contains("hidden-2"), "{request}");
    pi.quit_and_check_terminal();
}

/// The pid of `pi` running in the pane (a child of the pane's shell).
fn pi_pid(tmux: &Tmux) -> i32 {
    let shell = tmux.tmux(&["list-panes", "-F", "#{pane_pid}"]);
    let shell = shell.trim();
    let out = Command::new("pgrep")
        .args(["-P", shell, "-x", "pi"])
        .output()
        .expect("pgrep runs");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("pi is running")
}

#[test]
fn sigterm_and_sighup_restore_the_terminal() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    for signal in [libc::SIGTERM, libc::SIGHUP] {
        let server = MockServer::start();
        let pi = Session::launch(&server, |_| {});
        pi.tmux.type_text("unsent draft");
        let pid = pi_pid(&pi.tmux);
        unsafe { libc::kill(pid, signal) };
        let after = wait_for_file(&pi.after, Duration::from_secs(20));
        let before = std::fs::read_to_string(&pi.before).unwrap();
        assert_eq!(before, after, "stty -a differs after signal {signal}");
    }
}

#[test]
fn resume_flag_opens_the_session_selector() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("Noted."));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(
        &["--model", "mock/mock-model", "-p", "an earlier talk"],
        None,
    );
    assert!(out.status.success());
    let pi = Session::start(sandbox, "--model mock/mock-model --resume");
    pi.tmux
        .wait_for("the session selector", Duration::from_secs(20), |s| {
            s.contains("Resume Session") && s.contains("an earlier talk")
        });
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the resumed session", Duration::from_secs(20), |s| {
            s.contains("Noted.") && !s.contains("Resume Session")
        });
    pi.quit_and_check_terminal();
}

#[test]
fn new_and_name_commands() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("first answer"));
    server.push(MockReply::openai_text("second answer"));
    let pi = Session::launch(&server, |_| {});
    pi.send("hello one");
    pi.tmux
        .wait_for("the first answer", Duration::from_secs(20), |s| {
            s.contains("first answer")
        });
    // The answer can show before the turn has ended; /new waits for idle.
    for _ in 0..40 {
        pi.send("/new");
        std::thread::sleep(Duration::from_millis(250));
        if pi.tmux.screen().contains("New session started") {
            break;
        }
    }
    pi.tmux
        .wait_for("an empty transcript", Duration::from_secs(20), |s| {
            s.contains("New session started") && !s.contains("first answer")
        });
    pi.send("/name 日本語 work");
    pi.tmux
        .wait_for("the name in the footer", Duration::from_secs(20), |s| {
            s.contains("• 日本語 work")
        });
    pi.send("hello two");
    pi.tmux
        .wait_for("the second answer", Duration::from_secs(20), |s| {
            s.contains("second answer")
        });
    let second = server.requests()[1].json().to_string();
    assert!(
        !second.contains("hello one"),
        "the new session starts empty: {second}"
    );
    pi.quit_and_check_terminal();
    let files = pi.sandbox.session_files();
    assert_eq!(files.len(), 2, "{files:?}");
    let named = files
        .iter()
        .any(|f| std::fs::read_to_string(f).unwrap().contains("日本語 work"));
    assert!(named, "the name is saved in the new session");
}
