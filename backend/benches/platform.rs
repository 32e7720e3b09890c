//! `make bench`: measures, in one run on one machine, and writes
//! docs/benchmarks.md:
//! - sign-in throughput (argon2id bound), and
//! - a session-checked, tenant-scoped read (`GET /api/me/preferences`: the
//!   guard's session lookup, the policy check, a connection of the tenant's
//!   own login role from its pool, the read) against the same
//!   session-checked read on a plain pooled connection of the same size (same
//!   guard), reported as a ratio. Target: ≥ 0.9;
//! - 200 tenants read in turn by concurrent workers: the peak of the
//!   server's PostgreSQL connections against the configured cap.
//!
//! Never run by `make test`; timings do not belong in tests.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use brandops::http::guard::{Guard, RequestContext};
use poem::listener::{Acceptor, Listener, TcpListener};
use poem::middleware::CookieJarManager;
use poem::web::{Data, Json};
use poem::{EndpointExt, Route, Server, get, handler};
use serde_json::{Value, json};
use sqlx::PgPool;

use common::{Bench, DEMO_PASSWORD, login, machine, median};

const CONCURRENCY: usize = 16;
const READ_SECONDS: u64 = 5;
const LOGIN_SECONDS: u64 = 5;
const ROUNDS: usize = 3;
/// The server's cap on connections, and its tenant pool size (the baseline's
/// plain pool has the same size as one tenant's pool).
const MAX_CONNECTIONS: u32 = 40;
const TENANT_POOL: u32 = 8;
const TENANTS_IN_TURN: usize = 200;

/// The baseline: the same guard (session lookup from the private cookie),
/// then the same read on a plain pooled connection: no transaction, no role
/// switch, the schema named in the query.
#[handler]
async fn plain_read(req: &poem::Request, Data(pool): Data<&PgPool>) -> poem::Result<Json<Value>> {
    let session = req
        .extensions()
        .get::<RequestContext>()
        .and_then(|ctx| ctx.session.clone())
        .ok_or_else(|| poem::Error::from_status(poem::http::StatusCode::UNAUTHORIZED))?;
    let row: Option<(String, String)> = sqlx::query_as(
        "SELECT theme, landing_page FROM brand_acme.user_preferences WHERE account_id = $1",
    )
    .bind(session.account_id)
    .fetch_optional(pool)
    .await
    .unwrap();
    let (theme, landing) = row.unwrap_or_else(|| ("system".into(), "/".into()));
    Ok(Json(json!({"theme": theme, "landingPage": landing})))
}

/// For reference only: the read with no session check at all.
#[handler]
async fn bare_read(Data(ctx): Data<&(PgPool, uuid::Uuid)>) -> Json<Value> {
    let row: Option<(String, String)> = sqlx::query_as(
        "SELECT theme, landing_page FROM brand_acme.user_preferences WHERE account_id = $1",
    )
    .bind(ctx.1)
    .fetch_optional(&ctx.0)
    .await
    .unwrap();
    let (theme, landing) = row.unwrap_or_else(|| ("system".into(), "/".into()));
    Json(json!({"theme": theme, "landingPage": landing}))
}

