//! The files the batch updates hand out: the XLSX template (written with
//! `rust_xlsxwriter`) and an update's result as CSV.

use rust_xlsxwriter::{Format, Workbook, XlsxError};

use super::store::BatchSummary;
use super::{BatchUpdate, COLUMNS, RowProblem, UpdateStatus};
use crate::http::csv::field as safe;

/// What each column takes, as the template's second sheet and the pages
/// describe it.
pub const COLUMN_NOTES: [(&str, &str); 6] = [
    (
        "code",
        "The code's 11-character serial (as in your code downloads), or its full URI.",
    ),
    (
        "gtin",
        "The product's GTIN (8, 12, 13 or 14 digits, with its check digit): the GTIN the code was generated for.",
    ),
    (
        "batch_number",
        "1 to 20 letters, digits or GS1 punctuation; the code's own batch when it was generated for one.",
    ),
    ("manufacturing_date", "YYYY-MM-DD, not in the future."),
    ("expiry_date", "YYYY-MM-DD, after the manufacturing date."),
    (
        "licence_number",
        "The manufacturing licence number (required by Schedule H2), 1 to 50 characters.",
    ),
];

/// The templates' one example row, in [`COLUMNS`] order: what each cell
/// looks like (its code is no real code: replace the row with yours).
pub const EXAMPLE_ROW: [&str; 6] = [
    "0000000000A",
    "09506000134352",
    "PCM2611",
    "2026-01-10",
    "2028-01-31",
    "MH/MFG/123456",
];

/// The CSV template: the header row, then the example row.
pub fn csv() -> String {
    format!("{}\n{}\n", COLUMNS.join(","), EXAMPLE_ROW.join(","))
}

/// The XLSX template.
pub fn xlsx() -> Result<Vec<u8>, anyhow::Error> {
    build_xlsx().map_err(|e| anyhow::anyhow!("cannot write the XLSX template: {e}"))
}

fn build_xlsx() -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let text = Format::new().set_num_format("@");
    let sheet = book.add_worksheet().set_name("Batch update")?;
    for (col, name) in COLUMNS.iter().enumerate() {
        let col = col as u16;
        sheet.write_string_with_format(0, col, *name, &bold)?;
        sheet.set_column_width(col, 22)?;
        sheet.set_column_format(col, &text)?;
    }
    for (col, cell) in EXAMPLE_ROW.iter().enumerate() {
        sheet.write_string_with_format(1, col as u16, *cell, &text)?;
    }
    sheet.set_freeze_panes(1, 0)?;
    let notes = book.add_worksheet().set_name("Columns")?;
    notes.write_string_with_format(0, 0, "column", &bold)?;
    notes.write_string_with_format(0, 1, "what it takes", &bold)?;
    notes.set_column_width(0, 22)?;
    notes.set_column_width(1, 100)?;
    for (row, (name, note)) in COLUMN_NOTES.iter().enumerate() {
        let row = row as u32 + 1;
        notes.write_string(row, 0, *name)?;
        notes.write_string(row, 1, *note)?;
    }
    notes.write_string(
        8,
        0,
        "Only the first sheet is read. Up to 1,000,000 rows per file; the header row is row 1. Row 2 is an example: replace it with your codes.",
    )?;
    book.save_to_buffer()
}

/// An update's result: its problems, or the batches it assigned.
pub fn result_csv(update: &BatchUpdate, errors: &[RowProblem], batches: &[BatchSummary]) -> String {
    let mut out = String::new();
    if !errors.is_empty() || matches!(update.status, UpdateStatus::Invalid | UpdateStatus::Failed) {
        out.push_str("row,column,reason\n");
        if let Some(failure) = &update.failure {
            out.push_str(&format!("0,,{}\n", safe(failure)));
        }
        for e in errors {
            out.push_str(&format!(
                "{},{},{}\n",
                e.row,
                safe(&e.column),
                safe(&e.reason)
            ));
        }
        return out;
    }
    out.push_str("gtin,batch_number,manufacturing_date,expiry_date,licence_number,codes\n");
    for b in batches {
        out.push_str(&format!(
            "{},{},{},{},{},{}\n",
            b.gtin,
            safe(&b.batch_number),
            b.manufactured_on,
            b.expires_on,
            safe(&b.licence_number),
            b.codes
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_row_passes_the_row_checks() {
        let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 25).unwrap();
        let row = super::super::check_row(2, EXAMPLE_ROW, today).unwrap();
        assert_eq!(row.batch_number, "PCM2611");
        assert_eq!(csv().lines().count(), 2);
    }
}
