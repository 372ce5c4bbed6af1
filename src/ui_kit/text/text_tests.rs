use super::width::{Piece, escape_len, pieces};
use super::*;

const RED: &str = "\x1b[31m";
const RESET: &str = "\x1b[0m";

fn strip(text: &str) -> String {
    pieces(text)
        .filter_map(|p| match p {
            Piece::Char(c, _) => Some(c),
            Piece::Escape(_) => None,
        })
        .collect()
}

/// One row per kind of text that used to be measured two ways: its width, and a word
/// made of it repeated, which wrapping and truncation must cut between clusters.
const TABLE: &[(&str, &str, usize)] = &[
    ("ascii", "abc", 3),
    ("CJK", "家族", 4),
    ("ZWJ family", "👨\u{200d}👩\u{200d}👧", 2),
    ("flag", "🇯🇵", 2),
    ("lone regional indicator", "🇯", 2),
    ("skin tone", "👍🏽", 2),
    ("variation selector 16", "❤\u{fe0f}", 2),
    ("combining accent", "e\u{301}", 1),
    ("zero-width space", "a\u{200b}b", 2),
    ("ANSI-styled", "\x1b[31m家\x1b[0m", 2),
    ("hyperlink", "\x1b]8;;https://x.dev\x07go\x1b]8;;\x07", 2),
    ("tab", "a\tb", 2 + TAB_WIDTH),
];

#[test]
fn width_wrap_and_truncate_agree_on_every_kind_of_text() {
    for &(name, sample, expected) in TABLE {
        assert_eq!(width(sample), expected, "{name}: width");
        let clusters: usize = pieces(sample)
            .map(|p| match p {
                Piece::Char(g, _) => grapheme_width(g),
                Piece::Escape(_) => 0,
            })
            .sum();
        assert_eq!(clusters, expected, "{name}: cluster sum");
        let words = [sample; 7].join(" ");
        let widest = pieces(sample)
            .map(|p| match p {
                Piece::Char(_, w) => w,
                Piece::Escape(_) => 0,
            })
            .max()
            .unwrap_or(0);
        // A row narrower than one cluster cannot hold it whatever the wrapper does.
        for max in [3, 4, 5, 7, 11].into_iter().filter(|&m| m >= widest) {
            let rows = wrap_text(&words, max);
            for row in &rows {
                assert!(width(row) <= max, "{name} @{max}: {row:?} in {rows:?}");
            }
            let plain: String = strip(&rows.concat());
            assert_eq!(
                plain.replace(' ', ""),
                strip(&words).replace(' ', ""),
                "{name} @{max}: wrapping lost or split text"
            );
            let cut = truncate(&words, max, "…");
            assert!(width(&cut) <= max, "{name} @{max}: {cut:?}");
            assert!(strip(&cut).ends_with('…'), "{name} @{max}: {cut:?}");
            assert_eq!(width(&fit(&words, max, "…")), max, "{name} @{max}: fit");
            let kept = wrap_keeping(&words, max);
            assert_eq!(kept.concat(), words, "{name} @{max}: wrap_keeping");
            for row in &kept {
                assert!(width(row) <= max, "{name} @{max}: {kept:?}");
            }
        }
        // Whole words that fit move to the next row instead of being split.
        if expected <= 4 && !sample.contains('\t') {
            let rows = wrap_text(&format!("{sample} {sample} {sample}"), expected * 2 + 1);
            assert_eq!(strip(&rows[1]), strip(sample), "{name}: {rows:?}");
        }
    }
}

#[test]
fn a_long_word_is_split_between_grapheme_clusters_only() {
    let family = "👨\u{200d}👩\u{200d}👧";
    let word = family.repeat(5);
    let rows = wrap_text(&word, 5);
    assert_eq!(
        rows,
        vec![family.repeat(2), family.repeat(2), family.to_string()]
    );
    let runs = vec![(word.clone(), 1u8)];
    let hard = hard_wrap_runs(&runs, 3);
    assert!(
        hard.iter().all(|r| r.len() == 1 && r[0].0 == family),
        "{hard:?}"
    );
    assert_eq!(truncate(&word, 5, "…"), format!("{}…", family.repeat(2)));
    assert_eq!(byte_at_column(&word, 3), family.len());
    assert_eq!(next_boundary(&word, 0), family.len());
    assert_eq!(prev_boundary(&word, family.len()), 0);
}

#[test]
fn wrapped_runs_break_at_spaces_and_keep_styles() {
    let runs = vec![
        ("家族 👨\u{200d}👩\u{200d}👧 ".to_string(), 1u8),
        ("emoji".into(), 2),
    ];
    let rows = wrap_runs(&runs, 6, 6);
    let text: Vec<String> = rows
        .iter()
        .map(|r| r.iter().map(|(t, _)| t.as_str()).collect())
        .collect();
    assert_eq!(text, ["家族", "👨\u{200d}👩\u{200d}👧", "emoji"]);
    assert_eq!(rows[2][0].1, 2);
}

