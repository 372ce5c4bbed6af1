//! Start-up: turn command-line arguments, settings and files into a running
//! [`AgentSession`] and hand it to the selected mode.

use crate::t;

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

use tokio_util::sync::CancellationToken;

use crate::ai::auth::AuthStorage;
use crate::ai::model::ThinkingLevel;
use crate::ai::providers::demo::demo_model;
use crate::ai::registry::ModelRegistry;
use crate::ai::resolve::list_models;
use crate::app::model_setup::{choose_model, cycle_models};
use crate::app::prompt_setup::{load_resources, prompt_for_folder, system_prompt};
use crate::app::resource_setup::{prepare_packages, start_extensions};
use crate::app::startup_error::StartupError;
use crate::cli::args::{Args, OutputMode};
use crate::cli::files::{build_initial_message, process_file_args};
use crate::config::error::SettingsWarning;
use crate::config::paths::agent_dir;
use crate::config::settings::Settings;
use crate::core::extension_bridge::ExtensionBridge;
use crate::lua::{SharedExtensionUi, SharedView};
use crate::modes::print::{PrintOutput, PrintRun, run_print_mode};
use crate::modes::rpc::{RpcOptions, RpcUi, UiReplies, run_rpc_mode};
use crate::tools::{BUILTIN_TOOL_NAMES, DEFAULT_TOOLS, ToolOptions, builtin_tools};
use crate::tui::{InteractiveOptions, run_interactive};

/// Print each warning on stderr.
pub fn warn_all<W: std::fmt::Display>(warnings: impl IntoIterator<Item = W>) {
    for w in warnings {
        eprintln!("{}", t!("pi.cli.warning", message = w.to_string()));
    }
}

/// Run pi with parsed arguments; returns the process exit code.
pub async fn run(args: Args) -> i32 {
    let code = match run_inner(args).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{}", t!("pi.cli.error", error = e.to_string()));
            1
        }
    };
    crate::tools::bash::logs::remove_all();
    crate::sandbox::remove_private_temp();
    code
}

/// Flags whose feature is not part of this build yet.
fn reject_unavailable(args: &Args) -> Result<(), StartupError> {
    let later: [(bool, &str); 1] = [(
        args.resume && (args.print || args.mode.is_some() || !std::io::stdin().is_terminal()),
        "pi.cli.resume_outside_tui",
    )];
    match later.iter().find(|(used, _)| *used) {
        Some((_, what)) => Err(StartupError::Unavailable { what }),
        None => Ok(()),
    }
}

/// Pick the locale before anything is shown: `locale` in settings (project over global),
/// then `PI_LOCALE`, `LC_ALL`, `LC_MESSAGES`, `LANG`, the OS, English; and add the user's
/// locale packs from `~/.pi/agent/locales/` and the core hacks from `~/.pi/agent/core-hacks/`.
/// The core hacks load when first needed. The settings read here are kept for [`run`]:
/// one read per process.
pub fn init_locale() -> crate::i18n::packs::InitReport {
    let agent_dir = agent_dir();
    let cwd = std::env::current_dir().unwrap_or_default();
    let (settings, warnings) = Settings::load(&agent_dir, &cwd);
    let configured = settings
        .get("locale")
        .and_then(serde_json::Value::as_str)
        .map(str::to_string);
    let report = crate::i18n::packs::init(configured.as_deref(), &[agent_dir.join("locales")]);
    crate::i18n::core_hacks::load_lazily(&agent_dir);
    // The warnings are facts, worded when shown: in the language just chosen.
    *crate::sync::LockExt::locked(&EARLY_SETTINGS) = Some((agent_dir, cwd, settings, warnings));
    report
}

/// Settings [`init_locale`] read: agent folder, working folder, settings, warnings.
type EarlySettings = (PathBuf, PathBuf, Settings, Vec<SettingsWarning>);
static EARLY_SETTINGS: std::sync::Mutex<Option<EarlySettings>> = std::sync::Mutex::new(None);

/// The settings of this run: those [`init_locale`] read for the same folders, else
/// read now.
fn load_settings(agent_dir: &Path, cwd: &Path) -> (Settings, Vec<SettingsWarning>) {
    match crate::sync::LockExt::locked(&EARLY_SETTINGS).take() {
        Some((a, c, settings, warnings)) if a == agent_dir && c == cwd => (settings, warnings),
        _ => Settings::load(agent_dir, cwd),
    }
}

