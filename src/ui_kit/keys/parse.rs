//! One input sequence (as [`super::StdinBuffer`] hands it out) to the key it stands for:
//! the legacy forms of xterm, rxvt and the Linux console (control bytes, `ESC key` for Alt,
//! SS3, `CSI … ~`, `CSI 1 ; mod X`), xterm's modifyOtherKeys (`CSI 27 ; mod ; code ~`) and
//! the Kitty keyboard protocol (`CSI code : shifted : base ; mod : event u`, with
//! press/repeat/release and the base-layout key of non-Latin layouts).

use super::key_id::{
    ALT, CTRL, KEYPAD_ENTER, KeyId, LOCKS, SHIFT, SUPER, is_layout_independent, name_of_codepoint,
};

/// What decoding depends on besides the bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecodeContext {
    /// The Kitty keyboard protocol is on: Alt comes as CSI-u, never as `ESC key`, and a
    /// plain line feed is the terminal's Shift+Enter.
    pub kitty_active: bool,
    /// Windows Terminal, which sends Ctrl+Backspace as the raw 0x08 byte.
    pub windows_terminal: bool,
}

impl DecodeContext {
    /// The context of this process's terminal (`WT_SESSION` outside SSH is Windows Terminal).
    pub fn from_environment(kitty_active: bool) -> DecodeContext {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        DecodeContext {
            kitty_active,
            windows_terminal: set("WT_SESSION")
                && !set("SSH_CONNECTION")
                && !set("SSH_CLIENT")
                && !set("SSH_TTY"),
        }
    }
}

/// Press, auto-repeat or release (the last two only with the Kitty protocol's flag 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum KeyEventType {
    /// The key went down.
    #[default]
    Press,
    /// The key is held.
    Repeat,
    /// The key went up.
    Release,
}

/// A decoded key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecodedKey {
    /// The key with its modifiers; `None` for a character that has no key id (a Cyrillic
    /// letter typed without modifiers), or modifiers no key id names.
    pub id: Option<KeyId>,
    /// The character the key types, when it types one (no Ctrl, Alt or Super held).
    pub text: Option<char>,
    /// Press, repeat or release.
    pub kind: KeyEventType,
    /// Other keys that send the same bytes (0x08 is also Ctrl+H; 0x1f is Ctrl+- and Ctrl+_).
    pub also: Vec<KeyId>,
}

/// The key id `data` stands for (`ctrl+c`, `shift+enter`, `pageUp`), if any.
pub fn parse_key(data: &str, ctx: DecodeContext) -> Option<String> {
    decode(data, ctx)?.id.map(|id| id.display())
}

/// Whether `data` is the key `spec` names (`ctrl+c`, `shift+tab`, …).
pub fn matches_key(data: &str, spec: &str, ctx: DecodeContext) -> bool {
    let (Some(wanted), Some(key)) = (KeyId::parse(spec), decode(data, ctx)) else {
        return false;
    };
    key.id.as_ref() == Some(&wanted) || key.also.contains(&wanted)
}

/// Decode one input sequence.
pub fn decode(data: &str, ctx: DecodeContext) -> Option<DecodedKey> {
    if let Some(key) = decode_csi_u(data) {
        return Some(key);
    }
    if let Some(key) = decode_csi_modified(data) {
        return Some(key);
    }
    if let Some(key) = decode_modify_other_keys(data) {
        return Some(key);
    }
    decode_legacy(data, ctx)
}

/// A key from its code point and modifier mask, with the base-layout key used when the
/// code point is not one of the Latin letters, digits or symbols.
fn key_from_codepoint(
    code: u32,
    shifted: Option<u32>,
    base: Option<u32>,
    modifier: u32,
    kind: KeyEventType,
) -> DecodedKey {
    let effective_mod = modifier & !u32::from(LOCKS);
    let shift = effective_mod & u32::from(SHIFT) != 0;
    let named = keypad_name(code);
    let identity = match named {
        Some(_) => code,
        None if shift && (65..=90).contains(&code) => code + 32,
        None => code,
    };
    let name = named.map(str::to_string).or_else(|| {
        let code = keypad_char(identity).unwrap_or(identity);
        let effective = if is_layout_independent(code) {
            code
        } else {
            base.unwrap_or(code)
        };
        name_of_codepoint(effective)
    });
    let supported = effective_mod & !u32::from(SHIFT | ALT | CTRL | SUPER) == 0;
    let id = match (name, supported) {
        (Some(name), true) => Some(KeyId {
            name,
            modifiers: effective_mod as u8,
        }),
        _ => None,
    };
    let text = (effective_mod & !u32::from(SHIFT) == 0)
        .then(|| {
            let typed = match shifted {
                Some(s) if shift => s,
                _ => keypad_char(code).unwrap_or(code),
            };
            let c = char::from_u32(typed)?;
            let c = if shift && shifted.is_none() && c.is_ascii_lowercase() {
                c.to_ascii_uppercase()
            } else {
                c
            };
            (!c.is_control() && !is_private_use(c)).then_some(c)
        })
        .flatten();
    DecodedKey {
        id,
        text,
        kind,
        also: Vec::new(),
    }
}

