//! Extensions found in the agent and project folders whose commands share a name: both
//! load, each colliding command gets its own name, and each one's other commands stay.
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
    // Differs: pi 0.73.1 names both colliding commands `deploy:1` and `deploy:2`
    // (the project's first); here the first loaded keeps `deploy` and the next is
    // `deploy:1`. Kept in both: each extension loads, each `deploy` is reachable under
    // its own name, and the other commands keep theirs.
    let mut deploys: Vec<String> = commands
        .iter()
        .filter(|c| {
            c["name"]
                .as_str()
                .is_some_and(|n| n == "deploy" || n.starts_with("deploy:"))
        })
        .map(|c| c["description"].as_str().unwrap_or_default().to_string())
        .collect();
    deploys.sort();
    assert_eq!(deploys, ["project deploy", "user deploy"], "{commands:?}");
    let names: std::collections::HashSet<_> =
        commands.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names.len(), commands.len(), "every name is distinct");
    assert_eq!(described("project-only"), ["project only"]);
    assert_eq!(described("user-only"), ["user only"]);
}
