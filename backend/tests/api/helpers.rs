//! Test harness: every test gets its own fresh database in the test cluster
//! (`TEST_DATABASE_URL`, set by `make test`), migrated once by the server it
//! starts on a free port, exactly as `main` starts it. Tests create the
//! tenants and accounts they need here; nothing depends on `tenants/demo`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use brandops::accounts::{Email, NewAccount, PersonName, Role};
use brandops::app::Application;
use brandops::audit::Actor;
use brandops::config::{Secret, Settings};
use brandops::http::state::SharedState;
use brandops::identity::password::Passwords;
use brandops::tenants::{
    OrganisationName, PreparedTenant, TenantKind, TenantRef, default_modules, onboard, schema_for,
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio::sync::OnceCell;

/// The password of every account the helpers create.
pub const PASSWORD: &str = "test-password-1";

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// One argon2 hash of [`PASSWORD`] for the whole run: hashing is deliberately
/// slow, and the accounts need not differ in it.
async fn password_hash() -> String {
    static HASH: OnceCell<String> = OnceCell::const_new();
    HASH.get_or_init(|| async { Passwords::new(1).unwrap().hash(PASSWORD).await.unwrap() })
        .await
        .clone()
}

/// A name no other tenant or account of this run uses.
pub fn unique(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "{prefix}{}{}",
        NEXT.fetch_add(1, Ordering::Relaxed),
        &uuid::Uuid::new_v4().simple().to_string()[..6]
    )
}

/// A fresh, empty database; returns its URL.
pub async fn fresh_database() -> String {
    let admin_url = std::env::var("TEST_DATABASE_URL").expect(
        "TEST_DATABASE_URL is not set: run the tests with `make test`, which starts a PostgreSQL cluster",
    );
    let name = format!("t_{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    let admin = PgPool::connect(&admin_url)
        .await
        .expect("connect to the test cluster");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&admin)
        .await
        .expect("create test database");
    admin.close().await;
    let mut url = reqwest::Url::parse(&admin_url).unwrap();
    url.set_path(&format!("/{name}"));
    url.to_string()
}

/// PgBouncer's URL when the tests run through it (`TEST_PGBOUNCER_URL`).
pub fn pooler_url() -> Option<String> {
    std::env::var("TEST_PGBOUNCER_URL")
        .ok()
        .filter(|u| !u.is_empty())
}

pub struct TestApp {
    pub base: String,
    pub database_url: String,
    pub state: SharedState,
    /// Owner connection, for set-up and for assertions on what is stored.
    pub owner: PgPool,
}

