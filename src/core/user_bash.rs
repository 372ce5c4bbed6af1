//! `!command` and `!!command`: the user runs a shell command; its output is
//! shown like a bash tool row and kept in the conversation (`!!`: excluded
//! from the model's context).

use std::sync::Arc;

use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::agent::events::{AgentEvent, ToolResultPayload};
use crate::agent::tool::{AgentTool, ToolContext, ToolOutput};
use crate::ai::types::{BashExecutionMessage, ContentBlock, Message, ToolCall, now_ms};
use crate::core::agent_session::AgentSession;
use crate::tools::ToolOptions;
use crate::tools::bash::BashTool;

/// Split `!cmd` / `!!cmd` into (command, excluded from context).
pub fn parse_user_bash(text: &str) -> Option<(String, bool)> {
    let (rest, exclude) = match text.strip_prefix("!!") {
        Some(rest) => (rest, true),
        None => (text.strip_prefix('!')?, false),
    };
    let command = rest.trim();
    (!command.is_empty()).then(|| (command.to_string(), exclude))
}

/// Run `command` with the session's bash tool, stream it to the UI as a tool
/// row through `on_event`, and record it in the conversation and session.
pub async fn run_user_bash(
    agent: &mut AgentSession,
    command: String,
    exclude: bool,
    signal: CancellationToken,
    on_event: Arc<dyn Fn(AgentEvent) + Send + Sync>,
) -> BashExecutionMessage {
    let bash: Arc<dyn AgentTool> = match agent.state.tools.iter().find(|t| t.name() == "bash") {
        Some(tool) => tool.clone(),
        None => Arc::new(BashTool::new(&ToolOptions::default())),
    };
    let id = format!("user-bash-{}", now_ms());
    let args = if exclude {
        json!({ "command": command, "excludeFromContext": true })
    } else {
        json!({ "command": command })
    };
    let send = |event: AgentEvent| on_event(event);
    send(AgentEvent::ToolExecutionStart {
        tool_call_id: id.clone(),
        tool_name: "bash".into(),
        args: args.clone(),
    });
    let update_sink = on_event.clone();
    let (update_id, update_args) = (id.clone(), args.clone());
    let ctx = ToolContext {
        cwd: agent.config.cwd.clone(),
        signal: signal.clone(),
        on_update: Some(Arc::new(move |partial| {
            update_sink(AgentEvent::ToolExecutionUpdate {
                tool_call_id: update_id.clone(),
                tool_name: "bash".into(),
                args: update_args.clone(),
                partial_result: partial.into(),
            });
        })),
    };
    if let Some(store) = agent.checkpoint_store() {
        store.begin_run(crate::checkpoint::CheckpointKind::Bash, None);
        let _ = store.before_shell();
    }
    let intercepted = agent.user_bash_override(&command, exclude).await;
    let (output, details, is_error, exit_code) = match intercepted {
        Some((output, code)) => (output, None, code != Some(0), code),
        None => {
            let (mut out, mut failed) =
                match bash.execute(&id, json!({ "command": &command }), ctx).await {
                    Ok(out) => (out, false),
                    Err(e) => (
                        ToolOutput {
                            details: e.details,
                            ..ToolOutput::text(e.message)
                        },
                        true,
                    ),
                };
            // Refused by the sandbox: offer to run it outside, as for the model's calls.
            let call = ToolCall {
                id: id.clone(),
                name: "bash".into(),
                arguments: json!({ "command": &command }),
                thought_signature: None,
                raw_arguments: None,
            };
            let cwd = agent.config.cwd.clone();
            agent
                .sandbox_escalation
                .after_bash(Some(&bash), &call, &cwd, &mut out, &mut failed, &signal)
                .await;
            let text = text_of(&out.content);
            let code = if failed { exit_code_in(&text) } else { Some(0) };
            (text, out.details, failed, code)
        }
    };
    if let Some(made) = agent
        .checkpoint_store()
        .and_then(crate::core::checkpoints::finish)
    {
        send(made);
    }
    let shown = without_exit_status(&output, exit_code.filter(|_| is_error));
    // The row shows the command's own output; how it ended travels in the details.
    let mut row_details = details.clone().unwrap_or_else(|| json!({}));
    if let Some(fields) = row_details.as_object_mut() {
        fields.insert("exitCode".into(), json!(exit_code));
        fields.insert("cancelled".into(), json!(signal.is_cancelled()));
    }
    send(AgentEvent::ToolExecutionEnd {
        tool_call_id: id,
        tool_name: "bash".into(),
        result: ToolResultPayload {
            content: vec![ContentBlock::text(shown.clone())],
            details: Some(row_details),
        },
        is_error,
    });
    let execution = BashExecutionMessage {
        command,
        output: shown,
        exit_code,
        cancelled: signal.is_cancelled(),
        truncated: details
            .as_ref()
            .is_some_and(|d| d.get("truncation").is_some()),
        full_output_path: details
            .as_ref()
            .and_then(|d| d.get("fullOutputPath"))
            .and_then(|p| p.as_str())
            .map(str::to_string),
        exclude_from_context: exclude.then_some(true),
        timestamp: now_ms(),
    };
    let message = Message::BashExecution(execution.clone());
    agent.state.messages.push(message.clone());
    agent.session.append_message(message);
    let _ = agent.session.sync();
    execution
}

fn text_of(blocks: &[ContentBlock]) -> String {
    blocks
        .iter()
        .filter_map(ContentBlock::as_text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The command's own output (and a sandbox refusal's hint): the bash tool's "exited with
/// code N" trailer and its "(no output)" placeholder are the tool's words to the model, not
/// output (the exit code is kept beside it, and the context adds the trailer back).
fn without_exit_status(output: &str, code: Option<i32>) -> String {
    let Some(code) = code else {
        return match output {
            "(no output)" => String::new(),
            _ => output.to_string(),
        };
    };
    let trailer = format!("\n\nCommand exited with code {code}");
    // A sandbox refusal's hint may follow the trailer.
    let Some(at) = output.rfind(&trailer) else {
        return output.to_string();
    };
    let (own, after) = (&output[..at], &output[at + trailer.len()..]);
    match (own, after.trim_start()) {
        ("(no output)", hint) => hint.to_string(),
        (_, "") => own.to_string(),
        (_, hint) => format!("{}\n\n{hint}", own.trim_end()),
    }
}

/// The exit code in the bash tool's "exited with code N" error text.
fn exit_code_in(text: &str) -> Option<i32> {
    let at = text.rfind("exited with code ")? + "exited with code ".len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bang_commands() {
        assert_eq!(parse_user_bash("!ls -la"), Some(("ls -la".into(), false)));
        assert_eq!(
            parse_user_bash("!! git status "),
            Some(("git status".into(), true))
        );
        assert_eq!(parse_user_bash("!"), None);
        assert_eq!(parse_user_bash("hello"), None);
        assert_eq!(exit_code_in("out\n\nCommand exited with code 3"), Some(3));
        let refused = "touch: x: Permission denied\n\nCommand exited with code 1\n\nhint";
        assert_eq!(
            without_exit_status(refused, Some(1)),
            "touch: x: Permission denied\n\nhint"
        );
        assert_eq!(
            without_exit_status("(no output)\n\nCommand exited with code 2", Some(2)),
            ""
        );
    }
}
