//! Building a session: the same start-up steps the `pi` command takes (`app/`), fed
//! from [`SessionOptions`] instead of the command line, without a terminal or stdin.

use std::path::PathBuf;

use crate::ai::auth::AuthStorage;
use crate::ai::registry::ModelRegistry;
use crate::app::model_setup::{choose_model, discover_for_session_model, prepare_local_models};
use crate::app::prompt_setup::{load_resources, system_prompt};
use crate::app::resource_setup::{HostSetup, prepare_packages, start_extensions};
use crate::app::session_setup::{SessionParts, assemble, open_session};
use crate::app::startup::warn_all;
use crate::config::paths::resolve_session_dir;
use crate::config::settings::Settings;
use crate::core::AgentSession;
use crate::core::extension_bridge::ExtensionBridge;
use crate::lua::SharedView;
use crate::tools::{BUILTIN_TOOL_NAMES, DEFAULT_TOOLS, ToolOptions, builtin_tools};

use super::{SdkError, SessionOptions};

/// Build the core session `options` describe. Problems with configuration files are
/// reported on stderr, as `pi` reports them; what stops the session from starting is
/// returned.
pub(super) async fn build_agent(options: &SessionOptions) -> Result<AgentSession, SdkError> {
    let cwd = match &options.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| SdkError::Setup(e.to_string()))?,
    };
    if !cwd.is_dir() {
        return Err(SdkError::Setup(format!(
            "the working directory {} does not exist",
            cwd.display()
        )));
    }
    let agent_dir = options
        .agent_dir
        .clone()
        .unwrap_or_else(crate::config::paths::agent_dir);
    let mut args = options.to_args();
    let (mut settings, warnings) = Settings::load(&agent_dir, &cwd);
    warn_all(warnings);
    let (mut registry, warnings) = ModelRegistry::load(&agent_dir);
    warn_all(warnings);
    prepare_local_models(&args, &settings, &mut registry).await;
    let (mut auth, warnings) = AuthStorage::load(&agent_dir);
    warn_all(warnings);

    let project_sandbox = settings.project().get("sandbox").cloned();
    // Read before trust is decided: an untrusted project's rules may still tighten.
    let project_permissions = settings.project().get("permissions").cloned();
    let trust = crate::app::project_trust::apply_project_trust(
        &args,
        &mut settings,
        &agent_dir,
        &cwd,
        false,
    );
    let project = trust.trusted.then_some(cwd.as_path());
    crate::app::permission_setup::apply_sandbox(
        &args,
        &settings,
        project_sandbox.as_ref(),
        trust.trusted,
        &cwd,
    )
    .map_err(|e| SdkError::Setup(e.to_string()))?;
    let env_session_dir = std::env::var("PI_CODING_AGENT_SESSION_DIR").ok();
    let session_dir = resolve_session_dir(
        args.session_dir.as_deref(),
        env_session_dir.as_deref(),
        settings.session_dir().as_deref(),
        &agent_dir,
        &cwd,
    );
    let mut session = open_session(&args, &cwd, &session_dir, &agent_dir)
        .map_err(|e| SdkError::Setup(e.to_string()))?;
    warn_all(session.load_warning());
    let (existing, conversation) = session.take_conversation();
    let has_existing = !conversation.is_empty();

    let tool_options = ToolOptions {
        shell_path: settings.shell_path().map(PathBuf::from),
        shell_command_prefix: settings.shell_command_prefix().map(str::to_string),
        bin_dir: Some(agent_dir.join("bin")),
        keep_image_size: !settings.image_auto_resize(),
    };
    let mut tools = builtin_tools(&tool_names(options), &tool_options);
    let view = SharedView::new(&cwd);
    let extensions = if options.extensions {
        let packaged = prepare_packages(&mut args, &settings, &agent_dir, &cwd, trust.trusted);
        warn_all(packaged.warnings.clone());
        let handle = start_extensions(
            &args,
            &settings,
            (&agent_dir, &cwd),
            project.is_some(),
            &packaged.extensions,
            &view,
            None,
            HostSetup {
                reloadable: false,
                memory_limit_mb: settings.extension_memory_limit_mb(),
                startup_limit: settings.extension_startup_limit(),
                slow_handler_ms: settings.extension_slow_handler_ms(),
            },
        )
        .await;
        Some((handle, packaged))
    } else {
        None
    };
    let (handle, packaged) = match extensions {
        Some((handle, packaged)) => (handle, packaged),
        None => (None, Default::default()),
    };
    let extension_providers = match &handle {
        Some(_) => view.lock().providers.clone(),
        None => Vec::new(),
    };
    warn_all(registry.set_extension_providers(&extension_providers));
    discover_for_session_model(&args, &mut registry, existing.model.as_ref()).await;
    let (model, thinking) =
        choose_model(&args, &settings, &registry, &auth, &existing, has_existing)
            .map_err(|e| SdkError::Setup(e.to_string()))?;
    if let Some(key) = &options.api_key {
        auth.set_runtime_api_key(&model.provider, key);
    }
    let mut bridge = handle.map(|handle| {
        let all = builtin_tools(&BUILTIN_TOOL_NAMES, &tool_options);
        ExtensionBridge::new(handle, view, all)
    });
    if let Some(bridge) = &mut bridge
        && options.tools.as_ref().is_none_or(|t| !t.is_empty())
    {
        bridge.merge_extension_tools(&mut tools).await;
    }
    let (skills, templates) = load_resources(&args, &settings, &agent_dir, project, &packaged);
    let prompt = system_prompt(&args, &agent_dir, &cwd, project, &tools, &skills);
    let (mut agent, available) = assemble(
        SessionParts {
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
            agent_dir,
            cwd,
        },
        &settings,
    );
    // Nobody watches an embedded session: its runs have the headless limits.
    agent.config.limits = crate::app::session_setup::run_limits(&args, &settings, true);
    let (permissions, warnings) = crate::app::permission_setup::gate(
        settings.global().get("permissions"),
        project_permissions.as_ref(),
        trust.trusted,
        &agent.config.cwd,
        options.on_permission.as_ref().map(|c| c.as_ui()),
    );
    warn_all(warnings);
    agent.permissions = permissions;
    agent.permissions.load_session_rules(&agent.session);
    if let Some(mut bridge) = bridge {
        bridge.models = available;
        agent.set_extensions(bridge);
        agent.session_event("session_start", "startup").await;
    }
    Ok(agent)
}

/// The built-in tools to start with: the chosen names that exist, else pi's defaults.
fn tool_names(options: &SessionOptions) -> Vec<String> {
    match &options.tools {
        Some(names) => {
            for unknown in names
                .iter()
                .filter(|n| !BUILTIN_TOOL_NAMES.contains(&n.as_str()))
            {
                warn_all([format!(
                    "unknown tool \"{unknown}\" skipped (built-in tools: {})",
                    BUILTIN_TOOL_NAMES.join(", ")
                )]);
            }
            names
                .iter()
                .filter(|n| BUILTIN_TOOL_NAMES.contains(&n.as_str()))
                .cloned()
                .collect()
        }
        None => DEFAULT_TOOLS.iter().map(|s| s.to_string()).collect(),
    }
}
