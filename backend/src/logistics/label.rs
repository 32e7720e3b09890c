//! The SSCC logistic label of a shipment as a PDF: one A5 page per
//! package, with the from and to parties, the SSCC in human-readable
//! form, what the package holds and a GS1-128 barcode of `(00)` + SSCC,
//! followed by `(02)` + GTIN and `(37)` + count when the package holds
//! one product in a whole number of units (GS1 General Specifications
//! §2.2.1, the GS1 logistic label guideline).
//!
//! Written with `pdf-writer` and the base-14 Helvetica as the labels and
//! the certificate of analysis are: the barcode's bars are vector
//! rectangles, text goes through the labels' [`printable`] (what
//! Helvetica cannot show prints as `?`, and nothing a person typed can
//! break the file). The GS1-128 symbol is Code 128 (ISO/IEC 15417) with
//! FNC1 in first position and code set C for the digits.

use miniz_oxide::deflate::compress_to_vec_zlib;
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use crate::labels::render::{Metrics, printable, to_winansi};

/// A5 in points.
const PAGE_W: f32 = 420.0;
const PAGE_H: f32 = 595.0;
const MARGIN: f32 = 28.0;
const REGULAR: Name<'static> = Name(b"F1");
const BOLD: Name<'static> = Name(b"F2");
const MM_PER_PT: f32 = 25.4 / 72.0;
const PT_PER_MM: f32 = 72.0 / 25.4;

/// The Code 128 symbol patterns (ISO/IEC 15417, table 1): the widths of
/// bar, space, bar, space, bar, space in modules, for values 0 to 105; the
/// stop pattern (106) has a final bar of 2.
const PATTERNS: [&str; 107] = [
    "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212",
    "221213", "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221",
    "223211", "221132", "221231", "213212", "223112", "312131", "311222", "321122", "321221",
    "312212", "322112", "322211", "212123", "212321", "232121", "111323", "131123", "131321",
    "112313", "132113", "132311", "211313", "231113", "231311", "112133", "112331", "132131",
    "113123", "113321", "133121", "313121", "211331", "231131", "213113", "213311", "213131",
    "311123", "311321", "331121", "312113", "312311", "332111", "314111", "221411", "431111",
    "111224", "111422", "121124", "121421", "141122", "141221", "112214", "112412", "122114",
    "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111", "111242",
    "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
    "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311",
    "113141", "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
];
const START_C: u32 = 105;
const FNC1: u32 = 102;
const CODE_B: u32 = 100;
const STOP: u32 = 106;

/// The Code 128 values of a GS1-128 symbol carrying `digits` (an element
/// string of numeric AIs, without parentheses): start C, FNC1, the digit
/// pairs in code set C, a last odd digit in code set B, the check value
/// and stop. `None` when `digits` is empty or not all digits.
pub fn gs1_128_values(digits: &str) -> Option<Vec<u32>> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut values = vec![START_C, FNC1];
    let bytes = digits.as_bytes();
    let mut pairs = bytes.chunks_exact(2);
    for pair in &mut pairs {
        values.push(u32::from(pair[0] - b'0') * 10 + u32::from(pair[1] - b'0'));
    }
    if let [last] = pairs.remainder() {
        // Code set B: a character's value is its ASCII code less 32.
        values.push(CODE_B);
        values.push(u32::from(*last) - 32);
    }
    let check = values
        .iter()
        .enumerate()
        .map(|(i, v)| if i == 0 { *v } else { v * i as u32 })
        .sum::<u32>()
        % 103;
    values.push(check);
    values.push(STOP);
    Some(values)
}

/// The bars of `values` as (start module, width in modules), left to right.
pub fn bars(values: &[u32]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut x = 0;
    for v in values {
        for (i, w) in PATTERNS[*v as usize].bytes().enumerate() {
            let w = u32::from(w - b'0');
            if i % 2 == 0 {
                out.push((x, w));
            }
            x += w;
        }
    }
    out
}

/// The width of `values` in modules.
pub fn modules(values: &[u32]) -> u32 {
    values
        .iter()
        .flat_map(|v| PATTERNS[*v as usize].bytes())
        .map(|w| u32::from(w - b'0'))
        .sum()
}

/// What one package's label shows.
pub struct PackageLabel {
    pub sscc: String,
    /// `(00) 1 0614141 234567890 8`.
    pub sscc_human: String,
    /// The element string's digits after `(00)` + SSCC: `02{gtin}37{count}`
    /// for a package of one product in whole units, else empty.
    pub content: Option<(String, String)>,
    /// `Shipment SH-000042, package 1 of 2`.
    pub title: String,
    /// Lines of what the package holds (product, lot, quantity).
    pub lines: Vec<String>,
}

/// The parties of the shipment.
pub struct Parties {
    pub from: Vec<String>,
    pub to: Vec<String>,
}

/// The element string of a package's barcode (digits only).
pub fn element_digits(p: &PackageLabel) -> String {
    match &p.content {
        Some((gtin, count)) => format!("00{}02{gtin}37{count}", p.sscc),
        None => format!("00{}", p.sscc),
    }
}

