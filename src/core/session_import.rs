//! `/import <file.jsonl>`: copy a session file into this project's session folder and
//! continue it, like `/resume` (`session_before_switch` may cancel, then
//! `session_shutdown` and `session_start{reason="resume"}`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::core::agent_session::AgentSession;
use crate::core::error::{CoreError, NotASession};

/// A session `/import` now continues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedSession {
    /// The copy in this project's session folder.
    pub file: PathBuf,
    /// The recorded folder, when it no longer exists (the session continues in the
    /// current one).
    pub missing_folder: Option<PathBuf>,
}

impl AgentSession {
    /// Import the session file at `path`: `Ok(Some(..))` once the conversation continues
    /// in the copy, `Ok(None)` when an extension cancelled. The imported session runs in
    /// the folder it was recorded in, or in the current one when that folder is gone.
    pub async fn import_session(
        &mut self,
        path: &Path,
    ) -> Result<Option<ImportedSession>, CoreError> {
        let source = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        if !source.is_file() {
            return Err(CoreError::ImportMissing { path: source });
        }
        check_session_file(&source).map_err(|problem| CoreError::ImportInvalid {
            path: source.clone(),
            problem,
        })?;
        let dir = self
            .session
            .session_dir()
            .map(Path::to_path_buf)
            .ok_or(CoreError::ImportNoFolder)?;
        let name = source
            .file_name()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("imported.jsonl"));
        let destination = dir.join(name);
        let target = destination.display().to_string();
        if self
            .session_before(
                "session_before_switch",
                json!({"reason": "resume", "targetSessionFile": target}),
            )
            .await
        {
            return Ok(None);
        }
        if destination != source {
            std::fs::create_dir_all(&dir)
                .and_then(|()| std::fs::copy(&source, &destination))
                .map_err(|e| CoreError::ImportCopyFailed {
                    path: destination.clone(),
                    reason: crate::i18n::config_words::io_reason(&e),
                })?;
        }
        // The session continues in its own folder, as `/resume` does; when that folder is
        // gone it continues here.
        let stored = stored_cwd(&destination);
        let fallback = stored.as_ref().is_some_and(|cwd| !cwd.is_dir());
        let current = self.config.cwd.clone();
        let cwd = fallback.then_some(current.as_path());
        self.switch_session_file(&destination, cwd).await?;
        Ok(Some(ImportedSession {
            file: destination,
            missing_folder: stored.filter(|_| fallback),
        }))
    }
}

/// The folder a session file's header names, if it names one.
fn stored_cwd(path: &Path) -> Option<PathBuf> {
    use std::io::BufRead;
    let mut first = String::new();
    std::io::BufReader::new(std::fs::File::open(path).ok()?)
        .read_line(&mut first)
        .ok()?;
    let header: Value = serde_json::from_str(&first).ok()?;
    header["cwd"].as_str().map(PathBuf::from)
}

/// `Ok` when the first line of `path` is a session header (`{"type":"session","id":...}`).
fn check_session_file(path: &Path) -> Result<(), NotASession> {
    let bytes =
        crate::config::regular_file::read_regular(path, crate::session::load::MAX_SESSION_BYTES)
            .map_err(|e| NotASession::Unreadable {
                reason: crate::i18n::config_words::io_reason(&e),
            })?;
    let text = crate::session::load::decode_lossy(&bytes);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let header: Value = serde_json::from_str(first).map_err(|e| NotASession::NotJson {
        problem: crate::config::error::JsonProblem::from_serde(&e),
    })?;
    if header["type"] == "session" && header["id"].is_string() {
        Ok(())
    } else {
        Err(NotASession::NoHeader)
    }
}
