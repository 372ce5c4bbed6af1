//! HTML export end to end: `pi --export` on a branched session written in
//! pi's session format, the page rendered by headless Chromium with no
//! network access, and its DOM checked for every message of the branch, the
//! tree with both branches, the diff, the image and the search.

use crate::support::pi_cli;

use std::path::{Path, PathBuf};
use std::process::Command;

use pi_cli::PiSandbox;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export/branched.jsonl")
}

fn chromium() -> &'static str {
    for candidate in ["chromium", "chromium-browser", "google-chrome"] {
        if Command::new(candidate)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return candidate;
        }
    }
    panic!(
        "headless Chromium is needed to check the exported page: install it (Debian: \
         apt-get install chromium; scripts/test.sh does this) and run the tests again"
    );
}

/// The DOM after the page's script ran, with the network unreachable.
fn rendered_dom(page: &Path, hash: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let url = format!("file://{}{hash}", page.display());
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--proxy-server=127.0.0.1:9",
            "--proxy-bypass-list=<-loopback>",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        dom.contains("id=\"messages\""),
        "chromium rendered nothing: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dom
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

/// The rendered messages (up to the embedded session data).
fn messages_part(dom: &str) -> &str {
    let start = dom.find("id=\"messages\"").unwrap();
    let end = dom.find("id=\"session-data\"").unwrap();
    &dom[start..end]
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

#[test]
fn chromium_shows_every_message_of_the_current_branch() {
    let sandbox = PiSandbox::new();
    let page = export(&sandbox);
    let dom = rendered_dom(&page, "");
    let shown = messages_part(&dom);
    for text in [
        "Fix the greeting in hello.txt &lt;b&gt;now&lt;/b&gt;",
        "The user wants a friendlier greeting.",
        "I will edit the file.",
        "Successfully replaced text in hello.txt.",
        "The greeting now says hello there.",
        "Branch B: make it quieter",
        "hello there, answered on branch B.",
    ] {
        assert!(shown.contains(text), "missing {text:?} in {shown}");
    }
    assert!(
        !shown.contains("answered on branch A"),
        "only the current branch is shown"
    );
    assert!(
        shown.contains("<div class=\"del\">-1 hello world</div>"),
        "diff rendered"
    );
    assert!(shown.contains("<div class=\"add\">+1 hello there</div>"));
    assert!(
        shown.contains("src=\"data:image/png;base64,iVBORw0KGgo"),
        "image inline"
    );
    assert!(shown.contains("class=\"thinking\""));
    assert!(
        shown.contains("class=\"tool ok\""),
        "the result joined its call"
    );

    let tree = &dom[dom.find("id=\"tree\"").unwrap()..dom.find("id=\"main\"").unwrap()];
    assert!(
        tree.contains("Branch A: make it louder"),
        "the other branch is in the tree"
    );
    assert!(tree.contains("loud-version"), "labels are shown");
    assert!(tree.contains("class=\"node role-assistant on-path selected\""));
}

#[test]
fn another_branch_can_be_selected_and_searched() {
    let sandbox = PiSandbox::new();
    let page = export(&sandbox);
    let dom = rendered_dom(&page, "#leaf=e0000007");
    let shown = messages_part(&dom);
    assert!(shown.contains("HELLO THERE, answered on branch A."));
    assert!(!shown.contains("answered on branch B"));

    let dom = rendered_dom(&page, "#search=greeting");
    let shown = messages_part(&dom);
    let visible = shown.matches("class=\"msg user\"").count()
        + shown.matches("class=\"msg assistant\"").count();
    let hidden = shown.matches(" hidden\"").count();
    assert!(hidden >= 2, "non-matching messages are hidden: {shown}");
    assert!(visible >= 2, "matching messages stay visible: {shown}");
    assert!(dom.contains("match"), "the count of matches is shown");
}

#[test]
fn export_of_a_missing_file_names_it() {
    let sandbox = PiSandbox::new();
    let out = sandbox.run(&["--export", "nope.jsonl"], None);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nope.jsonl"), "{err}");
}
