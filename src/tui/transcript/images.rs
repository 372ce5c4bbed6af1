//! Images in the transcript: those the user attached and those tools
//! returned. Where the terminal has a graphics protocol (and
//! `terminal.showImages` is on) an image reserves blank rows under its
//! message, and the screen code draws the picture over them; elsewhere a
//! one-line text stand-in names it.

use std::sync::{Arc, Mutex};

use base64::Engine as _;
use ratatui::text::{Line, Span};

use crate::ai::types::ContentBlock;
use crate::sync::LockExt;
use crate::t;
use crate::ui_kit::terminal_image::{self, ImageProtocol, Placement};
use crate::ui_kit::theme::Theme;

/// The last sequence built for an image: for which placement and protocol.
type SequenceCache = Arc<Mutex<Option<(Placement, ImageProtocol, Arc<str>)>>>;

/// One image of the conversation.
#[derive(Debug, Clone)]
pub struct InlineImage {
    /// Kitty image id (drawing it again replaces the earlier copy).
    pub id: u32,
    /// Base64 data.
    pub data: Arc<str>,
    /// MIME type.
    pub mime: String,
    /// Width and height in pixels, when the data could be read.
    pub size: Option<(u32, u32)>,
    /// The last escape sequence built, for the placement it was built for.
    sequence: SequenceCache,
}

impl PartialEq for InlineImage {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl InlineImage {
    /// The image of a content block.
    pub fn new(data: &str, mime: &str) -> Self {
        let size = base64::engine::general_purpose::STANDARD
            .decode(data)
            .ok()
            .and_then(|bytes| terminal_image::dimensions(&bytes));
        InlineImage {
            id: terminal_image::next_id(),
            data: Arc::from(data),
            mime: mime.to_string(),
            size,
            sequence: Arc::default(),
        }
    }

    /// The escape sequence that draws this image at `placement` (cached).
    pub fn sequence(&self, protocol: ImageProtocol, placement: Placement) -> Arc<str> {
        let mut cached = self.sequence.locked();
        if let Some((p, proto, seq)) = cached.as_ref()
            && *p == placement
            && *proto == protocol
        {
            return seq.clone();
        }
        let seq: Arc<str> = match protocol {
            ImageProtocol::Kitty => match terminal_image::as_png_base64(&self.data) {
                Some(png) => terminal_image::kitty(&png, placement).into(),
                None => Arc::from(""),
            },
            ImageProtocol::Iterm2 => {
                terminal_image::iterm2(&self.data, placement.columns, None).into()
            }
        };
        *cached = Some((placement, protocol, seq.clone()));
        seq
    }

    /// The one-line text shown instead of the image.
    pub fn fallback(&self) -> String {
        match self.size {
            Some((width, height)) => t!(
                "pi.tui.image.fallback",
                mime = &self.mime,
                width = width,
                height = height
            ),
            None => t!("pi.tui.image.fallback_unknown", mime = &self.mime),
        }
    }
}

/// The images among `blocks`, in order.
pub fn images_of(blocks: &[ContentBlock]) -> Vec<InlineImage> {
    blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Image(i) => Some(InlineImage::new(&i.data, &i.mime_type)),
            _ => None,
        })
        .collect()
}

impl super::Transcript {
    /// Append a user message, with the images it carries.
    pub(super) fn push_user(&mut self, u: &crate::ai::types::UserMessage) {
        self.push(super::Item::User {
            text: u.content.text(),
        });
        if let crate::ai::types::UserContent::Blocks(blocks) = &u.content {
            let found = images_of(blocks);
            if !found.is_empty() {
                self.images.insert(self.items.len() - 1, found);
            }
        }
    }

    /// Show the images of a tool result under its tool row.
    pub(super) fn add_tool_images(&mut self, id: &str, blocks: &[ContentBlock]) {
        let found = images_of(blocks);
        if let Some(&index) = self.tools.get(id)
            && !found.is_empty()
        {
            self.images.insert(index, found);
            self.touch(index);
        }
    }
}

/// How images are drawn this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageOptions {
    /// The terminal's protocol; `None` draws the text stand-in.
    pub protocol: Option<ImageProtocol>,
    /// Preferred width in cells (`terminal.imageWidthCells`).
    pub width_cells: u16,
    /// Cell size in pixels.
    pub cell: (u32, u32),
    /// Most rows an image may cover (0: no limit), so that a tall picture
    /// fits on the screen; it is drawn narrower instead.
    pub max_rows: u16,
}

impl Default for ImageOptions {
    fn default() -> Self {
        ImageOptions {
            protocol: None,
            width_cells: 60,
            cell: terminal_image::DEFAULT_CELL,
            max_rows: 0,
        }
    }
}

