//! Slash commands: the list shown by `/` autocomplete and parsing of a
//! submitted command line.

pub use crate::protocol::commands::COMMANDS;

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlashCommand {
    /// `/model [search]`.
    Model(String),
    /// `/new`.
    New,
    /// `/name <name>`.
    Name(String),
    /// `/session`.
    Session,
    /// `/hotkeys`.
    Hotkeys,
    /// `/quit`.
    Quit,
    /// `/resume`.
    Resume,
    /// `/copy`.
    Copy,
    /// `/login [provider]`.
    Login(String),
    /// `/logout [provider]`.
    Logout(String),
    /// `/reload`.
    Reload,
    /// `/settings`.
    Settings,
    /// `/scoped-models`.
    ScopedModels,
    /// `/changelog`.
    Changelog,
    /// `/tree`.
    Tree,
    /// `/fork`.
    Fork,
    /// `/rewind`: bring back files, the conversation or both to before a message.
    Rewind,
    /// `/clone`.
    Clone,
    /// `/compact [instructions]`.
    Compact(String),
    /// `/export [file]`.
    Export(String),
    /// `/share`.
    Share,
    /// `/import <file.jsonl>`.
    Import(String),
    /// `/lang [tag|alias|subcommand]`.
    Lang(String),
    /// `/sandbox [mode]`: show the sandbox, or switch its mode.
    Sandbox(String),
    /// A known command whose feature is not in this build.
    Unavailable(String),
    /// `/permissions [list | remove <n>]`.
    Permissions(String),
    /// `/extensions`: each extension's status, load time, handler times and memory.
    Extensions,
    /// Not a command pi knows.
    Unknown(String),
}

/// Parse `text` as a slash command; `None` when it is an ordinary message.
pub fn parse_command(text: &str) -> Option<SlashCommand> {
    let rest = text.trim().strip_prefix('/')?;
    let (name, arg) = match rest.split_once(char::is_whitespace) {
        Some((n, a)) => (n, a.trim().to_string()),
        None => (rest, String::new()),
    };
    if name.is_empty() || name.contains('/') {
        return None;
    }
    let alias = resolve_alias(name);
    let name = alias.as_deref().unwrap_or(name);
    Some(match name {
        "model" => SlashCommand::Model(arg),
        "new" => SlashCommand::New,
        "name" => SlashCommand::Name(arg),
        "session" => SlashCommand::Session,
        "hotkeys" => SlashCommand::Hotkeys,
        "quit" | "exit" => SlashCommand::Quit,
        "resume" => SlashCommand::Resume,
        "copy" => SlashCommand::Copy,
        "login" => SlashCommand::Login(arg),
        "logout" => SlashCommand::Logout(arg),
        "reload" => SlashCommand::Reload,
        "settings" => SlashCommand::Settings,
        "scoped-models" => SlashCommand::ScopedModels,
        "changelog" => SlashCommand::Changelog,
        "tree" => SlashCommand::Tree,
        "fork" => SlashCommand::Fork,
        "rewind" => SlashCommand::Rewind,
        "clone" => SlashCommand::Clone,
        "compact" => SlashCommand::Compact(arg),
        "export" => SlashCommand::Export(path_argument(&arg)),
        "share" => SlashCommand::Share,
        "import" => SlashCommand::Import(path_argument(&arg)),
        "lang" => SlashCommand::Lang(arg),
        "sandbox" => SlashCommand::Sandbox(arg),
        "permissions" => SlashCommand::Permissions(arg),
        "extensions" => SlashCommand::Extensions,
        other if COMMANDS.iter().any(|(n, _)| *n == other) => {
            SlashCommand::Unavailable(other.to_string())
        }
        other => SlashCommand::Unknown(other.to_string()),
    })
}

