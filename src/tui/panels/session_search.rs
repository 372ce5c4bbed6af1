//! What `/resume` lists and in which order: the search (fuzzy words, `"exact
//! phrases"`, `re:<regex>`), the named-only filter, the three sort modes (threaded,
//! recent, relevance) and how long ago a session was active.

use crate::t;

use std::path::Path;

use chrono::{DateTime, Utc};

use crate::session::list::SessionInfo;
use crate::tui::panels::selector::fuzzy_score;

/// How the sessions are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortMode {
    /// Forks under the session they came from, newest first (a search sorts by relevance).
    Threaded,
    /// Newest first, a search only filters.
    Recent,
    /// Best match first, newest first among equals.
    Relevance,
}

impl SortMode {
    /// The mode after this one (`app.session.toggleSort`).
    pub fn next(self) -> Self {
        match self {
            SortMode::Threaded => SortMode::Recent,
            SortMode::Recent => SortMode::Relevance,
            SortMode::Relevance => SortMode::Threaded,
        }
    }

    /// The mode's name, in the current locale.
    pub fn label(self) -> String {
        match self {
            SortMode::Threaded => t!("pi.tui.resume.sort.threaded"),
            SortMode::Recent => t!("pi.tui.resume.sort.recent"),
            SortMode::Relevance => t!("pi.tui.resume.sort.relevance"),
        }
    }
}

/// One listed session: its index in the session list and its place in the thread tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Index into the sessions.
    pub index: usize,
    /// Depth in the tree (0 for a flat list).
    pub depth: usize,
    /// The last child of its parent.
    pub is_last: bool,
    /// For each ancestor below the root: whether its branch continues below this row.
    pub continues: Vec<bool>,
}

impl Row {
    fn flat(index: usize) -> Self {
        Row {
            index,
            depth: 0,
            is_last: true,
            continues: Vec::new(),
        }
    }

    /// The tree drawing before the row's title (`├─ `, `│  └─ `, …).
    pub fn prefix(&self) -> String {
        if self.depth == 0 {
            return String::new();
        }
        let mut out: String = self
            .continues
            .iter()
            .map(|c| if *c { "│  " } else { "   " })
            .collect();
        out.push_str(if self.is_last { "└─ " } else { "├─ " });
        out
    }
}

enum Token {
    Fuzzy(String),
    Phrase(String),
}

enum Query {
    Tokens(Vec<Token>),
    Regex(Option<regex::Regex>),
}

fn parse_query(query: &str) -> Query {
    let trimmed = query.trim();
    if let Some(pattern) = trimmed.strip_prefix("re:") {
        let pattern = pattern.trim();
        let regex = (!pattern.is_empty())
            .then(|| {
                regex::RegexBuilder::new(pattern)
                    .case_insensitive(true)
                    .build()
                    .ok()
            })
            .flatten();
        return Query::Regex(regex);
    }
    // Unbalanced quotes: plain words.
    if trimmed.matches('"').count() % 2 == 1 {
        return Query::Tokens(
            trimmed
                .split_whitespace()
                .map(|w| Token::Fuzzy(w.to_string()))
                .collect(),
        );
    }
    let mut tokens = Vec::new();
    for (i, part) in trimmed.split('"').enumerate() {
        if i % 2 == 1 {
            if !part.trim().is_empty() {
                tokens.push(Token::Phrase(part.trim().to_string()));
            }
        } else {
            tokens.extend(part.split_whitespace().map(|w| Token::Fuzzy(w.to_string())));
        }
    }
    Query::Tokens(tokens)
}

fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The score of `session` for `query` (lower is better), `None` when it does not match.
fn score(session: &SessionInfo, query: &Query) -> Option<usize> {
    let text = format!(
        "{} {} {} {}",
        session.id,
        session.name.as_deref().unwrap_or(""),
        session.all_messages_text,
        session.cwd
    );
    match query {
        Query::Regex(None) => None,
        Query::Regex(Some(re)) => re.find(&text).map(|m| m.start() / 10),
        Query::Tokens(tokens) => {
            let mut total = 0;
            let mut normalized: Option<String> = None;
            for token in tokens {
                match token {
                    Token::Phrase(phrase) => {
                        let hay = normalized.get_or_insert_with(|| normalize(&text));
                        total += hay.find(&normalize(phrase))? / 10;
                    }
                    Token::Fuzzy(word) => total += fuzzy_score(word, &text)?,
                }
            }
            Some(total)
        }
    }
}

/// Whether the session has a (non-blank) name.
pub fn is_named(session: &SessionInfo) -> bool {
    session
        .name
        .as_deref()
        .is_some_and(|n| !n.trim().is_empty())
}

/// The rows to list for `sessions` (given newest first).
pub fn arrange(
    sessions: &[SessionInfo],
    query: &str,
    sort: SortMode,
    named_only: bool,
) -> Vec<Row> {
    let kept: Vec<usize> = (0..sessions.len())
        .filter(|&i| !named_only || is_named(&sessions[i]))
        .collect();
    if query.trim().is_empty() {
        return match sort {
            SortMode::Threaded => threaded(sessions, &kept),
            _ => kept.into_iter().map(Row::flat).collect(),
        };
    }
    let query = parse_query(query);
    let mut scored: Vec<(usize, usize)> = kept
        .into_iter()
        .filter_map(|i| score(&sessions[i], &query).map(|s| (s, i)))
        .collect();
    if sort != SortMode::Recent {
        scored.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(sessions[b.1].modified.cmp(&sessions[a.1].modified))
        });
    }
    scored.into_iter().map(|(_, i)| Row::flat(i)).collect()
}

fn same_file(a: &str, b: &Path) -> bool {
    let a = Path::new(a);
    a == b || std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok() && a.exists()
}

/// Forks under their parent session, each level newest first.
fn threaded(sessions: &[SessionInfo], kept: &[usize]) -> Vec<Row> {
    let parent_of = |i: usize| -> Option<usize> {
        let parent = sessions[i].parent_session_path.as_deref()?;
        kept.iter()
            .copied()
            .find(|&p| p != i && same_file(parent, &sessions[p].path))
    };
    let parents: Vec<Option<usize>> = kept.iter().map(|&i| parent_of(i)).collect();
    let children = |of: Option<usize>| -> Vec<usize> {
        let mut found: Vec<usize> = kept
            .iter()
            .zip(&parents)
            .filter(|(_, p)| **p == of)
            .map(|(i, _)| *i)
            .collect();
        found.sort_by(|a, b| sessions[*b].modified.cmp(&sessions[*a].modified));
        found
    };
    let mut rows = Vec::new();
    // (session, depth, is_last, continues), walked depth first.
    let mut stack: Vec<(usize, usize, bool, Vec<bool>)> = Vec::new();
    let roots = children(None);
    let n = roots.len();
    for (k, r) in roots.into_iter().enumerate().rev() {
        stack.push((r, 0, k + 1 == n, Vec::new()));
    }
    while let Some((index, depth, is_last, continues)) = stack.pop() {
        if rows.len() > sessions.len() {
            break; // a cycle in the parent links
        }
        let kids = children(Some(index));
        let n = kids.len();
        for (k, child) in kids.into_iter().enumerate().rev() {
            let mut c = continues.clone();
            // Only ancestors below the root draw a continuing line.
            c.push(depth > 0 && !is_last);
            stack.push((child, depth + 1, k + 1 == n, c));
        }
        rows.push(Row {
            index,
            depth,
            is_last,
            continues,
        });
    }
    rows
}