/// Start reading the session file this run resumes, with the settings [`init_locale`]
/// read, so that it is parsed while the runtime and the rest of start-up get ready
/// ([`crate::app::session_setup::read_session_ahead`]).
pub fn read_session_ahead(args: &Args) {
    if let Some((agent_dir, cwd, settings, _)) =
        crate::sync::LockExt::locked(&EARLY_SETTINGS).as_ref()
    {
        crate::app::session_setup::read_session_ahead(args, settings, agent_dir, cwd);
    }
}

async fn run_inner(mut args: Args) -> Result<i32, StartupError> {
    let cwd = std::env::current_dir().map_err(StartupError::NoCwd)?;
    let agent_dir = agent_dir();
    // Problems with the configuration files go to stderr and, in the terminal
    // UI (which takes over the screen), to its transcript as well.
    let mut config_warnings = Vec::new();
    let (mut settings, warnings) = load_settings(&agent_dir, &cwd);
    config_warnings.extend(warnings.iter().map(ToString::to_string));
    warn_all(warnings);
    let (mut registry, warnings) = ModelRegistry::load(&agent_dir);
    config_warnings.extend(warnings.iter().cloned());
    warn_all(warnings);
    crate::app::model_setup::prepare_local_models(&args, &settings, &mut registry).await;
    let (mut auth, warnings) = AuthStorage::load(&agent_dir);
    warn_all(warnings);

    if let Some(search) = &args.list_models {
        let search = Some(search.as_str()).filter(|s| !s.is_empty());
        let trusted = crate::config::trust::decide(
            &cwd,
            &mut crate::config::trust::TrustStore::load(&agent_dir),
            args.approve
                .then_some(true)
                .or(args.no_approve.then_some(false)),
            settings
                .global()
                .get("alwaysTrust")
                .and_then(|v| v.as_bool())
                == Some(true),
            None,
        )
        .trusted;
        let providers = crate::app::resource_setup::extension_providers(
            &args,
            &settings,
            (&agent_dir, &cwd),
            trusted,
        )
        .await;
        warn_all(registry.set_extension_providers(&providers));
        println!("{}", list_models(&registry, &auth, search));
        return Ok(0);
    }
    if let Some(source) = &args.export {
        // The page is drawn in the theme of the settings (a user theme from the agent folder).
        let themes = agent_dir.join("themes");
        let theme = settings
            .theme()
            .and_then(|name| crate::ui_kit::theme::theme_json(name, &[themes.as_path()]));
        let messages = args.messages();
        let out = messages.first().map(String::as_str);
        return super::session_setup::export_session_file(source, out, theme.as_deref());
    }
    // `pi -p "/lang ..."` needs no model: answer it before choosing one.
    let messages = args.messages();
    if args.print
        && matches!(args.mode, None | Some(OutputMode::Text))
        && !messages.is_empty()
        && messages
            .iter()
            .all(|m| crate::modes::lang::is_lang_prompt(m))
    {
        let mut code = 0;
        for message in messages {
            let words = message.trim_start().trim_start_matches("/lang").trim();
            let (text, status) = crate::modes::lang::run(words, Some(&mut settings));
            println!("{text}");
            code = status;
        }
        return Ok(code);
    }
    reject_unavailable(&args)?;

    let rpc = args.mode == Some(OutputMode::Rpc);
    if rpc || args.mode == Some(OutputMode::Json) {
        // Before extensions load: what they print goes to stderr.
        crate::modes::protocol_out::take_over_stdout();
    }
    // In RPC mode stdin carries the protocol, never a prompt.
    let stdin_is_tty = rpc || std::io::stdin().is_terminal();
    let output = match args.mode {
        Some(OutputMode::Json) => Some(PrintOutput::Json),
        _ if args.print || !stdin_is_tty => Some(PrintOutput::Text),
        _ => None,
    };
    // Read before trust is decided: an untrusted project's sandbox may still tighten.
    let project_sandbox = settings.project().get("sandbox").cloned();
    // Read before trust is decided: an untrusted project's rules may still tighten.
    let project_permissions = settings.project().get("permissions").cloned();
    let trust = crate::app::project_trust::apply_project_trust(
        &args,
        &mut settings,
        &agent_dir,
        &cwd,
        output.is_none() && !rpc,
    );
    let project = trust.trusted.then_some(cwd.as_path());
    let warnings = crate::app::permission_setup::apply_sandbox(
        &args,
        &settings,
        project_sandbox.as_ref(),
        trust.trusted,
        &cwd,
    )?;
    config_warnings.extend(warnings);
    let trust_notice = (!trust.trusted
        && output.is_none()
        && matches!(
            trust.source,
            crate::config::trust::TrustSource::Asked | crate::config::trust::TrustSource::Stored
        ))
    .then(|| {
        t!(
            "pi.trust.declined",
            contents = crate::app::project_trust::project_contents(&cwd),
            file = crate::config::trust::trust_path(&agent_dir)
                .display()
                .to_string()
        )
    });
    let stdin_text = if stdin_is_tty { None } else { read_stdin()? };
    let files = process_file_args(&args.file_args(), &cwd, settings.image_auto_resize())?;
    let (mut initial, mut rest) =
        build_initial_message(stdin_text.clone(), &files, &args.messages());
    // With unknown flags the check waits for the extensions: an unknown flag is the
    // first thing to report, and a value taken by an extension's flag is no prompt.
    let no_prompt = |initial: &Option<String>, rest: &[String]| {
        !rpc && output.is_some() && initial.is_none() && rest.is_empty()
    };
    if args.unknown_flags.is_empty() && no_prompt(&initial, &rest) {
        return Err(StartupError::NoPrompt);
    }

    let tool_options = ToolOptions {
        shell_path: settings.shell_path().map(PathBuf::from),
        shell_command_prefix: settings.shell_command_prefix().map(str::to_string),
        bin_dir: Some(agent_dir.join("bin")),
        keep_image_size: !settings.image_auto_resize(),
    };
    let mut tools = builtin_tools(&active_tool_names(&args), &tool_options);
    let view = SharedView::new(&cwd);
    // The terminal UI shows extension messages in its transcript.
    view.lock().capture_messages = output.is_none();
    let ui_replies = UiReplies::default();
    let (tui_ui, tui_inbox) = match output.is_none() && !rpc {
        true => {
            let (ui, inbox) = crate::tui::chrome::extension_ui::channel();
            (Some(ui), Some(inbox))
        }
        false => (None, None),
    };
    let extension_ui = rpc
        .then(|| RpcUi::new(ui_replies.clone()) as SharedExtensionUi)
        .or(tui_ui.clone());
    // Who is asked whether a command the sandbox refused runs outside it.
    let escalation_ui = extension_ui.clone();
    let (permissions, warnings) = crate::app::permission_setup::gate(
        settings.global().get("permissions"),
        project_permissions.as_ref(),
        trust.trusted,
        &cwd,
        extension_ui.clone(),
    );
    config_warnings.extend(warnings.iter().cloned());
    warn_all(warnings);
    let packaged = prepare_packages(&mut args, &settings, &agent_dir, &cwd, trust.trusted);
    warn_all(packaged.warnings.clone());
    let extensions = start_extensions(
        &args,
        &settings,
        (&agent_dir, &cwd),
        project.is_some(),
        &packaged.extensions,
        &view,
        extension_ui,
        crate::app::resource_setup::HostSetup {
            reloadable: output.is_none(),
            memory_limit_mb: settings.extension_memory_limit_mb(),
            startup_limit: settings.extension_startup_limit(),
            slow_handler_ms: settings.extension_slow_handler_ms(),
        },
    )
    .await;
    if let Some(handle) = &extensions {
        let payload = serde_json::json!({
            "type": "project_trust", "cwd": cwd, "trusted": trust.trusted,
            "source": trust.source.as_str(),
        });
        handle.emit("project_trust", payload).await;
    }
    // Providers registered by extensions count like models.json ones from here on:
    // `--model`, the model list, cycling and RPC all see them.
    let extension_providers = match &extensions {
        Some(_) => view.lock().providers.clone(),
        None => Vec::new(),
    };
    warn_all(registry.set_extension_providers(&extension_providers));

    let mut bridge = extensions.map(|handle| {
        let all = builtin_tools(&BUILTIN_TOOL_NAMES, &tool_options);
        ExtensionBridge::new(handle, view, all)
    });
    if let Some(bridge) = &mut bridge
        && !args.no_tools
    {
        bridge.merge_extension_tools(&mut tools).await;
    }
    if !args.unknown_flags.is_empty() {
        let flags = match &bridge {
            Some(b) => b.handle.registrations().await.flags,
            None => Vec::new(),
        };
        let known: Vec<String> = flags.iter().map(|f| f.name.clone()).collect();
        let strings: Vec<String> = flags
            .iter()
            .filter(|f| f.kind == "string")
            .map(|f| f.name.clone())
            .collect();
        if let Some(name) = args.claim_extension_flags(&strings, &known) {
            let flag = format!("--{name}");
            return Err(crate::cli::error::CliError::unknown_flag(&flag, &known).into());
        }
        (initial, rest) = build_initial_message(stdin_text, &files, &args.messages());
        if no_prompt(&initial, &rest) {
            return Err(StartupError::NoPrompt);
        }
    }
    let (skills, templates) = load_resources(&args, &settings, &agent_dir, project, &packaged);
    let prompt = system_prompt(&args, &agent_dir, &cwd, project, &tools, &skills);

    // The session is opened once everything that does not need it is set up: a resumed
    // file is being read and parsed on another thread meanwhile (see `read_session_ahead`).
    let session_dir = crate::app::session_setup::session_dir(&args, &settings, &agent_dir, &cwd);
    let mut session =
        crate::app::session_setup::open_session(&args, &cwd, &session_dir, &agent_dir)?;
    let (existing, conversation) = session.take_conversation();
    let has_existing = !conversation.is_empty();

    let load_warning = session.load_warning();
    let mut notices: Vec<String> = load_warning.iter().cloned().chain(trust_notice).collect();
    if output.is_none() && !rpc {
        notices.splice(0..0, config_warnings);
    }

    crate::app::model_setup::discover_for_session_model(
        &args,
        &mut registry,
        existing.model.as_ref(),
    )
    .await;
    let (model, thinking) =
        match choose_model(&args, &settings, &registry, &auth, &existing, has_existing) {
            Ok(chosen) => chosen,
            // The terminal UI starts without credentials on the scripted demo
            // provider and says how to add a key.
            Err(_) if output.is_none() && args.model.is_none() && args.provider.is_none() => {
                // Notices are plain text: drop the markdown code quotes.
                notices.push(t!("pi.startup.demo", help = t!("pi.startup.add_key")));
                (demo_model(), ThinkingLevel::Off)
            }
            Err(e) => return Err(e.into()),
        };
    if let Some(key) = &args.api_key {
        auth.set_runtime_api_key(&model.provider, key);
    }

    // Only the terminal UI lists what was loaded.
    let resources = if output.is_none() && !rpc {
        crate::app::resource_setup::loaded_resources(
            &prompt.context_files,
            (&skills, &templates),
            (
                bridge
                    .as_ref()
                    .map(|b| b.handle.paths())
                    .unwrap_or_default(),
                bridge
                    .as_ref()
                    .map(|b| b.registrations.tools.as_slice())
                    .unwrap_or_default(),
            ),
            &packaged,
            (&agent_dir, &cwd),
        )
    } else {
        Default::default()
    };
    let (mut agent, available) = crate::app::session_setup::assemble(
        crate::app::session_setup::SessionParts {
            session,
            existing,
            conversation,
            model: (model, thinking),
            registry,
            auth,
            extension_providers,
            tools,
            system_prompt: (prompt.text, prompt.rebuild),
            resources: (skills, templates),
            agent_dir: agent_dir.clone(),
            cwd: cwd.clone(),
        },
        &settings,
    );
    agent.config.limits =
        crate::app::session_setup::run_limits(&args, &settings, output.is_some() || rpc);
    if output.is_some() {
        agent.config.settled = crate::app::session_setup::settled_parts(&agent.session, &agent_dir);
    }
    // The terminal UI asks whether a run that reached a limit goes on.
    agent.limit_ui = tui_ui;
    agent.sandbox_escalation.ui = escalation_ui;
    agent.permissions = permissions;
    agent.permissions.load_session_rules(&agent.session);
    agent.prompt_for_cwd = Some(prompt_for_folder(&args, &agent_dir));
    agent.resource_loader = Some(crate::app::prompt_setup::resource_loader(
        &args, &settings, &agent_dir, project, &packaged,
    ));
    if let Some(mut bridge) = bridge {
        bridge.models = available.clone();
        if output.is_none()
            && settings.get("extensions.watch").and_then(|v| v.as_bool()) == Some(true)
        {
            let folders =
                crate::lua::discovery::extension_folders(&crate::lua::discovery::DiscoveryInput {
                    agent_dir: agent_dir.clone(),
                    cwd: cwd.clone(),
                    no_extensions: args.no_extensions,
                    include_project: project.is_some(),
                    ..Default::default()
                });
            match crate::lua::watch::ExtensionWatcher::start(&bridge.handle.paths(), &folders) {
                Ok(w) => bridge.watcher = Some(w),
                Err(e) => eprintln!("{}", t!("pi.cli.warning", message = e.to_string())),
            }
        }
        if output.is_none() && !rpc {
            // The terminal UI draws Lua components: they may mount from session_start on.
            let (cols, rows) = crossterm::terminal::size().unwrap_or((80, 24));
            bridge.view.lock().surfaces.clone().attach(cols, rows);
        }
        agent.set_extensions(bridge);
        agent.session_event("session_start", "startup").await;
    }

    if rpc {
        let options = RpcOptions {
            cycle_models: cycle_models(&args, &settings, &available),
            default_thinking: settings
                .default_thinking_level()
                .unwrap_or(ThinkingLevel::Medium),
            ui_replies,
            settings: settings.clone(),
            agent_dir: agent_dir.clone(),
            project: project.map(Path::to_path_buf),
        };
        let code = run_rpc_mode(agent, options).await;
        return Ok(code);
    }
    let Some(output) = output else {
        let mut prompts: Vec<String> = initial.into_iter().collect();
        prompts.extend(rest);
        let update_notice =
            crate::core::update_check::allowed(settings.update_check_enabled(), args.offline).then(
                || {
                    let dir = agent_dir.clone();
                    tokio::spawn(async move {
                        crate::core::update_check::check(&dir, crate::VERSION).await
                    })
                },
            );
        let options = InteractiveOptions {
            agent_dir,
            cwd,
            cycle_models: cycle_models(&args, &settings, &available),
            models: available,
            theme: settings.theme().map(str::to_string),
            theme_files: if args.no_themes {
                Vec::new()
            } else {
                args.themes
                    .iter()
                    .cloned()
                    // Pattern entries (`!glob`, `+path`, `-path`) name no theme file.
                    .chain(
                        settings
                            .theme_paths()
                            .into_iter()
                            .filter(|p| !p.starts_with(['!', '+', '-'])),
                    )
                    .map(PathBuf::from)
                    .chain(packaged.themes.iter().cloned())
                    .collect()
            },
            initial_prompt: (!prompts.is_empty()).then(|| prompts.join("\n\n")),
            notices,
            quiet_startup: settings.quiet_startup(),
            alternate_screen: settings.alternate_screen(),
            resources,
            project_trusted: trust.trusted,
            tree: tree_options(&settings),
            open_resume: args.resume,
            session_dir: (!args.no_session).then_some(session_dir),
            update_notice,
            settings,
            extension_ui: tui_inbox,
        };
        return Ok(run_interactive(agent, options).await);
    };
    warn_all(load_warning);
    let signal = CancellationToken::new();
    spawn_interrupt_handler(signal.clone());
    let run = PrintRun {
        output,
        initial: initial.map(|text| (text, files.images)),
        messages: rest,
        settings: Some(settings),
    };
    let code = run_print_mode(&mut agent, run, &signal).await;
    agent.session_event("session_shutdown", "quit").await;
    if let Err(e) = agent.session.sync() {
        eprintln!("{}", t!("pi.session.save_failed", error = e.to_string()));
    }
    crate::modes::print::leave_history_to_exit(&mut agent);
    Ok(code)
}

