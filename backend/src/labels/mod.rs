//! Labels: templates designed on `/print/lables`, and print jobs that turn a
//! code job's codes into PDF sheets or ZPL for thermal printers.
//!
//! - `mod.rs`: the design of a label as the API and the database hold it
//!   ([`Design`]), templates and print jobs as the API shows them;
//! - `render/`: the label renderer (QR with the Digital Link URI, GS1
//!   DataMatrix with FNC1, text; PDF, ZPL and PNG previews): pure functions
//!   with no database (ADR 0012);
//! - `api.rs`: templates, the live preview, print jobs and their output;
//! - `store.rs`: the SQL of `label_templates` and `print_jobs`;
//! - `print.rs`: a print job's work, run by [`crate::jobs`].

pub mod api;
pub mod print;
pub mod render;
pub mod store;

use chrono::{DateTime, Utc};
use poem_openapi::registry::MetaSchema;
use poem_openapi::{Enum, Object};
use uuid::Uuid;

use crate::codes::JobStatus;
use crate::http::error::ApiError;
use crate::http::input::{TextRule, plain_name};
use crate::trimmed_plain_text_pattern;
use render::{A4Preset, LabelDesign, LetterPreset, Sheet, Symbology, TextFields};

/// The barcode on a label.
#[derive(Enum, serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum SymbologyKind {
    /// A QR code carrying the code's GS1 Digital Link URI.
    Qr,
    /// A GS1 DataMatrix carrying (01)(17)(10)(21) with FNC1.
    Datamatrix,
}

/// What labels are printed on (for PDF; ZPL prints one label at a time).
#[derive(Enum, serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetKind {
    /// One label per page, the page the label's size (thermal printers).
    #[oai(rename = "single")]
    #[serde(rename = "single")]
    Single,
    /// A4, 3 × 8 labels of 70 × 37 mm.
    #[oai(rename = "a4_3x8")]
    #[serde(rename = "a4_3x8")]
    A4Grid3x8,
    /// A4, Avery L7163: 2 × 7 labels of 99.1 × 38.1 mm.
    #[oai(rename = "a4_l7163")]
    #[serde(rename = "a4_l7163")]
    A4L7163,
    /// US Letter, Avery 5160: 3 × 10 labels of 66.7 × 25.4 mm.
    #[oai(rename = "letter_5160")]
    #[serde(rename = "letter_5160")]
    Letter5160,
    /// US Letter, Avery 5163: 2 × 5 labels of 101.6 × 50.8 mm.
    #[oai(rename = "letter_5163")]
    #[serde(rename = "letter_5163")]
    Letter5163,
}

impl SheetKind {
    pub fn sheet(self) -> Sheet {
        match self {
            Self::Single => Sheet::Single,
            Self::A4Grid3x8 => Sheet::A4(A4Preset::Grid3x8),
            Self::A4L7163 => Sheet::A4(A4Preset::L7163),
            Self::Letter5160 => Sheet::Letter(LetterPreset::Avery5160),
            Self::Letter5163 => Sheet::Letter(LetterPreset::Avery5163),
        }
    }
}

/// The human-readable lines printed next to the barcode.
#[derive(Object, serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelFields {
    pub product_name: bool,
    pub gtin: bool,
    pub lot: bool,
    pub expiry: bool,
    pub serial: bool,
}

/// A label's design. Sizes in millimetres, the font in points.
#[derive(Object, serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct Design {
    #[oai(validator(minimum(value = "10"), maximum(value = "300")))]
    pub width_mm: f64,
    #[oai(validator(minimum(value = "10"), maximum(value = "300")))]
    pub height_mm: f64,
    pub symbology: SymbologyKind,
    pub sheet: SheetKind,
    pub fields: LabelFields,
    /// 4 to 36 points.
    #[oai(validator(minimum(value = "4"), maximum(value = "36")))]
    pub font_size_pt: f64,
    /// The blank border, 0 to 20 mm.
    #[oai(validator(minimum(value = "0"), maximum(value = "20")))]
    pub margin_mm: f64,
}

