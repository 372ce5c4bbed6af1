//! The session side of the Lua extension host: keeps the [`SharedView`] in
//! step with the session, turns agent hooks into extension events and carries
//! out what extensions asked for.

use crate::t;
use std::sync::Arc;

use serde_json::{Value, json};

use tokio_util::sync::CancellationToken;

use crate::agent::agent_loop::{AgentLoopConfig, AgentQueues, AgentState};
use crate::agent::events::AgentEvent;
use crate::agent::tool::{AgentTool, ToolOutput};
use crate::ai::model::Model;
use crate::ai::types::{ContentBlock, CustomMessage, Message, ToolCall, UserContent, now_ms};
use crate::core::extension_events::DiscoveredResources;
use crate::lua::{ExtensionAction, ExtensionHandle, Registrations, SharedView};
use crate::session::manager::SessionManager;

/// A loaded extension host bound to one session.
pub struct ExtensionBridge {
    /// The host.
    pub handle: ExtensionHandle,
    /// What extensions read about the session.
    pub view: SharedView,
    /// Every tool (built-in and extension), for `setActiveTools`.
    pub all_tools: Vec<Arc<dyn AgentTool>>,
    /// Models the user can select (for `ctx.modelRegistry`, `pi.setModel`).
    pub models: Vec<Model>,
    /// What the extensions registered (refreshed on load and reload).
    pub registrations: Registrations,
    /// Paths contributed in the last `resources_discover`.
    pub resources: DiscoveredResources,
    /// Messages sent with `deliverAs = "nextTurn"`, for the next prompt.
    pub next_turn: Vec<Message>,
    /// Watches extension files when `"extensions.watch"` is on.
    pub watcher: Option<crate::lua::watch::ExtensionWatcher>,
    extension_tools: Vec<String>,
    /// Tools replaced by their `pi.wrapTool` chain, unwrapped (put back before each merge).
    wrapped: Vec<Arc<dyn AgentTool>>,
    synced_entries: usize,
}

/// What `session_before_compact` handlers decided.
pub enum BeforeCompact {
    /// Summarize with the model as usual.
    Default,
    /// Do not compact.
    Cancel,
    /// Use this compaction (`summary`, optional `firstKeptEntryId`,
    /// `tokensBefore`, `details`) instead of asking the model.
    Supplied(Value),
}

/// What a prompt's `input` handlers decided.
#[derive(Debug, Clone, PartialEq)]
pub enum InputOutcome {
    /// Go on with this (possibly transformed) text and these images.
    Continue(String, Vec<ContentBlock>),
    /// An extension handled the input; do not run the agent.
    Handled,
}

/// Text or content blocks from an extension as user content.
pub fn user_content(value: &Value) -> UserContent {
    match value {
        Value::String(s) => UserContent::Text(s.clone()),
        other => serde_json::from_value::<Vec<ContentBlock>>(other.clone())
            .map(UserContent::Blocks)
            .unwrap_or_else(|_| UserContent::Text(other.to_string())),
    }
}

/// A custom message from a `{customType, content, display, details}` table.
pub fn custom_message(value: &Value) -> Message {
    Message::Custom(CustomMessage {
        custom_type: value
            .get("customType")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        content: user_content(value.get("content").unwrap_or(&Value::Null)),
        display: value
            .get("display")
            .and_then(Value::as_bool)
            .unwrap_or(true),
        details: value.get("details").filter(|d| !d.is_null()).cloned(),
        timestamp: now_ms(),
    })
}

/// The pi extension event name of an agent event.
pub fn event_name(event: &AgentEvent) -> &'static str {
    match event {
        AgentEvent::AgentStart => "agent_start",
        AgentEvent::AgentEnd { .. } => "agent_end",
        AgentEvent::TurnStart => "turn_start",
        AgentEvent::TurnEnd { .. } => "turn_end",
        AgentEvent::MessageStart { .. } => "message_start",
        AgentEvent::MessageUpdate { .. } => "message_update",
        AgentEvent::MessageEnd { .. } => "message_end",
        AgentEvent::ToolExecutionStart { .. } => "tool_execution_start",
        AgentEvent::ToolExecutionUpdate { .. } => "tool_execution_update",
        AgentEvent::ToolExecutionEnd { .. } => "tool_execution_end",
        AgentEvent::QueueUpdate { .. } => "queue_update",
        AgentEvent::AutoRetryStart { .. } => "auto_retry_start",
        AgentEvent::AutoRetryEnd { .. } => "auto_retry_end",
        AgentEvent::CompactionStart { .. } => "compaction_start",
        AgentEvent::CompactionEnd { .. } => "compaction_end",
        AgentEvent::RunStopped { .. } => "run_stopped",
        AgentEvent::Checkpoint { .. } => "checkpoint",
    }
}

