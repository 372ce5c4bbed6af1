//! Matching and applying exact-text replacements, with a fuzzy fallback
//! that tolerates Unicode look-alikes and trailing whitespace.

use unicode_normalization::UnicodeNormalization;

use super::edit_error::EditError;

/// One replacement requested by the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// Text to find (must occur exactly once).
    pub old_text: String,
    /// Text to put in its place.
    pub new_text: String,
}

/// Content before and after applying the replacements (LF line endings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedEdits {
    /// The content the replacements were applied to (fuzzy-normalised when
    /// any replacement needed the fuzzy fallback).
    pub base_content: String,
    /// The content after all replacements.
    pub new_content: String,
}

/// Line ending used by a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
}

/// CRLF when the first `\r\n` comes before the first bare `\n`.
pub fn detect_line_ending(content: &str) -> LineEnding {
    match (content.find("\r\n"), content.find('\n')) {
        (Some(crlf), Some(lf)) if crlf < lf => LineEnding::CrLf,
        _ => LineEnding::Lf,
    }
}

/// Turn `\r\n` and lone `\r` into `\n`.
pub fn normalize_to_lf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Put the original line endings back.
pub fn restore_line_endings(text: &str, ending: LineEnding) -> String {
    match ending {
        LineEnding::Lf => text.to_string(),
        LineEnding::CrLf => text.replace('\n', "\r\n"),
    }
}

/// Split off a UTF-8 byte-order mark: `(bom, rest)`.
pub fn strip_bom(content: &str) -> (&str, &str) {
    match content.strip_prefix('\u{FEFF}') {
        Some(rest) => ("\u{FEFF}", rest),
        None => ("", content),
    }
}

/// Whitespace as JavaScript's `trimEnd` sees it.
fn is_js_whitespace(c: char) -> bool {
    c.is_whitespace() || c == '\u{FEFF}'
}

