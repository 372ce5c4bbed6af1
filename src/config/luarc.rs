//! `pi luarc [folder]`: the `.luarc.json` that lets lua-language-server and EmmyLua resolve
//! `pi`, `ctx` and `require("pi.ui")` in an extension folder, pointing at the annotations
//! this build writes to the agent folder.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::config::bundled_docs;
use crate::config::error::FileError;

/// The annotations folder an editor should load for this build.
pub fn types_dir(agent_dir: &Path) -> PathBuf {
    bundled_docs::docs_dir(agent_dir)
        .join("runtime-lua")
        .join("types")
}

/// Write (or update) `<folder>/.luarc.json`: the annotations are written to the agent folder
/// first, then named in `workspace.library`, replacing the folder of another pi version and
/// keeping every other setting. A file that does not parse is left alone (an error says so).
pub fn write(agent_dir: &Path, folder: &Path) -> Result<PathBuf, FileError> {
    bundled_docs::ensure(agent_dir)
        .map_err(|e| FileError::unwritable(&agent_dir.join("docs"), &e))?;
    let types = types_dir(agent_dir);
    let path = folder.join(".luarc.json");
    let mut config = match std::fs::read_to_string(&path) {
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => map,
            Ok(_) | Err(_) => return Err(FileError::NotAnObject { path }),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Map::new(),
        Err(e) => return Err(FileError::unreadable(&path, &e)),
    };
    merge(&mut config, &agent_dir.join("docs"), &types);
    std::fs::create_dir_all(folder).map_err(|e| FileError::unwritable(folder, &e))?;
    let mut text = serde_json::to_string_pretty(&Value::Object(config)).unwrap_or_default();
    text.push('\n');
    crate::config::atomic_file::write_atomically(&path, text.as_bytes())
        .map_err(|e| FileError::unwritable(&path, &e))?;
    Ok(path)
}

/// Name `types` in the library list (dropping pi's annotations of other versions, which live
/// under `docs_root`) and set the runtime, unless the file names one already.
fn merge(config: &mut Map<String, Value>, docs_root: &Path, types: &Path) {
    config
        .entry("runtime.version")
        .or_insert_with(|| json!("Lua 5.4"));
    let types = types.to_string_lossy().into_owned();
    let docs_root = docs_root.to_string_lossy().into_owned();
    let mut library: Vec<Value> = match config.remove("workspace.library") {
        Some(Value::Array(items)) => items
            .into_iter()
            .filter(|item| {
                item.as_str()
                    .is_none_or(|p| !(p.starts_with(&docs_root) && p.ends_with("types")))
            })
            .collect(),
        Some(Value::String(one)) => vec![Value::String(one)],
        _ => Vec::new(),
    };
    library.push(Value::String(types));
    config.insert("workspace.library".into(), Value::Array(library));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn names_the_annotations_this_build_wrote() {
        let agent = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let folder = project.path().join(".pi").join("extensions");
        let path = write(agent.path(), &folder).unwrap();
        let config = read(&path);
        assert_eq!(config["runtime.version"], "Lua 5.4");
        let library = config["workspace.library"][0].as_str().unwrap();
        assert!(Path::new(library).join("pi.lua").is_file(), "{library}");
        assert!(Path::new(library).join("pi").join("ui.lua").is_file());
    }

    #[test]
    fn keeps_the_authors_settings_and_replaces_an_older_pi_version() {
        let agent = tempfile::tempdir().unwrap();
        let folder = tempfile::tempdir().unwrap();
        let old = agent.path().join("docs/0.0.1/runtime-lua/types");
        let own = "/opt/lua/my-lib";
        std::fs::write(
            folder.path().join(".luarc.json"),
            json!({
                "runtime.version": "Lua 5.3",
                "diagnostics.globals": ["vim"],
                "workspace.library": [own, old.to_string_lossy()]
            })
            .to_string(),
        )
        .unwrap();
        let config = read(&write(agent.path(), folder.path()).unwrap());
        assert_eq!(config["runtime.version"], "Lua 5.3");
        assert_eq!(config["diagnostics.globals"][0], "vim");
        let library: Vec<&str> = config["workspace.library"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let current = types_dir(agent.path()).to_string_lossy().into_owned();
        assert_eq!(library, [own, current.as_str()]);
    }

    #[test]
    fn a_file_that_does_not_parse_is_left_alone() {
        let agent = tempfile::tempdir().unwrap();
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join(".luarc.json");
        std::fs::write(&path, "{ \"runtime.version\": ").unwrap();
        let error = write(agent.path(), folder.path()).unwrap_err();
        assert_eq!(error, FileError::NotAnObject { path: path.clone() });
        let error = error.to_string();
        assert!(error.contains(".luarc.json"), "{error}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{ \"runtime.version\": "
        );
    }
}
