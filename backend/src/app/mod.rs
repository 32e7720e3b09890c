//! The composition root: the one module that knows every domain.
//!
//! The rule of the code base is that **infrastructure imports no domain;
//! the root wires them**. Infrastructure is `config`, `telemetry`, `db`,
//! `storage`, `jobs`, `http`, `audit`, `tenancy` (what a tenant is to the
//! infrastructure: `TenantRef`, `Ident`, `TenantKind`) and `identity` (who
//! calls: `Session`, `Role`, the cookie and CSRF names, password hashing).
//! Every other top-level module of `lib.rs` is a domain; a domain may import
//! infrastructure and other domains, infrastructure never a domain. This
//! module is where both meet:
//!
//! - `api.rs`: [`api::Apis`], the tuple of every domain's API, the
//!   OpenAPI service and contract, and the operations' body limits;
//! - `routes.rs`: every route: the API behind the guard, the domains' public
//!   routes outside `/api` (the scans' resolver, the reviews' form), the web
//!   app, and each domain's own state registered as poem `Data`;
//! - `mod.rs` (here): start-up ([`Application`]): migrations, pools, the
//!   policy, the state, the session lookup the guard is given, the job
//!   runner with its dispatch table (kind → the domain's job), and shutdown.
//!
//! Where infrastructure needs something of a domain, the root passes it in
//! rather than the infrastructure importing it: the guard gets `auth`'s
//! session lookup as a function ([`crate::http::guard::LoadSession`]), the
//! job runner a [`jobs::Dispatch`] table, the operations table its
//! [`api::BODY_LIMITS`]. Types both sides need (a session, a tenant's
//! reference, a role) live in infrastructure (`identity`, `tenancy`), and the
//! domains re-export them (`auth::Session`, `tenants::TenantRef`,
//! `accounts::Role`). `layers.rs` is the test that holds the rule.

pub mod api;
pub mod public;
mod routes;

#[cfg(test)]
mod layers;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use poem::Server;
use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::web::cookie::CookieKey;
use sqlx::PgPool;

use crate::config::{Settings, origin_of};
use crate::db::Db;
use crate::db::migrate::migrate_all;
use crate::http::access::Access;
use crate::http::operations::Operations;
use crate::http::state::{AppState, SharedState};
use crate::identity::Session;
use crate::identity::password::Passwords;
use crate::jobs;
use api::Apis;
use routes::{DomainData, routes};

pub struct Application {
    acceptor: TcpAcceptor,
    port: u16,
    state: SharedState,
    domains: DomainData,
}

fn cookie_key(settings: &Settings) -> anyhow::Result<CookieKey> {
    match &settings.cookie_secret {
        Some(secret) if secret.expose().len() >= 32 => {
            Ok(CookieKey::derive_from(secret.expose().as_bytes()))
        }
        Some(_) => anyhow::bail!("COOKIE_SECRET must be at least 32 characters"),
        None => {
            tracing::warn!(
                "COOKIE_SECRET is not set: using a random key, so sessions end when the server restarts"
            );
            Ok(CookieKey::generate())
        }
    }
}

