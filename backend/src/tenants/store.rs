//! SQL of `platform.tenants`.

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::{Ident, Tenant, TenantKind};

pub use crate::tenancy::store::{TenantRefRow, active_tenant, all_tenant_refs};

/// Tenants with their user counts: all of them, or the one whose clientId is
/// `client_id` (compared case-insensitively).
async fn select_tenants<'e>(
    db: impl PgExecutor<'e>,
    client_id: Option<&str>,
) -> Result<Vec<Tenant>, sqlx::Error> {
    sqlx::query_as(
        "SELECT t.id, t.client_id, t.name, t.kind, t.schema_name, t.user_limit,
                t.product_limit, t.code_quota,
                (SELECT count(*) FROM platform.accounts a WHERE a.tenant_id = t.id) AS user_count,
                t.status, t.modules, t.created_at
         FROM platform.tenants t
         WHERE $1::text IS NULL OR lower(t.client_id) = lower($1)
         ORDER BY t.created_at, t.client_id",
    )
    .bind(client_id)
    .fetch_all(db)
    .await
}

pub async fn list_tenants<'e>(db: impl PgExecutor<'e>) -> Result<Vec<Tenant>, sqlx::Error> {
    select_tenants(db, None).await
}

pub async fn find_tenant<'e>(
    db: impl PgExecutor<'e>,
    client_id: &str,
) -> Result<Option<Tenant>, sqlx::Error> {
    Ok(select_tenants(db, Some(client_id))
        .await?
        .into_iter()
        .next())
}

pub async fn any_tenant<'e>(db: impl PgExecutor<'e>) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM platform.tenants)")
        .fetch_one(db)
        .await
}

pub async fn client_id_taken<'e>(
    db: impl PgExecutor<'e>,
    client_id: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM platform.tenants WHERE lower(client_id) = lower($1))",
    )
    .bind(client_id)
    .fetch_one(db)
    .await
}

/// The new tenant's row.
pub struct TenantRow<'a> {
    pub id: Uuid,
    pub client_id: &'a str,
    pub name: &'a str,
    pub kind: TenantKind,
    pub schema: &'a Ident,
    pub role: &'a Ident,
    pub user_limit: i32,
    pub product_limit: i32,
    pub code_quota: i64,
    pub modules: &'a [String],
}

pub async fn insert_tenant(
    conn: &mut PgConnection,
    row: &TenantRow<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO platform.tenants
             (id, client_id, name, kind, schema_name, role_name, user_limit, product_limit, code_quota, modules)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(row.id)
    .bind(row.client_id)
    .bind(row.name)
    .bind(row.kind.as_str())
    .bind(row.schema.as_str())
    .bind(row.role.as_str())
    .bind(row.user_limit)
    .bind(row.product_limit)
    .bind(row.code_quota)
    .bind(row.modules)
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks the tenant suspended or active; its id, or None when no tenant has
/// that clientId.
pub async fn set_suspended(
    conn: &mut PgConnection,
    client_id: &str,
    suspend: bool,
) -> Result<Option<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE platform.tenants
         SET status = CASE WHEN $2 THEN 'suspended' ELSE 'active' END,
             suspended_at = CASE WHEN $2 THEN now() ELSE NULL END
         WHERE lower(client_id) = lower($1) RETURNING id",
    )
    .bind(client_id)
    .bind(suspend)
    .fetch_optional(conn)
    .await
}

/// The modules of the tenant whose clientId is `client_id`, its row locked
/// until the transaction ends; None when there is no such tenant.
pub async fn find_tenant_for_update(
    conn: &mut PgConnection,
    client_id: &str,
) -> Result<Option<Vec<String>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT modules FROM platform.tenants WHERE lower(client_id) = lower($1) FOR UPDATE",
    )
    .bind(client_id)
    .fetch_optional(conn)
    .await
}

/// Sets the limits and modules given (the others keep their values); the
/// tenant's id, or None when no tenant has that clientId.
pub async fn set_limits(
    conn: &mut PgConnection,
    client_id: &str,
    user_limit: Option<i32>,
    product_limit: Option<i32>,
    code_quota: Option<i64>,
    modules: Option<&[String]>,
) -> Result<Option<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE platform.tenants
         SET user_limit = coalesce($2, user_limit),
             product_limit = coalesce($3, product_limit),
             code_quota = coalesce($4, code_quota),
             modules = coalesce($5, modules)
         WHERE lower(client_id) = lower($1) RETURNING id",
    )
    .bind(client_id)
    .bind(user_limit)
    .bind(product_limit)
    .bind(code_quota)
    .bind(modules)
    .fetch_optional(conn)
    .await
}
