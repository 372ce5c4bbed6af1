//! Commands that need the session itself (it is idle when they run).

use serde_json::{Value, json};

use super::error::RpcError;
use super::io::{emit, failure, success};
use super::parse::{Query, Request, RpcCommand};
use super::state::{last_assistant_text, session_stats, state_json};
use super::{Busy, Server};
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::types::Message;
use crate::core::agent_session::AgentSession;
use crate::core::session_command::{ModelSource, Outcome, SessionCommand};
use crate::core::session_switch::BranchOutcome;
use crate::resources::SourceInfo;

type Reply = Result<Option<Value>, RpcError>;

impl Server {
    /// Handle a command with the session idle and present.
    pub(super) async fn handle(&mut self, request: Request) {
        let Some(mut agent) = self.agent.take() else {
            self.deferred.push_back(request);
            return;
        };
        let Request { id, kind, command } = request;
        let command = match command {
            Ok(command) => command,
            Err(e) => {
                emit(&failure(id.as_ref(), &kind, e));
                self.agent = Some(agent);
                return;
            }
        };
        match command {
            RpcCommand::Prompt { said, .. } => {
                emit(&success(id.as_ref(), &kind, None));
                self.start_prompt(agent, said);
                return;
            }
            RpcCommand::Bash(line) => {
                self.start_bash(agent, id, line);
                return;
            }
            RpcCommand::Query(Query::Messages) => {
                super::io::emit_messages(id.as_ref(), &kind, &agent.state.messages);
            }
            command => {
                let reply = self.session_command(&mut agent, command).await;
                emit(&match reply {
                    Ok(data) => success(id.as_ref(), &kind, data),
                    Err(e) => failure(id.as_ref(), &kind, e),
                });
            }
        }
        self.agent = Some(agent);
    }

    async fn session_command(&mut self, agent: &mut AgentSession, command: RpcCommand) -> Reply {
        match command {
            RpcCommand::Query(query) => Ok(Some(self.query(agent, query).await)),
            RpcCommand::SetModel { provider, id } => {
                let model = agent
                    .available_models()
                    .into_iter()
                    .find(|m| m.provider == provider && m.id == id)
                    .ok_or_else(|| RpcError::ModelNotFound {
                        provider: provider.clone(),
                        model: id.clone(),
                    })?;
                self.switch_model(agent, model, ModelSource::Set).await;
                Ok(Some(json!(agent.config.model)))
            }
            // pi 0.73.1 answers `data: null` when there is nothing to cycle to.
            RpcCommand::CycleModel => Ok(Some(self.cycle_model(agent).await)),
            RpcCommand::SetSandbox(mode) => {
                crate::sandbox::switch_mode(mode, &agent.config.cwd)?;
                Ok(Some(super::state::sandbox_json()))
            }
            RpcCommand::ExportHtml(out) => {
                let path = crate::export::export_session(&agent.session, out.as_deref(), None)?;
                Ok(Some(json!({ "path": path })))
            }
            RpcCommand::Session(command) => self.run_session_command(agent, command).await,
            command @ (RpcCommand::GetCheckpoints
            | RpcCommand::PreviewRewind(_)
            | RpcCommand::Rewind { .. }
            | RpcCommand::ForkWithFiles(_)) => super::checkpoints::command(agent, command)
                .await
                .unwrap_or(Ok(None)),
            // Answered without the session, or started as a task, before getting here.
            RpcCommand::Prompt { .. }
            | RpcCommand::Bash(_)
            | RpcCommand::Enqueue(..)
            | RpcCommand::Abort
            | RpcCommand::AbortBash
            | RpcCommand::AbortRetry
            | RpcCommand::SetQueueMode(..) => Ok(None),
        }
    }

    /// A [`SessionCommand`] through [`AgentSession::execute`], with what RPC adds: the
    /// `thinking_level_changed` and `session_info_changed` events and the saved settings.
    async fn run_session_command(
        &mut self,
        agent: &mut AgentSession,
        command: SessionCommand,
    ) -> Reply {
        let thinking = agent.config.thinking;
        let saves = match &command {
            SessionCommand::SetAutoCompaction(on) => {
                self.auto_compaction = *on;
                Some((["compaction", "enabled"], *on))
            }
            SessionCommand::SetAutoRetry(on) => Some((["retry", "enabled"], *on)),
            _ => None,
        };
        let name = match &command {
            SessionCommand::SetName(name) => Some(name.trim().to_string()),
            _ => None,
        };
        let outcome = agent.execute(command).await?;
        self.thinking_changed(agent, thinking);
        if let Some((path, on)) = saves {
            self.save_setting(&path, json!(on));
        }
        if let Some(name) = name {
            emit(&json!({"type": "session_info_changed", "name": name}));
        }
        Ok(match outcome {
            Outcome::Done | Outcome::Thinking { .. } => None,
            Outcome::Cycled(level) => Some(match level {
                Some(level) => json!({ "level": level.as_str() }),
                None => Value::Null,
            }),
            Outcome::Switched { cancelled } => Some(json!({ "cancelled": cancelled })),
            Outcome::Forked(BranchOutcome::Branched { text }) => {
                Some(json!({ "text": text.unwrap_or_default(), "cancelled": false }))
            }
            Outcome::Forked(BranchOutcome::Cancelled) => Some(json!({ "cancelled": true })),
            Outcome::Compacted(result) => Some(result.to_json()),
        })
    }

