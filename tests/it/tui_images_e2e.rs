//! End to end in tmux: images in the conversation are drawn inline with the
//! Kitty graphics protocol when pi runs with a Kitty terminal's environment
//! (the raw bytes pi writes are captured with `pipe-pane`), and named by a
//! text line in a terminal without a graphics protocol.

use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

use std::time::Duration;

use serde_json::json;

/// A 90x36 PNG in the project folder.
fn write_picture(dir: &std::path::Path) {
    let mut bytes = Vec::new();
    image::RgbImage::from_pixel(90, 36, image::Rgb([200, 30, 30]))
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    std::fs::write(dir.join("pic.png"), bytes).unwrap();
}

/// pi with a model that reads images, in a terminal described by `env`.
fn start(server: &MockServer, env: &[(&str, &str)], settings: &str) -> Session {
    let mut sandbox = crate::support::pi_cli::PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.openai_base_url(), "api": "openai-completions", "apiKey": "k",
            "models": [{"id": "mock-model", "input": ["text", "image"],
                        "contextWindow": 100000, "maxTokens": 4096}]
        }}})
        .to_string(),
    );
    sandbox.write_agent_file("settings.json", settings);
    write_picture(&sandbox.project);
    for (key, value) in env {
        sandbox.env.push((key.to_string(), value.to_string()));
    }
    let pi = Session::start(sandbox, "--model mock/mock-model");
    pi.tmux
        .wait_for("the editor", Duration::from_secs(20), |s| {
            s.contains("mock-model")
        });
    pi
}

const KITTY: [(&str, &str); 3] = [
    ("KITTY_WINDOW_ID", "1"),
    ("TERM", "xterm-kitty"),
    ("TMUX", ""),
];

/// Record what pi writes to the terminal from now on; returns the file.
fn capture(pi: &Session) -> std::path::PathBuf {
    let raw = pi.sandbox.root.path().join("raw-output.bin");
    let command = format!("cat >> {}", quote(&raw.to_string_lossy()));
    pi.tmux.tmux(&["pipe-pane", "-o", &command]);
    raw
}

/// Send a message naming `@pic.png` (the first Enter may take the file
/// completion, the second sends).
fn send_with_picture(pi: &Session, text: &str) {
    pi.send(text);
    std::thread::sleep(Duration::from_millis(300));
    pi.tmux.key("Enter");
}

fn read_raw(path: &std::path::Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).to_string()
}

fn wait_raw(path: &std::path::Path, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let raw = read_raw(path);
        if pred(&raw) {
            return raw;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}; output: {:?}",
            raw.chars().take(3000).collect::<String>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_attached_and_a_read_image_are_drawn_with_the_kitty_protocol() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    for alternate in [false, true] {
        let server = MockServer::start();
        server.push(MockReply::openai_tool_calls(&[(
            "call_1",
            "read",
            json!({"path": "pic.png"}),
        )]));
        server.push(MockReply::openai_text("a red rectangle"));
        let settings =
            json!({"alternateScreen": alternate, "terminal": {"imageWidthCells": 10}}).to_string();
        let pi = start(&server, &KITTY, &settings);
        let raw = capture(&pi);
        send_with_picture(&pi, "what is in @pic.png");
        pi.tmux
            .wait_for("the answer", Duration::from_secs(20), |s| {
                s.contains("a red rectangle")
            });
        let out = wait_raw(&raw, "two images", |r| {
            r.matches("\x1b_Ga=T,f=100").count() >= 2
        });
        // Drawn 10 cells wide; the rows follow from the cell size (9x18 px
        // unless the terminal reports its own): 2 rows for 90x36 px.
        let head = "\x1b_Ga=T,f=100,q=2,C=1,c=10,r=";
        let at = out.find(head).expect("the Kitty sequence") + head.len();
        let rows: usize = out[at..]
            .split(',')
            .next()
            .and_then(|r| r.parse().ok())
            .expect("rows");
        assert!((1..=4).contains(&rows), "{out:?}");
        let screen = pi.tmux.screen();
        assert!(!screen.contains("[image: "), "no text stand-in:\n{screen}");
        // The picture's rows stay empty: nothing is drawn over it.
        let lines: Vec<&str> = screen.lines().collect();
        let read = lines
            .iter()
            .position(|l| l.contains("Read image file"))
            .expect("the read row");
        let answer = lines
            .iter()
            .position(|l| l.contains("a red rectangle"))
            .expect("the answer");
        let blank = lines[read + 1..answer]
            .iter()
            .filter(|l| l.trim().is_empty())
            .count();
        assert!(blank > rows, "spacer and {rows} image rows:\n{screen}");
        pi.quit_and_check_terminal();
    }
}

#[test]
fn without_a_graphics_protocol_or_with_show_images_off_a_text_line_stands_in() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    for (env, settings) in [
        (&[("TERM", "xterm-256color"), ("TMUX", "")][..], "{}"),
        (&KITTY[..], r#"{"terminal": {"showImages": false}}"#),
    ] {
        let server = MockServer::start();
        server.push(MockReply::openai_text("seen it"));
        let pi = start(&server, env, settings);
        let raw = capture(&pi);
        send_with_picture(&pi, "what is in @pic.png");
        pi.tmux
            .wait_for("the stand-in", Duration::from_secs(20), |s| {
                s.contains("[image: image/png, 90x36]") && s.contains("seen it")
            });
        let out = read_raw(&raw);
        assert!(!out.contains("\x1b_G"), "no Kitty sequence: {out:?}");
        assert!(!out.contains("\x1b]1337;"), "no iTerm2 sequence: {out:?}");
        pi.quit_and_check_terminal();
    }
}
