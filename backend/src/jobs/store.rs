//! SQL of the platform's job queue (`platform.job_queue`), as the platform
//! role. Tenants add rows only through `platform.tenant_enqueue_job`.

use sqlx::PgExecutor;
use uuid::Uuid;

/// A queued job, as taken by a runner.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct Entry {
    pub tenant_id: Uuid,
    pub kind: String,
    pub job_id: Uuid,
    /// How many times a runner took it (this time included).
    pub attempts: i32,
}

/// Takes the oldest job that no runner holds (or whose holder's lease ran
/// out: its server stopped), leasing it to `runner` for `lease_secs`.
pub async fn take_next<'e>(
    db: impl PgExecutor<'e>,
    runner: Uuid,
    lease_secs: f64,
) -> Result<Option<Entry>, sqlx::Error> {
    sqlx::query_as(
        "UPDATE platform.job_queue q
         SET leased_until = now() + make_interval(secs => $2), leased_by = $1, attempts = q.attempts + 1
         FROM (SELECT tenant_id, kind, job_id FROM platform.job_queue
               WHERE leased_until IS NULL OR leased_until < now()
               ORDER BY enqueued_at
               LIMIT 1
               FOR UPDATE SKIP LOCKED) next
         WHERE (q.tenant_id, q.kind, q.job_id) = (next.tenant_id, next.kind, next.job_id)
         RETURNING q.tenant_id, q.kind, q.job_id, q.attempts",
    )
    .bind(runner)
    .bind(lease_secs)
    .fetch_optional(db)
    .await
}

/// Extends the lease of a job `runner` holds.
pub async fn renew<'e>(
    db: impl PgExecutor<'e>,
    entry: &Entry,
    runner: Uuid,
    lease_secs: f64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE platform.job_queue SET leased_until = now() + make_interval(secs => $5)
         WHERE tenant_id = $1 AND kind = $2 AND job_id = $3 AND leased_by = $4",
    )
    .bind(entry.tenant_id)
    .bind(&entry.kind)
    .bind(entry.job_id)
    .bind(runner)
    .bind(lease_secs)
    .execute(db)
    .await?;
    Ok(())
}

/// Puts a job back for another try after `delay_secs`.
pub async fn postpone<'e>(
    db: impl PgExecutor<'e>,
    entry: &Entry,
    delay_secs: f64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE platform.job_queue SET leased_until = now() + make_interval(secs => $4), leased_by = NULL
         WHERE tenant_id = $1 AND kind = $2 AND job_id = $3",
    )
    .bind(entry.tenant_id)
    .bind(&entry.kind)
    .bind(entry.job_id)
    .bind(delay_secs)
    .execute(db)
    .await?;
    Ok(())
}

/// Removes a finished (or failed, or vanished) job from the queue.
pub async fn remove<'e>(db: impl PgExecutor<'e>, entry: &Entry) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM platform.job_queue WHERE tenant_id = $1 AND kind = $2 AND job_id = $3",
    )
    .bind(entry.tenant_id)
    .bind(&entry.kind)
    .bind(entry.job_id)
    .execute(db)
    .await?;
    Ok(())
}

/// Gives back every lease `runner` holds (at shutdown), so that the next
/// server resumes those jobs at once.
pub async fn release_all<'e>(db: impl PgExecutor<'e>, runner: Uuid) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE platform.job_queue SET leased_until = NULL, leased_by = NULL WHERE leased_by = $1",
    )
    .bind(runner)
    .execute(db)
    .await?
    .rows_affected())
}
