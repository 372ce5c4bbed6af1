//! Start-up's resource step: resolve settings `packages` (installing missing ones unless
//! offline), install `-e npm:`/`-e git:` sources into a temporary folder for this run, and
//! start the extensions found locally and in packages.

use std::path::{Path, PathBuf};

use crate::cli::args::Args;
use crate::config::settings::Settings;
use crate::lua::discovery::{DiscoveryInput, discover_extensions};
use crate::lua::handle::Rediscover;
use crate::lua::{ExtensionHandle, HostConfig, SharedExtensionUi, SharedView};
use crate::packages::entries::{PackageEntry, Scope};
use crate::packages::manager::PackageManager;
use crate::packages::ops::{PackageResources, configured_packages, npm_command, resolve_packages};
use crate::packages::source::PackageSource;
use crate::t;

/// Resolve every configured package and every `-e` package source. `-e` package sources in
/// `args.extensions` are replaced by the extension files of their temporary install.
/// Project packages count only when `trusted`.
pub fn prepare_packages(
    args: &mut Args,
    settings: &Settings,
    agent_dir: &Path,
    cwd: &Path,
    trusted: bool,
) -> PackageResources {
    let offline = args.offline || crate::ai::local_models::offline_env();
    let npm = settings.raw().as_object().and_then(npm_command);
    let manager = PackageManager::new(agent_dir, cwd, npm);
    let project = trusted.then(|| settings.project());
    let (packages, warnings) = configured_packages(settings.global(), project, agent_dir, cwd);
    let progress = |source: &str| eprintln!("{}", t!("pi.pkg.installing", source = source));
    let mut resources = resolve_packages(&manager, &packages, offline, &progress);
    resources.warnings.extend(warnings);
    let mut cli_paths = Vec::new();
    for raw in std::mem::take(&mut args.extensions) {
        let source = match PackageSource::parse(&raw) {
            Ok(source @ (PackageSource::Npm { .. } | PackageSource::Git(_))) => source,
            _ => {
                cli_paths.push(raw);
                continue;
            }
        };
        let Some(root) = temporary_install(&manager, &source, &raw, offline, &mut resources) else {
            continue;
        };
        let mut run_only = PackageResources::default();
        run_only.add_package(&root, &PackageEntry::plain(&raw), Scope::Temporary);
        cli_paths.extend(
            run_only
                .extensions
                .iter()
                .map(|p| p.to_string_lossy().into_owned()),
        );
        resources.skills.extend(run_only.skills);
        resources.prompts.extend(run_only.prompts);
        resources.themes.extend(run_only.themes);
    }
    args.extensions = cli_paths;
    resources
}

/// The temporary install of a `-e` source (reused when already there).
fn temporary_install(
    manager: &PackageManager,
    source: &PackageSource,
    raw: &str,
    offline: bool,
    resources: &mut PackageResources,
) -> Option<PathBuf> {
    let path = manager.installed_path(source, Scope::Temporary).ok()?;
    if path.exists() {
        return Some(path);
    }
    if offline {
        resources
            .warnings
            .push(t!("pi.pkg.offline_missing", source = raw));
        return None;
    }
    eprintln!("{}", t!("pi.pkg.installing", source = raw));
    match manager.install(source, Scope::Temporary) {
        Ok(path) => Some(path),
        Err(e) => {
            resources.warnings.push(t!(
                "pi.pkg.install_failed",
                source = raw,
                error = e.to_string()
            ));
            None
        }
    }
}

/// Where extensions come from for this run: the folders, settings `extensions`,
/// `packaged` and `-e` paths. The settings are the ones given, or read again (a reload,
/// so edits to settings.json count).
fn extension_sources(
    args: &Args,
    (agent_dir, cwd): (&Path, &Path),
    include_project: bool,
    packaged: &[PathBuf],
) -> impl Fn(Option<&Settings>) -> Vec<PathBuf> + Send + Sync + 'static {
    let (agent_dir, cwd) = (agent_dir.to_path_buf(), cwd.to_path_buf());
    let packaged: Vec<String> = packaged
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let (cli_paths, no_extensions) = (args.extensions.clone(), args.no_extensions);
    move |known: Option<&Settings>| {
        let mut settings = match known {
            Some(settings) => settings.clone(),
            None => Settings::load(&agent_dir, &cwd).0,
        };
        if !include_project {
            settings.drop_project();
        }
        discover_extensions(&DiscoveryInput {
            agent_dir: agent_dir.clone(),
            cwd: cwd.clone(),
            settings_paths: packaged
                .iter()
                .cloned()
                .chain(settings.extension_paths())
                .collect(),
            cli_paths: cli_paths.clone(),
            no_extensions,
            include_project,
            overrides: crate::resources::overrides::scopes(&settings, "extensions"),
        })
    }
}

/// How this run's extension host is set up.
#[derive(Debug, Clone, Copy, Default)]
pub struct HostSetup {
    /// The run can `/reload` (terminal UI, RPC): start the host even without extensions.
    pub reloadable: bool,
    /// Settings `extensions.memoryLimitMb`, when set.
    pub memory_limit_mb: Option<u64>,
    /// Settings `extensions.startupTimeoutSeconds`, when set.
    pub startup_limit: Option<std::time::Duration>,
    /// Settings `extensions.slowHandlerMs`, when set.
    pub slow_handler_ms: Option<u64>,
}

