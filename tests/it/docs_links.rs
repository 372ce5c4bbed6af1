//! The documentation holds together: every relative link in `docs/*.md` and
//! `README.md` points at a file that exists (and, with `#anchor`, at a heading
//! of that markdown file, slugged the way GitHub does), every page in `docs/`
//! is listed in `docs/index.md`, and the pages the doc set promises exist.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Pages every pi doc set has, by file name without `.md`.
const REQUIRED_PAGES: [&str; 26] = [
    "compaction",
    "custom-provider",
    "development",
    "extensions",
    "index",
    "json",
    "keybindings",
    "models",
    "packages",
    "prompt-templates",
    "providers",
    "quickstart",
    "rpc",
    "sdk",
    "session-format",
    "sessions",
    "settings",
    "shell-aliases",
    "skills",
    "terminal-setup",
    "termux",
    "themes",
    "tmux",
    "tui",
    "usage",
    "windows",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `docs/*.md` plus `README.md`, sorted.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files.push(root.join("README.md"));
    files
}

/// The lines of a markdown text that are not inside fenced code blocks,
/// with their 1-based line numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = if trimmed.starts_with("```") {
            Some("```")
        } else if trimmed.starts_with("~~~") {
            Some("~~~")
        } else {
            None
        };
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (Some(_), _) => {}
            (None, None) => out.push((i + 1, line)),
        }
    }
    out
}

/// A line with its inline code spans removed.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let delim = &rest[start..start + ticks];
        let after = &rest[start + ticks..];
        match after.find(delim) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Link targets of inline links `[text](target "title")` and reference
/// definitions `[name]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut targets = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
    {
        let target = trimmed[close + 2..].split_whitespace().next().unwrap_or("");
        if !target.is_empty() {
            targets.push(target.trim_matches(|c| c == '<' || c == '>').to_string());
        }
    }
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some(pos) = line[i..].find("](") {
        let start = i + pos + 2;
        let mut depth = 1;
        let mut end = start;
        while end < bytes.len() {
            match bytes[end] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            end += 1;
        }
        let inner = line[start..end].trim();
        let target = if let Some(stripped) = inner.strip_prefix('<') {
            stripped.split('>').next().unwrap_or("")
        } else {
            inner.split_whitespace().next().unwrap_or("")
        };
        if !target.is_empty() {
            targets.push(target.to_string());
        }
        i = end.min(bytes.len());
        if i >= line.len() {
            break;
        }
    }
    targets
}

fn is_external(target: &str) -> bool {
    let scheme: String = target
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "+-.".contains(*c))
        .collect();
    !scheme.is_empty() && target[scheme.len()..].starts_with(':')
}

/// The text a heading shows: inline links reduced to their text, emphasis
/// markers and backticks dropped later by the slug rules.
fn heading_text(raw: &str) -> String {
    let mut text = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else {
            break;
        };
        let Some(close) = rest[open + mid..].find(')') else {
            break;
        };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + close + 1..];
    }
    text.push_str(rest);
    text
}

/// GitHub's heading anchor: lower case, punctuation other than `-` and `_`
/// removed, spaces turned into hyphens.
fn slug(heading: &str) -> String {
    heading_text(heading)
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c == ' ' {
                Some('-')
            } else if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c)
            } else {
                None
            }
        })
        .collect()
}

