//! The shipped `background` extension: a job printing 100,000 lines keeps pi's memory
//! bounded, the model reads its last lines, `/jobs` lists it, and nothing of it
//! survives pi.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::MockServer;
use crate::support::mcp_servers::{extension, scripted};
use crate::support::pi_cli::PiSandbox;
use crate::support::rpc_client::RpcClient;

/// Resident memory of process `pid` in KiB.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn gone(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        // SAFETY: signal 0 only checks that the process exists.
        if unsafe { libc::kill(pid, 0) } != 0 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn a_job_of_100000_lines_is_bounded_readable_listed_and_stopped_at_quit() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let pid = Arc::new(AtomicU32::new(0));
    let rss = Arc::new(Mutex::new(Vec::new()));
    let script = scripted(vec![
        (
            "bg_start",
            json!({"command": "seq 1 100000; echo DONE; exec sleep 300"}),
        ),
        (
            "bg_wait",
            json!({"id": "1", "pattern": "^DONE$", "timeout": 60}),
        ),
        ("bg_output", json!({"id": "1", "lines": 3})),
    ]);
    let (p, r) = (pid.clone(), rss.clone());
    server.set_handler(move |req| {
        if let Some(kib) = rss_kib(p.load(Ordering::SeqCst)) {
            r.lock().unwrap().push(kib);
        }
        script(req)
    });
    let ext = extension("background");
    let child = sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model", "-e", &ext]);
    pid.store(child.id(), Ordering::SeqCst);
    let mut rpc = RpcClient::new(child);
    rpc.call(json!({"type": "prompt", "message": "go"}));
    rpc.seen_or_wait("the end of the run", |v| v["type"] == "agent_end");
    let results: Vec<(String, bool)> = rpc
        .seen
        .iter()
        .filter(|l| l.value["type"] == "tool_execution_end")
        .map(|l| {
            let text = l.value["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or_default();
            (text.to_string(), l.value["isError"] == true)
        })
        .collect();
    assert_eq!(results.len(), 3, "{results:?}");
    let job_pid: i32 = results[0]
        .0
        .split("pid ")
        .nth(1)
        .and_then(|s| {
            s.trim_end_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("{results:?}"));
    assert!(results[1].0.starts_with("Matched: DONE"), "{results:?}");
    assert!(results[2].0.ends_with("99999\n100000\nDONE"), "{results:?}");
    assert!(
        results[2].0.contains("running, 100001 lines"),
        "{results:?}"
    );

    rpc.call(json!({"type": "prompt", "message": "/jobs"}));
    let jobs = rpc.wait_for("the /jobs panel", |v| {
        v["type"] == "extension_ui_request" && v["method"] == "notify"
    });
    let panel = jobs.value["message"].as_str().unwrap().to_string();
    assert!(
        panel.starts_with("Background jobs: 1\n[1] running, 100001 lines: seq"),
        "{panel}"
    );
    assert!(panel.ends_with("  DONE"), "{panel}");
    let rss = rss.lock().unwrap().clone();
    let (idle, peak) = (rss[0], *rss.iter().max().unwrap());
    eprintln!("pi resident memory: idle {idle} KiB, peak {peak} KiB");
    assert!(peak - idle < 50 * 1024, "{rss:?}");
    assert!(!gone(job_pid), "the job runs until pi quits");
    assert_eq!(rpc.finish(), 0);
    assert!(gone(job_pid), "job process {job_pid} outlived pi");
}

#[test]
fn the_bundled_extensions_load_by_name() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    server.set_handler(scripted(vec![("bg_list", json!({}))]));
    let out = sandbox.run(
        &[
            "--mode",
            "json",
            "-p",
            "--model",
            "mock/mock-model",
            "-e",
            "background",
            "go",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let results = crate::support::mcp_servers::tool_results(&stdout);
    assert_eq!(
        results,
        vec![(
            "bg_list".to_string(),
            "No background jobs.".to_string(),
            false
        )]
    );
    let tools = server.requests()[0].json()["tools"].to_string();
    assert!(!tools.contains("\"mcp_resource\"") && tools.contains("\"bg_start\""));

    // A file or folder of that name in the working folder is what loads instead.
    std::fs::write(
        sandbox.project.join("background"),
        "return function(pi) end",
    )
    .unwrap();
    let out = sandbox.run(
        &["-p", "--model", "mock/mock-model", "-e", "background", "go"],
        None,
    );
    assert!(out.status.success());
    let tools = server.last_request().unwrap().json()["tools"].to_string();
    assert!(!tools.contains("\"bg_start\""), "{tools}");
}

/// The placeholders `{name}` of every message (plural forms joined).
fn placeholders(messages: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = messages
        .as_object()
        .unwrap()
        .iter()
        .map(|(key, value)| {
            let text = match value {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let mut names: Vec<String> = text
                .split('{')
                .skip(1)
                .filter_map(|rest| rest.split_once('}').map(|(n, _)| n.to_string()))
                .collect();
            names.sort();
            names.dedup();
            (key.clone(), names)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_bundled_extensions_are_translated_into_every_locale() {
    for ext in ["mcp", "background"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("extensions")
            .join(ext)
            .join("locales");
        let read = |tag: &str| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{tag}.json"))).unwrap())
                .unwrap()
        };
        let en = read("en");
        assert_eq!(en["namespace"], format!("ext.{ext}"));
        for tag in ["ja", "zh-CN", "zh-TW"] {
            let other = read(tag);
            assert_eq!(other["namespace"], en["namespace"]);
            assert_eq!(other["locale"], tag);
            assert_eq!(
                placeholders(&other["messages"]),
                placeholders(&en["messages"]),
                "{ext} {tag}"
            );
            assert_ne!(other["messages"], en["messages"]);
        }
    }
}

#[test]
fn jobs_speaks_the_chosen_language() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    sandbox.write_agent_file("settings.json", &json!({"locale": "ja"}).to_string());
    let ext = extension("background");
    let mut rpc =
        RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model", "-e", &ext]));
    rpc.call(json!({"type": "prompt", "message": "/jobs"}));
    let notice = rpc.wait_for("the /jobs panel", |v| {
        v["type"] == "extension_ui_request" && v["method"] == "notify"
    });
    assert_eq!(
        notice.value["message"],
        "バックグラウンドジョブはありません。"
    );
}
