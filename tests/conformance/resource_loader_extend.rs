//! Skills and prompt templates an extension adds through `resources_discover`: they join
//! the session's own, reported as the extension's (`extension:<name>`, temporary, relative
//! to the extension's folder), where the original extends the loader with that metadata.
//! orig-file: packages/coding-agent/test/resource-loader.test.ts

use crate::session_harness::Harness;

/// orig: DefaultResourceLoader › extendResources › should load skills and prompts with extension metadata
#[tokio::test]
async fn resources_an_extension_discovers_carry_its_name() {
    let extra = tempfile::tempdir().unwrap();
    let skill_dir = extra.path().join("extra-skills/extra-skill");
    std::fs::create_dir_all(&skill_dir).unwrap();
    let skill_path = skill_dir.join("SKILL.md");
    std::fs::write(
        &skill_path,
        "---\nname: extra-skill\ndescription: Extra skill\n---\nExtra content",
    )
    .unwrap();
    let prompt_dir = extra.path().join("extra-prompts");
    std::fs::create_dir_all(&prompt_dir).unwrap();
    let prompt_path = prompt_dir.join("extra.md");
    std::fs::write(
        &prompt_path,
        "---\ndescription: Extra prompt\n---\nExtra prompt content",
    )
    .unwrap();
    let source = format!(
        r#"return function(pi)
  pi.on("resources_discover", function()
    return {{ skillPaths = {{ "{skill}" }}, promptPaths = {{ "{prompt}" }} }}
  end)
end"#,
        skill = skill_dir.display(),
        prompt = prompt_path.display()
    );
    let (h, errors) = Harness::with_extensions(&[&source]).await;
    assert!(errors.is_empty(), "{errors:?}");
    let skill = h
        .agent
        .skills
        .iter()
        .find(|s| s.name == "extra-skill")
        .unwrap_or_else(|| panic!("{:?}", h.agent.skills));
    assert_eq!(skill.file_path, skill_path);
    assert_eq!(skill.source_info.source, "extension:e0");
    assert_eq!(skill.source_info.scope, "temporary");
    assert_eq!(skill.source_info.origin, "top-level");
    let template = h
        .agent
        .templates
        .iter()
        .find(|t| t.name == "extra")
        .unwrap_or_else(|| panic!("{:?}", h.agent.templates));
    assert_eq!(template.file_path, prompt_path);
    assert_eq!(template.source_info.source, "extension:e0");
    // Relative to the folder the extension lives in.
    let ext_dir = template.source_info.base_dir.clone().unwrap();
    assert!(ext_dir.join("e0.lua").is_file(), "{ext_dir:?}");
}
