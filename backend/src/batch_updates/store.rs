//! The SQL of batch updates (tenant schema, migration 0012).

use chrono::NaiveDate;
use futures_util::stream::BoxStream;
use sqlx::PgConnection;
use sqlx::postgres::PgCopyIn;
use uuid::Uuid;

use crate::http::input::IsoDate;

use super::{BatchUpdate, RowProblem};

pub struct NewUpdate<'a> {
    pub id: Uuid,
    pub source: &'a str,
    pub file_name: &'a str,
    pub format: &'a str,
    pub size_bytes: i64,
    pub content_sha256: &'a str,
    pub dry_run: bool,
    pub created_by: Uuid,
    pub created_by_name: &'a str,
}

/// Inserts a queued update. An update that is not a dry run and whose
/// content was already applied (or is being applied) breaks the unique
/// index `batch_updates_applied_once` (23505).
pub async fn insert(conn: &mut PgConnection, new: &NewUpdate<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO batch_updates (id, source, file_name, format, size_bytes, content_sha256, dry_run, created_by, created_by_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(new.id)
    .bind(new.source)
    .bind(new.file_name)
    .bind(new.format)
    .bind(new.size_bytes)
    .bind(new.content_sha256)
    .bind(new.dry_run)
    .bind(new.created_by)
    .bind(new.created_by_name)
    .execute(conn)
    .await?;
    Ok(())
}

/// The update that applied (or is applying) this content, if any.
pub async fn applied_with_hash(
    conn: &mut PgConnection,
    sha256: &str,
) -> Result<Option<BatchUpdate>, sqlx::Error> {
    sqlx::query_as(
        "SELECT * FROM batch_updates
         WHERE content_sha256 = $1 AND NOT dry_run AND status IN ('queued', 'validating', 'applying', 'applied')",
    )
    .bind(sha256)
    .fetch_optional(conn)
    .await
}

pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<BatchUpdate>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM batch_updates WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The update, locked until the transaction ends (one job works on it).
pub async fn lock(conn: &mut PgConnection, id: Uuid) -> Result<Option<BatchUpdate>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM batch_updates WHERE id = $1 FOR UPDATE")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The newest updates first.
pub async fn list(conn: &mut PgConnection, limit: i64) -> Result<Vec<BatchUpdate>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM batch_updates ORDER BY created_at DESC, id LIMIT $1")
        .bind(limit)
        .fetch_all(conn)
        .await
}

/// Starts (or restarts, after a stop) the checking: progress and the
/// problems of an earlier attempt are cleared.
pub async fn mark_validating(conn: &mut PgConnection, id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM batch_update_errors WHERE update_id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "UPDATE batch_updates SET status = 'validating', started_at = now(), bytes_read = 0, rows_read = 0, error_count = 0
         WHERE id = $1",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Progress of a running update (on a connection of its own, so the page
/// sees it while the job's transaction is open).
pub async fn progress(
    conn: &mut PgConnection,
    id: Uuid,
    status: &str,
    bytes_read: i64,
    rows_read: i32,
    error_count: i32,
    error_rows: i32,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE batch_updates SET status = $2, bytes_read = $3, rows_read = $4, error_count = $5, error_rows = $6
         WHERE id = $1 AND status IN ('validating', 'applying')",
    )
    .bind(id)
    .bind(status)
    .bind(bytes_read)
    .bind(rows_read)
    .bind(error_count)
    .bind(error_rows)
    .execute(conn)
    .await?;
    Ok(())
}

