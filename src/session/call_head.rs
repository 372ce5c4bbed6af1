//! A tool call read for its head: its id, its name and the label `/tree`
//! shows for its result, the arguments read once as the label needs them. Of
//! a built-in tool's arguments only the fields its label shows are built; the
//! rest (an edit's or a write's text) is checked as [`serde_json::Value`]
//! reads it and dropped. A call whose name comes after its arguments, or with
//! a key given twice, is left to the full reading.

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::call_label::{call_label, home, is_known_tool, known_label};
use super::head_json::{Any, Name, Str};
use crate::ai::tagged::Text;

/// A `toolCall` block's head (its `type` already read).
pub(super) struct CallHead<'a> {
    /// The call's id.
    pub(super) id: Name<'a>,
    /// The label of the call's result.
    pub(super) label: String,
}

impl<'de> de::Deserialize<'de> for CallHead<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(CallHeadVisitor)
    }
}

struct CallHeadVisitor;

impl<'de> Visitor<'de> for CallHeadVisitor {
    type Value = CallHead<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a tool call")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CallHead<'de>, A::Error> {
        let mut id: Option<Name<'de>> = None;
        let mut name: Option<Name<'de>> = None;
        let mut label: Option<String> = None;
        let mut signature = false;
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            match &*key {
                "id" if id.is_none() => id = Some(map.next_value()?),
                "name" if name.is_none() => name = Some(map.next_value()?),
                "arguments" if label.is_none() => {
                    let Some(tool) = &name else {
                        return Err(de::Error::custom("the arguments before the name"));
                    };
                    label = Some(map.next_value_seed(LabelSeed(&tool.0))?);
                }
                "thoughtSignature" if !signature => {
                    map.next_value::<Option<Str>>()?;
                    signature = true;
                }
                "id" | "name" | "arguments" | "thoughtSignature" => {
                    return Err(de::Error::custom("a key given twice"));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        match (id, name, label) {
            (Some(id), Some(_), Some(label)) => Ok(CallHead { id, label }),
            _ => Err(de::Error::custom(
                "a call without its id, name or arguments",
            )),
        }
    }
}

/// Reads the arguments of a call to the named tool into its result's label.
struct LabelSeed<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for LabelSeed<'_> {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        if is_known_tool(self.0) {
            let fields = deserializer.deserialize_any(FieldsVisitor)?;
            Ok(known_label(self.0, |key| fields.get(key), home()))
        } else {
            let args: Value = de::Deserialize::deserialize(deserializer)?;
            Ok(call_label(self.0, &args, home()))
        }
    }
}

/// The fields of a built-in tool's arguments that its label reads (a field
/// given as `null` is kept: it counts as given).
#[derive(Default)]
struct LabelFields([Option<Value>; FIELDS.len()]);

/// The fields a built-in tool's label reads.
const FIELDS: [&str; 6] = ["path", "file_path", "offset", "limit", "command", "pattern"];

impl LabelFields {
    fn get(&self, key: &str) -> Option<&Value> {
        let at = FIELDS.iter().position(|field| *field == key)?;
        self.0[at].as_ref()
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = LabelFields;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a tool call's arguments")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LabelFields, A::Error> {
        let mut fields = LabelFields::default();
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            match FIELDS.iter().position(|field| *field == key) {
                Some(at) if fields.0[at].is_none() => fields.0[at] = Some(map.next_value()?),
                Some(_) => return Err(de::Error::custom("a field given twice")),
                None => {
                    map.next_value::<Any>()?;
                }
            }
        }
        Ok(fields)
    }

    // Arguments that are not an object have no fields.
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<LabelFields, S::Error> {
        while seq.next_element::<Any>()?.is_some() {}
        Ok(LabelFields::default())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<LabelFields, E> {
        Ok(LabelFields::default())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<LabelFields, E> {
        Ok(LabelFields::default())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<LabelFields, E> {
        Ok(LabelFields::default())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<LabelFields, E> {
        Ok(LabelFields::default())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<LabelFields, E> {
        Ok(LabelFields::default())
    }

    fn visit_unit<E: de::Error>(self) -> Result<LabelFields, E> {
        Ok(LabelFields::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The label read in one pass, or `None` when the call is left to the full reading.
    fn label_of(name: &str, raw: &str) -> Option<String> {
        let mut de = serde_json::Deserializer::from_str(raw);
        let label = LabelSeed(name).deserialize(&mut de).ok()?;
        de.end().ok()?;
        Some(label)
    }

    #[test]
    fn labels_read_in_one_pass_are_the_labels_of_the_parsed_value() {
        let cases = [
            (
                "read",
                r#"{"path":"/a","offset":null,"limit":3,"x":[1,{"y":2}]}"#,
            ),
            ("read", r#"{"file_path":"b","offset":"7","limit":3}"#),
            ("write", r#"{"path":"w","content":"a long \"text\"\n"}"#),
            (
                "edit",
                r#"{"path":"","file_path":"e","edits":[{"oldText":"a"}]}"#,
            ),
            ("bash", r#"{"command":"ls\n-la","timeout":5}"#),
            ("bash", r#"["not","an","object"]"#),
            ("grep", r#"{"pattern":"fn","path":false}"#),
            ("find", r#"{"pattern":"*.rs"}"#),
            ("ls", "{}"),
            ("ls", "7"),
            (
                "todo",
                r#"{"items":["a","b"],"note":"\u00e9t\u00e9 long enough"}"#,
            ),
            ("todo", r#""just text""#),
        ];
        for (name, raw) in cases {
            let value: Value = serde_json::from_str(raw).unwrap();
            assert_eq!(
                label_of(name, raw),
                Some(call_label(name, &value, home())),
                "{name} {raw}"
            );
        }
    }

    #[test]
    fn calls_the_head_cannot_read_as_the_full_reading_does_are_left_to_it() {
        assert_eq!(label_of("read", r#"{"path":"a","path":"b"}"#), None);
        assert_eq!(label_of("read", r#"{"path":"a","n":1e999}"#), None);
        let call = |json: &str| serde_json::from_str::<CallHead>(json).map(|c| c.label);
        assert_eq!(
            call(r#"{"id":"c","name":"ls","arguments":{"path":"d"},"extra":1}"#).unwrap(),
            "[ls: d]"
        );
        assert!(call(r#"{"id":"c","arguments":{},"name":"ls"}"#).is_err());
        assert!(call(r#"{"id":"c","name":"ls","name":"ls","arguments":{}}"#).is_err());
        assert!(call(r#"{"id":"c","name":"ls"}"#).is_err());
    }
}
