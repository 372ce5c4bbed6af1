//! Command-line flags, compatible with pi 0.73 (including its multi-letter short aliases).

use clap::Parser;

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
    no_binary_name = true
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
    /// Show help.
    #[arg(short = 'h', long)]
    pub help: bool,
    /// Show version.
    #[arg(short = 'v', long)]
    pub version: bool,
    /// `@file` arguments and messages.
    #[arg(allow_hyphen_values = false)]
    pub rest: Vec<String>,
}

/// pi's multi-letter short aliases, rewritten to long flags before parsing.
const SHORT_ALIASES: [(&str, &str); 6] = [
    ("-nt", "--no-tools"),
    ("-nbt", "--no-builtin-tools"),
    ("-ne", "--no-extensions"),
    ("-ns", "--no-skills"),
    ("-np", "--no-prompt-templates"),
    ("-nc", "--no-context-files"),
];

/// Parsed arguments split into `@file` references and plain messages.
impl Args {
    /// Parse `argv` (without the program name).
    pub fn parse_from_argv(argv: &[String]) -> Result<Args, String> {
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
        let mut args = Args::try_parse_from(rewritten).map_err(|e| {
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string();
            format!("{first}\nRun 'pi --help' for the list of options.")
        })?;
        if args.print && args.mode.is_none() {
            args.mode = Some(OutputMode::Text);
        }
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

/// The `--help` text.
pub fn help_text() -> String {
    include_str!("help.txt").replace("{version}", crate::VERSION)
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
    fn unknown_flag_is_a_clear_error() {
        let e = Args::parse_from_argv(&["--frobnicate".to_string()]).unwrap_err();
        assert!(e.contains("--frobnicate") && e.contains("pi --help"), "{e}");
    }
}
