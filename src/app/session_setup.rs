//! Start-up's session step: which session file a run continues, forks or starts, from
//! `--no-session`, `--fork`, `--session`, `--continue` or nothing, and the conversation
//! bound to it.

use std::path::{Path, PathBuf};

use crate::agent::settled_store::SettledStore;
use crate::app::startup_error::StartupError;
use crate::cli::args::Args;
use crate::config::paths::resolve_session_dir;
use crate::config::settings::Settings;
use crate::core::agent_session::{AgentSession, RetryPolicy};
use crate::core::model_catalog::ModelCatalog;
use crate::session::list::{
    ResolvedSessionArg, lookup_session_arg, names_a_file, resolve_session_arg,
};
use crate::session::manager::{SessionManager, most_recent_session};
use crate::t;

/// The session this run works in.
pub fn open_session(
    args: &Args,
    cwd: &Path,
    session_dir: &Path,
    agent_dir: &Path,
) -> Result<SessionManager, StartupError> {
    if args.no_session {
        return Ok(SessionManager::in_memory(cwd));
    }
    if let Some(arg) = &args.fork {
        let source = resolve_session_arg(arg, cwd, Some(session_dir), agent_dir)?;
        return Ok(SessionManager::fork_from(&source, cwd, session_dir)?);
    }
    if let Some(arg) = &args.session {
        return match lookup_session_arg(arg, cwd, Some(session_dir), agent_dir)? {
            ResolvedSessionArg::Global { path, .. } => Err(StartupError::SessionInOtherProject {
                id: arg.clone(),
                path,
            }),
            found => {
                let session = SessionManager::open_with(found.path(), Some(session_dir), None)?;
                require_stored_cwd(&session, cwd)?;
                Ok(session)
            }
        };
    }
    if args.continue_session {
        return Ok(SessionManager::continue_recent(cwd, session_dir)?);
    }
    Ok(SessionManager::create(cwd, session_dir))
}

/// The folder this run's sessions live in: `--session-dir`, then
/// `$PI_CODING_AGENT_SESSION_DIR`, then settings, then the project's default.
pub fn session_dir(args: &Args, settings: &Settings, agent_dir: &Path, cwd: &Path) -> PathBuf {
    let env_session_dir = std::env::var("PI_CODING_AGENT_SESSION_DIR").ok();
    resolve_session_dir(
        args.session_dir.as_deref(),
        env_session_dir.as_deref(),
        settings.session_dir().as_deref(),
        agent_dir,
        cwd,
    )
}

/// Start reading the session file the raw command line names (`--session FILE`, a path
/// or a `.jsonl` name) before settings, locale and arguments are processed: parsing a
/// long session is the longest step of such a start. [`read_session_ahead`] covers the
/// other cases; a guess the parsed arguments overrule is left unused.
pub fn read_named_file_ahead(argv: &[String]) {
    if let Some(arg) = named_session_file(argv)
        && Path::new(arg).is_file()
    {
        let warm = !SettledStore::exists_for(&crate::config::paths::agent_dir(), Path::new(arg));
        crate::session::read_ahead::read_ahead(Path::new(arg), warm);
    }
}

/// The file a raw command line resumes with `--session`, unless it also says not to
/// resume it (`--no-session`, `--fork`, `--export`, `--list-models`).
fn named_session_file(argv: &[String]) -> Option<&str> {
    let mut named = None;
    let mut words = argv.iter().map(String::as_str);
    while let Some(word) = words.next() {
        match word.split('=').next().unwrap_or(word) {
            "--" => break,
            "--no-session" | "--fork" | "--export" | "--list-models" => return None,
            "--session" => named = word.strip_prefix("--session=").or_else(|| words.next()),
            _ => {}
        }
    }
    named.filter(|arg| names_a_file(arg))
}

/// Start reading the session file this run is about to resume, when the command line
/// names it (`--session <file>`) or asks for the folder's latest (`--continue`): parsing
/// a long session then overlaps the rest of start-up. [`open_session`] takes the result
/// if it opens that same file.
pub fn read_session_ahead(args: &Args, settings: &Settings, agent_dir: &Path, cwd: &Path) {
    if args.no_session || args.fork.is_some() || args.export.is_some() || args.list_models.is_some()
    {
        return;
    }
    let path = match &args.session {
        Some(arg) if names_a_file(arg) => cwd.join(arg),
        Some(_) => return,
        None if args.continue_session => {
            match most_recent_session(&session_dir(args, settings, agent_dir, cwd)) {
                Some(path) => path,
                None => return,
            }
        }
        None => return,
    };
    if path.is_file() {
        let warm = !SettledStore::exists_for(agent_dir, &path);
        crate::session::read_ahead::read_ahead(&path, warm);
    }
}

