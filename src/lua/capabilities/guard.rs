//! The per-extension guard every API entry asks before it touches a file, runs a
//! program, reaches a host or reads an environment variable. An undeclared use is a Lua
//! error naming the extension, the capability and how to declare it.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::lua::capabilities::Capabilities;
use crate::lua::capabilities::error::CapabilityError;
use crate::lua::capabilities::scope::{self, Resolved, Roots};

/// What an extension may do right now.
#[derive(Debug, Clone)]
pub enum Rights {
    /// It declared nothing: everything pi itself may do.
    Unrestricted,
    /// Its file is still running its top-level code: only what its package's manifest
    /// declared (its own declaration is read when the file returns).
    Loading(Rc<Resolved>),
    /// What it declared.
    Limited(Rc<Resolved>),
}

/// The rights of one extension, shared by its `pi` table and its Lua environment.
#[derive(Debug)]
pub struct Guard {
    /// The extension's display name.
    pub name: String,
    workspace: PathBuf,
    rights: RefCell<Rights>,
}

impl Guard {
    /// A guard that lets everything through (an extension that declared nothing).
    pub fn unrestricted(name: &str, workspace: &Path) -> Rc<Guard> {
        Rc::new(Guard {
            name: name.to_string(),
            workspace: workspace.to_path_buf(),
            rights: RefCell::new(Rights::Unrestricted),
        })
    }

    /// Replace the rights.
    pub fn set(&self, rights: Rights) {
        *self.rights.borrow_mut() = rights;
    }

    /// Limit the extension to `declared`, resolved against `roots`.
    pub fn limit(&self, declared: Capabilities, roots: Roots, loading: bool) {
        let resolved = Rc::new(Resolved::new(declared, roots));
        self.set(if loading {
            Rights::Loading(resolved)
        } else {
            Rights::Limited(resolved)
        });
    }

    /// Whether it runs without declared limits.
    pub fn is_unrestricted(&self) -> bool {
        matches!(*self.rights.borrow(), Rights::Unrestricted)
    }

    /// What it declared, when it is limited.
    pub fn declared(&self) -> Option<Capabilities> {
        self.limits().map(|r| r.declared.clone())
    }

    fn limits(&self) -> Option<Rc<Resolved>> {
        match &*self.rights.borrow() {
            Rights::Unrestricted => None,
            Rights::Loading(r) | Rights::Limited(r) => Some(r.clone()),
        }
    }

    fn loading(&self) -> bool {
        matches!(*self.rights.borrow(), Rights::Loading(_))
    }

    /// The absolute path of `path` when it may be read.
    pub fn read(&self, path: &str) -> mlua::Result<PathBuf> {
        let full = scope::absolute(&self.workspace, path);
        match self.limits() {
            Some(r) if !r.may_read(&full) => Err(self.denied("fs.read", path, fs_example)),
            _ => Ok(full),
        }
    }

    /// Whether the absolute `path` may be read (no error; for filtering listings).
    pub fn can_read(&self, path: &Path) -> bool {
        self.limits().is_none_or(|r| r.may_read(path))
    }

    /// The absolute path of `path` when it may be written, created or removed.
    pub fn write(&self, path: &str) -> mlua::Result<PathBuf> {
        let full = scope::absolute(&self.workspace, path);
        match self.limits() {
            Some(r) if !r.may_write(&full) => Err(self.denied("fs.write", path, fs_example)),
            _ => Ok(full),
        }
    }

    /// `Ok` when the extension may create files in the system's temporary folder
    /// (`os.tmpname`, `io.tmpfile`).
    pub fn temp(&self) -> mlua::Result<()> {
        let probe = std::env::temp_dir().join("pi-extension-tmp");
        match self.limits() {
            Some(r) if !r.may_write(&probe) => Err(self.denied("fs.write", "$tmp", fs_example)),
            _ => Ok(()),
        }
    }

    /// `Ok` when program `cmd` may run.
    pub fn exec(&self, cmd: &str) -> mlua::Result<()> {
        match self.limits() {
            Some(r) if !r.may_exec(cmd) => Err(self.denied("exec", cmd, list_example)),
            _ => Ok(()),
        }
    }

    /// `Ok` when the host of `url` may be reached.
    pub fn net(&self, url: &str) -> mlua::Result<()> {
        let Some(r) = self.limits() else {
            return Ok(());
        };
        let parsed = url::Url::parse(url).ok();
        let host = parsed
            .as_ref()
            .and_then(|u| u.host_str())
            .map(|h| h.trim_start_matches('[').trim_end_matches(']').to_string());
        let port = parsed.as_ref().and_then(url::Url::port_or_known_default);
        match host {
            Some(h) if r.may_reach(&h, port) => Ok(()),
            Some(h) => Err(self.denied("net", &h, list_example)),
            None => Err(self.denied("net", url, list_example)),
        }
    }

    /// `Ok` when environment variable `name` may be read.
    pub fn env(&self, name: &str) -> mlua::Result<()> {
        match self.limits() {
            Some(r) if !r.may_read_env(name) => Err(self.denied("env", name, list_example)),
            _ => Ok(()),
        }
    }

    /// The error for a use of `capability` on `target` that was not declared.
    pub fn denied(
        &self,
        capability: &str,
        target: &str,
        example: fn(&str, &str) -> String,
    ) -> mlua::Error {
        CapabilityError::Denied {
            ext: self.name.clone(),
            capability: capability.to_string(),
            target: target.to_string(),
            example: example(capability, target),
            loading: self.loading(),
        }
        .into()
    }
}

/// `capabilities = { fs = { write = { "path" } } }` for an `fs.*` capability.
fn fs_example(capability: &str, target: &str) -> String {
    let sub = capability.trim_start_matches("fs.");
    format!("capabilities = {{ fs = {{ {sub} = {{ {target:?} }} }} }}")
}

/// `capabilities = { exec = { "git" } }` for the other kinds.
fn list_example(capability: &str, target: &str) -> String {
    format!("capabilities = {{ {capability} = {{ {target:?} }} }}")
}

/// The error for loading native code, which no extension may do.
pub fn native_code(ext: &str, what: &str) -> mlua::Error {
    CapabilityError::NativeCode {
        ext: ext.to_string(),
        what: what.to_string(),
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_undeclared_use_names_extension_capability_and_fix() {
        let dir = tempfile::tempdir().unwrap();
        let g = Guard::unrestricted("notes", dir.path());
        assert!(
            g.write("a.txt").is_ok() && g.exec("rm").is_ok(),
            "unrestricted"
        );
        let caps = Capabilities::from_json(&json!({"fs": {"read": ["."]}})).unwrap();
        let roots = Roots {
            workspace: dir.path().into(),
            agent: dir.path().join("agent"),
            extension: dir.path().join("ext"),
        };
        g.limit(caps, roots, false);
        assert_eq!(g.read("a.txt").unwrap(), dir.path().join("a.txt"));
        let e = g.write("a.txt").unwrap_err().to_string();
        assert!(e.contains("notes") && e.contains("fs.write"), "{e}");
        assert!(e.contains(r#"fs = { write = { "a.txt" } }"#), "{e}");
        let e = g.exec("git").unwrap_err().to_string();
        assert!(e.contains(r#"exec = { "git" }"#), "{e}");
        let e = g.net("https://api.github.com/x").unwrap_err().to_string();
        assert!(e.contains(r#"net = { "api.github.com" }"#), "{e}");
        assert!(g.env("HOME").unwrap_err().to_string().contains("env"));
    }
}
