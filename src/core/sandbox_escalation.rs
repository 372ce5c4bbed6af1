//! A bash command the sandbox refused: where someone can be asked (the terminal UI's
//! dialog, an RPC client's `extension_ui_request`), pi offers to run it once more outside
//! the sandbox, once or always for this command; otherwise (print and JSON mode) the
//! model reads which mode refused it and how to allow it.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::agent::tool::{AgentTool, ToolContext, ToolOutput};
use crate::ai::types::{ContentBlock, ToolCall};
use crate::lua::SharedExtensionUi;
use crate::t;

/// Who is asked, and the commands the user let out of the sandbox for the session.
#[derive(Default)]
pub struct SandboxEscalation {
    /// Where to ask; `None`: nobody can answer, the refusal stands.
    pub ui: Option<SharedExtensionUi>,
    /// Commands answered "always" in this session: they run outside without asking.
    pub always: HashSet<String>,
}

/// The user's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Once,
    Always,
    No,
}

impl SandboxEscalation {
    /// Look at a finished `bash` call: when the sandbox refused it, ask (or use an
    /// earlier "always") and re-run it outside with `bash`, replacing the result; when
    /// it stays refused, add to the result which mode refused it and how to allow it.
    pub async fn after_bash(
        &mut self,
        bash: Option<&Arc<dyn AgentTool>>,
        call: &ToolCall,
        cwd: &Path,
        result: &mut ToolOutput,
        is_error: &mut bool,
        signal: &CancellationToken,
    ) {
        if call.name != "bash" || !*is_error || !crate::sandbox::refused_by_sandbox(&text(result)) {
            return;
        }
        let Some(command) = call.arguments.get("command").and_then(|c| c.as_str()) else {
            return;
        };
        let answer = if self.always.contains(command) {
            Answer::Once
        } else {
            self.ask(command, signal).await
        };
        let Some(bash) = bash.filter(|_| answer != Answer::No) else {
            let hint = t!(
                "pi.sandbox.refused_hint",
                mode = crate::sandbox::mode().as_str()
            );
            result
                .content
                .push(ContentBlock::text(format!("\n\n{hint}")));
            return;
        };
        if answer == Answer::Always {
            self.always.insert(command.to_string());
        }
        let ctx = ToolContext {
            cwd: cwd.to_path_buf(),
            signal: signal.clone(),
            on_update: None,
        };
        let again =
            crate::sandbox::outside(bash.execute(&call.id, call.arguments.clone(), ctx)).await;
        match again {
            Ok(output) => {
                *result = output;
                *is_error = false;
            }
            Err(error) => {
                *result = ToolOutput::text(error.message);
                *is_error = true;
            }
        }
    }

    /// "Run it outside the sandbox?" with three choices; Escape, an abort or nobody to
    /// ask mean no.
    async fn ask(&self, command: &str, signal: &CancellationToken) -> Answer {
        let Some(ui) = &self.ui else {
            return Answer::No;
        };
        let (once, always, no) = (
            t!("pi.sandbox.escalate_once"),
            t!("pi.sandbox.escalate_always"),
            t!("pi.sandbox.escalate_no"),
        );
        let request = json!({
            "method": "select",
            "title": t!(
                "pi.sandbox.escalate_title",
                mode = crate::sandbox::mode().as_str(),
                command = command
            ),
            "options": [once, always, no],
        });
        let closed = CancellationToken::new();
        let answer = tokio::select! {
            answer = ui.dialog(request, closed.clone()) => answer.ok(),
            _ = signal.cancelled() => None,
        };
        closed.cancel();
        match answer.as_ref().and_then(|a| a["value"].as_str()) {
            Some(value) if value == once => Answer::Once,
            Some(value) if value == always => Answer::Always,
            _ => Answer::No,
        }
    }
}

/// The text blocks of a result, joined.
fn text(result: &ToolOutput) -> String {
    result
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
