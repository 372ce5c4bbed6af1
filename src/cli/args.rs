//! Command-line flags, compatible with pi 0.73 (including its multi-letter short aliases).

use crate::t;

use clap::Parser;

use super::error::CliError;

/// Output mode selected with `--mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputMode {
    /// Plain text (interactive, or the final answer with `-p`).
    Text,
    /// One JSON event per line.
    Json,
    /// JSONL request/response protocol over stdin/stdout.
    Rpc,
}

/// Every flag pi accepts. Help text is printed by [`help_text`], not by clap.
#[derive(Debug, Clone, Default, Parser)]
#[command(
    name = "pi",
    disable_help_flag = true,
    disable_version_flag = true,
    no_binary_name = true,
    args_override_self = true
)]
pub struct Args {
    /// Provider name.
    #[arg(long)]
    pub provider: Option<String>,
    /// Model pattern or id (`provider/id`, optional `:thinking`).
    #[arg(long)]
    pub model: Option<String>,
    /// API key overriding auth.json and environment variables.
    #[arg(long = "api-key")]
    pub api_key: Option<String>,
    /// Replacement system prompt (text or file).
    #[arg(long = "system-prompt")]
    pub system_prompt: Option<String>,
    /// Text or file appended to the system prompt (repeatable).
    #[arg(long = "append-system-prompt")]
    pub append_system_prompt: Vec<String>,
    /// Output mode.
    #[arg(long, value_enum)]
    pub mode: Option<OutputMode>,
    /// Non-interactive: answer and exit.
    #[arg(short = 'p', long)]
    pub print: bool,
    /// Continue the most recent session.
    #[arg(short = 'c', long = "continue")]
    pub continue_session: bool,
    /// Pick a session to resume.
    #[arg(short = 'r', long)]
    pub resume: bool,
    /// Session file path or id prefix.
    #[arg(long)]
    pub session: Option<String>,
    /// Fork a session file or id prefix into a new session.
    #[arg(long)]
    pub fork: Option<String>,
    /// Session storage directory.
    #[arg(long = "session-dir")]
    pub session_dir: Option<String>,
    /// Do not save the session.
    #[arg(long = "no-session")]
    pub no_session: bool,
    /// Model patterns for cycling.
    #[arg(long)]
    pub models: Option<String>,
    /// Disable all tools.
    #[arg(long = "no-tools")]
    pub no_tools: bool,
    /// Disable built-in tools, keep extension tools.
    #[arg(long = "no-builtin-tools")]
    pub no_builtin_tools: bool,
    /// Allowlist of tool names.
    #[arg(short = 't', long)]
    pub tools: Option<String>,
    /// Thinking level.
    #[arg(long)]
    pub thinking: Option<String>,
    /// Extension to load (repeatable).
    #[arg(short = 'e', long = "extension")]
    pub extensions: Vec<String>,
    /// Disable extension discovery.
    #[arg(long = "no-extensions")]
    pub no_extensions: bool,
    /// Trust this folder's project resources (`.pi/`) for this run.
    #[arg(short = 'a', long = "approve", conflicts_with = "no_approve")]
    pub approve: bool,
    /// Ignore this folder's project resources (`.pi/`) for this run.
    #[arg(long = "no-approve")]
    pub no_approve: bool,
    /// Skill file or directory (repeatable).
    #[arg(long = "skill")]
    pub skills: Vec<String>,
    /// Disable skill discovery.
    #[arg(long = "no-skills")]
    pub no_skills: bool,
    /// Prompt template file or directory (repeatable).
    #[arg(long = "prompt-template")]
    pub prompt_templates: Vec<String>,
    /// Disable prompt template discovery.
    #[arg(long = "no-prompt-templates")]
    pub no_prompt_templates: bool,
    /// Theme file or directory (repeatable).
    #[arg(long = "theme")]
    pub themes: Vec<String>,
    /// Disable theme discovery.
    #[arg(long = "no-themes")]
    pub no_themes: bool,
    /// Disable AGENTS.md / CLAUDE.md loading.
    #[arg(long = "no-context-files")]
    pub no_context_files: bool,
    /// Export a session file to HTML and exit.
    #[arg(long)]
    pub export: Option<String>,
    /// List available models, optionally filtered.
    #[arg(long = "list-models", num_args = 0..=1, default_missing_value = "")]
    pub list_models: Option<String>,
    /// Force verbose startup.
    #[arg(long)]
    pub verbose: bool,
    /// Disable start-up network operations.
    #[arg(long)]
    pub offline: bool,
    /// Model replies one run may take (0: no limit).
    #[arg(long = "max-turns")]
    pub max_turns: Option<u32>,
    /// Model requests one run may send, retries included (0: no limit).
    #[arg(long = "max-requests")]
    pub max_requests: Option<u32>,
    /// Sandbox mode for commands and file tools: read-only, workspace-write or full.
    #[arg(long = "sandbox", value_parser = ["read-only", "workspace-write", "full"])]
    pub sandbox: Option<String>,
    /// Turn permission prompts off.
    #[arg(long)]
    pub yolo: bool,
    /// Show help.
    #[arg(short = 'h', long)]
    pub help: bool,
    /// Show version.
    #[arg(short = 'v', long)]
    pub version: bool,
    /// `@file` arguments and messages.
    #[arg(allow_hyphen_values = false)]
    pub rest: Vec<String>,
    /// `--name` options pi does not know, kept for extension flags: the
    /// name, its value (`--name=value` or the word after it) and whether
    /// the value was inline.
    #[arg(skip)]
    pub unknown_flags: Vec<UnknownFlag>,
}

