//! Lua's I/O for long-lived integrations: `pi.spawn` with a writable stdin and raw
//! framing, `pi.http.request` (whole bodies, server-sent events, errors) and
//! `pi.promise`, run from a command of tests/fixtures/extensions/io_spec.lua.

use std::time::Duration;

use crate::support::lua_agent::{custom_entries, fixture, session_with};
use crate::support::{MockReply, MockServer};
use serde_json::json;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn spawn_stdin_raw_output_http_and_promises_from_lua() {
    let server = MockServer::start();
    server.push(MockReply::json(200, json!({"answer": 42})));
    server.push(MockReply::sse(
        "event: first\ndata: a\n\ndata: b1\ndata: b2\n\n"
            .as_bytes()
            .to_vec(),
    ));
    server.push(MockReply::status(404).body("no such thing"));
    // Headers at once, the rest of the body three seconds later.
    server.push(
        MockReply::json(200, json!({"late": true}))
            .chunked(&[1])
            .delay(Duration::from_secs(3)),
    );
    let dir = tempfile::tempdir().unwrap();
    let (mut agent, _faux) = session_with(vec![fixture("io_spec.lua")], dir.path()).await;
    agent
        .run_extension_command("io", &server.url(), &CancellationToken::new())
        .await
        .unwrap();
    let seen = custom_entries(&agent, "io");
    assert_eq!(seen.len(), 1, "{seen:?}");
    let r = &seen[0];
    assert_eq!(r["first_write"], true);
    assert_eq!(r["first_answer"], "ping");
    assert_eq!(r["second_answer"], "pong");
    assert_eq!(r["write_after_close"], false);
    assert_eq!(r["cat_code"], 0);
    assert_eq!(r["cat_stdout"], "ping\npong\n");
    assert_eq!(r["write_without_stdin"], false);
    assert_eq!(r["raw"], "one\ntwo");
    assert_eq!(r["never"], json!([null, "timeout"]));
    assert_eq!(r["later"], 7);
    assert_eq!(r["resolve_twice"], false);
    assert_eq!(
        r["json"],
        json!({"status": 200, "ok": true, "body": "{\"answer\":42}", "type": "application/json"})
    );
    assert_eq!(r["events"], json!(["first=a", "message=b1\nb2"]));
    assert_eq!(r["missing"], json!({"status": 404, "ok": false}));
    assert_eq!(r["slow"][0], true);
    let slow = r["slow"][1].as_str().unwrap();
    assert!(slow.ends_with("/slow: timed out after 200 ms"), "{slow}");
    assert_eq!(r["refused"], json!([true, true]));
    let requests = server.requests();
    assert_eq!(requests[0].method, "POST");
    assert_eq!(requests[0].path, "/json");
    assert_eq!(requests[0].header("x-test"), Some("yes"));
    assert_eq!(requests[0].body, b"{\"q\":1}");
}

/// Whether process `pid` is gone within five seconds.
fn gone(pid: i32) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while std::time::Instant::now() < deadline {
        // SAFETY: signal 0 only checks that the process exists.
        if unsafe { libc::kill(pid, 0) } != 0 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[tokio::test]
async fn reload_kills_a_process_with_open_stdin_and_its_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let ext = dir.path().join("holder.lua");
    std::fs::write(
        &ext,
        r#"return function(pi)
  if pi.state.spawned then return end -- once, not again after the reload
  pi.state.spawned = true
  local proc
  proc = pi.spawn("bash", { "-c", "sleep 300 & echo $!; exec cat" }, {
    stdin = true,
    onStdout = function(line)
      pi.fs.write("pids.txt", tostring(proc.pid) .. " " .. line)
    end,
  })
end
"#,
    )
    .unwrap();
    let view = pi::lua::SharedView::new(dir.path());
    let handle =
        pi::lua::ExtensionHandle::start(pi::lua::HostConfig::new(vec![ext], dir.path()), view);
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let pids_file = dir.path().join("pids.txt");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !pids_file.exists() {
        assert!(std::time::Instant::now() < deadline, "no pids written");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let pids: Vec<i32> = std::fs::read_to_string(&pids_file)
        .unwrap()
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(pids.len(), 2);
    assert!(
        !gone(pids[0]) && !gone(pids[1]),
        "both run before the reload"
    );
    std::fs::remove_file(&pids_file).unwrap();
    let report = handle.reload().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(gone(pids[0]), "the process outlived /reload");
    assert!(gone(pids[1]), "its child outlived /reload");
}
