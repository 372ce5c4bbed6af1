//! Settings files: saving one key keeps what was edited on disk, packages entries, reading
//! errors, the project folder, and `shellCommandPrefix`.
//! orig-file: packages/coding-agent/test/settings-manager.test.ts, settings-manager-bug.test.ts

use std::path::{Path, PathBuf};

use pi::config::Settings;
use pi::config::settings::update_settings_file;
use serde_json::{Value, json};

struct Dirs {
    _root: tempfile::TempDir,
    agent: PathBuf,
    project: PathBuf,
}

fn dirs() -> Dirs {
    let root = tempfile::tempdir().unwrap();
    let agent = root.path().join("agent");
    let project = root.path().join("project");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::create_dir_all(project.join(".pi")).unwrap();
    Dirs {
        _root: root,
        agent,
        project,
    }
}

impl Dirs {
    fn global(&self) -> PathBuf {
        self.agent.join("settings.json")
    }
    fn project_file(&self) -> PathBuf {
        self.project.join(".pi/settings.json")
    }
    fn load(&self) -> Settings {
        Settings::load(&self.agent, &self.project).0
    }
}

fn write(path: &Path, value: Value) {
    std::fs::write(path, value.to_string()).unwrap();
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Edit the file on disk as a user would, behind the loaded settings' back.
fn edit(path: &Path, key: &str, value: Value) {
    let mut current = read(path);
    current[key] = value;
    write(path, current);
}

/// orig: settings-manager.test.ts › SettingsManager › preserves externally added settings › should preserve enabledModels when changing thinking level
#[test]
fn external_enabled_models_kept() {
    let d = dirs();
    write(
        &d.global(),
        json!({"theme": "dark", "defaultModel": "claude-sonnet"}),
    );
    let mut s = d.load();
    edit(
        &d.global(),
        "enabledModels",
        json!(["claude-opus-4-5", "gpt-5.2-codex"]),
    );
    s.set_global("defaultThinkingLevel", json!("high")).unwrap();
    let saved = read(&d.global());
    assert_eq!(
        saved["enabledModels"],
        json!(["claude-opus-4-5", "gpt-5.2-codex"])
    );
    assert_eq!(saved["defaultThinkingLevel"], "high");
    assert_eq!(saved["theme"], "dark");
    assert_eq!(saved["defaultModel"], "claude-sonnet");
}

/// orig: settings-manager.test.ts › SettingsManager › preserves externally added settings › should preserve custom settings when changing theme
#[test]
fn external_custom_settings_kept() {
    let d = dirs();
    write(&d.global(), json!({"defaultModel": "claude-sonnet"}));
    let mut s = d.load();
    edit(&d.global(), "shellPath", json!("/bin/zsh"));
    edit(&d.global(), "extensions", json!(["/path/to/extension.ts"]));
    s.set_global("theme", json!("light")).unwrap();
    let saved = read(&d.global());
    assert_eq!(saved["shellPath"], "/bin/zsh");
    assert_eq!(saved["extensions"], json!(["/path/to/extension.ts"]));
    assert_eq!(saved["theme"], "light");
}

/// orig: settings-manager.test.ts › SettingsManager › preserves externally added settings › should let in-memory changes override file changes for same key
#[test]
fn in_memory_change_wins_for_its_key() {
    let d = dirs();
    write(&d.global(), json!({"theme": "dark"}));
    let mut s = d.load();
    edit(&d.global(), "defaultThinkingLevel", json!("low"));
    s.set_global("defaultThinkingLevel", json!("high")).unwrap();
    assert_eq!(read(&d.global())["defaultThinkingLevel"], "high");
}

/// orig: settings-manager.test.ts › SettingsManager › packages migration › should keep local-only extensions in extensions array
#[test]
fn local_extensions_stay_extensions() {
    let d = dirs();
    write(
        &d.global(),
        json!({"extensions": ["/local/ext.ts", "./relative/ext.ts"]}),
    );
    let s = d.load();
    assert_eq!(s.get("packages").cloned().unwrap_or(json!([])), json!([]));
    assert_eq!(
        s.get("extensions"),
        Some(&json!(["/local/ext.ts", "./relative/ext.ts"]))
    );
}

/// orig: settings-manager.test.ts › SettingsManager › packages migration › should handle packages with filtering objects
#[test]
fn package_filter_objects() {
    let d = dirs();
    let filtered = json!({"source": "npm:shitty-extensions", "extensions": ["extensions/oracle.ts"], "skills": []});
    write(
        &d.global(),
        json!({"packages": ["npm:simple-pkg", filtered.clone()]}),
    );
    let s = d.load();
    assert_eq!(
        s.get("packages"),
        Some(&json!(["npm:simple-pkg", filtered]))
    );
}

/// orig: settings-manager.test.ts › SettingsManager › reload › should reload global settings from disk
#[test]
fn reload_reads_disk_again() {
    let d = dirs();
    write(
        &d.global(),
        json!({"theme": "dark", "extensions": ["/before.ts"]}),
    );
    let _ = d.load();
    write(
        &d.global(),
        json!({"theme": "light", "extensions": ["/after.ts"], "defaultModel": "claude-sonnet"}),
    );
    let s = d.load();
    assert_eq!(s.get("theme"), Some(&json!("light")));
    assert_eq!(s.get("extensions"), Some(&json!(["/after.ts"])));
    assert_eq!(s.get("defaultModel"), Some(&json!("claude-sonnet")));
}

/// orig: settings-manager.test.ts › SettingsManager › error tracking › should collect and clear load errors via drainErrors
#[test]
fn both_broken_files_reported() {
    let d = dirs();
    std::fs::write(d.global(), "{ invalid global json").unwrap();
    std::fs::write(d.project_file(), "{ invalid project json").unwrap();
    let (_, warnings) = Settings::load(&d.agent, &d.project);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.to_string().contains(&d.global().display().to_string()))
    );
    assert!(warnings.iter().any(|w| {
        w.to_string()
            .contains(&d.project_file().display().to_string())
    }));
}

