//! `AgentSession`: one conversation bound to a session file. It runs the agent
//! loop, persists every finished message, retries transient provider errors and
//! fans events out to subscribers (JSON writer, later the TUI and extensions).

use crate::t;

mod compaction;
mod retry;
mod run_checkpoints;

use std::time::Instant;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use crate::agent::agent_loop::{
    AgentLoopConfig, AgentObserver, AgentQueues, AgentState, continue_agent_loop, run_agent_loop,
};
use crate::agent::events::AgentEvent;
use crate::agent::tool::ToolOutput;
use crate::ai::types::ToolCall;
use crate::ai::types::{AssistantMessage, ContentBlock, Message, UserContent, UserMessage, now_ms};
use crate::config::settings_keys::CompactionSettings;
use crate::core::checkpoints::RunCheckpoints;
use crate::core::extension_bridge::{ExtensionBridge, InputOutcome};
use crate::resources::prompt_templates::{PromptTemplate, expand_template_command};
use crate::resources::skills::{Skill, expand_skill_command};
use crate::session::manager::SessionManager;

pub use crate::core::retry_policy::RetryPolicy;

/// `finalError` of the retry event when the user stopped the wait for a retry (the
/// value pi 0.73.1's RPC clients read).
pub const RETRY_CANCELLED: &str = "Retry cancelled";

/// A subscriber to agent events.
pub type Listener = Box<dyn FnMut(&AgentEvent) + Send>;

pub use compaction::CompactionReason;

/// pi's compaction defaults: enabled, 16384 reserved, 20000 kept.
pub const DEFAULT_COMPACTION: CompactionSettings = CompactionSettings {
    enabled: true,
    reserve_tokens: 16384,
    keep_recent_tokens: 20000,
};

/// Finds the skills and prompt templates again (for `/reload`), with the warnings finding
/// them gave.
pub type ResourceLoader =
    std::sync::Arc<dyn Fn() -> (Vec<Skill>, Vec<PromptTemplate>, Vec<String>) + Send + Sync>;

/// The system prompt for the given active tools.
pub type PromptForTools = std::sync::Arc<
    dyn Fn(&[std::sync::Arc<dyn crate::agent::tool::AgentTool>], &[Skill]) -> String + Send + Sync,
>;

/// Builds the prompt builder for another working folder (its context files and cwd).
pub type PromptForCwd = std::sync::Arc<dyn Fn(&std::path::Path) -> PromptForTools + Send + Sync>;

/// One conversation: agent state, its session file and its subscribers.
pub struct AgentSession {
    /// Prompt, context and tools.
    pub state: AgentState,
    /// Model, providers, credentials.
    pub config: AgentLoopConfig,
    /// Steering and follow-up queues.
    pub queues: AgentQueues,
    /// The session store.
    pub session: SessionManager,
    /// Retry behaviour.
    pub retry: RetryPolicy,
    /// How many attempts the last request took (1 when it was not retried).
    pub last_attempts: u32,
    /// While a failed request is retried: when its attempts stop waiting for a first byte.
    pub(super) retry_deadline: Option<Instant>,
    /// Compaction settings (`compaction.*`).
    pub compaction: CompactionSettings,
    /// Skills `/skill:name` expands.
    pub skills: Vec<Skill>,
    /// Whether `/skill:name` commands are offered and expanded (`enableSkillCommands`).
    pub skill_commands: bool,
    /// Prompt templates `/name args` expands.
    pub templates: Vec<PromptTemplate>,
    /// Builds the system prompt for a set of active tools (when extensions change them).
    pub prompt_for_tools: Option<PromptForTools>,
    /// Builds [`Self::prompt_for_tools`] for the folder a resumed session moves to.
    pub prompt_for_cwd: Option<PromptForCwd>,
    /// Finds the skills and prompt templates again on `/reload`.
    pub resource_loader: Option<ResourceLoader>,
    /// The models this process can use (shared with the request credentials).
    pub catalog: Option<std::sync::Arc<crate::core::model_catalog::ModelCatalog>>,
    /// Skill and template files that `resources_discover` handlers added.
    pub(super) discovered_files: Vec<std::path::PathBuf>,
    /// Where the user is asked whether a run that reached a limit goes on (the
    /// terminal UI); `None`: nobody to ask, the run stops.
    pub limit_ui: Option<crate::lua::SharedExtensionUi>,
    /// Offers to re-run a bash command the sandbox refused outside it.
    pub sandbox_escalation: crate::core::sandbox_escalation::SandboxEscalation,
    /// The permission policy and where its questions go.
    pub permissions: crate::core::permission_gate::PermissionGate,
    /// `checkpoints.*` when file checkpoints are on (`None`: off).
    pub checkpoint_settings: Option<crate::config::settings_keys::CheckpointSettings>,
    /// The session's checkpoints, opened on first use.
    pub(super) checkpoints: Option<crate::checkpoint::CheckpointStore>,
    pub(super) listeners: Vec<Listener>,
    pub(super) extensions: Option<ExtensionBridge>,
    pub(super) shutdown_requested: bool,
    /// The thinking level a switch away from a model that cannot think starts from
    /// (settings `defaultThinkingLevel`); `None`: the current level, clamped.
    pub default_thinking: Option<crate::ai::model::ThinkingLevel>,
    /// Where prompts come from, as the `input` event tells extensions: `interactive`
    /// (the default), `rpc`, or `extension` while an extension's message is sent.
    pub input_source: &'static str,
    /// What the user already chose about files in pi's own `/fork` dialog (`"restore"` or
    /// `"keep"`), told to `session_before_fork` handlers as `fileChoice`; taken by the fork.
    pub fork_files: Option<&'static str>,
}

