//! HTML export end to end: `pi --export` on a branched session written in
//! pi's session format, opened in headless Chromium with no network access:
//! the messages of the branch, the tree with both branches as `/tree` draws
//! them, the diff, the image, folded thinking, opening another branch, search.

use crate::support::browser::{js, run_page};
use crate::support::pi_cli;

use std::path::{Path, PathBuf};

use pi_cli::PiSandbox;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export/branched.jsonl")
}

fn export(sandbox: &PiSandbox) -> PathBuf {
    let page = sandbox.project.join("session.html");
    let out = sandbox.run(
        &[
            "--export",
            fixture().to_str().unwrap(),
            page.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(&page.display().to_string()), "{stdout}");
    page
}

#[test]
fn exported_page_is_self_contained() {
    let sandbox = PiSandbox::new();
    let html = std::fs::read_to_string(export(&sandbox)).unwrap();
    for remote in ["<link", "src=\"http", "@import", "url(http", "<script src"] {
        assert!(!html.contains(remote), "the page loads {remote}");
    }
    assert!(html.contains("default-src 'none'"), "a CSP forbids fetches");
    assert!(
        html.contains("--accent: #8abeb7;"),
        "the theme's colours are inlined"
    );
}

/// The text of the shown messages, the tree's rows (branch lines included)
/// and what the page holds of the diff, the image and the thinking block.
const LOOK: &str = "({
    messages: document.getElementById('messages').innerText,
    rows: [...document.querySelectorAll('#tree .node')].map(n => n.textContent),
    active: document.querySelector('#tree .node.active').textContent,
    added: [...document.querySelectorAll('.diff .add')].map(n => n.textContent),
    removed: [...document.querySelectorAll('.diff .del')].map(n => n.textContent),
    image: (document.querySelector('#messages img') || {}).src || '',
    toolOk: document.querySelectorAll('.tool.ok').length,
    thinkingShown: [...document.querySelectorAll('.thinking-body')].map(b => getComputedStyle(b).display !== 'none'),
})";

#[test]
fn the_page_takes_the_theme_of_the_settings() {
    let sandbox = PiSandbox::new();
    let dark = std::fs::read_to_string(export(&sandbox)).unwrap();
    assert!(dark.contains("--accent: #8abeb7;"), "dark by default");
    sandbox.write_agent_file("settings.json", r#"{"theme": "light"}"#);
    let light = std::fs::read_to_string(export(&sandbox)).unwrap();
    assert!(
        light.contains("--accent: #5a8080;"),
        "the light theme's accent"
    );
    assert!(!light.contains("--accent: #8abeb7;"));
}

#[test]
fn chromium_shows_the_current_branch_and_the_whole_tree() {
    let sandbox = PiSandbox::new();
    let page = export(&sandbox);
    let run = run_page(
        &page,
        "",
        &[
            js(LOOK),
            js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 't', bubbles: true}))"),
            js(LOOK),
        ],
    );
    assert!(run.console_errors.is_empty(), "{:?}", run.console_errors);
    assert!(run.outside_requests(&page).is_empty(), "{:?}", run.requests);
    let look = &run.results[0];
    let shown = look["messages"].as_str().unwrap();
    for text in [
        "Fix the greeting in hello.txt <b>now</b>",
        "I will edit the file.",
        "The greeting now says hello there.",
        "Branch B: make it quieter",
        "hello there, answered on branch B.",
        "Switched to model:",
    ] {
        assert!(shown.contains(text), "missing {text:?} in {shown}");
    }
    assert!(
        !shown.contains("answered on branch A"),
        "only the current branch is shown"
    );
    assert!(
        !shown.contains("The user wants a friendlier greeting."),
        "thinking is folded"
    );
    assert_eq!(look["thinkingShown"], serde_json::json!([false]));
    assert_eq!(
        run.results[2]["thinkingShown"],
        serde_json::json!([true]),
        "T shows thinking"
    );
    assert_eq!(
        look["added"],
        serde_json::json!(["+1 hello there"]),
        "{look}"
    );
    assert_eq!(look["removed"], serde_json::json!(["-1 hello world"]));
    assert!(
        look["image"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,iVBORw0KGgo")
    );
    assert_eq!(look["toolOk"], 1, "the result joined its call");

    // Both branches, drawn with /tree's lines (a single child right after a branch moves one
    // level in), the current one first; the label shown.
    let rows: Vec<&str> = look["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(
        rows,
        vec![
            "user: Fix the greeting in hello.txt <b>now</b>",
            "assistant: I will edit the file. [edit]",
            "[edit: hello.txt]",
            "assistant: The greeting now says hello there.",
            "├─ user: Branch B: make it quieter",
            "│     assistant: hello there, answered on branch B.",
            "└─ user: Branch A: make it louderloud-version",
            "      assistant: HELLO THERE, answered on branch A.",
        ],
        "{rows:#?}"
    );
    assert_eq!(
        look["active"], "│     assistant: hello there, answered on branch B.",
        "the leaf (a label) is marked at the entry it labels"
    );
}

