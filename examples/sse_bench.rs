//! SSE parser throughput on a recorded-style provider stream.
//!
//! Run with `cargo run --release --example sse_bench`; prints MiB/s for a
//! few chunk sizes (network reads are typically 1-16 KiB).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Instant;

use pi::ai::sse::SseParser;

/// An Anthropic-style stream of about `target_bytes`: text, thinking and
/// tool-argument deltas with ASCII, accented and CJK text, plus pings.
fn recorded_stream(target_bytes: usize) -> Vec<u8> {
    let mut out = String::with_capacity(target_bytes + 1024);
    out.push_str("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_bench\",\"usage\":{\"input_tokens\":1200,\"output_tokens\":1}}}\n\n");
    let texts = [
        "Let me look at the ",
        "r\u{e9}sum\u{e9} of the code ",
        "\u{4f60}\u{597d}\u{4e16}\u{754c} ",
        "and fix `fn main()` \\\"quoted\\\" ",
    ];
    let mut i = 0usize;
    while out.len() < target_bytes {
        let kind = i % 7;
        if kind == 6 {
            out.push_str("event: ping\ndata: {\"type\": \"ping\"}\n\n");
        } else if kind == 5 {
            out.push_str("event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\": \\\"src/ma\"}}\r\n\r\n");
        } else {
            out.push_str("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"");
            out.push_str(texts[i % texts.len()]);
            out.push_str("\"}}\n\n");
        }
        i += 1;
    }
    out.into_bytes()
}

fn main() {
    let stream = recorded_stream(64 * 1024 * 1024);
    let mb = stream.len() as f64 / (1024.0 * 1024.0);
    println!("stream: {mb:.1} MiB");
    for chunk_size in [64usize, 1024, 16 * 1024, 256 * 1024] {
        let mut best = f64::MAX;
        let mut events = 0usize;
        for _ in 0..3 {
            let mut parser = SseParser::new();
            let mut count = 0usize;
            let start = Instant::now();
            for chunk in stream.chunks(chunk_size) {
                parser.push_with(chunk, |ev| {
                    count += 1;
                    black_box(ev);
                });
            }
            count += parser.finish().into_iter().count();
            best = best.min(start.elapsed().as_secs_f64());
            events = count;
        }
        println!(
            "chunk {chunk_size:>7} B: {:>8.1} MiB/s ({events} events, {:.1} ms)",
            mb / best,
            best * 1000.0
        );
    }
}
