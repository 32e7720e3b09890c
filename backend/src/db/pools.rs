//! Small per-tenant pools under one cap on the server's connections.
//!
//! Each tenant's connections log in as its own role, so they cannot be
//! shared between tenants: every tenant that is active gets a pool of at most
//! `per_tenant` connections, made on demand. The server's connections are
//! capped by [`Budget`]: the owner's and the platform's pools have fixed
//! sizes, and at most `max_pools` tenant pools are open at once, so the sum
//! can never pass `DB_MAX_CONNECTIONS`. When a tenant needs a pool and all are
//! taken, the least recently used pool that no request holds is closed first
//! (its connections are closed before the new pool may connect); when every
//! pool is held, the request waits for one to be released, up to the acquire
//! timeout. Idle connections close by themselves after `idle_timeout`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use tokio::sync::Notify;
use uuid::Uuid;

use super::DbRoles;
use crate::tenancy::TenantRef;

/// How `DB_MAX_CONNECTIONS` is shared out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub total: u32,
    pub platform: u32,
    pub per_tenant: u32,
    pub max_pools: usize,
}

impl Budget {
    /// The owner's pool: migrations at start-up, then onboarding.
    pub const OWNER: u32 = 2;

    /// A quarter of the connections (at least 2) for the platform, two for
    /// the owner, the rest in tenant pools of `per_tenant` connections.
    pub fn split(total: u32, per_tenant: u32) -> anyhow::Result<Self> {
        let platform = (total / 4).max(2);
        let for_tenants = total.saturating_sub(platform + Self::OWNER);
        if per_tenant == 0 || for_tenants < per_tenant {
            anyhow::bail!(
                "DB_MAX_CONNECTIONS={total} leaves {for_tenants} connections for tenants, fewer than one tenant pool of DB_TENANT_POOL_SIZE={per_tenant}: raise DB_MAX_CONNECTIONS or lower DB_TENANT_POOL_SIZE"
            );
        }
        Ok(Self {
            total,
            platform,
            per_tenant,
            max_pools: (for_tenants / per_tenant) as usize,
        })
    }
}

#[derive(Debug)]
pub struct TenantPools {
    base: PgConnectOptions,
    roles: DbRoles,
    budget: Budget,
    behind_pooler: bool,
    idle_timeout: Duration,
    acquire_timeout: Duration,
    registry: Mutex<Registry>,
    released: Notify,
}

#[derive(Debug, Default)]
struct Registry {
    pools: HashMap<Uuid, Entry>,
    /// Pools taken out of `pools` whose connections are still closing; they
    /// count against the cap until they are closed.
    closing: usize,
    closed: bool,
}

#[derive(Debug)]
struct Entry {
    pool: PgPool,
    leases: usize,
    last_used: Instant,
}

/// Keeps a tenant's pool open while a request uses it.
#[derive(Debug)]
pub struct Lease {
    pools: Arc<TenantPools>,
    tenant: Uuid,
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(entry) = self.pools.lock().pools.get_mut(&self.tenant) {
            entry.leases -= 1;
        }
        self.pools.released.notify_waiters();
    }
}

impl TenantPools {
    pub fn new(
        base: PgConnectOptions,
        roles: DbRoles,
        budget: Budget,
        behind_pooler: bool,
    ) -> Self {
        Self {
            base,
            roles,
            budget,
            behind_pooler,
            idle_timeout: Duration::from_secs(60),
            acquire_timeout: Duration::from_secs(10),
            registry: Mutex::default(),
            released: Notify::new(),
        }
    }

