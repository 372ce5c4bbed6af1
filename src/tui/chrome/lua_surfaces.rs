//! Drawing what Lua components published (footer, header, widgets, a
//! custom in place of the editor, overlays) and routing keys to focused
//! components. Nothing here calls Lua: the extension thread renders and
//! publishes, this side reads the latest lines.

use ansi_to_tui::IntoText;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

use crate::lua::ui::components::EDITOR_ID;
use crate::lua::ui::surfaces::{OverlayOptions, Placement, Size, SurfaceStore};
use crate::tui::app::App;
use crate::ui_kit::keybindings::KeyCombo;

/// The app's link to Lua components.
#[derive(Default)]
pub struct LuaUi {
    /// Lines published by Lua components, when extensions run.
    pub surfaces: Option<SurfaceStore>,
    /// What each Lua-rendered row looked like when last sent to Lua.
    pub sent: std::collections::HashMap<String, u64>,
    /// The store's reload count when rows were last sent.
    pub reloads: u64,
}

/// Lines a tool's Lua renderers drew; `None` slots use the built-in row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CustomToolLines {
    /// Replaces the title (`renderCall`).
    pub call: Option<Vec<Line<'static>>>,
    /// Replaces the output (`renderResult`).
    pub result: Option<Vec<Line<'static>>>,
    /// Drawn without the tool background and padding.
    pub self_shell: bool,
}

/// Published component lines, copied out for one frame.
#[derive(Default)]
pub struct LuaChrome {
    /// Replaces the header.
    pub header: Option<Vec<Line<'static>>>,
    /// Replaces the footer.
    pub footer: Option<Vec<Line<'static>>>,
    /// Widgets above the editor.
    pub above: Vec<Line<'static>>,
    /// Widgets below the editor, plus the editor component's lines.
    pub below: Vec<Line<'static>>,
    /// A custom shown in place of the editor.
    pub inline: Option<Vec<Line<'static>>>,
    /// Overlays, bottom first.
    pub overlays: Vec<(OverlayOptions, Vec<Line<'static>>)>,
    /// A custom component has the keyboard.
    pub focused: bool,
}

/// ANSI-styled text lines as ratatui lines (image escape sequences taken out: images
/// are not drawn inside text lines).
pub fn ansi_lines(lines: &[String]) -> Vec<Line<'static>> {
    use crate::ui_kit::image_lines::strip_image_sequences;
    lines
        .iter()
        .map(|l| {
            strip_image_sequences(l)
                .as_bytes()
                .into_text()
                .ok()
                .and_then(|t| t.lines.into_iter().next())
                .unwrap_or_default()
        })
        .collect()
}

impl LuaChrome {
    /// Copy what `store` holds, telling it the terminal size first.
    pub fn take(store: Option<&SurfaceStore>, area: Rect) -> LuaChrome {
        let Some(store) = store else {
            return LuaChrome::default();
        };
        store.resize(area.width, area.height);
        let s = store.lock();
        let mut chrome = LuaChrome {
            header: s.header.as_deref().map(ansi_lines),
            footer: s.footer.as_deref().map(ansi_lines),
            inline: s.inline().map(|c| ansi_lines(&c.lines)),
            focused: s.focused().is_some(),
            ..LuaChrome::default()
        };
        // A component widget may be taller than a string one, but never more
        // than half the screen: the editor stays in view.
        let limit = (area.height as usize / 2).max(crate::lua::ui::surfaces::MAX_WIDGET_LINES);
        for (placement, lines) in s.widgets.values() {
            let target = match placement {
                Placement::AboveEditor => &mut chrome.above,
                Placement::BelowEditor => &mut chrome.below,
            };
            target.extend(ansi_lines(&lines[..lines.len().min(limit)]));
            if lines.len() > limit {
                target.push(crate::tui::chrome::extension::more_lines(
                    lines.len() - limit,
                    area.width as usize,
                ));
            }
        }
        if let Some(lines) = &s.editor {
            let mut editor = ansi_lines(lines);
            editor.append(&mut chrome.below);
            chrome.below = editor;
        }
        chrome.overlays = s
            .overlays()
            .map(|(o, lines)| (o.clone(), ansi_lines(lines)))
            .collect();
        chrome
    }

    /// Draw the overlays over everything else.
    pub fn draw_overlays(&self, frame: &mut Frame<'_>) {
        let area = frame.area();
        self.draw_overlays_in(frame.buffer_mut(), area);
    }

