//! Batch updates (issue 10): a pharmaceutical client assigns the batch data
//! that India's Schedule H2 asks a pack's QR code to carry (batch number,
//! manufacturing and expiry dates, manufacturing licence number) to codes it
//! generated, from a CSV or XLSX file of up to a million rows or from the
//! manual form. One engine serves every uploader and the form.
//!
//! - `mod.rs`: the update as the API shows it, the columns and the checks of
//!   one row;
//! - `read.rs`: the rows of a CSV or XLSX file (or of the form), read in
//!   constant memory on a blocking thread;
//! - `run.rs`: the background job that checks every row and, unless it is a
//!   dry run, applies the whole file in one transaction, or nothing;
//! - `api.rs`: the operations (upload, history, one update, its result, the
//!   templates);
//! - `store.rs`: the SQL of `batch_updates`, `batch_update_errors`,
//!   `batches` and `batch_slots` (tenant schema, migrations 0012 and 0013).
//!
//! The design and its reasons are ADR 0017.

pub mod api;
pub mod read;
pub mod run;
pub mod store;
pub mod template;

use chrono::{DateTime, NaiveDate, Utc};
use poem_openapi::{Enum, Object};
use uuid::Uuid;

use crate::codes::Serial;
use crate::gs1::{self, NumberError};

/// The columns of a file, in the template's order. A file may order them as
/// it likes (the header row names them); all are required.
pub const COLUMNS: [&str; 6] = [
    "code",
    "gtin",
    "batch_number",
    "manufacturing_date",
    "expiry_date",
    "licence_number",
];
/// Rows one file may hold (below its header).
pub const MAX_ROWS: u32 = 1_000_000;
/// The largest file accepted: a million rows with long licence numbers and
/// full URIs in the code column fit.
pub const MAX_FILE_BYTES: usize = 200 * 1024 * 1024;
/// Problems stored and shown per update (all are counted).
pub const MAX_ERRORS_KEPT: usize = 1000;
/// The longest licence number.
pub const MAX_LICENCE_CHARS: usize = 50;
/// The first bytes of an upload looked at to tell its type and check a
/// CSV's header.
pub const HEAD_BYTES: usize = 64 * 1024;

/// Where an update's file (or form) is kept until the update ends.
pub fn file_key(
    tenant: &crate::tenants::TenantRef,
    id: uuid::Uuid,
    format: Format,
) -> object_store::path::Path {
    crate::storage::Storage::key(tenant, "batch-updates", id, format.as_str())
}

/// What an update is at.
#[derive(Enum, sqlx::Type, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum UpdateStatus {
    /// Waiting for the job runner.
    Queued,
    /// Reading and checking the rows.
    Validating,
    /// Writing the batch data (every row was valid).
    Applying,
    /// A dry run found no problem: nothing was written.
    Valid,
    /// Some rows have problems: nothing was written.
    Invalid,
    /// The batch data was assigned to every code of the file.
    Applied,
    /// The update could not finish (see `failure`): nothing was written.
    Failed,
}

impl UpdateStatus {
    /// The job has nothing more to do.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            Self::Valid | Self::Invalid | Self::Applied | Self::Failed
        )
    }
}

/// One problem: a cell, a row, or (row 0) the file.
#[derive(Object, Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RowProblem {
    /// The file's row (the header is row 1; the form's first code is row
    /// 1); 0 for the file as a whole.
    #[oai(rename = "row")]
    #[sqlx(rename = "row_number")]
    pub row: i32,
    /// The column, or "" for the whole row or file.
    #[sqlx(rename = "column_name")]
    pub column: String,
    pub reason: String,
}

impl RowProblem {
    pub fn new(row: i32, column: &str, reason: impl Into<String>) -> Self {
        Self {
            row,
            column: column.to_string(),
            reason: reason.into(),
        }
    }
}

/// A batch update, as stored and as the API shows it.
#[derive(Object, sqlx::FromRow, Debug, Clone)]
pub struct BatchUpdate {
    pub id: Uuid,
    /// `file` (CSV or XLSX) or `form` (the manual entry).
    pub source: String,
    pub file_name: String,
    /// `csv`, `xlsx` or `json` (the form).
    pub format: String,
    pub size_bytes: i64,
    /// SHA-256 of the file's bytes: the same file is applied once.
    pub content_sha256: String,
    pub dry_run: bool,
    pub status: UpdateStatus,
    /// Bytes of the file read so far (of `size_bytes`).
    pub bytes_read: i64,
    /// Rows read so far (all of them once checking is done).
    pub rows_read: i32,
    /// Codes given the batch data (0 unless applied).
    pub rows_applied: i32,
    /// Problems found (all of them; `errors` lists the first 1,000).
    pub error_count: i32,
    /// Rows with at least one problem (one row may have several).
    pub error_rows: i32,
    /// Why the update could not finish, when it failed.
    pub failure: Option<String>,
    pub created_at: DateTime<Utc>,
    pub created_by: Uuid,
    /// Who uploaded it (their name then).
    pub created_by_name: String,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// A file's format, from its first bytes (never from its name alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    Xlsx,
    /// The manual form's rows.
    Json,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Xlsx => "xlsx",
            Self::Json => "json",
        }
    }
    pub fn parse(text: &str) -> Self {
        match text {
            "xlsx" => Self::Xlsx,
            "json" => Self::Json,
            _ => Self::Csv,
        }
    }
}

