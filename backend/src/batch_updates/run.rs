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

use std::path::Path;
use std::time::{Duration, Instant};

use chrono::{NaiveDate, Utc};
use futures_util::StreamExt;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::read::{self, Chunk};
use super::{BatchUpdateRow, Format, MAX_ERRORS_KEPT, RowProblem, StoredForm, UpdateStatus, store};
use crate::audit::Actor;
use crate::http::state::SharedState;
use crate::storage::Storage;
use crate::tenants::TenantRef;

/// How often progress is written.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// The stored file of an update.
pub fn file_key(tenant: &TenantRef, update: &BatchUpdateRow) -> object_store::path::Path {
    Storage::key(tenant, "batch-updates", update.id, update.format.as_str())
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
}

impl Found {
    fn add(&mut self, problems: impl IntoIterator<Item = RowProblem>) {
        for problem in problems {
            self.problems += 1;
            if self.kept.len() < MAX_ERRORS_KEPT {
                self.kept.push(problem);
            }
        }
    }
    fn error_count(&self) -> i32 {
        i32::try_from(self.problems).unwrap_or(i32::MAX)
    }
}

async fn work(state: &SharedState, tenant: &TenantRef, id: Uuid) -> anyhow::Result<()> {
    let update = {
        let mut tx = state.db.begin_tenant(tenant).await?;
        let Some(update) = store::lock(&mut tx, id).await? else {
            return Ok(());
        };
        if UpdateStatus::parse(&update.status).is_final() {
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
    store::create_stage(&mut tx).await?;
    let mut found = Found::default();
    let mut progress = Progress::new(state, tenant, id);
    {
        let mut copy = store::copy_stage(&mut tx).await?;
        let mut buf = String::with_capacity(2 * 1024 * 1024);
        while let Some(chunk) = chunks.recv().await {
            buf.clear();
            for row in &chunk.rows {
                stage_line(row, &mut buf);
            }
            if !buf.is_empty() {
                copy.send(buf.as_bytes()).await?;
            }
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
    if let Some(range) = form.as_ref().and_then(|f| f.range.as_ref().map(|r| (f, r))) {
        let (form, range) = range;
        match form_fields(form, today) {
            Ok(fields) => {
                let offset = i32::try_from(found.rows_read).unwrap_or(i32::MAX);
                let staged = store::stage_range(&mut tx, range, offset, &fields).await?;
                found.rows_read += u32::try_from(staged).unwrap_or(u32::MAX);
            }
            Err(problems) => found.add(problems),
        }
        if found.rows_read == 0 {
            found.add([RowProblem::new(0, "range", "The range holds no codes.")]);
        }
        if found.problems > 0 {
            return end_invalid(state, tenant, tx, &update, &found).await;
        }
    }
    store::analyze_stage(&mut tx).await?;
    check_codes(&mut tx, &mut found).await?;
    progress.tick("validating", &found, true).await;
    if found.problems > 0 {
        return end_invalid(state, tenant, tx, &update, &found).await;
    }
    let rows = i32::try_from(found.rows_read).unwrap_or(i32::MAX);
    if update.dry_run {
        store::finish(&mut tx, id, "valid", rows, 0, 0).await?;
        tx.commit().await?;
        remove_file(state, tenant, id).await;
        return Ok(());
    }
    progress.tick("applying", &found, true).await;
    let batches = store::insert_batches(&mut tx, id).await?;
    let applied = store::assign_codes(&mut tx, id).await?;
    let actor = Actor {
        account_id: Some(update.created_by),
        email: String::new(),
        ip: None,
    };
    crate::organisation::store::audit_own_tenant(
        &mut tx,
        &actor,
        "organisation.batch_update_applied",
        &id.to_string(),
        serde_json::json!({
            "file_name": update.file_name,
            "content_sha256": update.content_sha256,
            "codes": applied,
            "batches": batches,
        }),
    )
    .await?;
    let applied = i32::try_from(applied).unwrap_or(i32::MAX);
    store::finish(&mut tx, id, "applied", rows, applied, 0).await?;
    tx.commit().await?;
    remove_file(state, tenant, id).await;
    Ok(())
}

/// Starts reading the file (or the form's serials) into `out`.
fn spawn_reader(
    update: &BatchUpdateRow,
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
            tokio::task::spawn_blocking(move || read_form_serials(&form, size, &out, today))
        }
        _ => tokio::task::spawn_blocking(move || read::read_csv(&path, size, out, today)),
    }
}

/// The form's fields, parsed, as a row without a code of its own.
fn form_fields(form: &StoredForm, today: NaiveDate) -> Result<super::BatchRow, Vec<RowProblem>> {
    let cells = [
        "00000000000",
        form.gtin.as_str(),
        form.batch_number.as_str(),
        form.manufacturing_date.as_str(),
        form.expiry_date.as_str(),
        form.licence_number.as_str(),
    ];
    super::check_row(0, cells, today)
}

/// The rows of the form's listed serials (its range is staged in SQL).
fn read_form_serials(
    form: &StoredForm,
    size: u64,
    out: &mpsc::Sender<Chunk>,
    today: NaiveDate,
) -> read::Outcome {
    if form.serials.is_empty() && form.range.is_none() {
        return Err(RowProblem::new(0, "serials", "The form names no codes."));
    }
    let mut chunk = Chunk::default();
    for (i, serial) in form.serials.iter().enumerate() {
        let row = i32::try_from(i + 1).unwrap_or(i32::MAX);
        let cells = [
            serial.as_str(),
            form.gtin.as_str(),
            form.batch_number.as_str(),
            form.manufacturing_date.as_str(),
            form.expiry_date.as_str(),
            form.licence_number.as_str(),
        ];
        match super::check_row(row, cells, today) {
            Ok(ok) => chunk.rows.push(ok),
            Err(problems) => chunk.problems.extend(problems),
        }
    }
    chunk.rows_read = u32::try_from(form.serials.len()).unwrap_or(u32::MAX);
    chunk.bytes_read = size;
    let _ = out.blocking_send(chunk);
    Ok(())
}

/// A staged row in COPY's text format (no field can hold a tab, a line
/// break or a backslash: the row checks refused those).
fn stage_line(row: &super::BatchRow, buf: &mut String) {
    use std::fmt::Write as _;
    let _ = writeln!(
        buf,
        "{}\t{}\t{}\t{}\t{}\t{}\t{}",
        row.row,
        row.serial,
        row.gtin,
        copy_text(&row.batch_number),
        row.manufactured_on,
        row.expires_on,
        copy_text(&row.licence_number)
    );
}

/// Escapes a value for COPY's text format.
fn copy_text(value: &str) -> std::borrow::Cow<'_, str> {
    if value.contains(['\\', '\t', '\n', '\r']) {
        value
            .replace('\\', "\\\\")
            .replace('\t', "\\t")
            .replace('\n', "\\n")
            .replace('\r', "\\r")
            .into()
    } else {
        value.into()
    }
}

/// The checks against the organisation's codes.
async fn check_codes(conn: &mut sqlx::PgConnection, found: &mut Found) -> anyhow::Result<()> {
    {
        let mut mismatches = store::mismatches(conn);
        while let Some(m) = mismatches.next().await {
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
                        "This code was generated for batch {lot}, which its printed QR code carries: give that batch number."
                    ),
                )]);
            }
        }
    }
    let repeated = store::repeated_codes(conn).await?;
    if !repeated.is_empty() {
        let total = store::repeated_count(conn).await?;
        for rows in &repeated {
            let first = rows[0];
            found.add(rows[1..].iter().map(|row| {
                RowProblem::new(
                    *row,
                    "code",
                    format!(
                        "This code is also in row {first}: each code may appear once per file."
                    ),
                )
            }));
        }
        // Codes beyond the first 1,000 repeated ones are counted, not listed.
        let listed = i64::try_from(repeated.len()).unwrap_or(i64::MAX);
        if total > listed {
            found.problems += u64::try_from(total - listed).unwrap_or(0);
        }
    }
    found
        .kept
        .sort_by(|a, b| (a.row, &a.column).cmp(&(b.row, &b.column)));
    Ok(())
}

/// Ends the update as invalid: the staged rows go, the problems stay.
async fn end_invalid(
    state: &SharedState,
    tenant: &TenantRef,
    mut tx: crate::db::TenantTx,
    update: &BatchUpdateRow,
    found: &Found,
) -> anyhow::Result<()> {
    store::insert_problems(&mut tx, update.id, &found.kept).await?;
    let rows = i32::try_from(found.rows_read).unwrap_or(i32::MAX);
    store::finish(&mut tx, update.id, "invalid", rows, 0, found.error_count()).await?;
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
        )
        .await;
        if let Err(err) = written {
            tracing::warn!(error = %err, update = %self.id, "cannot write a batch update's progress");
        }
        let _ = conn.finish().await;
    }
}
