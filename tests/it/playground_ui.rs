//! The interface extensions of extensions/playground: footers, widgets and
//! gates, loaded headless and driven through their events, tools and a
//! scripted front end.

use crate::support::fake_ui;
use crate::support::playground;

use fake_ui::FakeUi;
use pi::lua::{ExtensionAction, SharedView};
use playground::*;
use serde_json::{Value, json};

fn end_of(tool: &str) -> Value {
    json!({"type": "tool_execution_end", "toolName": tool, "toolCallId": "c", "isError": false})
}

#[tokio::test]
async fn pure_focus_replaces_the_footer_with_nothing() {
    let (h, store) = load(&["pure-focus.lua"], SharedView::new("."), None).await;
    assert!(store.lock().footer.is_none());
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    let footer = until(&store, "a footer", |s| s.footer.clone()).await;
    assert!(footer.is_empty(), "{footer:?}");
}

#[tokio::test]
async fn minimal_footer_shows_the_model_and_a_ten_cell_context_meter() {
    let view = SharedView::new(".");
    view.lock().model = json!({"id": "test-model"});
    view.lock().context_usage = json!({"tokens": 3000, "contextWindow": 10000, "percent": 30});
    let (h, store) = load(&["minimal.lua"], view.clone(), None).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    let footer = until(&store, "footer", |s| s.footer.clone()).await;
    assert_eq!(footer.len(), 1);
    let line = plain(&footer[0]);
    assert!(line.starts_with(" test-model "), "{line}");
    assert!(line.ends_with("[###-------] 30% "), "{line}");
    assert_eq!(line.chars().count(), 80);

    view.lock().context_usage = json!({"tokens": 8600, "contextWindow": 10000, "percent": 86});
    h.emit("turn_end", json!({"type": "turn_end"})).await;
    until(&store, "the meter to fill", |s| {
        let line = plain(&s.footer.as_ref()?[0]);
        line.ends_with("[#########-] 86% ").then_some(())
    })
    .await;
}

#[tokio::test]
async fn tool_counter_footer_shows_tokens_cost_folder_branch_and_tally() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("shop");
    std::fs::create_dir(&repo).unwrap();
    let git = std::process::Command::new("git")
        .args(["init", "-q", "-b", "trunk"])
        .current_dir(&repo)
        .status()
        .unwrap();
    assert!(git.success());
    let view = SharedView::new(&repo);
    view.lock().model = json!({"id": "test-model"});
    view.lock().context_usage = json!({"tokens": 5000, "contextWindow": 10000, "percent": 50});
    set_branch(
        &view,
        vec![
            message(1, "10:00:00", json!({"role": "user", "content": "hi"})),
            message(
                2,
                "10:00:05",
                json!({"role": "assistant", "content": [],
                "usage": {"input": 12000, "output": 2100, "cost": {"total": 0.0123}}}),
            ),
            message(
                3,
                "10:00:06",
                json!({"role": "toolResult", "toolName": "read", "content": []}),
            ),
            message(
                4,
                "10:00:07",
                json!({"role": "toolResult", "toolName": "read", "content": []}),
            ),
            message(
                5,
                "10:00:08",
                json!({"role": "toolResult", "toolName": "bash", "content": []}),
            ),
        ],
    );
    let (h, store) = load(&["tool-counter.lua"], view, None).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    let footer = until(&store, "the branch in the footer", |s| {
        let f = s.footer.as_ref()?;
        plain(&f[1]).contains("(trunk)").then(|| f.clone())
    })
    .await;
    assert_eq!(footer.len(), 2);
    let (top, bottom) = (plain(&footer[0]), plain(&footer[1]));
    assert!(top.starts_with(" test-model  [#####-----] 50%"), "{top}");
    assert!(top.ends_with("12k in  2.1k out  $0.01 "), "{top}");
    assert!(bottom.starts_with(" shop (trunk)"), "{bottom}");
    assert!(bottom.ends_with("read 2  bash 1 "), "{bottom}");

    for _ in 0..2 {
        h.emit("tool_execution_end", end_of("bash")).await;
    }
    until(&store, "bash to lead the tally", |s| {
        plain(&s.footer.as_ref()?[1])
            .ends_with("bash 3  read 2 ")
            .then_some(())
    })
    .await;
}

