//! pi's own slash commands: the names every front end and the extension host agree on.

/// A slash command: name (without `/`) and whether it is available in this build. Its
/// description is `pi.cmd.<name>.description` in the locales (see [`description`]).
pub const COMMANDS: &[(&str, bool)] = &[
    ("model", true),
    ("new", true),
    ("name", true),
    ("session", true),
    ("hotkeys", true),
    ("quit", true),
    ("resume", true),
    ("settings", true),
    ("scoped-models", true),
    ("copy", true),
    ("changelog", true),
    ("reload", true),
    ("tree", true),
    ("fork", true),
    ("rewind", true),
    ("clone", true),
    ("compact", true),
    ("export", true),
    ("share", true),
    ("import", true),
    ("login", true),
    ("logout", true),
    ("lang", true),
    ("sandbox", true),
    ("permissions", true),
    ("extensions", true),
];

/// Whether `/name` is one of pi's own commands (`/exit` included, an alias of `/quit`).
pub fn is_builtin_command(name: &str) -> bool {
    name == "exit" || COMMANDS.iter().any(|(n, _)| *n == name)
}
