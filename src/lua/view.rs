//! What extensions may read about the running session, and what they asked
//! the session to do. Shared between the session (which owns the data) and
//! the extension host thread (which reads it synchronously from Lua).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;

/// A request from an extension that the session carries out.
#[derive(Debug, Clone, PartialEq)]
pub enum ExtensionAction {
    /// `pi.appendEntry(customType, data)`.
    AppendEntry {
        /// The entry's `customType`.
        custom_type: String,
        /// The entry's `data`.
        data: Option<Value>,
    },
    /// `pi.setSessionName(name)`.
    SetSessionName(String),
    /// `pi.sendMessage(message, options)`.
    SendMessage {
        /// The message's `customType`.
        custom_type: String,
        /// Text or content blocks.
        content: Value,
        /// Whether UIs show it.
        display: bool,
        /// Extension metadata.
        details: Option<Value>,
        /// Start a turn after adding it.
        trigger_turn: bool,
        /// `steer`, `followUp` or `nextTurn` (`None`: steer).
        deliver_as: Option<String>,
    },
    /// `pi.sendUserMessage(content, {deliverAs})`.
    SendUserMessage {
        /// Text or content blocks.
        content: Value,
        /// `steer` or `followUp` while the agent runs.
        deliver_as: Option<String>,
    },
    /// `pi.setActiveTools(names)`.
    SetActiveTools(Vec<String>),
    /// `pi.setSandbox(mode)`, checked for support on this kernel already.
    SetSandbox(crate::sandbox::SandboxMode),
    /// `pi.setModel(model)`.
    SetModel {
        /// Provider name.
        provider: String,
        /// Model id.
        id: String,
    },
    /// `pi.setThinkingLevel(level)`.
    SetThinkingLevel(String),
    /// `pi.setLabel(entryId, label)`.
    SetLabel {
        /// The labelled entry.
        entry_id: String,
        /// The label (`None` clears it).
        label: Option<String>,
    },
    /// `ctx.abort()`.
    Abort,
    /// `ctx.shutdown()`.
    Shutdown,
    /// `ctx.reload()` from a command.
    Reload,
    /// `ctx.newSession(options)` from a command.
    NewSession {
        /// `parentSession`: recorded in the new session's header.
        parent: Option<String>,
        /// The `withSession` callback, run with the new session's `ctx` (see
        /// [`crate::lua::ExtensionHandle::run_callback`]).
        with_session: Option<u64>,
    },
    /// `ctx.fork(entryId)` from a command.
    Fork(String),
    /// `ctx.navigateTree(targetId, options)` from a command.
    NavigateTree {
        /// The entry to move to.
        target: String,
        /// Summarize the branch left behind.
        summarize: bool,
        /// Instructions for that summary.
        custom_instructions: Option<String>,
        /// The instructions replace the default prompt.
        replace_instructions: bool,
        /// A label for the summary entry (or the target).
        label: Option<String>,
    },
    /// `ctx.switchSession(path)` from a command.
    SwitchSession(String),
    /// `ctx.compact{customInstructions}`.
    Compact {
        /// `customInstructions`.
        instructions: Option<String>,
        /// The `onComplete`/`onError` pair kept for this call, to be run with
        /// [`crate::lua::compact_callbacks::EVENT`] when the compaction ends.
        callback: Option<u64>,
    },
}

