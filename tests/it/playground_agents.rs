//! `pi.spawn` in the extension host, and the multi-agent playground extensions
//! (`extensions/playground/`) driving real pi sub-agents against the mock LLM.

use crate::support;
use crate::support::pi_cli;
use crate::support::rpc_client;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi_cli::PiSandbox;
use rpc_client::RpcClient;
use serde_json::{Value, json};
use support::scenario::tool_results_in;
use support::{CapturedRequest, MockReply, MockServer};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

const API: &str = "anthropic-messages";

// ---------------------------------------------------------------- pi.spawn

const SPAWN_EXT: &str = r#"
return function(pi)
  local function tool(name, run)
    pi.registerTool({ name = name, description = name, parameters = { type = "object", properties = {} },
      execute = function() return { content = { { type = "text", text = pi.json.encode(run()) } } } end })
  end
  tool("stream", function()
    local out, err, exit = {}, {}, nil
    local p = pi.spawn("sh", { "-c", "echo one; echo two >&2; echo three; printf tail" }, {
      onStdout = function(l) out[#out + 1] = l end,
      onStderr = function(l) err[#err + 1] = l end,
      onExit = function(code, killed) exit = { code = code, killed = killed } end,
    })
    local r = p.wait()
    return { out = out, err = err, exit = exit, code = r.code, stdout = r.stdout, stderr = r.stderr,
             running = p.running(), pid = type(p.pid) }
  end)
  tool("input", function()
    local r = pi.spawn("sh", { "-c", "cat; echo \"$SPAWN_VAR\"" }, { stdin = "piped in\n", env = { SPAWN_VAR = "from env" } }).wait()
    return { stdout = r.stdout, code = r.code }
  end)
  tool("kill", function()
    local lines = {}
    local p = pi.spawn("sh", { "-c", "echo ready; sleep 30; echo never" }, { onStdout = function(l) lines[#lines + 1] = l end })
    while #lines == 0 do pi.sleep(10) end
    p.kill()
    local r = p.wait()
    return { lines = lines, killed = r.killed, code = r.code, running = p.running() }
  end)
  pi.registerCommand("bg", { handler = function(args)
    local p = pi.spawn("sh", { "-c", "sleep 60" })
    pi.fs.write(args .. ".pid", tostring(p.pid))
  end })
end
"#;

async fn spawn_host(dir: &Path) -> ExtensionHandle {
    let ext = dir.join("spawner.lua");
    std::fs::write(&ext, SPAWN_EXT).unwrap();
    let handle = ExtensionHandle::start(HostConfig::new(vec![ext], dir), SharedView::new(dir));
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    handle
}

async fn run_tool(h: &ExtensionHandle, name: &str) -> Value {
    let (tx, _rx) = mpsc::unbounded_channel();
    let result = h
        .execute_tool(name, "c1", json!({}), CancellationToken::new(), tx)
        .await
        .unwrap_or_else(|e| panic!("{name} failed: {e}"));
    serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap()
}

fn alive(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks that the process exists.
    unsafe { libc::kill(pid, 0) == 0 }
}

fn wait_dead(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[tokio::test]
async fn spawn_streams_lines_to_callbacks_and_wait_returns_everything() {
    let dir = tempfile::tempdir().unwrap();
    let h = spawn_host(dir.path()).await;
    let r = run_tool(&h, "stream").await;
    assert_eq!(r["out"], json!(["one", "three", "tail"]));
    assert_eq!(r["err"], json!(["two"]));
    assert_eq!(r["exit"], json!({"code": 0, "killed": false}));
    assert_eq!(r["code"], 0);
    assert_eq!(r["stdout"], "one\nthree\ntail");
    assert_eq!(r["stderr"], "two\n");
    assert_eq!(r["running"], false);
    assert_eq!(r["pid"], "number");

    let r = run_tool(&h, "input").await;
    assert_eq!(r["stdout"], "piped in\nfrom env\n");
}

#[tokio::test]
async fn kill_ends_a_running_program_and_wait_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let h = spawn_host(dir.path()).await;
    let started = Instant::now();
    let r = run_tool(&h, "kill").await;
    assert_eq!(r["lines"], json!(["ready"]));
    assert_eq!(r["killed"], true);
    assert_eq!(r["code"], Value::Null);
    assert_eq!(r["running"], false);
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "the sleep was not cut short"
    );
}

#[tokio::test]
async fn spawned_programs_are_killed_on_reload_and_on_quit() {
    let dir = tempfile::tempdir().unwrap();
    let h = spawn_host(dir.path()).await;
    let pid_of = |name: &str| -> i32 {
        std::fs::read_to_string(dir.path().join(format!("{name}.pid")))
            .unwrap()
            .parse()
            .unwrap()
    };
    h.run_command("bg", "first").await.unwrap();
    let first = pid_of("first");
    assert!(alive(first));
    let report = h.reload().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(wait_dead(first), "pid {first} survived /reload");

    h.run_command("bg", "second").await.unwrap();
    let second = pid_of("second");
    assert!(alive(second));
    h.stop_processes().await;
    assert!(wait_dead(second), "pid {second} survived quitting");
}

// ------------------------------------------------------- playground extensions

fn playground(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/playground")
        .join(name)
        .display()
        .to_string()
}

fn write(project: &Path, rel: &str, text: &str) {
    let path = project.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn specialist(project: &Path, rel: &str, name: &str, tools: &str) {
    let text = format!(
        "---\nname: {name}\ndescription: The {name} specialist\ntools: {tools}\n---\nYou are the {name} specialist.\n"
    );
    write(project, rel, &text);
}

fn body(req: &CapturedRequest) -> String {
    req.json.as_ref().map(Value::to_string).unwrap_or_default()
}

fn system(req: &CapturedRequest) -> String {
    req.json
        .as_ref()
        .map(|j| j["system"].to_string())
        .unwrap_or_default()
}

fn tool_names(req: &CapturedRequest) -> Vec<String> {
    req.json
        .as_ref()
        .and_then(|j| j["tools"].as_array())
        .map_or(Vec::new(), |tools| {
            tools
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_string())
                .collect()
        })
}

/// The text of the last user message of a request.
fn last_user_text(req: &CapturedRequest) -> String {
    let messages = req.json.as_ref().unwrap()["messages"].as_array().unwrap();
    let last = messages.iter().rev().find(|m| m["role"] == "user").unwrap();
    match &last["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The main agent: a tool call first, its final words once a tool result is in.
fn main_agent(req: &CapturedRequest, tool: &str, args: Value) -> MockReply {
    if tool_results_in(req) > 0 {
        MockReply::anthropic_text("Main agent wraps up.")
    } else {
        MockReply::anthropic_tool_calls(&[("call-1", tool, args)])
    }
}

fn run_print(sandbox: &PiSandbox, ext: &str, prompt: &str) -> String {
    let out = sandbox.run(
        &[
            "-p",
            "--model",
            "mock/mock-model",
            "-e",
            &playground(ext),
            prompt,
        ],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pi failed: {stdout}\n{stderr}");
    stdout
}

/// The request of the main agent that carries the tool result.
fn final_main_request(server: &MockServer) -> CapturedRequest {
    server
        .requests()
        .into_iter()
        .rfind(|r| tool_results_in(r) > 0)
        .expect("the main agent got a tool result")
}

#[test]
fn agent_team_dispatches_to_a_specialist_subprocess_and_returns_its_answer() {
    let server = MockServer::start();
    server.set_handler(|req| {
        if system(req).contains("You are the builder specialist") {
            MockReply::anthropic_text("BUILT: the widget is ready")
        } else {
            main_agent(
                req,
                "dispatch_agent",
                json!({"agent": "builder", "task": "make the widget"}),
            )
        }
    });
    let sandbox = PiSandbox::with_mock(&server, API);
    specialist(
        &sandbox.project,
        ".pi/agents/builder.md",
        "builder",
        "read,ls",
    );
    specialist(&sandbox.project, ".pi/agents/scout.md", "scout", "read");
    write(
        &sandbox.project,
        ".pi/agents/teams.yaml",
        "# a comment\ncore:\n  - builder\nrecon: [scout]\n",
    );
    let stdout = run_print(&sandbox, "agent-team.lua", "build me a widget");
    assert!(stdout.contains("Main agent wraps up."), "{stdout}");

    let requests = server.requests();
    let first = &requests[0];
    assert_eq!(tool_names(first), vec!["dispatch_agent"]);
    assert!(
        system(first).contains("Active team: core"),
        "{}",
        system(first)
    );
    assert!(system(first).contains("Dispatch as: `builder`"));
    assert!(
        !system(first).contains("`scout`"),
        "only the active team is listed"
    );

    let child = requests
        .iter()
        .find(|r| system(r).contains("You are the builder specialist"))
        .expect("the builder sub-agent called the model");
    assert_eq!(last_user_text(child), "make the widget");
    let mut tools = tool_names(child);
    tools.sort();
    assert_eq!(tools, vec!["ls", "read"]);

    let last = body(&final_main_request(&server));
    assert!(last.contains("BUILT: the widget is ready"), "{last}");
    assert!(
        sandbox
            .project
            .join(".pi/agent-sessions/builder.jsonl")
            .is_file(),
        "the specialist keeps a session for later dispatches"
    );
}

#[test]
fn agent_chain_feeds_each_step_the_previous_answer_and_the_original_request() {
    let server = MockServer::start();
    server.set_handler(|req| {
        let sys = system(req);
        if sys.contains("## Pipeline") {
            // The main agent's prompt lists every step's role too.
            main_agent(req, "run_chain", json!({"task": "make a widget"}))
        } else if sys.contains("You are the planner specialist") {
            MockReply::anthropic_text("PLAN-42")
        } else if sys.contains("You are the builder specialist") {
            MockReply::anthropic_text("BUILD-OK")
        } else {
            main_agent(req, "run_chain", json!({"task": "make a widget"}))
        }
    });
    let sandbox = PiSandbox::with_mock(&server, API);
    specialist(&sandbox.project, ".pi/agents/planner.md", "planner", "read");
    specialist(
        &sandbox.project,
        ".pi/agents/builder.md",
        "builder",
        "read,write",
    );
    write(
        &sandbox.project,
        ".pi/agents/agent-chain.yaml",
        r#"plan-build:
  description: two steps
  steps:
    - agent: planner
      prompt: "Plan: $INPUT"
    - agent: builder
      prompt: "Build from [$INPUT] for [$ORIGINAL] (100% sure)"
"#,
    );
    let stdout = run_print(&sandbox, "agent-chain.lua", "please make a widget");
    assert!(stdout.contains("Main agent wraps up."), "{stdout}");

    let requests = server.requests();
    assert!(tool_names(&requests[0]).contains(&"run_chain".to_string()));
    assert!(
        tool_names(&requests[0]).contains(&"read".to_string()),
        "the main agent keeps its tools"
    );
    let step = |who: &str| {
        requests
            .iter()
            .find(|r| {
                let sys = system(r);
                sys.contains(&format!("You are the {who} specialist"))
                    && !sys.contains("## Pipeline")
            })
            .unwrap_or_else(|| panic!("no {who} request"))
            .clone()
    };
    assert_eq!(last_user_text(&step("planner")), "Plan: make a widget");
    assert_eq!(
        last_user_text(&step("builder")),
        "Build from [PLAN-42] for [make a widget] (100% sure)"
    );
    let last = body(&final_main_request(&server));
    assert!(last.contains("[chain:plan-build] done in"), "{last}");
    assert!(last.contains("BUILD-OK"), "{last}");
}

#[test]
fn pi_pi_asks_every_expert_at_once_and_returns_all_answers() {
    let server = MockServer::start();
    let arrivals: Arc<Mutex<Vec<(String, Instant)>>> = Arc::default();
    let seen = arrivals.clone();
    server.set_handler(move |req| {
        let sys = system(req);
        for name in ["alpha", "beta"] {
            if sys.contains(&format!("You are the {name} specialist")) {
                seen.lock()
                    .unwrap()
                    .push((name.to_string(), Instant::now()));
                // A slow answer: about 4 s, so a second expert started only after
                // the first finished would arrive far later.
                let text = format!("{} ANSWER {}", name.to_uppercase(), "·".repeat(60));
                return MockReply::anthropic_text(&text)
                    .chunked(&[64])
                    .delay(Duration::from_millis(250));
            }
        }
        main_agent(
            req,
            "query_experts",
            json!({"question": "How do widgets work?"}),
        )
    });
    let sandbox = PiSandbox::with_mock(&server, API);
    specialist(
        &sandbox.project,
        ".pi/agents/pi-pi/alpha.md",
        "alpha",
        "read",
    );
    specialist(&sandbox.project, ".pi/agents/pi-pi/beta.md", "beta", "read");
    write(
        &sandbox.project,
        ".pi/agents/pi-pi/pi-orchestrator.md",
        "---\nname: pi-orchestrator\n---\nORCHESTRATE the experts.\n",
    );
    let stdout = run_print(&sandbox, "pi-pi.lua", "research widgets");
    assert!(stdout.contains("Main agent wraps up."), "{stdout}");

    let requests = server.requests();
    assert!(system(&requests[0]).contains("ORCHESTRATE the experts."));
    assert!(system(&requests[0]).contains("`alpha`: The alpha specialist"));
    for name in ["alpha", "beta"] {
        let child = requests
            .iter()
            .find(|r| system(r).contains(&format!("You are the {name} specialist")))
            .unwrap();
        assert_eq!(last_user_text(child), "How do widgets work?");
    }
    let last = body(&final_main_request(&server));
    assert!(
        last.contains("[✓] Alpha") && last.contains("ALPHA ANSWER"),
        "{last}"
    );
    assert!(
        last.contains("[✓] Beta") && last.contains("BETA ANSWER"),
        "{last}"
    );

    let arrivals = arrivals.lock().unwrap();
    assert_eq!(arrivals.len(), 2, "{arrivals:?}");
    let gap = arrivals[1].1.duration_since(arrivals[0].1);
    assert!(
        gap < Duration::from_secs(3),
        "experts ran one after another ({gap:?} apart)"
    );
}

/// Widget lines of `setWidget` requests for `key`, as one string.
fn widget_text(v: &Value, key: &str) -> Option<String> {
    (v["type"] == "extension_ui_request" && v["method"] == "setWidget" && v["widgetKey"] == key)
        .then(|| {
            v["widgetLines"]
                .as_array()
                .map(|l| {
                    l.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .unwrap_or_default()
        })
}

#[test]
fn subagent_widget_shows_a_running_subagent_then_delivers_its_result() {
    let server = MockServer::start();
    server.set_handler(|req| {
        let text = body(req);
        if text.contains("Subagent #1 finished") {
            MockReply::anthropic_text("Thanks, noted.")
        } else if text.contains("and the folders?") {
            MockReply::anthropic_text("There are 2 folders.")
        } else {
            MockReply::anthropic_text("Counting...\nThere are 3 files.")
                .chunked(&[48])
                .delay(Duration::from_millis(100))
        }
    });
    let sandbox = PiSandbox::with_mock(&server, API);
    let ext = playground("subagent-widget.lua");
    let mut rpc =
        RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model", "-e", &ext]));

    rpc.call(json!({"type": "prompt", "message": "/sub count the files"}));
    let running = rpc.wait_for("a running subagent widget", |v| {
        widget_text(v, "subagent-1").is_some_and(|t| t.contains("●"))
    });
    let lines = widget_text(&running.value, "subagent-1").unwrap();
    assert!(lines.contains("Subagent #1  count the files"), "{lines}");
    let done = rpc.wait_for("a finished subagent widget", |v| {
        widget_text(v, "subagent-1").is_some_and(|t| t.contains("✓"))
    });
    let lines = widget_text(&done.value, "subagent-1").unwrap();
    assert!(lines.contains("There are 3 files."), "{lines}");

    // The result comes back as a follow-up that starts a turn of the main agent.
    rpc.wait_for("the main agent's reply", |v| {
        v["type"] == "message_end" && v["message"].to_string().contains("Thanks, noted.")
    });
    rpc.event("agent_end");
    let main = server
        .requests()
        .into_iter()
        .find(|r| body(r).contains("Subagent #1 finished"))
        .unwrap();
    assert!(body(&main).contains("There are 3 files."));

    // Continuing the sub-agent resumes its own conversation.
    rpc.call(json!({"type": "prompt", "message": "/subcont 1 and the folders?"}));
    rpc.wait_for("the continued subagent", |v| {
        widget_text(v, "subagent-1").is_some_and(|t| t.contains("There are 2 folders."))
    });
    let continued = server
        .requests()
        .into_iter()
        .find(|r| last_user_text(r) == "and the folders?")
        .unwrap();
    assert!(
        body(&continued).contains("count the files"),
        "the sub-agent's history is kept"
    );
    assert!(body(&continued).contains("There are 3 files."));

    // Its answer starts another turn of the main agent; commands wait for it.
    rpc.event("agent_end");
    rpc.call(json!({"type": "prompt", "message": "/subrm 1"}));
    rpc.wait_for("the widget removed", |v| {
        widget_text(v, "subagent-1").is_some() && v.get("widgetLines").is_none()
    });
}

#[test]
fn background_subagents_are_stopped_when_pi_quits() {
    let server = MockServer::start();
    server.set_handler(|req| {
        if body(req).contains("wait forever") {
            // The answer never comes: only the sub-agent's exit closes this.
            MockReply::sse(": waiting\n\n").hold_open()
        } else {
            MockReply::anthropic_text("ok")
        }
    });
    let sandbox = PiSandbox::with_mock(&server, API);
    let ext = playground("subagent-widget.lua");
    let mut rpc =
        RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model", "-e", &ext]));
    rpc.call(json!({"type": "prompt", "message": "/sub wait forever"}));
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.request_count() == 0 {
        assert!(
            Instant::now() < deadline,
            "the sub-agent never called the model"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(server.client_disconnects(), 0);
    assert_eq!(rpc.finish(), 0);
    assert!(
        server.wait_for_disconnects(1, Duration::from_secs(20)),
        "the sub-agent outlived pi"
    );
}
