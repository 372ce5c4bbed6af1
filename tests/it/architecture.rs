//! The floors of `src/` as ARCHITECTURE.md lists them, enforced: a folder's non-test code
//! may name (`crate::folder`) only folders on lower floors, so no two top-level folders
//! ever depend on each other in a circle.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The floors from ARCHITECTURE.md, top floor first: the folder named at the start of
/// each line of the block between `<!-- floors -->` and `<!-- /floors -->`.
fn documented_floors() -> Vec<String> {
    let text = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = text
        .find("<!-- floors -->")
        .expect("a <!-- floors --> marker");
    let end = text
        .find("<!-- /floors -->")
        .expect("a <!-- /floors --> marker");
    text[start..end]
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter_map(|word| word.strip_suffix('/'))
        .map(str::to_string)
        .collect()
}

/// Top-level folders of `src/` (each is one module of the crate root).
fn source_folders() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root().join("src"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's code without its unit tests: files named `*_tests.rs` or `tests.rs` are
/// test modules, and an inline `#[cfg(test)] mod ... {` is cut off where it starts (unit
/// tests come last in a file).
fn non_test_code(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy();
    if name.ends_with("_tests.rs") || name == "tests.rs" {
        return None;
    }
    let text = fs::read_to_string(path).ok()?;
    let cut = text
        .match_indices("#[cfg(test)]")
        .map(|(at, _)| at)
        .find(|&at| {
            text[at..]
                .lines()
                .nth(1)
                .is_some_and(|l| l.contains("mod ") && l.contains('{'))
        });
    Some(cut.map_or(text.clone(), |at| text[..at].to_string()))
}

/// Macros exported at the crate root, and the folder that defines them: `crate::t!` and
/// `use crate::t;` name `i18n` as much as `crate::i18n::t` does.
const ROOT_MACROS: &[(&str, &str)] = &[("t", "i18n")];

fn root_macro(ident: &str) -> Option<String> {
    ROOT_MACROS
        .iter()
        .find(|(name, _)| *name == ident)
        .map(|(_, folder)| folder.to_string())
}

/// The top-level modules a piece of code names through `crate::` (grouped
/// `crate::{a, b::c}` imports and the root macros included).
fn named_modules(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            names.extend(inner.split(',').filter_map(|item| {
                let item = item.trim();
                match item.contains("::") {
                    true => item.split("::").next().map(str::to_string),
                    false => root_macro(item),
                }
            }));
        } else {
            let ident: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if rest[ident.len()..].starts_with("::") {
                names.push(ident);
            } else if let Some(folder) = root_macro(&ident) {
                names.push(folder);
            }
        }
    }
    names
}

/// Every `crate::` reference that crosses folders: (from folder, to folder) -> files.
fn cross_folder_references() -> BTreeMap<(String, String), Vec<String>> {
    let folders = source_folders();
    let mut refs: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for folder in &folders {
        let mut files = Vec::new();
        rust_files(&root().join("src").join(folder), &mut files);
        for file in files {
            let Some(code) = non_test_code(&file) else {
                continue;
            };
            for target in named_modules(&code) {
                if &target != folder && folders.contains(&target) {
                    let shown = file.strip_prefix(root()).unwrap().display().to_string();
                    let files = refs.entry((folder.clone(), target)).or_default();
                    if !files.contains(&shown) {
                        files.push(shown);
                    }
                }
            }
        }
    }
    refs
}

#[test]
fn architecture_md_lists_every_source_folder_once() {
    let mut documented = documented_floors();
    let count = documented.len();
    documented.sort();
    documented.dedup();
    assert_eq!(documented.len(), count, "a floor is listed twice");
    assert_eq!(documented, source_folders());
}

/// Files below `i18n/` that still word their warnings with `t!` in place rather than
/// handing their facts up as data; the list may only shrink.
const WORDED_IN_PLACE: &[&str] = &[];

#[test]
fn the_files_worded_in_place_still_are() {
    for file in WORDED_IN_PLACE {
        let code = non_test_code(&root().join(file)).unwrap();
        assert!(
            named_modules(&code).iter().any(|m| m == "i18n"),
            "{file} no longer uses t!: remove it from WORDED_IN_PLACE"
        );
    }
}

#[test]
fn no_folder_names_a_folder_on_a_higher_floor() {
    let floors = documented_floors();
    let height = |name: &str| floors.len() - floors.iter().position(|f| f == name).unwrap();
    let upward: Vec<String> = cross_folder_references()
        .into_iter()
        .filter(|((from, to), _)| height(to) > height(from))
        .filter_map(|((from, to), files)| {
            let files: Vec<String> = files
                .into_iter()
                .filter(|f| !WORDED_IN_PLACE.contains(&f.as_str()) || to != "i18n")
                .collect();
            (!files.is_empty()).then(|| format!("{from} -> {to} in {}", files.join(", ")))
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports that run up the floors of ARCHITECTURE.md:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_reference_scan_sees_plain_and_grouped_imports() {
    let code = "use crate::ai::model::Model;\nuse crate::{tools::read, config::paths};\n\
                let x = crate::t!(\"k\");\nlet y = $crate::i18n::t;\nlet z = pi::crate_like::x;";
    assert_eq!(named_modules(code), ["ai", "tools", "config", "i18n"]);
    let grouped = "use crate::{t, ai::model::Model};\nuse crate::t;\nlet s = crate::tools::x;";
    assert_eq!(named_modules(grouped), ["i18n", "ai", "i18n", "tools"]);
    let cut = non_test_code(&root().join("src/protocol/levels.rs")).unwrap();
    assert!(!cut.contains("mod tests"));
}

/// Display width is measured in one place, so the editor, transcript, menus and widgets
/// agree on how wide emoji, flags and CJK are: only the text module (and the locale
/// lint, on a floor below it, which measures translations) reads the width and grapheme
/// crates.
#[test]
fn only_the_text_module_measures_width() {
    let allowed =
        |shown: &str| shown.starts_with("src/ui_kit/text/") || shown == "src/i18n/doctor.rs";
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let offenders: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let shown = file.strip_prefix(root()).unwrap().display().to_string();
            let code = fs::read_to_string(file).unwrap();
            let measures = code.contains("unicode_width") || code.contains("unicode_segmentation");
            (measures && !allowed(&shown)).then_some(shown)
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "measure text with crate::ui_kit::text instead of the width crates in:\n{}",
        offenders.join("\n")
    );
}
