//! The `brandops serve` process as an operator sees it: structured logs,
//! the web app with client-side routes, API docs, graceful shutdown.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::helpers::{PASSWORD, TestApp, repo_root};

#[tokio::test]
async fn serve_logs_json_serves_the_app_and_stops_gracefully_on_sigterm() {
    let app = TestApp::spawn().await; // a migrated database
    let brand = app.brand().await;
    let dist = std::env::temp_dir().join(format!("brandops-dist-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>brandops app</title>",
    )
    .unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_brandops"))
        .arg("serve")
        .env("DATABASE_URL", &app.database_url)
        .env("DB_ROLE_SECRET", app.state.settings.db_role_secret.expose())
        .env("PORT", "0")
        .env("FRONTEND_DIR", &dist)
        .env("TENANTS_DIR", repo_root().join("tenants"))
        .env("COOKIE_SECRET", "x".repeat(64))
        .env("RUST_LOG", "info")
        .env_remove("LOG_FORMAT")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let base = loop {
        line.clear();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "serve exited early"
        );
        if let Some(url) = line.trim().strip_prefix("brandops is running on ") {
            break url.to_string();
        }
    };

    let http = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let health = http.get(format!("{base}/api/health")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let page = http.get(format!("{base}/manage_org")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(
        page.text().await.unwrap().contains("brandops app"),
        "client routes fall back to index.html"
    );
    let missing = http
        .get(format!("{base}/api/nothing/here"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.json::<Value>().await.unwrap()["code"], "not_found");
    let docs = http.get(format!("{base}/api/docs")).send().await.unwrap();
    assert_eq!(docs.status(), 200);
    assert!(
        docs.text()
            .await
            .unwrap()
            .to_lowercase()
            .contains("swagger")
    );
    let login = http
        .post(format!("{base}/api/auth/login"))
        .json(&json!({"email": brand.admin, "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    let cookie = login.headers()["set-cookie"].to_str().unwrap().to_string();
    let session_value = cookie
        .split(';')
        .next()
        .unwrap()
        .split_once('=')
        .unwrap()
        .1
        .to_string();
    assert_eq!(
        http.get(format!("{base}/api/organisation"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );

    // SIGTERM: the process finishes and exits cleanly.
    let started = Instant::now();
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "serve did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");

    // Logs: JSON lines; request lines carry request id, tenant and account;
    // never the password or the session cookie.
    let mut logs = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut logs).unwrap();
    assert!(!logs.contains(PASSWORD));
    assert!(!logs.contains(&session_value));
    let entries: Vec<Value> = logs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not a JSON log line: {l}")))
        .collect();
    let org_request = entries
        .iter()
        .find(|e| e["span"]["path"] == "/api/organisation" && e["message"] == "request finished")
        .unwrap_or_else(|| panic!("no log line for the organisation request in:\n{logs}"));
    assert_eq!(org_request["span"]["tenant"], brand.client_id.as_str());
    assert!(org_request["span"]["request_id"].as_str().unwrap().len() >= 32);
    assert!(org_request["span"]["account"].is_string());
    assert_eq!(org_request["status"], 200);
    let _ = std::fs::remove_dir_all(&dist);
}
