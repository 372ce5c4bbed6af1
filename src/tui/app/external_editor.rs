//! Editing the draft in `$VISUAL`/`$EDITOR` (Ctrl+G), and why that can fail.

use std::fmt;
use std::path::PathBuf;

use crate::i18n::config_words::io_reason;
use crate::t;

/// Why the draft could not be edited outside pi (it is left unchanged).
#[derive(Debug)]
pub enum EditorError {
    /// Neither `$VISUAL` nor `$EDITOR` is set.
    NoEditor,
    /// The draft could not be written to its temporary file.
    WriteFailed {
        /// The temporary file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The editor could not be started.
    RunFailed {
        /// The editor command.
        editor: String,
        /// Why.
        error: std::io::Error,
    },
    /// The editor exited with a failure status.
    Exited {
        /// The editor command.
        editor: String,
        /// Its exit status.
        status: std::process::ExitStatus,
    },
}

impl fmt::Display for EditorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            EditorError::NoEditor => t!("pi.tui.editor.none"),
            EditorError::WriteFailed { path, error } => t!(
                "pi.tui.editor.write_failed",
                path = path.display().to_string(),
                error = io_reason(error)
            ),
            EditorError::RunFailed { editor, error } => t!(
                "pi.tui.editor.run_failed",
                editor = editor.as_str(),
                error = io_reason(error)
            ),
            EditorError::Exited { editor, status } => t!(
                "pi.tui.editor.exited",
                editor = editor.as_str(),
                status = status.to_string()
            ),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for EditorError {}

/// Open `text` in `$VISUAL`/`$EDITOR` and return the edited text.
pub fn edit_externally(text: &str) -> Result<String, EditorError> {
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .ok()
        .filter(|e| !e.trim().is_empty())
        .ok_or(EditorError::NoEditor)?;
    let file = std::env::temp_dir().join(format!("pi-message-{}.md", std::process::id()));
    // The draft is conversation content: readable by the user only.
    let written = {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&file)
            .and_then(|mut f| f.write_all(text.as_bytes()))
    };
    written.map_err(|error| EditorError::WriteFailed {
        path: file.clone(),
        error,
    })?;
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(&file)
        .status()
        .map_err(|error| EditorError::RunFailed {
            editor: editor.clone(),
            error,
        })?;
    let edited = std::fs::read_to_string(&file).unwrap_or_default();
    let _ = std::fs::remove_file(&file);
    if !status.success() {
        return Err(EditorError::Exited { editor, status });
    }
    Ok(edited)
}
