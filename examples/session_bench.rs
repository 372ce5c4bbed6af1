//! Times loading a large session: writes a ~20 MB, 10,000-entry session to a
//! temporary folder, then measures opening it and building its context.
//!
//! Run with `cargo run --release --example session_bench`.

use std::time::Instant;

use pi::ai::types::{
    AssistantMessage, ContentBlock, Message, StopReason, ToolCall, ToolResultMessage, Usage,
    UserMessage,
};
use pi::session::SessionManager;

const ENTRIES: usize = 10_000;
const TARGET_BYTES: usize = 20 * 1024 * 1024;

fn filler(seed: usize, len: usize) -> String {
    let words = [
        "fn",
        "let",
        "match",
        "\"quoted\"",
        "path/to/file.rs",
        "{ braces }",
        "tab\there",
        "ünïcode",
        "result",
        "=>",
        "line\n",
        "error: expected `;`",
        "0x1f",
        "self.value",
    ];
    let mut text = String::with_capacity(len + 32);
    let mut i = seed;
    while text.len() < len {
        text.push_str(words[i % words.len()]);
        text.push(' ');
        i = i.wrapping_mul(31).wrapping_add(7);
    }
    text
}

fn message(i: usize, body: usize) -> Message {
    match i % 3 {
        0 => Message::User(UserMessage::text(filler(i, body / 4))),
        1 => {
            let mut reply = AssistantMessage::empty("anthropic-messages", "anthropic", "claude-x");
            reply.content = vec![
                ContentBlock::text(filler(i, body / 2)),
                ContentBlock::ToolCall(ToolCall {
                    id: format!("call_{i}"),
                    name: "bash".into(),
                    arguments: serde_json::json!({"command": filler(i, 80)}),
                    thought_signature: None,
                }),
            ];
            reply.usage = Usage {
                input: 1200,
                output: 300,
                total_tokens: 1500,
                ..Usage::default()
            };
            reply.stop_reason = StopReason::ToolUse;
            Message::Assistant(reply)
        }
        _ => Message::ToolResult(ToolResultMessage {
            tool_call_id: format!("call_{}", i - 1),
            tool_name: "bash".into(),
            content: vec![ContentBlock::text(filler(i, body * 2))],
            details: None,
            is_error: false,
            timestamp: 1_700_000_000_000 + i as i64,
        }),
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cwd = dir.path().join("project");
    let sessions = dir.path().join("sessions");
    let body = TARGET_BYTES / ENTRIES * 9 / 10;

    let mut session = SessionManager::create(&cwd, &sessions);
    for i in 0..ENTRIES {
        session.append_message(message(i, body));
    }
    session.sync().expect("sync");
    let path = session.session_file().expect("persisted").to_path_buf();
    drop(session);
    let bytes = std::fs::metadata(&path).expect("session file").len();

    let mut best_open = f64::MAX;
    let mut best_total = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let session = SessionManager::open(&path).expect("open");
        let opened = start.elapsed();
        let context = session.build_context();
        let total = start.elapsed();
        assert_eq!(session.entries().len(), ENTRIES);
        assert_eq!(context.messages.len(), ENTRIES);
        best_open = best_open.min(opened.as_secs_f64() * 1000.0);
        best_total = best_total.min(total.as_secs_f64() * 1000.0);
    }
    println!(
        "session: {ENTRIES} entries, {:.1} MB",
        bytes as f64 / (1024.0 * 1024.0)
    );
    println!("open: {best_open:.1} ms");
    println!("open + build context: {best_total:.1} ms");
}
