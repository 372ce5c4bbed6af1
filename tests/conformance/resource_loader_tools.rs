//! Extensions found in the agent folder that register the same tool: the conflict is
//! reported naming the tool and both extensions, and the first one found keeps the tool.
//! orig-file: packages/coding-agent/test/resource-loader.test.ts

use pi::lua::discovery::{DiscoveryInput, discover_extensions};

fn tool_extension(description: &str) -> String {
    format!(
        r#"return function(pi)
  pi.registerTool({{ name = "duplicate-tool", description = "{description}",
    parameters = {{ type = "object", properties = {{}} }},
    execute = function() return {{ content = {{ {{ type = "text", text = "{description}" }} }} }} end }})
end"#
    )
}

/// orig: DefaultResourceLoader › extension conflict detection › should detect tool conflicts between extensions
#[tokio::test]
async fn a_tool_two_folder_extensions_register_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (agent, cwd) = (tmp.path().join("agent"), tmp.path().join("project"));
    for (name, description) in [("ext1", "First"), ("ext2", "Second")] {
        let dir = agent.join("extensions").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("init.lua"), tool_extension(description)).unwrap();
    }
    std::fs::create_dir_all(&cwd).unwrap();
    let paths = discover_extensions(&DiscoveryInput {
        agent_dir: agent.clone(),
        cwd: cwd.clone(),
        include_project: true,
        ..DiscoveryInput::default()
    });
    assert_eq!(paths.len(), 2, "{paths:?}");
    let view = pi::lua::SharedView::new(&cwd);
    view.lock().capture_messages = true;
    let handle =
        pi::lua::ExtensionHandle::start(pi::lua::HostConfig::new(paths, cwd.clone()), view.clone());
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let messages = view.lock().messages.clone();
    let conflict = messages
        .iter()
        .find(|m| m.contains("duplicate-tool"))
        .unwrap_or_else(|| panic!("{messages:?}"));
    assert!(
        conflict.contains("ext1") && conflict.contains("ext2"),
        "{conflict}"
    );
    let tools = handle.tools().await;
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].description, "First");
}
