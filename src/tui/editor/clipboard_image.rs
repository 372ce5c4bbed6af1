//! Reading an image from the system clipboard (Ctrl+V) through the clipboard programs of
//! the desktop: `wl-paste` on Wayland, `xclip` on X11. The image is saved to a temporary
//! file whose path goes into the editor, where it is attached like any `@image` path.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Image types taken from the clipboard, preferred first.
const TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/// How long a clipboard program may take.
const TIMEOUT: Duration = Duration::from_secs(3);

/// Why no image came from the clipboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClipboardError {
    /// Neither a Wayland nor an X11 display, or its clipboard program is missing.
    NoClipboard,
    /// The clipboard holds no image.
    NoImage,
    /// The image could not be saved.
    Save(String),
}

/// Which program reads the clipboard here, from the session's environment.
fn reader() -> Option<&'static str> {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if set("WAYLAND_DISPLAY") || std::env::var("XDG_SESSION_TYPE").is_ok_and(|v| v == "wayland") {
        Some("wl-paste")
    } else if set("DISPLAY") {
        Some("xclip")
    } else {
        None
    }
}

/// Run `program args`, giving up after [`TIMEOUT`]; `None` when it cannot start, fails
/// or takes too long.
fn run(program: &str, args: &[&str]) -> Result<Option<Vec<u8>>, ClipboardError> {
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|_| ClipboardError::NoClipboard)?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    Ok(match rx.recv_timeout(TIMEOUT) {
        Ok(Ok(out)) if out.status.success() && !out.stdout.is_empty() => Some(out.stdout),
        _ => None,
    })
}

/// The clipboard image as (bytes, MIME type).
pub fn read_image() -> Result<(Vec<u8>, &'static str), ClipboardError> {
    let program = reader().ok_or(ClipboardError::NoClipboard)?;
    let listing: &[&str] = match program {
        "wl-paste" => &["--list-types"],
        _ => &["-selection", "clipboard", "-t", "TARGETS", "-o"],
    };
    let offered = run(program, listing)?.ok_or(ClipboardError::NoImage)?;
    let offered = String::from_utf8_lossy(&offered);
    let mime = TYPES
        .into_iter()
        .find(|t| offered.lines().any(|l| l.trim() == *t))
        .ok_or(ClipboardError::NoImage)?;
    let fetch: Vec<&str> = match program {
        "wl-paste" => vec!["--type", mime, "--no-newline"],
        _ => vec!["-selection", "clipboard", "-t", mime, "-o"],
    };
    let bytes = run(program, &fetch)?.ok_or(ClipboardError::NoImage)?;
    crate::tools::mime::detect_image_mime_type(&bytes).ok_or(ClipboardError::NoImage)?;
    Ok((bytes, mime))
}

/// Save the clipboard image into `dir` as `pi-clipboard-<id>.<ext>`; returns its path.
pub fn save_image(dir: &Path) -> Result<PathBuf, ClipboardError> {
    let (bytes, mime) = read_image()?;
    let ext = mime.rsplit('/').next().unwrap_or("png");
    let path = dir.join(format!(
        "pi-clipboard-{}.{ext}",
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::write(&path, bytes).map_err(|e| ClipboardError::Save(e.to_string()))?;
    Ok(path)
}
