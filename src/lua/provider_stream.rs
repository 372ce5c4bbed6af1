//! Providers that stream from Lua: `pi.registerProvider(name, {streamSimple = fn})`.
//!
//! The agent asks [`LuaStreamProvider`] (the provider registry's fallback) for a reply on an
//! api no built-in serves; it sends the request to the extension thread, where
//! `streamSimple(model, context, options, stream)` runs as a coroutine and reports the
//! reply through `stream.push(event)` with pi-ai's event types. Each event crosses back as
//! a [`StreamEvent`] and is applied to the [`MessageBuilder`], which produces the events
//! and the final message exactly as a built-in provider's would.

use async_trait::async_trait;
use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::ai::events::MessageBuilder;
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::ai::types::{StopReason, Usage};
use crate::lua::api::exec::LuaSignal;
use crate::lua::convert::{to_json, to_lua};
use crate::lua::error::{ExtensionError, LuaFailure};
use crate::lua::handle::ExtensionHandle;
use crate::lua::vm::Vm;

/// One step of a reply streamed from Lua.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// `start`.
    Start,
    /// `text_start`.
    TextStart,
    /// `text_delta`.
    TextDelta(String),
    /// `thinking_start`.
    ThinkingStart,
    /// `thinking_delta`.
    ThinkingDelta(String),
    /// `text_end`, `thinking_end` or `toolcall_end`: close the open block.
    BlockEnd,
    /// `toolcall_start` with the call's id and name.
    ToolCallStart { id: String, name: String },
    /// `toolcall_delta`: a fragment of the arguments' JSON.
    ToolCallDelta(String),
    /// The usage so far.
    Usage(Value),
    /// `done` with its reason.
    Done(StopReason),
    /// `error` with its message.
    Error(String),
    /// Stream the reply with pi's built-in wire protocol `api` instead.
    Forward(Forward),
}

/// Where `stream.forward` sends the request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Forward {
    /// A built-in wire protocol (`anthropic-messages`, `openai-responses`, ...).
    pub api: String,
    /// The endpoint (default: the model's).
    pub base_url: Option<String>,
    /// The key (default: the request's).
    pub api_key: Option<String>,
    /// Headers added to the request's.
    pub headers: std::collections::BTreeMap<String, String>,
    /// The model id the endpoint knows (default: the model's).
    pub model: Option<String>,
}

/// The registry's fallback provider: every api a Lua provider streams.
pub struct LuaStreamProvider {
    handle: ExtensionHandle,
    builtin: crate::ai::stream::ProviderRegistry,
}

impl LuaStreamProvider {
    /// Serve the streaming providers of the extensions behind `handle`.
    pub fn new(handle: ExtensionHandle) -> Self {
        LuaStreamProvider {
            handle,
            builtin: crate::ai::stream::ProviderRegistry::builtin(),
        }
    }
}

/// The request as the Lua function's `model`, `context` and `options` arguments.
fn request_json(req: &StreamRequest) -> (Value, Value, Value) {
    let model = serde_json::to_value(&req.model).unwrap_or(Value::Null);
    let tools: Vec<Value> = req
        .context
        .tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "parameters": t.parameters}))
        .collect();
    let context = json!({
        "systemPrompt": req.context.system_prompt,
        "messages": serde_json::to_value(&req.context.messages).unwrap_or(Value::Null),
        "tools": tools,
    });
    let o = &req.options;
    let options = json!({
        "apiKey": o.api_key,
        "maxTokens": o.max_tokens,
        "temperature": o.temperature,
        "reasoning": o.reasoning.map(|r| serde_json::to_value(r).unwrap_or(Value::Null)),
        "sessionId": o.session_id,
        "headers": o.headers,
    });
    (model, context, options)
}

#[async_trait]
impl ApiProvider for LuaStreamProvider {
    fn api(&self) -> &str {
        "extension-stream"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let (model, context, options) = request_json(req);
        let (tx, mut rx) = mpsc::unbounded_channel();
        let run = self.handle.stream_provider(
            &req.model.api,
            [model, context, options],
            req.options.signal.clone(),
            tx,
        );
        tokio::pin!(run);
        let mut state = Applied::default();
        let result = loop {
            tokio::select! {
                Some(event) = rx.recv() => state.apply(event, out)?,
                result = &mut run => break result,
            }
        };
        while let Ok(event) = rx.try_recv() {
            state.apply(event, out)?;
        }
        result.map_err(|e| ProviderError::new(e.to_string()))?;
        match state.forward.take() {
            Some(forward) => self.forward(req, forward, out).await,
            None => Ok(()),
        }
    }
}

