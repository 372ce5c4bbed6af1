//! Behaviours checked against pi 0.73.1 run on the same files: RPC `get_commands`,
//! `get_state`, `bash` and the settings the `set_*` commands save; YAML frontmatter of
//! skills and templates; which template wins a name clash; a session whose folder is gone;
//! repeated flags; package paths and settings entries relative to their settings file; and
//! the system prompt following `pi.setActiveTools`.

use std::path::Path;

use crate::support::pi_cli::PiSandbox;
use crate::support::rpc_client::RpcClient;
use crate::support::{MockReply, MockServer};
use serde_json::{Value, json};

use pi::resources::Listed;
use pi::resources::frontmatter;
use pi::resources::prompt_templates::{TemplateSources, load_templates};
use pi::resources::skills::{SkillSources, load_skills};

/// A sandbox with `mock/mock-model` (and a thinking model) whose HOME is inside it.
fn sandbox() -> PiSandbox {
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": "http://127.0.0.1:9/v1", "api": "anthropic-messages", "apiKey": "test-key",
            "models": [
                {"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096,
                 "cost": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 0}},
                {"id": "mock-thinker", "reasoning": true}
            ]
        }}})
        .to_string(),
    );
    let home = sandbox.root.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    sandbox
        .env
        .push(("HOME".into(), home.display().to_string()));
    sandbox
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn rpc(sandbox: &PiSandbox, extra: &[&str]) -> RpcClient {
    let mut args = vec!["--mode", "rpc"];
    args.extend_from_slice(extra);
    RpcClient::new(sandbox.spawn(&args))
}

#[test]
fn get_commands_lists_extension_commands_then_templates_then_skills_like_pi() {
    let sandbox = sandbox();
    let (agent, proj) = (&sandbox.agent_dir, &sandbox.project);
    write(
        &agent.join("extensions/hello.lua"),
        r#"return function(pi)
  pi.registerCommand("hello", { description = "Say hello", handler = function() end })
  pi.registerCommand("bye", { handler = function() end })
end"#,
    );
    let pi_folder = proj.join(".pi");
    let files = [
        (
            agent,
            "prompts/review.md",
            "---\ndescription: Global review\n---\nReview $1\n",
        ),
        (
            &pi_folder,
            "prompts/review.md",
            "---\ndescription: Project review\n---\nProject review $1\n",
        ),
        (
            agent,
            "prompts/gonly.md",
            "---\ndescription: Global only\nargument-hint: <x>\n---\nG\n",
        ),
        (
            agent,
            "skills/glob-skill/SKILL.md",
            "---\nname: glob-skill\ndescription: A global skill\n---\nbody\n",
        ),
        (
            &pi_folder,
            "skills/proj-skill/SKILL.md",
            "---\nname: proj-skill\ndescription: |\n  A project skill\n  on two lines\n---\nbody\n",
        ),
    ];
    for (folder, name, text) in files {
        write(&folder.join(name), text);
    }
    let mut rpc = rpc(&sandbox, &["-a"]);
    let reply = rpc.call(json!({"type": "get_commands"}));
    let a = agent.display().to_string();
    let pi_dir = proj.join(".pi").display().to_string();
    let info = |path: String, scope: &str, base: &str| json!({"path": path, "source": "auto", "scope": scope, "origin": "top-level", "baseDir": base});
    let ext = info(format!("{a}/extensions/hello.lua"), "user", &a);
    // What pi 0.73.1 answers for the same files (its extension is hello.ts).
    let expected = json!([
        {"name": "hello", "description": "Say hello", "source": "extension", "sourceInfo": ext},
        {"name": "bye", "source": "extension", "sourceInfo": ext},
        {"name": "review", "description": "Project review", "source": "prompt",
         "sourceInfo": info(format!("{pi_dir}/prompts/review.md"), "project", &pi_dir)},
        {"name": "gonly", "description": "Global only", "source": "prompt",
         "sourceInfo": info(format!("{a}/prompts/gonly.md"), "user", &a)},
        {"name": "skill:proj-skill", "description": "A project skill\non two lines\n",
         "source": "skill",
         "sourceInfo": info(format!("{pi_dir}/skills/proj-skill/SKILL.md"), "project", &pi_dir)},
        {"name": "skill:glob-skill", "description": "A global skill", "source": "skill",
         "sourceInfo": info(format!("{a}/skills/glob-skill/SKILL.md"), "user", &a)},
    ]);
    assert_eq!(reply["success"], true, "{reply}");
    assert_eq!(reply["data"]["commands"], expected);
    // Key order matters to clients that compare text: name, description, source, sourceInfo.
    let first: Vec<&String> = reply["data"]["commands"][0]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(first, ["name", "description", "source", "sourceInfo"]);
}

