//! The `pi.test` table of a test file's Lua state: the scripted model, queued dialog
//! answers, the simulated user, and what a test can look at afterwards.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Lua, LuaSerdeExt, Table, Value as LuaValue};
use serde_json::{Value, json};

use crate::ai::providers::faux::{faux_message, faux_text, faux_tool_call};

use super::harness::TestWorld;
use super::recorder::Answer;
use super::screen::{Verdict, check, render, snapshot_path};

/// What every function of one test file shares.
pub struct FileContext {
    /// The test file.
    pub test: PathBuf,
    /// The extensions each test loads.
    pub extensions: RefCell<Vec<PathBuf>>,
    /// `pi.test.load` was called: the default choice was replaced.
    pub chose: RefCell<bool>,
    /// The running test's world.
    pub world: RefCell<Option<TestWorld>>,
    /// `--update`: accept changed snapshots.
    pub update: bool,
    /// Snapshot files written so far.
    pub written: RefCell<Vec<PathBuf>>,
    /// The runtime sessions run on.
    pub runtime: Arc<tokio::runtime::Runtime>,
}

type Ctx = Rc<FileContext>;

fn err(message: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::runtime(message.to_string())
}

/// JSON as Lua, with `null` as `nil`.
pub fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    let options = mlua::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false);
    lua.to_value_with(value, options)
}

fn with_world<R>(ctx: &Ctx, f: impl FnOnce(&mut TestWorld) -> mlua::Result<R>) -> mlua::Result<R> {
    let mut world = ctx.world.borrow_mut();
    match world.as_mut() {
        Some(world) => f(world),
        None => Err(err(crate::t!("pi.test.outside_test"))),
    }
}

/// The text blocks of a message's JSON, joined, put in its `text` field.
fn with_text(mut message: Value) -> Value {
    let text = match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b["type"] == "text")
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    };
    message["text"] = json!(text);
    message
}

/// Tool calls of `messages` with their results: `{name, args, id, result, is_error, details}`.
pub fn tool_calls(messages: &[Value]) -> Vec<Value> {
    let mut calls: Vec<Value> = Vec::new();
    for message in messages {
        if message["role"] == "assistant" {
            for block in message["content"].as_array().into_iter().flatten() {
                if block["type"] == "toolCall" {
                    calls.push(json!({"id": block["id"], "name": block["name"],
                        "args": block["arguments"]}));
                }
            }
        } else if message["role"] == "toolResult"
            && let Some(call) = calls.iter_mut().find(|c| c["id"] == message["toolCallId"])
        {
            call["result"] = with_text(message.clone())["text"].clone();
            call["is_error"] = message["isError"].clone();
            call["details"] = message["details"].clone();
        }
    }
    calls
}

fn reply_of(lua: &Lua, spec: LuaValue) -> mlua::Result<crate::ai::types::AssistantMessage> {
    let spec: Value = lua.from_value(spec)?;
    let mut content = Vec::new();
    if let Some(text) = spec.as_str().or(spec["text"].as_str()) {
        content.push(faux_text(text));
    }
    for tool in spec["tools"].as_array().into_iter().flatten() {
        let name = tool["name"]
            .as_str()
            .or(tool[0].as_str())
            .unwrap_or_default();
        let args = match (&tool["args"], &tool[1]) {
            (Value::Null, Value::Null) => json!({}),
            (Value::Null, args) | (args, _) => args.clone(),
        };
        content.push(faux_tool_call(name, args));
    }
    Ok(faux_message(content))
}

fn resolve(ctx: &Ctx, raw: &str) -> PathBuf {
    let path = Path::new(raw);
    if path.is_absolute() {
        return path.to_path_buf();
    }
    ctx.test.parent().unwrap_or(Path::new(".")).join(path)
}

/// Install `pi.test` (and `pi.test.model`, `pi.test.answer`) into `lua`'s globals.
pub fn install(lua: &Lua, ctx: Ctx) -> mlua::Result<()> {
    let pi = lua.create_table()?;
    let test = lua.create_table()?;
    install_model(lua, &test, &ctx)?;
    install_answers(lua, &test, &ctx)?;
    install_user(lua, &test, &ctx)?;
    install_views(lua, &test, &ctx)?;
    install_screen(lua, &test, &ctx)?;
    pi.set("test", test)?;
    lua.globals().set("pi", pi)?;
    Ok(())
}

