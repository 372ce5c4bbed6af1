//! Lines carrying inline-image escape sequences (Kitty `ESC _G`, iTerm2
//! `ESC ]1337;File=`) anywhere in them, however long, and lines that only look alike.
//! An extension's component line with such a sequence is drawn without it: the text
//! around stays, the image data does not spill onto the screen as characters.
//! orig-file: packages/tui/test/terminal-image.test.ts

use pi::tui::chrome::lua_surfaces::ansi_lines;
use pi::ui_kit::image_lines::{is_image_line, strip_image_sequences};

/// What a component line shows once drawn.
pub(crate) fn drawn(line: &str) -> String {
    ansi_lines(&[line.to_string()])[0].to_string()
}

/// orig: isImageLine › iTerm2 image protocol › should detect iTerm2 image escape sequence at start of line
#[test]
fn iterm2_at_the_start() {
    let line = "\x1b]1337;File=size=100,100;inline=1:base64encodeddata==\x07";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "");
}

/// orig: isImageLine › iTerm2 image protocol › should detect iTerm2 image escape sequence with text before it
#[test]
fn iterm2_after_text() {
    let line = "Some text \x1b]1337;File=size=100,100;inline=1:base64data==\x07 more text";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "Some text  more text");
}

/// orig: isImageLine › iTerm2 image protocol › should detect iTerm2 image escape sequence in middle of long line
#[test]
fn iterm2_in_the_middle_unterminated() {
    let line = "Text before image...\x1b]1337;File=inline=1:verylongbase64data==...text after";
    assert!(is_image_line(line));
    // Without a terminator the sequence runs to the end of the line.
    assert_eq!(drawn(line), "Text before image...");
}

/// orig: isImageLine › iTerm2 image protocol › should detect iTerm2 image escape sequence at end of line
#[test]
fn iterm2_at_the_end() {
    let line = "Regular text ending with \x1b]1337;File=inline=1:base64data==\x07";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "Regular text ending with ");
}

/// orig: isImageLine › iTerm2 image protocol › should detect minimal iTerm2 image escape sequence
#[test]
fn iterm2_minimal() {
    assert!(is_image_line("\x1b]1337;File=:\x07"));
    assert_eq!(strip_image_sequences("\x1b]1337;File=:\x07"), "");
}

/// orig: isImageLine › Kitty image protocol › should detect Kitty image escape sequence at start of line
#[test]
fn kitty_at_the_start() {
    let line = "\x1b_Ga=T,f=100,t=f,d=base64data...\x1b\\\x1b_Gm=i=1;\x1b\\";
    assert!(is_image_line(line));
    assert_eq!(strip_image_sequences(line), "");
}

/// orig: isImageLine › Kitty image protocol › should detect Kitty image escape sequence with text before it
#[test]
fn kitty_after_text() {
    let line = "Output: \x1b_Ga=T,f=100;data...\x1b\\\x1b_Gm=i=1;\x1b\\";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "Output: ");
}

/// orig: isImageLine › Kitty image protocol › should detect Kitty image escape sequence with padding
#[test]
fn kitty_with_padding() {
    let line = "  \x1b_Ga=T,f=100...\x1b\\\x1b_Gm=i=1;\x1b\\  ";
    assert!(is_image_line(line));
    assert_eq!(strip_image_sequences(line), "    ");
}

/// orig: isImageLine › Bug regression tests › should detect image sequences in very long lines (304k+ chars)
#[test]
fn a_line_of_three_hundred_thousand_characters() {
    let line = format!(
        "Text prefix \x1b]1337;File=size=800,600;inline=1:{} suffix",
        "A".repeat(100).repeat(3000)
    );
    assert!(line.len() > 300_000);
    assert!(is_image_line(&line));
    let started = std::time::Instant::now();
    assert_eq!(drawn(&line), "Text prefix ");
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}

/// orig: isImageLine › Bug regression tests › should detect image sequences when terminal doesn't support images
#[test]
fn found_whatever_the_terminal_supports() {
    // Detection does not depend on the protocol this terminal speaks.
    let line = "Read image file [image/jpeg]\x1b]1337;File=inline=1:base64data==\x07";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "Read image file [image/jpeg]");
}

