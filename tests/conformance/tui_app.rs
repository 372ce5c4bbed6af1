//! The terminal UI's `App` as the conformance cases build it: the plain theme, default
//! keys, no start-up header, and a request channel nobody reads.

use pi::agent::agent_loop::AgentQueues;
use pi::tui::app::App;
use pi::tui::chrome::FooterInfo;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// A quiet app: nothing drawn but what a case puts in it.
pub fn quiet_app() -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        FooterInfo::default(),
    );
    app.quiet_startup = true;
    app
}

/// The rows of `app`'s screen drawn at `cols` × `rows`, as text.
pub fn screen_rows(app: &mut App, cols: u16, rows: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(cols, rows)).unwrap();
    terminal.draw(|f| pi::tui::view::draw(f, app)).unwrap();
    let buf = terminal.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}
