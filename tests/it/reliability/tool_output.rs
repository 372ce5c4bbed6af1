//! What a tool hands the model is text: colours and other terminal escape
//! sequences are removed, other control bytes and invalid UTF-8 in command
//! output arrive as visible escapes, mostly-binary output as a summary, and
//! ordinary text unchanged.

use super::*;
use serde_json::json;

/// The text of the tool result the model got in the second request, after
/// running `command` through the bash tool.
fn bash_result_for(command: &str) -> (String, Vec<u8>) {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "bash",
        json!({ "command": command }),
    )]));
    server.push(MockReply::openai_text("seen"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "run it"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let request = &server.requests()[1];
    let messages = request.json()["messages"].as_array().unwrap();
    let tool = messages.iter().find(|m| m["role"] == "tool").unwrap();
    let content = match &tool["content"] {
        Value::String(s) => s.clone(),
        other => other[0]["text"].as_str().unwrap_or_default().to_string(),
    };
    (content, request.body.clone())
}

#[test]
fn control_bytes_and_invalid_utf8_reach_the_model_as_escapes() {
    let (text, body) = bash_result_for(r"printf 'a\0b\033[2Jc\377d\033'");
    assert_eq!(text, r"a\x00bc\xffd\x1b");
    assert!(!text.contains('\0') && !text.contains('\u{1b}'), "{text:?}");
    let body = String::from_utf8(body).unwrap();
    assert!(
        !body.contains("\\u0000") && !body.contains("\\u001b"),
        "{body}"
    );
    assert!(!body.bytes().any(|b| b == 0 || b == 0x1b), "{body}");
}

#[test]
fn coloured_output_reaches_the_model_as_plain_text() {
    let (text, _) = bash_result_for(r"printf '\033[1;31merror\033[0m: \033]0;t\007bad\n'");
    assert_eq!(text, "error: bad\n");
}

#[test]
fn ordinary_text_passes_unchanged() {
    let (text, _) = bash_result_for(r"printf 'col1\tcol2\nline two 漢字 ✓\n'");
    assert_eq!(text, "col1\tcol2\nline two 漢字 ✓\n");
}

#[test]
fn mostly_binary_output_is_summarised() {
    let (text, _) = bash_result_for(r"printf '\177ELF'; head -c 4092 /dev/zero");
    assert!(
        text.starts_with("[binary output: 4,096 bytes, first bytes 7f 45 4c 46 00 00"),
        "{text}"
    );
    assert!(!text.contains(r"\x00\x00"), "{text}");
}

#[tokio::test]
async fn ls_lists_names_that_are_not_utf8_escaped() {
    use pi::agent::tool::{AgentTool, ToolContext};
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let odd = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(dir.path().join(odd), "x").unwrap();
    std::fs::write(dir.path().join("plain.txt"), "x").unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let out = pi::tools::LsTool::new()
        .execute("c", json!({}), ToolContext::new(dir.path()))
        .await
        .unwrap();
    let text = out.content[0].as_text().unwrap_or_default().to_string();
    assert_eq!(text, "caf\\xe9.txt\nplain.txt\nsub/");
}
