//! JSON built from borrowed parts: a request body that points into the conversation
//! instead of copying it into a `serde_json::Value` tree. It serialises exactly as the
//! `Value` with the same entries in the same order would.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use crate::ai::json_text::{write_str, write_str_contents, write_value};

/// One JSON value whose strings and sub-values may be borrowed.
#[derive(Debug, Clone)]
pub enum WireJson<'a> {
    /// `null`.
    Null,
    /// A string, borrowed or owned.
    Str(Cow<'a, str>),
    /// An image as a `data:` URL, written without building the URL first.
    DataUrl {
        /// The image's media type.
        mime_type: &'a str,
        /// The base64 data.
        data: &'a str,
    },
    /// A JSON value, borrowed.
    Json(&'a Value),
    /// A JSON value, owned.
    OwnedJson(Value),
    /// An array.
    Array(Vec<WireJson<'a>>),
    /// An object.
    Object(WireObject<'a>),
    /// JSON text written as it is: one value, or in an array several values separated
    /// by commas (entries serialised earlier). Only [`WireJson::write_to`] writes it
    /// unread; serde reads it back first.
    Raw(&'a [u8]),
}

impl<'a> WireJson<'a> {
    /// A borrowed string.
    pub fn str(text: &'a str) -> Self {
        WireJson::Str(Cow::Borrowed(text))
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            WireJson::Str(s) => Some(s),
            WireJson::Json(Value::String(s)) => Some(s),
            WireJson::OwnedJson(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    /// The object, when this is one.
    pub fn as_object_mut(&mut self) -> Option<&mut WireObject<'a>> {
        match self {
            WireJson::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Append this value's JSON (compact, as `serde_json::to_vec` writes it) to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        match self {
            WireJson::Array(items) => {
                out.push(b'[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push(b',');
                    }
                    item.write_to(out);
                }
                out.push(b']');
            }
            WireJson::Object(object) => {
                out.push(b'{');
                for (n, (key, value)) in object.entries.iter().enumerate() {
                    if n > 0 {
                        out.push(b',');
                    }
                    write_str(out, key);
                    out.push(b':');
                    value.write_to(out);
                }
                out.push(b'}');
            }
            WireJson::Raw(bytes) => out.extend_from_slice(bytes),
            WireJson::Null => out.extend_from_slice(b"null"),
            WireJson::Str(text) => write_str(out, text),
            WireJson::DataUrl { mime_type, data } => {
                out.extend_from_slice(b"\"data:");
                write_str_contents(out, mime_type);
                out.extend_from_slice(b";base64,");
                write_str_contents(out, data);
                out.push(b'"');
            }
            WireJson::Json(value) => write_value(out, value),
            WireJson::OwnedJson(value) => write_value(out, value),
        }
    }

    /// This value as a `serde_json::Value` (an owned copy).
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A JSON object: entries in insertion order; setting a key again replaces its value
/// in place, as `serde_json::Map` with `preserve_order` does.
#[derive(Debug, Clone, Default)]
pub struct WireObject<'a> {
    entries: Vec<(Cow<'a, str>, WireJson<'a>)>,
}

impl<'a> WireObject<'a> {
    /// An empty object.
    pub fn new() -> Self {
        WireObject::default()
    }

    /// An object of `entries`, in order (each key once).
    pub fn from_entries(entries: impl IntoIterator<Item = (&'a str, WireJson<'a>)>) -> Self {
        WireObject {
            entries: entries
                .into_iter()
                .map(|(k, v)| (Cow::Borrowed(k), v))
                .collect(),
        }
    }

    /// Set `key` to `value`: replaced in place when present, else added last.
    pub fn insert(&mut self, key: impl Into<Cow<'a, str>>, value: WireJson<'a>) {
        let key = key.into();
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.entries.push((key, value)),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&WireJson<'a>> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key`, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut WireJson<'a>> {
        self.entries
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// Whether `key` is set.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

impl Serialize for WireJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            WireJson::Null => serializer.serialize_unit(),
            WireJson::Str(s) => serializer.serialize_str(s),
            WireJson::DataUrl { mime_type, data } => {
                serializer.collect_str(&format_args!("data:{mime_type};base64,{data}"))
            }
            WireJson::Json(v) => v.serialize(serializer),
            WireJson::OwnedJson(v) => v.serialize(serializer),
            WireJson::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            WireJson::Object(o) => o.serialize(serializer),
            WireJson::Raw(bytes) => {
                let wrapped = [b"[".as_slice(), bytes, b"]"].concat();
                let values: Vec<Value> =
                    serde_json::from_slice(&wrapped).map_err(serde::ser::Error::custom)?;
                match values.as_slice() {
                    [one] => one.serialize(serializer),
                    _ => Err(serde::ser::Error::custom("raw JSON of several values")),
                }
            }
        }
    }
}

impl Serialize for WireObject<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k.as_ref(), v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn serialises_as_the_equal_value_does() {
        let args = json!({"path": "a\"b", "n": [1, 2.5, null]});
        let mut object = WireObject::new();
        object.insert("role", WireJson::str("user"));
        object.insert("content", WireJson::Null);
        object.insert("args", WireJson::Json(&args));
        object.insert(
            "image",
            WireJson::DataUrl {
                mime_type: "image/png",
                data: "QUJD",
            },
        );
        object.insert("content", WireJson::Str("über\n\u{1}".to_string().into()));
        let wire = WireJson::Object(object);
        let expected = json!({
            "role": "user",
            "content": "über\n\u{1}",
            "args": {"path": "a\"b", "n": [1, 2.5, null]},
            "image": "data:image/png;base64,QUJD",
        });
        assert_eq!(wire.to_value(), expected);
        assert_eq!(
            serde_json::to_string(&wire).unwrap(),
            serde_json::to_string(&expected).unwrap()
        );
        let keys: Vec<&str> = match &wire {
            WireJson::Object(o) => o.entries.iter().map(|(k, _)| k.as_ref()).collect(),
            _ => unreachable!(),
        };
        assert_eq!(keys, ["role", "content", "args", "image"]);
        let mut written = Vec::new();
        wire.write_to(&mut written);
        assert_eq!(written, serde_json::to_vec(&expected).unwrap());
    }

    #[test]
    fn raw_entries_are_written_as_they_are() {
        let wire = WireJson::Array(vec![WireJson::Raw(br#"{"a":1},"b""#), WireJson::str("c")]);
        let mut written = Vec::new();
        wire.write_to(&mut written);
        assert_eq!(written, br#"[{"a":1},"b","c"]"#);
        let single = WireJson::Raw(br#"{"a":[1,2]}"#);
        assert_eq!(single.to_value(), json!({"a": [1, 2]}));
    }
}
