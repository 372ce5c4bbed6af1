//! Settings entries that switch resources found in pi's own folders off or back on, as
//! pi 0.73.1 reads them: `!glob` leaves matching files out, `+path` brings one back,
//! `-path` leaves one out whatever else says. Paths and globs are taken relative to the
//! folder of the settings file; a skill's `SKILL.md` is also named by its folder.

use std::path::Path;

use serde_json::{Map, Value};

/// The override entries (`!`, `+`, `-`) of the settings array `key` in `map`.
pub fn override_entries(map: &Map<String, Value>, key: &str) -> Vec<String> {
    map.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|e| e.starts_with(['!', '+', '-']))
        .map(str::to_string)
        .collect()
}

/// The override entries of the settings array `key` in each settings file that exists on
/// disk (project first), with the folder they are relative to.
pub fn scopes(
    settings: &crate::config::settings::Settings,
    key: &str,
) -> Vec<(std::path::PathBuf, Vec<String>)> {
    [
        (settings.project(), settings.project_path()),
        (settings.global(), settings.global_path()),
    ]
    .into_iter()
    .filter_map(|(map, file)| {
        let base = file?.parent()?.to_path_buf();
        let entries = override_entries(map, key);
        (!entries.is_empty()).then_some((base, entries))
    })
    .collect()
}

/// Whether `file` stays enabled under the override `entries` of a settings file in `base`.
pub fn enabled(file: &Path, entries: &[String], base: &Path) -> bool {
    let names = names_of(file, base);
    let exact = |raw: &str| {
        let raw = raw.strip_prefix("./").unwrap_or(raw).replace('\\', "/");
        names.exact.contains(&raw)
    };
    let mut on = true;
    for pattern in entries.iter().filter_map(|e| e.strip_prefix('!')) {
        let Ok(glob) = globset::Glob::new(&pattern.replace('\\', "/")) else {
            continue;
        };
        let matcher = glob.compile_matcher();
        if names.all.iter().any(|n| matcher.is_match(n)) {
            on = false;
        }
    }
    if entries
        .iter()
        .filter_map(|e| e.strip_prefix('+'))
        .any(exact)
    {
        on = true;
    }
    if entries
        .iter()
        .filter_map(|e| e.strip_prefix('-'))
        .any(exact)
    {
        on = false;
    }
    on
}

/// The names a file answers to: for exact entries its path relative to `base` and its
/// absolute path; for globs also its file name (for `SKILL.md`, the same of its folder).
struct Names {
    exact: Vec<String>,
    all: Vec<String>,
}

fn names_of(file: &Path, base: &Path) -> Names {
    let posix = |p: &Path| p.to_string_lossy().replace('\\', "/");
    let rel = |p: &Path| p.strip_prefix(base).map(posix).ok();
    let mut paths = vec![file];
    if file.file_name().is_some_and(|n| n == "SKILL.md")
        && let Some(parent) = file.parent()
    {
        paths.push(parent);
    }
    let mut exact = Vec::new();
    let mut all = Vec::new();
    for p in paths {
        exact.extend(rel(p));
        exact.push(posix(p));
        all.extend(p.file_name().map(|n| n.to_string_lossy().into_owned()));
    }
    all.extend(exact.iter().cloned());
    Names { exact, all }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn force_exclude_beats_force_include_and_globs() {
        let base = Path::new("/a");
        let skill = Path::new("/a/skills/x/SKILL.md");
        assert!(enabled(skill, &[], base));
        assert!(!enabled(skill, &["-skills/x".into()], base));
        assert!(!enabled(skill, &["!skills/*".into()], base));
        assert!(enabled(
            skill,
            &["!skills/*".into(), "+skills/x".into()],
            base
        ));
        assert!(!enabled(
            skill,
            &["+skills/x".into(), "-skills/x/SKILL.md".into()],
            base
        ));
        assert!(enabled(skill, &["-skills/y".into()], base));
    }
}
