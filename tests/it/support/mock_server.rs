//! A scriptable mock LLM HTTP server for integration tests.
//!
//! The server binds `127.0.0.1` on a random port and runs on its own thread
//! (with its own tokio runtime), so it works from both `#[test]` and
//! `#[tokio::test]` functions and from tests that spawn the `pi` binary.
//!
//! Every request is captured ([`MockServer::requests`]). Replies come from a
//! FIFO queue ([`MockServer::push`]); when the queue is empty the optional
//! handler ([`MockServer::set_handler`]) answers, else a 500 error. Any path is
//! accepted, so one server can stand in for `/v1/messages` (Anthropic) and
//! `/v1/chat/completions` (OpenAI) alike.
//!
//! ```ignore
//! let server = MockServer::start();
//! server.push(MockReply::anthropic_text("Hello"));
//! server.push(MockReply::status(429).header("retry-after", "1").json_body(json!({"error": {}})));
//! // point a model's baseUrl at server.anthropic_base_url() / server.openai_base_url()
//! ```
//!
//! Connections are always closed after one response, so no pooled connection
//! outlives a test.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::http1::{read_request, reason};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

pub use super::sse_builders::{AnthropicSse, OpenAiSse};

/// Computes a reply from a captured request.
pub type MockHandler = Arc<dyn Fn(&CapturedRequest) -> MockReply + Send + Sync>;

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct CapturedRequest {
    /// HTTP method (`POST`).
    pub method: String,
    /// Path with query string (`/v1/messages`).
    pub path: String,
    /// Headers in arrival order, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// Raw body.
    pub body: Vec<u8>,
    /// The body parsed as JSON, when it is JSON.
    pub json: Option<Value>,
}

impl CapturedRequest {
    /// First value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first `tool` message of a Chat Completions request, as JSON text.
    pub fn tool_message(&self) -> String {
        self.json()["messages"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m["role"] == "tool"))
            .expect("a tool message")
            .to_string()
    }

    /// The JSON body; panics when the body is not JSON.
    pub fn json(&self) -> &Value {
        self.json.as_ref().expect("request body is not JSON")
    }
}

/// How the response body is cut into writes.
#[derive(Debug, Clone)]
enum Chunking {
    Whole,
    /// Piece sizes; the last size repeats until the body is exhausted.
    Sizes(Vec<usize>),
    /// Absolute byte offsets at which to cut.
    SplitAt(Vec<usize>),
}

/// A scripted response.
#[derive(Debug, Clone)]
pub struct MockReply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    chunking: Chunking,
    delay: Duration,
    hold_open: bool,
}

impl MockReply {
    /// A response with `status`, an empty body and no content type.
    pub fn status(status: u16) -> Self {
        MockReply {
            status,
            headers: Vec::new(),
            body: Vec::new(),
            chunking: Chunking::Whole,
            delay: Duration::ZERO,
            hold_open: false,
        }
    }

    /// A 200 `text/event-stream` response with a raw SSE body.
    pub fn sse(body: impl Into<Vec<u8>>) -> Self {
        Self::status(200)
            .header("content-type", "text/event-stream")
            .header("cache-control", "no-cache")
            .body(body)
    }

    /// A JSON response.
    pub fn json(status: u16, value: Value) -> Self {
        Self::status(status).json_body(value)
    }

    /// Add a response header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Replace the body.
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// Replace the body with JSON (sets `content-type: application/json`).
    pub fn json_body(self, value: Value) -> Self {
        self.header("content-type", "application/json")
            .body(value.to_string())
    }

    /// Send the body in pieces of these sizes (the last size repeats), e.g.
    /// `&[1]` for one byte per write.
    pub fn chunked(mut self, sizes: &[usize]) -> Self {
        assert!(sizes.iter().all(|s| *s > 0), "chunk sizes must be positive");
        self.chunking = Chunking::Sizes(sizes.to_vec());
        self
    }

    /// Cut the body at these byte offsets.
    pub fn split_at(mut self, offsets: &[usize]) -> Self {
        self.chunking = Chunking::SplitAt(offsets.to_vec());
        self
    }

    /// Pause between pieces.
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// After the body, keep the response unfinished until the client hangs up.
    pub fn hold_open(mut self) -> Self {
        self.hold_open = true;
        self
    }

    /// The body bytes.
    pub fn body_bytes(&self) -> &[u8] {
        &self.body
    }

    /// A complete Anthropic stream answering with `text`.
    pub fn anthropic_text(text: &str) -> Self {
        Self::anthropic(AnthropicSse::text_reply(text))
    }

