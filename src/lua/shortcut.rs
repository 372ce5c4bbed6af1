//! Keyboard shortcuts from `pi.registerShortcut`: checking the key when it is
//! registered and running the handler when the terminal UI sees it.

use crossterm::event::{KeyCode, KeyModifiers};

use crate::lua::ctx::make_ctx;
use crate::lua::error::{ExtensionError, Handler, LuaFailure};
use crate::lua::vm::Vm;
use crate::t;
use crate::ui_kit::keybindings::KeyCombo;

/// A shortcut spec that is not a key at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAKey {
    /// The spec given.
    pub spec: String,
}

impl std::fmt::Display for NotAKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&t!("pi.ext.shortcut.not_a_key", spec = self.spec.as_str()))
    }
}

impl std::error::Error for NotAKey {}

/// A key most terminals cannot send as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyWarning {
    /// It arrives as another key (`ctrl+i` is `tab`).
    ArrivesAs {
        /// The spec given.
        spec: String,
        /// The key it arrives as.
        alias: &'static str,
    },
    /// Only terminals with the kitty keyboard protocol send it.
    KittyOnly {
        /// The spec given.
        spec: String,
    },
}

impl std::fmt::Display for KeyWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&match self {
            KeyWarning::ArrivesAs { spec, alias } => t!(
                "pi.ext.shortcut.arrives_as",
                spec = spec.as_str(),
                alias = *alias
            ),
            KeyWarning::KittyOnly { spec } => {
                t!("pi.ext.shortcut.kitty_only", spec = spec.as_str())
            }
        })
    }
}

/// Check a shortcut spec: `Err` when it is not a key at all, `Ok(Some)` with
/// a warning when terminals cannot tell it from another key.
pub fn check_key(spec: &str) -> Result<Option<KeyWarning>, NotAKey> {
    let combo = KeyCombo::parse(spec).ok_or_else(|| NotAKey {
        spec: spec.to_string(),
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
        return Ok(Some(KeyWarning::ArrivesAs {
            spec: spec.to_string(),
            alias,
        }));
    }
    let legacy_only = match combo.code {
        KeyCode::Char(c) if ctrl && c.is_ascii_digit() => true,
        KeyCode::Char(c) if ctrl && shift && c.is_ascii_alphabetic() => true,
        _ => false,
    };
    Ok(legacy_only.then(|| KeyWarning::KittyOnly {
        spec: spec.to_string(),
    }))
}

/// Run the handler of the last shortcut registered for `shortcut`'s key with
/// a fresh `ctx`; `Err` names the extension when it fails.
pub async fn run_shortcut(vm: &Vm, shortcut: &str) -> Result<(), ExtensionError> {
    let wanted = KeyCombo::parse(shortcut);
    let found = vm
        .host
        .reg
        .borrow()
        .shortcuts
        .iter()
        .rev()
        .find(|(info, _)| KeyCombo::parse(&info.shortcut) == wanted)
        .map(|(info, handler)| (info.extension.clone(), handler.clone()));
    let Some((path, handler)) = found else {
        return Err(ExtensionError::UnknownShortcut {
            key: shortcut.to_string(),
        });
    };
    let failed = |e: mlua::Error| ExtensionError::Failed {
        handler: Handler::Shortcut {
            key: shortcut.to_string(),
        },
        extension: Some(path.clone()),
        cause: LuaFailure::of(&e),
    };
    let ctx = make_ctx(&vm.lua, &vm.host, None).map_err(failed)?;
    vm.host.budget.reset();
    handler.call_async::<()>(ctx).await.map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked_at_registration() {
        assert!(check_key("ctrl+shift+x").unwrap().is_some());
        assert_eq!(
            check_key("ctrl+i").unwrap(),
            Some(KeyWarning::ArrivesAs {
                spec: "ctrl+i".into(),
                alias: "tab"
            })
        );
        assert_eq!(check_key("ctrl+x").unwrap(), None);
        assert_eq!(check_key("alt+p").unwrap(), None);
        let err = check_key("hyper+q").unwrap_err();
        assert_eq!(err.spec, "hyper+q");
        assert!(err.to_string().contains("hyper+q"), "{err}");
    }
}
