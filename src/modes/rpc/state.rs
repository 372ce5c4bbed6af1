//! The state RPC reports: `get_state`, `get_session_stats`, `bash` results,
//! and the live mirror answered while the session task runs.

use serde_json::{Value, json};

use crate::agent::agent_loop::AgentQueues;
use crate::agent::conversation::Conversation;
use crate::agent::events::AgentEvent;
use crate::ai::types::{BashExecutionMessage, ContentBlock, Message};
use crate::core::agent_session::AgentSession;

/// What the command loop knows while the session task runs: the messages
/// so far (kept current from events), the queues and the last state.
#[derive(Default)]
pub struct Live {
    /// Steering and follow-up queues (shared with the session).
    pub queues: AgentQueues,
    /// The conversation, including messages finished during this run.
    pub messages: Conversation,
    /// A retry delay is running.
    pub retrying: bool,
    /// A prompt was accepted and its run has not ended yet.
    pub running: bool,
    state: Value,
    /// The queued texts the client was last told of (steering, follow-up).
    announced: (Vec<String>, Vec<String>),
}

impl Live {
    /// Copy what the loop must know before handing `agent` to a task.
    pub fn capture(&mut self, agent: &AgentSession, auto_compaction: bool) {
        self.queues = agent.queues.clone();
        self.messages = agent.state.messages.clone();
        self.state = state_json(agent, auto_compaction, false);
    }

    /// Follow an event of the running task. A user message starting after the run took
    /// it from a queue yields the `queue_update` to send before it.
    pub fn observe(&mut self, event: &AgentEvent) -> Option<AgentEvent> {
        match event {
            AgentEvent::MessageStart {
                message: Message::User(_),
            } => return self.queue_update_if_changed(),
            AgentEvent::MessageEnd { message } => self.messages.push(message.clone()),
            AgentEvent::AgentStart => self.running = true,
            AgentEvent::AutoRetryStart { .. } => {
                self.running = true;
                self.retrying = true;
                if matches!(self.messages.last().as_deref(), Some(Message::Assistant(_))) {
                    self.messages.pop();
                }
            }
            AgentEvent::AutoRetryEnd { .. } => self.retrying = false,
            AgentEvent::AgentEnd { .. } => {
                self.retrying = false;
                self.running = false;
            }
            _ => {}
        }
        None
    }

    /// `get_state` while the task runs.
    pub fn state(&self, streaming: bool) -> Value {
        let mut state = self.state.clone();
        state["isStreaming"] = json!(streaming);
        state["messageCount"] = json!(self.messages.len());
        state["pendingMessageCount"] = json!(pending(&self.queues));
        state["steeringMode"] = json!(self.queues.steering.mode().as_str());
        state["followUpMode"] = json!(self.queues.follow_up.mode().as_str());
        if let Some(sandbox) = sandbox_state() {
            state["sandbox"] = sandbox;
        }
        state
    }

    /// A `queue_update` event with the queued texts, when they differ from the last one
    /// sent.
    pub fn queue_update_if_changed(&mut self) -> Option<AgentEvent> {
        let now = (self.queues.steering.texts(), self.queues.follow_up.texts());
        if now == self.announced {
            return None;
        }
        self.announced = now.clone();
        Some(AgentEvent::QueueUpdate {
            steering: now.0,
            follow_up: now.1,
        })
    }
}

fn pending(queues: &AgentQueues) -> usize {
    queues.steering.len() + queues.follow_up.len()
}

/// `get_state` data for an idle session.
pub fn state_json(agent: &AgentSession, auto_compaction: bool, streaming: bool) -> Value {
    let mut state = json!({
        "model": agent.config.model,
        "thinkingLevel": agent.config.thinking.as_str(),
        "isStreaming": streaming,
        "isCompacting": false,
        "steeringMode": agent.queues.steering.mode().as_str(),
        "followUpMode": agent.queues.follow_up.mode().as_str(),
    });
    // An unsaved session (`--no-session`) has no file: the field is left out, not null.
    if let Some(file) = agent.session.session_file() {
        state["sessionFile"] = json!(file);
    }
    state["sessionId"] = json!(agent.session.session_id());
    state["autoCompactionEnabled"] = json!(auto_compaction);
    state["messageCount"] = json!(agent.state.messages.len());
    state["pendingMessageCount"] = json!(pending(&agent.queues));
    if let Some(name) = agent.session.session_name() {
        state["sessionName"] = json!(name);
    }
    if let Some(sandbox) = sandbox_state() {
        state["sandbox"] = sandbox;
    }
    state
}

/// The `sandbox` field of `get_state`: left out (as pi 0.73.1 has none) unless a
/// confined mode or `--yolo` is in force.
fn sandbox_state() -> Option<Value> {
    (crate::sandbox::mode().is_confined() || crate::sandbox::yolo()).then(sandbox_json)
}

/// The sandbox in force: `{mode, writableRoots, network, yolo}` (`writableRoots` as
/// configured, besides the working folder).
pub fn sandbox_json() -> Value {
    let settings = crate::sandbox::current();
    json!({
        "mode": settings.mode.as_str(),
        "writableRoots": settings.writable_roots,
        "network": settings.network,
        "yolo": crate::sandbox::yolo(),
    })
}

/// `get_session_stats` data.
pub fn session_stats(agent: &AgentSession) -> Value {
    let messages = &agent.state.messages;
    let (mut user, mut assistant, mut calls, mut results) = (0, 0, 0, 0);
    let (mut input, mut output, mut read, mut write, mut cost) = (0u64, 0u64, 0u64, 0u64, 0f64);
    let mut last_context = None;
    for at in 0..messages.len() {
        let facts = messages.facts(at);
        match facts.role {
            "user" => user += 1,
            "toolResult" => results += 1,
            "assistant" => {
                assistant += 1;
                calls += facts.tool_calls;
                let usage = facts.usage.as_deref().cloned().unwrap_or_default();
                input += usage.input;
                output += usage.output;
                read += usage.cache_read;
                write += usage.cache_write;
                cost += usage.cost.total;
                let used = usage.input + usage.output + usage.cache_read + usage.cache_write;
                if used > 0 {
                    last_context = Some(used);
                }
            }
            _ => {}
        }
    }
    let window = agent.config.model.context_window;
    let mut stats = json!({
        "sessionFile": agent.session.session_file(),
        "sessionId": agent.session.session_id(),
        "userMessages": user,
        "assistantMessages": assistant,
        "toolCalls": calls,
        "toolResults": results,
        "totalMessages": messages.len(),
        "tokens": {
            "input": input, "output": output, "cacheRead": read, "cacheWrite": write,
            "total": input + output + read + write,
        },
        "cost": cost,
    });
    if window > 0 {
        stats["contextUsage"] = json!({
            "tokens": last_context,
            "contextWindow": window,
            "percent": last_context.map(|t| t as f64 * 100.0 / window as f64),
        });
    }
    stats
}

/// The text of the last assistant message (`None` when there is none).
pub fn last_assistant_text(messages: &Conversation) -> Option<String> {
    let last = messages
        .iter()
        .rev()
        .find_map(|m| m.as_assistant().cloned())?;
    Some(
        last.content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::Text(t) => Some(t.text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(""),
    )
}

/// A `bash` response's data.
pub fn bash_result(message: &BashExecutionMessage) -> Value {
    let mut data = json!({
        "output": message.output,
        "exitCode": message.exit_code,
        "cancelled": message.cancelled,
        "truncated": message.truncated,
    });
    if let Some(path) = &message.full_output_path {
        data["fullOutputPath"] = json!(path);
    }
    data
}
