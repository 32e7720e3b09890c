//! What the benchmarks share: their own database with the demo tenants and
//! the server on it ([`Bench`]), signed-in clients ([`login`], [`SignedIn`]),
//! the machine's description, a median, and writing one section of
//! docs/benchmarks.md (each benchmark owns a section between markers and
//! leaves the others as they are).

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use brandops::app::Application;
use brandops::config::Settings;
use brandops::db::migrate::migrate_all;
use brandops::db::{Db, DbRoles};
use brandops::http::state::SharedState;
use brandops::tenants::seed::seed_demo_if_empty;
use serde_json::{Value, json};
use sqlx::PgPool;

/// The password of the demo accounts every benchmark seeds and signs in with.
pub const DEMO_PASSWORD: &str = "brandops-demo";

/// A benchmark's own database, new in the cluster of `BENCH_DATABASE_URL`
/// (`make bench`), migrated and seeded with the demo tenants (`tenants/demo`);
/// and the settings of the server that [`Bench::serve`] starts on it.
/// [`Bench::finish`] drops it.
pub struct Bench {
    /// The repository's root.
    pub root: PathBuf,
    pub db_url: String,
    /// `Settings::for_tests` on this database: change them before `serve`.
    pub settings: Settings,
    /// The owner's pool, for set-up and baselines.
    pub owner: PgPool,
    pub roles: DbRoles,
    /// The cluster's pool, to drop the database at the end.
    cluster: PgPool,
    name: String,
}

impl Bench {
    pub async fn new() -> Self {
        let cluster_url = std::env::var("BENCH_DATABASE_URL")
            .expect("BENCH_DATABASE_URL is not set: run `make bench`");
        let name = format!("bench_{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let cluster = PgPool::connect(&cluster_url).await.unwrap();
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&cluster)
            .await
            .unwrap();
        let mut url = reqwest::Url::parse(&cluster_url).unwrap();
        url.set_path(&format!("/{name}"));
        let db_url = url.to_string();
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let settings = Settings::for_tests(&db_url, &root);
        let (owner, roles) = Db::connect_owner(&db_url, &settings.db_role_secret)
            .await
            .unwrap();
        migrate_all(&owner, &roles).await.unwrap();
        seed_demo_if_empty(&owner, &roles, &root.join("tenants/demo"), DEMO_PASSWORD)
            .await
            .unwrap();
        Self {
            root,
            db_url,
            settings,
            owner,
            roles,
            cluster,
            name,
        }
    }

    /// The schema of the demo brand `acme`, which the benchmarks use.
    pub async fn acme_schema(&self) -> String {
        sqlx::query_scalar("SELECT schema_name FROM platform.tenants WHERE client_id = 'acme'")
            .fetch_one(&self.owner)
            .await
            .unwrap()
    }

    /// Starts the server, as `main` does, in this process (on a free port);
    /// its base URL and its state.
    pub async fn serve(&self) -> (String, SharedState) {
        let app = Application::build(self.settings.clone()).await.unwrap();
        let base = format!("http://127.0.0.1:{}", app.port());
        let state = app.state();
        tokio::spawn(app.run_until_stopped());
        (base, state)
    }

    /// Drops the database and the server's file folder.
    pub async fn finish(self) {
        self.owner.close().await;
        let _ = std::fs::remove_dir_all(&self.settings.data_dir);
        let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE {} WITH (FORCE)",
            self.name
        )))
        .execute(&self.cluster)
        .await;
    }
}

pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .next()
                .map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_string())
        })
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or_else(
            || "?".into(),
            |kb| format!("{:.0} GiB", kb as f64 / 1048576.0),
        );
    let pg = std::process::Command::new("postgres")
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    format!("{cpu}, {cores} cores, {mem} RAM; {pg}")
}

