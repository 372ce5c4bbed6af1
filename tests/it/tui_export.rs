//! `/export`, `/share` and `/import` in the terminal UI (the real binary in tmux against
//! the mock LLM server; `gh` is a fake script on PATH). Skipped (with a message) when tmux
//! is not installed.

use crate::support;
use crate::support::tui_harness;

use std::path::Path;
use std::time::Duration;

use support::{MockReply, MockServer};
use tui_harness::*;

const WAIT: Duration = Duration::from_secs(20);

/// A fake `gh`: `auth status` exits with `auth_exit`; `gist create` records its arguments,
/// keeps a copy of the uploaded file and prints a gist address.
fn write_fake_gh(bin: &Path, root: &Path, auth_exit: i32) {
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = auth ]; then exit {auth_exit}; fi\n\
         echo \"$@\" > {root}/gh-args.txt\n\
         for last; do :; done\n/bin/cp \"$last\" {root}/uploaded.html\n\
         echo https://gist.github.com/tester/abc123def\n",
        root = root.display()
    );
    let path = bin.join("gh");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn export_writes_html_or_jsonl_share_uploads_a_gist_and_import_continues_a_file() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("Exported answer."));
    let pi = Session::launch(&server, |sandbox| {
        let root = sandbox.root.path().to_path_buf();
        for dir in ["tmp", "bin"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        let env = [
            ("TMPDIR", root.join("tmp").display().to_string()),
            ("PATH", root.join("bin").display().to_string()),
            ("PI_SHARE_VIEWER_URL", "https://viewer.test/s/".to_string()),
        ];
        for (key, value) in env {
            sandbox.env.push((key.into(), value));
        }
    });
    let root = pi.sandbox.root.path().to_path_buf();
    pi.send("/export");
    pi.tmux.wait_for("the empty-session refusal", WAIT, |s| {
        s.contains("Nothing to export yet")
    });

    pi.send("a question worth keeping");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("Exported answer."));
    pi.send("/export transcript.html");
    pi.tmux.wait_for("the export notice", WAIT, |s| {
        s.contains("Session exported to: transcript.html")
    });
    let html = std::fs::read_to_string(pi.sandbox.project.join("transcript.html")).unwrap();
    let data = crate::support::browser::page_data(&html);
    assert!(data.contains("a question worth keeping") && data.contains("Exported answer."));

    pi.send("/export \"saved copy.jsonl\"");
    pi.tmux.wait_for("the JSONL export notice", WAIT, |s| {
        s.contains("saved copy.jsonl")
    });
    let jsonl = std::fs::read_to_string(pi.sandbox.project.join("saved copy.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["type"], "session", "{jsonl}");
    assert!(jsonl.contains("a question worth keeping") && !jsonl.contains("<html"));

    pi.send("/share");
    pi.tmux.wait_for("the missing gh message", WAIT, |s| {
        s.contains("GitHub CLI (gh) is not installed")
    });
    write_fake_gh(&root.join("bin"), &root, 1);
    pi.send("/share");
    pi.tmux.wait_for("the login message", WAIT, |s| {
        s.contains("Run 'gh auth login' first")
    });
    write_fake_gh(&root.join("bin"), &root, 0);
    pi.send("/share");
    let screen = pi.tmux.wait_for("the share address", WAIT, |s| {
        s.contains("Share URL: https://viewer.test/s/#abc123def")
    });
    assert!(
        screen.contains("Gist: https://gist.github.com/tester/abc123def"),
        "{screen}"
    );
    let args = std::fs::read_to_string(root.join("gh-args.txt")).unwrap();
    assert!(args.starts_with("gist create --public=false "), "{args}");
    let uploaded = std::fs::read_to_string(root.join("uploaded.html")).unwrap();
    assert!(crate::support::browser::page_data(&uploaded).contains("a question worth keeping"));
    let left: Vec<_> = std::fs::read_dir(root.join("tmp"))
        .unwrap()
        .flatten()
        .collect();
    assert!(left.is_empty(), "the uploaded page is removed: {left:?}");

    pi.send("/import");
    pi.tmux
        .wait_for("the usage line", WAIT, |s| s.contains("Usage: /import"));
    pi.send("/import nowhere.jsonl");
    pi.tmux
        .wait_for("the question", WAIT, |s| s.contains("nowhere.jsonl?"));
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the missing-file error", WAIT, |s| {
        s.contains("Failed to import session") && s.contains("nowhere.jsonl does not exist")
    });
    let import = root.join("elsewhere.jsonl");
    std::fs::write(
        &import,
        concat!(
            r#"{"type":"session","version":3,"id":"0b1c2d3e-0000-4000-8000-000000000001","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/somewhere/else"}"#,
            "\n",
            r#"{"type":"message","id":"aa000001","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hello from an imported file","timestamp":1735689601000}}"#,
            "\n"
        ),
    )
    .unwrap();
    // pi asks first; No keeps the conversation as it is.
    pi.send(&format!("/import {}", import.display()));
    pi.tmux.wait_for("the question", WAIT, |s| {
        s.contains("Import session") && s.contains("Replace current session with")
    });
    pi.tmux.key("Down");
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the refusal", WAIT, |s| s.contains("Import cancelled"));
    let history = pi.tmux.history();
    assert!(
        history.contains("Exported answer.") && !history.contains("hello from an imported file"),
        "{history}"
    );
    pi.send(&format!("/import {}", import.display()));
    pi.tmux.wait_for("the question again", WAIT, |s| {
        s.contains("elsewhere.jsonl?") && s.contains("→ Yes")
    });
    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for("the imported conversation", WAIT, |s| {
        s.contains("Session imported from")
    });
    assert!(screen.contains("hello from an imported file"), "{screen}");
    assert!(!screen.contains("a question worth keeping"), "{screen}");
    // Its recorded folder is gone: it continues here, and says so.
    assert!(
        screen.contains("/somewhere/else no longer exists"),
        "{screen}"
    );
    let copies: Vec<_> = walk(&pi.sandbox.agent_dir)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "elsewhere.jsonl"))
        .collect();
    assert_eq!(
        copies.len(),
        1,
        "the file is copied into the session folder"
    );

    // A session recorded in a folder that exists continues there: the footer shows it.
    let other = root.join("other-project");
    std::fs::create_dir_all(&other).unwrap();
    let second = root.join("moved.jsonl");
    std::fs::write(
        &second,
        format!(
            "{}\n{}\n",
            serde_json::json!({"type": "session", "version": 3,
                "id": "0b1c2d3e-0000-4000-8000-000000000002",
                "timestamp": "2025-01-01T00:00:00.000Z", "cwd": other}),
            r#"{"type":"message","id":"bb000001","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"work in the other project","timestamp":1735689601000}}"#
        ),
    )
    .unwrap();
    pi.send(&format!("/import {}", second.display()));
    pi.tmux
        .wait_for("the third question", WAIT, |s| s.contains("moved.jsonl?"));
    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for("the session in its folder", WAIT, |s| {
        s.contains("work in the other project")
    });
    assert!(
        screen
            .lines()
            .any(|l| l.trim_end().ends_with("other-project")),
        "the footer names the session's folder: {screen}"
    );
    pi.quit_and_check_terminal();
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
