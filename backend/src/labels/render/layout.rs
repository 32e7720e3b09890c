//! The one layout used by every output. Coordinates are millimetres from the
//! label's top-left corner, y pointing down; each renderer converts them
//! (PDF points with y up, PNG pixels, ZPL dots).

use super::symbol::{self, Matrix};
use super::text::{MM_PER_PT, Metrics, printable};
use super::{
    LabelData, LabelDesign, MAX_FONT_PT, MAX_LABEL_MM, MIN_FONT_PT, MIN_LABEL_MM, MIN_MODULE_MM,
    RenderError, Symbology,
};

/// Space between the barcode box and the text block.
const GAP_MM: f32 = 1.0;
/// Narrowest text column worth putting beside the barcode.
const MIN_TEXT_WIDTH_MM: f32 = 12.0;
/// Line pitch in em.
const LINE_HEIGHT_EM: f32 = 1.2;
/// Distance from the top of a line to its baseline, in em.
const BASELINE_EM: f32 = 0.95;
/// Largest margin accepted at all.
const MAX_MARGIN_MM: f32 = 20.0;
/// Smallest content area (label minus margins) in either direction.
const MIN_CONTENT_MM: f32 = 5.0;
/// A short but realistic Digital Link URI: the smallest QR a design must
/// accommodate to be accepted.
const SAMPLE_URI: &str = "https://id.gs1.org/01/09506000134352/21/1";
/// The GTIN line as printed (all digits have the same width).
const GTIN_SAMPLE: &str = "GTIN 00000000000000";
/// The expiry line as printed.
const EXPIRY_SAMPLE: &str = "EXP 0000-00-00";

/// A square area, millimetres from the label's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Square {
    pub x: f32,
    pub y: f32,
    pub size: f32,
}

/// Where the text lines go.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TextBlock {
    x: f32,
    top: f32,
    width: f32,
}

/// The data-independent part of the layout: where the barcode box and the
/// text block are. Building one validates the design.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Arrangement {
    symbol_box: Square,
    text: Option<TextBlock>,
    font_size_pt: f32,
    line_height_mm: f32,
}

/// One line of text, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextLine {
    /// Left edge of the text.
    pub x_mm: f32,
    /// Baseline.
    pub baseline_mm: f32,
    /// The text, already restricted to printable characters and shortened
    /// to fit.
    pub text: String,
}

/// The complete layout of one label.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LabelLayout {
    /// The barcode.
    pub symbol: Matrix,
    /// The square reserved for the barcode, quiet zone included.
    pub symbol_box: Square,
    /// Module size when the symbol fills its box exactly (vector output).
    pub module_mm: f32,
    /// Text size.
    pub font_size_pt: f32,
    /// The text lines, top to bottom.
    pub lines: Vec<TextLine>,
}

/// A symbol placed on a device grid (pixels or printer dots): whole-dot
/// modules, centred in the barcode box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SnappedSymbol {
    /// Left edge of the first module, quiet zone excluded.
    pub x: u32,
    /// Top edge of the first module, quiet zone excluded.
    pub y: u32,
    /// Module size in dots.
    pub module: u32,
}

