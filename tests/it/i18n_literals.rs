//! Every English sentence pi shows goes through `t!()`/`t()`: this scans the screen-facing
//! sources (`src/tui`, `src/app`, `src/cli`, `src/main.rs`) for string literals that read as
//! English text (two or more words) outside translation calls, tests, attributes and logging.
//! Literals that are not prose (formats, paths, protocol text) are listed in `ALLOWED`.

use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// Folders and files scanned.
const ROOTS: &[&str] = &[
    "src/tui",
    "src/app",
    "src/core",
    "src/ui_kit",
    "src/cli",
    "src/main.rs",
];

/// Files that are test-only (whole file).
const TEST_FILES: &[&str] = &["_tests.rs"];

/// Macros whose arguments never reach the screen or are already translated.
const SKIPPED_MACROS: &[&str] = &[
    "t",
    "debug",
    "trace",
    "info",
    "warn",
    "error",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "unreachable",
    "include_str",
    "include_bytes",
    "env",
    "concat",
    "matches",
];

/// (file suffix, exact literal, why it is not translated).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "app/test_runner/harness.rs",
        "You are pi, a coding agent. (pi test session)",
        "the system prompt of `pi test` sessions: sent to the scripted model, never shown",
    ),
    (
        "core/session_command.rs",
        "Session name cannot be empty",
        "pi 0.73.1's RPC error text, answered to RPC clients in English",
    ),
    (
        "core/session_command.rs",
        "Session file not found: {}",
        "RPC error text (the terminal UI picks files from a list)",
    ),
    (
        "core/session_command.rs",
        "Entry not found: {entry}",
        "RPC error text (the terminal UI picks entries from a list)",
    ),
    (
        "core/session_command.rs",
        "Nothing to clone: the session has no entries yet",
        "RPC error text (the terminal UI has its own notice)",
    ),
    (
        "tui/editor/paste.rs",
        "[paste #{id} +{lines} lines]",
        "paste marker, parsed back when the message is sent",
    ),
    (
        "tui/editor/paste.rs",
        "[paste #{id} {} chars]",
        "paste marker, parsed back when the message is sent",
    ),
    (
        "core/user_bash.rs",
        "exited with code ",
        "parses the bash tool's own output",
    ),
    (
        "core/user_bash.rs",
        "\n\nCommand exited with code {code}",
        "strips the bash tool's own trailer from the stored output",
    ),
    (
        "core/agent_session/compaction.rs",
        "Compaction cancelled",
        "error value of the compaction event, also read by RPC clients; the TUI shows its own text",
    ),
    (
        "core/agent_session/compaction.rs",
        "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.",
        "errorMessage of the compaction_end event, the value pi 0.73.1's RPC clients read",
    ),
    (
        "core/agent_session.rs",
        "Retry cancelled",
        "error value of the retry event, also read by RPC clients",
    ),
    (
        "core/extension_actions.rs",
        "Extension error: {}",
        "kind marker of extension diagnostics, shown translated (lua::messages)",
    ),
    (
        "core/extension_bridge.rs",
        "Extension error: {}",
        "kind marker of extension diagnostics, shown translated (lua::messages)",
    ),
    (
        "core/extension_events.rs",
        "Extension error: {}",
        "kind marker of extension diagnostics, shown translated (lua::messages)",
    ),
    (
        "core/extension_actions.rs",
        "Warning: {warning}",
        "kind marker of extension diagnostics, shown translated (lua::messages)",
    ),
    (
        "core/discovered_resources.rs",
        "Warning: {warning}",
        "kind marker of extension diagnostics, shown translated (lua::messages)",
    ),
];

fn is_english_text(text: &str) -> bool {
    let words = prose_words(text);
    // Two words of prose ("enter select · esc cancel"), a label with a colon or an
    // ellipsis ("Model: {}", "Thinking..."), or a capitalised word on its own ("Settings").
    words.len() >= 2
        || words.iter().any(|(word, after)| {
            word.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && (after.starts_with(": ") || after.starts_with("...") || after.starts_with('…'))
        })
        || (words.len() == 1
            && words[0].0.len() >= 4
            && words[0]
                .0
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase())
            && words[0].0.chars().skip(1).all(|c| c.is_ascii_lowercase())
            && text.trim() == words[0].0)
}

/// Words of three or more letters, with some lower-case, that are not part of an
/// identifier, path, flag or placeholder; each with the text that follows it.
fn prose_words(text: &str) -> Vec<(&str, &str)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut words = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].1.is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].1.is_ascii_alphabetic() || chars[i].1 == '\'') {
            i += 1;
        }
        let begin = chars[start].0;
        let end = chars.get(i).map_or(text.len(), |c| c.0);
        let word = &text[begin..end];
        let before_ok = start == 0 || !is_code_char(chars[start - 1].1);
        let after = &text[end..];
        let after_ok = match after.chars().next() {
            None => true,
            Some('.') => after.starts_with("...") || after.len() == 1 || after.starts_with(". "),
            Some(c) => !is_code_char(c),
        };
        if word.len() >= 3 && before_ok && after_ok && word.chars().any(|c| c.is_ascii_lowercase())
        {
            words.push((word, after));
        }
    }
    words
}

/// Characters that make a word part of an identifier, path or placeholder.
fn is_code_char(c: char) -> bool {
    matches!(
        c,
        '_' | '/' | '.' | '{' | '}' | '-' | '=' | '<' | '$' | '\\' | '+' | '#'
    ) || c.is_ascii_digit()
}

struct Finding {
    file: String,
    line: usize,
    text: String,
}

struct Scanner<'a> {
    file: &'a str,
    found: Vec<Finding>,
}

