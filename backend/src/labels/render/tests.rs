//! End-to-end tests: render, then read the barcodes back with independent
//! decoders (rxing, rqrr) and, for PDF, poppler's `pdftoppm`/`pdftotext`
//! (Debian package `poppler-utils`, required).
//!
//! The test binary uses [`TrackingAlloc`], a global allocator that wraps the
//! system allocator and counts the bytes live per thread, to check that
//! streaming 10,000 labels keeps memory bounded.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::Command;
use std::rc::Rc;

use chrono::NaiveDate;
use rxing::{BarcodeFormat, DecodeHints, RXingResultMetadataType, RXingResultMetadataValue};

use super::*;

// ---------------------------------------------------------------------------
// Per-thread allocation tracking
// ---------------------------------------------------------------------------

/// Counts live heap bytes per thread (tests run on parallel threads).
struct TrackingAlloc;

thread_local! {
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn track(delta: i64) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// bookkeeping uses const-initialized thread locals, which never allocate.
unsafe impl GlobalAlloc for TrackingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            track(layout.size() as i64);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            track(layout.size() as i64);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) };
        track(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            track(new_size as i64 - layout.size() as i64);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: TrackingAlloc = TrackingAlloc;

/// Runs `f` and returns its result and the peak heap growth (bytes) on this
/// thread while it ran.
fn peak_heap_growth<T>(f: impl FnOnce() -> T) -> (T, i64) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|peak| peak.set(start));
    let result = f();
    (result, PEAK.with(Cell::get) - start)
}

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("valid date")
}

/// A GTIN-14 from 13 digits plus its computed check digit.
fn gtin(body: &str) -> String {
    format!(
        "{body}{}",
        crate::gs1::check_digit(body).expect("13 digits")
    )
}

/// Label `i` of a batch: lot, expiry and serial vary so that every label has
/// different barcode data.
fn label(i: u32) -> LabelData {
    let gtin = gtin(&format!("095060001{:04}", i % 10_000));
    LabelData {
        product_name: format!("Château Margaux #{i}"),
        lot: (!i.is_multiple_of(3)).then(|| format!("L{i}-B")),
        expiry: i
            .is_multiple_of(2)
            .then(|| date(2027, 1 + i % 12, 1 + i % 28)),
        serial: format!("S{i:05}"),
        uri: format!("https://id.example.com/01/{gtin}/21/S{i:05}?p=%2F~{i}"),
        gtin,
    }
}

fn design(symbology: Symbology, width_mm: f32, height_mm: f32) -> LabelDesign {
    LabelDesign::new(width_mm, height_mm, symbology)
}

/// The expected DataMatrix text, written out by hand (not via the code under
/// test): GS only after a lot that is followed by the serial.
fn expected_element_string(l: &LabelData) -> String {
    let mut s = format!("01{}", l.gtin);
    if let Some(d) = l.expiry {
        s.push_str(&d.format("17%y%m%d").to_string());
    }
    if let Some(lot) = &l.lot {
        s.push_str(&format!("10{lot}\u{1D}"));
    }
    s.push_str(&format!("21{}", l.serial));
    s
}

// ---------------------------------------------------------------------------
// Decoding helpers
// ---------------------------------------------------------------------------

/// A grayscale image.
struct Gray {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Gray {
    fn from_png(bytes: &[u8]) -> Gray {
        let img = image::load_from_memory(bytes)
            .expect("PNG decodes")
            .to_luma8();
        Gray {
            width: img.width(),
            height: img.height(),
            pixels: img.into_raw(),
        }
    }

    /// The part of the image covering `x..x+w`, `y..y+h` millimetres at
    /// `px_per_mm`.
    fn crop_mm(&self, px_per_mm: f32, x: f32, y: f32, w: f32, h: f32) -> Gray {
        let x0 = ((x * px_per_mm).round() as u32).min(self.width);
        let y0 = ((y * px_per_mm).round() as u32).min(self.height);
        let x1 = (((x + w) * px_per_mm).round() as u32).min(self.width);
        let y1 = (((y + h) * px_per_mm).round() as u32).min(self.height);
        let mut pixels = Vec::with_capacity(((x1 - x0) * (y1 - y0)) as usize);
        for row in y0..y1 {
            let start = (row * self.width) as usize;
            pixels.extend_from_slice(&self.pixels[start + x0 as usize..start + x1 as usize]);
        }
        Gray {
            width: x1 - x0,
            height: y1 - y0,
            pixels,
        }
    }

