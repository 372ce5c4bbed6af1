//! Searching and sorting the session list of `/resume`: quoted phrases with whitespace
//! normalised, `re:` regular expressions (case-insensitive; an invalid one matches
//! nothing), the recent order kept as given, relevance by score then newest, and the
//! named-only filter applied before the query.
//! orig-file: packages/coding-agent/test/session-selector-search.test.ts

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use pi::session::list::SessionInfo;
use pi::tui::panels::session_search::{SortMode, arrange};

fn session(id: &str, modified: &str, text: &str, name: Option<&str>) -> SessionInfo {
    let at = |s: &str| s.parse::<DateTime<Utc>>().unwrap();
    SessionInfo {
        path: PathBuf::from(format!("/tmp/{id}.jsonl")),
        id: id.into(),
        cwd: String::new(),
        name: name.map(str::to_string),
        parent_session_path: None,
        created: at("1970-01-01T00:00:00Z"),
        modified: at(modified),
        message_count: 1,
        first_message: "(no messages)".into(),
        all_messages_text: text.into(),
    }
}

fn ids(sessions: &[SessionInfo], query: &str, sort: SortMode, named_only: bool) -> Vec<String> {
    arrange(sessions, query, sort, named_only)
        .into_iter()
        .map(|row| sessions[row.index].id.clone())
        .collect()
}

/// orig: session selector search › filters by quoted phrase with whitespace normalization
#[test]
fn a_quoted_phrase_across_whitespace() {
    let sessions = [
        session(
            "a",
            "2026-01-01T00:00:00Z",
            "node\n\n   cve was discussed",
            None,
        ),
        session("b", "2026-01-02T00:00:00Z", "node something else", None),
    ];
    assert_eq!(
        ids(&sessions, "\"node cve\"", SortMode::Recent, false),
        ["a"]
    );
}

/// orig: session selector search › filters by regex (re:) and is case-insensitive
#[test]
fn a_regular_expression_ignoring_case() {
    let sessions = [
        session("a", "2026-01-02T00:00:00Z", "Brave is great", None),
        session("b", "2026-01-03T00:00:00Z", "bravery is not the same", None),
    ];
    assert_eq!(
        ids(&sessions, r"re:\bbrave\b", SortMode::Recent, false),
        ["a"]
    );
}

/// orig: session selector search › recent sort preserves input order
#[test]
fn recent_keeps_the_given_order() {
    let sessions = [
        session("newer", "2026-01-03T00:00:00Z", "brave", None),
        session("older", "2026-01-01T00:00:00Z", "brave", None),
        session("nomatch", "2026-01-04T00:00:00Z", "something else", None),
    ];
    assert_eq!(
        ids(&sessions, "\"brave\"", SortMode::Recent, false),
        ["newer", "older"]
    );
}

/// orig: session selector search › relevance sort orders by score and tie-breaks by modified desc
#[test]
fn relevance_by_score_then_newest() {
    let sessions = [
        session("late", "2026-01-03T00:00:00Z", "xxxx brave", None),
        session("early", "2026-01-01T00:00:00Z", "brave xxxx", None),
    ];
    assert_eq!(
        ids(&sessions, "\"brave\"", SortMode::Relevance, false),
        ["early", "late"]
    );
    assert_eq!(
        ids(&sessions, "\"brave\"", SortMode::Recent, false),
        ["late", "early"]
    );
    let ties = [
        session("older", "2026-01-01T00:00:00Z", "brave", None),
        session("newer", "2026-01-03T00:00:00Z", "brave", None),
    ];
    assert_eq!(
        ids(&ties, "\"brave\"", SortMode::Relevance, false),
        ["newer", "older"]
    );
}

/// orig: session selector search › returns empty list for invalid regex
#[test]
fn an_invalid_regular_expression_matches_nothing() {
    let sessions = [session("a", "2026-01-01T00:00:00Z", "brave", None)];
    assert!(ids(&sessions, "re:(", SortMode::Recent, false).is_empty());
    assert_eq!(ids(&sessions, "re:br.ve", SortMode::Recent, false), ["a"]);
}

fn named_sessions() -> Vec<SessionInfo> {
    vec![
        session(
            "named1",
            "2026-01-03T00:00:00Z",
            "blueberry",
            Some("My Project"),
        ),
        session(
            "named2",
            "2026-01-02T00:00:00Z",
            "blueberry",
            Some("Another Named"),
        ),
        session("other1", "2026-01-04T00:00:00Z", "blueberry", None),
        session("other2", "2026-01-01T00:00:00Z", "blueberry", None),
    ]
}

/// orig: session selector search › name filter › returns all sessions when nameFilter is 'all'
#[test]
fn every_session_without_the_name_filter() {
    assert_eq!(
        ids(&named_sessions(), "", SortMode::Recent, false),
        ["named1", "named2", "other1", "other2"]
    );
}

/// orig: session selector search › name filter › returns only named sessions when nameFilter is 'named'
#[test]
fn only_named_sessions_with_the_filter() {
    assert_eq!(
        ids(&named_sessions(), "", SortMode::Recent, true),
        ["named1", "named2"]
    );
}

/// orig: session selector search › name filter › applies name filter before search query
#[test]
fn the_name_filter_comes_before_the_query() {
    assert_eq!(
        ids(&named_sessions(), "blueberry", SortMode::Recent, true),
        ["named1", "named2"]
    );
    assert_eq!(
        ids(&named_sessions(), "blueberry", SortMode::Recent, false).len(),
        4
    );
}

/// orig: session selector search › name filter › excludes whitespace-only names from named filter
#[test]
fn blank_names_are_not_names() {
    let sessions = [
        session("whitespace", "2026-01-01T00:00:00Z", "test", Some("   ")),
        session("empty", "2026-01-02T00:00:00Z", "test", Some("")),
        session("named", "2026-01-03T00:00:00Z", "test", Some("Real Name")),
    ];
    assert_eq!(ids(&sessions, "", SortMode::Recent, true), ["named"]);
}
