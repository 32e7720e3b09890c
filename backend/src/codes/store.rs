//! SQL of codes: the tenant's `lots`, `code_jobs` and `codes`, and the
//! platform's code quota and job queue through `platform.tenant_*`
//! functions (which act for the connection's own tenant only; ADR 0010).

use chrono::{DateTime, NaiveDate, Utc};
use futures_util::stream::BoxStream;
use sqlx::PgConnection;
use uuid::Uuid;

use super::CodeJobRow;

/// The organisation's code quota; its tenant row stays locked until the
/// transaction ends, so concurrent jobs queue here.
pub async fn lock_code_quota(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT platform.tenant_lock_code_quota()")
        .fetch_one(conn)
        .await
}

/// Codes the organisation's jobs hold against its quota: what a live or
/// finished job asked for, what a failed one generated. Its own statement,
/// after [`lock_code_quota`], so that it sees what the jobs ahead committed.
pub async fn reserved_codes(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT coalesce(sum(CASE WHEN status = 'failed' THEN generated ELSE quantity END), 0)::bigint
         FROM code_jobs",
    )
    .fetch_one(conn)
    .await
}

/// The organisation's resolver base for new codes, if it set one.
pub async fn resolver_base(conn: &mut PgConnection) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT resolver_base FROM org_settings")
        .fetch_optional(conn)
        .await
        .map(Option::flatten)
}

/// A new job to insert.
pub struct NewJob<'a> {
    pub id: Uuid,
    pub product_id: Uuid,
    pub lot_id: Option<Uuid>,
    pub gtin: &'a str,
    pub resolver_base: &'a str,
    pub quantity: i32,
    pub created_by: Uuid,
}

