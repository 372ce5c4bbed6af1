//! settings.json loading, merging, warnings and saving; session dir resolution.

use std::path::Path;

use pi::ai::model::ThinkingLevel;
use pi::config::Settings;
use pi::config::paths::resolve_session_dir;
use serde_json::json;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn global_and_project_settings_merge() {
    let agent = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    write(
        &agent.path().join("settings.json"),
        r#"{"theme": "dark", "defaultProvider": "anthropic", "defaultModel": "claude-opus-4-7",
            "compaction": {"enabled": false, "reserveTokens": 16384},
            "enabledModels": ["claude-*", "gpt-4o"], "retry": {"maxRetries": 7}}"#,
    );
    write(
        &cwd.path().join(".pi/settings.json"),
        r#"{"compaction": {"reserveTokens": 8192}, "enabledModels": ["glm-5.1"],
            "defaultThinkingLevel": "high", "sessionDir": ".pi/sessions"}"#,
    );
    let (settings, warnings) = Settings::load(agent.path(), cwd.path());
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        settings.get("compaction"),
        Some(&json!({"enabled": false, "reserveTokens": 8192}))
    );
    assert_eq!(settings.theme(), Some("dark"));
    assert_eq!(settings.default_provider(), Some("anthropic"));
    assert_eq!(settings.default_model(), Some("claude-opus-4-7"));
    assert_eq!(settings.default_thinking_level(), Some(ThinkingLevel::High));
    assert_eq!(settings.enabled_models(), Some(vec!["glm-5.1".to_string()]));
    let compaction = settings.compaction();
    assert!(!compaction.enabled);
    assert_eq!(compaction.reserve_tokens, 8192);
    assert_eq!(compaction.keep_recent_tokens, 20_000);
    assert_eq!(settings.retry().max_retries, 7);
    assert_eq!(settings.retry().base_delay_ms, 2000);
    let session_dir = resolve_session_dir(
        None,
        None,
        settings.session_dir().as_deref(),
        agent.path(),
        cwd.path(),
    );
    assert_eq!(session_dir, cwd.path().join(".pi/sessions"));
}

#[test]
fn malformed_settings_warn_and_fall_back_to_defaults() {
    let agent = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let global = agent.path().join("settings.json");
    write(
        &global,
        "{\n  \"theme\": \"light\",\n  \"quietStartup\": yes\n}\n",
    );
    write(
        &cwd.path().join(".pi/settings.json"),
        r#"{"hideThinkingBlock": true}"#,
    );
    let (settings, warnings) = Settings::load(agent.path(), cwd.path());
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let warning = &warnings[0].to_string();
    assert!(warning.contains(&global.display().to_string()), "{warning}");
    assert!(warning.contains("line 3, column"), "{warning}");
    assert!(
        warning.contains("continues with default settings"),
        "{warning}"
    );
    assert_eq!(settings.theme(), None);
    assert!(!settings.quiet_startup());
    assert!(settings.hide_thinking_block(), "project file still applies");

    // A file that failed to parse is never overwritten.
    let mut settings = settings;
    assert!(
        settings
            .set_global("defaultModel", json!("glm-5.1"))
            .is_err()
    );
    assert!(
        std::fs::read_to_string(&global)
            .unwrap()
            .contains("quietStartup\": yes\n")
    );
    assert_eq!(settings.default_model(), Some("glm-5.1"), "kept in memory");
}

#[test]
fn saving_merges_into_the_global_file() {
    let agent = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let global = agent.path().join("settings.json");
    write(
        &global,
        r#"{"theme": "dark", "retry": {"enabled": true, "baseDelayMs": 100}}"#,
    );
    write(
        &cwd.path().join(".pi/settings.json"),
        r#"{"theme": "light"}"#,
    );
    let (mut settings, _) = Settings::load(agent.path(), cwd.path());
    // Someone else edits the file meanwhile; unrelated keys survive.
    write(
        &global,
        r#"{"theme": "dark", "retry": {"enabled": true, "baseDelayMs": 100}, "quietStartup": true}"#,
    );
    settings
        .set_global("defaultProvider", json!("zai"))
        .unwrap();
    settings
        .set_global_nested("retry", "maxRetries", json!(5))
        .unwrap();
    let text = std::fs::read_to_string(&global).unwrap();
    assert_eq!(
        text,
        "{\n  \"theme\": \"dark\",\n  \"retry\": {\n    \"enabled\": true,\n    \"baseDelayMs\": 100,\n    \"maxRetries\": 5\n  },\n  \"quietStartup\": true,\n  \"defaultProvider\": \"zai\"\n}"
    );
    assert_eq!(settings.default_provider(), Some("zai"));
    assert_eq!(settings.retry().max_retries, 5);
    assert_eq!(settings.theme(), Some("light"), "project still wins");
    assert!(
        !std::fs::read_to_string(cwd.path().join(".pi/settings.json"))
            .unwrap()
            .contains("zai")
    );
    settings.remove_global("defaultProvider").unwrap();
    assert!(!std::fs::read_to_string(&global).unwrap().contains("zai"));
}

#[test]
fn saving_creates_the_global_file() {
    let agent = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let agent_dir = agent.path().join("nested/agent");
    let (mut settings, warnings) = Settings::load(&agent_dir, cwd.path());
    assert!(warnings.is_empty());
    settings
        .set_global("defaultThinkingLevel", json!("low"))
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(agent_dir.join("settings.json")).unwrap(),
        "{\n  \"defaultThinkingLevel\": \"low\"\n}"
    );
}
