//! Names two extensions both register: a tool or a flag stays the first loaded
//! extension's, and the clash is reported, naming it and both extensions.
//! orig-file: packages/coding-agent/test/resource-loader.test.ts

use crate::session_harness::Harness;

fn tool_and_flag(description: &str) -> String {
    format!(
        r#"return function(pi)
  pi.registerTool({{ name = "duplicate-tool", label = "duplicate-tool", description = "{description}",
    parameters = {{ type = "object", properties = {{}} }},
    execute = function() return {{ content = {{ {{ type = "text", text = "{description}" }} }} }} end }})
  pi.registerFlag("duplicate-flag", {{ description = "{description}", type = "boolean" }})
end"#
    )
}

/// orig: DefaultResourceLoader › extension conflict detection › should detect tool conflicts between extensions
#[tokio::test]
async fn a_tool_or_flag_two_extensions_register_is_reported() {
    let (first, second) = (tool_and_flag("First"), tool_and_flag("Second"));
    let (h, errors) = Harness::with_extensions(&[&first, &second]).await;
    // Both extensions load (0.73.1 lists the clash among the load diagnostics; here it
    // is a warning where the user sees it).
    assert!(errors.is_empty(), "{errors:?}");
    let reports = h.reports();
    let about = |needle: &str| -> Vec<&String> {
        reports
            .iter()
            .filter(|r| r.contains(needle) && r.contains("e0") && r.contains("e1"))
            .collect()
    };
    assert_eq!(about("duplicate-tool").len(), 1, "{reports:?}");
    assert_eq!(about("--duplicate-flag").len(), 1, "{reports:?}");
    let handle = &h.agent.extensions().unwrap().handle;
    let tools = handle.tools().await;
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].description, "First");
    let flags = handle.registrations().await.flags;
    assert_eq!(flags.len(), 1);
    assert_eq!(flags[0].description.as_deref(), Some("First"));
    // One extension alone: nothing to report.
    let (h, _) = Harness::with_extensions(&[&first]).await;
    assert!(
        !h.reports().iter().any(|r| r.contains("duplicate")),
        "{:?}",
        h.reports()
    );
}
