//! The checks of `pi doctor`, one function per area; each returns its findings and never
//! changes anything (no file is written, no credential value is shown).

use crate::t;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::ai::auth::AuthStorage;
use crate::ai::registry::ModelRegistry;
use crate::app::doctor::{Finding, Status};
use crate::config::settings::Settings;

/// The terminal: its name, colours and how images are drawn.
pub fn terminal() -> Vec<Finding> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return vec![Finding::new(
            Status::Ok,
            "terminal",
            t!("pi.doctor.terminal.piped"),
        )];
    }
    let term = std::env::var("TERM").unwrap_or_default();
    let colorterm = std::env::var("COLORTERM").unwrap_or_default();
    let colours = if colorterm == "truecolor" || colorterm == "24bit" {
        "24-bit"
    } else if term.contains("256color") {
        "256"
    } else {
        "16"
    };
    let images = crate::ui_kit::terminal_image::protocol()
        .map(|p| format!("{p:?}").to_lowercase())
        .unwrap_or_else(|| t!("pi.doctor.terminal.no_images"));
    let status = if term.is_empty() || term == "dumb" {
        Status::Warn
    } else {
        Status::Ok
    };
    vec![Finding::new(
        status,
        "terminal",
        t!(
            "pi.doctor.terminal.found",
            term = if term.is_empty() { "-" } else { term.as_str() },
            colours = colours,
            images = images
        ),
    )]
}

/// Where `program` is on `PATH`, if it is.
fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(candidate)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The programs pi runs: bash (the bash tool), git (git packages), gh (`/share`) and a
/// clipboard tool (`/copy`, image paste).
pub fn programs() -> Vec<Finding> {
    let mut out = Vec::new();
    for (program, missing, purpose) in [
        ("bash", Status::Error, "pi.doctor.program.bash"),
        ("git", Status::Warn, "pi.doctor.program.git"),
        ("gh", Status::Warn, "pi.doctor.program.gh"),
    ] {
        let purpose = crate::i18n::t(purpose, &[]);
        out.push(match on_path(program) {
            Some(path) => Finding::new(
                Status::Ok,
                "program",
                t!(
                    "pi.doctor.program.found",
                    name = program,
                    path = path.display().to_string(),
                    purpose = purpose.as_str()
                ),
            ),
            None => Finding::new(
                missing,
                "program",
                t!(
                    "pi.doctor.program.missing",
                    name = program,
                    purpose = purpose.as_str()
                ),
            ),
        });
    }
    let clipboard = ["wl-copy", "xclip", "xsel", "pbcopy"];
    out.push(match clipboard.iter().find(|p| on_path(p).is_some()) {
        Some(found) => Finding::new(
            Status::Ok,
            "program",
            t!("pi.doctor.program.clipboard", name = *found),
        ),
        None => Finding::new(
            Status::Warn,
            "program",
            t!(
                "pi.doctor.program.no_clipboard",
                names = clipboard.join(", ")
            ),
        ),
    });
    out
}

/// Both settings files, as pi reads them; the settings are returned for the later checks.
pub fn settings(agent_dir: &Path, cwd: &Path) -> (Settings, Vec<Finding>) {
    let (settings, warnings) = Settings::load(agent_dir, cwd);
    let mut out: Vec<Finding> = warnings
        .into_iter()
        .map(|w| Finding::new(Status::Warn, "config", w.to_string()))
        .collect();
    if out.is_empty() {
        out.push(Finding::new(
            Status::Ok,
            "config",
            t!("pi.doctor.config.settings_ok"),
        ));
    }
    (settings, out)
}

/// `models.json` (an error when it cannot be used), `auth.json`, and which providers
/// have a credential (stored or in the environment; never its value).
pub fn models_and_credentials(agent_dir: &Path) -> Vec<Finding> {
    let mut out = Vec::new();
    let (registry, warnings) = ModelRegistry::load(agent_dir);
    let fatal = registry.error().map(str::to_string);
    for warning in warnings {
        let status = if Some(&warning) == fatal.as_ref() {
            Status::Error
        } else {
            Status::Warn
        };
        out.push(Finding::new(status, "config", warning));
    }
    let models_path = crate::config::paths::models_path(agent_dir);
    if out.is_empty() && models_path.is_file() {
        out.push(Finding::new(
            Status::Ok,
            "config",
            t!(
                "pi.doctor.config.file_ok",
                path = models_path.display().to_string()
            ),
        ));
    }
    let (auth, warnings) = AuthStorage::load(agent_dir);
    out.extend(
        warnings
            .into_iter()
            .map(|w| Finding::new(Status::Warn, "credentials", w)),
    );
    let with_credentials: Vec<String> = registry
        .providers()
        .into_iter()
        .filter(|p| registry.provider_has_key(p, &auth))
        .collect();
    out.push(if with_credentials.is_empty() {
        Finding::new(
            Status::Warn,
            "credentials",
            t!("pi.doctor.credentials.none"),
        )
    } else {
        Finding::new(
            Status::Ok,
            "credentials",
            t!(
                "pi.doctor.credentials.found",
                providers = with_credentials.join(", ")
            ),
        )
    });
    out
}

