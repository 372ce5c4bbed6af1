//! `/share`: the session as HTML in a secret GitHub gist, uploaded with the GitHub CLI
//! (`gh`), and the address of the page that shows it. The viewer's base address is
//! `https://pi.dev/session/` unless `PI_SHARE_VIEWER_URL` names another; the gist id
//! follows a `#`, so the viewer never sends it to a server.

use std::path::PathBuf;

use tokio::process::Command;

use super::ExportError;
use crate::session::manager::SessionManager;

/// Where shared sessions are viewed unless `PI_SHARE_VIEWER_URL` says otherwise.
pub const DEFAULT_VIEWER_URL: &str = "https://pi.dev/session/";

/// A session that was shared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    /// The page showing the session (`<viewer>#<gist id>`).
    pub viewer_url: String,
    /// The gist as `gh` reported it.
    pub gist_url: String,
}

/// Why sharing failed.
#[derive(Debug)]
pub enum ShareError {
    /// `gh` could not be started.
    NotInstalled,
    /// `gh auth status` failed: nobody is logged in.
    NotLoggedIn,
    /// The HTML page could not be written.
    Export(ExportError),
    /// `gh gist create` failed; its error output.
    Gist(String),
    /// `gh` printed no gist address.
    NoGistId,
}

/// The viewer address of gist `id`.
pub fn viewer_url(id: &str) -> String {
    let base = std::env::var("PI_SHARE_VIEWER_URL")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| DEFAULT_VIEWER_URL.to_string());
    format!("{base}#{id}")
}

/// Upload `session` (rendered in `theme_json`, default the dark theme) as a secret gist.
pub async fn share_session(
    session: &SessionManager,
    theme_json: Option<&str>,
) -> Result<Shared, ShareError> {
    let status = Command::new("gh")
        .args(["auth", "status"])
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .map_err(|_| ShareError::NotInstalled)?;
    if !status.status.success() {
        return Err(ShareError::NotLoggedIn);
    }
    let dir = scratch_dir();
    let file = dir.join("session.html");
    let result = async {
        std::fs::create_dir_all(&dir)
            .map_err(|e| ShareError::Export(ExportError::Io(dir.clone(), e)))?;
        super::export_session(session, Some(&file), theme_json).map_err(ShareError::Export)?;
        let out = Command::new("gh")
            .args(["gist", "create", "--public=false"])
            .arg(&file)
            .stdin(std::process::Stdio::null())
            .output()
            .await
            .map_err(|e| ShareError::Gist(e.to_string()))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
            return Err(ShareError::Gist(err));
        }
        let gist_url = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let id = gist_url
            .lines()
            .last()
            .and_then(|line| line.trim().trim_end_matches('/').rsplit('/').next())
            .filter(|id| !id.is_empty())
            .ok_or(ShareError::NoGistId)?;
        Ok(Shared {
            viewer_url: viewer_url(id),
            gist_url: gist_url.clone(),
        })
    }
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn scratch_dir() -> PathBuf {
    std::env::temp_dir().join(format!("pi-share-{}", uuid::Uuid::new_v4().simple()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewer_address_carries_the_gist_id_after_a_hash() {
        assert!(viewer_url("abc123").ends_with("#abc123"));
    }
}