/// The manual form's rows as the job reads them (stored as JSON, like a
/// file): the same batch data for a code job's codes `first..=last` and
/// for the serials listed.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct StoredForm {
    pub range: Option<StoredRange>,
    pub serials: Vec<String>,
    pub gtin: String,
    pub batch_number: String,
    pub manufacturing_date: String,
    pub expiry_date: String,
    pub licence_number: String,
}

impl StoredForm {
    /// A row of the form for `code`, its cells in [`COLUMNS`] order.
    pub fn cells<'a>(&'a self, code: &'a str) -> [&'a str; 6] {
        [
            code,
            &self.gtin,
            &self.batch_number,
            &self.manufacturing_date,
            &self.expiry_date,
            &self.licence_number,
        ]
    }
}

/// The batch data of a row: what a file assigns to its codes. A file names
/// few of them (at most [`MAX_BATCHES`]); each row refers to one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BatchKey {
    pub gtin: String,
    pub batch_number: String,
    pub manufactured_on: NaiveDate,
    pub expires_on: NaiveDate,
    pub licence_number: String,
}

/// Distinct batch data one file may name.
pub const MAX_BATCHES: usize = 10_000;

/// A checked row as it is staged: its row, its code and its batch (the
/// batch's place among the file's distinct batches).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Staged {
    pub row: i32,
    pub serial: i64,
    pub batch: u32,
}

impl BatchRow {
    /// The row's batch data.
    pub fn key(self) -> BatchKey {
        BatchKey {
            gtin: self.gtin,
            batch_number: self.batch_number,
            manufactured_on: self.manufactured_on,
            expires_on: self.expires_on,
            licence_number: self.licence_number,
        }
    }
}

/// A placeholder code: checking the form's fields on their own.
pub const NO_CODE: &str = "00000000000";

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct StoredRange {
    pub code_job_id: Uuid,
    pub first: i32,
    pub last: i32,
}

/// One row that passed every check of its own, ready for the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchRow {
    pub row: i32,
    pub serial: i64,
    pub gtin: String,
    pub batch_number: String,
    pub manufactured_on: NaiveDate,
    pub expires_on: NaiveDate,
    pub licence_number: String,
}

/// The serial of a code cell: its 11 characters, or a GS1 Digital Link URI
/// of the code (`…/21/{serial}`, as the code downloads and labels carry).
pub fn parse_code(cell: &str) -> Option<Serial> {
    let text = cell.trim();
    if let Some(serial) = Serial::decode(text) {
        return Some(serial);
    }
    let path = text.split(['?', '#']).next()?;
    let after = path.rsplit_once("/21/")?.1;
    Serial::decode(after.trim_end_matches('/'))
}

/// A GTIN-8, -12, -13 or -14 with a right check digit, as 14 digits.
pub fn parse_gtin(cell: &str) -> Result<String, &'static str> {
    gs1::gtin14(cell.trim()).map_err(|err| match err {
        NumberError::Shape => "must be a GTIN of 8, 12, 13 or 14 digits.",
        NumberError::CheckDigit => {
            "has a wrong check digit: check the number on the product's barcode."
        }
    })
}

/// A date as `YYYY-MM-DD`.
fn parse_date(cell: &str) -> Result<NaiveDate, &'static str> {
    let text = cell.trim().as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        text[range].iter().try_fold(0u32, |n, b| {
            b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
        })
    };
    let parts = (text.len() == 10 && text[4] == b'-' && text[7] == b'-')
        .then(|| Some((digits(0..4)?, digits(5..7)?, digits(8..10)?)))
        .flatten();
    let Some((year, month, day)) = parts else {
        return Err("must be a date written YYYY-MM-DD, e.g. 2026-11-25.");
    };
    if !(2000..=2099).contains(&year) {
        // A batch is a lot, and a GS1 barcode writes its dates YYMMDD.
        return Err(
            "must lie in the years 2000 to 2099 (a GS1 barcode writes the year with two digits).",
        );
    }
    // Four digits: the year fits an i32.
    NaiveDate::from_ymd_opt(year as i32, month, day)
        .ok_or("must be a real date written YYYY-MM-DD, e.g. 2026-11-25.")
}