fn listed(entries: &[&Path]) -> Vec<Listed> {
    entries
        .iter()
        .map(|p| Listed {
            entry: p.display().to_string(),
            info: pi::resources::SourceInfo::top_level(Path::new(""), "local", "user", None),
        })
        .collect()
}

#[test]
fn skill_frontmatter_is_yaml_and_invalid_yaml_skips_the_skill_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("skills");
    // Shaped like pi's own skill fixtures.
    let files = [
        (
            "invalid-yaml",
            "---\nname: invalid-yaml\ndescription: [unclosed bracket\n---\n\n# Invalid YAML Skill\n",
        ),
        (
            "multiline-description",
            "---\nname: multiline-description\ndescription: |\n  This is a multiline description.\n  It spans multiple lines.\n  And should be normalized.\n---\n\n# Multiline\n",
        ),
        (
            "folded",
            "---\nname: folded\ndescription: >-\n  Folded onto\n  one line\n---\nbody\n",
        ),
        (
            "quoted",
            "---\nname: \"quoted\"\ndescription: \"Tabs\\tand \\\"quotes\\\": fine\"\nmetadata:\n  tags: [a, b]\n---\nbody\n",
        ),
        (
            "disable-model-invocation",
            "---\nname: disable-model-invocation\ndescription: Manual only.\ndisable-model-invocation: true\n---\n",
        ),
        (
            "string-true",
            "---\nname: string-true\ndescription: Quoted flag.\ndisable-model-invocation: \"true\"\n---\n",
        ),
        (
            "unknown-field",
            "---\nname: unknown-field\ndescription: A skill with an unknown field.\nauthor: someone\nversion: 1.0\n---\n",
        ),
    ];
    for (name, text) in files {
        write(&root.join(name).join("SKILL.md"), text);
    }
    let (skills, warnings) = load_skills(&SkillSources {
        agent_dir: dir.path().join("agent"),
        home: dir.path().join("home"),
        settings_paths: listed(&[&root]),
        ..Default::default()
    });
    let by_name = |n: &str| skills.iter().find(|s| s.name == n);
    assert!(by_name("invalid-yaml").is_none());
    let warning = warnings
        .iter()
        .find(|w| w.contains("invalid-yaml"))
        .expect("a warning for the invalid skill");
    assert!(warning.contains("line"), "{warning}");
    assert_eq!(
        by_name("multiline-description").unwrap().description,
        "This is a multiline description.\nIt spans multiple lines.\nAnd should be normalized.\n"
    );
    assert_eq!(
        by_name("folded").unwrap().description,
        "Folded onto one line"
    );
    assert_eq!(
        by_name("quoted").unwrap().description,
        "Tabs\tand \"quotes\": fine"
    );
    assert!(
        by_name("disable-model-invocation")
            .unwrap()
            .disable_model_invocation
    );
    assert!(!by_name("string-true").unwrap().disable_model_invocation);
    assert!(by_name("unknown-field").is_some());
    assert_eq!(skills.len(), 6, "{skills:?}");
}

