//! Every English sentence pi shows goes through `t!()`/`t()`: this scans the screen-facing
//! sources (`src/tui`, `src/app`, `src/cli`, `src/main.rs`) for string literals that read as
//! English text (two or more words) outside translation calls, tests, attributes and logging.
//! Literals that are not prose (formats, paths, protocol text) are listed in `ALLOWED`.

use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// Folders and files scanned.
const ROOTS: &[&str] = &["src/tui", "src/app", "src/cli", "src/main.rs"];

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
const ALLOWED: &[(&str, &str, &str)] = &[];

fn is_english_text(text: &str) -> bool {
    // Two alphabetic words of two or more letters separated by a single space.
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        let first = i - start;
        if first >= 2 && i < bytes.len() && bytes[i] == ' ' {
            let mut j = i + 1;
            let second = j;
            while j < bytes.len() && bytes[j].is_ascii_alphabetic() {
                j += 1;
            }
            let preceded_ok = start == 0 || !is_code_char(bytes[start - 1]);
            let followed_ok = j == bytes.len() || !is_code_char(bytes[j]);
            if j - second >= 2 && preceded_ok && followed_ok && has_lowercase(&bytes[start..j]) {
                return true;
            }
        }
        if i == start {
            i += 1;
        }
    }
    false
}

/// Characters that make a word part of an identifier, path or placeholder.
fn is_code_char(c: char) -> bool {
    matches!(
        c,
        '_' | '/' | '.' | '{' | '}' | '-' | '=' | '<' | '$' | '\\'
    ) || c.is_ascii_digit()
}

fn has_lowercase(chars: &[char]) -> bool {
    chars.iter().any(|c| c.is_ascii_lowercase())
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
}

#[test]
fn the_scanner_sees_literals_in_macros_and_skips_translations_and_tests() {
    let source = r#"
        fn draw() {
            let a = "Hello there";
            let b = format!("Saved to {}", path);
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
    assert_eq!(texts, ["Hello there", "Saved to {}"]);
}
