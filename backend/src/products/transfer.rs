//! Products as CSV: the rules of an import file (read and checked row by
//! row before anything is written) and of the export.
//!
//! Columns: `product_name`, `skuid`, `gtin` (required), `category`,
//! `product_description` (optional), in any order, named in a header row.
//! Rows are numbered as a spreadsheet shows them: the header is row 1.
//!
//! Spreadsheets run a cell starting with `=`, `+`, `-` or `@` as a formula,
//! so the export writes such a value with a leading `'`, and the import
//! takes that `'` off again: a file exported, edited and imported keeps its
//! values.

use std::collections::HashMap;

use poem_openapi::Object;

use super::{Category, Description, Gtin, ProductName, Skuid};
use crate::http::error::ApiError;

/// The most products one file may hold.
pub const MAX_ROWS: usize = 5000;

pub const COLUMNS: [&str; 5] = [
    "product_name",
    "skuid",
    "gtin",
    "category",
    "product_description",
];
const REQUIRED: [&str; 3] = ["product_name", "skuid", "gtin"];

/// What is wrong with one cell (or one row, or with `row` 0, the file).
#[derive(Object, Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// The spreadsheet row (the header is 1); 0 for the file as a whole.
    pub row: u64,
    /// The column, or "" for the whole row or file.
    pub column: String,
    pub reason: String,
}

impl RowError {
    pub fn new(row: u64, column: &str, reason: impl Into<String>) -> Self {
        Self {
            row,
            column: column.to_string(),
            reason: reason.into(),
        }
    }
}

/// A row that passed every check of its own.
#[derive(Debug, Clone)]
pub struct ImportRow {
    pub row: u64,
    pub name: ProductName,
    pub skuid: Skuid,
    pub gtin: Gtin,
    pub category: Option<Category>,
    pub description: Option<Description>,
}

/// Takes off the `'` the export put before a formula character.
fn unprotect(value: &str) -> &str {
    crate::http::csv::restored(value)
}

/// Puts a `'` before a value a spreadsheet would run as a formula.
pub fn protect(value: &str) -> String {
    crate::http::csv::neutralised(value).into_owned()
}

/// The parsed value, or None with the parser's message recorded for the
/// cell at `(row, column)`.
fn check<T>(
    errors: &mut Vec<RowError>,
    (row, column): (u64, &str),
    parsed: Result<T, ApiError>,
) -> Option<T> {
    parsed
        .map_err(|e| errors.push(RowError::new(row, column, e.message)))
        .ok()
}

