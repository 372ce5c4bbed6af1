//! Decoded input as the terminal events the UI handles (crossterm's `Event` types): keys,
//! pastes and mouse-wheel reports. Terminal answers and unknown sequences give nothing.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::key_id::{ALT, CTRL, KeyId, SHIFT, SUPER, is_function_key};
use super::parse::{DecodeContext, DecodedKey, KeyEventType, decode};
use super::stdin_buffer::StdinEvent;

/// The events one sequence from the stdin buffer stands for.
pub fn events_of(input: StdinEvent, ctx: DecodeContext) -> Vec<Event> {
    let data = match input {
        StdinEvent::Paste(text) => return vec![Event::Paste(text)],
        StdinEvent::Data(data) => data,
    };
    if let Some(mouse) = sgr_mouse(&data) {
        return vec![Event::Mouse(mouse)];
    }
    // Two Escapes typed quickly arrive together; they are the same bytes as Ctrl+Alt+[,
    // but double Escape is a binding of its own here.
    if data == "\x1b\x1b" {
        let escape = Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        return vec![escape.clone(), escape];
    }
    if let Some(event) = decode(&data, ctx).and_then(|key| key_event(&key)) {
        return vec![Event::Key(event)];
    }
    // With the Kitty protocol, `ESC key` is Escape followed by a key typed at once.
    match data.strip_prefix('\x1b') {
        Some(rest) if !rest.is_empty() && rest.chars().count() == 1 => {
            let mut events = vec![Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE))];
            events.extend(
                decode(rest, ctx)
                    .and_then(|k| key_event(&k))
                    .map(Event::Key),
            );
            events
        }
        _ => Vec::new(),
    }
}

/// The key event for a decoded key: the character it types, else its key id.
pub fn key_event(key: &DecodedKey) -> Option<KeyEvent> {
    let kind = match key.kind {
        KeyEventType::Press => KeyEventKind::Press,
        KeyEventType::Repeat => KeyEventKind::Repeat,
        KeyEventType::Release => KeyEventKind::Release,
    };
    let held = key.id.as_ref().map_or(0, |id| id.modifiers);
    if let Some(c) = key.text {
        let modifiers = modifiers_of(held & SHIFT);
        return Some(KeyEvent::new_with_kind(KeyCode::Char(c), modifiers, kind));
    }
    let id = key.id.as_ref()?;
    let (code, modifiers) = code_of(id)?;
    Some(KeyEvent::new_with_kind(code, modifiers, kind))
}

fn modifiers_of(mask: u8) -> KeyModifiers {
    let mut m = KeyModifiers::NONE;
    for (bit, flag) in [
        (SHIFT, KeyModifiers::SHIFT),
        (ALT, KeyModifiers::ALT),
        (CTRL, KeyModifiers::CONTROL),
        (SUPER, KeyModifiers::SUPER),
    ] {
        if mask & bit != 0 {
            m |= flag;
        }
    }
    m
}

/// The key code and modifiers of a key id (Shift+Tab is `BackTab`, Shift with a letter
/// alone is the capital letter, as crossterm reports them).
pub fn code_of(id: &KeyId) -> Option<(KeyCode, KeyModifiers)> {
    let modifiers = modifiers_of(id.modifiers);
    let code = match id.name.as_str() {
        "escape" => KeyCode::Esc,
        "enter" => KeyCode::Enter,
        "tab" if id.modifiers & SHIFT != 0 => KeyCode::BackTab,
        "tab" => KeyCode::Tab,
        "space" => KeyCode::Char(' '),
        "backspace" => KeyCode::Backspace,
        "delete" => KeyCode::Delete,
        "insert" => KeyCode::Insert,
        "clear" => KeyCode::KeypadBegin,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "pageUp" => KeyCode::PageUp,
        "pageDown" => KeyCode::PageDown,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        f if is_function_key(f) => KeyCode::F(f[1..].parse().ok()?),
        other => {
            let mut chars = other.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            if id.modifiers == SHIFT && c.is_ascii_lowercase() {
                KeyCode::Char(c.to_ascii_uppercase())
            } else {
                KeyCode::Char(c)
            }
        }
    };
    Some((code, modifiers))
}

