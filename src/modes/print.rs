//! Print and JSON modes: send the prompts, then print the answer (text) or
//! stream every event as one JSON line (json).

use crate::t;
use std::io::Write;

use tokio_util::sync::CancellationToken;

use crate::ai::errors::is_context_overflow;
use crate::ai::types::{ContentBlock, Message, StopReason};
use crate::core::agent_session::AgentSession;
use crate::ui_kit::safe_text::{Stream, for_stream};

use super::output_guard::stdout_failed;

/// What a print run outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrintOutput {
    /// The final answer's text.
    Text,
    /// Every event as JSON lines, session header first.
    Json,
}

/// The prompts of one print run.
pub struct PrintRun {
    /// Output format.
    pub output: PrintOutput,
    /// First prompt (stdin + files + first message) and its images.
    pub initial: Option<(String, Vec<ContentBlock>)>,
    /// Further messages, sent one after another.
    pub messages: Vec<String>,
    /// Settings, where `/lang <language>` saves the choice (`None`: not saved).
    pub settings: Option<crate::config::settings::Settings>,
}

/// Run the prompts and print. Returns the process exit code.
pub async fn run_print_mode(
    session: &mut AgentSession,
    run: PrintRun,
    signal: &CancellationToken,
) -> i32 {
    if run.output == PrintOutput::Json {
        crate::modes::protocol_out::take_over_stdout();
        let header = serde_json::to_string(session.session.header()).unwrap_or_default();
        write_line(&header);
        let coalescer = crate::modes::coalesce::UpdateCoalescer::new(std::sync::Arc::new(
            |event: &crate::agent::events::AgentEvent| {
                if let Ok(line) = serde_json::to_string(event) {
                    write_line(&line);
                }
            },
        ));
        session.subscribe(Box::new(move |event| coalescer.event(event)));
    }
    let prompts = run
        .initial
        .into_iter()
        .chain(run.messages.into_iter().map(|m| (m, Vec::new())));
    let mut settings = run.settings;
    let mut lang_code = None;
    for (text, images) in prompts {
        // `/lang` is answered here, as the terminal UI does, never sent to the model.
        if super::lang::is_lang_prompt(&text) {
            let args = text.trim_start().trim_start_matches("/lang").trim();
            let (answer, code) = super::lang::run(args, settings.as_mut());
            match run.output {
                PrintOutput::Text => write_line(&for_stream(&answer, Stream::Stdout)),
                PrintOutput::Json => write_line(
                    &serde_json::json!({"type": "lang", "text": answer, "exitCode": code})
                        .to_string(),
                ),
            }
            lang_code = Some(code);
            continue;
        }
        lang_code = None;
        session.prompt(text, images, signal).await;
        if signal.is_cancelled() || session.run_stop().is_some() {
            break;
        }
    }
    if let Err(e) = std::io::stdout().flush() {
        stdout_failed(&e);
    }
    // A limit stopped the run (in JSON mode the `run_stopped` line says why): an error.
    if let Some(stop) = session.run_stop() {
        if run.output == PrintOutput::Text {
            eprintln!("{}", for_stream(&stop.message, Stream::Stderr));
        }
        return 1;
    }
    if let Some(code) = lang_code {
        return code;
    }
    if run.output == PrintOutput::Json {
        return 0;
    }
    // A run that ended on a tool result that failed (a call cut off at the
    // token limit is never run): its reason is the answer.
    let last = session.state.messages.last();
    if let Some(Message::ToolResult(result)) = last.as_deref()
        && result.is_error
    {
        for block in &result.content {
            if let ContentBlock::Text(t) = block {
                eprintln!("{}", for_stream(&t.text, Stream::Stderr));
            }
        }
        return 1;
    }
    let Some(Message::Assistant(last)) = last.as_deref() else {
        return 0;
    };
    match last.stop_reason {
        StopReason::Error | StopReason::Aborted => {
            let mut msg = last
                .error_message
                .clone()
                .unwrap_or_else(|| match last.stop_reason {
                    StopReason::Aborted => t!("pi.print.request_aborted"),
                    _ => t!("pi.print.request_error"),
                });
            if last.stop_reason == StopReason::Error && session.last_attempts > 1 {
                // Retried and given up: the cause, the attempts and what to check.
                let model = &session.config.model;
                msg = crate::ai::error_kind::verdict(
                    session.last_attempts,
                    last.error_kind,
                    &msg,
                    &model.provider,
                    &model.base_url,
                    false,
                );
            } else if is_context_overflow(last, Some(session.config.model.context_window)) {
                msg = t!(
                    "pi.print.context_overflow",
                    window = session.config.model.context_window,
                    error = msg
                );
            }
            eprintln!("{}", for_stream(&msg, Stream::Stderr));
            1
        }
        _ => {
            let mut out = std::io::stdout().lock();
            for block in &last.content {
                if let ContentBlock::Text(t) = block
                    && let Err(e) = writeln!(out, "{}", for_stream(&t.text, Stream::Stdout))
                {
                    stdout_failed(&e);
                }
            }
            if let Err(e) = out.flush() {
                stdout_failed(&e);
            }
            0
        }
    }
}

/// For the end of a one-shot run, once its output is flushed and the session file
/// synced: the conversation's memory goes back to the system with the process, instead
/// of being freed one message at a time just before the exit. That includes the
/// providers, whose request cache holds the last request's copy of the conversation.
pub fn leave_history_to_exit(session: &mut AgentSession) {
    std::mem::forget(std::mem::take(&mut session.state.messages));
    std::mem::forget(std::mem::take(&mut session.config.providers));
    let blank = crate::session::SessionManager::in_memory(session.session.cwd());
    std::mem::forget(std::mem::replace(&mut session.session, blank));
}

/// One JSON line on stdout; pi ends with a clear message when stdout fails.
fn write_line(line: &str) {
    let mut record = Vec::with_capacity(line.len() + 1);
    record.extend_from_slice(line.as_bytes());
    record.push(b'\n');
    crate::modes::protocol_out::write_record(&record);
}
