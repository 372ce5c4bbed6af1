//! Why an RPC command failed: a stable `code` for programs and a `message` in the user's
//! language, both in the failed response.

use crate::t;

/// A failed RPC command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RpcError {
    /// A line that is not JSON.
    Parse {
        /// The parser's description.
        detail: String,
    },
    /// A command without `type`.
    MissingType {
        /// Every command of the protocol, comma-separated.
        commands: String,
    },
    /// A `type` the protocol does not have.
    UnknownCommand {
        /// The type given.
        name: String,
    },
    /// A required field is missing or of the wrong type.
    MissingField {
        /// The command.
        command: String,
        /// The field.
        field: String,
        /// `string` or `boolean`.
        expected: &'static str,
    },
    /// `images` is not a list of images.
    InvalidImages {
        /// The parser's description.
        detail: String,
    },
    /// A queue mode other than `all` / `one-at-a-time`.
    InvalidQueueMode {
        /// The mode given.
        mode: String,
    },
    /// A `streamingBehavior` other than `steer` / `followUp`.
    InvalidStreamingBehavior {
        /// The value given.
        value: String,
    },
    /// A sandbox mode other than `read-only` / `workspace-write` / `full`.
    InvalidSandboxMode {
        /// The mode given.
        mode: String,
    },
    /// A prompt while the agent runs, without `streamingBehavior`.
    Busy,
    /// No model with this provider and id.
    ModelNotFound {
        /// The provider.
        provider: String,
        /// The model id.
        model: String,
    },
    /// A thinking level pi does not have.
    InvalidThinkingLevel {
        /// The level given.
        level: String,
    },
    /// An empty session name.
    EmptySessionName,
    /// `switch_session` to a file that is not there.
    SessionNotFound {
        /// The path given.
        path: String,
    },
    /// An entry id the session does not have.
    EntryNotFound {
        /// The id given.
        id: String,
    },
    /// The sandbox mode cannot be enforced here.
    Sandbox(crate::sandbox::SandboxError),
    /// The command ran and failed; `message` is already worded (in the user's language).
    Failed {
        /// The stable code of the failure's kind.
        code: &'static str,
        /// What went wrong.
        message: String,
    },
}

