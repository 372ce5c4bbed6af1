//! Times RPC mode: the `get_state` round trip, and how soon the first
//! streamed text delta of a prompt reaches stdout after the mock server wrote
//! the first SSE bytes (headers and the events up to the first delta, in one
//! write; the rest follows 20 ms later).
//!
//! Run with `cargo build --release && cargo run --release --example rpc_bench`
//! (`PI_BIN` overrides the binary, default `target/release/pi`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::sse_builders::AnthropicSse;

const ROUND_TRIPS: usize = 2000;
const PROMPTS: usize = 30;

/// A one-reply-per-connection Anthropic mock: it writes the headers and the
/// first SSE event in one write, notes the time, then sends the rest later.
fn start_mock(first_byte: Arc<Mutex<Vec<Instant>>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let body = AnthropicSse::text_reply("streamed answer").build();
    // The first write holds everything up to and including the first text delta.
    let delta = body.find("content_block_delta").unwrap();
    let cut = delta + body[delta..].find("\n\n").unwrap() + 2;
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            let (head, rest) = body.split_at(cut);
            let (head, rest) = (head.to_string(), rest.to_string());
            let first_byte = first_byte.clone();
            std::thread::spawn(move || {
                read_request(&mut stream);
                let mut first = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n".to_vec();
                first.extend_from_slice(head.as_bytes());
                let at = Instant::now();
                stream.write_all(&first).unwrap();
                first_byte.lock().unwrap().push(at);
                std::thread::sleep(Duration::from_millis(20));
                let _ = stream.write_all(rest.as_bytes());
            });
        }
    });
    port
}

fn read_request(stream: &mut std::net::TcpStream) {
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).unwrap();
        data.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&data);
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if data.len() >= end + 4 + length {
                return;
            }
        }
        if n == 0 {
            return;
        }
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn next(lines: &Receiver<(Instant, Value)>, pred: impl Fn(&Value) -> bool) -> (Instant, Value) {
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(20))
            .expect("pi answers");
        if pred(&line.1) {
            return line;
        }
    }
}

fn main() {
    let bin = std::env::var("PI_BIN").unwrap_or_else(|_| "target/release/pi".into());
    let bin = std::fs::canonicalize(&bin).unwrap_or_else(|e| panic!("no binary at {bin}: {e}"));
    let first_byte = Arc::new(Mutex::new(Vec::new()));
    let port = start_mock(first_byte.clone());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("models.json"),
        json!({"providers": {"mock": {
            "baseUrl": format!("http://127.0.0.1:{port}"), "api": "anthropic-messages",
            "apiKey": "k", "models": [{"id": "mock-model"}]}}})
        .to_string(),
    )
    .unwrap();
    let mut child = Command::new(&bin)
        .args([
            "--mode",
            "rpc",
            "--no-session",
            "--model",
            "mock/mock-model",
        ])
        .env("PI_CODING_AGENT_DIR", dir.path())
        .env("PI_OFFLINE", "1")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            let at = Instant::now();
            let _ = tx.send((at, serde_json::from_str::<Value>(&line).unwrap()));
        }
    });
    let mut send = |v: Value| {
        let mut line = v.to_string();
        line.push('\n');
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.flush().unwrap();
    };

    let mut trips = Vec::new();
    for i in 0..ROUND_TRIPS {
        let sent = Instant::now();
        send(json!({"id": i, "type": "get_state"}));
        let (at, _) = next(&lines, |v| v["type"] == "response" && v["id"] == i);
        trips.push(at - sent);
    }

    let mut firsts = Vec::new();
    for _ in 0..PROMPTS {
        send(json!({"type": "prompt", "message": "hello"}));
        let (at, _) = next(&lines, |v| {
            v["type"] == "message_update" && v["assistantMessageEvent"]["type"] == "text_delta"
        });
        let sse = *first_byte.lock().unwrap().last().unwrap();
        firsts.push(at.saturating_duration_since(sse));
        next(&lines, |v| v["type"] == "agent_end");
    }
    drop(stdin);
    let _ = child.wait();

    let max = |v: &[Duration]| *v.iter().max().unwrap();
    println!(
        "get_state round trip: median {:.3} ms, max {:.3} ms ({ROUND_TRIPS} requests)",
        median(trips.clone()).as_secs_f64() * 1e3,
        max(&trips).as_secs_f64() * 1e3
    );
    println!(
        "first text_delta message_update after the first SSE byte: median {:.3} ms, max {:.3} ms ({PROMPTS} prompts)",
        median(firsts.clone()).as_secs_f64() * 1e3,
        max(&firsts).as_secs_f64() * 1e3
    );
}
