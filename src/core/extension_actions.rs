//! What an [`AgentSession`] does for its extensions: carrying out their
//! requests (`pi.sendMessage`, `pi.setModel`, `ctx.reload()`, ...), model
//! and thinking-level changes with their events, extension commands,
//! reload, and session replacement with `session_before_switch`.

use crate::core::session_command::ModelSource;
use crate::t;

use std::sync::Arc;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::agent::agent_loop::RequestAuth;
use crate::agent::events::AgentEvent;
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::types::{ContentBlock, Message};
use crate::core::agent_session::AgentSession;
use crate::core::error::CoreError;
use crate::core::extension_bridge::{custom_message, user_content};
use crate::lua::{ExtensionAction, LoadReport};

/// The most runs extensions may start one after another without a prompt
/// from the user.
const MAX_CHAINED_RUNS: usize = 25;

/// Work left after applying extension actions while idle.
pub(super) enum FollowUp {
    /// Send a user prompt.
    Prompt(String, Vec<ContentBlock>),
    /// Run the agent on the current context.
    Continue,
}

/// Text and images of user content from an extension.
fn prompt_parts(content: &Value) -> (String, Vec<ContentBlock>) {
    match user_content(content) {
        crate::ai::types::UserContent::Text(t) => (t, Vec::new()),
        crate::ai::types::UserContent::Blocks(blocks) => {
            let text = blocks
                .iter()
                .filter_map(ContentBlock::as_text)
                .collect::<Vec<_>>()
                .join("\n");
            let images = blocks
                .into_iter()
                .filter(|b| b.as_text().is_none())
                .collect();
            (text, images)
        }
    }
}

/// A model from an extension's `{provider, id, ...}` JSON, with registered
/// provider overrides (`baseUrl`, `headers`) applied.
fn model_from(value: &Value, providers: &[(String, Value)]) -> Option<Model> {
    let mut v = value.clone();
    if v.get("name").is_none() {
        v["name"] = v.get("id").cloned().unwrap_or(Value::Null);
    }
    let mut model: Model = serde_json::from_value(v).ok()?;
    if let Some((_, config)) = providers.iter().find(|(n, _)| *n == model.provider) {
        if let Some(url) = config.get("baseUrl").and_then(Value::as_str)
            && value.get("baseUrl").is_none_or(|b| b.as_str() == Some(url))
        {
            model.base_url = url.to_string();
        }
        if let Some(Value::Object(headers)) = config.get("headers") {
            let map = model.headers.get_or_insert_with(Default::default);
            for (k, v) in headers {
                if let Some(v) = v.as_str() {
                    map.insert(k.clone(), v.to_string());
                }
            }
        }
    }
    Some(model)
}

impl AgentSession {
    pub(super) fn set_idle(&mut self, idle: bool) {
        if let Some(ext) = &self.extensions {
            ext.view.lock().idle = idle;
        }
    }

    /// Wait until a watched extension file changed (never returns when
    /// watching is off). The caller reloads when it is idle.
    pub async fn extension_change(&mut self) {
        match self.extensions.as_mut().and_then(|e| e.watcher.as_mut()) {
            Some(w) => w.changed().await,
            None => std::future::pending().await,
        }
    }

    /// Signalled when an extension queues an action (for example
    /// `pi.sendMessage` from a timer or a background process); `None` without
    /// extensions. An idle front end answers with
    /// [`AgentSession::run_extension_actions`].
    pub fn extension_actions_queued(&self) -> Option<std::sync::Arc<tokio::sync::Notify>> {
        self.extensions.as_ref().map(|e| e.view.actions_queued())
    }

    /// Whether extension actions wait to be carried out.
    pub fn extension_actions_pending(&self) -> bool {
        self.extensions
            .as_ref()
            .is_some_and(|e| !e.view.lock().actions.is_empty())
    }

    /// Carry out queued extension actions while idle, running the turns they
    /// ask for (`triggerTurn`, user messages).
    pub async fn run_extension_actions(&mut self, signal: &CancellationToken) {
        self.sync_extensions();
        self.set_idle(true);
        self.apply_idle_actions_then_run(signal).await;
    }

    /// Whether an extension called `ctx.shutdown()`.
    pub fn shutdown_requested(&self) -> bool {
        self.shutdown_requested
    }

    /// Emit `session_start` (then `resources_discover`) or
    /// `session_shutdown` with `reason` to extensions.
    pub async fn session_event(&mut self, name: &str, reason: &str) {
        self.session_event_with(name, reason, json!({})).await;
        self.refresh_extension_tools().await;
        self.apply_idle_actions().await;
    }

