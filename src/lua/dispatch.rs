//! Running an event through every handler subscribed to it, with pi's
//! chaining rules: `tool_call` stops at the first block and keeps `input`
//! mutations, `tool_result` merges partial patches, `before_agent_start`
//! chains `systemPrompt`, `input` may transform or handle, `context` may
//! replace messages, `session_before_*` may cancel.

use crate::t;
use mlua::{Function, Table, Value as LuaValue};
use serde_json::Value;

use crate::lua::convert::{to_json, to_lua};
use crate::lua::ctx::make_ctx;
use crate::lua::vm::Vm;

/// The outcome of one dispatch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dispatched {
    /// The event after every handler (with mutations and chained fields).
    pub event: Value,
    /// Every non-nil handler result, in order.
    pub results: Vec<Value>,
    /// For each of `results`, the name and entry file of the extension that returned it.
    pub result_sources: Vec<(String, std::path::PathBuf)>,
    /// Handler failures as `extension: message`.
    pub errors: Vec<String>,
}

impl Dispatched {
    /// The event untouched (no handlers ran).
    pub fn unchanged(event: Value) -> Self {
        Dispatched {
            event,
            ..Dispatched::default()
        }
    }

    /// The first result with `block = true`, as its reason.
    pub fn block_reason(&self) -> Option<String> {
        self.results
            .iter()
            .find(|r| r.get("block").and_then(Value::as_bool) == Some(true))
            .map(|r| {
                r.get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            })
    }

    /// Whether some handler returned `{cancel = true}`.
    pub fn cancelled(&self) -> bool {
        self.results
            .iter()
            .any(|r| r.get("cancel").and_then(Value::as_bool) == Some(true))
    }
}

/// The JSON type name of `v`, as a Lua user would say it.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "nil",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "table",
    }
}

/// Fields a handler of `event_name` may return, with the kind each must have.
fn expected_fields(event_name: &str) -> &'static [(&'static str, &'static str)] {
    match event_name {
        "tool_call" => &[("block", "boolean"), ("reason", "string")],
        "permission" => &[("decision", "string"), ("reason", "string")],
        "tool_result" => &[
            ("content", "list"),
            ("details", "any"),
            ("isError", "boolean"),
        ],
        "before_agent_start" => &[("systemPrompt", "string"), ("message", "table")],
        "context" => &[("messages", "list")],
        "input" => &[("action", "string"), ("text", "string"), ("images", "list")],
        "resources_discover" => &[
            ("skillPaths", "list"),
            ("promptPaths", "list"),
            ("themePaths", "list"),
        ],
        "user_bash" => &[("result", "table"), ("operations", "table")],
        name if name.starts_with("session_before_") => &[
            ("cancel", "boolean"),
            ("compaction", "table"),
            ("summary", "table"),
            ("skipConversationRestore", "boolean"),
        ],
        _ => &[],
    }
}

/// A handler's result that breaks its event's contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeError {
    /// The result is not a table.
    NotATable {
        /// The event.
        event: String,
        /// The Lua type returned.
        got: &'static str,
    },
    /// A field has the wrong type.
    Field {
        /// The event.
        event: String,
        /// The field.
        key: String,
        /// The Lua type it has.
        got: &'static str,
        /// The type it must have.
        want: &'static str,
    },
    /// An `input` handler's `action` pi does not know.
    InputAction {
        /// The action returned.
        action: String,
    },
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            ShapeError::NotATable { event, got } => {
                t!(
                    "pi.ext.shape.not_table",
                    event = event.as_str(),
                    kind = *got
                )
            }
            ShapeError::Field {
                event,
                key,
                got,
                want,
            } => t!(
                "pi.ext.shape.field",
                event = event.as_str(),
                key = key.as_str(),
                kind = *got,
                want = *want
            ),
            ShapeError::InputAction { action } => {
                t!("pi.ext.shape.action", action = action.as_str())
            }
        };
        f.write_str(&text)
    }
}

impl std::error::Error for ShapeError {}

/// Check a handler's result against its event's contract; the error names
/// the field and what it should be.
pub fn check_shape(event_name: &str, result: &Value) -> Result<(), ShapeError> {
    if event_name == "before_provider_request" {
        return Ok(());
    }
    let Value::Object(fields) = result else {
        return Err(ShapeError::NotATable {
            event: event_name.to_string(),
            got: kind(result),
        });
    };
    let expected = expected_fields(event_name);
    for (key, value) in fields {
        let Some((_, want)) = expected.iter().find(|(k, _)| k == key) else {
            continue;
        };
        let ok = match *want {
            "any" => true,
            "list" => {
                matches!(value, Value::Array(_))
                    || (key == "content" && matches!(value, Value::String(_)))
                    || matches!(value, Value::Object(o) if o.is_empty())
            }
            want => kind(value) == want,
        };
        if !ok && !value.is_null() {
            return Err(ShapeError::Field {
                event: event_name.to_string(),
                key: key.clone(),
                got: kind(value),
                want,
            });
        }
    }
    if event_name == "input"
        && let Some(action) = fields.get("action").and_then(Value::as_str)
        && !["continue", "transform", "handled"].contains(&action)
    {
        return Err(ShapeError::InputAction {
            action: action.to_string(),
        });
    }
    Ok(())
}

