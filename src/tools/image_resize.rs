//! Fitting images into what providers accept inline: at most 2000×2000
//! pixels and 4.5 MB of base64. Larger images are scaled down (Lanczos3)
//! and re-encoded as PNG or JPEG, whichever fits first; if nothing fits the
//! image is shrunk further by quarters.

use std::io::Cursor;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat};

/// Largest width or height sent to a provider.
pub const MAX_DIMENSION: u32 = 2000;
/// Largest base64 payload sent to a provider.
pub const MAX_BASE64_BYTES: usize = 4_718_592; // 4.5 MiB
/// What the model is told in place of an image that cannot be made small enough.
pub const OMITTED_NOTE: &str =
    "[Image omitted: could not be resized below the inline image size limit.]";
/// JPEG qualities tried, best first.
const JPEG_QUALITIES: [u8; 5] = [80, 85, 70, 55, 40];

/// An image ready to send.
#[derive(Debug, Clone, PartialEq)]
pub struct FittedImage {
    /// Base64 data.
    pub data: String,
    /// MIME type of `data`.
    pub mime_type: String,
    /// Original width and height (0×0 when the image could not be decoded).
    pub original: (u32, u32),
    /// Width and height sent.
    pub size: (u32, u32),
    /// True when the image was scaled or re-encoded.
    pub resized: bool,
}

fn base64_len(bytes: usize) -> usize {
    bytes.div_ceil(3) * 4
}

/// How large an image sent to a provider may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// Largest width or height in pixels.
    pub max_dimension: u32,
    /// Largest base64 payload in bytes.
    pub max_base64_bytes: usize,
}

/// The providers' limits: [`MAX_DIMENSION`] and [`MAX_BASE64_BYTES`].
pub const PROVIDER_LIMITS: ImageLimits = ImageLimits {
    max_dimension: MAX_DIMENSION,
    max_base64_bytes: MAX_BASE64_BYTES,
};

/// Fit `bytes` (of `mime_type`) within the providers' limits. `None` when the image is
/// too large and cannot be decoded or shrunk below the byte limit. An image
/// that cannot be decoded but is small enough is sent unchanged.
pub fn fit_image(bytes: &[u8], mime_type: &str) -> Option<FittedImage> {
    fit_image_within(bytes, mime_type, PROVIDER_LIMITS)
}

/// [`fit_image`] within other `limits`.
pub fn fit_image_within(bytes: &[u8], mime_type: &str, limits: ImageLimits) -> Option<FittedImage> {
    let ImageLimits {
        max_dimension: max_dim,
        max_base64_bytes: max_b64,
    } = limits;
    let unchanged = |original, size| FittedImage {
        data: STANDARD.encode(bytes),
        mime_type: mime_type.to_string(),
        original,
        size,
        resized: false,
    };
    let Ok(img) = image::load_from_memory(bytes) else {
        return (base64_len(bytes.len()) < max_b64).then(|| unchanged((0, 0), (0, 0)));
    };
    let (width, height) = (img.width(), img.height());
    if width <= max_dim && height <= max_dim && base64_len(bytes.len()) < max_b64 {
        return Some(unchanged((width, height), (width, height)));
    }
    let (mut w, mut h) = (width, height);
    if w > max_dim {
        h = ((h as f64 * max_dim as f64) / w as f64).round().max(1.0) as u32;
        w = max_dim;
    }
    if h > max_dim {
        w = ((w as f64 * max_dim as f64) / h as f64).round().max(1.0) as u32;
        h = max_dim;
    }
    loop {
        let scaled = img.resize_exact(w, h, FilterType::Lanczos3);
        if let Some((data, mime_type)) = smallest_fitting_encoding(&scaled, max_b64) {
            return Some(FittedImage {
                data,
                mime_type: mime_type.to_string(),
                original: (width, height),
                size: (w, h),
                resized: true,
            });
        }
        if w == 1 && h == 1 {
            return None;
        }
        w = ((w as f64 * 0.75).floor() as u32).max(1);
        h = ((h as f64 * 0.75).floor() as u32).max(1);
    }
}

/// PNG, then JPEG at falling qualities: the first encoding under the limit.
fn smallest_fitting_encoding(img: &DynamicImage, max_b64: usize) -> Option<(String, &'static str)> {
    let fits = |buf: &[u8]| base64_len(buf.len()) < max_b64;
    let mut png = Vec::new();
    if img
        .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .is_ok()
        && fits(&png)
    {
        return Some((STANDARD.encode(png), "image/png"));
    }
    let rgb = DynamicImage::ImageRgb8(img.to_rgb8());
    for quality in JPEG_QUALITIES {
        let mut jpeg = Vec::new();
        if rgb
            .write_with_encoder(JpegEncoder::new_with_quality(&mut jpeg, quality))
            .is_ok()
            && fits(&jpeg)
        {
            return Some((STANDARD.encode(jpeg), "image/jpeg"));
        }
    }
    None
}

/// An image attachment as `images.autoResize` wants it: with `auto_resize`, fitted within
/// the limits plus the note mapping coordinates back when it was scaled; without, the bytes
/// as they are. `None` when the image cannot be made to fit.
pub fn prepare_attachment(
    bytes: &[u8],
    mime_type: &str,
    auto_resize: bool,
) -> Option<(crate::ai::types::ContentBlock, Option<String>)> {
    use crate::ai::types::ContentBlock;
    if !auto_resize {
        return Some((ContentBlock::image(STANDARD.encode(bytes), mime_type), None));
    }
    let fitted = fit_image(bytes, mime_type)?;
    let note = dimension_note(&fitted);
    Some((ContentBlock::image(fitted.data, fitted.mime_type), note))
}

/// The note telling the model how sent coordinates map to the original.
pub fn dimension_note(img: &FittedImage) -> Option<String> {
    if !img.resized || img.size.0 == 0 {
        return None;
    }
    let scale = img.original.0 as f64 / img.size.0 as f64;
    Some(format!(
        "[Image: original {}x{}, displayed at {}x{}. Multiply coordinates by {scale:.2} to map to original image.]",
        img.original.0, img.original.1, img.size.0, img.size.1
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(width, height, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, ((x * y) % 256) as u8])
        });
        let mut out = Vec::new();
        DynamicImage::ImageRgb8(img)
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn small_images_pass_unchanged() {
        let bytes = png(40, 30);
        let fitted = fit_image(&bytes, "image/png").unwrap();
        assert!(!fitted.resized);
        assert_eq!(fitted.size, (40, 30));
        assert_eq!(STANDARD.decode(&fitted.data).unwrap(), bytes);
        assert_eq!(dimension_note(&fitted), None);
    }

    #[test]
    fn wide_images_shrink_to_the_dimension_limit_keeping_aspect() {
        let fitted = fit_image(&png(2400, 600), "image/png").unwrap();
        assert!(fitted.resized);
        assert_eq!(fitted.size, (2000, 500));
        assert_eq!(fitted.original, (2400, 600));
        let decoded = image::load_from_memory(&STANDARD.decode(&fitted.data).unwrap()).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (2000, 500));
        assert_eq!(
            dimension_note(&fitted).unwrap(),
            "[Image: original 2400x600, displayed at 2000x500. Multiply coordinates by 1.20 to map to original image.]"
        );
    }

    #[test]
    fn undecodable_data_passes_when_small_and_is_refused_when_huge() {
        let fake = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        assert!(!fit_image(&fake, "image/png").unwrap().resized);
        let huge = vec![0u8; MAX_BASE64_BYTES];
        assert_eq!(fit_image(&huge, "image/png"), None);
    }
}
