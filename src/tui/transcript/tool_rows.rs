//! Built-in renderers for tool rows: a title line describing the call and
//! the output, collapsed to a preview or expanded in full.

use crate::t;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::tui::transcript::ToolRow;
use crate::ui_kit::text::{sanitize, wrap_line, wrap_runs};
use crate::ui_kit::theme::Theme;

/// Render one tool row at `width` columns.
pub fn render_tool(
    row: &ToolRow,
    width: usize,
    expanded: bool,
    expand_key: &str,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let bg_token = if !row.done {
        "toolPendingBg"
    } else if row.is_error {
        "toolErrorBg"
    } else {
        "toolSuccessBg"
    };
    if row.id.starts_with("user-bash-") && row.custom.is_none() {
        return user_bash_lines(row, width, expanded, expand_key, theme);
    }
    let bg = theme.bg(bg_token);
    let inner = width.saturating_sub(2).max(1);
    let mut body: Vec<Vec<Span<'static>>> = Vec::new();
    let custom = row.custom.as_ref();
    match custom.and_then(|c| c.call.as_ref()) {
        Some(lines) => body.extend(lines.iter().map(|l| l.spans.clone())),
        None => {
            // The user's own `!` commands take the bash-mode colour; `!!` ones,
            // whose output the model never sees, are dimmed and say so.
            for line_runs in split_at_newlines(title_runs(row, theme)) {
                for row_runs in wrap_runs(&line_runs, inner, inner) {
                    body.push(
                        row_runs
                            .into_iter()
                            .map(|(text, style)| Span::styled(text, style))
                            .collect(),
                    );
                }
            }
        }
    }
    if let Some(lines) = custom.and_then(|c| c.result.as_ref()) {
        body.extend(lines.iter().map(|l| l.spans.clone()));
        if custom.is_some_and(|c| c.self_shell) {
            return body.into_iter().map(Line::from).collect();
        }
        return framed(body, bg);
    }
    let output_style = if row.is_error {
        theme.fg("error")
    } else {
        theme.fg("toolOutput")
    };
    let (shown, hint) = output_lines(row, expanded, expand_key);
    // The output, the hint and the status each stand a blank line below what precedes them.
    if !shown.is_empty() || hint.is_some() {
        body.push(Vec::new());
    }
    for line in shown {
        let style = diff_style(row, &line, theme).unwrap_or(output_style);
        for piece in wrap_line(&line, inner) {
            body.push(vec![Span::styled(piece, style)]);
        }
    }
    if let Some(hidden) = hint {
        // The key is styled apart from the words around it, wherever the locale puts it.
        let text = t!("pi.tool.more_lines", count = hidden, key = "\u{0}");
        let (before, after) = text.split_once('\u{0}').unwrap_or((text.as_str(), ""));
        let before = before.trim_end();
        let after = after.trim_start();
        let mut spans = vec![Span::styled(before.to_string(), theme.fg("muted"))];
        let gap = if before.is_empty() { "" } else { " " };
        spans.push(Span::styled(format!("{gap}{expand_key}"), theme.fg("dim")));
        if !after.is_empty() {
            spans.push(Span::styled(format!(" {after}"), theme.fg("muted")));
        }
        body.push(spans);
    }
    if let Some(status) = status_line(row) {
        body.push(Vec::new());
        body.push(vec![Span::styled(status, theme.fg("muted"))]);
    }
    if custom.is_some_and(|c| c.self_shell) {
        return body.into_iter().map(Line::from).collect();
    }
    framed(body, bg)
}

/// Output lines a collapsed `!` command shows (its last ones).
const USER_BASH_PREVIEW: usize = 20;