    /// A complete Anthropic stream with thinking (and signature) then `text`.
    pub fn anthropic_thinking(thinking: &str, signature: &str, text: &str) -> Self {
        Self::anthropic(
            AnthropicSse::new()
                .message_start("msg_mock", 10)
                .thinking(thinking, signature)
                .text(text)
                .message_delta("end_turn", 5)
                .message_stop(),
        )
    }

    /// A complete Anthropic stream calling tools `(id, name, input)` in one message.
    pub fn anthropic_tool_calls(calls: &[(&str, &str, Value)]) -> Self {
        Self::anthropic(AnthropicSse::tool_calls_reply(calls))
    }

    /// An Anthropic error response (`{"type":"error","error":{type,message}}`).
    pub fn anthropic_error(status: u16, kind: &str, message: &str) -> Self {
        Self::json(
            status,
            serde_json::json!({"type": "error", "error": {"type": kind, "message": message}}),
        )
    }

    /// Any Anthropic stream.
    pub fn anthropic(stream: AnthropicSse) -> Self {
        Self::sse(stream.build())
    }

    /// A complete OpenAI stream answering with `text`.
    pub fn openai_text(text: &str) -> Self {
        Self::openai(OpenAiSse::text_reply(text))
    }

    /// A complete OpenAI stream calling tools `(id, name, arguments)` in one message.
    pub fn openai_tool_calls(calls: &[(&str, &str, Value)]) -> Self {
        Self::openai(OpenAiSse::tool_calls_reply(calls))
    }

    /// An OpenAI error response (`{"error":{message,type,code}}`).
    pub fn openai_error(status: u16, message: &str) -> Self {
        Self::json(
            status,
            serde_json::json!({"error": {"message": message, "type": "invalid_request_error", "code": null}}),
        )
    }

    /// Any OpenAI stream.
    pub fn openai(stream: OpenAiSse) -> Self {
        Self::sse(stream.build())
    }

    fn is_streaming(&self) -> bool {
        self.hold_open
            || !matches!(self.chunking, Chunking::Whole)
            || self
                .headers
                .iter()
                .any(|(k, v)| k.eq_ignore_ascii_case("content-type") && v.contains("event-stream"))
    }

    fn pieces(&self) -> Vec<&[u8]> {
        let body = &self.body[..];
        match &self.chunking {
            Chunking::Whole => vec![body],
            Chunking::Sizes(sizes) => {
                let mut out = Vec::new();
                let mut pos = 0;
                let mut i = 0;
                while pos < body.len() {
                    let size = sizes[i.min(sizes.len() - 1)];
                    let end = (pos + size).min(body.len());
                    out.push(&body[pos..end]);
                    pos = end;
                    i += 1;
                }
                out
            }
            Chunking::SplitAt(offsets) => {
                let mut cuts: Vec<usize> = offsets
                    .iter()
                    .copied()
                    .filter(|o| *o > 0 && *o < body.len())
                    .collect();
                cuts.sort_unstable();
                cuts.dedup();
                let mut out = Vec::new();
                let mut start = 0;
                for cut in cuts.into_iter().chain([body.len()]) {
                    out.push(&body[start..cut]);
                    start = cut;
                }
                out
            }
        }
    }
}

#[derive(Default)]
struct Shared {
    replies: Mutex<VecDeque<MockReply>>,
    handler: Mutex<Option<MockHandler>>,
    requests: Mutex<Vec<CapturedRequest>>,
    disconnects: AtomicUsize,
    connections: AtomicUsize,
    keep_alive: AtomicBool,
}

/// The running server; stops when dropped.
pub struct MockServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: CancellationToken,
}

