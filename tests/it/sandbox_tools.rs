//! The sandbox outside the bash tool, through the real binary: the write and edit tools
//! check the policy on real paths, extension processes (`pi.exec`, `pi.spawn`) run
//! confined, and a mode the kernel cannot enforce is refused, never run unconfined.

use crate::sandbox_bash::{sandbox_with, tool_results};
use crate::support::MockReply;
use serde_json::{Value, json};

#[test]
fn write_and_edit_refuse_paths_outside_the_roots_and_links_that_lead_there() {
    let (sandbox, server) = sandbox_with(json!({"sandbox": {"mode": "workspace-write"}}));
    let outside = tempfile::tempdir().unwrap();
    let outside_dir = outside.path().canonicalize().unwrap();
    std::fs::write(outside_dir.join("victim.txt"), "keep\n").unwrap();
    std::os::unix::fs::symlink(&outside_dir, sandbox.project.join("escape")).unwrap();
    std::os::unix::fs::symlink(
        outside_dir.join("victim.txt"),
        sandbox.project.join("v.txt"),
    )
    .unwrap();
    let edit =
        |path: &str| json!({"path": path, "edits": [{"oldText": "keep", "newText": "gone"}]});
    let calls: Vec<(&str, &str, Value)> = vec![
        (
            "c0",
            "write",
            json!({"path": "/etc/pi-sandbox-x", "content": "x"}),
        ),
        (
            "c1",
            "write",
            json!({"path": "escape/new.txt", "content": "x"}),
        ),
        ("c2", "edit", edit("v.txt")),
        (
            "c3",
            "write",
            json!({"path": "inside/new.txt", "content": "fine"}),
        ),
        (
            "c4",
            "edit",
            json!({"path": "hello.txt", "edits": [{"oldText": "world", "newText": "there"}]}),
        ),
        (
            "c5",
            "write",
            json!({"path": ".git/hooks/pre-commit", "content": "x"}),
        ),
    ];
    server.push(MockReply::openai_tool_calls(&calls));
    server.push(MockReply::openai_text("done"));
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "go"], None);
    let results = tool_results(&server);
    assert_eq!(results.len(), 6, "{}", String::from_utf8_lossy(&out.stderr));
    let root = sandbox.project.display().to_string();
    for refused in [&results[0], &results[1], &results[2]] {
        assert!(
            refused.contains("Refused by the sandbox (workspace-write)"),
            "{refused}"
        );
        assert!(
            refused.contains(&root),
            "names the writable root: {refused}"
        );
    }
    assert!(
        results[1].contains(&outside_dir.display().to_string()),
        "{}",
        results[1]
    );
    assert!(!std::path::Path::new("/etc/pi-sandbox-x").exists());
    assert!(!outside_dir.join("new.txt").exists());
    assert_eq!(
        std::fs::read_to_string(outside_dir.join("victim.txt")).unwrap(),
        "keep\n"
    );
    assert!(results[3].contains("Successfully wrote"), "{}", results[3]);
    assert_eq!(
        std::fs::read_to_string(sandbox.project.join("inside/new.txt")).unwrap(),
        "fine"
    );
    assert!(
        results[4].contains("Successfully replaced"),
        "{}",
        results[4]
    );
    assert!(results[5].contains("stays read-only"), "{}", results[5]);
}