impl AgentSession {
    /// Slash commands that skills and prompt templates add: (name, description).
    pub fn resource_commands(&self) -> Vec<(String, String)> {
        let templates = self
            .templates
            .iter()
            .map(|t| (t.name.clone(), t.description.clone()));
        let skills = self
            .command_skills()
            .iter()
            .map(|s| (format!("skill:{}", s.name), s.description.clone()));
        templates.chain(skills).collect()
    }

    /// The skills `/skill:name` reaches: none when skill commands are off.
    fn command_skills(&self) -> &[Skill] {
        if self.skill_commands {
            &self.skills
        } else {
            &[]
        }
    }

    /// Bind a loop configuration and state to a session store.
    pub fn new(
        state: AgentState,
        config: AgentLoopConfig,
        session: SessionManager,
        retry: RetryPolicy,
    ) -> Self {
        AgentSession {
            state,
            config,
            queues: AgentQueues::default(),
            session,
            retry,
            last_attempts: 1,
            retry_deadline: None,
            compaction: DEFAULT_COMPACTION,
            skills: Vec::new(),
            skill_commands: true,
            templates: Vec::new(),
            prompt_for_tools: None,
            resource_loader: None,
            prompt_for_cwd: None,
            catalog: None,
            discovered_files: Vec::new(),
            limit_ui: None,
            sandbox_escalation: Default::default(),
            permissions: Default::default(),
            checkpoint_settings: None,
            checkpoints: None,
            listeners: Vec::new(),
            extensions: None,
            shutdown_requested: false,
            default_thinking: None,
            input_source: "interactive",
            fork_files: None,
        }
    }

    /// Models with credentials now (the scripted demo model too while it is in use).
    pub fn available_models(&self) -> Vec<crate::ai::model::Model> {
        let mut models = match &self.catalog {
            Some(catalog) => catalog.available(),
            None => Vec::new(),
        };
        if crate::ai::providers::demo::is_demo(&self.config.model) {
            models.push(self.config.model.clone());
        }
        models
    }

    /// Attach loaded extensions; they see every event from now on.
    pub fn set_extensions(&mut self, bridge: ExtensionBridge) {
        // Providers that extensions stream themselves (`registerProvider{streamSimple}`)
        // and their logins (`registerProvider{oauth}`).
        self.config.providers.set_fallback(std::sync::Arc::new(
            crate::lua::provider_stream::LuaStreamProvider::new(bridge.handle.clone()),
        ));
        crate::ai::oauth::extension::install(Some(std::sync::Arc::new(
            crate::lua::oauth::LuaOAuth::new(bridge.handle.clone(), bridge.view.clone()),
        )));
        self.extensions = Some(bridge);
    }

    /// The attached extensions, if any.
    pub fn extensions(&self) -> Option<&ExtensionBridge> {
        self.extensions.as_ref()
    }

    pub(super) fn sync_extensions(&mut self) {
        let pending = !(self.queues.steering.is_empty() && self.queues.follow_up.is_empty());
        if let Some(ext) = &mut self.extensions {
            // Only extensions read the view: with none loaded it waits for a reload.
            if !ext.handle.paths().is_empty() {
                ext.sync_session(&self.session);
                ext.sync_agent(&self.state, &self.config);
            }
            ext.view.lock().pending_messages = pending;
        }
    }

    /// Receive every event from now on.
    pub fn subscribe(&mut self, listener: Listener) {
        self.listeners.push(listener);
    }

    /// Why the last run was stopped by one of its limits, if it was.
    pub fn run_stop(&self) -> Option<&crate::agent::run_limits::RunStop> {
        self.state.run.stopped.as_ref()
    }

    /// The last assistant message in the context.
    pub fn last_assistant(&self) -> Option<AssistantMessage> {
        self.state
            .messages
            .iter()
            .rev()
            .find_map(|m| m.as_assistant().cloned())
    }

