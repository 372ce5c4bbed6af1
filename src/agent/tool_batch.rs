//! One batch of tool calls from a reply: each is prepared (found, its arguments
//! validated, extensions asked), run in parallel or one after another, and answered
//! with a tool result, emitting the tool events in order.

use std::sync::Arc;

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::ai::types::{ContentBlock, Message, ToolCall, ToolResultMessage, now_ms};

use super::agent_loop::{AgentLoopConfig, AgentObserver, AgentState, emit_whole_message};
use super::events::{AgentEvent, ToolResultPayload};
use super::tool::{AgentTool, ExecutionMode, ToolContext, ToolOutput};
use super::validate::validate_call_arguments;

/// A tool call ready to run, or already answered (unknown tool, invalid args, blocked).
enum Prepared {
    Run {
        call: ToolCall,
        tool: Arc<dyn AgentTool>,
        args: Value,
    },
    Immediate {
        call: ToolCall,
        output: ToolOutput,
    },
}

/// The result of a tool call in a reply that hit the output token limit.
pub const CUT_OFF_CALL: &str = "Tool call not executed: the reply was cut off at the output token \
limit (stop reason \"length\"), so its arguments may be incomplete. Ask for a smaller step, or raise \
the model's maxTokens.";

fn error_output(message: impl Into<String>) -> ToolOutput {
    ToolOutput {
        content: vec![ContentBlock::text(message)],
        details: Some(Value::Object(Default::default())),
        terminate: false,
    }
}

async fn prepare(
    call: &ToolCall,
    state: &AgentState,
    observer: &mut dyn AgentObserver,
) -> Prepared {
    let Some(tool) = state.tools.iter().find(|t| t.name() == call.name).cloned() else {
        return Prepared::Immediate {
            call: call.clone(),
            output: error_output(format!("Tool {} not found", call.name)),
        };
    };
    let prepared_args = tool.prepare_arguments(call.arguments.clone());
    let dialect = tool.schema_dialect();
    let mut args = match validate_call_arguments(
        &call.name,
        &tool.parameters(),
        dialect,
        &prepared_args,
        call.raw_arguments.as_deref(),
    ) {
        Ok(a) => a,
        Err(e) => {
            return Prepared::Immediate {
                call: call.clone(),
                output: error_output(e.to_string()),
            };
        }
    };
    if let Some(reason) = observer.before_tool_call(call, &mut args).await {
        let reason = if reason.is_empty() {
            "Tool execution was blocked".to_string()
        } else {
            reason
        };
        return Prepared::Immediate {
            call: call.clone(),
            output: error_output(reason),
        };
    }
    Prepared::Run {
        call: call.clone(),
        tool,
        args,
    }
}

/// Progress of one running tool, sent from its update callback.
struct Progress {
    index: usize,
    output: ToolOutput,
}

/// Run the calls of one reply; the results in call order, and whether every result
/// asked to end the run. With `cut_off`, no call runs: each is answered with
/// [`CUT_OFF_CALL`].
pub(super) async fn execute_tool_calls(
    calls: &[ToolCall],
    state: &AgentState,
    cfg: &AgentLoopConfig,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
    cut_off: bool,
) -> (Vec<ToolResultMessage>, bool) {
    let sequential = cfg.tool_execution == ExecutionMode::Sequential
        || calls.iter().any(|c| {
            state
                .tools
                .iter()
                .any(|t| t.name() == c.name && t.execution_mode() == ExecutionMode::Sequential)
        });
    let (tx, mut rx) = mpsc::unbounded_channel::<Progress>();
    let mut finished: Vec<Option<(ToolOutput, bool)>> = vec![None; calls.len()];
    let mut running = FuturesUnordered::new();
    for (index, call) in calls.iter().enumerate() {
        let ev = AgentEvent::ToolExecutionStart {
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            args: call.arguments.clone(),
        };
        observer.on_event(&ev).await;
        let repeated_id = calls[..index]
            .iter()
            .any(|c| !c.id.is_empty() && c.id == call.id);
        let prepared = match (cut_off, repeated_id) {
            (true, _) => Prepared::Immediate {
                call: call.clone(),
                output: error_output(CUT_OFF_CALL),
            },
            (false, true) => Prepared::Immediate {
                call: call.clone(),
                output: error_output(format!(
                    "Tool call not executed: its id \"{}\" is already used by an earlier call in this reply (each call needs its own id)",
                    call.id
                )),
            },
            (false, false) => prepare(call, state, observer).await,
        };
        match prepared {
            Prepared::Immediate { call, output } => {
                emit_end(observer, &call, &output, true).await;
                finished[index] = Some((output, true));
            }
            Prepared::Run { call, tool, args } => {
                running.push(run_tool(
                    index,
                    call,
                    tool,
                    args,
                    cfg.cwd.clone(),
                    signal.clone(),
                    tx.clone(),
                ));
                if sequential {
                    drive(&mut running, &mut rx, calls, observer, &mut finished).await;
                }
            }
        }
    }
    drop(tx);
    drive(&mut running, &mut rx, calls, observer, &mut finished).await;
    let mut results = Vec::with_capacity(calls.len());
    let mut terminate = !calls.is_empty();
    for (call, done) in calls.iter().zip(finished) {
        let (output, is_error) =
            done.unwrap_or_else(|| (error_output("Tool did not finish"), true));
        terminate &= output.terminate;
        let msg = ToolResultMessage {
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            content: output.content,
            details: output.details,
            is_error,
            timestamp: now_ms(),
        };
        emit_whole_message(observer, &Message::ToolResult(msg.clone())).await;
        results.push(msg);
    }
    (results, terminate)
}

