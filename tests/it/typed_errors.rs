//! Errors are types carrying facts, not sentences composed where they happen: a function
//! returning `Result<_, String>` leaves nothing above it able to tell one failure from
//! another or to word it in the user's language. None may come back anywhere in `src/`.

use std::path::{Path, PathBuf};

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

/// Whether `line` names a `Result` whose error type is `String` (the generic arguments
/// are read with their nesting, so `Result<Vec<T>, String>` counts and
/// `Result<(A, Map<String, String>), E>` does not).
fn has_string_result(line: &str) -> bool {
    let mut rest = line;
    while let Some(at) = rest.find("Result<") {
        let args = &rest[at + "Result<".len()..];
        let (mut depth, mut comma, mut end) = (0i32, None, None);
        for (i, c) in args.char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                '>' | ')' | ']' => depth -= 1,
                ',' if depth == 0 => comma = Some(i),
                _ => {}
            }
        }
        if let (Some(comma), Some(end)) = (comma, end)
            && args[comma + 1..end].trim() == "String"
        {
            return true;
        }
        rest = args;
    }
    false
}

/// `file:line: text` of every `Result<_, String>` under `root`.
fn string_results(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if has_string_result(line) {
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
        all.is_empty(),
        "{} `Result<_, String>` in src/; return an error enum carrying the facts instead:\n{}",
        all.len(),
        all.join("\n")
    );
}

#[test]
fn the_scan_finds_what_it_looks_for() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.rs"),
        "fn f() -> Result<u8, String> { Ok(1) }\nfn g() -> Result<u8, Error> { Ok(1) }\n\
         fn h() -> Result<Vec<Option<u8>>, String> { Ok(vec![]) }\n\
         fn i(a: Result<u8, Error>, b: Option<String>) {}\n\
         fn j() -> Result<(Option<String>, BTreeMap<String, String>), Error> { todo!() }\n",
    )
    .unwrap();
    let found = string_results(dir.path());
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].ends_with("a.rs:1: fn f() -> Result<u8, String> { Ok(1) }"));
    assert!(found[1].contains("a.rs:3: fn h() -> Result<Vec<Option<u8>>, String>"));
}
