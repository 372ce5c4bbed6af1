//! Games and tool renderers drawn headless.

use super::*;

// tic-tac-toe.

#[test]
fn tic_tac_toe_runs_a_burst_of_moves_in_order() {
    let cli = Cli::new();
    cli.server.push(support::MockReply::openai_tool_calls(&[
        ("c1", "tic_tac_toe", json!({"action": "move_down"})),
        ("c2", "tic_tac_toe", json!({"action": "move_right"})),
        ("c3", "tic_tac_toe_see_board", json!({})),
        ("c4", "tic_tac_toe", json!({"action": "play"})),
    ]));
    cli.text("waiting for X");
    cli.ok(&["tic-tac-toe.lua"], &["-p", "your move"]);
    let request = cli.request(1);
    let results: Vec<String> = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| {
            m["content"]
                .as_str()
                .map(String::from)
                .unwrap_or_else(|| m["content"].to_string())
        })
        .collect();
    assert!(
        results[0].contains("Moved down. Cursor: (1, 0)"),
        "{results:?}"
    );
    assert!(
        results[1].contains("Moved right. Cursor: (1, 1)"),
        "{results:?}"
    );
    assert!(
        results[2].contains("<[1,1]>") && results[2].contains("Your cursor: (row=1, col=1)"),
        "{results:?}"
    );
    assert!(results[3].contains("It is not your turn."), "{results:?}");
}

