//! The rows of an uploaded file, read in constant memory: a CSV record by
//! record with the `csv` crate, an XLSX worksheet cell by cell with
//! `calamine`'s streaming cell reader. Runs on a blocking thread and hands
//! the checked rows over in chunks through a bounded channel, so a slow
//! database slows the reading instead of filling memory.
//!
//! A file-wide problem (a missing column, a malformed file, too many rows)
//! ends the reading with a problem on row 0.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

use calamine::{DataRef, Reader, Xlsx};
use chrono::NaiveDate;
use tokio::sync::mpsc;

use crate::uploads::{self, ArchiveLimits, ArchiveProblem};

use super::{
    BatchKey, COLUMNS, HEAD_BYTES, MAX_BATCHES, MAX_ROWS, RowProblem, Staged, StoredForm, check_row,
};

/// Rows per chunk sent to the writer.
pub const CHUNK_ROWS: usize = 10_000;
/// What an uploaded XLSX may hold, checked before `calamine` opens it
/// (`crate::uploads`). A million rows make a worksheet of about 250 MB and
/// shared strings of about 26 MB (a million distinct serials, 40 MB once
/// read); `calamine` streams the worksheet but keeps the shared strings,
/// so all the parts but the worksheets get 48 MB. A cell may hold what
/// Excel lets one hold (32,767 characters, up to 128 KB of XML): every
/// column of the template takes at most 100 characters, longer cells of
/// other columns are ignored, and 128 KB per cell keeps a row of 200
/// columns within 26 MB.
pub const XLSX_LIMITS: ArchiveLimits = ArchiveLimits {
    max_parts: 1_000,
    max_total_bytes: 1024 * 1024 * 1024,
    max_streamed_part_bytes: 1024 * 1024 * 1024,
    max_held_bytes: 48 * 1024 * 1024,
    max_binary_bytes: 8 * 1024 * 1024,
    max_ratio: 200,
    max_cell_bytes: 128 * 1024,
};

/// What the reader found since its last chunk.
#[derive(Debug, Default)]
pub struct Chunk {
    pub rows: Vec<Staged>,
    /// Batch data first seen in this chunk, in the order of their numbers.
    pub new_batches: Vec<BatchKey>,
    /// Rows of each batch so far (index: the batch's number), when sent last.
    pub batch_rows: Vec<u32>,
    pub problems: Vec<RowProblem>,
    /// Rows read so far (valid or not).
    pub rows_read: u32,
    /// Bytes of the file read so far (an estimate for XLSX).
    pub bytes_read: u64,
    /// In the last chunk: some code is named by more than one row (the
    /// staged rows say which).
    pub repeats: bool,
}

/// The end of the reading: `Err` is a problem with the whole file.
pub type Outcome = Result<(), RowProblem>;

fn file_problem(reason: impl Into<String>) -> RowProblem {
    RowProblem::new(0, "", reason)
}

/// Where each of [`COLUMNS`] is in the file's header row.
fn header_positions(header: &[String]) -> Result<[usize; 6], RowProblem> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, name) in header.iter().enumerate() {
        let name = name
            .trim()
            .trim_start_matches('\u{feff}')
            .to_ascii_lowercase();
        if name.is_empty() {
            continue;
        }
        if seen.insert(name.clone(), i).is_some() {
            return Err(file_problem(format!(
                "The header row names the column {name} twice."
            )));
        }
    }
    let missing: Vec<&str> = COLUMNS
        .iter()
        .copied()
        .filter(|c| !seen.contains_key(*c))
        .collect();
    if !missing.is_empty() {
        return Err(file_problem(format!(
            "The header row lacks the column(s) {}. The first row must name the columns {} (download the template).",
            missing.join(", "),
            COLUMNS.join(", ")
        )));
    }
    Ok(COLUMNS.map(|c| seen[c]))
}

/// Checks the CSV header line (the first record of `head`, the file's first
/// bytes) when the file is uploaded, so a wrong file is refused at once.
pub fn check_csv_head(head: &[u8]) -> Result<(), RowProblem> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(head);
    let mut records = reader.records();
    let header = match records.next() {
        Some(Ok(record)) => record.iter().map(str::to_string).collect::<Vec<_>>(),
        Some(Err(_)) => {
            return Err(file_problem(
                "The file is not a UTF-8 CSV file: save it as \"CSV UTF-8\" or as .xlsx.",
            ));
        }
        None => return Err(file_problem("The file is empty.")),
    };
    header_positions(&header)?;
    let has_row = records.any(|r| r.is_ok_and(|r| r.iter().any(|c| !c.trim().is_empty())));
    // A head cut at HEAD_BYTES with only the header in it still has rows after.
    if !has_row && head.len() < HEAD_BYTES {
        return Err(file_problem(
            "The file has a header row but no rows below it.",
        ));
    }
    Ok(())
}

