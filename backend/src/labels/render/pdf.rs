//! Streaming PDF output.
//!
//! Objects are written to the output as soon as a page is complete, so the
//! memory use does not grow with the number of labels, apart from one byte
//! offset per object and one reference per page (about 20 bytes per page).
//! The page tree, the catalog (both with references allocated up front) and
//! the cross-reference table are written at the end.

use std::io::{self, BufWriter, Write};

use miniz_oxide::deflate::compress_to_vec_zlib;
use pdf_writer::{Chunk, Content, Filter, Finish, Name, Rect, Ref, Str};

use super::layout::{Arrangement, LabelLayout};
use super::text::{Metrics, to_winansi};
use super::{LabelData, LabelDesign, RenderError, Sheet};

/// PDF points per millimetre.
const PT_PER_MM: f32 = 72.0 / 25.4;
/// zlib level for content streams.
const DEFLATE_LEVEL: u8 = 6;
/// Resource name of the Helvetica font on every page.
const FONT_NAME: Name<'static> = Name(b"F1");

/// A writer that counts the bytes passed through it.
struct Counting<W: Write> {
    inner: BufWriter<W>,
    position: u64,
}

impl<W: Write> Counting<W> {
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.inner.write_all(bytes)?;
        self.position += bytes.len() as u64;
        Ok(())
    }
}

/// Object bookkeeping: ids are handed out sequentially and each object's
/// byte offset is recorded when it is written.
struct Objects<W: Write> {
    out: Counting<W>,
    /// Offset of object `id` at index `id - 1`; 0 = not written yet.
    offsets: Vec<u64>,
    next_id: i32,
}

impl<W: Write> Objects<W> {
    fn alloc(&mut self) -> io::Result<Ref> {
        let id = Ref::new(self.next_id);
        self.next_id = self
            .next_id
            .checked_add(1)
            .ok_or_else(|| io::Error::other("too many PDF objects"))?;
        Ok(id)
    }

    /// Writes a chunk holding exactly the one object `id`.
    fn write(&mut self, id: Ref, chunk: &Chunk) -> io::Result<()> {
        let index = usize::try_from(id.get())
            .ok()
            .and_then(|id| id.checked_sub(1))
            .ok_or_else(|| io::Error::other("invalid PDF object id"))?;
        if self.offsets.len() <= index {
            self.offsets.resize(index + 1, 0);
        }
        self.offsets[index] = self.out.position;
        self.out.write_all(chunk.as_bytes())?;
        self.out.write_all(b"\n")
    }

    /// Writes the cross-reference table and trailer.
    fn finish(mut self, catalog: Ref) -> io::Result<()> {
        let xref_offset = self.out.position;
        let size = self.offsets.len() + 1;
        self.out
            .write_all(format!("xref\n0 {size}\n0000000000 65535 f\r\n").as_bytes())?;
        for index in 0..self.offsets.len() {
            let offset = self.offsets[index];
            if offset == 0 {
                return Err(io::Error::other(
                    "PDF object was allocated but never written",
                ));
            }
            self.out
                .write_all(format!("{offset:010} 00000 n\r\n").as_bytes())?;
        }
        let trailer = format!(
            "trailer\n<< /Size {size} /Root {} 0 R >>\nstartxref\n{xref_offset}\n%%EOF\n",
            catalog.get()
        );
        self.out.write_all(trailer.as_bytes())?;
        self.out.inner.flush()
    }
}

