//! Append-only line writer for a session file: whole lines only, a torn
//! last line (from a crash or a failed write) is never glued to a new one.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::migrate::sync_dir_of;

/// Appends JSON lines to one file, opening (and creating) it on first use.
#[derive(Debug)]
pub struct LineAppender {
    path: PathBuf,
    file: Option<File>,
    /// The file does not end with a newline, so the next line needs one first.
    needs_separator: bool,
    /// The file was created by this appender and its folder not yet synced.
    created: bool,
}

impl LineAppender {
    /// An appender for `path`; nothing is touched until the first append.
    pub fn new(path: &Path) -> Self {
        LineAppender {
            path: path.to_path_buf(),
            file: None,
            needs_separator: false,
            created: false,
        }
    }

    /// Append one line (a newline is added). On failure the line may be
    /// partly written; the next append then starts on a fresh line.
    pub fn append_line(&mut self, line: &str) -> io::Result<()> {
        self.open()?;
        let mut buffer = Vec::with_capacity(line.len() + 2);
        if self.needs_separator {
            buffer.push(b'\n');
        }
        buffer.extend_from_slice(line.as_bytes());
        buffer.push(b'\n');
        let file = self.file.as_mut().expect("opened above");
        match file.write_all(&buffer) {
            Ok(()) => {
                self.needs_separator = false;
                Ok(())
            }
            Err(err) => {
                self.needs_separator = true;
                Err(err)
            }
        }
    }

    /// Flush written lines to disk (and, for a new file, its folder entry).
    pub fn sync(&mut self) -> io::Result<()> {
        if let Some(file) = &self.file {
            file.sync_data()?;
            if self.created {
                sync_dir_of(&self.path);
                self.created = false;
            }
        }
        Ok(())
    }

    fn open(&mut self) -> io::Result<()> {
        if self.file.is_some() {
            return Ok(());
        }
        if let Some(dir) = self.path.parent()
            && !dir.as_os_str().is_empty()
        {
            fs::create_dir_all(dir)?;
        }
        let existed = self.path.exists();
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(&self.path)?;
        self.needs_separator = !ends_with_newline(&mut file)?;
        self.created = !existed;
        self.file = Some(file);
        Ok(())
    }
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

    #[test]
    fn creates_file_and_appends_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b.jsonl");
        let mut appender = LineAppender::new(&path);
        assert!(!path.exists());
        appender.append_line("{}").unwrap();
        appender.append_line("[]").unwrap();
        appender.sync().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{}\n[]\n");
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