impl Application {
    /// Migrates (idempotent), connects, loads the policy and binds the port.
    pub async fn build(mut settings: Settings) -> anyhow::Result<Self> {
        let (owner, roles) =
            Db::connect_owner(settings.database_url.expose(), &settings.db_role_secret).await?;
        migrate_all(&owner, &roles).await?;
        owner.close().await;
        let db = Db::connect(&settings).await?;
        let operations = Operations::of::<Apis>(api::BODY_LIMITS)?;
        let access = Access::load(&settings.tenants_dir.join("access"), operations.ids()).await?;
        let passwords = Passwords::new(settings.password_hash_concurrency)?;
        let addr = format!("{}:{}", settings.host, settings.port);
        let acceptor = TcpListener::bind(addr.clone())
            .into_acceptor()
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        let port = acceptor
            .local_addr()
            .first()
            .and_then(|a| a.as_socket_addr().map(|s| s.port()))
            .unwrap_or(settings.port);
        let public_url = settings
            .public_url
            .get_or_insert_with(|| format!("http://{}:{port}", settings.host));
        let public_origin = origin_of(public_url)
            .ok_or_else(|| anyhow::anyhow!("PUBLIC_URL {public_url:?} is not an http(s) URL"))?;
        let storage = crate::storage::Storage::from_settings(&settings)?;
        let domains = DomainData::new(&settings)?;
        let state = Arc::new(AppState {
            cookie_key: cookie_key(&settings)?,
            settings,
            db,
            access,
            operations,
            passwords,
            public_origin,
            jobs: jobs::Runner::default(),
            storage,
        });
        Ok(Self {
            acceptor,
            port,
            state,
            domains,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn state(&self) -> SharedState {
        self.state.clone()
    }

    /// The app's routes, to call in process (the demo's calls,
    /// `tenants::demo_calls`) without a socket.
    pub fn endpoint(&self) -> impl poem::Endpoint {
        routes(self.state.clone(), self.domains.clone(), load_session)
    }

    /// Serves until SIGTERM or Ctrl-C, then lets in-flight requests finish.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        let app = routes(self.state.clone(), self.domains, load_session);
        let janitor = tokio::spawn(sweep_expired(self.state.clone()));
        let runner = tokio::spawn(jobs::run(
            self.state.db.platform.clone(),
            self.state.jobs.clone(),
            job_dispatch(&self.state),
        ));
        Server::new_with_acceptor(self.acceptor)
            .run_with_graceful_shutdown(app, shutdown_signal(), Some(Duration::from_secs(20)))
            .await?;
        janitor.abort();
        // A job's batch in progress rolls back; its lease goes back to the
        // queue so the next server resumes it at once.
        runner.abort();
        let _ = runner.await;
        jobs::release(&self.state.db.platform, &self.state.jobs).await;
        self.state.db.platform.close().await;
        self.state.db.owner.close().await;
        Ok(())
    }
}

/// The guard's session lookup (`auth` stores the sessions); public for
/// the benchmarks that put the guard in front of routes of their own.
pub fn load_session<'a>(
    platform: &'a PgPool,
    token: &'a str,
    idle: Duration,
) -> BoxFuture<'a, anyhow::Result<Option<Session>>> {
    Box::pin(crate::auth::store::load(platform, token, idle))
}

/// What each kind of background job runs (a new kind adds its line, with
/// its name in `jobs` and in the queue's `kind` CHECK).
fn job_dispatch(state: &SharedState) -> jobs::Dispatch {
    jobs::Dispatch::default()
        .with(
            jobs::CODES,
            state.clone(),
            |state: SharedState, job: jobs::Job| async move {
                crate::codes::generate::run(&state.db, &job.tenant, job.id, job.last_try).await
            },
        )
        .with(
            jobs::LABELS,
            state.clone(),
            |state: SharedState, job: jobs::Job| async move {
                crate::labels::print::run(&state, &job.tenant, job.id, job.last_try).await
            },
        )
        .with(
            jobs::BATCH_UPDATES,
            state.clone(),
            |state: SharedState, job: jobs::Job| async move {
                crate::batch_updates::run::run(&state, &job.tenant, job.id, job.last_try).await
            },
        )
}

/// Sweeps ended sessions every ten minutes (see [`crate::auth::sweep_ended`]).
async fn sweep_expired(state: SharedState) {
    let mut tick = tokio::time::interval(Duration::from_secs(600));
    loop {
        tick.tick().await;
        if let Err(err) =
            crate::auth::sweep_ended(&state.db, state.settings.session_idle_timeout).await
        {
            tracing::warn!(error = %err, "sweeping expired sessions failed");
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down: finishing in-flight requests");
}
