//! The one place RPC mode reads a command's `type`: each JSON line becomes a typed
//! [`RpcCommand`] (the session's own changes as [`SessionCommand`]s), checked for its
//! fields, before anything runs.

use std::path::PathBuf;

use serde_json::Value;

use super::error::RpcError;
use crate::agent::queue::QueueMode;
use crate::ai::model::ThinkingLevel;
use crate::ai::types::{ContentBlock, ImageContent};
use crate::core::session_command::SessionCommand;
use crate::sandbox::SandboxMode;

/// Every command of the protocol (for the missing-type message).
const COMMANDS: &str = "prompt, steer, follow_up, abort, new_session, get_state, get_messages, \
set_model, cycle_model, get_available_models, set_thinking_level, cycle_thinking_level, \
set_steering_mode, set_follow_up_mode, compact, set_auto_compaction, set_auto_retry, \
abort_retry, bash, abort_bash, get_session_stats, export_html, switch_session, fork, clone, \
get_fork_messages, get_last_assistant_text, set_session_name, get_commands, set_sandbox, \
get_checkpoints, preview_rewind, rewind";

/// Which queue a message sent during a run goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queue {
    /// Delivered after the current tool calls.
    Steer,
    /// Delivered when the agent would stop.
    FollowUp,
}

/// A user message: text and attached images.
#[derive(Debug, Clone)]
pub struct Said {
    /// The text.
    pub text: String,
    /// Attached images.
    pub images: Vec<ContentBlock>,
}

/// A read-only question about the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// `get_state`.
    State,
    /// `get_messages`.
    Messages,
    /// `get_last_assistant_text`.
    LastAssistantText,
    /// `get_session_stats`.
    SessionStats,
    /// `get_available_models`.
    AvailableModels,
    /// `get_fork_messages`.
    ForkMessages,
    /// `get_commands`.
    Commands,
}

/// One command of the protocol.
#[derive(Debug, Clone)]
pub enum RpcCommand {
    /// Run a prompt; while a run streams, `queue` says where it goes instead.
    Prompt {
        /// The message.
        said: Said,
        /// `streamingBehavior` (`Err`: an unknown one).
        queue: Option<Result<Queue, RpcError>>,
    },
    /// `steer` / `follow_up`: queue a message for the running agent.
    Enqueue(Queue, Said),
    /// Stop the run (answered once it has ended).
    Abort,
    /// Stop the user `bash` command.
    AbortBash,
    /// Stop waiting for a retry.
    AbortRetry,
    /// `set_steering_mode` / `set_follow_up_mode`.
    SetQueueMode(Queue, QueueMode),
    /// A question answered from the session (or its live mirror during a run).
    Query(Query),
    /// Switch to the model with this provider and id.
    SetModel {
        /// Provider name.
        provider: String,
        /// Model id.
        id: String,
    },
    /// The next model of the cycle.
    CycleModel,
    /// Switch the OS sandbox mode.
    SetSandbox(SandboxMode),
    /// Run a user shell command.
    Bash(String),
    /// Write the session as HTML.
    ExportHtml(Option<PathBuf>),
    /// A change to the session shared with every front end.
    Session(SessionCommand),
    /// `fork` with `code: true`: the files go back to before the message too.
    ForkWithFiles(String),
    /// `get_checkpoints`: the session's checkpoints, newest first, and the storage used.
    GetCheckpoints,
    /// `preview_rewind`: the files a rewind to this user message (or checkpoint) changes.
    PreviewRewind(String),
    /// `rewind`: bring back the code, the conversation or both.
    Rewind {
        /// The user message's entry id or the checkpoint id.
        target: String,
        /// Restore the files.
        code: bool,
        /// Move the conversation back.
        conversation: bool,
        /// `{path: "overwrite" | "keep"}` for files changed since the checkpoint.
        conflicts: Value,
    },
}

/// A parsed line: its `id`, its `type` (echoed as `command` in the response) and the
/// command, or why it is not one.
#[derive(Debug)]
pub struct Request {
    /// The client's `id`.
    pub id: Option<Value>,
    /// The `type` field as sent.
    pub kind: String,
    /// The command, or the error message for the response.
    pub command: Result<RpcCommand, RpcError>,
}

