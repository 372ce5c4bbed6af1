//! Content sniffing for the read tool: supported image formats by magic
//! bytes, and a binary-content heuristic.

/// How many leading bytes are inspected.
pub const SNIFF_BYTES: usize = 4100;

/// The MIME type of a supported image (png, jpeg, gif, webp), judged by its
/// leading bytes only; the file name is irrelevant.
pub fn detect_image_mime_type(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if head.len() >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Bytes inspected by [`looks_binary`].
const BINARY_SNIFF_BYTES: usize = 8192;

/// Whether content looks binary: a NUL byte among its first 8 KB.
pub fn looks_binary(content: &[u8]) -> bool {
    content[..content.len().min(BINARY_SNIFF_BYTES)].contains(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_supported_images() {
        assert_eq!(
            detect_image_mime_type(b"\x89PNG\r\n\x1a\n...."),
            Some("image/png")
        );
        assert_eq!(
            detect_image_mime_type(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some("image/jpeg")
        );
        assert_eq!(detect_image_mime_type(b"GIF89a.."), Some("image/gif"));
        assert_eq!(
            detect_image_mime_type(b"RIFF\x10\0\0\0WEBPVP8 "),
            Some("image/webp")
        );
        assert_eq!(detect_image_mime_type(b"%PDF-1.7"), None);
        assert_eq!(detect_image_mime_type(b""), None);
    }

    #[test]
    fn detects_binary_content() {
        assert!(looks_binary(b"abc\0def"));
        assert!(!looks_binary("héllo\n".as_bytes()));
    }
}