fn install_model(lua: &Lua, test: &Table, ctx: &Ctx) -> mlua::Result<()> {
    let model = lua.create_table()?;
    let delay = Rc::new(RefCell::new(None::<u64>));
    let push = {
        let (c, delay) = (ctx.clone(), delay.clone());
        move |message: crate::ai::types::AssistantMessage| {
            with_world(&c, |w| {
                match delay.borrow_mut().take() {
                    Some(ms) => w.faux.push_fn(move |_, _| {
                        std::thread::sleep(std::time::Duration::from_millis(ms));
                        message.clone()
                    }),
                    None => w.faux.push_message(message),
                }
                Ok(())
            })
        }
    };
    let p = push.clone();
    model.set(
        "reply",
        lua.create_function(move |lua, spec: LuaValue| p(reply_of(lua, spec)?))?,
    )?;
    let p = push.clone();
    model.set(
        "tool",
        lua.create_function(move |lua, (name, args): (String, Option<LuaValue>)| {
            let args: Value = match args {
                Some(a) => lua.from_value(a)?,
                None => json!({}),
            };
            p(faux_message(vec![faux_tool_call(&name, args)]))
        })?,
    )?;
    let p = push;
    model.set(
        "error",
        lua.create_function(move |_, message: String| {
            let mut reply = faux_message(Vec::new());
            reply.stop_reason = crate::ai::types::StopReason::Error;
            reply.error_message = Some(message);
            p(reply)
        })?,
    )?;
    model.set(
        "delay",
        lua.create_function(move |_, ms: u64| {
            *delay.borrow_mut() = Some(ms);
            Ok(())
        })?,
    )?;
    let c = ctx.clone();
    model.set(
        "requests",
        lua.create_function(move |lua, ()| {
            let requests = with_world(&c, |w| Ok(w.faux.requests()))?;
            let list: Vec<Value> = requests
                .iter()
                .map(|r| {
                    let messages: Vec<Value> = r
                        .context
                        .messages
                        .iter()
                        .filter_map(|m| serde_json::to_value(m).ok())
                        .map(with_text)
                        .collect();
                    let tools: Vec<&str> =
                        r.context.tools.iter().map(|t| t.name.as_str()).collect();
                    json!({"system_prompt": r.context.system_prompt, "messages": messages,
                        "tools": tools})
                })
                .collect();
            to_lua(lua, &json!(list))
        })?,
    )?;
    test.set("model", model)
}

fn install_answers(lua: &Lua, test: &Table, ctx: &Ctx) -> mlua::Result<()> {
    let answer = lua.create_table()?;
    let queue = |c: &Ctx, method: &str, reply: Value| {
        with_world(c, |w| {
            w.ui.queue_answer(Answer {
                method: method.to_string(),
                reply,
            });
            Ok(())
        })
    };
    let c = ctx.clone();
    answer.set(
        "confirm",
        lua.create_function(move |_, yes: bool| queue(&c, "confirm", json!({"confirmed": yes})))?,
    )?;
    for method in ["select", "input", "editor"] {
        let c = ctx.clone();
        answer.set(
            method,
            lua.create_function(move |_, value: String| {
                queue(&c, method, json!({"value": value}))
            })?,
        )?;
    }
    let c = ctx.clone();
    answer.set(
        "cancel",
        lua.create_function(move |_, ()| queue(&c, "any", json!({"cancelled": true})))?,
    )?;
    test.set("answer", answer)
}

