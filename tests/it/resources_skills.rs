//! End to end: skills discovered from the agent dir, `--skill` and a trusted project are
//! listed in the system prompt the model receives, and `/skill:name args` sends the skill.

use crate::support;
use crate::support::pi_cli;

use pi_cli::PiSandbox;
use serde_json::Value;
use support::{MockReply, MockServer};

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn request(server: &MockServer, index: usize) -> Value {
    serde_json::from_slice(&server.requests()[index].body).unwrap()
}

#[test]
fn skills_are_advertised_and_skill_commands_expand() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("ok"));
    server.push(MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    write(
        &sandbox.agent_dir.join("skills/pdf-tools/SKILL.md"),
        "---\nname: pdf-tools\ndescription: Extract text & tables from PDFs\n---\n# PDF tools\nRun ./extract.sh FILE\n",
    );
    write(
        &sandbox.agent_dir.join("skills/broken/SKILL.md"),
        "---\nname: broken\n---\nno description\n",
    );
    let extra = sandbox.root.path().join("extra/deploy/SKILL.md");
    write(
        &extra,
        "---\nname: deploy\ndescription: Ship it\n---\nDeploy steps\n",
    );

    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "--skill",
            extra.to_str().unwrap(),
            "-p",
            "hi",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("broken") && stderr.contains("description is required"),
        "{stderr}"
    );
    let system = request(&server, 0)["messages"][0]["content"].to_string();
    assert!(system.contains("<available_skills>"), "{system}");
    assert!(system.contains("<name>pdf-tools</name>"), "{system}");
    assert!(
        system.contains("Extract text &amp; tables from PDFs"),
        "{system}"
    );
    assert!(system.contains("<name>deploy</name>"), "{system}");
    assert!(!system.contains("<name>broken</name>"), "{system}");

    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "-p",
            "/skill:pdf-tools report.pdf page 2",
        ],
        None,
    );
    assert!(out.status.success());
    let body = request(&server, 1).to_string();
    assert!(body.contains("<skill name=\\\"pdf-tools\\\""), "{body}");
    assert!(body.contains("Run ./extract.sh FILE"), "{body}");
    assert!(body.contains("report.pdf page 2"), "{body}");
}

#[test]
fn prompt_templates_expand_with_arguments() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    write(
        &sandbox.agent_dir.join("prompts/component.md"),
        "---\ndescription: Create a component\n---\nCreate a component named $1 with: ${@:2}\n",
    );
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "-p",
            r#"/component Button "click handler" "disabled state""#,
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = request(&server, 0).to_string();
    assert!(
        body.contains("Create a component named Button with: click handler disabled state"),
        "{body}"
    );
    assert!(!body.contains("/component"), "{body}");
}

#[test]
fn skill_commands_off_sends_the_command_as_typed() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    write(
        &sandbox.agent_dir.join("skills/pdf-tools/SKILL.md"),
        "---\nname: pdf-tools\ndescription: Extract text from PDFs\n---\nRun ./extract.sh FILE\n",
    );
    let mut settings: Value = serde_json::from_str(
        &std::fs::read_to_string(sandbox.agent_dir.join("settings.json")).unwrap_or("{}".into()),
    )
    .unwrap();
    settings["enableSkillCommands"] = Value::Bool(false);
    write(
        &sandbox.agent_dir.join("settings.json"),
        &settings.to_string(),
    );
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "-p",
            "/skill:pdf-tools report.pdf",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = request(&server, 0);
    let system = body["messages"][0]["content"].to_string();
    assert!(
        system.contains("<name>pdf-tools</name>"),
        "still advertised: {system}"
    );
    let text = body.to_string();
    assert!(!text.contains("Run ./extract.sh FILE"), "{text}");
    assert!(text.contains("/skill:pdf-tools report.pdf"), "{text}");
}