/// A tenant a test created, with its first admin.
#[derive(Clone, Debug)]
pub struct TestTenant {
    pub client_id: String,
    pub schema: String,
    pub tenant: TenantRef,
    /// The email of its first admin (password [`PASSWORD`]).
    pub admin: String,
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::spawn_with(|_| {}).await
    }

    pub async fn spawn_with(configure: impl FnOnce(&mut Settings)) -> Self {
        let database_url = fresh_database().await;
        let mut settings = Settings::for_tests(&database_url, &repo_root());
        // `make test` runs the isolation tests a second time with the tenant
        // connections going through PgBouncer in transaction mode.
        if let Some(url) = pooler_url() {
            let mut url = reqwest::Url::parse(&url).unwrap();
            url.set_path(&database_url[database_url.rfind('/').unwrap()..]);
            settings.tenant_database_url = Some(Secret::new(url.to_string()));
        }
        configure(&mut settings);
        let app = Application::build(settings).await.expect("build app");
        let base = format!("http://127.0.0.1:{}", app.port());
        let state = app.state();
        tokio::spawn(app.run_until_stopped());
        let owner = PgPool::connect(&database_url).await.unwrap();
        TestApp {
            base,
            database_url,
            state,
            owner,
        }
    }

    /// Onboards a tenant (as `brandops tenant create` would) with one admin.
    pub async fn tenant_named(&self, client_id: &str, kind: TenantKind) -> TestTenant {
        let admin = format!("admin@{}.test", client_id.to_lowercase());
        let prepared = PreparedTenant {
            client_id: client_id.to_string(),
            name: OrganisationName::parse(&format!("{client_id} Ltd")).unwrap(),
            kind,
            schema: schema_for(None, client_id, kind).unwrap(),
            user_limit: 10,
            product_limit: 100,
            code_quota: 1_000_000,
            modules: default_modules(kind),
            accounts: vec![new_account(&admin, Role::Admin).await],
        };
        let mut tx = self.owner.begin().await.unwrap();
        let tenant = onboard(&mut tx, &self.state.db.roles, &prepared, &Actor::cli())
            .await
            .unwrap();
        tx.commit().await.unwrap();
        TestTenant {
            client_id: client_id.to_string(),
            schema: prepared.schema.as_str().to_string(),
            tenant,
            admin,
        }
    }

    /// A new brand with its first admin.
    pub async fn brand(&self) -> TestTenant {
        self.tenant_named(&unique("brand"), TenantKind::Brand).await
    }

    /// A new client organisation with its first admin.
    pub async fn client_org(&self) -> TestTenant {
        self.tenant_named(&unique("client"), TenantKind::Client)
            .await
    }

    /// Adds an account with `role` to `tenant`; returns its email.
    pub async fn account(&self, tenant: &TestTenant, role: Role) -> String {
        let email = format!(
            "{}@{}.test",
            unique(role.as_str()),
            tenant.client_id.to_lowercase()
        );
        self.insert_account(Some(tenant.tenant.id), &email, role)
            .await;
        email
    }

    /// A new platform admin; returns its email.
    pub async fn platform_admin(&self) -> String {
        let email = format!("{}@brandops.test", unique("platform"));
        self.insert_account(None, &email, Role::PlatformAdmin).await;
        email
    }

    async fn insert_account(&self, tenant_id: Option<uuid::Uuid>, email: &str, role: Role) {
        let mut conn = self.owner.acquire().await.unwrap();
        brandops::accounts::store::insert_account(
            &mut conn,
            tenant_id,
            &new_account(email, role).await,
        )
        .await
        .unwrap();
    }

    /// How many rows `table` of the tenant's schema holds (read as the owner).
    pub async fn rows(&self, t: &TestTenant, table: &str) -> i64 {
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM {}.{table}",
            t.schema
        )))
        .fetch_one(&self.owner)
        .await
        .unwrap()
    }

    /// How many audit records of `action` the tenant has.
    pub async fn audited(&self, t: &TestTenant, action: &str) -> i64 {
        sqlx::query_scalar(
            "SELECT count(*) FROM platform.audit_log WHERE action = $1 AND tenant_id = $2",
        )
        .bind(action)
        .bind(t.tenant.id)
        .fetch_one(&self.owner)
        .await
        .unwrap()
    }

    pub fn client(&self) -> Client {
        Client {
            http: reqwest::Client::builder()
                .cookie_store(true)
                .build()
                .unwrap(),
            base: self.base.clone(),
            csrf: None,
            user: Value::Null,
        }
    }

    /// Signs in with [`PASSWORD`]; panics unless it succeeds.
    pub async fn login(&self, email: &str) -> Client {
        self.login_with(email, PASSWORD).await
    }

    pub async fn login_with(&self, email: &str, password: &str) -> Client {
        let mut c = self.client();
        let (status, body) = c
            .post(
                "/api/auth/login",
                json!({"email": email, "password": password}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "login {email}: {body}");
        c.csrf = Some(body["csrfToken"].as_str().unwrap().to_string());
        c.user = body["user"].clone();
        c
    }
}

async fn new_account(email: &str, role: Role) -> NewAccount {
    NewAccount {
        email: Email::parse(email).unwrap(),
        name: PersonName::parse(&format!("{} {}", role.as_str(), &email[..3])).unwrap(),
        role,
        password_hash: password_hash().await,
    }
}

/// A browser-like client: keeps cookies, sends the CSRF token it was given.
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub csrf: Option<String>,
    pub user: Value,
}

async fn read(resp: reqwest::Response) -> (StatusCode, Value) {
    let status = resp.status();
    let text = resp.text().await.unwrap();
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, body)
}

impl Client {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        read(self.http.get(self.url(path)).send().await.unwrap()).await
    }

    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = self.http.request(method, self.url(path));
        if let Some(token) = &self.csrf {
            req = req.header("x-csrf-token", token);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        read(req.send().await.unwrap()).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::POST, path, Some(body)).await
    }

    pub async fn put(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::PUT, path, Some(body)).await
    }

    pub async fn patch(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::PATCH, path, Some(body)).await
    }
}

/// The answers of a probe: every request it made and what came back.
pub type Answers = Vec<(StatusCode, Value)>;

/// The one isolation check every domain uses. Two new brands, A and B, each
/// with an admin. `create_in_a` makes something as A's admin and returns a
/// marker: text that appears in any answer that shows it (a name, an id, an
/// email). `probe` is what an attacker in another tenant would try with that
/// marker: list, read by id, change, delete. Then:
///
/// - the probe run as A's admin shows the marker (so the check can fail);
/// - the probe run as B's admin shows it nowhere;
/// - afterwards A's probe still shows it: whatever B's probe tried to change
///   or delete, A's thing is still there.
pub async fn assert_isolated(
    app: &TestApp,
    create_in_a: impl AsyncFnOnce(&Client) -> String,
    probe: impl AsyncFn(&Client, &str) -> Answers,
) {
    let (a, b) = (app.brand().await, app.brand().await);
    let (a, b) = (app.login(&a.admin).await, app.login(&b.admin).await);
    assert_isolated_between(&a, &b, create_in_a, probe).await;
}