    /// Pick up tools registered after loading (in handlers or commands).
    async fn refresh_extension_tools(&mut self) {
        let before: Vec<String> = self
            .state
            .tools
            .iter()
            .map(|t| t.name().to_string())
            .collect();
        if let Some(ext) = &mut self.extensions {
            ext.merge_extension_tools(&mut self.state.tools).await;
        }
        if self
            .state
            .tools
            .iter()
            .map(|t| t.name())
            .ne(before.iter().map(String::as_str))
        {
            self.rebuild_system_prompt();
        }
    }

    pub(super) async fn session_event_with(&mut self, name: &str, reason: &str, extra: Value) {
        self.sync_extensions();
        let cwd = self.config.cwd.clone();
        if let Some(ext) = &mut self.extensions {
            ext.session_event(name, reason, extra).await;
            if name == "session_start" {
                let discover = if reason == "reload" {
                    "reload"
                } else {
                    "startup"
                };
                ext.resources_discover(&cwd, discover).await;
            }
        }
        if name == "session_start" {
            self.apply_discovered_resources();
        }
    }

    /// Reload extensions: skills and prompt templates found again, `session_shutdown`, a
    /// fresh VM, `session_start` and `resources_discover` with reason `reload`; extension
    /// tools are swapped in the agent state.
    pub async fn reload_extensions(&mut self) -> Option<LoadReport> {
        let report = self.reload_only().await;
        self.apply_idle_actions().await;
        report
    }

    async fn reload_only(&mut self) -> Option<LoadReport> {
        let cwd = self.config.cwd.clone();
        self.extensions.as_ref()?;
        let warnings = self.reload_resources();
        let ext = self.extensions.as_mut()?;
        for warning in warnings {
            ext.view.report(format!("Warning: {warning}"));
        }
        let report = ext.reload(&mut self.state).await;
        ext.resources_discover(&cwd, "reload").await;
        // Providers the reloaded extensions register replace the earlier ones.
        if let Some(catalog) = &self.catalog {
            let providers = ext.view.lock().providers.clone();
            for warning in catalog.set_extension_providers(&providers) {
                ext.view.report(format!("Warning: {warning}"));
            }
        }
        self.apply_discovered_resources();
        let models = self.available_models();
        if let Some(ext) = &mut self.extensions {
            ext.models = models;
        }
        self.sync_extensions();
        Some(report)
    }

    /// `(name, args)` when `text` is `/name args` and an extension registered
    /// the command `name`.
    pub async fn extension_command_in(&mut self, text: &str) -> Option<(String, String)> {
        let rest = text.trim().strip_prefix('/')?;
        let (name, args) = match rest.split_once(char::is_whitespace) {
            Some((n, a)) => (n, a.trim()),
            None => (rest, ""),
        };
        let ext = self.extensions.as_ref()?;
        let known = ext.handle.commands().await.iter().any(|c| c.name == name);
        known.then(|| (name.to_string(), args.to_string()))
    }

    /// Run the extension command `/name args`, then what it asked for
    /// (reload, messages, a new session).
    pub async fn run_extension_command(
        &mut self,
        name: &str,
        args: &str,
        signal: &CancellationToken,
    ) -> Result<(), CoreError> {
        self.sync_extensions();
        self.set_idle(true);
        let Some(ext) = &self.extensions else {
            return Err(CoreError::UnknownCommand {
                name: name.to_string(),
            });
        };
        let result = ext.handle.run_command(name, args).await;
        self.refresh_extension_tools().await;
        self.apply_idle_actions_then_run(signal).await;
        result.map_err(|e| CoreError::Extension {
            detail: e.to_string(),
        })
    }

    /// Switch to `model` (`source`: `set`, `cycle` or `restore`): records
    /// the change, clamps thinking, emits `thinking_level_select` (when it
    /// changed) and `model_select`.
    pub async fn set_model(&mut self, model: Model, source: &str) {
        let previous = self.config.model.clone();
        let previous_thinking = self.config.thinking;
        self.session.append_model_change(&model.provider, &model.id);
        let thinking = model.clamp_thinking(self.config.thinking);
        self.config.model = model.clone();
        if thinking != previous_thinking {
            self.config.thinking = thinking;
            self.session.append_thinking_level_change(thinking);
        }
        self.sync_extensions();
        if let Some(ext) = &self.extensions {
            if thinking != previous_thinking {
                ext.thinking_level_select(thinking, previous_thinking).await;
            }
            ext.model_select(&model, Some(&previous), source).await;
        }
    }

    /// Change the thinking level (clamped to the model): a change is recorded and
    /// `thinking_level_select` emitted.
    pub async fn set_thinking_level(&mut self, level: ThinkingLevel) {
        let previous = self.config.thinking;
        let level = self.config.model.clamp_thinking(level);
        if level == previous {
            return;
        }
        self.config.thinking = level;
        self.session.append_thinking_level_change(level);
        self.sync_extensions();
        if let Some(ext) = &self.extensions {
            ext.thinking_level_select(level, previous).await;
        }
    }