#[test]
fn any_branch_can_be_opened_from_the_tree_or_the_address() {
    let sandbox = PiSandbox::new();
    let page = export(&sandbox);
    let click = "(() => { [...document.querySelectorAll('#tree .node')]
        .find(n => n.textContent.includes('Branch A')).click();
        return document.getElementById('messages').innerText; })()";
    let run = run_page(&page, "", &[js(click)]);
    let shown = run.text(0);
    assert!(
        shown.contains("HELLO THERE, answered on branch A."),
        "{shown}"
    );
    assert!(!shown.contains("answered on branch B"), "{shown}");
    assert!(
        shown.contains("The greeting now says hello there."),
        "the shared start stays"
    );

    let run = run_page(
        &page,
        "#leaf=e0000007",
        &[js("document.getElementById('messages').innerText")],
    );
    assert!(run.text(0).contains("HELLO THERE, answered on branch A."));
    assert!(!run.text(0).contains("answered on branch B"));

    let run = run_page(
        &page,
        "#search=greeting",
        &[js(
            "({status: document.getElementById('tree-status').textContent,
               rows: document.querySelectorAll('#tree .node').length,
               marks: [...document.querySelectorAll('#messages mark')].map(m => m.textContent)})",
        )],
    );
    let found = &run.results[0];
    assert_eq!(found["rows"], 2, "{found}");
    assert!(
        found["status"]
            .as_str()
            .unwrap()
            .contains("/ 2 shown · 9 entries"),
        "{found}"
    );
    assert!(
        found["marks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m.as_str().unwrap().eq_ignore_ascii_case("greeting"))
    );
    assert!(!found["marks"].as_array().unwrap().is_empty(), "{found}");
}

#[test]
fn export_of_a_missing_file_names_it() {
    let sandbox = PiSandbox::new();
    let out = sandbox.run(&["--export", "nope.jsonl"], None);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nope.jsonl"), "{err}");
}

#[test]
fn summaries_custom_messages_links_and_turn_costs_have_their_rows() {
    let sandbox = PiSandbox::new();
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export/compacted.jsonl");
    let page = sandbox.project.join("compacted.html");
    let out = sandbox.run(
        &["--export", source.to_str().unwrap(), page.to_str().unwrap()],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = run_page(
        &page,
        "",
        &[js("({
            summaries: [...document.querySelectorAll('.msg.summary .summary-head')].map(n => n.textContent),
            summaryText: [...document.querySelectorAll('.msg.summary pre')].map(n => n.textContent),
            custom: document.querySelector('.msg.custom').innerText,
            links: [...document.querySelectorAll('#messages a')].map(a => a.href + ' ' + a.textContent),
            keywords: [...document.querySelectorAll('#messages pre.code .hl-k')].map(n => n.textContent),
            usage: document.querySelector('.msg.assistant .usage').textContent,
            messages: document.getElementById('info-messages').textContent,
            cost: document.getElementById('info-cost').textContent,
            rows: [...document.querySelectorAll('#tree .node')].map(n => n.textContent),
        })")],
    );
    assert!(run.console_errors.is_empty(), "{:?}", run.console_errors);
    let seen = &run.results[0];
    assert_eq!(
        seen["summaries"],
        serde_json::json!([
            "Compacted: 123k tokens summarized",
            "Summary of another branch"
        ]),
        "{seen}"
    );
    assert_eq!(
        seen["summaryText"][0],
        "The user asked for a plan.\nThe plan was written."
    );
    assert!(seen["custom"].as_str().unwrap().contains("[reminder]"));
    assert!(
        seen["custom"]
            .as_str()
            .unwrap()
            .contains("Remember the deadline.")
    );
    assert_eq!(
        seen["links"],
        serde_json::json!([
            "https://example.org/notes https://example.org/notes",
            "https://example.org/guide the guide"
        ])
    );
    assert_eq!(seen["keywords"], serde_json::json!(["fn", "let"]));
    assert_eq!(seen["usage"], "↑1.2k ↓300  $0.0081");
    assert_eq!(
        seen["messages"],
        "2 user, 1 assistant, 1 custom, 1 compactions, 1 branch summaries"
    );
    assert_eq!(seen["cost"], "$0.008");
    let rows = seen["rows"].as_array().unwrap();
    assert!(
        rows.iter().any(|r| r == "[compaction: 123k tokens]"),
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .any(|r| r == "[branch summary] An abandoned try at a shorter plan.")
    );
    assert!(
        rows.iter()
            .any(|r| r == "[reminder] Remember the deadline.")
    );
}
