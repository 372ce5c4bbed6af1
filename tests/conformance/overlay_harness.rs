//! A terminal UI with Lua overlays, for the overlay focus cases: the app as the terminal
//! runs it (keys in, screens drawn into ratatui's TestBackend) and one Lua extension that
//! shows named overlays with `ctx.ui.custom` and works their handles.

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use pi::lua::ui::surfaces::SurfaceStore;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi::tui::app::App;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// `/show NAME [nc] [guarded] [at-origin] [closes=OTHER]` shows overlay NAME (one line,
/// its name; `nc`: non-capturing; `guarded`: with a `visible` callback `/do
/// NAME.invisible` turns off; `at-origin`: one column wide at row 0, column 0;
/// `closes=OTHER`: Escape hides OTHER, then closes NAME). `/do` runs handle steps
/// (`A.focus`, `A.unfocus`, `A.hide`, `A.hidden`, `A.unhidden`, `A.done`,
/// `A.invisible`). `/report` publishes each handle's `isFocused()` and the keys each
/// overlay received as widgets.
const OVERLAYS: &str = r#"
return function(pi)
  local handles, dones, inputs, visible, names = {}, {}, {}, {}, {}
  pi.registerCommand("show", { handler = function(args, ctx)
    local name = args:match("^(%S+)")
    local closes = args:match(" closes=(%S+)")
    local opts = { nonCapturing = args:find(" nc") ~= nil }
    if args:find(" at%-origin") then opts.row, opts.col, opts.width = 0, 0, 1 end
    if args:find(" guarded") then
      visible[name] = true
      opts.visible = function() return visible[name] end
    end
    table.insert(names, name)
    ctx.ui.custom(function(tui, theme, kb, done)
      dones[name] = done
      return {
        render = function() return { name } end,
        handleInput = function(key)
          table.insert(inputs, name .. ":" .. key)
          if closes and key == "escape" then handles[closes].hide(); dones[name]() end
        end,
      }
    end, { overlay = true, overlayOptions = opts, onHandle = function(h) handles[name] = h end })
  end })
  pi.registerCommand("do", { handler = function(args)
    for step in args:gmatch("%S+") do
      local name, what = step:match("^(%w+)%.(%w+)$")
      local h = handles[name]
      if what == "done" then dones[name]()
      elseif what == "hidden" then h.setHidden(true)
      elseif what == "unhidden" then h:setHidden(false)
      elseif what == "invisible" then visible[name] = false
      else h[what]() end
    end
  end })
  pi.registerCommand("report", { handler = function(_, ctx)
    local focused = {}
    for _, name in ipairs(names) do
      if handles[name].isFocused() then table.insert(focused, name) end
    end
    ctx.ui.setWidget("focused", { "focused:" .. table.concat(focused, ",") })
    ctx.ui.setWidget("inputs", { "inputs:" .. table.concat(inputs, ",") })
  end })
end
"#;

/// The app, its extension and a terminal to draw into.
pub struct OverlayUi {
    pub app: App,
    pub store: SurfaceStore,
    handle: ExtensionHandle,
    terminal: Terminal<TestBackend>,
    _dir: tempfile::TempDir,
}

impl OverlayUi {
    /// An app 40x12 with the overlay extension loaded.
    pub async fn start() -> OverlayUi {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("overlays.lua");
        std::fs::write(&path, OVERLAYS).unwrap();
        let view = SharedView::new(dir.path());
        view.lock().capture_messages = true;
        let store = view.lock().surfaces.clone();
        let handle = ExtensionHandle::start(HostConfig::new(vec![path], dir.path()), view);
        let report = handle.load().await;
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        store.attach(40, 12);
        let mut app = crate::tui_app::quiet_app();
        app.lua.surfaces = Some(store.clone());
        OverlayUi {
            app,
            store,
            handle,
            terminal: Terminal::new(TestBackend::new(40, 12)).unwrap(),
            _dir: dir,
        }
    }

    /// Show overlay `spec` (see [`OVERLAYS`]); returns once it is on the screen's list.
    pub async fn show(&self, spec: &str) {
        let before = self.store.lock().customs.len();
        let handle = self.handle.clone();
        let spec = spec.to_string();
        tokio::spawn(async move { handle.run_command("show", &spec).await });
        self.until("the overlay", |ui| ui.store.lock().customs.len() > before)
            .await;
    }

    /// Run handle steps, e.g. `"A.focus B.hide"`.
    pub async fn steps(&self, steps: &str) {
        self.handle.run_command("do", steps).await.unwrap();
    }

    /// The names of the overlays whose handle answers `isFocused()`.
    pub async fn focused(&self) -> Vec<String> {
        self.report("focused").await
    }

    /// The keys the overlays received, as `NAME:key`.
    pub async fn overlay_inputs(&self) -> Vec<String> {
        self.report("inputs").await
    }

    async fn report(&self, what: &str) -> Vec<String> {
        self.handle.run_command("report", "").await.unwrap();
        let line = self.store.lock().widgets[what].1[0].clone();
        let list = line.trim_start_matches(&format!("{what}:")).to_string();
        list.split(',')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }

    /// The keyboard is the editor's: no component takes the next key.
    pub fn editor_has_keyboard(&self) -> bool {
        self.store.lock().focused().is_none()
    }

    /// Type `c` as the terminal would send it; returns once the extension took any key
    /// meant for an overlay.
    pub async fn press(&mut self, c: char) {
        self.press_key(KeyCode::Char(c)).await
    }

    /// Press `code`, likewise.
    pub async fn press_key(&mut self, code: KeyCode) {
        self.app
            .handle_terminal_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        self.until("the key delivered", |ui| ui.store.lock().keys.is_empty())
            .await;
    }

    /// Let the extension ask every overlay's `visible` again, until one answers false.
    pub async fn until_turned_off(&self) {
        self.store.redraw_all();
        self.until("an overlay turned off by visible()", |ui| {
            ui.store.lock().customs.iter().any(|c| !c.shown)
        })
        .await;
    }

    /// The character drawn at the top-left corner once every overlay has rendered.
    pub async fn corner(&mut self) -> String {
        self.until("rendered overlays", |ui| {
            ui.store.lock().customs.iter().all(|c| !c.lines.is_empty())
        })
        .await;
        let app = &mut self.app;
        self.terminal.draw(|f| pi::tui::view::draw(f, app)).unwrap();
        self.terminal.backend().buffer()[(0, 0)]
            .symbol()
            .to_string()
    }

    async fn until(&self, what: &str, check: impl Fn(&OverlayUi) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !check(self) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}
