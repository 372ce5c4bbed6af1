//! Drawing the whole screen from the application state.

use crate::t;

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::tui::app::App;
use crate::tui::chrome::extension::Placement;
use crate::tui::chrome::select_list::{PrimaryColumn, RowStyles, select_row};
use crate::tui::chrome::{footer_lines, rule, waiting_label, working_line};
use crate::tui::transcript::render::RenderOptions;
use crate::ui_kit::text::{sanitize, truncate, width as text_width};

/// Narrower than this, only a notice is drawn.
pub const MIN_WIDTH: u16 = 20;
/// Editor rows shown before it scrolls.
const EDITOR_MAX_ROWS: usize = 8;
/// `/` completions shown at once (`autocompleteMaxVisible`, 3 to 20).
fn completions_visible(app: &App) -> usize {
    (app.ui_settings.settings.autocomplete_max_visible() as usize).clamp(3, 20)
}

/// Draw one frame: the whole screen (alternate-screen mode).
pub fn draw(frame: &mut Frame<'_>, app: &mut App) {
    draw_with_images(frame, app);
}

/// [`draw`], returning the images drawn as (id, column, row).
pub fn draw_with_images(frame: &mut Frame<'_>, app: &mut App) -> Vec<(u32, u16, u16)> {
    let area = frame.area();
    app.screen_rows = area.height;
    if area.width < MIN_WIDTH {
        draw_too_narrow(frame);
        return Vec::new();
    }
    let width = area.width as usize;
    let live = Live::build(app, area);
    let available = (area.height as usize)
        .saturating_sub(live.fixed_len())
        .max(1);

    let options = render_options(app, width);
    let header = match &live.lua.header {
        Some(lines) => lines.clone(),
        None => header_lines(app, width),
    };
    let header_len = header.len();
    // Only the items that reach the screen are laid out: the rendered tail
    // covers the scroll position plus one screen, or the whole transcript.
    let need = app.scroll.saturating_add(available);
    let (body_total, whole) = app
        .cache
        .update_tail(&app.transcript, &options, &app.theme, need);
    // Items above the rendered tail are out of sight: their lines are let go.
    let tail_start = app.cache.tail_start();
    app.cache.forget(0..tail_start);
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
    let body_top = shown.len();
    shown.extend(app.cache.window(body_end, body_count));
    let protocol = options.images.protocol.filter(|_| !live.has_overlays());
    live.render(frame, shown);
    let Some(protocol) = protocol else {
        return Vec::new();
    };
    let images: Vec<_> = app
        .cache
        .window_images(body_end, body_count)
        .into_iter()
        .map(|(row, image)| (body_top + row, image))
        .filter(|(row, image)| row + image.placement.rows as usize <= visible)
        .collect();
    crate::tui::transcript::images::draw_into_buffer(frame.buffer_mut(), &images, protocol)
}

/// The notice drawn instead of the UI on a too narrow terminal.
pub fn draw_too_narrow(frame: &mut Frame<'_>) {
    let area = frame.area();
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
}

/// How transcript items render at `width` with the app's switches.
pub fn render_options(app: &App, width: usize) -> RenderOptions {
    RenderOptions {
        width,
        tools_expanded: app.tools_expanded,
        thinking_expanded: app.thinking_expanded,
        expand_key: app.keys.keys_text("app.tools.expand"),
        hidden_thinking_label: app.ext.hidden_thinking_label.clone(),
        images: image_options(app),
    }
}

/// How the transcript's images are drawn: with the terminal's graphics
/// protocol when it has one and `terminal.showImages` is on.
pub fn image_options(app: &App) -> crate::tui::transcript::images::ImageOptions {
    use crate::ui_kit::terminal_image;
    let settings = &app.ui_settings.settings;
    crate::tui::transcript::images::ImageOptions {
        protocol: app.image_protocol.filter(|_| settings.show_images()),
        width_cells: settings.image_width_cells(),
        cell: terminal_image::cell_size(),
        max_rows: crossterm::terminal::size().map_or(0, |(_, rows)| rows.saturating_sub(2)),
    }
}

/// The built-in header at `width`; with Ctrl+O (expanded rows) it lists every key
/// and each loaded resource's path.
pub fn header_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let expanded = app.tools_expanded;
    crate::tui::chrome::header::header_lines(
        &app.keys,
        &app.theme,
        width,
        crate::tui::chrome::header::HeaderOptions {
            quiet: app.quiet_startup,
            expanded,
            key_help: if expanded {
                key_help_lines(app, width)
            } else {
                Vec::new()
            },
            resources: &app.resources,
        },
    )
}

