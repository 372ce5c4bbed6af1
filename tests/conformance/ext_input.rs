//! The `input` event: handlers that let the input through, transform its text and
//! images, chain, handle it (stopping later handlers), see where it came from, and fail
//! without stopping it. Extensions are Lua here, each handler one extension file.
//! orig-file: packages/coding-agent/test/extensions-input-event.test.ts

use pi::ai::types::ContentBlock;
use pi::core::extension_bridge::InputOutcome;
use serde_json::json;

use crate::session_harness::Harness;

async fn runner(sources: &[&str]) -> Harness {
    let (h, errors) = Harness::with_extensions(sources).await;
    assert!(errors.is_empty(), "{errors:?}");
    h
}

async fn input(h: &Harness, text: &str, images: Vec<ContentBlock>, source: &str) -> InputOutcome {
    h.agent
        .extensions()
        .unwrap()
        .input(text.into(), images, source)
        .await
}

fn image(data: &str, mime: &str) -> ContentBlock {
    serde_json::from_value(json!({"type": "image", "data": data, "mimeType": mime})).unwrap()
}

fn go_on(text: &str, images: Vec<ContentBlock>) -> InputOutcome {
    InputOutcome::Continue(text.into(), images)
}

/// orig: Input Event › returns continue when no handlers, undefined return, or explicit continue
#[tokio::test]
async fn handlers_that_let_the_input_through() {
    let none = runner(&[]).await;
    assert_eq!(
        input(&none, "x", vec![], "interactive").await,
        go_on("x", vec![])
    );
    let nil = runner(&[r#"return function(pi) pi.on("input", function() end) end"#]).await;
    assert_eq!(
        input(&nil, "x", vec![], "interactive").await,
        go_on("x", vec![])
    );
    let explicit = runner(&[
        r#"return function(pi) pi.on("input", function() return { action = "continue", text = "ignored" } end) end"#,
    ])
    .await;
    assert_eq!(
        input(&explicit, "x", vec![], "interactive").await,
        go_on("x", vec![])
    );
}

/// orig: Input Event › transforms text and preserves images when omitted
#[tokio::test]
async fn a_transform_keeps_the_images_it_leaves_out() {
    let h = runner(&[
        r#"return function(pi) pi.on("input", function(e) return { action = "transform", text = "T:" .. e.text } end) end"#,
    ])
    .await;
    let images = vec![image("orig", "image/png")];
    assert_eq!(
        input(&h, "hi", images.clone(), "interactive").await,
        go_on("T:hi", images)
    );
}

/// orig: Input Event › transforms and replaces images when provided
#[tokio::test]
async fn a_transform_replaces_the_images_it_gives() {
    let h = runner(&[
        r#"return function(pi) pi.on("input", function() return { action = "transform", text = "X", images = { { type = "image", data = "new", mimeType = "image/jpeg" } } } end) end"#,
    ])
    .await;
    let got = input(&h, "hi", vec![image("orig", "image/png")], "interactive").await;
    assert_eq!(got, go_on("X", vec![image("new", "image/jpeg")]));
}

/// orig: Input Event › chains transforms across multiple handlers
#[tokio::test]
async fn transforms_chain_in_load_order() {
    let h = runner(&[
        r#"return function(pi) pi.on("input", function(e) return { action = "transform", text = e.text .. "[1]" } end) end"#,
        r#"return function(pi) pi.on("input", function(e) return { action = "transform", text = e.text .. "[2]" } end) end"#,
    ])
    .await;
    assert_eq!(
        input(&h, "X", vec![], "interactive").await,
        go_on("X[1][2]", vec![])
    );
}

/// orig: Input Event › short-circuits on handled and skips subsequent handlers
#[tokio::test]
async fn handled_input_stops_later_handlers() {
    let h = runner(&[
        r#"return function(pi) pi.on("input", function() return { action = "handled" } end) end"#,
        r#"return function(pi) pi.on("input", function() pi.appendEntry("reached", {}) end) end"#,
    ])
    .await;
    assert_eq!(
        input(&h, "X", vec![], "interactive").await,
        InputOutcome::Handled
    );
    // A prompt that is handled sends nothing, and the second handler never ran.
    let mut h = h;
    h.prompt("X").await;
    assert_eq!(h.faux.call_count(), 0);
    let reached = h
        .agent
        .session
        .entries()
        .iter()
        .filter(|e| e.type_name() == "custom")
        .count();
    assert_eq!(reached, 0);
    // When the first handler lets the input through, the second one runs.
    let mut h = runner(&[
        r#"return function(pi) pi.on("input", function() return { action = "continue" } end) end"#,
        r#"return function(pi) pi.on("input", function() pi.appendEntry("reached", {}) end) end"#,
    ])
    .await;
    h.faux.push_text("ok");
    h.prompt("X").await;
    assert_eq!(h.faux.call_count(), 1);
    let reached = h
        .agent
        .session
        .entries()
        .iter()
        .filter(|e| e.type_name() == "custom")
        .count();
    assert_eq!(reached, 1);
}

/// orig: Input Event › passes source correctly for all source types
#[tokio::test]
async fn handlers_see_where_the_input_came_from() {
    let h = runner(&[
        r#"return function(pi) pi.on("input", function(e) return { action = "transform", text = e.source } end) end"#,
    ])
    .await;
    for source in ["interactive", "rpc", "extension"] {
        assert_eq!(input(&h, "x", vec![], source).await, go_on(source, vec![]));
    }
    // A prompt from a session tells `interactive` unless told otherwise.
    let mut h = h;
    h.faux.push_text("ok");
    h.prompt("x").await;
    let asked = h.faux.last_context().unwrap();
    assert_eq!(asked.messages[0].role(), "user");
    assert!(
        matches!(&asked.messages[0], pi::ai::types::Message::User(u) if u.content.text() == "interactive")
    );
    h.agent.input_source = "rpc";
    h.faux.push_text("ok");
    h.prompt("x").await;
    let asked = h.faux.last_context().unwrap();
    assert!(
        matches!(asked.messages.last().unwrap(), pi::ai::types::Message::User(u) if u.content.text() == "rpc")
    );
}

/// orig: Input Event › catches handler errors and continues
#[tokio::test]
async fn a_failing_handler_is_reported_and_the_input_goes_on() {
    let h =
        runner(&[r#"return function(pi) pi.on("input", function() error("boom") end) end"#]).await;
    assert_eq!(
        input(&h, "x", vec![], "interactive").await,
        go_on("x", vec![])
    );
    let reports = h.reports();
    assert!(reports.iter().any(|r| r.contains("boom")), "{reports:?}");
}

/// orig: Input Event › hasHandlers returns correct value
#[tokio::test]
async fn whether_anyone_listens() {
    let h = runner(&[]).await;
    assert!(!h.agent.extensions().unwrap().handle.has_handlers("input"));
    let h = runner(&[r#"return function(pi) pi.on("input", function() end) end"#]).await;
    let handle = &h.agent.extensions().unwrap().handle;
    assert!(handle.has_handlers("input"));
    assert!(!handle.has_handlers("tool_call"));
}
