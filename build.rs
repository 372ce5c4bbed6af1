//! Embeds the user documentation (README.md, docs/*.md, extensions/examples/, the
//! LuaLS annotations in runtime-lua/types/ for extension authors' editors, and the
//! configuration schemas in schemas/ for everyone's editors) in the
//! binary: writes `$OUT_DIR/bundled_docs.rs`, a list of (relative path, bytes) and a
//! fingerprint of them all.

use std::fmt::Write as _;
use std::hash::Hasher;
use std::path::{Path, PathBuf};

fn collect(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
        return;
    };
    for entry in entries.flatten() {
        let path = rel.join(entry.file_name());
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            collect(root, &path, out);
        } else if kind.is_file() {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut files = vec![PathBuf::from("README.md"), PathBuf::from("CHANGELOG.md")];
    let mut docs = Vec::new();
    collect(&root, Path::new("docs"), &mut docs);
    files.extend(
        docs.into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    collect(&root, Path::new("extensions/examples"), &mut files);
    collect(&root, Path::new("runtime-lua/types"), &mut files);
    collect(&root, Path::new("schemas"), &mut files);
    files.sort();
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    let mut list =
        String::from("/// Every bundled file: (path relative to the docs folder, contents).\n");
    list.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for rel in &files {
        let full = root.join(rel);
        let bytes = std::fs::read(&full).unwrap_or_default();
        let name = rel.to_string_lossy().replace('\\', "/");
        hash.write(name.as_bytes());
        hash.write(&bytes);
        let _ = writeln!(
            list,
            "    ({name:?}, include_bytes!({:?})),",
            full.display().to_string()
        );
    }
    list.push_str("];\n");
    let _ = writeln!(
        list,
        "/// A fingerprint of `FILES`: a copy on disk with another one is stale.\npub const FINGERPRINT: &str = \"{:016x}\";",
        hash.finish()
    );
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("bundled_docs.rs");
    let _ = std::fs::write(out, list);
    for dir in [
        "README.md",
        "CHANGELOG.md",
        "docs",
        "extensions/examples",
        "schemas",
    ] {
        println!("cargo:rerun-if-changed={dir}");
    }
}
