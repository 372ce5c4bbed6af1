//! Reading tool arguments and shared small helpers (abort errors, number
//! formatting as the original prints numbers).

use std::future::Future;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use crate::agent::tool::ToolError;

use super::paths::resolve_to_cwd;

/// The error every tool returns when the user aborts.
pub const ABORTED_MESSAGE: &str = "Operation aborted";

/// An "Operation aborted" error.
pub fn aborted() -> ToolError {
    ToolError::new(ABORTED_MESSAGE)
}

/// Fail with "Operation aborted" if `signal` has fired.
pub fn check_aborted(signal: &CancellationToken) -> Result<(), ToolError> {
    if signal.is_cancelled() {
        Err(aborted())
    } else {
        Ok(())
    }
}

/// `future`'s output, or an "Operation aborted" error if `signal` fires first.
pub async fn unless_aborted<T>(
    signal: &CancellationToken,
    future: impl Future<Output = T>,
) -> Result<T, ToolError> {
    tokio::select! {
        value = future => Ok(value),
        _ = signal.cancelled() => Err(aborted()),
    }
}

/// Run blocking `work` (given its own handle on `signal`) on the blocking
/// thread pool; an "Operation aborted" error if `signal` fires first.
pub async fn run_blocking<T: Send + 'static>(
    signal: &CancellationToken,
    work: impl FnOnce(&CancellationToken) -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    let work_signal = signal.clone();
    let task = tokio::task::spawn_blocking(move || work(&work_signal));
    unless_aborted(signal, task)
        .await?
        .map_err(|e| ToolError::new(e.to_string()))?
}

/// The JSON schema of an object argument: `properties` as
/// `(name, type, description)`, `required` written only when not empty.
pub fn object_schema(required: &[&str], properties: &[(&str, &str, &str)]) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    let properties = properties
        .iter()
        .map(|(name, kind, description)| {
            let property = json!({ "type": kind, "description": description });
            ((*name).to_string(), property)
        })
        .collect();
    schema.insert("properties".into(), Value::Object(properties));
    Value::Object(schema)
}

/// The optional `path` argument of a directory resolved against `cwd`
/// (the working directory itself when absent or empty).
pub fn directory_arg(args: &Value, cwd: &Path) -> PathBuf {
    let path = optional_str(args, "path").filter(|p| !p.is_empty());
    resolve_to_cwd(path.unwrap_or("."), cwd)
}

/// The optional `limit` argument as a count of at least `min`; `default` when absent.
pub fn limit_arg(args: &Value, default: usize, min: f64) -> usize {
    optional_number(args, "limit").map_or(default, |l| l.max(min) as usize)
}

/// A required string argument.
pub fn required_str<'a>(args: &'a Value, name: &str) -> Result<&'a str, ToolError> {
    args.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| ToolError::new(format!("Missing required parameter: {name}")))
}

/// An optional string argument (`null` counts as absent).
pub fn optional_str<'a>(args: &'a Value, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}

/// An optional numeric argument; numeric strings are accepted too.
pub fn optional_number(args: &Value, name: &str) -> Option<f64> {
    match args.get(name)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|n| n.is_finite())
}

/// An optional boolean argument; `"true"`/`"false"` strings are accepted too.
pub fn optional_bool(args: &Value, name: &str) -> Option<bool> {
    match args.get(name)? {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "true" => Some(true),
        Value::String(s) if s == "false" => Some(false),
        _ => None,
    }
}

/// A number printed the way JavaScript's `String(n)` prints it for ordinary
/// values: integers without a fraction, other values in shortest form.
pub fn js_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_format_like_javascript() {
        assert_eq!(js_number(5.0), "5");
        assert_eq!(js_number(0.5), "0.5");
        assert_eq!(js_number(-3.0), "-3");
    }

    #[test]
    fn reads_lenient_arguments() {
        let args = json!({"a": "x", "n": "12", "b": true, "z": null});
        assert_eq!(required_str(&args, "a").unwrap(), "x");
        assert!(required_str(&args, "missing").is_err());
        assert_eq!(optional_number(&args, "n"), Some(12.0));
        assert_eq!(optional_bool(&args, "b"), Some(true));
        assert_eq!(optional_str(&args, "z"), None);
    }
}
