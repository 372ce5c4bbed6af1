//! Nothing runs away, nothing leaks, nothing is lost: models that call tools in
//! circles, extensions that try to crash or end pi, the Lua memory limit, private
//! file modes, prompts kept across a kill, bounded waits on a stalled stream,
//! terminal escapes in print mode. The real `pi` binary runs against the offline demo provider or
//! a mock server on 127.0.0.1.

mod compressed;
mod data_files;
mod escapes;
mod fault_matrix;
mod general_rules;
mod mode_io;
mod run_limits;
mod session_file;
mod settings_writes;
mod stop_and_resume;
mod tool_output;
mod unreachable;
mod validated_config;
mod waiting;
mod widgets;

use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer, OpenAiSse};
use serde_json::Value;

use std::io::Read;
use std::path::PathBuf;
use std::process::Child;
use std::time::{Duration, Instant};

/// Write `source` as an extension file in the sandbox and return its path.
fn extension(sandbox: &PiSandbox, name: &str, source: &str) -> PathBuf {
    let path = sandbox.root.path().join(name);
    std::fs::write(&path, source).unwrap();
    path
}

struct Finished {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// Peak resident set size in KiB.
    max_rss_kib: i64,
    elapsed: Duration,
}

/// Wait for `child`, reading its output, and measure its peak memory.
fn finish(mut child: Child, started: Instant) -> Finished {
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).ok();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).ok();
        s
    });
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data filled in by the kernel.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; the pointers are valid for the call.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    let elapsed = started.elapsed();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Finished {
        code,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
        max_rss_kib: usage.ru_maxrss,
        elapsed,
    }
}

fn run_demo(sandbox: &PiSandbox, extensions: &[&PathBuf], prompt: &str) -> Finished {
    let mut args: Vec<String> = vec!["--provider".into(), "demo".into()];
    for e in extensions {
        args.push("-e".into());
        args.push(e.display().to_string());
    }
    args.extend(["-p".to_string(), prompt.to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let started = Instant::now();
    let mut child = sandbox.spawn(&args);
    drop(child.stdin.take());
    finish(child, started)
}

#[test]
fn corrupted_bytecode_is_refused_and_pi_keeps_running() {
    let sandbox = PiSandbox::new();
    let ext = extension(
        &sandbox,
        "bytecode.lua",
        r#"
local chunk = string.dump(function() return 1 end)
local damaged = chunk:sub(1, 16) .. string.rep("\255", 48) .. chunk:sub(65)
local f, err = load(damaged)
if f then f() end
local g, err2 = load(chunk, "=dumped", "b")
if g then g() end
error("bytecode refused: " .. tostring(err) .. " / " .. tostring(err2))
"#,
    );
    let done = run_demo(&sandbox, &[&ext], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    assert!(done.stderr.contains("bytecode.lua"), "{}", done.stderr);
    assert!(
        done.stderr.contains("attempt to load a binary chunk"),
        "{}",
        done.stderr
    );
}

#[test]
fn an_extension_file_of_bytecode_is_not_run() {
    let sandbox = PiSandbox::new();
    let ext = sandbox.root.path().join("compiled.lua");
    let mut bytes = b"\x1bLua\x54\x00".to_vec();
    bytes.extend(std::iter::repeat_n(0xffu8, 64));
    std::fs::write(&ext, bytes).unwrap();
    let done = run_demo(&sandbox, &[&ext], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(done.stderr.contains("compiled.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("binary chunk"), "{}", done.stderr);
}

#[test]
fn os_exit_is_an_error_pointing_to_ctx_shutdown() {
    let sandbox = PiSandbox::new();
    let ext = extension(
        &sandbox,
        "quitter.lua",
        r#"
return function(pi)
  pi.on("session_start", function() os.exit(3) end)
end
"#,
    );
    let done = run_demo(&sandbox, &[&ext], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    assert!(done.stderr.contains("quitter.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("ctx.shutdown()"), "{}", done.stderr);
}

const HOG: &str = r#"
return function(pi)
  pi.on("session_start", function()
    hoard = {}
    for i = 1, 1e6 do hoard[i] = string.rep("x", 1e6) end
  end)
end
"#;

/// Runs after the hog at session start and again after the answer: it still
/// has room to work.
const NEIGHBOUR: &str = r#"
return function(pi)
  local function note(name)
    local s = string.rep("y", 8e6)
    local f = assert(io.open(name, "w"))
    f:write(#s)
    f:close()
  end
  pi.on("session_start", function() note("start.txt") end)
  pi.on("agent_end", function() note("end.txt") end)
end
"#;

#[test]
fn memory_hog_is_stopped_at_the_limit_and_others_carry_on() {
    let sandbox = PiSandbox::new();
    let hog = extension(&sandbox, "hog.lua", HOG);
    let neighbour = extension(&sandbox, "neighbour.lua", NEIGHBOUR);
    let done = run_demo(&sandbox, &[&hog, &neighbour], "hello");
    eprintln!(
        "memory hog: exit {:?}, peak RSS {} MiB, {:.2} s",
        done.code,
        done.max_rss_kib / 1024,
        done.elapsed.as_secs_f64()
    );
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(!done.stdout.trim().is_empty(), "no answer: {}", done.stderr);
    assert!(done.stderr.contains("hog.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("256 MiB"), "{}", done.stderr);
    assert!(
        done.max_rss_kib <= 1024 * 1024,
        "peak RSS {} KiB",
        done.max_rss_kib
    );
    assert!(done.elapsed < Duration::from_secs(15), "{:?}", done.elapsed);
    for file in ["start.txt", "end.txt"] {
        let written = std::fs::read_to_string(sandbox.project.join(file)).unwrap_or_default();
        assert_eq!(written, "8000000", "{file}: {}", done.stderr);
    }
}

#[test]
fn the_memory_limit_follows_the_setting() {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file("settings.json", r#"{"extensions.memoryLimitMb": 32}"#);
    let hog = extension(&sandbox, "hog.lua", HOG);
    let done = run_demo(&sandbox, &[&hog], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(done.stderr.contains("32 MiB"), "{}", done.stderr);
    assert!(
        done.max_rss_kib <= 512 * 1024,
        "peak RSS {} KiB",
        done.max_rss_kib
    );
}

#[test]
fn a_memory_hog_at_load_time_is_reported() {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file("settings.json", r#"{"extensions.memoryLimitMb": 32}"#);
    let hog = extension(
        &sandbox,
        "loadhog.lua",
        "local t = {}\nfor i = 1, 1e6 do t[i] = string.rep('x', 1e6) end\n",
    );
    let done = run_demo(&sandbox, &[&hog], "hello");
    assert_eq!(done.code, Some(0), "{}", done.stderr);
    assert!(done.stderr.contains("loadhog.lua"), "{}", done.stderr);
    assert!(done.stderr.contains("32 MiB"), "{}", done.stderr);
}
