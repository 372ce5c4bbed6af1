//! Declared capabilities of an extension: which files it may read and write, which
//! programs it may run, which hosts it may reach and which environment variables it may
//! read. They come from the spec table an extension file returns (`capabilities = {…}`)
//! and from a package's manifest (`pi.capabilities` in package.json). An extension that
//! declares nothing keeps every right (and is named once per session).

pub mod error;
pub mod guard;
pub mod inspect;
pub mod literal;
pub mod load;
pub mod scope;
pub mod stdlib;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use error::{DeclarationError, Fix};

/// What an extension declared it needs, as written (path markers unresolved).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// Path scopes it may read (`fs.read`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read: Vec<String>,
    /// Path scopes it may write, create or delete (`fs.write`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub write: Vec<String>,
    /// Programs it may run (`exec`): names looked up on `PATH`, paths, `$pi` or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exec: Vec<String>,
    /// Hosts it may reach over HTTP (`net`): names, `*.domain` or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub net: Vec<String>,
    /// Environment variables it may read (`env`): names, `PREFIX_*` or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
}

/// The capability kinds in the order they are shown.
pub const KINDS: [&str; 5] = ["fs.read", "fs.write", "exec", "net", "env"];

impl Capabilities {
    /// Parse a `capabilities` value (spec table converted to JSON, or a manifest's).
    pub fn from_json(value: &Value) -> Result<Capabilities, DeclarationError> {
        let root = "capabilities";
        let empty = serde_json::Map::new();
        let map = match value {
            Value::Object(map) => map,
            // An empty Lua table converts to an empty list.
            Value::Array(items) if items.is_empty() => &empty,
            _ => return Err(bad(root, Fix::Table)),
        };
        let mut caps = Capabilities::default();
        for (key, item) in map {
            let at = format!("{root}.{key}");
            match key.as_str() {
                "fs" => {
                    let fs = match item {
                        Value::Object(fs) => fs,
                        Value::Array(items) if items.is_empty() => &empty,
                        _ => return Err(bad(&at, Fix::Fs)),
                    };
                    for (sub, list) in fs {
                        let at = format!("{at}.{sub}");
                        match sub.as_str() {
                            "read" => caps.read = paths(&at, list)?,
                            "write" => caps.write = paths(&at, list)?,
                            _ => return Err(bad(&at, Fix::Fs)),
                        }
                    }
                }
                "exec" => caps.exec = names(&at, list_of(&at, item)?, is_program)?,
                "net" => caps.net = names(&at, list_of(&at, item)?, is_host)?,
                "env" => caps.env = names(&at, list_of(&at, item)?, is_env_name)?,
                _ => return Err(bad(&at, Fix::UnknownKind)),
            }
        }
        Ok(caps)
    }

    /// The capabilities of the package manifest at `package_json`, if it declares any.
    pub fn from_manifest(package_json: &Path) -> Result<Option<Capabilities>, DeclarationError> {
        let Ok(text) = std::fs::read_to_string(package_json) else {
            return Ok(None);
        };
        let Ok(json) = serde_json::from_str::<Value>(&text) else {
            return Ok(None);
        };
        match json.pointer("/pi/capabilities") {
            Some(caps) => Capabilities::from_json(caps)
                .map(Some)
                .map_err(|e| DeclarationError {
                    manifest: Some(package_json.to_path_buf()),
                    ..e
                }),
            None => Ok(None),
        }
    }

    /// Everything `self` or `other` allows.
    pub fn union(&self, other: &Capabilities) -> Capabilities {
        fn join(a: &[String], b: &[String]) -> Vec<String> {
            let mut out = a.to_vec();
            out.extend(b.iter().filter(|s| !a.contains(s)).cloned());
            out
        }
        Capabilities {
            read: join(&self.read, &other.read),
            write: join(&self.write, &other.write),
            exec: join(&self.exec, &other.exec),
            net: join(&self.net, &other.net),
            env: join(&self.env, &other.env),
        }
    }

