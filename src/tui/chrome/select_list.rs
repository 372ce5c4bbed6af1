//! One row of a list of choices with a description column (the `/` and `@` completion
//! menu): the selected row is marked `→ `, labels sit in a column as wide as the widest
//! label plus a gap (kept between a least and a most width), a label too long for the
//! column is cut with `…`, and every description starts in the same column, on one line.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::ui_kit::text::{truncate, width};

/// Columns between a label and its description.
const GAP: usize = 2;
/// A description narrower than this is left out.
const MIN_DESCRIPTION: usize = 10;

/// The least and most width of the label column (gap included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrimaryColumn {
    /// Least width.
    pub min: usize,
    /// Most width.
    pub max: usize,
}

impl PrimaryColumn {
    /// The bounds of the `/` completion menu (as pi 0.73.1 lays it out).
    pub const SLASH: PrimaryColumn = PrimaryColumn { min: 12, max: 32 };

    /// The label column's width for `labels`: the widest plus the gap, within the bounds.
    pub fn width_for<'a>(&self, labels: impl IntoIterator<Item = &'a str>) -> usize {
        let widest = labels
            .into_iter()
            .map(|l| width(l) + GAP)
            .max()
            .unwrap_or(0);
        let (min, max) = (self.min.min(self.max).max(1), self.max.max(self.min).max(1));
        widest.clamp(min, max)
    }
}

/// Styles of a row's parts.
#[derive(Debug, Clone, Copy, Default)]
pub struct RowStyles {
    /// The selected row's label.
    pub selected: Style,
    /// A description.
    pub description: Style,
}

/// One row at `width` columns: marker, label in a `column`-wide column, description.
pub fn select_row(
    label: &str,
    description: &str,
    selected: bool,
    width_: usize,
    column: usize,
    styles: RowStyles,
) -> Line<'static> {
    let marker = if selected { "→ " } else { "  " };
    let label_style = if selected {
        styles.selected
    } else {
        Style::default()
    };
    let description: String = description
        .split(['\r', '\n'])
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_string();
    if !description.is_empty() && width_ > 40 {
        let column = column.min(width_ - width(marker) - 4).max(1);
        let label = truncate(label, column.saturating_sub(GAP).max(1), "…");
        let spacing = column.saturating_sub(width(&label)).max(1);
        let start = width(marker) + width(&label) + spacing;
        let room = width_.saturating_sub(start + 2);
        if room > MIN_DESCRIPTION {
            return Line::from(vec![
                Span::styled(format!("{marker}{label}"), label_style),
                Span::styled(
                    format!(
                        "{}{}",
                        " ".repeat(spacing),
                        truncate(&description, room, "…")
                    ),
                    styles.description,
                ),
            ]);
        }
    }
    let label = truncate(label, width_.saturating_sub(width(marker) + 2).max(1), "…");
    Line::from(Span::styled(format!("{marker}{label}"), label_style))
}
