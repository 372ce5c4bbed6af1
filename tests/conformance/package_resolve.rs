//! Resolving configured packages into resource files: local packages from the global and
//! project settings, `-e` sources, the `pi` manifest of `package.json`, the conventional
//! folders, per-kind filter patterns (`!` exclude, `+` force-include, `-` force-exclude),
//! folder extensions with helper files, deduplication across scopes, offline start-up and
//! how local sources are stored in and removed from the settings files. Extensions are Lua
//! files here (`init.lua` where pi 0.73.1 has `index.ts`); a resource a filter leaves out is
//! not loaded, where pi 0.73.1 lists it as disabled.
//! orig-file: packages/coding-agent/test/package-manager.test.ts

use std::path::{Path, PathBuf};

use pi::packages::entries::{Scope, entries_of};
use pi::packages::manager::PackageManager;
use pi::packages::ops::{
    PackageResources, add_to_settings, configured_packages, remove_from_settings, resolve_packages,
    settings_source,
};
use pi::packages::source::PackageSource;
use serde_json::{Map, Value, json};

struct Dirs {
    tmp: tempfile::TempDir,
    agent: PathBuf,
}

impl Dirs {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let agent = tmp.path().join("agent");
        std::fs::create_dir_all(&agent).unwrap();
        Dirs { tmp, agent }
    }

    fn cwd(&self) -> &Path {
        self.tmp.path()
    }

    fn manager(&self) -> PackageManager {
        PackageManager::new(&self.agent, self.cwd(), None)
    }

    /// Resolve the `packages` arrays of the global and project settings, offline.
    fn resolve(&self, global: Value, project: Value) -> PackageResources {
        let (global, project) = (
            map(json!({ "packages": global })),
            map(json!({ "packages": project })),
        );
        let (packages, warnings) =
            configured_packages(&global, Some(&project), &self.agent, self.cwd());
        assert!(warnings.is_empty(), "{warnings:?}");
        resolve_packages(&self.manager(), &packages, true, &|_| {})
    }

    /// Resolve sources given with `-e` for one run.
    fn resolve_temporary(&self, sources: &[&str]) -> PackageResources {
        let settings = map(json!({ "packages": sources }));
        let (packages, warnings) = entries_of(&settings, Scope::Temporary, self.cwd());
        assert!(warnings.is_empty(), "{warnings:?}");
        resolve_packages(&self.manager(), &packages, true, &|_| {})
    }
}

fn map(v: Value) -> Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn write(path: impl AsRef<Path>, text: &str) {
    let path = path.as_ref();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn ext(path: impl AsRef<Path>) {
    write(path, "return function(pi) end\n");
}

fn has(files: &[PathBuf], suffix: &str) -> bool {
    files
        .iter()
        .any(|f| f.to_string_lossy().replace('\\', "/").ends_with(suffix))
}

/// A package folder `name` under the temporary folder with `extensions/<file>` for each name.
fn package_with_extensions(d: &Dirs, name: &str, files: &[&str]) -> PathBuf {
    let root = d.cwd().join(name);
    for f in files {
        ext(root.join("extensions").join(f));
    }
    root
}

fn filtered(root: &Path, kind: &str, patterns: &[&str]) -> Value {
    let mut entry =
        json!({ "source": root, "extensions": [], "skills": [], "prompts": [], "themes": [] });
    entry[kind] = json!(patterns);
    json!([entry])
}

/// orig: DefaultPackageManager › resolve › should return no package-sourced paths when no sources configured
#[test]
fn nothing_configured_gives_nothing() {
    let d = Dirs::new();
    ext(d.cwd().join("stray/extensions/x.lua"));
    let r = d.resolve(json!([]), json!([]));
    assert!(r.extensions.is_empty() && r.skills.is_empty());
    assert!(r.prompts.is_empty() && r.themes.is_empty());
    assert!(r.origins.is_empty() && r.warnings.is_empty());
    // The same folder, configured, does give its extension.
    let r = d.resolve(json!(["./stray"]), json!([]));
    assert!(
        r.extensions.is_empty(),
        "relative to the agent folder: not found"
    );
    let r = d.resolve(json!([d.cwd().join("stray")]), json!([]));
    assert!(has(&r.extensions, "stray/extensions/x.lua"));
}

/// orig: DefaultPackageManager › resolveExtensionSources › should resolve local paths
#[test]
fn a_local_extension_file() {
    let d = Dirs::new();
    let path = d.cwd().join("ext.lua");
    ext(&path);
    let r = d.resolve_temporary(&[path.to_str().unwrap()]);
    assert_eq!(r.extensions, vec![path]);
}

/// orig: DefaultPackageManager › resolveExtensionSources › should handle directories with pi manifest
#[test]
fn a_folder_with_a_manifest() {
    let d = Dirs::new();
    let root = d.cwd().join("my-package");
    write(
        root.join("package.json"),
        &json!({"name": "my-package", "pi": {"extensions": ["./src/init.lua"], "skills": ["./skills"]}})
            .to_string(),
    );
    ext(root.join("src/init.lua"));
    ext(root.join("src/other.lua"));
    write(
        root.join("skills/my-skill/SKILL.md"),
        "---\nname: my-skill\ndescription: Test\n---\nContent",
    );
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    assert_eq!(r.extensions, vec![root.join("src/init.lua")]);
    assert_eq!(r.skills, vec![root.join("skills/my-skill/SKILL.md")]);
}

/// orig: DefaultPackageManager › resolveExtensionSources › should handle directories with auto-discovery layout
#[test]
fn a_folder_with_the_conventional_layout() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "auto-pkg", &["main.lua"]);
    write(root.join("themes/dark.json"), "{}");
    write(root.join("notes.json"), "{}");
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    assert!(has(&r.extensions, "auto-pkg/extensions/main.lua"));
    assert_eq!(r.themes, vec![root.join("themes/dark.json")]);
}

