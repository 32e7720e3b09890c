//! Connection pools, tenant transactions, migrations and tenant schemas.
//!
//! Three kinds of connection, each logging in as its own role (see
//! [`roles`] and ADR 0010):
//! - `owner` (`DATABASE_URL`): migrations and provisioning (CREATE SCHEMA,
//!   CREATE ROLE). Never used for request data.
//! - `platform`: the platform LOGIN role; identities, sessions, throttle,
//!   audit. It cannot reach any tenant schema nor switch into a tenant role.
//! - one small pool per tenant ([`pools::TenantPools`]), logging in as the
//!   tenant's own role, whose `search_path` is its schema: whatever statement
//!   is sent on it, PostgreSQL lets it reach that schema and nothing else.
//!
//! Tenant data is reached only through a [`TenantTx`] from
//! [`Db::begin_tenant`]. An operation that must change platform rows with
//! tenant rows runs on the tenant's connection and calls a `platform.tenant_*`
//! function, which acts for the connection's own tenant only.
//!
//! The SQL itself lives in each domain's `store.rs`, as functions that take a
//! connection (`&mut PgConnection`, which both transactions deref to) or an
//! executor.

pub mod migrate;
pub mod pools;
pub mod provision;
pub mod roles;

use std::ops::{Deref, DerefMut};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{PgConnection, PgPool, Postgres, Transaction};

pub use pools::{Budget, TenantPools};
pub use roles::DbRoles;

use crate::config::{Secret, Settings};
use crate::tenancy::TenantRef;

#[derive(Clone, Debug)]
pub struct Db {
    pub owner: PgPool,
    pub platform: PgPool,
    pub tenants: Arc<TenantPools>,
    pub roles: DbRoles,
}

impl Db {
    /// Connects the owner pool only (for migrations, provisioning, CLI work).
    pub async fn connect_owner(
        database_url: &str,
        secret: &Secret,
    ) -> anyhow::Result<(PgPool, DbRoles)> {
        let options = PgConnectOptions::from_str(database_url)?;
        let owner = PgPoolOptions::new()
            .max_connections(Budget::OWNER)
            .min_connections(0)
            .idle_timeout(Duration::from_secs(60))
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|e| anyhow::anyhow!("cannot connect to the database: {e}"))?;
        let database: String = sqlx::query_scalar("SELECT current_database()")
            .fetch_one(&owner)
            .await?;
        Ok((owner, DbRoles::for_database(&database, secret.clone())))
    }

    /// Connects the owner and platform pools and sets up the tenant pools
    /// (connected on demand). The login roles must exist: migrate first.
    pub async fn connect(settings: &Settings) -> anyhow::Result<Self> {
        let budget = Budget::split(settings.db_max_connections, settings.db_tenant_pool_size)?;
        let (owner, roles) =
            Self::connect_owner(settings.database_url.expose(), &settings.db_role_secret).await?;
        let base = PgConnectOptions::from_str(settings.database_url.expose())?
            .application_name("brandops");
        let platform = pools::pool_options()
            .max_connections(budget.platform)
            .min_connections(1)
            .idle_timeout(Duration::from_secs(300))
            .acquire_timeout(Duration::from_secs(5))
            .connect_with(
                base.clone()
                    .username(&roles.platform_role)
                    .password(&roles.password_for(&roles.platform_role)),
            )
            .await
            .map_err(|e| anyhow::anyhow!("cannot connect as the platform role: {e}"))?;
        let tenant_base = match &settings.tenant_database_url {
            // Through a transaction pooler (PgBouncer): named statements must
            // not outlive the transaction that prepared them.
            Some(url) => PgConnectOptions::from_str(url.expose())?
                .application_name("brandops")
                .statement_cache_capacity(0),
            None => base,
        };
        let tenants = Arc::new(TenantPools::new(
            tenant_base,
            roles.clone(),
            budget,
            settings.tenant_database_url.is_some(),
        ));
        Ok(Self {
            owner,
            platform,
            tenants,
            roles,
        })
    }

    /// Opens a transaction on a connection of the tenant's own role.
    pub async fn begin_tenant(&self, tenant: &TenantRef) -> Result<TenantTx, sqlx::Error> {
        let (pool, lease) = self.tenants.lease(tenant).await?;
        let tx = pool.begin().await?;
        Ok(TenantTx { tx, _lease: lease })
    }

    /// A connection of the tenant's own role for reads that need no
    /// transaction (one statement, or statements that need not share a
    /// snapshot): no `BEGIN`, no `ROLLBACK`. Behind a transaction pooler it
    /// is a transaction all the same, because there a statement must run
    /// inside one (ADR 0010).
    pub async fn read_tenant(&self, tenant: &TenantRef) -> Result<TenantRead, sqlx::Error> {
        let (pool, lease) = self.tenants.lease(tenant).await?;
        let conn = if self.tenants.behind_pooler() {
            TenantConn::Tx(pool.begin().await?)
        } else {
            TenantConn::Plain(pool.acquire().await?)
        };
        Ok(TenantRead {
            conn,
            _lease: lease,
        })
    }

    /// A connection of the tenant's own role for writes that are each one
    /// statement, committed by itself (no `BEGIN` and `COMMIT` round trips:
    /// the public resolver records a scan this way). Behind a transaction
    /// pooler they run in one transaction all the same: call
    /// [`TenantRead::finish`] when done, or they are rolled back.
    pub async fn autocommit_tenant(&self, tenant: &TenantRef) -> Result<TenantRead, sqlx::Error> {
        self.read_tenant(tenant).await
    }

    /// Opens a transaction on the platform tables.
    pub async fn begin_platform(&self) -> Result<PlatformTx, sqlx::Error> {
        Ok(PlatformTx(self.platform.begin().await?))
    }

    /// The database answers (readiness).
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        sqlx::raw_sql("SELECT 1").execute(&self.platform).await?;
        Ok(())
    }

    /// Closes every pool (at shutdown).
    pub async fn close(&self) {
        self.tenants.close().await;
        self.platform.close().await;
        self.owner.close().await;
    }
}

