//! Driving a session from code: a chosen tool set, every event watched, a steering
//! message sent while the agent works, a model switch, and a run aborted mid-answer.
//!
//! ```text
//! cargo run --example sdk_session_control -- --model anthropic/claude-sonnet-4-5 \
//!     --switch-to anthropic/claude-haiku-4-5
//! ```
//!
//! Without `--switch-to`, the next model with credentials is used (the switch is
//! skipped when there is only one).

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use pi::sdk::{
    Event, ModelRef, SdkError, Session, SessionOptions, StopReason, ThinkingLevel, event_type,
    text_delta,
};

/// `--name provider/id` from the command line.
fn model_arg(args: &[String], name: &str) -> Option<(String, String)> {
    let at = args.iter().position(|a| a == name)?;
    let (provider, id) = args.get(at + 1)?.split_once('/')?;
    Some((provider.to_string(), id.to_string()))
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), SdkError> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Only the read-only tools; nothing is written to disk.
    let mut options = SessionOptions::new()
        .tools(["read", "ls"])
        .thinking(ThinkingLevel::Off)
        .append_system_prompt("Answer briefly.");
    if let Some((provider, id)) = model_arg(&args, "--model") {
        options = options.model(provider, id);
    }
    let session = Session::create(options).await?;

    // Watch every event. The first tool call triggers a steering message, which
    // the model sees before it is asked again.
    let steered = Arc::new(AtomicBool::new(false));
    let handle = session.clone();
    session.subscribe(move |event: &Event| match event {
        Event::ToolExecutionStart {
            tool_name, args, ..
        } => {
            println!("[tool] {tool_name} {args}");
            if !steered.swap(true, Ordering::SeqCst) {
                handle.steer("Keep the answer under ten words.");
            }
        }
        Event::QueueUpdate { steering, .. } if !steering.is_empty() => {
            println!("[steering] {}", steering.join(" | "));
        }
        Event::MessageUpdate { .. } => {}
        other => println!("[{}]", event_type(other)),
    });

    println!("== prompt 1");
    let reply = session.prompt("List the files in this folder.").await?;
    println!("answer: {}", reply.text());

    let current = session.state().model;
    let next = match model_arg(&args, "--switch-to") {
        Some((provider, id)) => Some((provider, id)),
        None => session
            .available_models()
            .await
            .into_iter()
            .find(|m| *m != current)
            .map(|m| (m.provider, m.id)),
    };
    if let Some((provider, id)) = next {
        let ModelRef { provider, id, .. } = session.set_model(&provider, &id).await?;
        println!("== switched to {provider}/{id}");
        let reply = session.prompt("Say hello.").await?;
        println!("answer: {}", reply.text());
    }

    // Abort a run as soon as its answer starts streaming.
    println!("== prompt 3 (aborted)");
    let mut events = session.events();
    let running = session.clone();
    let story = tokio::spawn(async move { running.prompt("Write a very long story.").await });
    while let Some(event) = events.recv().await {
        if text_delta(&event).is_some() {
            session.abort();
            break;
        }
    }
    let partial = story.await.map_err(|e| SdkError::Failed(e.to_string()))??;
    let aborted = partial.stop_reason == StopReason::Aborted;
    println!("aborted: {aborted}, partial answer: {}", partial.text());

    let state = session.state();
    println!(
        "messages: {}, model: {}/{}",
        state.message_count, state.model.provider, state.model.id
    );
    session.close().await
}
