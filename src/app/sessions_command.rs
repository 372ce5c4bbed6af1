//! `pi sessions search TEXT [--regex] [--json]`: find sessions of every folder
//! by id, name, folder and message text, newest first (see
//! [`crate::session::search`]).

use std::io::Write;

use serde_json::json;

use crate::session::search::{SessionHit, SessionQuery, search_sessions};
use crate::t;

/// Whether the command line asks for `pi sessions ...`.
pub fn is_sessions_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|word| word == "sessions")
}

/// What `pi sessions search` was asked.
#[derive(Debug, PartialEq, Eq)]
struct Request {
    text: String,
    regex: bool,
    json: bool,
}

fn parse(argv: &[String]) -> Option<Request> {
    let (first, rest) = argv.split_first()?;
    if first != "search" {
        return None;
    }
    let mut request = Request {
        text: String::new(),
        regex: false,
        json: false,
    };
    let mut words = Vec::new();
    for arg in rest {
        match arg.as_str() {
            "--regex" => request.regex = true,
            "--json" => request.json = true,
            other if other.starts_with("--") => return None,
            other => words.push(other),
        }
    }
    request.text = words.join(" ");
    (!request.text.trim().is_empty()).then_some(request)
}

/// Run `pi sessions ...` (the words after `sessions`), printing to stdout;
/// the exit code: 0 with matches, 1 without, 2 for a usage error.
pub fn run(argv: &[String]) -> i32 {
    let Some(request) = parse(argv) else {
        eprintln!("{}", t!("pi.cli.sessions_usage"));
        return 2;
    };
    let query = if request.regex {
        SessionQuery::regex(&request.text)
    } else {
        SessionQuery::phrase(&request.text)
    };
    let query = match query {
        Ok(query) => query,
        Err(error) => {
            eprintln!(
                "{}",
                t!("pi.cli.sessions_bad_search", error = error.to_string())
            );
            return 2;
        }
    };
    let root = crate::config::paths::sessions_root(&crate::config::paths::agent_dir());
    let hits = search_sessions(&root, &query);
    let mut out = std::io::stdout().lock();
    for hit in &hits {
        let _ = writeln!(out, "{}", render(hit, request.json));
    }
    if hits.is_empty() {
        if !request.json {
            eprintln!("{}", t!("pi.cli.sessions_none", text = &request.text));
        }
        return 1;
    }
    0
}

/// One match as a JSON line or as text.
fn render(hit: &SessionHit, as_json: bool) -> String {
    if as_json {
        return json!({
            "path": hit.path.to_string_lossy(),
            "id": hit.id,
            "cwd": hit.cwd,
            "name": hit.name,
            "modified": hit.modified.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            "field": hit.field.as_str(),
            "snippet": hit.snippet,
        })
        .to_string();
    }
    let local = hit.modified.with_timezone(&chrono::Local);
    t!(
        "pi.cli.sessions_hit",
        time = local.format("%Y-%m-%d %H:%M").to_string(),
        title = hit.name.clone().unwrap_or_else(|| hit.id.clone()),
        folder = &hit.cwd,
        snippet = &hit.snippet,
        path = hit.path.to_string_lossy().to_string()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn search_takes_its_words_and_flags_and_nothing_else() {
        assert!(is_sessions_command(&words("sessions search x")));
        assert!(!is_sessions_command(&words("-p sessions")));
        assert_eq!(
            parse(&words("search parser broke --regex --json")),
            Some(Request {
                text: "parser broke".into(),
                regex: true,
                json: true
            })
        );
        assert_eq!(parse(&words("search")), None);
        assert_eq!(parse(&words("search x --all")), None);
        assert_eq!(parse(&words("list x")), None);
        assert_eq!(run(&words("search x --nope")), 2);
    }
}
