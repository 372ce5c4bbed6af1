//! Property tests over the parsers that read untrusted input: the SSE decoder,
//! the JSONL session reader, the RPC line reader, YAML frontmatter, the key
//! parser and the ANSI and markdown renderers. Whatever the input, none of
//! them panics and what they hold stays proportional to what they were given.
//! Each property runs a bounded number of cases so the suite stays quick
//! (`PI_FUZZ_CASES=20000` runs more).

use pi::ai::sse::SseParser;
use pi::modes::rpc::{Incoming, read_records};
use pi::resources::frontmatter;
use pi::session::entries::SessionEntry;
use pi::session::load::{MigrationWrite, load_session_file};
use pi::ui_kit::keybindings::{KeyCombo, Keybindings};
use pi::ui_kit::safe_text::strip_control_sequences;
use pi::ui_kit::text::{
    slice_by_column, truncate as truncate_to_width, width as visible_width,
    wrap_text as wrap_text_with_ansi,
};
use pi::ui_kit::theme::Theme;
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config() -> Config {
    Config {
        cases: std::env::var("PI_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(256),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Text built from pieces that matter to the parsers (escapes, breaks,
/// markup, multi-byte and wide characters) mixed with arbitrary characters.
fn tricky_text(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => proptest::sample::select(pieces).prop_map(str::to_string),
        1 => any::<char>().prop_map(|c| c.to_string()),
    ];
    proptest::collection::vec(piece, 0..64).prop_map(|v| v.concat())
}

const SSE_PIECES: &[&str] = &[
    "data: ",
    "data:",
    "event: ",
    "id: 1",
    "retry: 5",
    ": comment",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    "{\"a\":1}",
    "[DONE]",
    "\u{feff}",
    "é",
    "字",
    "data",
    ":",
];
const MARKUP_PIECES: &[&str] = &[
    "\x1b[31m",
    "\x1b[0m",
    "\x1b[",
    "\x1b]8;;http://x\x1b\\",
    "\x1b]52;c;aGk=\x07",
    "\x1b[2J",
    "\x07",
    "\t",
    "\n",
    "\r",
    "**",
    "_",
    "`",
    "```",
    "```rust\n",
    "# ",
    "> ",
    "- ",
    "1. ",
    "|",
    "---",
    "[a](b)",
    "![i](u)",
    "<b>",
    "&amp;",
    "字",
    "👍🏽",
    "e\u{301}",
    "\u{200b}",
    " ",
];
const YAML_PIECES: &[&str] = &[
    "---\n",
    "name: x\n",
    "description: |\n  a\n",
    "- a\n",
    "key: [1, 2\n",
    "&a ",
    "*a",
    "!!str ",
    "{",
    "}",
    ":",
    "\"",
    "'",
    "\t",
    "\n",
    "  ",
    "? ",
    "%YAML 1.2\n",
    "...\n",
];
const KEY_PIECES: &[&str] = &[
    "ctrl", "alt", "shift", "super", "+", "enter", "escape", "f12", "f99", "a", "pageDown", "-",
    " ",
];

#[test]
fn sse_decoding_never_panics_and_splitting_changes_nothing() {
    proptest!(config(), |(text in tricky_text(SSE_PIECES), cuts in proptest::collection::vec(0usize..512, 0..8))| {
        let bytes = text.as_bytes();
        let mut whole = SseParser::new();
        let mut expected = whole.push(bytes);
        expected.extend(whole.finish());

        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
        cuts.sort_unstable();
        let mut split = SseParser::new();
        let mut got = Vec::new();
        let mut from = 0;
        for cut in cuts.into_iter().chain([bytes.len()]) {
            got.extend(split.push(&bytes[from..cut]));
            prop_assert!(split.pending_bytes() <= bytes.len());
            from = cut;
        }
        got.extend(split.finish());
        prop_assert_eq!(got, expected);
    });
}

#[test]
fn sse_decoding_of_raw_bytes_never_panics() {
    proptest!(config(), |(bytes in proptest::collection::vec(any::<u8>(), 0..2048))| {
        let mut parser = SseParser::new();
        let events = parser.push(&bytes);
        let total: usize = events.iter().map(|e| e.data.len()).sum();
        prop_assert!(total <= bytes.len());
        let _ = parser.finish();
    });
}

#[test]
fn session_lines_of_any_shape_are_read_or_skipped_never_a_panic() {
    let line = prop_oneof![
        tricky_text(&[
            "{",
            "}",
            "\"type\":",
            "\"message\"",
            "\"session\"",
            "\"id\":\"a\"",
            "\"parentId\":null",
            "\"version\":",
            "3",
            "99",
            "-1",
            "1e400",
            "[",
            "]",
            ",",
            ":",
            "null",
            "\"role\":\"assistant\"",
            "\"content\":[",
            "{\"type\":\"text\",\"text\":\"x\"}",
            "\"timestamp\":\"2024\"",
        ]),
        any::<String>(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    proptest!(config(), |(lines in proptest::collection::vec(line, 0..12), header_version in 0u64..5)| {
        for l in &lines {
            let _ = SessionEntry::parse_line(l);
        }
        let header = format!(
            "{{\"type\":\"session\",\"version\":{header_version},\"id\":\"0c4a4d36-7a34-4b8e-9c55-6f1e52d1a001\",\"timestamp\":\"2024-01-01T00:00:00.000Z\",\"cwd\":\"/tmp\"}}"
        );
        let text = std::iter::once(header).chain(lines.iter().cloned()).collect::<Vec<_>>().join("\n");
        std::fs::write(&path, &text).unwrap();
        if let Ok(Some(loaded)) = load_session_file(&path, MigrationWrite::InMemory) {
            prop_assert!(loaded.entries.len() <= lines.len());
        }
        // Reading in memory never changes the file.
        prop_assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    });
}

#[test]
fn rpc_records_are_bounded_by_the_line_limit() {
    const LIMIT: usize = 64;
    let input = prop_oneof![
        tricky_text(&[
            "{\"type\":\"prompt\"",
            ",\"id\":7",
            "}",
            "\n",
            "\r\n",
            "\"",
            "[1]",
            "x",
            "{",
            " "
        ])
        .prop_map(String::into_bytes),
        proptest::collection::vec(any::<u8>(), 0..1024),
    ];
    proptest!(config(), |(bytes in input, chunk in 1usize..64)| {
        let reader = std::io::BufReader::with_capacity(chunk, bytes.as_slice());
        let mut records = Vec::new();
        let read = read_records(reader, LIMIT, |r| { records.push(r); true });
        prop_assert!(read.is_ok());
        let lines = bytes.split(|b| *b == b'\n').count();
        prop_assert!(records.len() <= lines);
        for record in &records {
            match record {
                Incoming::Invalid { line, .. } => prop_assert!(line.len() <= 4 * LIMIT),
                Incoming::Command(value) => {
                    prop_assert!(value.is_object());
                    prop_assert!(value.to_string().len() <= 4 * LIMIT);
                }
            }
        }
    });
}

#[test]
fn an_overlong_rpc_line_is_an_error_and_the_next_line_is_read() {
    let mut input = format!(
        "{{\"id\":\"big\",\"type\":\"prompt\",\"message\":\"{}\"}}\n",
        "x".repeat(5000)
    );
    input.push_str("{\"type\":\"get_state\"}\n");
    let mut records = Vec::new();
    read_records(
        std::io::BufReader::with_capacity(100, input.as_bytes()),
        1024,
        |r| {
            records.push(r);
            true
        },
    )
    .unwrap();
    assert_eq!(records.len(), 2);
    let Incoming::Invalid { line, error } = &records[0] else {
        panic!("{:?}", records[0])
    };
    assert!(error.contains("longer than"), "{error}");
    assert!(line.starts_with("{\"id\":\"big\""), "{line}");
    assert!(line.len() <= 256);
    assert!(matches!(&records[1], Incoming::Command(v) if v["type"] == "get_state"));
}

#[test]
fn frontmatter_of_any_shape_parses_or_errs() {
    proptest!(config(), |(yaml in tricky_text(YAML_PIECES), body in any::<String>())| {
        let text = format!("---\n{yaml}\n---\n{body}");
        if let Ok(doc) = frontmatter::parse(&text) {
            prop_assert!(doc.body.len() <= text.len());
        }
        let _ = frontmatter::parse(&yaml);
        let _ = frontmatter::body(&text);
    });
}

#[test]
fn frontmatter_aliases_cannot_multiply_memory() {
    let mut yaml = String::from("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
    let mut prev = 'a';
    for name in 'b'..='k' {
        yaml.push_str(&format!(
            "{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        ));
        prev = name;
    }
    yaml.push_str("---\nbody\n");
    let started = std::time::Instant::now();
    let parsed = frontmatter::parse(&yaml);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    if let Ok(doc) = parsed {
        assert!(doc.data.to_string().len() < 64 * 1024 * 1024);
    }
}

#[test]
fn key_specs_of_any_shape_parse_or_are_refused() {
    proptest!(config(), |(spec in prop_oneof![tricky_text(KEY_PIECES), any::<String>()], json in any::<String>())| {
        if let Some(combo) = KeyCombo::parse(&spec) {
            let _ = combo.display();
        }
        let _ = Keybindings::from_json(&json);
        let _ = Keybindings::from_json(&format!("{{\"app.quit\": {:?}}}", spec));
    });
}

#[test]
fn ansi_helpers_never_panic_and_stay_proportional() {
    proptest!(config(), |(text in tricky_text(MARKUP_PIECES), width in 0usize..120, a in 0usize..80, b in 0usize..80)| {
        let _ = visible_width(&text);
        let cut = truncate_to_width(&text, width, "…");
        prop_assert!(visible_width(&cut) <= width.max(1));
        let _ = slice_by_column(&text, a.min(b), a.max(b));
        let wrapped = wrap_text_with_ansi(&text, width);
        let total: usize = wrapped.iter().map(String::len).sum();
        prop_assert!(total <= 4 * text.len() + 64 * wrapped.len() + 64);
        let safe = strip_control_sequences(&text);
        prop_assert!(!safe.contains("\x1b]52"));
        prop_assert!(!safe.contains("\x1b[2J"));
        let line = pi::ui_kit::ansi_line::ansi_line(&text, ratatui::style::Style::default());
        let shown: usize = line.spans.iter().map(|s| s.content.len()).sum();
        prop_assert!(shown <= 8 * text.len(), "tabs become at most 8 spaces");
    });
}

#[test]
fn markdown_of_any_shape_renders_within_bounds() {
    let theme = Theme::default();
    proptest!(config(), |(text in tricky_text(MARKUP_PIECES), width in 0usize..100)| {
        let lines = pi::tui::transcript::markdown::render_markdown(&text, width, &theme);
        let total: usize = lines
            .iter()
            .flat_map(|l| l.spans.iter())
            .map(|s| s.content.len())
            .sum();
        prop_assert!(total <= 16 * text.len() + 4096, "{} bytes from {}", total, text.len());
    });
}

#[test]
fn a_lone_escape_before_spaces_at_width_zero_does_not_panic() {
    let text = "\u{1b}  ";
    let cut = truncate_to_width(text, 0, "…");
    assert!(visible_width(&cut) <= 1);
    let _ = slice_by_column(text, 0, 0);
    let _ = wrap_text_with_ansi(text, 0);
    let _ = strip_control_sequences(text);
    let _ = pi::ui_kit::ansi_line::ansi_line(text, ratatui::style::Style::default());
}

#[test]
fn a_cut_of_broken_escapes_and_wide_text_stays_within_its_width() {
    let text = "```rust\n```rust\na|0``````rust\n\u{1b}[e\u{301}\te\u{301}![i](u)e\u{301}1. a\u{1b}[31m\u{1b}[31m字\u{1b}[[a](b)# # a# \u{1b}[[a](b)_``` _# **|_ \u{1b}[\u{1b}[2J![i](u) ```\u{1b}[# ";
    let link = "字&amp;\u{e000}# _e\u{301}\u{1b}[\u{1b}]8;;http://x\u{1b}\\";
    for (text, width) in [(text, 91), (text, 40), (text, 10), (text, 1), (link, 14)] {
        let cut = truncate_to_width(text, width, "…");
        assert!(
            visible_width(&cut) <= width,
            "width {width}: {} for {cut:?} (text {})",
            visible_width(&cut),
            visible_width(text)
        );
    }
}