/// orig: DefaultPackageManager › progress callback › should emit progress events
#[test]
fn local_sources_report_no_install_progress() {
    let d = Dirs::new();
    let path = d.cwd().join("ext.lua");
    ext(&path);
    let told = std::sync::Mutex::new(Vec::<String>::new());
    let settings = map(json!({ "packages": [path] }));
    let (packages, _) = entries_of(&settings, Scope::Temporary, d.cwd());
    let r = resolve_packages(&d.manager(), &packages, false, &|s| {
        told.lock().unwrap().push(s.to_string())
    });
    assert_eq!(r.extensions, vec![path]);
    assert!(told.lock().unwrap().is_empty());
}

/// orig: DefaultPackageManager › source parsing › should emit progress events on install attempt
#[test]
fn an_install_attempt_is_reported_first() {
    let d = Dirs::new();
    // An npm whose every command fails (settings `npmCommand`): the attempt is announced,
    // then its failure is a warning and nothing is loaded.
    let manager = PackageManager::new(&d.agent, d.cwd(), Some(vec!["false".into()]));
    let told = std::sync::Mutex::new(Vec::<String>::new());
    let settings = map(json!({ "packages": ["npm:nonexistent-package@1.0.0"] }));
    let (packages, _) = entries_of(&settings, Scope::Project, &d.cwd().join(".pi"));
    let r = resolve_packages(&manager, &packages, false, &|s| {
        told.lock().unwrap().push(s.to_string())
    });
    assert_eq!(*told.lock().unwrap(), vec!["npm:nonexistent-package@1.0.0"]);
    assert!(r.extensions.is_empty());
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
}

/// orig: DefaultPackageManager › pattern filtering in package filters › should apply user filters on top of manifest filters (not replace)
#[test]
fn user_filters_narrow_the_manifest() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "layered-pkg", &["foo.lua", "bar.lua", "baz.lua"]);
    write(
        root.join("package.json"),
        &json!({"name": "layered-pkg", "pi": {"extensions": ["extensions", "!**/baz.lua"]}})
            .to_string(),
    );
    let r = d.resolve(filtered(&root, "extensions", &["!**/bar.lua"]), json!([]));
    assert_eq!(r.extensions, vec![root.join("extensions/foo.lua")]);
    // Without the user's filter the manifest alone leaves bar in.
    let r = d.resolve(json!([root]), json!([]));
    assert!(has(&r.extensions, "bar.lua") && !has(&r.extensions, "baz.lua"));
}

/// orig: DefaultPackageManager › pattern filtering in package filters › should exclude extensions from package with ! pattern
#[test]
fn package_filter_excludes() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "pattern-pkg", &["foo.lua", "bar.lua", "baz.lua"]);
    let r = d.resolve(filtered(&root, "extensions", &["!**/baz.lua"]), json!([]));
    assert!(has(&r.extensions, "foo.lua") && has(&r.extensions, "bar.lua"));
    assert!(!has(&r.extensions, "baz.lua"));
}

