//! End to end in tmux: the github-issue-autocomplete example stacks `#123` completions over
//! the editor's own, fed by a stand-in `gh` on PATH; other words still complete as before.

use crate::support::MockServer;
use crate::support::pi_cli::PiSandbox;
use crate::support::tui_harness::*;
use crate::support::twins::git;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

#[test]
fn issue_numbers_complete_from_the_gh_cli_and_slash_commands_still_do() {
    assert!(
        tmux_available(),
        "tmux is needed for the interactive end-to-end tests"
    );
    let server = MockServer::start();
    let mut sandbox = PiSandbox::with_mock(&server, "openai-completions");
    git(&sandbox.project, &["init", "-q"]);
    git(
        &sandbox.project,
        &["remote", "add", "origin", "git@github.com:acme/rocket.git"],
    );
    let bin = sandbox.root.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let gh = bin.join("gh");
    std::fs::write(
        &gh,
        "#!/bin/sh\n[ \"$1 $2 $4\" = \"issue list acme/rocket\" ] || exit 3\n\
         echo '[{\"number\":123,\"title\":\"Fix the launch\",\"state\":\"OPEN\"},\
         {\"number\":456,\"title\":\"Paint the fins\",\"state\":\"OPEN\"}]'\n",
    )
    .unwrap();
    std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    sandbox.env.push(("PATH".into(), path));
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/examples/github-issue-autocomplete.lua");
    let args = format!(
        "--model mock/mock-model -e {}",
        quote(&example.to_string_lossy())
    );
    let pi = Session::start(sandbox, &args);
    pi.tmux
        .wait_for("the editor", Duration::from_secs(30), |s| {
            s.contains("mock-model")
        });
    pi.tmux.type_text("see #4");
    let screen = pi
        .tmux
        .wait_for("the issue suggestion", Duration::from_secs(20), |s| {
            s.contains("#456") && s.contains("[open] Paint the fins")
        });
    assert!(
        !screen.contains("Fix the launch"),
        "filtered by number: {screen}"
    );
    pi.tmux.key("Tab");
    pi.tmux
        .wait_for("the completed number", Duration::from_secs(10), |s| {
            s.contains("see #456") && !s.contains("[open]")
        });
    pi.tmux.type_text(" and #fix");
    pi.tmux
        .wait_for("a title match", Duration::from_secs(20), |s| {
            s.contains("[open] Fix the launch")
        });
    pi.tmux.key("Tab");
    pi.tmux
        .wait_for("both numbers", Duration::from_secs(10), |s| {
            s.contains("see #456 and #123")
        });
    // A slash command falls through to pi's own completion.
    pi.tmux.key("C-u");
    pi.tmux.type_text("/hotk");
    pi.tmux
        .wait_for("the command menu", Duration::from_secs(10), |s| {
            s.contains("/hotkeys")
        });
}
