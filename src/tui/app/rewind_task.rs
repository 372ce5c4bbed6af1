//! `/rewind` in the terminal UI, run by the conversation task: which message (unless the
//! tree already chose one), what to bring back — conversation and code, code only or
//! conversation only — with the files that will change listed first, then what to do
//! with files changed since by someone else (kept unless the user says overwrite).
//! `/fork` asks the same about the files when changes were recorded after its message.

use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::checkpoint::{ChangeKind, RestorePlan};
use crate::core::agent_session::AgentSession;
use crate::core::checkpoints::RewindOptions;
use crate::core::error::CoreError;
use crate::core::tree_navigation::user_text;
use crate::lua::ExtensionUi;
use crate::t;

/// What a rewind did, for the screen.
#[derive(Debug, Clone, PartialEq)]
pub struct RewindDone {
    /// The conversation moved (the transcript is rebuilt).
    pub conversation: bool,
    /// The message's text for the editor.
    pub editor_text: Option<String>,
    /// What to tell the user.
    pub notice: String,
}

/// Ask one question; the index of the option picked (`None`: cancelled).
async fn ask(ui: &dyn ExtensionUi, title: String, options: &[String]) -> Option<usize> {
    let request = json!({"method": "select", "title": title, "options": options});
    let closed = CancellationToken::new();
    let answer = ui.dialog(request, closed.clone()).await.ok();
    closed.cancel();
    let value = answer?.get("value")?.as_str()?.to_string();
    options.iter().position(|o| *o == value)
}

/// The lines listing what a restore changes (conflicts marked).
pub fn plan_lines(plan: Option<&RestorePlan>) -> Vec<String> {
    let changes = plan.map(|p| p.changes.as_slice()).unwrap_or_default();
    if changes.is_empty() {
        return vec![t!("pi.tui.rewind.no_files")];
    }
    let mut lines = vec![t!("pi.tui.rewind.files")];
    for c in changes {
        let path = c.path.clone();
        lines.push(match (c.conflict, c.kind) {
            (true, _) => t!("pi.tui.rewind.conflict", path = path),
            (_, ChangeKind::Create) => t!("pi.tui.rewind.create", path = path),
            (_, ChangeKind::Modify) => t!("pi.tui.rewind.modify", path = path),
            (_, ChangeKind::Delete) => t!("pi.tui.rewind.delete", path = path),
        });
    }
    lines
}

/// When the plan has conflicts, ask whether to overwrite them: `Some(true)` overwrite,
/// `Some(false)` keep (also when there are none), `None` cancelled.
async fn ask_overwrite(ui: &dyn ExtensionUi, plan: Option<&RestorePlan>) -> Option<bool> {
    let conflicts: Vec<String> = plan
        .iter()
        .flat_map(|p| p.conflicts())
        .map(|c| c.path.clone())
        .collect();
    if conflicts.is_empty() {
        return Some(false);
    }
    let mut title = vec![t!("pi.tui.rewind.conflicts_title", count = conflicts.len())];
    title.extend(conflicts.iter().map(|p| format!("  {p}")));
    let options = [t!("pi.tui.rewind.keep"), t!("pi.tui.rewind.overwrite")];
    ask(ui, title.join("\n"), &options).await.map(|i| i == 1)
}

/// What `/fork` from before `target` does with the files, asked only when changes were
/// recorded after it: `Some(Some(overwrite))` brings the files back too (conflicts
/// overwritten or kept), `Some(None)` leaves them, `None` cancels the fork.
pub async fn ask_fork_files(agent: &mut AgentSession, target: &str) -> Option<Option<bool>> {
    let Some(ui) = agent.limit_ui.clone() else {
        return Some(None);
    };
    let plan = agent.rewind_plan(target).filter(|p| !p.changes.is_empty());
    if plan.is_none() {
        return Some(None);
    }
    let mut title = titled(agent, t!("pi.tui.fork.files_title"), target);
    title.extend(plan_lines(plan.as_ref()));
    let options = [
        t!("pi.tui.rewind.both"),
        t!("pi.tui.rewind.conversation"),
        t!("pi.tui.rewind.cancel"),
    ];
    match ask(ui.as_ref(), title.join("\n"), &options).await? {
        // Extensions' `session_before_fork` handlers learn what was chosen here.
        0 => {
            let overwrite = ask_overwrite(ui.as_ref(), plan.as_ref()).await;
            agent.fork_files = overwrite.map(|_| "restore");
            overwrite.map(Some)
        }
        1 => {
            agent.fork_files = Some("keep");
            Some(None)
        }
        _ => None,
    }
}

