//! SQL of companies: the tenant's `companies` table, and what its overview
//! reads of products, lots, code jobs, print jobs and scans.

use sqlx::PgConnection;
use uuid::Uuid;

use super::{Company, CompanyBatch, CompanyCodeCounts, CompanyProduct};

/// The organisation's companies, by CIN.
pub async fn list(conn: &mut PgConnection) -> Result<Vec<Company>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, cin, name, registered_address, created_at FROM companies ORDER BY cin",
    )
    .fetch_all(conn)
    .await
}

pub async fn insert(
    conn: &mut PgConnection,
    id: Uuid,
    cin: &str,
    name: &str,
    registered_address: &str,
    by: Option<Uuid>,
) -> Result<Company, sqlx::Error> {
    sqlx::query_as(
        "INSERT INTO companies (id, cin, name, registered_address, created_by)
         VALUES ($1, $2, $3, $4, $5)
         RETURNING id, cin, name, registered_address, created_at",
    )
    .bind(id)
    .bind(cin)
    .bind(name)
    .bind(registered_address)
    .bind(by)
    .fetch_one(conn)
    .await
}

pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<Company>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, cin, name, registered_address, created_at FROM companies WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Whether `id` is one of the organisation's companies.
pub async fn exists(conn: &mut PgConnection, id: Uuid) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM companies WHERE id = $1)")
        .bind(id)
        .fetch_one(conn)
        .await
}

/// The company's active products, by name.
pub async fn products(
    conn: &mut PgConnection,
    company: Uuid,
) -> Result<Vec<CompanyProduct>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, product_name, skuid, gtin FROM products
         WHERE company_id = $1 AND archived_at IS NULL ORDER BY product_name, id",
    )
    .bind(company)
    .fetch_all(conn)
    .await
}

/// The lots of the company's products (archived ones too: their codes
/// exist), or of every product of the organisation when `company` is
/// `None`, newest first, at most `limit`, with the codes generated for each.
pub async fn batches(
    conn: &mut PgConnection,
    company: Option<Uuid>,
    limit: i64,
) -> Result<Vec<CompanyBatch>, sqlx::Error> {
    sqlx::query_as(
        "SELECT l.id, l.product_id, p.product_name, l.number, l.manufactured_on, l.expires_on,
                coalesce((SELECT sum(j.generated) FROM code_jobs j WHERE j.lot_id = l.id), 0)::bigint AS codes
         FROM lots l JOIN products p ON p.id = l.product_id
         WHERE $1::uuid IS NULL OR p.company_id = $1
         ORDER BY l.created_at DESC, l.id
         LIMIT $2",
    )
    .bind(company)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Codes generated, labels printed and codes scanned for the company's
/// products, or for every product of the organisation when `company` is
/// `None`.
pub async fn code_counts(
    conn: &mut PgConnection,
    company: Option<Uuid>,
) -> Result<CompanyCodeCounts, sqlx::Error> {
    sqlx::query_as(
        "SELECT
             coalesce((SELECT sum(j.generated) FROM code_jobs j JOIN products p ON p.id = j.product_id
                       WHERE $1::uuid IS NULL OR p.company_id = $1), 0)::bigint AS generated,
             coalesce((SELECT sum(pj.printed) FROM print_jobs pj
                       JOIN code_jobs j ON j.id = pj.code_job_id
                       JOIN products p ON p.id = j.product_id
                       WHERE ($1::uuid IS NULL OR p.company_id = $1) AND pj.reprint_of IS NULL), 0)::bigint AS printed,
             (SELECT count(*) FROM code_scan_state s JOIN products p ON p.id = s.product_id
              WHERE $1::uuid IS NULL OR p.company_id = $1) AS scanned",
    )
    .bind(company)
    .fetch_one(conn)
    .await
}