fn install_user(lua: &Lua, test: &Table, ctx: &Ctx) -> mlua::Result<()> {
    let c = ctx.clone();
    test.set(
        "load",
        lua.create_function(move |_, paths: mlua::Variadic<String>| {
            let paths: Vec<PathBuf> = paths.iter().map(|p| resolve(&c, p)).collect();
            if let Some(missing) = paths.iter().find(|p| !p.exists()) {
                return Err(err(crate::t!(
                    "pi.test.no_extension",
                    path = missing.display().to_string()
                )));
            }
            let mut list = c.extensions.borrow_mut();
            if !c.chose.replace(true) {
                list.clear();
            }
            list.extend(paths);
            if let Some(world) = c.world.borrow_mut().as_mut() {
                if world.session.is_some() {
                    return Err(err(crate::t!("pi.test.load_too_late")));
                }
                world.extensions = list.clone();
            }
            Ok(())
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "send",
        lua.create_function(move |_, text: String| {
            let runtime = c.runtime.clone();
            with_world(&c, |w| runtime.block_on(w.send(&text)).map_err(err))
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "start",
        lua.create_function(move |_, ()| {
            let runtime = c.runtime.clone();
            with_world(&c, |w| {
                runtime
                    .block_on(async { w.session().await.map(|_| ()) })
                    .map_err(err)
            })
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "press",
        lua.create_function(move |_, key: String| {
            let Some(combo) = crate::ui_kit::keybindings::KeyCombo::parse(&key) else {
                return Err(err(crate::t!("pi.test.bad_key", key = key.as_str())));
            };
            let runtime = c.runtime.clone();
            with_world(&c, |w| {
                if !runtime.block_on(w.shortcut(&key)).map_err(err)? {
                    w.ui.key(crossterm::event::KeyEvent::new(combo.code, combo.modifiers));
                }
                Ok(())
            })
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "cwd",
        lua.create_function(move |_, ()| {
            with_world(&c, |w| Ok(w.cwd.to_string_lossy().into_owned()))
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "agent_dir",
        lua.create_function(move |_, ()| {
            with_world(&c, |w| Ok(w.agent_dir.to_string_lossy().into_owned()))
        })?,
    )?;
    Ok(())
}

fn install_views(lua: &Lua, test: &Table, ctx: &Ctx) -> mlua::Result<()> {
    let c = ctx.clone();
    test.set(
        "ui_calls",
        lua.create_function(move |lua, method: Option<String>| {
            let calls = with_world(&c, |w| Ok(w.ui.calls()))?;
            let calls: Vec<Value> = calls
                .into_iter()
                .filter(|r| method.as_deref().is_none_or(|m| r["method"] == m))
                .collect();
            to_lua(lua, &json!(calls))
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "messages",
        lua.create_function(move |lua, ()| {
            let messages = with_world(&c, |w| Ok(w.messages()))?;
            let list: Vec<Value> = messages.into_iter().map(with_text).collect();
            to_lua(lua, &json!(list))
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "tool_calls",
        lua.create_function(move |lua, ()| {
            let runtime = c.runtime.clone();
            let (messages, tools) = with_world(&c, |w| {
                let tools = match w.session.as_ref().and_then(|s| s.agent.extensions()) {
                    Some(bridge) => runtime.block_on(bridge.handle.tools()),
                    None => Vec::new(),
                };
                Ok((w.messages(), tools))
            })?;
            let mut calls = tool_calls(&messages);
            // A call of an extension's tool carries where its `execute` is written.
            for call in &mut calls {
                if let Some(at) = tools
                    .iter()
                    .find(|t| call["name"] == t.name.as_str())
                    .and_then(|t| t.defined_at.clone())
                {
                    call["at"] = json!(at);
                }
            }
            to_lua(lua, &json!(calls))
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "entries",
        lua.create_function(move |lua, kind: Option<String>| {
            let entries = with_world(&c, |w| Ok(w.entries()))?;
            let entries: Vec<Value> = entries
                .into_iter()
                .filter(|e| {
                    kind.as_deref()
                        .is_none_or(|k| e["type"] == k || e["customType"] == k)
                })
                .collect();
            to_lua(lua, &json!(entries))
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "commands",
        lua.create_function(move |lua, ()| {
            let runtime = c.runtime.clone();
            let names = with_world(&c, |w| {
                runtime.block_on(async {
                    let agent = w.session().await.map_err(err)?;
                    let Some(bridge) = agent.extensions() else {
                        return Ok(Vec::new());
                    };
                    Ok(bridge.handle.commands().await)
                })
            })?;
            let list: Vec<Value> = names
                .iter()
                .map(|c| json!({"name": c.name, "description": c.description}))
                .collect();
            to_lua(lua, &json!(list))
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "tools",
        lua.create_function(move |lua, ()| {
            let runtime = c.runtime.clone();
            let names = with_world(&c, |w| {
                runtime.block_on(async {
                    let agent = w.session().await.map_err(err)?;
                    Ok(agent
                        .state
                        .tools
                        .iter()
                        .map(|t| t.name().to_string())
                        .collect::<Vec<_>>())
                })
            })?;
            to_lua(lua, &json!(names))
        })?,
    )?;
    Ok(())
}

fn install_screen(lua: &Lua, test: &Table, ctx: &Ctx) -> mlua::Result<()> {
    let c = ctx.clone();
    test.set(
        "screen",
        lua.create_function(move |_, (width, height): (Option<u16>, Option<u16>)| {
            with_world(&c, |w| {
                Ok(render(
                    &w.ui.feed(),
                    width.unwrap_or(80),
                    height.unwrap_or(24),
                ))
            })
        })?,
    )?;
    let c = ctx.clone();
    test.set(
        "__snapshot",
        lua.create_function(
            move |_, (name, width, height): (String, Option<u16>, Option<u16>)| {
                let screen = with_world(&c, |w| {
                    Ok(render(
                        &w.ui.feed(),
                        width.unwrap_or(80),
                        height.unwrap_or(24),
                    ))
                })?;
                let path = snapshot_path(&c.test, &name);
                match check(&path, &screen, c.update).map_err(err)? {
                    Verdict::Same => Ok(None),
                    Verdict::Written(path) => {
                        c.written.borrow_mut().push(path);
                        Ok(None)
                    }
                    Verdict::Different(diff) => Ok(Some(format!(
                        "{}\n{diff}",
                        crate::t!(
                            "pi.test.snapshot_differs",
                            path = path.display().to_string()
                        )
                    ))),
                }
            },
        )?,
    )?;
    test.set(
        "__diff",
        lua.create_function(|_, (expected, actual): (String, String)| {
            Ok(super::screen::line_diff(&expected, &actual))
        })?,
    )?;
    Ok(())
}