/// Parse one command object.
pub fn parse(value: &Value) -> Request {
    let kind = value["type"].as_str().unwrap_or_default().to_string();
    Request {
        id: value.get("id").cloned(),
        command: command(&kind, &Fields { value, kind: &kind }),
        kind,
    }
}

/// Whether a line answers an extension dialog (`extension_ui_response`), which goes
/// straight to the waiting dialog rather than to the command loop.
pub fn is_ui_response(value: &Value) -> bool {
    value["type"] == "extension_ui_response"
}

fn command(kind: &str, f: &Fields) -> Result<RpcCommand, RpcError> {
    use RpcCommand as R;
    use SessionCommand as S;
    Ok(match kind {
        "prompt" => R::Prompt {
            said: f.said()?,
            queue: f
                .value
                .get("streamingBehavior")
                .and_then(Value::as_str)
                .map(|b| match b {
                    "steer" => Ok(Queue::Steer),
                    "followUp" => Ok(Queue::FollowUp),
                    other => Err(RpcError::InvalidStreamingBehavior {
                        value: other.to_string(),
                    }),
                }),
        },
        "steer" => R::Enqueue(Queue::Steer, f.said()?),
        "follow_up" => R::Enqueue(Queue::FollowUp, f.said()?),
        "abort" => R::Abort,
        "abort_bash" => R::AbortBash,
        "abort_retry" => R::AbortRetry,
        "set_steering_mode" => R::SetQueueMode(Queue::Steer, f.queue_mode()?),
        "set_follow_up_mode" => R::SetQueueMode(Queue::FollowUp, f.queue_mode()?),
        "get_state" => R::Query(Query::State),
        "get_messages" => R::Query(Query::Messages),
        "get_last_assistant_text" => R::Query(Query::LastAssistantText),
        "get_session_stats" => R::Query(Query::SessionStats),
        "get_available_models" => R::Query(Query::AvailableModels),
        "get_fork_messages" => R::Query(Query::ForkMessages),
        "get_commands" => R::Query(Query::Commands),
        "set_model" => R::SetModel {
            provider: f.str("provider")?.to_string(),
            id: f.str("modelId")?.to_string(),
        },
        "cycle_model" => R::CycleModel,
        "set_thinking_level" => {
            let level = f.str("level")?;
            R::Session(S::SetThinking(ThinkingLevel::parse(level).ok_or_else(
                || RpcError::InvalidThinkingLevel {
                    level: level.to_string(),
                },
            )?))
        }
        "cycle_thinking_level" => R::Session(S::CycleThinking),
        "set_sandbox" => {
            let mode = f.str("mode")?;
            R::SetSandbox(
                SandboxMode::parse(mode).ok_or_else(|| RpcError::InvalidSandboxMode {
                    mode: mode.to_string(),
                })?,
            )
        }
        "set_auto_compaction" => R::Session(S::SetAutoCompaction(f.bool("enabled")?)),
        "set_auto_retry" => R::Session(S::SetAutoRetry(f.bool("enabled")?)),
        "set_session_name" => R::Session(S::SetName(f.str("name")?.to_string())),
        "new_session" => R::Session(S::NewSession {
            parent: f.optional_str("parentSession"),
        }),
        "switch_session" => R::Session(S::SwitchSession(PathBuf::from(f.str("sessionPath")?))),
        "fork" if f.value["code"].as_bool() == Some(true) => {
            R::ForkWithFiles(f.str("entryId")?.to_string())
        }
        "fork" => R::Session(S::Fork(f.str("entryId")?.to_string())),
        "get_checkpoints" => R::GetCheckpoints,
        "preview_rewind" => R::PreviewRewind(f.rewind_target()?),
        "rewind" => R::Rewind {
            target: f.rewind_target()?,
            code: f.value["code"].as_bool().unwrap_or(true),
            conversation: f.value["conversation"].as_bool().unwrap_or(true),
            conflicts: f.value["conflicts"].clone(),
        },
        "clone" => R::Session(S::Clone),
        "compact" => R::Session(S::Compact {
            instructions: f.optional_str("customInstructions"),
            signal: tokio_util::sync::CancellationToken::new(),
        }),
        "bash" => R::Bash(f.str("command")?.to_string()),
        "export_html" => R::ExportHtml(f.optional_str("outputPath").map(PathBuf::from)),
        "" => {
            return Err(RpcError::MissingType {
                commands: COMMANDS.to_string(),
            });
        }
        other => {
            return Err(RpcError::UnknownCommand {
                name: other.to_string(),
            });
        }
    })
}