/// Checks rows, numbers their distinct batch data, notes whether a code is
/// named twice, and sends the rows in chunks.
struct Sink {
    out: mpsc::Sender<Chunk>,
    chunk: Chunk,
    today: NaiveDate,
    rows_read: u32,
    batches: HashMap<BatchKey, u32>,
    /// The numbers of the last batches seen, newest first: files list
    /// their codes batch by batch, or alternate between a few.
    recent: Vec<(BatchKey, u32)>,
    batch_rows: Vec<u32>,
    /// The codes staged (8 MB for a million), sorted at the end to find a
    /// code named twice.
    serials: Vec<i64>,
}

/// Batches remembered in [`Sink::recent`].
const RECENT_BATCHES: usize = 4;

impl Sink {
    fn new(out: mpsc::Sender<Chunk>, today: NaiveDate) -> Self {
        Self {
            out,
            chunk: Chunk::default(),
            today,
            rows_read: 0,
            batches: HashMap::new(),
            recent: Vec::with_capacity(RECENT_BATCHES),
            batch_rows: Vec::new(),
            serials: Vec::new(),
        }
    }

    /// One data row at `row` (the file's row number), its cells in
    /// [`COLUMNS`] order. `Ok(false)`: the receiver is gone.
    fn row(&mut self, row: u32, cells: [&str; 6], bytes_read: u64) -> Result<bool, RowProblem> {
        if cells.iter().all(|c| c.trim().is_empty()) {
            return Ok(true);
        }
        self.rows_read += 1;
        if self.rows_read > MAX_ROWS {
            return Err(file_problem(format!(
                "The file has more than {MAX_ROWS} rows: split it into files of at most {MAX_ROWS} rows."
            )));
        }
        let row = i32::try_from(row).unwrap_or(i32::MAX);
        match check_row(row, cells, self.today) {
            Ok(ok) => {
                let serial = ok.serial;
                self.serials.push(serial);
                let batch = self.batch_of(ok.key())?;
                self.chunk.rows.push(Staged { row, serial, batch });
            }
            Err(problems) => self.chunk.problems.extend(problems),
        }
        if self.chunk.rows.len() + self.chunk.problems.len() >= CHUNK_ROWS {
            return Ok(self.flush(bytes_read));
        }
        Ok(true)
    }

    /// The number of a row's batch data (new ones are numbered in order).
    fn batch_of(&mut self, key: BatchKey) -> Result<u32, RowProblem> {
        if let Some(at) = self.recent.iter().position(|(k, _)| *k == key) {
            let n = self.recent[at].1;
            self.recent[..=at].rotate_right(1);
            self.batch_rows[n as usize] += 1;
            return Ok(n);
        }
        let n = match self.batches.get(&key) {
            Some(n) => *n,
            None => {
                if self.batches.len() >= MAX_BATCHES {
                    return Err(file_problem(format!(
                        "The file names more than {MAX_BATCHES} different batches (batch number, dates and licence together): split it into smaller files."
                    )));
                }
                let n = self.batches.len() as u32;
                self.batches.insert(key.clone(), n);
                self.chunk.new_batches.push(key.clone());
                self.batch_rows.push(0);
                n
            }
        };
        self.recent.truncate(RECENT_BATCHES - 1);
        self.recent.insert(0, (key, n));
        self.batch_rows[n as usize] += 1;
        Ok(n)
    }

    fn flush(&mut self, bytes_read: u64) -> bool {
        let mut chunk = std::mem::take(&mut self.chunk);
        chunk.rows_read = self.rows_read;
        chunk.bytes_read = bytes_read;
        chunk.batch_rows.clone_from(&self.batch_rows);
        self.out.blocking_send(chunk).is_ok()
    }

    fn finish(mut self, bytes_read: u64) -> Outcome {
        if self.rows_read == 0 {
            return Err(file_problem("The file has no rows below its header row."));
        }
        let mut serials = std::mem::take(&mut self.serials);
        serials.sort_unstable();
        self.chunk.repeats = serials.windows(2).any(|w| w[0] == w[1]);
        drop(serials);
        self.flush(bytes_read);
        Ok(())
    }
}