#[test]
fn read_only_mode_refuses_every_write_of_the_file_tools_but_reads() {
    let (sandbox, server) = sandbox_with(json!({"sandbox": {"mode": "read-only"}}));
    let calls: Vec<(&str, &str, Value)> = vec![
        ("c0", "write", json!({"path": "new.txt", "content": "x"})),
        (
            "c1",
            "edit",
            json!({"path": "hello.txt", "edits": [{"oldText": "world", "newText": "there"}]}),
        ),
        ("c2", "read", json!({"path": "hello.txt"})),
    ];
    server.push(MockReply::openai_tool_calls(&calls));
    server.push(MockReply::openai_text("done"));
    sandbox.run(&["--model", "mock/mock-model", "-p", "go"], None);
    let results = tool_results(&server);
    assert!(
        results[0].contains("Refused by the sandbox (read-only)"),
        "{}",
        results[0]
    );
    assert!(
        results[1].contains("Refused by the sandbox (read-only)"),
        "{}",
        results[1]
    );
    assert!(results[2].contains("hello world"), "{}", results[2]);
    assert!(!sandbox.project.join("new.txt").exists());
    assert_eq!(
        std::fs::read_to_string(sandbox.project.join("hello.txt")).unwrap(),
        "hello world\n"
    );
}

#[test]
fn extension_processes_run_confined() {
    let (sandbox, server) = sandbox_with(json!({"sandbox": {"mode": "workspace-write"}}));
    let marker = format!("/etc/pi-sandbox-ext-{}", std::process::id());
    let ext = sandbox.root.path().join("probe.lua");
    std::fs::write(
        &ext,
        format!(
            r#"return function(pi)
  pi.registerCommand("probe", {{
    handler = function(args, ctx)
      local outside = pi.exec("touch", {{ "{marker}" }})
      local inside = pi.exec("touch", {{ "made-by-exec" }})
      local spawned = pi.spawn("sh", {{ "-c", "touch {marker}-spawn" }}):wait()
      pi.sendUserMessage("PROBE outside=" .. outside.code .. " inside=" .. inside.code
        .. " spawned=" .. tostring(spawned.code) .. " err=" .. outside.stderr)
    end,
  }})
end"#
        ),
    )
    .unwrap();
    server.push(MockReply::openai_text("done"));
    let ext = ext.display().to_string();
    let out = sandbox.run(
        &["--model", "mock/mock-model", "-e", &ext, "-p", "/probe"],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let request = server
        .last_request()
        .unwrap_or_else(|| panic!("no request: {stderr}"));
    let text = request.json()["messages"].to_string();
    assert!(
        text.contains("PROBE outside=1 inside=0 spawned=1"),
        "{text}\n{stderr}"
    );
    assert!(text.contains("Permission denied"), "{text}");
    assert!(!std::path::Path::new(&marker).exists());
    assert!(!std::path::Path::new(&format!("{marker}-spawn")).exists());
    assert!(sandbox.project.join("made-by-exec").exists());
}

#[test]
fn a_mode_the_kernel_cannot_enforce_is_refused_with_the_missing_feature() {
    let (mut sandbox, server) = sandbox_with(json!({}));
    sandbox
        .env
        .push(("PI_SANDBOX_SIMULATE_MISSING".into(), "landlock".into()));
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "--sandbox",
            "workspace-write",
            "-p",
            "go",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("workspace-write cannot be enforced"),
        "{stderr}"
    );
    assert!(stderr.contains("Landlock"), "{stderr}");
    assert_eq!(server.request_count(), 0, "nothing ran");

    // Without seccomp the network cannot be turned off: refused unless it is allowed.
    sandbox.env = vec![("PI_SANDBOX_SIMULATE_MISSING".into(), "seccomp".into())];
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "--sandbox",
            "read-only",
            "-p",
            "go",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("seccomp"), "{stderr}");
    sandbox.write_agent_file(
        "settings.json",
        &json!({"sandbox": {"network": true}}).to_string(),
    );
    server.push(MockReply::openai_text("answer"));
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "--sandbox",
            "read-only",
            "-p",
            "go",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "answer\n");

    // .git cannot be kept read-only without user namespaces.
    std::fs::create_dir(sandbox.project.join(".git")).unwrap();
    sandbox.env = vec![("PI_SANDBOX_SIMULATE_MISSING".into(), "userns".into())];
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "--sandbox",
            "workspace-write",
            "-p",
            "go",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("user namespaces"), "{stderr}");
}
