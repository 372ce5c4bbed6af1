//! The checkpoint commands: `get_checkpoints` (newest first, with the storage used),
//! `preview_rewind` (the files a rewind would change and which are conflicts), `rewind`
//! (code, conversation or both; each conflict overwritten only when the `conflicts`
//! answers say `"overwrite"` for it) and `fork` with `code: true`.

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::error::RpcError;
use super::parse::RpcCommand;
use crate::core::agent_session::AgentSession;
use crate::core::checkpoints::{RewindOptions, checkpoint_json};
use crate::core::session_switch::BranchOutcome;

/// Run one checkpoint command (`None`: `command` is not one).
pub(super) async fn command(
    agent: &mut AgentSession,
    command: RpcCommand,
) -> Option<Result<Option<Value>, RpcError>> {
    Some(match command {
        RpcCommand::GetCheckpoints => {
            let list: Vec<Value> = agent
                .checkpoint_list()
                .iter()
                .map(checkpoint_json)
                .collect();
            let usage = agent
                .checkpoint_store()
                .map(|s| s.usage())
                .unwrap_or_default();
            Ok(Some(json!({
                "checkpoints": list,
                "sessionBytes": usage.session_bytes,
                "folderBytes": usage.folder_bytes,
            })))
        }
        RpcCommand::PreviewRewind(target) => {
            let plan = agent.rewind_plan(&target);
            Ok(Some(json!({
                "checkpointId": plan.as_ref().map(|p| p.checkpoint_id.clone()),
                "changes": plan.map(|p| p.changes).unwrap_or_default(),
            })))
        }
        RpcCommand::Rewind {
            target,
            code,
            conversation,
            conflicts,
        } => {
            let options = RewindOptions { code, conversation };
            let overwrite = move |path: &str| conflicts[path].as_str() == Some("overwrite");
            let signal = CancellationToken::new();
            agent
                .rewind(&target, options, &overwrite, &signal)
                .await
                .map(|outcome| {
                    Some(json!({
                        "restored": outcome.files.restored,
                        "kept": outcome.files.kept,
                        "text": outcome.editor_text,
                        "cancelled": outcome.cancelled,
                    }))
                })
                .map_err(RpcError::from)
        }
        RpcCommand::ForkWithFiles(id) => {
            if agent.session.entry(&id).is_none() {
                return Some(Err(RpcError::EntryNotFound { id }));
            }
            agent
                .fork_with_files(&id, &|_| false)
                .await
                .map(|(outcome, files)| {
                    Some(match outcome {
                        BranchOutcome::Branched { text } => json!({
                            "text": text.unwrap_or_default(), "cancelled": false,
                            "restored": files.restored, "kept": files.kept,
                        }),
                        BranchOutcome::Cancelled => json!({ "cancelled": true }),
                    })
                })
                .map_err(RpcError::from)
        }
        _ => return None,
    })
}
