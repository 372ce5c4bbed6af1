//! Providers that stream from Lua (`pi.registerProvider(name, {streamSimple = ...})`):
//! the model list offers them, the agent streams their replies (text, thinking, tool
//! calls, usage) and runs the tools they call, and their failures reach the user.

use serde_json::Value;

use crate::support::pi_cli::PiSandbox;

const EXTENSION: &str = r#"
return function(pi)
  local function text_of(message)
    if type(message.content) == "string" then return message.content end
    return message.content[1].text
  end
  pi.registerProvider("lua-echo", {
    api = "echo-api",
    apiKey = "echo-key",
    models = { { id = "echo-1", name = "Echo", contextWindow = 8000, maxTokens = 1000 } },
    streamSimple = function(model, context, options, stream)
      local last = context.messages[#context.messages]
      if last.role == "toolResult" then
        stream.push({ type = "start" })
        stream.push({ type = "thinking_delta", delta = "the tool answered" })
        stream.push({ type = "text_delta", delta = "tool said: " .. text_of(last) })
        stream.push({ type = "done", reason = "stop", usage = { input = 10, output = 5, totalTokens = 15 } })
        return
      end
      local text = text_of(last)
      if text:sub(1, 5) == "call " then
        stream.toolCall("call-1", "bash", { command = text:sub(6) })
        stream.done("toolUse")
        return
      end
      if text == "fail" then error("echo backend is down", 0) end
      pi.sleep(5)
      stream.text("echo(" .. model.id .. ", key=" .. tostring(options.apiKey) .. "): ")
      stream.text(text)
      stream.done()
    end,
  })
end
"#;

fn setup() -> (PiSandbox, String) {
    let sandbox = PiSandbox::new();
    let path = sandbox.project.join("echo-provider.lua");
    std::fs::write(&path, EXTENSION).unwrap();
    let path = path.to_string_lossy().into_owned();
    (sandbox, path)
}

#[test]
fn a_lua_stream_provider_answers_prompts_with_its_own_model_and_key() {
    let (sandbox, ext) = setup();
    let out = sandbox.run(&["-e", &ext, "--list-models", "echo"], None);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains("lua-echo") && listed.contains("echo-1"),
        "{listed}"
    );

    let out = sandbox.run(
        &["-e", &ext, "--model", "lua-echo/echo-1", "-p", "hello"],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "echo(echo-1, key=echo-key): hello\n"
    );
}

#[test]
fn tool_calls_streamed_from_lua_run_and_their_results_come_back() {
    let (sandbox, ext) = setup();
    let out = sandbox.run(
        &[
            "-e",
            &ext,
            "--model",
            "lua-echo/echo-1",
            "--mode",
            "json",
            "-p",
            "call echo hi",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let events: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let ends: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "message_end" && e["message"]["role"] == "assistant")
        .collect();
    assert_eq!(ends.len(), 2, "{events:?}");
    let first = &ends[0]["message"];
    assert_eq!(first["stopReason"], "toolUse");
    assert_eq!(first["content"][0]["type"], "toolCall");
    assert_eq!(first["content"][0]["arguments"]["command"], "echo hi");
    assert_eq!(first["api"], "echo-api");
    assert_eq!(first["provider"], "lua-echo");
    let tool_end = events
        .iter()
        .find(|e| e["type"] == "tool_execution_end")
        .expect("the bash tool ran");
    assert_eq!(tool_end["result"]["content"][0]["text"], "hi\n");
    let last = &ends[1]["message"];
    assert_eq!(last["content"][0]["thinking"], "the tool answered");
    assert_eq!(last["content"][1]["text"], "tool said: hi\n");
    assert_eq!(last["usage"]["totalTokens"], 15);
    assert!(
        events.iter().any(|e| e["type"] == "message_update"
            && e["assistantMessageEvent"]["type"] == "thinking_delta"),
        "thinking streams as deltas"
    );
}

#[test]
fn an_error_raised_in_stream_simple_fails_the_request_with_its_message() {
    let (sandbox, ext) = setup();
    let out = sandbox.run(
        &["-e", &ext, "--model", "lua-echo/echo-1", "-p", "fail"],
        None,
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("echo backend is down"), "{stderr}");
}