    fn is_blank(&self) -> bool {
        self.pixels.iter().all(|&p| p > 250)
    }
}

/// Text and AIM symbology identifier of one barcode.
#[derive(Debug)]
struct Decoded {
    text: String,
    symbology_id: String,
    /// The data codewords as read from the symbol.
    raw: Vec<u8>,
}

fn rxing_decode(img: &Gray, format: BarcodeFormat) -> Decoded {
    let result = rxing::helpers::detect_in_luma_with_hints(
        img.pixels.clone(),
        img.width,
        img.height,
        Some(format),
        &mut DecodeHints::default(),
    )
    .unwrap_or_else(|e| panic!("rxing found no {format:?}: {e}"));
    let symbology_id = match result
        .getRXingResultMetadata()
        .get(&RXingResultMetadataType::SYMBOLOGY_IDENTIFIER)
    {
        Some(RXingResultMetadataValue::SymbologyIdentifier(id)) => id.clone(),
        other => panic!("no symbology identifier: {other:?}"),
    };
    Decoded {
        text: result.getText().to_owned(),
        symbology_id,
        raw: result.getRawBytes().to_vec(),
    }
}

fn rqrr_decode(img: &Gray) -> String {
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(
        img.width as usize,
        img.height as usize,
        |x, y| img.pixels[y * img.width as usize + x],
    );
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "rqrr should find exactly one QR code");
    grids[0].decode().expect("rqrr decodes").1
}

/// A scratch directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("labels-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Rasterizes every page with `pdftoppm -r <dpi> -png` and asserts that
/// poppler printed nothing (no warnings or errors).
fn rasterize_pdf(pdf: &[u8], dpi: u32, name: &str) -> Vec<Gray> {
    let dir = TempDir::new(name);
    let path = dir.0.join("labels.pdf");
    std::fs::write(&path, pdf).expect("write PDF");
    let output = Command::new("pdftoppm")
        .arg("-r")
        .arg(dpi.to_string())
        .arg("-png")
        .arg(&path)
        .arg(dir.0.join("page"))
        .output()
        .expect("pdftoppm must be installed (Debian package poppler-utils)");
    assert!(output.status.success(), "pdftoppm failed: {output:?}");
    assert!(
        output.stderr.is_empty() && output.stdout.is_empty(),
        "pdftoppm complained: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut pages: Vec<(u32, PathBuf)> = std::fs::read_dir(&dir.0)
        .expect("read temp dir")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let stem = path.file_stem()?.to_str()?.to_owned();
            let number = stem.strip_prefix("page-")?.parse().ok()?;
            Some((number, path))
        })
        .collect();
    pages.sort();
    pages
        .iter()
        .map(|(_, path)| Gray::from_png(&std::fs::read(path).expect("read page")))
        .collect()
}

fn pdftotext(pdf: &[u8], name: &str) -> String {
    let dir = TempDir::new(name);
    let path = dir.0.join("labels.pdf");
    std::fs::write(&path, pdf).expect("write PDF");
    let output = Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext must be installed (Debian package poppler-utils)");
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "{output:?}"
    );
    String::from_utf8(output.stdout).expect("UTF-8 text")
}

fn pdf(design: &LabelDesign, sheet: Sheet, labels: &[LabelData]) -> Vec<u8> {
    let mut out = Vec::new();
    let count =
        render_pdf(design, &sheet, labels.iter().cloned(), &mut out, |_| {}).expect("renders");
    assert_eq!(count, labels.len() as u64);
    out
}

fn zpl(design: &LabelDesign, labels: &[LabelData]) -> String {
    let mut out = Vec::new();
    let count = render_zpl(design, labels.iter().cloned(), &mut out, |_| {}).expect("renders");
    assert_eq!(count, labels.len() as u64);
    String::from_utf8(out).expect("ZPL is UTF-8")
}

// ---------------------------------------------------------------------------
// GS1 element string
// ---------------------------------------------------------------------------

#[test]
fn element_string_orders_ais_and_separates_only_where_required() {
    let base = LabelData {
        product_name: String::new(),
        gtin: "09506000134352".into(),
        lot: Some("ABC123".into()),
        expiry: Some(date(2027, 3, 31)),
        serial: "12345".into(),
        uri: "https://id.gs1.org/01/09506000134352/21/12345".into(),
    };
    assert_eq!(
        gs1_element_string(&base),
        "010950600013435217270331".to_owned() + "10ABC123\u{1D}2112345"
    );
    assert_eq!(
        gs1_human_readable(&base),
        "(01)09506000134352(17)270331(10)ABC123(21)12345"
    );
    let no_lot = LabelData {
        lot: None,
        ..base.clone()
    };
    assert_eq!(
        gs1_element_string(&no_lot),
        "0109506000134352172703312112345"
    );
    let no_expiry = LabelData {
        expiry: None,
        ..base.clone()
    };
    assert_eq!(
        gs1_element_string(&no_expiry),
        "0109506000134352".to_owned() + "10ABC123\u{1D}2112345"
    );
    let minimal = LabelData {
        lot: None,
        expiry: None,
        ..base
    };
    assert_eq!(gs1_element_string(&minimal), "01095060001343522112345");
    assert_eq!(gs1_human_readable(&minimal), "(01)09506000134352(21)12345");
}

