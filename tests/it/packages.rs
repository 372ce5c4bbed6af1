//! End to end: `pi install/remove/update/list` and settings `packages` with the real `pi`
//! binary. Git sources are local bare repositories cloned through `file://` URLs; npm goes
//! through the `npmCommand` setting (see `fake_npm`). Nothing reaches the network.

use crate::support;
use crate::support::pi_cli;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pi_cli::PiSandbox;
use serde_json::{Value, json};
use support::{MockReply, MockServer};

pub(crate) const API: &str = "openai-completions";

/// An extension that rewrites `rewrite: X` into `rewritten X <tag>` and adds a rule to the
/// system prompt, so a request shows it ran.
pub(crate) fn extension_source(tag: &str) -> String {
    format!(
        r#"return function(pi)
  pi.on("before_agent_start", function(event)
    return {{ systemPrompt = event.systemPrompt .. "\nPACKAGE-RULE {tag}" }}
  end)
  pi.on("input", function(event)
    local rest = event.text:match("^rewrite: (.*)$")
    if rest then return {{ action = "transform", text = "rewritten " .. rest .. " {tag}" }} end
  end)
end
"#
    )
}

pub(crate) fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A package folder with `extensions/rewrite.lua` (conventional layout).
pub(crate) fn make_package(dir: &Path, tag: &str) {
    write(&dir.join("extensions/rewrite.lua"), &extension_source(tag));
}

pub(crate) fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub(crate) fn ok(out: &Output) -> String {
    let (stdout, stderr) = text(out);
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    stdout
}

pub(crate) fn settings(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or("{}".into())).unwrap()
}

pub(crate) fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A bare repository holding a package (tag `v1` on the first commit) and its work tree.
pub(crate) fn make_repo(root: &Path) -> (String, PathBuf) {
    let bare = root.join("remote/tool.git");
    std::fs::create_dir_all(&bare).unwrap();
    git(&bare, &["init", "--quiet", "--bare", "-b", "main"]);
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    git(&work, &["init", "--quiet", "-b", "main"]);
    make_package(&work, "v1");
    git(&work, &["add", "."]);
    git(&work, &["commit", "--quiet", "-m", "v1"]);
    git(&work, &["tag", "v1"]);
    git(&work, &["remote", "add", "origin", bare.to_str().unwrap()]);
    git(
        &work,
        &["push", "--quiet", "-u", "origin", "main", "--tags"],
    );
    (format!("file://{}", bare.display()), work)
}

pub(crate) fn push_v2(work: &Path) {
    make_package(work, "v2");
    git(work, &["commit", "--quiet", "-am", "v2"]);
    git(work, &["push", "--quiet"]);
}

pub(crate) fn prompt_request(server: &MockServer, sandbox: &PiSandbox, extra: &[&str]) -> String {
    server.push(MockReply::openai_text("ok"));
    let mut args = vec!["--model", "mock/mock-model"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-p", "rewrite: hello"]);
    ok(&sandbox.run(&args, None));
    let requests = server.requests();
    requests.last().unwrap().json().to_string()
}

#[test]
fn local_paths_install_list_and_remove_without_copying() {
    let sandbox = PiSandbox::new();
    let pkg = sandbox.root.path().join("pkgs/tool");
    make_package(&pkg, "local");
    let out = ok(&sandbox.run(&["install", "../pkgs/tool", "--yes"], None));
    assert!(out.contains("Installed ../pkgs/tool"), "{out}");
    let global = settings(&sandbox.agent_dir.join("settings.json"));
    let stored = pkg.canonicalize().unwrap().display().to_string();
    // Stored relative to the agent folder holding settings.json, as pi stores it.
    assert_eq!(global["packages"], json!(["../pkgs/tool"]));
    // Installing again keeps one entry.
    ok(&sandbox.run(&["install", "../pkgs/tool", "--yes"], None));
    let global = settings(&sandbox.agent_dir.join("settings.json"));
    assert_eq!(global["packages"].as_array().unwrap().len(), 1);

    let inner = sandbox.project.join("vendor/inner");
    make_package(&inner, "inner");
    ok(&sandbox.run(&["install", "./vendor/inner", "-l", "--yes"], None));
    let project = settings(&sandbox.project.join(".pi/settings.json"));
    assert_eq!(project["packages"], json!(["../vendor/inner"]));

    let list = ok(&sandbox.run(&["list"], None));
    let user_at = list.find("User packages:").expect(&list);
    let project_at = list.find("Project packages:").expect(&list);
    assert!(user_at < project_at, "{list}");
    assert!(
        list.contains(&format!("  ../pkgs/tool\n    {stored}")),
        "{list}"
    );
    assert!(list.contains("  ../vendor/inner\n"), "{list}");
    assert!(list.contains(&inner.display().to_string()), "{list}");

    let out = ok(&sandbox.run(&["remove", "../pkgs/tool"], None));
    assert!(out.contains("Removed ../pkgs/tool"), "{out}");
    assert!(
        pkg.join("extensions/rewrite.lua").exists(),
        "local files stay"
    );
    let again = sandbox.run(&["uninstall", "../pkgs/tool"], None);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again).1.contains("No matching package"),
        "{:?}",
        text(&again)
    );
    ok(&sandbox.run(&["remove", "-l", "./vendor/inner"], None));
    let list = ok(&sandbox.run(&["list"], None));
    assert_eq!(list.trim(), "No packages installed.");
}

