//! Standard output reserved for JSON records (RPC and JSON mode): the records
//! go to a duplicate of file descriptor 1, which is then pointed at stderr, so
//! nothing else that prints (an extension's `print` or `io.write`, a library)
//! can put a line that is not JSON into the stream.

use std::fs::File;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use crate::sync::LockExt;

/// The protocol's own copy of stdout, once [`take_over_stdout`] ran.
static PROTOCOL_OUT: OnceLock<Mutex<File>> = OnceLock::new();

/// Reserve stdout for records (once; later calls do nothing). Run it before
/// extensions load, so even what they print while loading goes to stderr.
pub fn take_over_stdout() {
    use std::os::fd::FromRawFd;
    if PROTOCOL_OUT.get().is_some() {
        return;
    }
    let _ = std::io::stdout().flush();
    // SAFETY: plain descriptor calls; the duplicate is owned by the File.
    unsafe {
        let protocol = libc::dup(1);
        if protocol < 0 {
            crate::modes::output_guard::stdout_failed(&std::io::Error::last_os_error());
        }
        if libc::dup2(2, 1) < 0 {
            libc::close(protocol);
            return;
        }
        let _ = PROTOCOL_OUT.set(Mutex::new(File::from_raw_fd(protocol)));
    }
}

/// Write one record through `write` (which ends it with its newline), buffered in
/// 64 KiB pieces so a long record goes out as it is produced, never held whole; no
/// other record can come between its pieces. A failure ends pi as in [`write_record`].
pub fn write_record_with(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
    const PIECE: usize = 64 * 1024;
    let written = match PROTOCOL_OUT.get() {
        Some(out) => {
            let mut out = out.locked();
            let mut buffered = std::io::BufWriter::with_capacity(PIECE, &mut *out);
            write(&mut buffered).and_then(|()| buffered.flush())
        }
        None => {
            let mut out = std::io::stdout().lock();
            let mut buffered = std::io::BufWriter::with_capacity(PIECE, &mut out);
            write(&mut buffered).and_then(|()| buffered.flush())
        }
    };
    if let Err(e) = written {
        crate::modes::output_guard::stdout_failed(&e);
    }
}

/// Write `bytes` (whole lines) to the protocol's stdout, unbuffered; a
/// failure ends pi with [`crate::modes::output_guard::stdout_failed`].
pub fn write_record(bytes: &[u8]) {
    let written = match PROTOCOL_OUT.get() {
        Some(out) => out.locked().write_all(bytes),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes).and_then(|()| out.flush())
        }
    };
    if let Err(e) = written {
        crate::modes::output_guard::stdout_failed(&e);
    }
}
