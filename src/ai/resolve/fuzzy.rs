//! Fuzzy text matching as used by pi's model search: query characters must
//! appear in order; consecutive and word-boundary hits score better (lower).

/// Result of matching one query against one text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FuzzyScore {
    /// Whether every query character was found in order.
    pub matches: bool,
    /// Lower is better.
    pub score: f64,
}

const NO_MATCH: FuzzyScore = FuzzyScore {
    matches: false,
    score: 0.0,
};

fn match_lowered(query: &[char], text: &[char]) -> FuzzyScore {
    if query.is_empty() {
        return FuzzyScore {
            matches: true,
            score: 0.0,
        };
    }
    if query.len() > text.len() {
        return NO_MATCH;
    }
    let mut qi = 0;
    let mut score = 0.0;
    let mut last: Option<usize> = None;
    let mut consecutive = 0.0;
    for (i, &c) in text.iter().enumerate() {
        if qi >= query.len() {
            break;
        }
        if c != query[qi] {
            continue;
        }
        let boundary =
            i == 0 || matches!(text[i - 1], ' ' | '\t' | '\n' | '-' | '_' | '.' | '/' | ':');
        // A match at the very start counts as continuing a run, as in pi (its "previous
        // match" starts at -1).
        let continues_run = match last {
            Some(l) => l + 1 == i,
            None => i == 0,
        };
        if continues_run {
            consecutive += 1.0;
            score -= consecutive * 5.0;
        } else {
            consecutive = 0.0;
            if let Some(l) = last {
                score += (i - l - 1) as f64 * 2.0;
            }
        }
        if boundary {
            score -= 10.0;
        }
        score += i as f64 * 0.1;
        last = Some(i);
        qi += 1;
    }
    if qi < query.len() {
        return NO_MATCH;
    }
    if query == text {
        score -= 100.0;
    }
    FuzzyScore {
        matches: true,
        score,
    }
}

/// Match `query` against `text`, case-insensitively. A query like `gpt5`
/// that fails is retried with its letter and digit runs swapped (`5gpt`).
pub fn fuzzy_match(query: &str, text: &str) -> FuzzyScore {
    let q: Vec<char> = query.to_lowercase().chars().collect();
    let t: Vec<char> = text.to_lowercase().chars().collect();
    let primary = match_lowered(&q, &t);
    if primary.matches {
        return primary;
    }
    let Some(swapped) = swap_letters_and_digits(&q) else {
        return primary;
    };
    let second = match_lowered(&swapped, &t);
    if !second.matches {
        return primary;
    }
    FuzzyScore {
        matches: true,
        score: second.score + 5.0,
    }
}

/// `abc123` → `123abc` and `123abc` → `abc123`; `None` for other shapes.
fn swap_letters_and_digits(q: &[char]) -> Option<Vec<char>> {
    let split = q
        .iter()
        .position(|c| c.is_ascii_digit() != q[0].is_ascii_digit())?;
    let (head, tail) = q.split_at(split);
    let head_letters = head.iter().all(|c| c.is_ascii_lowercase());
    let head_digits = head.iter().all(|c| c.is_ascii_digit());
    let tail_letters = tail.iter().all(|c| c.is_ascii_lowercase());
    let tail_digits = tail.iter().all(|c| c.is_ascii_digit());
    if (head_letters && tail_digits) || (head_digits && tail_letters) {
        Some(tail.iter().chain(head).copied().collect())
    } else {
        None
    }
}

/// Keep the items whose text matches every whitespace-separated token of
/// `query`, best matches first. A blank query keeps everything in order.
pub fn fuzzy_filter<T, F: Fn(&T) -> String>(items: Vec<T>, query: &str, text_of: F) -> Vec<T> {
    let tokens: Vec<&str> = query.split_whitespace().collect();
    if tokens.is_empty() {
        return items;
    }
    let mut scored: Vec<(f64, T)> = items
        .into_iter()
        .filter_map(|item| {
            let text = text_of(&item);
            let mut total = 0.0;
            for token in &tokens {
                let m = fuzzy_match(token, &text);
                if !m.matches {
                    return None;
                }
                total += m.score;
            }
            Some((total, item))
        })
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    scored.into_iter().map(|(_, item)| item).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsequence_matching() {
        assert!(fuzzy_match("cs4", "claude-sonnet-4").matches);
        assert!(!fuzzy_match("xyz", "claude").matches);
        assert!(fuzzy_match("gpt5", "gpt-5").matches);
        assert!(fuzzy_match("5gpt", "gpt-5").matches);
    }

    #[test]
    fn filter_requires_all_tokens_and_ranks() {
        let items = vec!["openai gpt-4o", "anthropic claude-opus", "openai gpt-5"];
        let out = fuzzy_filter(items, "openai 5", |s| s.to_string());
        assert_eq!(out, vec!["openai gpt-5"]);
        let ranked = fuzzy_filter(vec!["xaxbxc", "abc"], "abc", |s| s.to_string());
        assert_eq!(ranked, vec!["abc", "xaxbxc"]);
    }
}