/// Settled parts of requests kept between processes for a one-shot run's session
/// (none for a session not written to a file). A session with a kept part is read
/// ahead without keeping its bodies: its messages stay in the file, which is what
/// the kept part's coverage is checked against.
pub fn settled_parts(
    session: &SessionManager,
    agent_dir: &Path,
) -> Option<crate::agent::settled_turn::SettledConfig> {
    let file = session.session_file()?;
    Some(crate::agent::settled_turn::SettledConfig {
        store: SettledStore::new(agent_dir, session.session_id(), file),
        convert_one: crate::session::convert::convert_cow,
    })
}

/// A session whose stored working directory is gone cannot be resumed: its tools would
/// run in a folder that does not exist.
fn require_stored_cwd(session: &SessionManager, cwd: &Path) -> Result<(), StartupError> {
    let stored = &session.header().cwd;
    if stored.is_empty() || Path::new(stored).is_dir() {
        return Ok(());
    }
    Err(StartupError::SessionCwdMissing {
        cwd: stored.clone(),
        file: session.session_file().map(Path::to_path_buf),
        current: cwd.to_path_buf(),
    })
}

/// What start-up has gathered for one conversation, ready to become an [`AgentSession`].
pub struct SessionParts {
    /// The session store the conversation is bound to.
    pub session: crate::session::manager::SessionManager,
    /// The session's context as it was opened (last model and thinking level).
    pub existing: crate::session::context::SessionContext,
    /// Its messages.
    pub conversation: crate::agent::conversation::Conversation,
    /// The model and thinking level chosen for this run.
    pub model: (crate::ai::model::Model, crate::ai::model::ThinkingLevel),
    /// Models and credentials (`models.json`, `auth.json`).
    pub registry: crate::ai::registry::ModelRegistry,
    /// Credentials for the requests.
    pub auth: crate::ai::auth::AuthStorage,
    /// Providers extensions registered.
    pub extension_providers: Vec<(String, serde_json::Value)>,
    /// The active tools.
    pub tools: Vec<std::sync::Arc<dyn crate::agent::tool::AgentTool>>,
    /// The system prompt, and how to build it again for other tools.
    pub system_prompt: (String, crate::core::agent_session::PromptForTools),
    /// Skills and prompt templates the prompt expands.
    pub resources: (
        Vec<crate::resources::skills::Skill>,
        Vec<crate::resources::prompt_templates::PromptTemplate>,
    ),
    /// `~/.pi/agent`.
    pub agent_dir: std::path::PathBuf,
    /// The working folder of tools.
    pub cwd: std::path::PathBuf,
}

/// Bind the gathered parts into an [`AgentSession`] configured from `settings` (retry,
/// compaction, queue modes), recording the model and thinking level in the session when
/// they changed. Also returns the models available to switch to.
pub fn assemble(
    parts: SessionParts,
    settings: &crate::config::settings::Settings,
) -> (AgentSession, Vec<crate::ai::model::Model>) {
    use crate::agent::agent_loop::{AgentLoopConfig, AgentState};
    let SessionParts {
        mut session,
        existing,
        conversation,
        model: (model, thinking),
        registry,
        auth,
        extension_providers,
        tools,
        system_prompt: (system_prompt, prompt_for_tools),
        resources: (skills, templates),
        agent_dir,
        cwd,
    } = parts;
    let fresh = session.entries().is_empty();
    if fresh || existing.model.as_ref() != Some(&(model.provider.clone(), model.id.clone())) {
        session.append_model_change(&model.provider, &model.id);
    }
    if fresh || existing.thinking() != Some(thinking) {
        session.append_thinking_level_change(thinking);
    }
    let catalog = ModelCatalog::new(registry, auth, agent_dir);
    catalog.set_extension_providers(&extension_providers);
    let mut available = catalog.available();
    if crate::ai::providers::demo::is_demo(&model) {
        available.push(model.clone());
    }
    let config = AgentLoopConfig {
        model,
        thinking,
        providers: crate::ai::stream::ProviderRegistry::builtin(),
        auth: catalog.auth_resolver(),
        tool_execution: crate::agent::tool::ExecutionMode::Parallel,
        session_id: Some(session.session_id().to_string()),
        block_images: settings.block_images(),
        convert_to_llm: crate::session::convert::convert_conversation,
        cwd,
        limits: Default::default(),
        settled: None,
    };
    let state = AgentState {
        system_prompt,
        messages: conversation,
        tools,
        run: Default::default(),
    };
    let provider_retry = settings.provider_retry();
    crate::ai::wait::set_idle_timeout_ms(provider_retry.idle_timeout_ms);
    crate::ai::wait::set_first_byte_timeout_ms(provider_retry.first_byte_timeout_ms);
    let retry = RetryPolicy {
        settings: settings.retry(),
        max_delay_ms: provider_retry.max_retry_delay_ms,
    };
    let mut agent = AgentSession::new(state, config, session, retry);
    agent.skills = skills;
    agent.skill_commands = settings.enable_skill_commands();
    agent.templates = templates;
    agent.prompt_for_tools = Some(prompt_for_tools);
    agent.catalog = Some(catalog);
    agent.compaction = settings.compaction();
    let checkpoints = settings.checkpoints();
    agent.checkpoint_settings = checkpoints.enabled.then_some(checkpoints);
    // A restore a crash interrupted is completed before anything else touches the files.
    if let Some(dir) = agent.session.session_dir() {
        crate::checkpoint::apply::recover(&crate::checkpoint::store::store_root(dir));
    }
    agent.queues.steering.set_mode(settings.steering_mode());
    agent.queues.follow_up.set_mode(settings.follow_up_mode());
    (agent, available)
}

