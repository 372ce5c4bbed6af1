//! The transcript built from agent events: items, streaming updates, tool rows, and a
//! long session restored from its messages.

use super::*;
use crate::agent::events::ToolResultPayload;
use serde_json::json;

fn answer(text: &str) -> Message {
    let mut a = AssistantMessage::empty("api", "p", "m");
    a.content.push(ContentBlock::text(text));
    Message::Assistant(a)
}

#[test]
fn streaming_updates_one_item_then_ends() {
    let mut t = Transcript::new();
    t.apply(&AgentEvent::MessageStart {
        message: answer(""),
    });
    let end = AgentEvent::MessageEnd {
        message: answer("Hello there"),
    };
    t.apply(&end);
    assert_eq!(t.items.len(), 1);
    match &t.items[0] {
        Item::Assistant {
            text, streaming, ..
        } => {
            assert_eq!(text, "Hello there");
            assert!(!streaming);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn tool_rows_collect_output_and_errors() {
    let mut t = Transcript::new();
    t.apply(&AgentEvent::ToolExecutionStart {
        tool_call_id: "c1".into(),
        tool_name: "bash".into(),
        args: json!({"command": "ls"}),
    });
    t.apply(&AgentEvent::ToolExecutionEnd {
        tool_call_id: "c1".into(),
        tool_name: "bash".into(),
        result: ToolResultPayload {
            content: vec![ContentBlock::text("boom")],
            details: None,
        },
        is_error: true,
    });
    let Item::Tool(row) = &t.items[0] else {
        panic!()
    };
    assert!(row.done && row.is_error);
    assert_eq!(row.output, "boom");
    assert!(row.duration.is_some());
}

#[test]
fn a_call_id_used_again_in_a_later_turn_gets_a_row_of_its_own() {
    let mut t = Transcript::new();
    for (tool, command) in [("edit", "a.txt"), ("bash", "ls")] {
        t.apply(&AgentEvent::ToolExecutionStart {
            tool_call_id: "call_0".into(),
            tool_name: tool.into(),
            args: json!({"path": command, "command": command}),
        });
        t.apply(&AgentEvent::ToolExecutionEnd {
            tool_call_id: "call_0".into(),
            tool_name: tool.into(),
            result: ToolResultPayload {
                content: vec![ContentBlock::text(format!("{tool} output"))],
                details: None,
            },
            is_error: false,
        });
    }
    let rows: Vec<(&str, &str)> = t
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Tool(row) => Some((row.name.as_str(), row.output.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(rows, [("edit", "edit output"), ("bash", "bash output")]);
}

mod restore {
    use super::*;
    use crate::ai::types::UserMessage;

    #[test]
    fn a_long_session_shows_its_recent_messages_and_counts_all_usage() {
        let mut messages = Vec::new();
        for i in 0..1000 {
            messages.push(Message::User(UserMessage::text(format!("q{i}"))));
            let mut a = AssistantMessage::empty("api", "p", "m");
            a.content = vec![ContentBlock::text(format!("a{i}"))];
            a.usage.output = 1;
            messages.push(Message::Assistant(a));
        }
        let t = Transcript::from_messages(&messages.to_vec().into());
        assert_eq!(t.usage.output, 1000);
        assert_eq!(t.items.len(), RESTORED_MESSAGES + 1);
        assert_eq!(
            t.items[0],
            Item::Notice {
                text: "1400 earlier messages are not shown here (see /tree).".into(),
                kind: NoticeKind::Info
            }
        );
        assert_eq!(
            t.items[1],
            Item::User {
                text: "q700".into()
            }
        );
    }
}
