//! End to end: `packages.lock`. Installs record a hash per file, an edited package does not
//! load (and says which file), `pi install` without a source restores the locked set on a
//! fresh agent folder, npm lifecycle scripts and git hooks never run. Git sources are local
//! bare repositories; npm is the real `npm` on a packed local tarball, kept offline.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::packages::{
    API, fake_npm, make_repo, ok, prompt_request, push_v2, settings, text, write,
};
use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};

fn lock(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("lock file")).unwrap()
}

fn sha256_hex(path: &Path) -> String {
    let digest = Sha256::digest(std::fs::read(path).unwrap());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn installs_lock_every_file_and_an_edited_package_alone_stops_loading() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let (url, _work) = make_repo(sandbox.root.path());
    let script = fake_npm(&sandbox);
    let npm = json!(["sh", script.display().to_string()]);
    sandbox.write_agent_file("settings.json", &json!({"npmCommand": npm}).to_string());
    ok(&sandbox.run(&["install", &url, "--yes"], None));
    ok(&sandbox.run(&["install", "npm:fake-pkg@1.0.0", "--yes"], None));

    let locked = lock(&sandbox.agent_dir.join("packages.lock"));
    assert_eq!(locked["lockfileVersion"], 1);
    let git_entry = &locked["packages"][&url];
    assert_eq!(git_entry["kind"], "git");
    let revision = git_entry["revision"].as_str().unwrap();
    assert_eq!(revision.len(), 40, "{git_entry}");
    let bare = url.trim_start_matches("file:///").trim_end_matches(".git");
    let clone = sandbox.agent_dir.join("git/file").join(bare);
    let ext = clone.join("extensions/rewrite.lua");
    assert_eq!(
        git_entry["files"]["extensions/rewrite.lua"]["sha256"],
        sha256_hex(&ext)
    );
    assert!(git_entry["files"].get(".git/HEAD").is_none(), "{git_entry}");
    let npm_entry = &locked["packages"]["npm:fake-pkg@1.0.0"];
    assert_eq!(npm_entry["kind"], "npm");
    assert!(npm_entry["files"]["extensions/rewrite.lua"]["sha256"].is_string());

    // Both load while they match the lock.
    let body = prompt_request(&server, &sandbox, &[]);
    assert!(body.contains("PACKAGE-RULE v1"), "{body}");
    assert!(body.contains("PACKAGE-RULE npm"), "{body}");

    // One edited file: that package is refused with the file named, the other still loads.
    let edited = std::fs::read_to_string(&ext)
        .unwrap()
        .replace("PACKAGE-RULE", "TAMPERED-RULE");
    std::fs::write(&ext, edited).unwrap();
    server.push(MockReply::openai_text("ok"));
    let out = sandbox.run(
        &["--model", "mock/mock-model", "-p", "rewrite: hello"],
        None,
    );
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("package {url} is not loaded")),
        "{stderr}"
    );
    assert!(
        stderr.contains("extensions/rewrite.lua was changed"),
        "{stderr}"
    );
    assert!(stderr.contains("`pi install`"), "{stderr}");
    let body = server.requests().last().unwrap().json().to_string();
    assert!(!body.contains("TAMPERED-RULE"), "{body}");
    assert!(!body.contains("PACKAGE-RULE v1"), "{body}");
    assert!(body.contains("PACKAGE-RULE npm"), "{body}");

    // `pi install` puts the locked files back; the package loads again.
    let restored = ok(&sandbox.run(&["install"], None));
    assert!(restored.contains(&format!("Restored {url}")), "{restored}");
    assert!(
        restored.contains("npm:fake-pkg@1.0.0 matches the lock"),
        "{restored}"
    );
    let body = prompt_request(&server, &sandbox, &[]);
    assert!(body.contains("PACKAGE-RULE v1"), "{body}");

    // Removing a package drops its lock entry.
    ok(&sandbox.run(&["remove", &url], None));
    let locked = lock(&sandbox.agent_dir.join("packages.lock"));
    assert!(locked["packages"].get(&url).is_none(), "{locked}");
    assert!(locked["packages"].get("npm:fake-pkg@1.0.0").is_some());
}

#[test]
fn install_without_a_source_restores_the_locked_revision_on_a_fresh_home() {
    let server = MockServer::start();
    let mut first = PiSandbox::with_mock(&server, API);
    let (url, work) = make_repo(first.root.path());
    ok(&first.run(&["install", &url, "--yes"], None));
    let lock_text = std::fs::read_to_string(first.agent_dir.join("packages.lock")).unwrap();
    let bare = url.trim_start_matches("file:///").trim_end_matches(".git");
    let first_ext = first
        .agent_dir
        .join("git/file")
        .join(bare)
        .join("extensions/rewrite.lua");
    // The remote moves on after the lock was written.
    push_v2(&work);

    let fresh = PiSandbox::with_mock(&server, API);
    let nothing = ok(&fresh.run(&["install"], None));
    assert!(nothing.contains("Nothing to restore"), "{nothing}");
    fresh.write_agent_file("packages.lock", &lock_text);
    let out = ok(&fresh.run(&["install"], None));
    assert!(out.contains(&format!("Restored {url}")), "{out}");
    let fresh_ext = fresh
        .agent_dir
        .join("git/file")
        .join(bare)
        .join("extensions/rewrite.lua");
    assert_eq!(
        std::fs::read(&fresh_ext).unwrap(),
        std::fs::read(&first_ext).unwrap(),
        "the locked revision, not the remote's newest"
    );
    let global = settings(&fresh.agent_dir.join("settings.json"));
    assert_eq!(global["packages"], json!([url]));
    assert_eq!(
        std::fs::read_to_string(fresh.agent_dir.join("packages.lock")).unwrap(),
        lock_text,
        "restoring leaves the lock as it was"
    );
    let body = prompt_request(&server, &fresh, &[]);
    assert!(body.contains("PACKAGE-RULE v1"), "{body}");
    let again = ok(&fresh.run(&["install"], None));
    assert!(
        again.contains(&format!("{url} matches the lock")),
        "{again}"
    );

    // `pi update` moves the first machine to the remote's newest commit and locks it.
    first.env.push(("PI_OFFLINE".into(), "0".into()));
    ok(&first.run(&["update"], None));
    let updated = lock(&first.agent_dir.join("packages.lock"));
    let before: Value = serde_json::from_str(&lock_text).unwrap();
    let entry = &updated["packages"][&url];
    assert_ne!(entry["revision"], before["packages"][&url]["revision"]);
    assert_eq!(
        entry["files"]["extensions/rewrite.lua"]["sha256"],
        sha256_hex(&first_ext)
    );
    assert!(std::fs::read_to_string(&first_ext).unwrap().contains("v2"));
}