// ---------------------------------------------------------------------------
// PNG preview
// ---------------------------------------------------------------------------

#[test]
fn qr_preview_decodes_to_exactly_the_uri() {
    let d = design(Symbology::Qr, 70.0, 37.0);
    let mut long = label(7);
    long.uri = format!(
        "https://brand.example.com/01/{}/10/L7-B/21/S00007?linkType=all&a={}",
        long.gtin,
        "x".repeat(150)
    );
    for (l, dpmm) in [(label(1), 8.0), (label(2), 12.0), (long, 12.0)] {
        let img = Gray::from_png(&render_png(&d, &l, dpmm).expect("renders"));
        assert_eq!(img.width, (70.0 * dpmm) as u32);
        assert_eq!(rqrr_decode(&img), l.uri);
        let decoded = rxing_decode(&img, BarcodeFormat::QR_CODE);
        assert_eq!(decoded.text, l.uri);
        assert_eq!(decoded.symbology_id, "]Q1");
    }
}

#[test]
fn datamatrix_preview_carries_the_gs1_element_string() {
    let d = design(Symbology::DataMatrix, 70.0, 37.0);
    let base = label(1);
    let cases = [
        (
            "lot and expiry",
            Some("ABC123"),
            Some(date(2027, 3, 31)),
            "12345",
        ),
        ("lot, no expiry", Some("ABC123"), None, "12345"),
        ("expiry, no lot", None, Some(date(2030, 12, 1)), "12345"),
        ("neither", None, None, "12345"),
        (
            "20-char lot with odd characters",
            Some("L_%&'()*+,-./:;<=>?z"),
            Some(date(2026, 2, 28)),
            "A1",
        ),
        (
            "20-char serial, digits",
            Some("7"),
            None,
            "01234567890123456789",
        ),
        (
            "odd-length numeric serial",
            None,
            Some(date(2027, 1, 9)),
            "123",
        ),
    ];
    for (name, lot, expiry, serial) in cases {
        let l = LabelData {
            lot: lot.map(str::to_owned),
            expiry,
            serial: serial.to_owned(),
            ..base.clone()
        };
        let expected = expected_element_string(&l);
        assert_eq!(gs1_element_string(&l), expected, "{name}");
        let img = Gray::from_png(&render_png(&d, &l, 10.0).expect("renders"));
        let decoded = rxing_decode(&img, BarcodeFormat::DATA_MATRIX);
        assert_eq!(decoded.symbology_id, "]d2", "{name}: GS1 DataMatrix");
        assert_eq!(decoded.text, expected, "{name}");
        assert_eq!(
            decoded.text.contains('\u{1D}'),
            lot.is_some(),
            "{name}: GS only after a lot"
        );
        // In the symbol, the separator is the FNC1 codeword (232), never a
        // literal GS (ASCII 29 = codeword 30). Padding starts at codeword 129,
        // which no GS1 character maps to.
        let data_end = decoded.raw.iter().position(|&b| b == 129);
        let data = &decoded.raw[..data_end.unwrap_or(decoded.raw.len())];
        assert_eq!(data.first(), Some(&232), "{name}: FNC1 first");
        let fnc1s = data.iter().filter(|&&b| b == 232).count();
        assert_eq!(fnc1s, 1 + usize::from(lot.is_some()), "{name}: {data:?}");
        assert!(!data.contains(&30), "{name}: no literal GS");
    }
}

#[test]
fn preview_survives_hostile_text() {
    let d = design(Symbology::Qr, 50.0, 30.0);
    let names = [
        String::new(),
        "🍷🍷🍷 Ünïcödé ✓ 日本語 עברית".to_owned(),
        "<script>alert(1)</script> (x) \\ ) ( %PDF-1.7 endobj".to_owned(),
        "e\u{301}\u{200B}\u{0}\u{7}\u{1B}[31m\r\n\ttab".to_owned(),
        "W".repeat(10_000),
    ];
    for name in names {
        let l = LabelData {
            product_name: name,
            ..label(3)
        };
        let img = Gray::from_png(&render_png(&d, &l, 8.0).expect("renders"));
        assert_eq!(rqrr_decode(&img), l.uri);
    }
}

#[test]
fn preview_resolution_is_checked() {
    let d = design(Symbology::Qr, 50.0, 30.0);
    for dpmm in [0.0, 3.9, 48.5, f32::NAN, f32::INFINITY] {
        let err = render_png(&d, &label(1), dpmm).expect_err("rejected");
        assert!(matches!(err, RenderError::Resolution(_)), "{err}");
    }
}

// ---------------------------------------------------------------------------
// PDF
// ---------------------------------------------------------------------------

