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