#[tokio::test]
async fn tool_counter_widget_colours_each_tool_and_counts_new_calls() {
    let view = SharedView::new(".");
    set_branch(
        &view,
        vec![
            message(
                1,
                "10:00:00",
                json!({"role": "toolResult", "toolName": "read", "content": []}),
            ),
            message(
                2,
                "10:00:01",
                json!({"role": "toolResult", "toolName": "bash", "content": []}),
            ),
            message(
                3,
                "10:00:02",
                json!({"role": "toolResult", "toolName": "read", "content": []}),
            ),
        ],
    );
    let (h, store) = load(&["tool-counter-widget.lua"], view, None).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    assert_eq!(
        widget(&store, "tool-counter").await,
        ["Tools (3):  [read 2]  [bash 1]"]
    );
    let raw = store.lock().widgets["tool-counter"].1[0].clone();
    let colour_before = |tag: &str| {
        let at = raw.find(tag).unwrap();
        raw[..at].rsplit("\x1b[").next().unwrap().to_string()
    };
    assert_ne!(colour_before("[read"), colour_before("[bash"), "{raw:?}");

    h.emit("tool_execution_end", end_of("write")).await;
    until(&store, "the write call", |s| {
        let line = plain(&s.widgets.get("tool-counter")?.1[0]);
        (line == "Tools (4):  [read 2]  [bash 1]  [write 1]").then_some(())
    })
    .await;
}

#[tokio::test]
async fn purpose_gate_holds_input_until_a_purpose_is_given_then_prompts_with_it() {
    let ui = FakeUi::new(vec![
        json!({"cancelled": true}),
        json!({"value": "  fix the login test "}),
    ]);
    let view = SharedView::new(".");
    let (h, store) = load(&["purpose-gate.lua"], view.clone(), Some(ui.clone())).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    assert!(widget(&store, "purpose").await[0].contains("not set"));
    let base = json!({"type": "before_agent_start", "prompt": "x", "systemPrompt": "BASE"});
    assert!(
        h.emit("before_agent_start", base.clone())
            .await
            .results
            .is_empty()
    );

    let input = json!({"type": "input", "text": "hello", "source": "interactive"});
    let held = h.emit("input", input.clone()).await;
    assert_eq!(held.results, [json!({"action": "handled"})]);
    assert_eq!(ui.calls("set_editor_text")[0]["text"], "hello");
    assert_eq!(ui.calls("notify")[0]["notifyType"], "warning");

    let passed = h.emit("input", input.clone()).await;
    assert_eq!(passed.results, [json!({"action": "continue"})]);
    assert_eq!(ui.calls("input")[0]["title"], "What is this session for?");
    let line = &widget(&store, "purpose").await[0];
    assert_eq!(line, "◎ PURPOSE  fix the login test");
    let appended = view.take_actions().into_iter().any(|a| {
        a == ExtensionAction::AppendEntry {
            custom_type: "purpose-gate".into(),
            data: Some(json!({"purpose": "fix the login test"})),
        }
    });
    assert!(appended, "the purpose is kept in the session");

    let prompt = h.emit("before_agent_start", base).await.results[0]["systemPrompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        prompt.starts_with("BASE\n\n## Session purpose\nfix the login test"),
        "{prompt}"
    );
    assert!(h.emit("input", input).await.results.is_empty());
    assert_eq!(ui.calls("input").len(), 2, "asked only until answered");
}

