//! Sign-in, sessions, CSRF, origin checks and throttling, against a real
//! server and a real PostgreSQL.

mod common;

use common::{DEMO_PASSWORD, spawn_app, spawn_app_with};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn login_answers_user_and_csrf_and_sets_a_hardened_cookie() {
    let app = spawn_app().await;
    let resp = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .json(&json!({"email": "Admin@Acme.test", "password": DEMO_PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let cookie = resp
        .headers()
        .get("set-cookie")
        .expect("session cookie")
        .to_str()
        .unwrap()
        .to_string();
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["user"]["email"], "admin@acme.test");
    assert_eq!(body["user"]["role"], "admin");
    assert_eq!(body["user"]["clientId"], "acme");
    assert_eq!(body["user"]["name"], "Ada Admin");
    assert!(body["user"]["id"].is_string());
    assert_eq!(body["csrfToken"].as_str().unwrap().len(), 64);
    assert!(cookie.starts_with("brandops_session="));
    assert!(cookie.contains("HttpOnly"));
    assert!(cookie.contains("SameSite=Lax"));
    assert!(cookie.contains("Path=/"));
    assert!(!cookie.contains("Secure"), "plain http must not set Secure");

    // Only a hash is stored: no stored value equals the cookie's token, and
    // the cookie itself is encrypted (the token never appears in it either).
    let hashes: Vec<Vec<u8>> = sqlx::query_scalar("SELECT id_hash FROM platform.sessions")
        .fetch_all(&app.owner)
        .await
        .unwrap();
    assert_eq!(hashes.len(), 1);
    assert_eq!(hashes[0].len(), 32);
}

#[tokio::test]
async fn cookie_is_secure_when_served_over_https() {
    let app = spawn_app_with(|s| s.public_url = "https://brandops.example".into()).await;
    let resp = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .json(&json!({"email": "admin@acme.test", "password": DEMO_PASSWORD}))
        .send()
        .await
        .unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("Secure"), "{cookie}");
}

#[tokio::test]
async fn unknown_email_and_wrong_password_get_the_same_answer() {
    let app = spawn_app().await;
    let c = app.client();
    let unknown = c
        .post(
            "/api/auth/login",
            json!({"email": "nobody@acme.test", "password": "whatever1"}),
        )
        .await;
    let wrong = c
        .post(
            "/api/auth/login",
            json!({"email": "admin@acme.test", "password": "whatever1"}),
        )
        .await;
    assert_eq!(unknown.0, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown, wrong);
    assert_eq!(wrong.1["code"], "invalid_credentials");
    assert_eq!(wrong.1["error"], "Invalid email or password.");
    let (status, body) = c
        .post("/api/auth/login", json!({"email": "", "password": ""}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["code"], "invalid_input");
}

#[tokio::test]
async fn session_answers_user_csrf_and_allowed_paths_from_the_policy() {
    let app = spawn_app().await;
    let anonymous = app.client();
    let (status, body) = anonymous.get("/api/auth/session").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["code"], "unauthenticated");

    let worker = app.login("worker@acme.test").await;
    let (status, body) = worker.get("/api/auth/session").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["user"]["role"], "worker");
    assert_eq!(body["csrfToken"], worker.csrf.clone().unwrap());
    let paths: Vec<String> = serde_json::from_value(body["allowedPaths"].clone()).unwrap();
    for p in [
        "/",
        "/ui/table",
        "/products",
        "/profile",
        "/products/Add_product",
    ] {
        assert!(paths.contains(&p.to_string()), "{p} in {paths:?}");
    }
    for p in [
        "/manage_org",
        "/printer",
        "/settings",
        "/clientA",
        "/admin/dashboard",
    ] {
        assert!(!paths.contains(&p.to_string()), "{p} not in {paths:?}");
    }
    let employee = app.login("employee@clienta.test").await;
    let (_, body) = employee.get("/api/auth/session").await;
    let paths: Vec<String> = serde_json::from_value(body["allowedPaths"].clone()).unwrap();
    assert!(paths.contains(&"/clientA".to_string()));
    assert!(!paths.contains(&"/clientB".to_string()));
    assert_eq!(body["user"]["clientId"], "clientA");
    let platform = app.login("platform@brandops.test").await;
    let (_, body) = platform.get("/api/auth/session").await;
    assert!(body["user"]["clientId"].is_null());
    assert!(
        body["allowedPaths"]
            .as_array()
            .unwrap()
            .contains(&json!("/admin/dashboard"))
    );
}