/// Every anchor a markdown file offers: heading slugs (repeats numbered
/// `-1`, `-2`, ... as GitHub does) and explicit `id`/`name` attributes.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with(' ') {
            let base = slug(trimmed[hashes..].trim().trim_end_matches('#'));
            let n = seen.entry(base.clone()).or_insert(0);
            let anchor = if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            *n += 1;
            out.insert(anchor);
        }
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(pos) = rest.find(attr) {
                let after = &rest[pos + attr.len()..];
                if let Some(end) = after.find('"') {
                    out.insert(after[..end].to_string());
                }
                rest = after;
            }
        }
    }
    out
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every broken relative link, as `file:line: target (reason)`.
fn broken_links(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    for file in markdown_files(root) {
        let text = std::fs::read_to_string(&file).unwrap();
        let dir = file.parent().unwrap();
        let shown = file.strip_prefix(root).unwrap().display().to_string();
        for (line_no, line) in prose_lines(&text) {
            for target in link_targets(line) {
                if is_external(&target) {
                    continue;
                }
                let (path_part, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let path_part = percent_decode(path_part);
                let resolved = if path_part.is_empty() {
                    file.clone()
                } else if let Some(abs) = path_part.strip_prefix('/') {
                    root.join(abs)
                } else {
                    dir.join(&path_part)
                };
                if !resolved.exists() {
                    problems.push(format!("{shown}:{line_no}: {target} (no such file)"));
                    continue;
                }
                let Some(anchor) = anchor else { continue };
                if resolved.extension().is_none_or(|e| e != "md") {
                    continue;
                }
                let target_text = std::fs::read_to_string(&resolved).unwrap();
                if !anchors(&target_text).contains(&percent_decode(anchor)) {
                    problems.push(format!("{shown}:{line_no}: {target} (no such heading)"));
                }
            }
        }
    }
    problems
}

#[test]
fn slugs_follow_github_rules() {
    assert_eq!(
        slug("Session tree: /tree, /fork, /clone"),
        "session-tree-tree-fork-clone"
    );
    assert_eq!(slug("Route 1: `pi.i18n` and `t()`"), "route-1-pii18n-and-t");
    assert_eq!(slug("`ctx`"), "ctx");
    assert_eq!(slug("The [RPC](rpc.md) protocol"), "the-rpc-protocol");
    assert_eq!(slug("snake_case and CAPS"), "snake_case-and-caps");
    let dup = anchors("# A\n## A\n```\n# Not a heading\n```\n### A\n");
    assert_eq!(
        dup,
        ["a", "a-1", "a-2"].iter().map(|s| s.to_string()).collect()
    );
}

#[test]
fn link_parsing_skips_code_and_reads_titles() {
    assert_eq!(
        link_targets("see [a](a.md) and `[b](b.md)` and [c](c.md#x \"title\")"),
        vec!["a.md".to_string(), "c.md#x".to_string()]
    );
    assert_eq!(
        link_targets("[ref]: ./ref.md"),
        vec!["./ref.md".to_string()]
    );
    assert!(is_external("https://example.com"));
    assert!(is_external("mailto:a@b"));
    assert!(!is_external("usage.md#a:b"));
}

#[test]
fn no_dead_relative_links_in_docs_or_readme() {
    let problems = broken_links(&root());
    assert!(problems.is_empty(), "dead links:\n{}", problems.join("\n"));
}

#[test]
fn every_page_is_listed_in_the_index() {
    let root = root();
    let index = std::fs::read_to_string(root.join("docs/index.md")).expect("docs/index.md");
    let linked: BTreeSet<String> = prose_lines(&index)
        .into_iter()
        .flat_map(|(_, line)| link_targets(line))
        .filter(|t| !is_external(t))
        .map(|t| {
            let path = t.split('#').next().unwrap_or("").to_string();
            path.trim_start_matches("./").to_string()
        })
        .collect();
    let mut missing = Vec::new();
    for file in markdown_files(&root) {
        if file.parent() != Some(root.join("docs").as_path()) {
            continue;
        }
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        if name != "index.md" && !linked.contains(&name) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "pages missing from docs/index.md: {missing:?}"
    );
}

#[test]
fn every_promised_page_exists() {
    let root = root();
    let missing: Vec<&str> = REQUIRED_PAGES
        .iter()
        .copied()
        .filter(|name| !root.join("docs").join(format!("{name}.md")).is_file())
        .collect();
    assert!(missing.is_empty(), "missing pages in docs/: {missing:?}");
}
