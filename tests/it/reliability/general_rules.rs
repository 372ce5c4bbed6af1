//! Rules that hold everywhere: files pi writes are replaced whole or not at
//! all, non-regular files are refused, a failed stdout ends pi with a message,
//! a tool call cut off at the token limit never runs, and extensions cannot
//! loop or recurse pi without a bound.

use super::*;
use serde_json::json;
use std::os::unix::process::CommandExt;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `pi` with `args` in the sandbox, its files limited to `max_file_bytes`.
fn with_file_limit(
    sandbox: &PiSandbox,
    args: &[&str],
    max_file_bytes: u64,
) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pi"));
    cmd.args(args)
        .current_dir(&sandbox.project)
        .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
        .env("PI_OFFLINE", "1")
        .stdin(std::process::Stdio::null());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let rlim = libc::rlimit {
                rlim_cur: max_file_bytes,
                rlim_max: max_file_bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &rlim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.output().unwrap()
}

#[test]
fn a_file_size_limit_during_install_leaves_settings_byte_for_byte() {
    let sandbox = PiSandbox::new();
    let original = "{\n  \"theme\": \"dark\",\n  \"packages\": [\"./old\"]\n}\n";
    sandbox.write_agent_file("settings.json", original);
    let pkg = sandbox.project.join("pkg");
    std::fs::create_dir_all(pkg.join("skills")).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        r#"{"name": "pkg", "version": "1.0.0"}"#,
    )
    .unwrap();
    let out = with_file_limit(&sandbox, &["install", "./pkg"], 0);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("settings.json"), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
    let settings = sandbox.agent_dir.join("settings.json");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);
    let leftovers: Vec<_> = std::fs::read_dir(&sandbox.agent_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_kill_during_settings_writes_never_leaves_a_torn_file() {
    let sandbox = PiSandbox::new();
    let pkg = sandbox.project.join("pkg");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        r#"{"name": "pkg", "version": "1.0.0"}"#,
    )
    .unwrap();
    let filler: Vec<String> = (0..2000).map(|i| format!("./filler-{i}")).collect();
    let original = serde_json::to_string_pretty(&json!({"extensions": filler})).unwrap();
    let settings = sandbox.agent_dir.join("settings.json");
    for round in 0..12u64 {
        std::fs::write(&settings, &original).unwrap();
        let mut child = sandbox.spawn(&["install", "./pkg"]);
        std::thread::sleep(Duration::from_millis(5 + round * 7));
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read_to_string(&settings).unwrap();
        let parsed: Value = serde_json::from_str(&now)
            .unwrap_or_else(|e| panic!("round {round}: torn settings.json ({e})"));
        assert_eq!(parsed["extensions"].as_array().unwrap().len(), 2000);
    }
}

#[tokio::test]
async fn read_refuses_a_fifo_and_dev_zero_at_once() {
    use pi::agent::tool::{AgentTool, ToolContext};
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for (path, kind) in [
        ("pipe", "a named pipe (FIFO)"),
        ("/dev/zero", "a character device"),
    ] {
        let started = Instant::now();
        let err = pi::tools::ReadTool::new()
            .execute("c", json!({"path": path}), ToolContext::new(dir.path()))
            .await
            .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(1), "{path}");
        let message = err.to_string();
        assert!(message.contains(kind), "{message}");
        assert!(message.contains("not a regular file"), "{message}");
    }
}

/// pi's own peak memory (`VmHWM`, KiB) while it runs. (`wait4`'s peak would
/// count the test process's pages the child saw before `exec`.)
fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn the_model_reading_dev_zero_gets_an_error_and_pi_stays_small() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "read",
        json!({"path": "/dev/zero"}),
    )]));
    let pid = Arc::new(AtomicU32::new(0));
    let peak = Arc::new(AtomicU64::new(0));
    let (pid_seen, peak_seen) = (pid.clone(), peak.clone());
    // Answered after the tool ran: measure pi's peak memory then.
    server.set_handler(move |_| {
        let kib = peak_memory_kib(pid_seen.load(Ordering::SeqCst)).unwrap_or(u64::MAX);
        peak_seen.store(kib, Ordering::SeqCst);
        MockReply::openai_text("understood")
    });
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let started = Instant::now();
    let mut child = sandbox.spawn(&["--model", "mock/mock-model", "-p", "read it"]);
    pid.store(child.id(), Ordering::SeqCst);
    drop(child.stdin.take());
    let done = finish(child, started);
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert_eq!(done.stdout, "understood\n");
    let peak = peak.load(Ordering::SeqCst);
    eprintln!("read /dev/zero: pi's peak memory {} MiB", peak / 1024);
    assert!(peak < 100 * 1024, "peak memory {peak} KiB");
    let result = server.requests()[1].tool_message();
    assert!(
        result.contains("a character device, not a regular file"),
        "{result}"
    );
}

