//! A setting pi cannot use is never replaced by a write: every path that
//! saves settings (`pi install`, `pi config`, RPC `set_setting`-style
//! changes) refuses when the key it changes holds a value of the wrong type,
//! names the file and the key, and leaves the file byte for byte.

use super::*;

/// A local package `pkg` in the project.
fn local_package(sandbox: &PiSandbox) {
    let pkg = sandbox.project.join("pkg");
    std::fs::create_dir_all(pkg.join("skills")).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        r#"{"name": "pkg", "version": "1.0.0"}"#,
    )
    .unwrap();
}

#[test]
fn install_refuses_to_replace_packages_that_are_not_a_list() {
    let sandbox = PiSandbox::new();
    local_package(&sandbox);
    let settings = sandbox.agent_dir.join("settings.json");
    let original = "{\n  \"theme\": \"dark\",\n  \"packages\": \"notalist\"\n}\n";
    std::fs::write(&settings, original).unwrap();
    let out = sandbox.run(&["install", "./pkg"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains(&settings.display().to_string()), "{stderr}");
    assert!(stderr.contains("\"packages\" should be"), "{stderr}");
    assert!(stderr.contains("not \"notalist\""), "{stderr}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);

    // The same install into a good settings file is saved.
    std::fs::write(&settings, "{\"theme\": \"dark\", \"packages\": []}").unwrap();
    let out = sandbox.run(&["install", "./pkg"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(saved["packages"], serde_json::json!(["../proj/pkg"]));
    assert_eq!(saved["theme"], "dark");
}

#[test]
fn settings_changes_refuse_a_key_of_the_wrong_type_and_save_others() {
    use pi::config::settings::Settings;
    let dir = tempfile::tempdir().unwrap();
    let (agent, cwd) = (dir.path().join("agent"), dir.path().join("proj"));
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let file = agent.join("settings.json");
    let original = r#"{"theme": 42, "retry": "often", "quietStartup": false}"#;
    std::fs::write(&file, original).unwrap();
    let (mut settings, warnings) = Settings::load(&agent, &cwd);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    for (result, key) in [
        (settings.set_global("theme", "light".into()), "\"theme\""),
        (
            settings.set_global_nested("retry", "enabled", false.into()),
            "\"retry\"",
        ),
        (settings.remove_global("theme"), "\"theme\""),
    ] {
        let err = result.unwrap_err();
        assert!(
            matches!(
                err,
                pi::config::error::SettingsSaveError::UnusableValue { .. }
            ),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(err.contains(&file.display().to_string()), "{err}");
        assert!(err.contains(key), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    }
    // A key holding a usable value is changed, the others kept as they are.
    settings.set_global("quietStartup", true.into()).unwrap();
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(
        saved,
        serde_json::json!({"theme": 42, "retry": "often", "quietStartup": true})
    );
}
