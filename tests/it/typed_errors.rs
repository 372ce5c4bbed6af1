//! Errors are types carrying facts, not sentences composed where they happen: a function
//! returning `Result<_, String>` leaves nothing above it able to tell one failure from
//! another or to word it in the user's language. This keeps the count from growing, keeps
//! the converted modules free of it, and is tightened as modules are converted.

use std::path::{Path, PathBuf};

/// The most `Result<_, String>` signatures `src/` may hold; lower it as modules convert.
const CEILING: usize = 34;

/// Modules converted to error enums: none of them may return `Result<_, String>` again.
const CONVERTED: &[&str] = &[
    "src/cli",
    "src/ai/resolve",
    "src/ai/resolve.rs",
    "src/ai/errors.rs",
    "src/ai/registry/models_json_error.rs",
    "src/modes/rpc",
    "src/packages/manager.rs",
    "src/packages/commands.rs",
    "src/packages/source.rs",
    "src/packages/error.rs",
    "src/config/error.rs",
    "src/config/settings.rs",
    "src/config/trust.rs",
    "src/config/luarc.rs",
    "src/packages/ops.rs",
    "src/packages/toggle.rs",
    "src/config/schema_check.rs",
    "src/config",
    "src/ai",
    "src/permissions",
    "src/sandbox",
    "src/agent",
    "src/ui_kit",
    "src/compaction",
    "src/core",
    "src/resources",
    "src/i18n",
    "src/tools/edit",
    "src/tools/bash/process.rs",
    "src/app/model_setup.rs",
    "src/app",
    "src/tools",
    "src/packages",
    "src/session/search.rs",
    "src/session/list.rs",
    "src/tui",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `file:line: text` of every `Result<_, String>` under `root`.
fn string_results(root: &Path) -> Vec<String> {
    let pattern = regex::Regex::new(r"Result<[^>]*, String>").unwrap();
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if pattern.is_match(line) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn string_errors_do_not_come_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let all = string_results(&root.join("src"));
    assert!(
        all.len() <= CEILING,
        "{} `Result<_, String>` in src/ (at most {CEILING}); return an error enum instead:\n{}",
        all.len(),
        all.join("\n")
    );
    let mut back = Vec::new();
    for module in CONVERTED {
        let path = root.join(module);
        assert!(path.exists(), "{module} is gone: update CONVERTED");
        back.extend(string_results(&path));
    }
    assert!(back.is_empty(), "converted modules:\n{}", back.join("\n"));
}

#[test]
fn the_scan_finds_what_it_looks_for() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.rs"),
        "fn f() -> Result<u8, String> { Ok(1) }\nfn g() -> Result<u8, Error> { Ok(1) }\n",
    )
    .unwrap();
    let found = string_results(dir.path());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("a.rs:1: fn f() -> Result<u8, String> { Ok(1) }"));
}
