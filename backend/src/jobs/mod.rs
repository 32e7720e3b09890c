//! Background jobs: code generation and label printing run here, outside
//! the request that asked for them.
//!
//! - `mod.rs`: the runner: it takes jobs from the platform's queue, runs each
//!   as its tenant (through the tenant's own connections, like a request),
//!   renews its lease while it works, and retries or fails it;
//! - `store.rs`: the SQL of `platform.job_queue`.
//!
//! The runner knows no domain: what each kind of job runs is a [`Dispatch`]
//! table that the composition root (`crate::app`) builds and hands to
//! [`run`].
//!
//! A job's state and progress live in its tenant's schema (`code_jobs`,
//! `print_jobs`), written by the job's own code in transactions that commit
//! its work and its progress together. So a job never counts work that was
//! not stored: when a server stops, the job's lease runs out (or is given
//! back at shutdown) and the next runner resumes it from what was
//! committed. A job that keeps failing is marked failed, with its reason.

pub mod store;

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::PgPool;
use tokio::sync::{Notify, Semaphore};
use uuid::Uuid;

use crate::tenancy::TenantRef;
use crate::tenancy::store::active_tenant;
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
#[derive(Clone)]
pub struct Runner {
    /// This process's id in the queue's leases.
    pub id: Uuid,
    wake: Arc<Notify>,
}

impl Default for Runner {
    fn default() -> Self {
        Self {
            id: Uuid::new_v4(),
            wake: Arc::new(Notify::new()),
        }
    }
}

impl Runner {
    /// Tells the runner a job was queued (after the transaction committed).
    pub fn wake(&self) {
        self.wake.notify_one();
    }
}

/// One try of a queued job, as its kind's code gets it.
#[derive(Clone, Debug)]
pub struct Job {
    /// Whose job it is (the tenant is active).
    pub tenant: TenantRef,
    /// The job's row in the tenant's schema.
    pub id: Uuid,
    /// The last try: the code marks the job failed itself when it cannot
    /// finish.
    pub last_try: bool,
}

type JobCode = Arc<dyn Fn(Job) -> BoxFuture<'static, anyhow::Result<()>> + Send + Sync>;

/// What each kind of job runs. A kind's code answers `Ok` when the job is
/// finished, failed for good (and marked so) or gone: it leaves the queue;
/// an error puts it back for another try.
#[derive(Clone, Default)]
pub struct Dispatch {
    kinds: HashMap<&'static str, JobCode>,
}

impl Dispatch {
    /// Runs `code(context, job)` for the jobs of `kind`.
    pub fn with<C, F, Fut>(mut self, kind: &'static str, context: C, code: F) -> Self
    where
        C: Clone + Send + Sync + 'static,
        F: Fn(C, Job) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let code: JobCode = Arc::new(move |job| Box::pin(code(context.clone(), job)));
        self.kinds.insert(kind, code);
        self
    }
}

/// Runs queued jobs until the task is aborted: takes them from the queue on
/// the platform pool, leased to `runner`, and runs each by its kind.
pub async fn run(platform: PgPool, runner: Runner, dispatch: Dispatch) {
    let slots = Arc::new(Semaphore::new(CONCURRENCY));
    let worker = Arc::new(Worker {
        platform,
        runner,
        dispatch,
    });
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let lease = LEASE.as_secs_f64();
        match store::take_next(&worker.platform, worker.runner.id, lease).await {
            Ok(Some(entry)) => {
                let worker = worker.clone();
                tokio::spawn(async move {
                    worker.work(entry).await;
                    drop(slot);
                });
            }
            Ok(None) => {
                drop(slot);
                tokio::select! {
                    () = worker.runner.wake.notified() => {}
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

/// Gives back the leases `runner` holds (at shutdown).
pub async fn release(platform: &PgPool, runner: &Runner) {
    match store::release_all(platform, runner.id).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(jobs = n, "gave back the leases of running jobs"),
        Err(err) => tracing::warn!(error = %err, "cannot give back job leases"),
    }
}

/// What the runner's tasks share.
struct Worker {
    platform: PgPool,
    runner: Runner,
    dispatch: Dispatch,
}

impl Worker {
    /// Runs one job, renewing its lease meanwhile, then takes it off the queue,
    /// or puts it back for another try.
    async fn work(&self, entry: Entry) {
        let platform = &self.platform;
        let tenant = match active_tenant(platform, entry.tenant_id).await {
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
        let result = self
            .with_lease(&entry, self.dispatch(&tenant, &entry, last_try))
            .await;
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

    /// The job's own code, by kind (an unknown kind is dropped).
    fn dispatch(
        &self,
        tenant: &TenantRef,
        entry: &Entry,
        last_try: bool,
    ) -> BoxFuture<'static, anyhow::Result<()>> {
        match self.dispatch.kinds.get(entry.kind.as_str()) {
            Some(code) => code(Job {
                tenant: tenant.clone(),
                id: entry.job_id,
                last_try,
            }),
            None => {
                tracing::error!(kind = %entry.kind, "unknown job kind; dropped");
                Box::pin(async { Ok(()) })
            }
        }
    }

    /// Runs `job`, renewing the entry's lease every [`RENEW_EVERY`].
    async fn with_lease<T>(&self, entry: &Entry, job: impl Future<Output = T>) -> T {
        let renew = async {
            let mut tick = tokio::time::interval(RENEW_EVERY);
            tick.tick().await;
            loop {
                tick.tick().await;
                let lease = LEASE.as_secs_f64();
                if let Err(err) = store::renew(&self.platform, entry, self.runner.id, lease).await {
                    tracing::warn!(error = %err, job = %entry.job_id, "cannot renew a job's lease");
                }
            }
        };
        tokio::select! {
            out = job => out,
            () = renew => unreachable!("the renewal loop never ends"),
        }
    }
}
