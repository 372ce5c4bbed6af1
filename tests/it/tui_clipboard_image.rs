//! Ctrl+V in the terminal UI: an image on the clipboard (read through a fake `wl-paste` on
//! PATH) becomes a temporary file whose path goes into the editor and whose image goes to
//! the model; no image and no clipboard at all are each said plainly.

use crate::support;
use crate::support::tui_harness;

use std::path::Path;
use std::time::Duration;

use serde_json::json;
use support::pi_cli::PiSandbox;
use support::{MockReply, MockServer};
use tui_harness::*;

const WAIT: Duration = Duration::from_secs(20);

/// A fake `wl-paste` offering `types`; asked for image/png it prints `image`.
fn fake_wl_paste(bin: &Path, types: &str, image: &Path) {
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = --list-types ]; then printf '{types}\\n'; exit 0; fi\n\
         if [ \"$2\" = image/png ]; then /bin/cat {}; exit 0; fi\nexit 1\n",
        image.display()
    );
    let path = bin.join("wl-paste");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn sandbox(server: &MockServer) -> PiSandbox {
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.openai_base_url(), "api": "openai-completions", "apiKey": "k",
            "models": [{"id": "eyes", "input": ["text", "image"], "contextWindow": 100000,
                        "maxTokens": 4096}]
        }}})
        .to_string(),
    );
    let root = sandbox.root.path().to_path_buf();
    for dir in ["bin", "tmp"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    sandbox.env.extend([
        ("PATH".into(), root.join("bin").display().to_string()),
        ("TMPDIR".into(), root.join("tmp").display().to_string()),
        ("WAYLAND_DISPLAY".into(), "wayland-test".into()),
    ]);
    sandbox
}

#[test]
fn ctrl_v_pastes_a_clipboard_image_as_an_attachment() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("A red square."));
    let sandbox = sandbox(&server);
    let root = sandbox.root.path().to_path_buf();
    let png = root.join("clip.png");
    image::DynamicImage::new_rgb8(40, 30).save(&png).unwrap();
    fake_wl_paste(&root.join("bin"), "text/plain", &png);
    let pi = Session::start(sandbox, "--model mock/eyes");
    pi.tmux.wait_for("the editor", WAIT, |s| s.contains("eyes"));

    pi.tmux.key("C-v");
    pi.tmux.wait_for("the no-image notice", WAIT, |s| {
        s.contains("The clipboard holds no image.")
    });

    fake_wl_paste(&root.join("bin"), "text/plain\\nimage/png", &png);
    pi.tmux.type_text("what is in");
    pi.tmux.key("C-v");
    let screen = pi
        .tmux
        .wait_for("the pasted path", WAIT, |s| s.contains("pi-clipboard-"));
    assert!(screen.contains("what is in "), "{screen}");
    let saved: Vec<_> = std::fs::read_dir(root.join("tmp"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".png"))
        .collect();
    assert_eq!(saved.len(), 1, "the image is saved to the temporary folder");
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("A red square."));
    let body = server.last_request().unwrap().json.unwrap().to_string();
    assert!(body.contains("data:image/png;base64,"), "{body}");
    pi.quit_and_check_terminal();
}

#[test]
fn ctrl_v_without_a_clipboard_says_how_to_attach_instead() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let mut sandbox = sandbox(&server);
    sandbox.env.retain(|(k, _)| k != "WAYLAND_DISPLAY");
    let before = sandbox.root.path().join("before.txt");
    let after = sandbox.root.path().join("after.txt");
    let command = pi_command(&sandbox, "--model mock/eyes", &before, &after).replacen(
        "env ",
        "env -u WAYLAND_DISPLAY -u DISPLAY -u XDG_SESSION_TYPE ",
        1,
    );
    let tmux = Tmux::start(&command, &sandbox.project);
    tmux.wait_for("the editor", WAIT, |s| s.contains("eyes"));
    tmux.key("C-v");
    tmux.wait_for("the no-clipboard notice", WAIT, |s| {
        s.contains("No clipboard to paste an image from")
    });
    tmux.key("C-d");
    wait_for_file(&after, WAIT);
}
