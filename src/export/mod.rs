//! HTML export (`/export`, `pi --export`, RPC `export_html`, `/share`): one
//! self-contained page (`page.rs`, the viewer in `page/`) holding the session's
//! entries, the header's figures (`figures.rs`), the theme's colours
//! (`theme_css.rs`) and an inline viewer. Nothing is fetched from the network
//! when it is opened.

mod figures;
pub mod jsonl;
mod page;
pub mod share;
mod theme_css;

pub use page::render_html;

use std::path::{Path, PathBuf};

use crate::session::manager::SessionManager;

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// The session has no entries to show.
    Empty,
    /// Writing the file failed.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Empty => f.write_str(&crate::t!("pi.error.export.empty")),
            ExportError::Io(path, e) => f.write_str(&crate::t!(
                "pi.error.export.write",
                path = path.display().to_string(),
                reason = crate::i18n::config_words::io_reason(e)
            )),
        }
    }
}

impl std::error::Error for ExportError {}

/// The default output name: `pi-session-<session file stem>.html` in the
/// working directory.
pub fn default_output_path(session: &SessionManager) -> PathBuf {
    let stem = session
        .session_file()
        .and_then(|f| f.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| session.session_id().to_string());
    PathBuf::from(format!("pi-session-{stem}.html"))
}

/// Write `session` as HTML to `out` (default: [`default_output_path`]) in
/// the theme given as JSON (default: the built-in dark theme). Returns the
/// path written.
pub fn export_session(
    session: &SessionManager,
    out: Option<&Path>,
    theme_json: Option<&str>,
) -> Result<PathBuf, ExportError> {
    if !session.entries().iter().any(|e| e.as_message().is_some()) {
        return Err(ExportError::Empty);
    }
    let path = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_output_path(session));
    let html = render_html(
        session,
        theme_json.unwrap_or(crate::ui_kit::theme::DARK_JSON),
    );
    // Replaced whole or not at all; a new page is private to the user.
    crate::config::atomic_file::write_atomically(&path, html.as_bytes())
        .map_err(|e| ExportError::Io(path.clone(), e))?;
    Ok(path)
}
