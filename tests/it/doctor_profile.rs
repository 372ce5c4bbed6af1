//! `pi doctor --profile`: every extension loaded together and started, then the table of
//! the `/extensions` panel (status, source, load time, memory, handler times, last error);
//! `--json` for tools; exit 1 when an extension failed.

use std::process::Command;

use serde_json::Value;

use crate::support::pi_cli::PiSandbox;

fn doctor_profile(sandbox: &PiSandbox, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pi"))
        .args(["doctor", "--profile"])
        .args(extra)
        .current_dir(&sandbox.project)
        .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
        .env("HOME", sandbox.root.path())
        .env("PI_OFFLINE", "1")
        .output()
        .expect("pi runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn the_profile_names_load_and_handler_times_lazy_ones_and_failures() {
    let sandbox = PiSandbox::new();
    let dir = sandbox.agent_dir.join("extensions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("timed.lua"),
        "return function(pi)\n  pi.on('session_start', function() pi.sleep(5) end)\nend\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("sleepy.lua"),
        "return { activate = { commands = { 'nap' } }, setup = function(pi) end }\n",
    )
    .unwrap();
    let (code, out) = doctor_profile(&sandbox, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Extensions: 2 (1 loaded)"), "{out}");
    assert!(
        out.contains("sleepy.lua  lazy, not loaded yet  user"),
        "{out}"
    );
    assert!(out.contains("timed.lua  loaded  user  load "), "{out}");
    assert!(out.contains("session_start: 1× total "), "{out}");

    std::fs::write(
        dir.join("broken.lua"),
        "return function(pi)\n  local x = (\nend\n",
    )
    .unwrap();
    let (code, out) = doctor_profile(&sandbox, &["--json"]);
    assert_eq!(code, 1, "{out}");
    let report: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(report["ok"], false);
    let all = report["extensions"].as_array().unwrap();
    let by_name = |name: &str| {
        all.iter()
            .find(|e| e["path"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("{name} in {report}"))
    };
    let broken = by_name("broken.lua");
    assert_eq!(broken["status"], "error");
    assert!(
        broken["lastError"]
            .as_str()
            .unwrap()
            .contains("broken.lua:3")
    );
    let timed = by_name("timed.lua");
    assert_eq!(timed["source"], "user");
    assert_eq!(timed["handlers"][0]["name"], "session_start");
    assert_eq!(timed["handlers"][0]["count"], 1);
    assert!(timed["handlers"][0]["maxMs"].as_f64().unwrap() >= 5.0);
    assert!(timed["loadMs"].as_f64().unwrap() > 0.0);
    assert_eq!(by_name("sleepy.lua")["status"], "lazy");
    assert!(report["vmMemoryBytes"].as_u64().unwrap() > 0);
}