/// Reads an import file: the rows that are valid on their own, and the
/// errors of the others (including a skuid or GTIN given twice in the
/// file). A file that cannot be read as such (not UTF-8, no header, a
/// missing or unknown column, no rows, too many) is a 400.
pub fn read(bytes: &[u8]) -> Result<(Vec<ImportRow>, Vec<RowError>), ApiError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if std::str::from_utf8(bytes).is_err() {
        return Err(ApiError::invalid_input(
            "The file is not UTF-8 text. Save it as CSV UTF-8 and try again.",
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(true)
        .from_reader(bytes);
    let header: Vec<String> = reader
        .headers()
        .map_err(|_| ApiError::invalid_input("The file's header row cannot be read as CSV."))?
        .iter()
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    let mut at = HashMap::new();
    for (i, name) in header.iter().enumerate() {
        if !COLUMNS.contains(&name.as_str()) {
            return Err(ApiError::invalid_input(format!(
                "Unknown column '{name}'. The columns are: {}.",
                COLUMNS.join(", ")
            )));
        }
        if at.insert(name.clone(), i).is_some() {
            return Err(ApiError::invalid_input(format!(
                "The column '{name}' appears twice."
            )));
        }
    }
    let missing: Vec<_> = REQUIRED.iter().filter(|c| !at.contains_key(**c)).collect();
    if !missing.is_empty() {
        return Err(ApiError::invalid_input(format!(
            "The header row must name the columns product_name, skuid and gtin (missing: {}).",
            missing.iter().map(|c| **c).collect::<Vec<_>>().join(", ")
        )));
    }
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut skuids: HashMap<String, u64> = HashMap::new();
    let mut gtins: HashMap<String, u64> = HashMap::new();
    for (i, record) in reader.records().enumerate() {
        let row = i as u64 + 2;
        if i >= MAX_ROWS {
            return Err(ApiError::invalid_input(format!(
                "The file has more than {MAX_ROWS} products. Split it into smaller files."
            )));
        }
        let record = match record {
            Ok(r) => r,
            Err(_) => {
                errors.push(RowError::new(row, "", "This row cannot be read as CSV."));
                continue;
            }
        };
        if record.len() != header.len() {
            errors.push(RowError::new(
                row,
                "",
                format!(
                    "This row has {} cells; the header has {}.",
                    record.len(),
                    header.len()
                ),
            ));
            continue;
        }
        let cell = |name: &str| at.get(name).and_then(|i| record.get(*i)).map(unprotect);
        let mut row_errors = Vec::new();
        let name = check(
            &mut row_errors,
            (row, "product_name"),
            ProductName::parse(cell("product_name").unwrap_or("")),
        );
        let skuid = check(
            &mut row_errors,
            (row, "skuid"),
            Skuid::parse(cell("skuid").unwrap_or("").trim()),
        );
        let gtin = check(
            &mut row_errors,
            (row, "gtin"),
            Gtin::parse(cell("gtin").unwrap_or("").trim()),
        );
        let category = match cell("category").filter(|c| !c.trim().is_empty()) {
            None => Some(None),
            Some(c) => check(&mut row_errors, (row, "category"), Category::parse(c)).map(Some),
        };
        let description = match cell("product_description").filter(|d| !d.is_empty()) {
            None => Some(None),
            Some(d) => check(
                &mut row_errors,
                (row, "product_description"),
                Description::parse(d),
            )
            .map(Some),
        };
        if let Some(s) = &skuid
            && let Some(first) = skuids.insert(s.as_str().to_lowercase(), row)
        {
            row_errors.push(RowError::new(
                row,
                "skuid",
                format!("Row {first} has the same skuid."),
            ));
        }
        if let Some(g) = &gtin
            && let Some(first) = gtins.insert(g.as_str().to_string(), row)
        {
            row_errors.push(RowError::new(
                row,
                "gtin",
                format!("Row {first} has the same GTIN."),
            ));
        }
        match (name, skuid, gtin, category, description) {
            (Some(name), Some(skuid), Some(gtin), Some(category), Some(description))
                if row_errors.is_empty() =>
            {
                rows.push(ImportRow {
                    row,
                    name,
                    skuid,
                    gtin,
                    category,
                    description,
                });
            }
            _ => errors.extend(row_errors),
        }
    }
    if rows.is_empty() && errors.is_empty() {
        return Err(ApiError::invalid_input(
            "The file has a header but no products.",
        ));
    }
    Ok((rows, errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_checked_and_numbered_as_a_spreadsheet_shows_them() {
        let file = "\u{feff}Product_Name,skuid,gtin,category\n\
                    Water,W-1,4006381333931,Drinks\n\
                    ,W-2,4006381333932,\n\
                    Juice,w-1,96385074,\n\
                    \"Cola, 1L\",C-1,96385074,'=Soft\n\
                    Short,S-1\n";
        let (rows, errors) = read(file.as_bytes()).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].row, 2);
        assert_eq!(rows[0].gtin.as_str(), "04006381333931");
        let found: Vec<_> = errors.iter().map(|e| (e.row, e.column.as_str())).collect();
        assert_eq!(
            found,
            [
                (3, "product_name"),
                (3, "gtin"),
                (4, "skuid"),
                (5, "gtin"),
                (6, "")
            ],
            "{errors:?}"
        );
        assert!(errors[2].reason.contains("Row 2"));
    }

    #[test]
    fn files_that_cannot_be_read_are_refused_whole() {
        for bad in [
            &b"product_name,skuid\nA,B\n"[..],
            b"product_name,skuid,gtin,colour\n",
            b"product_name,skuid,gtin\n",
            b"product_name,skuid,gtin,gtin\nA,B,1,2\n",
            b"\xff\xfeproduct_name",
        ] {
            assert!(read(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        let mut big = String::from("product_name,skuid,gtin\n");
        for i in 0..=MAX_ROWS {
            big.push_str(&format!("P,S{i},96385074\n"));
        }
        assert!(read(big.as_bytes()).is_err());
    }

    #[test]
    fn formulas_are_protected_on_export_and_restored_on_import() {
        assert_eq!(protect("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(protect("Plain"), "Plain");
        assert_eq!(unprotect("'=1+1"), "=1+1");
        assert_eq!(unprotect("'quoted"), "'quoted");
    }
}
