//! Asking the terminal about itself once, in one round trip: whether it
//! speaks the keyboard protocol (`CSI ? u`) and its background colour
//! (OSC 11, to choose the light or dark theme when none is configured), and,
//! where inline images can be drawn, its cell size in pixels (`CSI 16 t`). The
//! queries are followed by a device-attributes request every terminal
//! answers, so a terminal that ignores the others costs one round trip; one
//! that answers nothing costs at most [`TIMEOUT`].
//!
//! Keys the user typed before the UI was up arrive mixed with the answers;
//! they are kept (see [`take_typed_ahead`]) for the editor, never dropped.

use std::io::Write;
use std::os::fd::AsRawFd;
use std::sync::{Mutex, OnceLock};

use crate::sync::LockExt;
use std::time::{Duration, Instant};

/// Give up waiting for answers after this long.
const TIMEOUT: Duration = Duration::from_millis(100);

/// What the terminal answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TerminalAnswers {
    /// It reported keyboard protocol flags (`CSI ? flags u`).
    pub keyboard_enhancement: bool,
    /// `Some(true)` light, `Some(false)` dark, `None` unknown.
    pub light_background: Option<bool>,
}

static ANSWERS: OnceLock<TerminalAnswers> = OnceLock::new();

/// What the user typed before the terminal was asked, read with its answers.
static TYPED_AHEAD: Mutex<String> = Mutex::new(String::new());

/// The text typed before the UI was ready (empty when none), handed over once.
pub fn take_typed_ahead() -> String {
    std::mem::take(&mut *TYPED_AHEAD.locked())
}

/// Ask the terminal (the first time; later calls return the same answers).
/// Must run in raw mode before anything else reads stdin.
pub fn query_terminal() -> TerminalAnswers {
    *ANSWERS.get_or_init(|| {
        let mut out = std::io::stdout();
        let cell_size = if crate::ui_kit::terminal_image::protocol().is_some() {
            "\x1b[16t"
        } else {
            ""
        };
        let question = format!("\x1b[?u\x1b]11;?\x1b\\{cell_size}\x1b[c");
        let asked = out
            .write_all(question.as_bytes())
            .and_then(|()| out.flush());
        match asked {
            Ok(()) => {
                let read = read_until_device_attributes(TIMEOUT);
                let (reply, typed) = split_typed_ahead(&read);
                TYPED_AHEAD.locked().push_str(&typed);
                if let Some((width, height)) =
                    crate::ui_kit::terminal_image::parse_cell_size(&reply)
                {
                    crate::ui_kit::terminal_image::set_cell_size(width, height);
                }
                parse_answers(&reply)
            }
            Err(_) => TerminalAnswers::default(),
        }
    })
}

/// The answers found in what the terminal wrote back.
pub fn parse_answers(reply: &[u8]) -> TerminalAnswers {
    TerminalAnswers {
        keyboard_enhancement: keyboard_flags_reported(reply),
        light_background: parse_background(reply).map(|(r, g, b)| luminance(r, g, b) > 0.5),
    }
}

/// A keyboard protocol answer: `ESC [ ? <digits> u`.
fn keyboard_flags_reported(reply: &[u8]) -> bool {
    reply.windows(3).enumerate().any(|(at, w)| {
        w == b"\x1b[?"
            && reply[at + 3..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .is_some_and(|end| end > 0 && reply[at + 3 + end] == b'u')
    })
}

fn read_until_device_attributes(timeout: Duration) -> Vec<u8> {
    read_answers_from(std::io::stdin().as_raw_fd(), timeout)
}

fn read_answers_from(fd: std::os::fd::RawFd, timeout: Duration) -> Vec<u8> {
    let deadline = Instant::now() + timeout;
    let mut reply = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let mut poll = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        let ready = unsafe { libc::poll(&mut poll, 1, left.as_millis() as libc::c_int) };
        if ready <= 0 {
            break;
        }
        let mut buf = [0u8; 256];
        // SAFETY: reading into a stack buffer of the given length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n <= 0 {
            break;
        }
        reply.extend_from_slice(&buf[..n as usize]);
        if device_attributes_end(&reply) {
            break;
        }
    }
    reply
}

/// A primary device attributes answer (`ESC [ ? ... c`) is complete.
fn device_attributes_end(reply: &[u8]) -> bool {
    escape_sequences(reply).any(|seq| seq.starts_with(b"\x1b[?") && seq.ends_with(b"c"))
}

/// The terminal's answers (every escape sequence) apart from the text typed
/// between them, as the editor should receive it: the line discipline's
/// Enter (`\r` or `\n`) as a line break, Backspace applied, other control
/// bytes dropped. An escape sequence cut off at the end counts as an answer.
pub fn split_typed_ahead(read: &[u8]) -> (Vec<u8>, String) {
    use crate::ui_kit::keys::{StdinBuffer, StdinEvent};
    let mut answers = Vec::new();
    let mut typed = String::new();
    let mut buffer = StdinBuffer::default();
    let mut sequences = buffer.process(read);
    sequences.extend(buffer.flush().into_iter().map(StdinEvent::Data));
    for sequence in sequences {
        match sequence {
            StdinEvent::Data(s) if s.starts_with('\x1b') => answers.extend_from_slice(s.as_bytes()),
            StdinEvent::Data(s) | StdinEvent::Paste(s) => typed.push_str(&s),
        }
    }
    let mut text = String::new();
    for c in typed.replace("\r\n", "\n").chars() {
        match c {
            '\r' | '\n' => text.push('\n'),
            '\t' => text.push(c),
            '\u{7f}' | '\u{8}' => {
                text.pop();
            }
            c if c.is_control() => {}
            c => text.push(c),
        }
    }
    (answers, text)
}

