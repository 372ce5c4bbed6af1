//! Images for the model: converting to PNG (as Kitty needs), fitting within size limits
//! (scaled down past the largest dimension, re-encoded smaller past the byte limit, left
//! alone within both, JPEG too), and the note that maps coordinates back to the original.
//! orig-file: packages/coding-agent/test/image-processing.test.ts

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use pi::tools::image_resize::{FittedImage, ImageLimits, dimension_note, fit_image_within};
use pi::ui_kit::terminal_image::as_png_base64;

/// A 2×2 red PNG.
const TINY_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACAQMAAABIeJ9nAAAAIGNIUk0AAHomAACAhAAA+gAAAIDoAAB1MAAA6mAAADqYAAAXcJy6UTwAAAAGUExURf8AAP///0EdNBEAAAABYktHRAH/Ai3eAAAAB3RJTUUH6gEOADM5Ddoh/wAAAAxJREFUCNdjYGBgAAAABAABJzQnCgAAACV0RVh0ZGF0ZTpjcmVhdGUAMjAyNi0wMS0xNFQwMDo1MTo1NyswMDowMOnKzHgAAAAldEVYdGRhdGU6bW9kaWZ5ADIwMjYtMDEtMTRUMDA6NTE6NTcrMDA6MDCYl3TEAAAAKHRFWHRkYXRlOnRpbWVzdGFtcAAyMDI2LTAxLTE0VDAwOjUxOjU3KzAwOjAwz4JVGwAAAABJRU5ErkJggg==";
/// A 2×2 blue JPEG.
const TINY_JPEG: &str = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAACAAIDAREAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAVAQEBAAAAAAAAAAAAAAAAAAAGCf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AD3VTB3/2Q==";
/// A 100×100 grey PNG.
const MEDIUM_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAGQAAABkCAAAAABVicqIAAAAAmJLR0QA/4ePzL8AAAAHdElNRQfqAQ4AMzkN2iH/AAAAP0lEQVRo3u3NQQEAAAQEMASXXYrz2gqst/Lm4ZBIJBKJRCKRSCQSiUQikUgkEolEIpFIJBKJRCKRSCQSiSTsAP1cAUZeKtreAAAAJXRFWHRkYXRlOmNyZWF0ZQAyMDI2LTAxLTE0VDAwOjUxOjU3KzAwOjAw6crMeAAAACV0RVh0ZGF0ZTptb2RpZnkAMjAyNi0wMS0xNFQwMDo1MTo1NyswMDowMJiXdMQAAAAodEVYdGRhdGU6dGltZXN0YW1wADIwMjYtMDEtMTRUMDA6NTE6NTcrMDA6MDDPglUbAAAAAElFTkSuQmCC";
/// A 200×200 coloured PNG.
const LARGE_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAMgAAADIEAIAAAByquWKAAAAIGNIUk0AAHomAACAhAAA+gAAAIDoAAB1MAAA6mAAADqYAAAXcJy6UTwAAAAGYktHRP///////wlY99wAAAAHdElNRQfqAQ4AMzqU03BFAAAEEElEQVR42u3dvWqUURSF4XXMRAyIhSAWQvwnWtjaWusFx9bW1kKD/wELESxEiBjDjJdwysOC57mCXW32+zGcGbtdACpsdi+T8Xz1GABzm91xMl6sHgNgblzcT/Y+rh4DYG6cv0/2H64eA2BOEgI1fHQHaoyzbXIwVo8BMCcJgRqSEKgxft9Lrn5aPQbA3Ph1klw7Wj0GwJwkBGpYWECN8fMiub63egyAORcWUMPCAmqMH3eTG59XjwEwN76/S24+Wj0GwJwkBGpYWECN8e1fcmuzegyAORcWUMPCAmqM09vJ4dfVYwDMjS9vkzuPV48BMCcJgRqeSAZqjA/nyYP91WMAzElCoIYkBGqMk8Pk6HT1GABzm+3L5JIkBApIQqCGj+5AjfHmb/Lk8uoxAOYkIVBDEgI1LCygxmZ7nFyShEABFxZQw8ICaozXf5KnV1aPATDnwgJqWFhADQsLqOFnDUANFxZQw8ICaoxXZ8mzg9VjAMy5sIAaFhZQw3tYQA1/QgHUkIRADUkI1JCEQA1JCNSQhEANFxZQwzcsoIYkBGpIQqCGJARqSEKghiQEalhYQA1/QgHUcGEBNSwsoIYkBGq4sIAaFhZQw8ICaviGBdRwYQE1LCyghiQEariwgBoWFlDDe1hADS+OAjUkIVBDEgI1JCFQQxICNSQhUMOFBdTwDQuoIQmBGpIQqCEJgRqSEKghCYEaFhZQw4ujQA0XFlDDwgJqSEKghgsLqGFhATUsLKCGb1hADRcWUMPCAmpIQqCGCwuoYWEBNbyHBdTw4ihQQxICNSQhUEMSAjUkIVBDEgI1XFhADd+wgBqSEKghCYEakhCoIQmBGpIQqGFhATW8OArUcGEBNSwsoIYkBGq4sIAaFhZQw8ICaviGBdRwYQE1LCyghiQEariwgBoWFlDDe1hADS+OAjUkIVBDEgI1JCFQQxICNSQhUMOFBdTwDQuoIQmBGpIQqCEJgRqSEKghCYEa49lB8ups9RgAc14cBWpIQqCGhQXUkIRADRcWUMPCAmqMp1eS139WjwEw5xsWUEMSAjUsLKCGJARquLCAGhYWUGM8uZy8+bt6DIA5L44CNSQhUMMTyUCNcXSanByuHgNgThICNSQhUGM82E8+nK8eA2DOzxqAGpIQqDHuPE6+vF09BsDcOPyanN5ePQbAnCQEavgdFlBj3Nok3/6tHgNgzoujQA1JCNQYNx8l39+tHgNgbtz4nPy4u3oMgDlJCNSwsIAa4/pe8vNi9RgAc37WANSQhECNce0o+XWyegyAuXH1U/L73uoxAOYkIVDDwgJqjIORnG1XjwEw508ogBqSEKgx9h8m5+9XjwEwN/Y+Jhf3V48BMCcJgRpjPE+2x6vHAJgbSbLbrR4DYO4/GqiSgXN+ksgAAAAldEVYdGRhdGU6Y3JlYXRlADIwMjYtMDEtMTRUMDA6NTE6NTcrMDA6MDDpysx4AAAAJXRFWHRkYXRlOm1vZGlmeQAyMDI2LTAxLTE0VDAwOjUxOjU3KzAwOjAwmJd0xAAAACh0RVh0ZGF0ZTp0aW1lc3RhbXAAMjAyNi0wMS0xNFQwMDo1MTo1NyswMDowMM+CVRsAAAAASUVORK5CYII=";