impl Arrangement {
    /// Validates the design and computes where the barcode and text go.
    pub fn new(design: &LabelDesign, metrics: &Metrics) -> Result<Self, RenderError> {
        let (w, h) = (design.width_mm, design.height_mm);
        let size_ok = |v: f32| (MIN_LABEL_MM..=MAX_LABEL_MM).contains(&v);
        if !size_ok(w) || !size_ok(h) {
            return Err(RenderError::LabelSize {
                width_mm: w,
                height_mm: h,
                min_mm: MIN_LABEL_MM,
                max_mm: MAX_LABEL_MM,
            });
        }
        if !(MIN_FONT_PT..=MAX_FONT_PT).contains(&design.font_size_pt) {
            return Err(RenderError::FontSize {
                size_pt: design.font_size_pt,
                min_pt: MIN_FONT_PT,
                max_pt: MAX_FONT_PT,
            });
        }
        let margin = design.margin_mm;
        let max_margin = ((w.min(h) - MIN_CONTENT_MM) / 2.0).min(MAX_MARGIN_MM);
        if !(0.0..=max_margin).contains(&margin) {
            return Err(RenderError::Margin {
                margin_mm: margin,
                width_mm: w,
                height_mm: h,
                max_mm: (max_margin * 10.0).floor() / 10.0,
            });
        }

        let (inner_w, inner_h) = (w - 2.0 * margin, h - 2.0 * margin);
        let line_height_mm = design.font_size_pt * MM_PER_PT * LINE_HEIGHT_EM;
        let lines = design.text.count();
        let block_h = lines as f32 * line_height_mm;

        let (symbol_box, text) = if lines == 0 {
            let size = inner_w.min(inner_h);
            let square = Square {
                x: margin + (inner_w - size) / 2.0,
                y: margin + (inner_h - size) / 2.0,
                size,
            };
            (square, None)
        } else {
            // The GTIN and expiry lines have a fixed format and must not be
            // shortened; the other lines may be.
            let mut widest_fixed: Option<(f32, &'static str)> = None;
            for (enabled, sample, name) in [
                (design.text.gtin, GTIN_SAMPLE, "GTIN"),
                (design.text.expiry, EXPIRY_SAMPLE, "expiry"),
            ] {
                let width = metrics.width_mm(sample, design.font_size_pt);
                if enabled && widest_fixed.is_none_or(|(widest, _)| width > widest) {
                    widest_fixed = Some((width, name));
                }
            }
            if let Some((needed_mm, line)) = widest_fixed
                && needed_mm > inner_w
            {
                return Err(RenderError::TextTooWide {
                    line,
                    needed_mm,
                    available_mm: inner_w,
                    font_size_pt: design.font_size_pt,
                    max_font_pt: (design.font_size_pt * inner_w / needed_mm * 10.0).floor() / 10.0,
                });
            }
            let min_text_w =
                widest_fixed.map_or(MIN_TEXT_WIDTH_MM, |(w, _)| w.max(MIN_TEXT_WIDTH_MM));
            // Text to the right of the barcode.
            let side = if block_h <= inner_h {
                inner_h.min(inner_w - GAP_MM - min_text_w)
            } else {
                f32::NEG_INFINITY
            };
            // Text below the barcode.
            let stacked = inner_w.min(inner_h - GAP_MM - block_h);
            if side >= stacked {
                let square = Square {
                    x: margin,
                    y: margin + (inner_h - side.max(0.0)) / 2.0,
                    size: side,
                };
                let text = TextBlock {
                    x: margin + side + GAP_MM,
                    top: margin,
                    width: inner_w - side - GAP_MM,
                };
                (square, Some(text))
            } else {
                let square = Square {
                    x: margin + (inner_w - stacked) / 2.0,
                    y: margin,
                    size: stacked,
                };
                let text = TextBlock {
                    x: margin,
                    top: margin + stacked + GAP_MM,
                    width: inner_w,
                };
                (square, Some(text))
            }
        };

        let needed_mm = smallest_symbol_modules(design.symbology) as f32 * MIN_MODULE_MM;
        if symbol_box.size < needed_mm {
            return Err(RenderError::DesignTooSmall {
                width_mm: w,
                height_mm: h,
                symbology: design.symbology,
                available_mm: symbol_box.size.max(0.0),
                needed_mm,
            });
        }

        Ok(Self {
            symbol_box,
            text,
            font_size_pt: design.font_size_pt,
            line_height_mm,
        })
    }

    /// Lays out one label: encodes its barcode, checks it fits, and builds
    /// the text lines. `position` (1-based) is used in error messages.
    pub fn layout(
        &self,
        design: &LabelDesign,
        metrics: &Metrics,
        label: &LabelData,
        position: u64,
    ) -> Result<LabelLayout, RenderError> {
        super::validate_label(label, position)?;
        let symbol = symbol::encode(design.symbology, label, position)?;
        let modules = symbol.total_modules();
        let needed_mm = modules as f32 * MIN_MODULE_MM;
        if needed_mm > self.symbol_box.size {
            return Err(RenderError::SymbolTooLarge {
                position,
                width_mm: design.width_mm,
                height_mm: design.height_mm,
                symbology: design.symbology,
                modules,
                needed_mm,
                available_mm: self.symbol_box.size,
            });
        }

        let mut lines = Vec::new();
        if let Some(block) = self.text {
            let fields = &design.text;
            let mut texts = Vec::with_capacity(5);
            if fields.product_name {
                texts.push(printable(&label.product_name));
            }
            if fields.gtin {
                texts.push(format!("GTIN {}", label.gtin));
            }
            if let (true, Some(lot)) = (fields.lot, &label.lot) {
                texts.push(format!("LOT {}", printable(lot)));
            }
            if let (true, Some(date)) = (fields.expiry, label.expiry) {
                texts.push(format!("EXP {date}"));
            }
            if fields.serial {
                texts.push(format!("SN {}", printable(&label.serial)));
            }
            let size_mm = self.font_size_pt * MM_PER_PT;
            for text in texts.into_iter().filter(|t| !t.is_empty()) {
                let baseline_mm =
                    block.top + BASELINE_EM * size_mm + lines.len() as f32 * self.line_height_mm;
                let text = metrics.fit(&text, self.font_size_pt, block.width);
                lines.push(TextLine {
                    x_mm: block.x,
                    baseline_mm,
                    text,
                });
            }
        }

        Ok(LabelLayout {
            module_mm: self.symbol_box.size / modules as f32,
            symbol,
            symbol_box: self.symbol_box,
            font_size_pt: self.font_size_pt,
            lines,
        })
    }
}

/// Modules across (quiet zone included) of the smallest realistic symbol.
fn smallest_symbol_modules(symbology: Symbology) -> usize {
    let sample = LabelData {
        product_name: String::new(),
        gtin: "09506000134352".to_owned(),
        lot: None,
        expiry: None,
        serial: "1".to_owned(),
        uri: SAMPLE_URI.to_owned(),
    };
    let matrix = match symbology {
        Symbology::Qr => symbol::qr(SAMPLE_URI),
        Symbology::DataMatrix => symbol::gs1_datamatrix(&sample),
    };
    // Both samples encode; the fallbacks are the respective smallest sizes.
    matrix
        .map(|m| m.total_modules())
        .unwrap_or(match symbology {
            Symbology::Qr => 29,
            Symbology::DataMatrix => 14,
        })
}

impl LabelLayout {
    /// Top-left corner of the symbol's first module (quiet zone excluded)
    /// and the module size, in millimetres, for vector output.
    pub fn symbol_origin_mm(&self) -> (f32, f32) {
        let qz = self.symbol.quiet_zone() as f32 * self.module_mm;
        (self.symbol_box.x + qz, self.symbol_box.y + qz)
    }

    /// Places the symbol on a grid of `dots_per_mm`: the module size is
    /// rounded down to whole dots (and limited to `max_module` dots), and the
    /// symbol centred in its box. `None` if a module would be smaller than
    /// one dot.
    pub fn snap(&self, dots_per_mm: f32, max_module: u32) -> Option<SnappedSymbol> {
        let module = (self.module_mm * dots_per_mm + 1e-3).floor();
        if !(1.0..=f32::from(u16::MAX)).contains(&module) {
            return None;
        }
        let module = (module as u32).min(max_module.max(1));
        let total = self.symbol.total_modules() as u32 * module;
        let box_dots = (self.symbol_box.size * dots_per_mm + 1e-3).floor() as u32;
        let offset = box_dots.saturating_sub(total) / 2;
        let qz = self.symbol.quiet_zone() as u32 * module;
        Some(SnappedSymbol {
            x: (self.symbol_box.x * dots_per_mm).round() as u32 + offset + qz,
            y: (self.symbol_box.y * dots_per_mm).round() as u32 + offset + qz,
            module,
        })
    }
}
