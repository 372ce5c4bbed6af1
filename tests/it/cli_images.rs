//! Images leaving pi: `@big.png` is scaled to the provider limit with a note on the scale
//! (`images.autoResize`), sent as it is when resizing is off, and never sent at all with
//! `images.blockImages` — the real binary in print mode against the mock LLM.

use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};

use base64::Engine;
use serde_json::{Value, json};

fn sandbox(server: &MockServer, settings: Value) -> PiSandbox {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.openai_base_url(), "api": "openai-completions", "apiKey": "k",
            "models": [{"id": "eyes", "input": ["text", "image"], "contextWindow": 100000,
                        "maxTokens": 4096}]
        }}})
        .to_string(),
    );
    sandbox.write_agent_file("settings.json", &settings.to_string());
    image::DynamicImage::new_rgb8(3000, 1500)
        .save(sandbox.project.join("big.png"))
        .unwrap();
    sandbox
}

/// The data URLs of the images in the last request and its whole text.
fn sent(server: &MockServer) -> (Vec<image::DynamicImage>, String) {
    let body = server.last_request().unwrap().json.unwrap().to_string();
    let images = body
        .split("data:image/")
        .skip(1)
        .map(|rest| {
            let data = rest.split_once("base64,").unwrap().1;
            let data = &data[..data.find('"').unwrap()];
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(data)
                .unwrap();
            image::load_from_memory(&bytes).unwrap()
        })
        .collect();
    (images, body)
}

fn ask(sandbox: &PiSandbox) {
    let out = sandbox.run(
        &["--model", "mock/eyes", "-p", "@big.png", "what is this?"],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_large_attachment_is_scaled_to_the_limit_and_the_model_told_the_scale() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("A picture."));
    ask(&sandbox(&server, json!({})));
    let (images, body) = sent(&server);
    assert_eq!(images.len(), 1);
    assert_eq!((images[0].width(), images[0].height()), (2000, 1000));
    assert!(
        body.contains("original 3000x1500, displayed at 2000x1000"),
        "{body}"
    );
    assert!(body.contains("Multiply coordinates by 1.50"));
}

#[test]
fn auto_resize_off_sends_the_image_as_it_is() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("A picture."));
    ask(&sandbox(&server, json!({"images": {"autoResize": false}})));
    let (images, body) = sent(&server);
    assert_eq!((images[0].width(), images[0].height()), (3000, 1500));
    assert!(!body.contains("Multiply coordinates"));
}

#[test]
fn block_images_keeps_every_image_on_the_machine() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("No picture."));
    ask(&sandbox(&server, json!({"images": {"blockImages": true}})));
    let (images, body) = sent(&server);
    assert!(images.is_empty(), "{body}");
    assert!(body.contains("Image reading is disabled."), "{body}");
    assert!(body.contains("what is this?"));
}
