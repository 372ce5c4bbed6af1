//! Writing JSON strings and values compactly, byte for byte as `serde_json::to_writer`
//! writes them, with the characters to escape found eight bytes at a time: a request
//! body is mostly string content, and long stretches of it need no escape at all.

use serde_json::Value;

/// Eight copies of one byte.
const ONES: u64 = u64::MAX / 255;
/// The high bit of each of eight bytes.
const HIGHS: u64 = ONES << 7;
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Append `text` as a quoted JSON string.
pub fn write_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    write_str_contents(out, text);
    out.push(b'"');
}

/// Append `text` escaped as inside a JSON string, without the quotes.
pub fn write_str_contents(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    let mut start = 0;
    while let Some(found) = find_escape(&bytes[start..]) {
        let at = start + found;
        out.extend_from_slice(&bytes[start..at]);
        write_escape(out, bytes[at]);
        start = at + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Append `value` as compact JSON (object keys in their stored order).
pub fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(number) => {
            // Writing a number into a `Vec` cannot fail.
            let _ = serde_json::to_writer(&mut *out, number);
        }
        Value::String(text) => write_str(out, text),
        Value::Array(items) => {
            out.push(b'[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                write_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            out.push(b'{');
            for (n, (key, item)) in map.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                write_str(out, key);
                out.push(b':');
                write_value(out, item);
            }
            out.push(b'}');
        }
    }
}

/// `value` as compact JSON text (as `serde_json::to_string` makes it).
pub fn value_to_string(value: &Value) -> String {
    let mut out = Vec::new();
    write_value(&mut out, value);
    // Only whole UTF-8 strings and ASCII are written, so this never falls back.
    String::from_utf8(out).unwrap_or_default()
}

/// The offset of the first byte in `bytes` that JSON escapes: a control character,
/// `"` or `\`.
fn find_escape(bytes: &[u8]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let found = escape_bits(u64::from_le_bytes(word));
        if found != 0 {
            return Some(offset + found.trailing_zeros() as usize / 8);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| needs_escape(b))
        .map(|at| offset + at)
}

/// The high bit set in each byte of `word` that needs an escape. Bytes above the
/// lowest such byte may be marked wrongly (a borrow carries into them), so only
/// the lowest mark is read.
fn escape_bits(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quote = word ^ (ONES * u64::from(b'"'));
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & HIGHS
}

fn needs_escape(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// The escape of one byte [`needs_escape`] accepts, as `serde_json` writes it.
fn write_escape(out: &mut Vec<u8>, byte: u8) {
    let short = match byte {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x0c => b'f',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        _ => {
            let hex = [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]];
            out.extend_from_slice(b"\\u00");
            out.extend_from_slice(&hex);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', short]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn written(text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        write_str(&mut out, text);
        out
    }

    #[test]
    fn every_ascii_character_is_written_as_serde_json_writes_it() {
        for byte in 0u8..0x80 {
            let one = char::from(byte).to_string();
            assert_eq!(
                written(&one),
                serde_json::to_vec(&one).unwrap(),
                "{byte:#x}"
            );
            let long = format!("abcdefghij{one}klmnopqrstuvw{one}{one}");
            assert_eq!(
                written(&long),
                serde_json::to_vec(&long).unwrap(),
                "{byte:#x}"
            );
        }
    }

    #[test]
    fn escapes_at_every_offset_of_a_word_are_found() {
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1f}", "\t"];
        for special in specials {
            for at in 0..24 {
                let text: String = "é x→yz🙂 plain text, no escapes"
                    .chars()
                    .take(at)
                    .chain(special.chars())
                    .chain("tail after it".chars())
                    .collect();
                assert_eq!(
                    written(&text),
                    serde_json::to_vec(&text).unwrap(),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn strings_without_escapes_and_empty_ones_are_copied() {
        for text in [
            "",
            "a",
            "plain ascii text longer than a word",
            "ü→🙂 \u{7f}",
        ] {
            assert_eq!(written(text), serde_json::to_vec(text).unwrap());
        }
        let mut out = Vec::new();
        write_str_contents(&mut out, "a\"b");
        assert_eq!(out, br#"a\"b"#);
    }

    #[test]
    fn values_are_written_as_serde_json_writes_them() {
        let value = json!({
            "path": "src/\"main\".rs",
            "n": [1, -2, 2.5, 1e300, 0.1, null, true, false],
            "nested": {"z": "last", "a": {"empty": {}, "list": []}},
            "text": "line one\nline two\ttabbed \u{0}\u{8}\u{c}\r",
        });
        let mut out = Vec::new();
        write_value(&mut out, &value);
        assert_eq!(out, serde_json::to_vec(&value).unwrap());
        assert_eq!(
            value_to_string(&value),
            serde_json::to_string(&value).unwrap()
        );
    }
}
