//! The Landlock ruleset of a policy: reads and execution stay unrestricted, every kind
//! of write is allowed only beneath the writable paths. Built before the fork; the child
//! only calls [`restrict`].

use std::path::PathBuf;

use landlock::{
    ABI, AccessFs, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetError, RulesetStatus,
};

use super::policy::{Policy, WRITABLE_DEVICES};

/// The newest Landlock ABI pi asks for; older kernels get what they offer of it, but at
/// least ABI 1 (the write rights), else the ruleset cannot be built.
const WANTED: ABI = ABI::V3;

/// The write rights pi handles at `abi` (device ioctls are left alone so terminals keep
/// working).
fn write_rights(abi: ABI) -> landlock::BitFlags<AccessFs> {
    AccessFs::from_write(abi) & !AccessFs::IoctlDev
}

/// A ruleset allowing writes only beneath the policy's roots, its private temp folder
/// and the usual device files. Fails (naming Landlock) when the kernel cannot enforce
/// the basic write rights.
pub fn build(policy: &Policy) -> Result<RulesetCreated, RulesetError> {
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(write_rights(ABI::V1))
        .and_then(|r| {
            r.set_compatibility(CompatLevel::BestEffort)
                .handle_access(write_rights(WANTED))
        })
        .and_then(|r| r.create())?;
    let writable = policy
        .roots
        .iter()
        .chain(policy.temp.iter())
        .cloned()
        .chain(WRITABLE_DEVICES.iter().map(PathBuf::from));
    for path in writable {
        // A path that vanished since the policy was made just gets no rule.
        let Ok(fd) = PathFd::new(&path) else { continue };
        let rights = if path.is_dir() {
            write_rights(WANTED)
        } else {
            write_rights(WANTED) & AccessFs::from_file(WANTED)
        };
        ruleset = ruleset.add_rule(PathBeneath::new(fd, rights))?;
    }
    Ok(ruleset)
}

/// Whether this kernel can enforce a ruleset (probed by creating an empty one).
pub fn supported() -> bool {
    Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(write_rights(ABI::V1))
        .and_then(|r| r.create())
        .is_ok()
}

/// Confine the calling process (in the child, between fork and exec): async-signal-safe,
/// as it only makes the `prctl` and `landlock_restrict_self` system calls.
pub fn restrict(ruleset: RulesetCreated) -> std::io::Result<()> {
    match ruleset.restrict_self() {
        Ok(status) if status.ruleset != RulesetStatus::NotEnforced => Ok(()),
        Ok(_) => Err(std::io::Error::from_raw_os_error(libc::ENOSYS)),
        Err(_) => Err(std::io::Error::from_raw_os_error(libc::EPERM)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::mode::{SandboxMode, SandboxSettings};

    #[test]
    fn a_ruleset_is_built_for_a_workspace_and_its_temp_folder() {
        assert!(supported());
        let dir = tempfile::tempdir().unwrap();
        let temp = tempfile::tempdir().unwrap();
        let settings = SandboxSettings {
            mode: SandboxMode::WorkspaceWrite,
            ..Default::default()
        };
        let policy = Policy::new(&settings, dir.path(), Some(temp.path().to_path_buf()));
        assert!(build(&policy).is_ok());
    }
}
