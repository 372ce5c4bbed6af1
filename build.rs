//! Embeds the user documentation (README.md, docs/*.md, extensions/examples/, the
//! LuaLS annotations in runtime-lua/types/ for extension authors' editors, and the
//! configuration schemas in schemas/ for everyone's editors) in the
//! binary: writes `$OUT_DIR/bundled_docs.rs`, a list of (relative path, bytes) and a
//! fingerprint of them all. Also splits the model catalog (`src/ai/catalog.json`) into one
//! section per provider (`$OUT_DIR/catalog_sections.rs`), so pi reads only the providers
//! a run asks for, and turns the shipped locale packs (`locales/*.json`) into static
//! tables (`$OUT_DIR/locale_tables.rs`), so a translated string needs no JSON parse.

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
    collect(&root, Path::new("extensions/mcp"), &mut files);
    collect(&root, Path::new("extensions/background"), &mut files);
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
    write_catalog_sections(&root);
    write_locale_tables(&root);
    link_for_fast_start();
    for dir in [
        "src/ai/catalog.json",
        "locales",
        "README.md",
        "CHANGELOG.md",
        "docs",
        "extensions/examples",
        "extensions/mcp",
        "extensions/background",
        "schemas",
    ] {
        println!("cargo:rerun-if-changed={dir}");
    }
}

/// `SECTIONS`: (provider, api, base URL, models as a JSON array) per catalog provider.
fn write_catalog_sections(root: &Path) {
    let text = std::fs::read_to_string(root.join("src/ai/catalog.json")).unwrap_or_default();
    let catalog: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let providers = catalog["providers"].as_array().cloned().unwrap_or_default();
    let mut out = String::from(
        "/// Every built-in provider: (name, api, base URL, its models as a JSON array).\n",
    );
    out.push_str("static SECTIONS: &[(&str, &str, &str, &str)] = &[\n");
    for p in &providers {
        let field = |key: &str| p[key].as_str().unwrap_or_default().to_string();
        let models = serde_json::to_string(&p["models"]).unwrap_or_else(|_| "[]".into());
        let _ = writeln!(
            out,
            "    ({:?}, {:?}, {:?}, {:?}),",
            field("provider"),
            field("api"),
            field("baseUrl"),
            models
        );
    }
    out.push_str("];\n");
    let _ = writeln!(
        out,
        "/// How many sections there are.\nconst SECTION_COUNT: usize = {};",
        providers.len()
    );
    let dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let _ = std::fs::write(dir.join("catalog_sections.rs"), out);
}

/// `SHIPPED_PACKS`: each `locales/<tag>.json` pack as (file, namespace, locale, messages,
/// aliases). Messages are one string of records ending in RS (`\x1e`), each the key and
/// then (plural category, text) pairs, all separated by US (`\x1f`); the category is empty
/// for a plain string. Aliases are (alias, command) pairs the same way. Plain strings keep
/// the tables free of pointers the loader would have to relocate at every start.
fn write_locale_tables(root: &Path) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("locales"))
        .map(|dir| dir.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    let field = |text: &str| {
        assert!(
            !text.contains(['\x1e', '\x1f']),
            "a locale string holds a separator: {text:?}"
        );
        format!("{text}\x1f")
    };
    let mut out = String::from("static SHIPPED_PACKS: &[ShippedPack] = &[\n");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let pack: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let Some(messages) = pack["messages"].as_object() else {
            continue; // not a pack (languages.json)
        };
        let text_of = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
        let mut records = String::new();
        for (key, raw) in messages {
            records.push_str(&field(key));
            let value = raw.get("value").unwrap_or(raw);
            match value.as_object() {
                Some(plural) => plural.iter().for_each(|(category, form)| {
                    records.push_str(&field(category));
                    records.push_str(&field(&text_of(form)));
                }),
                None => records.push_str(&format!("\x1f{}", field(&text_of(value)))),
            }
            records.push('\x1e');
        }
        let mut aliases = String::new();
        for (alias, command) in pack["aliases"].as_object().into_iter().flatten() {
            aliases.push_str(&field(alias));
            aliases.push_str(&field(&text_of(command)));
        }
        let _ = writeln!(
            out,
            "    ShippedPack {{ file: {:?}, namespace: {:?}, locale: {:?}, messages: {records:?}, aliases: {aliases:?} }},",
            path.file_name().unwrap_or_default().to_string_lossy(),
            text_of(&pack["namespace"]),
            text_of(&pack["locale"]),
        );
    }
    out.push_str("];\n");
    let dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let _ = std::fs::write(dir.join("locale_tables.rs"), out);
}