/// Apply one handler's result to the shared event table; `true` stops the chain.
fn apply_result(event_name: &str, event: &Table, result: &Value, vm: &Vm) -> mlua::Result<bool> {
    let set = |key: &str| -> mlua::Result<()> {
        if let Some(v) = result.get(key) {
            event.set(key, to_lua(&vm.lua, v)?)?;
        }
        Ok(())
    };
    match event_name {
        "tool_call" => Ok(result.get("block").and_then(Value::as_bool) == Some(true)),
        "tool_result" => {
            for key in ["content", "details", "isError"] {
                set(key)?;
            }
            Ok(false)
        }
        "before_agent_start" => {
            set("systemPrompt")?;
            Ok(false)
        }
        "context" => {
            set("messages")?;
            Ok(false)
        }
        "before_provider_request" => {
            event.set("payload", to_lua(&vm.lua, result)?)?;
            Ok(false)
        }
        "input" => match result.get("action").and_then(Value::as_str) {
            Some("transform") => {
                set("text")?;
                set("images")?;
                Ok(false)
            }
            Some("handled") => Ok(true),
            _ => Ok(false),
        },
        name if name.starts_with("session_before_") => {
            Ok(result.get("cancel").and_then(Value::as_bool) == Some(true))
        }
        _ => Ok(false),
    }
}

/// Run `payload` through the handlers of `event_name`.
pub async fn dispatch(vm: &Vm, event_name: &str, payload: Value) -> Dispatched {
    crate::lua::lazy::for_event(vm, event_name, &payload).await;
    let handlers: Vec<(usize, Function)> = vm
        .host
        .reg
        .borrow()
        .handlers
        .iter()
        .filter(|h| h.event == event_name)
        .map(|h| (h.ext, h.func.clone()))
        .collect();
    if handlers.is_empty() {
        return Dispatched::unchanged(payload);
    }
    let lua = &vm.lua;
    let prepared = to_lua(lua, &payload).and_then(|event| {
        let ctx = make_ctx(lua, &vm.host, None)?;
        Ok((event, ctx))
    });
    let (event, ctx) = match prepared {
        Ok((LuaValue::Table(t), ctx)) => (t, ctx),
        Ok(_) => return Dispatched::unchanged(payload),
        Err(e) => {
            return Dispatched {
                errors: vec![format!("cannot prepare {event_name}: {e}")],
                ..Dispatched::unchanged(payload)
            };
        }
    };
    let mut out = Dispatched::default();
    for (ext, func) in handlers {
        vm.host.budget.reset();
        let started = std::time::Instant::now();
        let call = func.call_async::<LuaValue>((event.clone(), ctx.clone()));
        let mut stopped = false;
        let called = if event_name == "session_start" {
            let limit = vm.host.startup_limit;
            tokio::time::timeout(limit, call).await.unwrap_or_else(|_| {
                stopped = true;
                Err(mlua::Error::runtime(t!(
                    "pi.ext.startup_timeout",
                    event = event_name,
                    seconds = crate::tools::args::js_number(limit.as_secs_f64())
                )))
            })
        } else {
            call.await
        };
        // A handler stopped at the bound is named for that, not also as slow.
        crate::lua::profile::record(vm, ext, event_name, started.elapsed(), !stopped);
        let outcome = match called {
            Ok(LuaValue::Nil) => Ok(false),
            Ok(v) => to_json(lua, v).and_then(|result| {
                check_shape(event_name, &result)
                    .map_err(|e| mlua::Error::runtime(e.to_string()))?;
                let stop = apply_result(event_name, &event, &result, vm)?;
                out.results.push(result);
                let source = vm
                    .host
                    .reg
                    .borrow()
                    .extensions
                    .get(ext)
                    .map(|info| (info.name.clone(), info.path.clone()));
                out.result_sources.push(source.unwrap_or_default());
                Ok(stop)
            }),
            Err(e) => Err(e),
        };
        match outcome {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => {
                report(vm, ext, event_name, &e, &mut out.errors);
                if crate::lua::vm::is_memory_error(&e) {
                    drop(func);
                    let _ = vm.lua.gc_collect();
                    let _ = vm.lua.gc_collect();
                }
            }
        }
    }
    out.event = to_json(lua, LuaValue::Table(event)).unwrap_or(payload);
    out
}

/// Report a handler failure once per extension and event kind.
fn report(vm: &Vm, ext: usize, event_name: &str, e: &mlua::Error, errors: &mut Vec<String>) {
    if crate::lua::vm::is_memory_error(e) {
        // The extension filled the VM: disable it so what it holds can be freed
        // and every other extension keeps room to run.
        crate::lua::loader::remove_registrations(vm, ext);
    }
    let mut reg = vm.host.reg.borrow_mut();
    let name = reg.extensions[ext].path.display().to_string();
    let message = t!(
        "pi.ext.handler_failed",
        name = name,
        event = event_name,
        error = crate::lua::tool_exec::error_text(e)
    );
    reg.extensions[ext].measured.last_error = Some(message.clone());
    if reg.reported.insert((ext, event_name.to_string())) {
        vm.host.view.report(format!("Extension error: {message}"));
    }
    errors.push(message);
}