/// orig: DefaultPackageManager › pattern filtering in package filters › should filter themes from package
#[test]
fn package_filter_on_themes() {
    let d = Dirs::new();
    let root = d.cwd().join("theme-pkg");
    write(root.join("themes/nice.json"), "{}");
    write(root.join("themes/ugly.json"), "{}");
    let r = d.resolve(filtered(&root, "themes", &["!ugly.json"]), json!([]));
    assert_eq!(r.themes, vec![root.join("themes/nice.json")]);
}

/// orig: DefaultPackageManager › pattern filtering in package filters › should combine include and exclude patterns
#[test]
fn package_filter_includes_then_excludes() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "combo-pkg", &["alpha.lua", "beta.lua", "gamma.lua"]);
    let r = d.resolve(
        filtered(
            &root,
            "extensions",
            &["**/alpha.lua", "**/beta.lua", "!**/beta.lua"],
        ),
        json!([]),
    );
    assert_eq!(r.extensions, vec![root.join("extensions/alpha.lua")]);
}

/// orig: DefaultPackageManager › pattern filtering in package filters › should work with direct paths (no patterns)
#[test]
fn package_filter_of_plain_paths() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "direct-pkg", &["one.lua", "two.lua"]);
    let r = d.resolve(
        filtered(&root, "extensions", &["extensions/one.lua"]),
        json!([]),
    );
    assert_eq!(r.extensions, vec![root.join("extensions/one.lua")]);
}

/// orig: DefaultPackageManager › pattern filtering in pi manifest › should support glob patterns in manifest extensions
#[test]
fn manifest_globs_for_extensions() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "manifest-pkg", &["local.lua"]);
    ext(root.join("node_modules/dep/extensions/remote.lua"));
    ext(root.join("node_modules/dep/extensions/skip.lua"));
    write(
        root.join("package.json"),
        &json!({"pi": {"extensions": ["extensions", "node_modules/dep/extensions", "!**/skip.lua"]}})
            .to_string(),
    );
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    assert!(
        has(&r.extensions, "extensions/local.lua"),
        "{:?}",
        r.extensions
    );
    assert!(
        has(&r.extensions, "dep/extensions/remote.lua"),
        "{:?}",
        r.extensions
    );
    assert!(!has(&r.extensions, "skip.lua"));
}

/// orig: DefaultPackageManager › pattern filtering in pi manifest › should support glob patterns in manifest skills
#[test]
fn manifest_globs_for_skills() {
    let d = Dirs::new();
    let root = d.cwd().join("skill-manifest-pkg");
    for name in ["good-skill", "bad-skill"] {
        write(
            root.join("skills").join(name).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: {name}\n---\nContent"),
        );
    }
    write(
        root.join("package.json"),
        &json!({"pi": {"skills": ["skills", "!**/bad-skill"]}}).to_string(),
    );
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    assert_eq!(r.skills, vec![root.join("skills/good-skill/SKILL.md")]);
}

/// orig: DefaultPackageManager › force-include patterns › should force-include overrides exclude in package filters
#[test]
fn package_filter_force_include() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "force-pkg", &["alpha.lua", "beta.lua", "gamma.lua"]);
    let r = d.resolve(
        filtered(&root, "extensions", &["!**/*.lua", "+extensions/beta.lua"]),
        json!([]),
    );
    assert_eq!(r.extensions, vec![root.join("extensions/beta.lua")]);
}

/// orig: DefaultPackageManager › force-include patterns › should force-include multiple resources
#[test]
fn package_filter_force_includes_several() {
    let d = Dirs::new();
    let root = d.cwd().join("multi-force-pkg");
    for name in ["skill-a", "skill-b", "skill-c"] {
        write(
            root.join("skills").join(name).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: X\n---\nContent"),
        );
    }
    let r = d.resolve(
        filtered(
            &root,
            "skills",
            &["!**/*", "+skills/skill-a", "+skills/skill-c"],
        ),
        json!([]),
    );
    assert_eq!(
        r.skills,
        vec![
            root.join("skills/skill-a/SKILL.md"),
            root.join("skills/skill-c/SKILL.md")
        ]
    );
}

/// orig: DefaultPackageManager › force-include patterns › should handle force-include in manifest patterns
#[test]
fn manifest_force_include() {
    let d = Dirs::new();
    let root = package_with_extensions(
        &d,
        "manifest-force-pkg",
        &["one.lua", "two.lua", "three.lua"],
    );
    write(
        root.join("package.json"),
        &json!({"pi": {"extensions": ["extensions", "!**/two.lua", "+extensions/two.lua"]}})
            .to_string(),
    );
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    for f in ["one.lua", "two.lua", "three.lua"] {
        assert!(has(&r.extensions, f), "{f}: {:?}", r.extensions);
    }
}

