//! `pi.http.request`: HTTP from Lua on pi's own client (its connection pool and
//! TLS roots), with the whole body at once or streamed in chunks or server-sent
//! events. Calls yield to other handlers while they wait.

use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Duration;

use mlua::{Lua, Table, Value as LuaValue};
use tokio_util::sync::CancellationToken;

use crate::ai::sse::{SseEvent, SseParser};
use crate::lua::api::exec::LuaSignal;
use crate::lua::vm::HostCtx;
use crate::t;

/// The largest body `request` reads into one string (64 MiB); stream larger ones.
pub const MAX_BODY: usize = 64 * 1024 * 1024;

/// Options of `pi.http.request{...}`.
struct RequestOptions {
    method: reqwest::Method,
    url: String,
    headers: Vec<(String, String)>,
    body: Option<Vec<u8>>,
    timeout: Option<Duration>,
    signal: CancellationToken,
    stream: bool,
}

fn request_options(opts: &Table) -> mlua::Result<RequestOptions> {
    let url: String = opts
        .get::<Option<String>>("url")?
        .ok_or_else(|| mlua::Error::runtime("pi.http.request: \"url\" is required"))?;
    let method = opts
        .get::<Option<String>>("method")?
        .unwrap_or_else(|| "GET".into());
    let method =
        reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes()).map_err(|_| {
            mlua::Error::runtime(t!("pi.ext.http.bad_method", method = method.as_str()))
        })?;
    let mut headers = Vec::new();
    if let Some(t) = opts.get::<Option<Table>>("headers")? {
        for pair in t.pairs::<String, String>() {
            headers.push(pair?);
        }
    }
    let signal = match opts.get::<LuaValue>("signal")? {
        LuaValue::UserData(ud) => ud.borrow::<LuaSignal>()?.0.clone(),
        _ => CancellationToken::new(),
    };
    Ok(RequestOptions {
        method,
        url,
        headers,
        body: opts
            .get::<Option<mlua::String>>("body")?
            .map(|s| s.as_bytes().to_vec()),
        timeout: opts
            .get::<Option<u64>>("timeout")?
            .map(Duration::from_millis),
        signal,
        stream: opts.get::<Option<bool>>("stream")?.unwrap_or(false),
    })
}

/// Add `pi.http` to the `pi` table; every request asks `guard` about the URL's host.
pub fn add_http(
    lua: &Lua,
    host: &Rc<HostCtx>,
    guard: &Rc<crate::lua::capabilities::guard::Guard>,
    pi: &Table,
) -> mlua::Result<()> {
    let http = lua.create_table()?;
    let h = host.clone();
    let g = guard.clone();
    http.set(
        "request",
        lua.create_async_function(move |lua, opts: Table| {
            let h = h.clone();
            let allowed = match opts.get::<Option<String>>("url") {
                Ok(Some(url)) => g.net(&url),
                _ => Ok(()),
            };
            async move {
                allowed?;
                let result = request(&lua, opts).await;
                h.budget.reset();
                match result {
                    Ok(t) => Ok((Some(t), None)),
                    Err(Failure::Lua(e)) => Err(e),
                    Err(Failure::Http(f)) => Ok((None, Some(f.to_string()))),
                }
            }
        })?,
    )?;
    pi.set("http", http)
}

/// Why a request gave no response: a bad call (raised) or a failure Lua gets as
/// `nil, message`.
enum Failure {
    Lua(mlua::Error),
    Http(RequestFailure),
}

/// Why a request or a read of its body gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
enum HttpFailure {
    /// The signal fired (or the body was closed).
    Aborted,
    /// The time limit passed.
    TimedOut {
        /// The limit, in milliseconds.
        ms: u128,
    },
    /// The connection failed; the network layer's description.
    Network {
        /// What the network layer said.
        detail: String,
    },
    /// A body read whole is larger than [`MAX_BODY`].
    BodyTooLarge,
    /// One server-sent event is larger than [`MAX_BODY`].
    EventTooLarge,
}

/// An [`HttpFailure`] of the request `request` (`METHOD url`).
struct RequestFailure {
    request: String,
    failure: HttpFailure,
}