    /// The entries of one kind (see [`KINDS`]).
    pub fn of(&self, kind: &str) -> &[String] {
        match kind {
            "fs.read" => &self.read,
            "fs.write" => &self.write,
            "exec" => &self.exec,
            "net" => &self.net,
            _ => &self.env,
        }
    }

    /// What `self` allows that `before` did not, per kind (for `pi update`).
    pub fn added_since(&self, before: &Capabilities) -> Capabilities {
        let only = |a: &[String], b: &[String]| -> Vec<String> {
            a.iter().filter(|s| !b.contains(s)).cloned().collect()
        };
        Capabilities {
            read: only(&self.read, &before.read),
            write: only(&self.write, &before.write),
            exec: only(&self.exec, &before.exec),
            net: only(&self.net, &before.net),
            env: only(&self.env, &before.env),
        }
    }

    /// Whether nothing is declared.
    pub fn is_empty(&self) -> bool {
        KINDS.iter().all(|k| self.of(k).is_empty())
    }

    /// One line per declared kind, e.g. `fs.read: ., $agent/sessions`.
    pub fn lines(&self) -> Vec<String> {
        KINDS
            .iter()
            .filter(|k| !self.of(k).is_empty())
            .map(|k| format!("{k}: {}", self.of(k).join(", ")))
            .collect()
    }
}

/// The names of the loaded extensions that declared no capabilities, in load order.
pub fn unrestricted_names(reg: &crate::lua::registry::Registry) -> Vec<String> {
    reg.extensions
        .iter()
        .filter(|e| !e.measured.failed && e.guard.is_unrestricted())
        .map(|e| e.name.clone())
        .collect()
}

/// The package.json that governs the extension at `entry`: the nearest one in the
/// folders above it (its package's root).
pub fn manifest_of(entry: &Path) -> Option<PathBuf> {
    let mut dir = entry.parent();
    while let Some(d) = dir {
        let candidate = d.join("package.json");
        if candidate.is_file() {
            return Some(candidate);
        }
        dir = d.parent();
    }
    None
}

fn bad(key: &str, fix: Fix) -> DeclarationError {
    DeclarationError {
        key: key.to_string(),
        fix,
        manifest: None,
    }
}

fn list_of<'a>(at: &str, value: &'a Value) -> Result<&'a [Value], DeclarationError> {
    match value {
        Value::Array(items) => Ok(items),
        Value::Object(map) if map.is_empty() => Ok(&[]),
        _ => Err(bad(at, Fix::List)),
    }
}

fn paths(at: &str, value: &Value) -> Result<Vec<String>, DeclarationError> {
    let items = list_of(at, value)?;
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{at}[{}]", i + 1);
        let Some(s) = item.as_str().filter(|s| !s.trim().is_empty()) else {
            return Err(bad(&at, Fix::Path));
        };
        if let Err(why) = scope::check_pattern(s) {
            return Err(bad(&at, why));
        }
        out.push(s.to_string());
    }
    Ok(out)
}

fn names(
    at: &str,
    items: &[Value],
    valid: fn(&str) -> Result<(), Fix>,
) -> Result<Vec<String>, DeclarationError> {
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{at}[{}]", i + 1);
        let Some(s) = item.as_str() else {
            return Err(bad(&at, Fix::String));
        };
        valid(s).map_err(|fix| bad(&at, fix))?;
        out.push(s.to_string());
    }
    Ok(out)
}

fn is_program(s: &str) -> Result<(), Fix> {
    if s.is_empty() || s.chars().any(char::is_whitespace) {
        return Err(Fix::Program);
    }
    Ok(())
}

