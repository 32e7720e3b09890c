//! The work of a batch update, run by [`crate::jobs`].
//!
//! One transaction holds the whole update: the checked rows are copied into
//! a temporary staging table as they are read, the rows are then checked
//! against the organisation's codes (each code exists, was generated with
//! the row's GTIN and, when it carries a lot, with the row's batch number;
//! no code twice), and only when no row has a problem and it is not a dry
//! run are the batches and the codes' batch data written and the update
//! marked applied, in that same transaction. So a file with one bad row, a
//! stopped server or a failing statement leaves nothing written; a job
//! that restarts starts over.
//!
//! Progress (bytes and rows read, problems found) is written on a second
//! connection about once a second, so the page's progress bar moves while
//! the transaction is open.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use chrono::{NaiveDate, Utc};
use futures_util::StreamExt;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::read::{self, Chunk};
use super::{BatchKey, BatchUpdate, Format, MAX_ERRORS_KEPT, RowProblem, StoredForm, store};
use crate::audit::Actor;
use crate::http::state::SharedState;
use crate::tenants::TenantRef;

/// How often progress is written.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// The stored file of an update.
fn file_key(tenant: &TenantRef, update: &BatchUpdate) -> object_store::path::Path {
    super::file_key(tenant, update.id, Format::parse(&update.format))
}

/// Runs (or restarts) the update `id` of `tenant` to its end. On
/// `last_try`, an error marks it failed instead of leaving it for another
/// try.
pub async fn run(
    state: &SharedState,
    tenant: &TenantRef,
    id: Uuid,
    last_try: bool,
) -> anyhow::Result<()> {
    match work(state, tenant, id).await {
        Err(err) if last_try => {
            tracing::error!(error = ?err, update = %id, "batch update failed for good");
            let mut tx = state.db.begin_tenant(tenant).await?;
            store::mark_failed(
                &mut tx,
                id,
                "The update stopped after repeated errors on the server. Nothing was written: upload the file again, or contact support if it happens again.",
            )
            .await?;
            tx.commit().await?;
            remove_file(state, tenant, id).await;
            Ok(())
        }
        other => other,
    }
}

async fn remove_file(state: &SharedState, tenant: &TenantRef, id: Uuid) {
    let mut conn = match state.db.read_tenant(tenant).await {
        Ok(conn) => conn,
        Err(_) => return,
    };
    if let Ok(Some(update)) = store::find(&mut conn, id).await
        && let Err(err) = state.storage.delete(&file_key(tenant, &update)).await
    {
        tracing::warn!(error = %err, update = %id, "cannot remove a batch update's file");
    }
    let _ = conn.finish().await;
}

/// What the reading and checking found.
#[derive(Default)]
struct Found {
    rows_read: u32,
    bytes_read: u64,
    kept: Vec<RowProblem>,
    problems: u64,
    /// The rows with at least one problem.
    bad_rows: RowSet,
}

impl Found {
    fn add(&mut self, problems: impl IntoIterator<Item = RowProblem>) {
        for problem in problems {
            self.problems += 1;
            self.bad_rows.insert(problem.row);
            if self.kept.len() < MAX_ERRORS_KEPT {
                self.kept.push(problem);
            }
        }
    }
    fn error_count(&self) -> i32 {
        i32::try_from(self.problems).unwrap_or(i32::MAX)
    }
    fn error_rows(&self) -> i32 {
        i32::try_from(self.bad_rows.len).unwrap_or(i32::MAX)
    }
}

/// A set of row numbers (a bit a row: a million rows take 125 KB), counting
/// its members; row 0, the file as a whole, is no row.
#[derive(Default)]
struct RowSet {
    bits: Vec<u64>,
    len: u64,
}

impl RowSet {
    fn insert(&mut self, row: i32) {
        let Ok(row) = usize::try_from(row) else {
            return;
        };
        if row == 0 {
            return;
        }
        let (word, bit) = (row / 64, 1u64 << (row % 64));
        if self.bits.len() <= word {
            self.bits.resize(word + 1, 0);
        }
        if self.bits[word] & bit == 0 {
            self.bits[word] |= bit;
            self.len += 1;
        }
    }
}

