use super::*;

/// A base64 PNG of `width` x `height` pixels.
pub fn png(width: u32, height: u32) -> String {
    let mut bytes = Vec::new();
    image::RgbImage::new(width, height)
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn kitty_options() -> ImageOptions {
    ImageOptions {
        protocol: Some(ImageProtocol::Kitty),
        width_cells: 20,
        cell: (10, 20),
        max_rows: 0,
    }
}

#[test]
fn a_tall_image_is_drawn_narrower_to_fit_the_screen() {
    let image = InlineImage::new(&png(100, 1000), "image/png");
    let options = ImageOptions {
        max_rows: 22,
        ..kitty_options()
    };
    let mut lines = Vec::new();
    let rows = append_images(&mut lines, &[image], &options, 80, &Theme::plain());
    // 20 cells (200 px) wide would be 2000 px, 100 rows high.
    let placement = rows[0].placement;
    assert!(placement.rows <= 22, "{placement:?}");
    assert!(
        placement.columns >= 3 && placement.columns < 20,
        "{placement:?}"
    );
}

#[test]
fn a_drawable_image_reserves_the_rows_it_covers() {
    let image = InlineImage::new(&png(400, 200), "image/png");
    assert_eq!(image.size, Some((400, 200)));
    let mut lines = vec![Line::from("text")];
    let rows = append_images(
        &mut lines,
        std::slice::from_ref(&image),
        &kitty_options(),
        80,
        &Theme::plain(),
    );
    // 20 cells of 10 px = 200 px wide, 100 px high = 5 rows of 20 px.
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].line, 2);
    assert_eq!(rows[0].placement.columns, 20);
    assert_eq!(rows[0].placement.rows, 5);
    assert_eq!(lines.len(), 2 + 5);
    // Narrow terminals get a narrower image.
    let mut narrow = Vec::new();
    let rows = append_images(&mut narrow, &[image], &kitty_options(), 12, &Theme::plain());
    assert_eq!(rows[0].placement.columns, 10);
}

#[test]
fn without_a_protocol_a_text_line_names_the_image() {
    let image = InlineImage::new(&png(12, 7), "image/png");
    let mut lines = Vec::new();
    let rows = append_images(
        &mut lines,
        &[image],
        &ImageOptions::default(),
        80,
        &Theme::plain(),
    );
    assert!(rows.is_empty());
    let text: String = lines.iter().map(|l| l.to_string()).collect();
    assert!(text.contains("[image: image/png, 12x7]"), "{text}");
    let broken = InlineImage::new("not an image", "image/webp");
    assert_eq!(broken.fallback(), "[image: image/webp]");
}

#[test]
fn the_sequence_is_written_from_the_last_reserved_row() {
    let image = InlineImage::new(&png(400, 200), "image/png");
    let mut lines = Vec::new();
    let laid = append_images(&mut lines, &[image], &kitty_options(), 80, &Theme::plain());
    let mut rows: Vec<String> = vec![String::new(); lines.len()];
    draw_into_rows(
        &mut rows,
        &[(laid[0].line, laid[0].clone())],
        ImageProtocol::Kitty,
    );
    let last = laid[0].line + 4;
    assert!(rows[last].starts_with("\r\x1b[4A\x1b[1C\x1b_Ga=T,f=100,q=2,C=1,c=20,r=5,"));
    assert!(rows[last].ends_with("\x1b\\\x1b[4B"));
    assert!(
        rows.iter()
            .enumerate()
            .all(|(i, r)| i == last || r.is_empty())
    );
    let iterm = draw_from_last_row(&laid[0], ImageProtocol::Iterm2);
    assert!(iterm.contains("\x1b]1337;File=inline=1;width=20;"));
}

#[test]
fn a_resumed_session_and_live_events_keep_their_images() {
    use crate::ai::types::{Message, UserContent, UserMessage};
    let user = Message::User(UserMessage {
        content: UserContent::Blocks(vec![
            ContentBlock::text("see"),
            ContentBlock::image(png(10, 10), "image/png"),
        ]),
        timestamp: 0,
    });
    let t = crate::tui::transcript::Transcript::from_messages(&vec![user].into());
    assert_eq!(t.images.get(&0).map(Vec::len), Some(1));
    assert_eq!(t.images[&0][0].size, Some((10, 10)));
    // A tool result's image goes under its row, and its text keeps no placeholder.
    let mut live = crate::tui::transcript::Transcript::new();
    live.apply(&crate::agent::events::AgentEvent::ToolExecutionStart {
        tool_call_id: "c1".into(),
        tool_name: "read".into(),
        args: serde_json::json!({"path": "a.png"}),
    });
    let result = crate::agent::events::ToolResultPayload {
        content: vec![
            ContentBlock::text("Read image file"),
            ContentBlock::image(png(4, 2), "image/png"),
        ],
        details: None,
    };
    live.apply(&crate::agent::events::AgentEvent::ToolExecutionEnd {
        tool_call_id: "c1".into(),
        tool_name: "read".into(),
        result,
        is_error: false,
    });
    let index = live.items.len() - 1;
    assert_eq!(live.images[&index][0].size, Some((4, 2)));
    match &live.items[index] {
        crate::tui::transcript::Item::Tool(row) => {
            assert_eq!(row.output, "Read image file");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn on_the_alternate_screen_the_first_cell_carries_the_picture_and_the_rest_are_left_alone() {
    use ratatui::buffer::{Buffer, CellDiffOption};
    use ratatui::layout::Rect;
    let image = InlineImage::new(&png(400, 200), "image/png");
    let mut lines = Vec::new();
    let laid = append_images(&mut lines, &[image], &kitty_options(), 80, &Theme::plain());
    let mut buf = Buffer::empty(Rect::new(0, 0, 40, 10));
    let fits = (2, laid[0].clone());
    let cut_off = (8, laid[0].clone());
    let drawn = draw_into_buffer(&mut buf, &[fits, cut_off], ImageProtocol::Kitty);
    assert_eq!(drawn, vec![(laid[0].placement.id, 1, 2)]);
    let first = &buf[(1, 2)];
    assert!(
        first
            .symbol()
            .starts_with("\x1b_Ga=T,f=100,q=2,C=1,c=20,r=5,")
    );
    assert!(matches!(first.diff_option, CellDiffOption::ForcedWidth(_)));
    assert_eq!(buf[(2, 2)].diff_option, CellDiffOption::Skip);
    assert_eq!(buf[(20, 6)].diff_option, CellDiffOption::Skip);
    assert_eq!(buf[(21, 6)].diff_option, CellDiffOption::None);
    assert_eq!(buf[(1, 7)].diff_option, CellDiffOption::None);
    // The image cut off at the bottom is not drawn.
    assert_eq!(buf[(1, 8)].diff_option, CellDiffOption::None);
}