#[test]
fn git_packages_clone_update_and_pinned_refs_stay() {
    let mut sandbox = PiSandbox::new();
    let (url, work) = make_repo(sandbox.root.path());
    let out = ok(&sandbox.run(&["install", &url, "--yes"], None));
    assert!(out.contains(&format!("Installed {url}")), "{out}");
    let bare_path = url.trim_start_matches("file:///").trim_end_matches(".git");
    let clone = sandbox.agent_dir.join("git/file").join(bare_path);
    let ext = clone.join("extensions/rewrite.lua");
    assert!(std::fs::read_to_string(&ext).unwrap().contains("v1"));
    assert_eq!(
        std::fs::read_to_string(sandbox.agent_dir.join("git/.gitignore")).unwrap(),
        "*\n"
    );
    ok(&sandbox.run(&["install", &format!("{url}@v1"), "-l", "--yes"], None));
    let pinned = sandbox.project.join(".pi/git/file").join(bare_path);
    assert!(sandbox.project.join(".pi/git/.gitignore").exists());

    push_v2(&work);
    let offline = ok(&sandbox.run(&["update"], None));
    assert!(offline.contains("Offline"), "{offline}");
    assert!(std::fs::read_to_string(&ext).unwrap().contains("v1"));
    sandbox.env.push(("PI_OFFLINE".into(), "0".into()));
    let out = ok(&sandbox.run(&["update"], None));
    assert!(out.contains(&format!("Updated {url}")), "{out}");
    assert!(
        out.contains(&format!("Skipping {url}@v1 (pinned)")),
        "{out}"
    );
    assert!(std::fs::read_to_string(&ext).unwrap().contains("v2"));
    let pinned_ext = std::fs::read_to_string(pinned.join("extensions/rewrite.lua")).unwrap();
    assert!(pinned_ext.contains("v1"), "{pinned_ext}");

    // `pi update <source>` matches by identity; an unknown one is an error.
    let none = sandbox.run(&["update", "git:example.com/nobody/none"], None);
    assert_eq!(none.status.code(), Some(1));
    assert!(text(&none).1.contains("No matching package"));

    ok(&sandbox.run(&["remove", &url], None));
    assert!(!clone.exists(), "the clone is deleted");
    let global = settings(&sandbox.agent_dir.join("settings.json"));
    assert_eq!(global["packages"], json!([]));
}

#[test]
fn packaged_extensions_and_skills_load_and_filters_narrow_them() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let pkg = sandbox.root.path().join("bundle");
    write(&pkg.join("lua/rewrite.lua"), &extension_source("manifest"));
    write(
        &pkg.join("extensions/ignored.lua"),
        &extension_source("conventional"),
    );
    write(
        &pkg.join("skills/pkg-skill/SKILL.md"),
        "---\nname: pkg-skill\ndescription: Skill shipped in a package\n---\nDo it.\n",
    );
    write(
        &pkg.join("package.json"),
        r#"{"name": "bundle", "pi": {"extensions": ["lua"], "skills": ["skills"]}}"#,
    );
    let source = pkg.display().to_string();
    sandbox.write_agent_file("settings.json", &json!({"packages": [source]}).to_string());
    let body = prompt_request(&server, &sandbox, &[]);
    assert!(body.contains("rewritten hello manifest"), "{body}");
    assert!(body.contains("PACKAGE-RULE manifest"), "{body}");
    assert!(
        !body.contains("conventional"),
        "the manifest replaces extensions/: {body}"
    );
    assert!(body.contains("pkg-skill"), "{body}");

    sandbox.write_agent_file(
        "settings.json",
        &json!({"packages": [{"source": source, "extensions": [], "skills": ["other"]}]})
            .to_string(),
    );
    let body = prompt_request(&server, &sandbox, &[]);
    assert!(body.contains("rewrite: hello"), "{body}");
    assert!(!body.contains("PACKAGE-RULE"), "{body}");
    assert!(!body.contains("pkg-skill"), "{body}");
    let list = ok(&sandbox.run(&["list"], None));
    assert!(list.contains(&format!("  {source} (filtered)")), "{list}");
}