async fn work(state: &SharedState, tenant: &TenantRef, id: Uuid) -> anyhow::Result<()> {
    let update = {
        let mut tx = state.db.begin_tenant(tenant).await?;
        let Some(update) = store::lock(&mut tx, id).await? else {
            return Ok(());
        };
        if update.status.is_final() {
            return Ok(());
        }
        store::mark_validating(&mut tx, id).await?;
        tx.commit().await?;
        update
    };
    let today = Utc::now().date_naive();
    // The file, local for the reader: where it is, or a copy from the bucket.
    let key = file_key(tenant, &update);
    let (local_path, copied) = match state.storage.local_path(&key) {
        Some(path) => (path, None),
        None => {
            let copy = tempfile::NamedTempFile::new()?;
            state.storage.get_to_file(&key, copy.path()).await?;
            (copy.path().to_path_buf(), Some(copy))
        }
    };

    let form: Option<StoredForm> = match Format::parse(&update.format) {
        Format::Json => Some(serde_json::from_slice(
            &tokio::fs::read(&local_path).await?,
        )?),
        _ => None,
    };
    let (out, mut chunks) = mpsc::channel::<Chunk>(4);
    let reader = spawn_reader(&update, &local_path, form.clone(), out, today);

    let mut tx = state.db.begin_tenant(tenant).await?;
    store::tune_for_bulk(&mut tx).await?;
    store::create_stage(&mut tx).await?;
    let mut found = Found::default();
    let mut progress = Progress::new(state, tenant, id);
    // The file's distinct batch data, by number, and the rows of each.
    let mut batches: Vec<BatchKey> = Vec::new();
    let mut batch_rows: Vec<u32> = Vec::new();
    let mut repeats = false;
    {
        let mut copy = store::copy_stage(&mut tx).await?;
        let mut buf = String::with_capacity(512 * 1024);
        while let Some(chunk) = chunks.recv().await {
            buf.clear();
            for row in &chunk.rows {
                // Writing to a String cannot fail.
                let _ = writeln!(buf, "{}\t{}\t{}", row.row, row.serial, row.batch);
            }
            if !buf.is_empty() {
                copy.send(buf.as_bytes()).await?;
            }
            batches.extend(chunk.new_batches);
            if !chunk.batch_rows.is_empty() {
                batch_rows = chunk.batch_rows;
            }
            repeats |= chunk.repeats;
            found.rows_read = chunk.rows_read;
            found.bytes_read = chunk.bytes_read;
            found.add(chunk.problems);
            progress.tick("validating", &found, false).await;
        }
        copy.finish().await?;
    }
    let outcome = reader.await?;
    drop(copied);
    if let Err(problem) = outcome {
        found.add([problem]);
        return end_invalid(state, tenant, tx, &update, &found).await;
    }
    if repeats {
        // Which rows name the same code, from the staged rows.
        repeated(&mut tx, &mut found).await?;
    }
    let range = form.as_ref().and_then(|f| f.range.as_ref().map(|r| (f, r)));
    if let Some((form, range)) = range {
        match super::check_row(0, form.cells(super::NO_CODE), today) {
            Ok(fields) => {
                let key = fields.key();
                let n = match batches.iter().position(|b| *b == key) {
                    Some(n) => n,
                    None => {
                        batches.push(key);
                        batch_rows.push(0);
                        batches.len() - 1
                    }
                };
                let offset = i32::try_from(found.rows_read).unwrap_or(i32::MAX);
                let batch = i32::try_from(n).unwrap_or(i32::MAX);
                let staged = store::stage_range(&mut tx, range, offset, batch).await?;
                let staged = u32::try_from(staged).unwrap_or(u32::MAX);
                found.rows_read += staged;
                batch_rows[n] += staged;
            }
            Err(problems) => found.add(problems),
        }
        if found.rows_read == 0 {
            found.add([RowProblem::new(0, "range", "The range holds no codes.")]);
        }
        if found.problems == 0 {
            // The range's codes may repeat the listed serials.
            repeated(&mut tx, &mut found).await?;
        }
        if found.problems > 0 {
            return end_invalid(state, tenant, tx, &update, &found).await;
        }
    }
    store::analyze_stage(&mut tx).await?;
    let rows = i32::try_from(found.rows_read).unwrap_or(i32::MAX);
    if update.dry_run || found.problems > 0 {
        mismatches(&mut tx, &batches, &mut found).await?;
        progress.tick("validating", &found, true).await;
        if found.problems > 0 {
            return end_invalid(state, tenant, tx, &update, &found).await;
        }
        store::finish(&mut tx, id, "valid", rows, 0, 0, 0).await?;
        tx.commit().await?;
        remove_file(state, tenant, id).await;
        return Ok(());
    }
    // Every row is valid on its own: write, checking each code as it is
    // written; a row that does not fit its code undoes the writing and is
    // then looked for.
    progress.tick("applying", &found, true).await;
    let codes: Vec<i32> = batch_rows
        .iter()
        .map(|n| i32::try_from(*n).unwrap_or(i32::MAX))
        .collect();
    store::lock_writes(&mut tx).await?;
    let mut attempt = sqlx::Acquire::begin(&mut *tx).await?;
    let written = store::insert_batches(&mut attempt, id, &batches, &codes).await?;
    let applied = store::assign_codes(&mut attempt, id).await?;
    if applied != i64::from(found.rows_read) {
        attempt.rollback().await?;
        mismatches(&mut tx, &batches, &mut found).await?;
        return end_invalid(state, tenant, tx, &update, &found).await;
    }
    attempt.commit().await?;
    let actor = Actor {
        account_id: Some(update.created_by),
        email: String::new(),
        ip: None,
    };
    // Each batch is a lot of the register (ADR 0019): the lots it names
    // that the register lacks are registered, and every batch is linked to
    // its lot, in this same transaction.
    let added =
        crate::lots::store::register_batch_lots(&mut tx, id, &actor, &update.created_by_name)
            .await?;
    for lot in &added {
        crate::lots::store::audit_added(&mut tx, &actor, lot).await?;
    }
    store::link_lots(&mut tx, id).await?;
    crate::audit::record_own_tenant(
        &mut tx,
        &actor,
        "batch_update.applied",
        &id.to_string(),
        serde_json::json!({
            "file_name": update.file_name,
            "content_sha256": update.content_sha256,
            "codes": applied,
            "batches": written,
        }),
    )
    .await?;
    let applied = i32::try_from(applied).unwrap_or(i32::MAX);
    store::finish(&mut tx, id, "applied", rows, applied, 0, 0).await?;
    tx.commit().await?;
    remove_file(state, tenant, id).await;
    Ok(())
}

