//! Forward-only migrations for the `platform` schema and for every tenant
//! schema, run as the database owner.
//!
//! The SQL files are embedded at compile time (`sqlx::migrate!` reads them);
//! applying them is ours, because a tenant's migrations must run inside the
//! same transaction that creates the tenant (all or nothing), and their record
//! lives in `platform.tenant_migrations`, outside the tenant schema.

use sqlx::migrate::{Migration, Migrator};
use sqlx::{AssertSqlSafe, PgConnection, PgPool};
use uuid::Uuid;

use crate::db::{DbRoles, provision};
use crate::tenancy::TenantRef;
use crate::tenancy::store::all_tenant_refs;

static PLATFORM: Migrator = sqlx::migrate!("../migrations/platform");
pub static TENANT: Migrator = sqlx::migrate!("../migrations/tenant");

/// Serialises migration runs of concurrent processes (any constant will do).
const MIGRATION_LOCK: i64 = 0x6272_616e_646f_7073;

const BOOTSTRAP: &str = "
CREATE SCHEMA IF NOT EXISTS platform;
CREATE TABLE IF NOT EXISTS platform.schema_migrations (
    version     bigint PRIMARY KEY,
    description text NOT NULL,
    checksum    bytea NOT NULL,
    applied_at  timestamptz NOT NULL DEFAULT now()
);
";

/// Applies pending platform migrations, makes sure the login roles exist
/// with their grants and the passwords of the current secret, then brings
/// every tenant schema up to date.
pub async fn migrate_all(owner: &PgPool, roles: &DbRoles) -> anyhow::Result<()> {
    let mut tx = owner.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(MIGRATION_LOCK)
        .execute(&mut *tx)
        .await?;
    sqlx::raw_sql(BOOTSTRAP).execute(&mut *tx).await?;
    for m in PLATFORM.iter() {
        let applied: Option<Vec<u8>> = sqlx::query_scalar(
            "SELECT checksum FROM platform.schema_migrations WHERE version = $1",
        )
        .bind(m.version)
        .fetch_optional(&mut *tx)
        .await?;
        if !apply_if_pending(&mut tx, m, applied, "platform").await? {
            continue;
        }
        sqlx::query(
            "INSERT INTO platform.schema_migrations (version, description, checksum) VALUES ($1, $2, $3)",
        )
        .bind(m.version)
        .bind(&*m.description)
        .bind(&*m.checksum)
        .execute(&mut *tx)
        .await?;
    }
    provision::platform_roles(&mut tx, roles).await?;
    for tenant in all_tenant_refs(&mut *tx).await? {
        provision::tenant_login(&mut tx, roles, &tenant).await?;
        migrate_tenant(&mut tx, &tenant).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Applies the tenant migrations this tenant lacks, inside the owner's
/// transaction `tx`.
pub async fn migrate_tenant(tx: &mut PgConnection, tenant: &TenantRef) -> anyhow::Result<()> {
    sqlx::query("SELECT set_config('search_path', $1, true)")
        .bind(tenant.schema_name.as_str())
        .execute(&mut *tx)
        .await?;
    for m in TENANT.iter() {
        let applied: Option<Vec<u8>> = sqlx::query_scalar(
            "SELECT checksum FROM platform.tenant_migrations WHERE tenant_id = $1 AND version = $2",
        )
        .bind(tenant.id)
        .bind(m.version)
        .fetch_optional(&mut *tx)
        .await?;
        let target = format!("tenant {}", tenant.client_id);
        if apply_if_pending(tx, m, applied, &target).await? {
            record_tenant_migration(tx, tenant.id, m.version, &m.checksum).await?;
        }
    }
    sqlx::query(r#"SELECT set_config('search_path', '"$user", public', true)"#)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Runs migration `m` unless it was applied already (`applied` holds the
/// checksum recorded then); true when it ran. A migration changed after it
/// was applied is an error: migrations are forward-only.
async fn apply_if_pending(
    tx: &mut PgConnection,
    m: &Migration,
    applied: Option<Vec<u8>>,
    target: &str,
) -> anyhow::Result<bool> {
    match applied {
        Some(sum) if sum == *m.checksum => return Ok(false),
        Some(_) => anyhow::bail!(
            "migration {} ({}) was changed after it was applied to {target}; migrations are forward-only: add a new one",
            m.version,
            m.description
        ),
        None => {}
    }
    sqlx::raw_sql(AssertSqlSafe(m.sql.as_str().to_string()))
        .execute(&mut *tx)
        .await
        .map_err(|e| anyhow::anyhow!("migration {} failed for {target}: {e}", m.version))?;
    tracing::info!(version = m.version, description = %m.description, target, "applied migration");
    Ok(true)
}

async fn record_tenant_migration(
    tx: &mut PgConnection,
    tenant_id: Uuid,
    version: i64,
    checksum: &[u8],
) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO platform.tenant_migrations (tenant_id, version, checksum) VALUES ($1, $2, $3)",
    )
    .bind(tenant_id)
    .bind(version)
    .bind(checksum)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
