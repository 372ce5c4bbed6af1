//! The `/resume` session selector: opening it and resuming, renaming or
//! deleting the sessions picked in it.

use crate::t;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::config::paths::sessions_root;
use crate::session::list::{SessionInfo, list_sessions};
use crate::session::list_stream::SessionStream;
use crate::session::manager::SessionManager;
use crate::tui::app::session_task::SessionCommand;
use crate::tui::app::{App, Overlay};
use crate::tui::panels::session::SessionPanel;
use crate::tui::transcript::NoticeKind;

impl App {
    /// `/resume` and `--resume`: choose a session to continue.
    pub fn open_session_selector(&mut self) {
        let Some(dir) = &self.session_dir else {
            self.transcript
                .notice(t!("pi.tui.session.not_saved"), NoticeKind::Warning);
            return;
        };
        // The current session is listed too (as in pi); empty ones are not.
        let has_messages = |s: &SessionInfo| s.message_count > 0;
        let mut current = list_sessions(dir);
        current.retain(has_messages);
        let root = sessions_root(&self.ui_settings.agent_dir);
        let load_all = Box::new(move || SessionStream::start(root.clone(), has_messages));
        let panel =
            SessionPanel::new(current, load_all, &self.keys).with_active(self.session_file.clone());
        self.overlay = Some(Overlay::Panel(Box::new(panel)));
    }

    /// Continue the session in `path`. A session of another folder moves the
    /// conversation to that folder (the session task checks it still exists).
    pub(super) fn resume_session(&mut self, path: PathBuf) {
        self.busy_since = Some(Instant::now());
        let _ = self.commands.send(SessionCommand::Resume {
            path,
            models: self.models.clone(),
        });
    }

    /// The conversation now works in `cwd`, its sessions stored in `session_dir`:
    /// the footer (folder and git branch), `/resume`'s folder scope and `@` file
    /// completion follow.
    pub(super) fn enter_folder(&mut self, cwd: PathBuf, session_dir: Option<PathBuf>) {
        self.footer.git_branch = crate::tui::chrome::git_branch(&cwd);
        self.footer.cwd = cwd;
        if session_dir.is_some() {
            self.session_dir = session_dir;
        }
        self.file_index = None;
    }

    /// Give the session in `path` a new name (a `session_info` entry).
    pub(super) fn rename_session(&mut self, path: &Path, name: &str) {
        let result = SessionManager::open_with(path, None, None).and_then(|mut session| {
            session.append_session_info(name);
            session.sync()
        });
        match result {
            Ok(()) => self
                .transcript
                .notice(t!("pi.tui.session.renamed", name = name), NoticeKind::Info),
            Err(e) => self.transcript.notice(
                t!(
                    "pi.tui.session.rename_failed",
                    path = path.display().to_string(),
                    error = e.to_string()
                ),
                NoticeKind::Error,
            ),
        }
    }

    /// Delete the session file `path`.
    pub(super) fn delete_session(&mut self, path: &Path) {
        if Some(path) == self.session_file.as_deref() {
            self.transcript
                .notice(t!("pi.tui.session.delete_active"), NoticeKind::Error);
            return;
        }
        let id = header_id(path);
        match std::fs::remove_file(path) {
            Ok(()) => {
                // Its file checkpoints go with it (chunks other sessions use stay).
                if let (Some(id), Some(dir)) = (id, path.parent()) {
                    crate::checkpoint::prune::remove_session(dir, &id);
                }
                self.transcript.notice(
                    t!("pi.tui.session.deleted", path = path.display().to_string()),
                    NoticeKind::Info,
                )
            }
            Err(e) => self.transcript.notice(
                t!(
                    "pi.tui.session.delete_failed",
                    path = path.display().to_string(),
                    error = e.to_string()
                ),
                NoticeKind::Error,
            ),
        }
    }
}

/// The session id in the header line of the session file `path`.
fn header_id(path: &Path) -> Option<String> {
    use std::io::{BufRead, Read};
    let file = std::fs::File::open(path).ok()?;
    let mut line = String::new();
    std::io::BufReader::new(file)
        .take(64 * 1024)
        .read_line(&mut line)
        .ok()?;
    let header: serde_json::Value = serde_json::from_str(&line).ok()?;
    Some(header.get("id")?.as_str()?.to_string())
}