    /// Draw the overlays into `buf`, placed on `area`.
    pub fn draw_overlays_in(&self, buf: &mut ratatui::buffer::Buffer, area: Rect) {
        use ratatui::widgets::Widget;
        for (options, lines) in &self.overlays {
            let rect = overlay_rect(options, lines.len(), area);
            Clear.render(rect, buf);
            Paragraph::new(lines.clone()).render(rect, buf);
        }
    }
}

/// Where an overlay of `rows` lines goes in `area`.
pub fn overlay_rect(o: &OverlayOptions, rows: usize, area: Rect) -> Rect {
    let width = o.content_width(area.width);
    let m = o.margin;
    let room = area.height.saturating_sub(m.top + m.bottom).max(1);
    let max = o.max_height.map(|h| h.resolve(area.height)).unwrap_or(room);
    let height = (rows as u16).min(max).min(room);
    let (left, right) = (m.left, area.width.saturating_sub(m.right + width));
    let (top, bottom) = (m.top, area.height.saturating_sub(m.bottom + height));
    // A percentage places the edge within the room the margins leave: 0% at the start,
    // 100% where the overlay ends at the far margin.
    let at = |pos: Size, start: u16, free: u16| match pos {
        Size::Cells(n) => n,
        Size::Percent(p) => start + (free as f32 * p / 100.0).floor() as u16,
    };
    let x = match (o.col, o.anchor.as_str()) {
        (Some(pos), _) => at(pos, left, right.saturating_sub(left)),
        (None, a) if a.ends_with("left") => left,
        (None, a) if a.ends_with("right") => right,
        _ => (area.width.saturating_sub(width)) / 2,
    };
    let y = match (o.row, o.anchor.as_str()) {
        (Some(pos), _) => at(pos, top, bottom.saturating_sub(top)),
        (None, a) if a.starts_with("top") => top,
        (None, a) if a.starts_with("bottom") => bottom,
        _ => (area.height.saturating_sub(height)) / 2,
    };
    let shift = |v: u16, by: i32, max: u16| (v as i32 + by).clamp(0, max as i32) as u16;
    Rect {
        x: area.x + shift(x, o.offset_x, area.width.saturating_sub(width)),
        y: area.y + shift(y, o.offset_y, area.height.saturating_sub(height)),
        width,
        height,
    }
}

/// The key id components receive: a typed character as itself (`"a"`,
/// `"A"`, `" "`), anything else `ctrl+x` style (`"up"`, `"escape"`).
pub fn key_id(event: &KeyEvent) -> String {
    if let KeyCode::Char(c) = event.code
        && !event
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return c.to_string();
    }
    KeyCombo::from_event(event).display().to_lowercase()
}

/// The key event a key id stands for (keys handed back to the editor).
pub fn key_event(id: &str) -> Option<KeyEvent> {
    let mut chars = id.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        let modifiers = if c.is_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        return Some(KeyEvent::new(KeyCode::Char(c), modifiers));
    }
    KeyCombo::parse(id).map(|k| KeyEvent::new(k.code, k.modifiers))
}

/// Send `key` to the focused Lua component, or to the editor component
/// when one is installed and no built-in panel is open. `true` when sent.
pub fn forward_key(app: &App, key: &KeyEvent) -> bool {
    let Some(store) = &app.lua.surfaces else {
        return false;
    };
    let target = {
        let mut s = store.lock();
        match s.key_target() {
            Some(id) => Some(id),
            None if s.editor.is_some() && app.overlay.is_none() => Some(EDITOR_ID),
            None => None,
        }
    };
    match target {
        Some(id) => {
            store.send_key(id, key_id(key));
            true
        }
        None => false,
    }
}