/// Piped stdin as the start of the prompt (`None` when blank); stdin that
/// cannot be read is an error, never a prompt silently left out.
fn read_stdin() -> Result<Option<String>, StartupError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(StartupError::Stdin)?;
    let text = String::from_utf8_lossy(&bytes);
    let trimmed = text.trim();
    Ok((!trimmed.is_empty()).then(|| trimmed.to_string()))
}

fn active_tool_names(args: &Args) -> Vec<String> {
    if let Some(list) = &args.tools {
        let names: Vec<String> = list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        for unknown in names
            .iter()
            .filter(|n| !BUILTIN_TOOL_NAMES.contains(&n.as_str()))
        {
            eprintln!(
                "{}",
                t!(
                    "pi.cli.unknown_tool",
                    name = unknown,
                    tools = BUILTIN_TOOL_NAMES.join(", ")
                )
            );
        }
        return names;
    }
    if args.no_tools || args.no_builtin_tools {
        return Vec::new();
    }
    DEFAULT_TOOLS.iter().map(|s| s.to_string()).collect()
}

/// Ctrl+C, SIGTERM or SIGHUP aborts the run (stream and tools), which saves
/// the partial answer; a second one exits at once.
fn spawn_interrupt_handler(signal: CancellationToken) {
    let mut signals = crate::modes::stop_signals::StopSignals::new();
    tokio::spawn(async move {
        signals.recv().await;
        signal.cancel();
        let second = signals.recv().await;
        std::process::exit(128 + second);
    });
}

/// `/tree` settings from `treeFilterMode` and `branchSummary.*`.
fn tree_options(settings: &crate::config::settings::Settings) -> crate::tui::app::TreeOptions {
    let summary = settings.branch_summary();
    crate::tui::app::TreeOptions {
        filter: crate::tui::panels::tree_selector::TreeFilter::parse(settings.tree_filter_mode())
            .unwrap_or(crate::tui::panels::tree_selector::TreeFilter::Default),
        skip_summary_prompt: summary.skip_prompt,
        summary_reserve_tokens: summary.reserve_tokens,
    }
}
