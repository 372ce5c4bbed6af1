//! File checkpoints end to end: the real `pi --mode rpc` against a mock model that edits
//! `a.txt`, writes `b.txt` and runs a shell command changing `c.txt`, removing `d.txt`
//! and making `e/f`; then rewinding code, conversation or both, conflicts and their
//! answers, the user's git repository left alone, and a restore killed half-way.

use crate::support::pi_cli::PiSandbox;
use crate::support::rpc_client::RpcClient;
use crate::support::{MockReply, MockServer};

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

const API: &str = "anthropic-messages";

fn start(sandbox: &PiSandbox) -> RpcClient {
    RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model"]))
}

/// The files before the turn.
fn seed(project: &Path) {
    fs::write(project.join("a.txt"), "alpha x\n").unwrap();
    fs::write(project.join("c.txt"), "x marks\nthe x spot\n").unwrap();
    fs::write(project.join("d.txt"), "delete me\n").unwrap();
}

/// The model's turn: edit, write, then one shell command; then a final answer.
fn queue_turn(server: &MockServer) {
    server.push(MockReply::anthropic_tool_calls(&[
        (
            "t1",
            "edit",
            json!({"path": "a.txt", "oldText": "alpha x", "newText": "alpha EDITED"}),
        ),
        (
            "t2",
            "write",
            json!({"path": "b.txt", "content": "brand new\n"}),
        ),
    ]));
    server.push(MockReply::anthropic_tool_calls(&[(
        "t3",
        "bash",
        json!({"command": "sed -i s/x/y/ c.txt; rm d.txt; mkdir e; echo z > e/f"}),
    )]));
    server.push(MockReply::anthropic_text("done"));
}

/// Run the turn through RPC; the `checkpoint` event it sent.
fn run_turn(rpc: &mut RpcClient) -> Value {
    let r = rpc.call(json!({"type": "prompt", "message": "change the files"}));
    assert_eq!(r["success"], true, "{r}");
    let checkpoint = rpc.event("checkpoint");
    rpc.event("agent_end");
    checkpoint
}

fn read(project: &Path, name: &str) -> String {
    fs::read_to_string(project.join(name)).unwrap_or_else(|_| "<missing>".into())
}

fn assert_after_turn(project: &Path) {
    assert_eq!(read(project, "a.txt"), "alpha EDITED\n");
    assert_eq!(read(project, "b.txt"), "brand new\n");
    assert_eq!(read(project, "c.txt"), "y marks\nthe y spot\n");
    assert!(!project.join("d.txt").exists());
    assert_eq!(read(project, "e/f"), "z\n");
}

fn assert_before_turn(project: &Path) {
    assert_eq!(read(project, "a.txt"), "alpha x\n");
    assert_eq!(read(project, "c.txt"), "x marks\nthe x spot\n");
    assert_eq!(read(project, "d.txt"), "delete me\n");
    assert!(!project.join("b.txt").exists());
    assert!(!project.join("e").exists());
}

fn user_entry(rpc: &mut RpcClient) -> String {
    let forks = rpc.call(json!({"type": "get_fork_messages"}));
    forks["data"]["messages"][0]["entryId"]
        .as_str()
        .unwrap_or_else(|| panic!("{forks}"))
        .to_string()
}