/// orig: DefaultPackageManager › force-exclude patterns › should force-exclude in package filters
#[test]
fn package_filter_force_exclude() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "force-exclude-pkg", &["alpha.lua", "beta.lua"]);
    let r = d.resolve(
        filtered(
            &root,
            "extensions",
            &[
                "extensions/*.lua",
                "+extensions/alpha.lua",
                "-extensions/alpha.lua",
            ],
        ),
        json!([]),
    );
    assert_eq!(r.extensions, vec![root.join("extensions/beta.lua")]);
}

/// orig: DefaultPackageManager › package deduplication › should dedupe same local package in global and project (project wins)
#[test]
fn the_same_local_package_twice_loads_once_from_the_project() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "shared-pkg", &["shared.lua"]);
    let r = d.resolve(json!([root]), json!([root]));
    assert_eq!(r.extensions, vec![root.join("extensions/shared.lua")]);
    assert_eq!(r.origins[&r.extensions[0]].scope, "project");
    // Configured only globally it is the user's.
    let r = d.resolve(json!([root]), json!([]));
    assert_eq!(r.origins[&r.extensions[0]].scope, "user");
}

/// orig: DefaultPackageManager › package deduplication › should keep both if different packages
#[test]
fn two_packages_both_load() {
    let d = Dirs::new();
    let one = package_with_extensions(&d, "pkg1", &["from-pkg1.lua"]);
    let two = package_with_extensions(&d, "pkg2", &["from-pkg2.lua"]);
    let r = d.resolve(json!([one]), json!([two]));
    assert!(has(&r.extensions, "pkg1/extensions/from-pkg1.lua"));
    assert!(has(&r.extensions, "pkg2/extensions/from-pkg2.lua"));
}

/// orig: DefaultPackageManager › multi-file extension discovery (issue #1102) › should only load index.ts from subdirectories, not helper modules
#[test]
fn a_folder_extension_loads_its_entry_not_its_helpers() {
    let d = Dirs::new();
    let root = package_with_extensions(
        &d,
        "multifile-pkg",
        &["standalone.lua", "subagent/init.lua"],
    );
    ext(root.join("extensions/subagent/agents.lua"));
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    assert!(has(&r.extensions, "subagent/init.lua"));
    assert!(has(&r.extensions, "standalone.lua"));
    assert!(!has(&r.extensions, "agents.lua"));
}

/// orig: DefaultPackageManager › multi-file extension discovery (issue #1102) › should respect package.json pi.extensions manifest in subdirectories
#[test]
fn a_sub_folder_manifest_names_its_entry() {
    let d = Dirs::new();
    let root = package_with_extensions(
        &d,
        "manifest-subdir-pkg",
        &["custom/main.lua", "custom/utils.lua"],
    );
    write(
        root.join("extensions/custom/package.json"),
        &json!({"pi": {"extensions": ["./main.lua"]}}).to_string(),
    );
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    assert_eq!(r.extensions, vec![root.join("extensions/custom/main.lua")]);
}

/// orig: DefaultPackageManager › multi-file extension discovery (issue #1102) › should handle mixed top-level files and subdirectories
#[test]
fn top_level_files_and_folder_extensions_mixed() {
    let d = Dirs::new();
    let root = package_with_extensions(
        &d,
        "mixed-pkg",
        &[
            "simple.lua",
            "complex/init.lua",
            "complex/a.lua",
            "complex/b.lua",
        ],
    );
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    assert_eq!(
        r.extensions,
        vec![
            root.join("extensions/complex/init.lua"),
            root.join("extensions/simple.lua")
        ]
    );
}

/// orig: DefaultPackageManager › multi-file extension discovery (issue #1102) › should skip subdirectories without index.ts or manifest
#[test]
fn a_folder_without_an_entry_is_skipped() {
    let d = Dirs::new();
    let root = package_with_extensions(
        &d,
        "no-entry-pkg",
        &["valid.lua", "broken/helper.lua", "broken/another.lua"],
    );
    let r = d.resolve_temporary(&[root.to_str().unwrap()]);
    assert_eq!(r.extensions, vec![root.join("extensions/valid.lua")]);
}