    /// Send a user prompt and run until the agent is done (including retries).
    pub async fn prompt(
        &mut self,
        text: String,
        images: Vec<ContentBlock>,
        signal: &CancellationToken,
    ) {
        if self.shutdown_requested {
            return;
        }
        if let Some((name, args)) = self.extension_command_in(&text).await {
            if let Err(e) = self.run_extension_command(&name, &args, signal).await {
                self.report_extension_error(e.to_string());
            }
            return;
        }
        self.set_idle(false);
        self.prompt_once(text, images, signal).await;
        self.run_follow_ups(signal).await;
        self.set_idle(true);
    }

    pub(super) async fn prompt_once(
        &mut self,
        text: String,
        mut images: Vec<ContentBlock>,
        signal: &CancellationToken,
    ) {
        self.sync_extensions();
        self.state.run = Default::default();
        let mut extra = Vec::new();
        let mut base_prompt = None;
        let mut tools_added = false;
        let text = if let Some(ext) = &mut self.extensions {
            extra.append(&mut ext.next_turn);
            let given = std::mem::take(&mut images);
            let text = match ext.input(text, given, self.input_source).await {
                InputOutcome::Continue(t, kept) => {
                    images = kept;
                    t
                }
                InputOutcome::Handled => return,
            };
            let skills: &[Skill] = if self.skill_commands {
                &self.skills
            } else {
                &[]
            };
            let text = expand_resources(skills, &self.templates, text);
            let (system_prompt, messages) = ext
                .before_agent_start(&text, &self.state.system_prompt)
                .await;
            // Tools registered by those handlers (servers started on the first
            // prompt) are offered in this very turn.
            let before = self.state.tools.len();
            ext.merge_extension_tools(&mut self.state.tools).await;
            tools_added = self.state.tools.len() != before;
            if let Some(p) = system_prompt {
                base_prompt = Some(std::mem::replace(&mut self.state.system_prompt, p));
            }
            extra.extend(messages);
            text
        } else {
            expand_resources(self.command_skills(), &self.templates, text)
        };
        if tools_added && base_prompt.is_none() {
            self.rebuild_system_prompt();
        }
        self.compact_before_prompt(signal).await;
        let content = if images.is_empty() {
            UserContent::Blocks(vec![ContentBlock::text(text)])
        } else {
            let mut blocks = vec![ContentBlock::text(text)];
            blocks.extend(images);
            UserContent::Blocks(blocks)
        };
        let message = Message::User(UserMessage {
            content,
            timestamp: now_ms(),
        });
        let mut messages = vec![message];
        messages.extend(extra);
        self.run_loop(Some(messages), signal).await;
        self.retry_transient_errors(signal).await;
        self.compact_if_needed(signal).await;
        if let Some(p) = base_prompt {
            self.state.system_prompt = p;
        }
    }

    /// Continue the conversation from its current context (an extension's
    /// `triggerTurn`, the SDK's `continue_run`).
    pub async fn continue_run(&mut self, signal: &CancellationToken) {
        self.sync_extensions();
        self.state.run = Default::default();
        self.run_loop(None, signal).await;
        self.retry_transient_errors(signal).await;
    }

    /// Run the agent loop on `messages` (or, with `None`, continue from the
    /// current context), persisting and forwarding every event.
    async fn run_loop(&mut self, messages: Option<Vec<Message>>, signal: &CancellationToken) {
        let bash = self
            .state
            .tools
            .iter()
            .find(|t| t.name() == "bash")
            .cloned();
        let checkpoints_on = self.checkpoint_store().is_some();
        let mut checkpoints = if checkpoints_on {
            self.checkpoints.as_mut()
        } else {
            None
        };
        if let Some(store) = checkpoints.as_deref_mut() {
            store.begin_run(crate::checkpoint::CheckpointKind::Prompt, None);
        }
        let mut observer = Persisting {
            checkpoints,
            session: &mut self.session,
            listeners: &mut self.listeners,
            extensions: self.extensions.as_mut(),
            queues: &self.queues,
            signal,
            limit_ui: self.limit_ui.as_ref(),
            deadline: self.retry_deadline,
            escalation: (&mut self.sandbox_escalation, bash, self.config.cwd.clone()),
            permissions: &mut self.permissions,
        };
        let (state, config, queues) = (&mut self.state, &self.config, &self.queues);
        match messages {
            Some(messages) => {
                run_agent_loop(messages, state, config, queues, &mut observer, signal).await
            }
            None => {
                // Nothing to answer (an empty context, or an assistant tail with nothing
                // queued): no request is sent.
                continue_agent_loop(state, config, queues, &mut observer, signal)
                    .await
                    .unwrap_or_default()
            }
        };
    }

    pub(super) fn emit(&mut self, event: &AgentEvent) {
        for l in &mut self.listeners {
            l(event);
        }
    }
}

