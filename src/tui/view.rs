//! Drawing the whole screen from the application state.

use crate::t;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::App;
use crate::tui::chrome::extension::Placement;
use crate::tui::chrome::{footer_lines, header_lines, rule, working_line};
use crate::tui::transcript::render::RenderOptions;
use crate::ui_kit::text::{sanitize, truncate};

/// Narrower than this, only a notice is drawn.
pub const MIN_WIDTH: u16 = 20;
/// Editor rows shown before it scrolls.
const EDITOR_MAX_ROWS: usize = 8;
/// `/` completions shown at once.
const COMPLETIONS_VISIBLE: usize = 5;

/// Draw one frame.
pub fn draw(frame: &mut Frame<'_>, app: &mut App) {
    let area = frame.area();
    if area.width < MIN_WIDTH {
        let notice = Paragraph::new(Line::from(truncate(
            &t!("pi.tui.too_narrow"),
            area.width as usize,
            "",
        )));
        frame.render_widget(
            notice,
            Rect {
                height: 1.min(area.height),
                ..area
            },
        );
        return;
    }
    let width = area.width as usize;
    let theme = app.theme.clone();
    app.ext.prune();
    let lua = crate::tui::chrome::lua_surfaces::LuaChrome::take(app.lua.surfaces.as_ref(), area);
    let mut above = app.ext.widget_lines(Placement::AboveEditor, width);
    above.extend(lua.above.iter().cloned());
    let mut below = app.ext.widget_lines(Placement::BelowEditor, width);
    below.extend(lua.below.iter().cloned());

    let pending = pending_lines(app, width);
    // While an extension's dialog or component has the keyboard, its own hints apply.
    let extension_focused = lua.focused || !app.ext.dialogs.is_empty();
    let working: Vec<Line<'static>> = match app.busy_since {
        Some(_) if extension_focused || app.ext.working_hidden => Vec::new(),
        Some(since) => vec![
            app.ext
                .working_line(since.elapsed(), &theme, width)
                .unwrap_or_else(|| {
                    working_line(
                        since.elapsed(),
                        &app.keys.keys_text("app.interrupt"),
                        &theme,
                        width,
                    )
                }),
        ],
        None => Vec::new(),
    };
    let (input_lines, cursor) = match &lua.inline {
        Some(lines) => (lines.clone(), None),
        None => input_lines(app, width),
    };
    let footer = match &lua.footer {
        Some(lines) => lines.clone(),
        None => {
            let mut lines = footer_lines(&app.footer, &theme, width);
            lines.extend(app.ext.status_line(&theme, width));
            lines
        }
    };

    let fixed = pending.len()
        + working.len()
        + above.len()
        + input_lines.len()
        + below.len()
        + footer.len();
    let available = (area.height as usize).saturating_sub(fixed).max(1);

    let options = RenderOptions {
        width,
        tools_expanded: app.tools_expanded,
        thinking_expanded: app.thinking_expanded,
        expand_key: app.keys.keys_text("app.tools.expand"),
        hidden_thinking_label: app.ext.hidden_thinking_label.clone(),
    };
    let header = match &lua.header {
        Some(lines) => lines.clone(),
        None => header_lines(&app.keys, &theme, width, app.quiet_startup, &app.resources),
    };
    let header_len = header.len();
    // Only the items that reach the screen are laid out: the rendered tail
    // covers the scroll position plus one screen, or the whole transcript.
    let need = app.scroll.saturating_add(available);
    let (body_total, whole) = app
        .cache
        .update_tail(&app.transcript, &options, &theme, need);
    // Above an incomplete tail there is more than a screen: the header is
    // out of sight and the scroll position needs no clamp.
    let header_len = if whole { header_len } else { 0 };
    let header: Vec<Line<'static>> = if whole { header } else { Vec::new() };
    let total = header_len + body_total;
    let visible = total.min(available);
    app.page = available;
    app.scroll = app.scroll.min(total - visible);
    let end = total - app.scroll;
    let start = end - visible;
    // Header lines first (they scroll with the transcript), then the body.
    let mut shown: Vec<Line<'static>> = header
        .into_iter()
        .skip(start)
        .take(end.saturating_sub(start))
        .collect();
    let body_end = end.saturating_sub(header_len);
    let body_count = visible - shown.len();
    shown.extend(app.cache.window(body_end, body_count));

    // Content flows from the top; the editor and footer follow it and stay
    // at the bottom once the transcript fills the screen.
    let chunks = Layout::vertical([
        Constraint::Length(visible as u16),
        Constraint::Length(pending.len() as u16),
        Constraint::Length(working.len() as u16),
        Constraint::Length(above.len() as u16),
        Constraint::Length(input_lines.len() as u16),
        Constraint::Length(below.len() as u16),
        Constraint::Length(footer.len() as u16),
        Constraint::Min(0),
    ])
    .split(area);
    frame.render_widget(Paragraph::new(shown), chunks[0]);

    frame.render_widget(Paragraph::new(pending), chunks[1]);
    frame.render_widget(Paragraph::new(working), chunks[2]);
    frame.render_widget(Paragraph::new(above), chunks[3]);
    frame.render_widget(Paragraph::new(input_lines), chunks[4]);
    frame.render_widget(Paragraph::new(below), chunks[5]);
    frame.render_widget(Paragraph::new(footer), chunks[6]);
    if let Some((x, y)) = cursor {
        frame.set_cursor_position(Position {
            x: chunks[4].x + x as u16,
            y: chunks[4].y + y as u16,
        });
    }
    lua.draw_overlays(frame);
    crate::tui::transcript::hyperlink::apply_links(frame.buffer_mut());
}