/// Renders labels into a PDF, streaming page by page.
///
/// Barcodes are drawn as filled rectangles (one per horizontal run of dark
/// modules, quiet zone kept blank), text in base-14 Helvetica with
/// WinAnsiEncoding (characters it lacks print as `?`), content streams are
/// Flate-compressed. With a sheet preset, labels fill the cells row by row;
/// the design must match the cell size.
///
/// `progress` is called with the number of labels written so far after each
/// label. Returns the number of labels written.
///
/// The design and sheet are checked before anything is written. A label
/// whose data is invalid or does not fit aborts the rendering with an error
/// naming its position; the output written until then is incomplete and must
/// be discarded.
pub fn render_pdf<W: Write>(
    design: &LabelDesign,
    sheet: &Sheet,
    labels: impl IntoIterator<Item = LabelData>,
    out: W,
    mut progress: impl FnMut(u64),
) -> Result<u64, RenderError> {
    let metrics = Metrics::new()?;
    let arrangement = Arrangement::new(design, &metrics)?;
    sheet.check_design(design)?;
    let mut labels = labels.into_iter().peekable();
    if labels.peek().is_none() {
        return Err(RenderError::NoLabels);
    }

    let geometry = sheet.geometry();
    let (page_w, page_h, per_page) = match &geometry {
        Some(g) => (g.page_width_mm, g.page_height_mm, g.labels_per_page()),
        None => (design.width_mm, design.height_mm, 1),
    };

    let mut objects = Objects {
        out: Counting {
            inner: BufWriter::new(out),
            position: 0,
        },
        offsets: Vec::new(),
        next_id: 1,
    };
    // Binary marker comment so that transfer tools treat the file as binary.
    objects.out.write_all(b"%PDF-1.7\n%\x80\x80\x80\x80\n")?;

    let catalog_id = objects.alloc()?;
    let pages_id = objects.alloc()?;
    let font_id = objects.alloc()?;
    let mut chunk = Chunk::new();
    chunk
        .type1_font(font_id)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    objects.write(font_id, &chunk)?;

    let media_box = Rect::new(0.0, 0.0, page_w * PT_PER_MM, page_h * PT_PER_MM);
    let mut kids = Vec::new();
    let mut written = 0u64;
    while labels.peek().is_some() {
        let mut content = Content::new();
        for slot in 0..per_page {
            let Some(label) = labels.next() else { break };
            let layout = arrangement.layout(design, &metrics, &label, written + 1)?;
            let (x, y) = geometry.map_or((0.0, 0.0), |g| g.cell_origin_mm(slot));
            draw_label(&mut content, &layout, x, page_h - y);
            written += 1;
            progress(written);
        }
        let compressed = compress_to_vec_zlib(&content.finish(), DEFLATE_LEVEL);

        let content_id = objects.alloc()?;
        let mut chunk = Chunk::with_capacity(compressed.len() + 64);
        chunk
            .stream(content_id, &compressed)
            .filter(Filter::FlateDecode);
        objects.write(content_id, &chunk)?;

        let page_id = objects.alloc()?;
        let mut chunk = Chunk::new();
        let mut page = chunk.page(page_id);
        page.parent(pages_id)
            .media_box(media_box)
            .contents(content_id);
        page.resources().fonts().pair(FONT_NAME, font_id);
        page.finish();
        objects.write(page_id, &chunk)?;
        kids.push(page_id);
    }

    let mut chunk = Chunk::new();
    let count = i32::try_from(kids.len()).unwrap_or(i32::MAX);
    chunk
        .pages(pages_id)
        .kids(kids.iter().copied())
        .count(count);
    objects.write(pages_id, &chunk)?;
    drop(kids);

    let mut chunk = Chunk::new();
    chunk
        .indirect(catalog_id)
        .dict()
        .pair(Name(b"Type"), Name(b"Catalog"))
        .pair(Name(b"Pages"), pages_id);
    objects.write(catalog_id, &chunk)?;

    objects.finish(catalog_id)?;
    Ok(written)
}

/// Draws one label whose top-left corner is at `left_mm` and, in PDF
/// coordinates (y up), `top_mm`.
fn draw_label(content: &mut Content, layout: &LabelLayout, left_mm: f32, top_mm: f32) {
    let pt = |mm: f32| mm * PT_PER_MM;
    let module = layout.module_mm;
    let (sx, sy) = layout.symbol_origin_mm();
    let mut any = false;
    for (row, col, len) in layout.symbol.dark_runs() {
        let x = left_mm + sx + col as f32 * module;
        let y_bottom = top_mm - (sy + (row + 1) as f32 * module);
        content.rect(pt(x), pt(y_bottom), pt(len as f32 * module), pt(module));
        any = true;
    }
    if any {
        // One fill for all rectangles: no seams between adjacent rows.
        content.fill_nonzero();
    }

    for line in layout.lines.iter().filter(|l| !l.text.is_empty()) {
        let bytes = to_winansi(&line.text);
        content.begin_text();
        content.set_font(FONT_NAME, layout.font_size_pt);
        content.next_line(pt(left_mm + line.x_mm), pt(top_mm - line.baseline_mm));
        content.show(Str(&bytes));
        content.end_text();
    }
}
