//! Start-up's session step: which session file a run continues, forks or starts, from
//! `--no-session`, `--fork`, `--session`, `--continue` or nothing.

use std::path::Path;

use crate::app::startup::StartupResult;
use crate::cli::args::Args;
use crate::session::list::{ResolvedSessionArg, lookup_session_arg, resolve_session_arg};
use crate::session::manager::SessionManager;
use crate::t;

/// The session this run works in.
pub fn open_session(
    args: &Args,
    cwd: &Path,
    session_dir: &Path,
    agent_dir: &Path,
) -> StartupResult<SessionManager> {
    if args.no_session {
        return Ok(SessionManager::in_memory(cwd));
    }
    if let Some(arg) = &args.fork {
        let source = resolve_session_arg(arg, cwd, Some(session_dir), agent_dir)?;
        return SessionManager::fork_from(&source, cwd, session_dir).map_err(|e| e.to_string());
    }
    if let Some(arg) = &args.session {
        return match lookup_session_arg(arg, cwd, Some(session_dir), agent_dir)? {
            ResolvedSessionArg::Global { path, .. } => Err(t!(
                "pi.cli.session_other_project",
                id = arg,
                path = path.display().to_string()
            )),
            found => {
                let session = SessionManager::open_with(found.path(), Some(session_dir), None)
                    .map_err(|e| e.to_string())?;
                require_stored_cwd(&session, cwd)?;
                Ok(session)
            }
        };
    }
    if args.continue_session {
        return SessionManager::continue_recent(cwd, session_dir).map_err(|e| e.to_string());
    }
    Ok(SessionManager::create(cwd, session_dir))
}

/// A session whose stored working directory is gone cannot be resumed: its tools would
/// run in a folder that does not exist.
fn require_stored_cwd(session: &SessionManager, cwd: &Path) -> StartupResult<()> {
    let stored = &session.header().cwd;
    if stored.is_empty() || Path::new(stored).is_dir() {
        return Ok(());
    }
    Err(t!(
        "pi.cli.session_cwd_missing",
        cwd = stored.as_str(),
        file = session
            .session_file()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        current = cwd.display().to_string()
    ))
}