/// Normalise text for fuzzy matching: NFKC, trailing whitespace removed per
/// line, smart quotes to ASCII quotes, Unicode dashes to `-`, special spaces
/// to a plain space.
pub fn normalize_for_fuzzy_match(text: &str) -> String {
    let nfkc: String = text.nfkc().collect();
    nfkc.split('\n')
        .map(|line| line.trim_end_matches(is_js_whitespace))
        .collect::<Vec<_>>()
        .join("\n")
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// Where a search text was found.
struct FoundText {
    index: usize,
    length: usize,
    fuzzy: bool,
}

/// Exact search first, then search in fuzzy-normalised space (the index then
/// refers to the normalised content).
fn fuzzy_find(content: &str, old_text: &str) -> Option<FoundText> {
    if let Some(index) = content.find(old_text) {
        return Some(FoundText {
            index,
            length: old_text.len(),
            fuzzy: false,
        });
    }
    let fuzzy_content = normalize_for_fuzzy_match(content);
    let fuzzy_old = normalize_for_fuzzy_match(old_text);
    fuzzy_content.find(&fuzzy_old).map(|index| FoundText {
        index,
        length: fuzzy_old.len(),
        fuzzy: true,
    })
}

/// Non-overlapping occurrences, counted in fuzzy-normalised space.
fn count_occurrences(content: &str, old_text: &str) -> usize {
    let fuzzy_old = normalize_for_fuzzy_match(old_text);
    if fuzzy_old.is_empty() {
        return 0;
    }
    normalize_for_fuzzy_match(content)
        .matches(&fuzzy_old)
        .count()
}

/// Apply all replacements to LF-normalised `content`. Every replacement is
/// matched against the original content (not after earlier replacements);
/// matches must be unique and must not overlap. `path` appears in errors.
pub fn apply_edits(
    content: &str,
    edits: &[Replacement],
    path: &str,
) -> Result<AppliedEdits, EditError> {
    let total = edits.len();
    let which = |i: usize| (total > 1).then_some(i);
    let edits: Vec<Replacement> = edits
        .iter()
        .map(|e| Replacement {
            old_text: normalize_to_lf(&e.old_text),
            new_text: normalize_to_lf(&e.new_text),
        })
        .collect();
    if let Some(index) = edits.iter().position(|e| e.old_text.is_empty()) {
        return Err(EditError::EmptyOldText {
            path: path.to_string(),
            index: which(index),
        });
    }

    let any_fuzzy = edits
        .iter()
        .any(|e| fuzzy_find(content, &e.old_text).is_some_and(|f| f.fuzzy));
    let base_content = if any_fuzzy {
        normalize_for_fuzzy_match(content)
    } else {
        content.to_string()
    };

    // (edit index, match start, match length)
    let mut matches: Vec<(usize, usize, usize)> = Vec::with_capacity(total);
    for (i, edit) in edits.iter().enumerate() {
        let Some(found) = fuzzy_find(&base_content, &edit.old_text) else {
            return Err(EditError::NotFound {
                path: path.to_string(),
                index: which(i),
            });
        };
        let occurrences = count_occurrences(&base_content, &edit.old_text);
        if occurrences > 1 {
            return Err(EditError::NotUnique {
                path: path.to_string(),
                index: which(i),
                occurrences,
            });
        }
        matches.push((i, found.index, found.length));
    }
    matches.sort_by_key(|&(_, start, _)| start);
    for pair in matches.windows(2) {
        let (prev_edit, prev_start, prev_len) = pair[0];
        let (next_edit, next_start, _) = pair[1];
        if prev_start + prev_len > next_start {
            return Err(EditError::Overlap {
                path: path.to_string(),
                first: prev_edit,
                second: next_edit,
            });
        }
    }

    let mut new_content = base_content.clone();
    for &(i, start, length) in matches.iter().rev() {
        new_content.replace_range(start..start + length, &edits[i].new_text);
    }
    if new_content == base_content {
        return Err(EditError::NoChange {
            path: path.to_string(),
            single: total == 1,
        });
    }
    Ok(AppliedEdits {
        base_content,
        new_content,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str) -> Replacement {
        Replacement {
            old_text: old.into(),
            new_text: new.into(),
        }
    }

    #[test]
    fn detects_line_endings() {
        assert_eq!(detect_line_ending("a\r\nb\n"), LineEnding::CrLf);
        assert_eq!(detect_line_ending("a\nb\r\n"), LineEnding::Lf);
        assert_eq!(detect_line_ending("no newline"), LineEnding::Lf);
    }

    #[test]
    fn fuzzy_normalisation_maps_lookalikes() {
        assert_eq!(
            normalize_for_fuzzy_match("\u{201C}hi\u{201D} \u{2014} it\u{2019}s  \nx\u{00A0}y"),
            "\"hi\" - it's\nx y"
        );
    }

    #[test]
    fn applies_exact_edit() {
        let r = apply_edits("let a = 1;\nlet b = 2;\n", &[edit("a = 1", "a = 10")], "f").unwrap();
        assert_eq!(r.new_content, "let a = 10;\nlet b = 2;\n");
        assert_eq!(r.base_content, "let a = 1;\nlet b = 2;\n");
    }

    #[test]
    fn fuzzy_edit_rewrites_in_normalised_space() {
        let content = "say(\u{201C}hello\u{201D});   \nnext\n";
        let r = apply_edits(content, &[edit("say(\"hello\");", "say(\"bye\");")], "f").unwrap();
        assert_eq!(r.new_content, "say(\"bye\");\nnext\n");
    }

    #[test]
    fn rejects_ambiguous_missing_and_overlapping_edits() {
        let err = apply_edits("x\nx\n", &[edit("x", "y")], "f.txt")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("Found 2 occurrences of the text in f.txt."));
        let err = apply_edits("abc", &[edit("zzz", "y")], "f.txt")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("Could not find the exact text in f.txt."));
        let err = apply_edits("abcdef", &[edit("abcd", "1"), edit("cdef", "2")], "f")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "edits[0] and edits[1] overlap in f. Merge them into one edit or target disjoint regions."
        );
        let err = apply_edits("abc", &[edit("a", "x"), edit("q", "y")], "f")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("Could not find edits[1] in f."));
    }

    #[test]
    fn multiple_edits_match_original_content() {
        let r = apply_edits(
            "one two three",
            &[edit("three", "3"), edit("one", "two")],
            "f",
        )
        .unwrap();
        assert_eq!(r.new_content, "two two 3");
    }

    #[test]
    fn refusals_carry_which_edit_and_where() {
        let err = apply_edits("abcdef", &[edit("abcd", "1"), edit("cdef", "2")], "f").unwrap_err();
        assert_eq!(
            err,
            EditError::Overlap {
                path: "f".into(),
                first: 0,
                second: 1
            }
        );
        let err = apply_edits("x\nx\n", &[edit("x", "y")], "f").unwrap_err();
        assert_eq!(
            err,
            EditError::NotUnique {
                path: "f".into(),
                index: None,
                occurrences: 2
            }
        );
    }

    #[test]
    fn identical_result_is_an_error() {
        let err = apply_edits("same", &[edit("same", "same")], "f")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("No changes made to f. The replacement produced identical content.")
        );
    }
}
