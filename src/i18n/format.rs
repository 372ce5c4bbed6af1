//! `{name}` placeholder substitution and the argument type `t()` takes.

use std::borrow::Cow;
use std::fmt::Write;

/// A value for a `{name}` placeholder.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg<'a> {
    /// Text, inserted as is.
    Str(Cow<'a, str>),
    /// A whole number; also selects the plural form when named `count`.
    Int(i64),
    /// A decimal number.
    Float(f64),
}

impl Arg<'_> {
    /// The number this argument holds, for plural selection.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Arg::Int(n) => Some(*n as f64),
            Arg::Float(n) => Some(*n),
            Arg::Str(s) => s.trim().parse().ok(),
        }
    }

    fn write_to(&self, out: &mut String) {
        match self {
            Arg::Str(s) => out.push_str(s),
            Arg::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Arg::Float(n) => {
                let _ = write!(out, "{n}");
            }
        }
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(value: &'a str) -> Self {
        Arg::Str(Cow::Borrowed(value))
    }
}
impl<'a> From<&'a String> for Arg<'a> {
    fn from(value: &'a String) -> Self {
        Arg::Str(Cow::Borrowed(value.as_str()))
    }
}
impl From<String> for Arg<'_> {
    fn from(value: String) -> Self {
        Arg::Str(Cow::Owned(value))
    }
}
macro_rules! int_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(value: $t) -> Self {
                Arg::Int(value as i64)
            }
        }
    )*};
}
int_arg!(i32, i64, u32, u64, usize, u16, u8);
impl From<f64> for Arg<'_> {
    fn from(value: f64) -> Self {
        Arg::Float(value)
    }
}

/// Named arguments for one `t()` call.
pub type Args<'a> = [(&'a str, Arg<'a>)];

/// Fill `{name}` placeholders of `template` from `args`. A placeholder without an argument
/// stays as written (`{name}`) and its name is passed to `on_missing`.
pub fn fill(template: &str, args: &Args<'_>, mut on_missing: impl FnMut(&str)) -> String {
    if !template.contains('{') {
        return template.to_string();
    }
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if is_name(&after[..close]) => {
                let name = &after[..close];
                match args.iter().find(|(n, _)| *n == name) {
                    Some((_, arg)) => arg.write_to(&mut out),
                    None => {
                        on_missing(name);
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_name(candidate: &str) -> bool {
    !candidate.is_empty()
        && candidate
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
}

/// The placeholder names used in `template`, sorted and without repeats.
pub fn placeholders(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    fill(template, &[], |name| names.push(name.to_string()));
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_named_placeholders() {
        let args = [("name", Arg::from("pi")), ("count", Arg::from(3usize))];
        assert_eq!(
            fill("{name} has {count} files", &args, |_| {}),
            "pi has 3 files"
        );
    }

    #[test]
    fn missing_placeholders_stay_and_are_reported() {
        let mut missing = Vec::new();
        let out = fill("hello {who}!", &[], |n| missing.push(n.to_string()));
        assert_eq!(out, "hello {who}!");
        assert_eq!(missing, ["who"]);
    }

    #[test]
    fn braces_that_are_not_placeholders_survive() {
        assert_eq!(fill("a { b } {} {", &[], |_| {}), "a { b } {} {");
        assert_eq!(fill("json: {\"k\": 1}", &[], |_| {}), "json: {\"k\": 1}");
    }

    #[test]
    fn lists_placeholders() {
        assert_eq!(placeholders("{b} {a} {b}"), ["a", "b"]);
    }
}
