//! The safety set-up of a run: the sandbox in force (`--sandbox`, `--yolo`, settings
//! `sandbox`), and the permission policy from the `permissions` lists of the user's and the
//! project's settings (both read before trust is decided: an untrusted project may still
//! tighten them), with the front end that answers its questions.

use std::path::Path;

use serde_json::Value;

use crate::app::startup::warn_all;
use crate::app::startup_error::StartupError;
use crate::cli::args::Args;
use crate::config::settings::Settings;
use crate::core::permission_gate::PermissionGate;
use crate::lua::SharedExtensionUi;
use crate::permissions::{Policy, Scope, parse_rules};

/// The gate for a session in `cwd`; warnings name rules that were skipped.
pub fn gate(
    user: Option<&Value>,
    project: Option<&Value>,
    project_trusted: bool,
    cwd: &Path,
    ui: Option<SharedExtensionUi>,
) -> (PermissionGate, Vec<String>) {
    let (user, mut warnings) = parse_rules(user, Scope::User);
    let (project, project_warnings) = parse_rules(project, Scope::Project);
    warnings.extend(project_warnings);
    let policy = Policy {
        user,
        project,
        project_trusted,
        cwd: cwd.to_path_buf(),
        home: dirs::home_dir(),
        // Set up before the gate: `--yolo` and a sandbox mode are opting in too.
        yolo: crate::sandbox::yolo(),
        sandboxed: crate::sandbox::mode() != crate::sandbox::SandboxMode::Full,
        ..Policy::default()
    };
    let warnings = warnings
        .into_iter()
        .map(|w| crate::t!("pi.permissions.bad_rule", problem = w))
        .collect();
    (PermissionGate { policy, ui }, warnings)
}

/// Put the sandbox of `--sandbox`, the settings and the project's `sandbox` object
/// (`project`, read before trust was decided: untrusted, it may only tighten) in force,
/// with `--yolo`. Fails, naming the missing feature, when this system cannot enforce the
/// mode. Returns the warnings (already printed).
pub(crate) fn apply_sandbox(
    args: &Args,
    settings: &Settings,
    project: Option<&serde_json::Value>,
    trusted: bool,
    cwd: &Path,
) -> Result<Vec<String>, StartupError> {
    let cli = args
        .sandbox
        .as_deref()
        .and_then(crate::sandbox::SandboxMode::parse);
    let (sandbox, warnings) =
        crate::sandbox::mode::resolve(settings.global().get("sandbox"), project, trusted, cli, cwd);
    warn_all(warnings.clone());
    crate::sandbox::check_support(&sandbox, cwd)?;
    crate::sandbox::set(sandbox);
    crate::sandbox::set_yolo(args.yolo);
    Ok(warnings)
}
