//! Compressed responses: a gzip- or deflate-encoded stream is decoded and
//! answered; a body that claims an encoding it does not have is named as an
//! undecodable body.

use super::*;
use crate::support::OpenAiSse;
use std::io::Write;

fn compressed(body: &[u8], encoding: &str) -> Vec<u8> {
    match encoding {
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(body).unwrap();
            e.finish().unwrap()
        }
        _ => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(body).unwrap();
            e.finish().unwrap()
        }
    }
}

#[test]
fn gzip_and_deflate_streams_are_answered() {
    for encoding in ["gzip", "deflate"] {
        let server = MockServer::start();
        let sse = OpenAiSse::text_reply(&format!("decoded from {encoding}")).build();
        server.push(
            MockReply::sse(compressed(sse.as_bytes(), encoding))
                .header("content-encoding", encoding)
                .chunked(&[64]),
        );
        let sandbox = PiSandbox::with_mock(&server, "openai-completions");
        let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hi"], None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{encoding}: {stderr}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("decoded from {encoding}\n")
        );
        let accepted = server.requests()[0]
            .header("accept-encoding")
            .unwrap_or_default()
            .to_string();
        assert!(accepted.contains(encoding), "{accepted}");
    }
}

#[test]
fn a_body_that_cannot_be_decoded_is_named_as_such() {
    let server = MockServer::start();
    server.set_handler(|_| {
        MockReply::sse(b"data: this is not gzip at all\n\n".to_vec())
            .header("content-encoding", "gzip")
    });
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", r#"{"retry": {"maxRetries": 0}}"#);
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hi"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("could not be decoded"), "{stderr}");
    assert!(stderr.contains("gzip"), "{stderr}");
}