impl Scanner<'_> {
    fn check(&mut self, text: &str, line: usize) {
        if !is_english_text(text) {
            return;
        }
        if ALLOWED
            .iter()
            .any(|(file, lit, _)| self.file.ends_with(file) && *lit == text)
        {
            return;
        }
        self.found.push(Finding {
            file: self.file.to_string(),
            line,
            text: text.to_string(),
        });
    }

    fn scan_tokens(&mut self, tokens: TokenStream) {
        let mut previous_ident: Option<String> = None;
        let mut skip_next_group = false;
        for tree in tokens {
            match tree {
                TokenTree::Group(group) => {
                    if !skip_next_group {
                        self.scan_tokens(group.stream());
                    }
                    skip_next_group = false;
                    previous_ident = None;
                }
                TokenTree::Ident(ident) => {
                    previous_ident = Some(ident.to_string());
                    skip_next_group = false;
                }
                TokenTree::Punct(punct) => {
                    // A nested `t!(...)` or skipped macro inside another macro's tokens.
                    if punct.as_char() == '!'
                        && previous_ident
                            .as_deref()
                            .is_some_and(|name| SKIPPED_MACROS.contains(&name))
                    {
                        skip_next_group = true;
                    }
                    previous_ident = None;
                }
                TokenTree::Literal(literal) => {
                    let line = literal.span().start().line;
                    if let Ok(lit) = syn::parse_str::<syn::LitStr>(&literal.to_string()) {
                        self.check(&lit.value(), line);
                    }
                    previous_ident = None;
                    skip_next_group = false;
                }
            }
        }
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        let path = attr.path();
        if path.is_ident("test") {
            return true;
        }
        if path.is_ident("cfg") {
            let text = attr.meta.to_token_stream_string();
            return text.contains("test");
        }
        false
    })
}

trait MetaText {
    fn to_token_stream_string(&self) -> String;
}

impl MetaText for syn::Meta {
    fn to_token_stream_string(&self) -> String {
        match self {
            syn::Meta::List(list) => list.tokens.to_string(),
            _ => String::new(),
        }
    }
}

impl<'ast> Visit<'ast> for Scanner<'_> {
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_impl_item_fn(self, item);
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if SKIPPED_MACROS.contains(&name.as_str()) {
            return;
        }
        self.scan_tokens(mac.tokens.clone());
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        // `.expect("invariant")` messages are for developers.
        if call.method == "expect" {
            self.visit_expr(&call.receiver);
            return;
        }
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        self.check(&lit.value(), lit.span().start().line);
    }
}

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.to_path_buf());
        }
        return;
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for entry in entries {
        rust_files(&entry, out);
    }
}

fn scan_file(root: &Path, file: &Path) -> Vec<Finding> {
    let name = file
        .strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string();
    let source = std::fs::read_to_string(file).unwrap();
    let syntax = syn::parse_file(&source).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut scanner = Scanner {
        file: &name,
        found: Vec::new(),
    };
    scanner.visit_file(&syntax);
    scanner.found
}

fn findings() -> Vec<Finding> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for scanned in ROOTS {
        rust_files(&root.join(scanned), &mut files);
    }
    files
        .iter()
        .filter(|f| {
            !TEST_FILES
                .iter()
                .any(|suffix| f.to_string_lossy().ends_with(suffix))
        })
        .flat_map(|f| scan_file(root, f))
        .collect()
}

#[test]
fn no_english_literal_reaches_the_screen_outside_t() {
    let found = findings();
    let report: Vec<String> = found
        .iter()
        .map(|f| format!("{}:{}: {:?}", f.file, f.line, f.text))
        .collect();
    assert!(
        found.is_empty(),
        "{} English literal(s) outside t!(); add a key to locales/en.json (and every shipped \
         locale) and call t!(), or list the literal in ALLOWED with the reason:\n{}",
        found.len(),
        report.join("\n")
    );
}

#[test]
fn the_detector_flags_prose_and_spares_code() {
    assert!(is_english_text("Some English text"));
    assert!(is_english_text("Working... ({key} to interrupt)"));
    assert!(is_english_text("{count} files changed"));
    assert!(!is_english_text("\x1b[0m"));
    assert!(!is_english_text("auth.json"));
    assert!(!is_english_text("app.tools.expand"));
    assert!(!is_english_text("{name} ({tag})"));
    assert!(!is_english_text("ANTHROPIC_API_KEY"));
    assert!(!is_english_text("--model <id>"));
    assert!(!is_english_text("{a} {b}"));
    assert!(is_english_text("{} toggle · {} all"));
    assert!(is_english_text("Thinking..."));
    assert!(is_english_text("Model: {}/{}"));
    assert!(is_english_text("Settings"));
    assert!(!is_english_text("toolSuccessBg"));
    assert!(!is_english_text("application/json"));
    assert!(!is_english_text("%Y-%m-%d %H:%M"));
    assert!(!is_english_text("user-bash-{}"));
}

#[test]
fn the_scanner_sees_literals_in_macros_and_skips_translations_and_tests() {
    let source = r#"
        fn draw() {
            let a = "Hello there";
            let b = format!("Saved file to {}", path);
            let c = t!("pi.tui.saved", path = "fine words");
            tracing::debug!("internal log line");
        }
        #[cfg(test)]
        mod tests { fn x() { let _ = "test words here"; } }
    "#;
    let syntax = syn::parse_file(source).unwrap();
    let mut scanner = Scanner {
        file: "x.rs",
        found: Vec::new(),
    };
    scanner.visit_file(&syntax);
    let texts: Vec<&str> = scanner.found.iter().map(|f| f.text.as_str()).collect();
    assert_eq!(texts, ["Hello there", "Saved file to {}"]);
}