/// The manual form's listed serials, as rows 1, 2, … (its code range is
/// staged in SQL by the job).
pub fn read_form(
    form: &StoredForm,
    size: u64,
    out: mpsc::Sender<Chunk>,
    today: NaiveDate,
) -> Outcome {
    if form.serials.is_empty() {
        return if form.range.is_some() {
            Ok(())
        } else {
            Err(RowProblem::new(0, "serials", "The form names no codes."))
        };
    }
    let mut sink = Sink::new(out, today);
    for (i, serial) in form.serials.iter().enumerate() {
        let row = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if !sink.row(row, form.cells(serial), 0)? {
            return Ok(());
        }
    }
    sink.finish(size)
}

/// Reads a CSV file.
pub fn read_csv(path: &Path, size: u64, out: mpsc::Sender<Chunk>, today: NaiveDate) -> Outcome {
    let file = File::open(path).map_err(|_| file_problem("The stored file could not be read."))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(BufReader::with_capacity(256 * 1024, file));
    let mut record = csv::StringRecord::new();
    let mut sink = Sink::new(out, today);
    let mut positions: Option<[usize; 6]> = None;
    let mut row: u32 = 0;
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(err) => {
                let line = err.position().map_or(0, csv::Position::line);
                return Err(match err.kind() {
                    csv::ErrorKind::Utf8 { .. } => file_problem(format!(
                        "Line {line} is not UTF-8 text: save the file as \"CSV UTF-8\" or as .xlsx."
                    )),
                    _ => file_problem(format!(
                        "The CSV file is malformed near line {line}: {err}."
                    )),
                });
            }
        }
        row += 1;
        let Some(at) = positions else {
            let header: Vec<String> = record.iter().map(str::to_string).collect();
            positions = Some(header_positions(&header)?);
            continue;
        };
        let cells = at.map(|i| record.get(i).unwrap_or(""));
        let bytes = reader.position().byte();
        if !sink.row(row, cells, bytes)? {
            return Ok(());
        }
    }
    if positions.is_none() {
        return Err(file_problem("The file is empty."));
    }
    sink.finish(size)
}

/// A cell as text: numbers without a trailing `.0` (a GTIN typed into
/// Excel is a number), dates as `YYYY-MM-DD`.
fn cell_text(value: &DataRef<'_>) -> String {
    match value {
        DataRef::String(s) => s.clone(),
        DataRef::SharedString(s) => (*s).to_string(),
        DataRef::Int(i) => i.to_string(),
        DataRef::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.0}"),
        DataRef::Float(f) => f.to_string(),
        DataRef::Bool(b) => b.to_string(),
        DataRef::DateTime(d) => d
            .as_datetime()
            .map(|d| d.date().format("%Y-%m-%d").to_string())
            .unwrap_or_default(),
        DataRef::DateTimeIso(s) => s.chars().take(10).collect(),
        DataRef::DurationIso(s) => s.clone(),
        DataRef::Error(e) => format!("#{e}"),
        DataRef::Empty => String::new(),
    }
}

/// Checks an XLSX with [`XLSX_LIMITS`] before `calamine` opens it.
pub fn check_xlsx<R: Read + Seek>(reader: R) -> Result<(), RowProblem> {
    uploads::check_xlsx(reader, &XLSX_LIMITS).map_err(|problem| match problem {
        ArchiveProblem::Unreadable | ArchiveProblem::NoMainPart | ArchiveProblem::NotXml { .. } => {
            file_problem(format!(
            "The file is not a valid .xlsx workbook ({problem}): save it again from your spreadsheet program, or as CSV."
        ))
        }
        _ => file_problem(format!(
            "The .xlsx workbook cannot be read safely: {problem} Split it into smaller files, or save it as CSV."
        )),
    })
}