/// Decodes the barcode in every used cell of every page, in fill order.
fn decode_sheet(
    pages: &[Gray],
    sheet: Sheet,
    design: &LabelDesign,
    dpi: u32,
    count: usize,
    format: BarcodeFormat,
) -> Vec<Decoded> {
    let px_per_mm = dpi as f32 / 25.4;
    let (per_page, cell) = match sheet.geometry() {
        Some(g) => (g.labels_per_page() as usize, Some(g)),
        None => (1, None),
    };
    assert_eq!(pages.len(), count.div_ceil(per_page), "page count");
    let mut decoded = Vec::new();
    for (page_index, page) in pages.iter().enumerate() {
        for slot in 0..per_page {
            let (x, y) = cell.map_or((0.0, 0.0), |g| g.cell_origin_mm(slot as u32));
            let img = page.crop_mm(px_per_mm, x, y, design.width_mm, design.height_mm);
            if page_index * per_page + slot < count {
                decoded.push(rxing_decode(&img, format));
            } else {
                assert!(img.is_blank(), "unused cell {slot} must stay empty");
            }
        }
    }
    decoded
}

#[test]
fn pdf_a4_sheet_qr_codes_decode_in_order() {
    let sheet = Sheet::A4(A4Preset::Grid3x8);
    let d = design(Symbology::Qr, 70.0, 37.0);
    let labels: Vec<_> = (0..26).map(label).collect(); // 2 pages, 2nd mostly empty
    let pages = rasterize_pdf(&pdf(&d, sheet, &labels), 300, "a4-qr");
    let (w, h) = (pages[0].width, pages[0].height);
    assert!(
        (2480..=2481).contains(&w) && (3507..=3508).contains(&h),
        "A4 at 300 dpi: {w} × {h}"
    );
    let decoded = decode_sheet(&pages, sheet, &d, 300, labels.len(), BarcodeFormat::QR_CODE);
    for (l, got) in labels.iter().zip(&decoded) {
        assert_eq!(got.text, l.uri);
    }
}

#[test]
fn pdf_l7163_sheet_datamatrix_decodes_in_order() {
    let sheet = Sheet::A4(A4Preset::L7163);
    let d = design(Symbology::DataMatrix, 99.1, 38.1);
    let labels: Vec<_> = (0..15).map(label).collect();
    let pages = rasterize_pdf(&pdf(&d, sheet, &labels), 300, "l7163-dm");
    let decoded = decode_sheet(
        &pages,
        sheet,
        &d,
        300,
        labels.len(),
        BarcodeFormat::DATA_MATRIX,
    );
    for (l, got) in labels.iter().zip(&decoded) {
        assert_eq!(got.symbology_id, "]d2");
        assert_eq!(got.text, expected_element_string(l));
    }
}

#[test]
fn pdf_letter_sheets_decode_in_order() {
    let cases = [
        (Sheet::Letter(LetterPreset::Avery5160), 66.7, 25.4, 31),
        (Sheet::Letter(LetterPreset::Avery5163), 101.6, 50.8, 3),
    ];
    for (sheet, w, h, n) in cases {
        let d = design(Symbology::DataMatrix, w, h);
        let labels: Vec<_> = (100..100 + n).map(label).collect();
        let pages = rasterize_pdf(&pdf(&d, sheet, &labels), 300, "letter");
        assert_eq!((pages[0].width, pages[0].height), (2550, 3300), "Letter");
        let decoded = decode_sheet(
            &pages,
            sheet,
            &d,
            300,
            labels.len(),
            BarcodeFormat::DATA_MATRIX,
        );
        for (l, got) in labels.iter().zip(&decoded) {
            assert_eq!(got.text, expected_element_string(l));
        }
    }
}

#[test]
fn pdf_single_pages_have_the_label_size() {
    for symbology in [Symbology::Qr, Symbology::DataMatrix] {
        let d = design(symbology, 50.0, 30.0);
        let labels: Vec<_> = (20..23).map(label).collect();
        let pages = rasterize_pdf(&pdf(&d, Sheet::Single, &labels), 300, "single");
        for page in &pages {
            // 50 × 30 mm at 300 dpi = 590.6 × 354.3 px (poppler rounds up).
            assert!((590..=591).contains(&page.width), "{}", page.width);
            assert!((354..=355).contains(&page.height), "{}", page.height);
        }
        let format = match symbology {
            Symbology::Qr => BarcodeFormat::QR_CODE,
            Symbology::DataMatrix => BarcodeFormat::DATA_MATRIX,
        };
        let decoded = decode_sheet(&pages, Sheet::Single, &d, 300, labels.len(), format);
        for (l, got) in labels.iter().zip(&decoded) {
            let expected = match symbology {
                Symbology::Qr => l.uri.clone(),
                Symbology::DataMatrix => expected_element_string(l),
            };
            assert_eq!(got.text, expected);
        }
    }
}