    /// A `session_before_*` event (`switch`, `fork`, `compact`, `tree`);
    /// `true` when an extension cancelled the operation.
    pub async fn session_before(&mut self, name: &str, payload: Value) -> bool {
        self.sync_extensions();
        match &self.extensions {
            Some(ext) => ext.session_before(name, payload).await,
            None => false,
        }
    }

    /// `user_bash`: an extension's replacement output and exit code.
    pub async fn user_bash_override(
        &mut self,
        command: &str,
        exclude: bool,
    ) -> Option<(String, Option<i32>)> {
        self.sync_extensions();
        let cwd = self.config.cwd.clone();
        self.extensions
            .as_ref()?
            .user_bash(command, exclude, &cwd)
            .await
    }

    /// After a run: carry out queued actions and any prompts or turns they ask for.
    pub(super) async fn run_follow_ups(&mut self, signal: &CancellationToken) {
        self.apply_idle_actions_then_run(signal).await;
    }

    async fn apply_idle_actions_then_run(&mut self, signal: &CancellationToken) {
        let mut runs = 0;
        loop {
            if signal.is_cancelled() {
                return;
            }
            let mut work = self.apply_idle_actions().await;
            if work.is_empty() {
                return;
            }
            // An extension answering every run with another (a message sent
            // from `agent_end`, say) is followed only so far.
            if runs == MAX_CHAINED_RUNS {
                self.report_extension_error(t!("pi.ext.run_chain_stopped", count = runs));
                return;
            }
            runs += 1;
            match work.remove(0) {
                FollowUp::Prompt(text, images) => {
                    self.set_idle(false);
                    Box::pin(self.prompt_only(text, images, signal)).await;
                }
                FollowUp::Continue => {
                    self.set_idle(false);
                    Box::pin(self.continue_run(signal)).await;
                }
            }
            self.set_idle(true);
        }
    }

    async fn prompt_only(
        &mut self,
        text: String,
        images: Vec<ContentBlock>,
        signal: &CancellationToken,
    ) {
        let source = std::mem::replace(&mut self.input_source, "extension");
        self.prompt_once(text, images, signal).await;
        self.input_source = source;
    }

    /// Carry out every queued extension action while no run is in progress.
    pub(super) async fn apply_idle_actions(&mut self) -> Vec<FollowUp> {
        let mut work = Vec::new();
        for _ in 0..10 {
            let Some(ext) = &mut self.extensions else {
                return work;
            };
            ext.apply_session_actions(&mut self.session);
            let actions = ext.view.take_actions();
            if actions.is_empty() {
                break;
            }
            for action in actions {
                self.apply_idle_action(action, &mut work).await;
            }
        }
        self.sync_extensions();
        work
    }

