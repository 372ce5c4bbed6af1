//! What can be wrong with a command line: the facts, worded by the locale packs, with the
//! closest flag pi knows as a suggestion.

use clap::CommandFactory;
use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::t;

/// A command line pi cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    /// A flag neither pi nor a loaded extension defines.
    UnknownFlag {
        /// The flag as written (`--modle`, `-x`).
        flag: String,
        /// The closest flag pi or an extension knows.
        suggestion: Option<String>,
    },
    /// A flag's value is not one of those it accepts, or not of its type.
    InvalidValue {
        /// The flag (`--mode <MODE>`).
        flag: String,
        /// The value given.
        value: String,
        /// The values accepted, when they are a list.
        valid: Vec<String>,
    },
    /// A flag that takes a value came without one.
    MissingValue {
        /// The flag (`--model <MODEL>`).
        flag: String,
    },
    /// A switch was given a value (`--print=yes`).
    UnexpectedValue {
        /// The flag.
        flag: String,
        /// The value given.
        value: String,
    },
    /// Anything else the parser refused; `detail` is its own text.
    Other {
        /// The parser's description.
        detail: String,
    },
}

impl CliError {
    /// The unknown flag `flag` (with dashes), suggesting the closest of pi's flags and
    /// `extra` (extension flags, without dashes).
    pub fn unknown_flag(flag: &str, extra: &[String]) -> CliError {
        CliError::UnknownFlag {
            flag: flag.to_string(),
            suggestion: closest_flag(flag, extra),
        }
    }

    /// The error for what clap refused.
    pub fn from_clap(e: &clap::Error) -> CliError {
        let text = |kind| match e.get(kind) {
            Some(ContextValue::String(s)) => Some(s.clone()),
            _ => None,
        };
        let flag = text(ContextKind::InvalidArg).unwrap_or_default();
        match e.kind() {
            ErrorKind::UnknownArgument => CliError::unknown_flag(&flag, &[]),
            ErrorKind::InvalidValue | ErrorKind::ValueValidation
                if text(ContextKind::InvalidValue).is_some_and(|v| !v.is_empty()) =>
            {
                let valid = match e.get(ContextKind::ValidValue) {
                    Some(ContextValue::Strings(v)) => v.clone(),
                    _ => Vec::new(),
                };
                CliError::InvalidValue {
                    flag,
                    value: text(ContextKind::InvalidValue).unwrap_or_default(),
                    valid,
                }
            }
            ErrorKind::InvalidValue => CliError::MissingValue { flag },
            ErrorKind::NoEquals | ErrorKind::TooFewValues => CliError::MissingValue { flag },
            ErrorKind::TooManyValues => CliError::UnexpectedValue {
                flag,
                value: text(ContextKind::InvalidValue).unwrap_or_default(),
            },
            _ => CliError::Other {
                detail: e
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("error: ")
                    .to_string(),
            },
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = match self {
            CliError::UnknownFlag { flag, suggestion } => {
                let mut text = t!("pi.error.cli.unknown_flag", flag = flag.as_str());
                if let Some(s) = suggestion {
                    text.push('\n');
                    text.push_str(&t!("pi.error.cli.did_you_mean", flag = s.as_str()));
                }
                text
            }
            CliError::InvalidValue { flag, value, valid } => {
                let mut text = t!(
                    "pi.error.cli.invalid_value",
                    flag = flag.as_str(),
                    value = value.as_str()
                );
                if !valid.is_empty() {
                    text.push('\n');
                    text.push_str(&t!("pi.error.cli.valid_values", values = valid.join(", ")));
                }
                text
            }
            CliError::MissingValue { flag } => {
                t!("pi.error.cli.missing_value", flag = flag.as_str())
            }
            CliError::UnexpectedValue { flag, value } => t!(
                "pi.error.cli.unexpected_value",
                flag = flag.as_str(),
                value = value.as_str()
            ),
            CliError::Other { detail } => detail.clone(),
        };
        text.push('\n');
        text.push_str(&t!("pi.error.cli.see_help"));
        f.write_str(&text)
    }
}

impl std::error::Error for CliError {}

/// The flag (with `--`) of pi's own and of `extra` (without dashes) closest to `flag`:
/// a likely typo (a third of the letters wrong, or a prefix) first; else the nearest
/// flag at most three edits away that keeps some of the letters typed.
pub fn closest_flag(flag: &str, extra: &[String]) -> Option<String> {
    let name = flag.trim_start_matches('-');
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    if name.is_empty() {
        return None;
    }
    let command = crate::cli::args::Args::command();
    let ours = command
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long().map(str::to_string));
    let length = name.chars().count();
    let limit = (length / 3).max(1);
    let scored: Vec<(usize, String)> = ours
        .chain(extra.iter().cloned())
        .map(|candidate| (edit_distance(name, &candidate), candidate))
        .collect();
    let best = |keep: &dyn Fn(usize, &str) -> bool| {
        scored
            .iter()
            .filter(|(d, c)| keep(*d, c))
            .min_by_key(|(d, c)| (*d, c.chars().count().abs_diff(length), c.clone()))
            .map(|(_, c)| format!("--{c}"))
    };
    best(&|d, c| d <= limit || c.starts_with(name) && name.len() >= 3)
        .or_else(|| best(&|d, _| d <= 3 && d < length))
}

/// Edit distance between `a` and `b` by characters, a swap of two neighbours counting
/// as one edit (optimal string alignment).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_flag() {
        assert_eq!(closest_flag("--modle", &[]).as_deref(), Some("--model"));
        assert_eq!(
            closest_flag("--thinkng", &[]).as_deref(),
            Some("--thinking")
        );
        assert_eq!(
            closest_flag("--provider=x", &[]).as_deref(),
            Some("--provider")
        );
        assert_eq!(
            closest_flag("--plam", &["plan".to_string()]).as_deref(),
            Some("--plan")
        );
        assert_eq!(closest_flag("--zzzzzzzz", &[]), None);
        // Nothing within a third of the letters: the nearest flag a few edits away.
        let bogus = closest_flag("--bogus", &[]).expect("a suggestion for --bogus");
        assert!(edit_distance("bogus", &bogus[2..]) <= 3, "{bogus}");
    }

    #[test]
    fn clap_errors_keep_their_facts() {
        let e = crate::cli::args::Args::parse_from_argv(&["--mode".into(), "fancy".into()])
            .unwrap_err();
        let CliError::InvalidValue { flag, value, valid } = &e else {
            panic!("{e:?}")
        };
        assert!(flag.starts_with("--mode"), "{flag}");
        assert_eq!(value, "fancy");
        assert!(valid.contains(&"rpc".to_string()), "{valid:?}");
        let e = crate::cli::args::Args::parse_from_argv(&["--model".into()]).unwrap_err();
        assert!(
            matches!(&e, CliError::MissingValue { flag } if flag.starts_with("--model")),
            "{e:?}"
        );
        let e = crate::cli::args::Args::parse_from_argv(&["-x".into()]).unwrap_err();
        assert!(
            matches!(&e, CliError::UnknownFlag { flag, .. } if flag == "-x"),
            "{e:?}"
        );
        assert!(crate::cli::args::Args::parse_from_argv(&["--model".into(), "m".into()]).is_ok());
    }
}