#[test]
fn template_bodies_are_trimmed_empty_frontmatter_is_stripped_and_lists_parse() {
    let doc = frontmatter::parse("---\n---\n\n  Hello $1  \n\n").unwrap();
    assert_eq!(doc.body, "Hello $1");
    let doc = frontmatter::parse("---\ntags:\n  - one\n  - two\nnested:\n  key: 'it''s'\n---\nx")
        .unwrap();
    assert_eq!(doc.data["tags"], json!(["one", "two"]));
    assert_eq!(doc.data["nested"]["key"], "it's");

    let dir = tempfile::tempdir().unwrap();
    let prompts = dir.path().join("agent/prompts");
    write(&prompts.join("empty.md"), "---\n---\n\nJust this.\n\n");
    write(
        &prompts.join("broken.md"),
        "---\ndescription: [x\n---\nbody\n",
    );
    write(
        &prompts.join("long.md"),
        &format!("\n\n{}\n", "word ".repeat(20)),
    );
    let (templates, _) = load_templates(&TemplateSources {
        agent_dir: dir.path().join("agent"),
        ..Default::default()
    });
    let names: Vec<&str> = templates.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["empty", "long"], "invalid YAML skips the template");
    assert_eq!(templates[0].content, "Just this.");
    assert_eq!(templates[0].description, "Just this.");
    assert_eq!(
        templates[1].description,
        format!("{}...", &"word ".repeat(12)[..60])
    );
}

#[test]
fn on_a_template_name_clash_the_project_template_wins() {
    let dir = tempfile::tempdir().unwrap();
    let agent = dir.path().join("agent");
    let project = dir.path().join("proj");
    write(&agent.join("prompts/review.md"), "Global $1");
    write(&project.join(".pi/prompts/review.md"), "Project $1");
    let (templates, warnings) = load_templates(&TemplateSources {
        agent_dir: agent.clone(),
        project: Some(project.clone()),
        ..Default::default()
    });
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0].content, "Project $1");
    assert_eq!(templates[0].source_info.scope, "project");
    assert!(
        warnings[0].contains(&agent.join("prompts/review.md").display().to_string()),
        "{warnings:?}"
    );
}

