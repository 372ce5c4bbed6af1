//! Behaviour of keys at the application level.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::agent::agent_loop::AgentQueues;
use crate::tui::app::App;
use crate::tui::app::session_task::SessionCommand;
use crate::tui::chrome::FooterInfo;
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

fn app() -> (App, UnboundedReceiver<SessionCommand>) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        FooterInfo::default(),
    );
    (app, rx)
}

fn key(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    app.handle_terminal_event(Event::Key(KeyEvent::new(code, modifiers)));
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

#[test]
fn ctrl_c_clears_then_a_quick_second_press_quits() {
    let (mut a, _rx) = app();
    type_text(&mut a, "draft");
    key(&mut a, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(a.editor.is_empty());
    assert!(!a.quit);
    key(&mut a, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(a.quit);
}

#[test]
fn ctrl_d_quits_only_when_the_editor_is_empty() {
    let (mut a, _rx) = app();
    type_text(&mut a, "ab");
    key(&mut a, KeyCode::Left, KeyModifiers::NONE);
    key(&mut a, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert!(!a.quit);
    assert_eq!(a.editor.text(), "a");
    key(&mut a, KeyCode::Char('u'), KeyModifiers::CONTROL);
    key(&mut a, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert!(a.quit);
}

#[test]
fn enter_sends_a_prompt_and_enter_while_busy_steers() {
    let (mut a, mut rx) = app();
    type_text(&mut a, "hello");
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let Ok(SessionCommand::Prompt { text, signal, .. }) = rx.try_recv() else {
        panic!("prompt sent")
    };
    assert_eq!(text, "hello");
    assert!(a.is_busy());
    type_text(&mut a, "steer");
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    type_text(&mut a, "later");
    key(&mut a, KeyCode::Enter, KeyModifiers::ALT);
    assert_eq!(a.queues.steering.texts(), vec!["steer"]);
    assert_eq!(a.queues.follow_up.texts(), vec!["later"]);
    assert!(rx.try_recv().is_err(), "nothing else sent");
    // Esc aborts and puts the queued messages back into the editor.
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    assert!(signal.is_cancelled());
    assert_eq!(a.editor.text(), "steer\n\nlater");
    assert!(a.queues.steering.is_empty() && a.queues.follow_up.is_empty());
}

#[test]
fn toggles_and_scrolling() {
    let (mut a, _rx) = app();
    key(&mut a, KeyCode::Char('o'), KeyModifiers::CONTROL);
    assert!(a.tools_expanded);
    key(&mut a, KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert!(a.thinking_expanded);
    a.page = 10;
    key(&mut a, KeyCode::PageUp, KeyModifiers::NONE);
    assert_eq!(a.scroll, 10);
    a.handle_terminal_event(Event::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 0,
        row: 0,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(a.scroll, 7);
    key(&mut a, KeyCode::PageDown, KeyModifiers::NONE);
    assert_eq!(a.scroll, 0);
}

#[test]
fn slash_completion_and_tree_command() {
    let (mut a, mut rx) = app();
    type_text(&mut a, "/hot");
    assert_eq!(a.completion, Some(0));
    key(&mut a, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(a.editor.text(), "/hotkeys ");
    a.editor.clear();
    type_text(&mut a, "/tree");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let sent = std::iter::from_fn(|| rx.try_recv().ok()).last();
    assert!(
        matches!(
            sent,
            Some(crate::tui::app::session_task::SessionCommand::Tree(
                crate::tui::app::session_tree_task::TreeCommand::Open
            ))
        ),
        "{sent:?}"
    );
    assert!(a.is_busy(), "busy until the tree arrives");
}

#[test]
fn double_escape_on_an_empty_editor_opens_the_tree_or_the_fork_list_as_set() {
    use crate::tui::app::session_task::SessionCommand as C;
    use crate::tui::app::session_tree_task::TreeCommand as T;
    for (action, expected) in [
        ("tree", Some("tree")),
        ("fork", Some("fork")),
        ("none", None),
    ] {
        let (mut a, mut rx) = app();
        a.ui_settings.settings = crate::config::settings::Settings::from_values(
            serde_json::json!({ "doubleEscapeAction": action }),
            serde_json::json!({}),
        );
        key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
        assert!(rx.try_recv().is_err(), "one Escape does nothing");
        key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
        let sent = match rx.try_recv() {
            Ok(C::Tree(T::Open)) => Some("tree"),
            Ok(C::Tree(T::ForkList)) => Some("fork"),
            _ => None,
        };
        assert_eq!(sent, expected, "{action}");
    }
    // With text in the editor, Escape never opens anything.
    let (mut a, mut rx) = app();
    type_text(&mut a, "draft");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    assert!(rx.try_recv().is_err());
}

#[test]
fn session_and_copy_commands_report_in_the_transcript() {
    let (mut a, _rx) = app();
    a.session_id = "0193-abc".into();
    type_text(&mut a, "/session");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let text = format!("{:?}", a.transcript.items.last().unwrap());
    assert!(
        text.contains("ID: 0193-abc") && text.contains("File: (not saved)"),
        "{text}"
    );
    type_text(&mut a, "/copy");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let text = format!("{:?}", a.transcript.items.last().unwrap());
    assert!(text.contains("No agent messages to copy yet."), "{text}");
}

#[test]
fn session_info_counts_every_message_by_kind_and_groups_token_digits() {
    use crate::ai::types::Message;
    let usage = serde_json::json!({"input": 12345, "output": 678, "cacheRead": 0, "cacheWrite": 9,
        "totalTokens": 13032, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0.5}});
    let messages: Vec<Message> = [
        serde_json::json!({"role": "user", "content": "run it", "timestamp": 1}),
        serde_json::json!({"role": "assistant", "content": [
            {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls"}},
            {"type": "toolCall", "id": "c2", "name": "read", "arguments": {"path": "a"}}],
            "api": "openai-completions", "provider": "p", "model": "m", "usage": usage,
            "stopReason": "toolUse", "timestamp": 2}),
        serde_json::json!({"role": "toolResult", "toolCallId": "c1", "toolName": "bash",
            "content": [{"type": "text", "text": "a"}], "isError": false, "timestamp": 3}),
        serde_json::json!({"role": "toolResult", "toolCallId": "c2", "toolName": "read",
            "content": [{"type": "text", "text": "x"}], "isError": false, "timestamp": 4}),
    ]
    .into_iter()
    .map(|v| serde_json::from_value(v).unwrap())
    .collect();
    let (mut a, _rx) = app();
    a.transcript = crate::tui::transcript::Transcript::from_messages(&messages.to_vec().into());
    a.transcript
        .apply(&crate::agent::events::AgentEvent::MessageEnd {
            message: messages[0].clone(),
        });
    type_text(&mut a, "/session");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let text = format!("{:?}", a.transcript.items.last().unwrap());
    for line in [
        "User: 2",
        "Assistant: 1",
        "Tool calls: 2",
        "Tool results: 2",
        "Total: 5",
        "Input: 12,345",
        "Output: 678",
        "Cache write: 9",
        "Total: 13,032",
        "Cost: $0.5000",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
}

#[test]
fn at_completes_project_paths() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/editor.rs"), "").unwrap();
    let (mut a, _rx) = app();
    a.footer.cwd = dir.path().to_path_buf();
    type_text(&mut a, "look at @edi");
    assert_eq!(a.completions()[0].0, "@src/editor.rs");
    key(&mut a, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(a.editor.text(), "look at @src/editor.rs ");
    assert_eq!(a.completion, None);
}

#[test]
fn a_resumed_session_fills_the_prompt_history() {
    use crate::ai::types::{Message, UserContent, UserMessage};
    use crate::tui::app::session_task::UiEvent;
    let (mut a, _rx) = app();
    let user = |t: &str| {
        Message::User(UserMessage {
            content: UserContent::Text(t.into()),
            timestamp: 0,
        })
    };
    let messages = [user("first question"), user("second question")];
    a.handle_ui_event(UiEvent::Reset(
        Box::new(crate::tui::transcript::Transcript::from_messages(
            &messages.to_vec().into(),
        )),
        crate::tui::app::session_task::ResetKind::Resumed,
    ));
    key(&mut a, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(a.editor.text(), "second question");
    key(&mut a, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(a.editor.text(), "first question");
}

#[test]
fn shift_tab_cycles_thinking_and_ctrl_l_opens_the_model_selector() {
    let (mut a, mut rx) = app();
    a.footer.reasoning = true;
    a.footer.thinking = "low".into();
    key(&mut a, KeyCode::BackTab, KeyModifiers::SHIFT);
    assert_eq!(a.footer.thinking, "medium");
    assert!(matches!(
        rx.try_recv(),
        Ok(SessionCommand::SetThinking(
            crate::ai::model::ThinkingLevel::Medium
        ))
    ));
    key(&mut a, KeyCode::Char('l'), KeyModifiers::CONTROL);
    assert!(a.overlay.is_none(), "no models: no selector");
    let text = format!("{:?}", a.transcript.items.last().unwrap());
    assert!(text.contains("No models available"), "{text}");
}

#[test]
fn keybinding_overrides_apply_to_app_actions() {
    let (mut a, _rx) = app();
    a.keys = Keybindings::from_json(r#"{"app.tools.expand": "ctrl+x"}"#).0;
    key(&mut a, KeyCode::Char('o'), KeyModifiers::CONTROL);
    assert!(!a.tools_expanded);
    key(&mut a, KeyCode::Char('x'), KeyModifiers::CONTROL);
    assert!(a.tools_expanded);
}

#[test]
fn messages_queued_during_a_command_are_sent_when_idle() {
    use crate::tui::app::session_task::{SessionSnapshot, UiEvent};
    let (mut a, mut rx) = app();
    type_text(&mut a, "!sleep 1");
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    assert!(matches!(rx.try_recv(), Ok(SessionCommand::Bash { .. })));
    type_text(&mut a, "then this");
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(a.queues.steering.texts(), vec!["then this"]);
    let model: crate::ai::model::Model = serde_json::from_value(serde_json::json!({
        "id": "m", "name": "m", "api": "openai-completions", "provider": "p",
        "baseUrl": "http://127.0.0.1", "reasoning": false, "input": ["text"],
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
        "contextWindow": 1000, "maxTokens": 100
    }))
    .unwrap();
    a.handle_ui_event(UiEvent::Idle(Box::new(SessionSnapshot {
        name: None,
        file: None,
        id: "s".into(),
        message_count: 0,
        model,
        thinking: crate::ai::model::ThinkingLevel::Off,
        extension_commands: Vec::new(),
        resource_commands: Vec::new(),
        auto_compact: true,
    })));
    let Ok(SessionCommand::Prompt { text, .. }) = rx.try_recv() else {
        panic!("queued message sent")
    };
    assert_eq!(text, "then this");
    assert!(a.is_busy());
}

#[test]
fn extension_work_queued_while_idle_runs_at_once_or_after_the_current_command() {
    use crate::tui::app::session_task::{SessionSnapshot, UiEvent};
    let (mut a, mut rx) = app();
    a.handle_ui_event(UiEvent::ExtensionActionsQueued);
    assert!(matches!(
        rx.try_recv(),
        Ok(SessionCommand::ExtensionActions { .. })
    ));
    assert!(a.is_busy(), "the turn it may start can be aborted");

    // While that runs, more work waits for the idle state.
    a.handle_ui_event(UiEvent::ExtensionActionsQueued);
    assert!(rx.try_recv().is_err());
    let model: crate::ai::model::Model = serde_json::from_value(serde_json::json!({
        "id": "m", "name": "m", "api": "openai-completions", "provider": "p",
        "baseUrl": "http://127.0.0.1", "reasoning": false, "input": ["text"],
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
        "contextWindow": 1000, "maxTokens": 100
    }))
    .unwrap();
    a.handle_ui_event(UiEvent::Idle(Box::new(SessionSnapshot {
        name: None,
        file: None,
        id: "s".into(),
        message_count: 0,
        model,
        thinking: crate::ai::model::ThinkingLevel::Off,
        extension_commands: Vec::new(),
        resource_commands: Vec::new(),
        auto_compact: true,
    })));
    assert!(matches!(
        rx.try_recv(),
        Ok(SessionCommand::ExtensionActions { .. })
    ));
    assert!(rx.try_recv().is_err());
}

#[test]
fn ctrl_p_cycles_through_the_scoped_models() {
    let model = |id: &str| -> crate::ai::model::Model {
        serde_json::from_value(serde_json::json!({
            "id": id, "name": id, "api": "openai-completions", "provider": "p",
            "baseUrl": "http://127.0.0.1", "reasoning": false, "input": ["text"],
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
            "contextWindow": 1000, "maxTokens": 100
        }))
        .unwrap()
    };
    let (mut a, mut rx) = app();
    a.models = vec![model("a"), model("b"), model("c")];
    a.cycle_models = vec![model("a"), model("c")];
    a.footer.model_id = "a".into();
    a.footer.provider = "p".into();
    key(&mut a, KeyCode::Char('p'), KeyModifiers::CONTROL);
    assert_eq!(a.footer.model_id, "c");
    assert!(matches!(
        rx.try_recv(),
        Ok(SessionCommand::SetModel(m, crate::core::session_command::ModelSource::Cycle)) if m.id == "c"
    ));
    key(
        &mut a,
        KeyCode::Char('p'),
        KeyModifiers::CONTROL | KeyModifiers::SHIFT,
    );
    assert_eq!(a.footer.model_id, "a");
}

#[test]
fn extension_commands_complete_and_run_and_reload_is_sent() {
    let (mut a, mut rx) = app();
    a.extension_commands = vec![("deploy".into(), "Ship it".into())];
    type_text(&mut a, "/dep");
    assert_eq!(
        a.completions(),
        vec![("/deploy".to_string(), "Ship it".to_string())]
    );
    key(&mut a, KeyCode::Tab, KeyModifiers::NONE);
    type_text(&mut a, "prod now");
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let Ok(SessionCommand::ExtensionCommand { name, args, .. }) = rx.try_recv() else {
        panic!("extension command sent")
    };
    assert_eq!((name.as_str(), args.as_str()), ("deploy", "prod now"));
    assert!(a.is_busy());
    a.handle_ui_event(crate::tui::app::session_task::UiEvent::Notice(
        "done".into(),
    ));
    a.busy_since = None;
    type_text(&mut a, "/reload");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    assert!(matches!(rx.try_recv(), Ok(SessionCommand::Reload)));
    a.handle_ui_event(crate::tui::app::session_task::UiEvent::Quit);
    assert!(a.quit);
}

#[test]
fn an_image_path_is_attached_when_the_model_accepts_images() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("shot.png"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    )
    .unwrap();
    let (mut a, mut rx) = app();
    a.footer.cwd = dir.path().to_path_buf();
    let mut model = crate::ai::providers::faux::FauxProvider::new().model();
    a.footer.model_id = model.id.clone();
    a.footer.provider = model.provider.clone();
    a.models = vec![model.clone()];
    type_text(&mut a, "what is in @shot.png");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let Ok(SessionCommand::Prompt { text, images, .. }) = rx.try_recv() else {
        panic!("a prompt")
    };
    assert_eq!(text, "what is in @shot.png");
    assert_eq!(images.len(), 1);

    // A text-only model gets the message without the image, and a notice.
    model.input = vec!["text".into()];
    a.models = vec![model];
    a.busy_since = None;
    type_text(&mut a, "again @shot.png");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let Ok(SessionCommand::Prompt { images, .. }) = rx.try_recv() else {
        panic!("a prompt")
    };
    assert!(images.is_empty());
    let notice = a.transcript.items.iter().any(|i| {
        matches!(i, crate::tui::transcript::Item::Notice { text, .. } if text.contains("does not accept images"))
    });
    assert!(notice);
}

#[test]
fn skill_and_template_commands_complete_and_are_sent_as_prompts() {
    let (mut a, mut rx) = app();
    a.resource_commands = vec![
        ("review".into(), "Review the diff".into()),
        ("skill:pdf".into(), "PDF tools".into()),
    ];
    type_text(&mut a, "/rev");
    assert_eq!(
        a.completions(),
        vec![("/review".to_string(), "Review the diff".to_string())]
    );
    a.editor.clear();
    type_text(&mut a, "/skill:pdf page 2");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let Ok(SessionCommand::Prompt { text, .. }) = rx.try_recv() else {
        panic!("sent as a prompt")
    };
    assert_eq!(text, "/skill:pdf page 2");
}

#[test]
fn enter_on_an_exact_command_name_runs_it_not_a_fuzzy_match() {
    let (mut a, mut rx) = app();
    a.extension_commands = vec![("one".into(), "The first".into())];
    type_text(&mut a, "/one");
    let offered = a.completions();
    assert_eq!(offered[0].0, "/one", "{offered:?}");
    assert!(offered.iter().any(|(n, _)| n == "/clone"), "{offered:?}");
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let Ok(SessionCommand::ExtensionCommand { name, .. }) = rx.try_recv() else {
        panic!("the extension command runs")
    };
    assert_eq!(name, "one");
}

#[test]
fn login_with_an_api_key_stores_it_privately_and_leaves_the_demo_model() {
    let dir = tempfile::tempdir().unwrap();
    let (mut a, mut rx) = app();
    a.login.agent_dir = Some(dir.path().to_path_buf());
    a.footer.provider = "demo".into();
    type_text(&mut a, "/login");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    key(&mut a, KeyCode::Down, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let drawn = |a: &App| {
        let lines = a.overlay.as_ref().unwrap().lines(&Theme::plain(), 100);
        lines
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(drawn(&a).contains("OPENAI_API_KEY"), "{}", drawn(&a));
    type_text(&mut a, "openai");
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    a.handle_terminal_event(Event::Paste("sk-test-123".into()));
    assert!(!drawn(&a).contains("sk-test"), "{}", drawn(&a));
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    assert!(a.overlay.is_none());
    let path = dir.path().join("auth.json");
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        stored,
        serde_json::json!({"openai": {"type": "api_key", "key": "sk-test-123"}})
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert!(a.models.iter().any(|m| m.provider == "openai"));
    let switched = std::iter::from_fn(|| rx.try_recv().ok())
        .find_map(|c| match c {
            SessionCommand::SetModel(m, _) => Some(m),
            _ => None,
        })
        .expect("the demo model is left for the provider's model");
    assert_eq!(switched.provider, "openai");
    a.editor.clear();
    a.submit("/logout openai".into());
    let stored = std::fs::read_to_string(&path).unwrap();
    assert!(!stored.contains("sk-test"), "{stored}");
    if std::env::var_os("OPENAI_API_KEY").is_none() {
        assert!(!a.models.iter().any(|m| m.provider == "openai"));
    }
}

#[test]
fn a_resume_into_another_folder_moves_the_footer_and_the_session_scope() {
    use crate::tui::app::session_task::UiEvent;
    let (mut a, _rx) = app();
    a.session_dir = Some(std::path::PathBuf::from("/sessions/--here--"));
    let there = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(there.path().join(".git")).unwrap();
    std::fs::write(there.path().join(".git/HEAD"), "ref: refs/heads/topic\n").unwrap();
    let sessions = std::path::PathBuf::from("/sessions/--there--");
    a.handle_ui_event(UiEvent::FolderChanged(
        there.path().to_path_buf(),
        Some(sessions.clone()),
    ));
    assert_eq!(a.footer.cwd, there.path());
    assert_eq!(a.footer.git_branch.as_deref(), Some("topic"));
    assert_eq!(a.session_dir, Some(sessions));
}

#[test]
fn session_info_shows_the_checkpoints_and_their_storage() {
    use crate::checkpoint::{CheckpointKind, CheckpointStore};
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let sessions = dir.path().join("sessions");
    let mut store = CheckpointStore::open(&sessions, "sid", &ws, Default::default());
    store.begin_run(CheckpointKind::Prompt, Some("u1".into()));
    store.before_write(&ws.join("a.txt")).unwrap();
    std::fs::write(ws.join("a.txt"), "made\n").unwrap();
    store.finish_run().unwrap();
    let (mut a, _rx) = app();
    a.session_file = Some(sessions.join("s.jsonl"));
    a.session_id = "sid".into();
    type_text(&mut a, "/session");
    key(&mut a, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut a, KeyCode::Enter, KeyModifiers::NONE);
    let text = format!("{:?}", a.transcript.items.last().unwrap());
    assert!(text.contains("Checkpoints: 1 ("), "{text}");
    assert!(text.contains("for this session"), "{text}");
}
