//! Key ids: the `ctrl+shift+p` text that names a key with its modifiers, as bindings,
//! extensions and [`super::parse_key`] spell it.

/// Shift, as the terminal protocols number it (the modifier field is this mask plus one).
pub const SHIFT: u8 = 1;
/// Alt (Option, Meta).
pub const ALT: u8 = 2;
/// Ctrl.
pub const CTRL: u8 = 4;
/// Super (Cmd, Windows).
pub const SUPER: u8 = 8;
/// Caps Lock and Num Lock, ignored when keys are compared.
pub const LOCKS: u8 = 64 | 128;

/// One key with its modifiers: `name` is `enter`, `pageUp`, `f5`, `c`, `/`, … (letters
/// lower-case), `modifiers` a mask of [`SHIFT`], [`ALT`], [`CTRL`] and [`SUPER`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyId {
    /// The key's name.
    pub name: String,
    /// The modifiers held.
    pub modifiers: u8,
}

/// Named keys, as they are spelled in a key id.
const NAMED: &[&str] = &[
    "escape",
    "enter",
    "tab",
    "space",
    "backspace",
    "delete",
    "insert",
    "clear",
    "home",
    "end",
    "pageUp",
    "pageDown",
    "up",
    "down",
    "left",
    "right",
];

/// Symbol keys a key id may name.
pub const SYMBOLS: &str = "`-=[]\\;',./!@#$%^&*()_+|~{}:<>?";

impl KeyId {
    /// A key with modifiers.
    pub fn new(name: &str, modifiers: u8) -> KeyId {
        KeyId {
            name: name.to_string(),
            modifiers,
        }
    }

    /// Read `ctrl+shift+p`-style text (case does not matter; `esc` and `return` are
    /// other names for `escape` and `enter`). `None` for an unknown key or modifier.
    pub fn parse(spec: &str) -> Option<KeyId> {
        let spec = spec.trim().to_lowercase();
        let (mods, key) = match spec.strip_suffix("++") {
            Some(mods) => (mods, "+"),
            None if spec == "+" => ("", "+"),
            None => match spec.rsplit_once('+') {
                Some((mods, key)) => (mods, key),
                None => ("", spec.as_str()),
            },
        };
        let mut modifiers = 0;
        for m in mods.split('+').filter(|m| !m.is_empty()) {
            modifiers |= match m {
                "shift" => SHIFT,
                "alt" => ALT,
                "ctrl" => CTRL,
                "super" => SUPER,
                _ => return None,
            };
        }
        let name = match key {
            "esc" => "escape".to_string(),
            "return" => "enter".to_string(),
            "pageup" => "pageUp".to_string(),
            "pagedown" => "pageDown".to_string(),
            k if NAMED.contains(&k) => k.to_string(),
            k if is_function_key(k) => k.to_string(),
            k if k.chars().count() == 1 => k.to_string(),
            _ => return None,
        };
        Some(KeyId { name, modifiers })
    }

    /// The id as text, modifiers first in the order shift, ctrl, alt, super.
    pub fn display(&self) -> String {
        let mut parts = Vec::new();
        for (bit, word) in [
            (SHIFT, "shift"),
            (CTRL, "ctrl"),
            (ALT, "alt"),
            (SUPER, "super"),
        ] {
            if self.modifiers & bit != 0 {
                parts.push(word);
            }
        }
        parts.push(&self.name);
        parts.join("+")
    }
}

/// `f1` … `f12`.
pub fn is_function_key(name: &str) -> bool {
    name.strip_prefix('f')
        .and_then(|n| n.parse::<u8>().ok())
        .is_some_and(|n| (1..=12).contains(&n))
}

/// The name of a key reported by code point in the keyboard protocols: the named keys
/// with a code point, digits, lower-case Latin letters and [`SYMBOLS`].
pub fn name_of_codepoint(code: u32) -> Option<String> {
    let name = match code {
        27 => "escape",
        9 => "tab",
        13 | KEYPAD_ENTER => "enter",
        32 => "space",
        127 => "backspace",
        _ => {
            let c = char::from_u32(code)?;
            return (c.is_ascii_digit() || c.is_ascii_lowercase() || SYMBOLS.contains(c))
                .then(|| c.to_string());
        }
    };
    Some(name.to_string())
}

/// The Kitty protocol's code point of the keypad's Enter.
pub const KEYPAD_ENTER: u32 = 57414;

/// A Latin letter, digit or symbol: a key whose code point names it on any layout.
pub fn is_layout_independent(code: u32) -> bool {
    char::from_u32(code)
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || SYMBOLS.contains(c))
}