async fn hammer(clients: Vec<reqwest::Client>, url: String, seconds: u64) -> f64 {
    let done = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|c| {
            let (done, url) = (done.clone(), url.clone());
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    let resp = c.get(&url).send().await.unwrap();
                    assert!(resp.status().is_success(), "{}", resp.status());
                    resp.bytes().await.unwrap();
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    done.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
}

/// Onboards `TENANTS_IN_TURN` tenants, then has `CONCURRENCY` workers read
/// each in turn through the server's own pools for `READ_SECONDS`, while
/// sampling the server's connections. Returns (reads/s, peak, budget).
async fn tenants_in_turn(
    state: &brandops::http::state::SharedState,
    owner: &PgPool,
    roles: &brandops::db::DbRoles,
) -> (f64, i64, brandops::db::Budget) {
    use brandops::tenants::{OrganisationName, PreparedTenant, TenantKind, default_modules};
    let mut tenants = Vec::new();
    for i in 0..TENANTS_IN_TURN {
        let client_id = format!("turn{i}");
        let prepared = PreparedTenant {
            client_id: client_id.clone(),
            name: OrganisationName::parse(&format!("Turn {i}")).unwrap(),
            kind: TenantKind::Brand,
            schema: brandops::tenants::schema_for(None, &client_id, TenantKind::Brand).unwrap(),
            user_limit: 5,
            product_limit: 100,
            code_quota: 1_000_000,
            modules: default_modules(TenantKind::Brand),
            accounts: vec![],
        };
        let mut tx = owner.begin().await.unwrap();
        let tenant =
            brandops::tenants::onboard(&mut tx, roles, &prepared, &brandops::audit::Actor::cli())
                .await
                .unwrap();
        tx.commit().await.unwrap();
        tenants.push(tenant);
    }
    let tenants = Arc::new(tenants);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let (owner, stop, prefix) = (owner.clone(), stop.clone(), roles.role_prefix.clone());
        tokio::spawn(async move {
            let mut peak = 0i64;
            while !stop.load(Ordering::Relaxed) {
                let n: i64 = sqlx::query_scalar(
                    "SELECT count(*) FROM pg_stat_activity
                     WHERE datname = current_database() AND usename LIKE $1 || '\\_%'",
                )
                .bind(&prefix)
                .fetch_one(&owner)
                .await
                .unwrap();
                peak = peak.max(n);
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            peak
        })
    };
    let next = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(READ_SECONDS);
    let started = Instant::now();
    let workers: Vec<_> = (0..CONCURRENCY)
        .map(|_| {
            let (state, tenants, next) = (state.clone(), tenants.clone(), next.clone());
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize % tenants.len();
                    let mut conn = state.db.read_tenant(&tenants[i]).await.unwrap();
                    let name: String = sqlx::query_scalar("SELECT display_name FROM org_settings")
                        .fetch_one(&mut *conn)
                        .await
                        .unwrap();
                    assert_eq!(name, format!("Turn {i}"));
                }
            })
        })
        .collect();
    for w in workers {
        w.await.unwrap();
    }
    let rate = next.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    (rate, sampler.await.unwrap(), state.db.tenants.budget())
}

