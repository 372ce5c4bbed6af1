//! The permission policy of a run, from the `permissions` lists of the user's and the
//! project's settings (read before trust is decided: an untrusted project's rules may still
//! tighten), and the front end that answers its questions.

use std::path::Path;

use serde_json::Value;

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