#[test]
fn pdf_text_is_helvetica_winansi_with_unsupported_characters_replaced() {
    let d = design(Symbology::Qr, 99.1, 38.1);
    let mut l = label(5);
    l.product_name = "Crème (brûlée) \\ 🍷 <b>€5</b>".to_owned();
    let mut long = label(6);
    long.product_name = "Extraordinarily long product name ".repeat(20);
    let bytes = pdf(&d, Sheet::A4(A4Preset::L7163), &[l, long]);
    let text = pdftotext(&bytes, "text");
    assert!(text.contains("Crème (brûlée) \\ ? <b>€5</b>"), "{text}");
    assert!(text.contains(&format!("GTIN {}", label(5).gtin)), "{text}");
    assert!(text.contains("Extraordinarily long product name"), "{text}");
    assert!(
        text.contains('…'),
        "long name is shortened with an ellipsis: {text}"
    );
    // Still renders cleanly.
    rasterize_pdf(&bytes, 72, "text-raster");
}

// ---------------------------------------------------------------------------
// ZPL
// ---------------------------------------------------------------------------

/// The `^XA … ^XZ` formats of a ZPL stream, asserting nothing lies between.
fn zpl_formats(zpl: &str) -> Vec<&str> {
    let mut formats = Vec::new();
    let mut rest = zpl;
    while !rest.trim().is_empty() {
        let body = rest
            .trim_start()
            .strip_prefix("^XA")
            .expect("format starts with ^XA");
        let end = body.find("^XZ").expect("format ends with ^XZ");
        formats.push(&body[..end]);
        rest = &body[end + 3..];
    }
    formats
}

#[test]
fn zpl_qr_labels_have_the_required_commands() {
    let d = design(Symbology::Qr, 70.0, 37.0);
    let labels: Vec<_> = (0..5).map(label).collect();
    let out = zpl(&d, &labels);
    let formats = zpl_formats(&out);
    assert_eq!(formats.len(), labels.len());
    for (l, f) in labels.iter().zip(&formats) {
        assert!(f.contains("^PW560\n^LL296\n"), "{f}");
        assert!(f.contains("^CI28"), "{f}");
        assert!(f.contains("^BQN,2,"), "{f}");
        // '~' in the URI is hex-escaped; '%' is plain data.
        let uri = l.uri.replace('~', "\\7E");
        assert!(f.contains(&format!("^FH\\^FDMA,{uri}^FS")), "{f}");
        assert!(f.contains(&format!("^FDGTIN {}^FS", l.gtin)), "{f}");
        assert!(f.contains(&format!("^FDSN {}^FS", l.serial)), "{f}");
        assert_eq!(f.matches("^FS").count(), f.matches("^FD").count());
    }
}

#[test]
fn zpl_datamatrix_uses_fnc1_escapes() {
    let d = design(Symbology::DataMatrix, 70.0, 37.0);
    let mut with_lot = label(1);
    with_lot.lot = Some("A_B".into());
    with_lot.expiry = Some(date(2027, 3, 31));
    with_lot.serial = "123".into();
    let mut without_lot = with_lot.clone();
    without_lot.lot = None;
    let out = zpl(&d, &[with_lot.clone(), without_lot.clone()]);
    let formats = zpl_formats(&out);
    assert_eq!(formats.len(), 2);
    let fd = |l: &LabelData, tail: &str| format!("^FH\\^FD_101{}17270331{tail}^FS", l.gtin);
    // FNC1 first, FNC1 (_1) after the lot, '_' in the lot doubled.
    assert!(
        formats[0].contains(&fd(&with_lot, "10A__B_121123")),
        "{}",
        formats[0]
    );
    assert!(
        formats[1].contains(&fd(&without_lot, "21123")),
        "{}",
        formats[1]
    );
    for f in formats {
        let bx = f.find("^BXN,").expect("^BX command");
        assert!(
            f[bx..].starts_with("^BXN,") && f[bx..].contains(",200,"),
            "{f}"
        );
        assert!(f.contains(",,_^FH"), "escape character set explicitly: {f}");
    }
}

/// The number right after `prefix` in `text`.
fn number_after(text: &str, prefix: &str) -> u32 {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("{prefix} in {text}"))
        + prefix.len();
    let digits: String = text[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("number after {prefix} in {text}"))
}

