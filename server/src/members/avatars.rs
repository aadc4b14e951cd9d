//! Portrait-like avatars drawn by our own code for demo members (no downloads): a background
//! gradient, shoulders, neck, face, hair, eyes and mouth, softened a little, saved as JPEG.

use image::{imageops, ImageBuffer, Rgb, RgbImage};

/// A small deterministic random source (SplitMix64), so a seed gives the same picture.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// In `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

const SKIN: [[u8; 3]; 8] = [[255, 224, 196], [241, 194, 160], [224, 172, 135], [198, 134, 95], [161, 102, 68], [121, 77, 52], [250, 211, 176], [232, 183, 148]];
const HAIR: [[u8; 3]; 7] = [[35, 25, 20], [70, 45, 30], [110, 70, 40], [190, 150, 90], [225, 195, 130], [150, 60, 30], [150, 150, 150]];
const SHIRT: [[u8; 3]; 8] = [[139, 13, 26], [40, 70, 120], [30, 110, 90], [230, 230, 230], [50, 50, 60], [200, 120, 40], [120, 60, 140], [220, 80, 110]];

fn ellipse(img: &mut RgbImage, cx: f32, cy: f32, rx: f32, ry: f32, colour: [u8; 3]) {
    let (w, h) = img.dimensions();
    let y0 = (cy - ry).max(0.0) as u32;
    let y1 = ((cy + ry) as u32).min(h - 1);
    for y in y0..=y1 {
        let dy = (y as f32 - cy) / ry;
        let half = rx * (1.0 - dy * dy).max(0.0).sqrt();
        let x0 = (cx - half).max(0.0) as u32;
        let x1 = ((cx + half) as u32).min(w - 1);
        for x in x0..=x1 {
            img.put_pixel(x, y, Rgb(colour));
        }
    }
}

fn shade(c: [u8; 3], f: f32) -> [u8; 3] {
    c.map(|v| (v as f32 * f).clamp(0.0, 255.0) as u8)
}

/// Draws one portrait of `size`×`size` pixels. `feminine` picks longer hair more often.
pub fn portrait(seed: u64, feminine: bool, size: u32) -> RgbImage {
    let mut rng = Rng::new(seed);
    let hue_a = [rng.below(80) as u8 + 150, rng.below(80) as u8 + 150, rng.below(80) as u8 + 160];
    let hue_b = shade(hue_a, 0.75);
    let mut img: RgbImage = ImageBuffer::from_fn(size, size, |_, y| {
        let t = y as f32 / size as f32;
        Rgb([0, 1, 2].map(|i| (hue_a[i] as f32 * (1.0 - t) + hue_b[i] as f32 * t) as u8))
    });
    let s = size as f32 / 320.0;
    let skin = *rng.pick(&SKIN);
    let hair = *rng.pick(&HAIR);
    let shirt = *rng.pick(&SHIRT);
    let long_hair = if feminine { rng.below(10) < 8 } else { rng.below(10) < 1 };
    let face_w = (56.0 + rng.unit() * 12.0) * s;
    let face_h = (72.0 + rng.unit() * 10.0) * s;
    let cx = 160.0 * s + (rng.unit() - 0.5) * 16.0 * s;
    let cy = 150.0 * s;
    if long_hair {
        ellipse(&mut img, cx, cy + 40.0 * s, face_w * 1.45, face_h * 1.5, shade(hair, 0.9));
    }
    // Shoulders and neck.
    ellipse(&mut img, 160.0 * s, 335.0 * s, 135.0 * s, 95.0 * s, shirt);
    ellipse(&mut img, cx, cy + face_h * 0.95, face_w * 0.45, face_h * 0.55, shade(skin, 0.88));
    // Hair cap, then the face over its lower part.
    ellipse(&mut img, cx, cy - face_h * 0.22, face_w * 1.12, face_h * 0.92, hair);
    ellipse(&mut img, cx, cy + face_h * 0.08, face_w, face_h * 0.92, skin);
    if !long_hair && !feminine && rng.below(3) == 0 {
        // A beard.
        ellipse(&mut img, cx, cy + face_h * 0.55, face_w * 0.8, face_h * 0.42, shade(hair, 1.05));
        ellipse(&mut img, cx, cy + face_h * 0.38, face_w * 0.55, face_h * 0.18, skin);
    }
    // Fringe.
    ellipse(&mut img, cx - face_w * 0.2, cy - face_h * 0.62, face_w * 0.85, face_h * 0.32, hair);
    // Eyes, brows, mouth.
    let eye_y = cy + face_h * 0.05;
    let eye_dx = face_w * 0.4;
    for dx in [-eye_dx, eye_dx] {
        ellipse(&mut img, cx + dx, eye_y, 8.0 * s, 5.5 * s, [250, 250, 250]);
        ellipse(&mut img, cx + dx, eye_y, 4.2 * s, 4.2 * s, [45, 35, 30]);
        ellipse(&mut img, cx + dx, eye_y - 13.0 * s, 11.0 * s, 2.6 * s, shade(hair, 0.8));
    }
    let lips = if feminine { [190, 70, 85] } else { shade(skin, 0.7) };
    ellipse(&mut img, cx, cy + face_h * 0.52, face_w * 0.32, 5.0 * s, lips);
    ellipse(&mut img, cx, cy + face_h * 0.28, 4.0 * s, 7.0 * s, shade(skin, 0.9));
    imageops::blur(&img, 1.1 * s)
}

/// JPEG bytes of a portrait.
pub fn portrait_jpeg(seed: u64, feminine: bool, size: u32) -> Vec<u8> {
    jpeg(&portrait(seed, feminine, size))
}

/// The same portrait as lossy WebP (what browsers that take WebP are sent).
pub fn portrait_webp(seed: u64, feminine: bool, size: u32) -> Vec<u8> {
    webp(portrait(seed, feminine, size))
}

/// A drawn portrait as JPEG.
pub fn jpeg(img: &RgbImage) -> Vec<u8> {
    let mut out = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 82);
    img.write_with_encoder(encoder).expect("encoding to memory cannot fail");
    out
}

/// A drawn portrait as lossy WebP.
pub fn webp(img: RgbImage) -> Vec<u8> {
    super::photo_decode::webp(&image::DynamicImage::ImageRgb8(img)).expect("encoding to memory cannot fail")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portraits_come_as_webp_too_and_smaller() {
        let (jpeg, webp) = (portrait_jpeg(7, true, 240), portrait_webp(7, true, 240));
        assert_eq!((&webp[..4], &webp[8..12]), (&b"RIFF"[..], &b"WEBP"[..]));
        let decoded = image::load_from_memory_with_format(&webp, image::ImageFormat::WebP).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (240, 240));
        assert!(webp.len() < jpeg.len(), "WebP {} bytes, JPEG {} bytes", webp.len(), jpeg.len());
    }

    #[test]
    fn portraits_are_deterministic_and_differ_by_seed() {
        let a = portrait_jpeg(7, true, 160);
        assert_eq!(a, portrait_jpeg(7, true, 160));
        assert_ne!(a, portrait_jpeg(8, true, 160));
        let decoded = image::load_from_memory(&a).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (160, 160));
        assert!(a.len() < 20_000, "a thumbnail stays small: {} bytes", a.len());
    }

    #[test]
    fn rng_stays_in_range() {
        let mut r = Rng::new(1);
        for _ in 0..1000 {
            assert!(r.below(7) < 7);
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
