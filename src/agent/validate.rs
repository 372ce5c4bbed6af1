//! Tool-argument validation against the tool's JSON Schema, with light coercion
//! of primitive values (models sometimes send `"10"` for a number).

use serde_json::{Map, Value};

use super::arguments_error::{ArgumentsError, SchemaError};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

type Compiled = Result<Arc<jsonschema::Validator>, SchemaError>;

/// The JSON Schema dialect a tool's argument schema is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SchemaDialect {
    /// The dialect the schema's `$schema` names, else 2020-12: any schema an
    /// extension or SDK user writes.
    #[default]
    Declared,
    /// Draft-07, for pi's own tools: their schemas use only keywords that mean
    /// the same in draft-07 and 2020-12 (a test holds them to it), and the older
    /// dialect has fewer vocabularies to set up when a schema is compiled.
    Draft7,
}

/// One schema's compiled validator, and whether a background compile was
/// already asked for (so a second request does not start another thread).
#[derive(Default)]
struct Slot {
    compiled: OnceLock<Compiled>,
    claimed: AtomicBool,
}

/// Compiled validators by dialect and schema text: compiling a schema costs
/// far more than checking arguments against it, and a tool's schema rarely
/// changes. A compile in progress is waited for, not repeated.
fn compiled(schema: &Value, dialect: SchemaDialect) -> Compiled {
    compile_into(&slot(schema, dialect), schema, dialect)
}

fn slot(schema: &Value, dialect: SchemaDialect) -> Arc<Slot> {
    type Cache = HashMap<(SchemaDialect, String), Arc<Slot>>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry((dialect, schema.to_string()))
        .or_default()
        .clone()
}

fn compile_into(slot: &Slot, schema: &Value, dialect: SchemaDialect) -> Compiled {
    slot.compiled
        .get_or_init(|| {
            let compiled = match dialect {
                SchemaDialect::Declared => jsonschema::validator_for(schema),
                SchemaDialect::Draft7 => jsonschema::options()
                    .with_draft(jsonschema::Draft::Draft7)
                    .build(schema),
            };
            compiled.map(Arc::new).map_err(|e| SchemaError {
                detail: e.to_string(),
            })
        })
        .clone()
}

/// Compile an extension's `schema` now, keeping the validator for the tool's
/// calls; the compiler's message when it is not a usable schema.
pub fn compile_schema(schema: &Value) -> Result<(), SchemaError> {
    compiled(schema, SchemaDialect::Declared).map(|_| ())
}