/// Each escape sequence in `bytes`, in order.
fn escape_sequences(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = at + bytes[at..].iter().position(|&b| b == 0x1b)?;
        let len = escape_sequence_len(&bytes[start..]);
        at = start + len;
        Some(&bytes[start..start + len])
    })
}

/// The length of the escape sequence at the start of `bytes` (which begins
/// with ESC): CSI up to its final byte, OSC up to BEL or ST, else two bytes.
fn escape_sequence_len(bytes: &[u8]) -> usize {
    match bytes.get(1) {
        Some(b'[') => bytes[2..]
            .iter()
            .position(|b| (0x40..=0x7e).contains(b))
            .map_or(bytes.len(), |end| end + 3),
        Some(b']') => {
            let body = &bytes[2..];
            let bel = body.iter().position(|&b| b == 0x07).map(|p| p + 3);
            let st = body.windows(2).position(|w| w == b"\x1b\\").map(|p| p + 4);
            match (bel, st) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => bytes.len(),
            }
        }
        Some(_) => 2,
        None => 1,
    }
}

/// The `rgb:RRRR/GGGG/BBBB` colour in an OSC 11 answer, scaled to 0..1.
pub fn parse_background(reply: &[u8]) -> Option<(f64, f64, f64)> {
    let text = String::from_utf8_lossy(reply);
    let start = text.find("]11;rgb:")? + "]11;rgb:".len();
    let body: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit() || *c == '/')
        .collect();
    let parts: Vec<&str> = body.split('/').collect();
    if parts.len() != 3 {
        return None;
    }
    let channel = |s: &str| -> Option<f64> {
        let max = 16f64.powi(s.len() as i32) - 1.0;
        Some(u32::from_str_radix(s, 16).ok()? as f64 / max)
    };
    Some((channel(parts[0])?, channel(parts[1])?, channel(parts[2])?))
}

fn luminance(r: f64, g: f64, b: f64) -> f64 {
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_osc_11_answers() {
        let dark = b"\x1b]11;rgb:1e1e/1e1e/2424\x1b\\\x1b[?62;22c";
        let (r, g, b) = parse_background(dark).unwrap();
        assert!(luminance(r, g, b) < 0.5);
        let light = b"\x1b]11;rgb:ff/fa/f0\x07\x1b[?1;2c";
        let (r, g, b) = parse_background(light).unwrap();
        assert!(luminance(r, g, b) > 0.5);
        assert!(parse_background(b"\x1b[?1;2c").is_none());
        assert!(device_attributes_end(b"\x1b]11;rgb:0/0/0\x07\x1b[?1;2c"));
        assert!(!device_attributes_end(b"\x1b]11;rgb:0/0/0\x07\x1b[?1;2"));
    }

    #[test]
    fn keys_typed_before_the_ui_are_kept_apart_from_the_answers() {
        let read = b"first line\rsec\x1b[?0u\x1b]11;rgb:0/0/0\x1b\\ond\x7fd\x01\x1b[?62;22c";
        let (answers, typed) = split_typed_ahead(read);
        assert_eq!(typed, "first line\nsecond");
        assert_eq!(
            answers,
            b"\x1b[?0u\x1b]11;rgb:0/0/0\x1b\\\x1b[?62;22c".to_vec()
        );
        assert!(parse_answers(&answers).keyboard_enhancement);
        assert!(device_attributes_end(read));
        // A typed `c` after the keyboard answer is not the end of the answers.
        assert!(!device_attributes_end(b"\x1b[?0uabc"));
        assert_eq!(split_typed_ahead(b"\x1b[?62;22c").1, "");
    }

    #[test]
    fn keyboard_protocol_answer_is_recognised() {
        let kitty = parse_answers(b"\x1b[?0u\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c");
        assert_eq!(
            kitty,
            TerminalAnswers {
                keyboard_enhancement: true,
                light_background: Some(true)
            }
        );
        let plain = parse_answers(b"\x1b[?62;22c");
        assert_eq!(plain, TerminalAnswers::default());
        assert!(!parse_answers(b"\x1b[?u").keyboard_enhancement);
    }

    #[test]
    fn a_silent_terminal_costs_at_most_the_timeout() {
        let mut fds = [0; 2];
        // SAFETY: a two-element array for the pipe's ends.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let started = Instant::now();
        let reply = read_answers_from(fds[0], TIMEOUT);
        let waited = started.elapsed();
        assert!(reply.is_empty());
        assert!(waited >= TIMEOUT - Duration::from_millis(5), "{waited:?}");
        assert!(waited < Duration::from_millis(600), "{waited:?}");
        // SAFETY: closing the two descriptors opened above.
        unsafe {
            libc::close(fds[0]);
            libc::close(fds[1]);
        }
    }
}