#[tokio::test]
async fn logout_deletes_the_session_and_the_old_cookie_stops_working() {
    let app = spawn_app().await;
    let c = app.login("admin@acme.test").await;
    // Keep a copy of the cookie to replay after logout.
    let login = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .json(&json!({"email": "manager@acme.test", "password": DEMO_PASSWORD}))
        .send()
        .await
        .unwrap();
    let raw_cookie = login.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let body: serde_json::Value = login.json().await.unwrap();
    let csrf = body["csrfToken"].as_str().unwrap().to_string();
    let replay = |path: &str| {
        reqwest::Client::new()
            .get(format!("{}{}", app.base, path))
            .header("cookie", raw_cookie.clone())
    };
    assert_eq!(
        replay("/api/auth/session").send().await.unwrap().status(),
        StatusCode::OK
    );
    let out = reqwest::Client::new()
        .post(format!("{}/api/auth/logout", app.base))
        .header("cookie", raw_cookie.clone())
        .header("x-csrf-token", csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::NO_CONTENT);
    let again = replay("/api/auth/session").send().await.unwrap();
    assert_eq!(again.status(), StatusCode::UNAUTHORIZED);
    // Other sessions are untouched.
    assert_eq!(c.get("/api/auth/session").await.0, StatusCode::OK);
    let count: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.sessions s JOIN platform.accounts a ON a.id = s.account_id WHERE a.email = 'manager@acme.test'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(count, 0);
}