impl MockServer {
    /// Bind a random port on 127.0.0.1 and start serving on a background thread.
    pub fn start() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind mock server");
        listener
            .set_nonblocking(true)
            .expect("non-blocking listener");
        let addr = listener.local_addr().expect("local addr");
        let shared = Arc::new(Shared::default());
        let shutdown = CancellationToken::new();
        let (s, stop) = (shared.clone(), shutdown.clone());
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("mock server runtime");
            rt.block_on(async move {
                let listener = TcpListener::from_std(listener).expect("tokio listener");
                loop {
                    tokio::select! {
                        _ = stop.cancelled() => break,
                        accepted = listener.accept() => {
                            if let Ok((socket, _)) = accepted {
                                let s = s.clone();
                                tokio::spawn(async move { serve(socket, s).await });
                            }
                        }
                    }
                }
            });
        });
        MockServer {
            addr,
            shared,
            shutdown,
        }
    }

    /// `http://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Base URL for an `anthropic-messages` model (requests go to `/v1/messages`).
    pub fn anthropic_base_url(&self) -> String {
        self.url()
    }

    /// Base URL for an `openai-completions` model (requests go to `/v1/chat/completions`).
    pub fn openai_base_url(&self) -> String {
        format!("{}/v1", self.url())
    }

    /// Queue a reply.
    pub fn push(&self, reply: MockReply) -> &Self {
        self.shared.replies.lock().unwrap().push_back(reply);
        self
    }

    /// Answer with `handler` whenever the queue is empty.
    pub fn set_handler(
        &self,
        handler: impl Fn(&CapturedRequest) -> MockReply + Send + Sync + 'static,
    ) {
        *self.shared.handler.lock().unwrap() = Some(Arc::new(handler));
    }

    /// Replies still queued.
    pub fn pending(&self) -> usize {
        self.shared.replies.lock().unwrap().len()
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<CapturedRequest> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// Number of requests so far.
    pub fn request_count(&self) -> usize {
        self.shared.requests.lock().unwrap().len()
    }

    /// The most recent request.
    pub fn last_request(&self) -> Option<CapturedRequest> {
        self.shared.requests.lock().unwrap().last().cloned()
    }

    /// Keep each connection open for the client's next request (as providers' servers
    /// do) instead of closing it after every response.
    pub fn keep_connections_alive(&self) -> &Self {
        self.shared.keep_alive.store(true, Ordering::SeqCst);
        self
    }

    /// Connections accepted so far.
    pub fn connection_count(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }

    /// Responses the client abandoned before they finished.
    pub fn client_disconnects(&self) -> usize {
        self.shared.disconnects.load(Ordering::SeqCst)
    }

    /// Wait (up to `timeout`) until `client_disconnects()` reaches `n`.
    pub fn wait_for_disconnects(&self, n: usize, timeout: Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        while std::time::Instant::now() < deadline {
            if self.client_disconnects() >= n {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.client_disconnects() >= n
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn serve(mut socket: TcpStream, shared: Arc<Shared>) {
    let _ = socket.set_nodelay(true);
    shared.connections.fetch_add(1, Ordering::SeqCst);
    loop {
        let Some(request) = read_request(&mut socket).await else {
            return;
        };
        let closing = request
            .headers
            .iter()
            .any(|(k, v)| k == "connection" && v.eq_ignore_ascii_case("close"));
        let keep_alive = shared.keep_alive.load(Ordering::SeqCst) && !closing;
        if !answer(&mut socket, &shared, request, keep_alive).await || !keep_alive {
            return;
        }
    }
}

/// Answer one request; whether the connection can take another.
async fn answer(
    socket: &mut TcpStream,
    shared: &Shared,
    request: CapturedRequest,
    keep_alive: bool,
) -> bool {
    shared.requests.lock().unwrap().push(request.clone());
    let queued = shared.replies.lock().unwrap().pop_front();
    let reply = queued.unwrap_or_else(|| {
        let handler = shared.handler.lock().unwrap().clone();
        match handler {
            Some(h) => h(&request),
            None => MockReply::json(
                500,
                serde_json::json!({"error": {"type": "mock_error", "message": "mock server: no reply scripted"}}),
            ),
        }
    });
    let keep_alive = keep_alive && !reply.hold_open;
    if write_reply(socket, &reply, keep_alive).await.is_err() {
        shared.disconnects.fetch_add(1, Ordering::SeqCst);
        return false;
    }
    if reply.hold_open {
        // Wait for the client to hang up (read returns 0 or fails).
        let mut buf = [0u8; 256];
        loop {
            match socket.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
        shared.disconnects.fetch_add(1, Ordering::SeqCst);
        return false;
    }
    true
}

async fn write_reply(
    socket: &mut TcpStream,
    reply: &MockReply,
    keep_alive: bool,
) -> std::io::Result<()> {
    let streaming = reply.is_streaming();
    let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if streaming {
        head.push_str("transfer-encoding: chunked\r\n");
    } else {
        head.push_str(&format!("content-length: {}\r\n", reply.body.len()));
    }
    head.push_str(if keep_alive {
        "connection: keep-alive\r\n\r\n"
    } else {
        "connection: close\r\n\r\n"
    });
    socket.write_all(head.as_bytes()).await?;
    if !streaming {
        socket.write_all(&reply.body).await?;
        return socket.flush().await;
    }
    for (i, piece) in reply.pieces().into_iter().enumerate() {
        if piece.is_empty() {
            continue;
        }
        if i > 0 && !reply.delay.is_zero() {
            tokio::time::sleep(reply.delay).await;
        }
        let mut frame = format!("{:x}\r\n", piece.len()).into_bytes();
        frame.extend_from_slice(piece);
        frame.extend_from_slice(b"\r\n");
        socket.write_all(&frame).await?;
        socket.flush().await?;
    }
    if !reply.hold_open {
        socket.write_all(b"0\r\n\r\n").await?;
        socket.flush().await?;
    }
    Ok(())
}