/// The runs of a measurement as the reports list them: `1.25, 1.31`.
pub fn runs(v: &[f64], decimals: usize) -> String {
    v.iter()
        .map(|x| format!("{x:.decimals$}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// A client signed in as a demo account (it keeps the session cookie).
pub async fn login(base: &str, email: &str) -> reqwest::Client {
    SignedIn::login(base, email).await.http
}

/// A client signed in as a demo account, with the CSRF token that calls
/// changing data send.
pub struct SignedIn {
    pub http: reqwest::Client,
    pub csrf: String,
    pub base: String,
}

impl SignedIn {
    pub async fn login(base: &str, email: &str) -> Self {
        let http = reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap();
        let r = http
            .post(format!("{base}/api/auth/login"))
            .json(&json!({"email": email, "password": DEMO_PASSWORD}))
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "login {email}: {}", r.status());
        let body: Value = r.json().await.unwrap();
        Self {
            http,
            csrf: body["csrfToken"].as_str().unwrap().to_string(),
            base: base.to_string(),
        }
    }

    /// The server's URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GETs `path`'s JSON.
    pub async fn get_json(&self, path: &str) -> Value {
        self.http
            .get(self.url(path))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// POSTs `body` to `path`; panics unless it succeeds; the answer.
    pub async fn post(&self, path: &str, body: Value) -> Value {
        let r = self
            .http
            .post(self.url(path))
            .header("x-csrf-token", &self.csrf)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "{path}: {}", r.status());
        r.json().await.unwrap()
    }

    /// Creates a product; its id.
    pub async fn create_product(&self, name: &str, skuid: &str, gtin: &str) -> String {
        let product = self
            .post(
                "/api/products",
                json!({"product_name": name, "skuid": skuid, "gtin": gtin}),
            )
            .await;
        product["id"].as_str().unwrap().to_string()
    }

    /// Polls a job (`/api/code-jobs/{id}`, `/api/print-jobs/{id}`) every
    /// 20 ms until it is done; the seconds since `started`.
    pub async fn until_done(&self, path: &str, started: Instant) -> f64 {
        loop {
            let job = self.get_json(path).await;
            match job["status"].as_str() {
                Some("done") => return started.elapsed().as_secs_f64(),
                Some("failed") => panic!("{path} failed: {job}"),
                _ => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }
}

const TITLE: &str = "# Benchmarks\n\n\
    Written by `make bench` (`backend/benches/*.rs`, one section each); numbers are from one run \
    on one machine, so compare ratios, not absolute rates, across machines.\n";

/// Replaces the section `name` of `path` (between `<!-- name -->` and
/// `<!-- /name -->`), or adds it at the end.
pub fn write_section(path: &std::path::Path, name: &str, body: &str) {
    let (open, close) = (format!("<!-- {name} -->"), format!("<!-- /{name} -->"));
    let current = std::fs::read_to_string(path).unwrap_or_default();
    let current = if current.starts_with("# Benchmarks") && current.contains("<!-- ") {
        current
    } else {
        TITLE.to_string()
    };
    let section = format!("{open}\n{}\n{close}", body.trim_end());
    let next = match (current.find(&open), current.find(&close)) {
        (Some(a), Some(b)) if a < b => {
            format!("{}{section}{}", &current[..a], &current[b + close.len()..])
        }
        _ => format!("{}\n{section}\n", current.trim_end()),
    };
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, next).unwrap();
}

/// Runs pgbench with `script` (its SQL text) from `clients` clients for
/// `seconds` against `db_url`: transactions per second. `name` names the
/// script's temporary file.
pub fn pgbench_tps(db_url: &str, name: &str, script: &str, clients: usize, seconds: u64) -> f64 {
    let path = std::env::temp_dir().join(format!("brandops-{name}-{}.sql", std::process::id()));
    std::fs::write(&path, script).unwrap();
    let out = std::process::Command::new("pgbench")
        .args([
            "-n",
            "-c",
            &clients.to_string(),
            "-j",
            "2",
            "-T",
            &seconds.to_string(),
            "-f",
        ])
        .arg(&path)
        .arg(db_url)
        .output()
        .expect("pgbench (Debian's postgresql-contrib / postgresql client) must be installed");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "pgbench: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_file(path);
    text.lines()
        .find(|l| l.starts_with("tps = "))
        .and_then(|l| l.split_whitespace().nth(2))
        .and_then(|v| v.parse().ok())
        .expect("pgbench printed no tps")
}

/// The process's resident memory in bytes (Linux).
pub fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).map(str::to_string))
        })
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Samples this process's resident memory until stopped; the peak.
pub struct RssPeak {
    stop: Arc<AtomicBool>,
    peak: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl RssPeak {
    pub fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let peak = Arc::new(AtomicU64::new(rss()));
        let (s, p) = (stop.clone(), peak.clone());
        let task = tokio::spawn(async move {
            while !s.load(Ordering::Relaxed) {
                p.fetch_max(rss(), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        });
        Self { stop, peak, task }
    }
    pub async fn finish(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.task.await;
        self.peak.load(Ordering::Relaxed)
    }
}
