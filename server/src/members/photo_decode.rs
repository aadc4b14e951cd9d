//! Turning an uploaded file into the two renditions we store. Every upload is decoded and
//! encoded anew as JPEG (profile photos also as WebP, which browsers that take it are sent): EXIF (location, camera serials), comments, trailing data and anything
//! hidden in the original go no further than this function. [`PhotoDecoder`] runs it off the
//! async threads, a bounded number at a time.

use std::io::Cursor;
use std::sync::Arc;

use domain::photo::{check_dimensions, UploadError, FULL_SIDE, MAX_PIXELS, MAX_SIDE, THUMB_HEIGHT, THUMB_WIDTH};
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits};

/// The re-encoded photo and its 3:4 thumbnail.
#[derive(Debug)]
pub struct Renditions {
    pub full: Vec<u8>,
    pub thumb: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// The picture's difference hash (`domain::moderation::difference_hash`), for a classifier
    /// that knows photos by it.
    pub hash: u64,
    /// The same two as WebP, when asked for (profile photos; chat photos are JPEG only).
    pub webp: Option<WebpRenditions>,
}

/// A photo and its thumbnail as lossy WebP: about a third smaller than the JPEG at the same look.
#[derive(Debug)]
pub struct WebpRenditions {
    pub full: Vec<u8>,
    pub thumb: Vec<u8>,
}

const JPEG_QUALITY: u8 = 85;
const WEBP_QUALITY: f32 = 80.0;

/// Decodes uploads (profile and chat photos) at most `parallel` at a time. A decode is CPU
/// work and a picture near the pixel limit holds a few hundred MB while it is turned into
/// renditions, so more decodes at once than cores add memory, not speed: the others wait
/// their turn (a waiting upload holds only its file, at most `max_bytes`).
#[derive(Clone, Debug)]
pub struct PhotoDecoder {
    permits: Arc<tokio::sync::Semaphore>,
    max_bytes: usize,
}

impl PhotoDecoder {
    /// `parallel` 0 means one per core.
    pub fn new(max_bytes: usize, parallel: usize) -> PhotoDecoder {
        let parallel = if parallel == 0 { std::thread::available_parallelism().map_or(2, |n| n.get()) } else { parallel };
        PhotoDecoder { permits: Arc::new(tokio::sync::Semaphore::new(parallel)), max_bytes }
    }

    /// The largest file accepted.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// Decodes and re-encodes one upload when a decode slot is free. The slot goes with the
    /// blocking work: a request given up while its picture is decoded keeps the slot until the
    /// decode ends, so the bound holds.
    pub async fn decode(&self, bytes: Vec<u8>) -> Result<Renditions, crate::AppError> {
        self.run(bytes, |bytes, max| decode_upload(bytes, max, false)).await
    }

    /// As [`PhotoDecoder::decode`], with the WebP renditions too.
    pub async fn decode_with_webp(&self, bytes: Vec<u8>) -> Result<Renditions, crate::AppError> {
        self.run(bytes, |bytes, max| decode_upload(bytes, max, true)).await
    }

    /// Only the WebP renditions of a picture (a stored photo that has none yet).
    pub async fn webp_copies(&self, bytes: Vec<u8>) -> Result<WebpRenditions, crate::AppError> {
        self.run(bytes, webp_copies).await
    }

    async fn run<T: Send + 'static>(&self, bytes: Vec<u8>, work: fn(&[u8], usize) -> Result<T, UploadError>) -> Result<T, crate::AppError> {
        let permit = self.permits.clone().acquire_owned().await.map_err(|_| crate::AppError::Internal("the photo decoder is closed".into()))?;
        let max = self.max_bytes;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&bytes, max)
        })
        .await
        .map_err(|e| crate::AppError::Internal(format!("photo decoding stopped: {e}")))?
        .map_err(|e| crate::AppError::from(e.code()))
    }
}

