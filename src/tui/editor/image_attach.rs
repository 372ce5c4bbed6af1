//! Image attachments from the message text: an `@path` (or a pasted path)
//! naming an image file is sent with the message as an image block when the
//! model accepts images. With `images.autoResize` a large image is scaled to the provider
//! limits and preceded by a note telling the model the scale.

use std::path::Path;

use crate::ai::types::ContentBlock;
use crate::tools::image_resize::prepare_attachment;
use crate::tools::mime::detect_image_mime_type;

/// File name endings taken as images.
const IMAGE_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "gif", "webp"];
/// Largest image attached, in bytes.
pub const MAX_IMAGE_BYTES: u64 = 20 * 1024 * 1024;

/// Images named in `text` (relative to `cwd`), in order, each once. Words
/// may start with `@` and be quoted; files that are missing, too large or
/// not really images are left alone.
pub fn find_images(text: &str, cwd: &Path, auto_resize: bool) -> Vec<ContentBlock> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_start_matches('@');
        let word = word.trim_matches(|c| c == '\'' || c == '"');
        let lower = word.to_lowercase();
        if !IMAGE_EXTENSIONS
            .iter()
            .any(|ext| lower.ends_with(&format!(".{ext}")))
        {
            continue;
        }
        let path = crate::tools::paths::resolve_read_path(word, cwd);
        if seen.contains(&path) {
            continue;
        }
        let fits =
            std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= MAX_IMAGE_BYTES);
        if !fits {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if let Some(mime) = detect_image_mime_type(&bytes)
            && let Some((image, note)) = prepare_attachment(&bytes, mime, auto_resize)
        {
            out.extend(note.map(ContentBlock::text));
            out.push(image);
            seen.push(path);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[test]
    fn at_paths_and_pasted_paths_of_real_images_are_attached() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("shot.png"), PNG).unwrap();
        std::fs::write(dir.path().join("fake.png"), "not an image").unwrap();
        let absolute = dir.path().join("shot.png");
        let text = format!(
            "look at @shot.png and '{}' and @fake.png and @missing.jpg",
            absolute.display()
        );
        let images = find_images(&text, dir.path(), true);
        assert_eq!(
            images.len(),
            1,
            "the same file once; fakes and missing skipped"
        );
        let ContentBlock::Image(image) = &images[0] else {
            panic!("an image block")
        };
        assert_eq!(image.mime_type, "image/png");
        assert!(find_images("no images here.", dir.path(), true).is_empty());
    }

    #[test]
    fn a_large_image_is_scaled_with_a_note_unless_resizing_is_off() {
        let dir = tempfile::tempdir().unwrap();
        let big = image::DynamicImage::new_rgb8(3000, 1500);
        big.save(dir.path().join("big.png")).unwrap();
        let blocks = find_images("see @big.png", dir.path(), true);
        let ContentBlock::Text(note) = &blocks[0] else {
            panic!("a note first: {blocks:?}")
        };
        assert!(
            note.text
                .contains("original 3000x1500, displayed at 2000x1000")
        );
        assert!(note.text.contains("Multiply coordinates by 1.50"));
        assert!(matches!(&blocks[1], ContentBlock::Image(_)));
        let raw = find_images("see @big.png", dir.path(), false);
        assert_eq!(raw.len(), 1, "no note when the image is sent as it is");
    }
}
