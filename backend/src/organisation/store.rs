//! SQL of the organisation: the platform's facts about the tenant, and its
//! own settings row (`org_settings`, in the tenant's schema).

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::tenants::OrganisationName;

/// The platform's facts about a tenant: its status, user limit, modules and
/// number of accounts.
#[derive(sqlx::FromRow)]
pub struct TenantFacts {
    pub status: String,
    pub user_limit: i32,
    pub product_limit: i32,
    pub code_quota: i64,
    pub modules: Vec<String>,
    pub user_count: i64,
}

pub async fn tenant_facts<'e>(
    db: impl PgExecutor<'e>,
    tenant_id: Uuid,
) -> Result<TenantFacts, sqlx::Error> {
    sqlx::query_as(
        "SELECT t.status, t.user_limit, t.product_limit, t.code_quota, t.modules,
                (SELECT count(*) FROM platform.accounts a WHERE a.tenant_id = t.id) AS user_count
         FROM platform.tenants t WHERE t.id = $1",
    )
    .bind(tenant_id)
    .fetch_one(db)
    .await
}

/// Tenant schema: the organisation's display name.
pub async fn display_name(conn: &mut PgConnection) -> Result<String, sqlx::Error> {
    sqlx::query_scalar("SELECT display_name FROM org_settings")
        .fetch_one(conn)
        .await
}

/// Tenant schema: the settings row of a new tenant.
pub async fn insert_settings(
    conn: &mut PgConnection,
    name: &OrganisationName,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO org_settings (display_name) VALUES ($1)")
        .bind(name.as_str())
        .execute(conn)
        .await?;
    Ok(())
}

/// Tenant schema: renames the organisation.
pub async fn rename(
    conn: &mut PgConnection,
    name: &OrganisationName,
    by: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE org_settings SET display_name = $1, updated_at = now(), updated_by = $2")
        .bind(name.as_str())
        .bind(by)
        .execute(conn)
        .await?;
    Ok(())
}
