//! Text from the model, tools or extensions made safe to write to a
//! terminal: control sequences are removed, colours and styles (SGR) kept.
//! A terminal obeys sequences to clear the screen, set the clipboard (OSC 52),
//! rename the window or answer queries with typed-looking input; none of those
//! should come from text pi merely shows.

use std::io::IsTerminal;

/// `text` without escape sequences other than SGR (`ESC [ … m`) and without
/// control characters other than newline and tab (a carriage return is kept
/// only before a newline).
pub fn strip_control_sequences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    out.push(c);
                }
            }
            '\u{1b}' => match chars.next() {
                Some('[') => csi(&mut chars, &mut out),
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut chars),
                // Any other escape (a lone ESC, `ESC c`, `ESC 7`, ...) is dropped whole.
                _ => {}
            },
            '\u{9b}' => csi(&mut chars, &mut out),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A control sequence after its introducer: kept when it sets graphic
/// rendition (`m` with numeric parameters), dropped otherwise.
fn csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, out: &mut String) {
    let mut body = String::new();
    for c in chars.by_ref() {
        match c {
            '\u{30}'..='\u{3f}' | '\u{20}'..='\u{2f}' => body.push(c),
            '\u{40}'..='\u{7e}' => {
                if c == 'm'
                    && body
                        .chars()
                        .all(|b| b.is_ascii_digit() || b == ';' || b == ':')
                {
                    out.push_str("\u{1b}[");
                    out.push_str(&body);
                    out.push('m');
                }
                return;
            }
            // Not a well-formed sequence: drop what was read.
            _ => return,
        }
    }
}

/// Skip an OSC, DCS, SOS, PM or APC string up to its terminator (BEL, ST or
/// `ESC \`), or to the end of the text.
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                return;
            }
            _ => {}
        }
    }
}

/// Which stream text is written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// `text` as it may be written to `stream`: made safe when the stream is a
/// terminal, unchanged (byte for byte) when it is a pipe or a file.
pub fn for_stream(text: &str, stream: Stream) -> std::borrow::Cow<'_, str> {
    let terminal = match stream {
        Stream::Stdout => std::io::stdout().is_terminal(),
        Stream::Stderr => std::io::stderr().is_terminal(),
    };
    if terminal {
        std::borrow::Cow::Owned(strip_control_sequences(text))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::strip_control_sequences as strip;

    #[test]
    fn styling_is_kept() {
        let text = "\u{1b}[1;31mred\u{1b}[0m and \u{1b}[38:5:196mmore\u{1b}[m\n\tok";
        assert_eq!(strip(text), text);
    }

    #[test]
    fn screen_clipboard_and_title_sequences_are_removed() {
        let text =
            "a\u{1b}[2Jb\u{1b}]52;c;aGVsbG8=\u{7}c\u{1b}]0;title\u{1b}\\d\u{1b}[?1049he\u{1b}cf";
        assert_eq!(strip(text), "abcdef");
    }

    #[test]
    fn c1_controls_and_stray_characters_are_removed() {
        let text = "x\u{9b}2Jy\u{9d}52;c;Zm9v\u{9c}z\u{7}\u{8}!\r\n\rw";
        assert_eq!(strip(text), "xyz!\r\nw");
    }

    #[test]
    fn unterminated_sequences_do_not_swallow_text_forever() {
        assert_eq!(strip("keep\u{1b}]52;c;never ends"), "keep");
        assert_eq!(strip("keep\u{1b}"), "keep");
        assert_eq!(strip("keep\u{1b}[12"), "keep");
    }
}
