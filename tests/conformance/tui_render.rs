//! The normal-screen renderer (`Scrollback`) drawing the app's live area, checked on a
//! small terminal screen fed with the bytes it writes: a resize redraws everything, a
//! shrinking area leaves no stale rows, only changed rows are rewritten yet the screen
//! always matches a fresh draw, and no style runs on past the row that set it. The
//! content is the prompt editor's lines.
//! orig-file: packages/tui/test/tui-render.test.ts

use std::path::PathBuf;

use crate::vt::Screen;
use pi::agent::agent_loop::AgentQueues;
use pi::tui::app::App;
use pi::tui::chrome::FooterInfo;
use pi::tui::scrollback::Scrollback;
use pi::tui::transcript::Item;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;

fn app(theme: Theme) -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: PathBuf::from("/srv/project"),
        model_id: "m".into(),
        ..FooterInfo::default()
    };
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        theme,
        footer,
    );
    app.quiet_startup = true;
    app
}

/// The app, its renderer and the terminal screen it draws on.
struct Term {
    app: App,
    renderer: Scrollback,
    screen: Screen,
    /// Bytes of the last frame.
    last: String,
}

impl Term {
    fn new(cols: usize, rows: usize) -> Term {
        Term {
            app: app(Theme::plain()),
            renderer: Scrollback::new(),
            screen: Screen::new(cols, rows),
            last: String::new(),
        }
    }

    /// Show `lines` in the editor and draw a frame.
    fn show(&mut self, lines: &[&str]) {
        self.app.editor.set_text(&lines.join("\n"));
        self.draw();
    }

    fn draw(&mut self) {
        let size = (self.screen.cols as u16, self.screen.rows as u16);
        self.last = self.renderer.frame(&mut self.app, size);
        self.screen.feed(&self.last);
    }

    fn resize(&mut self, cols: usize, rows: usize) {
        let mut screen = Screen::new(cols, rows);
        for (r, row) in self.screen.cells.iter().enumerate().take(rows) {
            for (c, cell) in row.iter().enumerate().take(cols) {
                screen.cells[r][c] = *cell;
            }
        }
        screen.row = self.screen.row.min(rows - 1);
        screen.clears = self.screen.clears;
        self.screen = screen;
        self.draw();
    }

    /// What a fresh renderer draws for the app as it is now on an empty screen.
    fn fresh(&mut self) -> Vec<String> {
        let mut screen = Screen::new(self.screen.cols, self.screen.rows);
        let size = (self.screen.cols as u16, self.screen.rows as u16);
        screen.feed(&Scrollback::new().frame(&mut self.app, size));
        screen.text()
    }

    /// The screen matches a fresh draw.
    fn matches_a_fresh_draw(&mut self) {
        let fresh = self.fresh();
        assert_eq!(self.screen.text(), fresh);
    }

    /// `want` on consecutive screen rows, starting where the first one is.
    fn rows_read(&self, want: &[&str]) {
        let text = self.screen.text();
        let at = self
            .screen
            .row_of(want[0])
            .unwrap_or_else(|| panic!("{:?} on {text:#?}", want[0]));
        for (i, w) in want.iter().enumerate() {
            assert!(
                text[at + i].contains(w),
                "{w:?} on row {}: {text:#?}",
                at + i
            );
        }
    }
}

const SIX: [&str; 6] = ["Line 0", "Line 1", "Line 2", "Line 3", "Line 4", "Line 5"];

/// orig: TUI resize handling › triggers full re-render when terminal height changes
#[test]
fn a_new_height_redraws_everything() {
    let mut t = Term::new(40, 20);
    t.show(&SIX[..3]);
    let clears = t.screen.clears;
    t.resize(40, 25);
    assert!(t.screen.clears > clears, "{:?}", t.last);
    t.rows_read(&SIX[..3]);
    t.matches_a_fresh_draw();
}

/// orig: TUI resize handling › triggers full re-render when terminal width changes
#[test]
fn a_new_width_redraws_everything() {
    let mut t = Term::new(40, 20);
    t.show(&SIX[..3]);
    let clears = t.screen.clears;
    t.resize(60, 20);
    assert!(t.screen.clears > clears, "{:?}", t.last);
    t.rows_read(&SIX[..3]);
    t.matches_a_fresh_draw();
    // Drawing again at the same size clears nothing.
    let clears = t.screen.clears;
    t.draw();
    assert_eq!(t.screen.clears, clears);
}

/// orig: TUI content shrinkage › clears empty rows when content shrinks significantly
#[test]
fn a_shrinking_area_leaves_no_stale_rows() {
    let mut t = Term::new(40, 24);
    t.show(&SIX);
    t.rows_read(&SIX);
    t.show(&SIX[..2]);
    t.rows_read(&SIX[..2]);
    for gone in &SIX[2..] {
        assert_eq!(t.screen.row_of(gone), None, "{gone} is cleared");
    }
    t.matches_a_fresh_draw();
}