/// The full key help of the expanded header.
fn key_help_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    use crate::ui_kit::keybindings::description;
    let kb = &app.keys;
    let mut rows: Vec<(String, String)> = [
        "app.interrupt",
        "app.clear",
        "app.exit",
        "app.suspend",
        "tui.editor.deleteToLineEnd",
        "app.thinking.cycle",
    ]
    .iter()
    .map(|id| (kb.keys_text(id), description(id)))
    .collect();
    rows.push((
        format!(
            "{}/{}",
            kb.keys_text("app.model.cycleForward"),
            kb.keys_text("app.model.cycleBackward")
        ),
        t!("pi.cmd.hotkeys.cycle_models"),
    ));
    for id in [
        "app.model.select",
        "app.tools.expand",
        "app.thinking.toggle",
        "app.editor.external",
    ] {
        rows.push((kb.keys_text(id), description(id)));
    }
    rows.push(("/".into(), t!("pi.cmd.hotkeys.slash")));
    rows.push(("!".into(), t!("pi.cmd.hotkeys.bash")));
    rows.push(("!!".into(), t!("pi.cmd.hotkeys.bash_excluded")));
    for id in [
        "app.message.followUp",
        "app.message.dequeue",
        "app.clipboard.pasteImage",
    ] {
        rows.push((kb.keys_text(id), description(id)));
    }
    rows.into_iter()
        .filter(|(key, _)| !key.is_empty())
        .map(|(key, text)| {
            Line::from(vec![
                Span::raw(" "),
                Span::styled(key.clone(), app.theme.fg("dim")),
                Span::styled(
                    truncate(
                        &format!(" {text}"),
                        width.saturating_sub(text_width(&key) + 1),
                        "…",
                    ),
                    app.theme.fg("muted"),
                ),
            ])
        })
        .collect()
}

/// Everything drawn below the transcript: queued messages, the working
/// line, extension widgets, the editor (or the open panel) and the footer.
pub struct Live {
    /// What Lua components published (header, footer, widgets, overlays).
    pub lua: crate::tui::chrome::lua_surfaces::LuaChrome,
    pending: Vec<Line<'static>>,
    working: Vec<Line<'static>>,
    above: Vec<Line<'static>>,
    input: Vec<Line<'static>>,
    cursor: Option<(usize, usize)>,
    below: Vec<Line<'static>>,
    footer: Vec<Line<'static>>,
}

impl Live {
    /// Collect the live parts for a screen of `area`.
    pub fn build(app: &mut App, area: Rect) -> Live {
        let width = area.width as usize;
        let theme = app.theme.clone();
        app.ext.prune();
        let lua =
            crate::tui::chrome::lua_surfaces::LuaChrome::take(app.lua.surfaces.as_ref(), area);
        // A blank row always parts the conversation from the widgets and the editor.
        let mut above = vec![Line::default()];
        above.extend(app.ext.widget_lines(Placement::AboveEditor, width));
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
                        let key = app.keys.keys_text("app.interrupt");
                        let label = waiting_label(app.transcript.retry_countdown(), &key);
                        working_line(since.elapsed(), &key, label, &theme, width)
                    }),
            ],
            None => Vec::new(),
        };
        let (input, cursor) = match &lua.inline {
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
        Live {
            lua,
            pending,
            working,
            above,
            input,
            cursor,
            below,
            footer,
        }
    }

    /// Rows the live parts take (the transcript gets the rest).
    pub fn fixed_len(&self) -> usize {
        self.pending.len()
            + self.working.len()
            + self.above.len()
            + self.input.len()
            + self.below.len()
            + self.footer.len()
    }

    /// Lua overlays are open (they are placed on the whole screen).
    pub fn has_overlays(&self) -> bool {
        !self.lua.overlays.is_empty()
    }

    /// Draw `transcript` lines at the top of the frame, the live parts below
    /// them, then overlays and hyperlinks.
    pub fn render(self, frame: &mut Frame<'_>, transcript: Vec<Line<'static>>) {
        let area = frame.area();
        if let Some(cursor) = self.render_into(frame.buffer_mut(), area, transcript) {
            frame.set_cursor_position(cursor);
        }
    }

    /// [`Live::render`] into `buf` on `area`; returns where the cursor goes.
    pub fn render_into(
        mut self,
        buf: &mut Buffer,
        area: Rect,
        transcript: Vec<Line<'static>>,
    ) -> Option<Position> {
        // Live parts taller than the screen (a tall panel): their top rows go, as a
        // terminal scrolls them off, so the panel's end and the footer stay in sight.
        let mut over = self.fixed_len().saturating_sub(area.height as usize);
        let cut = over > 0;
        for part in [&mut self.pending, &mut self.working, &mut self.above] {
            let n = over.min(part.len());
            part.drain(..n);
            over -= n;
        }
        let n = over.min(self.input.len());
        if n > 0 {
            self.input.drain(..n);
            self.cursor = self
                .cursor
                .and_then(|(x, y)| y.checked_sub(n).map(|y| (x, y)));
        }
        let available = (area.height as usize).saturating_sub(self.fixed_len());
        let least = usize::from(!cut);
        let skip = transcript.len().saturating_sub(available.max(least));
        let shown: Vec<Line<'static>> = transcript.into_iter().skip(skip).collect();
        // Content flows from the top; the editor and footer follow it and stay
        // at the bottom once the transcript fills the screen.
        let chunks = stack(
            area,
            [
                shown.len(),
                self.pending.len(),
                self.working.len(),
                self.above.len(),
                self.input.len(),
                self.below.len(),
                self.footer.len(),
            ],
        );
        Paragraph::new(shown).render(chunks[0], buf);
        Paragraph::new(self.pending).render(chunks[1], buf);
        Paragraph::new(self.working).render(chunks[2], buf);
        Paragraph::new(self.above).render(chunks[3], buf);
        Paragraph::new(self.input).render(chunks[4], buf);
        Paragraph::new(self.below).render(chunks[5], buf);
        Paragraph::new(self.footer).render(chunks[6], buf);
        self.lua.draw_overlays_in(buf, area);
        crate::tui::transcript::hyperlink::apply_links(buf);
        let (x, y) = self.cursor?;
        let at = (chunks[4].height as usize > y).then(|| Position {
            x: chunks[4].x + x as u16,
            y: chunks[4].y + y as u16,
        })?;
        // The caret is drawn in reverse video; the terminal's own cursor is
        // placed there too, shown only with `showHardwareCursor`.
        if let Some(cell) = buf.cell_mut(at) {
            cell.modifier.insert(ratatui::style::Modifier::REVERSED);
        }
        Some(at)
    }
}