/// An image laid out in an item's lines.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageRows {
    /// Index of the first reserved line.
    pub line: usize,
    /// Column the image starts at.
    pub x: u16,
    /// Its size in cells and id.
    pub placement: Placement,
    /// The image.
    pub image: InlineImage,
}

/// Columns images are indented by.
const INDENT: u16 = 1;

/// Append `images` to an item's `lines`, `width` columns wide: blank rows
/// for each image the terminal can draw (returned, with where they start),
/// or a text line for each it cannot.
pub fn append_images(
    lines: &mut Vec<Line<'static>>,
    images: &[InlineImage],
    options: &ImageOptions,
    width: usize,
    theme: &Theme,
) -> Vec<ImageRows> {
    let mut out = Vec::new();
    let max = (width as u16).saturating_sub(INDENT + 1).max(1);
    for image in images {
        lines.push(Line::default());
        match (options.protocol, image.size) {
            (Some(_), Some(size)) => {
                let mut columns = terminal_image::columns_for(options.width_cells, max);
                let mut rows = terminal_image::rows_for(size, columns, options.cell);
                while options.max_rows > 0 && rows > options.max_rows && columns > 1 {
                    let scaled = columns as u32 * options.max_rows as u32 / rows as u32;
                    columns = (scaled as u16).clamp(1, columns - 1);
                    rows = terminal_image::rows_for(size, columns, options.cell);
                }
                out.push(ImageRows {
                    line: lines.len(),
                    x: INDENT,
                    placement: Placement {
                        id: image.id,
                        columns,
                        rows,
                    },
                    image: image.clone(),
                });
                lines.extend((0..rows).map(|_| Line::default()));
            }
            _ => lines.push(Line::from(vec![
                Span::raw(" ".repeat(INDENT as usize)),
                Span::styled(image.fallback(), theme.fg("muted")),
            ])),
        }
    }
    out
}

/// The bytes that draw `image` over its rows, written right after the
/// image's last row with the cursor at that row's end; the cursor is left on
/// that row.
pub fn draw_from_last_row(image: &ImageRows, protocol: ImageProtocol) -> String {
    let up = image.placement.rows.saturating_sub(1);
    let mut out = String::from("\r");
    if up > 0 {
        out.push_str(&format!("\x1b[{up}A"));
    }
    if image.x > 0 {
        out.push_str(&format!("\x1b[{}C", image.x));
    }
    out.push_str(&image.image.sequence(protocol, image.placement));
    match protocol {
        // Kitty leaves the cursor where it was (`C=1`).
        ImageProtocol::Kitty if up > 0 => out.push_str(&format!("\x1b[{up}B")),
        _ => {}
    }
    out
}

/// Add to `rows` (one ANSI string per terminal row) the sequences drawing
/// each image whose reserved rows all lie in `rows`; `images` pairs each
/// image with the row its first reserved line landed on.
pub fn draw_into_rows(rows: &mut [String], images: &[(usize, ImageRows)], protocol: ImageProtocol) {
    for (start, image) in images {
        let last = start + image.placement.rows as usize - 1;
        if let Some(row) = rows.get_mut(last) {
            row.push_str(&draw_from_last_row(image, protocol));
        }
    }
}

/// Put the images whose rows are all inside `buf` into it: the sequence in
/// the first cell, the rest of the image's cells left alone by later
/// redraws. `images` pairs each image with its top row in `buf`.
/// Returns what was drawn (id, x, y), to tell when the layout changed.
pub fn draw_into_buffer(
    buf: &mut ratatui::buffer::Buffer,
    images: &[(usize, ImageRows)],
    protocol: ImageProtocol,
) -> Vec<(u32, u16, u16)> {
    use ratatui::buffer::CellDiffOption;
    let area = buf.area;
    let mut drawn = Vec::new();
    for (top, image) in images {
        let (x, y) = (area.x + image.x, area.y + *top as u16);
        let (cols, rows) = (image.placement.columns, image.placement.rows);
        if y as usize + rows as usize > area.bottom() as usize || x + cols > area.right() {
            continue;
        }
        for dy in 0..rows {
            for dx in 0..cols {
                let cell = &mut buf[(x + dx, y + dy)];
                cell.reset();
                cell.set_diff_option(CellDiffOption::Skip);
            }
        }
        let seq = image.image.sequence(protocol, image.placement);
        let first = &mut buf[(x, y)];
        first.set_symbol(&seq);
        first.set_diff_option(CellDiffOption::ForcedWidth(std::num::NonZeroU16::MIN));
        drawn.push((image.placement.id, x, y));
    }
    drawn
}

#[cfg(test)]
#[path = "images_tests.rs"]
pub(crate) mod tests;
