//! The store between Lua components and the terminal UI. The extension host
//! renders components and publishes their lines here; the UI draws whatever
//! was published last and queues keys for focused components. Neither side
//! ever waits for the other, so a slow `render` never stalls a frame.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use indexmap::IndexMap;
use tokio::sync::Notify;

/// The most lines a widget of plain lines shows (as pi 0.73.1); the rest are
/// counted in a last line, so even a huge widget leaves the editor in view.
pub const MAX_WIDGET_LINES: usize = 10;

/// The first [`MAX_WIDGET_LINES`] rows of `lines` (split at newlines) and
/// how many rows there are after them.
pub fn clip_widget_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> (Vec<String>, usize) {
    let mut rows = lines.into_iter().flat_map(|l| l.split('\n'));
    let kept = rows
        .by_ref()
        .take(MAX_WIDGET_LINES)
        .map(str::to_string)
        .collect();
    (kept, rows.count())
}

/// `… N more lines`, the last line of a clipped widget.
pub fn more_lines_text(hidden: usize) -> String {
    crate::t!("pi.tui.widget_more_lines", count = hidden)
}

/// Where a widget goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// Between the transcript and the editor (pi's default).
    #[default]
    AboveEditor,
    /// Under the editor, above the footer.
    BelowEditor,
}

/// A size given as columns/rows or as a percentage of the terminal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Size {
    /// Absolute cells.
    Cells(u16),
    /// Percent of the terminal (0–100).
    Percent(f32),
}

impl Size {
    /// Cells out of `total`.
    pub fn resolve(self, total: u16) -> u16 {
        match self {
            Size::Cells(n) => n.min(total),
            Size::Percent(p) => ((total as f32 * p / 100.0).round() as u16).min(total),
        }
    }
}

/// Cells kept free on each side of an overlay (pi's `margin`, a number or an object).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Margin {
    /// Above.
    pub top: u16,
    /// Right of it.
    pub right: u16,
    /// Below.
    pub bottom: u16,
    /// Left of it.
    pub left: u16,
}

impl Margin {
    /// The same margin on every side.
    pub fn all(n: u16) -> Margin {
        Margin {
            top: n,
            right: n,
            bottom: n,
            left: n,
        }
    }
}

/// Where an overlay sits and how big it is (pi's `overlayOptions`).
#[derive(Debug, Clone, PartialEq)]
pub struct OverlayOptions {
    /// `center`, `top`, `bottom`, `left`, `right`, `top-left`, `top-right`,
    /// `bottom-left`, `bottom-right`.
    pub anchor: String,
    /// Width; up to 80 columns when unset.
    pub width: Option<Size>,
    /// Least width (a percentage width below it is widened).
    pub min_width: Option<u16>,
    /// Most rows shown.
    pub max_height: Option<Size>,
    /// Cells kept free around the overlay.
    pub margin: Margin,
    /// Row of the top edge, in cells or as a percentage (0% top, 100% bottom); overrides
    /// the anchor's row.
    pub row: Option<Size>,
    /// Column of the left edge, likewise; overrides the anchor's column.
    pub col: Option<Size>,
    /// Shift right (negative: left).
    pub offset_x: i32,
    /// Shift down (negative: up).
    pub offset_y: i32,
    /// Shown without taking the keyboard.
    pub non_capturing: bool,
}

impl Default for OverlayOptions {
    fn default() -> Self {
        OverlayOptions {
            anchor: "center".into(),
            width: None,
            min_width: None,
            max_height: None,
            margin: Margin::default(),
            row: None,
            col: None,
            offset_x: 0,
            offset_y: 0,
            non_capturing: false,
        }
    }
}

impl OverlayOptions {
    /// The width the component renders at in a terminal `cols` wide.
    pub fn content_width(&self, cols: u16) -> u16 {
        let room = cols
            .saturating_sub(self.margin.left + self.margin.right)
            .max(1);
        let width = self.width.map(|w| w.resolve(cols)).unwrap_or(room.min(80));
        width.max(self.min_width.unwrap_or(0)).clamp(1, room)
    }
}

/// A component shown by `ctx.ui.custom`.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomSurface {
    /// Component id (keys go back to it).
    pub id: u64,
    /// Drawn over everything (`overlay = true`) or in place of the editor.
    pub overlay: Option<OverlayOptions>,
    /// Latest rendered lines.
    pub lines: Vec<String>,
    /// Hidden for now by its handle's `setHidden(true)`.
    pub hidden: bool,
    /// The last answer of the overlay's `visible(width, height)` (true without one).
    pub shown: bool,
    /// Drawing order among overlays: higher is on top (focusing raises it).
    pub focus_order: u64,
    /// What had the keyboard when it was shown (`None`: the editor).
    pub pre_focus: Option<u64>,
}

impl Default for CustomSurface {
    fn default() -> Self {
        CustomSurface {
            id: 0,
            overlay: None,
            lines: Vec::new(),
            hidden: false,
            shown: true,
            focus_order: 0,
            pre_focus: None,
        }
    }
}