impl LuaStreamProvider {
    /// Run the request with the built-in protocol `forward.api`, into `out`.
    async fn forward(
        &self,
        req: &StreamRequest,
        forward: Forward,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let Some(provider) = self.builtin.get(&forward.api) else {
            return Err(ProviderError::new(format!(
                "stream.forward: \"{}\" is not one of pi's wire protocols",
                forward.api
            )));
        };
        let mut model = req.model.clone();
        model.api = forward.api;
        if let Some(base_url) = forward.base_url {
            model.base_url = base_url;
        }
        if let Some(id) = forward.model {
            model.id = id;
        }
        let mut options = req.options.clone();
        if forward.api_key.is_some() {
            options.api_key = forward.api_key;
        }
        options.headers.extend(forward.headers);
        let inner = StreamRequest {
            model,
            context: req.context.clone(),
            options,
        };
        provider.stream(&inner, out).await
    }
}

/// What has been applied to the builder so far.
#[derive(Default)]
struct Applied {
    started: bool,
    tool: Option<usize>,
    /// `stream.forward` was called: the built-in protocol produces the reply.
    forward: Option<Forward>,
}

impl Applied {
    fn apply(&mut self, event: StreamEvent, out: &mut MessageBuilder) -> Result<(), ProviderError> {
        if out.is_finished() || self.forward.is_some() {
            return Ok(());
        }
        if let StreamEvent::Forward(forward) = event {
            if self.started {
                return Err(ProviderError::new(
                    "stream.forward must come before any other event of the reply",
                ));
            }
            self.forward = Some(forward);
            return Ok(());
        }
        if !self.started {
            self.started = true;
            out.start();
        }
        match event {
            StreamEvent::Start => {}
            StreamEvent::TextStart => {
                out.text_start();
            }
            StreamEvent::TextDelta(delta) => out.text_delta(&delta),
            StreamEvent::ThinkingStart => {
                out.thinking_start();
            }
            StreamEvent::ThinkingDelta(delta) => out.thinking_delta(&delta),
            StreamEvent::BlockEnd => out.end_block(),
            StreamEvent::ToolCallStart { id, name } => {
                self.tool = Some(out.toolcall_start(&id, &name));
            }
            StreamEvent::ToolCallDelta(delta) => {
                let idx = match self.tool.or_else(|| out.open_toolcall()) {
                    Some(idx) => idx,
                    None => {
                        let idx = out.toolcall_start("", "");
                        self.tool = Some(idx);
                        idx
                    }
                };
                out.toolcall_delta(idx, &delta);
            }
            StreamEvent::Usage(value) => {
                if let Ok(usage) = serde_json::from_value::<Usage>(value) {
                    out.set_usage(usage);
                }
            }
            StreamEvent::Done(reason) => out.done(reason),
            StreamEvent::Error(message) => return Err(ProviderError::new(message)),
            StreamEvent::Forward(_) => {}
        }
        Ok(())
    }
}

/// Run the `streamSimple` of the provider serving `api` on the extension thread, sending
/// its events to `events`. `Err` holds the message of a failure (no such provider, or an
/// error raised by the function).
pub async fn run_stream(
    vm: &Vm,
    api: &str,
    request: [Value; 3],
    signal: CancellationToken,
    events: mpsc::UnboundedSender<StreamEvent>,
) -> Result<(), ExtensionError> {
    let function = vm
        .host
        .reg
        .borrow()
        .streams
        .iter()
        .find(|(a, ..)| a == api)
        .map(|(_, _, f, _)| f.clone());
    let Some(function) = function else {
        return Err(ExtensionError::NoStreamProvider {
            api: api.to_string(),
        });
    };
    let lua = &vm.lua;
    let prepared = (|| {
        let [model, context, options] = &request;
        let options = match to_lua(lua, options)? {
            LuaValue::Table(t) => t,
            _ => lua.create_table()?,
        };
        options.set("signal", LuaSignal(signal.clone()))?;
        Ok::<_, mlua::Error>((
            to_lua(lua, model)?,
            to_lua(lua, context)?,
            options,
            emitter(lua, events)?,
        ))
    })();
    let failed = |e: mlua::Error| ExtensionError::Stream(LuaFailure::of(&e));
    let args = prepared.map_err(failed)?;
    vm.host.budget.reset();
    function.call_async::<()>(args).await.map_err(failed)
}

