//! Reading tool arguments and shared small helpers (abort errors, number
//! formatting as the original prints numbers).

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::agent::tool::ToolError;

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