#[tokio::test]
async fn tic_tac_toe_board_takes_the_users_move_and_shows_the_reply() {
    let twin = Twin::start("tic-tac-toe.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("tic-tac-toe", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert!(lines[0].contains(" Tic-Tac-Toe "), "{lines:?}");
    assert!(lines[2].contains("Turn: X (You)"), "{lines:?}");
    twin.keys(id, &["enter"]);
    twin.until("X in the centre", |s| {
        s.customs
            .first()?
            .lines
            .iter()
            .any(|l| plain(l).contains("│   ╳   │"))
            .then_some(())
    })
    .await;
    let actions = twin.actions();
    assert!(actions.contains(&ExtensionAction::SetSessionName("Tic-Tac-Toe".into())));
    let sent = actions.iter().find_map(|a| match a {
        ExtensionAction::SendMessage {
            custom_type,
            content,
            trigger_turn: true,
            ..
        } if custom_type == "tic-tac-toe-move" => content.as_str().map(String::from),
        _ => None,
    });
    assert!(
        sent.unwrap()
            .starts_with("Player X played at (row=1, col=1). It is now Player O's turn.")
    );
    let out = twin
        .emit(
            "before_agent_start",
            json!({"prompt": "", "systemPrompt": "S"}),
        )
        .await;
    assert!(
        out[0]["systemPrompt"]
            .as_str()
            .unwrap()
            .contains("## Tic-Tac-Toe (you are Player O)")
    );
    let played = twin
        .tool("tic_tac_toe", json!({"action": "play"}))
        .await
        .unwrap();
    assert_eq!(
        played["content"][0]["text"],
        "Placed O at (0,0). Cursor reset to (0,0). Your turn, X!"
    );
    twin.until("O in the corner", |s| {
        s.customs
            .first()?
            .lines
            .iter()
            .any(|l| plain(l).contains("│   ◯   │"))
            .then_some(())
    })
    .await;
    assert_eq!(
        twin.tool("tic_tac_toe", json!({"action": "play"}))
            .await
            .unwrap_err(),
        "It is not your turn."
    );
    twin.keys(id, &["escape"]);
    run.await.unwrap().unwrap();
}

// ---------------------------------------------------------------------------
// space-invaders.

fn ship_column(lines: &[String]) -> Option<usize> {
    let row = lines.get(25)?;
    row.chars().position(|c| c == '▲')
}

#[tokio::test]
async fn space_invaders_moves_the_ship_and_saves_on_pause() {
    let twin = Twin::start("space-invaders.lua", vec![]).await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("invaders", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert!(
        lines.len() > 1 && lines[1].contains("SPACE INVADERS") && lines[1].contains("Score: 0"),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 30);
    let start = ship_column(&lines).expect("the ship");
    assert!(
        lines[3..].iter().any(|l| l.contains("╲▼╱")),
        "aliens are drawn"
    );
    twin.keys(id, &["left"]);
    twin.until("ship moved left", |s| {
        let lines: Vec<String> = s.customs.first()?.lines.iter().map(|l| plain(l)).collect();
        (ship_column(&lines)? + 1 == start).then_some(())
    })
    .await;
    twin.keys(id, &["escape"]);
    run.await.unwrap().unwrap();
    let saved = twin.actions().into_iter().find_map(|a| match a {
        ExtensionAction::AppendEntry { custom_type, data }
            if custom_type == "space-invaders-save" =>
        {
            data
        }
        _ => None,
    });
    let saved = saved.expect("the game is saved");
    assert_eq!(saved["aliens"].as_array().unwrap().len(), 55);
    assert_eq!(saved["player"]["lives"], 3);
}

#[tokio::test]
async fn space_invaders_needs_a_ui() {
    let dir = tempfile::tempdir().unwrap();
    let twin = Twin::headless("space-invaders.lua", dir.path()).await;
    twin.view.lock().capture_messages = true;
    twin.command("invaders", "").await;
    assert_eq!(
        twin.view.take_messages(),
        ["Error: Space Invaders requires interactive mode"]
    );
}

// ---------------------------------------------------------------------------
// built-in-tool-renderer.

#[test]
fn built_in_tool_renderer_tools_still_read_write_edit_and_run() {
    let cli = Cli::new();
    cli.tool_call(
        "write",
        json!({"path": "src/a.txt", "content": "one\ntwo\nthree\n"}),
    );
    cli.tool_call("edit", json!({"path": "src/a.txt", "edits": [{"oldText": "two", "newText": "2"}, {"oldText": "three", "newText": "3"}]}));
    cli.tool_call(
        "edit",
        json!({"path": "src/a.txt", "oldText": "one", "newText": "1"}),
    );
    cli.tool_call(
        "edit",
        json!({"path": "src/a.txt", "edits": [{"oldText": "missing", "newText": "x"}]}),
    );
    cli.tool_call(
        "read",
        json!({"path": "src/a.txt", "offset": 2, "limit": 1}),
    );
    cli.tool_call("bash", json!({"command": "echo out; exit 4"}));
    cli.text("done");
    cli.ok(&["built-in-tool-renderer.lua"], &["-p", "work"]);
    assert_eq!(
        std::fs::read_to_string(cli.sandbox.project.join("src/a.txt")).unwrap(),
        "1\n2\n3\n"
    );
    assert_eq!(
        cli.tool_result(1),
        "Successfully wrote 14 bytes to src/a.txt"
    );
    assert_eq!(
        cli.tool_result(2),
        "Successfully replaced 2 block(s) in src/a.txt."
    );
    assert_eq!(
        cli.tool_result(3),
        "Successfully replaced 1 block(s) in src/a.txt."
    );
    assert!(
        cli.tool_result(4)
            .starts_with("Could not find the exact text in src/a.txt."),
        "{}",
        cli.tool_result(4)
    );
    // The built-in tools' own texts.
    assert_eq!(
        cli.tool_result(5),
        "2\n\n[2 more lines in file. Use offset=3 to continue.]"
    );
    assert_eq!(cli.tool_result(6), "out\n\n\nCommand exited with code 4");
}

#[tokio::test]
async fn built_in_tool_renderer_draws_compact_rows() {
    let twin = Twin::start("built-in-tool-renderer.lua", vec![]).await;
    let jobs = [
        (
            "c1",
            "read",
            json!({"path": "a.rs", "offset": 3}),
            json!({"content": [{"type": "text", "text": "x\ny\nz"}], "details": {}}),
        ),
        (
            "c2",
            "bash",
            json!({"command": "make test"}),
            json!({"content": [{"type": "text", "text": "ok\n\nall good"}], "details": {}}),
        ),
        (
            "c3",
            "edit",
            json!({"path": "a.rs"}),
            json!({"content": [{"type": "text", "text": "Successfully replaced 1 block(s) in a.rs."}],
            "details": {"diff": "@@ line 1 @@\n-old\n+new\n+more"}}),
        ),
        (
            "c4",
            "write",
            json!({"path": "b.rs", "content": "a\nb"}),
            json!({"content": [{"type": "text", "text": "Successfully wrote 3 bytes to b.rs"}], "details": {}}),
        ),
    ];
    for (id, name, args, result) in jobs {
        twin.store
            .lock()
            .tool_jobs
            .push_back(pi::lua::ui::tool_render::ToolRenderJob {
                call_id: id.into(),
                name: name.into(),
                args,
                result: Some(result),
                expanded: false,
                partial: false,
            });
    }
    twin.store.wake_host();
    let rows = twin
        .until("four rows", |s| {
            (s.tool_lines.len() == 4).then(|| s.tool_lines.clone())
        })
        .await;
    let shown: Vec<(String, String)> = rows
        .iter()
        .map(|(_, l)| {
            (
                plain(&l.call.as_ref().unwrap()[0]).trim_end().to_string(),
                plain(&l.result.as_ref().unwrap()[0]).trim_end().to_string(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("read a.rs (offset=3)".to_string(), "3 lines".to_string()),
            ("$ make test".to_string(), "done (2 lines)".to_string()),
            ("edit a.rs".to_string(), "+2 / -1".to_string()),
            ("write b.rs (2 lines)".to_string(), "Written".to_string()),
        ]
    );
    assert!(rows[2].1.self_shell);
}

// ---------------------------------------------------------------------------
// minimal-mode.

#[test]
fn minimal_mode_tools_find_grep_list_and_edit() {
    let cli = Cli::new();
    cli.write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
    cli.write("src/lib.rs", "pub fn lib() {}\n");
    cli.write("notes.md", "todo\n");
    cli.tool_call("find", json!({"pattern": "*.rs"}));
    cli.tool_call("grep", json!({"pattern": "fn [a-z]+", "path": "src"}));
    cli.tool_call("ls", json!({}));
    cli.tool_call(
        "edit",
        json!({"path": "notes.md", "edits": [{"oldText": "todo", "newText": "done"}]}),
    );
    cli.text("ok");
    cli.ok(&["minimal-mode"], &["-p", "look"]);
    assert_eq!(cli.tool_result(1), "src/lib.rs\nsrc/main.rs");
    let grep = cli.tool_result(2);
    assert!(
        grep.contains("src/main.rs:1:fn main() {") && grep.contains("src/lib.rs:1:pub fn lib() {}"),
        "{grep}"
    );
    assert_eq!(cli.tool_result(3), "hello.txt\nnotes.md\nsrc/");
    assert_eq!(
        std::fs::read_to_string(cli.sandbox.project.join("notes.md")).unwrap(),
        "done\n"
    );
    let tools = cli.tools(0);
    for name in ["read", "bash", "edit", "write", "find", "grep", "ls"] {
        assert!(tools.contains(&name.to_string()), "{tools:?}");
    }
}

#[tokio::test]
async fn minimal_mode_hides_output_until_expanded() {
    let twin = Twin::start("minimal-mode/init.lua", vec![]).await;
    let result = json!({"content": [{"type": "text", "text": "a.rs\nb.rs\nc.rs"}], "details": {}});
    for (id, name, args, expanded) in [
        ("c1", "bash", json!({"command": "ls", "timeout": 5}), false),
        ("c2", "find", json!({"pattern": "*.rs"}), false),
        ("c3", "find", json!({"pattern": "*.rs"}), true),
        (
            "c4",
            "read",
            json!({"path": "a.rs", "offset": 2, "limit": 3}),
            false,
        ),
    ] {
        twin.store
            .lock()
            .tool_jobs
            .push_back(pi::lua::ui::tool_render::ToolRenderJob {
                call_id: id.into(),
                name: name.into(),
                args,
                result: Some(result.clone()),
                expanded,
                partial: false,
            });
    }
    twin.store.wake_host();
    let rows = twin
        .until("four rows", |s| {
            (s.tool_lines.len() == 4).then(|| s.tool_lines.clone())
        })
        .await;
    let text = |i: usize| -> (String, Vec<String>) {
        let l = &rows[i].1;
        (
            plain(&l.call.as_ref().unwrap()[0]).trim_end().to_string(),
            l.result
                .as_ref()
                .map(|r| r.iter().map(|x| plain(x).trim_end().to_string()).collect())
                .unwrap_or_default(),
        )
    };
    assert_eq!(text(0).0, "$ ls (timeout 5s)");
    assert!(text(0).1.iter().all(|l| l.is_empty()), "{:?}", text(0).1);
    assert_eq!(text(1).0, "find *.rs in .");
    assert_eq!(text(1).1, [" → 3 files"]);
    assert_eq!(text(2).1, ["", "a.rs", "b.rs", "c.rs"]);
    assert_eq!(text(3).0, "read a.rs:2-4");
}