/// Ask the extension thread to draw tool rows that have Lua renderers and
/// changed since they were last sent.
pub fn queue_renders(app: &mut App) {
    let Some(store) = app.lua.surfaces.clone() else {
        return;
    };
    let (renderers, message_types): (Vec<String>, Vec<String>) = {
        let s = store.lock();
        if s.reloads != app.lua.reloads {
            // Extensions reloaded: drop lines drawn by the old renderers.
            app.lua.reloads = s.reloads;
            app.lua.sent.clear();
            app.transcript.clear_lua_lines();
        }
        if s.tool_renderers.is_empty() && s.message_renderers.is_empty() {
            return;
        }
        (
            s.tool_renderers.keys().cloned().collect(),
            s.message_renderers.iter().cloned().collect(),
        )
    };
    let mut jobs = Vec::new();
    let mut message_jobs = Vec::new();
    for (index, item) in app.transcript.items.iter().enumerate() {
        if let crate::tui::transcript::Item::Custom {
            custom_type,
            message,
            ..
        } = item
        {
            let key = format!("message-{index}");
            let signature = u64::from(app.tools_expanded) + 1;
            if message_types.contains(custom_type) && app.lua.sent.get(&key) != Some(&signature) {
                app.lua.sent.insert(key.clone(), signature);
                message_jobs.push(crate::lua::ui::tool_render::MessageRenderJob {
                    key,
                    message: message.clone(),
                    expanded: app.tools_expanded,
                });
            }
            continue;
        }
        let crate::tui::transcript::Item::Tool(row) = item else {
            continue;
        };
        if !renderers.contains(&row.name) {
            continue;
        }
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (row.args.to_string(), &row.output, row.done, row.is_error).hash(&mut h);
        app.tools_expanded.hash(&mut h);
        let signature = h.finish();
        if app.lua.sent.get(&row.id) == Some(&signature) {
            continue;
        }
        app.lua.sent.insert(row.id.clone(), signature);
        let result = (row.done || !row.output.is_empty()).then(|| {
            serde_json::json!({
                "content": [{"type": "text", "text": row.output}],
                "details": row.details,
                "isError": row.is_error,
            })
        });
        jobs.push(crate::lua::ui::tool_render::ToolRenderJob {
            call_id: row.id.clone(),
            name: row.name.clone(),
            args: row.args.clone(),
            result,
            expanded: app.tools_expanded,
            partial: !row.done,
        });
    }
    if !jobs.is_empty() || !message_jobs.is_empty() {
        let mut s = store.lock();
        s.tool_jobs.extend(jobs);
        s.message_jobs.extend(message_jobs);
        drop(s);
        store.wake_host();
    }
}

/// Take what the extension thread published for the transcript and the
/// editor: rendered tool rows, and keys handed back to the built-in editor.
pub fn apply_published(app: &mut App) {
    let Some(store) = app.lua.surfaces.clone() else {
        return;
    };
    let (tools, messages, keys) = {
        let mut s = store.lock();
        let tools: Vec<_> = s.tool_lines.drain(..).collect();
        let messages: Vec<_> = s.message_lines.drain(..).collect();
        let keys: Vec<String> = s.editor_keys.drain(..).collect();
        (tools, messages, keys)
    };
    for (key, lines) in messages {
        let index = key.trim_start_matches("message-").parse::<usize>();
        if let (Ok(index), Some(lines)) = (index, lines) {
            app.transcript.set_custom_lines(index, ansi_lines(&lines));
        }
    }
    for (id, lines) in tools {
        let custom = CustomToolLines {
            call: lines.call.as_deref().map(ansi_lines),
            result: lines.result.as_deref().map(ansi_lines),
            self_shell: lines.self_shell,
        };
        app.transcript.set_tool_custom(&id, custom);
    }
    for id in keys {
        if let Some(event) = key_event(&id) {
            app.handle_builtin_key(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_ids_round_trip() {
        for id in ["a", "A", "up", "escape", "ctrl+x", "enter", " "] {
            let event = key_event(id).unwrap();
            assert_eq!(key_id(&event), id);
        }
    }

    #[test]
    fn overlays_anchor_and_offset() {
        let area = Rect::new(0, 0, 100, 40);
        let o = OverlayOptions {
            width: Some(crate::lua::ui::surfaces::Size::Cells(20)),
            ..OverlayOptions::default()
        };
        assert_eq!(overlay_rect(&o, 10, area), Rect::new(40, 15, 20, 10));
        let o = OverlayOptions {
            anchor: "bottom-right".into(),
            offset_x: -2,
            ..o
        };
        assert_eq!(overlay_rect(&o, 10, area), Rect::new(78, 30, 20, 10));
    }

    #[test]
    fn ansi_colours_become_styles() {
        let lines = ansi_lines(&["\x1b[31mred\x1b[39m plain".to_string()]);
        assert_eq!(lines[0].to_string(), "red plain");
        assert_eq!(lines[0].spans[0].style.fg, Some(ratatui::style::Color::Red));
    }
}
