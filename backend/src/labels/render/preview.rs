//! PNG preview of a single label.

use ab_glyph::{Font, PxScale, point};

use super::layout::Arrangement;
use super::text::{MM_PER_PT, Metrics};
use super::{LabelData, LabelDesign, RenderError};

/// Lowest preview resolution (about 100 dpi).
const MIN_DOTS_PER_MM: f32 = 4.0;
/// Highest preview resolution (about 1200 dpi).
const MAX_DOTS_PER_MM: f32 = 48.0;
/// Largest preview image in pixels.
const MAX_PIXELS: u64 = 40_000_000;

/// Renders one label as an 8-bit grayscale PNG at `dots_per_mm` pixels per
/// millimetre (4–48; 8 ≈ 203 dpi, 11.8 ≈ 300 dpi): white background, black
/// barcode modules (whole pixels, centred in the barcode box), and the text
/// in Liberation Sans, anti-aliased, at the same positions as in the PDF.
pub fn render_png(
    design: &LabelDesign,
    label: &LabelData,
    dots_per_mm: f32,
) -> Result<Vec<u8>, RenderError> {
    if !(MIN_DOTS_PER_MM..=MAX_DOTS_PER_MM).contains(&dots_per_mm) {
        return Err(RenderError::Resolution(format!(
            "The preview resolution of {dots_per_mm} dots/mm is not supported; use {MIN_DOTS_PER_MM} to {MAX_DOTS_PER_MM} dots/mm."
        )));
    }
    let metrics = Metrics::new()?;
    let arrangement = Arrangement::new(design, &metrics)?;
    let layout = arrangement.layout(design, &metrics, label, 1)?;

    let width = (design.width_mm * dots_per_mm).round() as u32;
    let height = (design.height_mm * dots_per_mm).round() as u32;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(RenderError::Resolution(format!(
            "A preview of {width} × {height} pixels is too large; lower the resolution."
        )));
    }
    let mut canvas = Canvas {
        width: width as usize,
        height: height as usize,
        pixels: vec![255; width as usize * height as usize],
    };

    let snapped = layout.snap(dots_per_mm, u32::MAX).ok_or_else(|| {
        RenderError::Resolution(format!(
            "At {dots_per_mm} dots/mm the barcode modules would be smaller than a pixel; use at least {:.1} dots/mm.",
            1.0 / layout.module_mm
        ))
    })?;
    let module = snapped.module as usize;
    for (row, col, len) in layout.symbol.dark_runs() {
        let x = snapped.x as usize + col * module;
        let y = snapped.y as usize + row * module;
        canvas.fill(x, y, len * module, module);
    }

    let font = metrics.font();
    let px_per_em = layout.font_size_pt * MM_PER_PT * dots_per_mm;
    // ab_glyph scales so that ascent - descent spans the given pixel height.
    let scale = PxScale::from(px_per_em * font.height_unscaled() / metrics.units_per_em());
    for line in &layout.lines {
        let mut x = line.x_mm * dots_per_mm;
        let baseline = line.baseline_mm * dots_per_mm;
        for c in line.text.chars() {
            let id = font.glyph_id(c);
            let glyph = id.with_scale_and_position(scale, point(x, baseline));
            x += font.h_advance_unscaled(id) / metrics.units_per_em() * px_per_em;
            if let Some(outlined) = font.outline_glyph(glyph) {
                let bounds = outlined.px_bounds();
                outlined.draw(|gx, gy, coverage| {
                    let px = bounds.min.x as i64 + i64::from(gx);
                    let py = bounds.min.y as i64 + i64::from(gy);
                    canvas.darken(px, py, coverage);
                });
            }
        }
    }

    let mut png_bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut png_bytes, width, height);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .map_err(|e| RenderError::Png(e.to_string()))?;
    writer
        .write_image_data(&canvas.pixels)
        .map_err(|e| RenderError::Png(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| RenderError::Png(e.to_string()))?;
    Ok(png_bytes)
}

/// An 8-bit grayscale image, 255 = white.
struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    /// Paints a black rectangle, clipped to the image.
    fn fill(&mut self, x: usize, y: usize, w: usize, h: usize) {
        let x_end = (x + w).min(self.width);
        for row in y..(y + h).min(self.height) {
            let start = row * self.width;
            if x < x_end {
                self.pixels[start + x..start + x_end].fill(0);
            }
        }
    }

    /// Darkens one pixel by `coverage` (0..=1), ignoring pixels outside.
    fn darken(&mut self, x: i64, y: i64, coverage: f32) {
        let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
            return;
        };
        if x < self.width && y < self.height {
            let pixel = &mut self.pixels[y * self.width + x];
            let value = f32::from(*pixel) * (1.0 - coverage.clamp(0.0, 1.0));
            *pixel = value.round() as u8;
        }
    }
}
