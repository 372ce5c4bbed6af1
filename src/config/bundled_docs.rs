//! The user documentation carried inside the binary (README.md, CHANGELOG.md,
//! `docs/*.md`, `extensions/examples/`, the bundled extensions `extensions/mcp/` and
//! `extensions/background/`, the LuaLS annotations of
//! `runtime-lua/types/` and the configuration schemas of `schemas/` for editors),
//! written on demand to
//! `<agent>/docs/<version>/` so the model can read it with its tools, wherever the
//! binary was copied to.

use std::path::{Path, PathBuf};

use crate::config::paths::DocsPaths;

include!(concat!(env!("OUT_DIR"), "/bundled_docs.rs"));

/// Name of the file recording which documentation a folder holds.
const STAMP: &str = ".fingerprint";

/// The folder this build's documentation is written to.
pub fn docs_dir(agent_dir: &Path) -> PathBuf {
    agent_dir.join("docs").join(env!("CARGO_PKG_VERSION"))
}

/// The extensions shipped with pi that load by name (`-e mcp`, `"extensions": ["mcp"]`).
pub const BUNDLED_EXTENSIONS: [&str; 2] = ["mcp", "background"];

/// The folder of the bundled extension `name`, written out with the documentation
/// first; `None` for another name or when the folder cannot be written.
pub fn bundled_extension(agent_dir: &Path, name: &str) -> Option<PathBuf> {
    if !BUNDLED_EXTENSIONS.contains(&name) {
        return None;
    }
    ensure(agent_dir).ok()?;
    Some(docs_dir(agent_dir).join("extensions").join(name))
}

/// The bundled copy of a file (`docs/extensions.md`), if there is one.
pub fn bundled(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

/// Write the documentation to [`docs_dir`] unless it is already there from this
/// very build; returns where it is. Files are written before the stamp, so a copy
/// interrupted half-way is written again next time.
pub fn ensure(agent_dir: &Path) -> std::io::Result<DocsPaths> {
    let dir = docs_dir(agent_dir);
    let stamp = dir.join(STAMP);
    // The stamp is written after every file, so a matching one means they are all there
    // (one read per start instead of a check of every file).
    let current = std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == FINGERPRINT)
        && dir.join("README.md").is_file();
    if !current {
        for (rel, bytes) in FILES {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            crate::config::atomic_file::write_atomically(&path, bytes)?;
        }
        std::fs::write(&stamp, FINGERPRINT)?;
    }
    Ok(DocsPaths::in_dir(&dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_the_readme_every_doc_page_and_the_extension_examples() {
        assert!(bundled("README.md").is_some());
        assert!(bundled("docs/extensions.md").is_some());
        let pages = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/docs")).unwrap();
        for page in pages.flatten() {
            let name = page.file_name().to_string_lossy().to_string();
            if name.ends_with(".md") {
                assert!(bundled(&format!("docs/{name}")).is_some(), "{name}");
            }
        }
        for (_, page) in crate::config::system_prompt::DOC_TOPICS {
            assert!(bundled(&format!("docs/{page}")).is_some(), "{page}");
        }
        assert!(
            FILES
                .iter()
                .any(|(p, _)| p.starts_with("extensions/examples/"))
        );
        assert!(!FILES.iter().any(|(p, _)| p.starts_with("examples/")));
    }

    #[test]
    fn writes_once_and_again_only_when_stale() {
        let agent = tempfile::tempdir().unwrap();
        let paths = ensure(agent.path()).unwrap();
        let page = paths.docs.join("extensions.md");
        assert_eq!(
            std::fs::read(&page).unwrap(),
            bundled("docs/extensions.md").unwrap()
        );
        std::fs::write(&page, "edited").unwrap();
        ensure(agent.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(&page).unwrap(),
            "edited",
            "current: kept"
        );
        std::fs::write(docs_dir(agent.path()).join(STAMP), "old").unwrap();
        ensure(agent.path()).unwrap();
        assert_ne!(
            std::fs::read_to_string(&page).unwrap(),
            "edited",
            "stale: rewritten"
        );
        std::fs::remove_file(paths.readme.clone()).unwrap();
        ensure(agent.path()).unwrap();
        assert!(paths.readme.is_file(), "missing: rewritten");
    }

    #[test]
    fn the_lua_annotations_are_bundled_for_editors() {
        for file in ["runtime-lua/types/pi.lua", "runtime-lua/types/pi/ui.lua"] {
            let text = String::from_utf8_lossy(bundled(file).expect(file)).into_owned();
            assert!(text.starts_with("---@meta"), "{file}");
        }
    }
}
