//! String ordering that matches the default Unicode collation used by pi
//! for sorting model ids (`localeCompare`): punctuation before digits before
//! letters, letters compared case-insensitively first, lowercase before
//! uppercase only to break ties.

use std::cmp::Ordering;

/// ASCII whitespace, punctuation and symbols in collation order.
const PUNCTUATION_ORDER: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

fn primary_weight(c: char) -> u32 {
    if let Some(i) = PUNCTUATION_ORDER.find(c) {
        return i as u32;
    }
    if c.is_ascii_digit() {
        return 100 + (c as u32 - '0' as u32);
    }
    if c.is_ascii_alphabetic() {
        return 200 + (c.to_ascii_lowercase() as u32 - 'a' as u32);
    }
    if c.is_whitespace() {
        return 0;
    }
    if c.is_alphabetic() {
        let lower = c.to_lowercase().next().unwrap_or(c);
        return 1_000 + lower as u32;
    }
    50
}

/// Compare two strings the way pi sorts model and provider names.
pub fn collate(a: &str, b: &str) -> Ordering {
    let primary = a
        .chars()
        .map(primary_weight)
        .cmp(b.chars().map(primary_weight));
    if primary != Ordering::Equal {
        return primary;
    }
    // Tertiary: lowercase sorts before uppercase.
    let case = |c: char| u8::from(c.is_uppercase());
    a.chars()
        .map(case)
        .cmp(b.chars().map(case))
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(items: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| collate(a, b));
        v
    }

    #[test]
    fn matches_default_collation() {
        assert_eq!(
            sorted(&["ab1", "Ab", "aB", "ab", "a.b", "a-b", "a-1", "a_b"]),
            ["a_b", "a-1", "a-b", "a.b", "ab", "aB", "Ab", "ab1"]
        );
        assert_eq!(
            sorted(&[
                "MiniMax-M2.7-highspeed",
                "gpt-5.2",
                "gpt-5.10",
                "MiniMax-M2.7",
                "minimax-m2.5",
                "gpt-5"
            ]),
            [
                "gpt-5",
                "gpt-5.10",
                "gpt-5.2",
                "minimax-m2.5",
                "MiniMax-M2.7",
                "MiniMax-M2.7-highspeed"
            ]
        );
        assert_eq!(collate("~openai/x", "ai21/x"), Ordering::Less);
    }
}
