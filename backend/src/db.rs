//! Connection pools and tenant transactions.
//!
//! Two pools share one `DATABASE_URL`:
//! - `owner`: small; runs migrations and tenant provisioning (CREATE SCHEMA,
//!   CREATE ROLE). Never used for request data.
//! - `app`: request traffic. Its connections start with the PostgreSQL session
//!   role set to the runtime role (a startup parameter, not a `SET`): a
//!   NOINHERIT role that can use the `platform` tables and may switch into
//!   tenant roles but owns nothing and reads no tenant schema by itself.
//!
//! Tenant data is reached only through [`Db::begin_tenant`]: one round trip
//! that opens a transaction, switches to the tenant's role with `SET LOCAL ROLE`
//! and sets a transaction-local `search_path` of the tenant schema alone. When
//! the transaction ends, the connection is back to the runtime role, so nothing
//! leaks into the pool.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{AssertSqlSafe, PgPool, Postgres, Transaction};

use crate::tenants::TenantRef;

#[derive(Clone, Debug)]
pub struct Db {
    pub owner: PgPool,
    pub app: PgPool,
    pub names: DbNames,
}

/// Names derived from the database, so several databases (one per test) can
/// share a PostgreSQL cluster, whose roles are cluster-wide.
#[derive(Clone, Debug)]
pub struct DbNames {
    pub role_prefix: String,
    pub runtime_role: String,
}

impl DbNames {
    pub fn for_database(database: &str) -> Self {
        let mut prefix: String = database
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .take(24)
            .collect();
        if !prefix.starts_with(|c: char| c.is_ascii_lowercase()) {
            prefix.insert(0, 'd');
        }
        Self {
            runtime_role: format!("{prefix}_app"),
            role_prefix: prefix,
        }
    }

    pub fn tenant_role(&self, schema: &str) -> String {
        format!("{}_{}", self.role_prefix, schema)
    }
}

impl Db {
    /// Connects the owner pool only (for migrations, provisioning, CLI work).
    pub async fn connect_owner(database_url: &str) -> anyhow::Result<(PgPool, DbNames)> {
        let options = PgConnectOptions::from_str(database_url)?;
        let owner = PgPoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
        let database: String = sqlx::query_scalar("SELECT current_database()")
            .fetch_one(&owner)
            .await?;
        Ok((owner, DbNames::for_database(&database)))
    }

    /// Connects both pools. The runtime role must exist (run migrations first).
    pub async fn connect(database_url: &str, max_connections: u32) -> anyhow::Result<Self> {
        let (owner, names) = Self::connect_owner(database_url).await?;
        let app_options = PgConnectOptions::from_str(database_url)?
            .options([("role", names.runtime_role.as_str())])
            .application_name("brandops");
        let app = PgPoolOptions::new()
            .max_connections(max_connections)
            .min_connections(1)
            .acquire_timeout(Duration::from_secs(5))
            .connect_with(app_options)
            .await?;
        Ok(Self { owner, app, names })
    }

    /// Opens a transaction in the tenant's role and schema (one round trip).
    pub async fn begin_tenant(
        &self,
        tenant: &TenantRef,
    ) -> Result<Transaction<'static, Postgres>, sqlx::Error> {
        self.app
            .begin_with(AssertSqlSafe(format!(
                "BEGIN; {}",
                enter_tenant_sql(tenant)
            )))
            .await
    }

    /// Opens a transaction in the runtime role (platform tables only).
    pub async fn begin_platform(&self) -> Result<Transaction<'static, Postgres>, sqlx::Error> {
        self.app.begin().await
    }
}

/// Switches an open runtime-role transaction into the tenant, for the rare
/// operation that must change platform and tenant rows atomically (platform
/// statements first: after this the platform schema is out of reach).
pub async fn enter_tenant(
    tx: &mut Transaction<'static, Postgres>,
    tenant: &TenantRef,
) -> Result<(), sqlx::Error> {
    sqlx::raw_sql(AssertSqlSafe(enter_tenant_sql(tenant)))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn enter_tenant_sql(tenant: &TenantRef) -> String {
    // Both names were validated as plain lower-case identifiers when the tenant
    // was created and again when TenantRef was built; they never come from
    // request text.
    format!(
        "SET LOCAL ROLE \"{role}\"; SELECT set_config('search_path', '{schema}', true)",
        role = tenant.role_name.as_str(),
        schema = tenant.schema_name.as_str(),
    )
}

/// Ends a transaction that only read. Dropping it makes sqlx queue a
/// `ROLLBACK`, which the pool sends with the check it runs on every
/// connection it takes back, so the request does not wait a round trip for
/// it. For a transaction that changed nothing, rolling back and committing
/// are the same; a transaction that wrote must call `commit()`.
pub fn end_read_only(tx: Transaction<'static, Postgres>) {
    drop(tx);
}