/// Start compiling `schema` on another thread (unless it is compiled or being
/// compiled), so that the tool call whose arguments are still streaming is
/// checked without waiting for the compile.
pub fn prepare_in_background(schema: Value, dialect: SchemaDialect) {
    let slot = slot(&schema, dialect);
    if slot.claimed.swap(true, Ordering::AcqRel) {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("schema-compile".into())
        .spawn(move || compile_into(&slot, &schema, dialect));
}

/// Validate (and coerce) `args` for `tool_name` against `schema`, read in
/// `dialect`. Returns the arguments to run with, or pi's validation error text.
pub fn validate_tool_arguments(
    tool_name: &str,
    schema: &Value,
    dialect: SchemaDialect,
    args: &Value,
) -> Result<Value, ArgumentsError> {
    let coerced = coerce(args.clone(), schema);
    let validator = compiled(schema, dialect).map_err(|e| ArgumentsError::InvalidSchema {
        tool: tool_name.to_string(),
        detail: e.detail,
    })?;
    let errors: Vec<(String, String)> = validator
        .iter_errors(&coerced)
        .map(|e| {
            let path = e.instance_path().to_string();
            let path = path.trim_start_matches('/').replace('/', ".");
            let path = missing_property(&e.to_string(), &path).unwrap_or(path);
            let path = if path.is_empty() {
                "root".to_string()
            } else {
                path
            };
            (path, e.to_string())
        })
        .collect();
    if errors.is_empty() {
        return Ok(coerced);
    }
    let received = serde_json::to_string_pretty(args).unwrap_or_default();
    Err(ArgumentsError::Invalid {
        tool: tool_name.to_string(),
        problems: errors,
        received,
    })
}

/// [`validate_tool_arguments`] for a call whose arguments text was not a JSON
/// object (`raw`): that is the error, quoting what the model sent.
pub fn validate_call_arguments(
    tool_name: &str,
    schema: &Value,
    dialect: SchemaDialect,
    args: &Value,
    raw: Option<&str>,
) -> Result<Value, ArgumentsError> {
    match raw {
        Some(raw) => {
            let what = match serde_json::from_str::<Value>(raw) {
                Ok(Value::Array(_)) => "a JSON array",
                Ok(Value::String(_)) => "a JSON string",
                Ok(Value::Number(_)) => "a JSON number",
                Ok(Value::Bool(_)) => "true or false",
                Ok(Value::Null) => "null",
                _ => "text that is not JSON",
            };
            Err(ArgumentsError::NotAnObject {
                tool: tool_name.to_string(),
                found: what,
                received: raw.to_string(),
            })
        }
        None => validate_tool_arguments(tool_name, schema, dialect, args),
    }
}

/// For "required" errors, name the missing property in the path as pi does.
fn missing_property(message: &str, base: &str) -> Option<String> {
    let name = message.strip_suffix(" is a required property")?;
    let name = name.trim_matches('"');
    Some(if base.is_empty() {
        name.to_string()
    } else {
        format!("{base}.{name}")
    })
}

fn schema_types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Convert strings to numbers/booleans where the schema asks for them, recursively.
fn coerce(value: Value, schema: &Value) -> Value {
    let types = schema_types(schema);
    match value {
        Value::String(s) if !types.contains(&"string") => {
            let t = s.trim();
            if (types.contains(&"integer") || types.contains(&"number"))
                && let Ok(n) = t.parse::<i64>()
            {
                return Value::from(n);
            }
            if types.contains(&"number")
                && let Ok(n) = t.parse::<f64>()
                && n.is_finite()
            {
                return serde_json::Number::from_f64(n)
                    .map(Value::Number)
                    .unwrap_or(Value::String(s));
            }
            if types.contains(&"boolean") {
                match t {
                    "true" => return Value::Bool(true),
                    "false" => return Value::Bool(false),
                    _ => {}
                }
            }
            Value::String(s)
        }
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let out: Map<String, Value> = map
                .into_iter()
                .map(|(k, v)| {
                    let v = match props.and_then(|p| p.get(&k)) {
                        Some(sub) => coerce(v, sub),
                        None => v,
                    };
                    (k, v)
                })
                .collect();
            Value::Object(out)
        }
        Value::Array(items) => match schema.get("items") {
            Some(item_schema) => {
                Value::Array(items.into_iter().map(|v| coerce(v, item_schema)).collect())
            }
            None => Value::Array(items),
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const D: SchemaDialect = SchemaDialect::Declared;

    fn schema() -> Value {
        json!({"type":"object","required":["path"],"properties":{
            "path":{"type":"string"},"limit":{"type":"number"}}})
    }

    #[test]
    fn accepts_and_coerces_numbers() {
        let v = validate_tool_arguments("read", &schema(), D, &json!({"path":"a","limit":"10"}))
            .unwrap();
        assert_eq!(v, json!({"path":"a","limit":10}));
    }

    #[test]
    fn reports_missing_and_wrong_types() {
        let e = validate_tool_arguments("read", &schema(), D, &json!({"limit":"x"}))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("Validation failed for tool \"read\":"), "{e}");
        assert!(e.contains("  - path:"), "{e}");
        assert!(e.contains("  - limit:"), "{e}");
        assert!(
            e.contains("Received arguments:\n{\n  \"limit\": \"x\"\n}"),
            "{e}"
        );
    }

    #[test]
    fn a_changed_schema_is_checked_as_changed() {
        let args = json!({"path": "a"});
        assert!(validate_tool_arguments("read", &schema(), D, &args).is_ok());
        let stricter = json!({"type":"object","required":["path","mode"],"properties":{
            "path":{"type":"string"},"mode":{"type":"string"}}});
        let e = validate_tool_arguments("read", &stricter, D, &args)
            .unwrap_err()
            .to_string();
        assert!(e.contains("  - mode:"), "{e}");
        assert!(validate_tool_arguments("read", &schema(), D, &args).is_ok());
    }

    #[test]
    fn a_schema_prepared_in_the_background_checks_the_same() {
        let schema = json!({"type":"object","required":["pattern"],"properties":{
            "pattern":{"type":"string"}}});
        prepare_in_background(schema.clone(), D);
        let e = validate_tool_arguments("grep", &schema, D, &json!({}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("  - pattern:"), "{e}");
        let ok = validate_tool_arguments("grep", &schema, D, &json!({"pattern": "x"})).unwrap();
        assert_eq!(ok, json!({"pattern": "x"}));
    }

    #[test]
    fn a_schema_prepared_twice_is_compiled_once() {
        let schema = json!({"type":"object","properties":{"warm_a":{"type":"string"}}});
        prepare_in_background(schema.clone(), D);
        let slot = slot(&schema, D);
        assert!(slot.claimed.load(Ordering::Acquire));
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while slot.compiled.get().is_none() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let first = slot
            .compiled
            .get()
            .expect("compiled in the background")
            .clone();
        // Asking again neither recompiles nor starts another thread: the validator is the same.
        prepare_in_background(schema.clone(), D);
        let again = compiled(&schema, D).unwrap();
        assert!(Arc::ptr_eq(&first.unwrap(), &again));
        let e = validate_tool_arguments("t", &schema, D, &json!({"warm_a": 1}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("  - warm_a:"), "{e}");
    }
}
