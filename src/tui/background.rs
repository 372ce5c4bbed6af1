//! Asking the terminal for its background colour (OSC 11) to choose the
//! light or dark theme when none is configured. The query is followed by a
//! device-attributes request every terminal answers, so a terminal that
//! ignores OSC 11 costs one round trip, not a timeout.

use std::io::Write;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

/// Give up waiting for answers after this long.
const TIMEOUT: Duration = Duration::from_millis(150);

/// Whether the background is light: `Some(true)` light, `Some(false)` dark,
/// `None` unknown. Must run in raw mode before anything else reads stdin.
pub fn query_light_background() -> Option<bool> {
    let mut out = std::io::stdout();
    out.write_all(b"\x1b]11;?\x1b\\\x1b[c").ok()?;
    out.flush().ok()?;
    let reply = read_until_device_attributes(TIMEOUT);
    parse_background(&reply).map(|(r, g, b)| luminance(r, g, b) > 0.5)
}

fn read_until_device_attributes(timeout: Duration) -> Vec<u8> {
    let fd = std::io::stdin().as_raw_fd();
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
    let text = String::from_utf8_lossy(reply);
    text.find("\x1b[?")
        .is_some_and(|at| text[at + 3..].contains('c'))
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
}