/// How long ago `time` was, short: `now`, `5m`, `3h`, `2d`, `1w`, `4mo`, `1y` (localized).
pub fn age(time: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let minutes = (now - time).num_minutes().max(0);
    let (hours, days) = (minutes / 60, minutes / 1440);
    match () {
        _ if minutes < 1 => t!("pi.tui.resume.age.now"),
        _ if minutes < 60 => t!("pi.tui.resume.age.minutes", n = minutes),
        _ if hours < 24 => t!("pi.tui.resume.age.hours", n = hours),
        _ if days < 7 => t!("pi.tui.resume.age.days", n = days),
        _ if days < 30 => t!("pi.tui.resume.age.weeks", n = days / 7),
        _ if days < 365 => t!("pi.tui.resume.age.months", n = days / 30),
        _ => t!("pi.tui.resume.age.years", n = days / 365),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;
    use std::path::PathBuf;

    fn info(id: &str, hours_ago: i64, parent: Option<&str>) -> SessionInfo {
        SessionInfo {
            path: PathBuf::from(format!("/s/{id}.jsonl")),
            id: id.into(),
            cwd: "/p".into(),
            name: None,
            parent_session_path: parent.map(|p| format!("/s/{p}.jsonl")),
            created: Utc::now(),
            modified: Utc::now() - Duration::hours(hours_ago),
            message_count: 1,
            first_message: id.into(),
            all_messages_text: format!("talk about {id}"),
        }
    }

    #[test]
    fn threaded_puts_forks_under_their_parent() {
        let sessions = vec![
            info("fork-b", 1, Some("root")),
            info("other", 2, None),
            info("fork-a", 3, Some("root")),
            info("root", 4, None),
            info("deep", 5, Some("fork-a")),
        ];
        let rows = arrange(&sessions, "", SortMode::Threaded, false);
        let shown: Vec<String> = rows
            .iter()
            .map(|r| format!("{}{}", r.prefix(), sessions[r.index].id))
            .collect();
        assert_eq!(
            shown,
            [
                "other",
                "root",
                "   ├─ fork-b",
                "   └─ fork-a",
                "      └─ deep"
            ]
        );
        let recent: Vec<usize> = arrange(&sessions, "", SortMode::Recent, false)
            .iter()
            .map(|r| r.index)
            .collect();
        assert_eq!(recent, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn search_words_phrases_and_regex() {
        let mut sessions = vec![info("alpha", 1, None), info("beta", 2, None)];
        sessions[1].all_messages_text = "the   Parser broke".into();
        let ids = |q: &str, sort| -> Vec<&str> {
            arrange(&sessions, q, sort, false)
                .iter()
                .map(|r| sessions[r.index].id.as_str())
                .collect()
        };
        assert_eq!(ids("\"parser broke\"", SortMode::Recent), ["beta"]);
        assert_eq!(
            ids("\"broke parser\"", SortMode::Recent),
            Vec::<&str>::new()
        );
        assert_eq!(ids("re:^alpha", SortMode::Recent), ["alpha"]);
        assert_eq!(ids("re:(", SortMode::Recent), Vec::<&str>::new());
        assert_eq!(ids("a", SortMode::Recent), ["alpha", "beta"]);
        // Relevance: "beta" matches at its id, "alpha" only further on.
        assert_eq!(ids("bet", SortMode::Relevance), ["beta"]);
    }

    #[test]
    fn named_only_keeps_named_sessions() {
        let mut sessions = vec![info("alpha", 1, None), info("beta", 2, None)];
        sessions[1].name = Some("Release".into());
        let rows = arrange(&sessions, "", SortMode::Recent, true);
        assert_eq!(rows, vec![Row::flat(1)]);
    }

    #[test]
    fn ages_are_short() {
        let now = Utc::now();
        assert_eq!(age(now, now), "now");
        assert_eq!(age(now - Duration::minutes(5), now), "5m");
        assert_eq!(age(now - Duration::hours(2), now), "2h");
        assert_eq!(age(now - Duration::days(3), now), "3d");
        assert_eq!(age(now - Duration::days(15), now), "2w");
        assert_eq!(age(now - Duration::days(100), now), "3mo");
        assert_eq!(age(now - Duration::days(800), now), "2y");
    }
}