#[test]
fn rewinding_code_and_conversation_restores_every_file_and_drops_the_turn() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    seed(&sandbox.project);
    queue_turn(&server);
    let mut rpc = start(&sandbox);
    let made = run_turn(&mut rpc);
    assert_eq!(
        made["files"],
        json!(["a.txt", "b.txt", "c.txt", "d.txt", "e/f"]),
        "{made}"
    );
    assert_after_turn(&sandbox.project);

    let list = rpc.call(json!({"type": "get_checkpoints"}));
    let cps = list["data"]["checkpoints"].as_array().unwrap().clone();
    assert_eq!(cps.len(), 1, "{list}");
    let entry = user_entry(&mut rpc);
    assert_eq!(cps[0]["entryId"], json!(entry));
    assert!(list["data"]["sessionBytes"].as_u64().unwrap() > 0);

    let preview = rpc.call(json!({"type": "preview_rewind", "entryId": entry}));
    let changes: Vec<(String, String)> = preview["data"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap().into(),
                c["kind"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("a.txt", "modify"),
        ("b.txt", "delete"),
        ("c.txt", "modify"),
        ("d.txt", "create"),
        ("e/f", "delete"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(changes, want);
    assert_after_turn(&sandbox.project);

    let before = rpc.call(json!({"type": "get_state"}))["data"]["messageCount"].clone();
    assert_eq!(before, 7);
    let r = rpc.call(json!({"type": "rewind", "entryId": entry}));
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["text"], "change the files");
    assert_before_turn(&sandbox.project);
    let after = rpc.call(json!({"type": "get_state"}))["data"]["messageCount"].clone();
    assert_eq!(after, 0, "the turn left the active branch");
    assert_eq!(rpc.finish(), 0);
}

#[test]
fn conversation_only_keeps_the_files_and_code_only_keeps_the_conversation() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    seed(&sandbox.project);
    queue_turn(&server);
    let mut rpc = start(&sandbox);
    run_turn(&mut rpc);
    let entry = user_entry(&mut rpc);

    let r =
        rpc.call(json!({"type": "rewind", "entryId": entry, "code": false, "conversation": true}));
    assert_eq!(r["success"], true, "{r}");
    assert_after_turn(&sandbox.project);
    assert_eq!(
        rpc.call(json!({"type": "get_state"}))["data"]["messageCount"],
        0
    );

    let r =
        rpc.call(json!({"type": "rewind", "entryId": entry, "code": true, "conversation": false}));
    assert_eq!(r["success"], true, "{r}");
    assert_before_turn(&sandbox.project);
    assert_eq!(r["data"]["restored"].as_array().unwrap().len(), 5);
    assert_eq!(rpc.finish(), 0);
}

#[test]
fn a_file_changed_by_the_user_is_a_conflict_kept_or_overwritten_as_answered() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    seed(&sandbox.project);
    queue_turn(&server);
    let mut rpc = start(&sandbox);
    run_turn(&mut rpc);
    let entry = user_entry(&mut rpc);
    fs::write(sandbox.project.join("a.txt"), "my own words\n").unwrap();
    fs::write(sandbox.project.join("b.txt"), "mine too\n").unwrap();

    let preview = rpc.call(json!({"type": "preview_rewind", "entryId": entry}));
    let conflicts: Vec<&str> = preview["data"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["conflict"] == true)
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(conflicts, vec!["a.txt", "b.txt"], "{preview}");

    // b.txt answered "overwrite", a.txt "keep": only the chosen one is replaced.
    let r = rpc.call(json!({
        "type": "rewind", "entryId": entry, "conversation": false,
        "conflicts": {"a.txt": "keep", "b.txt": "overwrite"},
    }));
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["kept"], json!(["a.txt"]));
    assert_eq!(read(&sandbox.project, "a.txt"), "my own words\n");
    assert!(!sandbox.project.join("b.txt").exists());
    assert_eq!(read(&sandbox.project, "c.txt"), "x marks\nthe x spot\n");
    assert_eq!(read(&sandbox.project, "d.txt"), "delete me\n");
    assert_eq!(rpc.finish(), 0);
}

/// The hash of everything under `.git` (names and bytes).
fn git_tree_hash(git: &Path) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg("find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum")
        .current_dir(git)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_users_git_repository_is_byte_identical_after_checkpoints_and_a_restore() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    seed(&sandbox.project);
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(&sandbox.project)
            .output()
            .unwrap();
        assert!(ok.status.success(), "{ok:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "start"]);
    let before = git_tree_hash(&sandbox.project.join(".git"));
    queue_turn(&server);
    let mut rpc = start(&sandbox);
    run_turn(&mut rpc);
    let entry = user_entry(&mut rpc);
    let r = rpc.call(json!({"type": "rewind", "entryId": entry}));
    assert_eq!(r["success"], true, "{r}");
    assert_before_turn(&sandbox.project);
    assert_eq!(rpc.finish(), 0);
    assert_eq!(git_tree_hash(&sandbox.project.join(".git")), before);
}

