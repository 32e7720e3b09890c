//! Connection pools, tenant transactions, migrations and tenant schemas.
//!
//! Two pools share one `DATABASE_URL`:
//! - `owner`: small; runs migrations and tenant provisioning (CREATE SCHEMA,
//!   CREATE ROLE). Never used for request data.
//! - `app`: request traffic. Its connections start with the PostgreSQL session
//!   role set to the runtime role (a startup parameter, not a `SET`): a
//!   NOINHERIT role that can use the `platform` tables and may switch into
//!   tenant roles but owns nothing and reads no tenant schema by itself.
//!
//! Tenant data is reached only through a [`TenantTx`]: [`Db::begin_tenant`]
//! opens a transaction, switches to the tenant's role with `SET LOCAL ROLE`
//! and sets a transaction-local `search_path` of the tenant schema alone, in
//! one round trip. When the transaction ends, the connection is back to the
//! runtime role, so nothing leaks into the pool.
//!
//! An operation that must change platform rows and tenant rows atomically
//! opens a [`PlatformTx`], writes its platform rows, then turns it into a
//! [`TenantTx`] with [`PlatformTx::enter_tenant`]: one transaction, platform
//! first (after the switch the platform schema is out of reach), and the
//! types make the order the only one possible.
//!
//! The SQL itself lives in each domain's `store.rs`, as functions that take a
//! connection (`&mut PgConnection`, which both transactions deref to) or an
//! executor.

pub mod migrate;
pub mod provision;

use std::ops::{Deref, DerefMut};
use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{AssertSqlSafe, PgConnection, PgPool, Postgres, Transaction};

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
    pub async fn begin_tenant(&self, tenant: &TenantRef) -> Result<TenantTx, sqlx::Error> {
        let tx = self
            .app
            .begin_with(AssertSqlSafe(format!(
                "BEGIN; {}",
                enter_tenant_sql(tenant)
            )))
            .await?;
        Ok(TenantTx(tx))
    }

    /// Opens a transaction in the runtime role (platform tables only).
    pub async fn begin_platform(&self) -> Result<PlatformTx, sqlx::Error> {
        Ok(PlatformTx(self.app.begin().await?))
    }

    /// The database answers (readiness).
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        sqlx::raw_sql("SELECT 1").execute(&self.app).await?;
        Ok(())
    }
}

/// A transaction on the platform tables, in the runtime role.
pub struct PlatformTx(Transaction<'static, Postgres>);

/// A transaction inside one tenant's role and schema.
pub struct TenantTx(Transaction<'static, Postgres>);

impl PlatformTx {
    /// Continues this transaction inside the tenant: the platform rows
    /// written so far and the tenant rows written next commit together, or
    /// not at all.
    pub async fn enter_tenant(mut self, tenant: &TenantRef) -> Result<TenantTx, sqlx::Error> {
        sqlx::raw_sql(AssertSqlSafe(enter_tenant_sql(tenant)))
            .execute(&mut *self.0)
            .await?;
        Ok(TenantTx(self.0))
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.0.commit().await
    }
}

impl TenantTx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.0.commit().await
    }

    /// Ends a transaction that only read. Dropping it makes sqlx queue a
    /// `ROLLBACK`, which the pool sends with the check it runs on every
    /// connection it takes back, so the request does not wait a round trip
    /// for it. For a transaction that changed nothing, rolling back and
    /// committing are the same; a transaction that wrote must call
    /// [`Self::commit`].
    pub fn end_read_only(self) {
        drop(self);
    }
}

macro_rules! deref_to_connection {
    ($($tx:ty),*) => {$(
        impl Deref for $tx {
            type Target = PgConnection;
            fn deref(&self) -> &PgConnection {
                &self.0
            }
        }
        impl DerefMut for $tx {
            fn deref_mut(&mut self) -> &mut PgConnection {
                &mut self.0
            }
        }
    )*};
}
deref_to_connection!(PlatformTx, TenantTx);

/// `SET LOCAL ROLE` and a transaction-local `search_path` for `tenant`.
pub(crate) fn enter_tenant_sql(tenant: &TenantRef) -> String {
    // Both names were validated as plain lower-case identifiers when the tenant
    // was created and again when TenantRef was built; they never come from
    // request text.
    format!(
        "SET LOCAL ROLE \"{role}\"; SELECT set_config('search_path', '{schema}', true)",
        role = tenant.role_name.as_str(),
        schema = tenant.schema_name.as_str(),
    )
}

/// The name of the unique constraint a statement violated, if that is what
/// failed (for mapping to a 409 with a message a person can act on).
pub fn unique_violation(err: &sqlx::Error) -> Option<&str> {
    match err {
        sqlx::Error::Database(db) if db.code().as_deref() == Some("23505") => db.constraint(),
        _ => None,
    }
}
