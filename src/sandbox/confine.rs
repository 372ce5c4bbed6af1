//! Wrapping a `Command` with the sandbox in force: the rulesets are built here, before
//! the fork, and the child only applies them in `pre_exec`.

use std::os::unix::process::CommandExt;
use std::path::Path;

use super::error::{Feature, SandboxError};
use super::mode::{SandboxMode, SandboxSettings};
use super::namespace::{self, ReadOnlyMounts};
use super::policy::Policy;
use super::{current, is_let_out, landlock, private_temp, seccomp};

/// Names features to treat as missing, comma-separated (`landlock`, `seccomp`, `userns`),
/// so the refusal of a mode this kernel cannot enforce can be seen and tested on a
/// kernel that can.
const SIMULATE_MISSING: &str = "PI_SANDBOX_SIMULATE_MISSING";

fn simulated_missing(feature: &str) -> bool {
    std::env::var(SIMULATE_MISSING)
        .is_ok_and(|list| list.split(',').any(|item| item.trim() == feature))
}

fn unsupported(mode: SandboxMode, feature: Feature) -> SandboxError {
    SandboxError::Unsupported {
        mode,
        feature,
        detail: None,
    }
}

/// Whether every feature `settings` needs for commands in `cwd` is available; the error
/// names the mode and the missing feature.
pub fn check_support(settings: &SandboxSettings, cwd: &Path) -> Result<(), SandboxError> {
    if !settings.mode.is_confined() {
        return Ok(());
    }
    let policy = Policy::new(settings, cwd, None);
    check_policy(&policy)
}

fn check_policy(policy: &Policy) -> Result<(), SandboxError> {
    if simulated_missing("landlock") || !landlock::supported() {
        return Err(unsupported(policy.mode, Feature::Landlock));
    }
    if !policy.network && (simulated_missing("seccomp") || !seccomp::supported()) {
        return Err(unsupported(policy.mode, Feature::Seccomp));
    }
    if !policy.protected.is_empty() && (simulated_missing("userns") || !namespace::supported()) {
        return Err(unsupported(policy.mode, Feature::UserNamespaces));
    }
    Ok(())
}

/// Confine `command` (to run in `cwd`) by the sandbox in force: nothing changes in
/// `full` mode or inside [`outside`](super::outside). Otherwise its `TMPDIR` becomes
/// the private temp folder and, in the child before exec, it enters the read-only
/// mounts, the Landlock ruleset and the network filter. Fails, naming the missing
/// feature, when the kernel cannot enforce the mode.
pub fn confine(command: &mut std::process::Command, cwd: &Path) -> Result<(), SandboxError> {
    let settings = current();
    if !settings.mode.is_confined() || is_let_out() {
        return Ok(());
    }
    let temp = private_temp()?;
    let policy = Policy::new(&settings, cwd, Some(temp.clone()));
    check_policy(&policy)?;
    let ruleset = landlock::build(&policy).map_err(|detail| SandboxError::Unsupported {
        mode: policy.mode,
        feature: Feature::Landlock,
        detail: Some(detail.to_string()),
    })?;
    let filter = if policy.network {
        None
    } else {
        Some(seccomp::program()?)
    };
    let mounts = ReadOnlyMounts::new(&policy.protected);
    command.env("TMPDIR", &temp);
    let mut ruleset = Some(ruleset);
    let apply = move || -> std::io::Result<()> {
        if let Some(mounts) = &mounts {
            mounts.apply()?;
        }
        if let Some(ruleset) = ruleset.take() {
            landlock::restrict(ruleset)?;
        }
        if let Some(filter) = filter {
            seccomp::install(filter)?;
        }
        Ok(())
    };
    // SAFETY: the closure only makes system calls (unshare, mount, open/write/close on
    // /proc files, prctl, landlock_restrict_self, seccomp) on data prepared before the
    // fork; it neither allocates nor takes locks.
    unsafe { command.pre_exec(apply) };
    Ok(())
}
