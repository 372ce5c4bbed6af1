//! Text with ANSI SGR styling (what `ctx.ui.theme` produces) turned into
//! ratatui spans; other escape sequences and control characters are dropped.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// Apply one SGR parameter list (`1;38;2;1;2;3`) to `style`.
fn apply_sgr(style: Style, params: &str) -> Style {
    let mut style = style;
    let nums: Vec<u16> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
    let mut i = 0;
    while i < nums.len() {
        let n = nums[i];
        let extended = |i: &mut usize| -> Option<Color> {
            match nums.get(*i + 1) {
                Some(5) => {
                    *i += 2;
                    nums.get(*i).map(|c| Color::Indexed(*c as u8))
                }
                Some(2) => {
                    *i += 4;
                    Some(Color::Rgb(
                        *nums.get(*i - 2)? as u8,
                        *nums.get(*i - 1)? as u8,
                        *nums.get(*i)? as u8,
                    ))
                }
                _ => None,
            }
        };
        style = match n {
            0 => Style::default(),
            1 => style.add_modifier(Modifier::BOLD),
            2 => style.add_modifier(Modifier::DIM),
            3 => style.add_modifier(Modifier::ITALIC),
            4 => style.add_modifier(Modifier::UNDERLINED),
            7 => style.add_modifier(Modifier::REVERSED),
            9 => style.add_modifier(Modifier::CROSSED_OUT),
            22 => style.remove_modifier(Modifier::BOLD | Modifier::DIM),
            23 => style.remove_modifier(Modifier::ITALIC),
            24 => style.remove_modifier(Modifier::UNDERLINED),
            27 => style.remove_modifier(Modifier::REVERSED),
            29 => style.remove_modifier(Modifier::CROSSED_OUT),
            30..=37 => style.fg(Color::Indexed((n - 30) as u8)),
            90..=97 => style.fg(Color::Indexed((n - 90 + 8) as u8)),
            40..=47 => style.bg(Color::Indexed((n - 40) as u8)),
            100..=107 => style.bg(Color::Indexed((n - 100 + 8) as u8)),
            38 => match extended(&mut i) {
                Some(c) => style.fg(c),
                None => style,
            },
            48 => match extended(&mut i) {
                Some(c) => style.bg(c),
                None => style,
            },
            39 => Style { fg: None, ..style },
            49 => Style { bg: None, ..style },
            _ => style,
        };
        i += 1;
    }
    style
}

/// One line of ANSI-styled text as spans starting from `base`.
pub fn ansi_line(text: &str, base: Style) -> Line<'static> {
    let mut spans = Vec::new();
    let mut style = base;
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.peek() == Some(&'[') {
                chars.next();
                let mut params = String::new();
                let mut fin = None;
                for p in chars.by_ref() {
                    if ('\x40'..='\x7e').contains(&p) {
                        fin = Some(p);
                        break;
                    }
                    params.push(p);
                }
                if fin == Some('m') {
                    if !current.is_empty() {
                        spans.push(Span::styled(std::mem::take(&mut current), style));
                    }
                    style = base.patch(apply_sgr(style, &params));
                    if params.is_empty() || params == "0" {
                        style = base;
                    }
                }
            } else if chars.peek() == Some(&']') {
                // OSC (hyperlinks and the like): skip to BEL or ESC \.
                while let Some(p) = chars.next() {
                    if p == '\x07' || (p == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            } else {
                chars.next();
            }
            continue;
        }
        if c == '\t' {
            current.push_str("   ");
        } else if !c.is_control() {
            current.push(c);
        }
    }
    if !current.is_empty() {
        spans.push(Span::styled(current, style));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_attributes_become_styles() {
        let line = ansi_line(
            "a\x1b[38;2;1;2;3mred\x1b[39m \x1b[1mbold\x1b[22m \x1b[38;5;9mx\x1b[0m",
            Style::default(),
        );
        let spans: Vec<(String, Style)> = line
            .spans
            .iter()
            .map(|s| (s.content.to_string(), s.style))
            .collect();
        assert_eq!(spans[0].0, "a");
        assert_eq!(
            spans[1],
            ("red".into(), Style::default().fg(Color::Rgb(1, 2, 3)))
        );
        assert_eq!(spans[3].0, "bold");
        assert!(spans[3].1.add_modifier.contains(Modifier::BOLD));
        assert_eq!(spans[5].1.fg, Some(Color::Indexed(9)));
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "ared bold x");
    }
}
