//! `/export` and `/share` in the terminal UI (the real binary in tmux against
//! the mock LLM server). Skipped (with a message) when tmux is not installed.

use crate::support;
use crate::support::tui_harness;

use std::time::Duration;

use support::{MockReply, MockServer};
use tui_harness::*;

#[test]
fn export_writes_the_session_as_html_and_share_says_how_to_upload_it() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("Exported answer."));
    let pi = Session::launch(&server, |sandbox| {
        let tmp = sandbox.root.path().join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        sandbox
            .env
            .push(("TMPDIR".into(), tmp.display().to_string()));
    });
    pi.send("/export");
    pi.tmux
        .wait_for("the empty-session refusal", Duration::from_secs(20), |s| {
            s.contains("Nothing to export yet")
        });

    pi.send("a question worth keeping");
    pi.tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("Exported answer.")
        });
    pi.send("/export transcript.html");
    pi.tmux
        .wait_for("the export notice", Duration::from_secs(20), |s| {
            s.contains("Session exported to: transcript.html")
        });
    let html = std::fs::read_to_string(pi.sandbox.project.join("transcript.html")).unwrap();
    assert!(html.contains("a question worth keeping") && html.contains("Exported answer."));

    pi.send("/share");
    let screen = pi
        .tmux
        .wait_for("the share notice", Duration::from_secs(20), |s| {
            s.contains("gh gist create --secret")
        });
    assert!(screen.contains("Session written to"), "{screen}");
    let shared: Vec<_> = std::fs::read_dir(pi.sandbox.root.path().join("tmp"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("pi-session-") && n.ends_with(".html"))
        .collect();
    assert_eq!(
        shared.len(),
        1,
        "the shared page is in the temporary folder"
    );
    pi.quit_and_check_terminal();
}
