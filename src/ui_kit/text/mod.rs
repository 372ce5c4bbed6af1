//! The one text module every surface draws with (editor, transcript, menus, selectors,
//! footers and Lua widgets): display width ([`width`]), word wrap ([`wrap_text`],
//! [`wrap_line`], [`wrap_keeping`], [`wrap_ranges`], [`wrap_runs`]), truncation and padding ([`truncate`],
//! [`pad`], [`fit`]) and neutralising escape sequences ([`sanitize`]). Width is measured
//! one way only, by grapheme cluster, so the surfaces agree on emoji, flags, CJK and
//! combining marks; plain and ANSI-styled text are handled alike.

mod keeping;
mod runs;
mod sanitize;
mod truncate;
mod width;
mod wrap;

#[cfg(test)]
mod text_tests;

pub use keeping::{wrap_keeping, wrap_ranges};
pub use runs::{hard_wrap_runs, wrap_runs};
pub use sanitize::sanitize;
pub use truncate::{clip_spans, fit, pad, slice_by_column, truncate};
pub use width::{
    TAB_WIDTH, byte_at_column, grapheme_width, graphemes, next_boundary, prev_boundary, width,
};
pub use wrap::{wrap_line, wrap_text};

/// Replace the home directory prefix of `path` with `~`.
pub fn tilde_path(path: &std::path::Path) -> String {
    let shown = path.display().to_string();
    match dirs::home_dir() {
        Some(home) => {
            let home = home.display().to_string();
            match shown.strip_prefix(&home) {
                Some(rest) if !home.is_empty() && (rest.is_empty() || rest.starts_with('/')) => {
                    format!("~{rest}")
                }
                _ => shown,
            }
        }
        None => shown,
    }
}

/// The text of rendered lines without styles (for tests and assertions).
#[cfg(test)]
pub(crate) fn plain_lines(lines: &[ratatui::text::Line<'_>]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}
