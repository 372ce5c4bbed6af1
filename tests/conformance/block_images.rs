//! The `images.blockImages` setting: off by default, read beside `images.autoResize`,
//! saved when changed; the read tool and `@file` arguments still read images (the images
//! are held back only when a request is built, where the model gets a note instead).
//! orig-file: packages/coding-agent/test/block-images.test.ts

use std::path::Path;

use pi::cli::files::process_file_args;
use pi::config::settings::Settings;
use serde_json::json;

use crate::tools::{run, text};

/// A 1×1 red PNG.
const TINY_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

fn png(dir: &Path) -> std::path::PathBuf {
    use base64::Engine;
    let path = dir.join("test.png");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(TINY_PNG)
        .unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

/// orig: blockImages setting › SettingsManager › should default blockImages to false
#[test]
fn off_by_default() {
    let s = Settings::from_values(json!({}), json!({}));
    assert!(!s.block_images());
}

/// orig: blockImages setting › SettingsManager › should return true when blockImages is set to true
#[test]
fn on_when_set() {
    let s = Settings::from_values(json!({"images": {"blockImages": true}}), json!({}));
    assert!(s.block_images());
    // The project's settings decide over the user's.
    let s = Settings::from_values(
        json!({"images": {"blockImages": true}}),
        json!({"images": {"blockImages": false}}),
    );
    assert!(!s.block_images());
}

/// orig: blockImages setting › SettingsManager › should persist blockImages setting via setBlockImages
#[test]
fn saved_when_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let (agent, cwd) = (tmp.path().join("agent"), tmp.path().join("project"));
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let (mut s, _) = Settings::load(&agent, &cwd);
    assert!(!s.block_images());
    s.set_global_nested("images", "blockImages", json!(true))
        .unwrap();
    assert!(s.block_images());
    assert!(Settings::load(&agent, &cwd).0.block_images(), "saved");
    s.set_global_nested("images", "blockImages", json!(false))
        .unwrap();
    assert!(!s.block_images());
    assert!(!Settings::load(&agent, &cwd).0.block_images());
}

/// orig: blockImages setting › SettingsManager › should handle blockImages alongside autoResize
#[test]
fn beside_auto_resize() {
    let s = Settings::from_values(
        json!({"images": {"autoResize": true, "blockImages": true}}),
        json!({}),
    );
    assert!(s.image_auto_resize() && s.block_images());
    let s = Settings::from_values(json!({"images": {"autoResize": false}}), json!({}));
    assert!(!s.image_auto_resize() && !s.block_images());
}

/// orig: blockImages setting › Read tool › should always read images (filtering happens at convertToLlm layer)
#[tokio::test]
async fn the_read_tool_reads_images() {
    let tmp = tempfile::tempdir().unwrap();
    let path = png(tmp.path());
    let out = run("read", tmp.path(), json!({"path": path}))
        .await
        .unwrap();
    assert!(
        out.content
            .iter()
            .any(|b| matches!(b, pi::ai::types::ContentBlock::Image(_)))
    );
}

/// orig: blockImages setting › Read tool › should read text files normally
#[tokio::test]
async fn the_read_tool_reads_text() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("test.txt"), "Hello, world!").unwrap();
    let out = run("read", tmp.path(), json!({"path": "test.txt"}))
        .await
        .unwrap();
    assert_eq!(out.content.len(), 1);
    assert!(text(&out).contains("Hello, world!"));
}

/// orig: blockImages setting › processFileArguments › should always process images (filtering happens at convertToLlm layer)
#[test]
fn file_arguments_take_images() {
    let tmp = tempfile::tempdir().unwrap();
    let path = png(tmp.path());
    let inputs = process_file_args(&[path.display().to_string()], tmp.path(), false).unwrap();
    assert_eq!(inputs.images.len(), 1);
    assert!(inputs.text.contains("test.png"));
    // Building a request with images blocked replaces them with a note.
    let mut messages = vec![pi::ai::types::Message::User(pi::ai::types::UserMessage {
        content: pi::ai::types::UserContent::Blocks(vec![inputs.images[0].clone()]),
        timestamp: 0,
    })];
    pi::ai::transform::block_images(&mut messages);
    let pi::ai::types::Message::User(u) = &messages[0] else {
        unreachable!()
    };
    let pi::ai::types::UserContent::Blocks(blocks) = &u.content else {
        unreachable!()
    };
    assert!(
        blocks
            .iter()
            .all(|b| !matches!(b, pi::ai::types::ContentBlock::Image(_)))
    );
}

/// orig: blockImages setting › processFileArguments › should process text files normally
#[test]
fn file_arguments_take_text() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("test.txt"), "Hello, world!").unwrap();
    let inputs = process_file_args(&["test.txt".into()], tmp.path(), false).unwrap();
    assert!(inputs.images.is_empty());
    assert!(inputs.text.contains("Hello, world!"), "{}", inputs.text);
}
