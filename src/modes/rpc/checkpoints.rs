//! The checkpoint commands: `get_checkpoints` (newest first, with the storage used),
//! `preview_rewind` (the files a rewind would change and which are conflicts) and
//! `rewind` (code, conversation or both; each conflict overwritten only when the
//! `conflicts` answers say `"overwrite"` for it).

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::core::agent_session::AgentSession;
use crate::core::checkpoints::{RewindOptions, checkpoint_json};

/// Run one checkpoint command.
pub(super) async fn command(
    agent: &mut AgentSession,
    kind: &str,
    c: &Value,
) -> Result<Option<Value>, String> {
    match kind {
        "get_checkpoints" => {
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
        "preview_rewind" => {
            let target = target(c)?;
            let plan = agent.rewind_plan(target);
            Ok(Some(json!({
                "checkpointId": plan.as_ref().map(|p| p.checkpoint_id.clone()),
                "changes": plan.map(|p| p.changes).unwrap_or_default(),
            })))
        }
        _ => {
            let target = target(c)?.to_string();
            let options = RewindOptions {
                code: c["code"].as_bool().unwrap_or(true),
                conversation: c["conversation"].as_bool().unwrap_or(true),
            };
            let answers = c["conflicts"].clone();
            let overwrite = move |path: &str| answers[path].as_str() == Some("overwrite");
            let signal = CancellationToken::new();
            let outcome = agent.rewind(&target, options, &overwrite, &signal).await?;
            Ok(Some(json!({
                "restored": outcome.files.restored,
                "kept": outcome.files.kept,
                "text": outcome.editor_text,
                "cancelled": outcome.cancelled,
            })))
        }
    }
}

/// The `entryId` (a user message) or `checkpointId` a command names.
fn target(c: &Value) -> Result<&str, String> {
    c["entryId"]
        .as_str()
        .or_else(|| c["checkpointId"].as_str())
        .ok_or_else(|| {
            format!(
                "{} needs a string field \"entryId\" or \"checkpointId\"",
                c["type"].as_str().unwrap_or("command")
            )
        })
}
