//! Append-only line writer for an existing session file: whole lines only,
//! and a torn last line (from a crash or a failed write) is never glued to a
//! new one.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Appends JSON lines to one existing file, opening it on first use.
#[derive(Debug)]
pub struct LineAppender {
    path: PathBuf,
    file: Option<File>,
    /// The file does not end with a newline, so the next line needs one first.
    needs_separator: bool,
    /// Device and inode of the open file.
    identity: Option<(u64, u64)>,
    /// The file's length after our last write.
    expected_len: u64,
}

impl LineAppender {
    /// An appender for `path`; nothing is touched until the first append.
    pub fn new(path: &Path) -> Self {
        LineAppender {
            path: path.to_path_buf(),
            file: None,
            needs_separator: false,
            identity: None,
            expected_len: 0,
        }
    }

    /// Whether the file at the path is still the one this appender writes, at
    /// least as long as what it wrote: false once another program deleted,
    /// truncated or replaced it (the next append would go to a lost file or
    /// leave a file without its header).
    pub fn still_intact(&self) -> bool {
        let Some(identity) = self.identity else {
            return true;
        };
        match std::fs::metadata(&self.path) {
            Ok(meta) => file_identity(&meta) == identity && meta.len() >= self.expected_len,
            Err(_) => false,
        }
    }

    /// Append one line (a newline is added). On failure (a full disk, a
    /// file-size limit) the part that was written is cut off again, so the
    /// file never holds half a line; should even that fail, the next append
    /// starts on a fresh line.
    pub fn append_line(&mut self, line: &str) -> io::Result<()> {
        let separator = {
            self.open()?;
            self.needs_separator
        };
        let mut buffer = Vec::with_capacity(line.len() + 2);
        if separator {
            buffer.push(b'\n');
        }
        buffer.extend_from_slice(line.as_bytes());
        buffer.push(b'\n');
        let file = self.open()?;
        let before = file.metadata()?.len();
        match file.write_all(&buffer) {
            Ok(()) => {
                self.needs_separator = false;
                self.expected_len = before + buffer.len() as u64;
                Ok(())
            }
            Err(err) => {
                let cut = file.set_len(before).is_ok();
                self.needs_separator = !cut && separator_needed(file);
                Err(err)
            }
        }
    }

    /// Flush written lines to disk.
    pub fn sync(&mut self) -> io::Result<()> {
        match &self.file {
            Some(file) => file.sync_data(),
            None => Ok(()),
        }
    }

    /// Open the file for appending. It must exist: a session file that
    /// vanished is not silently recreated without its header.
    /// The open file, opening it (and checking its last byte) the first time.
    fn open(&mut self) -> io::Result<&mut File> {
        if self.file.is_none() {
            let mut file = OpenOptions::new()
                .append(true)
                .read(true)
                .open(&self.path)?;
            self.needs_separator = !ends_with_newline(&mut file)?;
            let meta = file.metadata()?;
            self.identity = Some(file_identity(&meta));
            self.expected_len = meta.len();
            self.file = Some(file);
        }
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("session file not open"))
    }
}

/// Device and inode of a file (0, 0 where there are none).
fn file_identity(meta: &std::fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        (0, 0)
    }
}

/// After a failed write that could not be undone: does the file now end
/// without a newline (assume so when that cannot be checked)?
fn separator_needed(file: &mut File) -> bool {
    !ends_with_newline(file).unwrap_or(false)
}

/// True when the file is empty or its last byte is a newline.
fn ends_with_newline(file: &mut File) -> io::Result<bool> {
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(true);
    }
    file.seek(SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn appends_whole_lines_to_an_existing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.jsonl");
        fs::write(&path, "").unwrap();
        let mut appender = LineAppender::new(&path);
        appender.append_line("{}").unwrap();
        appender.append_line("[]").unwrap();
        appender.sync().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{}\n[]\n");
    }

    #[test]
    fn a_missing_file_is_an_error_not_recreated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.jsonl");
        let mut appender = LineAppender::new(&path);
        assert!(appender.append_line("{}").is_err());
        assert!(!path.exists());
    }

    #[test]
    fn torn_last_line_is_not_extended() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        fs::write(&path, "{\"ok\":1}\n{\"torn\":").unwrap();
        let mut appender = LineAppender::new(&path);
        appender.append_line("{\"new\":2}").unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"ok\":1}\n{\"torn\":\n{\"new\":2}\n"
        );
    }
}
