//! Test harness: every test gets its own fresh database in the test cluster
//! (`TEST_DATABASE_URL`, set by `make test`), seeded with the demo tenants,
//! and its own server on a free port, started exactly as `main` starts it.
#![allow(dead_code)]

use std::path::PathBuf;

use brandops::config::Settings;
use brandops::db::Db;
use brandops::migrate::migrate_all;
use brandops::startup::Application;
use brandops::state::SharedState;
use brandops::tenants::seed::seed_demo_if_empty;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;

pub const DEMO_PASSWORD: &str = "brandops-demo";

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
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

pub struct TestApp {
    pub base: String,
    pub database_url: String,
    pub state: SharedState,
    /// Owner connection for assertions on what is stored.
    pub owner: PgPool,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

pub async fn spawn_app_with(configure: impl FnOnce(&mut Settings)) -> TestApp {
    let database_url = fresh_database().await;
    let (owner, names) = Db::connect_owner(&database_url).await.unwrap();
    migrate_all(&owner, &names).await.unwrap();
    seed_demo_if_empty(
        &owner,
        &names,
        &repo_root().join("tenants/demo"),
        DEMO_PASSWORD,
    )
    .await
    .unwrap();
    let mut settings = Settings::for_tests(&database_url, &repo_root());
    configure(&mut settings);
    let app = Application::build(settings).await.expect("build app");
    let base = format!("http://127.0.0.1:{}", app.port());
    let state = app.state();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        base,
        database_url,
        state,
        owner,
    }
}

/// A browser-like client: keeps cookies, sends the CSRF token it was given.
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub csrf: Option<String>,
    pub user: Value,
}

impl TestApp {
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

    /// Signs in; panics unless it succeeds.
    pub async fn login(&self, email: &str) -> Client {
        self.login_with(email, DEMO_PASSWORD).await
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

    pub async fn tenant_id(&self, client_id: &str) -> uuid::Uuid {
        sqlx::query_scalar("SELECT id FROM platform.tenants WHERE client_id = $1")
            .bind(client_id)
            .fetch_one(&self.owner)
            .await
            .unwrap()
    }
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
