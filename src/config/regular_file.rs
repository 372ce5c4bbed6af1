//! Opening the data files pi reads (configuration, sessions, files a tool
//! edits): only a regular file is read, and only up to a bound. The file is
//! opened without waiting (a named pipe with no writer never blocks the open)
//! and checked on the open handle, so a FIFO, a device or a folder is an
//! error at once, never a hang, and a huge file an error, never gigabytes of
//! memory.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Open `path` for reading when it is a regular file; anything else is an
/// `InvalidInput` error naming what it is. A missing file keeps `NotFound`.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind_of(&meta)),
        ));
    }
    Ok(file)
}

/// The whole of the regular file `path`, at most `max_bytes`: a longer file
/// is an `InvalidData` error.
pub fn read_regular(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path)?
        .take(max_bytes + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {}", size_words(max_bytes)),
        ));
    }
    Ok(bytes)
}

/// `64 MiB`, `1 GiB`.
fn size_words(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes >= 1024 * MIB && bytes.is_multiple_of(1024 * MIB) {
        format!("{} GiB", bytes / (1024 * MIB))
    } else {
        format!("{} MiB", bytes / MIB)
    }
}

/// What a file that is not a regular file is, in words.
pub fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        } else if kind.is_char_device() {
            return "a character device";
        } else if kind.is_block_device() {
            return "a block device";
        } else if kind.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else {
        "not a file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_fifo_a_device_and_a_folder_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (path, kind) in [
            (fifo.as_path(), "a named pipe (FIFO)"),
            (Path::new("/dev/zero"), "a character device"),
            (dir.path(), "a folder"),
        ] {
            let started = Instant::now();
            let err = read_regular(path, 10).unwrap_err();
            assert!(started.elapsed() < Duration::from_secs(1));
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
            assert_eq!(err.to_string(), format!("it is {kind}, not a regular file"));
        }
    }

    #[test]
    fn a_regular_file_is_read_within_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_regular(&file, 10).unwrap(), b"0123456789");
        let err = read_regular(&file, 9).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        let missing = read_regular(&dir.path().join("none"), 9).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert_eq!(size_words(64 * 1024 * 1024), "64 MiB");
        assert_eq!(size_words(1024 * 1024 * 1024), "1 GiB");
    }
}
