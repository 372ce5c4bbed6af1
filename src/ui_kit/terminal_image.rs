//! Inline images in the terminal: which graphics protocol the terminal
//! speaks (the Kitty graphics protocol or iTerm2's inline images), the escape
//! sequences that draw an image, and how many character cells it covers.
//!
//! The protocol is chosen from the environment the terminal sets
//! (`KITTY_WINDOW_ID`, `TERM_PROGRAM`, `TERM`, ...), once per run. Inside tmux
//! or GNU screen no protocol is used: they do not pass the sequences on.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use base64::Engine as _;

/// A terminal graphics protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageProtocol {
    /// The Kitty graphics protocol (kitty, Ghostty, WezTerm).
    Kitty,
    /// iTerm2's inline images (`OSC 1337 ; File=`).
    Iterm2,
}

/// Base64 bytes per Kitty graphics chunk (the protocol's limit).
pub const KITTY_CHUNK: usize = 4096;

/// Cell size in pixels assumed until the terminal reports its own.
pub const DEFAULT_CELL: (u32, u32) = (9, 18);

static PROTOCOL: OnceLock<Option<ImageProtocol>> = OnceLock::new();
/// The terminal's cell size in pixels, packed as `width << 16 | height` (0: unknown).
static CELL: AtomicU32 = AtomicU32::new(0);

/// The protocol this terminal speaks, from the process environment (cached).
pub fn protocol() -> Option<ImageProtocol> {
    *PROTOCOL.get_or_init(|| detect(|name| std::env::var(name).ok()))
}

/// The protocol named by an environment (`var` looks a variable up).
pub fn detect(var: impl Fn(&str) -> Option<String>) -> Option<ImageProtocol> {
    let get = |name: &str| var(name).filter(|v| !v.is_empty());
    let lower = |name: &str| get(name).unwrap_or_default().to_lowercase();
    let term = lower("TERM");
    let program = lower("TERM_PROGRAM");
    if get("TMUX").is_some() || term.starts_with("tmux") || term.starts_with("screen") {
        return None;
    }
    let kitty = get("KITTY_WINDOW_ID").is_some()
        || program == "kitty"
        || term == "xterm-kitty"
        || program == "ghostty"
        || term.contains("ghostty")
        || get("GHOSTTY_RESOURCES_DIR").is_some()
        || program == "wezterm"
        || get("WEZTERM_PANE").is_some();
    if kitty {
        return Some(ImageProtocol::Kitty);
    }
    if program == "iterm.app" || get("ITERM_SESSION_ID").is_some() {
        return Some(ImageProtocol::Iterm2);
    }
    None
}

/// Remember the cell size the terminal reported (`CSI 6 ; height ; width t`).
pub fn set_cell_size(width: u32, height: u32) {
    if width > 0 && height > 0 && width < 0x10000 && height < 0x10000 {
        CELL.store(width << 16 | height, Ordering::Relaxed);
    }
}

/// The terminal's cell size in pixels (width, height), or [`DEFAULT_CELL`].
pub fn cell_size() -> (u32, u32) {
    match CELL.load(Ordering::Relaxed) {
        0 => DEFAULT_CELL,
        packed => (packed >> 16, packed & 0xffff),
    }
}

/// The cell size in a `CSI 6 ; height ; width t` answer.
pub fn parse_cell_size(reply: &[u8]) -> Option<(u32, u32)> {
    let text = String::from_utf8_lossy(reply);
    let start = text.find("\x1b[6;")? + 4;
    let end = start + text[start..].find('t')?;
    let (height, width) = text[start..end].split_once(';')?;
    Some((width.parse().ok()?, height.parse().ok()?))
}

/// Width and height in pixels of an encoded image (PNG, JPEG, GIF, WebP).
pub fn dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?
        .into_dimensions()
        .ok()
}

/// Rows an image of `(width, height)` pixels covers when drawn `columns`
/// cells wide with cells of `cell` pixels (at least one).
pub fn rows_for(size: (u32, u32), columns: u16, cell: (u32, u32)) -> u16 {
    let (width, height) = (size.0.max(1) as u64, size.1 as u64);
    let drawn_width = columns as u64 * cell.0.max(1) as u64;
    let drawn_height = height * drawn_width / width;
    drawn_height.div_ceil(cell.1.max(1) as u64).clamp(1, 500) as u16
}

/// Columns to draw an image: `preferred`, but no more than `max` (at least
/// one). Small images are scaled up to the width, as in pi.
pub fn columns_for(preferred: u16, max: u16) -> u16 {
    preferred.min(max).max(1)
}

/// Where and how large an image is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Image id (Kitty), so drawing it again replaces the earlier copy.
    pub id: u32,
    /// Width in cells.
    pub columns: u16,
    /// Height in cells.
    pub rows: u16,
}

/// The Kitty graphics sequence that transmits PNG `png_base64` and shows it
/// over `placement`'s cells from the cursor, leaving the cursor where it is.
/// Data longer than one chunk is sent in [`KITTY_CHUNK`]-byte pieces.
pub fn kitty(png_base64: &str, placement: Placement) -> String {
    let head = format!(
        "a=T,f=100,q=2,C=1,c={},r={},i={}",
        placement.columns, placement.rows, placement.id
    );
    let data = png_base64.as_bytes();
    if data.len() <= KITTY_CHUNK {
        return format!("\x1b_G{head};{png_base64}\x1b\\");
    }
    let mut out = String::with_capacity(data.len() + data.len() / KITTY_CHUNK * 16 + 64);
    let chunks: Vec<&[u8]> = data.chunks(KITTY_CHUNK).collect();
    let last = chunks.len() - 1;
    for (i, chunk) in chunks.into_iter().enumerate() {
        let more = u8::from(i < last);
        let chunk = std::str::from_utf8(chunk).unwrap_or_default();
        if i == 0 {
            out.push_str(&format!("\x1b_G{head},m={more};{chunk}\x1b\\"));
        } else {
            out.push_str(&format!("\x1b_Gm={more};{chunk}\x1b\\"));
        }
    }
    out
}

/// The Kitty sequence that removes image `id` from the screen and memory.
pub fn kitty_delete(id: u32) -> String {
    format!("\x1b_Ga=d,d=I,i={id},q=2\x1b\\")
}

/// The iTerm2 sequence that draws `base64` (any format iTerm2 reads)
/// `columns` cells wide, keeping its aspect ratio.
pub fn iterm2(base64: &str, columns: u16, name: Option<&str>) -> String {
    let mut args = format!("inline=1;width={columns};height=auto;preserveAspectRatio=1");
    if let Some(name) = name {
        let encoded = base64::engine::general_purpose::STANDARD.encode(name);
        args.push_str(&format!(";name={encoded}"));
    }
    format!("\x1b]1337;File={args}:{base64}\x07")
}

/// `base64` as base64 PNG data (Kitty takes only PNG): unchanged when it
/// already is one, converted otherwise; `None` when it cannot be decoded.
pub fn as_png_base64(base64: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(base64)
        .ok()?;
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(base64.to_string());
    }
    let image = image::load_from_memory(&bytes).ok()?;
    let mut png = Vec::new();
    image
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .ok()?;
    Some(base64::engine::general_purpose::STANDARD.encode(png))
}

/// A new image id for the Kitty protocol (never 0).
pub fn next_id() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // Start from the process id so two pi processes in one terminal rarely collide.
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    (std::process::id().wrapping_mul(7919).wrapping_add(n) % 0x7fff_fffe) + 1
}

#[cfg(test)]
#[path = "terminal_image_tests.rs"]
mod tests;