/// orig: settings-manager.test.ts › SettingsManager › project settings directory creation › should not create .pi folder when only reading project settings
#[test]
fn reading_creates_no_project_folder() {
    let d = dirs();
    write(&d.global(), json!({"theme": "dark"}));
    std::fs::remove_dir_all(d.project.join(".pi")).unwrap();
    let s = d.load();
    assert!(!d.project.join(".pi").exists());
    assert_eq!(s.get("theme"), Some(&json!("dark")));
}

/// orig: settings-manager.test.ts › SettingsManager › project settings directory creation › should create .pi folder when writing project settings
#[test]
fn writing_project_settings_creates_folder() {
    let d = dirs();
    std::fs::remove_dir_all(d.project.join(".pi")).unwrap();
    update_settings_file(&d.project_file(), |m| {
        m.insert("packages".into(), json!([{"source": "npm:test-pkg"}]));
    })
    .unwrap();
    assert!(d.project_file().exists());
}

/// orig: settings-manager.test.ts › SettingsManager › shellCommandPrefix › should load shellCommandPrefix from settings
#[test]
fn shell_prefix_loaded() {
    let d = dirs();
    write(
        &d.global(),
        json!({"shellCommandPrefix": "shopt -s expand_aliases"}),
    );
    assert_eq!(
        d.load().get("shellCommandPrefix"),
        Some(&json!("shopt -s expand_aliases"))
    );
}

/// orig: settings-manager.test.ts › SettingsManager › shellCommandPrefix › should return undefined when shellCommandPrefix is not set
#[test]
fn shell_prefix_absent() {
    let d = dirs();
    write(&d.global(), json!({"theme": "dark"}));
    assert_eq!(d.load().get("shellCommandPrefix"), None);
}

/// orig: settings-manager.test.ts › SettingsManager › shellCommandPrefix › should preserve shellCommandPrefix when saving unrelated settings
#[test]
fn shell_prefix_kept_on_save() {
    let d = dirs();
    write(
        &d.global(),
        json!({"shellCommandPrefix": "shopt -s expand_aliases"}),
    );
    let mut s = d.load();
    s.set_global("theme", json!("light")).unwrap();
    let saved = read(&d.global());
    assert_eq!(saved["shellCommandPrefix"], "shopt -s expand_aliases");
    assert_eq!(saved["theme"], "light");
}

/// orig: settings-manager-bug.test.ts › SettingsManager - External Edit Preservation › should preserve file changes to packages array when changing unrelated setting
#[test]
fn external_packages_edit_kept() {
    let d = dirs();
    write(
        &d.global(),
        json!({"theme": "dark", "packages": ["npm:pi-mcp-adapter"]}),
    );
    let mut s = d.load();
    assert_eq!(s.get("packages"), Some(&json!(["npm:pi-mcp-adapter"])));
    edit(&d.global(), "packages", json!([]));
    s.set_global("theme", json!("light")).unwrap();
    let saved = read(&d.global());
    assert_eq!(saved["packages"], json!([]));
    assert_eq!(saved["theme"], "light");
}

/// orig: settings-manager-bug.test.ts › SettingsManager - External Edit Preservation › should preserve file changes to extensions array when changing unrelated setting
#[test]
fn external_extensions_edit_kept() {
    let d = dirs();
    write(
        &d.global(),
        json!({"theme": "dark", "extensions": ["/old/extension.ts"]}),
    );
    let mut s = d.load();
    edit(&d.global(), "extensions", json!(["/new/extension.ts"]));
    s.set_global("defaultThinkingLevel", json!("high")).unwrap();
    assert_eq!(
        read(&d.global())["extensions"],
        json!(["/new/extension.ts"])
    );
}

/// orig: settings-manager-bug.test.ts › SettingsManager - External Edit Preservation › should preserve external project settings changes when updating unrelated project field
#[test]
fn external_project_edit_kept() {
    let d = dirs();
    write(
        &d.project_file(),
        json!({"extensions": ["./old-extension.ts"], "prompts": ["./old-prompt.md"]}),
    );
    let _s = d.load();
    edit(&d.project_file(), "prompts", json!(["./new-prompt.md"]));
    update_settings_file(&d.project_file(), |m| {
        m.insert("extensions".into(), json!(["./updated-extension.ts"]));
    })
    .unwrap();
    let saved = read(&d.project_file());
    assert_eq!(saved["prompts"], json!(["./new-prompt.md"]));
    assert_eq!(saved["extensions"], json!(["./updated-extension.ts"]));
}

/// orig: settings-manager-bug.test.ts › SettingsManager - External Edit Preservation › should let in-memory project changes override external changes for the same project field
#[test]
fn project_change_wins_for_its_key() {
    let d = dirs();
    write(
        &d.project_file(),
        json!({"extensions": ["./initial-extension.ts"]}),
    );
    let _s = d.load();
    edit(
        &d.project_file(),
        "extensions",
        json!(["./external-extension.ts"]),
    );
    update_settings_file(&d.project_file(), |m| {
        m.insert("extensions".into(), json!(["./in-memory-extension.ts"]));
    })
    .unwrap();
    assert_eq!(
        read(&d.project_file())["extensions"],
        json!(["./in-memory-extension.ts"])
    );
}