/// Everything the components have published.
#[derive(Debug, Default)]
pub struct Surfaces {
    /// Terminal size the UI last drew at (columns, rows).
    pub size: (u16, u16),
    /// `ctx.ui.custom` components, oldest first (shown with [`Surfaces::show`]).
    pub customs: Vec<CustomSurface>,
    /// The component with the keyboard (`None`: the editor); see [`Surfaces::focused`].
    pub focus: Option<u64>,
    /// The last `focus_order` given out.
    pub focus_counter: u64,
    /// Widgets by key with placement and lines.
    pub widgets: IndexMap<String, (Placement, Vec<String>)>,
    /// Lines replacing the footer.
    pub footer: Option<Vec<String>>,
    /// Lines replacing the header.
    pub header: Option<Vec<String>>,
    /// An editor component is installed; its lines go under the editor.
    pub editor: Option<Vec<String>>,
    /// Keys from the UI for component `id` (`0`: the editor component).
    pub keys: VecDeque<(u64, String)>,
    /// Keys the editor component handed back to the built-in editor.
    pub editor_keys: VecDeque<String>,
    /// Everything renders again (new size).
    pub redraw_all: bool,
    /// Tools with Lua renderers, and whether they draw their own shell.
    pub tool_renderers: std::collections::HashMap<String, bool>,
    /// Custom message types with Lua renderers.
    pub message_renderers: std::collections::HashSet<String>,
    /// Tool rows waiting to be rendered by Lua.
    pub tool_jobs: VecDeque<crate::lua::ui::tool_render::ToolRenderJob>,
    /// Rendered tool rows not yet picked up by the UI.
    pub tool_lines: Vec<(String, crate::lua::ui::tool_render::ToolLines)>,
    /// Custom messages waiting to be rendered by Lua.
    pub message_jobs: VecDeque<crate::lua::ui::tool_render::MessageRenderJob>,
    /// Rendered messages (key, lines or `None` for built-in) not yet picked up.
    pub message_lines: Vec<(String, Option<Vec<String>>)>,
    /// Counts reloads: renderers may have changed, so rows render again.
    pub reloads: u64,
}

struct Inner {
    state: Mutex<Surfaces>,
    attached: AtomicBool,
    generation: AtomicU64,
    to_host: Notify,
    to_ui: Notify,
}

/// The shared store. Cheap to clone.
#[derive(Clone)]
pub struct SurfaceStore(Arc<Inner>);

impl Default for SurfaceStore {
    fn default() -> Self {
        SurfaceStore(Arc::new(Inner {
            state: Mutex::new(Surfaces::default()),
            attached: AtomicBool::new(false),
            generation: AtomicU64::new(0),
            to_host: Notify::new(),
            to_ui: Notify::new(),
        }))
    }
}

impl std::fmt::Debug for SurfaceStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SurfaceStore")
    }
}

impl SurfaceStore {
    /// Lock the published state.
    pub fn lock(&self) -> MutexGuard<'_, Surfaces> {
        self.0.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A UI that draws surfaces is running (without one, `ctx.ui.custom`
    /// returns `nil` at once and the setters do nothing).
    pub fn attach(&self, cols: u16, rows: u16) {
        self.lock().size = (cols, rows);
        self.0.attached.store(true, Ordering::SeqCst);
        self.wake_host();
    }

    /// Whether a UI is attached.
    pub fn attached(&self) -> bool {
        self.0.attached.load(Ordering::SeqCst)
    }

    /// Drop every component (the VM went away).
    pub fn clear(&self) {
        let mut s = self.lock();
        s.customs.clear();
        s.focus = None;
        s.widgets.clear();
        s.footer = None;
        s.header = None;
        s.editor = None;
        s.keys.clear();
        s.tool_renderers.clear();
        s.message_renderers.clear();
        s.reloads += 1;
        drop(s);
        self.published();
    }

    /// The UI drew at a new size: components render again.
    pub fn resize(&self, cols: u16, rows: u16) {
        let mut s = self.lock();
        if s.size == (cols, rows) {
            return;
        }
        s.size = (cols, rows);
        s.redraw_all = true;
        drop(s);
        self.wake_host();
    }

    /// Every mounted component renders again (after each frame, so footers
    /// and widgets showing changing data stay current, as in pi).
    pub fn redraw_all(&self) {
        self.lock().redraw_all = true;
        self.wake_host();
    }

    /// Queue `key` for component `id` (`0`: the editor component).
    pub fn send_key(&self, id: u64, key: String) {
        self.lock().keys.push_back((id, key));
        self.wake_host();
    }

    /// Ask the host to look at the store again.
    pub fn wake_host(&self) {
        self.0.to_host.notify_one();
    }

    /// Wait until the UI or a timer asks the host for something.
    pub async fn host_wakeup(&self) {
        self.0.to_host.notified().await
    }

    /// The host published something: bump the generation, wake the UI.
    pub fn published(&self) {
        self.0.generation.fetch_add(1, Ordering::SeqCst);
        self.0.to_ui.notify_one();
    }

    /// Wait until the host publishes.
    pub async fn ui_wakeup(&self) {
        self.0.to_ui.notified().await
    }

    /// Counts publications; a changed value means "draw again".
    pub fn generation(&self) -> u64 {
        self.0.generation.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn focus_goes_to_the_newest_capturing_component() {
        let store = SurfaceStore::default();
        let mut s = store.lock();
        let overlay = |non_capturing| OverlayOptions {
            non_capturing,
            ..OverlayOptions::default()
        };
        for (id, overlay) in [
            (1, None),
            (2, Some(overlay(false))),
            (3, Some(overlay(true))),
        ] {
            s.show(CustomSurface {
                id,
                overlay,
                ..CustomSurface::default()
            });
        }
        assert_eq!(s.focused(), Some(2));
        s.hide(2);
        assert_eq!(s.focused(), Some(1));
        assert_eq!(s.inline().map(|c| c.id), Some(1));
    }

    #[test]
    fn overlay_width_is_absolute_or_percent_within_margins() {
        let mut o = OverlayOptions {
            width: Some(Size::Percent(50.0)),
            ..OverlayOptions::default()
        };
        assert_eq!(o.content_width(100), 50);
        o.width = Some(Size::Cells(200));
        assert_eq!(o.content_width(100), 100);
        o.margin = Margin::all(1);
        assert_eq!(o.content_width(100), 98);
        o.width = None;
        assert_eq!(o.content_width(100), 80);
        assert_eq!(o.content_width(50), 48);
    }
}
