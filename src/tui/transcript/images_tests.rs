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
    }
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
