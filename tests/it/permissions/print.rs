//! `pi -p`: refusals name their rule and how to allow the call; what the rules allow runs.

use super::*;

const API: &str = "openai-completions";

fn run_print(sandbox: &PiSandbox, extra: &[&str]) -> String {
    let mut args = vec!["--model", "mock/mock-model"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-p", "go"]);
    let out = sandbox.run(&args, None);
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_deny_rule_refuses_the_command_behind_a_list_and_names_the_rule() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        (
            "c_push",
            "bash",
            json!({"command": "true && env A=1 git push origin"}),
        ),
        ("c_echo", "bash", json!({"command": "echo allowed-ok"})),
    ]));
    server.push(MockReply::openai_text("done"));
    let sandbox = sandbox_with_rules(
        &server,
        API,
        json!([{"tool": "bash", "pattern": "git push*", "action": "deny"}]),
    );
    let stderr = run_print(&sandbox, &[]);
    let results = tool_results(&sandbox);
    let (_, error, text) = result_of(&results, "c_push");
    assert!(*error, "{text} / {stderr}");
    assert!(
        text.contains("bash \"git push*\" → deny (user)") && text.contains("git push origin"),
        "{text}"
    );
    let (_, error, text) = result_of(&results, "c_echo");
    assert!(!*error && text.contains("allowed-ok"), "{text}");
}

#[test]
fn the_danger_floor_refuses_in_print_mode_with_the_rule_that_would_allow_it() {
    let server = MockServer::start();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("keep");
    std::fs::create_dir_all(&victim).unwrap();
    server.push(MockReply::openai_tool_calls(&[
        (
            "c_rm",
            "bash",
            json!({"command": format!("rm -rf {}", victim.display())}),
        ),
        ("c_ls", "bash", json!({"command": "ls"})),
    ]));
    server.push(MockReply::openai_text("done"));
    // Any rule opts in to the policy, and with it the floor.
    let sandbox = sandbox_with_rules(
        &server,
        API,
        json!([{"tool": "bash", "pattern": "ls*", "action": "allow"}]),
    );
    run_print(&sandbox, &[]);
    let results = tool_results(&sandbox);
    let (_, error, text) = result_of(&results, "c_rm");
    assert!(*error, "{text}");
    assert!(text.contains("floor:rm-outside-workspace"), "{text}");
    assert!(text.contains("~/.pi/agent/settings.json"), "{text}");
    assert!(
        text.contains(r#""action":"allow""#) && text.contains(r#""tool":"bash""#),
        "the message shows the rule that allows it: {text}"
    );
    assert!(victim.exists(), "nothing was removed");
    let (_, error, text) = result_of(&results, "c_ls");
    assert!(!*error && text.contains("hello.txt"), "{text}");
}

#[test]
fn with_yolo_the_danger_floor_still_refuses_in_print_mode() {
    let server = MockServer::start();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("keep");
    std::fs::create_dir_all(&victim).unwrap();
    server.push(MockReply::openai_tool_calls(&[
        (
            "c_rm",
            "bash",
            json!({"command": format!("rm -rf {}", victim.display())}),
        ),
        ("c_ls", "bash", json!({"command": "ls"})),
    ]));
    server.push(MockReply::openai_text("done"));
    // No rule at all: `--yolo` alone opts in, prompts are off, the floor is not.
    let sandbox = PiSandbox::with_mock(&server, API);
    run_print(&sandbox, &["--yolo"]);
    let results = tool_results(&sandbox);
    let (_, error, text) = result_of(&results, "c_rm");
    assert!(
        *error && text.contains("floor:rm-outside-workspace"),
        "{text}"
    );
    assert!(victim.exists(), "nothing was removed");
    let (_, error, text) = result_of(&results, "c_ls");
    assert!(!*error && text.contains("hello.txt"), "{text}");
}

#[test]
fn without_any_rule_nothing_changes() {
    let server = MockServer::start();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("gone");
    std::fs::create_dir_all(&victim).unwrap();
    server.push(MockReply::openai_tool_calls(&[(
        "c_rm",
        "bash",
        json!({"command": format!("rm -rf {}", victim.display())}),
    )]));
    server.push(MockReply::openai_text("done"));
    let sandbox = PiSandbox::with_mock(&server, API);
    run_print(&sandbox, &[]);
    let results = tool_results(&sandbox);
    let (_, error, text) = result_of(&results, "c_rm");
    assert!(!*error, "{text}");
    assert!(!victim.exists());
}

#[test]
fn a_lua_permission_handler_denying_lock_files_is_honoured_by_write_and_edit() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        (
            "c_write",
            "write",
            json!({"path": "Cargo.lock", "content": "x"}),
        ),
        (
            "c_edit",
            "edit",
            json!({"path": "deps/yarn.lock", "edits": [{"oldText": "v1", "newText": "v2"}]}),
        ),
        (
            "c_notes",
            "write",
            json!({"path": "notes.txt", "content": "fine"}),
        ),
    ]));
    server.push(MockReply::openai_text("done"));
    let sandbox = PiSandbox::with_mock(&server, API);
    write(&sandbox.project, "deps/yarn.lock", "v1\n");
    let ext = sandbox.root.path().join("locks.lua");
    std::fs::write(
        &ext,
        r#"return function(pi)
  pi.on("permission", function(request, ctx)
    local path = request.input.path or ""
    if (request.toolName == "write" or request.toolName == "edit") and path:match("%.lock$") then
      return { decision = "deny", reason = "lock files are generated (" .. tostring(ctx.permissions.active) .. ")" }
    end
  end)
end"#,
    )
    .unwrap();
    run_print(&sandbox, &["-e", ext.to_str().unwrap()]);
    let results = tool_results(&sandbox);
    for id in ["c_write", "c_edit"] {
        let (_, error, text) = result_of(&results, id);
        assert!(*error, "{id}: {text}");
        assert!(
            text.contains("an extension's permission handler (lock files are generated (false))"),
            "{id}: {text}"
        );
    }
    assert!(!sandbox.project.join("Cargo.lock").exists());
    assert_eq!(
        std::fs::read_to_string(sandbox.project.join("deps/yarn.lock")).unwrap(),
        "v1\n"
    );
    let (_, error, text) = result_of(&results, "c_notes");
    assert!(!*error, "{text}");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.join("notes.txt")).unwrap(),
        "fine"
    );
}

