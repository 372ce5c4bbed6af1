//! Overlays drawn over the terminal UI's own screen: over a short transcript, over styled
//! lines whose reset falls past the last column, and over lines carrying OSC 8 links. The
//! base content is an extension widget of ANSI-styled lines; the overlay is a published
//! `ctx.ui.custom` component; the screen is the app's, drawn into ratatui's TestBackend.
//! orig-file: packages/tui/test/overlay-short-content.test.ts, tui-overlay-style-leak.test.ts, overlay-options.test.ts

use pi::lua::ui::surfaces::{CustomSurface, OverlayOptions, Placement, Size, SurfaceStore};
use pi::tui::app::App;
use pi::tui::transcript::NoticeKind;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;

fn app(store: &SurfaceStore) -> App {
    let mut app = crate::tui_app::quiet_app();
    app.lua.surfaces = Some(store.clone());
    app
}

fn draw(app: &mut App, cols: u16, rows: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(cols, rows)).unwrap();
    terminal.draw(|f| pi::tui::view::draw(f, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn rows(buf: &Buffer) -> Vec<String> {
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

fn row_of(screen: &[String], text: &str) -> usize {
    screen
        .iter()
        .position(|r| r.contains(text))
        .unwrap_or_else(|| panic!("{text:?} not on {screen:#?}"))
}

/// An overlay of `lines` placed by `options`.
fn overlay(store: &SurfaceStore, options: OverlayOptions, lines: &[&str]) {
    store.lock().show(CustomSurface {
        id: 1,
        overlay: Some(options),
        lines: lines.iter().map(|l| l.to_string()).collect(),
        ..CustomSurface::default()
    });
}

fn widget(store: &SurfaceStore, lines: &[&str]) {
    store.lock().widgets.insert(
        "base".into(),
        (
            Placement::AboveEditor,
            lines.iter().map(|l| l.to_string()).collect(),
        ),
    );
}

/// orig: TUI overlay with short content › should render overlay when content is shorter than terminal height
#[test]
fn an_overlay_over_a_short_transcript() {
    let store = SurfaceStore::default();
    let mut app = app(&store);
    for line in ["Line 1", "Line 2", "Line 3"] {
        app.transcript.notice(line.to_string(), NoticeKind::Info);
    }
    overlay(
        &store,
        OverlayOptions::default(),
        &["OVERLAY_TOP", "OVERLAY_MID", "OVERLAY_BOT"],
    );
    let screen = rows(&draw(&mut app, 80, 24));
    let top = row_of(&screen, "OVERLAY_TOP");
    assert_eq!(row_of(&screen, "OVERLAY_MID"), top + 1);
    assert_eq!(row_of(&screen, "OVERLAY_BOT"), top + 2);
    assert_eq!(top, 10, "centered in the 24 rows: {screen:#?}");
    assert!(screen.iter().any(|r| r.contains("Line 1")), "{screen:#?}");
}

/// A line italic across all `width` columns whose closing reset comes after the last one.
fn italic_row(width: usize) -> String {
    format!("\x1b[3m{}\x1b[23m", "X".repeat(width))
}

fn italic(buf: &Buffer, x: u16, y: usize) -> bool {
    buf[(x, y as u16)].modifier.contains(Modifier::ITALIC)
}

/// orig: TUI overlay compositing › should not leak styles when a trailing reset sits beyond the last visible column (no overlay)
#[test]
fn a_reset_past_the_last_column_leaks_no_style() {
    let store = SurfaceStore::default();
    let mut app = app(&store);
    let base = italic_row(20);
    widget(&store, &[&base, "INPUT"]);
    let buf = draw(&mut app, 20, 12);
    let screen = rows(&buf);
    let styled = row_of(&screen, "XXXXXXXXXXXXXXXXXXXX");
    assert!(italic(&buf, 0, styled) && italic(&buf, 19, styled));
    let input = row_of(&screen, "INPUT");
    assert_eq!(input, styled + 1, "{screen:#?}");
    assert!(!italic(&buf, 0, input));
}

/// orig: TUI overlay compositing › should not leak styles when overlay slicing drops trailing SGR resets
#[test]
fn an_overlay_cutting_a_styled_row_leaks_no_style() {
    let store = SurfaceStore::default();
    let mut app = app(&store);
    let base = italic_row(20);
    widget(&store, &[&base, "INPUT"]);
    let styled = row_of(&rows(&draw(&mut app, 20, 12)), "XXXXXXXXXXXXXXXXXXXX");
    let options = OverlayOptions {
        row: Some(Size::Cells(styled as u16)),
        col: Some(Size::Cells(5)),
        width: Some(Size::Cells(3)),
        ..OverlayOptions::default()
    };
    overlay(&store, options, &["OVR"]);
    let buf = draw(&mut app, 20, 12);
    let screen = rows(&buf);
    assert_eq!(screen[styled], "XXXXXOVRXXXXXXXXXXXX");
    assert!(!italic(&buf, 5, styled), "the overlay has its own style");
    assert!(italic(&buf, 8, styled), "the base row goes on after it");
    let input = row_of(&screen, "INPUT");
    assert_eq!(input, styled + 1);
    assert!(!italic(&buf, 0, input));
}

/// orig: TUI overlay options › width overflow protection › should handle overlay on base content with OSC sequences
#[test]
fn an_overlay_over_linked_lines() {
    let store = SurfaceStore::default();
    let mut app = app(&store);
    let link = "\x1b]8;;file:///path/to/file.ts\x07file.ts\x1b]8;;\x07";
    let line = format!("See {link} for details {}", "X".repeat(50));
    widget(&store, &[&line, &line, &line]);
    let first = row_of(&rows(&draw(&mut app, 80, 24)), "See file.ts for details");
    let options = OverlayOptions {
        anchor: "center".into(),
        width: Some(Size::Cells(20)),
        row: Some(Size::Cells(first as u16 + 1)),
        ..OverlayOptions::default()
    };
    overlay(&store, options, &["OVERLAY-TEXT"]);
    let screen = rows(&draw(&mut app, 80, 24));
    let plain = format!("See file.ts for details {}", "X".repeat(50));
    assert!(screen[first].starts_with(&plain), "{:?}", screen[first]);
    assert!(screen[first + 2].starts_with(&plain));
    // The middle row: the link row's start, the overlay in the centre, the row's rest.
    let middle = &screen[first + 1];
    assert_eq!(middle.find("OVERLAY-TEXT"), Some(30), "{middle:?}");
    assert!(
        middle.starts_with("See file.ts for details XXXXXX"),
        "{middle:?}"
    );
    assert!(
        middle[50..].starts_with("XXXXXXXXXXXXXXXXXXXXXXXX"),
        "{middle:?}"
    );
    assert!(
        screen
            .iter()
            .all(|r| !r.contains('\x1b') && !r.contains("8;;")),
        "{screen:#?}"
    );
}