/// An SGR mouse report, `ESC [ < button ; column ; row M` (press) or `… m` (release).
fn sgr_mouse(data: &str) -> Option<MouseEvent> {
    let body = data.strip_prefix("\x1b[<")?;
    let released = body.ends_with('m');
    let body = body.strip_suffix('M').or_else(|| body.strip_suffix('m'))?;
    let mut parts = body.split(';').map(|p| p.parse::<u16>().ok());
    let (button, column, row) = (parts.next()??, parts.next()??, parts.next()??);
    let mut modifiers = KeyModifiers::NONE;
    if button & 4 != 0 {
        modifiers |= KeyModifiers::SHIFT;
    }
    if button & 8 != 0 {
        modifiers |= KeyModifiers::ALT;
    }
    if button & 16 != 0 {
        modifiers |= KeyModifiers::CONTROL;
    }
    let which = match button & 3 {
        0 => MouseButton::Left,
        1 => MouseButton::Middle,
        _ => MouseButton::Right,
    };
    let kind = if button & 64 != 0 {
        match button & 3 {
            0 => MouseEventKind::ScrollUp,
            1 => MouseEventKind::ScrollDown,
            2 => MouseEventKind::ScrollLeft,
            _ => MouseEventKind::ScrollRight,
        }
    } else if button & 32 != 0 {
        if button & 3 == 3 {
            MouseEventKind::Moved
        } else {
            MouseEventKind::Drag(which)
        }
    } else if released {
        MouseEventKind::Up(which)
    } else {
        MouseEventKind::Down(which)
    };
    Some(MouseEvent {
        kind,
        column: column.saturating_sub(1),
        row: row.saturating_sub(1),
        modifiers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui_kit::keybindings::KeyCombo;

    const LEGACY: DecodeContext = DecodeContext {
        kitty_active: false,
        windows_terminal: false,
    };
    const KITTY: DecodeContext = DecodeContext {
        kitty_active: true,
        windows_terminal: false,
    };

    fn keys(data: &str, ctx: DecodeContext) -> Vec<KeyEvent> {
        events_of(StdinEvent::Data(data.into()), ctx)
            .into_iter()
            .map(|e| match e {
                Event::Key(k) => k,
                other => panic!("not a key: {other:?}"),
            })
            .collect()
    }

    fn combo(data: &str, ctx: DecodeContext) -> String {
        let [key] = keys(data, ctx)[..] else {
            panic!("one key for {data:?}");
        };
        KeyCombo::from_event(&key).display()
    }

    #[test]
    fn keys_crossterm_could_not_read_become_the_ui_keys() {
        // xterm's modifyOtherKeys.
        assert_eq!(combo("\x1b[27;2;13~", LEGACY), "shift+enter");
        assert_eq!(combo("\x1b[27;5;45~", LEGACY), "ctrl+-");
        // Ctrl+C on a Russian layout, with the base-layout key.
        assert_eq!(combo("\x1b[1089::99;5u", KITTY), "ctrl+c");
        // Shift+Tab and Ctrl+letters in the legacy forms.
        assert_eq!(combo("\x1b[Z", LEGACY), "shift+tab");
        assert_eq!(combo("\x03", LEGACY), "ctrl+c");
        assert_eq!(combo("\x1f", LEGACY), "ctrl+-");
        assert_eq!(combo("\x1by", LEGACY), "alt+y");
        assert_eq!(combo("\x1b[1;5D", LEGACY), "ctrl+left");
    }

    #[test]
    fn typed_characters_keep_their_text() {
        let [k] = keys("\x1b[1089::99u", KITTY)[..] else {
            panic!()
        };
        assert_eq!(k.code, KeyCode::Char('с'));
        assert_eq!(k.modifiers, KeyModifiers::NONE);
        let [k] = keys("\x1b[99:67:99;2u", KITTY)[..] else {
            panic!()
        };
        assert_eq!(k.code, KeyCode::Char('C'));
        let [k] = keys("é", LEGACY)[..] else {
            panic!()
        };
        assert_eq!(k.code, KeyCode::Char('é'));
        let [k] = keys("A", LEGACY)[..] else { panic!() };
        assert_eq!(
            (k.code, k.modifiers),
            (KeyCode::Char('A'), KeyModifiers::SHIFT)
        );
    }

    #[test]
    fn releases_keep_their_kind() {
        let [k] = keys("\x1b[99;5:3u", KITTY)[..] else {
            panic!()
        };
        assert_eq!(k.kind, KeyEventKind::Release);
        let [k] = keys("\x1b[99;5u", KITTY)[..] else {
            panic!()
        };
        assert_eq!(k.kind, KeyEventKind::Press);
    }

    #[test]
    fn two_escapes_together_are_two_escapes() {
        let escape = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(keys("\x1b\x1b", LEGACY), vec![escape, escape]);
        assert_eq!(keys("\x1b", LEGACY), vec![escape]);
        // With the Kitty protocol ESC before a key is Escape, then the key.
        let a = KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE);
        assert_eq!(keys("\x1ba", KITTY), vec![escape, a]);
    }

    #[test]
    fn wheel_reports_pastes_and_answers() {
        let wheel = |data: &str| match &events_of(StdinEvent::Data(data.into()), LEGACY)[..] {
            [Event::Mouse(m)] => m.kind,
            other => panic!("{other:?}"),
        };
        assert_eq!(wheel("\x1b[<64;10;5M"), MouseEventKind::ScrollUp);
        assert_eq!(wheel("\x1b[<65;10;5M"), MouseEventKind::ScrollDown);
        assert_eq!(
            wheel("\x1b[<0;10;5m"),
            MouseEventKind::Up(MouseButton::Left)
        );
        assert_eq!(
            events_of(StdinEvent::Paste("a\nb".into()), LEGACY),
            vec![Event::Paste("a\nb".into())]
        );
        for answer in ["\x1b[?62;22c", "\x1b[?0u", "\x1b]11;rgb:0/0/0\x07"] {
            assert!(events_of(StdinEvent::Data(answer.into()), LEGACY).is_empty());
        }
    }
}