/// Decodes an upload (JPEG, PNG or WebP, complete, within the size and pixel limits), turned
/// the way its EXIF says. Nothing else of the file goes further.
fn read_picture(bytes: &[u8], max_bytes: usize) -> Result<DynamicImage, UploadError> {
    if bytes.is_empty() {
        return Err(UploadError::NoFile);
    }
    if bytes.len() > max_bytes {
        return Err(UploadError::TooLarge);
    }
    let mut reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|_| UploadError::NotAnImage)?;
    let format = reader.format();
    if !matches!(format, Some(ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP)) {
        return Err(UploadError::NotAnImage);
    }
    if !complete(format, bytes) {
        return Err(UploadError::Unreadable);
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    // Room for the decoded picture at 4 bytes a pixel and the working copies.
    limits.max_alloc = Some(MAX_PIXELS * 4 * 2);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(classify)?;
    let (width, height) = decoder.dimensions();
    check_dimensions(width, height)?;
    let orientation = decoder.orientation().ok();
    let mut picture = DynamicImage::from_decoder(decoder).map_err(classify)?;
    // Phones store the picture sideways and say so in EXIF; turn it before EXIF goes.
    if let Some(o) = orientation {
        picture.apply_orientation(o);
    }
    Ok(picture)
}

pub fn decode_upload(bytes: &[u8], max_bytes: usize, with_webp: bool) -> Result<Renditions, UploadError> {
    let (full, thumb) = stored_pictures(bytes, max_bytes)?;
    let webp = if with_webp { Some(webp_renditions(&full, &thumb)?) } else { None };
    Ok(Renditions { width: full.width(), height: full.height(), hash: picture_hash(&full), full: jpeg(&full)?, thumb: jpeg(&thumb)?, webp })
}

/// A picture's difference hash, from a 9×8 grey copy of it.
pub fn picture_hash(picture: &DynamicImage) -> u64 {
    let grey = picture.resize_exact(9, 8, FilterType::Triangle).to_luma8();
    let mut cells = [0u8; 72];
    cells.copy_from_slice(&grey.as_raw()[..72]);
    domain::moderation::difference_hash(&cells)
}

/// The difference hash of an uploaded picture as a chat photo's is taken (after the same
/// scaling), for building a list of known photos (`vonk photo-hash`).
pub fn upload_hash(bytes: &[u8], max_bytes: usize) -> Result<u64, UploadError> {
    let (full, _) = stored_pictures(bytes, max_bytes)?;
    Ok(picture_hash(&full))
}

/// The WebP renditions alone, as [`decode_upload`] would make them.
pub fn webp_copies(bytes: &[u8], max_bytes: usize) -> Result<WebpRenditions, UploadError> {
    let (full, thumb) = stored_pictures(bytes, max_bytes)?;
    webp_renditions(&full, &thumb)
}

fn webp_renditions(full: &DynamicImage, thumb: &DynamicImage) -> Result<WebpRenditions, UploadError> {
    Ok(WebpRenditions { full: webp(full)?, thumb: webp(thumb)? })
}

/// The picture as stored (at most FULL_SIDE, flattened) and its 3:4 thumbnail.
fn stored_pictures(bytes: &[u8], max_bytes: usize) -> Result<(DynamicImage, DynamicImage), UploadError> {
    let picture = read_picture(bytes, max_bytes)?;
    // Scaled down before the transparent parts are flattened: the blend then touches at most
    // FULL_SIDE² pixels and no full-size copy is made.
    // A picture more than twice that size is first averaged down to twice it: the filter's
    // working copy (4-byte floats per channel) of a full-size picture would weigh more than
    // the picture itself.
    let picture = if picture.width() > 2 * FULL_SIDE || picture.height() > 2 * FULL_SIDE { picture.thumbnail(2 * FULL_SIDE, 2 * FULL_SIDE) } else { picture };
    let picture =
        if picture.width() > FULL_SIDE || picture.height() > FULL_SIDE { picture.resize(FULL_SIDE, FULL_SIDE, FilterType::CatmullRom) } else { picture };
    let full = flatten(picture);
    let thumb = full.resize_to_fill(THUMB_WIDTH, THUMB_HEIGHT, FilterType::Triangle);
    Ok((full, thumb))
}

/// The largest logo kept, in pixels: wide enough for a sharp header on high-density screens.
pub const LOGO_MAX_WIDTH: u32 = 480;
pub const LOGO_MAX_HEIGHT: u32 = 160;