    /// After the thinking level may have changed from `before`: the event and the saved
    /// default.
    fn thinking_changed(&mut self, agent: &AgentSession, before: ThinkingLevel) {
        let level = agent.config.thinking;
        if level == before {
            return;
        }
        emit(&json!({"type": "thinking_level_changed", "level": level.as_str()}));
        self.save_thinking(agent);
    }

    /// Switch models through the session (extensions see `model_select`) and save the
    /// choice as the default.
    async fn switch_model(&mut self, agent: &mut AgentSession, model: Model, source: ModelSource) {
        let before = agent.config.thinking;
        let command = SessionCommand::SetModel {
            model: Box::new(model),
            source,
        };
        let _ = agent.execute(command).await;
        let model = &agent.config.model;
        let (provider, id) = (model.provider.clone(), model.id.clone());
        self.save_setting(&["defaultProvider"], json!(provider));
        self.save_setting(&["defaultModel"], json!(id));
        self.thinking_changed(agent, before);
    }

    async fn query(&mut self, agent: &AgentSession, query: Query) -> Value {
        match query {
            Query::State => state_json(
                agent,
                self.auto_compaction,
                self.busy() == Some(Busy::Prompt),
            ),
            Query::Messages => json!({ "messages": agent.state.messages }),
            Query::LastAssistantText => {
                json!({ "text": last_assistant_text(&agent.state.messages) })
            }
            Query::SessionStats => session_stats(agent),
            Query::AvailableModels => json!({ "models": agent.available_models() }),
            Query::ForkMessages => json!({ "messages": fork_messages(agent) }),
            Query::Commands => json!({ "commands": self.commands(agent).await }),
        }
    }

    /// `get_commands`: extension commands, prompt templates and skills.
    async fn commands(&self, agent: &AgentSession) -> Vec<Value> {
        let extension_commands = match agent.extensions() {
            Some(ext) => ext.handle.commands().await,
            None => Vec::new(),
        };
        let (agent_dir, project) = (&self.options.agent_dir, self.options.project.as_deref());
        let mut commands: Vec<Value> = Vec::new();
        let mut push =
            |name: String, description: Option<&str>, source: &str, info: &SourceInfo| {
                let mut v = json!({"name": name});
                if let Some(d) = description {
                    v["description"] = json!(d);
                }
                v["source"] = json!(source);
                v["sourceInfo"] = json!(info);
                commands.push(v);
            };
        let listed = crate::resources::listed_from_settings(&self.options.settings, "extensions");
        for c in extension_commands {
            let named = listed
                .iter()
                .find(|l| !l.entry.starts_with('!') && c.extension.starts_with(&l.entry));
            let info = match named {
                Some(l) => SourceInfo {
                    path: c.extension.clone(),
                    ..l.info.clone()
                },
                None => SourceInfo::discovered(&c.extension, agent_dir, project),
            };
            push(c.name, c.description.as_deref(), "extension", &info);
        }
        for t in &agent.templates {
            push(
                t.name.clone(),
                Some(&t.description),
                "prompt",
                &t.source_info,
            );
        }
        for s in &agent.skills {
            push(
                format!("skill:{}", s.name),
                Some(&s.description),
                "skill",
                &s.source_info,
            );
        }
        commands
    }

    /// Save `value` at `path` (a key, or a section and key) in the global settings.
    pub(super) fn save_setting(&mut self, path: &[&str], value: Value) {
        let saved = match path {
            [key] => self.options.settings.set_global(key, value),
            [section, key] => self.options.settings.set_global_nested(section, key, value),
            _ => Ok(()),
        };
        if let Err(e) = saved {
            eprintln!("{}", crate::t!("pi.cli.warning", message = e.to_string()));
        }
    }

    /// A changed thinking level becomes the default, unless it is `off` on a model that
    /// cannot think.
    fn save_thinking(&mut self, agent: &AgentSession) {
        let level = agent.config.thinking;
        if agent.config.model.reasoning || level != ThinkingLevel::Off {
            self.save_setting(&["defaultThinkingLevel"], json!(level.as_str()));
        }
    }

    /// `cycle_model`: the next model of the `--models` scope (else of all available),
    /// or `null` when there is none to switch to.
    async fn cycle_model(&mut self, agent: &mut AgentSession) -> Value {
        let scoped = !self.options.cycle_models.is_empty();
        let models = if scoped {
            self.options.cycle_models.clone()
        } else {
            agent.available_models()
        };
        if models.len() < 2 {
            return Value::Null;
        }
        let current = &agent.config.model;
        let at = models
            .iter()
            .position(|m| m.id == current.id && m.provider == current.provider);
        let next = models[at.map_or(0, |i| (i + 1) % models.len())].clone();
        self.switch_model(agent, next, ModelSource::Cycle).await;
        json!({
            "model": agent.config.model,
            "thinkingLevel": agent.config.thinking.as_str(),
            "isScoped": scoped,
        })
    }
}

fn fork_messages(agent: &AgentSession) -> Vec<Value> {
    agent
        .session
        .branch_user_messages()
        .filter_map(|entry| match entry.as_message() {
            Some(Message::User(u)) => {
                Some(json!({"entryId": entry.id(), "text": u.content.text()}))
            }
            _ => None,
        })
        .collect()
}
