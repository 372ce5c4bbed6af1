//! Checking configuration files against the JSON Schemas shipped in `schemas/`
//! (the same files editors use through `$schema`). Every wrong-typed or unknown
//! key yields one warning naming the file, the key and what was expected; the
//! offending values are taken out so the rest of the file still applies.
//! A schema is compiled the first time a file of its kind is checked, unless
//! the file is unchanged since it was last found valid.

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::schema_warning::{Expectation, SchemaProblem, SchemaWarning};

/// One shipped schema, compiled on first use.
pub struct ConfigSchema {
    source: &'static str,
    /// [`super::valid_configs::schema_fingerprint`] of `source`, once computed.
    fingerprint: OnceLock<u64>,
    compiled: OnceLock<Option<(Value, jsonschema::Validator)>>,
}

/// `schemas/settings.schema.json`: `settings.json`, global and project.
pub static SETTINGS: ConfigSchema =
    ConfigSchema::new(include_str!("../../schemas/settings.schema.json"));
/// `schemas/models.schema.json`: `models.json`.
pub static MODELS: ConfigSchema =
    ConfigSchema::new(include_str!("../../schemas/models.schema.json"));
/// `schemas/keybindings.schema.json`: `keybindings.json`.
pub static KEYBINDINGS: ConfigSchema =
    ConfigSchema::new(include_str!("../../schemas/keybindings.schema.json"));
/// `schemas/theme.schema.json`: theme files.
pub static THEME: ConfigSchema = ConfigSchema::new(include_str!("../../schemas/theme.schema.json"));

/// More unknown keys than this are reported in one summarised warning.
const MAX_UNKNOWN_LISTED: usize = 5;

/// `300000` → `300,000`.
pub(crate) fn group_thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

impl ConfigSchema {
    const fn new(source: &'static str) -> Self {
        ConfigSchema {
            source,
            fingerprint: OnceLock::new(),
            compiled: OnceLock::new(),
        }
    }

    /// The schema as JSON.
    pub fn schema(&self) -> Option<&Value> {
        self.compiled().map(|(schema, _)| schema)
    }

    fn compiled(&self) -> Option<&(Value, jsonschema::Validator)> {
        self.compiled
            .get_or_init(|| {
                let schema: Value = serde_json::from_str(self.source).ok()?;
                let validator = jsonschema::validator_for(&schema).ok()?;
                Some((schema, validator))
            })
            .as_ref()
    }

    /// [`ConfigSchema::check`] for `value` parsed from `text`, skipped when the same
    /// text was found valid before (see [`super::valid_configs`]).
    pub fn check_text(
        &'static self,
        file: &Path,
        text: &str,
        value: &mut Value,
    ) -> Vec<SchemaWarning> {
        let schema = *self
            .fingerprint
            .get_or_init(|| super::valid_configs::schema_fingerprint(self.source));
        let fingerprint = super::valid_configs::fingerprint(schema, text);
        if super::valid_configs::is_known_valid(fingerprint) {
            return Vec::new();
        }
        let warnings = self.check(file, value);
        if warnings.is_empty() && self.compiled().is_some() {
            super::valid_configs::remember_valid(fingerprint);
        }
        warnings
    }

    /// Check `value` (the parsed contents of `file`): one warning per offending
    /// key, and every wrong-typed value removed from `value` (an object
    /// missing a key it needs is removed too). Unknown keys are reported but
    /// left in place (nothing reads them). A problem with the whole document
    /// (not an object, say) is reported and nothing is removed.
    pub fn check(&'static self, file: &Path, value: &mut Value) -> Vec<SchemaWarning> {
        let found = self.problems(value);
        let unknown = found
            .iter()
            .filter(|(_, p)| matches!(p, SchemaProblem::Unknown))
            .count();
        let summarise = unknown > MAX_UNKNOWN_LISTED;
        let mut warnings = Vec::new();
        if summarise {
            let first: Vec<String> = found
                .iter()
                .filter(|(_, p)| matches!(p, SchemaProblem::Unknown))
                .take(3)
                .map(|(path, _)| key_name(value, path))
                .collect();
            warnings.push(SchemaWarning::ManyUnknown {
                file: file.to_path_buf(),
                count: unknown,
                first,
            });
        }
        let mut removed: Vec<Vec<String>> = Vec::new();
        for (path, problem) in &found {
            if summarise && matches!(problem, SchemaProblem::Unknown) {
                continue;
            }
            warnings.push(warning(file, value, path, problem, true));
            // A value of the wrong form, or an object lacking a key it needs,
            // is left out; unknown keys stay (nothing reads them) and the
            // whole document is never removed.
            if !matches!(problem, SchemaProblem::Unknown) && !path.is_empty() {
                removed.push(path.clone());
            }
        }
        removed.sort_by(|a, b| compare_paths(b, a));
        for path in removed {
            remove(value, &path);
        }
        warnings
    }

    /// The keys of `value` (the parsed contents of `file`) holding a value of
    /// the wrong type or form, each with what is wrong. Unknown keys are not listed.
    pub fn invalid_keys(
        &'static self,
        file: &Path,
        value: &Value,
    ) -> Vec<(Vec<String>, SchemaWarning)> {
        self.problems(value)
            .into_iter()
            .filter(|(_, problem)| !matches!(problem, SchemaProblem::Unknown))
            .map(|(path, problem)| {
                let warning = warning(file, value, &path, &problem, false);
                (path, warning)
            })
            .collect()
    }