/// pi's multi-letter short aliases, rewritten to long flags before parsing.
const SHORT_ALIASES: [(&str, &str); 7] = [
    ("-na", "--no-approve"),
    ("-nt", "--no-tools"),
    ("-nbt", "--no-builtin-tools"),
    ("-ne", "--no-extensions"),
    ("-ns", "--no-skills"),
    ("-np", "--no-prompt-templates"),
    ("-nc", "--no-context-files"),
];

/// A `--name` option pi itself does not define (maybe an extension flag).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFlag {
    /// Name without `--`.
    pub name: String,
    /// `--name=value`, or the next word when it is not an option.
    pub value: Option<String>,
    /// The value was written as `--name=value`.
    pub inline: bool,
}

/// Take the `--name[=value]` token `bad` out of `argv` and describe it.
fn take_unknown(argv: &mut Vec<String>, bad: &str) -> Option<UnknownFlag> {
    let at = argv.iter().position(|a| a == bad)?;
    let token = argv.remove(at);
    let body = token.strip_prefix("--")?;
    if let Some((name, value)) = body.split_once('=') {
        return Some(UnknownFlag {
            name: name.to_string(),
            value: Some(value.to_string()),
            inline: true,
        });
    }
    let next = argv.get(at).filter(|n| !n.starts_with('-')).cloned();
    Some(UnknownFlag {
        name: body.to_string(),
        value: next,
        inline: false,
    })
}

/// Parsed arguments split into `@file` references and plain messages.
impl Args {
    /// Accept the unknown flags that extensions registered: a `string`
    /// flag's separate value word stops being a message. Returns the first
    /// flag no extension registered, if any.
    pub fn claim_extension_flags(
        &mut self,
        string_flags: &[String],
        known: &[String],
    ) -> Option<String> {
        for flag in &self.unknown_flags {
            if !known.contains(&flag.name) {
                return Some(flag.name.clone());
            }
            if string_flags.contains(&flag.name)
                && !flag.inline
                && let Some(value) = &flag.value
                && let Some(at) = self.rest.iter().position(|r| r == value)
            {
                self.rest.remove(at);
            }
        }
        None
    }