/// A command the user ran with `!` (or `!!`): between two rules in the bash-mode colour
/// (dim when its output stays out of the context), the command, its output's last lines,
/// then how it ended when that was not a clean exit.
fn user_bash_lines(
    row: &ToolRow,
    width: usize,
    expanded: bool,
    expand_key: &str,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let excluded = row.args.get("excludeFromContext") == Some(&Value::Bool(true));
    let colour = if excluded { "dim" } else { "bashMode" };
    let inner = width.saturating_sub(2).max(1);
    let indented =
        |text: String, style: Style| Line::from(vec![Span::raw(" "), Span::styled(text, style)]);
    let rule = Line::from(Span::styled("─".repeat(width), theme.fg(colour)));
    let mut lines = vec![rule.clone()];
    let mut title = title(row);
    if excluded {
        title = format!("{title}  {}", t!("pi.tui.bash.excluded"));
    }
    for line in title.split('\n') {
        for piece in wrap_line(&sanitize(line), inner) {
            lines.push(indented(piece, theme.bold(colour)));
        }
    }
    let clean = sanitize(&row.output);
    let all: Vec<&str> = match clean.trim_end_matches('\n') {
        "" => Vec::new(),
        text => text.split('\n').collect(),
    };
    let hidden = if expanded {
        0
    } else {
        all.len().saturating_sub(USER_BASH_PREVIEW)
    };
    if !all.is_empty() {
        lines.push(Line::default());
    }
    for line in &all[hidden..] {
        for piece in wrap_line(line, inner) {
            lines.push(indented(piece, theme.fg("muted")));
        }
    }
    let details = row.details.as_ref();
    let mut status: Vec<(String, Style)> = Vec::new();
    if !row.done {
        status.push((t!("pi.tool.bash.running"), theme.fg("muted")));
    } else if hidden > 0 {
        let hint = t!("pi.tool.earlier_lines", count = hidden, key = expand_key);
        status.push((hint, theme.fg("muted")));
    }
    if details.and_then(|d| d.get("cancelled")) == Some(&Value::Bool(true)) {
        status.push((t!("pi.tui.bash.cancelled"), theme.fg("warning")));
    } else if let Some(code) = details
        .and_then(|d| d.get("exitCode"))
        .and_then(Value::as_i64)
        .filter(|c| *c != 0)
    {
        status.push((t!("pi.tui.bash.exit_code", code = code), theme.fg("error")));
    }
    if !status.is_empty() {
        lines.push(Line::default());
    }
    for (text, style) in status {
        lines.push(indented(text, style));
    }
    lines.push(rule);
    lines
}

/// Styled runs cut into lines where their text breaks (a multi-line command shows
/// line by line, as typed), each run's text sanitised.
fn split_at_newlines(runs: Vec<(String, Style)>) -> Vec<Vec<(String, Style)>> {
    let mut lines = vec![Vec::new()];
    for (text, style) in runs {
        for (k, piece) in text.split('\n').enumerate() {
            if k > 0 {
                lines.push(Vec::new());
            }
            if let Some(line) = lines.last_mut() {
                line.push((sanitize(piece), style));
            }
        }
    }
    lines
}

/// Rows on the tool background with one column of padding.
fn framed(body: Vec<Vec<Span<'static>>>, bg: Style) -> Vec<Line<'static>> {
    let mut lines = vec![Line::default().style(bg)];
    for spans in body {
        let mut all = vec![Span::raw(" ")];
        all.extend(spans);
        lines.push(Line::from(all).style(bg));
    }
    lines.push(Line::default().style(bg));
    lines
}

fn arg<'a>(row: &'a ToolRow, key: &str) -> Option<&'a str> {
    row.args.get(key).and_then(Value::as_str)
}

fn display_path(row: &ToolRow) -> String {
    let path = arg(row, "path")
        .or_else(|| arg(row, "file_path"))
        .unwrap_or("...");
    crate::ui_kit::text::tilde_path(std::path::Path::new(path))
}

/// Stands for the highlighted argument while a title is translated.
const MARK: &str = "\u{1}";

/// The call's title as styled runs: the tool's words bold, the path or pattern it works
/// on in the accent colour (a read's line range in the warning colour), and what follows
/// in the output colour.
fn title_runs(row: &ToolRow, theme: &Theme) -> Vec<(String, Style)> {
    let pattern = || arg(row, "pattern").unwrap_or("").to_string();
    let path_or_dot = || arg(row, "path").unwrap_or(".");
    let (template, value, range) = match row.name.as_str() {
        "read" => {
            let template = t!("pi.tool.read.title", path = MARK);
            (template, display_path(row), line_range(row))
        }
        "edit" => (
            t!("pi.tool.edit.title", path = MARK),
            display_path(row),
            None,
        ),
        "write" => {
            let size = arg(row, "content").map(|c| c.lines().count()).unwrap_or(0);
            let template = t!("pi.tool.write.title", path = MARK, count = size);
            (template, display_path(row), None)
        }
        "grep" => {
            let template = t!("pi.tool.grep.title", pattern = MARK, path = path_or_dot());
            (template, pattern(), None)
        }
        "find" => {
            let template = t!("pi.tool.find.title", pattern = MARK, path = path_or_dot());
            (template, pattern(), None)
        }
        "ls" => (
            t!("pi.tool.ls.title", path = MARK),
            path_or_dot().to_string(),
            None,
        ),
        _ => return vec![(title(row), theme.bold("toolTitle"))],
    };
    let Some((before, after)) = template.split_once(MARK) else {
        // A locale's title without the placeholder is shown as it is.
        return vec![(template, theme.bold("toolTitle"))];
    };
    let mut runs = vec![
        (before.to_string(), theme.bold("toolTitle")),
        (value, theme.fg("accent")),
    ];
    runs.extend(range.map(|r| (r, theme.fg("warning"))));
    runs.push((after.to_string(), theme.fg("toolOutput")));
    runs
}

