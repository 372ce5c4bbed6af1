//! The network filter: a seccomp program that refuses `socket(AF_INET)` and
//! `socket(AF_INET6)` (and `io_uring_setup`, which could open sockets around it) with
//! `EACCES`, leaving Unix sockets alone. A system call of another architecture (a 32-bit
//! program) ends the process. Compiled once; the child only installs it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::error::SandboxError;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The bit that marks an x32 system call number on x86_64.
#[cfg(target_arch = "x86_64")]
const X32_BIT: i64 = 0x4000_0000;

/// The compiled filter, or why it could not be made.
pub fn program() -> Result<&'static BpfProgram, SandboxError> {
    static PROGRAM: OnceLock<Result<BpfProgram, SandboxError>> = OnceLock::new();
    PROGRAM.get_or_init(compile).as_ref().map_err(Clone::clone)
}

fn compile() -> Result<BpfProgram, SandboxError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(filter_error)?;
    let family = |value: i32| -> Result<SeccompRule, SandboxError> {
        let condition = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Eq,
            u64::try_from(value).unwrap_or_default(),
        )
        .map_err(filter_error)?;
        SeccompRule::new(vec![condition]).map_err(filter_error)
    };
    let mut rules = BTreeMap::new();
    rules.insert(
        libc::SYS_socket,
        vec![family(libc::AF_INET)?, family(libc::AF_INET6)?],
    );
    // The x32 ABI reaches the same system call under another number.
    #[cfg(target_arch = "x86_64")]
    rules.insert(
        libc::SYS_socket | X32_BIT,
        vec![family(libc::AF_INET)?, family(libc::AF_INET6)?],
    );
    rules.insert(libc::SYS_io_uring_setup, vec![]);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(filter_error)?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| filter_error(e))
}

fn filter_error(e: impl std::fmt::Display) -> SandboxError {
    SandboxError::NetworkFilter {
        detail: e.to_string(),
    }
}

/// Whether this kernel offers seccomp filters.
pub fn supported() -> bool {
    // SAFETY: prctl(PR_GET_SECCOMP) only reads the calling thread's seccomp state.
    let mode = unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) };
    mode >= 0 && program().is_ok()
}

/// Install the filter (in the child, between fork and exec; async-signal-safe: a
/// `prctl` and a `seccomp` system call).
pub fn install(program: &BpfProgram) -> std::io::Result<()> {
    seccompiler::apply_filter(program).map_err(|_| std::io::Error::from_raw_os_error(libc::EPERM))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_compiles_for_this_architecture() {
        let program = program().unwrap();
        assert!(!program.is_empty());
        assert!(supported());
    }
}
