//! `/export` and `/share` from the session task: write or upload the page, and the line
//! the transcript shows about it.

use std::path::PathBuf;

use super::session_task::UiEvent;
use crate::core::agent_session::AgentSession;
use crate::t;

/// Export the session (HTML, or JSONL by the file's extension) and describe the outcome.
pub(super) fn export_event(
    agent: &AgentSession,
    path: Option<PathBuf>,
    theme: Option<&str>,
) -> UiEvent {
    let result = match &path {
        Some(p) if crate::export::jsonl::wants_jsonl(p) => {
            crate::export::jsonl::export_jsonl(&agent.session, Some(p))
        }
        _ => crate::export::export_session(&agent.session, path.as_deref(), theme),
    };
    match result {
        Ok(path) => UiEvent::Info(t!("pi.cmd.export.done", path = path.display().to_string())),
        Err(e) => UiEvent::Failed(t!("pi.cmd.export.failed", error = e.to_string())),
    }
}

/// Upload the session as a secret gist and describe the outcome.
pub(super) async fn share_event(
    session: &crate::session::manager::SessionManager,
    theme: Option<&str>,
) -> UiEvent {
    use crate::export::share::{ShareError, share_session};
    match share_session(session, theme).await {
        Ok(shared) => UiEvent::Info(t!(
            "pi.cmd.share.done",
            url = shared.viewer_url,
            gist = shared.gist_url
        )),
        Err(ShareError::NotInstalled) => UiEvent::Failed(t!("pi.cmd.share.no_gh")),
        Err(ShareError::NotLoggedIn) => UiEvent::Failed(t!("pi.cmd.share.not_logged_in")),
        Err(ShareError::Export(e)) => {
            UiEvent::Failed(t!("pi.cmd.export.failed", error = e.to_string()))
        }
        Err(ShareError::Gist(error)) => UiEvent::Failed(t!("pi.cmd.share.failed", error = error)),
        Err(ShareError::NoGistId) => UiEvent::Failed(t!("pi.cmd.share.no_id")),
    }
}