/// A read's `:start-end` (or `:start`) when it names an offset or a limit.
fn line_range(row: &ToolRow) -> Option<String> {
    let offset = row.args.get("offset").and_then(Value::as_u64);
    let limit = row.args.get("limit").and_then(Value::as_u64);
    if offset.is_none() && limit.is_none() {
        return None;
    }
    let start = offset.unwrap_or(1);
    Some(match limit {
        Some(l) => format!(":{start}-{}", start + l.saturating_sub(1)),
        None => format!(":{start}"),
    })
}

/// The one-line description of a call whose title has no highlighted argument.
fn title(row: &ToolRow) -> String {
    match row.name.as_str() {
        "bash" => format!("$ {}", arg(row, "command").unwrap_or("...")),
        other => format!("{other} {}", compact_json(&row.args)),
    }
}

fn compact_json(v: &Value) -> String {
    let s = v.to_string();
    crate::ui_kit::text::truncate(&s, 200, "…")
}

/// How many output lines a collapsed row shows, and from which end.
fn preview_rule(name: &str) -> (usize, bool) {
    match name {
        "bash" => (5, true),
        "read" => (10, false),
        "write" => (10, false),
        "grep" => (15, false),
        "find" | "ls" => (20, false),
        "edit" => (30, false),
        _ => (10, false),
    }
}

