//! Costs of Lua components: what a Lua footer adds to one frame of the
//! terminal UI, how long the extension thread takes to render and publish
//! it, and the CPU an overlay animating at 30 fps uses (extension thread
//! and drawing together).
//!
//! Run with `cargo run --release --example lua_ui_bench`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pi::agent::agent_loop::AgentQueues;
use pi::lua::ui::surfaces::SurfaceStore;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi::tui::app::App;
use pi::tui::chrome::FooterInfo;
use pi::tui::transcript::NoticeKind;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const FRAMES: u32 = 2000;

fn app(store: Option<SurfaceStore>) -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::default(),
        FooterInfo::default(),
    );
    for i in 0..40 {
        app.transcript
            .notice(format!("line {i} of the transcript"), NoticeKind::Info);
    }
    app.lua.surfaces = store;
    app
}

fn frame_time(app: &mut App) -> Duration {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    for _ in 0..50 {
        terminal.draw(|f| pi::tui::view::draw(f, app)).unwrap();
    }
    let started = Instant::now();
    for _ in 0..FRAMES {
        app.dirty = true;
        terminal.draw(|f| pi::tui::view::draw(f, app)).unwrap();
    }
    started.elapsed() / FRAMES
}

fn cpu_time() -> Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

async fn host(source: &str) -> (ExtensionHandle, SurfaceStore, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("bench.lua");
    std::fs::write(&path, source).unwrap();
    let view = SharedView::new(".");
    view.lock().capture_messages = true;
    let store = view.lock().surfaces.clone();
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], "."), view);
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    store.attach(120, 40);
    (handle, store, dir)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let footer = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("extensions/examples/custom-footer.lua"),
    )
    .unwrap();
    let (handle, store, _dir) = host(&footer).await;
    handle
        .emit(
            "session_start",
            serde_json::json!({"type": "session_start"}),
        )
        .await;
    while store.lock().footer.is_none() {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let plain = frame_time(&mut app(None));
    let with_lua = frame_time(&mut app(Some(store.clone())));
    println!(
        "frame 120x40: built-in footer {:?}, Lua footer {:?} (adds {:?})",
        plain,
        with_lua,
        with_lua.saturating_sub(plain)
    );

    // Extension thread: one footer render + publish per request.
    let rounds = 500;
    let started = Instant::now();
    for i in 0..rounds {
        let generation = store.generation();
        store.resize(if i % 2 == 0 { 119 } else { 120 }, 40);
        while store.generation() == generation {
            tokio::task::yield_now().await;
        }
    }
    println!(
        "Lua footer render and publish on the extension thread: {:?} per request",
        started.elapsed() / rounds
    );

    // A 30 fps overlay: a 24x10 board re-rendered every 33 ms, drawn by
    // the UI whenever it publishes.
    let (_h, store, _dir2) = host(
        r#"return function(pi)
  local ui = require("pi.ui")
  pi.registerCommand("anim", { handler = function(_, ctx)
    ctx.ui.custom(function(tui, theme, kb, done)
      local t = 0
      pi.setInterval(function() t = t + 1; tui.requestRender() end, 33)
      return { render = function(width)
        local lines = {}
        for y = 1, 10 do
          local row = {}
          for x = 1, 24 do row[x] = ((x + y + t) % 7 == 0) and theme.fg("success", "■") or " " end
          lines[y] = "│" .. table.concat(row) .. "│"
        end
        return lines
      end }
    end, { overlay = true, overlayOptions = { width = 26 } })
  end })
end"#,
    )
    .await;
    let runner = _h.clone();
    tokio::spawn(async move { runner.run_command("anim", "").await });
    let mut app = app(Some(store.clone()));
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let wall = Instant::now();
    let cpu = cpu_time();
    let mut frames = 0;
    while wall.elapsed() < Duration::from_secs(5) {
        store.ui_wakeup().await;
        terminal.draw(|f| pi::tui::view::draw(f, &mut app)).unwrap();
        frames += 1;
    }
    let used = cpu_time() - cpu;
    println!(
        "30 fps overlay: {frames} frames in 5 s, CPU {:.1}% of one core (extension thread and drawing)",
        used.as_secs_f64() / wall.elapsed().as_secs_f64() * 100.0
    );
}