impl std::fmt::Display for RequestFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = (MAX_BODY / (1024 * 1024)).to_string();
        let problem = match &self.failure {
            HttpFailure::Aborted => t!("pi.ext.http.aborted"),
            HttpFailure::TimedOut { ms } => t!("pi.ext.http.timed_out", ms = ms.to_string()),
            HttpFailure::Network { detail } => detail.clone(),
            HttpFailure::BodyTooLarge => t!("pi.ext.http.body_too_large", mib = mib),
            HttpFailure::EventTooLarge => t!("pi.ext.http.event_too_large", mib = mib),
        };
        write!(f, "{}: {problem}", self.request)
    }
}

impl HttpFailure {
    /// This failure of `request`.
    fn of(self, request: &str) -> RequestFailure {
        RequestFailure {
            request: request.to_string(),
            failure: self,
        }
    }
}

impl From<mlua::Error> for Failure {
    fn from(e: mlua::Error) -> Self {
        Failure::Lua(e)
    }
}

/// A time limit: when it ends, and the timeout it came from (for the message).
#[derive(Clone, Copy)]
struct Limit {
    until: tokio::time::Instant,
    timeout: Duration,
}

impl Limit {
    /// A limit `timeout` from now, if there is one.
    fn from_now(timeout: Option<Duration>) -> Option<Limit> {
        timeout.map(|timeout| Limit {
            until: tokio::time::Instant::now() + timeout,
            timeout,
        })
    }
}