/// A snapshot of the session for extensions (`ctx`, `pi.get*`).
#[derive(Debug, Clone, Default)]
pub struct SessionView {
    /// Working directory.
    pub cwd: PathBuf,
    /// The current model as pi's `Model` JSON.
    pub model: Value,
    /// Current thinking level (`off`, `low`, ...).
    pub thinking_level: String,
    /// Every session entry as JSON, in file order.
    pub entries: Vec<Value>,
    /// Current leaf entry id.
    pub leaf_id: Option<String>,
    /// The session header as JSON.
    pub header: Value,
    /// Session file path, when persisted.
    pub session_file: Option<String>,
    /// The system prompt of the current run.
    pub system_prompt: String,
    /// Display name of the session.
    pub session_name: Option<String>,
    /// Every known tool as `{name, description, parameters}`.
    pub all_tools: Vec<Value>,
    /// Names of the tools sent to the model.
    pub active_tools: Vec<String>,
    /// Models the user can select, as pi's `Model` JSON.
    pub models: Vec<Value>,
    /// Providers registered by extensions: name and config.
    pub providers: Vec<(String, Value)>,
    /// Whether no agent run is in progress.
    pub idle: bool,
    /// Whether steering or follow-up messages wait.
    pub pending_messages: bool,
    /// `{tokens, contextWindow, percent}` of the last request.
    pub context_usage: Value,
    /// Prompt-template and skill commands `{name, description, source}`.
    pub resource_commands: Vec<Value>,
    /// Requests waiting for the session.
    pub actions: Vec<ExtensionAction>,
    /// The effective permission mode and rules (`ctx.permissions`).
    pub permissions: Value,
    /// A sandbox mode asked for by `pi.setSandbox` and not yet put in force.
    pub pending_sandbox: Option<crate::sandbox::SandboxMode>,
    /// Keep messages for [`SharedView::take_messages`] instead of writing
    /// them to stderr (the terminal UI shows them itself).
    pub capture_messages: bool,
    /// Errors, warnings and log lines waiting to be shown.
    pub messages: Vec<String>,
    /// Lines published by Lua components for the terminal UI.
    pub surfaces: crate::lua::ui::surfaces::SurfaceStore,
    /// Signalled whenever an action is queued, so an idle session can carry
    /// out what a timer or a background process asked for.
    pub actions_queued: Arc<tokio::sync::Notify>,
}

/// The view shared between the session and the extension host.
#[derive(Debug, Clone, Default)]
pub struct SharedView(Arc<Mutex<SessionView>>);

impl SharedView {
    /// A view with `cwd` and nothing else.
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        SharedView(Arc::new(Mutex::new(SessionView {
            cwd: cwd.into(),
            ..SessionView::default()
        })))
    }

    /// Lock the view for reading or updating.
    pub fn lock(&self) -> MutexGuard<'_, SessionView> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queue an action for the session.
    pub fn push_action(&self, action: ExtensionAction) {
        let queued = {
            let mut view = self.lock();
            view.actions.push(action);
            view.actions_queued.clone()
        };
        queued.notify_one();
    }

    /// What [`SharedView::push_action`] signals.
    pub fn actions_queued(&self) -> Arc<tokio::sync::Notify> {
        self.lock().actions_queued.clone()
    }

    /// Report an error, warning or log line from the extension host: on
    /// stderr, or kept for the terminal UI when it captures them.
    pub fn report(&self, message: String) {
        let mut view = self.lock();
        if view.capture_messages {
            view.messages.push(message);
        } else {
            drop(view);
            let text = crate::lua::messages::localize(&message).1;
            eprintln!(
                "{}",
                crate::ui_kit::safe_text::for_stream(
                    &text,
                    crate::ui_kit::safe_text::Stream::Stderr
                )
            );
        }
    }

    /// Take every captured message.
    pub fn take_messages(&self) -> Vec<String> {
        std::mem::take(&mut self.lock().messages)
    }

    /// Take every queued action.
    pub fn take_actions(&self) -> Vec<ExtensionAction> {
        std::mem::take(&mut self.lock().actions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captured_messages_wait_for_the_ui() {
        let view = SharedView::new(".");
        view.report("to stderr".into());
        assert!(view.take_messages().is_empty());
        view.lock().capture_messages = true;
        view.report("Extension error: x".into());
        assert_eq!(view.take_messages(), vec!["Extension error: x"]);
        assert!(view.take_messages().is_empty());
    }
}
