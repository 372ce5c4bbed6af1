//! Keeping `.git` and `.pi` read-only inside a writable root. Landlock only grants, it
//! cannot take a right back beneath a folder it was granted on, so the child gets its
//! own user and mount namespace in which those folders are bind-mounted read-only; the
//! Landlock ruleset applied afterwards forbids undoing the mounts.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::OnceLock;

/// Everything the child needs, prepared before the fork.
#[derive(Debug)]
pub struct ReadOnlyMounts {
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    /// Each path with the mount flags it must keep (nosuid, nodev, noexec, atime).
    paths: Vec<(CString, libc::c_ulong)>,
}

impl ReadOnlyMounts {
    /// The plan for `paths` (which exist); `None` when there is nothing to protect.
    pub fn new(paths: &[impl AsRef<Path>]) -> Option<ReadOnlyMounts> {
        if paths.is_empty() {
            return None;
        }
        // SAFETY: getuid and getgid cannot fail.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        let paths = paths
            .iter()
            .filter_map(|p| {
                let c = CString::new(p.as_ref().as_os_str().as_bytes()).ok()?;
                Some((c.clone(), kept_flags(&c)))
            })
            .collect();
        Some(ReadOnlyMounts {
            uid_map: format!("{uid} {uid} 1\n").into_bytes(),
            gid_map: format!("{gid} {gid} 1\n").into_bytes(),
            paths,
        })
    }

    /// Enter new user and mount namespaces and mount each path read-only over itself.
    /// Runs in the child between fork and exec: only system calls, no allocation.
    pub fn apply(&self) -> std::io::Result<()> {
        // SAFETY: plain system calls on pointers to live, NUL-terminated buffers.
        unsafe {
            check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS))?;
            write_file(c"/proc/self/setgroups", b"deny")?;
            write_file(c"/proc/self/uid_map", &self.uid_map)?;
            write_file(c"/proc/self/gid_map", &self.gid_map)?;
            check(libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            for (path, flags) in &self.paths {
                check(libc::mount(
                    path.as_ptr(),
                    path.as_ptr(),
                    std::ptr::null(),
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                ))?;
                check(libc::mount(
                    std::ptr::null(),
                    path.as_ptr(),
                    std::ptr::null(),
                    libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | flags,
                    std::ptr::null(),
                ))?;
            }
        }
        Ok(())
    }
}

/// The flags of the mount holding `path` that a read-only remount must repeat (a user
/// namespace may not drop them).
fn kept_flags(path: &CString) -> libc::c_ulong {
    // SAFETY: statvfs writes into the zeroed struct we own.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return 0;
    }
    let pairs = [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ];
    pairs
        .iter()
        .filter(|(st, _)| stat.f_flag & st != 0)
        .fold(0, |acc, (_, ms)| acc | ms)
}

fn check(rc: libc::c_int) -> std::io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Write `data` to the file at `path` (async-signal-safe).
unsafe fn write_file(path: &std::ffi::CStr, data: &[u8]) -> std::io::Result<()> {
    // SAFETY: the caller's contract: a valid path; data is a live slice.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let written = libc::write(fd, data.as_ptr().cast(), data.len());
        libc::close(fd);
        if written < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Whether this process may create user and mount namespaces and mount in them (probed
/// once, by starting `true` with the system temp folder mounted read-only in its own
/// namespaces, as a confined command would get `.git`).
pub fn supported() -> bool {
    static SUPPORTED: OnceLock<bool> = OnceLock::new();
    *SUPPORTED.get_or_init(|| {
        use std::os::unix::process::CommandExt;
        let Some(plan) = ReadOnlyMounts::new(&[std::env::temp_dir()]) else {
            return false;
        };
        let mut probe = std::process::Command::new("true");
        probe
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // SAFETY: apply only makes system calls.
        unsafe { probe.pre_exec(move || plan.apply()) };
        probe.status().is_ok_and(|s| s.success())
    })
}
