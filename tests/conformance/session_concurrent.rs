//! A session refuses a second prompt while one runs (unless told to queue it), takes
//! steering and follow-up messages meanwhile, and takes the next prompt once the run is
//! over. Driven as an RPC client drives `pi --mode rpc`, with the offline demo model
//! (its first answer streams a short tour with tool calls).
//! orig-file: packages/coding-agent/test/agent-session-concurrent.test.ts

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

struct Rpc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
    /// Records read while waiting for others.
    seen: Vec<Value>,
    _tmp: tempfile::TempDir,
}

impl Rpc {
    fn start() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let (project, agent) = (tmp.path().join("project"), tmp.path().join("agent"));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&agent).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_pi"))
            .args(["--mode", "rpc", "--provider", "demo", "--no-session"])
            .current_dir(&project)
            .env("PI_CODING_AGENT_DIR", &agent)
            .env("PI_OFFLINE", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Ok(v) = serde_json::from_str::<Value>(&line)
                    && tx.send(v).is_err()
                {
                    break;
                }
            }
        });
        Rpc {
            child,
            stdin,
            lines,
            seen: Vec::new(),
            _tmp: tmp,
        }
    }

    fn send(&mut self, command: Value) {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The first record, read before or now, that satisfies `pred`.
    fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.seen.iter().position(&pred) {
            return self.seen.remove(i);
        }
        loop {
            let v = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no {what} within 30 s"));
            if pred(&v) {
                return v;
            }
            self.seen.push(v);
        }
    }

    fn response(&mut self, id: &str) -> Value {
        self.until(id, |v| v["type"] == "response" && v["id"] == id)
    }

    /// Send a prompt and wait until its run streams.
    fn start_run(&mut self) {
        self.send(json!({"id": "p1", "type": "prompt", "message": "Show me around"}));
        assert_eq!(self.response("p1")["success"], true);
        self.until("streaming", |v| v["type"] == "message_update");
    }

    fn pending(&mut self) -> Value {
        self.send(json!({"id": "s", "type": "get_state"}));
        self.response("s")["data"]["pendingMessageCount"].clone()
    }
}

impl Drop for Rpc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// orig: AgentSession concurrent prompt guard › should throw when prompt() called while streaming
#[test]
fn a_prompt_while_streaming_is_refused() {
    let mut rpc = Rpc::start();
    rpc.start_run();
    rpc.send(json!({"id": "p2", "type": "prompt", "message": "Second message"}));
    let second = rpc.response("p2");
    assert_eq!(second["success"], false);
    assert_eq!(
        second["error"],
        "Agent is already processing. Specify streamingBehavior (\"steer\" or \"followUp\") to queue the message."
    );
    // Told how to queue it, the same prompt is taken.
    rpc.send(json!({"id": "p3", "type": "prompt", "message": "Second message", "streamingBehavior": "followUp"}));
    assert_eq!(rpc.response("p3")["success"], true);
    rpc.send(json!({"id": "a", "type": "abort"}));
    rpc.response("a");
}

/// orig: AgentSession concurrent prompt guard › should allow steer() while streaming
#[test]
fn steering_while_streaming_is_queued() {
    let mut rpc = Rpc::start();
    rpc.start_run();
    rpc.send(json!({"id": "q", "type": "steer", "message": "Steering message"}));
    assert_eq!(rpc.response("q")["success"], true);
    let queued = rpc.until("queue_update", |v| v["type"] == "queue_update");
    assert_eq!(queued["steering"], json!(["Steering message"]));
    rpc.send(json!({"id": "a", "type": "abort"}));
    rpc.response("a");
}

/// orig: AgentSession concurrent prompt guard › should allow followUp() while streaming
#[test]
fn a_follow_up_while_streaming_is_queued() {
    let mut rpc = Rpc::start();
    rpc.start_run();
    rpc.send(json!({"id": "q", "type": "follow_up", "message": "Follow-up message"}));
    assert_eq!(rpc.response("q")["success"], true);
    assert_eq!(rpc.pending(), 1);
    rpc.send(json!({"id": "a", "type": "abort"}));
    rpc.response("a");
}