/// Rounds to a tenth of a millimetre (or point): what a design stores.
fn tenth(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

impl Design {
    /// The design for the renderer, checked: sizes within bounds, room for
    /// the barcode and the text, and the size of the sheet's labels. The
    /// renderer's message tells a person what to change.
    pub fn check(&self) -> Result<(Self, LabelDesign, Sheet), ApiError> {
        let finite = [
            self.width_mm,
            self.height_mm,
            self.font_size_pt,
            self.margin_mm,
        ]
        .iter()
        .all(|v| v.is_finite());
        if !finite {
            return Err(ApiError::invalid_input("Sizes must be numbers."));
        }
        let design = Self {
            width_mm: tenth(self.width_mm),
            height_mm: tenth(self.height_mm),
            font_size_pt: tenth(self.font_size_pt),
            margin_mm: tenth(self.margin_mm),
            ..self.clone()
        };
        let render = LabelDesign {
            width_mm: design.width_mm as f32,
            height_mm: design.height_mm as f32,
            symbology: match design.symbology {
                SymbologyKind::Qr => Symbology::Qr,
                SymbologyKind::Datamatrix => Symbology::DataMatrix,
            },
            text: TextFields {
                product_name: design.fields.product_name,
                gtin: design.fields.gtin,
                lot: design.fields.lot,
                expiry: design.fields.expiry,
                serial: design.fields.serial,
            },
            font_size_pt: design.font_size_pt as f32,
            margin_mm: design.margin_mm as f32,
        };
        let invalid = |e: render::RenderError| ApiError::invalid_input(e.to_string());
        render::validate(&render).map_err(invalid)?;
        let sheet = design.sheet.sheet();
        sheet.check_design(&render).map_err(invalid)?;
        Ok((design, render, sheet))
    }

    /// A stored design (written by [`Design::check`]'s caller).
    pub fn from_json(value: &serde_json::Value) -> anyhow::Result<Self> {
        Ok(serde_json::from_value(value.clone())?)
    }

    pub fn to_json(&self) -> serde_json::Value {
        // A struct of numbers, booleans and enums always serialises.
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// A template's name: 1 to 100 characters once trimmed, plain text.
#[derive(Clone, Debug)]
pub struct TemplateName(String);

impl TemplateName {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let name = raw.trim();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(ApiError::invalid_input(
                "name is required (100 characters at most).",
            ));
        }
        plain_name("name", name)?;
        Ok(Self(name.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for TemplateName {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(98).into());
    }
}

crate::text_parser!(TemplateName);

/// A label template as the API shows it.
#[derive(Object, Debug, Clone)]
pub struct LabelTemplate {
    pub id: Uuid,
    pub name: String,
    pub design: Design,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Output formats of a print job.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "lowercase")]
pub enum PrintFormat {
    /// Vector PDF on the template's sheet.
    Pdf,
    /// ZPL II for Zebra thermal printers, one label per format.
    Zpl,
}

impl PrintFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pdf => "pdf",
            Self::Zpl => "zpl",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "pdf" => Some(Self::Pdf),
            "zpl" => Some(Self::Zpl),
            _ => None,
        }
    }
}

/// A print job as the API shows it.
#[derive(Object, Debug, Clone)]
pub struct PrintJob {
    pub id: Uuid,
    pub code_job_id: Uuid,
    pub template_id: Uuid,
    /// The template's name now.
    pub template_name: String,
    pub format: PrintFormat,
    pub status: JobStatus,
    /// Labels to print.
    pub total: i64,
    /// Labels printed so far.
    pub printed: i64,
    /// The output's size in bytes, once done.
    #[oai(skip_serializing_if_is_none)]
    pub output_bytes: Option<i64>,
    #[oai(skip_serializing_if_is_none)]
    pub error: Option<String>,
    /// The job this one reprints.
    #[oai(skip_serializing_if_is_none)]
    pub reprint_of: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub finished_at: Option<DateTime<Utc>>,
}

/// The most labels one print job may hold.
pub const MAX_LABELS: i32 = 1_000_000;