/// The fields of one command, with messages naming what is missing.
struct Fields<'a> {
    value: &'a Value,
    kind: &'a str,
}

impl Fields<'_> {
    fn str(&self, field: &str) -> Result<&str, RpcError> {
        self.value[field]
            .as_str()
            .ok_or_else(|| self.missing(field, "string"))
    }

    fn missing(&self, field: &str, expected: &'static str) -> RpcError {
        RpcError::MissingField {
            command: self.name().to_string(),
            field: field.to_string(),
            expected,
        }
    }

    /// The `entryId` (a user message) or `checkpointId` a rewind names.
    fn rewind_target(&self) -> Result<String, RpcError> {
        self.optional_str("entryId")
            .or_else(|| self.optional_str("checkpointId"))
            .ok_or_else(|| self.missing("entryId", "string"))
    }

    fn optional_str(&self, field: &str) -> Option<String> {
        self.value[field].as_str().map(str::to_string)
    }

    fn bool(&self, field: &str) -> Result<bool, RpcError> {
        self.value[field]
            .as_bool()
            .ok_or_else(|| self.missing(field, "boolean"))
    }

    fn name(&self) -> &str {
        if self.kind.is_empty() {
            "command"
        } else {
            self.kind
        }
    }

    fn queue_mode(&self) -> Result<QueueMode, RpcError> {
        let mode = self.str("mode")?;
        QueueMode::parse(mode).ok_or_else(|| RpcError::InvalidQueueMode {
            mode: mode.to_string(),
        })
    }

    /// The `message` text and `images` of a prompt-like command.
    fn said(&self) -> Result<Said, RpcError> {
        let text = self.str("message")?.to_string();
        let images = match self.value.get("images") {
            None | Some(Value::Null) => Vec::new(),
            Some(images) => serde_json::from_value::<Vec<ImageContent>>(images.clone())
                .map_err(|e| RpcError::InvalidImages {
                    detail: e.to_string(),
                })?
                .into_iter()
                .map(ContentBlock::Image)
                .collect(),
        };
        Ok(Said { text, images })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn commands_become_typed_and_bad_fields_are_named() {
        let r = parse(&json!({"id": 7, "type": "set_thinking_level", "level": "high"}));
        assert_eq!(r.id, Some(json!(7)));
        assert_eq!(r.kind, "set_thinking_level");
        assert!(matches!(
            r.command,
            Ok(RpcCommand::Session(SessionCommand::SetThinking(
                ThinkingLevel::High
            )))
        ));
        let r = parse(&json!({"type": "prompt", "message": "hi", "streamingBehavior": "followUp"}));
        assert!(matches!(
            r.command,
            Ok(RpcCommand::Prompt {
                queue: Some(Ok(Queue::FollowUp)),
                ..
            })
        ));
        let r = parse(&json!({"type": "set_model", "provider": "p"}));
        let missing = r.command.unwrap_err();
        assert_eq!(missing.code(), "missing_field");
        assert!(missing.to_string().contains("modelId"), "{missing}");
        let r = parse(&json!({"type": "frobnicate"}));
        assert_eq!(
            r.command.unwrap_err(),
            RpcError::UnknownCommand {
                name: "frobnicate".into()
            }
        );
        let r = parse(&json!({"type": "set_thinking_level", "level": "huge"}));
        let bad = r.command.unwrap_err();
        assert_eq!(bad.code(), "invalid_thinking_level");
        assert!(bad.to_string().contains("huge"), "{bad}");
    }
}