#[test]
fn zpl_barcode_position_matches_the_preview() {
    for symbology in [Symbology::Qr, Symbology::DataMatrix] {
        let d = design(symbology, 70.0, 37.0);
        let l = label(4);
        let out = zpl(&d, std::slice::from_ref(&l));
        let x = number_after(&out, "^FO");
        let y = number_after(&out, &format!("^FO{x},"));
        let (module, size) = match symbology {
            Symbology::Qr => (
                number_after(&out, "^BQN,2,"),
                symbol::qr(&l.uri).expect("qr").size() as u32,
            ),
            Symbology::DataMatrix => (
                number_after(&out, "^BXN,"),
                symbol::gs1_datamatrix(&l).expect("dm").size() as u32,
            ),
        };
        if symbology == Symbology::DataMatrix {
            assert!(out.contains(&format!(",200,{size},{size},,_")), "{out}");
        }
        // The preview at the printer's 8 dots/mm has the symbol's corner
        // modules exactly where the printer puts them: QR finder patterns
        // at top-left, top-right and bottom-left; the DataMatrix "L" along
        // the left and bottom edges.
        let img = Gray::from_png(&render_png(&d, &l, 8.0).expect("renders"));
        let dark = |px: u32, py: u32| img.pixels[(py * img.width + px) as usize] < 128;
        let (right, bottom) = (x + size * module - 1, y + size * module - 1);
        assert!(dark(x, y) && dark(x, bottom), "{symbology}: left corners");
        let (corner_x, corner_y) = match symbology {
            Symbology::Qr => (right, y),
            Symbology::DataMatrix => (right, bottom),
        };
        assert!(dark(corner_x, corner_y), "{symbology}: right corner");
        assert!(
            !dark(x - 1, y) && !dark(x, y - 1) && !dark(x, bottom + 1),
            "{symbology}: outside left/top/bottom light"
        );
        assert!(
            !dark(right + 1, corner_y),
            "{symbology}: outside right light"
        );
    }
}

#[test]
fn zpl_density_sets_width_and_length_in_dots() {
    let d = design(Symbology::Qr, 50.0, 25.0);
    for (density, pw, ll) in [
        (ZplDensity::Dpmm6, 300, 150),
        (ZplDensity::Dpmm8, 400, 200),
        (ZplDensity::Dpmm12, 600, 300),
        (ZplDensity::Dpmm24, 1200, 600),
    ] {
        let mut out = Vec::new();
        render_zpl_with_density(&d, density, [label(1)], &mut out, |_| {}).expect("renders");
        let out = String::from_utf8(out).expect("UTF-8");
        assert!(out.contains(&format!("^PW{pw}\n^LL{ll}\n")), "{out}");
    }
}

#[test]
fn zpl_product_name_cannot_inject_commands() {
    let d = design(Symbology::Qr, 99.1, 38.1);
    let evil = LabelData {
        product_name: "X^XZ^XA~JR^FDpwn\\5E~".to_owned(),
        ..label(1)
    };
    let out = zpl(&d, &[evil, label(2)]);
    let formats = zpl_formats(&out);
    assert_eq!(formats.len(), 2, "exactly one format per label: {out}");
    assert!(!out.contains("~JR"), "no tilde command survives: {out}");
    assert_eq!(out.matches('~').count(), 0, "{out}");
    assert_eq!(out.matches("^XA").count(), 2);
    assert_eq!(out.matches("^XZ").count(), 2);
    assert!(
        formats[0].contains("^FH\\^FDX\\5EXZ\\5EXA\\7EJR\\5EFDpwn\\5C5E\\7E^FS"),
        "{}",
        formats[0]
    );
    // Every '^' in the output starts a command we wrote ourselves.
    let allowed = [
        "XA", "XZ", "CI", "PW", "LL", "LH", "FO", "FT", "BQ", "A0", "FH", "FD", "FS",
    ];
    for cmd in out.split('^').skip(1) {
        assert!(
            allowed.iter().any(|a| cmd.starts_with(a)),
            "unexpected ^{cmd}"
        );
    }
}

// ---------------------------------------------------------------------------
// Large batches
// ---------------------------------------------------------------------------

/// A writer that keeps only counts: bytes, occurrences of one needle (across
/// write boundaries), and the last bytes written.
struct CountingSink {
    bytes: Rc<Cell<u64>>,
    needle: &'static [u8],
    matches: u64,
    tail: Vec<u8>,
}

impl CountingSink {
    fn new(needle: &'static [u8], bytes: Rc<Cell<u64>>) -> Self {
        Self {
            bytes,
            needle,
            matches: 0,
            tail: Vec::new(),
        }
    }
}

impl Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.set(self.bytes.get() + buf.len() as u64);
        let keep = self.tail.len().saturating_sub(self.needle.len() - 1);
        self.tail.drain(..keep);
        let overlap = self.tail.len();
        self.tail.extend_from_slice(buf);
        self.matches += self
            .tail
            .windows(self.needle.len())
            .enumerate()
            .filter(|(i, w)| *w == self.needle && i + self.needle.len() > overlap)
            .count() as u64;
        let keep = self.tail.len().saturating_sub(64);
        self.tail.drain(..keep);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

const MANY: u32 = 10_000;
const MAX_HEAP_GROWTH: i64 = 8 << 20;