/// Environment that keeps the real npm off the network and out of the real home folder.
fn offline_npm_env(root: &Path) -> Vec<(String, String)> {
    [
        (
            "npm_config_cache",
            root.join("npm-cache").display().to_string(),
        ),
        ("npm_config_offline", "true".into()),
        ("npm_config_audit", "false".into()),
        ("npm_config_fund", "false".into()),
        ("npm_config_update_notifier", "false".into()),
        ("MARKER", root.join("marker").display().to_string()),
    ]
    .map(|(k, v)| (k.to_string(), v))
    .to_vec()
}

#[test]
fn npm_lifecycle_scripts_do_not_run_on_install() {
    if Command::new("npm").arg("--version").output().is_err() {
        eprintln!("SKIPPED: npm is not installed; this test packs and installs a local tarball");
        return;
    }
    let mut sandbox = PiSandbox::new();
    let root = sandbox.root.path().to_path_buf();
    let env = offline_npm_env(&root);
    sandbox.env.extend(env.clone());
    let pkg = root.join("marker-src");
    write(
        &pkg.join("package.json"),
        r#"{"name": "marker-pkg", "version": "1.0.0",
  "scripts": {"postinstall": "node -e \"require('fs').writeFileSync(process.env.MARKER, 'ran')\""}}"#,
    );
    write(&pkg.join("extensions/x.lua"), "return function(pi) end\n");
    let packed = Command::new("npm")
        .args(["pack", "--pack-destination"])
        .arg(&root)
        .current_dir(&pkg)
        .envs(env.clone())
        .output()
        .expect("npm");
    assert!(packed.status.success(), "{packed:?}");
    let tarball = root.join("marker-pkg-1.0.0.tgz");
    let marker = root.join("marker");

    // Plain npm runs the script: the marker is a real signal.
    let control = Command::new("npm")
        .arg("install")
        .arg(format!("marker-pkg@file:{}", tarball.display()))
        .arg("--prefix")
        .arg(root.join("control"))
        .envs(env)
        .output()
        .expect("npm");
    assert!(control.status.success(), "{control:?}");
    assert!(marker.exists(), "the postinstall script writes the marker");
    std::fs::remove_file(&marker).unwrap();

    let source = format!("npm:marker-pkg@file:{}", tarball.display());
    ok(&sandbox.run(&["install", &source, "-l", "--yes"], None));
    let installed = sandbox.project.join(".pi/npm/node_modules/marker-pkg");
    assert!(installed.join("extensions/x.lua").exists());
    assert!(!marker.exists(), "postinstall must not run");
    let locked = lock(&sandbox.project.join(".pi/packages.lock"));
    let entry = &locked["packages"][&source];
    assert_eq!(entry["version"], "1.0.0", "{locked}");
    assert!(entry["files"]["extensions/x.lua"].is_object(), "{locked}");
}

#[test]
fn git_hooks_never_run_on_clone() {
    let mut sandbox = PiSandbox::new();
    let root = sandbox.root.path().to_path_buf();
    let (url, _work) = make_repo(&root);
    let hooks = root.join("hooks");
    let marker = root.join("hook-ran");
    write(
        &hooks.join("post-checkout"),
        &format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    );
    let status = Command::new("chmod")
        .arg("+x")
        .arg(hooks.join("post-checkout"))
        .status()
        .unwrap();
    assert!(status.success());
    let config = root.join("gitconfig");
    write(
        &config,
        &format!("[core]\n\thooksPath = {}\n", hooks.display()),
    );
    let env = [("GIT_CONFIG_GLOBAL", config.display().to_string())];

    // A plain clone with this configuration runs the hook.
    let control = Command::new("git")
        .args(["clone", "--quiet", &url])
        .arg(root.join("control"))
        .envs(env.clone())
        .output()
        .unwrap();
    assert!(control.status.success(), "{control:?}");
    assert!(marker.exists(), "the hook runs for a plain clone");
    std::fs::remove_file(&marker).unwrap();

    sandbox.env.extend(env.map(|(k, v)| (k.to_string(), v)));
    ok(&sandbox.run(&["install", &url, "--yes"], None));
    let bare = url.trim_start_matches("file:///").trim_end_matches(".git");
    assert!(
        sandbox
            .agent_dir
            .join("git/file")
            .join(bare)
            .join("extensions/rewrite.lua")
            .exists()
    );
    assert!(!marker.exists(), "pi's clone must not run hooks");
}
