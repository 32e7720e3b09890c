//! ZPL II output for Zebra-compatible thermal printers.
//!
//! Every label is one `^XA … ^XZ` format. The printer encodes the barcodes
//! itself; we pass positions and module sizes from the shared layout.
//!
//! Field data escaping: every field is preceded by `^FH\`, so `\` followed by
//! two hex digits stands for one byte. `^`, `~`, `\` and control characters
//! in user data are written that way, so no data can end a field or start a
//! command (ZPL would otherwise act on `^XZ` or `~JR` inside a product name).
//! Per the ZPL II manual, `^FH` processing happens before the DataMatrix
//! escape processing, so the two do not interfere.
//!
//! QR: `^BQN,2,<magnification>` with field data `MA,<uri>`: error
//! correction level M, automatic input mode (normal mode field data is
//! `<level><input mode>,<data>`).
//!
//! GS1 DataMatrix: `^BXN,<module>,200,<columns>,<rows>,,_`. Parameter `g`
//! (the escape character) is set to `_` explicitly because its default
//! differs between firmware versions (`_` or `~`). In the field data `_1`
//! is FNC1 (first position: GS1 DataMatrix; later: separator) and `__` is a
//! literal underscore (which GS1 character set 82 allows in lot and serial).
//!
//! Text: `^FT` (baseline position, like the PDF) with scalable font `^A0N`,
//! under `^CI28` (UTF-8). Text was already shortened with Helvetica
//! metrics; font 0 is narrower, so it fits.

use std::io::{BufWriter, Write};

use super::layout::{Arrangement, LabelLayout};
use super::text::{ELLIPSIS, MM_PER_PT, Metrics};
use super::{LabelData, LabelDesign, RenderError, Symbology, gs1};

/// ZPL field hex indicator used with `^FH`.
const HEX_INDICATOR: char = '\\';
/// DataMatrix escape character (`^BX` parameter g).
const DM_ESCAPE: char = '_';
/// Largest `^BQ` magnification.
const MAX_QR_MAGNIFICATION: u32 = 10;

/// Print head density of the target printer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZplDensity {
    /// 6 dots/mm (152 dpi).
    Dpmm6,
    /// 8 dots/mm (203 dpi), the most common.
    #[default]
    Dpmm8,
    /// 12 dots/mm (300 dpi).
    Dpmm12,
    /// 24 dots/mm (600 dpi).
    Dpmm24,
}

impl ZplDensity {
    /// Dots per millimetre.
    pub fn dots_per_mm(self) -> u32 {
        match self {
            ZplDensity::Dpmm6 => 6,
            ZplDensity::Dpmm8 => 8,
            ZplDensity::Dpmm12 => 12,
            ZplDensity::Dpmm24 => 24,
        }
    }
}

/// Renders labels as ZPL for a 203 dpi (8 dots/mm) printer; see
/// [`render_zpl_with_density`].
pub fn render_zpl<W: Write>(
    design: &LabelDesign,
    labels: impl IntoIterator<Item = LabelData>,
    out: W,
    progress: impl FnMut(u64),
) -> Result<u64, RenderError> {
    render_zpl_with_density(design, ZplDensity::Dpmm8, labels, out, progress)
}

/// Renders labels as ZPL, one `^XA … ^XZ` format per label, with `^PW`/`^LL`
/// set to the label size in dots.
///
/// `progress` is called with the number of labels written so far after each
/// label. Returns the number of labels written. The design is checked before
/// anything is written; a label whose data is invalid or does not fit aborts
/// with an error naming its position, and the output written so far must be
/// discarded.
pub fn render_zpl_with_density<W: Write>(
    design: &LabelDesign,
    density: ZplDensity,
    labels: impl IntoIterator<Item = LabelData>,
    out: W,
    mut progress: impl FnMut(u64),
) -> Result<u64, RenderError> {
    let metrics = Metrics::new()?;
    let arrangement = Arrangement::new(design, &metrics)?;
    let mut labels = labels.into_iter().peekable();
    if labels.peek().is_none() {
        return Err(RenderError::NoLabels);
    }
    let dpmm = density.dots_per_mm();
    let mut out = BufWriter::new(out);
    let mut format = String::with_capacity(1024);
    let mut written = 0u64;
    for label in labels {
        let layout = arrangement.layout(design, &metrics, &label, written + 1)?;
        format.clear();
        write_label(&mut format, design, &label, &layout, dpmm, written + 1)?;
        out.write_all(format.as_bytes())?;
        written += 1;
        progress(written);
    }
    out.flush()?;
    Ok(written)
}

