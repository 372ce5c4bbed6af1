//! Lua's syntax errors as facts: where (`file:line`), what kind, and the token it stopped
//! at, read once from the compiler's message so they can be worded in the user's language.

use std::fmt;

use crate::t;

/// What the Lua compiler found wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxProblem {
    /// A token that cannot start or continue a statement there.
    UnexpectedSymbol,
    /// A token that had to come next (`'end'`, `'='`, `<name>` …).
    Expected {
        /// The token, as Lua writes it.
        token: String,
    },
    /// A closing token missing for a block opened earlier.
    ExpectedToClose {
        /// The closing token, as Lua writes it.
        token: String,
        /// The opening token, as Lua writes it.
        opener: String,
        /// The line of the opening token.
        line: u32,
    },
    /// A quoted string runs to the end of the line.
    UnfinishedString,
    /// A `[[ … ]]` string runs to the end of the file.
    UnfinishedLongString,
    /// A `--[[ … ]]` comment runs to the end of the file.
    UnfinishedLongComment,
    /// A number that does not parse.
    MalformedNumber,
    /// A backslash escape Lua does not know.
    InvalidEscape,
    /// Any other message, in the compiler's words.
    Other {
        /// The compiler's text.
        text: String,
    },
}

/// A Lua syntax error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// `file:line` where the compiler stopped.
    pub at: String,
    /// What it found wrong.
    pub problem: SyntaxProblem,
    /// The token it stopped at (`'x'`, `<eof>`), when it says.
    pub near: Option<String>,
}

impl SyntaxError {
    /// Read the compiler's message `file:line: problem near token`; `None` when it does
    /// not have that shape.
    pub fn parse(message: &str) -> Option<SyntaxError> {
        let line_end = position_end(message)?;
        let at = message[..line_end].to_string();
        let rest = message[line_end..].trim_start_matches(':').trim();
        let rest = rest.lines().next().unwrap_or(rest);
        let (problem, near) = match rest.rsplit_once(" near ") {
            Some((problem, near)) => (problem, Some(near.to_string())),
            None => (rest, None),
        };
        Some(SyntaxError {
            at,
            problem: classify(problem),
            near,
        })
    }
}

/// The byte offset just after `:<digits>` of the first `name:line:` in `message`.
fn position_end(message: &str) -> Option<usize> {
    let bytes = message.as_bytes();
    let mut from = 0;
    while let Some(colon) = message[from..].find(':').map(|i| i + from) {
        let digits = bytes[colon + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let end = colon + 1 + digits;
        if colon > 0 && digits > 0 && bytes.get(end) == Some(&b':') {
            return Some(end);
        }
        from = colon + 1;
    }
    None
}

fn classify(problem: &str) -> SyntaxProblem {
    match problem {
        "unexpected symbol" => return SyntaxProblem::UnexpectedSymbol,
        "unfinished string" => return SyntaxProblem::UnfinishedString,
        "unfinished long string" => return SyntaxProblem::UnfinishedLongString,
        "unfinished long comment" => return SyntaxProblem::UnfinishedLongComment,
        "malformed number" => return SyntaxProblem::MalformedNumber,
        "invalid escape sequence" => return SyntaxProblem::InvalidEscape,
        _ => {}
    }
    if let Some((token, closing)) = problem.split_once(" expected (to close ")
        && let Some((opener, line)) = closing.split_once(" at line ")
        && let Ok(line) = line.trim_end_matches(')').parse()
    {
        return SyntaxProblem::ExpectedToClose {
            token: token.to_string(),
            opener: opener.to_string(),
            line,
        };
    }
    match problem.strip_suffix(" expected") {
        Some(token) if !token.contains(' ') => SyntaxProblem::Expected {
            token: token.to_string(),
        },
        _ => SyntaxProblem::Other {
            text: problem.to_string(),
        },
    }
}

impl fmt::Display for SyntaxProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            SyntaxProblem::UnexpectedSymbol => t!("pi.ext.syntax.unexpected_symbol"),
            SyntaxProblem::Expected { token } => {
                t!("pi.ext.syntax.expected", token = token.as_str())
            }
            SyntaxProblem::ExpectedToClose {
                token,
                opener,
                line,
            } => t!(
                "pi.ext.syntax.expected_to_close",
                token = token.as_str(),
                opener = opener.as_str(),
                line = line.to_string()
            ),
            SyntaxProblem::UnfinishedString => t!("pi.ext.syntax.unfinished_string"),
            SyntaxProblem::UnfinishedLongString => t!("pi.ext.syntax.unfinished_long_string"),
            SyntaxProblem::UnfinishedLongComment => t!("pi.ext.syntax.unfinished_long_comment"),
            SyntaxProblem::MalformedNumber => t!("pi.ext.syntax.malformed_number"),
            SyntaxProblem::InvalidEscape => t!("pi.ext.syntax.invalid_escape"),
            SyntaxProblem::Other { text } => text.clone(),
        };
        f.write_str(&text)
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let problem = match &self.near {
            Some(token) => t!(
                "pi.ext.syntax.near",
                problem = self.problem.to_string(),
                token = token.as_str()
            ),
            None => self.problem.to_string(),
        };
        f.write_str(&t!(
            "pi.ext.syntax.error",
            at = self.at.as_str(),
            problem = problem
        ))
    }
}

impl std::error::Error for SyntaxError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compilers_message_becomes_facts() {
        let e = SyntaxError::parse(
            "/x/a.lua:3: 'end' expected (to close 'function' at line 1) near <eof>",
        )
        .unwrap();
        assert_eq!(e.at, "/x/a.lua:3");
        assert_eq!(e.near.as_deref(), Some("<eof>"));
        assert_eq!(
            e.problem,
            SyntaxProblem::ExpectedToClose {
                token: "'end'".into(),
                opener: "'function'".into(),
                line: 1
            }
        );
        let e = SyntaxError::parse("/x/a.lua:2: unexpected symbol near '+'").unwrap();
        assert_eq!(e.problem, SyntaxProblem::UnexpectedSymbol);
        let e = SyntaxError::parse("C:/x/a.lua:7: '=' expected near 'x'").unwrap();
        assert_eq!(e.at, "C:/x/a.lua:7");
        assert_eq!(
            e.problem,
            SyntaxProblem::Expected {
                token: "'='".into()
            }
        );
        let e = SyntaxError::parse("a.lua:1: break outside a loop at line 1 near <eof>").unwrap();
        assert!(matches!(e.problem, SyntaxProblem::Other { .. }));
        assert_eq!(SyntaxError::parse("no position here"), None);
    }

    #[test]
    fn the_wording_keeps_place_and_token() {
        let e = SyntaxError::parse("/x/a.lua:2: unexpected symbol near '+'").unwrap();
        let text = e.to_string();
        assert!(text.contains("/x/a.lua:2"), "{text}");
        assert!(text.contains("'+'"), "{text}");
    }
}
