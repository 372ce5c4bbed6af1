//! Command-line parsing.
//! orig-file: packages/coding-agent/test/args.test.ts

use pi::cli::args::{Args, OutputMode};

fn parse(argv: &[&str]) -> Args {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    Args::parse_from_argv(&argv).unwrap()
}

/// `name: [argv] => |args| assertions;` rows.
macro_rules! args_cases {
    ($($(#[$m:meta])* $name:ident: [$($a:expr),*] => |$r:ident| $check:expr;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            let $r = parse(&[$($a),*]);
            $check;
        }
    )*};
}

args_cases! {
    /// orig: parseArgs › --version flag › parses --version flag
    version_long: ["--version"] => |r| assert!(r.version);
    /// orig: parseArgs › --version flag › parses -v shorthand
    version_short: ["-v"] => |r| assert!(r.version);
    /// orig: parseArgs › --version flag › --version takes precedence over other args
    version_with_other_args: ["--version", "--help", "some message"] => |r| {
        assert!(r.version);
        assert!(r.help);
        assert!(r.messages().contains(&"some message".to_string()));
    };
    /// orig: parseArgs › --help flag › parses --help flag
    help_long: ["--help"] => |r| assert!(r.help);
    /// orig: parseArgs › --help flag › parses -h shorthand
    help_short: ["-h"] => |r| assert!(r.help);
    /// orig: parseArgs › --print flag › parses --print flag
    print_long: ["--print"] => |r| assert!(r.print);
    /// orig: parseArgs › --print flag › parses -p shorthand
    print_short: ["-p"] => |r| assert!(r.print);
    /// orig: parseArgs › --continue flag › parses --continue flag
    continue_long: ["--continue"] => |r| assert!(r.continue_session);
    /// orig: parseArgs › --continue flag › parses -c shorthand
    continue_short: ["-c"] => |r| assert!(r.continue_session);
    /// orig: parseArgs › --resume flag › parses --resume flag
    resume_long: ["--resume"] => |r| assert!(r.resume);
    /// orig: parseArgs › --resume flag › parses -r shorthand
    resume_short: ["-r"] => |r| assert!(r.resume);
    /// orig: parseArgs › flags with values › parses --provider
    provider: ["--provider", "openai"] => |r| assert_eq!(r.provider.as_deref(), Some("openai"));
    /// orig: parseArgs › flags with values › parses --model
    model: ["--model", "gpt-4o"] => |r| assert_eq!(r.model.as_deref(), Some("gpt-4o"));
    /// orig: parseArgs › flags with values › parses --api-key
    api_key: ["--api-key", "sk-test-key"] => |r| assert_eq!(r.api_key.as_deref(), Some("sk-test-key"));
    /// orig: parseArgs › flags with values › parses --system-prompt
    system_prompt: ["--system-prompt", "You are a helpful assistant"] =>
        |r| assert_eq!(r.system_prompt.as_deref(), Some("You are a helpful assistant"));
    /// orig: parseArgs › flags with values › parses --append-system-prompt
    append_system_prompt: ["--append-system-prompt", "Additional context"] =>
        |r| assert_eq!(r.append_system_prompt, vec!["Additional context".to_string()]);
    /// orig: parseArgs › flags with values › parses --mode
    mode_json: ["--mode", "json"] => |r| assert_eq!(r.mode, Some(OutputMode::Json));
    /// orig: parseArgs › flags with values › parses --mode rpc
    mode_rpc: ["--mode", "rpc"] => |r| assert_eq!(r.mode, Some(OutputMode::Rpc));
    /// orig: parseArgs › flags with values › parses --session
    session: ["--session", "/path/to/session.jsonl"] =>
        |r| assert_eq!(r.session.as_deref(), Some("/path/to/session.jsonl"));
    /// orig: parseArgs › flags with values › parses --export
    export: ["--export", "session.jsonl"] => |r| assert_eq!(r.export.as_deref(), Some("session.jsonl"));
    /// orig: parseArgs › flags with values › parses --thinking
    thinking: ["--thinking", "high"] => |r| assert_eq!(r.thinking.as_deref(), Some("high"));
    /// orig: parseArgs › flags with values › parses --models as comma-separated list
    models_list: ["--models", "gpt-4o,claude-sonnet,gemini-pro"] => |r| {
        let list: Vec<&str> = r.models.as_deref().unwrap().split(',').collect();
        assert_eq!(list, ["gpt-4o", "claude-sonnet", "gemini-pro"]);
    };
    /// orig: parseArgs › --no-session flag › parses --no-session flag
    no_session: ["--no-session"] => |r| assert!(r.no_session);
    /// orig: parseArgs › --extension flag › parses single --extension
    extension_single: ["--extension", "./my-extension.ts"] => |r| assert_eq!(r.extensions, ["./my-extension.ts"]);
    /// orig: parseArgs › --extension flag › parses -e shorthand
    extension_short: ["-e", "./my-extension.ts"] => |r| assert_eq!(r.extensions, ["./my-extension.ts"]);
    /// orig: parseArgs › --extension flag › parses multiple --extension flags
    extension_many: ["--extension", "./ext1.ts", "-e", "./ext2.ts"] =>
        |r| assert_eq!(r.extensions, ["./ext1.ts", "./ext2.ts"]);
    /// orig: parseArgs › --no-extensions flag › parses --no-extensions flag
    no_extensions: ["--no-extensions"] => |r| assert!(r.no_extensions);
    /// orig: parseArgs › --no-extensions flag › parses --no-extensions with explicit -e flags
    no_extensions_with_explicit: ["--no-extensions", "-e", "foo.ts", "-e", "bar.ts"] => |r| {
        assert!(r.no_extensions);
        assert_eq!(r.extensions, ["foo.ts", "bar.ts"]);
    };
    /// orig: parseArgs › --skill flag › parses single --skill
    skill_single: ["--skill", "./skill-dir"] => |r| assert_eq!(r.skills, ["./skill-dir"]);
    /// orig: parseArgs › --skill flag › parses multiple --skill flags
    skill_many: ["--skill", "./skill-a", "--skill", "./skill-b"] => |r| assert_eq!(r.skills, ["./skill-a", "./skill-b"]);
    /// orig: parseArgs › --prompt-template flag › parses single --prompt-template
    template_single: ["--prompt-template", "./prompts"] => |r| assert_eq!(r.prompt_templates, ["./prompts"]);
    /// orig: parseArgs › --prompt-template flag › parses multiple --prompt-template flags
    template_many: ["--prompt-template", "./one", "--prompt-template", "./two"] =>
        |r| assert_eq!(r.prompt_templates, ["./one", "./two"]);
    /// orig: parseArgs › --theme flag › parses single --theme
    theme_single: ["--theme", "./theme.json"] => |r| assert_eq!(r.themes, ["./theme.json"]);
    /// orig: parseArgs › --theme flag › parses multiple --theme flags
    theme_many: ["--theme", "./dark.json", "--theme", "./light.json"] => |r| assert_eq!(r.themes, ["./dark.json", "./light.json"]);
    /// orig: parseArgs › --no-skills flag › parses --no-skills flag
    no_skills: ["--no-skills"] => |r| assert!(r.no_skills);
    /// orig: parseArgs › --no-prompt-templates flag › parses --no-prompt-templates flag
    no_prompt_templates: ["--no-prompt-templates"] => |r| assert!(r.no_prompt_templates);
    /// orig: parseArgs › --no-themes flag › parses --no-themes flag
    no_themes: ["--no-themes"] => |r| assert!(r.no_themes);
    /// orig: parseArgs › --verbose flag › parses --verbose flag
    verbose: ["--verbose"] => |r| assert!(r.verbose);
    /// orig: parseArgs › --offline flag › parses --offline flag
    offline: ["--offline"] => |r| assert!(r.offline);
    /// orig: parseArgs › --no-tools flag › parses --no-tools flag
    no_tools: ["--no-tools"] => |r| assert!(r.no_tools);
    /// orig: parseArgs › --no-tools flag › parses --no-tools with explicit --tools flags
    no_tools_with_allowlist: ["--no-tools", "--tools", "read,bash"] => |r| {
        assert!(r.no_tools);
        let tools: Vec<&str> = r.tools.as_deref().unwrap().split(',').collect();
        assert_eq!(tools, ["read", "bash"]);
    };
    /// orig: parseArgs › messages and file args › parses plain text messages
    messages: ["hello", "world"] => |r| assert_eq!(r.messages(), ["hello", "world"]);
    /// orig: parseArgs › messages and file args › parses @file arguments
    file_args: ["@README.md", "@src/main.ts"] => |r| assert_eq!(r.file_args(), ["README.md", "src/main.ts"]);
    /// orig: parseArgs › messages and file args › parses mixed messages and file args
    files_and_messages: ["@file.txt", "explain this", "@image.png"] => |r| {
        assert_eq!(r.file_args(), ["file.txt", "image.png"]);
        assert_eq!(r.messages(), ["explain this"]);
    };
    /// orig: parseArgs › messages and file args › ignores unknown flags starting with -
    unknown_flag_keeps_message: ["--unknown-flag", "message"] => |r| assert_eq!(r.messages(), ["message"]);
    /// orig: parseArgs › complex combinations › parses multiple flags together
    many_flags: ["--provider", "anthropic", "--model", "claude-sonnet", "--print", "--thinking", "high", "@prompt.md", "Do the task"] => |r| {
        assert_eq!(r.provider.as_deref(), Some("anthropic"));
        assert_eq!(r.model.as_deref(), Some("claude-sonnet"));
        assert!(r.print);
        assert_eq!(r.thinking.as_deref(), Some("high"));
        assert_eq!(r.file_args(), ["prompt.md"]);
        assert_eq!(r.messages(), ["Do the task"]);
    };
}
