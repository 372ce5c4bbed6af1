//! Extensions found in the agent and project folders whose commands share a name: both
//! load, the colliding commands are numbered `deploy:1`, `deploy:2` in load order, and each
//! one's other commands stay.
//! Observed as an RPC client sees it (`get_commands`).
//! orig-file: packages/coding-agent/test/resource-loader.test.ts

use crate::rpc_jsonl::{responses, rpc_in};

fn extension(description_prefix: &str, only: &str) -> String {
    format!(
        "return function(pi)\n\
         pi.registerCommand(\"deploy\", {{ description = \"{description_prefix} deploy\", handler = function() end }})\n\
         pi.registerCommand(\"{only}\", {{ description = \"{description_prefix} only\", handler = function() end }})\n\
         end\n"
    )
}

/// orig: DefaultResourceLoader › reload › should keep both extensions loaded when command names collide
#[test]
fn colliding_command_names_keep_both_extensions() {
    let tmp = tempfile::tempdir().unwrap();
    let (project, agent) = (tmp.path().join("project"), tmp.path().join("agent"));
    std::fs::create_dir_all(project.join(".pi/extensions")).unwrap();
    std::fs::create_dir_all(agent.join("extensions")).unwrap();
    std::fs::write(
        project.join(".pi/extensions/project.lua"),
        extension("project", "project-only"),
    )
    .unwrap();
    std::fs::write(
        agent.join("extensions/user.lua"),
        extension("user", "user-only"),
    )
    .unwrap();
    let stdout = rpc_in(
        &project,
        &agent,
        &["--approve"],
        b"{\"id\":\"c\",\"type\":\"get_commands\"}\n",
    );
    let responses = responses(&stdout);
    let commands = responses[0]["data"]["commands"]
        .as_array()
        .cloned()
        .unwrap_or_else(|| panic!("{stdout}"));
    let described = |name: &str| -> Vec<String> {
        commands
            .iter()
            .filter(|c| c["name"] == name)
            .map(|c| c["description"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    // As pi 0.73.1, both colliding commands are numbered in load order and neither keeps
    // the plain name; each extension loads and its other commands keep their names.
    // Differs: 0.73.1 loads project extensions before the user's, so its `deploy:1` is
    // the project's; here the agent folder's load first (then the project's, settings
    // entries, `-e` paths).
    assert_eq!(described("deploy:1"), ["user deploy"], "{commands:?}");
    assert_eq!(described("deploy:2"), ["project deploy"], "{commands:?}");
    assert!(described("deploy").is_empty(), "{commands:?}");
    let names: std::collections::HashSet<_> =
        commands.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names.len(), commands.len(), "every name is distinct");
    assert_eq!(described("project-only"), ["project only"]);
    assert_eq!(described("user-only"), ["user only"]);
}