/// Ends an update: `valid`, `invalid` or `applied`.
pub async fn finish(
    conn: &mut PgConnection,
    id: Uuid,
    status: &str,
    rows_read: i32,
    rows_applied: i32,
    error_count: i32,
    error_rows: i32,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE batch_updates
         SET status = $2, rows_read = $3, rows_applied = $4, error_count = $5, error_rows = $6,
             bytes_read = size_bytes, finished_at = clock_timestamp()
         WHERE id = $1",
    )
    .bind(id)
    .bind(status)
    .bind(rows_read)
    .bind(rows_applied)
    .bind(error_count)
    .bind(error_rows)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn mark_failed(
    conn: &mut PgConnection,
    id: Uuid,
    reason: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE batch_updates SET status = 'failed', failure = $2, finished_at = clock_timestamp()
         WHERE id = $1 AND status NOT IN ('valid', 'invalid', 'applied')",
    )
    .bind(id)
    .bind(reason)
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores problems (the job keeps at most `MAX_ERRORS_KEPT`).
pub async fn insert_problems(
    conn: &mut PgConnection,
    id: Uuid,
    problems: &[RowProblem],
) -> Result<(), sqlx::Error> {
    let rows: Vec<i32> = problems.iter().map(|p| p.row).collect();
    let columns: Vec<&str> = problems.iter().map(|p| p.column.as_str()).collect();
    let reasons: Vec<&str> = problems.iter().map(|p| p.reason.as_str()).collect();
    sqlx::query(
        "INSERT INTO batch_update_errors (update_id, row_number, column_name, reason)
         SELECT $1, r, c, left(m, 500) FROM unnest($2::int[], $3::text[], $4::text[]) AS t (r, c, m)",
    )
    .bind(id)
    .bind(rows)
    .bind(columns)
    .bind(reasons)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn problems(conn: &mut PgConnection, id: Uuid) -> Result<Vec<RowProblem>, sqlx::Error> {
    sqlx::query_as(
        "SELECT row_number, column_name, reason FROM batch_update_errors
         WHERE update_id = $1 ORDER BY row_number, column_name",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// A batch an update assigned, with its codes.
#[derive(sqlx::FromRow, poem_openapi::Object, Debug, Clone)]
pub struct BatchSummary {
    pub gtin: String,
    pub batch_number: String,
    pub manufactured_on: IsoDate,
    pub expires_on: IsoDate,
    pub licence_number: String,
    /// Codes given this batch data.
    pub codes: i32,
}

pub async fn batches_of(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Vec<BatchSummary>, sqlx::Error> {
    sqlx::query_as(
        "SELECT gtin, batch_number, manufactured_on, expires_on, licence_number, codes FROM batches
         WHERE update_id = $1 ORDER BY gtin, batch_number, manufactured_on",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// Lets the job's hash joins and aggregates over a million staged rows
/// work in memory (for its transaction only).
pub async fn tune_for_bulk(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("SET LOCAL work_mem = '64MB'")
        .execute(conn)
        .await?;
    Ok(())
}

/// The job's staging table for the file's checked rows (row, code, the
/// number of its batch): temporary, so it is the job's alone and goes when
/// its transaction ends.
pub async fn create_stage(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "CREATE TEMP TABLE IF NOT EXISTS batch_stage (
             row_number integer NOT NULL, serial bigint NOT NULL, batch integer NOT NULL
         ) ON COMMIT DROP",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// `COPY` into the staging table (text format, in the table's column order).
pub async fn copy_stage(
    conn: &mut PgConnection,
) -> Result<PgCopyIn<&mut PgConnection>, sqlx::Error> {
    conn.copy_in_raw("COPY batch_stage FROM STDIN").await
}

/// Lets the planner see the staged rows (a temporary table is never
/// analysed by autovacuum).
pub async fn analyze_stage(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("ANALYZE batch_stage").execute(conn).await?;
    Ok(())
}

/// A staged row that does not fit the code it names.
#[derive(sqlx::FromRow, Debug)]
pub struct Mismatch {
    pub row_number: i32,
    /// The code is not one of the organisation's.
    pub unknown: bool,
    /// The GTIN the code was generated with, when the row gives another.
    pub other_gtin: Option<String>,
    /// The lot the code was generated with (its URI carries it), when the
    /// row gives another batch number.
    pub other_lot: Option<String>,
    /// The batch number the row gives.
    pub batch_number: String,
}

/// Rows naming no code of the organisation, or a code of another GTIN or
/// lot, in row order. `gtins` and `numbers` are the batches' GTINs and
/// batch numbers, by batch number.
pub fn mismatches<'c>(
    conn: &'c mut PgConnection,
    gtins: &'c [String],
    numbers: &'c [String],
) -> BoxStream<'c, Result<Mismatch, sqlx::Error>> {
    sqlx::query_as(
        "SELECT s.row_number, c.serial IS NULL AS unknown,
                CASE WHEN j.gtin <> k.gtin THEN j.gtin END AS other_gtin,
                CASE WHEN l.number <> k.number THEN l.number END AS other_lot,
                k.number AS batch_number
         FROM batch_stage s
         JOIN unnest($1::text[], $2::text[]) WITH ORDINALITY AS k (gtin, number, n) ON k.n = s.batch + 1
         LEFT JOIN codes c ON c.serial = s.serial
         LEFT JOIN code_jobs j ON j.seq = c.job_seq
         LEFT JOIN lots l ON l.id = j.lot_id
         WHERE c.serial IS NULL OR j.gtin <> k.gtin OR l.number <> k.number
         ORDER BY s.row_number",
    )
    .bind(gtins)
    .bind(numbers)
    .fetch(conn)
}

/// Codes named by more than one row: each code's rows, the first 1,000 codes.
pub async fn repeated_codes(conn: &mut PgConnection) -> Result<Vec<Vec<i32>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT array_agg(row_number ORDER BY row_number) FROM batch_stage
         GROUP BY serial HAVING count(*) > 1 ORDER BY min(row_number) LIMIT 1000",
    )
    .fetch_all(conn)
    .await
}

/// Every row that names a code an earlier row named.
pub fn repeated_rows(conn: &mut PgConnection) -> BoxStream<'_, Result<i32, sqlx::Error>> {
    sqlx::query_scalar(
        "SELECT row_number FROM (
             SELECT row_number, min(row_number) OVER (PARTITION BY serial) AS first FROM batch_stage
         ) AS r WHERE row_number <> first",
    )
    .fetch(conn)
}