/// Rows of `heights` stacked from the top of `area`. When they do not all fit,
/// the last (the footer) keeps its rows and the ones above it are cut.
fn stack<const N: usize>(area: Rect, heights: [usize; N]) -> [Rect; N] {
    let clamp = |h: usize| u16::try_from(h).unwrap_or(u16::MAX);
    let last = heights.last().map_or(0, |h| clamp(*h).min(area.height));
    let mut y = area.y;
    let mut index = 0;
    heights.map(|h| {
        index += 1;
        let floor = if index == N {
            area.bottom()
        } else {
            area.bottom().saturating_sub(last)
        };
        let height = clamp(h).min(floor.saturating_sub(y));
        let row = Rect::new(area.x, y, area.width, height);
        y += height;
        row
    })
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
        if overlay.framed() {
            return (overlay.lines(&app.theme, width), None);
        }
        let mut lines = vec![rule(width, app.theme.fg("borderAccent"))];
        lines.extend(overlay.lines(&app.theme, width));
        lines.push(rule(width, app.theme.fg("borderAccent")));
        return (lines, None);
    }
    // `editorPaddingX`: blank columns on both sides of the text (0 to 3).
    let pad = (app.ui_settings.settings.editor_padding_x() as usize)
        .min(3)
        .min(width.saturating_sub(2) / 4);
    let (rows, (cx, cy)) = app.editor.layout(width.saturating_sub(1 + 2 * pad));
    let first = cy.saturating_sub(EDITOR_MAX_ROWS - 1);
    let mut lines = vec![rule(width, border)];
    for row in rows.iter().skip(first).take(EDITOR_MAX_ROWS) {
        lines.push(Line::from(format!("{}{row}", " ".repeat(pad))));
    }
    lines.push(rule(width, border));
    let cursor = Some((cx + pad, cy - first + 1));
    if let Some(selected) = app.completion {
        let options = app.completions();
        let visible = completions_visible(app);
        let start = selected.saturating_sub(visible - 1);
        let column = PrimaryColumn::SLASH.width_for(options.iter().map(|(l, _)| l.as_str()));
        let styles = RowStyles {
            selected: app.theme.fg("accent"),
            description: app.theme.fg("muted"),
        };
        for (i, (label, desc)) in options.iter().enumerate().skip(start).take(visible) {
            crate::i18n::probe::observe(desc);
            lines.push(select_row(
                label,
                desc,
                i == selected,
                width,
                column,
                styles,
            ));
        }
        if options.len() > visible {
            let counter = t!(
                "pi.tui.completion.position",
                current = selected + 1,
                total = options.len()
            );
            lines.push(Line::from(Span::styled(
                truncate(&format!("  {counter}"), width, "…"),
                app.theme.fg("dim"),
            )));
        }
    }
    (lines, cursor)
}