/// The path a command was given: the text inside quotes when it starts with one
/// (`/export "my file.jsonl"`), otherwise the first word.
pub fn path_argument(arg: &str) -> String {
    let arg = arg.trim();
    match arg.chars().next() {
        Some(q @ ('"' | '\'')) => match arg[1..].find(q) {
            Some(end) => arg[1..1 + end].to_string(),
            None => arg[1..].to_string(),
        },
        _ => arg
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

/// The description of built-in command `name`, in the current locale.
pub fn description(name: &str) -> String {
    crate::i18n::t(&format!("pi.cmd.{name}.description"), &[])
}

/// The command a localised alias of the current locale stands for (`模型` -> `model`).
/// Aliases are declared by locale packs (`"aliases"`), never in code.
pub fn resolve_alias(name: &str) -> Option<String> {
    crate::i18n::with_registry(|r| {
        r.aliases()
            .into_iter()
            .find(|(alias, command)| alias == name && is_builtin(command))
            .map(|(_, command)| command)
    })
}

fn is_builtin(name: &str) -> bool {
    COMMANDS.iter().any(|(n, _)| *n == name)
}

/// Every built-in command with its description translated now, then the current
/// locale's aliases (described as the command they stand for).
pub fn candidates() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = COMMANDS
        .iter()
        .map(|(n, _)| (n.to_string(), description(n)))
        .collect();
    let aliases = crate::i18n::with_registry(|r| r.aliases());
    for (alias, command) in aliases {
        if is_builtin(&command) {
            let desc = crate::i18n::t(
                "pi.cmd.alias",
                &[
                    ("command", command.as_str().into()),
                    ("description", description(&command).into()),
                ],
            );
            out.push((alias, desc));
        }
    }
    out
}

/// Rank (name, description) pairs against what follows the `/`, as pi's editor does:
/// the name must contain the query's characters in order; an exact name comes first,
/// then hits at word starts and runs of consecutive characters. Ties keep their order.
pub fn rank(commands: Vec<(String, String)>, query: &str) -> Vec<(String, String)> {
    crate::ai::resolve::fuzzy::fuzzy_filter(commands, query, |(name, _)| name.clone())
}

/// Built-in commands and aliases matching `query`, best first.
pub fn complete(query: &str) -> Vec<(String, String)> {
    rank(candidates(), query)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_and_arguments() {
        assert_eq!(
            parse_command("/name  My work "),
            Some(SlashCommand::Name("My work".into()))
        );
        assert_eq!(parse_command("/quit"), Some(SlashCommand::Quit));
        assert_eq!(
            parse_command("/login anthropic"),
            Some(SlashCommand::Login("anthropic".into()))
        );
        assert_eq!(parse_command("/tree"), Some(SlashCommand::Tree));
        assert_eq!(
            parse_command("/compact  focus on tests "),
            Some(SlashCommand::Compact("focus on tests".into()))
        );
        assert_eq!(
            parse_command("/bogus"),
            Some(SlashCommand::Unknown("bogus".into()))
        );
        assert_eq!(parse_command("/usr/bin is a path"), None);
        assert_eq!(parse_command("hello"), None);
    }

    #[test]
    fn completion_prefers_prefixes() {
        let names: Vec<_> = complete("n").into_iter().map(|c| c.0).collect();
        assert_eq!(names[..2], ["new", "name"]);
        assert_eq!(complete("odel")[0].0, "model");
    }

    #[test]
    fn an_exact_name_ranks_before_fuzzy_matches() {
        let mut all = candidates();
        all.push(("one".into(), String::new()));
        let ranked = rank(all, "one");
        assert_eq!(ranked[0].0, "one");
        assert!(ranked.iter().any(|(n, _)| n == "clone"), "{ranked:?}");
        assert_eq!(complete("clone")[0].0, "clone");
    }

    #[test]
    fn locale_aliases_resolve_only_in_their_locale() {
        let _catalog = crate::i18n::scoped::scoped_catalog("zh-TW");
        assert_eq!(
            parse_command("/模型"),
            Some(SlashCommand::Model(String::new()))
        );
        assert_eq!(
            parse_command("/模型 sonnet"),
            Some(SlashCommand::Model("sonnet".into()))
        );
        assert_eq!(parse_command("/續"), Some(SlashCommand::Resume));
        let offered = complete("模");
        assert_eq!(offered.len(), 1, "{offered:?}");
        assert_eq!(offered[0].0, "模型");
        assert!(offered[0].1.contains("/model"), "{offered:?}");
        crate::i18n::set_locale("en");
        assert_eq!(resolve_alias("模型"), None);
        assert!(matches!(
            parse_command("/模型"),
            Some(SlashCommand::Unknown(_))
        ));
        assert!(complete("模").is_empty());
    }
}