/// Queued steering and follow-up messages, above the editor.
fn pending_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let muted = app.theme.fg("muted");
    let mut out = Vec::new();
    let steering = app.queues.steering.texts();
    let follow_up = app.queues.follow_up.texts();
    let labels = [t!("pi.tui.queue.steering"), t!("pi.tui.queue.follow_up")];
    for (label, texts) in labels.iter().zip([&steering, &follow_up]) {
        for text in texts {
            let one_line = sanitize(text).replace('\n', " ");
            out.push(Line::from(Span::styled(
                truncate(&format!(" {label}: {one_line}"), width, "…"),
                muted,
            )));
        }
    }
    if !out.is_empty() {
        out.push(Line::from(Span::styled(
            truncate(
                &t!(
                    "pi.tui.queue.dequeue_hint",
                    key = app.keys.keys_text("app.message.dequeue")
                ),
                width,
                "…",
            ),
            app.theme.fg("dim"),
        )));
    }
    out
}

/// The editor between two rules (or the open overlay), plus `/` completions.
/// Returns the lines and the cursor position inside them.
fn input_lines(app: &App, width: usize) -> (Vec<Line<'static>>, Option<(usize, usize)>) {
    // The editor's rules show the thinking level (bash mode for `!`), as in pi.
    let token = if app.editor.text().starts_with('!') {
        "bashMode".to_string()
    } else {
        let level = if app.footer.thinking.is_empty() {
            "off"
        } else {
            app.footer.thinking.as_str()
        };
        let mut chars = level.chars();
        let capitalised: String = chars
            .next()
            .map(|c| c.to_ascii_uppercase())
            .into_iter()
            .chain(chars)
            .collect();
        format!("thinking{capitalised}")
    };
    let border = app.theme.fg(&token);
    if let Some(dialog) = app.ext.dialogs.front() {
        let (body, cursor) = dialog.lines(&app.theme, &app.keys, width, std::time::Instant::now());
        let mut lines = vec![rule(width, app.theme.fg("borderAccent"))];
        lines.extend(body);
        lines.push(rule(width, app.theme.fg("borderAccent")));
        return (lines, cursor.map(|(x, y)| (x, y + 1)));
    }
    if let Some(overlay) = &app.overlay {
        let mut lines = vec![rule(width, app.theme.fg("borderAccent"))];
        lines.extend(overlay.lines(&app.theme, width));
        lines.push(rule(width, app.theme.fg("borderAccent")));
        return (lines, None);
    }
    let (rows, (cx, cy)) = app.editor.layout(width.saturating_sub(1));
    let first = cy.saturating_sub(EDITOR_MAX_ROWS - 1);
    let mut lines = vec![rule(width, border)];
    for row in rows.iter().skip(first).take(EDITOR_MAX_ROWS) {
        lines.push(Line::from(row.clone()));
    }
    lines.push(rule(width, border));
    let cursor = Some((cx, cy - first + 1));
    if let Some(selected) = app.completion {
        let options = app.completions();
        let start = selected.saturating_sub(COMPLETIONS_VISIBLE - 1);
        for (i, (label, desc)) in options
            .iter()
            .enumerate()
            .skip(start)
            .take(COMPLETIONS_VISIBLE)
        {
            let chosen = i == selected;
            let marker = if chosen { "→ " } else { "  " };
            let label_style = if chosen {
                app.theme.fg("accent")
            } else {
                ratatui::style::Style::default()
            };
            let head = truncate(&format!("{marker}{label:<15}"), width, "…");
            let room = width.saturating_sub(crate::ui_kit::text::width(&head) + 1);
            let mut spans = vec![Span::styled(head, label_style)];
            if room > 3 && !desc.is_empty() {
                crate::i18n::probe::observe(desc);
                spans.push(Span::styled(
                    format!(" {}", truncate(desc, room, "…")),
                    app.theme.fg("muted"),
                ));
            }
            lines.push(Line::from(spans));
        }
    }
    (lines, cursor)
}