    async fn apply_idle_action(&mut self, action: ExtensionAction, work: &mut Vec<FollowUp>) {
        match action {
            ExtensionAction::SetSandbox(mode) => {
                if let Some(ext) = &self.extensions {
                    ext.set_sandbox(mode);
                }
            }
            ExtensionAction::SetActiveTools(names) => {
                if let Some(ext) = &self.extensions {
                    ext.set_active_tools(&mut self.state, &names);
                    self.rebuild_system_prompt();
                }
            }
            ExtensionAction::SendUserMessage { content, .. } => {
                let (text, images) = prompt_parts(&content);
                work.push(FollowUp::Prompt(text, images));
            }
            ExtensionAction::SendMessage {
                custom_type,
                content,
                display,
                details,
                trigger_turn,
                deliver_as,
            } => {
                let message = custom_message(&json!({
                    "customType": custom_type, "content": content,
                    "display": display, "details": details,
                }));
                if deliver_as.as_deref() == Some("nextTurn") {
                    if let Some(ext) = &mut self.extensions {
                        ext.next_turn.push(message);
                    }
                    return;
                }
                if let Message::Custom(c) = &message {
                    self.session.append_custom_message_entry(
                        &c.custom_type,
                        c.content.clone(),
                        c.display,
                        c.details.clone(),
                    );
                }
                // Shown at once (and to listeners) even though no turn runs.
                self.emit(&AgentEvent::MessageStart {
                    message: message.clone(),
                });
                self.emit(&AgentEvent::MessageEnd {
                    message: message.clone(),
                });
                self.state.messages.push(message);
                if trigger_turn {
                    work.push(FollowUp::Continue);
                }
            }
            ExtensionAction::SetModel { provider, id } => {
                self.set_model_by_name(&provider, &id).await
            }
            ExtensionAction::SetThinkingLevel(level) => {
                if let Some(level) = ThinkingLevel::parse(&level) {
                    self.change_thinking(level).await;
                }
            }
            ExtensionAction::Shutdown => self.shutdown_requested = true,
            ExtensionAction::Reload => {
                // Load errors are reported by the host.
                self.reload_only().await;
            }
            ExtensionAction::NewSession {
                parent,
                with_session,
            } => {
                let started = Box::pin(self.new_session_with_parent(parent.as_deref())).await;
                if let (true, Some(id), Some(ext)) = (started, with_session, &self.extensions)
                    && let Err(e) = ext.handle.run_callback(id).await
                {
                    self.report_extension_error(e.to_string());
                }
            }
            ExtensionAction::Fork(entry_id) => {
                let position = crate::core::session_switch::BranchPosition::Before;
                if let Err(e) = Box::pin(self.branch_session(&entry_id, position)).await {
                    self.report_extension_error(format!("ctx.fork: {e}"));
                }
            }
            ExtensionAction::NavigateTree {
                target,
                summarize,
                custom_instructions,
                replace_instructions,
                label,
            } => {
                let options = crate::core::tree_navigation::NavigateOptions {
                    summarize,
                    custom_instructions,
                    replace_instructions,
                    label,
                    reserve_tokens: self.compaction.reserve_tokens,
                };
                let signal = CancellationToken::new();
                let run = self.navigate_tree(&target, &options, &signal);
                if let Err(e) = Box::pin(run).await {
                    self.report_extension_error(format!("ctx.navigateTree: {e}"));
                }
            }
            ExtensionAction::SwitchSession(path) => {
                let path = self.config.cwd.join(path);
                if let Err(e) = Box::pin(self.resume_session(&path)).await {
                    self.report_extension_error(format!("ctx.switchSession: {e}"));
                }
            }
            ExtensionAction::Compact {
                instructions,
                callback,
            } => {
                let signal = CancellationToken::new();
                let reason = crate::core::agent_session::CompactionReason::Manual;
                let run = self.compact(instructions.as_deref(), reason, false, &signal);
                let outcome = Box::pin(run).await;
                let payload = match (&outcome, callback) {
                    (_, None) => None,
                    (Ok(result), Some(id)) => {
                        Some(json!({"id": id, "ok": true, "result": result.to_json()}))
                    }
                    (Err(e), Some(id)) => {
                        Some(json!({"id": id, "ok": false, "error": e.to_string()}))
                    }
                };
                match (outcome, payload) {
                    (_, Some(payload)) => {
                        if let Some(ext) = &self.extensions {
                            let event = crate::lua::compact_callbacks::EVENT;
                            let done = ext.handle.emit(event, payload).await;
                            for error in done.errors {
                                self.report_extension_error(error);
                            }
                        }
                    }
                    (Err(e), None) => self.report_extension_error(format!("ctx.compact: {e}")),
                    (Ok(_), None) => {}
                }
            }
            ExtensionAction::Abort
            | ExtensionAction::AppendEntry { .. }
            | ExtensionAction::SetSessionName(_)
            | ExtensionAction::SetLabel { .. } => {}
        }
    }

    async fn set_model_by_name(&mut self, provider: &str, id: &str) {
        let Some(ext) = &self.extensions else { return };
        let (models, providers) = {
            let view = ext.view.lock();
            (crate::lua::ctx::all_models(&view), view.providers.clone())
        };
        let found = models.iter().find(|m| {
            m.get("provider").and_then(Value::as_str) == Some(provider)
                && m.get("id").and_then(Value::as_str) == Some(id)
        });
        let Some(model) = found.and_then(|m| model_from(m, &providers)) else {
            ext.view.report(format!(
                "Extension error: {}",
                t!("pi.ext.unknown_model", provider = provider, id = id)
            ));
            return;
        };
        if let Some((_, config)) = providers.iter().find(|(n, _)| n == provider)
            && let Some(key) = config.get("apiKey").and_then(Value::as_str)
        {
            let key = std::env::var(key).unwrap_or_else(|_| key.to_string());
            let name = provider.to_string();
            let fallback = self.config.auth.clone();
            self.config.auth = Arc::new(move |m: &Model| {
                if m.provider == name {
                    Ok(RequestAuth {
                        api_key: Some(key.clone()),
                        headers: Default::default(),
                        base_url: None,
                    })
                } else {
                    fallback(m)
                }
            });
        }
        // What `SessionCommand::SetModel` does, without the commands that could run
        // extension actions again.
        self.switch_model(model, ModelSource::Set).await;
    }
}

impl AgentSession {
    /// Tell the user an extension's request failed (stderr, or the terminal UI's transcript).
    pub(super) fn report_extension_error(&self, message: String) {
        if let Some(ext) = &self.extensions {
            ext.view.report(message);
        }
    }
}
