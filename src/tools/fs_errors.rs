//! File-system errors worded the way pi reports them
//! (`ENOENT: no such file or directory, open '/path'`).

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The POSIX error code name and libuv's description of an I/O error.
fn code_and_description(error: &io::Error) -> Option<(&'static str, &'static str)> {
    let entry = match error.raw_os_error()? {
        libc::ENOENT => ("ENOENT", "no such file or directory"),
        libc::EACCES => ("EACCES", "permission denied"),
        libc::EPERM => ("EPERM", "operation not permitted"),
        libc::EISDIR => ("EISDIR", "illegal operation on a directory"),
        libc::ENOTDIR => ("ENOTDIR", "not a directory"),
        libc::EEXIST => ("EEXIST", "file already exists"),
        libc::EROFS => ("EROFS", "read-only file system"),
        libc::ENOSPC => ("ENOSPC", "no space left on device"),
        libc::ELOOP => ("ELOOP", "too many symbolic links encountered"),
        libc::ENAMETOOLONG => ("ENAMETOOLONG", "name too long"),
        libc::EBUSY => ("EBUSY", "resource busy or locked"),
        libc::ETXTBSY => ("ETXTBSY", "text file is busy"),
        libc::EMFILE => ("EMFILE", "too many open files"),
        libc::EIO => ("EIO", "i/o error"),
        _ => return None,
    };
    Some(entry)
}

/// The error code name (`ENOENT`, ...) of an I/O error, if it has one.
pub fn error_code(error: &io::Error) -> Option<&'static str> {
    code_and_description(error).map(|(code, _)| code)
}

/// `CODE: description, syscall 'path'`, or the plain error text when the
/// error has no well-known code.
pub fn describe(error: &io::Error, syscall: &str, path: &Path) -> String {
    match code_and_description(error) {
        Some((code, description)) => {
            format!("{code}: {description}, {syscall} '{}'", path.display())
        }
        None => format!("{error}, {syscall} '{}'", path.display()),
    }
}

/// Check access to `path` like `access(2)`; `mode` is `libc::R_OK` etc.
pub fn access(path: &Path, mode: libc::c_int) -> io::Result<()> {
    let c_path = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::from_raw_os_error(libc::ENOENT))?;
    // SAFETY: `c_path` is a valid NUL-terminated string that outlives the call.
    let rc = unsafe { libc::access(c_path.as_ptr(), mode) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_missing_file_like_node() {
        let path = Path::new("/definitely/not/here");
        let err = access(path, libc::R_OK).unwrap_err();
        assert_eq!(error_code(&err), Some("ENOENT"));
        assert_eq!(
            describe(&err, "access", path),
            "ENOENT: no such file or directory, access '/definitely/not/here'"
        );
    }
}