/// The `stream` object handed to `streamSimple`.
fn emitter(lua: &Lua, events: mpsc::UnboundedSender<StreamEvent>) -> mlua::Result<Table> {
    let stream = lua.create_table()?;
    let tx = events.clone();
    stream.set(
        "push",
        lua.create_function(move |lua, event: Table| {
            for e in event_from(lua, &event)? {
                let _ = tx.send(e);
            }
            Ok(())
        })?,
    )?;
    let tx = events.clone();
    stream.set(
        "text",
        lua.create_function(move |_, delta: String| {
            let _ = tx.send(StreamEvent::TextDelta(delta));
            Ok(())
        })?,
    )?;
    let tx = events.clone();
    stream.set(
        "thinking",
        lua.create_function(move |_, delta: String| {
            let _ = tx.send(StreamEvent::ThinkingDelta(delta));
            Ok(())
        })?,
    )?;
    let tx = events.clone();
    stream.set(
        "toolCall",
        lua.create_function(move |lua, (id, name, args): (String, String, LuaValue)| {
            let arguments = match args {
                LuaValue::Nil => "{}".to_string(),
                v => serde_json::to_string(&to_json(lua, v)?).map_err(mlua::Error::external)?,
            };
            let _ = tx.send(StreamEvent::ToolCallStart { id, name });
            let _ = tx.send(StreamEvent::ToolCallDelta(arguments));
            let _ = tx.send(StreamEvent::BlockEnd);
            Ok(())
        })?,
    )?;
    let tx = events.clone();
    stream.set(
        "done",
        lua.create_function(move |_, reason: Option<String>| {
            let _ = tx.send(StreamEvent::Done(stop_reason(reason.as_deref())?));
            Ok(())
        })?,
    )?;
    let tx = events.clone();
    stream.set(
        "forward",
        lua.create_function(move |_, (api, opts): (String, Option<Table>)| {
            let mut forward = Forward {
                api,
                ..Forward::default()
            };
            if let Some(o) = opts {
                forward.base_url = o.get("baseUrl")?;
                forward.api_key = o.get("apiKey")?;
                forward.model = o.get("model")?;
                if let Some(h) = o.get::<Option<Table>>("headers")? {
                    for pair in h.pairs::<String, String>() {
                        let (k, v) = pair?;
                        forward.headers.insert(k, v);
                    }
                }
            }
            let _ = tx.send(StreamEvent::Forward(forward));
            Ok(())
        })?,
    )?;
    let tx = events;
    stream.set(
        "error",
        lua.create_function(move |_, message: String| {
            let _ = tx.send(StreamEvent::Error(message));
            Ok(())
        })?,
    )?;
    Ok(stream)
}

fn stop_reason(reason: Option<&str>) -> mlua::Result<StopReason> {
    Ok(match reason {
        None | Some("stop") => StopReason::Stop,
        Some("length") => StopReason::Length,
        Some("toolUse") => StopReason::ToolUse,
        Some(other) => {
            return Err(mlua::Error::runtime(format!(
                "stream: stop reason must be \"stop\", \"length\" or \"toolUse\", got \"{other}\""
            )));
        }
    })
}

/// A pi-ai event table (`{type = "text_delta", delta = "..."}` ...) as [`StreamEvent`]s
/// (`done` may carry the usage).
fn event_from(lua: &Lua, event: &Table) -> mlua::Result<Vec<StreamEvent>> {
    let kind: String = event.get("type")?;
    let text = |key: &str| -> mlua::Result<String> {
        Ok(event.get::<Option<String>>(key)?.unwrap_or_default())
    };
    Ok(vec![match kind.as_str() {
        "start" => StreamEvent::Start,
        "text_start" => StreamEvent::TextStart,
        "text_delta" => StreamEvent::TextDelta(text("delta")?),
        "thinking_start" => StreamEvent::ThinkingStart,
        "thinking_delta" => StreamEvent::ThinkingDelta(text("delta")?),
        "text_end" | "thinking_end" | "toolcall_end" => StreamEvent::BlockEnd,
        "toolcall_start" => StreamEvent::ToolCallStart {
            id: text("id")?,
            name: text("name")?,
        },
        "toolcall_delta" => StreamEvent::ToolCallDelta(text("delta")?),
        "usage" => StreamEvent::Usage(to_json(lua, event.get::<LuaValue>("usage")?)?),
        "done" => {
            let done = StreamEvent::Done(stop_reason(
                event.get::<Option<String>>("reason")?.as_deref(),
            )?);
            return Ok(match event.get::<LuaValue>("usage")? {
                LuaValue::Nil => vec![done],
                usage => vec![StreamEvent::Usage(to_json(lua, usage)?), done],
            });
        }
        "error" => StreamEvent::Error(
            event
                .get::<Option<String>>("errorMessage")?
                .or(event.get::<Option<String>>("message")?)
                .unwrap_or_else(|| "Provider stream failed".into()),
        ),
        other => {
            return Err(mlua::Error::runtime(format!(
                "stream.push: unknown event type \"{other}\" (start, text_start, text_delta, text_end, \
                 thinking_start, thinking_delta, thinking_end, toolcall_start, toolcall_delta, \
                 toolcall_end, usage, done, error)"
            )));
        }
    }])
}