#[tokio::test]
async fn purpose_gate_remembers_the_purpose_from_the_branch_and_skips_without_a_ui() {
    let view = SharedView::new(".");
    set_branch(
        &view,
        vec![
            json!({"type": "custom", "id": "1", "parentId": null, "customType": "purpose-gate",
            "timestamp": "2026-11-23T10:00:00.000Z", "data": {"purpose": "write the docs"}}),
        ],
    );
    let ui = FakeUi::new(Vec::new());
    let (h, store) = load(&["purpose-gate.lua"], view, Some(ui.clone())).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    assert_eq!(
        widget(&store, "purpose").await[0],
        "◎ PURPOSE  write the docs"
    );
    let input = json!({"type": "input", "text": "go", "source": "interactive"});
    assert!(h.emit("input", input.clone()).await.results.is_empty());
    assert!(ui.calls("input").is_empty());

    let (h, _) = load(&["purpose-gate.lua"], SharedView::new("."), None).await;
    assert!(
        h.emit("input", input).await.results.is_empty(),
        "print mode is not gated"
    );
}

async fn tilldone(h: &pi::lua::ExtensionHandle, params: Value) -> Result<Value, String> {
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    h.execute_tool("tilldone", "t1", params, Default::default(), tx)
        .await
        .map_err(|e| e.to_string())
}

async fn tool_call(h: &pi::lua::ExtensionHandle, tool: &str) -> Vec<Value> {
    let event = json!({"type": "tool_call", "toolName": tool, "toolCallId": "c1", "input": {}});
    let out = h.emit("tool_call", event).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    out.results
}

fn last_status(ui: &FakeUi) -> Option<String> {
    ui.calls("setStatus")
        .iter()
        .rev()
        .find(|s| s["statusKey"] == "tilldone")
        .map(|s| s["statusText"].as_str().unwrap_or("<cleared>").to_string())
}