/// orig: AgentSession concurrent prompt guard › should allow prompt() after previous completes
#[test]
fn a_prompt_after_the_run_ends_is_taken() {
    let mut rpc = Rpc::start();
    rpc.send(json!({"id": "p1", "type": "prompt", "message": "tools"}));
    assert_eq!(rpc.response("p1")["success"], true);
    rpc.until("agent_end", |v| v["type"] == "agent_end");
    rpc.send(json!({"id": "s", "type": "get_state"}));
    assert_eq!(rpc.response("s")["data"]["isStreaming"], false);
    rpc.send(json!({"id": "p2", "type": "prompt", "message": "markdown"}));
    assert_eq!(rpc.response("p2")["success"], true);
    let end = rpc.until("agent_end", |v| v["type"] == "agent_end");
    let user = end["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "user")
        .cloned()
        .unwrap();
    assert!(user["content"].to_string().contains("markdown"));
}

const DUMMY_TOOL: &str = r#"
  pi.registerTool({ name = "dummy", description = "Dummy tool",
    parameters = { type = "object", properties = { q = { type = "string" } }, required = { "q" } },
    execute = function(id, params) return { content = { { type = "text", text = "result:" .. params.q } } } end })
"#;

/// The roles of the message entries of `h`'s session, in order.
fn message_roles(h: &crate::session_harness::Harness) -> Vec<String> {
    h.agent
        .session
        .entries()
        .iter()
        .filter_map(|e| e.as_message().map(|m| m.role().to_string()))
        .collect()
}

/// orig: AgentSession concurrent prompt guard › should wait for queued agent events before emitting tool_call
#[tokio::test]
async fn tool_call_handlers_see_the_answer_saved() {
    use pi::ai::providers::faux::{faux_message, faux_tool_call_with_id};
    let source = format!(
        r#"return function(pi)
{DUMMY_TOOL}
  pi.on("tool_call", function(event, ctx)
    local roles = {{}}
    for _, e in ipairs(ctx.sessionManager.getEntries()) do
      if e.type == "message" then table.insert(roles, e.message.role) end
    end
    pi.appendEntry("snapshot", {{ roles = roles }})
  end)
end"#
    );
    let (mut h, errors) = crate::session_harness::Harness::with_extensions(&[&source]).await;
    assert!(errors.is_empty(), "{errors:?}");
    let mut calls = faux_message(vec![
        faux_tool_call_with_id("toolu_1", "dummy", json!({"q": "x"})),
        faux_tool_call_with_id("toolu_2", "dummy", json!({"q": "y"})),
    ]);
    calls.stop_reason = pi::ai::types::StopReason::ToolUse;
    h.faux.push_message(calls);
    h.faux.push_text("done");
    h.prompt("hi").await;
    let snapshots: Vec<Value> = h
        .agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["customType"] == "snapshot")
        .map(|e| e["data"]["roles"].clone())
        .collect();
    assert_eq!(
        snapshots,
        [json!(["user", "assistant"]), json!(["user", "assistant"])]
    );
    assert_eq!(
        message_roles(&h),
        ["user", "assistant", "toolResult", "toolResult", "assistant"]
    );
}

/// orig: AgentSession concurrent prompt guard › should persist message_end events in order with slow extension handlers
#[tokio::test]
async fn slow_message_end_handlers_keep_the_order() {
    use pi::ai::providers::faux::{faux_message, faux_text, faux_tool_call_with_id};
    let source = format!(
        r#"return function(pi)
{DUMMY_TOOL}
  pi.on("message_end", function(event)
    if event.message.role == "assistant" then pi.sleep(40) end
  end)
end"#
    );
    let (mut h, errors) = crate::session_harness::Harness::with_extensions(&[&source]).await;
    assert!(errors.is_empty(), "{errors:?}");
    let mut calls = faux_message(vec![
        faux_text("calling tool"),
        faux_tool_call_with_id("toolu_1", "dummy", json!({"q": "x"})),
    ]);
    calls.stop_reason = pi::ai::types::StopReason::ToolUse;
    h.faux.push_message(calls);
    h.faux.push_text("done");
    let started = std::time::Instant::now();
    h.prompt("hi").await;
    assert!(
        started.elapsed() >= Duration::from_millis(80),
        "both answers waited"
    );
    assert_eq!(
        message_roles(&h),
        ["user", "assistant", "toolResult", "assistant"]
    );
}
