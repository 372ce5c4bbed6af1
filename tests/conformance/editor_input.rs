//! Driving the editor with the bytes a terminal sends, decoded into key events the way
//! crossterm decodes them (0x1f arrives as Ctrl+7, ESC+key as Alt+key, CSI-u as the key
//! with its modifiers), so a case can give the same input as pi's own tests.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use pi::tui::editor::{Editor, EditorOutcome};
use pi::ui_kit::keybindings::Keybindings;

const PASTE_START: &str = "\x1b[200~";
const PASTE_END: &str = "\x1b[201~";

/// Feed one key's bytes, or one bracketed paste, to the editor.
pub fn feed(e: &mut Editor, bytes: &str) -> EditorOutcome {
    if let Some(body) = bytes.strip_prefix(PASTE_START) {
        let text = body.strip_suffix(PASTE_END).expect("a complete paste");
        e.paste(text);
        return EditorOutcome::Handled;
    }
    e.handle_key(&decode(bytes), &Keybindings::default())
}

/// Feed each character of `text` as its own key.
pub fn type_text(e: &mut Editor, text: &str) {
    for c in text.chars() {
        feed(e, c.encode_utf8(&mut [0; 4]));
    }
}

/// The cursor as (line, byte column).
pub fn cursor(e: &Editor) -> (usize, usize) {
    let (_, row, col) = e.cursor();
    (row, col)
}

/// The key event crossterm produces for `bytes`.
pub fn decode(bytes: &str) -> KeyEvent {
    let none = KeyModifiers::NONE;
    let ctrl = KeyModifiers::CONTROL;
    let key = |code, modifiers| KeyEvent::new(code, modifiers);
    match bytes {
        "\x1b" => return key(KeyCode::Esc, none),
        "\r" => return key(KeyCode::Enter, none),
        "\t" => return key(KeyCode::Tab, none),
        "\x7f" => return key(KeyCode::Backspace, none),
        "\x1b[A" => return key(KeyCode::Up, none),
        "\x1b[B" => return key(KeyCode::Down, none),
        "\x1b[C" => return key(KeyCode::Right, none),
        "\x1b[D" => return key(KeyCode::Left, none),
        "\x1b[1;5C" => return key(KeyCode::Right, ctrl),
        "\x1b[1;5D" => return key(KeyCode::Left, ctrl),
        "\x1b[3~" => return key(KeyCode::Delete, none),
        _ => {}
    }
    if let Some(csi_u) = bytes
        .strip_prefix("\x1b[")
        .and_then(|b| b.strip_suffix('u'))
    {
        let (code, mods) = csi_u.split_once(';').expect("CSI code;mods u");
        let c = char::from_u32(code.parse().unwrap()).unwrap();
        let bits: u8 = mods.parse::<u8>().unwrap() - 1;
        let mut modifiers = none;
        for (bit, m) in [
            (1, KeyModifiers::SHIFT),
            (2, KeyModifiers::ALT),
            (4, ctrl),
            (8, KeyModifiers::SUPER),
        ] {
            if bits & bit != 0 {
                modifiers |= m;
            }
        }
        let code = if c == '\r' {
            KeyCode::Enter
        } else {
            KeyCode::Char(c)
        };
        return key(code, modifiers);
    }
    if let Some(rest) = bytes.strip_prefix('\x1b') {
        let mut inner = decode(rest);
        inner.modifiers |= KeyModifiers::ALT;
        return inner;
    }
    let mut chars = bytes.chars();
    let c = chars.next().expect("a key");
    assert!(chars.next().is_none(), "one key at a time: {bytes:?}");
    match c as u32 {
        0x0a => key(KeyCode::Char('j'), ctrl),
        b @ 0x01..=0x1a => key(KeyCode::Char((b as u8 - 1 + b'a') as char), ctrl),
        b @ 0x1c..=0x1f => key(KeyCode::Char((b as u8 - 0x1c + b'4') as char), ctrl),
        _ if c.is_uppercase() => key(KeyCode::Char(c), KeyModifiers::SHIFT),
        _ => key(KeyCode::Char(c), none),
    }
}
