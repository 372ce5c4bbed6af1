//! JSON read in place for an entry's head: strings borrowed, cut to their first
//! words, or only checked, any value checked as [`serde_json::Value`] would
//! read it, and objects tagged by their first key. Nothing is kept that the
//! head does not need.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::preview::one_line;
use crate::ai::tagged::Text;

/// An object tagged by its first key, read by the tag's value.
pub(super) trait ReadTagged<'de>: Sized {
    /// The tag's key.
    const TAG: &'static str;

    /// The object tagged `name`, its other keys read from `rest`.
    fn read<D: Deserializer<'de>>(name: &str, rest: D) -> Result<Self, D::Error>;
}

pub(super) struct TaggedVisitor<T>(pub(super) PhantomData<T>);

impl<'de, T: ReadTagged<'de>> Visitor<'de> for TaggedVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "an object whose first key is `{}`", T::TAG)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        match map.next_key::<Text<'de>>()? {
            Some(Text(first)) if first == T::TAG => {}
            _ => return Err(de::Error::custom("the tag is not the first key")),
        }
        let Text(name) = map.next_value()?;
        T::read(&name, MapAccessDeserializer::new(map))
    }
}

/// A string borrowed from the line when it needs no unescaping.
pub(super) struct Name<'a>(pub(super) Cow<'a, str>);

struct NameVisitor;

impl<'de> Visitor<'de> for NameVisitor {
    type Value = Name<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Name<'de>, E> {
        Ok(Name(Cow::Borrowed(text)))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Name<'de>, E> {
        Ok(Name(Cow::Owned(text.to_owned())))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Name<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(NameVisitor)
    }
}

/// The first words of a string on one line.
pub(super) struct OneLine(pub(super) String);

struct OneLineVisitor;

impl Visitor<'_> for OneLineVisitor {
    type Value = OneLine;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<OneLine, E> {
        Ok(OneLine(one_line(text)))
    }
}

impl<'de> Deserialize<'de> for OneLine {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(OneLineVisitor)
    }
}

/// A string, checked and dropped.
#[derive(Default)]
pub(super) struct Str;

struct StrVisitor;

impl Visitor<'_> for StrVisitor {
    type Value = Str;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Str, E> {
        Ok(Str)
    }
}

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(StrVisitor)
    }
}

/// Any JSON value, read as [`serde_json::Value`] would read it (numbers in
/// range included) and dropped.
#[derive(Default)]
pub(super) struct Any;

struct AnyVisitor;

impl<'de> Visitor<'de> for AnyVisitor {
    type Value = Any;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Any, E> {
        Ok(Any)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Any, E> {
        Ok(Any)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Any, E> {
        Ok(Any)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Any, E> {
        Ok(Any)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Any, E> {
        Ok(Any)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Any, E> {
        Ok(Any)
    }

    fn visit_none<E: de::Error>(self) -> Result<Any, E> {
        Ok(Any)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Any, D::Error> {
        Any::deserialize(deserializer)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Any, S::Error> {
        while seq.next_element::<Any>()?.is_some() {}
        Ok(Any)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Any, A::Error> {
        while map.next_key::<Str>()?.is_some() {
            map.next_value::<Any>()?;
        }
        Ok(Any)
    }
}

impl<'de> Deserialize<'de> for Any {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(AnyVisitor)
    }
}
