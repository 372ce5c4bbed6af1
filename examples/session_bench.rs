//! Times loading large sessions: a ~20 MB, 10,000-entry linear session
//! (open, build its context), then a ~50 MB, 25,000-entry session with many
//! branches (open and render its current branch as the interactive UI does,
//! open `/tree`, append one entry).
//!
//! Run with `cargo run --release --example session_bench`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use pi::ai::types::{
    AssistantMessage, ContentBlock, Message, StopReason, ToolCall, ToolResultMessage, Usage,
    UserMessage,
};
use pi::session::SessionManager;
use pi::tui::panels::tree_rows::flatten;
use pi::tui::panels::tree_selector::{TreeFilter, TreeSelector};
use pi::tui::transcript::Transcript;
use pi::tui::transcript::render::{RenderCache, RenderOptions};
use pi::ui_kit::theme::Theme;

const BRANCHED_ENTRIES: usize = 25_000;
const BRANCHED_BYTES: usize = 50 * 1024 * 1024;
/// Every this many entries, the leaf moves back to start a new branch.
const BRANCH_EVERY: usize = 60;
/// How far back a new branch starts.
const BRANCH_BACK: usize = 24;

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
                    raw_arguments: None,
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
    branched(dir.path());
}

/// Median time of one `append_message` (one line written) over `count`.
fn median_append_us(session: &mut SessionManager, count: usize) -> f64 {
    let mut times: Vec<f64> = (0..count)
        .map(|i| {
            let start = Instant::now();
            session.append_message(message(i * 3, 400));
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[count / 2]
}

fn best_of(runs: usize, mut f: impl FnMut() -> f64) -> f64 {
    (0..runs).map(|_| f()).fold(f64::MAX, f64::min)
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// The branched session: open + render the current branch, `/tree`, and
/// appending (a single write per entry, compared with a tiny session).
fn branched(root: &std::path::Path) {
    let cwd = root.join("project");
    let sessions = root.join("branched");
    let body = BRANCHED_BYTES / BRANCHED_ENTRIES * 9 / 10;
    let mut session = SessionManager::create(&cwd, &sessions);
    let mut ids: Vec<String> = Vec::with_capacity(BRANCHED_ENTRIES);
    for i in 0..BRANCHED_ENTRIES {
        if i > 0 && i % BRANCH_EVERY == 0 {
            // Branch back to an assistant entry, then continue with a user turn.
            let back = ids.len() - BRANCH_BACK;
            let at = (back..ids.len()).find(|&k| k % 3 == 1).unwrap_or(back);
            session.branch(&ids[at]).expect("branch");
        }
        ids.push(session.append_message(message(i, body)));
    }
    session.sync().expect("sync");
    let path = session.session_file().expect("persisted").to_path_buf();
    drop(session);
    let bytes = std::fs::metadata(&path).expect("session file").len();

    let options = RenderOptions {
        width: 120,
        tools_expanded: false,
        thinking_expanded: false,
        expand_key: "ctrl+o".into(),
        hidden_thinking_label: None,
        images: Default::default(),
    };
    let theme = Theme::default();
    let mut branch_len = 0;
    let mut open_ms = 0.0;
    let show_ms = best_of(5, || {
        let start = Instant::now();
        let session = SessionManager::open(&path).expect("open");
        open_ms = ms(start);
        let messages = session.build_context().messages;
        branch_len = messages.len();
        let transcript = Transcript::from_messages(&messages.clone().into());
        let mut cache = RenderCache::default();
        let total = cache.update(&transcript, &options, &theme);
        let screen = cache.window(total, 50);
        assert_eq!(screen.len(), 50.min(total));
        ms(start)
    });
    let session = SessionManager::open(&path).expect("open");
    let mut visible = 0;
    let tree_ms = best_of(5, || {
        let start = Instant::now();
        let tree = TreeSelector::new(flatten(&session), TreeFilter::Default);
        let lines = tree.lines(&theme, 120);
        visible = tree.visible_rows().len();
        assert!(lines.len() > 3);
        ms(start)
    });
    drop(session);
    let mut session = SessionManager::open(&path).expect("open");
    let appends = 200;
    let append_us = median_append_us(&mut session, appends);
    // The same on a two-entry session: appending does not depend on size.
    let mut small = SessionManager::create(&cwd, &root.join("small"));
    small.append_message(message(0, 400));
    small.append_message(message(1, 400));
    small.sync().expect("sync");
    let small_us = median_append_us(&mut small, appends);
    session.sync().expect("sync");
    small.sync().expect("sync");

    println!(
        "branched session: {BRANCHED_ENTRIES} entries, {:.1} MB, current branch {branch_len} messages, {visible} tree rows",
        bytes as f64 / (1024.0 * 1024.0)
    );
    println!("open: {open_ms:.1} ms (last run)");
    println!("open + render current branch: {show_ms:.1} ms");
    println!("/tree open (flatten + first frame): {tree_ms:.1} ms");
    println!(
        "append one entry (one write, median): {append_us:.1} µs (two-entry session: {small_us:.1} µs)"
    );
}
