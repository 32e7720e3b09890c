//! A lot's certificate of analysis as a PDF: the lot, its product, every
//! inspection (newest first) with each check's limits or expected value,
//! the value found and its result, and the verdict, which is the newest
//! inspection's.
//!
//! Written with `pdf-writer` as the labels are: A4 pages, base-14 Helvetica
//! (regular and bold) with WinAnsiEncoding, so the text is extractable
//! (`pdftotext`). Text goes through the labels' [`printable`]: characters
//! Helvetica cannot show print as `?`, and a PDF string escapes what would
//! end it, so no text a person typed can break the file. A cell too wide
//! for its column is shortened with an ellipsis; pages are added as needed.

use chrono::{DateTime, Utc};
use miniz_oxide::deflate::compress_to_vec_zlib;
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use super::store::LotInfo;
use super::{Inspection, Verdict};
use crate::labels::render::{Metrics, RenderError, printable, to_winansi};

/// A4 in points.
const PAGE_W: f32 = 595.0;
const PAGE_H: f32 = 842.0;
const MARGIN: f32 = 50.0;
const REGULAR: Name<'static> = Name(b"F1");
const BOLD: Name<'static> = Name(b"F2");
const MM_PER_PT: f32 = 25.4 / 72.0;

/// The columns of a check's row: left edge and width, in points.
const COLUMNS: [(f32, f32); 4] = [(50.0, 175.0), (230.0, 135.0), (370.0, 115.0), (490.0, 55.0)];

/// Pages being written: a cursor that moves down and starts a new page at
/// the bottom margin.
struct Writer {
    metrics: Metrics,
    pages: Vec<Content>,
    y: f32,
}

impl Writer {
    fn new() -> Result<Self, RenderError> {
        Ok(Self {
            metrics: Metrics::new()?,
            pages: vec![Content::new()],
            y: PAGE_H - MARGIN,
        })
    }

    /// Moves down by `height`, starting a new page first if it does not fit.
    fn advance(&mut self, height: f32) {
        if self.y - height < MARGIN {
            self.pages.push(Content::new());
            self.y = PAGE_H - MARGIN;
        }
        self.y -= height;
    }

    /// `text` at `x` on the current line, shortened to `width` points.
    fn text(&mut self, font: Name<'static>, size: f32, x: f32, width: f32, text: &str) {
        let fitted = self.metrics.fit(&printable(text), size, width * MM_PER_PT);
        if fitted.is_empty() {
            return;
        }
        let content = self.pages.last_mut().expect("a page");
        content.begin_text();
        content.set_font(font, size);
        content.next_line(x, self.y);
        content.show(Str(&to_winansi(&fitted)));
        content.end_text();
    }

    /// A new line of one text across the page.
    fn line(&mut self, font: Name<'static>, size: f32, text: &str) {
        self.advance(size * 1.5);
        self.text(font, size, MARGIN, PAGE_W - 2.0 * MARGIN, text);
    }

    /// A new line of "label: value".
    fn field(&mut self, label: &str, value: &str) {
        self.advance(15.0);
        self.text(BOLD, 10.0, MARGIN, 120.0, label);
        self.text(
            REGULAR,
            10.0,
            MARGIN + 125.0,
            PAGE_W - 2.0 * MARGIN - 125.0,
            value,
        );
    }

    /// A new row of the check table.
    fn row(&mut self, font: Name<'static>, cells: [&str; 4]) {
        self.advance(14.0);
        for ((x, width), cell) in COLUMNS.into_iter().zip(cells) {
            self.text(font, 9.0, x, width, cell);
        }
    }

    /// A thin rule across the page under the current line.
    fn rule(&mut self) {
        let y = self.y - 4.0;
        let content = self.pages.last_mut().expect("a page");
        content.set_line_width(0.5);
        content.move_to(MARGIN, y);
        content.line_to(PAGE_W - MARGIN, y);
        content.stroke();
    }
}

fn verdict_text(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "PASS",
        Verdict::Fail => "FAIL",
    }
}

