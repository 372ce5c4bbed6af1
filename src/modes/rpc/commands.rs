//! Commands that need the session itself (it is idle when they run).

use crate::core::session_switch::{BranchOutcome, BranchPosition};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::io::{emit, failure, success};
use super::state::{last_assistant_text, session_stats, state_json};
use super::{Busy, Server};
use crate::agent::queue::QueueMode;
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::types::{ContentBlock, ImageContent, Message};
use crate::core::agent_session::AgentSession;
use crate::resources::SourceInfo;

/// Every command of the protocol (for the unknown-command message).
const COMMANDS: &str = "prompt, steer, follow_up, abort, new_session, get_state, get_messages, \
set_model, cycle_model, get_available_models, set_thinking_level, cycle_thinking_level, \
set_steering_mode, set_follow_up_mode, compact, set_auto_compaction, set_auto_retry, \
abort_retry, bash, abort_bash, get_session_stats, export_html, switch_session, fork, clone, \
get_fork_messages, get_last_assistant_text, set_session_name, get_commands, set_sandbox, \
get_checkpoints, preview_rewind, rewind";

type Reply = Result<Option<Value>, String>;

/// The `message` text and `images` of a prompt-like command.
pub fn message_and_images(command: &Value) -> Result<(String, Vec<ContentBlock>), String> {
    let text = required_str(command, "message")?.to_string();
    let images = match command.get("images") {
        None | Some(Value::Null) => Vec::new(),
        Some(images) => serde_json::from_value::<Vec<ImageContent>>(images.clone())
            .map_err(|e| {
                format!("invalid \"images\": {e}. Each image is {{\"type\": \"image\", \"data\": \"<base64>\", \"mimeType\": \"image/png\"}}")
            })?
            .into_iter()
            .map(ContentBlock::Image)
            .collect(),
    };
    Ok((text, images))
}

/// The `mode` of `set_steering_mode` / `set_follow_up_mode`.
pub fn queue_mode(command: &Value) -> Result<QueueMode, String> {
    let mode = required_str(command, "mode")?;
    QueueMode::parse(mode)
        .ok_or_else(|| format!("Invalid mode \"{mode}\": use \"all\" or \"one-at-a-time\""))
}

fn required_str<'a>(command: &'a Value, field: &str) -> Result<&'a str, String> {
    command[field].as_str().ok_or_else(|| {
        format!(
            "{} needs a string field \"{field}\"",
            command["type"].as_str().unwrap_or("command")
        )
    })
}

fn required_bool(command: &Value, field: &str) -> Result<bool, String> {
    command[field].as_bool().ok_or_else(|| {
        format!(
            "{} needs a boolean field \"{field}\"",
            command["type"].as_str().unwrap_or("command")
        )
    })
}

impl Server {
    /// Handle a command with the session idle and present.
    pub(super) async fn handle(&mut self, command: Value) {
        let id = command.get("id").cloned();
        let kind = command["type"].as_str().unwrap_or_default().to_string();
        let Some(mut agent) = self.agent.take() else {
            self.deferred.push_back(command);
            return;
        };
        match kind.as_str() {
            "prompt" => match message_and_images(&command) {
                Ok((text, images)) => {
                    emit(&success(id.as_ref(), &kind, None));
                    self.start_prompt(agent, text, images);
                    return;
                }
                Err(e) => emit(&failure(id.as_ref(), &kind, e)),
            },
            "bash" => match required_str(&command, "command") {
                Ok(line) => {
                    let line = line.to_string();
                    self.start_bash(agent, id, line);
                    return;
                }
                Err(e) => emit(&failure(id.as_ref(), &kind, e)),
            },
            _ => {
                let reply = self.session_command(&mut agent, &kind, &command).await;
                emit(&match reply {
                    Ok(data) => success(id.as_ref(), &kind, data),
                    Err(e) => failure(id.as_ref(), &kind, e),
                });
            }
        }
        self.agent = Some(agent);
    }