    /// One problem per key: the first found at a path wins, and a value of
    /// the wrong form hides the problems inside it.
    fn problems(&'static self, value: &Value) -> Vec<(Vec<String>, SchemaProblem)> {
        let Some((_, validator)) = self.compiled() else {
            return Vec::new();
        };
        if validator.is_valid(value) {
            return Vec::new();
        }
        // Objects whose unknown keys are listed already (an object can be
        // reported more than once).
        let mut listed_objects: HashSet<Vec<String>> = HashSet::new();
        let mut found: Vec<(Vec<String>, SchemaProblem)> = Vec::new();
        for error in validator.iter_errors(value) {
            let at = segments(error.instance_path().as_str());
            match error.kind() {
                ValidationErrorKind::AdditionalProperties { unexpected } => {
                    if !listed_objects.insert(at.clone()) {
                        continue;
                    }
                    for key in unexpected {
                        let mut path = at.clone();
                        path.push(key.clone());
                        found.push((path, SchemaProblem::Unknown));
                    }
                }
                ValidationErrorKind::Required { property } => {
                    let property = property.as_str().unwrap_or_default().to_string();
                    found.push((at, SchemaProblem::Missing { property }));
                }
                ValidationErrorKind::Type { .. }
                | ValidationErrorKind::Enum { .. }
                | ValidationErrorKind::Constant { .. }
                | ValidationErrorKind::AnyOf { .. }
                | ValidationErrorKind::OneOfNotValid { .. } => {
                    let expected = Expectation {
                        schema: self,
                        location: error.schema_path().as_str().to_string(),
                    };
                    found.push((at, SchemaProblem::Invalid { expected }));
                }
                _ => found.push((
                    at,
                    SchemaProblem::Other {
                        message: error.to_string(),
                    },
                )),
            }
        }
        let mut reported: HashSet<Vec<String>> = HashSet::new();
        let mut taken_out: HashSet<Vec<String>> = HashSet::new();
        let mut kept = Vec::new();
        for (path, problem) in found {
            let inside_taken_out = (1..path.len()).any(|n| taken_out.contains(&path[..n]));
            if inside_taken_out {
                continue;
            }
            // An unknown key is listed once per object (above) and has no
            // other problem: only the others need the check for repeats.
            if !matches!(problem, SchemaProblem::Unknown) {
                if !reported.insert(path.clone()) {
                    continue;
                }
                if !path.is_empty() {
                    taken_out.insert(path.clone());
                }
            }
            kept.push((path, problem));
        }
        kept
    }
}

/// The segments of a JSON pointer (`/a/b~1c` → `["a", "b/c"]`).
fn segments(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Deeper paths first, and later array items before earlier ones, so
/// removing one value never shifts another that is still to be removed.
fn compare_paths(a: &[String], b: &[String]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let order = match (x.parse::<usize>(), y.parse::<usize>()) {
            (Ok(i), Ok(j)) => i.cmp(&j),
            _ => x.cmp(y),
        };
        if order.is_ne() {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

fn remove(value: &mut Value, path: &[String]) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut node = value;
    for key in parents {
        node = match node {
            Value::Object(map) => match map.get_mut(key) {
                Some(next) => next,
                None => return,
            },
            Value::Array(items) => match key.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(next) => next,
                None => return,
            },
            _ => return,
        };
    }
    match node {
        Value::Object(map) => {
            map.shift_remove(last);
        }
        Value::Array(items) => {
            if let Ok(i) = last.parse::<usize>()
                && i < items.len()
            {
                items.remove(i);
            }
        }
        _ => {}
    }
}

/// The schema node whose keyword failed: the keyword location without its
/// last segment, following `$ref`s met on the way.
pub fn schema_node<'a>(root: &'a Value, keyword_location: &str) -> Option<&'a Value> {
    let mut parts = segments(keyword_location);
    parts.pop();
    let mut node = root;
    for part in parts {
        if part == "$ref" {
            node = resolve_ref(root, node)?;
            continue;
        }
        node = match node {
            Value::Object(map) => map.get(&part)?,
            Value::Array(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

/// The node a `$ref` in `node` points at, if it has one.
pub fn resolve_ref<'a>(root: &'a Value, node: &'a Value) -> Option<&'a Value> {
    let target = node.get("$ref")?.as_str()?;
    root.pointer(target.strip_prefix('#')?)
}

/// `a.b[2].c` for the path, `[2]` where the parent is a list.
fn key_name(value: &Value, path: &[String]) -> String {
    let mut out = String::new();
    let mut node = Some(value);
    for part in path {
        match node {
            Some(Value::Array(items)) => {
                out.push_str(&format!("[{part}]"));
                node = part.parse::<usize>().ok().and_then(|i| items.get(i));
            }
            other => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(part);
                node = other.and_then(|n| n.get(part));
            }
        }
    }
    out
}

/// A short rendering of the value found: `42`, `["x"]`, `"text"`.
fn found_words(value: Option<&Value>) -> Option<String> {
    let text = value?.to_string();
    Some(if text.chars().count() > 40 {
        let short: String = text.chars().take(37).collect();
        format!("{short}...")
    } else {
        text
    })
}

/// The warning for `problem` at `path` of `root` (the contents of `file`); `ignored`
/// says that pi leaves the value out.
fn warning(
    file: &Path,
    root: &Value,
    path: &[String],
    problem: &SchemaProblem,
    ignored: bool,
) -> SchemaWarning {
    let pointer: String = path
        .iter()
        .map(|p| format!("/{}", p.replace('~', "~0").replace('/', "~1")))
        .collect();
    SchemaWarning::Key {
        file: file.to_path_buf(),
        key: key_name(root, path),
        problem: problem.clone(),
        found: found_words(root.pointer(&pointer)),
        ignored,
    }
}

#[cfg(test)]
#[path = "schema_check_tests.rs"]
mod tests;
