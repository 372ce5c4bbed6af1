//! Reading internally tagged enums (`{"role": "user", …}`, `{"type": "text", …}`) without
//! buffering: when the tag is the object's first key, as pi and the original write it,
//! the rest of the object is read straight into the variant's struct. Otherwise the
//! object is gathered first and read by its tag, as a derived implementation would.

/// Implement `Deserialize` for an enum whose variants each wrap one struct, tagged by
/// the field `$tag`; each variant lists the tag values it accepts.
macro_rules! deserialize_tagged {
    ($enum:ident, $tag:literal, $expecting:literal, { $($($name:literal)|+ => $variant:ident($inner:ty),)+ }) => {
        impl<'de> serde::Deserialize<'de> for $enum {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct TaggedVisitor;
                impl<'de> serde::de::Visitor<'de> for TaggedVisitor {
                    type Value = $enum;

                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str($expecting)
                    }

                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$enum, A::Error> {
                        use serde::de::Error as _;
                        const NAMES: &[&str] = &[$($($name),+),+];
                        let Some($crate::ai::tagged::Text(first)) =
                            map.next_key::<$crate::ai::tagged::Text<'de>>()?
                        else {
                            return Err(A::Error::missing_field($tag));
                        };
                        if first == $tag {
                            let $crate::ai::tagged::Text(name) = map.next_value()?;
                            let rest = serde::de::value::MapAccessDeserializer::new(map);
                            return match &*name {
                                $($($name)|+ => <$inner as serde::Deserialize>::deserialize(rest)
                                    .map($enum::$variant),)+
                                other => Err(A::Error::unknown_variant(other, NAMES)),
                            };
                        }
                        let mut object = serde_json::Map::new();
                        object.insert(first.into_owned(), map.next_value()?);
                        while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
                            object.insert(key, value);
                        }
                        let name = match object.remove($tag) {
                            Some(serde_json::Value::String(name)) => name,
                            Some(_) => return Err(A::Error::custom(concat!("`", $tag, "` is not a string"))),
                            None => return Err(A::Error::missing_field($tag)),
                        };
                        let rest = serde_json::Value::Object(object);
                        match name.as_str() {
                            $($($name)|+ => serde_json::from_value::<$inner>(rest)
                                .map($enum::$variant)
                                .map_err(A::Error::custom),)+
                            other => Err(A::Error::unknown_variant(other, NAMES)),
                        }
                    }
                }
                deserializer.deserialize_map(TaggedVisitor)
            }
        }
    };
}

pub(crate) use deserialize_tagged;

/// A key or tag read from JSON: borrowed from the input when it needs no unescaping,
/// so reading a tag allocates nothing.
pub struct Text<'de>(pub std::borrow::Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Text<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> serde::de::Visitor<'de> for TextVisitor {
            type Value = Text<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(std::borrow::Cow::Borrowed(text)))
            }

            fn visit_str<E>(self, text: &str) -> Result<Text<'de>, E> {
                Ok(Text(std::borrow::Cow::Owned(text.to_owned())))
            }

            fn visit_string<E>(self, text: String) -> Result<Text<'de>, E> {
                Ok(Text(std::borrow::Cow::Owned(text)))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

#[cfg(test)]
mod tests {
    use crate::ai::types::{ContentBlock, Message};
    use serde_json::json;

    #[test]
    fn the_tag_first_or_last_reads_the_same() {
        let first: Message = serde_json::from_str(
            r#"{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}"#,
        )
        .unwrap();
        let last: Message = serde_json::from_str(
            r#"{"content":[{"text":"hi","type":"text"}],"timestamp":1,"role":"user"}"#,
        )
        .unwrap();
        assert_eq!(first, last);
        assert_eq!(first.role(), "user");
        let from_value: Message = serde_json::from_value(json!({
            "timestamp": 1, "role": "user", "content": [{"type": "text", "text": "hi"}]
        }))
        .unwrap();
        assert_eq!(from_value, first);
    }

    #[test]
    fn aliases_unknown_tags_and_missing_tags() {
        let custom: Message = serde_json::from_value(json!({
            "role": "hookMessage", "customType": "x", "content": "c", "display": true, "timestamp": 1
        }))
        .unwrap();
        assert_eq!(custom.role(), "custom");
        let unknown = serde_json::from_str::<Message>(r#"{"role":"robot"}"#).unwrap_err();
        assert!(unknown.to_string().contains("robot"), "{unknown}");
        let missing = serde_json::from_str::<ContentBlock>(r#"{"text":"x"}"#).unwrap_err();
        assert!(missing.to_string().contains("type"), "{missing}");
        let wrong = serde_json::from_str::<ContentBlock>(r#"{"text":"x","type":3}"#).unwrap_err();
        assert!(wrong.to_string().contains("type"), "{wrong}");
    }

    #[test]
    fn tags_are_borrowed_unless_they_are_escaped() {
        use super::Text;
        use std::borrow::Cow;
        let plain: Text = serde_json::from_str(r#""user""#).unwrap();
        assert!(matches!(plain.0, Cow::Borrowed("user")));
        let escaped: Text = serde_json::from_str(r#""us\u0065r""#).unwrap();
        assert!(matches!(&escaped.0, Cow::Owned(text) if text == "user"));
        let tag_escaped: Message =
            serde_json::from_str(r#"{"role":"\u0075ser","content":"hi","timestamp":1}"#).unwrap();
        assert_eq!(tag_escaped.role(), "user");
        let key_escaped: Message =
            serde_json::from_str(r#"{"\u0072ole":"user","content":"hi","timestamp":1}"#).unwrap();
        assert_eq!(key_escaped, tag_escaped);
        assert!(serde_json::from_str::<Message>(r#"{"role":3}"#).is_err());
    }

    #[test]
    fn a_message_round_trips_through_its_serialised_form() {
        let block = ContentBlock::text("hello");
        let text = serde_json::to_string(&block).unwrap();
        assert!(text.starts_with(r#"{"type":"text""#), "{text}");
        assert_eq!(serde_json::from_str::<ContentBlock>(&text).unwrap(), block);
    }
}