/// Starts reading the file (or the form's serials) into `out`.
fn spawn_reader(
    update: &BatchUpdate,
    path: &Path,
    form: Option<StoredForm>,
    out: mpsc::Sender<Chunk>,
    today: NaiveDate,
) -> tokio::task::JoinHandle<read::Outcome> {
    let size = u64::try_from(update.size_bytes).unwrap_or(0);
    let path = path.to_path_buf();
    match (Format::parse(&update.format), form) {
        (Format::Xlsx, _) => {
            tokio::task::spawn_blocking(move || read::read_xlsx(&path, size, out, today))
        }
        (Format::Json, Some(form)) => {
            tokio::task::spawn_blocking(move || read::read_form(&form, size, out, today))
        }
        _ => tokio::task::spawn_blocking(move || read::read_csv(&path, size, out, today)),
    }
}

/// The rows that do not fit the code they name (not the organisation's, of
/// another GTIN or lot).
async fn mismatches(
    conn: &mut sqlx::PgConnection,
    batches: &[BatchKey],
    found: &mut Found,
) -> anyhow::Result<()> {
    let gtins: Vec<String> = batches.iter().map(|b| b.gtin.clone()).collect();
    let numbers: Vec<String> = batches.iter().map(|b| b.batch_number.clone()).collect();
    let mut rows = store::mismatches(conn, &gtins, &numbers);
    while let Some(m) = rows.next().await {
        let m = m?;
        if m.unknown {
            found.add([RowProblem::new(
                m.row_number,
                "code",
                "No code of your organisation has this serial: check it against your code downloads.",
            )]);
            continue;
        }
        if let Some(gtin) = m.other_gtin {
            found.add([RowProblem::new(
                m.row_number,
                "gtin",
                format!("This code was generated for GTIN {gtin}: give that GTIN."),
            )]);
        }
        if let Some(lot) = m.other_lot {
            found.add([RowProblem::new(
                m.row_number,
                "batch_number",
                format!(
                    "batch_number {} differs from lot {lot}, which this code was generated for and its printed QR code carries: a pack cannot carry two batch numbers. Give {lot}.",
                    m.batch_number
                ),
            )]);
        }
    }
    found
        .kept
        .sort_by(|a, b| (a.row, &a.column).cmp(&(b.row, &b.column)));
    Ok(())
}

