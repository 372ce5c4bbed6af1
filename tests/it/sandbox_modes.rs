//! Choosing the sandbox: over RPC (`set_sandbox`, `get_state`), which also confines the
//! user's `bash` commands, and the project file, which may only tighten it unless the
//! project is trusted.

use crate::sandbox_bash::{bash_results, sandbox_with};
use crate::support::pi_cli::PiSandbox;
use crate::support::rpc_client::RpcClient;
use serde_json::json;

#[test]
fn rpc_switches_the_sandbox_live_and_reports_it_in_the_state() {
    let (sandbox, _server) = sandbox_with(json!({}));
    let mut rpc =
        RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model", "--yolo"]));
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["sandbox"]["mode"], "full", "{state}");
    assert_eq!(state["data"]["sandbox"]["yolo"], true, "{state}");
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("x");
    let touch = format!("touch {}", target.display());
    let bash = rpc.call(json!({"type": "bash", "command": touch}));
    assert_eq!(bash["data"]["exitCode"], 0, "{bash}");
    assert!(target.exists());
    std::fs::remove_file(&target).unwrap();

    let set = rpc.call(json!({"type": "set_sandbox", "mode": "workspace-write"}));
    assert_eq!(set["success"], true, "{set}");
    assert_eq!(set["data"]["mode"], "workspace-write");
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["sandbox"]["mode"], "workspace-write");
    assert_eq!(state["data"]["sandbox"]["network"], false);
    // Refused: asked whether to run it outside; "No" keeps the refusal.
    let id = rpc.send(json!({"type": "bash", "command": touch}));
    let ask = rpc.wait_for("the sandbox question", |v| {
        v["type"] == "extension_ui_request" && v["method"] == "select"
    });
    rpc.send_raw(
        &json!({"type": "extension_ui_response", "id": ask.value["id"], "value": "No"}).to_string(),
    );
    let bash = rpc.response(&id);
    assert_ne!(bash["data"]["exitCode"], 0, "{bash}");
    assert!(
        bash["data"]["output"]
            .as_str()
            .unwrap()
            .contains("Permission denied"),
        "{bash}"
    );
    assert!(!target.exists());
    let bash = rpc.call(json!({"type": "bash", "command": "touch inside && echo ok"}));
    assert_eq!(bash["data"]["exitCode"], 0, "{bash}");
    assert!(sandbox.project.join("inside").exists());

    let bad = rpc.call(json!({"type": "set_sandbox", "mode": "jail"}));
    assert_eq!(bad["success"], false, "{bad}");
    assert_eq!(bad["code"], "invalid_value", "{bad}");
    assert!(bad["error"].as_str().unwrap().contains("\"jail\""), "{bad}");
}

fn write_project_settings(sandbox: &PiSandbox, value: serde_json::Value) {
    std::fs::create_dir_all(sandbox.project.join(".pi")).unwrap();
    std::fs::write(sandbox.project.join(".pi/settings.json"), value.to_string()).unwrap();
}

#[test]
fn an_untrusted_project_can_tighten_the_sandbox_but_not_loosen_it() {
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("y");
    let touch = format!("touch {}", target.display());

    // The user chose full; an untrusted project asks for workspace-write: it applies.
    let (sandbox, server) = sandbox_with(json!({}));
    write_project_settings(&sandbox, json!({"sandbox": {"mode": "workspace-write"}}));
    let (results, stderr) =
        bash_results(&sandbox, &server, &["--no-approve"], &[&touch, "touch ok"]);
    assert!(
        results[0].contains("Permission denied"),
        "{results:?} {stderr}"
    );
    assert!(!target.exists());
    assert!(sandbox.project.join("ok").exists());

    // The user chose workspace-write; an untrusted project asks for full and for more
    // roots: ignored. Trusted (--approve), the same file loosens it.
    let (sandbox, server) = sandbox_with(json!({"sandbox": {"mode": "workspace-write"}}));
    let roots = outside.path().display().to_string();
    write_project_settings(
        &sandbox,
        json!({"sandbox": {"mode": "workspace-write", "writableRoots": [roots]}}),
    );
    let (results, _) = bash_results(&sandbox, &server, &["--no-approve"], &[&touch]);
    assert!(results[0].contains("Permission denied"), "{results:?}");
    assert!(!target.exists());
    let (results, _) = bash_results(&sandbox, &server, &["--approve"], &[&touch]);
    assert_eq!(results[0], "(no output)", "{results:?}");
    assert!(target.exists());
}

#[test]
fn an_extension_switches_the_sandbox_and_the_next_commands_are_confined() {
    let (sandbox, server) = sandbox_with(json!({}));
    let ext = sandbox.root.path().join("ro.lua");
    std::fs::write(
        &ext,
        r#"return function(pi)
  pi.registerCommand("ro", {
    handler = function(args, ctx)
      local bad, why = pi.setSandbox("jail")
      local ok = pi.setSandbox("read-only")
      pi.sendUserMessage("SWITCHED " .. tostring(ok) .. " " .. pi.getSandbox().mode
        .. " bad=" .. tostring(bad) .. " " .. why)
    end,
  })
end"#,
    )
    .unwrap();
    server.push(crate::support::MockReply::openai_tool_calls(&[
        ("c0", "bash", json!({"command": "touch blocked"})),
        ("c1", "bash", json!({"command": "cat hello.txt"})),
    ]));
    server.push(crate::support::MockReply::openai_text("done"));
    let ext = ext.display().to_string();
    let out = sandbox.run(
        &["--model", "mock/mock-model", "-e", &ext, "-p", "/ro"],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = server.requests()[0].json()["messages"].to_string();
    assert!(
        first.contains("SWITCHED true read-only bad=false Usage: /sandbox"),
        "{first}\n{stderr}"
    );
    let results = crate::sandbox_bash::tool_results(&server);
    assert!(results[0].contains("Permission denied"), "{results:?}");
    assert_eq!(results[1], "hello world\n");
    assert!(!sandbox.project.join("blocked").exists());
}
