//! Screens with Lua surfaces drawn into ratatui's TestBackend: overlays over
//! the transcript, a replaced footer, widgets around the editor, and typing
//! latency while a Lua component renders slowly on the extension thread.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::agent::agent_loop::AgentQueues;
use crate::lua::ui::surfaces::{CustomSurface, OverlayOptions, Placement, Size, SurfaceStore};
use crate::tui::app::App;
use crate::tui::chrome::FooterInfo;
use crate::tui::transcript::NoticeKind;
use crate::tui::view::draw;
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

fn app(store: &SurfaceStore) -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        FooterInfo {
            cwd: PathBuf::from("/srv/p"),
            model_id: "m".into(),
            ..FooterInfo::default()
        },
    );
    app.quiet_startup = true;
    app.lua.surfaces = Some(store.clone());
    app
}

fn screen(terminal: &mut Terminal<TestBackend>, app: &mut App) -> Vec<String> {
    terminal.draw(|f| draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

#[test]
fn overlay_covers_the_middle_of_the_transcript_only() {
    let store = SurfaceStore::default();
    let mut app = app(&store);
    for i in 0..12 {
        app.transcript
            .notice(format!("transcript line {i}"), NoticeKind::Info);
    }
    store.lock().show(CustomSurface {
        id: 1,
        overlay: Some(OverlayOptions {
            width: Some(Size::Cells(12)),
            ..OverlayOptions::default()
        }),
        lines: vec![
            "+----------+".into(),
            "|\x1b[31m OVERLAY \x1b[39m |".into(),
            "+----------+".into(),
        ],
        ..CustomSurface::default()
    });
    let mut terminal = Terminal::new(TestBackend::new(40, 20)).unwrap();
    let rows = screen(&mut terminal, &mut app);
    let overlay_row = rows
        .iter()
        .position(|r| r.contains("| OVERLAY  |"))
        .unwrap();
    assert_eq!(overlay_row, 9, "{rows:#?}");
    assert_eq!(rows[overlay_row].find('|'), Some(14));
    // Rows around it still show the transcript.
    assert_eq!(rows[overlay_row], " transcript li| OVERLAY  |");
    assert_eq!(rows[overlay_row - 4], " transcript line 7");
    assert_eq!(rows[overlay_row + 2], " transcript line 10");
    // The overlay is focused: keys go to it, not to the editor.
    app.handle_terminal_event(Event::Key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE)));
    assert_eq!(store.lock().keys.pop_front(), Some((1, "up".to_string())));
}

#[test]
fn footer_header_widgets_and_inline_custom_replace_their_slots() {
    let store = SurfaceStore::default();
    let mut app = app(&store);
    {
        let mut s = store.lock();
        s.footer = Some(vec!["LUA FOOTER".into()]);
        s.widgets.insert(
            "a".into(),
            (Placement::AboveEditor, vec!["WIDGET ABOVE".into()]),
        );
        s.widgets.insert(
            "b".into(),
            (Placement::BelowEditor, vec!["WIDGET BELOW".into()]),
        );
    }
    let mut terminal = Terminal::new(TestBackend::new(40, 12)).unwrap();
    let rows = screen(&mut terminal, &mut app);
    let at = |text: &str| rows.iter().position(|r| r.contains(text));
    assert_eq!(at("LUA FOOTER"), Some(6), "{rows:#?}");
    let above = at("WIDGET ABOVE").unwrap();
    let below = at("WIDGET BELOW").unwrap();
    assert!(rows[above + 1].starts_with("───"), "{rows:#?}");
    assert!(rows[below - 1].starts_with("───"), "{rows:#?}");
    assert_eq!(
        (above, below),
        (1, 5),
        "a blank row stands above the widgets"
    );
    assert!(
        !rows.iter().any(|r| r.contains("/srv/p")),
        "built-in footer gone"
    );
    assert_eq!(store.lock().size, (40, 12));

    store.lock().show(CustomSurface {
        id: 4,
        lines: vec!["INLINE PICKER".into()],
        ..CustomSurface::default()
    });
    let rows = screen(&mut terminal, &mut app);
    assert!(rows.iter().any(|r| r == "INLINE PICKER"), "{rows:#?}");
    assert!(
        !rows.iter().any(|r| r.starts_with("───")),
        "editor replaced"
    );
}