/// orig: TUI content shrinkage › handles shrink to single line
#[test]
fn shrinking_to_one_line() {
    let mut t = Term::new(40, 24);
    t.show(&SIX[..4]);
    t.show(&["Only line"]);
    t.rows_read(&["Only line"]);
    assert_eq!(t.screen.row_of("Line 1"), None);
    t.matches_a_fresh_draw();
}

/// orig: TUI content shrinkage › handles shrink to empty
#[test]
fn shrinking_to_nothing() {
    let mut t = Term::new(40, 24);
    t.show(&SIX[..3]);
    t.show(&[]);
    for gone in &SIX[..3] {
        assert_eq!(t.screen.row_of(gone), None);
    }
    t.matches_a_fresh_draw();
}

/// orig: TUI differential rendering › tracks cursor correctly when content shrinks with unchanged remaining lines
#[test]
fn the_cursor_is_tracked_across_a_shrink() {
    let mut t = Term::new(40, 24);
    t.show(&SIX[..5]);
    t.show(&SIX[..3]);
    t.show(&["Line 0", "CHANGED", "Line 2"]);
    t.rows_read(&["Line 0", "CHANGED", "Line 2"]);
    t.matches_a_fresh_draw();
}

/// orig: TUI differential rendering › renders correctly when only a middle line changes (spinner case)
#[test]
fn only_the_middle_row_changes() {
    let mut t = Term::new(40, 24);
    t.show(&["Header", "Working...", "Footer"]);
    for frame in ["|", "/", "-", "\\"] {
        let middle = format!("Working {frame}");
        t.show(&["Header", &middle, "Footer"]);
        t.rows_read(&["Header", &middle, "Footer"]);
        assert!(
            !t.last.contains("Header"),
            "an unchanged row is not rewritten"
        );
        t.matches_a_fresh_draw();
    }
}

/// orig: TUI differential rendering › resets styles after each rendered line
#[test]
fn a_style_ends_with_its_row() {
    let mut t = Term::new(40, 24);
    t.app = app(Theme::builtin("dark").unwrap());
    // An answer still arriving is drawn in the live area: an italic line, then a plain one.
    t.app.transcript.push(Item::Assistant {
        text: "*Italic*\nPlain".into(),
        thinking: String::new(),
        streaming: true,
        error: None,
        aborted: false,
    });
    t.draw();
    let italic_row = t.screen.row_of("Italic").unwrap();
    let plain_row = t.screen.row_of("Plain").unwrap();
    assert!(plain_row > italic_row);
    let col = t.screen.text()[italic_row].find("Italic").unwrap();
    assert!(t.screen.cells[italic_row][col].italic);
    let col = t.screen.text()[plain_row].find("Plain").unwrap();
    assert!(!t.screen.cells[plain_row][col].italic);
    assert!(!t.screen.cells[plain_row][0].italic);
}

/// orig: TUI differential rendering › renders correctly when first line changes but rest stays same
#[test]
fn only_the_first_row_changes() {
    let mut t = Term::new(40, 24);
    t.show(&SIX[..4]);
    t.show(&["CHANGED", "Line 1", "Line 2", "Line 3"]);
    t.rows_read(&["CHANGED", "Line 1", "Line 2", "Line 3"]);
    assert!(
        !t.last.contains("Line 2"),
        "unchanged rows are not rewritten"
    );
    t.matches_a_fresh_draw();
}

/// orig: TUI differential rendering › renders correctly when last line changes but rest stays same
#[test]
fn only_the_last_row_changes() {
    let mut t = Term::new(40, 24);
    t.show(&SIX[..4]);
    t.show(&["Line 0", "Line 1", "Line 2", "CHANGED"]);
    t.rows_read(&["Line 0", "Line 1", "Line 2", "CHANGED"]);
    assert!(!t.last.contains("Line 0"));
    t.matches_a_fresh_draw();
}

/// orig: TUI differential rendering › renders correctly when multiple non-adjacent lines change
#[test]
fn rows_apart_change() {
    let mut t = Term::new(40, 24);
    t.show(&SIX[..5]);
    let next = ["Line 0", "CHANGED 1", "Line 2", "CHANGED 3", "Line 4"];
    t.show(&next);
    t.rows_read(&next);
    assert!(!t.last.contains("Line 2"));
    t.matches_a_fresh_draw();
}

/// orig: TUI differential rendering › handles transition from content to empty and back to content
#[test]
fn empty_then_content_again() {
    let mut t = Term::new(40, 24);
    t.show(&SIX[..3]);
    t.rows_read(&SIX[..3]);
    t.show(&[]);
    t.show(&["New Line 0", "New Line 1"]);
    t.rows_read(&["New Line 0", "New Line 1"]);
    assert_eq!(t.screen.row_of("Line 2"), None);
    t.matches_a_fresh_draw();
}
