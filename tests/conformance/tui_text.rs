//! Text measuring, wrapping and truncating with ANSI styling; fuzzy matching.
//! orig-file: packages/tui/test/wrap-ansi.test.ts, regression-regional-indicator-width.test.ts, fuzzy.test.ts; packages/coding-agent/test/truncate-to-width.test.ts

use pi::ai::resolve::fuzzy::{fuzzy_filter, fuzzy_match};
// The names pi gives these helpers.
use pi::ui_kit::text::{
    truncate as truncate_to_width, width as visible_width, wrap_text as wrap_text_with_ansi,
};

const UL_ON: &str = "\x1b[4m";
const UL_OFF: &str = "\x1b[24m";
const RESET: &str = "\x1b[0m";

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › underline styling › should not apply underline style before the styled text
#[test]
fn underline_starts_with_its_text() {
    let url = "https://example.com/very/long/path/that/will/wrap";
    let wrapped = wrap_text_with_ansi(&format!("read this thread {UL_ON}{url}{UL_OFF}"), 40);
    assert_eq!(wrapped[0].trim_end(), "read this thread");
    assert!(wrapped[1].starts_with(UL_ON), "{wrapped:?}");
    assert!(wrapped[1].contains("https://"));
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › underline styling › should not have whitespace before underline reset code
#[test]
fn no_space_before_underline_off() {
    let wrapped = wrap_text_with_ansi(&format!("{UL_ON}underlined text here {UL_OFF}more"), 18);
    assert!(!wrapped[0].contains(&format!(" {UL_OFF}")), "{wrapped:?}");
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › underline styling › should not bleed underline to padding - each line should end with reset for underline only
#[test]
fn underline_lines_end_with_underline_off() {
    let url = "https://example.com/very/long/path/that/will/definitely/wrap";
    let wrapped = wrap_text_with_ansi(&format!("prefix {UL_ON}{url}{UL_OFF} suffix"), 30);
    for line in &wrapped[1..wrapped.len() - 1] {
        if line.contains(UL_ON) {
            assert!(line.ends_with(UL_OFF), "{line:?}");
            assert!(!line.ends_with(RESET));
        }
    }
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › background color preservation › should preserve background color across wrapped lines without full reset
#[test]
fn background_kept_on_every_line() {
    let bg = "\x1b[44m";
    let wrapped = wrap_text_with_ansi(
        &format!("{bg}hello world this is blue background text{RESET}"),
        15,
    );
    for line in &wrapped {
        assert!(line.contains(bg), "{wrapped:?}");
    }
    for line in &wrapped[..wrapped.len() - 1] {
        assert!(!line.ends_with(RESET), "{wrapped:?}");
    }
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › background color preservation › should reset underline but preserve background when wrapping underlined text inside background
#[test]
fn underline_inside_background() {
    let text = format!("\x1b[41mprefix {UL_ON}UNDERLINED_CONTENT_THAT_WRAPS{UL_OFF} suffix{RESET}");
    let wrapped = wrap_text_with_ansi(&text, 20);
    for line in &wrapped {
        assert!(
            line.contains("[41m") || line.contains(";41m") || line.contains("[41;"),
            "{wrapped:?}"
        );
    }
    for line in &wrapped[..wrapped.len() - 1] {
        let underlined = line.contains("[4m") || line.contains("[4;") || line.contains(";4m");
        if underlined && !line.contains(UL_OFF) {
            assert!(line.ends_with(UL_OFF), "{line:?}");
        }
        if underlined {
            assert!(!line.ends_with(RESET), "{line:?}");
        }
    }
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › basic wrapping › should wrap plain text correctly
#[test]
fn plain_text_wraps() {
    let wrapped = wrap_text_with_ansi("hello world this is a test", 10);
    assert!(wrapped.len() > 1);
    for line in &wrapped {
        assert!(visible_width(line) <= 10, "{line:?}");
    }
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › basic wrapping › should ignore OSC 133 semantic markers in visible width
#[test]
fn osc_bel_has_no_width() {
    assert_eq!(visible_width("\x1b]133;A\x07hello\x1b]133;B\x07"), 5);
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › basic wrapping › should ignore OSC sequences terminated with ST in visible width
#[test]
fn osc_st_has_no_width() {
    assert_eq!(visible_width("\x1b]133;A\x1b\\hello\x1b]133;B\x1b\\"), 5);
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › basic wrapping › should treat isolated regional indicators as width 2
#[test]
fn regional_indicators_are_wide() {
    assert_eq!(visible_width("🇨"), 2);
    assert_eq!(visible_width("🇨🇳"), 2);
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › basic wrapping › should truncate trailing whitespace that exceeds width
#[test]
fn trailing_spaces_fit_width() {
    let wrapped = wrap_text_with_ansi("  ", 1);
    assert!(visible_width(&wrapped[0]) <= 1, "{wrapped:?}");
}

/// orig: wrap-ansi.test.ts › wrapTextWithAnsi › basic wrapping › should preserve color codes across wraps
#[test]
fn colour_reopened_on_each_line() {
    let red = "\x1b[31m";
    let wrapped = wrap_text_with_ansi(&format!("{red}hello world this is red{RESET}"), 10);
    for line in &wrapped[1..] {
        assert!(line.starts_with(red), "{wrapped:?}");
    }
    for line in &wrapped[..wrapped.len() - 1] {
        assert!(!line.ends_with(RESET), "{wrapped:?}");
    }
}

/// orig: regression-regional-indicator-width.test.ts › regional indicator width regression › treats partial flag grapheme as full-width to avoid streaming render drift
#[test]
fn partial_flag_is_wide() {
    assert_eq!(visible_width("🇨"), 2);
    assert_eq!(visible_width("      - 🇨"), 10);
}

/// orig: regression-regional-indicator-width.test.ts › regional indicator width regression › wraps intermediate partial-flag list line before overflow
#[test]
fn partial_flag_wraps() {
    let wrapped = wrap_text_with_ansi("      - 🇨", 9);
    assert_eq!(wrapped.len(), 2, "{wrapped:?}");
    assert_eq!(visible_width(&wrapped[0]), 7);
    assert_eq!(visible_width(&wrapped[1]), 2);
}

/// orig: regression-regional-indicator-width.test.ts › regional indicator width regression › treats all regional-indicator singleton graphemes as width 2
#[test]
fn every_regional_indicator_is_wide() {
    for cp in 0x1f1e6..=0x1f1ff_u32 {
        let s = char::from_u32(cp).unwrap().to_string();
        assert_eq!(visible_width(&s), 2, "U+{cp:X}");
    }
}

/// orig: regression-regional-indicator-width.test.ts › regional indicator width regression › keeps full flag pairs at width 2
#[test]
fn flag_pairs_are_two_wide() {
    for flag in ["🇯🇵", "🇺🇸", "🇬🇧", "🇨🇳", "🇩🇪", "🇫🇷"] {
        assert_eq!(visible_width(flag), 2, "{flag}");
    }
}

/// orig: regression-regional-indicator-width.test.ts › regional indicator width regression › keeps common streaming emoji intermediates at stable width
#[test]
fn emoji_sequences_are_two_wide() {
    for sample in ["👍", "👍🏻", "✅", "⚡", "⚡️", "👨", "👨‍💻", "🏳️‍🌈"]
    {
        assert_eq!(visible_width(sample), 2, "{sample}");
    }
}

fn fits(message: &str, max: usize) {
    let cut = truncate_to_width(message, max, "...");
    assert!(visible_width(&cut) <= max, "{cut:?}");
}

/// orig: truncate-to-width.test.ts › truncateToWidth › should truncate messages with Unicode characters correctly
#[test]
fn truncate_unicode() {
    fits(
        "✔ script to run › dev $ concurrently \"vite\" \"node --import tsx ./",
        65,
    );
}

/// orig: truncate-to-width.test.ts › truncateToWidth › should handle emoji characters
#[test]
fn truncate_emoji() {
    fits(
        "🎉 Celebration! 🚀 Launch 📦 Package ready for deployment now",
        38,
    );
}

/// orig: truncate-to-width.test.ts › truncateToWidth › should handle mixed ASCII and wide characters
#[test]
fn truncate_wide() {
    fits("Hello 世界 Test 你好 More text here that is long", 28);
}

/// orig: truncate-to-width.test.ts › truncateToWidth › should not truncate messages that fit
#[test]
fn truncate_fitting_text_unchanged() {
    assert_eq!(
        truncate_to_width("Short message", 48, "..."),
        "Short message"
    );
}

/// orig: truncate-to-width.test.ts › truncateToWidth › should add ellipsis when truncating
#[test]
fn truncate_adds_ellipsis() {
    let cut = truncate_to_width(
        "This is a very long message that needs to be truncated",
        28,
        "...",
    );
    assert!(cut.contains("..."));
    assert!(visible_width(&cut) <= 28);
}

/// orig: truncate-to-width.test.ts › truncateToWidth › should handle the exact crash case from issue report
#[test]
fn truncate_crash_case() {
    let cut = truncate_to_width(
        "✔ script to run › dev $ concurrently \"vite\" \"node --import tsx ./server.ts\"",
        65,
        "...",
    );
    assert!(visible_width(&cut) + 2 <= 67);
}

/// orig: fuzzy.test.ts › fuzzyMatch › empty query matches everything with score 0
#[test]
fn fuzzy_empty_query() {
    let m = fuzzy_match("", "anything");
    assert!(m.matches);
    assert_eq!(m.score, 0.0);
}

/// orig: fuzzy.test.ts › fuzzyMatch › query longer than text does not match
#[test]
fn fuzzy_long_query() {
    assert!(!fuzzy_match("longquery", "short").matches);
}

/// orig: fuzzy.test.ts › fuzzyMatch › exact match has good score
#[test]
fn fuzzy_exact_scores_below_zero() {
    let m = fuzzy_match("test", "test");
    assert!(m.matches);
    assert!(m.score < 0.0);
}

/// orig: fuzzy.test.ts › fuzzyMatch › characters must appear in order
#[test]
fn fuzzy_order() {
    assert!(fuzzy_match("abc", "aXbXc").matches);
    assert!(!fuzzy_match("abc", "cba").matches);
}

/// orig: fuzzy.test.ts › fuzzyMatch › case insensitive matching
#[test]
fn fuzzy_case_insensitive() {
    assert!(fuzzy_match("ABC", "abc").matches);
    assert!(fuzzy_match("abc", "ABC").matches);
}

/// orig: fuzzy.test.ts › fuzzyMatch › consecutive matches score better than scattered matches
#[test]
fn fuzzy_consecutive_better() {
    let a = fuzzy_match("foo", "foobar");
    let b = fuzzy_match("foo", "f_o_o_bar");
    assert!(a.matches && b.matches);
    assert!(a.score < b.score);
}

/// orig: fuzzy.test.ts › fuzzyMatch › word boundary matches score better
#[test]
fn fuzzy_boundary_better() {
    let a = fuzzy_match("fb", "foo-bar");
    let b = fuzzy_match("fb", "afbx");
    assert!(a.matches && b.matches);
    assert!(a.score < b.score);
}

/// orig: fuzzy.test.ts › fuzzyMatch › matches swapped alpha numeric tokens
#[test]
fn fuzzy_swapped_tokens() {
    assert!(fuzzy_match("codex52", "gpt-5.2-codex").matches);
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// orig: fuzzy.test.ts › fuzzyFilter › empty query returns all items unchanged
#[test]
fn filter_empty_query() {
    let items = strings(&["apple", "banana", "cherry"]);
    assert_eq!(fuzzy_filter(items.clone(), "", |s| s.clone()), items);
}

/// orig: fuzzy.test.ts › fuzzyFilter › filters out non-matching items
#[test]
fn filter_drops_non_matches() {
    let got = fuzzy_filter(strings(&["apple", "banana", "cherry"]), "an", |s| s.clone());
    assert_eq!(got, ["banana"]);
}

/// orig: fuzzy.test.ts › fuzzyFilter › sorts results by match quality
#[test]
fn filter_sorts_by_quality() {
    let got = fuzzy_filter(strings(&["a_p_p", "app", "application"]), "app", |s| {
        s.clone()
    });
    assert_eq!(got[0], "app");
}

/// orig: fuzzy.test.ts › fuzzyFilter › works with custom getText function
#[test]
fn filter_custom_text() {
    let items = vec![("foo", 1), ("bar", 2), ("foobar", 3)];
    let got = fuzzy_filter(items, "foo", |(name, _)| name.to_string());
    let names: Vec<&str> = got.iter().map(|(n, _)| *n).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"foo") && names.contains(&"foobar"));
}
