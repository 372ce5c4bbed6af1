//! A row of a ratatui buffer as ANSI text, for writing lines straight to the
//! terminal (the normal-screen renderer prints finished lines this way).

use std::fmt::Write as _;

use ratatui::buffer::{Buffer, Cell};
use ratatui::style::{Color, Modifier};

/// Row `y` of `buf` as text with SGR colour codes; trailing blank cells are
/// left out and the style is reset at the end.
pub fn row_ansi(buf: &Buffer, y: u16) -> String {
    let area = buf.area;
    let mut last = area.left();
    for x in area.left()..area.right() {
        let cell = &buf[(x, y)];
        if !is_blank(cell) {
            last = x + 1;
        }
    }
    let mut out = String::new();
    let mut current: Option<(Color, Color, Modifier)> = None;
    let mut skip = 0u16;
    for x in area.left()..last {
        let cell = &buf[(x, y)];
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if cell.diff_option == ratatui::buffer::CellDiffOption::Skip {
            continue;
        }
        let style = (cell.fg, cell.bg, cell.modifier);
        if current != Some(style) {
            out.push_str(&sgr(cell.fg, cell.bg, cell.modifier));
            current = Some(style);
        }
        let symbol = cell.symbol();
        out.push_str(if symbol.is_empty() { " " } else { symbol });
        skip = ratatui::buffer::CellWidth::cell_width(cell).saturating_sub(1);
    }
    if current.is_some() {
        out.push_str("\x1b[0m");
    }
    out
}

fn is_blank(cell: &Cell) -> bool {
    cell.symbol() == " " && cell.bg == Color::Reset && !cell.modifier.intersects(VISIBLE_ON_BLANK)
}

/// Modifiers that show on a space.
const VISIBLE_ON_BLANK: Modifier = Modifier::REVERSED
    .union(Modifier::UNDERLINED)
    .union(Modifier::CROSSED_OUT);

/// One SGR sequence that resets, then sets `fg`, `bg` and `modifier`.
fn sgr(fg: Color, bg: Color, modifier: Modifier) -> String {
    let mut codes = String::from("\x1b[0");
    for (flag, code) in [
        (Modifier::BOLD, 1),
        (Modifier::DIM, 2),
        (Modifier::ITALIC, 3),
        (Modifier::UNDERLINED, 4),
        (Modifier::SLOW_BLINK, 5),
        (Modifier::RAPID_BLINK, 6),
        (Modifier::REVERSED, 7),
        (Modifier::HIDDEN, 8),
        (Modifier::CROSSED_OUT, 9),
    ] {
        if modifier.contains(flag) {
            let _ = write!(codes, ";{code}");
        }
    }
    color_code(&mut codes, fg, false);
    color_code(&mut codes, bg, true);
    codes.push('m');
    codes
}

fn color_code(out: &mut String, color: Color, background: bool) {
    let base = if background { 40 } else { 30 };
    let bright = if background { 100 } else { 90 };
    let extended = if background { 48 } else { 38 };
    let _ = match color {
        Color::Reset => Ok(()),
        Color::Black => write!(out, ";{}", base),
        Color::Red => write!(out, ";{}", base + 1),
        Color::Green => write!(out, ";{}", base + 2),
        Color::Yellow => write!(out, ";{}", base + 3),
        Color::Blue => write!(out, ";{}", base + 4),
        Color::Magenta => write!(out, ";{}", base + 5),
        Color::Cyan => write!(out, ";{}", base + 6),
        Color::Gray => write!(out, ";{}", base + 7),
        Color::DarkGray => write!(out, ";{}", bright),
        Color::LightRed => write!(out, ";{}", bright + 1),
        Color::LightGreen => write!(out, ";{}", bright + 2),
        Color::LightYellow => write!(out, ";{}", bright + 3),
        Color::LightBlue => write!(out, ";{}", bright + 4),
        Color::LightMagenta => write!(out, ";{}", bright + 5),
        Color::LightCyan => write!(out, ";{}", bright + 6),
        Color::White => write!(out, ";{}", bright + 7),
        Color::Indexed(i) => write!(out, ";{extended};5;{i}"),
        Color::Rgb(r, g, b) => write!(out, ";{extended};2;{r};{g};{b}"),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn styles_become_sgr_codes_and_trailing_blanks_are_dropped() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
        buf.set_string(0, 0, "ab", Style::default().fg(Color::Rgb(1, 2, 3)).bold());
        buf.set_string(2, 0, "c", Style::default());
        assert_eq!(row_ansi(&buf, 0), "\x1b[0;1;38;2;1;2;3mab\x1b[0mc\x1b[0m");
    }

    #[test]
    fn wide_characters_are_written_once() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 1));
        buf.set_string(0, 0, "中文x", Style::default());
        assert_eq!(row_ansi(&buf, 0), "\x1b[0m中文x\x1b[0m");
    }

    #[test]
    fn an_empty_row_is_empty() {
        let buf = Buffer::empty(Rect::new(0, 0, 6, 2));
        assert_eq!(row_ansi(&buf, 1), "");
    }
}