/// `ctx.getContextUsage()`: the last assistant message's reported usage
/// plus an estimate (4 characters a token) for the messages after it;
/// `null` for an empty conversation.
/// Read from the last message back, only as far as that answer.
pub fn context_usage<M: std::ops::Deref<Target = Message>>(
    messages: impl DoubleEndedIterator<Item = M>,
    context_window: u64,
) -> Value {
    let mut any = false;
    let mut base = 0;
    let mut estimate = 0;
    for m in messages.rev() {
        any = true;
        if let Some(a) = m.as_assistant()
            && a.usage.input + a.usage.output + a.usage.cache_read > 0
        {
            let u = &a.usage;
            base = u.input + u.output + u.cache_read + u.cache_write;
            break;
        }
        estimate += serde_json::to_string(&*m)
            .map(|s| s.len() as u64 / 4)
            .unwrap_or(0);
    }
    if !any {
        return Value::Null;
    }
    let tokens = base + estimate;
    let percent = if context_window > 0 {
        tokens as f64 * 100.0 / context_window as f64
    } else {
        0.0
    };
    json!({"tokens": tokens, "contextWindow": context_window, "percent": percent})
}

impl ExtensionBridge {
    /// Bind a loaded host to the session.
    pub fn new(
        handle: ExtensionHandle,
        view: SharedView,
        all_tools: Vec<Arc<dyn AgentTool>>,
    ) -> Self {
        view.lock().idle = true;
        ExtensionBridge {
            handle,
            view,
            all_tools,
            models: Vec::new(),
            registrations: Registrations::default(),
            resources: DiscoveredResources::default(),
            next_turn: Vec::new(),
            watcher: None,
            extension_tools: Vec::new(),
            wrapped: Vec::new(),
            synced_entries: 0,
        }
    }

    /// Copy new session entries, the leaf and the header into the view.
    pub fn sync_session(&mut self, session: &SessionManager) {
        let mut view = self.view.lock();
        let entries = session.entries();
        if entries.len() < self.synced_entries {
            view.entries.clear();
            self.synced_entries = 0;
        }
        for entry in entries.iter_from(self.synced_entries) {
            view.entries
                .push(serde_json::to_value(entry).unwrap_or(Value::Null));
        }
        self.synced_entries = entries.len();
        view.leaf_id = session.leaf_id().map(str::to_string);
        view.header = serde_json::to_value(session.header()).unwrap_or(Value::Null);
        view.session_file = session.session_file().map(|p| p.display().to_string());
        view.session_name = session.session_name().map(str::to_string);
    }

    /// Copy model, prompt and tool data into the view.
    pub fn sync_agent(&self, state: &AgentState, config: &AgentLoopConfig) {
        let mut view = self.view.lock();
        view.cwd = config.cwd.clone();
        view.model = serde_json::to_value(&config.model).unwrap_or(Value::Null);
        view.thinking_level = config.thinking.as_str().to_string();
        view.system_prompt = state.system_prompt.clone();
        view.active_tools = state.tools.iter().map(|t| t.name().to_string()).collect();
        view.context_usage = context_usage(state.messages.iter(), config.model.context_window);
        view.models = self
            .models
            .iter()
            .filter_map(|m| serde_json::to_value(m).ok())
            .collect();
        view.all_tools = self
            .all_tools
            .iter()
            .map(|t| json!({"name": t.name(), "description": t.description(), "parameters": t.parameters()}))
            .collect();
    }

