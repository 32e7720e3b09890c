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

/// Tenant schema: what the organisation has done, for the "Get started"
/// checklist. One statement of `EXISTS` probes, each stopping at the first
/// row it finds.
pub async fn get_started_facts(
    conn: &mut PgConnection,
) -> Result<super::get_started::Facts, sqlx::Error> {
    sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM products) AS has_product,
                EXISTS (SELECT 1 FROM code_jobs WHERE status = 'done') AS has_codes,
                EXISTS (SELECT 1 FROM label_templates) AS has_label_design,
                EXISTS (SELECT 1 FROM print_jobs WHERE status = 'done') AS has_print_job,
                EXISTS (SELECT 1 FROM code_scan_state) AS has_scan,
                EXISTS (SELECT 1 FROM passports) AS has_passport,
                EXISTS (SELECT 1 FROM batch_updates
                        WHERE dry_run AND status IN ('valid', 'invalid')) AS has_checked_batch,
                EXISTS (SELECT 1 FROM batch_updates WHERE status = 'applied') AS has_applied_batch",
    )
    .fetch_one(conn)
    .await
}

/// Tenant schema: whether `account_id` hid the checklist.
pub async fn get_started_dismissed(
    conn: &mut PgConnection,
    account_id: Uuid,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM get_started_dismissals WHERE account_id = $1)")
        .bind(account_id)
        .fetch_one(conn)
        .await
}

/// Tenant schema: hides (or shows again) the checklist for `account_id`.
pub async fn set_get_started_dismissed(
    conn: &mut PgConnection,
    account_id: Uuid,
    dismissed: bool,
) -> Result<(), sqlx::Error> {
    if dismissed {
        sqlx::query(
            "INSERT INTO get_started_dismissals (account_id) VALUES ($1)
             ON CONFLICT (account_id) DO NOTHING",
        )
        .bind(account_id)
        .execute(conn)
        .await?;
    } else {
        sqlx::query("DELETE FROM get_started_dismissals WHERE account_id = $1")
            .bind(account_id)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// Tenant schema: the organisation's logo, `(id, extension)`, if it has one.
pub async fn logo(conn: &mut PgConnection) -> Result<Option<(Uuid, String)>, sqlx::Error> {
    let row: (Option<Uuid>, Option<String>) =
        sqlx::query_as("SELECT logo_id, logo_ext FROM org_settings")
            .fetch_one(conn)
            .await?;
    Ok(row.0.zip(row.1))
}

/// Tenant schema: the organisation's logo, locked until the transaction
/// ends (so two uploads replace it one after the other).
pub async fn lock_logo(conn: &mut PgConnection) -> Result<Option<(Uuid, String)>, sqlx::Error> {
    let row: (Option<Uuid>, Option<String>) =
        sqlx::query_as("SELECT logo_id, logo_ext FROM org_settings FOR UPDATE")
            .fetch_one(conn)
            .await?;
    Ok(row.0.zip(row.1))
}

/// Tenant schema: sets (or, with `None`, clears) the organisation's logo.
pub async fn set_logo(
    conn: &mut PgConnection,
    logo: Option<(Uuid, &str)>,
    by: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE org_settings SET logo_id = $1, logo_ext = $2, updated_at = now(), updated_by = $3",
    )
    .bind(logo.map(|l| l.0))
    .bind(logo.map(|l| l.1))
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Tenant schema: what the scan page shows of the brand: its display name
/// and its logo `(id, extension)`.
pub async fn brand_identity(
    conn: &mut PgConnection,
) -> Result<(String, Option<(Uuid, String)>), sqlx::Error> {
    let row: (String, Option<Uuid>, Option<String>) =
        sqlx::query_as("SELECT display_name, logo_id, logo_ext FROM org_settings")
            .fetch_one(conn)
            .await?;
    Ok((row.0, row.1.zip(row.2)))
}