/// How many codes are named by more than one row.
pub async fn repeated_count(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT count(*) FROM (SELECT serial FROM batch_stage GROUP BY serial HAVING count(*) > 1) AS r",
    )
    .fetch_one(conn)
    .await
}

/// Writes the update's distinct batches, numbered in order, with the codes
/// of each.
pub async fn insert_batches(
    conn: &mut PgConnection,
    id: Uuid,
    batches: &[super::BatchKey],
    codes: &[i32],
) -> Result<u64, sqlx::Error> {
    let gtins: Vec<&str> = batches.iter().map(|b| b.gtin.as_str()).collect();
    let numbers: Vec<&str> = batches.iter().map(|b| b.batch_number.as_str()).collect();
    let made: Vec<NaiveDate> = batches.iter().map(|b| b.manufactured_on).collect();
    let expires: Vec<NaiveDate> = batches.iter().map(|b| b.expires_on).collect();
    let licences: Vec<&str> = batches.iter().map(|b| b.licence_number.as_str()).collect();
    let done = sqlx::query(
        "INSERT INTO batches (update_id, position, gtin, batch_number, manufactured_on, expires_on, licence_number, codes)
         SELECT $1, n - 1, g, b, m, e, l, c
         FROM unnest($2::text[], $3::text[], $4::date[], $5::date[], $6::text[], $7::int[]) WITH ORDINALITY AS k (g, b, m, e, l, c, n)",
    )
    .bind(id)
    .bind(gtins)
    .bind(numbers)
    .bind(made)
    .bind(expires)
    .bind(licences)
    .bind(codes)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Links each batch of update `id` to its lot of the register (ADR 0019):
/// the lot of its GTIN's product with its batch number, which
/// [`crate::lots::store::register_batch_lots`] made sure exists. Returns the
/// batches linked.
pub async fn link_lots(conn: &mut PgConnection, id: Uuid) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE batches b SET lot_id = l.id
         FROM products p JOIN lots l ON l.product_id = p.id
         WHERE b.update_id = $1 AND p.gtin = b.gtin AND l.number = b.batch_number",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Serialises the writing of updates within the tenant (until the
/// transaction ends), so that the newest batch of a code is the one of the
/// update applied last.
pub async fn lock_writes(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_advisory_xact_lock(17, hashtext(current_schema()))")
        .execute(conn)
        .await?;
    Ok(())
}

/// Gives the staged codes their batches, as slots (migration 0013): the
/// staged rows are joined to their codes (one hash join over the rows),
/// grouped by code job, slot and batch, and one row is written per group,
/// only where the code job's GTIN (and lot, when it had one) is the
/// batch's. Returns the codes written: fewer than staged means some row
/// names no code of the organisation or one that does not fit its batch.
pub async fn assign_codes(conn: &mut PgConnection, id: Uuid) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "WITH grouped AS (
             SELECT c.job_seq, c.position >> 9 AS slot, s.batch,
                    array_agg((c.position & 511)::smallint) AS offsets
             FROM batch_stage s JOIN codes c ON c.serial = s.serial
             GROUP BY 1, 2, 3
         ), written AS (
             INSERT INTO batch_slots (job_seq, slot, batch_id, offsets)
             SELECT g.job_seq, g.slot, b.id, g.offsets
             FROM grouped g
             JOIN batches b ON b.update_id = $1 AND b.position = g.batch
             JOIN code_jobs j ON j.seq = g.job_seq
             LEFT JOIN lots l ON l.id = j.lot_id
             WHERE j.gtin = b.gtin AND (l.number IS NULL OR l.number = b.batch_number)
             RETURNING cardinality(offsets) AS n
         )
         SELECT coalesce(sum(n), 0)::bigint FROM written",
    )
    .bind(id)
    .fetch_one(conn)
    .await
}

