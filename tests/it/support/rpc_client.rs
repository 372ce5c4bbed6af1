//! A client for `pi --mode rpc`: writes commands as JSON lines to the real
//! binary and reads every stdout line on a thread, stamped with the time it
//! arrived. Include it with `#[path = "support/rpc_client.rs"] mod rpc_client;`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// One stdout line and when it arrived.
#[derive(Debug, Clone)]
pub struct Received {
    /// The parsed line.
    pub value: Value,
    /// Arrival time.
    pub at: Instant,
}

/// A running `pi --mode rpc`.
pub struct RpcClient {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Received>,
    /// Every line read so far, in order.
    pub seen: Vec<Received>,
    next_id: u64,
}

impl RpcClient {
    /// Take over a child started with piped stdin and stdout.
    pub fn new(mut child: Child) -> Self {
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let at = Instant::now();
                assert!(buf.ends_with(b"\n"), "every record ends with LF");
                let text = String::from_utf8(buf[..buf.len() - 1].to_vec()).unwrap();
                assert!(!text.ends_with('\r'), "records end with LF only: {text:?}");
                let value: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {text}"));
                if tx.send(Received { value, at }).is_err() {
                    break;
                }
            }
        });
        RpcClient {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
            next_id: 0,
        }
    }

    /// Write one raw line (a LF is appended).
    pub fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Send a command with a fresh id; returns the id.
    pub fn send(&mut self, mut command: Value) -> String {
        self.next_id += 1;
        let id = format!("req-{}", self.next_id);
        command["id"] = json!(id);
        self.send_raw(&command.to_string());
        id
    }

    /// The next line matching `pred` (lines before it are kept in `seen`).
    pub fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Received {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if pred(&line.value) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "timed out waiting for {what}; seen: {:#?}",
                    self.seen.iter().map(|l| &l.value).collect::<Vec<_>>()
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "pi exited while waiting for {what}; seen: {:#?}",
                    self.seen.iter().map(|l| &l.value).collect::<Vec<_>>()
                ),
            }
        }
    }

    /// A line matching `pred` that already arrived (for instance while a command's response
    /// was awaited), else the next one that does.
    pub fn seen_or_wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Received {
        if let Some(line) = self.seen.iter().find(|l| pred(&l.value)) {
            return line.clone();
        }
        self.wait_for(what, pred)
    }

    /// The next event of `kind`.
    pub fn event(&mut self, kind: &str) -> Value {
        self.wait_for(kind, |v| v["type"] == kind).value
    }

    /// The response with `id` (ids are unique, so one that already arrived
    /// while waiting for something else counts).
    pub fn response(&mut self, id: &str) -> Value {
        let is_it = |v: &Value| v["type"] == "response" && v["id"] == id;
        if let Some(seen) = self.seen.iter().find(|l| is_it(&l.value)) {
            return seen.value.clone();
        }
        self.wait_for(&format!("response {id}"), |v| {
            v["type"] == "response" && v["id"] == id
        })
        .value
    }

    /// Send `command` and wait for its response.
    pub fn call(&mut self, command: Value) -> Value {
        let id = self.send(command);
        self.response(&id)
    }

    /// Wait up to `limit` for pi to exit on its own (stdin still open); the exit code,
    /// `None` when it is still running.
    pub fn exit_within(&mut self, limit: Duration) -> Option<i32> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("pi status") {
                return Some(status.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Kill the process at once (SIGKILL) and reap it.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Close stdin and wait for the exit; returns the exit code.
    pub fn finish(mut self) -> i32 {
        drop(self.stdin.take());
        let status = self.child.wait().expect("pi exits");
        status.code().unwrap_or(-1)
    }
}

impl Drop for RpcClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
