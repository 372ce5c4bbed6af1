//! Keyboard shortcuts from `pi.registerShortcut`: checking the key when it is
//! registered and running the handler when the terminal UI sees it.

use crossterm::event::{KeyCode, KeyModifiers};

use crate::lua::ctx::make_ctx;
use crate::lua::tool_exec::error_text;
use crate::lua::vm::Vm;
use crate::ui_kit::keybindings::KeyCombo;

/// Check a shortcut spec: `Err` when it is not a key at all, `Ok(Some)` with
/// a warning when terminals cannot tell it from another key.
pub fn check_key(spec: &str) -> Result<Option<String>, String> {
    let combo = KeyCombo::parse(spec).ok_or_else(|| {
        format!(
            "registerShortcut \"{spec}\": not a key; write modifiers and a key joined by `+`, \
             e.g. \"ctrl+shift+p\", \"alt+x\" or \"f5\""
        )
    })?;
    let ctrl = combo.modifiers.contains(KeyModifiers::CONTROL);
    let shift = combo.modifiers.contains(KeyModifiers::SHIFT);
    let alias = match combo.code {
        KeyCode::Char('i') if ctrl && !shift => Some("tab"),
        KeyCode::Char('m') if ctrl && !shift => Some("enter"),
        KeyCode::Char('[') if ctrl => Some("escape"),
        KeyCode::Char('h') if ctrl && !shift => Some("backspace"),
        _ => None,
    };
    if let Some(alias) = alias {
        return Ok(Some(format!(
            "Warning: shortcut \"{spec}\" cannot be sent by most terminals (it arrives as {alias}); \
             pick another key"
        )));
    }
    let legacy_only = match combo.code {
        KeyCode::Char(c) if ctrl && c.is_ascii_digit() => true,
        KeyCode::Char(c) if ctrl && shift && c.is_ascii_alphabetic() => true,
        _ => false,
    };
    Ok(legacy_only.then(|| {
        format!(
            "Warning: shortcut \"{spec}\" only reaches pi in terminals with the kitty keyboard \
             protocol; most terminals cannot send it"
        )
    }))
}

/// Run the handler of the last shortcut registered for `shortcut`'s key with
/// a fresh `ctx`; `Err` names the extension when it fails.
pub async fn run_shortcut(vm: &Vm, shortcut: &str) -> Result<(), String> {
    let wanted = KeyCombo::parse(shortcut);
    let found = vm
        .host
        .reg
        .borrow()
        .shortcuts
        .iter()
        .rev()
        .find(|(info, _)| KeyCombo::parse(&info.shortcut) == wanted)
        .map(|(info, handler)| (info.extension.display().to_string(), handler.clone()));
    let Some((path, handler)) = found else {
        return Err(format!("no extension shortcut for {shortcut}"));
    };
    let ctx = make_ctx(&vm.lua, &vm.host, None).map_err(|e| e.to_string())?;
    vm.host.budget.reset();
    handler
        .call_async::<()>(ctx)
        .await
        .map_err(|e| format!("shortcut {shortcut} ({path}) failed: {}", error_text(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked_at_registration() {
        assert!(check_key("ctrl+shift+x").unwrap().is_some());
        assert!(check_key("ctrl+i").unwrap().unwrap().contains("tab"));
        assert_eq!(check_key("ctrl+x").unwrap(), None);
        assert_eq!(check_key("alt+p").unwrap(), None);
        let err = check_key("hyper+q").unwrap_err();
        assert!(err.contains("not a key"), "{err}");
    }
}