#[test]
fn a_failing_permission_handler_counts_as_ask_and_is_named() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        ("c_boom", "bash", json!({"command": "echo boom"})),
        ("c_maybe", "bash", json!({"command": "echo maybe"})),
        ("c_fine", "bash", json!({"command": "echo fine"})),
    ]));
    server.push(MockReply::openai_text("done"));
    let sandbox = PiSandbox::with_mock(&server, API);
    let ext = sandbox.root.path().join("broken.lua");
    std::fs::write(
        &ext,
        r#"return function(pi)
  pi.on("permission", function(request)
    if request.input.command == "echo boom" then error("classifier exploded") end
    if request.input.command == "echo maybe" then return { decision = "maybe" } end
    return { decision = "allow" }
  end)
end"#,
    )
    .unwrap();
    run_print(&sandbox, &["-e", ext.to_str().unwrap()]);
    let results = tool_results(&sandbox);
    let (_, error, text) = result_of(&results, "c_boom");
    assert!(*error, "{text}");
    assert!(
        text.contains("classifier exploded") && text.contains("broken"),
        "the handler is named: {text}"
    );
    let (_, error, text) = result_of(&results, "c_maybe");
    assert!(
        *error && text.contains("\"maybe\" is not allow, ask or deny"),
        "{text}"
    );
    let (_, error, text) = result_of(&results, "c_fine");
    assert!(!*error && text.contains("fine"), "{text}");
}