/// [`assert_isolated`] between two tenants the test chose (signed in): for
/// operations that brands may not call (client A's companies).
pub async fn assert_isolated_between(
    a: &Client,
    b: &Client,
    create_in_a: impl AsyncFnOnce(&Client) -> String,
    probe: impl AsyncFn(&Client, &str) -> Answers,
) {
    let marker = create_in_a(a).await;
    assert!(!marker.is_empty(), "the marker must be some text");
    let shows = |answers: &Answers| {
        answers
            .iter()
            .any(|(_, body)| body.to_string().contains(&marker))
    };
    let seen_by_a = probe(a, &marker).await;
    assert!(
        shows(&seen_by_a),
        "the probe does not find '{marker}' even in its own tenant: {seen_by_a:?}"
    );
    let seen_by_b = probe(b, &marker).await;
    assert!(
        !shows(&seen_by_b),
        "another tenant sees '{marker}': {seen_by_b:?}"
    );
    let still = probe(a, &marker).await;
    assert!(
        shows(&still),
        "after another tenant's probe, '{marker}' is gone from its own tenant: {still:?}"
    );
}

/// Runs each of `statements` as the tenant's own role and asserts the
/// database refuses it (an append-only trigger, or no privilege).
pub async fn assert_refused_to_tenant(app: &TestApp, t: &TestTenant, statements: &[&str]) {
    for statement in statements {
        let mut tx = app.state.db.begin_tenant(&t.tenant).await.unwrap();
        let err = sqlx::query(sqlx::AssertSqlSafe(*statement))
            .execute(&mut *tx)
            .await
            .expect_err(statement);
        let msg = err.to_string();
        assert!(
            msg.contains("append-only") || msg.contains("permission denied"),
            "{statement}: {msg}"
        );
    }
}

/// Slows every insert into `table` of the tenant, so that parallel
/// requests really overlap inside their transactions.
pub async fn slow_inserts(app: &TestApp, t: &TestTenant, table: &str) {
    slow_writes(app, t, table, "INSERT", 0.05).await;
}

/// As [`slow_inserts`], each insert taking `seconds`: a window long enough
/// for a second request to start while the first is inside it.
pub async fn slow_inserts_by(app: &TestApp, t: &TestTenant, table: &str, seconds: f64) {
    slow_writes(app, t, table, "INSERT", seconds).await;
}

/// Slows every update of a row of `table` of the tenant.
pub async fn slow_updates(app: &TestApp, t: &TestTenant, table: &str) {
    slow_updates_by(app, t, table, 0.05).await;
}

/// Slows every update of a row of `table` of the tenant by `seconds`.
pub async fn slow_updates_by(app: &TestApp, t: &TestTenant, table: &str, seconds: f64) {
    slow_writes(app, t, table, "UPDATE", seconds).await;
}

/// A trigger sleeping `seconds` after each `event` (`INSERT`, `UPDATE`) on
/// a row of `table` of the tenant (one per table and event).
async fn slow_writes(app: &TestApp, t: &TestTenant, table: &str, event: &str, seconds: f64) {
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "CREATE FUNCTION {s}.test_slow_{event}_{table}() RETURNS trigger LANGUAGE plpgsql AS
             $$ BEGIN PERFORM pg_sleep({seconds}); RETURN NEW; END $$;
         CREATE TRIGGER test_slow_{event} AFTER {event} ON {s}.{table}
             FOR EACH ROW EXECUTE FUNCTION {s}.test_slow_{event}_{table}();",
        s = t.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
}

/// A GTIN-13 with a valid check digit, different for every call (also among
/// calls made at once).
pub fn gtin() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let seed = u64::from(uuid::Uuid::new_v4().as_u128() as u32) * 1000
        + NEXT.fetch_add(1, Ordering::Relaxed) % 1000;
    let body = format!("{:012}", seed % 1_000_000_000_000);
    format!("{body}{}", brandops::gs1::check_digit(&body).unwrap())
}

/// A product a test created, as the API answered it.
pub struct Product {
    pub id: String,
    pub skuid: String,
    /// Its GTIN-14.
    pub gtin: String,
}