/// The limits of a check as the certificate shows them.
fn limits(check: &super::InspectionCheck) -> String {
    match (&check.min, &check.max, &check.expected) {
        (Some(lo), Some(hi), _) => format!("{lo} to {hi}"),
        (Some(lo), None, _) => format!(">= {lo}"),
        (None, Some(hi), _) => format!("<= {hi}"),
        (None, None, Some(expected)) => format!("= {expected}"),
        (None, None, None) => String::new(),
    }
}

/// The certificate of `lot` from its `inspections` (newest first; at least
/// one), issued by `organisation` at `issued_at`.
pub fn render(
    organisation: &str,
    lot: &LotInfo,
    inspections: &[Inspection],
    issued_at: DateTime<Utc>,
) -> Result<Vec<u8>, RenderError> {
    let mut w = Writer::new()?;
    let verdict = inspections.first().map(|i| i.verdict);

    w.line(BOLD, 18.0, "Certificate of analysis");
    w.line(REGULAR, 11.0, organisation);
    w.advance(6.0);
    w.field("Product", &lot.product_name);
    w.field("GTIN", &lot.gtin);
    w.field("SKU", &lot.skuid);
    w.field("Lot", &lot.number);
    let date =
        |d: &Option<crate::http::input::IsoDate>| d.map_or("-".to_string(), |d| d.to_string());
    w.field("Manufactured", &date(&lot.manufactured_on));
    w.field("Expires", &date(&lot.expires_on));
    w.field("Lot status", &lot.status);
    w.field("Inspections", &inspections.len().to_string());
    w.field(
        "Verdict",
        &verdict.map_or("NOT INSPECTED".to_string(), |v| {
            format!("{} (the newest inspection's)", verdict_text(v))
        }),
    );
    w.field(
        "Issued",
        &issued_at.format("%Y-%m-%d %H:%M UTC").to_string(),
    );

    for inspection in inspections {
        w.advance(10.0);
        w.line(
            BOLD,
            12.0,
            &format!(
                "Inspection of {}: {}",
                inspection.inspected_at.format("%Y-%m-%d %H:%M UTC"),
                verdict_text(inspection.verdict)
            ),
        );
        w.line(
            REGULAR,
            9.0,
            &format!(
                "Recorded by {} (inspection {})",
                inspection.inspected_by_name, inspection.id
            ),
        );
        w.row(BOLD, ["Parameter", "Limits", "Value", "Result"]);
        w.rule();
        for check in &inspection.checks {
            w.row(
                REGULAR,
                [
                    &check.parameter,
                    &limits(check),
                    &check.value,
                    if check.passed { "PASS" } else { "FAIL" },
                ],
            );
        }
    }

    let mut pdf = Pdf::new();
    let catalog_id = Ref::new(1);
    let pages_id = Ref::new(2);
    let regular_id = Ref::new(3);
    let bold_id = Ref::new(4);
    let info_id = Ref::new(5);
    let mut next = 6;
    pdf.catalog(catalog_id).pages(pages_id);
    pdf.document_info(info_id)
        .title(TextStr(&format!(
            "Certificate of analysis, lot {}",
            lot.number
        )))
        .producer(TextStr("brandops"));
    for (id, base) in [
        (regular_id, &b"Helvetica"[..]),
        (bold_id, b"Helvetica-Bold"),
    ] {
        pdf.type1_font(id)
            .base_font(Name(base))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    let mut kids = Vec::new();
    for content in w.pages {
        let (page_id, content_id) = (Ref::new(next), Ref::new(next + 1));
        next += 2;
        let compressed = compress_to_vec_zlib(&content.finish(), 6);
        pdf.stream(content_id, &compressed)
            .filter(Filter::FlateDecode);
        let mut page = pdf.page(page_id);
        page.parent(pages_id)
            .media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
            .contents(content_id);
        let mut resources = page.resources();
        resources
            .fonts()
            .pair(REGULAR, regular_id)
            .pair(BOLD, bold_id);
        resources.finish();
        page.finish();
        kids.push(page_id);
    }
    let count = i32::try_from(kids.len()).unwrap_or(i32::MAX);
    pdf.pages(pages_id).kids(kids).count(count);
    Ok(pdf.finish())
}