/// Codes named twice (the form's range and its listed serials).
async fn repeated(conn: &mut sqlx::PgConnection, found: &mut Found) -> anyhow::Result<()> {
    let repeated = store::repeated_codes(conn).await?;
    if repeated.is_empty() {
        return Ok(());
    }
    let total = store::repeated_count(conn).await?;
    for rows in &repeated {
        let first = rows[0];
        found.add(rows[1..].iter().map(|row| {
            RowProblem::new(
                *row,
                "code",
                format!("This code is also in row {first}: each code may appear once per file."),
            )
        }));
    }
    // Codes beyond the first 1,000 repeated ones are counted, not listed;
    // their rows are counted among the rows with problems.
    let listed = i64::try_from(repeated.len()).unwrap_or(i64::MAX);
    if total > listed {
        found.problems += u64::try_from(total - listed).unwrap_or(0);
        let mut rows = store::repeated_rows(conn);
        while let Some(row) = rows.next().await {
            found.bad_rows.insert(row?);
        }
    }
    Ok(())
}

/// Ends the update as invalid: the staged rows go, the problems stay.
async fn end_invalid(
    state: &SharedState,
    tenant: &TenantRef,
    mut tx: crate::db::TenantTx,
    update: &BatchUpdate,
    found: &Found,
) -> anyhow::Result<()> {
    store::insert_problems(&mut tx, update.id, &found.kept).await?;
    let rows = i32::try_from(found.rows_read).unwrap_or(i32::MAX);
    store::finish(
        &mut tx,
        update.id,
        "invalid",
        rows,
        0,
        found.error_count(),
        found.error_rows(),
    )
    .await?;
    tx.commit().await?;
    remove_file(state, tenant, update.id).await;
    Ok(())
}

/// Writes progress at most once a second, on a connection taken for that
/// moment only (the job's transaction holds one of the tenant's few
/// connections; the page's requests need the others). A tick that finds no
/// free connection at once is skipped.
struct Progress {
    state: SharedState,
    tenant: TenantRef,
    id: Uuid,
    last: Option<Instant>,
}

impl Progress {
    fn new(state: &SharedState, tenant: &TenantRef, id: Uuid) -> Self {
        Self {
            state: state.clone(),
            tenant: tenant.clone(),
            id,
            last: None,
        }
    }

    async fn tick(&mut self, status: &str, found: &Found, now: bool) {
        if !now
            && self
                .last
                .is_some_and(|last| last.elapsed() < PROGRESS_EVERY)
        {
            return;
        }
        self.last = Some(Instant::now());
        let take = self.state.db.autocommit_tenant(&self.tenant);
        let Ok(Ok(mut conn)) = tokio::time::timeout(Duration::from_millis(250), take).await else {
            return;
        };
        let written = store::progress(
            &mut conn,
            self.id,
            status,
            i64::try_from(found.bytes_read).unwrap_or(i64::MAX),
            i32::try_from(found.rows_read).unwrap_or(i32::MAX),
            found.error_count(),
            found.error_rows(),
        )
        .await;
        if let Err(err) = written {
            tracing::warn!(error = %err, update = %self.id, "cannot write a batch update's progress");
        }
        let _ = conn.finish().await;
    }
}
