//! Capabilities across a package's life: `pi update` shows what an extension's request
//! gained and asks again (refused without a terminal: the package is put back as it
//! was; accepted with `--yes`), and a manifest's `pi.capabilities` limits the package's
//! extensions when they run.

use std::path::Path;
use std::process::Command;

use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};
use serde_json::json;

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

fn extension(programs: &str, tag: &str) -> String {
    format!(
        "-- {tag}\nreturn {{ capabilities = {{ exec = {{ {programs} }} }}, setup = function(pi) end }}\n"
    )
}

#[test]
fn update_asks_again_when_the_request_grew() {
    let mut sandbox = PiSandbox::new();
    let root = sandbox.root.path().to_path_buf();
    let bare = root.join("remote/tool.git");
    std::fs::create_dir_all(&bare).unwrap();
    git(&bare, &["init", "--quiet", "--bare", "-b", "main"]);
    let work = root.join("work");
    std::fs::create_dir_all(work.join("extensions")).unwrap();
    git(&work, &["init", "--quiet", "-b", "main"]);
    let file = work.join("extensions/tool.lua");
    std::fs::write(&file, extension("'git'", "v1")).unwrap();
    git(&work, &["add", "."]);
    git(&work, &["commit", "--quiet", "-m", "v1"]);
    git(&work, &["remote", "add", "origin", bare.to_str().unwrap()]);
    git(&work, &["push", "--quiet", "-u", "origin", "main"]);
    let url = format!("file://{}", bare.display());
    let installed = sandbox.run(&["install", &url, "--yes"], None);
    assert!(installed.status.success(), "{installed:?}");
    let clone = sandbox
        .agent_dir
        .join("git/file")
        .join(url.trim_start_matches("file:///").trim_end_matches(".git"));
    let copy = clone.join("extensions/tool.lua");
    assert!(std::fs::read_to_string(&copy).unwrap().contains("v1"));

    // v2 wants curl as well.
    std::fs::write(&file, extension("'git', 'curl'", "v2")).unwrap();
    git(&work, &["commit", "--quiet", "-am", "v2"]);
    git(&work, &["push", "--quiet"]);
    sandbox.env.push(("PI_OFFLINE".into(), "0".into()));
    let refused = sandbox.run(&["update"], None);
    let stdout = String::from_utf8_lossy(&refused.stdout);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("extensions/tool.lua: + exec: curl"),
        "{stdout}"
    );
    assert!(stderr.contains("--yes"), "{stderr}");
    assert!(
        std::fs::read_to_string(&copy).unwrap().contains("v1"),
        "put back as it was"
    );

    let accepted = sandbox.run(&["update", "--yes"], None);
    assert!(accepted.status.success(), "{accepted:?}");
    assert!(std::fs::read_to_string(&copy).unwrap().contains("v2"));
    let listed = sandbox.run(&["list"], None);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("exec: git, curl"));
}

#[test]
fn a_manifest_limits_the_package_extensions_at_run_time() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("done"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let pkg = sandbox.root.path().join("pkg");
    std::fs::create_dir_all(pkg.join("extensions")).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        json!({"name": "pkg", "pi": {"extensions": ["extensions"],
               "capabilities": {"env": ["PKG_ALLOWED"]}}})
        .to_string(),
    )
    .unwrap();
    // No declaration of its own: the manifest's applies.
    std::fs::write(
        pkg.join("extensions/probe.lua"),
        r#"return function(pi)
  pi.on("before_agent_start", function(event)
    local ok_allowed, allowed = pcall(os.getenv, "PKG_ALLOWED")
    local ok_home, home = pcall(os.getenv, "HOME")
    local line = "ALLOWED=" .. tostring(ok_allowed and allowed)
      .. " HOME_REFUSED=" .. tostring(not ok_home and tostring(home):find("env") ~= nil)
    return { systemPrompt = event.systemPrompt .. "\n" .. line }
  end)
end
"#,
    )
    .unwrap();
    let mut sandbox = sandbox;
    sandbox.env.push(("PKG_ALLOWED".into(), "yes-it-is".into()));
    let out = sandbox.run(&["install", "../pkg", "--yes"], None);
    assert!(out.status.success(), "{out:?}");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hi"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("unrestricted"), "{stderr}");
    let request = server.requests().last().unwrap().json().to_string();
    assert!(
        request.contains("ALLOWED=yes-it-is HOME_REFUSED=true"),
        "{stderr}\n{}",
        &request[request.len().saturating_sub(300)..]
    );
}
