//! Start-up's model step: which model and thinking level a run starts with, and the
//! models Ctrl+P cycles through.

use crate::t;

use crate::ai::auth::AuthStorage;
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::providers::demo::{DEMO_PROVIDER, demo_model};
use crate::ai::registry::ModelRegistry;
use crate::ai::resolve::{
    InitialModelRequest, ModelSelectionError, effective_thinking_level, resolve_model_scope,
    select_initial_model,
};
use crate::cli::args::Args;
use crate::config::settings::Settings;

/// Local model discovery for this run. Nothing is asked when pi runs offline. The
/// servers are asked before the model is chosen when the model list is printed or
/// the run names Ollama or LM Studio (`--provider`, `--model`, `--models`,
/// `defaultProvider`, `enabledModels`); when `models.json` only configures one, they
/// are asked in the background; otherwise only when the model selector opens.
pub async fn prepare_local_models(args: &Args, settings: &Settings, registry: &mut ModelRegistry) {
    if args.offline || crate::ai::local_models::offline_env() {
        return;
    }
    crate::ai::local_models::remember_targets(registry.local_targets());
    let enabled = settings.enabled_models().unwrap_or_default();
    let named = [
        args.provider.as_deref(),
        args.model.as_deref(),
        args.models.as_deref(),
        settings.default_provider(),
    ]
    .into_iter()
    .flatten()
    .chain(enabled.iter().map(String::as_str));
    if args.list_models.is_some() || crate::ai::local_models::names_local_provider(named) {
        registry.discover_local_models().await;
    } else if registry.configures_local_provider() {
        crate::ai::local_models::ensure_background_discovery();
    }
}

/// A resumed session whose model is served by a local server needs the servers'
/// answer before the model is chosen.
pub async fn discover_for_session_model(
    args: &Args,
    registry: &mut ModelRegistry,
    session_model: Option<&(String, String)>,
) {
    let offline = args.offline || crate::ai::local_models::offline_env();
    if let Some((provider, id)) = session_model
        && !offline
        && crate::ai::local_models::is_local_provider(provider)
        && registry.find(provider, id).is_none()
    {
        registry.discover_local_models().await;
    }
}

/// `--models` / `enabledModels` resolved against the available models.
pub fn cycle_models(args: &Args, settings: &Settings, available: &[Model]) -> Vec<Model> {
    match model_patterns(args, settings) {
        Some(patterns) => resolve_model_scope(&patterns, available)
            .0
            .into_iter()
            .map(|s| s.model)
            .collect(),
        None => Vec::new(),
    }
}

/// `--models` patterns, else settings `enabledModels`.
fn model_patterns(args: &Args, settings: &Settings) -> Option<Vec<String>> {
    args.models
        .as_ref()
        .map(|m| {
            m.split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect()
        })
        .or_else(|| settings.enabled_models())
}

/// The model and thinking level to start with: `--provider demo`, the session's own model
/// when continuing, else the flags, scoped models and settings (pi's order).
pub fn choose_model(
    args: &Args,
    settings: &Settings,
    registry: &ModelRegistry,
    auth: &AuthStorage,
    existing: &crate::session::context::SessionContext,
    has_existing: bool,
) -> Result<(Model, ThinkingLevel), ModelSelectionError> {
    let cli_thinking = match args.thinking.as_deref() {
        None => None,
        Some(t) => match ThinkingLevel::parse(t) {
            Some(level) => Some(level),
            None => {
                eprintln!("{}", t!("pi.cli.bad_thinking", level = t));
                None
            }
        },
    };
    if explicit_demo(args) {
        return Ok((demo_model(), ThinkingLevel::Off));
    }
    let patterns = model_patterns(args, settings);
    let (scoped, warnings) = match &patterns {
        Some(p) => resolve_model_scope(p, &registry.available(auth)),
        None => (Vec::new(), Vec::new()),
    };
    super::startup::warn_all(warnings);
    let restored = (has_existing && args.model.is_none())
        .then_some(existing.model.as_ref())
        .flatten()
        .and_then(|(provider, id)| registry.find(provider, id))
        .filter(|m| registry.has_configured_auth(m, auth) || args.api_key.is_some())
        .cloned();
    let (model, explicit) = match restored {
        Some(model) => (model, cli_thinking.or_else(|| existing.thinking())),
        None => {
            let initial = select_initial_model(InitialModelRequest {
                cli_provider: args.provider.as_deref(),
                cli_model: args.model.as_deref(),
                cli_thinking,
                scoped_models: &scoped,
                has_existing_session: has_existing,
                default_provider: settings.default_provider(),
                default_model: settings.default_model(),
                registry,
                auth,
            })?;
            super::startup::warn_all(initial.warnings);
            let explicit = initial
                .thinking_level
                .or_else(|| has_existing.then(|| existing.thinking()).flatten());
            (initial.model, explicit)
        }
    };
    let thinking = effective_thinking_level(&model, explicit, settings.default_thinking_level());
    Ok((model, thinking))
}

/// `--provider demo` or `--model demo` (or `demo/demo`) picks the scripted demo model.
pub(super) fn explicit_demo(args: &Args) -> bool {
    let model = args.model.as_deref();
    match args.provider.as_deref() {
        Some(p) => p == DEMO_PROVIDER && model.is_none_or(|m| m == DEMO_PROVIDER),
        None => matches!(model, Some("demo") | Some("demo/demo")),
    }
}