/// The output lines to show and, when collapsed, how many lines are hidden below them.
fn output_lines(row: &ToolRow, expanded: bool, expand_key: &str) -> (Vec<String>, Option<usize>) {
    let text = if row.name == "edit" && !row.is_error {
        row.details
            .as_ref()
            .and_then(|d| d.get("diff"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| row.output.clone())
    } else if row.name == "write" && !row.is_error {
        arg(row, "content").unwrap_or("").to_string()
    } else {
        row.output.clone()
    };
    let clean = sanitize(&text);
    let all: Vec<String> = clean
        .trim_end_matches('\n')
        .split('\n')
        .map(str::to_string)
        .filter(|_| !clean.trim().is_empty())
        .collect();
    let (limit, tail) = preview_rule(&row.name);
    if expanded || all.len() <= limit {
        return (all, None);
    }
    let hidden = all.len() - limit;
    if tail {
        // A tail preview announces the hidden lines first.
        let mut lines = vec![t!(
            "pi.tool.earlier_lines",
            count = hidden,
            key = expand_key
        )];
        lines.extend(all[hidden..].iter().cloned());
        return (lines, None);
    }
    (all[..limit].to_vec(), Some(hidden))
}

fn diff_style(row: &ToolRow, line: &str, theme: &Theme) -> Option<Style> {
    if row.name != "edit" || row.is_error {
        return None;
    }
    let token = match line.chars().next() {
        Some('+') => "toolDiffAdded",
        Some('-') => "toolDiffRemoved",
        _ => "toolDiffContext",
    };
    Some(theme.fg(token))
}

/// How long a finished bash command took (as pi shows it: `Took 0.4s`; the exit code is
/// in the output text); "running" while live.
fn status_line(row: &ToolRow) -> Option<String> {
    if !row.done {
        return (row.name == "bash").then(|| t!("pi.tool.bash.running"));
    }
    if row.name != "bash" {
        return None;
    }
    let secs = row.duration.map(|d| format!("{:.1}s", d.as_secs_f64()))?;
    Some(t!("pi.tool.bash.done", duration = secs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(name: &str, args: Value, output: &str) -> ToolRow {
        ToolRow {
            id: "c".into(),
            name: name.into(),
            args,
            output: output.into(),
            details: None,
            is_error: false,
            done: true,
            duration: None,
            started: None,
            custom: None,
        }
    }

    fn text(lines: &[Line<'_>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn bash_collapses_to_the_tail_and_expands_fully() {
        let out: Vec<String> = (1..=8).map(|i| format!("line{i}")).collect();
        let r = row("bash", json!({"command": "seq 8"}), &out.join("\n"));
        let collapsed = text(&render_tool(&r, 60, false, "ctrl+o", &Theme::plain()));
        assert_eq!(collapsed[1], " $ seq 8");
        assert_eq!(collapsed[2], " ");
        assert_eq!(collapsed[3], " ... (3 earlier lines, ctrl+o to expand)");
        assert_eq!(collapsed[4], " line4");
        assert!(!collapsed.iter().any(|l| l.contains("line3")));
        let expanded = text(&render_tool(&r, 40, true, "ctrl+o", &Theme::plain()));
        assert!(expanded.iter().any(|l| l == " line1"));
    }

    #[test]
    fn a_user_command_sits_between_rules_with_its_last_lines_and_its_exit_code() {
        let out: Vec<String> = (1..=25).map(|i| format!("line{i}")).collect();
        let mut r = row("bash", json!({"command": "make"}), &out.join("\n"));
        r.id = "user-bash-1".into();
        r.is_error = true;
        r.details = Some(json!({"exitCode": 2, "cancelled": false}));
        let lines = text(&render_tool(&r, 30, false, "ctrl+o", &Theme::plain()));
        assert_eq!(lines[0], "─".repeat(30));
        assert_eq!(lines[1], " $ make");
        assert_eq!(lines[3], " line6", "the last 20 lines: {lines:?}");
        assert!(!lines.iter().any(|l| l == " line5"), "{lines:?}");
        let end = &lines[lines.len() - 4..];
        assert_eq!(end[0], "");
        assert_eq!(end[1], " ... (5 earlier lines, ctrl+o to expand)");
        assert_eq!(end[2], " (exit 2)");
        assert_eq!(end[3], "─".repeat(30));
        let expanded = text(&render_tool(&r, 30, true, "ctrl+o", &Theme::plain()));
        assert!(expanded.iter().any(|l| l == " line1"), "{expanded:?}");
        r.details = Some(json!({"exitCode": null, "cancelled": true}));
        r.output = String::new();
        let cancelled = text(&render_tool(&r, 30, false, "ctrl+o", &Theme::plain()));
        assert_eq!(cancelled[1..4], [" $ make", "", " (cancelled)"]);
    }

    #[test]
    fn a_multi_line_command_shows_line_by_line() {
        let r = row("bash", json!({"command": "echo one\necho two"}), "one\ntwo");
        let lines = text(&render_tool(&r, 40, false, "ctrl+o", &Theme::plain()));
        assert_eq!(lines[1..3], [" $ echo one", " echo two"], "{lines:?}");
        let mut own = r.clone();
        own.id = "user-bash-1".into();
        let lines = text(&render_tool(&own, 40, false, "ctrl+o", &Theme::plain()));
        assert_eq!(lines[1..3], [" $ echo one", " echo two"], "{lines:?}");
    }

    #[test]
    fn read_shows_range_and_a_more_lines_hint() {
        let body: Vec<String> = (1..=12).map(|i| i.to_string()).collect();
        let r = row(
            "read",
            json!({"path": "a.rs", "offset": 5, "limit": 12}),
            &body.join("\n"),
        );
        let lines = text(&render_tool(&r, 60, false, "ctrl+o", &Theme::plain()));
        assert_eq!(lines[1], " read a.rs:5-16");
        assert!(
            lines
                .iter()
                .any(|l| l == " ... (2 more lines, ctrl+o to expand)")
        );
    }

    #[test]
    fn tool_output_cannot_emit_escapes_and_fits_the_width() {
        let r = row(
            "bash",
            json!({"command": "x"}),
            "\u{1b}]0;pwned\u{7}漢字漢字漢字漢字漢字漢字",
        );
        for line in render_tool(&r, 12, true, "ctrl+o", &Theme::plain()) {
            assert!(line.width() <= 12);
            assert!(!line.spans.iter().any(|s| s.content.contains('\u{1b}')));
        }
    }
}