    /// Parse `argv` (without the program name).
    pub fn parse_from_argv(argv: &[String]) -> Result<Args, CliError> {
        let rewritten: Vec<String> = argv
            .iter()
            .map(|a| {
                SHORT_ALIASES
                    .iter()
                    .find(|(short, _)| short == a)
                    .map(|(_, long)| long.to_string())
                    .unwrap_or_else(|| a.clone())
            })
            .collect();
        let mut rewritten = rewritten;
        let mut unknown = Vec::new();
        let parsed = loop {
            match Args::try_parse_from(rewritten.clone()) {
                Err(e) if e.kind() == clap::error::ErrorKind::UnknownArgument => {
                    let bad = match e.get(clap::error::ContextKind::InvalidArg) {
                        Some(clap::error::ContextValue::String(s)) => s.clone(),
                        _ => break Err(e),
                    };
                    let bad = bad
                        .split_once('=')
                        .map(|(n, _)| n.to_string())
                        .unwrap_or(bad);
                    let token = rewritten
                        .iter()
                        .find(|a| **a == bad || a.starts_with(&format!("{bad}=")))
                        .cloned();
                    match token.and_then(|t| take_unknown(&mut rewritten, &t)) {
                        Some(flag) if bad.starts_with("--") => unknown.push(flag),
                        _ => break Err(e),
                    }
                }
                other => break other,
            }
        };
        let mut args = parsed.map_err(|e| CliError::from_clap(&e))?;
        if args.print && args.mode.is_none() {
            args.mode = Some(OutputMode::Text);
        }
        args.unknown_flags = unknown;
        Ok(args)
    }

    /// `@file` arguments with the `@` removed, in order.
    pub fn file_args(&self) -> Vec<String> {
        self.rest
            .iter()
            .filter_map(|a| a.strip_prefix('@').map(str::to_string))
            .collect()
    }

    /// Plain message arguments, in order.
    pub fn messages(&self) -> Vec<String> {
        self.rest
            .iter()
            .filter(|a| !a.starts_with('@'))
            .cloned()
            .collect()
    }
}

/// The `--help` text, in the current locale.
pub fn help_text() -> String {
    format!(
        "{}\n{}",
        t!("pi.cli.help", version = crate::VERSION),
        t!("pi.cli.help_commands")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(a: &[&str]) -> Args {
        Args::parse_from_argv(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn parses_pi_flags_and_aliases() {
        let a = parse(&[
            "-p",
            "-nt",
            "--model",
            "openai/gpt-4o:high",
            "@a.txt",
            "hello",
            "-e",
            "x.lua",
            "-e",
            "y.lua",
        ]);
        assert!(a.print && a.no_tools);
        assert_eq!(a.model.as_deref(), Some("openai/gpt-4o:high"));
        assert_eq!(a.file_args(), vec!["a.txt"]);
        assert_eq!(a.messages(), vec!["hello"]);
        assert_eq!(a.extensions, vec!["x.lua", "y.lua"]);
        assert_eq!(a.mode, Some(OutputMode::Text));
        assert_eq!((a.max_turns, a.max_requests), (None, None));
        let a = parse(&["--sandbox", "read-only", "--yolo", "go"]);
        assert_eq!((a.sandbox.as_deref(), a.yolo), (Some("read-only"), true));
        assert!(Args::parse_from_argv(&["--sandbox".into(), "jail".into()]).is_err());
        let a = parse(&["--max-turns", "5", "--max-requests=9", "go"]);
        assert_eq!((a.max_turns, a.max_requests), (Some(5), Some(9)));
        assert_eq!(a.messages(), vec!["go"]);
        assert!(Args::parse_from_argv(&["--max-turns".into(), "many".into()]).is_err());
    }

    #[test]
    fn list_models_takes_optional_search() {
        assert_eq!(parse(&["--list-models"]).list_models.as_deref(), Some(""));
        assert_eq!(
            parse(&["--list-models", "sonnet"]).list_models.as_deref(),
            Some("sonnet")
        );
    }

    #[test]
    fn unknown_flags_are_kept_for_extensions() {
        let argv: Vec<String> = ["--plan", "--target=prod", "--mode-x", "fast", "hello", "-x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let e = Args::parse_from_argv(&argv).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("-x") && e.contains("pi --help"), "{e}");
        let mut args = Args::parse_from_argv(&argv[..5]).unwrap();
        let names: Vec<_> = args.unknown_flags.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, vec!["plan", "target", "mode-x"]);
        assert_eq!(args.rest, vec!["fast", "hello"]);
        let known: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        assert_eq!(args.claim_extension_flags(&["mode-x".into()], &known), None);
        assert_eq!(args.rest, vec!["hello"]);
        assert_eq!(
            args.claim_extension_flags(&[], &["plan".into()]),
            Some("target".into())
        );
    }
}