/// The Kitty protocol sends functional keys (F13+, media, lone modifiers) as private-use
/// code points; they type nothing.
fn is_private_use(c: char) -> bool {
    ('\u{e000}'..='\u{f8ff}').contains(&c)
}

/// The keypad's digits and operators, as the Kitty protocol reports them, typed as the
/// main keyboard's.
fn keypad_char(code: u32) -> Option<u32> {
    let c = match code {
        57399..=57408 => u32::from(b'0') + (code - 57399),
        57409 => u32::from(b'.'),
        57410 => u32::from(b'/'),
        57411 => u32::from(b'*'),
        57412 => u32::from(b'-'),
        57413 => u32::from(b'+'),
        57415 => u32::from(b'='),
        57416 => u32::from(b','),
        _ => return None,
    };
    Some(c)
}

/// The keypad's navigation keys (and Enter), as the Kitty protocol reports them.
fn keypad_name(code: u32) -> Option<&'static str> {
    Some(match code {
        KEYPAD_ENTER => "enter",
        57417 => "left",
        57418 => "right",
        57419 => "up",
        57420 => "down",
        57421 => "pageUp",
        57422 => "pageDown",
        57423 => "home",
        57424 => "end",
        57425 => "insert",
        57426 => "delete",
        _ => return None,
    })
}

/// A decimal number, digits only.
fn number(text: &str) -> Option<u32> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

fn event_type(text: Option<&str>) -> Option<KeyEventType> {
    Some(match text {
        None => KeyEventType::Press,
        Some(t) => match number(t)? {
            2 => KeyEventType::Repeat,
            3 => KeyEventType::Release,
            _ => KeyEventType::Press,
        },
    })
}

/// `modifier[:event]` (the modifier field is the mask plus one).
fn modifier_field(text: Option<&str>) -> Option<(u32, KeyEventType)> {
    let Some(text) = text else {
        return Some((0, KeyEventType::Press));
    };
    let (mods, event) = match text.split_once(':') {
        Some((m, e)) => (m, Some(e)),
        None => (text, None),
    };
    Some((number(mods)?.saturating_sub(1), event_type(event)?))
}

/// Kitty's `CSI code[:shifted[:base]][;mod[:event]] u`.
fn decode_csi_u(data: &str) -> Option<DecodedKey> {
    let body = data.strip_prefix("\x1b[")?.strip_suffix('u')?;
    let (keys, mods) = match body.split_once(';') {
        Some((k, m)) => (k, Some(m)),
        None => (body, None),
    };
    let mut keys = keys.split(':');
    let code = number(keys.next()?)?;
    let shifted = match keys.next() {
        None | Some("") => None,
        Some(s) => Some(number(s)?),
    };
    let base = match keys.next() {
        None => None,
        Some(b) => Some(number(b)?),
    };
    if keys.next().is_some() {
        return None;
    }
    let (modifier, kind) = modifier_field(mods)?;
    Some(key_from_codepoint(code, shifted, base, modifier, kind))
}

