//! What every surface that draws text shares: themes, ANSI-styled text, the text module
//! (display width, word wrap, truncation, padding), and key names with their bindings.
//! Used by the terminal UI, by Lua components and by the HTML export.

pub mod ansi_buffer;
pub mod ansi_line;
pub mod image_lines;
pub mod keybindings;
pub mod keys;
pub mod safe_text;
pub mod terminal_image;
pub mod text;
pub mod theme;
pub mod theme_error;
