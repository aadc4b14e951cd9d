//! The receipt as a PDF (A4, one page): the site's logo (or its name), the title, the lines of
//! the receipt mail and the seller, in the member's language ([`crate::accounts::Receipt`]).
//! Noto Sans (the `notosans` crate, SIL Open Font License) is embedded as a subset, so every
//! language's letters show (ł, ø, ß, €, −), and the text stays selectable and searchable.

use krilla::color::rgb::Color;
use krilla::geom::{PathBuilder, Point, Size, Transform};
use krilla::image::Image;
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::{Font, TextDirection};
use krilla::Document;

use crate::accounts::Receipt;
use crate::error::AppError;

const PAGE_W: f32 = 595.0;
const PAGE_H: f32 = 842.0;
const MARGIN: f32 = 56.0;
/// Ink, muted ink, the brand's rose and the rules (the mails' colours).
const TEXT: (u8, u8, u8) = (0x1f, 0x1a, 0x1c);
const MUTED: (u8, u8, u8) = (0x6b, 0x5e, 0x63);
const PRIMARY: (u8, u8, u8) = (0xd9, 0x2d, 0x5c);
const RULE: (u8, u8, u8) = (0xe6, 0xdc, 0xdf);

fn fill(color: (u8, u8, u8)) -> Fill {
    Fill { paint: Color::new(color.0, color.1, color.2).into(), opacity: NormalizedF32::ONE, rule: Default::default() }
}

/// The logo's box: at most this wide and high, its proportions kept.
const LOGO_MAX: (f32, f32) = (200.0, 56.0);

/// One face: krilla draws with `font`, line widths come from `face`'s advances.
struct Face {
    font: Font,
    face: ttf_parser::Face<'static>,
}

impl Face {
    fn load(data: &'static [u8]) -> Result<Face, AppError> {
        let font = Font::new(data.into(), 0).ok_or_else(|| AppError::Internal("receipt font".into()))?;
        let face = ttf_parser::Face::parse(data, 0).map_err(|e| AppError::Internal(format!("receipt font: {e}")))?;
        Ok(Face { font, face })
    }

    /// The advance width of `text` at `size` points (no kerning: for wrapping and alignment).
    fn width(&self, text: &str, size: f32) -> f32 {
        let units: u32 = text.chars().map(|c| self.face.glyph_index(c).and_then(|g| self.face.glyph_hor_advance(g)).unwrap_or(0) as u32).sum();
        units as f32 * size / f32::from(self.face.units_per_em())
    }

    /// `text` broken at spaces into lines no wider than `max` (a longer word keeps its line).
    fn wrap(&self, text: &str, size: f32, max: f32) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
            if !line.is_empty() && self.width(&candidate, size) > max {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            } else {
                line = candidate;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }
}

/// The receipt's PDF. `logo_png` is the site's uploaded logo; without one the site's name
/// heads the page.
pub fn render(site_name: &str, logo_png: Option<&[u8]>, receipt: &Receipt) -> Result<Vec<u8>, AppError> {
    let regular = Face::load(notosans::REGULAR_TTF)?;
    let bold = Face::load(notosans::BOLD_TTF)?;
    let mut document = Document::new();
    document.set_metadata(Metadata::new().title(receipt.title.clone()).language(receipt.locale.code().to_string()).creator(site_name.to_string()));
    let settings = PageSettings::from_wh(PAGE_W, PAGE_H).ok_or_else(|| AppError::Internal("receipt page".into()))?;
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    let width = PAGE_W - 2.0 * MARGIN;
    let text = |surface: &mut krilla::surface::Surface, face: &Face, size: f32, color: (u8, u8, u8), x: f32, baseline: f32, line: &str| {
        surface.set_fill(Some(fill(color)));
        surface.draw_text(Point::from_xy(x, baseline), face.font.clone(), size, line, false, TextDirection::Auto);
    };
    let mut y = MARGIN;

    // The logo, or the name.
    let logo = logo_png.and_then(|png| Image::from_png(png.to_vec().into(), true).ok());
    match logo {
        Some(image) => {
            let (w, h) = image.size();
            let scale = (LOGO_MAX.0 / w.max(1) as f32).min(LOGO_MAX.1 / h.max(1) as f32);
            let (w, h) = (w as f32 * scale, h as f32 * scale);
            if let Some(size) = Size::from_wh(w, h) {
                surface.push_transform(&Transform::from_translate(MARGIN, y));
                surface.draw_image(image, size);
                surface.pop();
            }
            y += h + 28.0;
        }
        None => {
            text(&mut surface, &bold, 22.0, PRIMARY, MARGIN, y + 22.0, site_name);
            y += 50.0;
        }
    }

    // Title and the thank-you line.
    for line in bold.wrap(&receipt.title, 18.0, width) {
        text(&mut surface, &bold, 18.0, TEXT, MARGIN, y + 18.0, &line);
        y += 24.0;
    }
    y += 8.0;
    for line in regular.wrap(&receipt.intro, 11.0, width) {
        text(&mut surface, &regular, 11.0, TEXT, MARGIN, y + 11.0, &line);
        y += 16.0;
    }
    y += 18.0;

    // The lines: label left, value right; the total in bold under a rule.
    let total = receipt.total_row;
    for (i, (label, value)) in receipt.rows.iter().enumerate() {
        if i == total {
            rule(&mut surface, y - 6.0, width);
            y += 4.0;
        }
        let face = if i == total { &bold } else { &regular };
        let value_width = face.width(value, 11.0);
        let label_lines = face.wrap(label, 11.0, width - value_width - 24.0);
        text(&mut surface, face, 11.0, if i == total { TEXT } else { MUTED }, PAGE_W - MARGIN - value_width, y + 11.0, value);
        for line in &label_lines {
            text(&mut surface, face, 11.0, TEXT, MARGIN, y + 11.0, line);
            y += 16.0;
        }
        y += 6.0;
    }
    rule(&mut surface, y, width);
    y += 28.0;

    // The seller, then the footer.
    for line in &receipt.company {
        text(&mut surface, &regular, 9.5, MUTED, MARGIN, y + 9.5, line);
        y += 14.0;
    }
    y += 14.0;
    for line in regular.wrap(&receipt.footer, 9.5, width) {
        text(&mut surface, &regular, 9.5, MUTED, MARGIN, y + 9.5, &line);
        y += 14.0;
    }

    surface.finish();
    page.finish();
    document.finish().map_err(|e| AppError::Internal(format!("receipt pdf: {e:?}")))
}

/// A thin horizontal rule across the text column at `y`.
fn rule(surface: &mut krilla::surface::Surface, y: f32, width: f32) {
    let mut path = PathBuilder::new();
    path.move_to(MARGIN, y);
    path.line_to(MARGIN + width, y);
    path.line_to(MARGIN + width, y + 0.75);
    path.line_to(MARGIN, y + 0.75);
    path.close();
    if let Some(path) = path.finish() {
        surface.set_fill(Some(fill(RULE)));
        surface.draw_path(&path);
    }
}
