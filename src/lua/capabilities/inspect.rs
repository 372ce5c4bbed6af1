//! Reading what extensions request without setting them up, for `pi install`,
//! `pi list` and `pi update`: the manifest's declaration and each entry file's literal
//! `capabilities = { … }`. Only a file that mentions `capabilities` in a form pi cannot
//! read is run, in a throw-away VM with no rights beyond the manifest's, to tell
//! whether it would be refused at load.

use std::path::{Path, PathBuf};

use mlua::Value as LuaValue;

use crate::lua::capabilities::Capabilities;
use crate::lua::handle::HostConfig;
use crate::lua::registry::ExtensionInfo;
use crate::lua::view::SharedView;
use crate::lua::vm::{Subscribed, Vm};

/// What one extension requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// It declares nothing: it would run with every right pi has.
    Unrestricted,
    /// What it (with its package's manifest) declares.
    Limited(Capabilities),
    /// Its declaration could not be read; it would not load as it is.
    Broken(String),
}

/// The request of the extension whose entry file is `path`.
pub fn request_of(path: &Path) -> Request {
    match declared_by(path) {
        Ok(None) => Request::Unrestricted,
        Ok(Some(caps)) => Request::Limited(caps),
        Err(problem) => Request::Broken(problem.to_string()),
    }
}

/// Why an extension's declaration could not be read.
#[derive(Debug)]
pub enum InspectError {
    /// The throw-away VM, or the declaration's own check, failed (Lua's error).
    Lua(mlua::Error),
    /// Running the entry file failed: the error's text with its place.
    Failed(String),
    /// The file declares capabilities only from code that runs, which pi cannot read
    /// before loading it.
    HiddenDeclaration,
}

impl std::fmt::Display for InspectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InspectError::Lua(e) => write!(f, "{e}"),
            InspectError::Failed(text) => f.write_str(text),
            InspectError::HiddenDeclaration => {
                f.write_str(&crate::t!("pi.ext.cap.hidden_declaration"))
            }
        }
    }
}

impl std::error::Error for InspectError {}

/// What the extension at `path` declares (its manifest's and its spec's), `None` when
/// it declares nothing anywhere.
pub fn declared_by(path: &Path) -> Result<Option<Capabilities>, InspectError> {
    let config = HostConfig::new(Vec::new(), path.parent().unwrap_or(Path::new(".")));
    let vm = Vm::new(SharedView::default(), Subscribed::default(), &config)
        .map_err(InspectError::Lua)?;
    let guard = {
        let mut reg = vm.host.reg.borrow_mut();
        reg.extensions.push(ExtensionInfo::new(path.to_path_buf()));
        reg.extensions[0].guard.clone()
    };
    let prepared =
        crate::lua::capabilities::load::prepare(&guard, path, &vm.host.cwd, &vm.host.agent_dir)
            .map_err(InspectError::Lua)?;
    if !prepared.in_source {
        return Ok(prepared.manifest);
    }
    let manifest = prepared.manifest.clone();
    if let Some(literal) = prepared.literal {
        return Ok(Some(manifest.unwrap_or_default().union(&literal)));
    }
    let run = || -> mlua::Result<Option<Capabilities>> {
        let env = crate::lua::loader::extension_env(&vm.lua, path, &guard, &vm.host.agent_dir)?;
        let chunk = crate::lua::loader::load_file(&vm.lua, path, &env)?;
        match chunk.call::<LuaValue>(())? {
            LuaValue::Table(spec) => crate::lua::capabilities::load::of_spec(&vm.lua, &spec),
            _ => Ok(None),
        }
    };
    // Without a literal declaration, a spec that declares anyway would not load.
    match run().map_err(|e| InspectError::Failed(crate::lua::tool_exec::error_text_at(&e)))? {
        Some(_) => Err(InspectError::HiddenDeclaration),
        None => Ok(manifest),
    }
}

/// The requests of every entry file in `entries`, in their order.
pub fn requests(entries: &[PathBuf]) -> Vec<(PathBuf, Request)> {
    entries.iter().map(|p| (p.clone(), request_of(p))).collect()
}

/// Everything a set of requests asks for together; `None` when one of them is
/// unrestricted (then nothing is limited).
pub fn combined(requests: &[(PathBuf, Request)]) -> Option<Capabilities> {
    let mut all = Capabilities::default();
    for (_, r) in requests {
        match r {
            Request::Limited(c) => all = all.union(c),
            Request::Unrestricted => return None,
            Request::Broken(_) => {}
        }
    }
    Some(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_is_read_without_running_setup_or_granting_rights() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("setup-ran");
        let file = dir.path().join("a.lua");
        std::fs::write(
            &file,
            format!(
                "local ok = pcall(io.open, {:?}, 'w')\nassert(not ok, 'top level wrote')\n\
                 return {{ capabilities = {{ exec = {{ 'git' }} }},\n\
                 setup = function(pi) io.open({:?}, 'w'):close() end }}",
                dir.path().join("top").display().to_string(),
                marker.display().to_string()
            ),
        )
        .unwrap();
        let Request::Limited(caps) = request_of(&file) else {
            panic!("{:?}", request_of(&file));
        };
        assert_eq!(caps.exec, ["git"]);
        assert!(!marker.exists(), "setup must not run");
        assert!(!dir.path().join("top").exists());
        let plain = dir.path().join("b.lua");
        std::fs::write(&plain, "return function(pi) end").unwrap();
        assert_eq!(request_of(&plain), Request::Unrestricted);
        let reqs = requests(&[file.clone(), plain]);
        assert_eq!(combined(&reqs), None, "one unrestricted extension");
        assert_eq!(combined(&reqs[..1]).unwrap().exec, ["git"]);
        std::fs::write(
            &file,
            "return { capabilities = { fs = { reed = {} } }, setup = print }",
        )
        .unwrap();
        let Request::Broken(why) = request_of(&file) else {
            panic!()
        };
        assert!(why.contains("capabilities.fs.reed"), "{why}");
    }
}