/// Appends the ZPL format of one label to `zpl`.
fn write_label(
    zpl: &mut String,
    design: &LabelDesign,
    label: &LabelData,
    layout: &LabelLayout,
    dpmm: u32,
    position: u64,
) -> Result<(), RenderError> {
    let dots = |mm: f32| (mm * dpmm as f32).round() as u32;
    zpl.push_str("^XA\n^CI28\n");
    zpl.push_str(&format!(
        "^PW{}\n^LL{}\n^LH0,0\n",
        dots(design.width_mm),
        dots(design.height_mm)
    ));

    let max_module = match design.symbology {
        Symbology::Qr => MAX_QR_MAGNIFICATION,
        Symbology::DataMatrix => u32::MAX,
    };
    let snapped =
        layout
            .snap(dpmm as f32, max_module)
            .ok_or_else(|| RenderError::SymbolTooLarge {
                position,
                width_mm: design.width_mm,
                height_mm: design.height_mm,
                symbology: design.symbology,
                modules: layout.symbol.total_modules(),
                needed_mm: layout.symbol.total_modules() as f32 / dpmm as f32,
                available_mm: layout.symbol_box.size,
            })?;
    zpl.push_str(&format!("^FO{},{}", snapped.x, snapped.y));
    match design.symbology {
        Symbology::Qr => {
            zpl.push_str(&format!("^BQN,2,{}", snapped.module));
            zpl.push_str("^FH\\^FDMA,");
            push_field_data(zpl, &label.uri);
        }
        Symbology::DataMatrix => {
            let size = layout.symbol.size();
            zpl.push_str(&format!(
                "^BXN,{},200,{size},{size},,{DM_ESCAPE}",
                snapped.module
            ));
            zpl.push_str("^FH\\^FD");
            push_field_data(zpl, &datamatrix_field(label));
        }
    }
    zpl.push_str("^FS\n");

    let height = dots(layout.font_size_pt * MM_PER_PT).max(1);
    for line in layout.lines.iter().filter(|l| !l.text.is_empty()) {
        zpl.push_str(&format!(
            "^FT{},{}^A0N,{height},{height}^FH\\^FD",
            dots(line.x_mm),
            dots(line.baseline_mm)
        ));
        let text = line.text.replace(ELLIPSIS, "...");
        push_field_data(zpl, &text);
        zpl.push_str("^FS\n");
    }
    zpl.push_str("^XZ\n");
    Ok(())
}

/// The `^BX` field data for the GS1 element string: leading FNC1, FNC1 for
/// each separator, escape character doubled.
fn datamatrix_field(label: &LabelData) -> String {
    let mut out = String::with_capacity(80);
    out.push(DM_ESCAPE);
    out.push('1');
    for c in gs1::gs1_element_string(label).chars() {
        if c == gs1::GS {
            out.push(DM_ESCAPE);
            out.push('1');
        } else {
            if c == DM_ESCAPE {
                out.push(DM_ESCAPE);
            }
            out.push(c);
        }
    }
    out
}

/// Appends `data` for a field opened with `^FH\^FD`: `^`, `~`, `\` and
/// control characters become `\XX` hex escapes (UTF-8 bytes), everything
/// else is written as is.
fn push_field_data(zpl: &mut String, data: &str) {
    for c in data.chars() {
        if matches!(c, '^' | '~') || c == HEX_INDICATOR || c.is_control() {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                zpl.push_str(&format!("{HEX_INDICATOR}{byte:02X}"));
            }
        } else {
            zpl.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_data_escapes_command_characters() {
        let mut s = String::new();
        push_field_data(&mut s, "a^XZ~JR\\b\u{1D}é");
        assert_eq!(s, "a\\5EXZ\\7EJR\\5Cb\\1Dé");
    }
}