    /// Whether tenant connections go through a transaction pooler.
    pub fn behind_pooler(&self) -> bool {
        self.behind_pooler
    }

    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Open tenant pools and the connections they hold (for tests and the
    /// benchmark).
    pub fn open(&self) -> (usize, u32) {
        let registry = self.lock();
        let connections = registry.pools.values().map(|e| e.pool.size()).sum();
        (registry.pools.len(), connections)
    }

    fn lock(&self) -> MutexGuard<'_, Registry> {
        // A panic while holding this lock cannot leave the map half-changed
        // (each change is one map operation), so a poisoned lock is usable.
        self.registry.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The tenant's pool, opened if need be, and a lease that keeps it open.
    pub async fn lease(
        self: &Arc<Self>,
        tenant: &TenantRef,
    ) -> Result<(PgPool, Lease), sqlx::Error> {
        let deadline = tokio::time::Instant::now() + self.acquire_timeout;
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            // Registered before looking, so a release in between is not missed.
            released.as_mut().enable();
            let victim = {
                let mut registry = self.lock();
                if registry.closed {
                    return Err(sqlx::Error::PoolClosed);
                }
                if let Some(entry) = registry.pools.get_mut(&tenant.id) {
                    entry.leases += 1;
                    entry.last_used = Instant::now();
                    return Ok((entry.pool.clone(), self.lease_of(tenant)));
                }
                if registry.pools.len() + registry.closing < self.budget.max_pools {
                    let pool = self.pool_for(tenant);
                    registry.pools.insert(
                        tenant.id,
                        Entry {
                            pool: pool.clone(),
                            leases: 1,
                            last_used: Instant::now(),
                        },
                    );
                    return Ok((pool, self.lease_of(tenant)));
                }
                let idle = registry
                    .pools
                    .iter()
                    .filter(|(_, e)| e.leases == 0)
                    .min_by_key(|(_, e)| e.last_used)
                    .map(|(id, _)| *id);
                idle.and_then(|id| registry.pools.remove(&id)).inspect(|_| {
                    registry.closing += 1;
                })
            };
            // Closed by a task of its own, so that a request given up
            // half-way cannot leave the slot counted as closing.
            if let Some(entry) = victim {
                let pools = self.clone();
                tokio::spawn(async move {
                    entry.pool.close().await;
                    pools.lock().closing -= 1;
                    pools.released.notify_waiters();
                });
            }
            if tokio::time::timeout_at(deadline, released).await.is_err() {
                return Err(sqlx::Error::PoolTimedOut);
            }
        }
    }

    fn lease_of(self: &Arc<Self>, tenant: &TenantRef) -> Lease {
        Lease {
            pools: self.clone(),
            tenant: tenant.id,
        }
    }

    /// A pool of the tenant's role; it connects when first used.
    fn pool_for(&self, tenant: &TenantRef) -> PgPool {
        let role = tenant.role_name.as_str();
        let options = self
            .base
            .clone()
            .username(role)
            .password(&self.roles.password_for(role));
        pool_options()
            .max_connections(self.budget.per_tenant)
            .min_connections(0)
            .idle_timeout(self.idle_timeout)
            .acquire_timeout(self.acquire_timeout)
            .connect_lazy_with(options)
    }

    /// Closes every tenant pool; later leases fail.
    pub async fn close(&self) {
        let pools: Vec<PgPool> = {
            let mut registry = self.lock();
            registry.closed = true;
            registry.pools.drain().map(|(_, e)| e.pool).collect()
        };
        for pool in pools {
            pool.close().await;
        }
    }
}

/// A connection idle for longer than this is pinged before it is handed
/// out; one used more recently is not.
const PING_WHEN_IDLE_FOR: std::time::Duration = std::time::Duration::from_secs(10);

/// The options of the platform and tenant pools: sqlx pings every
/// connection before handing it out by default, one round trip more for
/// each request on each pool. Here only a connection that sat idle is
/// pinged (and replaced when broken). The price: a connection used in the
/// last seconds whose server went away (a database restart) fails its one
/// statement instead of being replaced first; the next request gets a new
/// one.
pub fn pool_options() -> PgPoolOptions {
    PgPoolOptions::new()
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for > PING_WHEN_IDLE_FOR {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_never_passes_the_cap() {
        for total in 6..200 {
            for per_tenant in 1..6 {
                let Ok(b) = Budget::split(total, per_tenant) else {
                    continue;
                };
                let most = Budget::OWNER + b.platform + b.per_tenant * b.max_pools as u32;
                assert!(most <= total, "{total}/{per_tenant}: {b:?} can open {most}");
                assert!(b.max_pools >= 1);
            }
        }
    }

    #[test]
    fn a_cap_too_small_for_one_tenant_pool_is_refused() {
        let err = Budget::split(4, 2).unwrap_err().to_string();
        assert!(err.contains("DB_MAX_CONNECTIONS=4"), "{err}");
        assert_eq!(
            Budget::split(20, 2).unwrap(),
            Budget {
                total: 20,
                platform: 5,
                per_tenant: 2,
                max_pools: 6
            }
        );
    }
}