/// orig: DefaultPackageManager › offline mode and network timeouts › should skip installing missing package sources when offline
#[test]
fn offline_missing_packages_are_not_installed() {
    let d = Dirs::new();
    let told = std::sync::Mutex::new(0);
    let settings =
        map(json!({ "packages": ["npm:missing-package", "git:github.com/example/missing-repo"] }));
    let (packages, _) = entries_of(&settings, Scope::Project, &d.cwd().join(".pi"));
    let r = resolve_packages(&d.manager(), &packages, true, &|_| {
        *told.lock().unwrap() += 1
    });
    assert_eq!(*told.lock().unwrap(), 0, "no install attempted");
    assert!(r.extensions.is_empty() && r.origins.is_empty());
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(!d.cwd().join(".pi/git").exists() && !d.cwd().join(".pi/npm").exists());
}

/// orig: DefaultPackageManager › offline mode and network timeouts › should skip refreshing temporary git sources when offline
#[test]
fn offline_an_installed_temporary_git_source_is_used_as_is() {
    let d = Dirs::new();
    let source = PackageSource::parse("git:github.com/example/offline-repo-conf").unwrap();
    let installed = d
        .manager()
        .installed_path(&source, Scope::Temporary)
        .unwrap();
    let _ = std::fs::remove_dir_all(&installed);
    ext(installed.join("extensions/init.lua"));
    let r = d.resolve_temporary(&["git:github.com/example/offline-repo-conf"]);
    std::fs::remove_dir_all(&installed).unwrap();
    assert!(has(&r.extensions, "extensions/init.lua"), "{r:?}");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

/// orig: DefaultPackageManager › settings source normalization › should store global local packages relative to agent settings base
#[test]
fn a_global_local_source_is_stored_relative_to_the_agent_folder() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "packages/local-global-pkg", &["init.lua"]);
    let stored = settings_source(
        "./packages/local-global-pkg",
        Scope::Global,
        &d.agent,
        d.cwd(),
    )
    .unwrap();
    assert_eq!(stored, "../packages/local-global-pkg");
    assert!(!add_to_settings(&d.agent, d.cwd(), Scope::Global, &stored).unwrap());
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(d.agent.join("settings.json")).unwrap())
            .unwrap();
    assert_eq!(
        settings["packages"],
        json!(["../packages/local-global-pkg"])
    );
    // Stored that way, it resolves to the package.
    let r = d.resolve(settings["packages"].clone(), json!([]));
    assert_eq!(r.extensions, vec![root.join("extensions/init.lua")]);
}

/// orig: DefaultPackageManager › settings source normalization › should store project local packages relative to .pi settings base
#[test]
fn a_project_local_source_is_stored_relative_to_dot_pi() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "project-local-pkg", &["init.lua"]);
    let stored = settings_source("./project-local-pkg", Scope::Project, &d.agent, d.cwd()).unwrap();
    assert_eq!(stored, "../project-local-pkg");
    add_to_settings(&d.agent, d.cwd(), Scope::Project, &stored).unwrap();
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(d.cwd().join(".pi/settings.json")).unwrap())
            .unwrap();
    assert_eq!(settings["packages"], json!(["../project-local-pkg"]));
    let r = d.resolve(json!([]), settings["packages"].clone());
    assert_eq!(r.extensions, vec![root.join("extensions/init.lua")]);
}

/// orig: DefaultPackageManager › settings source normalization › should remove local package entries using equivalent path forms
#[test]
fn a_local_entry_is_removed_by_an_equivalent_path() {
    let d = Dirs::new();
    let root = package_with_extensions(&d, "remove-local-pkg", &["init.lua"]);
    let stored = settings_source("./remove-local-pkg", Scope::Global, &d.agent, d.cwd()).unwrap();
    add_to_settings(&d.agent, d.cwd(), Scope::Global, &stored).unwrap();
    let base = Scope::Global.base_dir(&d.agent, d.cwd());
    // Another package's path removes nothing.
    let other = PackageSource::parse(&format!("{}/", d.cwd().join("other").display()))
        .unwrap()
        .identity(&base);
    assert!(
        remove_from_settings(&d.agent, d.cwd(), Scope::Global, &other)
            .unwrap()
            .is_empty()
    );
    let identity = PackageSource::parse(&format!("{}/", root.display()))
        .unwrap()
        .identity(&base);
    let removed = remove_from_settings(&d.agent, d.cwd(), Scope::Global, &identity).unwrap();
    assert_eq!(removed.len(), 1);
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(d.agent.join("settings.json")).unwrap())
            .unwrap();
    assert_eq!(settings["packages"], json!([]));
}
