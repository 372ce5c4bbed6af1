//! How `/tree` is drawn, as pi draws its session tree: a title, a line of keys and
//! the search between two rules, then a page of rows (the cursor `›`, the selected
//! row on the selection background), the position and filter, and a closing rule.

use crate::t;

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::tui::chrome::rule;
use crate::tui::panels::tree_rows::TreeRow;
use crate::tui::panels::tree_selector::{TreeFilter, TreeSelector};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{truncate, width};
use crate::ui_kit::theme::Theme;

/// The keys `/tree` names in its help lines, as bound when it opened.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeKeys {
    label: String,
    filters: String,
    cycle: String,
    label_time: String,
    confirm: String,
    cancel: String,
}

impl TreeKeys {
    /// The keys bound in `kb`.
    pub fn of(kb: &Keybindings) -> Self {
        let filters = [
            "app.tree.filter.default",
            "app.tree.filter.noTools",
            "app.tree.filter.userOnly",
            "app.tree.filter.labeledOnly",
            "app.tree.filter.all",
        ]
        .map(|id| kb.keys_text(id))
        .join("/");
        TreeKeys {
            label: kb.keys_text("app.tree.editLabel"),
            filters,
            cycle: format!(
                "{}/{}",
                kb.keys_text("app.tree.filter.cycleForward"),
                kb.keys_text("app.tree.filter.cycleBackward")
            ),
            label_time: kb.keys_text("app.tree.toggleLabelTimestamp"),
            confirm: kb.keys_text("tui.select.confirm"),
            cancel: kb.keys_text("tui.select.cancel"),
        }
    }
}

/// When a label was set, as pi shows it: `14:05` today, `3/9 14:05` earlier this
/// year, `24/3/9 14:05` before (local time); the stored text when it is no time.
pub fn label_time(stamp: &str, now: chrono::DateTime<chrono::Local>) -> String {
    use chrono::Datelike;
    let Ok(at) = chrono::DateTime::parse_from_rfc3339(stamp) else {
        return stamp.to_string();
    };
    let at = at.with_timezone(&chrono::Local);
    let time = at.format("%H:%M").to_string();
    if at.date_naive() == now.date_naive() {
        time
    } else if at.year() == now.year() {
        format!("{}/{} {time}", at.month(), at.day())
    } else {
        format!("{:02}/{}/{} {time}", at.year() % 100, at.month(), at.day())
    }
}

/// `text` cut to `max` columns as pi cuts a line: with three dots.
fn cut(text: &str, max: usize) -> String {
    truncate(text, max, "...")
}

