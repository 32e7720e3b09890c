//! Label rendering: GS1 barcodes plus human-readable text as PDF, ZPL or a
//! PNG preview.
//!
//! A [`LabelDesign`] describes one label (size, symbology, which text fields
//! are printed). One layout function is shared by every output, so
//! the PDF sheet, the thermal-printer ZPL and the live PNG preview place the
//! barcode and the text lines identically:
//!
//! * [`render_pdf`] streams labels onto pages ([`Sheet`]) with bounded memory;
//!   barcodes are vector rectangles, text uses the base-14 Helvetica font.
//! * [`render_zpl`] writes one `^XA … ^XZ` format per label; the printer draws
//!   the barcodes itself.
//! * [`render_png`] rasterizes one label for the live preview, with the
//!   bundled Liberation Sans (metric-compatible with Helvetica).
//!
//! Two symbologies are supported ([`Symbology`]): a QR code carrying the GS1
//! Digital Link URI (error correction level M), and a GS1 DataMatrix carrying
//! the GS1 element string ([`gs1_element_string`]): FNC1 in first position,
//! AIs 01, 17, 10, 21 in that order, and an FNC1 separator after a
//! variable-length field that is followed by another one.
//!
//! Call [`validate`] when a design is saved; the renderers validate again and
//! additionally check every label's data ([`validate_label`]) and that its
//! symbol fits the design.

mod error;
mod gs1;
mod layout;
mod pdf;
mod preview;
mod sheet;
mod symbol;
mod text;
mod zpl;

#[cfg(test)]
mod tests;

use std::fmt;

pub use error::RenderError;
pub use gs1::{gs1_element_string, gs1_human_readable, validate_label};
pub use pdf::render_pdf;
pub use preview::render_png;
pub use sheet::{A4Preset, LetterPreset, Sheet, SheetGeometry};
pub use zpl::{ZplDensity, render_zpl, render_zpl_with_density};
// The text rules of the base-14 Helvetica, for other PDFs of the app (the
// certificate of analysis).
pub(crate) use text::{Metrics, printable, to_winansi};

/// Smallest label side in millimetres.
pub const MIN_LABEL_MM: f32 = 10.0;
/// Largest label side in millimetres.
pub const MAX_LABEL_MM: f32 = 300.0;
/// Smallest font size in points.
pub const MIN_FONT_PT: f32 = 4.0;
/// Largest font size in points.
pub const MAX_FONT_PT: f32 = 36.0;
/// Smallest module (barcode cell) size in millimetres: 2 dots on a
/// 203 dpi printer. A symbol that would need smaller modules is rejected.
pub const MIN_MODULE_MM: f32 = 0.25;

/// The barcode printed on the label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symbology {
    /// QR code (error correction level M) carrying [`LabelData::uri`], the
    /// GS1 Digital Link URI.
    Qr,
    /// GS1 DataMatrix (ECC 200) carrying the GS1 element string built from
    /// GTIN, expiry, lot and serial (see [`gs1_element_string`]).
    DataMatrix,
}

impl fmt::Display for Symbology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Symbology::Qr => "QR code",
            Symbology::DataMatrix => "GS1 DataMatrix",
        })
    }
}

/// The data of one serialized item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelData {
    /// Product name, printed as text only. Any Unicode is accepted; characters
    /// the label fonts cannot show are printed as `?`, and a name that is too
    /// long is shortened with an ellipsis.
    pub product_name: String,
    /// GTIN-14: exactly 14 digits with a valid check digit (pad GTIN-8/12/13
    /// with leading zeros).
    pub gtin: String,
    /// Batch/lot number (AI 10): 1 to 20 characters of GS1 character set 82.
    pub lot: Option<String>,
    /// Expiry date (AI 17, encoded as YYMMDD); years 2000 to 2099.
    pub expiry: Option<chrono::NaiveDate>,
    /// Serial number (AI 21): 1 to 20 characters of GS1 character set 82.
    pub serial: String,
    /// GS1 Digital Link URI for the QR code: 1 to 1000 printable ASCII
    /// characters without spaces (percent-encode everything else).
    pub uri: String,
}

/// Which human-readable lines are printed next to the barcode. A line whose
/// value is absent (no lot, no expiry, empty product name) is skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextFields {
    /// The product name.
    pub product_name: bool,
    /// `GTIN 09506000134352`.
    pub gtin: bool,
    /// `LOT ABC123`.
    pub lot: bool,
    /// `EXP 2027-03-31`.
    pub expiry: bool,
    /// `SN 12345`.
    pub serial: bool,
}

impl TextFields {
    /// All text fields enabled.
    pub const ALL: TextFields = TextFields {
        product_name: true,
        gtin: true,
        lot: true,
        expiry: true,
        serial: true,
    };
    /// No text: the barcode only.
    pub const NONE: TextFields = TextFields {
        product_name: false,
        gtin: false,
        lot: false,
        expiry: false,
        serial: false,
    };

    /// Number of enabled fields, i.e. the most text lines a label can have.
    pub fn count(&self) -> usize {
        [
            self.product_name,
            self.gtin,
            self.lot,
            self.expiry,
            self.serial,
        ]
        .iter()
        .filter(|enabled| **enabled)
        .count()
    }
}

impl Default for TextFields {
    fn default() -> Self {
        Self::ALL
    }
}

/// The design of one label. All sizes are in millimetres, fonts in points.
///
/// The layout is automatic: the barcode gets the largest square that leaves
/// room for the enabled text lines, either with the text to its right
/// (landscape labels) or below it, whichever gives the larger symbol.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelDesign {
    /// Label width, [`MIN_LABEL_MM`]..=[`MAX_LABEL_MM`].
    pub width_mm: f32,
    /// Label height, [`MIN_LABEL_MM`]..=[`MAX_LABEL_MM`].
    pub height_mm: f32,
    /// Barcode symbology.
    pub symbology: Symbology,
    /// Text lines to print.
    pub text: TextFields,
    /// Text size, [`MIN_FONT_PT`]..=[`MAX_FONT_PT`] (default 7 pt).
    pub font_size_pt: f32,
    /// Blank border on all four sides (default 1.5 mm); the barcode's own
    /// quiet zone comes on top of it.
    pub margin_mm: f32,
}

impl LabelDesign {
    /// Default font size in points.
    pub const DEFAULT_FONT_PT: f32 = 7.0;
    /// Default margin in millimetres.
    pub const DEFAULT_MARGIN_MM: f32 = 1.5;

    /// A design with all text fields, the default font size and margin.
    pub fn new(width_mm: f32, height_mm: f32, symbology: Symbology) -> Self {
        Self {
            width_mm,
            height_mm,
            symbology,
            text: TextFields::ALL,
            font_size_pt: Self::DEFAULT_FONT_PT,
            margin_mm: Self::DEFAULT_MARGIN_MM,
        }
    }
}

/// Checks that a design can be printed: sizes within bounds, and room for
/// the smallest symbol of its symbology next to the enabled text lines.
///
/// Whether a particular label's data fits is only known when it is rendered;
/// the renderers report that per label ([`RenderError::SymbolTooLarge`]).
pub fn validate(design: &LabelDesign) -> Result<(), RenderError> {
    let metrics = text::Metrics::new()?;
    layout::Arrangement::new(design, &metrics).map(|_| ())
}