fn bytes(b64: &str) -> Vec<u8> {
    STANDARD.decode(b64).unwrap()
}

fn limits(max_dimension: u32, max_bytes: usize) -> ImageLimits {
    ImageLimits {
        max_dimension,
        max_base64_bytes: max_bytes,
    }
}

/// orig: convertToPng › should return original data for PNG input
#[test]
fn a_png_stays_as_it_is() {
    assert_eq!(as_png_base64(TINY_PNG).as_deref(), Some(TINY_PNG));
}

/// orig: convertToPng › should convert JPEG to PNG
#[test]
fn a_jpeg_becomes_a_png() {
    let png = as_png_base64(TINY_JPEG).unwrap();
    assert_ne!(png, TINY_JPEG);
    assert_eq!(&bytes(&png)[..4], b"\x89PNG");
    assert!(as_png_base64("not base64 at all!").is_none());
}

/// orig: resizeImage › should return original image if within limits
#[test]
fn within_the_limits_nothing_changes() {
    let fitted = fit_image_within(&bytes(TINY_PNG), "image/png", limits(100, 1024 * 1024)).unwrap();
    assert!(!fitted.resized);
    assert_eq!(fitted.data, TINY_PNG);
    assert_eq!((fitted.original, fitted.size), ((2, 2), (2, 2)));
}

/// orig: resizeImage › should resize image exceeding dimension limits
#[test]
fn past_the_largest_dimension_it_is_scaled() {
    let fitted =
        fit_image_within(&bytes(MEDIUM_PNG), "image/png", limits(50, 1024 * 1024)).unwrap();
    assert!(fitted.resized);
    assert_eq!(fitted.original, (100, 100));
    assert!(
        fitted.size.0 <= 50 && fitted.size.1 <= 50,
        "{:?}",
        fitted.size
    );
}

/// orig: resizeImage › should resize image exceeding byte limit
#[test]
fn past_the_byte_limit_it_gets_smaller() {
    let original = bytes(LARGE_PNG);
    // In base64 the original is about 4/3 of its size; allow half of that.
    let max = original.len() * 4 / 3 / 2;
    let fitted = fit_image_within(&original, "image/png", limits(2000, max)).unwrap();
    assert!(fitted.resized);
    assert!(bytes(&fitted.data).len() < original.len());
    assert!(fitted.data.len() < max);
}

/// orig: resizeImage › should handle JPEG input
#[test]
fn a_jpeg_within_the_limits() {
    let fitted =
        fit_image_within(&bytes(TINY_JPEG), "image/jpeg", limits(100, 1024 * 1024)).unwrap();
    assert!(!fitted.resized);
    assert_eq!(fitted.original, (2, 2));
    assert_eq!(fitted.mime_type, "image/jpeg");
}

fn fitted(original: (u32, u32), size: (u32, u32), resized: bool) -> FittedImage {
    FittedImage {
        data: String::new(),
        mime_type: "image/png".into(),
        original,
        size,
        resized,
    }
}

/// orig: formatDimensionNote › should return undefined for non-resized images
#[test]
fn no_note_for_an_image_left_alone() {
    assert_eq!(dimension_note(&fitted((100, 100), (100, 100), false)), None);
}

/// orig: formatDimensionNote › should return formatted note for resized images
#[test]
fn the_note_for_a_scaled_image() {
    let note = dimension_note(&fitted((2000, 1000), (1000, 500), true)).unwrap();
    assert!(note.contains("original 2000x1000"), "{note}");
    assert!(note.contains("displayed at 1000x500"), "{note}");
    assert!(note.contains("2.00"), "{note}");
}