    async fn session_command(&mut self, agent: &mut AgentSession, kind: &str, c: &Value) -> Reply {
        match kind {
            "get_state" => Ok(Some(state_json(
                agent,
                self.auto_compaction,
                self.busy() == Some(Busy::Prompt),
            ))),
            "get_messages" => Ok(Some(json!({ "messages": agent.state.messages }))),
            "get_last_assistant_text" => Ok(Some(
                json!({ "text": last_assistant_text(&agent.state.messages) }),
            )),
            "get_session_stats" => Ok(Some(session_stats(agent))),
            "get_available_models" => Ok(Some(json!({ "models": agent.available_models() }))),
            "set_model" => {
                let provider = required_str(c, "provider")?;
                let model_id = required_str(c, "modelId")?;
                let model = agent
                    .available_models()
                    .into_iter()
                    .find(|m| m.provider == provider && m.id == model_id)
                    .ok_or_else(|| format!("Model not found: {provider}/{model_id}"))?;
                let changed = set_model(agent, model.clone(), self.options.default_thinking);
                self.save_model(agent, changed);
                Ok(Some(json!(model)))
            }
            "cycle_model" => Ok(self.cycle_model(agent)),
            "set_thinking_level" => {
                let level = required_str(c, "level")?;
                let level = ThinkingLevel::parse(level).ok_or_else(|| {
                    format!("Invalid thinking level \"{level}\": use off, minimal, low, medium, high or xhigh")
                })?;
                let changed = set_thinking(agent, level);
                self.save_thinking(agent, changed);
                Ok(None)
            }
            "cycle_thinking_level" => {
                let before = agent.config.thinking;
                let reply = cycle_thinking(agent);
                self.save_thinking(agent, agent.config.thinking != before);
                Ok(reply)
            }
            "set_sandbox" => {
                let name = required_str(c, "mode")?;
                let mode = crate::sandbox::SandboxMode::parse(name)
                    .ok_or_else(|| crate::t!("pi.sandbox.usage"))?;
                crate::sandbox::switch_mode(mode, &agent.config.cwd)?;
                Ok(Some(super::state::sandbox_json()))
            }
            "set_auto_compaction" => {
                self.auto_compaction = required_bool(c, "enabled")?;
                agent.compaction.enabled = self.auto_compaction;
                self.save_setting(&["compaction", "enabled"], json!(self.auto_compaction));
                Ok(None)
            }
            "set_auto_retry" => {
                agent.retry.settings.enabled = required_bool(c, "enabled")?;
                self.save_setting(&["retry", "enabled"], json!(agent.retry.settings.enabled));
                Ok(None)
            }
            "set_session_name" => {
                let name = required_str(c, "name")?.trim();
                if name.is_empty() {
                    return Err("Session name cannot be empty".into());
                }
                agent.session.append_session_info(name);
                emit(&json!({"type": "session_info_changed", "name": name}));
                Ok(None)
            }
            "new_session" => {
                let parent = c["parentSession"].as_str();
                let cancelled = !agent.new_session_with_parent(parent).await;
                Ok(Some(json!({ "cancelled": cancelled })))
            }
            "switch_session" => {
                let path = PathBuf::from(required_str(c, "sessionPath")?);
                if !path.is_file() {
                    return Err(format!("Session file not found: {}", path.display()));
                }
                let switched = agent.resume_session(&path).await?;
                if switched {
                    agent.bind_session();
                }
                Ok(Some(json!({ "cancelled": !switched })))
            }
            "fork" => {
                let id = required_str(c, "entryId")?;
                if agent.session.entry(id).is_none() {
                    return Err(format!("Entry not found: {id}"));
                }
                // `code: true`: the files go back to before the message too.
                if c["code"].as_bool() == Some(true) {
                    let (outcome, files) = agent.fork_with_files(id).await?;
                    return Ok(Some(match outcome {
                        BranchOutcome::Branched { text } => json!({
                            "text": text.unwrap_or_default(), "cancelled": false,
                            "restored": files.restored, "kept": files.kept,
                        }),
                        BranchOutcome::Cancelled => json!({ "cancelled": true }),
                    }));
                }
                match agent.branch_session(id, BranchPosition::Before).await? {
                    BranchOutcome::Branched { text } => Ok(Some(
                        json!({ "text": text.unwrap_or_default(), "cancelled": false }),
                    )),
                    BranchOutcome::Cancelled => Ok(Some(json!({ "cancelled": true }))),
                }
            }
            "clone" => {
                let leaf = agent
                    .session
                    .leaf_id()
                    .map(str::to_string)
                    .ok_or("Nothing to clone: the session has no entries yet")?;
                let outcome = agent.branch_session(&leaf, BranchPosition::At).await?;
                Ok(Some(
                    json!({ "cancelled": outcome == BranchOutcome::Cancelled }),
                ))
            }
            "get_fork_messages" => Ok(Some(json!({ "messages": fork_messages(agent) }))),
            "export_html" => {
                let out = c["outputPath"].as_str().map(Path::new);
                let path = crate::export::export_session(&agent.session, out, None)
                    .map_err(|e| e.to_string())?;
                Ok(Some(json!({ "path": path })))
            }
            "get_commands" => {
                let extension_commands = match agent.extensions() {
                    Some(ext) => ext.handle.commands().await,
                    None => Vec::new(),
                };
                let (agent_dir, project) =
                    (&self.options.agent_dir, self.options.project.as_deref());
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
                let listed =
                    crate::resources::listed_from_settings(&self.options.settings, "extensions");
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
                Ok(Some(json!({ "commands": commands })))
            }
            "compact" => {
                let instructions = c["customInstructions"].as_str();
                let signal = tokio_util::sync::CancellationToken::new();
                let result = agent
                    .compact(
                        instructions,
                        crate::core::agent_session::CompactionReason::Manual,
                        false,
                        &signal,
                    )
                    .await?;
                Ok(Some(result.to_json()))
            }
            "get_checkpoints" | "preview_rewind" | "rewind" => {
                super::checkpoints::command(agent, kind, c).await
            }
            "" => Err(format!(
                "Missing command type: send {{\"type\": \"<command>\"}} with one of: {COMMANDS}"
            )),
            other => Err(format!("Unknown command: {other}")),
        }
    }