/// Link `pi` so that its start does little relocation work, with each flag the
/// linker and C library accept (probed by linking an empty C program; a flag
/// that does not link is skipped quietly):
/// - `-no-pie`: a position-dependent executable. The loader then copies and
///   patches none of the ~170 pages of pointer tables (vtables, string tables)
///   that a position-independent one needs at every start: about 160 fewer
///   page faults and 0.7 ms less CPU per start on our benchmark machine. The
///   stack, heap, libraries and mappings stay randomized; pi's own code does not.
/// - packed relative relocations (`DT_RELR`): what relocations remain are read
///   from a table of a few kilobytes.
fn link_for_fast_start() {
    let target = std::env::var("TARGET").unwrap_or_default();
    if !target.contains("linux-gnu") {
        return;
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let source = out.join("link_probe.c");
    if std::fs::write(&source, "int main(void) { return 0; }\n").is_err() {
        return;
    }
    for flag in ["-no-pie", "-Wl,-z,pack-relative-relocs"] {
        let linked = std::process::Command::new("cc")
            .arg(&source)
            .arg("-o")
            .arg(out.join("link_probe"))
            .arg(flag)
            .output()
            .is_ok_and(|o| o.status.success() && o.stderr.is_empty());
        if linked {
            println!("cargo:rustc-link-arg-bins={flag}");
        }
    }
    order_startup_functions(&out);
}

/// In a release build, lay out the functions a start-up runs next to one
/// another (the list in `scripts/symbol-order.txt`, made by
/// `scripts/symbol_order.py`): a `-p` turn then faults on about 90 fewer pages
/// and maps a third of the memory. Only LLD (Rust's default linker on
/// x86_64 Linux) reads the list, so an empty program is first linked with it
/// by this same compiler, with this build's flags; when that fails the list is
/// left out. Names that no longer exist are ignored.
fn order_startup_functions(out: &std::path::Path) {
    let list = PathBuf::from("scripts/symbol-order.txt");
    println!("cargo:rerun-if-changed={}", list.display());
    if std::env::var("PROFILE").as_deref() != Ok("release") || !list.exists() {
        return;
    }
    let Ok(list) = list.canonicalize() else {
        return;
    };
    let flags = [
        format!("-Wl,--symbol-ordering-file={}", list.display()),
        "-Wl,--no-warn-symbol-ordering".to_string(),
    ];
    let source = out.join("order_probe.rs");
    if std::fs::write(&source, "fn main() {}\n").is_err() {
        return;
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let mut probe = std::process::Command::new(rustc);
    probe
        .arg(&source)
        .arg("-o")
        .arg(out.join("order_probe"))
        .arg("--target")
        .arg(std::env::var("TARGET").unwrap_or_default());
    if let Ok(linker) = std::env::var("RUSTC_LINKER") {
        probe.arg("-C").arg(format!("linker={linker}"));
    }
    let build_flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    probe.args(build_flags.split('\x1f').filter(|f| !f.is_empty()));
    for flag in &flags {
        probe.arg("-C").arg(format!("link-arg={flag}"));
    }
    if probe.output().is_ok_and(|o| o.status.success()) {
        for flag in &flags {
            println!("cargo:rustc-link-arg-bins={flag}");
        }
    }
}
