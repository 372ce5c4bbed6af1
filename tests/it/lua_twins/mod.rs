//! Lua twins of pi's example extensions (extensions/examples/), each loaded
//! through the real host: in-process with a scripted front end, or as `-e`
//! extensions of the `pi` binary talking to a mock LLM server on 127.0.0.1.

mod agents;
mod commands;
mod events;
mod games;
mod model_calls;
mod shipped;
mod tools;

use crate::support;
use crate::support::pi_cli;
use crate::support::twins;

use std::time::Duration;

use pi::lua::ExtensionAction;
use serde_json::{Value, json};
use twins::{Cli, Twin, example, git, plain, repo, rpc_prompt, ui_request};

/// Every twin: a file or folder in extensions/examples.
const TWINS: &[&str] = &[
    "auto-commit-on-exit.lua",
    "bash-spawn-hook.lua",
    "bookmark.lua",
    "built-in-tool-renderer.lua",
    "claude-rules.lua",
    "commands.lua",
    "confirm-destructive.lua",
    "custom-compaction.lua",
    "custom-footer.lua",
    "custom-header.lua",
    "custom-provider-anthropic",
    "custom-provider-gitlab-duo",
    "dirty-repo-guard.lua",
    "dynamic-resources",
    "dynamic-tools.lua",
    "event-bus.lua",
    "file-trigger.lua",
    "git-checkpoint.lua",
    "github-issue-autocomplete.lua",
    "handoff.lua",
    "hello.lua",
    "hidden-thinking-label.lua",
    "inline-bash.lua",
    "input-transform.lua",
    "mac-system-theme.lua",
    "message-renderer.lua",
    "minimal-mode",
    "modal-editor.lua",
    "model-status.lua",
    "notify.lua",
    "overlay-test.lua",
    "permission-gate.lua",
    "pirate.lua",
    "plan-mode",
    "preset.lua",
    "prompt-customizer.lua",
    "protected-paths.lua",
    "provider-payload.lua",
    "qna.lua",
    "question.lua",
    "questionnaire.lua",
    "reload-runtime.lua",
    "rpc-demo.lua",
    "send-user-message.lua",
    "session-name.lua",
    "shutdown-command.lua",
    "snake.lua",
    "space-invaders.lua",
    "ssh.lua",
    "status-line.lua",
    "structured-output.lua",
    "subagent",
    "summarize.lua",
    "system-prompt-header.lua",
    "tic-tac-toe.lua",
    "timed-confirm.lua",
    "titlebar-spinner.lua",
    "todo.lua",
    "tool-override.lua",
    "tools.lua",
    "trigger-compact.lua",
    "truncated-tool.lua",
    "widget-placement.lua",
    "working-indicator.lua",
    "working-message-test.lua",
];

fn has(actions: &[ExtensionAction], wanted: &ExtensionAction) -> bool {
    actions.iter().any(|a| a == wanted)
}

fn entry(id: &str, parent: Option<&str>, message: Value) -> Value {
    json!({"type": "message", "id": id, "parentId": parent, "timestamp": "2026-01-01T00:00:00Z", "message": message})
}

fn assistant(text: &str) -> Value {
    json!({"role": "assistant", "content": [{"type": "text", "text": text}], "stopReason": "stop"})
}

fn user(text: &str) -> Value {
    json!({"role": "user", "content": [{"type": "text", "text": text}]})
}

// ---------------------------------------------------------------------------
// Every twin loads on its own.

#[test]
fn every_twin_loads_alone_without_extension_errors() {
    let listed: std::collections::BTreeSet<String> = std::fs::read_dir(example(""))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "README.md" && n != "i18n-hello")
        // `pi test` files and their screen snapshots sit beside the twins.
        .filter(|n| !n.ends_with("_test.lua") && n != "snapshots")
        .collect();
    let known: std::collections::BTreeSet<String> = TWINS.iter().map(|s| s.to_string()).collect();
    assert_eq!(listed, known, "TWINS lists every example");
    let sandbox = pi_cli::PiSandbox::new();
    for twin in TWINS {
        let path = example(twin).display().to_string();
        let _shared = twins::shared();
        let out = sandbox.run(
            &["--offline", "--provider", "demo", "-e", &path, "-p", "hi"],
            None,
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{twin}: {stderr}");
        assert!(
            !stderr.contains("xtension") && !stderr.contains("rror"),
            "{twin}: {stderr}"
        );
    }
}

// ---------------------------------------------------------------------------