/// orig: isImageLine › Bug regression tests › should detect image sequences with ANSI codes before them
#[test]
fn after_a_colour_code() {
    let line = "\x1b[31mError output \x1b]1337;File=inline=1:image==\x07";
    assert!(is_image_line(line));
    assert_eq!(strip_image_sequences(line), "\x1b[31mError output ");
    let styled = &ansi_lines(&[line.to_string()])[0];
    assert_eq!(styled.to_string(), "Error output ");
    assert_eq!(styled.spans[0].style.fg, Some(ratatui::style::Color::Red));
}

/// orig: isImageLine › Bug regression tests › should detect image sequences with ANSI codes after them
#[test]
fn before_a_reset_code() {
    let line = "\x1b_Ga=T,f=100:data...\x1b\\\x1b_Gm=i=1;\x1b\\\x1b[0m reset";
    assert!(is_image_line(line));
    assert_eq!(strip_image_sequences(line), "\x1b[0m reset");
    assert_eq!(drawn(line), " reset");
}

/// orig: isImageLine › Negative cases - lines without images › should not detect images in plain text lines
#[test]
fn plain_text() {
    let line = "This is just a regular text line without any escape sequences";
    assert!(!is_image_line(line));
    assert_eq!(strip_image_sequences(line), line);
}

/// orig: isImageLine › Negative cases - lines without images › should not detect images in lines with only ANSI codes
#[test]
fn only_colour_codes() {
    let line = "\x1b[31mRed text\x1b[0m and \x1b[32mgreen text\x1b[0m";
    assert!(!is_image_line(line));
    assert_eq!(strip_image_sequences(line), line);
}

/// orig: isImageLine › Negative cases - lines without images › should not detect images in lines with cursor movement codes
#[test]
fn cursor_movement_codes() {
    let line = "\x1b[1A\x1b[2KLine cleared and moved up";
    assert!(!is_image_line(line));
    assert_eq!(strip_image_sequences(line), line);
}

/// orig: isImageLine › Negative cases - lines without images › should not detect images in lines with partial iTerm2 sequences
#[test]
fn iterm2_text_without_the_escape() {
    let line = "Some text with ]1337;File but missing ESC at start";
    assert!(!is_image_line(line));
    assert_eq!(drawn(line), line);
}

/// orig: isImageLine › Negative cases - lines without images › should not detect images in lines with partial Kitty sequences
#[test]
fn kitty_text_without_the_escape() {
    let line = "Some text with _G but missing ESC at start";
    assert!(!is_image_line(line));
    assert_eq!(drawn(line), line);
}

/// orig: isImageLine › Negative cases - lines without images › should not detect images in empty lines
#[test]
fn an_empty_line() {
    assert!(!is_image_line(""));
    assert_eq!(strip_image_sequences(""), "");
}

/// orig: isImageLine › Negative cases - lines without images › should not detect images in lines with newlines only
#[test]
fn newlines_only() {
    assert!(!is_image_line("\n"));
    assert!(!is_image_line("\n\n"));
}

/// orig: isImageLine › Mixed content scenarios › should detect images when line has both Kitty and iTerm2 sequences
#[test]
fn kitty_and_iterm2_in_one_line() {
    let line =
        "Kitty: \x1b_Ga=T...\x1b\\\x1b_Gm=i=1;\x1b\\ iTerm2: \x1b]1337;File=inline=1:data==\x07";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "Kitty:  iTerm2: ");
}

/// orig: isImageLine › Mixed content scenarios › should detect image in line with multiple text and image segments
#[test]
fn several_images_between_text() {
    let line = "Start \x1b]1337;File=img1==\x07 middle \x1b]1337;File=img2==\x07 end";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "Start  middle  end");
}

/// orig: isImageLine › Mixed content scenarios › should not falsely detect image in line with file path containing keywords
#[test]
fn a_path_with_the_keywords() {
    let line = "/path/to/File_1337_backup/image.jpg";
    assert!(!is_image_line(line));
    assert_eq!(drawn(line), line);
}