#[test]
fn a_closed_stdout_ends_pi_with_a_message_and_a_failure_code() {
    let sandbox = PiSandbox::new();
    for args in [
        vec!["--provider", "demo", "-p", "hello"],
        vec!["--help"],
        vec!["--provider", "demo", "--mode", "json", "hello"],
    ] {
        let mut child = sandbox.spawn(&args);
        drop(child.stdin.take());
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("pi stopped: could not write to standard output"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_file_size_limit_on_redirected_output_is_reported_not_a_signal_death() {
    let sandbox = PiSandbox::new();
    let target = sandbox.root.path().join("answer.txt");
    let file = std::fs::File::create(&target).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pi"));
    cmd.args(["--provider", "demo", "-p", "hello"])
        .current_dir(&sandbox.project)
        .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
        .env("PI_OFFLINE", "1")
        .stdin(std::process::Stdio::null())
        .stdout(file)
        .stderr(std::process::Stdio::piped());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let rlim = libc::rlimit {
                rlim_cur: 4,
                rlim_max: 4,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &rlim);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("File too large"), "{stderr}");
}

#[test]
fn a_tool_call_cut_off_at_the_token_limit_is_not_run() {
    let server = MockServer::start();
    let cut = OpenAiSse::new()
        .tool_call(
            0,
            "c1",
            "write",
            &json!({"path": "cut.txt", "content": "half"}),
        )
        .finish("length");
    server.push(MockReply::openai(cut));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "write it"], None);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("Tool call not executed"), "{stderr}");
    assert!(stderr.contains("stop reason \"length\""), "{stderr}");
    assert!(!sandbox.project.join("cut.txt").exists());
    assert_eq!(server.request_count(), 1, "no further turn");
}