#[test]
fn a_session_whose_folder_is_gone_stops_with_both_folders_named() {
    let sandbox = sandbox();
    let gone = sandbox.root.path().join("gone");
    let file = sandbox.agent_dir.join("sessions/--gone--/s.jsonl");
    write(
        &file,
        &format!(
            "{}\n{}\n",
            json!({"type": "session", "version": 3, "id": "0190a000-0000-7000-8000-000000000001",
                   "timestamp": "2026-01-01T00:00:00.000Z", "cwd": gone}),
            json!({"type": "message", "id": "a1b2c3d4", "parentId": null,
                   "timestamp": "2026-01-01T00:00:01.000Z",
                   "message": {"role": "user", "content": "hi", "timestamp": 1767225601000u64}})
        ),
    );
    for mode in [&["-p", "hello"][..], &["--mode", "rpc"][..]] {
        let mut args = vec!["--session", file.to_str().unwrap()];
        args.extend_from_slice(mode);
        let out = sandbox.run(&args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "Stored session working directory does not exist: {}",
                gone.display()
            )),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("Session file: {}", file.display())),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!(
                "Current working directory: {}",
                sandbox.project.display()
            )),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_repeated_flag_takes_the_last_value() {
    let argv = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let args =
        pi::cli::args::Args::parse_from_argv(&argv(&["--model", "a", "--model", "b", "-p", "-p"]))
            .unwrap();
    assert_eq!(args.model.as_deref(), Some("b"));
    assert!(args.print);
    let args =
        pi::cli::args::Args::parse_from_argv(&argv(&["--thinking", "low", "--thinking", "high"]))
            .unwrap();
    assert_eq!(args.thinking.as_deref(), Some("high"));
    let args =
        pi::cli::args::Args::parse_from_argv(&argv(&["-e", "a.lua", "-e", "b.lua"])).unwrap();
    assert_eq!(args.extensions, ["a.lua", "b.lua"], "lists still collect");

    let sandbox = sandbox();
    let out = sandbox.run(
        &[
            "--model",
            "nope/none",
            "--model",
            "mock/mock-model",
            "--list-models",
            "mock",
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn rpc_bash_output_is_the_commands_own_output() {
    let sandbox = sandbox();
    let mut rpc = rpc(&sandbox, &["--no-session"]);
    let data = |reply: Value| reply["data"].clone();
    let failed = data(rpc.call(json!({"type": "bash", "command": "echo hi; exit 3"})));
    assert_eq!(
        failed,
        json!({"output": "hi\n", "exitCode": 3, "cancelled": false, "truncated": false})
    );
    let silent = data(rpc.call(json!({"type": "bash", "command": "exit 2"})));
    assert_eq!(
        silent,
        json!({"output": "", "exitCode": 2, "cancelled": false, "truncated": false})
    );
    let ok = data(rpc.call(json!({"type": "bash", "command": "printf abc"})));
    assert_eq!(
        ok,
        json!({"output": "abc", "exitCode": 0, "cancelled": false, "truncated": false})
    );
    // The model still learns the exit code from the conversation.
    let messages = rpc.call(json!({"type": "get_messages"}));
    assert_eq!(messages["data"]["messages"][0]["output"], "hi\n");
    assert_eq!(messages["data"]["messages"][0]["exitCode"], 3);
}

#[test]
fn install_stores_a_local_path_relative_to_the_settings_file() {
    let sandbox = sandbox();
    let pkg = sandbox.project.join("pkg");
    write(
        &pkg.join("package.json"),
        r#"{"name": "pkg", "version": "1.0.0"}"#,
    );
    let out = sandbox.run(&["install", "./pkg"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read =
        |p: &Path| -> Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    let global = read(&sandbox.agent_dir.join("settings.json"));
    // The agent dir and the project are siblings in the sandbox.
    assert_eq!(global["packages"], json!(["../proj/pkg"]));
    let out = sandbox.run(&["install", "./pkg", "-l"], None);
    assert!(out.status.success());
    let project = read(&sandbox.project.join(".pi/settings.json"));
    assert_eq!(project["packages"], json!(["../pkg"]));
    let list = sandbox.run(&["list"], None);
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(text.contains(&pkg.display().to_string()), "{text}");
}

#[test]
fn settings_resource_paths_resolve_against_the_folder_of_their_settings_file() {
    let sandbox = sandbox();
    let (agent, proj) = (&sandbox.agent_dir, &sandbox.project);
    let command = |name: &str| {
        format!(
            "return function(pi) pi.registerCommand(\"{name}\", {{ handler = function() end }}) end"
        )
    };
    write(&agent.join("mine/user-ext.lua"), &command("from-user"));
    write(
        &proj.join(".pi/mine/proj-ext.lua"),
        &command("from-project"),
    );
    write(&agent.join("mine/user-prompt.md"), "User prompt");
    write(&proj.join(".pi/mine/proj-prompt.md"), "Project prompt");
    // Decoys where the old, cwd-relative reading would have looked.
    write(&proj.join("mine/user-ext.lua"), &command("wrong"));
    write(&proj.join("mine/user-prompt.md"), "Wrong");
    sandbox.write_agent_file(
        "settings.json",
        r#"{"extensions": ["mine/user-ext.lua"], "prompts": ["./mine/user-prompt.md"]}"#,
    );
    write(
        &proj.join(".pi/settings.json"),
        r#"{"extensions": ["mine/proj-ext.lua"], "prompts": ["mine/proj-prompt.md"]}"#,
    );
    let mut rpc = rpc(&sandbox, &["-a"]);
    let reply = rpc.call(json!({"type": "get_commands"}));
    let commands = reply["data"]["commands"].as_array().unwrap();
    let mut names: Vec<&str> = commands
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["from-project", "from-user", "proj-prompt", "user-prompt"],
        "{reply}"
    );
    let ext = commands.iter().find(|c| c["name"] == "from-user").unwrap();
    assert_eq!(
        ext["sourceInfo"],
        json!({"path": agent.join("mine/user-ext.lua"), "source": "local", "scope": "user",
               "origin": "top-level", "baseDir": agent})
    );
    let prompt = commands
        .iter()
        .find(|c| c["name"] == "user-prompt")
        .unwrap();
    assert_eq!(
        prompt["sourceInfo"],
        json!({"path": agent.join("mine/user-prompt.md"), "source": "local", "scope": "user",
               "origin": "top-level", "baseDir": agent})
    );
}

#[test]
fn set_active_tools_from_lua_rebuilds_the_system_prompt_tool_list() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::anthropic_text("done"));
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    write(
        &sandbox.project.join("only-read.lua"),
        r#"return function(pi)
  pi.on("session_start", function() pi.setActiveTools({ "read" }) end)
end"#,
    );
    let out = sandbox.run(
        &["-e", "only-read.lua", "--no-session", "-p", "hello"],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let requests = server.requests();
    let body = requests.last().unwrap().json();
    let tools: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["read"]);
    let system = body["system"].to_string();
    assert!(system.contains("- read: "), "{system}");
    for gone in ["- bash: ", "- edit: ", "- write: "] {
        assert!(!system.contains(gone), "{gone} still advertised: {system}");
    }
}

#[test]
fn rpc_setters_save_settings_like_pi() {
    let sandbox = sandbox();
    let mut rpc = rpc(&sandbox, &[]);
    for command in [
        json!({"type": "set_model", "provider": "mock", "modelId": "mock-thinker"}),
        json!({"type": "set_thinking_level", "level": "high"}),
        json!({"type": "set_auto_compaction", "enabled": false}),
        json!({"type": "set_steering_mode", "mode": "all"}),
        json!({"type": "set_follow_up_mode", "mode": "all"}),
        json!({"type": "set_auto_retry", "enabled": false}),
    ] {
        let reply = rpc.call(command);
        assert_eq!(reply["success"], true, "{reply}");
    }
    let text = std::fs::read_to_string(sandbox.agent_dir.join("settings.json")).unwrap();
    // The file pi 0.73.1 writes for the same commands.
    let expected = r#"{
  "defaultProvider": "mock",
  "defaultModel": "mock-thinker",
  "defaultThinkingLevel": "high",
  "compaction": {
    "enabled": false
  },
  "steeringMode": "all",
  "followUpMode": "all",
  "retry": {
    "enabled": false
  }
}"#;
    assert_eq!(text.trim_end(), expected);
    assert!(!sandbox.project.join(".pi/settings.json").exists());
}

#[test]
fn get_state_before_the_first_message_has_pis_fields() {
    let sandbox = sandbox();
    let keys = |state: &Value| -> Vec<String> {
        state["data"].as_object().unwrap().keys().cloned().collect()
    };
    // The fields pi 0.73.1 reports, in its order.
    let pi_keys = [
        "model",
        "thinkingLevel",
        "isStreaming",
        "isCompacting",
        "steeringMode",
        "followUpMode",
        "sessionFile",
        "sessionId",
        "autoCompactionEnabled",
        "messageCount",
        "pendingMessageCount",
    ];
    let mut saved = rpc(&sandbox, &[]);
    let state = saved.call(json!({"type": "get_state"}));
    assert_eq!(keys(&state), pi_keys);
    let mut unsaved = rpc(&sandbox, &["--no-session"]);
    let state = unsaved.call(json!({"type": "get_state"}));
    let without_file: Vec<&str> = pi_keys
        .into_iter()
        .filter(|k| *k != "sessionFile")
        .collect();
    assert_eq!(
        keys(&state),
        without_file,
        "no sessionFile (not even null) when nothing is saved"
    );
    assert_eq!(state["data"]["model"]["id"], "mock-model");
    assert_eq!(state["data"]["messageCount"], 0);
}
