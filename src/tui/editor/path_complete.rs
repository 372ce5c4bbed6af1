//! Direct path completion, as Tab offers it on a word that is not a command: the entries
//! of the folder the word names whose names start with its last part (`./up` →
//! `./update.sh`, `my` → `"my folder/"`), folders first; paths with spaces are quoted and a
//! quoted word is completed inside its quotes. Also the folder an `@` reference is scoped to
//! when it names one outside the project (`@../other/a`), searched recursively.

use std::path::{Path, PathBuf};

/// Characters that end the path being typed.
const DELIMITERS: [char; 5] = [' ', '\t', '"', '\'', '='];

/// One suggestion: the text put in place of the prefix, and the entry's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathSuggestion {
    /// The completed word (`./src/`, `"my folder/test.txt"`).
    pub value: String,
    /// The entry's name, with `/` for a folder.
    pub label: String,
}

/// Suggestions for the text before the cursor and the prefix they replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathCompletion {
    /// The typed text the suggestions replace (from an opening quote, when quoted).
    pub prefix: String,
    /// Folders first, then by name.
    pub items: Vec<PathSuggestion>,
}

/// Where an unclosed `"` opens, if it starts a word (or follows a word-starting `@`).
fn quoted_prefix(text: &str) -> Option<&str> {
    let mut open = None;
    for (i, c) in text.char_indices() {
        if c == '"' {
            open = if open.is_some() { None } else { Some(i) };
        }
    }
    let start = open?;
    let starts_word = |i: usize| i == 0 || text[..i].ends_with(DELIMITERS);
    if start > 0 && text[..start].ends_with('@') {
        return starts_word(start - 1).then(|| &text[start - 1..]);
    }
    starts_word(start).then(|| &text[start..])
}

/// The path being typed at the end of `text` when Tab asks for it: an opened quote to the
/// end, else everything after the last delimiter (possibly empty).
pub fn extract_path_prefix(text: &str) -> &str {
    if let Some(quoted) = quoted_prefix(text) {
        return quoted;
    }
    match text.rfind(DELIMITERS) {
        Some(i) => &text[i + 1..],
        None => text,
    }
}

/// What Tab completes for `before_cursor` (the cursor line up to the cursor) with paths
/// relative to `cwd`: `None` for a command name being typed at the start, or when no entry
/// matches.
pub fn force_file_suggestions(cwd: &Path, before_cursor: &str) -> Option<PathCompletion> {
    let trimmed = before_cursor.trim();
    if trimmed.starts_with('/') && !trimmed.contains(' ') {
        return None;
    }
    let prefix = extract_path_prefix(before_cursor);
    let items = file_suggestions(cwd, prefix);
    (!items.is_empty()).then(|| PathCompletion {
        prefix: prefix.to_string(),
        items,
    })
}

fn home() -> PathBuf {
    crate::config::paths::home_dir()
}

/// The folder a typed path refers to: `~` from home, `/` as is, else from `cwd`.
fn folder_of(cwd: &Path, typed: &str) -> PathBuf {
    if typed == "~" {
        return home();
    }
    if let Some(rest) = typed.strip_prefix("~/") {
        return home().join(rest);
    }
    if typed.starts_with('/') {
        return PathBuf::from(typed);
    }
    cwd.join(typed)
}

/// The entries of the folder `prefix` names that start with its last part.
pub fn file_suggestions(cwd: &Path, prefix: &str) -> Vec<PathSuggestion> {
    let (raw, at, quoted) = if let Some(rest) = prefix.strip_prefix("@\"") {
        (rest, true, true)
    } else if let Some(rest) = prefix.strip_prefix('"') {
        (rest, false, true)
    } else if let Some(rest) = prefix.strip_prefix('@') {
        (rest, true, false)
    } else {
        (prefix, false, false)
    };
    // The typed folder (kept as typed, to build the values) and the name part.
    let (dir_typed, name_part) = match raw.rfind('/') {
        Some(i) => (&raw[..=i], &raw[i + 1..]),
        None if raw == "~" => ("~/", ""),
        None => ("", raw),
    };
    let Ok(read) = std::fs::read_dir(folder_of(cwd, dir_typed)) else {
        return Vec::new();
    };
    let wanted = name_part.to_lowercase();
    let mut items: Vec<(bool, PathSuggestion)> = read
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.to_lowercase().starts_with(&wanted) {
                return None;
            }
            // A link to a folder counts as a folder.
            let is_dir = entry.path().is_dir();
            let slash = if is_dir { "/" } else { "" };
            let path = format!("{dir_typed}{name}{slash}");
            let value = match (quoted || path.contains(' '), at) {
                (true, true) => format!("@\"{path}\""),
                (true, false) => format!("\"{path}\""),
                (false, true) => format!("@{path}"),
                (false, false) => path,
            };
            let label = format!("{name}{slash}");
            Some((is_dir, PathSuggestion { value, label }))
        })
        .collect();
    items.sort_by(|(a_dir, a), (b_dir, b)| b_dir.cmp(a_dir).then_with(|| a.label.cmp(&b.label)));
    items.into_iter().map(|(_, item)| item).collect()
}

