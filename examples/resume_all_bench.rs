//! Times `/resume`'s all-folders scope over a folder of sessions: how long until the
//! first session is listed, until the first screenful (10) is, and until every file has
//! been read. Prints one JSON line of milliseconds.
//!
//! Run with `cargo run --release --example resume_all_bench -- <agent>/sessions`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pi::session::list_stream::SessionStream;

fn main() {
    let root = PathBuf::from(std::env::args().nth(1).expect("a sessions folder"));
    let start = Instant::now();
    let mut stream = SessionStream::start(root, |s| s.message_count > 0);
    let (mut first, mut screen, mut count) = (None, None, 0);
    while !stream.is_done() {
        count += stream.take().len();
        let now = start.elapsed().as_secs_f64() * 1000.0;
        if count > 0 && first.is_none() {
            first = Some(now);
        }
        if count >= 10 && screen.is_none() {
            screen = Some(now);
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let all = start.elapsed().as_secs_f64() * 1000.0;
    println!(
        "{{\"first\":{},\"screen\":{},\"all\":{all:.2},\"sessions\":{count}}}",
        first.unwrap_or(all),
        screen.unwrap_or(all)
    );
}