/// `CSI 1 ; mod[:event] X` (arrows, Home/End, F1–F4) and `CSI num[;mod[:event]] ~`.
fn decode_csi_modified(data: &str) -> Option<DecodedKey> {
    let body = data.strip_prefix("\x1b[")?;
    let last = body.chars().last()?;
    let params = &body[..body.len() - 1];
    let (first, mods) = match params.split_once(';') {
        Some((f, m)) => (f, Some(m)),
        None => (params, None),
    };
    let name = if last == '~' {
        match number(first)? {
            1 | 7 => "home",
            2 => "insert",
            3 => "delete",
            4 | 8 => "end",
            5 => "pageUp",
            6 => "pageDown",
            n @ 11..=15 => FUNCTION_KEYS[(n - 11) as usize],
            n @ 17..=21 => FUNCTION_KEYS[(n - 12) as usize],
            n @ 23..=24 => FUNCTION_KEYS[(n - 13) as usize],
            _ => return None,
        }
    } else {
        // Only the modified form here; the plain ones are legacy sequences.
        if first != "1" || mods.is_none() {
            return None;
        }
        match last {
            'A' => "up",
            'B' => "down",
            'C' => "right",
            'D' => "left",
            'H' => "home",
            'F' => "end",
            'P' => "f1",
            'Q' => "f2",
            'R' => "f3",
            'S' => "f4",
            _ => return None,
        }
    };
    let (modifier, kind) = modifier_field(mods)?;
    let supported = modifier & !u32::from(LOCKS | SHIFT | ALT | CTRL | SUPER) == 0;
    Some(DecodedKey {
        id: supported.then(|| KeyId::new(name, (modifier & !u32::from(LOCKS)) as u8)),
        text: None,
        kind,
        also: Vec::new(),
    })
}

const FUNCTION_KEYS: [&str; 12] = [
    "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12",
];

/// xterm's modifyOtherKeys: `CSI 27 ; mod ; code ~`.
fn decode_modify_other_keys(data: &str) -> Option<DecodedKey> {
    let body = data.strip_prefix("\x1b[27;")?.strip_suffix('~')?;
    let (mods, code) = body.split_once(';')?;
    let modifier = number(mods)?.saturating_sub(1);
    let code = number(code)?;
    let mut key = key_from_codepoint(code, None, None, modifier, KeyEventType::Press);
    // xterm reports the character the key types; Shift with a letter types the capital.
    if modifier & !u32::from(SHIFT | LOCKS) == 0 {
        let shift = modifier & u32::from(SHIFT) != 0;
        key.text = char::from_u32(code)
            .filter(|c| !c.is_control())
            .map(|c| if shift { c.to_ascii_uppercase() } else { c });
    }
    Some(key)
}

/// Sequences with a fixed meaning (SS3, rxvt's `$`/`^` forms, the Linux console's
/// `ESC [ [ x`, xterm's plain CSI forms).
fn fixed_sequence(data: &str) -> Option<&'static str> {
    Some(match data {
        "\x1b[A" | "\x1bOA" => "up",
        "\x1b[B" | "\x1bOB" => "down",
        "\x1b[C" | "\x1bOC" => "right",
        "\x1b[D" | "\x1bOD" => "left",
        "\x1b[H" | "\x1bOH" => "home",
        "\x1b[F" | "\x1bOF" => "end",
        "\x1b[E" | "\x1bOE" => "clear",
        "\x1bOe" => "ctrl+clear",
        "\x1b[e" => "shift+clear",
        "\x1b[2$" => "shift+insert",
        "\x1b[2^" => "ctrl+insert",
        "\x1b[3$" => "shift+delete",
        "\x1b[3^" => "ctrl+delete",
        "\x1b[[5~" => "pageUp",
        "\x1b[[6~" => "pageDown",
        "\x1b[a" => "shift+up",
        "\x1b[b" => "shift+down",
        "\x1b[c" => "shift+right",
        "\x1b[d" => "shift+left",
        "\x1bOa" => "ctrl+up",
        "\x1bOb" => "ctrl+down",
        "\x1bOc" => "ctrl+right",
        "\x1bOd" => "ctrl+left",
        "\x1b[5$" => "shift+pageUp",
        "\x1b[6$" => "shift+pageDown",
        "\x1b[7$" => "shift+home",
        "\x1b[8$" => "shift+end",
        "\x1b[5^" => "ctrl+pageUp",
        "\x1b[6^" => "ctrl+pageDown",
        "\x1b[7^" => "ctrl+home",
        "\x1b[8^" => "ctrl+end",
        "\x1bOP" | "\x1b[[A" | "\x1b[P" => "f1",
        "\x1bOQ" | "\x1b[[B" | "\x1b[Q" => "f2",
        "\x1bOR" | "\x1b[[C" => "f3",
        "\x1bOS" | "\x1b[[D" | "\x1b[S" => "f4",
        "\x1b[[E" => "f5",
        "\x1bb" => "alt+left",
        "\x1bf" => "alt+right",
        "\x1bp" => "alt+up",
        "\x1bn" => "alt+down",
        "\x1b[Z" => "shift+tab",
        "\x1bOM" => "enter",
        "\x1b" => "escape",
        "\x1c" => "ctrl+\\",
        "\x1d" => "ctrl+]",
        "\x1e" => "ctrl+^",
        "\x1f" => "ctrl+-",
        "\x1b\x1b" => "ctrl+alt+[",
        "\x1b\x1c" => "ctrl+alt+\\",
        "\x1b\x1d" => "ctrl+alt+]",
        "\x1b\x1f" => "ctrl+alt+-",
        "\t" => "tab",
        "\r" => "enter",
        "\x00" => "ctrl+space",
        " " => "space",
        "\x7f" => "backspace",
        "\x1b\x7f" | "\x1b\x08" => "alt+backspace",
        _ => return None,
    })
}