#[tokio::test]
async fn unsafe_methods_need_the_csrf_token() {
    let app = spawn_app().await;
    let mut c = app.login("admin@acme.test").await;
    let good = c.csrf.take().unwrap();
    let body = json!({"action": "adduser", "email": "csrf@acme.test", "name": "C", "password": "password1"});
    let (status, err) = c.post("/api/client-auth", body.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(err["code"], "csrf");
    c.csrf = Some("0".repeat(64));
    let (status, err) = c.post("/api/client-auth", body.clone()).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("csrf"))
    );
    let (status, _) = c
        .send(
            reqwest::Method::PUT,
            "/api/me/preferences",
            Some(json!({"theme": "dark", "landingPage": "/"})),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = c.post("/api/auth/logout", json!({})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Nothing was created by the refused calls.
    let n: i64 =
        sqlx::query_scalar("SELECT count(*) FROM platform.accounts WHERE email = 'csrf@acme.test'")
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(n, 0);
    c.csrf = Some(good);
    assert_eq!(
        c.post("/api/client-auth", body).await.0,
        StatusCode::CREATED
    );
}

#[tokio::test]
async fn cross_origin_unsafe_requests_are_refused() {
    let app = spawn_app().await;
    let c = app.login("admin@acme.test").await;
    let resp = c
        .http
        .post(c.url("/api/client-auth"))
        .header("x-csrf-token", c.csrf.clone().unwrap())
        .header("origin", "https://evil.example")
        .json(&json!({"action": "adduser", "email": "o@acme.test", "name": "O", "password": "password1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["code"], "cross_origin");
    let resp = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .header("sec-fetch-site", "cross-site")
        .json(&json!({"email": "admin@acme.test", "password": DEMO_PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    // Same-origin requests (Origin = our host) pass.
    let resp = c
        .http
        .put(c.url("/api/me/preferences"))
        .header("x-csrf-token", c.csrf.clone().unwrap())
        .header("origin", app.base.clone())
        .json(&json!({"theme": "dark", "landingPage": "/products"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
}

#[tokio::test]
async fn failed_sign_ins_are_throttled_per_account() {
    let app = spawn_app().await;
    let c = app.client();
    for _ in 0..5 {
        let (status, _) = c
            .post(
                "/api/auth/login",
                json!({"email": "manager@acme.test", "password": "wrong-pass"}),
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    // Locked for a while: even the right password waits.
    let (status, body) = c
        .post(
            "/api/auth/login",
            json!({"email": "manager@acme.test", "password": DEMO_PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["code"], "too_many_attempts");
    // Other accounts are not affected.
    app.login("worker@acme.test").await;
    // The lock expires by itself (never a permanent lock-out).
    sqlx::query("UPDATE platform.login_throttle SET locked_until = now() - interval '1 second'")
        .execute(&app.owner)
        .await
        .unwrap();
    app.login("manager@acme.test").await;
    let left: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.login_throttle WHERE key = 'account:manager@acme.test'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        left, 0,
        "a successful sign-in clears the account's failures"
    );
}

#[tokio::test]
async fn failed_sign_ins_are_throttled_per_address() {
    let app = spawn_app().await;
    let http = reqwest::Client::new();
    let attempt = |email: String, ip: &'static str, password: &'static str| {
        http.post(format!("{}/api/auth/login", app.base))
            .header("x-forwarded-for", ip)
            .json(&json!({"email": email, "password": password}))
            .send()
    };
    // Many different (unknown) accounts from one address.
    for i in 0..30 {
        let resp = attempt(format!("guess{i}@acme.test"), "203.0.113.7", "nope-nope")
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    }
    let resp = attempt("admin@acme.test".into(), "203.0.113.7", DEMO_PASSWORD)
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    // Another address is fine.
    let resp = attempt("admin@acme.test".into(), "198.51.100.2", DEMO_PASSWORD)
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
}

#[tokio::test]
async fn errors_are_json_envelopes() {
    let app = spawn_app().await;
    let c = app.client();
    let (status, body) = c.get("/api/no-such-thing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["code"], "not_found");
    assert!(body["error"].is_string());
    let resp = c
        .http
        .post(c.url("/api/auth/login"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["code"], "invalid_input");
    assert!(resp_has_request_id(&c).await);
}

async fn resp_has_request_id(c: &common::Client) -> bool {
    let resp = c.http.get(c.url("/api/health")).send().await.unwrap();
    resp.headers().contains_key("x-request-id")
}

#[tokio::test]
async fn passwords_are_stored_as_argon2id_with_the_required_parameters() {
    let app = spawn_app().await;
    let hashes: Vec<String> = sqlx::query_scalar("SELECT password_hash FROM platform.accounts")
        .fetch_all(&app.owner)
        .await
        .unwrap();
    assert!(!hashes.is_empty());
    for h in hashes {
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
    }
}

#[tokio::test]
async fn ended_sessions_and_stale_counters_are_swept() {
    let app = spawn_app().await;
    let live = app.login("admin@acme.test").await;
    let idle = app.login("worker@acme.test").await;
    sqlx::query(
        "UPDATE platform.sessions SET last_seen_at = now() - interval '2 hours'
         WHERE account_id = (SELECT id FROM platform.accounts WHERE email = 'worker@acme.test')",
    )
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query("INSERT INTO platform.login_throttle (key, failures, window_start) VALUES ('ip:old', 3, now() - interval '2 days'), ('ip:new', 3, now())")
        .execute(&app.owner)
        .await
        .unwrap();
    // Idle past the timeout (1 h in tests): refused even before the sweep.
    assert_eq!(
        idle.get("/api/auth/session").await.0,
        StatusCode::UNAUTHORIZED
    );
    brandops::startup::sweep_once(&app.state).await.unwrap();
    let sessions: i64 = sqlx::query_scalar("SELECT count(*) FROM platform.sessions")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(sessions, 1);
    let keys: Vec<String> = sqlx::query_scalar("SELECT key FROM platform.login_throttle")
        .fetch_all(&app.owner)
        .await
        .unwrap();
    assert_eq!(keys, ["ip:new"]);
    assert_eq!(live.get("/api/auth/session").await.0, StatusCode::OK);
}
