//! Page layouts for PDF output: one label per page, or label sheets.

use super::{LabelDesign, RenderError};

/// How far (mm) a design may differ from a sheet's label cell and still be
/// accepted (covers rounding such as 66.7 mm vs. 2⅝ in = 66.675 mm).
const SIZE_TOLERANCE_MM: f32 = 0.5;
/// Millimetres per inch.
const INCH: f32 = 25.4;

/// How labels are arranged on PDF pages.
///
/// A sheet preset only accepts designs of its label size (within 0.5 mm);
/// other sizes are rejected with [`RenderError::SheetMismatch`] rather than
/// scaled, since scaled barcodes and text would not match the preview.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sheet {
    /// One label per page, the page exactly the label size (thermal and
    /// roll printers).
    Single,
    /// A4 (210 × 297 mm) label sheet.
    A4(A4Preset),
    /// US Letter (8½ × 11 in) label sheet.
    Letter(LetterPreset),
}

/// A4 label sheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A4Preset {
    /// 3 × 8 labels of 70 × 37 mm, no gaps, 0.5 mm top margin (24 per sheet).
    Grid3x8,
    /// Avery L7163 / J8163: 2 × 7 labels of 99.1 × 38.1 mm (14 per sheet).
    L7163,
}

/// US Letter label sheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LetterPreset {
    /// Avery 5160: 3 × 10 labels of 2⅝ × 1 in (66.7 × 25.4 mm, 30 per sheet).
    Avery5160,
    /// Avery 5163: 2 × 5 labels of 4 × 2 in (101.6 × 50.8 mm, 10 per sheet).
    Avery5163,
}

/// The geometry of a label sheet, millimetres from the page's top-left
/// corner. Labels are filled row by row, left to right.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SheetGeometry {
    /// Human-readable name of the preset.
    pub name: &'static str,
    /// Page width.
    pub page_width_mm: f32,
    /// Page height.
    pub page_height_mm: f32,
    /// Labels per row.
    pub columns: u32,
    /// Rows per page.
    pub rows: u32,
    /// Width of one label.
    pub label_width_mm: f32,
    /// Height of one label.
    pub label_height_mm: f32,
    /// Distance from the left page edge to the first column.
    pub left_mm: f32,
    /// Distance from the top page edge to the first row.
    pub top_mm: f32,
    /// Distance between the left edges of neighbouring columns.
    pub pitch_x_mm: f32,
    /// Distance between the top edges of neighbouring rows.
    pub pitch_y_mm: f32,
}

impl SheetGeometry {
    /// Labels per page.
    pub fn labels_per_page(&self) -> u32 {
        self.columns * self.rows
    }

    /// Top-left corner of the label in slot `index` (0-based, row by row).
    pub fn cell_origin_mm(&self, index: u32) -> (f32, f32) {
        let (row, column) = (index / self.columns, index % self.columns);
        (
            self.left_mm + column as f32 * self.pitch_x_mm,
            self.top_mm + row as f32 * self.pitch_y_mm,
        )
    }
}

impl Sheet {
    /// The sheet geometry, or `None` for [`Sheet::Single`].
    pub fn geometry(&self) -> Option<SheetGeometry> {
        const A4_W: f32 = 210.0;
        const A4_H: f32 = 297.0;
        const LETTER_W: f32 = 8.5 * INCH;
        const LETTER_H: f32 = 11.0 * INCH;
        let geometry = match self {
            Sheet::Single => return None,
            Sheet::A4(A4Preset::Grid3x8) => SheetGeometry {
                name: "A4 3×8 (70 × 37 mm)",
                page_width_mm: A4_W,
                page_height_mm: A4_H,
                columns: 3,
                rows: 8,
                label_width_mm: 70.0,
                label_height_mm: 37.0,
                left_mm: 0.0,
                top_mm: 0.5,
                pitch_x_mm: 70.0,
                pitch_y_mm: 37.0,
            },
            Sheet::A4(A4Preset::L7163) => SheetGeometry {
                name: "A4 L7163 2×7 (99.1 × 38.1 mm)",
                page_width_mm: A4_W,
                page_height_mm: A4_H,
                columns: 2,
                rows: 7,
                label_width_mm: 99.1,
                label_height_mm: 38.1,
                left_mm: 4.65,
                top_mm: 15.15,
                pitch_x_mm: 101.6,
                pitch_y_mm: 38.1,
            },
            Sheet::Letter(LetterPreset::Avery5160) => SheetGeometry {
                name: "Letter Avery 5160 3×10 (2⅝ × 1 in)",
                page_width_mm: LETTER_W,
                page_height_mm: LETTER_H,
                columns: 3,
                rows: 10,
                label_width_mm: 2.625 * INCH,
                label_height_mm: INCH,
                left_mm: 0.1875 * INCH,
                top_mm: 0.5 * INCH,
                pitch_x_mm: 2.75 * INCH,
                pitch_y_mm: INCH,
            },
            Sheet::Letter(LetterPreset::Avery5163) => SheetGeometry {
                name: "Letter Avery 5163 2×5 (4 × 2 in)",
                page_width_mm: LETTER_W,
                page_height_mm: LETTER_H,
                columns: 2,
                rows: 5,
                label_width_mm: 4.0 * INCH,
                label_height_mm: 2.0 * INCH,
                left_mm: 0.15625 * INCH,
                top_mm: 0.5 * INCH,
                pitch_x_mm: 4.1875 * INCH,
                pitch_y_mm: 2.0 * INCH,
            },
        };
        Some(geometry)
    }

    /// Checks that `design` matches the sheet's label size.
    pub fn check_design(&self, design: &LabelDesign) -> Result<(), RenderError> {
        let Some(g) = self.geometry() else {
            return Ok(());
        };
        let matches = (design.width_mm - g.label_width_mm).abs() <= SIZE_TOLERANCE_MM
            && (design.height_mm - g.label_height_mm).abs() <= SIZE_TOLERANCE_MM;
        if matches {
            Ok(())
        } else {
            Err(RenderError::SheetMismatch {
                sheet: g.name,
                cell_width_mm: (g.label_width_mm * 10.0).round() / 10.0,
                cell_height_mm: (g.label_height_mm * 10.0).round() / 10.0,
                width_mm: design.width_mm,
                height_mm: design.height_mm,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_fit_their_pages() {
        let sheets = [
            Sheet::A4(A4Preset::Grid3x8),
            Sheet::A4(A4Preset::L7163),
            Sheet::Letter(LetterPreset::Avery5160),
            Sheet::Letter(LetterPreset::Avery5163),
        ];
        for sheet in sheets {
            let g = sheet.geometry().expect("sheet preset");
            let (x, y) = g.cell_origin_mm(g.labels_per_page() - 1);
            let right = x + g.label_width_mm;
            let bottom = y + g.label_height_mm;
            assert!(right <= g.page_width_mm + 0.01, "{}", g.name);
            assert!(bottom <= g.page_height_mm + 0.01, "{}", g.name);
            // The presets are symmetric on the page.
            assert!(
                (g.page_width_mm - right - g.left_mm).abs() < 0.01,
                "{}",
                g.name
            );
            assert!(
                (g.page_height_mm - bottom - g.top_mm).abs() < 0.01,
                "{}",
                g.name
            );
        }
    }
}
