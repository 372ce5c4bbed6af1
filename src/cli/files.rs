//! `@file` arguments and piped stdin, combined into the first prompt as pi does.

use std::path::{Path, PathBuf};

use crate::ai::types::ContentBlock;

/// Text and images gathered from `@file` arguments.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct FileInputs {
    /// `<file name="...">` blocks, concatenated.
    pub text: String,
    /// Image attachments.
    pub images: Vec<ContentBlock>,
}

/// An `@file` argument that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileArgError {
    /// No such file.
    NotFound {
        /// The absolute path.
        path: PathBuf,
    },
    /// The file could not be read.
    Unreadable {
        /// The absolute path.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// Neither an image nor UTF-8 text.
    NotText {
        /// The absolute path.
        path: PathBuf,
    },
}

impl std::fmt::Display for FileArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            FileArgError::NotFound { path } => {
                crate::t!("pi.cli.file_not_found", path = path.display().to_string())
            }
            FileArgError::Unreadable { path, reason } => crate::t!(
                "pi.cli.file_unreadable",
                path = path.display().to_string(),
                error = reason.as_str()
            ),
            FileArgError::NotText { path } => {
                crate::t!("pi.cli.file_not_text", path = path.display().to_string())
            }
        };
        f.write_str(&text)
    }
}

impl std::error::Error for FileArgError {}

/// Read `@file` arguments relative to `cwd`. Empty files are skipped; a missing
/// or unreadable file is an error naming its absolute path.
/// Images are scaled to the provider limits when `auto_resize` is set (`images.autoResize`),
/// with a note mapping coordinates back.
pub fn process_file_args(
    files: &[String],
    cwd: &Path,
    auto_resize: bool,
) -> Result<FileInputs, FileArgError> {
    let mut out = FileInputs::default();
    for arg in files {
        let path = crate::tools::paths::resolve_read_path(arg, cwd);
        let shown = path.display();
        let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => FileArgError::NotFound { path: path.clone() },
            _ => FileArgError::Unreadable {
                path: path.clone(),
                reason: crate::i18n::config_words::io_reason(&e),
            },
        })?;
        if bytes.is_empty() {
            continue;
        }
        if let Some(mime) = crate::tools::mime::detect_image_mime_type(&bytes) {
            match crate::tools::image_resize::prepare_attachment(&bytes, mime, auto_resize) {
                Some((image, note)) => {
                    out.images.push(image);
                    let note = note.unwrap_or_default();
                    out.text
                        .push_str(&format!("<file name=\"{shown}\">{note}</file>\n"));
                }
                None => out.text.push_str(&format!(
                    "<file name=\"{shown}\">{}</file>\n",
                    crate::tools::image_resize::OMITTED_NOTE
                )),
            }
            continue;
        }
        let text =
            String::from_utf8(bytes).map_err(|_| FileArgError::NotText { path: path.clone() })?;
        out.text
            .push_str(&format!("<file name=\"{shown}\">\n{text}\n</file>\n"));
    }
    Ok(out)
}

/// Combine piped stdin, file text and the first message into one prompt.
/// Returns the prompt (if any) and the remaining messages.
pub fn build_initial_message(
    stdin: Option<String>,
    files: &FileInputs,
    messages: &[String],
) -> (Option<String>, Vec<String>) {
    let mut parts = Vec::new();
    if let Some(s) = stdin {
        parts.push(s);
    }
    if !files.text.is_empty() {
        parts.push(files.text.clone());
    }
    let mut rest = messages.to_vec();
    if !rest.is_empty() {
        parts.push(rest.remove(0));
    }
    let initial = if parts.is_empty() {
        None
    } else {
        Some(parts.concat())
    };
    (initial, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_wrapped_and_images_attached() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "hello").unwrap();
        std::fs::write(dir.path().join("empty.txt"), "").unwrap();
        let png = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0];
        std::fs::write(dir.path().join("i.png"), png).unwrap();
        let args = ["a.txt", "empty.txt", "i.png"].map(String::from);
        let got = process_file_args(&args, dir.path(), true).unwrap();
        let a = dir.path().join("a.txt");
        let i = dir.path().join("i.png");
        assert_eq!(
            got.text,
            format!(
                "<file name=\"{}\">\nhello\n</file>\n<file name=\"{}\"></file>\n",
                a.display(),
                i.display()
            )
        );
        assert_eq!(got.images.len(), 1);
        let missing = process_file_args(&["nope.txt".into()], dir.path(), true).unwrap_err();
        assert_eq!(
            missing,
            FileArgError::NotFound {
                path: dir.path().join("nope.txt")
            }
        );
        let missing = missing.to_string();
        assert!(missing.starts_with("File not found: ") && missing.ends_with("nope.txt"));
    }

    #[test]
    fn initial_message_joins_stdin_files_and_first_message() {
        let files = FileInputs {
            text: "<file>\n".into(),
            images: vec![],
        };
        let (m, rest) =
            build_initial_message(Some("in\n".into()), &files, &["q1".into(), "q2".into()]);
        assert_eq!(m.as_deref(), Some("in\n<file>\nq1"));
        assert_eq!(rest, vec!["q2"]);
        assert_eq!(
            build_initial_message(None, &FileInputs::default(), &[]).0,
            None
        );
    }
}