    /// Carry out queued session actions (entries, names); actions that need
    /// the agent (messages, tool changes) stay queued.
    pub fn apply_session_actions(&self, session: &mut SessionManager) {
        let mut rest = Vec::new();
        for action in self.view.take_actions() {
            match action {
                ExtensionAction::AppendEntry { custom_type, data } => {
                    session.append_custom_entry(&custom_type, data);
                }
                ExtensionAction::SetSessionName(name) => {
                    session.append_session_info(&name);
                }
                ExtensionAction::SetSandbox(mode) => self.set_sandbox(mode),
                ExtensionAction::SetLabel { entry_id, label } => {
                    if let Err(e) = session.append_label_change(&entry_id, label.as_deref()) {
                        self.view.report(format!(
                            "Extension error: {}",
                            t!(
                                "pi.ext.set_label_failed",
                                id = entry_id.as_str(),
                                error = e.to_string()
                            )
                        ));
                    }
                }
                other => rest.push(other),
            }
        }
        if !rest.is_empty() {
            let mut view = self.view.lock();
            rest.append(&mut view.actions);
            view.actions = rest;
        }
    }

    /// While a run is in progress: deliver `steer` / `followUp` messages
    /// through the queues and honour `ctx.abort()`; other actions stay
    /// queued until the run ends.
    pub fn apply_run_actions(&self, queues: &AgentQueues, signal: &CancellationToken) {
        let mut rest = Vec::new();
        for action in self.view.take_actions() {
            match action {
                ExtensionAction::SendMessage {
                    custom_type,
                    content,
                    display,
                    details,
                    deliver_as,
                    trigger_turn,
                } if deliver_as.as_deref() != Some("nextTurn") => {
                    let message = custom_message(&json!({
                        "customType": custom_type, "content": content,
                        "display": display, "details": details,
                    }));
                    match deliver_as.as_deref() {
                        Some("followUp") => queues.follow_up.push(message),
                        _ => queues.steering.push(message),
                    }
                    let _ = trigger_turn;
                }
                ExtensionAction::SendUserMessage {
                    content,
                    deliver_as,
                } => {
                    let message = Message::User(crate::ai::types::UserMessage {
                        content: user_content(&content),
                        timestamp: now_ms(),
                    });
                    match deliver_as.as_deref() {
                        Some("followUp") => queues.follow_up.push(message),
                        _ => queues.steering.push(message),
                    }
                }
                ExtensionAction::Abort => signal.cancel(),
                ExtensionAction::SetSandbox(mode) => self.set_sandbox(mode),
                other => rest.push(other),
            }
        }
        if !rest.is_empty() {
            let mut view = self.view.lock();
            rest.append(&mut view.actions);
            view.actions = rest;
        }
    }

    /// Put the sandbox mode an extension asked for in force, from the next
    /// command on; a failure (the kernel changed its mind) is reported.
    pub fn set_sandbox(&self, mode: crate::sandbox::SandboxMode) {
        let cwd = self.view.lock().cwd.clone();
        let result = crate::sandbox::switch_mode(mode, &cwd);
        self.view.lock().pending_sandbox = None;
        if let Err(e) = result {
            self.view
                .report(t!("pi.ext.error", message = e.to_string()));
        }
    }

    /// Restrict the agent's tools to `names` (unknown names are ignored).
    pub fn set_active_tools(&self, state: &mut AgentState, names: &[String]) {
        state.tools = names
            .iter()
            .filter_map(|n| self.all_tools.iter().find(|t| t.name() == n).cloned())
            .collect();
    }

    /// Forward an agent event to extensions (by its pi event name).
    pub async fn forward(&self, event: &AgentEvent) {
        if let AgentEvent::MessageEnd { message } = event
            && message.as_assistant().is_some()
        {
            let mut view = self.view.lock();
            let window = view
                .model
                .get("contextWindow")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let usage = context_usage(std::iter::once(message), window);
            if usage["tokens"].as_u64().unwrap_or(0) > 0 {
                view.context_usage = usage;
            }
        }
        let name = event_name(event);
        if !self.handle.has_handlers(name) {
            return;
        }
        if let Ok(payload) = serde_json::to_value(event) {
            self.handle.emit(name, payload).await;
        }
    }

