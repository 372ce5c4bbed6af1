//! `pi test`: the worked example of docs/testing.md passes as printed on the page (its
//! snapshot is written, then matched), fails with a readable difference naming the test's
//! and the extension's lines when the extension's text changes, and `--update` accepts a
//! changed screen. `pi new extension` scaffolds files whose test passes. Each test sees
//! its own empty agent folder.

use std::path::Path;
use std::process::Command;

use crate::support::pi_cli::PiSandbox;

/// The block after the line naming `file` in backticks on docs/testing.md.
fn block_named(file: &str) -> String {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/testing.md"))
            .unwrap();
    let marker = format!("`{file}`\n\n```lua\n");
    let start = page
        .find(&marker)
        .unwrap_or_else(|| panic!("no block for {file}"))
        + marker.len();
    let end = start + page[start..].find("\n```").unwrap();
    format!("{}\n", &page[start..end])
}

fn pi_test(sandbox: &PiSandbox, dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pi"))
        .args(args)
        .current_dir(dir)
        .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
        .env("HOME", sandbox.root.path())
        .env("PI_OFFLINE", "1")
        .output()
        .expect("pi runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn the_worked_example_passes_then_fails_with_a_diff_when_the_extension_changes() {
    let sandbox = PiSandbox::new();
    let dir = &sandbox.project;
    let extension = block_named("hello.lua");
    let test = block_named("hello_test.lua");
    assert!(extension.lines().count() <= 20, "{extension}");
    assert!(test.lines().count() <= 20, "{test}");
    std::fs::write(dir.join("hello.lua"), &extension).unwrap();
    std::fs::write(dir.join("hello_test.lua"), &test).unwrap();

    let (code, out) = pi_test(&sandbox, dir, &["test"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("✓ greet › greets quietly when the user says no"),
        "{out}"
    );
    assert!(
        out.contains("snapshot written: snapshots/hello_test-greeted.txt"),
        "{out}"
    );
    assert!(
        out.contains("1 passed, 0 failed across 1 extension (1 test file)"),
        "{out}"
    );
    let snapshot = std::fs::read_to_string(dir.join("snapshots/hello_test-greeted.txt")).unwrap();
    assert_eq!(snapshot.lines().count(), 24, "{snapshot}");
    assert!(snapshot.contains("greet {\"name\":\"Ann\"}"), "{snapshot}");

    // Matched, not rewritten, on the second run.
    let (code, out) = pi_test(&sandbox, dir, &["test", "hello_test.lua"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("snapshot written"), "{out}");

    std::fs::write(
        dir.join("hello.lua"),
        extension.replace("\"Hello, \"", "\"Hi, \""),
    )
    .unwrap();
    let (code, out) = pi_test(&sandbox, dir, &["test"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("✗ greet › greets quietly when the user says no"),
        "{out}"
    );
    assert!(out.contains("at hello_test.lua:11"), "{out}");
    assert!(out.contains("from the extension at hello.lua:12"), "{out}");
    assert!(
        out.contains("expected: \"Hello, Ann.\"\n         got: \"Hi, Ann.\""),
        "{out}"
    );
    assert!(out.contains("0 passed, 1 failed"), "{out}");
}

#[test]
fn a_changed_screen_fails_with_a_line_diff_and_update_accepts_it() {
    let sandbox = PiSandbox::new();
    let dir = &sandbox.project;
    std::fs::write(dir.join("note.lua"), "return function(pi)\n  pi.registerCommand(\"note\", { handler = function(args, ctx) ctx.ui.notify(\"Note: \" .. args) end })\nend\n").unwrap();
    std::fs::write(
        dir.join("note_test.lua"),
        "it(\"shows the note\", function()\n  pi.test.send(\"/note one\")\n  pi.test.snapshot(\"note\", 40, 8)\nend)\n",
    )
    .unwrap();
    assert_eq!(pi_test(&sandbox, dir, &["test"]).0, 0);
    let test = std::fs::read_to_string(dir.join("note_test.lua")).unwrap();
    std::fs::write(
        dir.join("note_test.lua"),
        test.replace("/note one", "/note two"),
    )
    .unwrap();
    let (code, out) = pi_test(&sandbox, dir, &["test"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("differs from the snapshot"), "{out}");
    assert!(
        out.contains("-  Note: one") && out.contains("+  Note: two"),
        "{out}"
    );
    let (code, out) = pi_test(&sandbox, dir, &["test", "--update"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("snapshot written"), "{out}");
    assert_eq!(pi_test(&sandbox, dir, &["test"]).0, 0);
}

#[test]
fn a_scaffolded_extension_passes_its_own_test() {
    let sandbox = PiSandbox::new();
    let dir = &sandbox.project;
    let (code, out) = pi_test(&sandbox, dir, &["new", "extension", "greet"]);
    assert_eq!(code, 0, "{out}");
    assert!(dir.join("greet.lua").is_file() && dir.join(".luarc.json").is_file());
    let (code, out) = pi_test(&sandbox, dir, &["test"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("1 passed, 0 failed across 1 extension"),
        "{out}"
    );
    // A second scaffold of the same name is refused; nothing is overwritten.
    let (code, _) = pi_test(&sandbox, dir, &["new", "extension", "greet"]);
    assert_eq!(code, 1);
}

#[test]
fn every_shipped_extension_passes_its_lua_tests() {
    let sandbox = PiSandbox::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, out) = pi_test(&sandbox, root, &["test", "extensions/"]);
    assert_eq!(code, 0, "{out}");
    let summary = out
        .lines()
        .find(|l| l.contains(" passed, "))
        .unwrap_or_default();
    let covered: usize = summary
        .split(" across ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(covered >= 80, "{summary}");
    assert!(summary.contains(" 0 failed"), "{summary}");
}

#[test]
fn the_test_api_scripts_the_model_and_the_user_and_reports_each_kind_of_failure() {
    let sandbox = PiSandbox::new();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pi_test");
    for file in ["api.lua", "api_test.lua"] {
        std::fs::copy(fixtures.join(file), sandbox.project.join(file)).unwrap();
    }
    let (code, out) = pi_test(&sandbox, &sandbox.project, &["test"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("✓ the runner › answers dialogs, records entries and runs shortcuts"),
        "{out}"
    );
    assert!(
        out.contains("✓ the runner › scripts delays and errors of the model"),
        "{out}"
    );
    assert!(
        out.contains("✗ the runner › fails on an answer for another dialog"),
        "{out}"
    );
    assert!(
        out.contains("the next queued answer is for confirm, but the extension opened select"),
        "{out}"
    );
    assert!(out.contains("✗ the runner › fails on a shape"), "{out}");
    assert!(out.contains("name: expected string, got number 1"), "{out}");
    assert!(out.contains("size: expected number, got nil\n"), "{out}");
    assert!(out.contains("at api_test.lua:37"), "{out}");
    assert!(out.contains("-     4,\n    +     3,"), "{out}");
    assert!(
        out.contains("✗ the runner › fails when a function raises unexpectedly"),
        "{out}"
    );
    assert!(out.contains("not: expected no error, got: "), "{out}");
    assert!(
        out.contains("2 passed, 4 failed across 1 extension"),
        "{out}"
    );
}

#[test]
fn tests_folders_load_their_owner_pi_test_load_chooses_and_a_broken_file_fails() {
    let sandbox = PiSandbox::new();
    let dir = &sandbox.project;
    std::fs::create_dir_all(dir.join("greeter/tests")).unwrap();
    std::fs::write(
        dir.join("greeter/init.lua"),
        "return function(pi)\n  pi.registerCommand(\"greet\", { handler = function(_, ctx) ctx.ui.notify(\"hi\") end })\nend\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("other.lua"),
        "return function(pi)\n  pi.registerCommand(\"other\", { handler = function() end })\nend\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("greeter/tests/commands.lua"),
        "it(\"greets, also after a reload\", function()\n  pi.test.send(\"/greet\")\n  pi.test.send(\"/reload\")\n  pi.test.send(\"/greet\")\n  expect(#pi.test.ui_calls(\"notify\")).to_equal(2)\n  expect(pi.test.commands()).never.to_contain({ name = \"other\" })\nend)\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("greeter/tests/chosen.lua"),
        "pi.test.load(\"../../other.lua\")\nit(\"loads only the chosen extension\", function()\n  expect(pi.test.commands()).to_equal({ { name = \"other\" } })\nend)\n",
    )
    .unwrap();
    let (code, out) = pi_test(&sandbox, dir, &["test"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("✓ greets, also after a reload"), "{out}");
    assert!(out.contains("✓ loads only the chosen extension"), "{out}");
    assert!(
        out.contains("2 passed, 0 failed across 2 extensions (2 test files)"),
        "{out}"
    );

    std::fs::write(
        dir.join("broken_test.lua"),
        "it(\"never runs\", function(\nend)\n",
    )
    .unwrap();
    let (code, out) = pi_test(&sandbox, dir, &["test"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("broken_test.lua"), "{out}");
    assert!(out.contains("2 passed, 1 failed"), "{out}");
}

#[test]
fn each_test_gets_a_private_empty_agent_folder() {
    let sandbox = PiSandbox::new();
    let own = sandbox.agent_dir.display().to_string();
    std::fs::write(sandbox.agent_dir.join("mcp.json"), "{}").unwrap();
    std::fs::write(
        sandbox.project.join("where.lua"),
        "return function(pi)\n  pi.registerCommand(\"where\", { handler = function(_, ctx) \
         ctx.ui.notify(pi.agentDir) end })\nend\n",
    )
    .unwrap();
    let test = format!(
        r#"local t = pi.test
local seen = {{}}
for _, name in ipairs({{ "first", "second" }}) do
  it(name, function()
    t.send("/where")
    local dir = t.ui_calls("notify")[1].message
    expect(dir).to_equal(t.agent_dir())
    expect(dir).never.to_equal("{own}")
    expect(io.open(dir .. "/mcp.json")).to_equal(nil)
    expect(seen[dir]).to_equal(nil)
    seen[dir] = true
  end)
end
"#
    );
    std::fs::write(sandbox.project.join("where_test.lua"), test).unwrap();
    let (code, out) = pi_test(&sandbox, &sandbox.project, &["test"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 passed, 0 failed"), "{out}");
}