impl TreeSelector {
    /// Lines to draw at `max` columns.
    pub fn lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let border = || rule(max, theme.fg("border"));
        let keys = &self.keys;
        let help = t!(
            "pi.tui.tree.help",
            label = keys.label.as_str(),
            filters = keys.filters.as_str(),
            cycle = keys.cycle.as_str(),
            time = keys.label_time.as_str()
        );
        let mut search = vec![Span::styled(
            format!("  {}", t!("pi.tui.tree.search")),
            theme.fg("muted"),
        )];
        if !self.query.is_empty() {
            let room = max.saturating_sub(width(&search[0].content) + 1);
            search.push(Span::styled(
                format!(" {}", cut(&self.query, room)),
                theme.fg("accent"),
            ));
        }
        let mut out = vec![
            Line::default(),
            border(),
            Line::from(Span::styled(
                cut(&format!("   {}", t!("pi.tui.tree.title")), max),
                theme.bold("text"),
            )),
            Line::from(Span::styled(
                cut(&format!("  {help}"), max),
                theme.fg("muted"),
            )),
            Line::from(search),
            border(),
            Line::default(),
        ];
        match &self.label_edit {
            Some(text) => out.extend(self.label_lines(text, theme, max)),
            None => out.extend(self.row_lines(theme, max)),
        }
        out.push(Line::default());
        out.push(border());
        out
    }

    /// The label being typed, in place of the rows.
    fn label_lines(&self, text: &str, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let keys = &self.keys;
        vec![
            Line::from(Span::styled(
                cut(&format!("  {}", t!("pi.tui.tree.label_prompt")), max),
                theme.fg("muted"),
            )),
            Line::from(vec![
                Span::raw("  > "),
                Span::raw(cut(text, max.saturating_sub(4))),
            ]),
            Line::from(vec![
                Span::raw("  "),
                Span::styled(keys.confirm.clone(), theme.fg("dim")),
                Span::styled(format!(" {}  ", t!("pi.tui.tree.save")), theme.fg("muted")),
                Span::styled(keys.cancel.clone(), theme.fg("dim")),
                Span::styled(format!(" {}", t!("pi.tui.tree.cancel")), theme.fg("muted")),
            ]),
        ]
    }

    /// The position line: `(3/40)` and the filter and label-time marks.
    fn status(&self, index: usize) -> String {
        let mut line = format!("  ({index}/{})", self.visible.len());
        if self.filter != TreeFilter::Default {
            let key = format!("pi.tui.tree.filter.{}", self.filter.name());
            line.push_str(&format!(" [{}]", crate::i18n::t(&key, &[])));
        }
        if self.show_label_time {
            line.push_str(&format!(" {}", t!("pi.tui.tree.label_time_shown")));
        }
        line
    }

    /// A page of rows around the selection, then the position line.
    fn row_lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let muted = theme.fg("muted");
        if self.visible.is_empty() {
            return vec![
                Line::from(Span::styled(cut(&t!("pi.tui.tree.empty"), max), muted)),
                Line::from(Span::styled(cut(&self.status(0), max), muted)),
            ];
        }
        let page = self.page;
        let start = self
            .selected
            .saturating_sub(page / 2)
            .min(self.visible.len().saturating_sub(page));
        let mut out = Vec::with_capacity(page + 1);
        for (pos, &row) in self.visible.iter().enumerate().skip(start).take(page) {
            out.push(self.row_line(pos, &self.data.rows[row], theme, max));
        }
        out.push(Line::from(Span::styled(
            cut(&self.status(self.selected + 1), max),
            muted,
        )));
        out
    }

    /// One row: cursor, branch lines, fold and path marks, label, files mark, text.
    fn row_line(&self, pos: usize, r: &TreeRow, theme: &Theme, max: usize) -> Line<'static> {
        let chosen = pos == self.selected;
        let row = self.visible[pos];
        let folded = self.folded.contains(&row);
        let mut guide: String = self.guides[pos].chars().take(60).collect();
        // A branch's connector tells whether it is folded (⊞) or can be (⊟).
        let connector = guide.ends_with("├─ ") || guide.ends_with("└─ ");
        if connector {
            let shows_children = self
                .visible
                .get(pos + 1)
                .is_some_and(|&next| next < r.subtree_end);
            let mark = if folded {
                "⊞ "
            } else if shows_children {
                "⊟ "
            } else {
                "─ "
            };
            guide.truncate(guide.len() - "─ ".len());
            guide.push_str(mark);
        }
        let mut spans = vec![
            Span::styled(if chosen { "› " } else { "  " }, theme.fg("accent")),
            Span::styled(guide, theme.fg("dim")),
        ];
        if folded && !connector {
            spans.push(Span::styled("⊞ ", theme.fg("accent")));
        }
        if r.on_path {
            // The path from the root to where the conversation is now.
            spans.push(Span::styled("• ", theme.fg("accent")));
        }
        if let Some(label) = &r.label {
            spans.push(Span::styled(format!("[{label}] "), theme.fg("warning")));
            if self.show_label_time
                && let Some(time) = &r.label_time
            {
                let time = label_time(time, chrono::Local::now());
                spans.push(Span::styled(format!("{time} "), theme.fg("muted")));
            }
        }
        if r.files > 0 {
            // The run of this message changed files (it has a checkpoint).
            let mark = t!("pi.tui.tree.files", count = r.files);
            spans.push(Span::styled(format!("{mark} "), theme.fg("warning")));
        }
        // Where the conversation is now, even with the cursor elsewhere.
        let leaf = if Some(pos) == self.active {
            t!("pi.tui.tree.active")
        } else {
            String::new()
        };
        let used: usize = spans.iter().map(|s| width(&s.content)).sum();
        let text = cut(&r.text, max.saturating_sub(used + width(&leaf)));
        let tone = |token: Option<&str>| {
            let style = token.map_or_else(Style::default, |t| theme.fg(t));
            if chosen {
                style.add_modifier(Modifier::BOLD)
            } else {
                style
            }
        };
        let head = r.paint.head.min(text.len());
        let head = if text.is_char_boundary(head) { head } else { 0 };
        if head > 0 {
            spans.push(Span::styled(text[..head].to_string(), tone(r.paint.lead)));
        }
        spans.push(Span::styled(text[head..].to_string(), tone(r.paint.body)));
        if !leaf.is_empty() {
            spans.push(Span::styled(leaf, theme.fg("muted")));
        }
        if chosen {
            let bg = theme.bg("selectedBg");
            for span in &mut spans {
                span.style = Style::default().patch(span.style).patch(bg);
            }
        }
        Line::from(spans)
    }
}
