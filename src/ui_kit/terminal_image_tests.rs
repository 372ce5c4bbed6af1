use super::*;

fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

#[test]
fn the_protocol_comes_from_the_terminal_environment() {
    assert_eq!(
        detect(env(&[("KITTY_WINDOW_ID", "1")])),
        Some(ImageProtocol::Kitty)
    );
    assert_eq!(
        detect(env(&[("TERM", "xterm-kitty")])),
        Some(ImageProtocol::Kitty)
    );
    assert_eq!(
        detect(env(&[("TERM_PROGRAM", "ghostty")])),
        Some(ImageProtocol::Kitty)
    );
    assert_eq!(
        detect(env(&[("TERM_PROGRAM", "WezTerm")])),
        Some(ImageProtocol::Kitty)
    );
    assert_eq!(
        detect(env(&[("TERM_PROGRAM", "iTerm.app")])),
        Some(ImageProtocol::Iterm2)
    );
    assert_eq!(
        detect(env(&[("ITERM_SESSION_ID", "w0t0p0")])),
        Some(ImageProtocol::Iterm2)
    );
    assert_eq!(detect(env(&[("TERM", "xterm-256color")])), None);
    assert_eq!(detect(env(&[("TERM_PROGRAM", "vscode")])), None);
    // tmux and screen do not pass the sequences on.
    assert_eq!(
        detect(env(&[("KITTY_WINDOW_ID", "1"), ("TMUX", "/tmp/t,1,0")])),
        None
    );
    assert_eq!(
        detect(env(&[
            ("KITTY_WINDOW_ID", "1"),
            ("TERM", "screen-256color")
        ])),
        None
    );
    // An empty TMUX counts as unset.
    assert_eq!(
        detect(env(&[("KITTY_WINDOW_ID", "1"), ("TMUX", "")])),
        Some(ImageProtocol::Kitty)
    );
}

#[test]
fn a_short_image_is_one_kitty_sequence_with_its_size_in_cells() {
    let placement = Placement {
        id: 7,
        columns: 20,
        rows: 5,
    };
    let seq = kitty("QUJD", placement);
    assert_eq!(seq, "\x1b_Ga=T,f=100,q=2,C=1,c=20,r=5,i=7;QUJD\x1b\\");
}

#[test]
fn a_long_image_is_sent_in_4096_byte_chunks() {
    let data = "A".repeat(KITTY_CHUNK * 2 + 10);
    let placement = Placement {
        id: 3,
        columns: 10,
        rows: 2,
    };
    let seq = kitty(&data, placement);
    let parts: Vec<&str> = seq.split("\x1b\\").filter(|p| !p.is_empty()).collect();
    assert_eq!(parts.len(), 3, "{parts:?}");
    assert!(parts[0].starts_with("\x1b_Ga=T,f=100,q=2,C=1,c=10,r=2,i=3,m=1;"));
    assert!(parts[1].starts_with("\x1b_Gm=1;"));
    assert!(parts[2].starts_with("\x1b_Gm=0;"));
    let payload: Vec<usize> = parts
        .iter()
        .map(|p| p.split_once(';').unwrap().1.len())
        .collect();
    assert_eq!(payload, vec![KITTY_CHUNK, KITTY_CHUNK, 10]);
    // Nothing but the data is lost or added.
    let joined: String = parts.iter().map(|p| p.split_once(';').unwrap().1).collect();
    assert_eq!(joined, data);
}

#[test]
fn iterm2_sequence_carries_width_and_base64_name() {
    let seq = iterm2("QUJD", 30, Some("pic.png"));
    assert_eq!(
        seq,
        "\x1b]1337;File=inline=1;width=30;height=auto;preserveAspectRatio=1;name=cGljLnBuZw==:QUJD\x07"
    );
    assert!(iterm2("QUJD", 4, None).ends_with("preserveAspectRatio=1:QUJD\x07"));
}

#[test]
fn sizes_in_cells_follow_the_aspect_ratio() {
    // 900x900 pixels, 60 cells of 9x18: 540 px wide, 540 px high = 30 rows.
    assert_eq!(rows_for((900, 900), 60, (9, 18)), 30);
    // A wide strip still takes one row.
    assert_eq!(rows_for((1000, 1), 60, (9, 18)), 1);
    // Rounding up: 100x37 at 10 cells of 10x20 = 37 px high, two rows.
    assert_eq!(rows_for((100, 37), 10, (10, 20)), 2);
    // The preferred width, within the room there is.
    assert_eq!(columns_for(60, 100), 60);
    assert_eq!(columns_for(60, 38), 38);
    assert_eq!(columns_for(0, 38), 1);
}

#[test]
fn cell_size_answers_are_parsed() {
    assert_eq!(parse_cell_size(b"\x1b[6;20;10t"), Some((10, 20)));
    assert_eq!(
        parse_cell_size(b"\x1b[?0u\x1b[6;36;18t\x1b[?62c"),
        Some((18, 36))
    );
    assert_eq!(parse_cell_size(b"\x1b[?62c"), None);
}

#[test]
fn dimensions_and_png_conversion() {
    let mut png = Vec::new();
    image::RgbImage::new(12, 7)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    assert_eq!(dimensions(&png), Some((12, 7)));
    let b64 = base64::engine::general_purpose::STANDARD.encode(&png);
    assert_eq!(as_png_base64(&b64).as_deref(), Some(b64.as_str()));
    let mut gif = Vec::new();
    image::RgbaImage::new(3, 2)
        .write_to(&mut std::io::Cursor::new(&mut gif), image::ImageFormat::Gif)
        .unwrap();
    let converted =
        as_png_base64(&base64::engine::general_purpose::STANDARD.encode(&gif)).expect("converted");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(converted)
        .unwrap();
    assert_eq!(dimensions(&bytes), Some((3, 2)));
    assert!(bytes.starts_with(b"\x89PNG"));
    assert_eq!(as_png_base64("not base64!"), None);
    assert_ne!(next_id(), next_id());
}