/// Wait for `work`, giving up when `signal` fires or the `limit` passes.
async fn bounded<T>(
    work: impl Future<Output = T>,
    signal: &CancellationToken,
    limit: Option<Limit>,
) -> Result<T, HttpFailure> {
    let timeout = limit.map(|l| l.timeout);
    let limit = async {
        match limit {
            Some(l) => tokio::time::sleep_until(l.until).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        out = work => Ok(out),
        _ = signal.cancelled() => Err(HttpFailure::Aborted),
        _ = limit => Err(HttpFailure::TimedOut {
            ms: timeout.unwrap_or_default().as_millis(),
        }),
    }
}

async fn request(lua: &Lua, opts: Table) -> Result<Table, Failure> {
    let o = request_options(&opts)?;
    let what = format!("{} {}", o.method, o.url);
    let mut builder = crate::ai::http::client().request(o.method.clone(), &o.url);
    for (name, value) in &o.headers {
        builder = builder.header(name, value);
    }
    if let Some(body) = o.body {
        builder = builder.body(body);
    }
    let limit = Limit::from_now(o.timeout);
    let failed = |e: HttpFailure| Failure::Http(e.of(&what));
    let sent = bounded(builder.send(), &o.signal, limit)
        .await
        .map_err(failed)?;
    let response = sent.map_err(|e| {
        failed(HttpFailure::Network {
            detail: crate::ai::http::network_error(e).message,
        })
    })?;
    let result = lua.create_table()?;
    let status = response.status().as_u16();
    result.set("status", status)?;
    result.set("ok", response.status().is_success())?;
    result.set("url", response.url().as_str())?;
    let headers = lua.create_table()?;
    for (name, value) in response.headers() {
        let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
        let joined = match headers.get::<Option<String>>(name.as_str())? {
            Some(before) => format!("{before}, {value}"),
            None => value,
        };
        headers.set(name.as_str(), joined)?;
    }
    result.set("headers", headers)?;
    let body = Rc::new(tokio::sync::Mutex::new(Body {
        response: Some(response),
        parser: SseParser::new(),
        events: VecDeque::new(),
    }));
    if o.stream {
        add_stream_functions(lua, &result, body, o.signal, what)?;
        return Ok(result);
    }
    let mut guard = body.lock().await;
    let mut all = Vec::new();
    loop {
        let chunk = bounded(guard.chunk(), &o.signal, limit)
            .await
            .and_then(|r| r)
            .map_err(failed)?;
        let Some(chunk) = chunk else { break };
        if all.len() + chunk.len() > MAX_BODY {
            return Err(failed(HttpFailure::BodyTooLarge));
        }
        all.extend_from_slice(&chunk);
    }
    result.set("body", lua.create_string(&all)?)?;
    Ok(result)
}

/// A response body being read.
struct Body {
    /// `None` once it ended or was closed.
    response: Option<reqwest::Response>,
    parser: SseParser,
    events: VecDeque<SseEvent>,
}

impl Body {
    /// The next chunk; `None` at the end.
    async fn chunk(&mut self) -> Result<Option<bytes::Bytes>, HttpFailure> {
        let Some(response) = self.response.as_mut() else {
            return Ok(None);
        };
        match response.chunk().await {
            Ok(Some(c)) => Ok(Some(c)),
            Ok(None) => {
                self.response = None;
                Ok(None)
            }
            Err(e) => {
                self.response = None;
                Err(HttpFailure::Network {
                    detail: crate::ai::http::network_error(e).message,
                })
            }
        }
    }

    /// The next server-sent event; `None` at the end.
    async fn event(&mut self) -> Result<Option<SseEvent>, HttpFailure> {
        loop {
            if let Some(ev) = self.events.pop_front() {
                return Ok(Some(ev));
            }
            match self.chunk().await? {
                Some(bytes) => {
                    let events = &mut self.events;
                    self.parser.push_with(&bytes, |ev| events.push_back(ev));
                    if self.parser.pending_bytes() > MAX_BODY {
                        self.response = None;
                        return Err(HttpFailure::EventTooLarge);
                    }
                }
                None => {
                    self.events.extend(self.parser.finish());
                    return Ok(self.events.pop_front());
                }
            }
        }
    }
}

/// `read(timeoutMs)`, `nextEvent(timeoutMs)` and `close()` of a streamed response.
fn add_stream_functions(
    lua: &Lua,
    result: &Table,
    body: Rc<tokio::sync::Mutex<Body>>,
    signal: CancellationToken,
    what: String,
) -> mlua::Result<()> {
    // `close()` fires this, ending a read under way too.
    let signal = signal.child_token();
    let (b, s, w) = (body.clone(), signal.clone(), what.clone());
    result.set(
        "read",
        lua.create_async_function(move |lua, timeout: Option<u64>| {
            let (b, s, w) = (b.clone(), s.clone(), w.clone());
            async move {
                let mut guard = b.lock().await;
                let out = bounded(guard.chunk(), &s, read_limit(timeout)).await;
                reset_budget(&lua);
                match out.and_then(|r| r) {
                    Ok(Some(chunk)) => Ok((Some(lua.create_string(&chunk)?), None)),
                    Ok(None) => Ok((None, None)),
                    Err(e) => Ok((None, Some(e.of(&w).to_string()))),
                }
            }
        })?,
    )?;
    let (b, s, w) = (body.clone(), signal.clone(), what);
    result.set(
        "nextEvent",
        lua.create_async_function(move |lua, timeout: Option<u64>| {
            let (b, s, w) = (b.clone(), s.clone(), w.clone());
            async move {
                let mut guard = b.lock().await;
                let out = bounded(guard.event(), &s, read_limit(timeout)).await;
                reset_budget(&lua);
                match out.and_then(|r| r) {
                    Ok(Some(ev)) => {
                        let t = lua.create_table()?;
                        t.set("event", ev.event.unwrap_or_else(|| "message".into()))?;
                        t.set("data", ev.data)?;
                        Ok((Some(t), None))
                    }
                    Ok(None) => Ok((None, None)),
                    Err(e) => Ok((None, Some(e.of(&w).to_string()))),
                }
            }
        })?,
    )?;
    result.set(
        "close",
        lua.create_function(move |_, ()| {
            signal.cancel();
            if let Ok(mut guard) = body.try_lock() {
                guard.response = None;
            }
            Ok(())
        })?,
    )
}

/// The limit of one `read`/`nextEvent` given in milliseconds.
fn read_limit(ms: Option<u64>) -> Option<Limit> {
    Limit::from_now(ms.map(Duration::from_millis))
}

fn reset_budget(lua: &Lua) {
    if let Some(host) = lua.app_data_ref::<Rc<HostCtx>>() {
        host.budget.reset();
    }
}
