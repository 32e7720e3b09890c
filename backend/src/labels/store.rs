//! SQL of labels: the tenant's `label_templates` and `print_jobs`.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// A template row.
#[derive(sqlx::FromRow, Debug)]
pub struct TemplateRow {
    pub id: Uuid,
    pub name: String,
    pub design: serde_json::Value,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

pub async fn insert_template(
    conn: &mut PgConnection,
    id: Uuid,
    name: &str,
    design: &serde_json::Value,
    by: Uuid,
) -> Result<TemplateRow, sqlx::Error> {
    sqlx::query_as(
        "INSERT INTO label_templates (id, name, design, created_by) VALUES ($1, $2, $3, $4)
         RETURNING id, name, design, created_at, updated_at",
    )
    .bind(id)
    .bind(name)
    .bind(design)
    .bind(by)
    .fetch_one(conn)
    .await
}

/// Templates in use, by name.
pub async fn list_templates(conn: &mut PgConnection) -> Result<Vec<TemplateRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, design, created_at, updated_at FROM label_templates
         WHERE archived_at IS NULL ORDER BY lower(name), id",
    )
    .fetch_all(conn)
    .await
}

/// The template `id` in use.
pub async fn find_template(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<TemplateRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, design, created_at, updated_at FROM label_templates
         WHERE id = $1 AND archived_at IS NULL",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Changes a template's name and design; None when it is not in use.
pub async fn update_template(
    conn: &mut PgConnection,
    id: Uuid,
    name: &str,
    design: &serde_json::Value,
) -> Result<Option<TemplateRow>, sqlx::Error> {
    sqlx::query_as(
        "UPDATE label_templates SET name = $2, design = $3, updated_at = now()
         WHERE id = $1 AND archived_at IS NULL
         RETURNING id, name, design, created_at, updated_at",
    )
    .bind(id)
    .bind(name)
    .bind(design)
    .fetch_optional(conn)
    .await
}

/// Retires a template (its print jobs keep their copy of its design).
pub async fn archive_template(conn: &mut PgConnection, id: Uuid) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query(
        "UPDATE label_templates SET archived_at = now() WHERE id = $1 AND archived_at IS NULL",
    )
    .bind(id)
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

/// A print job row, with its template's name.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct PrintJobRow {
    pub id: Uuid,
    pub code_job_id: Uuid,
    pub template_id: Uuid,
    pub template_name: String,
    pub design: serde_json::Value,
    pub format: String,
    pub status: String,
    pub total: i32,
    pub printed: i32,
    pub output_bytes: Option<i64>,
    pub error: Option<String>,
    pub reprint_of: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// A print job to insert.
pub struct NewPrintJob<'a> {
    pub id: Uuid,
    pub code_job_id: Uuid,
    pub template_id: Uuid,
    pub design: &'a serde_json::Value,
    pub format: &'a str,
    pub total: i32,
    pub reprint_of: Option<Uuid>,
    pub created_by: Uuid,
}

pub async fn insert_print_job(
    conn: &mut PgConnection,
    job: &NewPrintJob<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO print_jobs (id, code_job_id, template_id, design, format, total, reprint_of, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(job.id)
    .bind(job.code_job_id)
    .bind(job.template_id)
    .bind(job.design)
    .bind(job.format)
    .bind(job.total)
    .bind(job.reprint_of)
    .bind(job.created_by)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn find_print_job(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<PrintJobRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.id, p.code_job_id, p.template_id, t.name AS template_name, p.design, p.format, p.status,
                p.total, p.printed, p.output_bytes, p.error, p.reprint_of, p.created_at, p.finished_at
         FROM print_jobs p JOIN label_templates t ON t.id = p.template_id
         WHERE p.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The print job `id`, locked until the transaction ends (the runner's hold).
pub async fn lock_print_job(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<PrintJobRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.id, p.code_job_id, p.template_id, t.name AS template_name, p.design, p.format, p.status,
                p.total, p.printed, p.output_bytes, p.error, p.reprint_of, p.created_at, p.finished_at
         FROM print_jobs p JOIN label_templates t ON t.id = p.template_id
         WHERE p.id = $1
         FOR UPDATE OF p",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The newest print jobs (at most `limit`).
pub async fn list_print_jobs(
    conn: &mut PgConnection,
    limit: i64,
) -> Result<Vec<PrintJobRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.id, p.code_job_id, p.template_id, t.name AS template_name, p.design, p.format, p.status,
                p.total, p.printed, p.output_bytes, p.error, p.reprint_of, p.created_at, p.finished_at
         FROM print_jobs p JOIN label_templates t ON t.id = p.template_id
         ORDER BY p.created_at DESC, p.id
         LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Starts (or restarts, after a stop) a print job from its first label.
pub async fn start_print_job(conn: &mut PgConnection, id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE print_jobs SET status = 'running', printed = 0, started_at = coalesce(started_at, now())
         WHERE id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Progress of a running job.
pub async fn set_printed(
    conn: &mut PgConnection,
    id: Uuid,
    printed: i32,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE print_jobs SET printed = least($2, total) WHERE id = $1 AND status = 'running'",
    )
    .bind(id)
    .bind(printed)
    .execute(conn)
    .await?;
    Ok(())
}

/// The job is done: its output is stored.
pub async fn finish_print_job(
    conn: &mut PgConnection,
    id: Uuid,
    bytes: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE print_jobs SET status = 'done', printed = total, output_bytes = $2, finished_at = now()
         WHERE id = $1 AND status = 'running'",
    )
    .bind(id)
    .bind(bytes)
    .execute(conn)
    .await?;
    Ok(())
}

/// The job failed, with a reason a person reads.
pub async fn fail_print_job(
    conn: &mut PgConnection,
    id: Uuid,
    error: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE print_jobs SET status = 'failed', error = $2, finished_at = now()
         WHERE id = $1 AND status IN ('queued', 'running')",
    )
    .bind(id)
    .bind(error)
    .execute(conn)
    .await?;
    Ok(())
}