#[test]
fn an_untrusted_project_may_only_tighten_and_a_trusted_one_may_loosen() {
    let run = |approve: bool| {
        let server = MockServer::start();
        server.push(MockReply::openai_tool_calls(&[
            ("c_make", "bash", json!({"command": "printf made"})),
            ("c_touch", "bash", json!({"command": "touch made.txt"})),
        ]));
        server.push(MockReply::openai_text("done"));
        let sandbox = sandbox_with_rules(
            &server,
            API,
            json!([{"tool": "bash", "pattern": "printf *", "action": "ask"}]),
        );
        write(
            &sandbox.project,
            ".pi/settings.json",
            &json!({"permissions": [
                {"tool": "bash", "pattern": "printf *", "action": "allow"},
                {"tool": "bash", "pattern": "touch *", "action": "deny"}
            ]})
            .to_string(),
        );
        let flag = if approve { "--approve" } else { "--no-approve" };
        run_print(&sandbox, &[flag]);
        let results = tool_results(&sandbox);
        let make = result_of(&results, "c_make").clone();
        let touch = result_of(&results, "c_touch").clone();
        (make, touch, sandbox)
    };
    let ((_, make_refused, make_text), (_, touch_refused, touch_text), sandbox) = run(false);
    assert!(
        make_refused && make_text.contains("no one to ask"),
        "{make_text}"
    );
    assert!(
        touch_refused && touch_text.contains("bash \"touch *\" → deny (project)"),
        "{touch_text}"
    );
    assert!(!sandbox.project.join("made.txt").exists());
    let ((_, make_refused, make_text), (_, touch_refused, _), _) = run(true);
    assert!(
        !make_refused,
        "a trusted project's allow counts: {make_text}"
    );
    assert!(touch_refused);
}

#[test]
fn json_mode_refuses_what_it_cannot_ask_about() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c_touch",
        "bash",
        json!({"command": "touch asked.txt"}),
    )]));
    server.push(MockReply::openai_text("done"));
    let sandbox = sandbox_with_rules(
        &server,
        API,
        json!([{"tool": "bash", "pattern": "touch *", "action": "ask"}]),
    );
    let out = sandbox.run(
        &["--model", "mock/mock-model", "--mode", "json", "go"],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let end = json_lines(&stdout)
        .into_iter()
        .find(|e| e["type"] == "tool_execution_end")
        .unwrap();
    assert_eq!(end["isError"], true, "{end}");
    let text = end["result"].to_string();
    assert!(
        text.contains("no one to ask") && text.contains(r#"touch asked.txt"#),
        "{text}"
    );
    assert!(!sandbox.project.join("asked.txt").exists());
}

#[test]
fn ctx_permissions_reads_the_effective_rules() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c_ls",
        "bash",
        json!({"command": "ls"}),
    )]));
    server.push(MockReply::openai_text("done"));
    let sandbox = sandbox_with_rules(
        &server,
        API,
        json!([{"tool": "bash", "pattern": "git push*", "action": "deny"}]),
    );
    let ext = sandbox.root.path().join("reader.lua");
    std::fs::write(
        &ext,
        r#"return function(pi)
  pi.on("permission", function(request, ctx)
    local p = ctx.permissions
    local r = p.rules[1]
    return { decision = "deny", reason = string.format("active=%s rules=%d first=%s %s %s %s rule=%s",
      tostring(p.active), #p.rules, r.tool, r.pattern, r.action, r.scope, tostring(request.rule)) }
  end)
end"#,
    )
    .unwrap();
    run_print(&sandbox, &["-e", ext.to_str().unwrap()]);
    let results = tool_results(&sandbox);
    let (_, error, text) = result_of(&results, "c_ls");
    assert!(*error, "{text}");
    assert!(
        text.contains("active=true rules=1 first=bash git push* deny user rule=nil"),
        "{text}"
    );
}