/// Keystroke to screen while the extension thread spends 200 ms in every
/// render of a widget: the frame never waits for Lua.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typing_stays_fast_while_a_lua_render_takes_200_ms() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slow.lua");
    std::fs::write(
        &path,
        r#"return function(pi)
  pi.on("session_start", function(_, ctx)
    -- Keep the extension thread busy 200 ms at a time, all the time.
    pi.setInterval(function() local t = os.clock() while os.clock() - t < 0.2 do end end, 1)
    ctx.ui.setWidget("slow", function(tui)
      pi.setInterval(function() tui.requestRender() end, 10)
      return { render = function()
        local t = os.clock() while os.clock() - t < 0.2 do end
        return { "slow" }
      end }
    end)
  end)
end"#,
    )
    .unwrap();
    let view = crate::lua::SharedView::new(".");
    view.lock().capture_messages = true;
    let store = view.lock().surfaces.clone();
    let handle = crate::lua::ExtensionHandle::start(
        crate::lua::HostConfig::new(vec![path], "."),
        view.clone(),
    );
    handle.load().await;
    store.attach(60, 16);
    handle
        .emit(
            "session_start",
            serde_json::json!({"type": "session_start"}),
        )
        .await;
    // Wait until the host is busy inside the slow render.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !store.lock().widgets.contains_key("slow") {
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut app = app(&store);
    let mut terminal = Terminal::new(TestBackend::new(60, 16)).unwrap();
    let mut times = Vec::new();
    let mut typed = String::new();
    for i in 0..40 {
        let c = (b'a' + (i % 26) as u8) as char;
        typed.push(c);
        let started = Instant::now();
        app.handle_terminal_event(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
        let rows = screen(&mut terminal, &mut app);
        times.push(started.elapsed());
        assert!(rows.iter().any(|r| r.contains(&typed)), "{rows:#?}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    times.sort();
    let median = times[times.len() / 2];
    eprintln!(
        "keystroke to screen: median {:?}, max {:?}",
        median,
        times[times.len() - 1]
    );
    assert!(median <= Duration::from_millis(16), "{times:?}");
    let slow = store.lock().widgets["slow"].1.clone();
    assert!(slow[0].contains("budget"), "{slow:?}");
}

/// Tool rows and custom messages: the app queues them, the extension
/// thread renders them with the todo and message-renderer examples, and
/// the next frame shows the Lua lines (built-in parts where a slot is
/// missing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_rows_and_custom_messages_show_lua_renderer_lines() {
    use crate::agent::events::{AgentEvent, ToolResultPayload};
    use crate::ai::types::{ContentBlock, CustomMessage, Message, UserContent};
    use crate::tui::app::session_task::UiEvent;
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("extensions/examples");
    let view = crate::lua::SharedView::new(".");
    view.lock().capture_messages = true;
    let store = view.lock().surfaces.clone();
    let handle = crate::lua::ExtensionHandle::start(
        crate::lua::HostConfig::new(
            vec![
                examples.join("todo.lua"),
                examples.join("message-renderer.lua"),
            ],
            ".",
        ),
        view,
    );
    assert!(handle.load().await.errors.is_empty());
    store.attach(60, 20);
    let mut app = app(&store);
    let agent = |e: AgentEvent| UiEvent::Agent(Box::new(e));
    app.handle_ui_event(agent(AgentEvent::ToolExecutionStart {
        tool_call_id: "t1".into(),
        tool_name: "todo".into(),
        args: serde_json::json!({"action": "add", "text": "ship"}),
    }));
    app.handle_ui_event(agent(AgentEvent::ToolExecutionEnd {
        tool_call_id: "t1".into(),
        tool_name: "todo".into(),
        result: ToolResultPayload {
            content: vec![ContentBlock::text("Added #1")],
            details: Some(serde_json::json!({"todos": [{"id": 1, "text": "ship"}]})),
        },
        is_error: false,
    }));
    app.handle_ui_event(agent(AgentEvent::MessageEnd {
        message: Message::Custom(CustomMessage {
            custom_type: "status-update".into(),
            content: UserContent::Text("all green".into()),
            display: true,
            details: Some(serde_json::json!({"level": "info"})),
            timestamp: 0,
        }),
    }));
    let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    let before = screen(&mut terminal, &mut app);
    assert!(
        before.iter().any(|r| r.contains("[status-update]")),
        "{before:#?}"
    );
    crate::tui::chrome::lua_surfaces::queue_renders(&mut app);
    let deadline = Instant::now() + Duration::from_secs(20);
    let rows = loop {
        crate::tui::chrome::lua_surfaces::apply_published(&mut app);
        let rows = screen(&mut terminal, &mut app);
        if rows.iter().any(|r| r.contains("✓ 1 todo"))
            && rows.iter().any(|r| r.contains("[INFO] all green"))
        {
            break rows;
        }
        assert!(Instant::now() < deadline, "{rows:#?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert!(
        rows.iter().any(|r| r.contains("todo add ship")),
        "{rows:#?}"
    );
    assert!(
        !rows.iter().any(|r| r.contains("Added #1")),
        "built-in output replaced"
    );
    assert!(
        !rows.iter().any(|r| r.contains("[status-update]")),
        "{rows:#?}"
    );
    // Unchanged rows are not sent again.
    crate::tui::chrome::lua_surfaces::queue_renders(&mut app);
    assert!(store.lock().tool_jobs.is_empty());

    // A reload drops the old renderers' lines and renders every row again.
    handle.reload().await;
    crate::tui::chrome::lua_surfaces::queue_renders(&mut app);
    let rows = screen(&mut terminal, &mut app);
    assert!(rows.iter().any(|r| r.contains("Added #1")), "{rows:#?}");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        crate::tui::chrome::lua_surfaces::apply_published(&mut app);
        let rows = screen(&mut terminal, &mut app);
        if rows.iter().any(|r| r.contains("✓ 1 todo"))
            && rows.iter().any(|r| r.contains("[INFO] all green"))
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not drawn again after reload: {rows:#?}"
        );
        crate::tui::chrome::lua_surfaces::queue_renders(&mut app);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