    /// Add the extension tools to `active` and to every known tool,
    /// replacing built-ins of the same name and dropping tools of extensions
    /// that no longer register them. Tools registered since the last merge
    /// start active; the others stay as `setActiveTools` left them.
    pub async fn merge_extension_tools(&mut self, active: &mut Vec<Arc<dyn AgentTool>>) {
        self.registrations = self.handle.registrations().await;
        self.unwrap_tools(active);
        let old = std::mem::take(&mut self.extension_tools);
        let was_active: Vec<String> = active
            .iter()
            .map(|t| t.name().to_string())
            .filter(|n| old.contains(n))
            .collect();
        self.all_tools
            .retain(|t| !old.iter().any(|n| n == t.name()));
        active.retain(|t| !old.iter().any(|n| n == t.name()));
        let tools: Vec<Arc<dyn AgentTool>> = self
            .registrations
            .tools
            .iter()
            .map(|info| {
                Arc::new(crate::lua::LuaTool::new(info.clone(), self.handle.clone()))
                    as Arc<dyn AgentTool>
            })
            .collect();
        for tool in tools {
            let name = tool.name().to_string();
            // New tools start active; known ones keep what setActiveTools chose.
            let replaces_active = active.iter().any(|t| t.name() == name);
            let activate = !old.contains(&name) || was_active.contains(&name) || replaces_active;
            self.all_tools.retain(|t| t.name() != name);
            active.retain(|t| t.name() != name);
            self.extension_tools.push(name);
            self.all_tools.push(tool.clone());
            if activate {
                active.push(tool);
            }
        }
        self.wrap_tools(active);
    }

    /// Put back the tools [`Self::wrap_tools`] replaced.
    fn unwrap_tools(&mut self, active: &mut [Arc<dyn AgentTool>]) {
        for inner in std::mem::take(&mut self.wrapped) {
            for slot in self.all_tools.iter_mut().chain(active.iter_mut()) {
                if slot.name() == inner.name() {
                    *slot = inner.clone();
                }
            }
        }
    }

    /// Replace every tool that has `pi.wrapTool` wrappers by its chain (known and active
    /// alike), remembering the tool itself.
    fn wrap_tools(&mut self, active: &mut [Arc<dyn AgentTool>]) {
        for name in self.registrations.wrapped.clone() {
            let Some(inner) = self.all_tools.iter().find(|t| t.name() == name).cloned() else {
                continue;
            };
            let wrapped: Arc<dyn AgentTool> = Arc::new(crate::lua::wrapped_tool::WrappedTool::new(
                inner.clone(),
                self.handle.clone(),
            ));
            for slot in self.all_tools.iter_mut().chain(active.iter_mut()) {
                if slot.name() == name {
                    *slot = wrapped.clone();
                }
            }
            self.wrapped.push(inner);
        }
    }

    /// Reload every extension (see [`ExtensionHandle::reload`]) and swap
    /// their tools in `state`.
    pub async fn reload(&mut self, state: &mut AgentState) -> crate::lua::LoadReport {
        let report = self.handle.reload().await;
        self.merge_extension_tools(&mut state.tools).await;
        report
    }

    /// `input`: transform or handle the user's text and images; `source` is where the
    /// input came from (`interactive`, `rpc` or `extension`). A transform that leaves
    /// the images out keeps the ones given.
    pub async fn input(
        &self,
        text: String,
        images: Vec<ContentBlock>,
        source: &str,
    ) -> InputOutcome {
        if !self.handle.has_handlers("input") {
            return InputOutcome::Continue(text, images);
        }
        let payload = json!({"type": "input", "text": text, "images": images, "source": source});
        let out = self.handle.emit("input", payload).await;
        let handled = out
            .results
            .iter()
            .any(|r| r.get("action").and_then(Value::as_str) == Some("handled"));
        if handled {
            return InputOutcome::Handled;
        }
        let images = out
            .event
            .get("images")
            .filter(|v| v.is_array())
            .and_then(|v| serde_json::from_value::<Vec<ContentBlock>>(v.clone()).ok())
            .unwrap_or(images);
        InputOutcome::Continue(
            out.event
                .get("text")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or(text),
            images,
        )
    }