/// Creates a product named `name` (markup in it stays text) with a new GTIN
/// and a skuid that starts with `skuid_prefix`; panics unless it is created.
pub async fn create_product(c: &Client, name: &str, skuid_prefix: &str) -> Product {
    let skuid = unique(skuid_prefix);
    let (status, p) = c
        .post(
            "/api/products",
            json!({"product_name": name, "skuid": skuid, "gtin": gtin()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    Product {
        id: p["id"].as_str().unwrap().to_string(),
        skuid,
        gtin: p["gtin"].as_str().unwrap().to_string(),
    }
}

/// Polls a background job (`/api/code-jobs/{id}`, `/api/print-jobs/{id}`)
/// until it is done or failed (at most two minutes); answers it.
pub async fn finished_job(c: &Client, path: &str) -> Value {
    for _ in 0..1200 {
        let (status, job) = c.get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {job}");
        if job["status"] == "done" || job["status"] == "failed" {
            return job;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{path} did not finish");
}

/// Like [`finished_job`], and panics unless the job is done.
pub async fn done_job(c: &Client, path: &str) -> Value {
    let job = finished_job(c, path).await;
    assert_eq!(job["status"], "done", "{path}: {job}");
    job
}

/// A GET whose answer is a file: its status, content type and bytes.
pub async fn download(c: &Client, path: &str) -> (StatusCode, String, Vec<u8>) {
    let resp = c.http.get(c.url(path)).send().await.unwrap();
    let status = resp.status();
    let kind = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, resp.bytes().await.unwrap().to_vec())
}

/// A valid 2×1 RGB PNG.
pub const PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 2, 0, 0, 0, 1, 8, 2, 0,
    0, 0, 123, 64, 232, 221, 0, 0, 0, 13, 73, 68, 65, 84, 120, 156, 99, 248, 207, 0, 4, 255, 1, 7,
    0, 1, 255, 226, 35, 158, 89, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// The start of a baseline JPEG: SOI, APP0 (JFIF) and SOF0 of a 3×2 image.
pub fn jpeg() -> Vec<u8> {
    let mut j = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
    j.extend_from_slice(b"JFIF\0\x01\x01\x00\x00\x01\x00\x01\x00\x00");
    j.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x03, 0x03]);
    j.extend_from_slice(&[1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    j.extend_from_slice(&[0xFF, 0xD9]);
    j
}

/// Sends `bytes` as the multipart part `file` (named `name`, of type
/// `mime`) with `method` to `path`: its status and JSON answer (`Null` when
/// the answer is not JSON).
pub async fn send_file(
    c: &Client,
    method: reqwest::Method,
    path: &str,
    name: &str,
    mime: &str,
    bytes: Vec<u8>,
) -> (StatusCode, Value) {
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes)
            .file_name(name.to_string())
            .mime_str(mime)
            .unwrap(),
    );
    let resp = c
        .http
        .request(method, c.url(path))
        .header("x-csrf-token", c.csrf.clone().unwrap())
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// A code job run to its end.
pub struct CodeJob {
    pub id: String,
    /// Its `codes.csv` without the header, each row split into its columns
    /// (GTIN, serial, lot, expiry, URI).
    pub rows: Vec<Vec<String>>,
}

impl CodeJob {
    /// The codes' GS1 Digital Link URIs, in the job's order.
    pub fn uris(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|row| row.last().unwrap().clone())
            .collect()
    }
}

/// Starts a code job with `body` (as `POST /api/code-jobs` takes it), waits
/// until it is done and reads its codes.
pub async fn generate_codes(c: &Client, body: Value) -> CodeJob {
    let (status, job) = c.post("/api/code-jobs", body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let id = job["id"].as_str().unwrap().to_string();
    done_job(c, &format!("/api/code-jobs/{id}")).await;
    let (status, _, csv) = download(c, &format!("/api/code-jobs/{id}/codes.csv")).await;
    assert_eq!(status, StatusCode::OK);
    let rows = String::from_utf8(csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| line.split(',').map(str::to_string).collect())
        .collect();
    CodeJob { id, rows }
}

/// A new product, "Aspirin <b>500</b>" (skuid `ASP…`), with `quantity`
/// codes, in a lot that expires on `expires_on` when given: answers the
/// product's id and the codes' URIs.
pub async fn product_with_codes(
    c: &Client,
    quantity: u32,
    expires_on: Option<&str>,
) -> (String, Vec<String>) {
    let product = create_product(c, "Aspirin <b>500</b>", "ASP").await;
    let mut body = json!({"product_id": product.id, "quantity": quantity});
    if let Some(expiry) = expires_on {
        body["lot"] = json!({"number": unique("L").chars().take(20).collect::<String>(), "manufactured_on": "2020-01-01", "expires_on": expiry});
    }
    let job = generate_codes(c, body).await;
    (product.id, job.uris())
}
