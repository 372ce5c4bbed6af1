//! The smallest program embedding pi: one prompt, the answer printed as it streams.
//!
//! It uses the models, credentials and settings of pi's agent directory
//! (`PI_CODING_AGENT_DIR`, else `~/.pi/agent`), so any model `pi` can use works:
//!
//! ```text
//! cargo run --example sdk_minimal -- --model anthropic/claude-sonnet-4-5 "What is in this folder?"
//! ```
//!
//! Without `--model`, the default model from settings (or the first one with
//! credentials) answers.

use std::io::Write;
use std::process::ExitCode;

use pi::sdk::{Session, SessionOptions, text_delta};

#[tokio::main]
async fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = SessionOptions::new();
    if let Some(at) = args.iter().position(|a| a == "--model") {
        let Some((provider, id)) = args.get(at + 1).and_then(|m| m.split_once('/')) else {
            eprintln!("--model needs provider/id, e.g. --model anthropic/claude-sonnet-4-5");
            return ExitCode::FAILURE;
        };
        options = options.model(provider, id);
        args.drain(at..at + 2);
    }
    let prompt = match args.is_empty() {
        true => "Say hello in one short sentence.".to_string(),
        false => args.join(" "),
    };

    let session = match Session::create(options).await {
        Ok(session) => session,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    // Print each piece of the answer as it arrives.
    session.subscribe(|event| {
        if let Some(delta) = text_delta(event) {
            print!("{delta}");
            let _ = std::io::stdout().flush();
        }
    });
    match session.prompt(prompt).await {
        Ok(_) => {
            println!();
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