/// `keybindings.json`: unknown actions and keys pi cannot read.
pub fn keybindings(agent_dir: &Path) -> Vec<Finding> {
    let path = agent_dir.join("keybindings.json");
    if !path.exists() {
        return Vec::new();
    }
    let (_, warnings) = crate::ui_kit::keybindings::Keybindings::load(agent_dir);
    if warnings.is_empty() {
        return vec![Finding::new(
            Status::Ok,
            "config",
            t!(
                "pi.doctor.config.file_ok",
                path = path.display().to_string()
            ),
        )];
    }
    warnings
        .into_iter()
        .map(|w| {
            let message = format!("{}: {w}", path.display());
            Finding::new(Status::Warn, "config", message)
        })
        .collect()
}

/// User theme files (`<agent>/themes`, `.pi/themes`): broken ones and wrong colours.
pub fn themes(agent_dir: &Path, cwd: &Path) -> Vec<Finding> {
    let mut out = Vec::new();
    for dir in [agent_dir.join("themes"), cwd.join(".pi").join("themes")] {
        for path in crate::i18n::packs::files_with_extension(&dir, "json") {
            let (theme, warnings) = crate::ui_kit::theme::Theme::from_file_checked(&path);
            let shown = path.display().to_string();
            match theme {
                Err(e) => out.push(Finding::new(
                    Status::Error,
                    "theme",
                    format!("{shown}: {e}"),
                )),
                Ok(_) if warnings.is_empty() => out.push(Finding::new(
                    Status::Ok,
                    "theme",
                    t!("pi.doctor.config.file_ok", path = shown),
                )),
                Ok(_) => out.extend(
                    warnings
                        .into_iter()
                        .map(|w| Finding::new(Status::Warn, "theme", format!("{shown}: {w}"))),
                ),
            }
        }
    }
    out
}

/// The languages built in, and the user's locale packs (`<agent>/locales`).
pub fn locales(agent_dir: &Path) -> Vec<Finding> {
    let names: Vec<&str> = crate::i18n::languages::languages()
        .iter()
        .map(|l| l.tag.as_str())
        .collect();
    let mut out = vec![Finding::new(
        Status::Ok,
        "locale",
        t!(
            "pi.doctor.locale.builtin",
            current = crate::i18n::current_locale(),
            languages = names.join(", ")
        ),
    )];
    let (_, errors) = crate::i18n::packs::load_bundle_dir(&agent_dir.join("locales"), "user");
    out.extend(
        errors
            .into_iter()
            .map(|e| Finding::new(Status::Error, "locale", e)),
    );
    out
}

/// The extension files pi would load here (project ones only in a trusted folder).
pub fn extension_paths(settings: &Settings, agent_dir: &Path, cwd: &Path) -> Vec<PathBuf> {
    use crate::lua::discovery::{DiscoveryInput, discover_extensions};
    let always_trust = settings
        .global()
        .get("alwaysTrust")
        .and_then(|v| v.as_bool())
        == Some(true);
    let mut store = crate::config::trust::TrustStore::load(agent_dir);
    let include_project =
        crate::config::trust::decide(cwd, &mut store, None, always_trust, None).trusted;
    let mut settings = settings.clone();
    if !include_project {
        settings.drop_project();
    }
    discover_extensions(&DiscoveryInput {
        agent_dir: agent_dir.to_path_buf(),
        cwd: cwd.to_path_buf(),
        settings_paths: settings.extension_paths(),
        cli_paths: Vec::new(),
        no_extensions: false,
        include_project,
        overrides: crate::resources::overrides::scopes(&settings, "extensions"),
    })
}

/// Every extension pi would load here, each loaded alone and headless: its load time, or
/// its error with file and line.
pub async fn extensions(settings: &Settings, agent_dir: &Path, cwd: &Path) -> Vec<Finding> {
    let paths = extension_paths(settings, agent_dir, cwd);
    let mut out = Vec::new();
    for path in paths {
        let view = crate::lua::SharedView::new(cwd);
        let config = crate::lua::handle::HostConfig::new(vec![path.clone()], cwd);
        let started = Instant::now();
        let handle = crate::lua::handle::ExtensionHandle::start(config, view);
        let report = handle.load().await;
        let millis = started.elapsed().as_secs_f64() * 1000.0;
        let health = handle.health_checks().await;
        handle.stop_processes().await;
        let shown = path.display().to_string();
        out.push(match report.errors.first() {
            Some(error) => Finding::new(Status::Error, "extension", error.message.clone()),
            None => Finding::new(
                Status::Ok,
                "extension",
                t!(
                    "pi.doctor.extension.loaded",
                    path = shown,
                    ms = format!("{millis:.1}")
                ),
            ),
        });
        for finding in health {
            let status = match finding.status.as_str() {
                "ok" => Status::Ok,
                "warn" => Status::Warn,
                _ => Status::Error,
            };
            let name = crate::core::resource_inventory::shown_name(&finding.extension);
            out.push(Finding::new(
                status,
                "health",
                format!("{name}: {}", finding.message),
            ));
        }
    }
    if out.is_empty() {
        out.push(Finding::new(
            Status::Ok,
            "extension",
            t!("pi.doctor.extension.none"),
        ));
    }
    out
}