/// `line` with `value` in place of the `prefix` that ends at byte `cursor`, and the new
/// cursor: a closing quote already after the cursor is not doubled, and inside a quoted
/// folder the cursor stays before the closing quote (so typing goes on in the folder).
pub fn apply_path_completion(
    line: &str,
    cursor: usize,
    prefix: &str,
    value: &str,
) -> (String, usize) {
    let start = cursor.saturating_sub(prefix.len());
    let (before, after) = (&line[..start], &line[cursor..]);
    let quoted = prefix.starts_with('"') || prefix.starts_with("@\"");
    let after = match after.strip_prefix('"') {
        Some(rest) if quoted && value.ends_with('"') => rest,
        _ => after,
    };
    let in_quoted_folder = value.ends_with("/\"");
    let end = before.len() + value.len() - usize::from(in_quoted_folder);
    (format!("{before}{value}{after}"), end)
}

/// An `@` query naming a folder outside the project (`../x/`, `/x/`, `~/x/`) before its
/// last part: that folder, the part after it, and the folder as typed.
pub fn scoped_query<'q>(cwd: &Path, query: &'q str) -> Option<(PathBuf, &'q str, &'q str)> {
    let slash = query.rfind('/')?;
    let (display, rest) = (&query[..=slash], &query[slash + 1..]);
    let outside =
        display.starts_with("../") || display.starts_with('/') || display.starts_with("~/");
    let dir = folder_of(cwd, display);
    (outside && dir.is_dir()).then_some((dir, rest, display))
}

/// Paths below `dir` (as `display` + relative path, folders ending with `/`) whose name or
/// path holds `query` (case-insensitively), best first: the name equal, starting with it,
/// holding it, then the path holding it; folders before files at the same rank.
pub fn search_folder(dir: &Path, query: &str, display: &str, max: usize) -> Vec<String> {
    let wanted = query.to_lowercase();
    let mut found: Vec<(u8, String)> = Vec::new();
    let walk = ignore::WalkBuilder::new(dir)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for entry in walk.flatten().take(super::file_complete::INDEX_LIMIT) {
        let Ok(rel) = entry.path().strip_prefix(dir) else {
            continue;
        };
        if rel.as_os_str().is_empty() {
            continue;
        }
        let rel = rel.to_string_lossy().replace('\\', "/");
        let name = entry.file_name().to_string_lossy().to_lowercase();
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        let rank: u8 = if name == wanted {
            1
        } else if name.starts_with(&wanted) {
            3
        } else if name.contains(&wanted) {
            5
        } else if rel.to_lowercase().contains(&wanted) {
            7
        } else {
            continue;
        };
        let slash = if is_dir { "/" } else { "" };
        found.push((rank - u8::from(is_dir), format!("{display}{rel}{slash}")));
    }
    found.sort();
    found.into_iter().take(max).map(|(_, path)| path).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_folder_keeps_the_cursor_inside_its_quotes() {
        let line = "\"my fo\"";
        let (text, cursor) = apply_path_completion(line, 6, "\"my fo", "\"my folder/\"");
        assert_eq!(text, "\"my folder/\"");
        assert_eq!(cursor, text.len() - 1);
        let (text, cursor) = apply_path_completion("see ./up", 8, "./up", "./update.sh");
        assert_eq!((text.as_str(), cursor), ("see ./update.sh", 15));
    }
}