#[test]
fn ten_thousand_labels_stream_to_pdf_with_bounded_memory() {
    for (sheet, symbology, w, h, pages) in [
        (Sheet::Single, Symbology::Qr, 50.0, 30.0, 10_000),
        (
            Sheet::A4(A4Preset::Grid3x8),
            Symbology::DataMatrix,
            70.0,
            37.0,
            417,
        ),
    ] {
        let d = design(symbology, w, h);
        let bytes = Rc::new(Cell::new(0));
        let mut sink = CountingSink::new(b"/Type /Page\n", bytes.clone());
        let at_half = Rc::new(Cell::new(0u64));
        let last = RefCell::new(0u64);
        let (count, growth) = peak_heap_growth(|| {
            render_pdf(&d, &sheet, (0..MANY).map(label), &mut sink, |n| {
                *last.borrow_mut() = n;
                if n == u64::from(MANY / 2) {
                    at_half.set(bytes.get());
                }
            })
            .expect("renders")
        });
        assert_eq!(count, u64::from(MANY));
        assert_eq!(*last.borrow(), u64::from(MANY));
        assert_eq!(sink.matches, pages, "page objects");
        assert!(sink.tail.ends_with(b"%%EOF\n"));
        // Streaming: a good part of the file had left before the last label.
        assert!(
            at_half.get() > bytes.get() / 3,
            "{} of {}",
            at_half.get(),
            bytes.get()
        );
        eprintln!(
            "{sheet:?}: {} bytes of PDF, peak heap growth {growth} bytes",
            bytes.get()
        );
        assert!(growth < MAX_HEAP_GROWTH, "heap grew by {growth} bytes");
    }
}

#[test]
fn ten_thousand_labels_stream_to_zpl_with_bounded_memory() {
    let d = design(Symbology::DataMatrix, 50.0, 30.0);
    let bytes = Rc::new(Cell::new(0));
    let mut sink = CountingSink::new(b"^XA", bytes);
    let (count, growth) = peak_heap_growth(|| {
        render_zpl(&d, (0..MANY).map(label), &mut sink, |_| {}).expect("renders")
    });
    assert_eq!(count, u64::from(MANY));
    assert_eq!(sink.matches, u64::from(MANY));
    assert!(sink.tail.ends_with(b"^XZ\n"));
    eprintln!("ZPL: peak heap growth {growth} bytes");
    assert!(growth < MAX_HEAP_GROWTH, "heap grew by {growth} bytes");
}

// ---------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------

#[test]
fn good_designs_validate() {
    for d in [
        design(Symbology::Qr, 70.0, 37.0),
        design(Symbology::DataMatrix, 66.7, 25.4),
        LabelDesign {
            text: TextFields::NONE,
            margin_mm: 0.0,
            ..design(Symbology::DataMatrix, 10.0, 10.0)
        },
        LabelDesign {
            font_size_pt: 5.0,
            ..design(Symbology::DataMatrix, 25.0, 25.0)
        },
        // Narrow: no fixed-format line, text below the symbol.
        LabelDesign {
            text: TextFields {
                product_name: true,
                serial: true,
                ..TextFields::NONE
            },
            ..design(Symbology::DataMatrix, 14.0, 30.0)
        },
    ] {
        validate(&d).unwrap_or_else(|e| panic!("{d:?}: {e}"));
    }
}

#[test]
fn bad_designs_are_rejected_with_actionable_messages() {
    let qr = |w, h| design(Symbology::Qr, w, h);
    let cases: Vec<(LabelDesign, &str)> = vec![
        (qr(5.0, 50.0), "between 10 and 300 mm"),
        (qr(50.0, 301.0), "between 10 and 300 mm"),
        (qr(f32::NAN, 50.0), "between 10 and 300 mm"),
        (
            LabelDesign {
                font_size_pt: 2.0,
                ..qr(70.0, 37.0)
            },
            "between 4 and 36 pt",
        ),
        (
            LabelDesign {
                margin_mm: -1.0,
                ..qr(70.0, 37.0)
            },
            "use a margin between 0 and",
        ),
        (
            LabelDesign {
                margin_mm: 10.0,
                ..qr(20.0, 20.0)
            },
            "use a margin between 0 and 7.5 mm",
        ),
        (qr(25.0, 25.0), "GTIN line needs"),
        (
            LabelDesign {
                text: TextFields {
                    expiry: true,
                    ..TextFields::NONE
                },
                font_size_pt: 12.0,
                ..qr(20.0, 40.0)
            },
            "use a font size of at most",
        ),
        (
            LabelDesign {
                text: TextFields::NONE,
                ..qr(15.0, 10.0)
            },
            "a QR code needs at least 9.2 mm",
        ),
        (
            LabelDesign {
                font_size_pt: 20.0,
                ..design(Symbology::DataMatrix, 150.0, 20.0)
            },
            "Make the label larger, reduce the margin or font size",
        ),
    ];
    for (d, expected) in cases {
        let err = validate(&d).expect_err("rejected");
        let message = err.to_string();
        assert!(message.contains(expected), "{d:?}: {message}");
        // The renderers refuse the design before writing anything.
        let mut out = Vec::new();
        assert!(render_pdf(&d, &Sheet::Single, [label(1)], &mut out, |_| {}).is_err());
        assert!(render_zpl(&d, [label(1)], &mut out, |_| {}).is_err());
        assert!(out.is_empty());
    }
}