/// The limits of one run: `--max-turns` and `--max-requests` over the settings
/// `agent.*`, else the defaults: the loop guard at 3 identical failures, and for a
/// `headless` run (print, JSON, RPC, the SDK: nobody to ask) 200 turns. 0 is no limit.
pub fn run_limits(
    args: &crate::cli::args::Args,
    settings: &crate::config::settings::Settings,
    headless: bool,
) -> crate::agent::run_limits::RunLimits {
    use crate::agent::run_limits::{DEFAULT_HEADLESS_MAX_TURNS, DEFAULT_REPEATED_FAILURE_LIMIT};
    let set = settings.agent_limits();
    let limit = |n: Option<u32>| n.filter(|n| *n > 0);
    crate::agent::run_limits::RunLimits {
        repeated_failure: limit(
            set.repeated_failure_limit
                .or(Some(DEFAULT_REPEATED_FAILURE_LIMIT)),
        ),
        max_turns: limit(
            args.max_turns
                .or(set.max_turns)
                .or(headless.then_some(DEFAULT_HEADLESS_MAX_TURNS)),
        ),
        max_requests: limit(args.max_requests.or(set.max_requests)),
    }
}

/// `pi --export <session.jsonl> [out.html]`: write the HTML and print its path.
pub(super) fn export_session_file(
    source: &str,
    out: Option<&str>,
    theme: Option<&str>,
) -> Result<i32, StartupError> {
    let source = PathBuf::from(source);
    let session =
        SessionManager::open(&source).map_err(|error| StartupError::ExportUnreadable {
            path: source.clone(),
            error,
        })?;
    let out = out.map(PathBuf::from);
    let path = crate::export::export_session(&session, out.as_deref(), theme).map_err(|error| {
        StartupError::ExportFailed {
            path: source.clone(),
            error,
        }
    })?;
    println!(
        "{}",
        t!("pi.cli.exported", path = path.display().to_string())
    );
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::named_session_file;

    #[test]
    fn run_limits_come_from_flags_then_settings_then_the_mode() {
        use crate::agent::run_limits::RunLimits;
        use crate::config::settings::Settings;
        let args = |argv: &[&str]| {
            let argv: Vec<String> = argv.iter().map(|w| w.to_string()).collect();
            crate::cli::args::Args::parse_from_argv(&argv).unwrap()
        };
        let none = Settings::from_values(serde_json::json!({}), serde_json::json!({}));
        let tui = RunLimits {
            repeated_failure: Some(3),
            max_turns: None,
            max_requests: None,
        };
        assert_eq!(super::run_limits(&args(&[]), &none, false), tui);
        let headless = super::run_limits(&args(&[]), &none, true);
        assert_eq!(headless.max_turns, Some(200));
        let set = Settings::from_values(
            serde_json::json!({"agent": {"maxTurns": 50, "maxRequests": 80, "repeatedFailureLimit": 0}}),
            serde_json::json!({}),
        );
        let from_settings = super::run_limits(&args(&[]), &set, true);
        assert_eq!(
            from_settings,
            RunLimits {
                repeated_failure: None,
                max_turns: Some(50),
                max_requests: Some(80),
            }
        );
        let flags = super::run_limits(
            &args(&["--max-turns", "5", "--max-requests", "0"]),
            &set,
            true,
        );
        assert_eq!((flags.max_turns, flags.max_requests), (Some(5), None));
    }

    fn named(words: &[&str]) -> Option<String> {
        let argv: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        named_session_file(&argv).map(str::to_string)
    }

    #[test]
    fn the_raw_command_line_names_a_session_file_only_when_it_resumes_one() {
        assert_eq!(
            named(&["--session", "a/b.jsonl"]).as_deref(),
            Some("a/b.jsonl")
        );
        assert_eq!(
            named(&["-p", "hi", "--session=x.jsonl"]).as_deref(),
            Some("x.jsonl")
        );
        // An id prefix is looked up in the session folders later, not read ahead here.
        assert_eq!(named(&["--session", "0a1b"]), None);
        assert_eq!(named(&["--session", "a.jsonl", "--no-session"]), None);
        assert_eq!(named(&["--fork=a.jsonl", "--session", "b.jsonl"]), None);
        assert_eq!(named(&["--export", "a.jsonl"]), None);
        assert_eq!(named(&["--", "--session", "a.jsonl"]), None);
        assert_eq!(named(&["--session"]), None);
    }
}