/// Checks one row's cells (in [`COLUMNS`] order) on their own; `today` is
/// the server's date (no manufacturing date after it). Every problem of the
/// row is reported, not only the first.
pub fn check_row(
    row: i32,
    cells: [&str; 6],
    today: NaiveDate,
) -> Result<BatchRow, Vec<RowProblem>> {
    let [code, gtin, batch, made, expires, licence] = cells;
    let mut problems = Vec::new();
    let mut problem =
        |column: &str, reason: String| problems.push(RowProblem::new(row, column, reason));

    let serial = if code.trim().is_empty() {
        problem(
            "code",
            "code is empty: give the code's 11-character serial or its URI.".into(),
        );
        None
    } else {
        let serial = parse_code(code);
        if serial.is_none() {
            problem(
                "code",
                "code must be a code's 11-character serial (letters and digits) or its URI ending in /21/ and the serial.".into(),
            );
        }
        serial
    };
    let gtin = match parse_gtin(gtin) {
        Ok(gtin) => Some(gtin),
        Err(reason) => {
            problem("gtin", format!("gtin {reason}"));
            None
        }
    };
    let batch = batch.trim();
    if !gs1::is_lot_or_serial(batch) {
        problem(
            "batch_number",
            "batch_number must be 1 to 20 characters: letters, digits and the GS1 punctuation ! \" % & ' ( ) * + , - . / : ; < = > ? _ (no spaces).".into(),
        );
    }
    let made = match parse_date(made) {
        Ok(date) if date > today => {
            problem(
                "manufacturing_date",
                format!("manufacturing_date {date} is in the future."),
            );
            None
        }
        Ok(date) => Some(date),
        Err(reason) => {
            problem("manufacturing_date", format!("manufacturing_date {reason}"));
            None
        }
    };
    let expires = match parse_date(expires) {
        Ok(date) => Some(date),
        Err(reason) => {
            problem("expiry_date", format!("expiry_date {reason}"));
            None
        }
    };
    if let (Some(m), Some(e)) = (made, expires)
        && e <= m
    {
        problem(
            "expiry_date",
            format!("expiry_date {e} must be after manufacturing_date {m}."),
        );
    }
    let licence = licence.trim();
    if licence.is_empty() {
        problem(
            "licence_number",
            "licence_number is missing: Schedule H2 requires the manufacturing licence number."
                .into(),
        );
    } else if licence.chars().count() > MAX_LICENCE_CHARS || licence.chars().any(|c| c.is_control())
    {
        problem(
            "licence_number",
            format!("licence_number must be 1 to {MAX_LICENCE_CHARS} characters, on one line."),
        );
    }
    match (serial, gtin, made, expires) {
        (Some(serial), Some(gtin), Some(made), Some(expires)) if problems.is_empty() => {
            Ok(BatchRow {
                row,
                serial: serial.to_db(),
                gtin,
                batch_number: batch.to_string(),
                manufactured_on: made,
                expires_on: expires,
                licence_number: licence.to_string(),
            })
        }
        _ => Err(problems),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 25).unwrap()
    }

    const SERIAL: &str = "0000000000A";

    #[test]
    fn a_good_row_passes() {
        let row = check_row(
            2,
            [
                SERIAL,
                "09506000134352",
                "B-1",
                "2026-01-01",
                "2028-01-01",
                "MH/123",
            ],
            today(),
        )
        .unwrap();
        assert_eq!(row.serial, 10);
        assert_eq!(row.gtin, "09506000134352");
    }

    #[test]
    fn codes_as_serials_or_uris() {
        assert_eq!(parse_code("0000000000A"), Some(Serial(10)));
        assert_eq!(
            parse_code("https://x.example/01/09506000134352/10/L1/21/0000000000A?s=1"),
            Some(Serial(10))
        );
        assert_eq!(parse_code("https://x.example/01/09506000134352"), None);
        assert_eq!(parse_code("0000000000"), None);
    }

    #[test]
    fn every_problem_of_a_row_is_reported() {
        let problems = check_row(
            7,
            ["", "09506000134353", "B 1", "2027-01-01", "2026-13-01", ""],
            today(),
        )
        .unwrap_err();
        let columns: Vec<&str> = problems.iter().map(|p| p.column.as_str()).collect();
        assert_eq!(
            columns,
            [
                "code",
                "gtin",
                "batch_number",
                "manufacturing_date",
                "expiry_date",
                "licence_number"
            ]
        );
        assert!(problems.iter().all(|p| p.row == 7));
    }

    #[test]
    fn expiry_must_follow_manufacture() {
        let problems = check_row(
            3,
            [
                SERIAL,
                "09506000134352",
                "B1",
                "2026-01-01",
                "2026-01-01",
                "L",
            ],
            today(),
        )
        .unwrap_err();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].column, "expiry_date");
    }

    #[test]
    fn dates_are_real_days_written_yyyy_mm_dd() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(parse_date("2026-02-28"), Ok(day(2026, 2, 28)));
        assert_eq!(parse_date(" 2024-02-29 "), Ok(day(2024, 2, 29)));
        assert_eq!(parse_date("2000-01-01"), Ok(day(2000, 1, 1)));
        assert_eq!(parse_date("2099-12-31"), Ok(day(2099, 12, 31)));
        for bad in [
            "0001-01-01",
            "1999-12-31",
            "2100-01-01",
            "2026-02-30",
            "2025-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-01-00",
            "2026/01/01",
            "2026-1-01x",
            "26-01-2026",
            "2026-01-1",
            "+202-01-01",
            "2026-0١-01",
            "",
        ] {
            assert!(parse_date(bad).is_err(), "{bad}");
        }
    }
}
