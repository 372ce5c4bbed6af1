//! The OS sandbox: modes (`read-only`, `workspace-write`, `full`), the policy they give
//! for a working folder, and the one place that confines a process before it runs.
//!
//! On Linux a confined command gets, between fork and exec, a Landlock ruleset (reads
//! anywhere, writes only beneath the workspace roots, the private temp folder and a few
//! device files), read-only bind mounts over `.git` and `.pi` in its own namespaces
//! (workspace-write), and a seccomp filter refusing IPv4 and IPv6 sockets unless
//! `sandbox.network` allows them. Whatever it starts inherits all of it. The file tools
//! check the same policy in-process ([`Policy::check_write`]). A mode the kernel cannot
//! enforce is refused ([`check_support`]), never run unconfined.

pub mod error;
pub mod mode;
pub mod policy;
pub mod state;

#[cfg(target_os = "linux")]
mod confine;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(target_os = "linux")]
mod namespace;
#[cfg(target_os = "linux")]
mod seccomp;

use std::future::Future;
use std::path::Path;

pub use error::{Feature, SandboxError};
pub use mode::{SandboxMode, SandboxSettings};
pub use policy::{Policy, WriteRefusal};
pub use state::{current, mode, private_temp, remove_private_temp, set, set_yolo, yolo};

#[cfg(target_os = "linux")]
pub use confine::{check_support, confine};

tokio::task_local! {
    static UNCONFINED: bool;
}

/// Run `work` with the commands it starts outside the sandbox (the user agreed to re-run
/// a refused command unconfined, once).
pub async fn outside<F: Future>(work: F) -> F::Output {
    UNCONFINED.scope(true, work).await
}

/// Whether the running task was let out of the sandbox by [`outside`].
pub fn is_let_out() -> bool {
    UNCONFINED.try_with(|on| *on).unwrap_or(false)
}

/// The policy in force for commands and file tools working in `cwd`.
pub fn policy_for(cwd: &Path) -> Policy {
    Policy::new(&current(), cwd, private_temp().ok())
}

/// Signs of a write or socket the kernel refused.
const DENIED: [&str; 3] = [
    "Permission denied",
    "Read-only file system",
    "Operation not permitted",
];

/// Signs of a connection that failed, which with the network off is the sandbox's doing
/// (curl, for one, does not say why it could not connect).
const NO_NETWORK: [&str; 5] = [
    "Couldn't connect to server",
    "Could not resolve host",
    "Network is unreachable",
    "Temporary failure in name resolution",
    "Name or service not known",
];

/// Whether a failed command's output looks like a refusal by the sandbox: a confined
/// mode is in force and the output reports a denied write or socket ("Permission
/// denied", "Read-only file system", "Operation not permitted") or, with the network
/// off, a connection that could not be made.
pub fn refused_by_sandbox(output: &str) -> bool {
    let settings = current();
    settings.mode.is_confined()
        && (DENIED.iter().any(|sign| output.contains(sign))
            || (!settings.network && NO_NETWORK.iter().any(|sign| output.contains(sign))))
}

/// The file tools' check: whether `path` (absolute) may be written under the policy in
/// force for `cwd`; the error names the mode and the writable roots.
pub fn check_write(path: &Path, cwd: &Path) -> Result<(), WriteRefusal> {
    if !mode().is_confined() {
        return Ok(());
    }
    policy_for(cwd).check_write(path)
}

/// Without Landlock (not Linux) no confined mode can be enforced.
#[cfg(not(target_os = "linux"))]
pub fn check_support(settings: &SandboxSettings, _cwd: &Path) -> Result<(), SandboxError> {
    if settings.mode.is_confined() {
        Err(SandboxError::Unsupported {
            mode: settings.mode,
            feature: error::Feature::Landlock,
            detail: None,
        })
    } else {
        Ok(())
    }
}

/// Without Landlock (not Linux) a confined mode refuses every command.
#[cfg(not(target_os = "linux"))]
pub fn confine(_command: &mut std::process::Command, cwd: &Path) -> Result<(), SandboxError> {
    if is_let_out() {
        return Ok(());
    }
    check_support(&current(), cwd)
}

/// One line on the sandbox in force for `cwd`: mode, writable roots, network.
pub fn status_line(cwd: &Path) -> String {
    let settings = current();
    let policy = policy_for(cwd);
    let roots = if settings.mode.is_confined() {
        policy.roots_text()
    } else {
        crate::t!("pi.sandbox.everywhere")
    };
    let network = if policy.network {
        crate::t!("pi.sandbox.network_on")
    } else {
        crate::t!("pi.sandbox.network_off")
    };
    crate::t!(
        "pi.sandbox.summary",
        mode = settings.mode.as_str(),
        roots = roots,
        network = network
    )
}

/// Check that `mode` can be enforced here, then put it in force for the rest of the
/// process (writable roots and network kept).
pub fn switch_mode(new_mode: SandboxMode, cwd: &Path) -> Result<(), SandboxError> {
    let mut settings = (*current()).clone();
    settings.mode = new_mode;
    check_support(&settings, cwd)?;
    set(settings);
    Ok(())
}