/// Forwards events to listeners and appends finished messages to the session.
struct Persisting<'a> {
    session: &'a mut SessionManager,
    listeners: &'a mut Vec<Listener>,
    extensions: Option<&'a mut ExtensionBridge>,
    queues: &'a AgentQueues,
    signal: &'a CancellationToken,
    limit_ui: Option<&'a crate::lua::SharedExtensionUi>,
    deadline: Option<Instant>,
    /// The sandbox escalation, the session's bash tool and its working folder.
    escalation: (
        &'a mut crate::core::sandbox_escalation::SandboxEscalation,
        Option<std::sync::Arc<dyn crate::agent::tool::AgentTool>>,
        std::path::PathBuf,
    ),
    permissions: &'a mut crate::core::permission_gate::PermissionGate,
    /// The session's checkpoints, when they are on.
    checkpoints: Option<&'a mut crate::checkpoint::CheckpointStore>,
}

#[async_trait]
impl AgentObserver for Persisting<'_> {
    async fn on_event(&mut self, event: &AgentEvent) {
        if matches!(event, AgentEvent::AgentEnd { .. })
            && let Some(made) = self.finish_checkpoint()
        {
            self.on_event(&made).await;
        }
        for l in self.listeners.iter_mut() {
            l(event);
        }
        match event {
            AgentEvent::MessageEnd { message } => match message {
                Message::Custom(c) => {
                    self.session.append_custom_message_entry(
                        &c.custom_type,
                        c.content.clone(),
                        c.display,
                        c.details.clone(),
                    );
                }
                other => {
                    self.session.append_message(other.clone());
                }
            },
            // Every entry is written to the file when it is appended, so a
            // crash of pi loses nothing; the flush to disk (against power loss)
            // happens once per run instead of once per turn.
            AgentEvent::AgentEnd { .. } => {
                if let Err(e) = self.session.sync() {
                    eprintln!("{}", t!("pi.session.save_failed", error = e.to_string()));
                }
            }
            _ => {}
        }
        if !self.session.notices_held()
            && let Some(notice) = self.session.take_notice()
        {
            eprintln!("{}", t!("pi.cli.warning", message = notice));
        }
        if let Some(ext) = self.extensions.as_deref_mut() {
            ext.sync_session(self.session);
            ext.forward(event).await;
            ext.apply_session_actions(self.session);
            // After agent_end nothing polls the queues: requests made
            // there are carried out once the run is over.
            if !matches!(event, AgentEvent::AgentEnd { .. }) {
                ext.apply_run_actions(self.queues, self.signal);
            }
        }
    }

    async fn on_limit(
        &mut self,
        reached: &crate::agent::run_limits::LimitReached,
    ) -> crate::agent::run_limits::LimitDecision {
        let ext = self.extensions.as_deref();
        crate::core::run_limit::decide(ext, self.limit_ui, reached, self.signal).await
    }

    async fn transform_context(&mut self, messages: &mut Vec<Message>) {
        if let Some(ext) = self.extensions.as_deref() {
            ext.context(messages).await;
        }
    }

    fn transforms_context(&self) -> bool {
        self.extensions
            .as_deref()
            .is_some_and(|e| e.handles_context())
    }

    fn request_hooks(&self) -> Option<std::sync::Arc<dyn crate::ai::stream::RequestHooks>> {
        self.extensions.as_deref().and_then(|e| e.request_hooks())
    }

    fn request_deadline(&self) -> Option<Instant> {
        self.deadline
    }

    async fn before_tool_call(
        &mut self,
        call: &ToolCall,
        args: &mut serde_json::Value,
    ) -> Option<String> {
        if let Some(ext) = self.extensions.as_deref()
            && let Some(reason) = ext.tool_call(call, args).await
        {
            return Some(reason);
        }
        // Judged after extensions rewrote the arguments: what runs is what is judged.
        let ext = self.extensions.as_deref();
        let refused = self
            .permissions
            .check(call, args, ext, self.session, self.signal)
            .await;
        if refused.is_none() {
            self.before_change(call, args);
        }
        refused
    }

    async fn after_tool_call(
        &mut self,
        call: &ToolCall,
        result: &mut ToolOutput,
        is_error: &mut bool,
    ) {
        let (escalation, bash, cwd) = &mut self.escalation;
        escalation
            .after_bash(bash.as_ref(), call, cwd, result, is_error, self.signal)
            .await;
        if let Some(ext) = self.extensions.as_deref() {
            ext.tool_result(call, result, is_error).await;
        }
    }
}

/// `/skill:name args` or `/template args` as the text it stands for (applied after the
/// `input` event, as pi does); other text unchanged.
fn expand_resources(skills: &[Skill], templates: &[PromptTemplate], text: String) -> String {
    expand_skill_command(&text, skills)
        .or_else(|| expand_template_command(&text, templates))
        .unwrap_or(text)
}