/// Reads the first worksheet of an XLSX file.
pub fn read_xlsx(path: &Path, size: u64, out: mpsc::Sender<Chunk>, today: NaiveDate) -> Outcome {
    let open = || File::open(path).map_err(|_| file_problem("The stored file could not be read."));
    check_xlsx(BufReader::new(open()?))?;
    let malformed = |err: calamine::XlsxError| {
        file_problem(format!(
            "The .xlsx workbook could not be read ({err}): save it again from your spreadsheet program, or as CSV."
        ))
    };
    let mut book: Xlsx<_> =
        Xlsx::new(BufReader::with_capacity(256 * 1024, open()?)).map_err(malformed)?;
    let Some(sheet) = book.sheet_names().into_iter().next() else {
        return Err(file_problem("The workbook has no worksheet."));
    };
    let mut cells = book.worksheet_cells_reader(&sheet).map_err(malformed)?;
    let last_row = u64::from(cells.dimensions().end.0.max(1));
    let mut sink = Sink::new(out, today);
    let positions: std::cell::Cell<Option<[usize; 6]>> = std::cell::Cell::new(None);
    let mut current: Option<u32> = None;
    let mut values: Vec<String> = Vec::new();

    // Hands one finished worksheet row to the sink.
    let end_row =
        |row: u32, values: &mut Vec<String>, sink: &mut Sink| -> Result<bool, RowProblem> {
            let done = match positions.get() {
                None => {
                    if values.iter().all(|v| v.trim().is_empty()) {
                        true
                    } else {
                        positions.set(Some(header_positions(values)?));
                        true
                    }
                }
                Some(at) => {
                    let cells = at.map(|i| values.get(i).map_or("", String::as_str));
                    let bytes = size * u64::from(row) / last_row.max(u64::from(row) + 1);
                    sink.row(row + 1, cells, bytes)?
                }
            };
            values.clear();
            Ok(done)
        };
    while let Some(cell) = cells.next_cell().map_err(malformed)? {
        let (row, column) = cell.get_position();
        if current.is_some_and(|r| r != row) {
            let done = current.expect("checked above");
            if !end_row(done, &mut values, &mut sink)? {
                return Ok(());
            }
        }
        current = Some(row);
        let column = column as usize;
        if column > 200 {
            continue;
        }
        if values.len() <= column {
            values.resize(column + 1, String::new());
        }
        let value = cell.get_value();
        let mut text = cell_text(value);
        // A GTIN typed into a spreadsheet as a number loses its leading
        // zeros (a GTIN-13 of 0 12345 67890 5 becomes 11 digits): GTINs are
        // read right-aligned in 14 digits, so the zeros go back.
        let numeric = matches!(value, DataRef::Int(_) | DataRef::Float(_));
        if numeric
            && positions.get().is_some_and(|at| at[1] == column)
            && text.len() < 14
            && text.bytes().all(|b| b.is_ascii_digit())
        {
            text = format!("{text:0>14}");
        }
        values[column] = text;
    }
    if let Some(row) = current
        && !end_row(row, &mut values, &mut sink)?
    {
        return Ok(());
    }
    if positions.get().is_none() {
        return Err(file_problem("The worksheet is empty."));
    }
    sink.finish(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(serial: &str, batch: &str) -> [String; 6] {
        [
            serial.to_string(),
            "09506000134352".to_string(),
            batch.to_string(),
            "2026-01-01".to_string(),
            "2027-01-01".to_string(),
            "L-1".to_string(),
        ]
    }

    /// Reads `rows` through a sink: the chunks it sent.
    fn read(rows: &[[String; 6]]) -> Vec<Chunk> {
        let (out, mut chunks) = mpsc::channel(64);
        let today = NaiveDate::from_ymd_opt(2026, 11, 25).unwrap();
        let mut sink = Sink::new(out, today);
        for (i, cells) in rows.iter().enumerate() {
            let cells = [0, 1, 2, 3, 4, 5].map(|c| cells[c].as_str());
            assert!(sink.row(i as u32 + 2, cells, 0).unwrap());
        }
        sink.finish(0).unwrap();
        let mut sent = Vec::new();
        while let Ok(chunk) = chunks.try_recv() {
            sent.push(chunk);
        }
        sent
    }

    #[test]
    fn batches_are_numbered_in_order_of_first_use_past_the_recent_ones() {
        let names = ["A", "B", "A", "C", "D", "E", "A", "B", "F", "A"];
        let serials: Vec<String> = (0..names.len())
            .map(|i| format!("0000000000{}", (b'A' + i as u8) as char))
            .collect();
        let rows: Vec<_> = serials.iter().zip(names).map(|(s, b)| row(s, b)).collect();
        let chunks = read(&rows);
        let staged: Vec<u32> = chunks
            .iter()
            .flat_map(|c| c.rows.iter().map(|r| r.batch))
            .collect();
        assert_eq!(staged, [0, 1, 0, 2, 3, 4, 0, 1, 5, 0]);
        let numbered: Vec<&str> = chunks
            .iter()
            .flat_map(|c| c.new_batches.iter().map(|b| b.batch_number.as_str()))
            .collect();
        assert_eq!(numbered, ["A", "B", "C", "D", "E", "F"]);
        let last = chunks.last().unwrap();
        assert_eq!(last.batch_rows, [4, 2, 1, 1, 1, 1]);
        assert!(!last.repeats);
    }

    #[test]
    fn a_code_named_twice_is_noted_at_the_end() {
        let rows = [
            row("0000000000A", "A"),
            row("0000000000B", "A"),
            row("0000000000A", "B"),
        ];
        let chunks = read(&rows);
        assert!(chunks.last().unwrap().repeats);
        let staged: usize = chunks.iter().map(|c| c.rows.len()).sum();
        assert_eq!(staged, 3, "every row is staged; the job lists the repeats");
    }
}
