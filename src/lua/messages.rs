//! Messages the extension host reports (`Extension error: ...`, `Error: ...`,
//! `Warning: ...`, `pi.log` lines) as the user sees them: the English prefix the host
//! writes is a marker of the kind, shown in the current locale; extension text that did
//! not go through `t()` passes the core hacks.

use crate::i18n::core_hacks;
use crate::t;

/// How a host message is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// An extension failed or reported an error.
    Error,
    /// Something pi worked around.
    Warning,
    /// A notification or log line.
    Info,
}

/// The kind of `message` and its text in the current locale.
pub fn localize(message: &str) -> (MessageKind, String) {
    if let Some(rest) = message.strip_prefix("Extension error: ") {
        return (MessageKind::Error, t!("pi.ext.error", message = rest));
    }
    if let Some(rest) = message.strip_prefix("Error: ") {
        let text = core_hacks::display(rest);
        return (
            MessageKind::Error,
            t!("pi.ext.notify_error", message = text.as_ref()),
        );
    }
    if let Some(rest) = message.strip_prefix("Warning: ") {
        let text = core_hacks::display(rest);
        return (
            MessageKind::Warning,
            t!("pi.ext.warning", message = text.as_ref()),
        );
    }
    let kind = if message.starts_with("Error") || message.starts_with("Extension error") {
        MessageKind::Error
    } else {
        MessageKind::Info
    };
    (kind, core_hacks::display(message).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_mark_the_kind_and_are_translated_away() {
        let (kind, text) = localize("Extension error: a.lua: boom");
        assert_eq!(kind, MessageKind::Error);
        assert_eq!(text, "Extension error: a.lua: boom");
        let (kind, text) = localize("Error: disk full");
        assert_eq!(kind, MessageKind::Error);
        assert_eq!(text, "Error: disk full");
        assert_eq!(localize("Warning: odd").0, MessageKind::Warning);
        assert_eq!(
            localize("[ext] info: hi"),
            (MessageKind::Info, "[ext] info: hi".into())
        );
    }
}
