//! Image escape sequences inside text lines. An extension's component may put a Kitty
//! (`ESC _G ... ESC \`) or iTerm2 (`ESC ]1337;File= ... BEL`) image sequence in a line it
//! renders; pi draws images apart from text, so such a line is found and the sequences
//! taken out before it is drawn, leaving the text around them instead of base64 noise.

use std::borrow::Cow;

/// Start of a Kitty graphics command.
const KITTY_PREFIX: &str = "\x1b_G";
/// Start of an iTerm2 inline image.
const ITERM2_PREFIX: &str = "\x1b]1337;File=";

/// Whether `line` carries a Kitty or iTerm2 image sequence anywhere.
pub fn is_image_line(line: &str) -> bool {
    line.contains(KITTY_PREFIX) || line.contains(ITERM2_PREFIX)
}

/// `line` without its image sequences (each up to its terminator, or to the end of the
/// line when it has none). Other escape sequences stay.
pub fn strip_image_sequences(line: &str) -> Cow<'_, str> {
    if !is_image_line(line) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let next = [KITTY_PREFIX, ITERM2_PREFIX]
            .iter()
            .filter_map(|p| rest.find(p).map(|at| (at, *p)))
            .min_by_key(|(at, _)| *at);
        let Some((at, prefix)) = next else {
            out.push_str(rest);
            return Cow::Owned(out);
        };
        out.push_str(&rest[..at]);
        let body = &rest[at + prefix.len()..];
        // Kitty ends with ST (ESC \); iTerm2 with BEL or ST.
        let end = match prefix {
            KITTY_PREFIX => body.find("\x1b\\").map(|e| e + 2),
            _ => [
                body.find('\x07').map(|e| e + 1),
                body.find("\x1b\\").map(|e| e + 2),
            ]
            .into_iter()
            .flatten()
            .min(),
        };
        match end {
            Some(end) => rest = &body[end..],
            None => return Cow::Owned(out),
        }
    }
}