    /// `before_agent_start`: the chained system prompt and injected messages.
    pub async fn before_agent_start(
        &self,
        prompt: &str,
        system_prompt: &str,
    ) -> (Option<String>, Vec<Message>) {
        if !self.handle.has_handlers("before_agent_start") {
            return (None, Vec::new());
        }
        let payload = json!({"type": "before_agent_start", "prompt": prompt, "images": [], "systemPrompt": system_prompt});
        let out = self.handle.emit("before_agent_start", payload).await;
        let new_prompt = out
            .event
            .get("systemPrompt")
            .and_then(Value::as_str)
            .filter(|p| *p != system_prompt)
            .map(str::to_string);
        let messages = out
            .results
            .iter()
            .filter_map(|r| r.get("message"))
            .map(custom_message)
            .collect();
        (new_prompt, messages)
    }

    /// `tool_call`: a block reason, or the (possibly mutated) arguments.
    pub async fn tool_call(&self, call: &ToolCall, args: &mut Value) -> Option<String> {
        if !self.handle.has_handlers("tool_call") {
            return None;
        }
        let payload = json!({"type": "tool_call", "toolCallId": call.id, "toolName": call.name, "input": args});
        let out = self.handle.emit("tool_call", payload).await;
        if let Some(reason) = out.block_reason() {
            return Some(reason);
        }
        if let Some(input) = out.event.get("input") {
            *args = input.clone();
        }
        None
    }

    /// `tool_result`: apply the chained patches to the result.
    pub async fn tool_result(&self, call: &ToolCall, output: &mut ToolOutput, is_error: &mut bool) {
        if !self.handle.has_handlers("tool_result") {
            return;
        }
        let payload = json!({
            "type": "tool_result", "toolCallId": call.id, "toolName": call.name,
            "input": call.arguments, "content": output.content, "details": output.details,
            "isError": *is_error,
        });
        let out = self.handle.emit("tool_result", payload).await;
        if out.results.is_empty() {
            return;
        }
        if let Some(content) = out.event.get("content")
            && let Ok(blocks) = serde_json::from_value::<Vec<ContentBlock>>(content.clone())
        {
            output.content = blocks;
        }
        output.details = out.event.get("details").filter(|d| !d.is_null()).cloned();
        if let Some(e) = out.event.get("isError").and_then(Value::as_bool) {
            *is_error = e;
        }
    }

    /// `session_start` / `session_shutdown` with a reason and extra fields
    /// (`previousSessionFile`, `targetSessionFile`).
    pub async fn session_event(&self, name: &str, reason: &str, extra: Value) {
        let mut payload = json!({"type": name, "reason": reason});
        if let (Value::Object(p), Value::Object(e)) = (&mut payload, extra) {
            p.extend(e);
        }
        self.handle.emit(name, payload).await;
        if name == "session_shutdown" && reason == "quit" {
            self.handle.stop_processes().await;
        }
    }

    /// `session_before_compact`: an extension may cancel the compaction or
    /// supply its own `{summary, firstKeptEntryId?, tokensBefore?, details?}`.
    pub async fn before_compact(&self, payload: Value) -> BeforeCompact {
        if !self.handle.has_handlers("session_before_compact") {
            return BeforeCompact::Default;
        }
        let out = self.handle.emit("session_before_compact", payload).await;
        for result in &out.results {
            if result.get("cancel").and_then(Value::as_bool) == Some(true) {
                return BeforeCompact::Cancel;
            }
            if let Some(c) = result.get("compaction").filter(|c| c.is_object()) {
                return BeforeCompact::Supplied(c.clone());
            }
        }
        BeforeCompact::Default
    }

    /// `session_before_tree`: the handlers' results (`{cancel}` or
    /// `{summary: {summary, details}}`), empty without handlers.
    pub async fn before_tree(&self, payload: Value) -> Vec<Value> {
        if !self.handle.has_handlers("session_before_tree") {
            return Vec::new();
        }
        self.handle
            .emit("session_before_tree", payload)
            .await
            .results
    }

    /// `session_compact`: the appended compaction entry.
    pub async fn compacted(&self, entry: Value, from_extension: bool) {
        self.handle
            .emit(
                "session_compact",
                json!({"type": "session_compact", "compactionEntry": entry, "fromExtension": from_extension}),
            )
            .await;
    }
}
