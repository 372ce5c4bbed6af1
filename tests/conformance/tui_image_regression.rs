//! Image sequences in lines that do not start with them — after text, after colour
//! codes, in lines of hundreds of thousands of characters — are found whatever the
//! terminal supports, and drawn lines keep only the text; long lines without them are
//! left alone.
//! orig-file: packages/tui/test/bug-regression-isimageline-startswith-bug.test.ts

use pi::ui_kit::image_lines::{is_image_line, strip_image_sequences};

use crate::tui_image_lines::drawn;

// orig-skip: Bug regression: isImageLine() crash with image escape sequences › Bug scenario: Terminal without image support › old implementation would return false, causing crash — it checks a copy of the former TypeScript function written inside the test, not product code.

/// orig: Bug regression: isImageLine() crash with image escape sequences › Bug scenario: Terminal without image support › new implementation returns true correctly
#[test]
fn text_then_an_image() {
    let line = "Read image file [image/jpeg]\x1b]1337;File=size=800,600;inline=1:base64data...\x07";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "Read image file [image/jpeg]");
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Bug scenario: Terminal without image support › new implementation detects Kitty sequences in any position
#[test]
fn kitty_anywhere() {
    let long = format!(
        "Text before \x1b_Ga=T,f=100{} text after",
        "A".repeat(300_000)
    );
    let lines = [
        "At start: \x1b_Ga=T,f=100,data...\x1b\\",
        "Prefix \x1b_Ga=T,data...\x1b\\",
        "Suffix text \x1b_Ga=T,data...\x1b\\ suffix",
        "Middle \x1b_Ga=T,data...\x1b\\ more text",
        &long,
    ];
    for line in lines {
        assert!(is_image_line(line), "{}", &line[..40]);
    }
    assert_eq!(drawn(lines[2]), "Suffix text  suffix");
    assert_eq!(drawn(&long), "Text before ");
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Bug scenario: Terminal without image support › new implementation detects iTerm2 sequences in any position
#[test]
fn iterm2_anywhere() {
    let long = format!(
        "Text before \x1b]1337;File=size=800,600;inline=1:{} text after",
        "B".repeat(300_000)
    );
    let lines = [
        "At start: \x1b]1337;File=size=100,100:base64...\x07",
        "Prefix \x1b]1337;File=inline=1:data==\x07",
        "Suffix text \x1b]1337;File=inline=1:data==\x07 suffix",
        "Middle \x1b]1337;File=inline=1:data==\x07 more text",
        &long,
    ];
    for line in lines {
        assert!(is_image_line(line), "{}", &line[..40]);
    }
    assert_eq!(drawn(lines[3]), "Middle  more text");
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Integration: Tool execution scenario › detects image sequences in read tool output
#[test]
fn a_read_tool_output_line() {
    let line =
        "Read image file [image/jpeg]\x1b]1337;File=size=800,600;inline=1:base64image...\x07";
    assert!(is_image_line(line));
    assert!(!drawn(line).contains("base64image"));
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Integration: Tool execution scenario › detects Kitty sequences from Image component
#[test]
fn an_image_component_line() {
    let line = "\x1b_Ga=T,f=100,t=f,d=base64data...\x1b\\\x1b_Gm=i=1;\x1b\\";
    assert!(is_image_line(line));
    assert_eq!(drawn(line), "");
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Integration: Tool execution scenario › handles ANSI codes before image sequences
#[test]
fn styled_text_before_the_image() {
    let lines = [
        "\x1b[31mError\x1b[0m: \x1b]1337;File=inline=1:base64==\x07",
        "\x1b[33mWarning\x1b[0m: \x1b_Ga=T,data...\x1b\\",
        "\x1b[1mBold\x1b[0m \x1b]1337;File=:base64==\x07\x1b[0m",
    ];
    for line in lines {
        assert!(is_image_line(line));
    }
    assert_eq!(drawn(lines[0]), "Error: ");
    assert_eq!(drawn(lines[1]), "Warning: ");
    assert_eq!(
        strip_image_sequences(lines[2]),
        "\x1b[1mBold\x1b[0m \x1b[0m"
    );
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Crash scenario simulation › does NOT crash on very long lines with image sequences
#[test]
fn a_three_hundred_kilobyte_line_draws_as_its_text() {
    let line = format!(
        "Output: \x1b]1337;File=size=800,600;inline=1:{} end of output",
        "A".repeat(100).repeat(3040)
    );
    assert!(line.len() > 300_000);
    assert!(is_image_line(&line));
    assert_eq!(drawn(&line), "Output: ");
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Crash scenario simulation › handles lines exactly matching crash log dimensions
#[test]
fn a_line_of_58649_characters() {
    let (prefix, sequence, suffix) = ("Text", "\x1b_Ga=T,f=100", "End");
    let padding = "A".repeat(58_649 - prefix.len() - sequence.len() - suffix.len());
    let line = format!("{prefix}{sequence}{padding}{suffix}");
    assert_eq!(line.len(), 58_649);
    assert!(is_image_line(&line));
    assert_eq!(drawn(&line), "Text");
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Negative cases: Don't false positive › does not detect images in regular long text
#[test]
fn long_plain_text() {
    let line = "A".repeat(100_000);
    assert!(!is_image_line(&line));
    assert_eq!(strip_image_sequences(&line), line);
}

/// orig: Bug regression: isImageLine() crash with image escape sequences › Negative cases: Don't false positive › does not detect images in lines with file paths
#[test]
fn file_paths() {
    for path in [
        "/path/to/1337/image.jpg",
        "/usr/local/bin/File_converter",
        "~/Documents/1337File_backup.png",
        "./_G_test_file.txt",
    ] {
        assert!(!is_image_line(path), "{path}");
        assert_eq!(drawn(path), path);
    }
}