/// Writes the npm stand-in: the npm registry is off this machine, so `npmCommand` points at
/// a script that performs `install`/`uninstall`/`root -g` by copying from `registry/<name>`.
pub(crate) fn fake_npm(sandbox: &PiSandbox) -> PathBuf {
    let dir = sandbox.root.path().join("npm");
    make_package(&dir.join("registry/fake-pkg"), "npm");
    let script = dir.join("npm.sh");
    write(
        &script,
        r#"#!/bin/sh
here=$(dirname "$0")
echo "$*" >> "$here/calls.log"
global="$here/global/node_modules"
case "$1" in
  root) echo "$global" ;;
  install)
    if [ "$2" = "-g" ]; then spec=$3; dest=$global; else spec=$2; dest=$4/node_modules; fi
    name=${spec%@*}
    mkdir -p "$dest" && rm -rf "$dest/$name" && cp -R "$here/registry/$name" "$dest/$name" ;;
  uninstall)
    if [ "$2" = "-g" ]; then rm -rf "$global/$3"; else rm -rf "$4/node_modules/$2"; fi ;;
esac
"#,
    );
    script
}

#[test]
fn npm_packages_go_through_npm_command_and_install_at_startup() {
    let server = MockServer::start();
    let mut sandbox = PiSandbox::with_mock(&server, API);
    let script = fake_npm(&sandbox);
    let npm = json!(["sh", script.display().to_string()]);
    sandbox.write_agent_file("settings.json", &json!({"npmCommand": npm}).to_string());
    ok(&sandbox.run(&["install", "npm:fake-pkg@1.0.0", "-l", "--yes"], None));
    let installed = sandbox.project.join(".pi/npm/node_modules/fake-pkg");
    assert!(installed.join("extensions/rewrite.lua").exists());
    assert!(sandbox.project.join(".pi/npm/.gitignore").exists());
    let project = settings(&sandbox.project.join(".pi/settings.json"));
    assert_eq!(project["packages"], json!(["npm:fake-pkg@1.0.0"]));
    ok(&sandbox.run(&["remove", "npm:fake-pkg", "-l"], None));
    assert!(!installed.exists());

    // A package listed in settings but missing is installed at start-up, unless offline.
    sandbox.write_agent_file(
        "settings.json",
        &json!({"npmCommand": npm, "packages": ["npm:fake-pkg"]}).to_string(),
    );
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "x"], None);
    assert!(text(&out).1.contains("offline"), "{:?}", text(&out));
    let global_pkg = sandbox.root.path().join("npm/global/node_modules/fake-pkg");
    assert!(!global_pkg.exists());
    sandbox.env.push(("PI_OFFLINE".into(), "0".into()));
    let body = prompt_request(&server, &sandbox, &["--offline"]);
    assert!(
        body.contains("rewrite: hello"),
        "--offline installs nothing: {body}"
    );
    let body = prompt_request(&server, &sandbox, &[]);
    assert!(global_pkg.exists());
    assert!(body.contains("rewritten hello npm"), "{body}");
    let list = ok(&sandbox.run(&["list"], None));
    assert!(list.contains(&global_pkg.display().to_string()), "{list}");
}

#[test]
fn extension_flag_installs_a_git_source_for_the_run() {
    let server = MockServer::start();
    let mut sandbox = PiSandbox::with_mock(&server, API);
    let (url, _work) = make_repo(sandbox.root.path());
    let tmp = sandbox.root.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    sandbox
        .env
        .push(("TMPDIR".into(), tmp.display().to_string()));
    sandbox.env.push(("PI_OFFLINE".into(), "0".into()));
    let body = prompt_request(&server, &sandbox, &["-e", &url]);
    assert!(body.contains("rewritten hello v1"), "{body}");
    assert!(tmp.join("pi-extensions/git-file").is_dir());
    let global = settings(&sandbox.agent_dir.join("settings.json"));
    assert!(
        global.get("packages").is_none(),
        "-e is not saved: {global}"
    );
}

#[test]
fn bad_command_lines_are_usage_errors() {
    let sandbox = PiSandbox::new();
    let missing = sandbox.run(&["remove"], None);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing).1.contains("Usage: pi remove"),
        "{:?}",
        text(&missing)
    );
    for args in [
        &["list", "-l"][..],
        &["update", "--local"],
        &["remove", "x", "--bogus"],
    ] {
        let out = sandbox.run(args, None);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(text(&out).1.contains("Unknown option"), "{:?}", text(&out));
    }
    let help = ok(&sandbox.run(&["update", "--help"], None));
    assert!(help.starts_with("Usage: pi update"), "{help}");
    let absent = sandbox.run(&["install", "./nowhere"], None);
    assert_eq!(absent.status.code(), Some(1));
    assert!(
        text(&absent).1.contains("does not exist"),
        "{:?}",
        text(&absent)
    );
    assert!(!sandbox.agent_dir.join("settings.json").exists());
    let bad_ref = sandbox.run(&["install", "git:example"], None);
    assert_eq!(bad_ref.status.code(), Some(1));
    assert!(
        text(&bad_ref).1.contains("invalid git source"),
        "{:?}",
        text(&bad_ref)
    );
}
