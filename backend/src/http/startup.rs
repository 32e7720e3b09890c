//! Builds the application: pools, policy, routes; binds the listener.
//! Tests start it on port 0 exactly as `main` does.

use std::sync::Arc;
use std::time::Duration;

use poem::endpoint::StaticFilesEndpoint;
use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::middleware::{CookieJarManager, SetHeader};
use poem::web::cookie::CookieKey;
use poem::{EndpointExt, IntoEndpoint, Route, Server};

use crate::auth::password::Passwords;
use crate::config::Settings;
use crate::db::Db;
use crate::db::migrate::migrate_all;
use crate::http::access::Access;
use crate::http::api::{self, Apis};
use crate::http::guard::{Guard, origin_of};
use crate::http::operations::Operations;
use crate::http::state::{AppState, SharedState};

pub struct Application {
    acceptor: TcpAcceptor,
    port: u16,
    state: SharedState,
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
        let operations = Operations::of::<Apis>()?;
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
        let ip_places = match &settings.geoip_mmdb {
            Some(path) => Some(crate::scans::geo::IpPlaces::open(path)?),
            None => None,
        };
        let scan_limiter = crate::http::rate_limit::RateLimiter::new(settings.scan_rate_per_minute);
        let locate_limiter =
            crate::http::rate_limit::RateLimiter::new(settings.locate_rate_per_minute);
        let review_key = crate::reviews::TokenKey::derive(settings.db_role_secret.expose());
        let state = Arc::new(AppState {
            cookie_key: cookie_key(&settings)?,
            settings,
            db,
            access,
            operations,
            passwords,
            public_origin,
            jobs: crate::jobs::Runner::default(),
            storage,
            ip_places,
            scan_limiter,
            gtin_holders: crate::scans::holders::GtinHolders::default(),
            scan_writers: crate::scans::ingest::ScanWriters::default(),
            review_limiter: crate::http::rate_limit::RateLimiter::new(10),
            locate_limiter,
            review_key,
        });
        Ok(Self {
            acceptor,
            port,
            state,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn state(&self) -> SharedState {
        self.state.clone()
    }

    /// Serves until SIGTERM or Ctrl-C, then lets in-flight requests finish.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        let app = routes(self.state.clone());
        let janitor = tokio::spawn(sweep_expired(self.state.clone()));
        let runner = tokio::spawn(crate::jobs::run(self.state.clone()));
        Server::new_with_acceptor(self.acceptor)
            .run_with_graceful_shutdown(app, shutdown_signal(), Some(Duration::from_secs(20)))
            .await?;
        janitor.abort();
        // A job's batch in progress rolls back; its lease goes back to the
        // queue so the next server resumes it at once.
        runner.abort();
        let _ = runner.await;
        crate::jobs::release(&self.state).await;
        self.state.db.platform.close().await;
        self.state.db.owner.close().await;
        Ok(())
    }
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

/// The web app's Content-Security-Policy: its own scripts, styles, images
/// and API only; no inline script, no plug-ins, never framed. (The API docs
/// under /api/docs are Swagger UI's own page, inline script included; like
/// every answer they carry `X-Frame-Options: DENY`.)
const WEB_APP_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; \
     base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// All routes in one place: the API (behind the guard), its docs, and the web
/// app with its client-side routes falling back to index.html.
pub fn routes(state: SharedState) -> impl poem::Endpoint {
    let service = api::service();
    let docs = service.swagger_ui();
    let spec = service.spec_endpoint_yaml();
    let frontend = state.settings.frontend_dir.clone();
    // API answers carry sessions and CSRF tokens: never stored by a cache.
    let api = service
        .with(Guard::new(state.clone()))
        .with(SetHeader::new().overriding("cache-control", "no-store"));
    let web_app: poem::endpoint::BoxEndpoint<'static> = if frontend.join("index.html").is_file() {
        StaticFilesEndpoint::new(frontend)
            .index_file("index.html")
            .fallback_to_index()
            .boxed()
    } else {
        tracing::warn!(dir = %frontend.display(), "web app not built; serving the API only");
        poem::endpoint::make_sync(|_| {
            poem::web::Html(
                "<!doctype html><title>brandops</title><p>The web app is not built. \
                 Run <code>make run</code>, which builds it; the API is at \
                 <a href=\"/api/docs\">/api/docs</a>.</p>",
            )
        })
        .map_to_response()
        .boxed()
    };
    let web_app = web_app
        .catch_all_error(|err| async move { err.into_response() })
        .with(SetHeader::new().overriding("content-security-policy", WEB_APP_CSP));
    let mut headers = SetHeader::new()
        .overriding("x-content-type-options", "nosniff")
        .overriding("referrer-policy", "same-origin")
        .overriding("x-frame-options", "DENY");
    if state.settings.secure_cookies() {
        headers = headers.overriding(
            "strict-transport-security",
            "max-age=63072000; includeSubDomains",
        );
    }
    Route::new()
        .nest("/api/docs", docs)
        .at("/api/openapi.yaml", spec)
        .nest("/api", api)
        // GS1 Digital Link URIs of codes: the public resolver (issue 9).
        .at("/01/*rest", poem::get(crate::scans::resolver::resolve))
        // The scan page's review form.
        .at("/r/review", poem::post(crate::reviews::public::add_review))
        // The scan page's "share my place" (with the consumer's consent).
        .at("/r/locate", poem::post(crate::scans::locate::locate))
        .at("/r/scan.js", poem::get(crate::scans::page::script))
        .nest("/", web_app)
        // Errors become answers here, so that they carry the headers too.
        .catch_all_error(|err| async move { err.into_response() })
        .with(headers)
        .with(CookieJarManager::new())
        .data(state)
        .into_endpoint()
}