/// Discover and load extensions (local ones and `packaged`; `settings` are this run's).
/// Every reload finds the files again, so `/reload` picks up extensions added or removed
/// since start. `None` when there are none and the run is not reloadable.
#[expect(clippy::too_many_arguments, reason = "each is one fact of the run")]
pub async fn start_extensions(
    args: &Args,
    settings: &Settings,
    (agent_dir, cwd): (&Path, &Path),
    include_project: bool,
    packaged: &[PathBuf],
    view: &SharedView,
    ui: Option<SharedExtensionUi>,
    setup: HostSetup,
) -> Option<ExtensionHandle> {
    let reloadable = setup.reloadable;
    let sources = extension_sources(args, (agent_dir, cwd), include_project, packaged);
    let paths = sources(Some(settings));
    if paths.is_empty() && (!reloadable || args.no_extensions) {
        return None;
    }
    let mut config = HostConfig::new(paths, cwd);
    config.rediscover = Some(Rediscover(std::sync::Arc::new(move || sources(None))));
    config.cli_flags = args
        .unknown_flags
        .iter()
        .map(|f| (f.name.clone(), f.value.clone()))
        .collect();
    config.ui = ui;
    config.tool_policy = crate::lua::wrap::ToolPolicy::from_settings(
        settings.tool_owners(),
        settings.tool_wrap_order(),
    );
    if let Some(mb) = setup.memory_limit_mb {
        config.memory_limit_mb = mb;
    }
    if let Some(limit) = setup.startup_limit {
        config.startup_limit = limit;
    }
    config.spec_cache = Some(agent_dir.join("cache").join("lazy-extensions.json"));
    if let Some(ms) = setup.slow_handler_ms {
        config.slow_handler_ms = ms;
    }
    let handle = ExtensionHandle::start(config, view.clone());
    handle.load().await;
    Some(handle)
}

/// The providers the extensions of this run register (for `--list-models`, which answers
/// before a session starts): the extensions are loaded once, headless.
pub async fn extension_providers(
    args: &Args,
    settings: &Settings,
    (agent_dir, cwd): (&Path, &Path),
    include_project: bool,
) -> Vec<(String, serde_json::Value)> {
    let view = SharedView::new(cwd);
    let Some(handle) = start_extensions(
        args,
        settings,
        (agent_dir, cwd),
        include_project,
        &[],
        &view,
        None,
        HostSetup::default(),
    )
    .await
    else {
        return Vec::new();
    };
    handle.stop_processes().await;
    view.lock().providers.clone()
}

/// What the interface lists under its header: the context files, skills, prompt
/// `(overrides read, bash)` for an extension whose registered tools replace built-ins.
fn builtin_overrides(path: &Path, tools: &[crate::lua::registry::ToolInfo]) -> Option<String> {
    let names: Vec<&str> = tools
        .iter()
        .filter(|t| t.extension == path)
        .map(|t| t.name.as_str())
        .filter(|n| crate::tools::BUILTIN_TOOL_NAMES.contains(n))
        .collect();
    (!names.is_empty()).then(|| t!("pi.tui.header.overrides", tools = names.join(", ")))
}

/// templates and extension files of this run, each with where it came from.
pub fn loaded_resources(
    context_files: &[PathBuf],
    (skills, templates): (
        &[crate::resources::skills::Skill],
        &[crate::resources::prompt_templates::PromptTemplate],
    ),
    (extensions, tools): (Vec<PathBuf>, &[crate::lua::registry::ToolInfo]),
    packaged: &PackageResources,
    (agent_dir, cwd): (&Path, &Path),
) -> crate::tui::chrome::LoadedResources {
    use crate::tui::chrome::{LoadedItem, LoadedResources, extension_label};
    let item = |label: String, path: &Path, info: &crate::resources::SourceInfo| {
        LoadedItem::new(
            label,
            path,
            &info.source,
            &info.scope,
            info.base_dir.as_deref(),
        )
    };
    let project_dir = cwd.join(crate::config::paths::CONFIG_DIR_NAME);
    let extension_item = |path: &Path| {
        let path = path.to_path_buf();
        let label = extension_label(&path);
        match packaged.origins.get(&path) {
            Some(origin) => LoadedItem::new(
                label,
                &path,
                &origin.source,
                origin.scope,
                Some(&origin.root),
            ),
            None if path.starts_with(&project_dir) => {
                LoadedItem::new(label, &path, "auto", "project", None)
            }
            None if path.starts_with(agent_dir) => {
                LoadedItem::new(label, &path, "auto", "user", None)
            }
            None => LoadedItem::new(label, &path, "cli", "temporary", None),
        }
    };
    let extension = |path: PathBuf| {
        let overrides = builtin_overrides(&path, tools);
        let mut item = extension_item(&path);
        if let Some(note) = overrides {
            item.label = format!("{} {note}", item.label);
            item.detail = format!("{} {note}", item.detail);
        }
        item
    };
    LoadedResources {
        context: LoadedResources::context_entries(context_files, cwd),
        skills: skills
            .iter()
            .map(|s| item(s.name.clone(), &s.file_path, &s.source_info))
            .collect(),
        prompts: templates
            .iter()
            .map(|t| {
                let name = format!("/{}", t.name);
                LoadedItem {
                    detail: name.clone(),
                    ..item(name, &t.file_path, &t.source_info)
                }
            })
            .collect(),
        extensions: extensions.into_iter().map(extension).collect(),
    }
}