/// The barcode's text as people read it.
pub fn element_human(p: &PackageLabel) -> String {
    match &p.content {
        Some((gtin, count)) => format!("(00) {} (02) {gtin} (37) {count}", p.sscc),
        None => format!("(00) {}", p.sscc),
    }
}

struct Page<'a> {
    metrics: &'a Metrics,
    content: Content,
    y: f32,
}

impl Page<'_> {
    fn text(&mut self, font: Name<'static>, size: f32, x: f32, text: &str) {
        let fitted = self
            .metrics
            .fit(&printable(text), size, (PAGE_W - MARGIN - x) * MM_PER_PT);
        if fitted.is_empty() {
            return;
        }
        self.content.begin_text();
        self.content.set_font(font, size);
        self.content.next_line(x, self.y);
        self.content.show(Str(&to_winansi(&fitted)));
        self.content.end_text();
    }
    fn line(&mut self, font: Name<'static>, size: f32, text: &str) {
        self.y -= size * 1.35;
        self.text(font, size, MARGIN, text);
    }
    fn rule(&mut self) {
        self.y -= 8.0;
        self.content.set_line_width(1.0);
        self.content.move_to(MARGIN, self.y);
        self.content.line_to(PAGE_W - MARGIN, self.y);
        self.content.stroke();
    }
}

/// The label PDF: one page per package.
pub fn render(parties: &Parties, packages: &[PackageLabel]) -> anyhow::Result<Vec<u8>> {
    let metrics = Metrics::new()?;
    let mut contents = Vec::with_capacity(packages.len());
    for p in packages {
        let mut page = Page {
            metrics: &metrics,
            content: Content::new(),
            y: PAGE_H - MARGIN,
        };
        page.line(BOLD, 9.0, "FROM");
        for l in &parties.from {
            page.line(REGULAR, 10.0, l);
        }
        page.rule();
        page.line(BOLD, 9.0, "TO");
        for l in &parties.to {
            page.line(REGULAR, 10.0, l);
        }
        page.rule();
        page.line(BOLD, 9.0, "SSCC");
        page.line(BOLD, 16.0, &p.sscc_human);
        if let Some((gtin, count)) = &p.content {
            page.line(
                REGULAR,
                10.0,
                &format!("CONTENT (02) {gtin}   COUNT (37) {count}"),
            );
        }
        page.rule();
        page.line(BOLD, 9.0, &p.title);
        for l in p.lines.iter().take(12) {
            page.line(REGULAR, 9.0, l);
        }
        if p.lines.len() > 12 {
            page.line(
                REGULAR,
                9.0,
                &format!("... and {} more lines", p.lines.len() - 12),
            );
        }

        // The barcode at the bottom: bars 30 mm high, quiet zones of ten
        // modules, the module as wide as the page allows (at most 0.5 mm).
        let values = gs1_128_values(&element_digits(p))
            .ok_or_else(|| anyhow::anyhow!("SSCC {} is not digits", p.sscc))?;
        let total = modules(&values) + 20;
        let module = ((PAGE_W - 2.0 * MARGIN) / total as f32).min(0.5 * PT_PER_MM);
        let height = 30.0 * PT_PER_MM;
        let left = (PAGE_W - total as f32 * module) / 2.0 + 10.0 * module;
        let bottom = MARGIN + 24.0;
        page.content.set_fill_rgb(0.0, 0.0, 0.0);
        for (x, w) in bars(&values) {
            page.content
                .rect(left + x as f32 * module, bottom, w as f32 * module, height);
        }
        page.content.fill_nonzero();
        let human = element_human(p);
        let width = metrics.width_mm(&human, 10.0) * PT_PER_MM;
        page.y = MARGIN + 8.0;
        page.text(REGULAR, 10.0, ((PAGE_W - width) / 2.0).max(MARGIN), &human);
        contents.push(page.content);
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
        .title(TextStr("SSCC logistic labels"))
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
    for content in contents {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gs1_128_values_and_check() {
        // (00) 106141412345678908: start C, FNC1, ten pairs, check, stop.
        let v = gs1_128_values("00106141412345678908").unwrap();
        assert_eq!(&v[..4], &[105, 102, 0, 10]);
        assert_eq!(v.len(), 2 + 10 + 2);
        assert_eq!(*v.last().unwrap(), STOP);
        let sum: u32 = 105
            + v[1..v.len() - 2]
                .iter()
                .enumerate()
                .map(|(i, x)| x * (i as u32 + 1))
                .sum::<u32>();
        assert_eq!(v[v.len() - 2], sum % 103);
        // An odd number of digits ends in code set B.
        let odd = gs1_128_values("001061414123456789080201234567890128373").unwrap();
        assert_eq!(
            odd[odd.len() - 4..odd.len() - 2],
            [CODE_B, u32::from(b'3') - 32]
        );
        assert!(gs1_128_values("").is_none());
        assert!(gs1_128_values("12a").is_none());
        // Every symbol is 11 modules, the stop 13.
        assert_eq!(modules(&v), 11 * (v.len() as u32 - 1) + 13);
        assert!(
            PATTERNS[..106]
                .iter()
                .all(|p| p.len() == 6 && p.bytes().map(|b| u32::from(b - b'0')).sum::<u32>() == 11)
        );
    }
}