#[tokio::main]
async fn main() {
    // The server's log, when asked for (RUST_LOG=warn make bench).
    if std::env::var_os("RUST_LOG").is_some() {
        brandops::telemetry::init(false);
    }
    let mut bench = Bench::new().await;
    bench.settings.db_max_connections = MAX_CONNECTIONS;
    bench.settings.db_tenant_pool_size = TENANT_POOL;
    bench.settings.password_hash_concurrency = 2;
    let (owner, roles, root, db_url) = (&bench.owner, &bench.roles, &bench.root, &bench.db_url);
    let (base, state) = bench.serve().await;

    // The baseline: the same read, same poem + HTTP stack, on a plain pool
    // (no session, no transaction, no role switch).
    let plain_pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(TENANT_POOL)
        .connect(db_url)
        .await
        .unwrap();
    let acceptor = TcpListener::bind("127.0.0.1:0")
        .into_acceptor()
        .await
        .unwrap();
    let plain_port = acceptor.local_addr()[0].as_socket_addr().unwrap().port();
    let admin_id: uuid::Uuid =
        sqlx::query_scalar("SELECT id FROM platform.accounts WHERE email = 'admin@acme.test'")
            .fetch_one(owner)
            .await
            .unwrap();
    let bare = Route::new()
        .at("/bare", get(bare_read))
        .data((plain_pool.clone(), admin_id));
    let plain_app = Route::new()
        .nest("/reference", bare)
        .at("/plain", get(plain_read))
        .with(Guard::new(state.clone(), brandops::app::load_session))
        .with(CookieJarManager::new())
        .data(plain_pool)
        .data(state.clone());
    tokio::spawn(Server::new_with_acceptor(acceptor).run(plain_app));

    let mut tenant_clients = Vec::new();
    for _ in 0..CONCURRENCY {
        tenant_clients.push(login(&base, "admin@acme.test").await);
    }
    // The same signed-in clients for both paths (the cookie is per host).
    let plain_clients = tenant_clients.clone();
    let tenant_url = format!("{base}/api/me/preferences");
    let plain_url = format!("http://127.0.0.1:{plain_port}/plain");
    // Warm up both paths.
    hammer(tenant_clients.clone(), tenant_url.clone(), 1).await;
    hammer(plain_clients.clone(), plain_url.clone(), 1).await;

    let bare_url = format!("http://127.0.0.1:{plain_port}/reference/bare");
    let (mut tenant_runs, mut plain_runs, mut bare_runs) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        plain_runs.push(hammer(plain_clients.clone(), plain_url.clone(), READ_SECONDS).await);
        tenant_runs.push(hammer(tenant_clients.clone(), tenant_url.clone(), READ_SECONDS).await);
        bare_runs.push(hammer(plain_clients.clone(), bare_url.clone(), READ_SECONDS).await);
    }
    let bare = median(bare_runs.clone());
    let (tenant, plain) = (median(tenant_runs.clone()), median(plain_runs.clone()));
    let ratio = tenant / plain;

    // Sign-in throughput: argon2id-bound by design.
    let logins = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(LOGIN_SECONDS);
    let started = Instant::now();
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let (logins, base) = (logins.clone(), base.clone());
            tokio::spawn(async move {
                let c = reqwest::Client::new();
                while Instant::now() < deadline {
                    let r = c
                        .post(format!("{base}/api/auth/login"))
                        .json(&json!({"email": "worker@acme.test", "password": DEMO_PASSWORD}))
                        .send()
                        .await
                        .unwrap();
                    assert!(r.status().is_success(), "{}", r.status());
                    logins.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let login_rate = logins.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64();

    let (in_turn_rate, peak, budget) = tenants_in_turn(&state, owner, roles).await;

    // The ceiling of sign-in: argon2id verification alone, with the same
    // hasher (same concurrency), as many tasks, for as long, in this run.
    let hasher = Arc::new(brandops::identity::password::Passwords::new(2).unwrap());
    let hash = Arc::new(hasher.hash(DEMO_PASSWORD).await.unwrap());
    let verified = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(LOGIN_SECONDS);
    let started = Instant::now();
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let (hasher, hash, verified) = (hasher.clone(), hash.clone(), verified.clone());
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    assert!(hasher.verify(DEMO_PASSWORD, Some(&hash)).await.unwrap());
                    verified.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let verify_rate = verified.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64();
    let login_ratio = login_rate / verify_rate;
    let login_verdict = if login_ratio >= 0.8 {
        "meets"
    } else {
        "misses"
    };

    let verdict = if ratio >= 0.9 { "meets" } else { "misses" };
    let tenant_cap = budget.total - brandops::db::Budget::OWNER;
    let cap_verdict = if peak <= i64::from(tenant_cap) {
        "within"
    } else {
        "OVER"
    };
    let fmt = |v: &[f64]| common::runs(v, 0);
    let report = format!(
        "## Platform: tenancy, sessions, sign-in\n\n\
         `backend/benches/platform.rs`.\n\n\
         - Machine: {machine}\n\
         - Date: {date}\n\
         - Build: release (`cargo bench`), {CONCURRENCY} concurrent HTTP clients on the same machine, \
         {ROUNDS} rounds of {READ_SECONDS} s per read path (median shown), the three paths alternating.\n\n\
         | measurement | requests/s | runs |\n|---|---:|---|\n\
         | baseline: the same guard (session lookup), then the `SELECT` on a plain pooled connection (pool of {TENANT_POOL}) | {plain:.0} | {pr} |\n\
         | tenant-scoped read: `GET /api/me/preferences` (session lookup, policy check, a connection of the tenant's own login role from its pool of {TENANT_POOL}, the `SELECT`) | {tenant:.0} | {tr} |\n\
         | for reference: the `SELECT` alone, no session check (not the target's baseline) | {bare:.0} | {br} |\n\
         | sign-in: `POST /api/auth/login` (argon2id m=19456 KiB, t=2, p=1; 4 clients) | {login_rate:.1} | |\n\
         | for sign-in: argon2id verification alone, same hasher and concurrency, 4 tasks | {verify_rate:.1} | |\n\n\
         **Tenant-scoped read / baseline = {ratio:.2}** (target ≥ 0.9: {verdict} it).\n\n\
         **{TENANTS_IN_TURN} tenants read in turn** by {CONCURRENCY} concurrent workers for {READ_SECONDS} s \
         ({in_turn_rate:.0} reads/s), with `DB_MAX_CONNECTIONS={cap}` and `DB_TENANT_POOL_SIZE={TENANT_POOL}` \
         (the platform pool {platform}, at most {pools} tenant pools open, {owner} for the owner): \
         **peak {peak} connections** of the platform and tenant roles, sampled from `pg_stat_activity` every 5 ms \
         ({cap_verdict} their share of the cap, {tenant_cap}; the owner's pool is idle after start-up).\n\n\
         **Sign-in / raw argon2id verification = {login_ratio:.2}** (target ≥ 0.8: {login_verdict} it).\n\n\
         The baseline is the same session-checked read without the tenant machinery, so the ratio is \
         the cost of tenancy (the tenant's own pool and login, the policy check). Against the bare `SELECT` with no \
         session check the tenant-scoped read runs at {bare_ratio:.2}.\n",
        machine = machine(),
        date = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        pr = fmt(&plain_runs),
        tr = fmt(&tenant_runs),
        br = fmt(&bare_runs),
        bare_ratio = tenant / bare,
        cap = budget.total,
        platform = budget.platform,
        pools = budget.max_pools,
        owner = brandops::db::Budget::OWNER,
    );
    let path = root.join("docs/benchmarks.md");
    common::write_section(&path, "platform", &report);
    println!("{report}");
    bench.finish().await;
}