    /// Save `value` at `path` (a key, or a section and key) in the global settings.
    pub(super) fn save_setting(&mut self, path: &[&str], value: Value) {
        let saved = match path {
            [key] => self.options.settings.set_global(key, value),
            [section, key] => self.options.settings.set_global_nested(section, key, value),
            _ => Ok(()),
        };
        if let Err(e) = saved {
            eprintln!("{}", crate::t!("pi.cli.warning", message = e));
        }
    }

    /// Save the session's model as the default (and its thinking level when that changed).
    fn save_model(&mut self, agent: &AgentSession, thinking_changed: bool) {
        let model = &agent.config.model;
        self.save_setting(&["defaultProvider"], json!(model.provider));
        self.save_setting(&["defaultModel"], json!(model.id));
        self.save_thinking(agent, thinking_changed);
    }

    /// A changed thinking level becomes the default, unless it is `off` on a model that
    /// cannot think.
    fn save_thinking(&mut self, agent: &AgentSession, changed: bool) {
        let level = agent.config.thinking;
        if changed && (agent.config.model.reasoning || level != ThinkingLevel::Off) {
            self.save_setting(&["defaultThinkingLevel"], json!(level.as_str()));
        }
    }

    fn cycle_model(&mut self, agent: &mut AgentSession) -> Option<Value> {
        let scoped = !self.options.cycle_models.is_empty();
        let models = if scoped {
            self.options.cycle_models.clone()
        } else {
            agent.available_models()
        };
        if models.len() < 2 {
            return None;
        }
        let current = &agent.config.model;
        let at = models
            .iter()
            .position(|m| m.id == current.id && m.provider == current.provider);
        let next = models[at.map_or(0, |i| (i + 1) % models.len())].clone();
        let changed = set_model(agent, next, self.options.default_thinking);
        self.save_model(agent, changed);
        Some(json!({
            "model": agent.config.model,
            "thinkingLevel": agent.config.thinking.as_str(),
            "isScoped": scoped,
        }))
    }
}

/// Switch models. Coming from a model without reasoning, the thinking level
/// starts again from the default; it is then clamped to the new model.
/// Returns whether the thinking level changed.
fn set_model(agent: &mut AgentSession, model: Model, default_thinking: ThinkingLevel) -> bool {
    let level = if agent.config.model.reasoning {
        agent.config.thinking
    } else {
        default_thinking
    };
    agent
        .session
        .append_model_change(&model.provider, &model.id);
    agent.config.model = model;
    set_thinking(agent, level)
}

/// Set the thinking level (clamped to the model); a change is recorded and
/// reported with a `thinking_level_changed` event. Returns whether it changed.
fn set_thinking(agent: &mut AgentSession, level: ThinkingLevel) -> bool {
    let level = agent.config.model.clamp_thinking(level);
    if level == agent.config.thinking {
        return false;
    }
    agent.config.thinking = level;
    agent.session.append_thinking_level_change(level);
    emit(&json!({"type": "thinking_level_changed", "level": level.as_str()}));
    true
}

fn cycle_thinking(agent: &mut AgentSession) -> Option<Value> {
    let model = &agent.config.model;
    if !model.reasoning {
        return None;
    }
    let levels: Vec<ThinkingLevel> = ["off", "minimal", "low", "medium", "high", "xhigh"]
        .iter()
        .filter_map(|l| ThinkingLevel::parse(l))
        .filter(|l| model.supports_level(*l))
        .collect();
    let at = levels.iter().position(|l| *l == agent.config.thinking);
    let next = levels[at.map_or(0, |i| (i + 1) % levels.len())];
    set_thinking(agent, next);
    Some(json!({ "level": agent.config.thinking.as_str() }))
}

fn fork_messages(agent: &AgentSession) -> Vec<Value> {
    agent
        .session
        .get_branch(None)
        .into_iter()
        .filter_map(|entry| match entry.as_message() {
            Some(Message::User(u)) => {
                Some(json!({"entryId": entry.id(), "text": u.content.text()}))
            }
            _ => None,
        })
        .collect()
}