#[test]
fn messages_sent_from_agent_end_in_a_loop_are_followed_only_so_far() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let ext = extension(
        &sandbox,
        "looper.lua",
        r#"
return function(pi)
  local n = 0
  pi.on("agent_end", function()
    n = n + 1
    pi.sendUserMessage("again " .. n)
  end)
end
"#,
    );
    let started = Instant::now();
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "-e",
            &ext.display().to_string(),
            "-p",
            "hi",
        ],
        None,
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("25 runs in a row"), "{stderr}");
    assert_eq!(server.request_count(), 26, "the prompt and 25 follow-ups");
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn deep_recursion_through_the_api_is_an_error_not_a_crash() {
    let sandbox = PiSandbox::new();
    let ext = extension(
        &sandbox,
        "deep.lua",
        r#"
return function(pi)
  pi.events.on("ping", function(n) pi.events.emit("ping", n + 1) end)
  pi.on("session_start", function()
    local function down(n) pi.getActiveTools(); return down(n + 1) + 1 end
    local ok, err = pcall(down, 1)
    pi.events.emit("ping", 1)
    error("recursion ended: " .. tostring(err))
  end)
end
"#,
    );
    let done = run_demo(&sandbox, &[&ext], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    assert!(done.stderr.contains("deep.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("stack overflow"), "{}", done.stderr);
}

#[test]
fn a_table_nested_too_deep_is_a_lua_error_and_pi_carries_on() {
    let sandbox = PiSandbox::new();
    let ext = extension(
        &sandbox,
        "deeptable.lua",
        r#"
return function(pi)
  pi.on("session_start", function()
    local t = {}
    local c = t
    for i = 1, 100000 do c.x = {}; c = c.x end
    local lines = {}
    for _, call in ipairs({
      {"json", function() return pi.json.encode(t) end},
      {"yaml", function() return pi.yaml.encode(t) end},
      {"toml", function() return pi.toml.encode(t) end},
      {"entry", function() return pi.appendEntry("deep", t) end},
    }) do
      local ok, err = pcall(call[2])
      lines[#lines + 1] = call[1] .. " " .. tostring(ok) .. " " .. tostring(err):match("[^\n]*")
    end
    local shallow = pi.json.encode({a = {b = {c = 1}}})
    lines[#lines + 1] = "shallow " .. shallow
    local f = assert(io.open("deep.txt", "w"))
    f:write(table.concat(lines, "\n"))
    f:close()
  end)
end
"#,
    );
    let done = run_demo(&sandbox, &[&ext], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    let report = std::fs::read_to_string(sandbox.project.join("deep.txt")).unwrap();
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 5, "{report}");
    for (line, name) in lines.iter().zip(["json", "yaml", "toml", "entry"]) {
        assert!(line.starts_with(&format!("{name} false ")), "{report}");
        assert!(line.contains("nested deeper than 200 levels"), "{report}");
    }
    assert_eq!(lines[4], r#"shallow {"a":{"b":{"c":1}}}"#);
}

#[test]
fn a_session_start_handler_that_never_finishes_is_stopped_at_the_bound() {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "settings.json",
        r#"{"extensions.startupTimeoutSeconds": 1}"#,
    );
    let sleeper = extension(
        &sandbox,
        "sleeper.lua",
        r#"
return function(pi)
  pi.on("session_start", function() pi.exec("sleep", {"1000"}) end)
end
"#,
    );
    let waiter = extension(
        &sandbox,
        "waiter.lua",
        r#"
return function(pi)
  pi.on("session_start", function() pi.sleep(1e9) end)
end
"#,
    );
    let quick = extension(
        &sandbox,
        "quick.lua",
        r#"
return function(pi)
  pi.on("session_start", function()
    local f = assert(io.open("started.txt", "w")); f:write("yes"); f:close()
  end)
end
"#,
    );
    let done = run_demo(&sandbox, &[&sleeper, &waiter, &quick], "hello");
    eprintln!("stalled session_start: {:.2} s", done.elapsed.as_secs_f64());
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    assert!(done.elapsed < Duration::from_secs(8), "{:?}", done.elapsed);
    for name in ["sleeper.lua", "waiter.lua"] {
        let line = done.stderr.lines().find(|l| l.contains(name));
        let line = line.unwrap_or_else(|| panic!("{name}: {}", done.stderr));
        assert!(line.contains("did not finish within 1 s"), "{line}");
    }
    let started = std::fs::read_to_string(sandbox.project.join("started.txt"));
    assert_eq!(started.unwrap(), "yes");
}

#[test]
fn two_tool_calls_sharing_an_id_are_not_merged_and_the_second_is_reported() {
    let server = MockServer::start();
    let reply = OpenAiSse::new()
        .tool_call(
            0,
            "c1",
            "write",
            &json!({"path": "first.txt", "content": "1"}),
        )
        .tool_call(
            1,
            "c1",
            "write",
            &json!({"path": "second.txt", "content": "2"}),
        )
        .finish("tool_calls");
    server.push(MockReply::openai(reply));
    server.push(MockReply::openai_text("done"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "write"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(sandbox.project.join("first.txt")).unwrap(),
        "1"
    );
    assert!(!sandbox.project.join("second.txt").exists());
    let second = server.requests()[1].json().clone();
    let messages = second["messages"].as_array().unwrap();
    let assistant = messages.iter().find(|m| m["role"] == "assistant").unwrap();
    assert_eq!(
        assistant["tool_calls"].as_array().unwrap().len(),
        2,
        "{assistant}"
    );
    let body = second.to_string();
    assert!(
        body.contains("is already used by an earlier call"),
        "{body}"
    );
}

#[test]
fn tool_arguments_of_the_wrong_json_type_are_quoted_back_to_the_model() {
    let server = MockServer::start();
    let mut reply = OpenAiSse::new();
    for (index, (id, raw)) in [("c1", r#"["a.txt", "text"]"#), ("c2", "path=a.txt")]
        .into_iter()
        .enumerate()
    {
        reply = reply.raw_tool_call(index as u64, id, "write", raw);
    }
    server.push(MockReply::openai(reply.finish("tool_calls")));
    server.push(MockReply::openai_text("understood"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "write"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let body = server.requests()[1].json().to_string();
    for expected in [
        r#"the arguments must be a JSON object, not a JSON array"#,
        r#"[\"a.txt\", \"text\"]"#,
        "the arguments must be a JSON object, not text that is not JSON",
        "path=a.txt",
    ] {
        assert!(body.contains(expected), "{expected}: {body}");
    }
    assert!(!sandbox.project.join("a.txt").exists());
}