#[test]
fn a_restore_killed_half_way_leaves_whole_files_and_is_completed_on_the_next_start() {
    let server = MockServer::start();
    let mut sandbox = PiSandbox::with_mock(&server, API);
    seed(&sandbox.project);
    queue_turn(&server);
    let mut rpc = start(&sandbox);
    run_turn(&mut rpc);
    let entry = user_entry(&mut rpc);
    assert_eq!(rpc.finish(), 0);

    sandbox
        .env
        .push(("PI_CHECKPOINT_RESTORE_PAUSE_MS".into(), "1000".into()));
    let mut rpc = RpcClient::new(sandbox.spawn(&[
        "--mode",
        "rpc",
        "--model",
        "mock/mock-model",
        "--continue",
    ]));
    rpc.send(json!({"type": "rewind", "entryId": entry, "conversation": false}));
    // Kill it between two steps of the restore.
    let journals = sandbox.agent_dir.join("sessions");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !has_journal(&journals) {
        assert!(
            std::time::Instant::now() < deadline,
            "the restore never began"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    rpc.kill();
    let whole = |name: &str, before: &str, after: &str| {
        let now = read(&sandbox.project, name);
        assert!(now == before || now == after, "{name} is {now:?}");
    };
    whole("a.txt", "alpha EDITED\n", "alpha x\n");
    whole("c.txt", "y marks\nthe y spot\n", "x marks\nthe x spot\n");
    whole("d.txt", "<missing>", "delete me\n");
    whole("b.txt", "brand new\n", "<missing>");
    // Killed half-way: the first file is back, the last not yet.
    assert_eq!(read(&sandbox.project, "a.txt"), "alpha x\n");
    assert_eq!(read(&sandbox.project, "e/f"), "z\n");

    sandbox.env.clear();
    let rpc = RpcClient::new(sandbox.spawn(&[
        "--mode",
        "rpc",
        "--model",
        "mock/mock-model",
        "--continue",
    ]));
    assert_eq!(rpc.finish(), 0);
    assert_before_turn(&sandbox.project);
    assert!(!has_journal(&journals));
    let left: Vec<String> = fs::read_dir(&sandbox.project)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("pi-restore"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

fn has_journal(dir: &Path) -> bool {
    let Ok(read) = fs::read_dir(dir) else {
        return false;
    };
    read.flatten().any(|e| {
        let p = e.path();
        if p.is_dir() {
            has_journal(&p)
        } else {
            p.parent().is_some_and(|d| d.ends_with("journals"))
        }
    })
}

#[test]
fn a_fork_can_take_the_files_of_its_branch_point() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    seed(&sandbox.project);
    queue_turn(&server);
    let mut rpc = start(&sandbox);
    run_turn(&mut rpc);
    let entry = user_entry(&mut rpc);
    let before = rpc.call(json!({"type": "get_state"}))["data"]["sessionFile"].clone();

    let r = rpc.call(json!({"type": "fork", "entryId": entry, "code": true}));
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["text"], "change the files");
    assert_eq!(r["data"]["restored"].as_array().unwrap().len(), 5, "{r}");
    assert_before_turn(&sandbox.project);
    let after = rpc.call(json!({"type": "get_state"}))["data"]["sessionFile"].clone();
    assert_ne!(before, after, "a new session file");
    assert_eq!(rpc.finish(), 0);

    // Without `code`, a fork leaves the files alone.
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    seed(&sandbox.project);
    queue_turn(&server);
    let mut rpc = start(&sandbox);
    run_turn(&mut rpc);
    let entry = user_entry(&mut rpc);
    let r = rpc.call(json!({"type": "fork", "entryId": entry}));
    assert_eq!(r["success"], true, "{r}");
    assert_after_turn(&sandbox.project);
    assert_eq!(rpc.finish(), 0);
}

#[test]
fn a_fork_keeps_the_checkpoints_of_the_messages_it_kept() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    seed(&sandbox.project);
    queue_turn(&server);
    let mut rpc = start(&sandbox);
    run_turn(&mut rpc);
    server.push(MockReply::anthropic_tool_calls(&[(
        "t4",
        "write",
        json!({"path": "g.txt", "content": "second turn\n"}),
    )]));
    server.push(MockReply::anthropic_text("done again"));
    let r = rpc.call(json!({"type": "prompt", "message": "one more file"}));
    assert_eq!(r["success"], true, "{r}");
    rpc.event("agent_end");
    let forks = rpc.call(json!({"type": "get_fork_messages"}));
    let messages = forks["data"]["messages"].as_array().unwrap().clone();
    let (first, second) = (&messages[0]["entryId"], &messages[1]["entryId"]);

    // Forked before the second message: the first one's checkpoint comes along.
    let r = rpc.call(json!({"type": "fork", "entryId": second}));
    assert_eq!(r["success"], true, "{r}");
    let list = rpc.call(json!({"type": "get_checkpoints"}));
    let list = list["data"]["checkpoints"].as_array().unwrap().clone();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(&list[0]["entryId"], first);
    // The files are as the second turn left them; rewinding the fork's first message
    // takes its changes back (g.txt is no change of the fork's: it stays).
    let r =
        rpc.call(json!({"type": "rewind", "entryId": first, "code": true, "conversation": false}));
    assert_eq!(r["success"], true, "{r}");
    assert_before_turn(&sandbox.project);
    assert_eq!(read(&sandbox.project, "g.txt"), "second turn\n");
    assert_eq!(rpc.finish(), 0);
}