/// Run tools until all finish, forwarding progress and emitting ends in completion order.
async fn drive<F>(
    running: &mut FuturesUnordered<F>,
    rx: &mut mpsc::UnboundedReceiver<Progress>,
    calls: &[ToolCall],
    observer: &mut dyn AgentObserver,
    finished: &mut [Option<(ToolOutput, bool)>],
) where
    F: std::future::Future<Output = (usize, ToolCall, ToolOutput, bool)>,
{
    while !running.is_empty() {
        tokio::select! {
            biased;
            Some(p) = rx.recv() => emit_progress(observer, calls, p).await,
            Some((i, call, mut output, mut is_error)) = running.next() => {
                drain_progress(rx, calls, observer).await;
                observer.after_tool_call(&call, &mut output, &mut is_error).await;
                emit_end(observer, &call, &output, is_error).await;
                finished[i] = Some((output, is_error));
            }
        }
    }
}

async fn run_tool(
    index: usize,
    call: ToolCall,
    tool: Arc<dyn AgentTool>,
    args: Value,
    cwd: std::path::PathBuf,
    signal: CancellationToken,
    tx: mpsc::UnboundedSender<Progress>,
) -> (usize, ToolCall, ToolOutput, bool) {
    let ctx = ToolContext {
        cwd,
        signal: signal.child_token(),
        on_update: Some(Arc::new(move |output| {
            let _ = tx.send(Progress { index, output });
        })),
    };
    match tool.execute(&call.id, args, ctx).await {
        Ok(output) => (index, call, output, false),
        Err(e) => {
            let details = e
                .details
                .or_else(|| Some(Value::Object(Default::default())));
            (
                index,
                call,
                ToolOutput {
                    content: vec![ContentBlock::text(e.message)],
                    details,
                    terminate: false,
                },
                true,
            )
        }
    }
}

async fn drain_progress(
    rx: &mut mpsc::UnboundedReceiver<Progress>,
    calls: &[ToolCall],
    observer: &mut dyn AgentObserver,
) {
    while let Ok(p) = rx.try_recv() {
        emit_progress(observer, calls, p).await;
    }
}

async fn emit_progress(observer: &mut dyn AgentObserver, calls: &[ToolCall], p: Progress) {
    let call = &calls[p.index];
    let ev = AgentEvent::ToolExecutionUpdate {
        tool_call_id: call.id.clone(),
        tool_name: call.name.clone(),
        args: call.arguments.clone(),
        partial_result: p.output.into(),
    };
    observer.on_event(&ev).await;
}

async fn emit_end(
    observer: &mut dyn AgentObserver,
    call: &ToolCall,
    output: &ToolOutput,
    is_error: bool,
) {
    let ev = AgentEvent::ToolExecutionEnd {
        tool_call_id: call.id.clone(),
        tool_name: call.name.clone(),
        result: ToolResultPayload::from(output.clone()),
        is_error,
    };
    observer.on_event(&ev).await;
}