/// A transaction on the platform tables, as the platform role.
pub struct PlatformTx(Transaction<'static, Postgres>);

/// A transaction on a connection of one tenant's role. Field order matters:
/// the transaction (and its connection) goes back to the pool before the
/// lease that keeps the pool open is released.
pub struct TenantTx {
    tx: Transaction<'static, Postgres>,
    _lease: pools::Lease,
}

/// A connection of one tenant's role, for reads ([`Db::read_tenant`]).
/// Dropping it gives the connection back.
pub struct TenantRead {
    conn: TenantConn,
    _lease: pools::Lease,
}

enum TenantConn {
    Plain(PoolConnection<Postgres>),
    Tx(Transaction<'static, Postgres>),
}

impl PlatformTx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.0.commit().await
    }
}

impl TenantRead {
    /// Ends the work on the connection: commits the transaction it runs in
    /// behind a transaction pooler (nothing to do otherwise).
    pub async fn finish(self) -> Result<(), sqlx::Error> {
        match self.conn {
            TenantConn::Plain(_) => Ok(()),
            TenantConn::Tx(tx) => tx.commit().await,
        }
    }
}

impl TenantTx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }
}

impl Deref for PlatformTx {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.0
    }
}
impl DerefMut for PlatformTx {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.0
    }
}
impl Deref for TenantRead {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        match &self.conn {
            TenantConn::Plain(c) => c,
            TenantConn::Tx(t) => t,
        }
    }
}
impl DerefMut for TenantRead {
    fn deref_mut(&mut self) -> &mut PgConnection {
        match &mut self.conn {
            TenantConn::Plain(c) => c,
            TenantConn::Tx(t) => t,
        }
    }
}
impl Deref for TenantTx {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.tx
    }
}
impl DerefMut for TenantTx {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.tx
    }
}

/// The SQLSTATE of a database error, if that is what failed.
pub fn sqlstate(err: &sqlx::Error) -> Option<&str> {
    match err {
        sqlx::Error::Database(db) => db
            .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
            .map(|e| e.code()),
        _ => None,
    }
}

/// The name of the unique constraint a statement violated, if that is what
/// failed (for mapping to a 409 with a message a person can act on).
pub fn unique_violation(err: &sqlx::Error) -> Option<&str> {
    match err {
        sqlx::Error::Database(db) if db.code().as_deref() == Some("23505") => db.constraint(),
        _ => None,
    }
}