impl RpcError {
    /// The stable code programs match on.
    pub fn code(&self) -> &'static str {
        match self {
            RpcError::Parse { .. } => "parse_error",
            RpcError::MissingType { .. } => "missing_type",
            RpcError::UnknownCommand { .. } => "unknown_command",
            RpcError::MissingField { .. } => "missing_field",
            RpcError::InvalidImages { .. } => "invalid_images",
            RpcError::InvalidQueueMode { .. }
            | RpcError::InvalidStreamingBehavior { .. }
            | RpcError::InvalidSandboxMode { .. } => "invalid_value",
            RpcError::Busy => "busy",
            RpcError::ModelNotFound { .. } => "model_not_found",
            RpcError::InvalidThinkingLevel { .. } => "invalid_thinking_level",
            RpcError::EmptySessionName => "invalid_value",
            RpcError::SessionNotFound { .. } => "session_not_found",
            RpcError::EntryNotFound { .. } => "entry_not_found",
            RpcError::Sandbox(_) => "sandbox_unsupported",
            RpcError::Failed { code, .. } => code,
        }
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            RpcError::Parse { detail } => t!("pi.error.rpc.parse", detail = detail.as_str()),
            RpcError::MissingType { commands } => {
                t!(
                    "pi.error.rpc.missing_type",
                    example = r#"{"type": "<command>"}"#,
                    commands = commands.as_str()
                )
            }
            RpcError::UnknownCommand { name } => {
                t!("pi.error.rpc.unknown_command", name = name.as_str())
            }
            RpcError::MissingField {
                command,
                field,
                expected,
            } => t!(
                "pi.error.rpc.missing_field",
                command = command.as_str(),
                field = field.as_str(),
                expected = *expected
            ),
            RpcError::InvalidImages { detail } => {
                t!(
                    "pi.error.rpc.invalid_images",
                    detail = detail.as_str(),
                    example = r#"{"type": "image", "data": "<base64>", "mimeType": "image/png"}"#
                )
            }
            RpcError::InvalidQueueMode { mode } => {
                t!("pi.error.rpc.invalid_queue_mode", mode = mode.as_str())
            }
            RpcError::InvalidStreamingBehavior { value } => {
                t!(
                    "pi.error.rpc.invalid_streaming_behavior",
                    value = value.as_str()
                )
            }
            RpcError::InvalidSandboxMode { mode } => {
                t!("pi.error.rpc.invalid_sandbox_mode", mode = mode.as_str())
            }
            RpcError::Busy => t!("pi.error.rpc.busy"),
            RpcError::ModelNotFound { provider, model } => t!(
                "pi.error.rpc.model_not_found",
                provider = provider.as_str(),
                model = model.as_str()
            ),
            RpcError::InvalidThinkingLevel { level } => {
                t!(
                    "pi.error.rpc.invalid_thinking_level",
                    level = level.as_str()
                )
            }
            RpcError::EmptySessionName => t!("pi.error.rpc.empty_session_name"),
            RpcError::SessionNotFound { path } => {
                t!("pi.error.rpc.session_not_found", path = path.as_str())
            }
            RpcError::EntryNotFound { id } => t!("pi.error.rpc.entry_not_found", id = id.as_str()),
            RpcError::Sandbox(e) => e.to_string(),
            RpcError::Failed { message, .. } => message.clone(),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for RpcError {}

impl From<crate::sandbox::SandboxError> for RpcError {
    fn from(e: crate::sandbox::SandboxError) -> RpcError {
        RpcError::Sandbox(e)
    }
}

impl From<crate::core::error::CoreError> for RpcError {
    fn from(e: crate::core::error::CoreError) -> RpcError {
        use crate::core::error::CoreError;
        match e {
            CoreError::EntryMissing { id } => RpcError::EntryNotFound { id },
            CoreError::SessionFileMissing { path } => RpcError::SessionNotFound {
                path: path.display().to_string(),
            },
            CoreError::EmptyName => RpcError::EmptySessionName,
            other => RpcError::Failed {
                code: core_code(&other),
                message: other.to_string(),
            },
        }
    }
}

impl From<crate::export::ExportError> for RpcError {
    fn from(e: crate::export::ExportError) -> RpcError {
        RpcError::Failed {
            code: "export_failed",
            message: e.to_string(),
        }
    }
}

/// The stable code of a session command's failure.
fn core_code(e: &crate::core::error::CoreError) -> &'static str {
    use crate::core::error::CoreError;
    match e {
        CoreError::Compaction(_) => "compaction_failed",
        CoreError::BranchSummary(_) => "branch_summary_failed",
        CoreError::Session(_) | CoreError::CreateFailed(_) => "session_write_failed",
        CoreError::TreeEntryGone | CoreError::EntryMissing { .. } => "entry_not_found",
        CoreError::ForkNotUser { .. } => "fork_not_user_message",
        CoreError::NothingToClone => "nothing_to_clone",
        CoreError::EmptyName => "invalid_value",
        CoreError::SessionFileMissing { .. } => "session_not_found",
        CoreError::OpenFailed { .. } => "session_open_failed",
        CoreError::CwdMissing { .. } => "session_cwd_missing",
        CoreError::ImportMissing { .. }
        | CoreError::ImportInvalid { .. }
        | CoreError::ImportNoFolder
        | CoreError::ImportCopyFailed { .. } => "import_failed",
        CoreError::CheckpointWithoutMessage
        | CoreError::CheckpointsOff
        | CoreError::CheckpointUnknown { .. } => "checkpoint_unavailable",
        CoreError::RestoreFailed { .. } => "restore_failed",
        CoreError::UnknownCommand { .. } => "unknown_command",
        CoreError::Extension { .. } => "extension_failed",
    }
}
