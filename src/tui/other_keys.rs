//! xterm's modifyOtherKeys mode, asked for whenever the terminal does not speak the Kitty
//! keyboard protocol. Without either, Shift+Enter arrives as a plain Enter and Ctrl+- like
//! Ctrl+_; in mode 2 xterm (and tmux, WezTerm, iTerm2, …) sends such keys distinctly —
//! `ESC [ 27 ; mod ; code ~`, or in the CSI-u form `ESC [ code ; mod u` (tmux up to 3.4,
//! and later with `extended-keys-format csi-u`). pi's decoder reads both forms; a terminal
//! without the mode ignores the request.

/// Ask for modifyOtherKeys mode 2.
pub const ENABLE: &str = "\x1b[>4;2m";
/// Back to the terminal's default.
pub const DISABLE: &str = "\x1b[>4;0m";