/// The keys a control byte is Ctrl with (0x1f is both Ctrl+- and Ctrl+_).
fn control_byte_keys(byte: u8) -> Vec<String> {
    match byte {
        1..=26 => vec![char::from(byte + 96).to_string()],
        27 => vec!["[".into()],
        28 => vec!["\\".into()],
        29 => vec!["]".into()],
        31 => vec!["-".into(), "_".into()],
        _ => Vec::new(),
    }
}

/// Bytes without an escape prefix or with one, as terminals send them without a
/// keyboard protocol.
fn decode_legacy(data: &str, ctx: DecodeContext) -> Option<DecodedKey> {
    let legacy = |spec: &str| KeyId::parse(spec);
    let bytes = data.as_bytes();
    let mut id = if ctx.kitty_active && (data == "\x1b\r" || data == "\n") {
        legacy("shift+enter")
    } else if let Some(spec) = fixed_sequence(data) {
        legacy(spec)
    } else if data == "\n" {
        legacy("enter")
    } else if data == "\x08" {
        legacy(if ctx.windows_terminal {
            "ctrl+backspace"
        } else {
            "backspace"
        })
    } else if !ctx.kitty_active && bytes.len() == 2 && bytes[0] == 0x1b {
        alt_key(bytes[1])
    } else {
        None
    };
    let mut text = None;
    let mut chars = data.chars();
    if let (None, Some(c), None) = (&id, chars.next(), chars.next()) {
        match c as u32 {
            1..=26 => id = legacy(&format!("ctrl+{}", char::from(c as u8 + 96))),
            0x21..=0x7e if c.is_ascii_uppercase() => {
                id = legacy(&format!("shift+{}", c.to_ascii_lowercase()));
                text = Some(c);
            }
            0x21..=0x7e => {
                id = legacy(&c.to_string());
                text = Some(c);
            }
            _ if !c.is_control() => text = Some(c),
            _ => {}
        }
    }
    if data == " " {
        text = Some(' ');
    }
    if id.is_none() && text.is_none() {
        return None;
    }
    let mut also = Vec::new();
    match bytes {
        [byte] => {
            for key in control_byte_keys(*byte) {
                also.push(KeyId::new(&key, CTRL));
            }
        }
        [0x1b, byte] if !ctx.kitty_active => {
            for key in control_byte_keys(*byte) {
                also.push(KeyId::new(&key, CTRL | ALT));
            }
            if matches!(byte, b'b' | b'f' | b'p' | b'n') {
                also.push(KeyId::new(&char::from(*byte).to_string(), ALT));
            }
        }
        _ => {}
    }
    also.retain(|k| Some(k) != id.as_ref());
    Some(DecodedKey {
        id,
        text,
        kind: KeyEventType::Press,
        also,
    })
}

/// `ESC key` without the Kitty protocol: Alt with the key (Ctrl+Alt for a control byte).
fn alt_key(byte: u8) -> Option<KeyId> {
    match byte {
        b'\r' => KeyId::parse("alt+enter"),
        b' ' => KeyId::parse("alt+space"),
        b'B' => KeyId::parse("alt+left"),
        b'F' => KeyId::parse("alt+right"),
        1..=26 => Some(KeyId::new(&char::from(byte + 96).to_string(), CTRL | ALT)),
        b'A'..=b'Z' => Some(KeyId::new(
            &char::from(byte.to_ascii_lowercase()).to_string(),
            ALT | SHIFT,
        )),
        0x21..=0x7e => Some(KeyId::new(&char::from(byte).to_string(), ALT)),
        _ => None,
    }
}
