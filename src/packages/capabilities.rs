//! What a package's extensions request (their declared capabilities), as `pi install`,
//! `pi list` and `pi update` show it, and how a request changed between two versions.

use std::path::{Path, PathBuf};

use crate::lua::capabilities::Capabilities;
use crate::lua::capabilities::inspect::{Request, requests};
use crate::t;

use super::entries::ResourceKind;
use super::resolve::package_resources;

/// The request of every extension the package at `root` provides.
pub fn of_package(root: &Path) -> Vec<(PathBuf, Request)> {
    requests(&package_resources(root, ResourceKind::Extensions, None))
}

fn name_of(root: &Path, entry: &Path) -> String {
    entry
        .strip_prefix(root)
        .unwrap_or(entry)
        .display()
        .to_string()
}

/// Lines describing each extension's request, indented by `indent`.
pub fn describe(root: &Path, reqs: &[(PathBuf, Request)], indent: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (entry, request) in reqs {
        let name = name_of(root, entry);
        match request {
            Request::Unrestricted => out.push(format!(
                "{indent}{name}: {}",
                t!("pi.pkg.caps_unrestricted")
            )),
            Request::Broken(why) => out.push(format!(
                "{indent}{name}: {}",
                t!("pi.pkg.caps_broken", error = why)
            )),
            Request::Limited(caps) if caps.is_empty() => {
                out.push(format!("{indent}{name}: {}", t!("pi.pkg.caps_none")))
            }
            Request::Limited(caps) => {
                out.push(format!("{indent}{name}:"));
                out.extend(caps.lines().into_iter().map(|l| format!("{indent}  {l}")));
            }
        }
    }
    out
}

/// What the requests `after` ask for beyond `before`, one line per extension that
/// asks for more (a new extension, one that became unrestricted, or new entries).
pub fn grown(
    root: &Path,
    before: &[(PathBuf, Request)],
    after: &[(PathBuf, Request)],
    indent: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for (entry, now) in after {
        let name = name_of(root, entry);
        let then = before
            .iter()
            .find(|(e, _)| name_of(root, e) == name)
            .map(|(_, r)| r);
        let added = match (then, now) {
            (Some(Request::Unrestricted), _) | (_, Request::Broken(_)) => None,
            (_, Request::Unrestricted) => Some(t!("pi.pkg.caps_unrestricted")),
            (Some(Request::Limited(old)), Request::Limited(new)) => {
                let more = new.added_since(old);
                (!more.is_empty()).then(|| more.lines().join("; "))
            }
            (_, Request::Limited(new)) => Some(if new.is_empty() {
                t!("pi.pkg.caps_none")
            } else {
                new.lines().join("; ")
            }),
        };
        if let Some(added) = added {
            out.push(format!("{indent}{name}: + {added}"));
        }
    }
    out
}

/// Everything every extension asks for, for a one-line summary; `None` when one of
/// them is unrestricted.
pub fn total(reqs: &[(PathBuf, Request)]) -> Option<Capabilities> {
    crate::lua::capabilities::inspect::combined(reqs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn requests_are_listed_and_growth_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "extensions/a.lua",
            "return { capabilities = { exec = { 'git' } }, setup = function(pi) end }",
        );
        write(root, "extensions/b.lua", "return function(pi) end");
        let before = of_package(root);
        let lines = describe(root, &before, "  ");
        assert_eq!(lines[0], "  extensions/a.lua:");
        assert_eq!(lines[1], "    exec: git");
        assert!(lines[2].starts_with("  extensions/b.lua: ") && lines[2].contains("unrestricted"));
        assert!(total(&before).is_none());
        write(
            root,
            "extensions/a.lua",
            "return { capabilities = { exec = { 'git', 'gh' }, net = { 'api.github.com' } }, setup = function(pi) end }",
        );
        let after = of_package(root);
        let grew = grown(root, &before, &after, "");
        assert_eq!(grew, ["extensions/a.lua: + exec: gh; net: api.github.com"]);
        assert!(grown(root, &after, &after, "").is_empty());
    }
}