pub async fn insert_job(conn: &mut PgConnection, job: &NewJob<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO code_jobs (id, product_id, lot_id, gtin, resolver_base, quantity, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(job.id)
    .bind(job.product_id)
    .bind(job.lot_id)
    .bind(job.gtin)
    .bind(job.resolver_base)
    .bind(job.quantity)
    .bind(job.created_by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Puts a job of the organisation on the platform's queue (`kind`: `codes`
/// or `labels`), in the transaction that created it.
pub async fn enqueue(conn: &mut PgConnection, kind: &str, job_id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT platform.tenant_enqueue_job($1, $2)")
        .bind(kind)
        .bind(job_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The job `id`.
pub async fn find_job(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<CodeJobRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT j.seq, j.id, j.product_id, j.lot_id, j.status, j.quantity, j.generated, j.error, j.gtin,
                j.resolver_base, l.number AS lot_number, l.manufactured_on, l.expires_on,
                j.created_at, j.finished_at
         FROM code_jobs j LEFT JOIN lots l ON l.id = j.lot_id
         WHERE j.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The job `id`, locked until the transaction ends (the runner's hold on it).
pub async fn lock_job(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<CodeJobRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT j.seq, j.id, j.product_id, j.lot_id, j.status, j.quantity, j.generated, j.error, j.gtin,
                j.resolver_base, l.number AS lot_number, l.manufactured_on, l.expires_on,
                j.created_at, j.finished_at
         FROM code_jobs j LEFT JOIN lots l ON l.id = j.lot_id
         WHERE j.id = $1
         FOR UPDATE OF j",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The newest jobs (at most `limit`), of one product or all.
pub async fn list_jobs(
    conn: &mut PgConnection,
    product_id: Option<Uuid>,
    limit: i64,
) -> Result<Vec<CodeJobRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT j.seq, j.id, j.product_id, j.lot_id, j.status, j.quantity, j.generated, j.error, j.gtin,
                j.resolver_base, l.number AS lot_number, l.manufactured_on, l.expires_on,
                j.created_at, j.finished_at
         FROM code_jobs j LEFT JOIN lots l ON l.id = j.lot_id
         WHERE $1::uuid IS NULL OR j.product_id = $1
         ORDER BY j.created_at DESC, j.id
         LIMIT $2",
    )
    .bind(product_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Whether the product has code jobs (its GTIN is then printed on codes).
pub async fn product_has_codes(
    conn: &mut PgConnection,
    product_id: Uuid,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM code_jobs WHERE product_id = $1)")
        .bind(product_id)
        .fetch_one(conn)
        .await
}

/// Marks the job running (from queued, or again after a restart).
pub async fn mark_running(conn: &mut PgConnection, id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE code_jobs SET status = 'running', started_at = coalesce(started_at, now())
         WHERE id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Counts `added` more codes of the job as stored, in the transaction that
/// stored them; the job is done when they are all there.
pub async fn add_generated(
    conn: &mut PgConnection,
    id: Uuid,
    added: i32,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE code_jobs SET generated = generated + $2,
                status = CASE WHEN generated + $2 = quantity THEN 'done' ELSE status END,
                finished_at = CASE WHEN generated + $2 = quantity THEN now() ELSE finished_at END
         WHERE id = $1",
    )
    .bind(id)
    .bind(added)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks the job failed with a reason a person reads; the codes it stored
/// stay (they are valid, and count against the quota).
pub async fn mark_failed(
    conn: &mut PgConnection,
    id: Uuid,
    error: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE code_jobs SET status = 'failed', error = $2, finished_at = now()
         WHERE id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .bind(error)
    .execute(conn)
    .await?;
    Ok(())
}

/// The serials of a job's positions `first` to `last` (both included), in
/// order: a range of its codes (a package's, `shipment_codes`), or all of
/// them (1 to its quantity).
pub fn job_serials_between(
    conn: &mut PgConnection,
    job_seq: i32,
    first: i32,
    last: i32,
) -> BoxStream<'_, Result<i64, sqlx::Error>> {
    sqlx::query_scalar(
        "SELECT serial FROM codes WHERE job_seq = $1 AND position BETWEEN $2 AND $3
         ORDER BY position",
    )
    .bind(job_seq)
    .bind(first)
    .bind(last)
    .fetch(conn)
}

/// Starts a `COPY` of code rows (`serial\tjob_seq\tposition\n`, text format).
pub async fn copy_codes(
    conn: &mut PgConnection,
) -> Result<sqlx::postgres::PgCopyIn<&mut PgConnection>, sqlx::Error> {
    conn.copy_in_raw("COPY codes (serial, job_seq, position) FROM STDIN")
        .await
}

/// The serials of a job, in the order they were generated.
pub fn job_serials(
    conn: &mut PgConnection,
    job_seq: i32,
) -> BoxStream<'_, Result<i64, sqlx::Error>> {
    sqlx::query_scalar("SELECT serial FROM codes WHERE job_seq = $1 ORDER BY position")
        .bind(job_seq)
        .fetch(conn)
}

/// The serial of a job's first code, if it has one.
pub async fn first_serial(
    conn: &mut PgConnection,
    job_seq: i32,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT serial FROM codes WHERE job_seq = $1 AND position = 1")
        .bind(job_seq)
        .fetch_optional(conn)
        .await
}

/// Sets (or, with None, clears) the organisation's resolver base.
pub async fn set_resolver_base(
    conn: &mut PgConnection,
    base: Option<&str>,
    by: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE org_settings SET resolver_base = $1, updated_at = now(), updated_by = $2")
        .bind(base)
        .bind(by)
        .execute(conn)
        .await?;
    Ok(())
}

/// How many of the lots `ids` the organisation has.
pub async fn count_lots(conn: &mut PgConnection, ids: &[Uuid]) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT count(*) FROM lots WHERE id = ANY($1)")
        .bind(ids)
        .fetch_one(conn)
        .await
}

/// A job of a bulk download, with its product's name and skuid.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct BulkJobRow {
    #[sqlx(flatten)]
    pub job: CodeJobRow,
    pub product_name: String,
    pub skuid: String,
}

/// The jobs of the lots `lot_ids` (when given) created in `[from, until)`
/// (each bound when given), oldest first, at most `limit`.
pub async fn bulk_jobs(
    conn: &mut PgConnection,
    lot_ids: Option<&[Uuid]>,
    from: Option<chrono::DateTime<chrono::Utc>>,
    until: Option<chrono::DateTime<chrono::Utc>>,
    limit: i64,
) -> Result<Vec<BulkJobRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT j.seq, j.id, j.product_id, j.lot_id, j.status, j.quantity, j.generated, j.error, j.gtin,
                j.resolver_base, l.number AS lot_number, l.manufactured_on, l.expires_on,
                j.created_at, j.finished_at, p.product_name, p.skuid
         FROM code_jobs j
         JOIN products p ON p.id = j.product_id
         LEFT JOIN lots l ON l.id = j.lot_id
         WHERE ($1::uuid[] IS NULL OR j.lot_id = ANY($1))
           AND ($2::timestamptz IS NULL OR j.created_at >= $2)
           AND ($3::timestamptz IS NULL OR j.created_at < $3)
         ORDER BY j.created_at, j.id
         LIMIT $4",
    )
    .bind(lot_ids)
    .bind(from)
    .bind(until)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// A lot with code jobs, as the bulk download offers it.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct CodeLotRow {
    pub id: Uuid,
    pub number: String,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub manufactured_on: Option<NaiveDate>,
    pub expires_on: Option<NaiveDate>,
    pub codes: i64,
    pub pending: i64,
    pub jobs: i64,
    pub last_job_at: DateTime<Utc>,
}

/// The lots that have code jobs, the one with the newest job first (at
/// most `limit`): the codes of their finished jobs, and their jobs still
/// generating.
pub async fn code_lots(
    conn: &mut PgConnection,
    limit: i64,
) -> Result<Vec<CodeLotRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT l.id, l.number, l.product_id, p.product_name, l.manufactured_on, l.expires_on,
                (array_agg(j.gtin ORDER BY j.created_at DESC))[1] AS gtin,
                coalesce(sum(j.generated) FILTER (WHERE j.status IN ('done', 'failed')), 0)::bigint AS codes,
                count(*) FILTER (WHERE j.status IN ('queued', 'running')) AS pending,
                count(*) AS jobs,
                max(j.created_at) AS last_job_at
         FROM lots l
         JOIN code_jobs j ON j.lot_id = l.id
         JOIN products p ON p.id = l.product_id
         GROUP BY l.id, p.product_name
         ORDER BY max(j.created_at) DESC, l.id
         LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}
