//! Putting an extension's capabilities in force while it loads. The file's top-level
//! code runs before its spec table is returned, so pi reads the declaration from the
//! file's text first (a literal `capabilities = { … }`, see `literal`): the top-level
//! code runs with it already. A file that mentions `capabilities` in a way pi cannot
//! read, or one in a package whose manifest declares them, runs its top-level code with
//! the manifest's rights only. Once the file returns, the rights are the manifest's and
//! the spec's together, and the spec must say what the text said; a file that declares
//! nothing anywhere keeps every right.

use std::path::Path;

use mlua::{Table, Value as LuaValue};

use crate::lua::capabilities::Capabilities;
use crate::lua::capabilities::error::CapabilityError;
use crate::lua::capabilities::guard::Guard;
use crate::lua::capabilities::scope::Roots;
use crate::lua::convert::to_json;

/// What is known about an extension's capabilities before its file runs.
pub struct Prepared {
    /// The folders its path markers stand for.
    pub roots: Roots,
    /// What its package's manifest declares.
    pub manifest: Option<Capabilities>,
    /// Whether its entry file's code (not its comments or strings) mentions
    /// `capabilities`.
    pub in_source: bool,
    /// The literal declaration read from its text, when there is one.
    pub literal: Option<Capabilities>,
}

/// Read the manifest and the entry file's text, and set the rights of the top-level
/// code on `guard` (`$agent` is `agent_dir`, the folder the extension sees as
/// `pi.agentDir`). A bad manifest is a load error.
pub fn prepare(
    guard: &Guard,
    path: &Path,
    workspace: &Path,
    agent_dir: &Path,
) -> mlua::Result<Prepared> {
    let manifest = match crate::lua::capabilities::manifest_of(path) {
        Some(m) => Capabilities::from_manifest(&m).map_err(CapabilityError::Declaration)?,
        None => None,
    };
    let source = std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let in_source = crate::lua::capabilities::literal::mentions_in_code(&source);
    let literal = match in_source
        .then(|| crate::lua::capabilities::literal::declared_in(&source))
        .flatten()
    {
        Some(Err(e)) => return Err(CapabilityError::Declaration(e).into()),
        Some(Ok(caps)) => Some(caps),
        None => None,
    };
    let roots = Roots {
        workspace: workspace.to_path_buf(),
        agent: agent_dir.to_path_buf(),
        extension: path.parent().unwrap_or(Path::new(".")).to_path_buf(),
    };
    let base = manifest.clone().unwrap_or_default();
    if let Some(declared) = &literal {
        guard.limit(base.union(declared), roots.clone(), false);
    } else if manifest.is_some() || in_source {
        guard.limit(base, roots.clone(), true);
    }
    Ok(Prepared {
        roots,
        manifest,
        in_source,
        literal,
    })
}

/// The `capabilities` of a returned spec table, checked.
pub fn of_spec(lua: &mlua::Lua, spec: &Table) -> mlua::Result<Option<Capabilities>> {
    match spec.get::<LuaValue>("capabilities")? {
        LuaValue::Nil => Ok(None),
        value => {
            let json = to_json(lua, value)?;
            Capabilities::from_json(&json)
                .map(Some)
                .map_err(|e| CapabilityError::Declaration(e).into())
        }
    }
}

/// Put the final rights in force once the file returned (`declared` is what its spec
/// table declared, `None` for a factory function or a spec without the key).
pub fn settle(
    guard: &Guard,
    prepared: Prepared,
    declared: Option<Capabilities>,
) -> mlua::Result<()> {
    if declared.is_some() && declared != prepared.literal {
        return Err(CapabilityError::HiddenDeclaration.into());
    }
    match (prepared.manifest, declared) {
        (None, None) => guard.set(crate::lua::capabilities::guard::Rights::Unrestricted),
        (manifest, declared) => {
            let caps = manifest
                .unwrap_or_default()
                .union(&declared.unwrap_or_default());
            guard.limit(caps, prepared.roots, false);
        }
    }
    Ok(())
}
