//! The SDK speaks the same typed session commands as the terminal UI and RPC mode
//! (`Session::execute`), and its model and thinking changes reach extensions.

use pi::sdk::{Outcome, SdkError, SessionCommand, ThinkingLevel};
use serde_json::Value;

use crate::sdk::{options, sandbox, start};
use crate::support::MockServer;

/// An extension that appends each `model_select` and `thinking_level_select` to `log`.
fn recorder(dir: &std::path::Path, log: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("select-recorder.lua");
    let source = format!(
        r#"return function(pi)
  local function record(event)
    local f = assert(io.open({log:?}, "a"))
    f:write(pi.json.encode({{ type = event.type, model = event.model and event.model.id,
      source = event.source, level = event.level }}), "\n")
    f:close()
  end
  pi.on("model_select", record)
  pi.on("thinking_level_select", record)
end
"#,
        log = log.display().to_string()
    );
    std::fs::write(&path, source).unwrap();
    path
}

fn read(log: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_commands_change_the_session_and_extensions_hear_model_and_thinking_changes() {
    let server = MockServer::start();
    let sandbox = sandbox(&server);
    let log = sandbox.project.join("select.log");
    let extension = recorder(&sandbox.project, &log);
    let session = start(options(&sandbox).extension(&extension)).await;

    // A model that cannot think has no level to cycle to.
    let cycled = session
        .execute(SessionCommand::CycleThinking)
        .await
        .unwrap();
    assert!(matches!(cycled, Outcome::Cycled(None)), "{cycled:?}");

    session.set_model("mock", "mock-thinker").await.unwrap();
    let set = session
        .execute(SessionCommand::SetThinking(ThinkingLevel::High))
        .await
        .unwrap();
    assert!(
        matches!(set, Outcome::Thinking { changed: true }),
        "{set:?}"
    );
    assert_eq!(session.state().thinking, ThinkingLevel::High);
    let cycled = session
        .execute(SessionCommand::CycleThinking)
        .await
        .unwrap();
    assert!(
        matches!(
            cycled,
            Outcome::Cycled(Some(ThinkingLevel::Xhigh | ThinkingLevel::Off))
        ),
        "{cycled:?}"
    );

    let events = read(&log);
    assert_eq!(events[0]["type"], "model_select");
    assert_eq!(events[0]["model"], "mock-thinker");
    assert_eq!(events[0]["source"], "set");
    let levels: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "thinking_level_select")
        .map(|e| &e["level"])
        .collect();
    assert_eq!(levels[levels.len() - 2], "high", "{events:?}");

    // A command that cannot be carried out says why and changes nothing.
    let empty = session
        .execute(SessionCommand::SetName("  ".into()))
        .await
        .unwrap_err();
    assert_eq!(
        empty,
        SdkError::Failed("Session name cannot be empty".into())
    );
    assert!(matches!(
        session
            .execute(SessionCommand::SetName("named".into()))
            .await,
        Ok(Outcome::Done)
    ));
}