#[test]
fn design_must_match_the_sheet() {
    let d = design(Symbology::Qr, 50.0, 30.0);
    let mut out = Vec::new();
    let err = render_pdf(
        &d,
        &Sheet::A4(A4Preset::Grid3x8),
        [label(1)],
        &mut out,
        |_| {},
    )
    .expect_err("rejected");
    assert!(matches!(err, RenderError::SheetMismatch { .. }));
    assert!(err.to_string().contains("has 70 × 37 mm labels"), "{err}");
    assert!(out.is_empty());
    // 66.7 mm is accepted for Avery 5160's 2⅝ in (66.675 mm).
    let avery = design(Symbology::Qr, 66.7, 25.4);
    Sheet::Letter(LetterPreset::Avery5160)
        .check_design(&avery)
        .expect("within tolerance");
}

#[test]
fn invalid_label_data_is_reported_with_position_and_field() {
    let good = label(1);
    let cases: Vec<(LabelData, &str, &str)> = vec![
        (
            LabelData {
                gtin: "0950600013435".into(),
                ..good.clone()
            },
            "gtin",
            "exactly 14 digits",
        ),
        (
            LabelData {
                gtin: "09506000134353".into(),
                ..good.clone()
            },
            "gtin",
            "wrong check digit",
        ),
        (
            LabelData {
                lot: Some("AB#1".into()),
                ..good.clone()
            },
            "lot",
            "contains '#'",
        ),
        (
            LabelData {
                lot: Some(String::new()),
                ..good.clone()
            },
            "lot",
            "1 to 20 characters",
        ),
        (
            LabelData {
                serial: "S".repeat(21),
                ..good.clone()
            },
            "serial",
            "1 to 20 characters (it has 21)",
        ),
        (
            LabelData {
                serial: "Ä1".into(),
                ..good.clone()
            },
            "serial",
            "contains 'Ä'",
        ),
        (
            LabelData {
                expiry: Some(date(1999, 12, 31)),
                ..good.clone()
            },
            "expiry",
            "2000 to 2099",
        ),
        (
            LabelData {
                uri: "https://x.example/a b".into(),
                ..good.clone()
            },
            "uri",
            "printable ASCII",
        ),
        (
            LabelData {
                uri: String::new(),
                ..good.clone()
            },
            "uri",
            "1 to 1000 characters",
        ),
    ];
    let d = design(Symbology::DataMatrix, 70.0, 37.0);
    for (bad, field, expected) in cases {
        let mut out = Vec::new();
        let err = render_zpl(&d, [label(0), bad], &mut out, |_| {}).expect_err("rejected");
        match &err {
            RenderError::InvalidLabel {
                position, field: f, ..
            } => {
                assert_eq!((*position, *f), (2, field), "{err}");
            }
            other => panic!("unexpected error {other}"),
        }
        let message = err.to_string();
        assert!(message.starts_with("Label 2: "), "{message}");
        assert!(message.contains(expected), "{message}");
    }
}

#[test]
fn oversized_symbol_is_reported_per_label() {
    let d = LabelDesign {
        text: TextFields::NONE,
        margin_mm: 0.0,
        ..design(Symbology::Qr, 20.0, 20.0)
    };
    let mut big = label(2);
    big.uri = format!("https://id.example.com/{}", "a".repeat(900));
    let mut out = Vec::new();
    let err = render_pdf(
        &d,
        &Sheet::Single,
        [label(1), big.clone()],
        &mut out,
        |_| {},
    )
    .expect_err("rejected");
    assert!(
        matches!(err, RenderError::SymbolTooLarge { position: 2, .. }),
        "{err}"
    );
    let message = err.to_string();
    assert!(
        message.starts_with("Label 2: the label is 20 × 20 mm; a QR code"),
        "{message}"
    );
    assert!(message.contains("needs at least"), "{message}");
    assert!(render_png(&d, &big, 8.0).is_err());
}

#[test]
fn empty_batches_are_rejected_before_writing() {
    let d = design(Symbology::Qr, 70.0, 37.0);
    let mut out = Vec::new();
    let err = render_pdf(&d, &Sheet::Single, std::iter::empty(), &mut out, |_| {});
    assert!(matches!(err, Err(RenderError::NoLabels)));
    let err = render_zpl(&d, Vec::new(), &mut out, |_| {});
    assert!(matches!(err, Err(RenderError::NoLabels)));
    assert!(out.is_empty());
}
