//! Background jobs: code generation and label printing run here, outside
//! the request that asked for them.
//!
//! - `mod.rs`: the runner: it takes jobs from the platform's queue, runs each
//!   as its tenant (through the tenant's own connections, like a request),
//!   renews its lease while it works, and retries or fails it;
//! - `store.rs`: the SQL of `platform.job_queue`.
//!
//! A job's state and progress live in its tenant's schema (`code_jobs`,
//! `print_jobs`), written by the job's own code in transactions that commit
//! its work and its progress together. So a job never counts work that was
//! not stored: when a server stops, the job's lease runs out (or is given
//! back at shutdown) and the next runner resumes it from what was
//! committed. A job that keeps failing is marked failed, with its reason.

pub mod store;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, Semaphore};
use uuid::Uuid;

use crate::http::state::SharedState;
use crate::tenants::TenantRef;
use store::Entry;

/// How long a runner holds a job without renewing its lease.
const LEASE: Duration = Duration::from_secs(60);
/// How often a runner renews the leases of the jobs it runs.
const RENEW_EVERY: Duration = Duration::from_secs(15);
/// How often an idle runner looks at the queue (besides being woken).
const POLL_EVERY: Duration = Duration::from_secs(5);
/// Jobs run at once by one server.
const CONCURRENCY: usize = 2;
/// Tries before a job that keeps failing is marked failed.
pub const MAX_ATTEMPTS: i32 = 5;

/// The kinds of job, as the queue names them.
pub const CODES: &str = "codes";
pub const LABELS: &str = "labels";
pub const BATCH_UPDATES: &str = "batch_updates";

/// The server's handle on its runner: requests that queue a job wake it.
pub struct Runner {
    /// This process's id in the queue's leases.
    pub id: Uuid,
    wake: Notify,
}

impl Default for Runner {
    fn default() -> Self {
        Self {
            id: Uuid::new_v4(),
            wake: Notify::new(),
        }
    }
}

impl Runner {
    /// Tells the runner a job was queued (after the transaction committed).
    pub fn wake(&self) {
        self.wake.notify_one();
    }
}

/// Runs queued jobs until the task is aborted.
pub async fn run(state: SharedState) {
    let slots = Arc::new(Semaphore::new(CONCURRENCY));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let lease = LEASE.as_secs_f64();
        match store::take_next(&state.db.platform, state.jobs.id, lease).await {
            Ok(Some(entry)) => {
                let state = state.clone();
                tokio::spawn(async move {
                    work(&state, entry).await;
                    drop(slot);
                });
            }
            Ok(None) => {
                drop(slot);
                tokio::select! {
                    () = state.jobs.wake.notified() => {}
                    () = tokio::time::sleep(POLL_EVERY) => {}
                }
            }
            Err(err) => {
                drop(slot);
                tracing::warn!(error = %err, "cannot read the job queue");
                tokio::time::sleep(POLL_EVERY).await;
            }
        }
    }
}

/// Gives back the leases this server holds (at shutdown).
pub async fn release(state: &SharedState) {
    match store::release_all(&state.db.platform, state.jobs.id).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(jobs = n, "gave back the leases of running jobs"),
        Err(err) => tracing::warn!(error = %err, "cannot give back job leases"),
    }
}

/// Runs one job, renewing its lease meanwhile, then takes it off the queue,
/// or puts it back for another try.
async fn work(state: &SharedState, entry: Entry) {
    let platform = &state.db.platform;
    let tenant = match crate::tenants::store::active_tenant(platform, entry.tenant_id).await {
        Ok(Some(tenant)) => tenant,
        Ok(None) => {
            // Suspended: its jobs wait until it is reactivated.
            let _ = store::postpone(platform, &entry, 300.0).await;
            return;
        }
        Err(err) => {
            tracing::warn!(error = %err, "cannot find a job's tenant");
            let _ = store::postpone(platform, &entry, 30.0).await;
            return;
        }
    };
    let last_try = entry.attempts >= MAX_ATTEMPTS;
    let result = with_lease(state, &entry, dispatch(state, &tenant, &entry, last_try)).await;
    let done = match result {
        Ok(()) => store::remove(platform, &entry).await,
        Err(err) => {
            tracing::warn!(
                error = ?err, tenant = %tenant.client_id, kind = %entry.kind, job = %entry.job_id,
                attempt = entry.attempts, "job failed; it will be tried again"
            );
            // 10 s, 40 s, 90 s, …
            let delay = 10.0 * f64::from(entry.attempts.pow(2));
            store::postpone(platform, &entry, delay).await
        }
    };
    if let Err(err) = done {
        tracing::warn!(error = %err, job = %entry.job_id, "cannot update the job queue");
    }
}

/// The job's own code, by kind. `Ok` when the job is finished, failed for
/// good (and marked so) or gone: it leaves the queue. On its last try a
/// job's code marks it failed itself when it cannot finish.
async fn dispatch(
    state: &SharedState,
    tenant: &TenantRef,
    entry: &Entry,
    last_try: bool,
) -> anyhow::Result<()> {
    match entry.kind.as_str() {
        CODES => crate::codes::generate::run(&state.db, tenant, entry.job_id, last_try).await,
        LABELS => crate::labels::print::run(state, tenant, entry.job_id, last_try).await,
        BATCH_UPDATES => {
            crate::batch_updates::run::run(state, tenant, entry.job_id, last_try).await
        }
        other => {
            tracing::error!(kind = other, "unknown job kind; dropped");
            Ok(())
        }
    }
}

/// Runs `job`, renewing the entry's lease every [`RENEW_EVERY`].
async fn with_lease<T>(state: &SharedState, entry: &Entry, job: impl Future<Output = T>) -> T {
    let renew = async {
        let mut tick = tokio::time::interval(RENEW_EVERY);
        tick.tick().await;
        loop {
            tick.tick().await;
            let lease = LEASE.as_secs_f64();
            if let Err(err) = store::renew(&state.db.platform, entry, state.jobs.id, lease).await {
                tracing::warn!(error = %err, job = %entry.job_id, "cannot renew a job's lease");
            }
        }
    };
    tokio::select! {
        out = job => out,
        () = renew => unreachable!("the renewal loop never ends"),
    }
}
