//! `pi config`: the resources of installed packages with a check box each; Space saves a
//! `-path` / `+path` pattern into the package's settings entry, and the next start loads
//! accordingly. Driven in tmux; the piped form prints the list.

use crate::support::pi_cli::PiSandbox;
use crate::support::tui_harness::*;

use std::time::Duration;

use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

/// A local package with two skills and a prompt template, configured globally.
fn sandbox_with_package() -> PiSandbox {
    let sandbox = PiSandbox::new();
    let pkg = sandbox.root.path().join("pkg");
    for name in ["alpha", "beta"] {
        let dir = pkg.join("skills").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: The {name} skill.\n---\nDo {name}.\n"),
        )
        .unwrap();
    }
    std::fs::create_dir_all(pkg.join("prompts")).unwrap();
    std::fs::write(pkg.join("prompts/review.md"), "Review this.\n").unwrap();
    sandbox.write_agent_file(
        "settings.json",
        &json!({"packages": [pkg.display().to_string()]}).to_string(),
    );
    sandbox
}

fn settings(sandbox: &PiSandbox) -> Value {
    serde_json::from_str(&std::fs::read_to_string(sandbox.agent_dir.join("settings.json")).unwrap())
        .unwrap()
}

#[test]
fn piped_config_lists_every_package_resource_with_its_state() {
    let sandbox = sandbox_with_package();
    let out = sandbox.run(&["config"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("[x] skill") && text.contains("skills/alpha/SKILL.md"),
        "{text}"
    );
    assert!(text.contains("skills/beta/SKILL.md"), "{text}");
    assert!(
        text.contains("[x] prompt template") && text.contains("prompts/review.md"),
        "{text}"
    );
}

#[test]
fn space_disables_and_enables_a_resource_in_settings() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let sandbox = sandbox_with_package();
    let before = sandbox.root.path().join("before.txt");
    let after = sandbox.root.path().join("after.txt");
    let command = pi_command(&sandbox, "config", &before, &after);
    let tmux = Tmux::start(&command, &sandbox.project);
    tmux.wait_for("the resource list", WAIT, |s| {
        s.contains("Package resources") && s.contains("skills/alpha/SKILL.md")
    });
    tmux.key("Space");
    tmux.wait_for("the disabled mark", WAIT, |s| {
        s.contains("Disabled skills/alpha/SKILL.md") && s.contains("[ ] skill")
    });
    assert_eq!(
        settings(&sandbox)["packages"][0]["skills"],
        json!(["-skills/alpha/SKILL.md"])
    );
    tmux.key("Down");
    tmux.key("Down");
    tmux.key("Space");
    tmux.wait_for("the prompt disabled", WAIT, |s| {
        s.contains("Disabled prompts/review.md")
    });
    tmux.key("Up");
    tmux.key("Up");
    tmux.key("Space");
    tmux.wait_for("alpha enabled again", WAIT, |s| {
        s.contains("Enabled skills/alpha/SKILL.md")
    });
    let entry = &settings(&sandbox)["packages"][0];
    assert_eq!(entry["skills"], json!(["+skills/alpha/SKILL.md"]));
    assert_eq!(entry["prompts"], json!(["-prompts/review.md"]));
    tmux.key("q");
    wait_for_file(&after, WAIT);

    let listed = sandbox.run(&["config"], None);
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains("[ ] prompt template"), "{text}");
    assert!(
        text.contains("[x] skill") && !text.contains("[ ] skill"),
        "{text}"
    );
}