/// A message's text on one line of at most 70 characters.
fn one_line(text: &str) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 70 {
        line.chars().take(69).collect::<String>() + "…"
    } else {
        line
    }
}

/// A dialog's title: its first line, then the message it is about, quoted.
fn titled(agent: &AgentSession, first: String, target: &str) -> Vec<String> {
    let mut title = vec![first];
    if let Some(text) = agent.session.entry(target).and_then(user_text) {
        title.push(format!("  \u{201c}{}\u{201d}", one_line(&text)));
    }
    title
}

/// The user messages of the current branch, newest first: (entry id, one line).
fn branch_messages(agent: &mut AgentSession) -> Vec<(String, String)> {
    let counts = agent.changed_file_counts();
    let mut out: Vec<(String, String)> = agent
        .session
        .branch_user_messages()
        .map(|e| {
            let mut line = one_line(&user_text(&e).unwrap_or_default());
            if let Some(n) = counts.get(e.id()).filter(|n| **n > 0) {
                line = format!("{line}  {}", t!("pi.tui.tree.files", count = *n));
            }
            (e.id().to_string(), line)
        })
        .collect();
    out.reverse();
    out
}

/// Why `/rewind` did nothing.
#[derive(Debug)]
pub enum RewindError {
    /// Checkpoints are off, so there is nothing to rewind with.
    CheckpointsOff,
    /// The branch has no user message to rewind to.
    NoMessages,
    /// The rewind itself failed.
    Failed(CoreError),
    /// The rewind was cancelled part way (by an extension or the user).
    Cancelled,
}

impl std::fmt::Display for RewindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&match self {
            RewindError::CheckpointsOff => t!("pi.checkpoint.off"),
            RewindError::NoMessages => t!("pi.tui.rewind.none"),
            RewindError::Failed(e) => e.to_string(),
            RewindError::Cancelled => t!("pi.tui.tree.cancelled"),
        })
    }
}

impl std::error::Error for RewindError {}

/// Run `/rewind` to before `target` (`None`: ask which message). `Ok(None)`: cancelled.
pub async fn run_rewind(
    agent: &mut AgentSession,
    target: Option<String>,
) -> Result<Option<RewindDone>, RewindError> {
    let ui = agent.limit_ui.clone().ok_or(RewindError::CheckpointsOff)?;
    let target = match target {
        Some(t) => t,
        None => {
            let messages = branch_messages(agent);
            if messages.is_empty() {
                return Err(RewindError::NoMessages);
            }
            let options: Vec<String> = messages.iter().map(|(_, l)| l.clone()).collect();
            let Some(i) = ask(ui.as_ref(), t!("pi.tui.rewind.pick"), &options).await else {
                return Ok(None);
            };
            messages[i].0.clone()
        }
    };
    let plan = agent.rewind_plan(&target);
    let mut title = titled(agent, t!("pi.tui.rewind.title"), &target);
    title.extend(plan_lines(plan.as_ref()));
    let options = [
        t!("pi.tui.rewind.both"),
        t!("pi.tui.rewind.code"),
        t!("pi.tui.rewind.conversation"),
        t!("pi.tui.rewind.cancel"),
    ];
    let choice = ask(ui.as_ref(), title.join("\n"), &options).await;
    let (code, conversation) = match choice {
        Some(0) => (true, true),
        Some(1) => (true, false),
        Some(2) => (false, true),
        _ => return Ok(None),
    };
    let overwrite = if code {
        match ask_overwrite(ui.as_ref(), plan.as_ref()).await {
            Some(overwrite) => overwrite,
            None => return Ok(None),
        }
    } else {
        false
    };
    let options = RewindOptions { code, conversation };
    let signal = CancellationToken::new();
    let outcome = agent
        .rewind(&target, options, &|_| overwrite, &signal)
        .await
        .map_err(RewindError::Failed)?;
    if outcome.cancelled {
        return Err(RewindError::Cancelled);
    }
    let notice = if code {
        files_done(outcome.files.restored.len(), outcome.files.kept.len())
    } else {
        t!("pi.tui.rewind.conversation_done")
    };
    Ok(Some(RewindDone {
        conversation,
        editor_text: outcome.editor_text,
        notice,
    }))
}

/// The notice after files were brought back: how many were restored and, when the user
/// chose to keep some of their own changes, how many were kept.
pub(super) fn files_done(restored: usize, kept: usize) -> String {
    if kept == 0 {
        t!("pi.tui.rewind.restored", restored = restored)
    } else {
        t!("pi.tui.rewind.done", restored = restored, kept = kept)
    }
}