#[tokio::test]
async fn tilldone_blocks_other_tools_until_a_task_is_in_progress() {
    let ui = FakeUi::new(Vec::new());
    let (h, store) = load(&["tilldone.lua"], SharedView::new("."), Some(ui.clone())).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    let blocked = tool_call(&h, "bash").await;
    assert_eq!(blocked[0]["block"], true);
    assert!(
        blocked[0]["reason"]
            .as_str()
            .unwrap()
            .contains("No TillDone tasks")
    );

    let added = tilldone(
        &h,
        json!({"action": "add", "text": "- write tests\n- ship it"}),
    )
    .await
    .unwrap();
    let text = added["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("Added #1–#2"), "{text}");
    assert_eq!(added["details"]["tasks"][1]["text"], "ship it");
    assert_eq!(last_status(&ui).unwrap(), "TillDone: 2 tasks (2 remaining)");
    let blocked = tool_call(&h, "read").await;
    assert!(
        blocked[0]["reason"]
            .as_str()
            .unwrap()
            .contains("No task is in progress")
    );
    assert!(
        tool_call(&h, "tilldone").await.is_empty(),
        "its own tool always runs"
    );

    tilldone(&h, json!({"action": "toggle", "id": 1}))
        .await
        .unwrap();
    assert!(tool_call(&h, "bash").await.is_empty());
    let current = widget(&store, "tilldone-current").await;
    assert_eq!(current[1].trim_end(), " ◐ WORKING ON  #1 write tests");

    tilldone(&h, json!({"action": "toggle", "id": 1}))
        .await
        .unwrap();
    assert_eq!(last_status(&ui).unwrap(), "TillDone: 2 tasks (1 remaining)");
    assert_eq!(tool_call(&h, "bash").await[0]["block"], true);
    let err = tilldone(&h, json!({"action": "toggle", "id": 9}))
        .await
        .unwrap_err();
    assert!(err.contains("no task #9"), "{err}");
    let err = tilldone(&h, json!({"action": "add"})).await.unwrap_err();
    assert!(err.contains("needs `text`"), "{err}");
    tilldone(&h, json!({"action": "clear"})).await.unwrap();
    assert_eq!(last_status(&ui).unwrap(), "<cleared>");
}

#[tokio::test]
async fn tilldone_rebuilds_the_list_from_the_branch() {
    let view = SharedView::new(".");
    let result = |tasks: Value| {
        json!({"role": "toolResult", "toolName": "tilldone", "content": [],
            "details": {"tasks": tasks, "nextId": 3, "title": "release"}})
    };
    set_branch(
        &view,
        vec![
            message(
                1,
                "10:00:00",
                result(json!([{"id": 1, "text": "old", "status": "todo"}])),
            ),
            message(
                2,
                "10:00:01",
                result(json!([{"id": 1, "text": "tag", "status": "done"},
                {"id": 2, "text": "announce", "status": "inprogress"}])),
            ),
        ],
    );
    let (h, store) = load(&["tilldone.lua"], view.clone(), None).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    let current = widget(&store, "tilldone-current").await;
    assert_eq!(current[1].trim_end(), " ◐ WORKING ON  #2 announce");
    assert!(tool_call(&h, "bash").await.is_empty());
    let listed = tilldone(&h, json!({"action": "list"})).await.unwrap();
    assert_eq!(
        listed["content"][0]["text"],
        "# release\n● #1 [done] tag\n◐ #2 [in progress] announce"
    );

    // /tree back to the first result: one task, none in progress.
    view.lock().leaf_id = Some("1".into());
    h.emit("session_tree", json!({"type": "session_tree"}))
        .await;
    until(&store, "the older list", |s| {
        let w = &s.widgets.get("tilldone-current")?.1;
        plain(&w[1])
            .contains("no task in progress, 1 to do")
            .then_some(())
    })
    .await;
    assert_eq!(tool_call(&h, "bash").await[0]["block"], true);
}

#[tokio::test]
async fn tilldone_nudges_once_per_prompt_when_the_agent_stops_with_open_tasks() {
    let view = SharedView::new(".");
    let (h, _) = load(&["tilldone.lua"], view.clone(), None).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    let nudges = |view: &SharedView| -> Vec<(String, bool)> {
        view.take_actions()
            .into_iter()
            .filter_map(|a| match a {
                ExtensionAction::SendMessage {
                    custom_type,
                    content,
                    trigger_turn,
                    ..
                } if custom_type == "tilldone-nudge" => {
                    Some((content.as_str().unwrap().to_string(), trigger_turn))
                }
                _ => None,
            })
            .collect()
    };
    let end = json!({"type": "agent_end", "messages": []});
    h.emit("agent_end", end.clone()).await;
    assert!(nudges(&view).is_empty(), "no list, no nudge");

    tilldone(&h, json!({"action": "add", "text": "a\nb"}))
        .await
        .unwrap();
    tilldone(&h, json!({"action": "toggle", "id": 1}))
        .await
        .unwrap();
    h.emit("agent_end", end.clone()).await;
    let sent = nudges(&view);
    assert_eq!(sent.len(), 1);
    let (text, trigger) = &sent[0];
    assert!(*trigger, "the nudge starts another turn");
    assert!(
        text.starts_with("You stopped with 2 TillDone tasks still open."),
        "{text}"
    );
    assert!(
        text.contains("◐ #1 [in progress] a") && text.contains("○ #2 [todo] b"),
        "{text}"
    );

    h.emit("agent_end", end.clone()).await;
    assert!(nudges(&view).is_empty(), "once per prompt");
    h.emit(
        "input",
        json!({"type": "input", "text": "go on", "source": "interactive"}),
    )
    .await;
    h.emit("agent_end", end.clone()).await;
    assert_eq!(nudges(&view).len(), 1, "a new prompt, a new nudge");

    tilldone(&h, json!({"action": "toggle", "id": 1}))
        .await
        .unwrap();
    tilldone(&h, json!({"action": "toggle", "id": 2}))
        .await
        .unwrap();
    tilldone(&h, json!({"action": "toggle", "id": 2}))
        .await
        .unwrap();
    h.emit(
        "input",
        json!({"type": "input", "text": "x", "source": "interactive"}),
    )
    .await;
    h.emit("agent_end", end).await;
    assert!(nudges(&view).is_empty(), "everything is done");
}