/// Stages the form's code range (a code job's codes `first..=last`, by
/// position) as batch `batch`, numbering the rows after `offset`.
pub async fn stage_range(
    conn: &mut PgConnection,
    range: &super::StoredRange,
    offset: i32,
    batch: i32,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO batch_stage (row_number, serial, batch)
         SELECT $4 + c.position - $2 + 1, c.serial, $5
         FROM codes c JOIN code_jobs j ON j.seq = c.job_seq
         WHERE j.id = $1 AND c.position BETWEEN $2 AND $3",
    )
    .bind(range.code_job_id)
    .bind(range.first)
    .bind(range.last)
    .bind(offset)
    .bind(batch)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// What a pharmaceutical pack's scan page adds (Schedule H2): the batch
/// data a batch update gave the code, and the manufacturer (the company of
/// the product, client A's CIN companies).
#[derive(sqlx::FromRow, Debug, Clone, Default)]
pub struct PackDetails {
    pub batch_number: Option<String>,
    pub manufactured_on: Option<NaiveDate>,
    pub expires_on: Option<NaiveDate>,
    pub licence_number: Option<String>,
    /// The status of the batch's lot of the register (ADR 0019).
    pub lot_status: Option<String>,
    pub manufacturer: Option<String>,
    pub manufacturer_address: Option<String>,
}

pub async fn pack_details(
    conn: &mut PgConnection,
    serial: i64,
    product_id: Uuid,
) -> Result<Option<PackDetails>, sqlx::Error> {
    sqlx::query_as(
        "SELECT b.batch_number, b.manufactured_on, b.expires_on, b.licence_number, b.lot_status,
                co.name AS manufacturer, co.registered_address AS manufacturer_address
         FROM products p
         LEFT JOIN companies co ON co.id = p.company_id
         LEFT JOIN LATERAL (
             SELECT b.*, l.status AS lot_status FROM codes c
             JOIN batch_slots x ON x.job_seq = c.job_seq AND x.slot = c.position >> 9
                 AND (c.position & 511)::smallint = ANY (x.offsets)
             JOIN batches b ON b.id = x.batch_id
             LEFT JOIN lots l ON l.id = b.lot_id
             WHERE c.serial = $1
             ORDER BY x.batch_id DESC LIMIT 1
         ) b ON true
         WHERE p.id = $2",
    )
    .bind(serial)
    .bind(product_id)
    .fetch_optional(conn)
    .await
}