/// A site's logo as stored: a new PNG (transparency kept) at most 480 × 160.
#[derive(Debug)]
pub struct LogoPng {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Decodes an uploaded logo and writes it anew as PNG, scaled down to fit 480 × 160.
pub fn decode_logo(bytes: &[u8], max_bytes: usize) -> Result<LogoPng, UploadError> {
    let picture = read_picture(bytes, max_bytes)?;
    let picture = if picture.width() > LOGO_MAX_WIDTH || picture.height() > LOGO_MAX_HEIGHT {
        let picture = if picture.width() > 4 * LOGO_MAX_WIDTH || picture.height() > 4 * LOGO_MAX_HEIGHT {
            picture.thumbnail(4 * LOGO_MAX_WIDTH, 4 * LOGO_MAX_HEIGHT)
        } else {
            picture
        };
        picture.resize(LOGO_MAX_WIDTH, LOGO_MAX_HEIGHT, FilterType::CatmullRom)
    } else {
        picture
    };
    let picture = DynamicImage::ImageRgba8(picture.into_rgba8());
    let mut png = Vec::new();
    picture.write_to(&mut Cursor::new(&mut png), ImageFormat::Png).map_err(|_| UploadError::Unreadable)?;
    Ok(LogoPng { width: picture.width(), height: picture.height(), png })
}

fn classify(e: ImageError) -> UploadError {
    match e {
        ImageError::Limits(_) => UploadError::TooManyPixels,
        ImageError::Unsupported(_) => UploadError::NotAnImage,
        _ => UploadError::Unreadable,
    }
}

/// Transparent parts become white; JPEG has no alpha.
fn flatten(picture: DynamicImage) -> DynamicImage {
    if !picture.color().has_alpha() {
        return DynamicImage::ImageRgb8(picture.into_rgb8());
    }
    let rgba = picture.into_rgba8();
    let mut rgb = image::RgbImage::new(rgba.width(), rgba.height());
    for (out, px) in rgb.pixels_mut().zip(rgba.pixels()) {
        let a = u16::from(px[3]);
        for c in 0..3 {
            out[c] = ((u16::from(px[c]) * a + 255 * (255 - a)) / 255) as u8;
        }
    }
    DynamicImage::ImageRgb8(rgb)
}

fn jpeg(picture: &DynamicImage) -> Result<Vec<u8>, UploadError> {
    let mut out = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
    picture.write_with_encoder(encoder).map_err(|_| UploadError::Unreadable)?;
    Ok(out)
}

/// Lossy WebP of an opaque picture (flattened before, as for JPEG).
pub fn webp(picture: &DynamicImage) -> Result<Vec<u8>, UploadError> {
    let rgb = picture.to_rgb8();
    let mut config = webp::WebPConfig::new().map_err(|_| UploadError::Unreadable)?;
    config.quality = WEBP_QUALITY;
    config.method = 4;
    webp::Encoder::from_rgb(rgb.as_raw(), rgb.width(), rgb.height()).encode_advanced(&config).map(|m| m.to_vec()).map_err(|_| UploadError::Unreadable)
}

/// Decoders fill a cut-off picture with grey rather than fail; a file that stops before its
/// end marker is refused here instead.
fn complete(format: Option<ImageFormat>, bytes: &[u8]) -> bool {
    match format {
        Some(ImageFormat::Jpeg) => jpeg_has_end(bytes),
        Some(ImageFormat::WebP) => bytes.len() >= 12 && u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize + 8 <= bytes.len(),
        // PNG's decoder checks its chunks and fails on a short file by itself.
        _ => true,
    }
}

/// Walks the header segments to the first scan, then looks for the end-of-image marker.
fn jpeg_has_end(bytes: &[u8]) -> bool {
    let mut i = 2;
    while i + 4 <= bytes.len() {
        if bytes[i] != 0xFF {
            return false;
        }
        let marker = bytes[i + 1];
        if marker == 0xFF {
            i += 1;
            continue;
        }
        let len = u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]) as usize;
        if marker == 0xDA {
            let scan = i + 2 + len;
            return scan < bytes.len() && bytes[scan..].windows(2).any(|w| w == [0xFF, 0xD9]);
        }
        i += 2 + len;
    }
    false
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A gradient picture in the given format.
    pub fn sample(format: ImageFormat, width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_fn(width, height, |x, y| image::Rgba([(x * 7) as u8, (y * 5) as u8, 128, 255]));
        let mut out = Cursor::new(Vec::new());
        let picture =
            if format == ImageFormat::Jpeg { DynamicImage::ImageRgb8(DynamicImage::ImageRgba8(img).into_rgb8()) } else { DynamicImage::ImageRgba8(img) };
        picture.write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    #[test]
    fn every_accepted_format_becomes_jpeg() {
        for format in [ImageFormat::Jpeg, ImageFormat::Png, ImageFormat::WebP] {
            let r = decode_upload(&sample(format, 300, 200), 1 << 20, false).unwrap_or_else(|e| panic!("{format:?}: {e:?}"));
            assert_eq!((r.width, r.height), (300, 200));
            assert_eq!(&r.full[..2], &[0xFF, 0xD8]);
            let thumb = image::load_from_memory(&r.thumb).unwrap();
            assert_eq!((thumb.width(), thumb.height()), (THUMB_WIDTH, THUMB_HEIGHT));
        }
    }

    #[test]
    fn profile_photos_come_as_webp_too_and_smaller() {
        // A portrait-like picture: smooth shading with some detail, as photos have.
        let img = image::RgbImage::from_fn(900, 1200, |x, y| {
            let (fx, fy) = (x as f32 / 900.0, y as f32 / 1200.0);
            let wave = ((fx * 40.0).sin() * (fy * 30.0).cos() * 20.0) as i32;
            image::Rgb([(180.0 * fx) as u8 + 40, (120 + wave).clamp(0, 255) as u8, (200.0 * (1.0 - fy)) as u8 + 20])
        });
        let mut png = Cursor::new(Vec::new());
        DynamicImage::ImageRgb8(img).write_to(&mut png, ImageFormat::Png).unwrap();
        let r = decode_upload(png.get_ref(), 10 << 20, true).unwrap();
        let webp = r.webp.expect("asked for");
        for (jpeg, webp) in [(&r.full, &webp.full), (&r.thumb, &webp.thumb)] {
            assert_eq!(&webp[..4], b"RIFF");
            assert_eq!(&webp[8..12], b"WEBP");
            assert!(webp.len() < jpeg.len(), "WebP {} bytes, JPEG {} bytes", webp.len(), jpeg.len());
        }
        let thumb = image::load_from_memory_with_format(&webp.thumb, ImageFormat::WebP).unwrap();
        assert_eq!((thumb.width(), thumb.height()), (THUMB_WIDTH, THUMB_HEIGHT));
        let full = image::load_from_memory_with_format(&webp.full, ImageFormat::WebP).unwrap();
        assert_eq!((full.width(), full.height()), (r.width, r.height));
        // Chat photos are sent as JPEG only.
        assert!(decode_upload(png.get_ref(), 10 << 20, false).unwrap().webp.is_none());
    }

    #[test]
    fn large_pictures_are_scaled_down() {
        let r = decode_upload(&sample(ImageFormat::Png, 2000, 1000), 10 << 20, false).unwrap();
        assert_eq!((r.width, r.height), (1600, 800));
    }

    #[test]
    fn truncated_jpeg_is_refused() {
        let jpeg = sample(ImageFormat::Jpeg, 200, 200);
        assert!(jpeg_has_end(&jpeg));
        assert_eq!(decode_upload(&jpeg[..jpeg.len() / 2], 1 << 20, false).unwrap_err(), UploadError::Unreadable);
    }

    #[test]
    fn other_files_are_refused() {
        assert_eq!(decode_upload(b"%PDF-1.4 hello", 1 << 20, false).unwrap_err(), UploadError::NotAnImage);
        assert_eq!(decode_upload(b"", 1 << 20, false).unwrap_err(), UploadError::NoFile);
        assert_eq!(decode_upload(&sample(ImageFormat::Png, 100, 100), 10, false).unwrap_err(), UploadError::TooLarge);
    }
}
