//! `@file` arguments and piped stdin, combined into the first prompt as pi does.

use crate::t;

use std::path::Path;

use crate::ai::types::ContentBlock;

/// Text and images gathered from `@file` arguments.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct FileInputs {
    /// `<file name="...">` blocks, concatenated.
    pub text: String,
    /// Image attachments.
    pub images: Vec<ContentBlock>,
}

/// Read `@file` arguments relative to `cwd`. Empty files are skipped; a missing
/// or unreadable file is an error naming its absolute path.
/// Images are scaled to the provider limits when `auto_resize` is set (`images.autoResize`),
/// with a note mapping coordinates back.
pub fn process_file_args(
    files: &[String],
    cwd: &Path,
    auto_resize: bool,
) -> Result<FileInputs, String> {
    let mut out = FileInputs::default();
    for arg in files {
        let path = crate::tools::paths::resolve_read_path(arg, cwd);
        let shown = path.display();
        let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => t!("pi.cli.file_not_found", path = shown.to_string()),
            _ => t!(
                "pi.cli.file_unreadable",
                path = shown.to_string(),
                error = e.to_string()
            ),
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
        let text = String::from_utf8(bytes)
            .map_err(|_| t!("pi.cli.file_not_text", path = shown.to_string()))?;
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