#[test]
fn escape_sequences_are_neutralised() {
    let evil =
        "a\u{1b}[2J\u{1b}[Hb\u{1b}]0;title\u{7}c\u{1b}]8;;http://x\u{1b}\\d\u{9b}31me\r\u{8}f";
    assert_eq!(sanitize(evil), "abcdef");
    assert_eq!(sanitize("x\ty\nz"), "x    y\nz");
    assert_eq!(width(&sanitize("a\tb")), width("a\tb"));
}

#[test]
fn an_escape_before_a_multibyte_character_is_split_at_a_character_boundary() {
    assert_eq!(width("\x1b\u{200b}ab"), 2);
    assert_eq!(escape_len("\x1b字"), Some(4));
}

#[test]
fn width_ignores_escapes_and_counts_wide_characters() {
    assert_eq!(width(&format!("{RED}abc{RESET}")), 3);
    assert_eq!(width("你好"), 4);
    assert_eq!(width("😀a"), 3);
}

#[test]
fn truncation_counts_wide_characters_and_keeps_styles() {
    assert_eq!(truncate("日本語のテキスト", 7, "…"), "日本語…");
    assert_eq!(truncate("short", 10, "…"), "short");
    assert!(width(&truncate("日本語", 2, "...")) <= 2);
    let out = truncate(&format!("{RED}hello world{RESET}"), 8, "…");
    assert_eq!(out, format!("{RED}hello w{RESET}…{RESET}"));
    assert_eq!(width(&out), 8);
    assert_eq!(truncate("你好世界", 5, "…"), "你好…");
}

#[test]
fn padding_counts_display_columns() {
    assert_eq!(pad("家", 4), "家  ");
    assert_eq!(pad("abcdef", 4), "abcdef");
    assert_eq!(fit("你好世界", 5, "…"), "你好…");
    assert_eq!(fit("家族", 6, "…"), "家族  ");
}

#[test]
fn slicing_by_column_drops_straddling_wide_characters() {
    assert_eq!(slice_by_column("abcdef", 2, 4), "cd");
    assert_eq!(slice_by_column("你好世界", 1, 5), "好");
    assert_eq!(
        slice_by_column(&format!("{RED}abc"), 1, 2),
        format!("{RED}b")
    );
}

#[test]
fn wrapping_breaks_at_spaces_and_reopens_styles() {
    let lines = wrap_text(&format!("{RED}one two three{RESET} four"), 8);
    let plain: Vec<String> = lines.iter().map(|l| strip(l)).collect();
    assert_eq!(plain, ["one two", "three", "four"]);
    assert!(lines[1].starts_with(RED), "{:?}", lines[1]);
    assert!(!lines[0].ends_with(RESET));
    for line in &lines {
        assert!(width(line) <= 8);
    }
    assert_eq!(wrap_text("a\nb", 10), ["a", "b"]);
}

#[test]
fn wrapping_respects_width_and_words() {
    assert_eq!(wrap_line("hello big world", 9), vec!["hello big", "world"]);
    assert_eq!(wrap_line("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
    for row in wrap_line("漢字漢字漢字 漢字", 5) {
        assert!(width(&row) <= 5, "{row}");
    }
    assert_eq!(wrap_line("", 5), vec![""]);
    let lines = wrap_text("你好世界你好", 5);
    assert_eq!(lines.concat(), "你好世界你好");
}

#[test]
fn editor_wrapping_breaks_between_words_and_keeps_every_character() {
    let line = "the quick brown fox jumps over the lazy dog";
    let rows = wrap_keeping(line, 12);
    assert_eq!(rows.concat(), line);
    assert_eq!(rows[0], "the quick ");
    assert!(rows.iter().all(|r| width(r) <= 12), "{rows:?}");
    let long = "x".repeat(30);
    assert_eq!(wrap_keeping(&long, 12).concat(), long);
    assert_eq!(wrap_keeping("中文字中文字", 5).concat(), "中文字中文字");
}

#[test]
fn hard_wrap_keeps_styles_and_width() {
    let runs = vec![("abcdef".to_string(), 1u8), ("漢字".to_string(), 2)];
    let rows = hard_wrap_runs(&runs, 4);
    for row in &rows {
        assert!(row.iter().map(|(t, _)| width(t)).sum::<usize>() <= 4);
    }
    let joined: String = rows.iter().flatten().map(|(t, _)| t.as_str()).collect();
    assert_eq!(joined, "abcdef漢字");
    assert_eq!(rows[1], [("ef".to_string(), 1), ("漢".to_string(), 2)]);
}

#[test]
fn the_quick_path_measures_like_grapheme_clusters() {
    for sample in [
        "─┼─ → ≥ ★ ✓ ☐",
        "naïve – “quoted” …",
        "\u{ad}x\u{a0}y",
        "❤ ✂",
    ] {
        let slow: usize = graphemes(sample).map(|(_, w)| w).sum();
        assert_eq!(width(sample), slow, "{sample:?}");
    }
}