fn is_host(s: &str) -> Result<(), Fix> {
    let name = s.strip_prefix("*.").unwrap_or(s);
    let ok = s == "*"
        || (!name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')));
    if ok { Ok(()) } else { Err(Fix::Host) }
}

fn is_env_name(s: &str) -> Result<(), Fix> {
    let name = s.strip_suffix('*').unwrap_or(s);
    let ok = s == "*"
        || (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    if ok { Ok(()) } else { Err(Fix::Env) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_is_read_from_a_declaration() {
        let caps = Capabilities::from_json(&json!({
            "fs": {"read": [".", "$agent/sessions"], "write": ["$extension/cache/**"]},
            "exec": ["git", "$pi"],
            "net": ["api.github.com", "*.example.org"],
            "env": ["HOME", "PI_*"]
        }))
        .unwrap();
        assert_eq!(caps.read, [".", "$agent/sessions"]);
        assert_eq!(caps.write, ["$extension/cache/**"]);
        assert_eq!(caps.exec, ["git", "$pi"]);
        assert_eq!(caps.net, ["api.github.com", "*.example.org"]);
        assert_eq!(caps.env, ["HOME", "PI_*"]);
        assert_eq!(
            caps.lines()[0],
            "fs.read: ., $agent/sessions",
            "{:?}",
            caps.lines()
        );
    }

    #[test]
    fn a_bad_declaration_names_the_key_and_the_fix() {
        let e = Capabilities::from_json(&json!({"fs": {"raed": ["."]}})).unwrap_err();
        assert_eq!(e.key, "capabilities.fs.raed");
        assert_eq!(e.fix, Fix::Fs);
        let e = Capabilities::from_json(&json!({"exec": "git"})).unwrap_err();
        assert_eq!(e.key, "capabilities.exec");
        let e = Capabilities::from_json(&json!({"net": ["https://x.org/"]})).unwrap_err();
        assert_eq!(e.key, "capabilities.net[1]");
        let e = Capabilities::from_json(&json!({"fs": {"read": ["$home/x"]}})).unwrap_err();
        assert_eq!(e.key, "capabilities.fs.read[1]");
        assert_eq!(
            e.fix,
            Fix::Marker {
                marker: "$home".into()
            }
        );
        let e = Capabilities::from_json(&json!({"network": []})).unwrap_err();
        assert_eq!(e.key, "capabilities.network");
        assert!(e.to_string().contains("capabilities.network"), "{e}");
        // An empty table is an empty list (Lua cannot tell them apart).
        assert!(
            Capabilities::from_json(&json!({"exec": {}}))
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn union_and_growth_compare_per_kind() {
        let a = Capabilities::from_json(&json!({"exec": ["git"], "net": ["a.org"]})).unwrap();
        let b = Capabilities::from_json(&json!({"exec": ["git", "gh"], "env": ["HOME"]})).unwrap();
        let u = a.union(&b);
        assert_eq!(u.exec, ["git", "gh"]);
        assert_eq!(u.net, ["a.org"]);
        let grown = b.added_since(&a);
        assert_eq!(grown.exec, ["gh"]);
        assert_eq!(grown.env, ["HOME"]);
        assert!(grown.net.is_empty());
        assert!(a.added_since(&a).is_empty());
    }

    #[test]
    fn a_manifest_declares_for_its_package() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("package.json");
        std::fs::write(
            &manifest,
            r#"{"name":"p","pi":{"capabilities":{"exec":["git"]}}}"#,
        )
        .unwrap();
        std::fs::create_dir_all(dir.path().join("ext")).unwrap();
        let entry = dir.path().join("ext/a.lua");
        assert_eq!(manifest_of(&entry).as_deref(), Some(manifest.as_path()));
        let caps = Capabilities::from_manifest(&manifest).unwrap().unwrap();
        assert_eq!(caps.exec, ["git"]);
        std::fs::write(&manifest, r#"{"name":"p","pi":{}}"#).unwrap();
        assert_eq!(Capabilities::from_manifest(&manifest).unwrap(), None);
        std::fs::write(&manifest, r#"{"pi":{"capabilities":{"exec":[1]}}}"#).unwrap();
        let e = Capabilities::from_manifest(&manifest).unwrap_err();
        assert_eq!(e.key, "capabilities.exec[1]");
        assert_eq!(e.manifest.as_deref(), Some(manifest.as_path()));
        assert!(e.to_string().contains("pi.capabilities.exec[1]"), "{e}");
    }
}
