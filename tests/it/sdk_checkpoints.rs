//! File checkpoints through the SDK: a prompt whose run writes a file leaves a
//! checkpoint; the preview lists the file; rewinding the code only brings the file back
//! and keeps the conversation, and an in-memory session has none.

use pi::sdk::SessionStorage;
use pi::sdk::checkpoints::{ChangeKind, RewindOptions};
use serde_json::json;

use crate::sdk::{options, sandbox, start};
use crate::support::{MockReply, MockServer};

#[tokio::test(flavor = "multi_thread")]
async fn a_prompt_that_writes_leaves_a_checkpoint_that_rewinds_the_file() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_tool_calls(&[(
        "w1",
        "write",
        json!({"path": "hello.txt", "content": "rewritten\n"}),
    )]));
    server.push(MockReply::anthropic_text("written"));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox).storage(SessionStorage::New)).await;
    session.prompt("rewrite hello").await.expect("a reply");
    let hello = sandbox.project.join("hello.txt");
    assert_eq!(std::fs::read_to_string(&hello).unwrap(), "rewritten\n");

    let list = session.checkpoints().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].changed_files(), vec!["hello.txt"]);
    let entry = list[0].entry_id.clone().expect("the user message");
    let plan = session.rewind_preview(&entry).unwrap().expect("a plan");
    assert_eq!(plan.changes.len(), 1);
    assert_eq!(plan.changes[0].kind, ChangeKind::Modify);

    let messages = session.messages().len();
    let code_only = RewindOptions {
        code: true,
        conversation: false,
    };
    let outcome = session.rewind(&entry, code_only, &[]).await.unwrap();
    assert_eq!(outcome.files.restored, vec!["hello.txt"]);
    assert_eq!(std::fs::read_to_string(&hello).unwrap(), "hello world\n");
    assert_eq!(session.messages().len(), messages, "the conversation stays");

    // Without a session file there is nowhere to keep checkpoints.
    server.push(MockReply::anthropic_tool_calls(&[(
        "w2",
        "write",
        json!({"path": "hello.txt", "content": "again\n"}),
    )]));
    server.push(MockReply::anthropic_text("written again"));
    let memory = start(options(&sandbox)).await;
    memory.prompt("rewrite hello").await.expect("a reply");
    assert!(memory.checkpoints().unwrap().is_empty());
}
