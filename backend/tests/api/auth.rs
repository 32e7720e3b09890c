//! Sign-in, sessions, CSRF, origin checks and throttling, against a real
//! server and a real PostgreSQL.

use brandops::accounts::Role;
use brandops::tenants::TenantKind;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Client, PASSWORD, TestApp};

/// The stored id and name of the account with this email.
async fn stored_account(app: &TestApp, email: &str) -> (uuid::Uuid, String) {
    sqlx::query_as("SELECT id, name FROM platform.accounts WHERE email = $1")
        .bind(email)
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

fn allowed_paths(session: &Value) -> Vec<String> {
    serde_json::from_value(session["allowedPaths"].clone()).unwrap()
}

#[tokio::test]
async fn login_answers_user_and_csrf_and_sets_a_hardened_cookie() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let (id, name) = stored_account(&app, &brand.admin).await;
    // The email is matched case-insensitively.
    let typed = brand.admin.to_uppercase();
    assert_ne!(typed, brand.admin);
    let resp = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .json(&json!({"email": typed, "password": PASSWORD}))
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
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["user"]["email"], brand.admin.as_str());
    assert_eq!(body["user"]["role"], "admin");
    assert_eq!(body["user"]["clientId"], brand.client_id.as_str());
    assert!(!name.is_empty());
    assert_eq!(body["user"]["name"], name.as_str());
    assert!(body["user"]["id"].is_string());
    assert_eq!(body["user"]["id"], id.to_string());
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
    let app = TestApp::spawn_with(|s| s.public_url = Some("https://brandops.example".into())).await;
    let brand = app.brand().await;
    let resp = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .json(&json!({"email": brand.admin, "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("Secure"), "{cookie}");
}

#[tokio::test]
async fn unknown_email_and_wrong_password_get_the_same_answer() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let c = app.client();
    let unknown = c
        .post(
            "/api/auth/login",
            json!({"email": format!("nobody@{}.test", brand.client_id.to_lowercase()), "password": "whatever1"}),
        )
        .await;
    let wrong = c
        .post(
            "/api/auth/login",
            json!({"email": brand.admin, "password": "whatever1"}),
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
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let worker_email = app.account(&brand, Role::Worker).await;
    // The policy names the client areas after these client ids.
    let client_a = app.tenant_named("clientA", TenantKind::Client).await;
    let employee_email = app.account(&client_a, Role::Employee).await;
    let platform_email = app.platform_admin().await;

    let anonymous = app.client();
    let (status, body) = anonymous.get("/api/auth/session").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["code"], "unauthenticated");

    let worker = app.login(&worker_email).await;
    let (status, body) = worker.get("/api/auth/session").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["user"]["role"], "worker");
    assert_eq!(body["csrfToken"], worker.csrf.clone().unwrap());
    let paths = allowed_paths(&body);
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
    let employee = app.login(&employee_email).await;
    let (_, body) = employee.get("/api/auth/session").await;
    let paths = allowed_paths(&body);
    assert!(paths.contains(&"/clientA".to_string()), "{paths:?}");
    assert!(!paths.contains(&"/clientB".to_string()), "{paths:?}");
    assert_eq!(body["user"]["clientId"], "clientA");
    let platform = app.login(&platform_email).await;
    let (_, body) = platform.get("/api/auth/session").await;
    assert!(body["user"]["clientId"].is_null());
    assert!(
        body["allowedPaths"]
            .as_array()
            .unwrap()
            .contains(&json!("/admin/dashboard"))
    );
}

/// The roles the Add User form offers come from the server, for the caller's
/// organisation: a brand's admin gives workers (the default, first) and
/// managers, a client organisation's admin employees, and whoever may not
/// add users none. Sign-in answers the same as the session, and each role
/// offered is one the users API accepts from that caller.
#[tokio::test]
async fn the_session_offers_the_roles_the_users_api_accepts() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let client = app.client_org().await;
    let cases = [
        (
            brand.admin.clone(),
            Some(&brand),
            json!(["worker", "manager"]),
            "brand",
        ),
        (
            app.account(&brand, Role::Manager).await,
            None,
            json!([]),
            "brand",
        ),
        (
            app.account(&brand, Role::Worker).await,
            None,
            json!([]),
            "brand",
        ),
        (
            client.admin.clone(),
            Some(&client),
            json!(["employee"]),
            "client",
        ),
        (
            app.account(&client, Role::Employee).await,
            None,
            json!([]),
            "client",
        ),
    ];
    for (email, adds_to, offered, kind) in cases {
        let c = app.client();
        let (status, login) = c
            .post(
                "/api/auth/login",
                json!({"email": email, "password": PASSWORD}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{login}");
        let (_, session) = c.get("/api/auth/session").await;
        assert_eq!(session["assignableRoles"], offered, "{email}");
        assert_eq!(login["assignableRoles"], offered, "{email} at sign-in");
        assert_eq!(session["user"]["organisationKind"], kind, "{email}");
        assert_eq!(login["user"]["organisationKind"], kind, "{email}");
        let Some(tenant) = adds_to else { continue };
        let mut c = c;
        c.csrf = Some(login["csrfToken"].as_str().unwrap().to_string());
        for role in offered.as_array().unwrap() {
            let (status, user) = c
                .post(
                    "/api/client-auth",
                    json!({"action": "adduser", "name": "New Person", "password": "password-1",
                           "role": role,
                           "email": format!("{}@{}.test", crate::helpers::unique("n"), tenant.client_id.to_lowercase())}),
                )
                .await;
            assert_eq!(status, StatusCode::CREATED, "{role}: {user}");
            assert_eq!(user["role"], *role);
        }
        // A role it does not offer is refused, and says which it offers.
        let other = if kind == "brand" {
            "employee"
        } else {
            "worker"
        };
        let (status, err) = c
            .post(
                "/api/client-auth",
                json!({"action": "adduser", "name": "N", "password": "password-1", "role": other,
                       "email": format!("{}@{}.test", crate::helpers::unique("n"), tenant.client_id.to_lowercase())}),
            )
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
        assert_eq!(err["code"], "role_not_allowed");
    }
    let platform = app.login(&app.platform_admin().await).await;
    let (_, session) = platform.get("/api/auth/session").await;
    assert_eq!(session["assignableRoles"], json!([]));
    assert!(session["user"]["organisationKind"].is_null(), "{session}");
}

#[tokio::test]
async fn logout_deletes_the_session_and_the_old_cookie_stops_working() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let manager = app.account(&brand, Role::Manager).await;
    let c = app.login(&brand.admin).await;
    // Keep a copy of the cookie to replay after logout.
    let login = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .json(&json!({"email": manager, "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::OK);
    let raw_cookie = login.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let body: Value = login.json().await.unwrap();
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
    // The browser drops its cookie too: the removal names the cookie's own
    // Path (a removal without it would only apply below /api/auth).
    let removal = out.headers()["set-cookie"].to_str().unwrap().to_string();
    let attributes: Vec<&str> = removal.split(';').map(str::trim).collect();
    assert!(attributes[0].starts_with("brandops_session="), "{removal}");
    for wanted in ["Path=/", "Max-Age=0", "HttpOnly", "SameSite=Lax"] {
        assert!(
            attributes.contains(&wanted),
            "{wanted} missing in {removal}"
        );
    }
    let again = replay("/api/auth/session").send().await.unwrap();
    assert_eq!(again.status(), StatusCode::UNAUTHORIZED);
    // Other sessions are untouched.
    assert_eq!(c.get("/api/auth/session").await.0, StatusCode::OK);
    let count: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.sessions s JOIN platform.accounts a ON a.id = s.account_id WHERE a.email = $1",
    )
    .bind(&manager)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(count, 0);
}

#[tokio::test]
async fn unsafe_methods_need_the_csrf_token() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let new_email = format!("csrf@{}.test", brand.client_id.to_lowercase());
    let mut c = app.login(&brand.admin).await;
    let good = c.csrf.take().unwrap();
    let body =
        json!({"action": "adduser", "email": new_email, "name": "C", "password": "password1"});
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
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM platform.accounts WHERE email = $1")
        .bind(&new_email)
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
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let c = app.login(&brand.admin).await;
    let resp = c
        .http
        .post(c.url("/api/client-auth"))
        .header("x-csrf-token", c.csrf.clone().unwrap())
        .header("origin", "https://evil.example")
        .json(&json!({"action": "adduser", "email": format!("o@{}.test", brand.client_id.to_lowercase()), "name": "O", "password": "password1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["code"], "cross_origin");
    let resp = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .header("sec-fetch-site", "cross-site")
        .json(&json!({"email": brand.admin, "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    // Only PUBLIC_URL's own origin counts, never the request's Host: a
    // DNS-rebinding page sends a Host and an Origin of its own name; another
    // port, another scheme or an opaque origin is another origin too.
    let port = app.base.rsplit(':').next().unwrap().to_string();
    for (origin, host) in [
        (
            format!("http://rebind.example:{port}"),
            format!("rebind.example:{port}"),
        ),
        (
            "http://127.0.0.1:1".to_string(),
            format!("127.0.0.1:{port}"),
        ),
        (
            format!("https://127.0.0.1:{port}"),
            format!("127.0.0.1:{port}"),
        ),
        ("null".to_string(), format!("127.0.0.1:{port}")),
    ] {
        let resp = c
            .http
            .put(c.url("/api/me/preferences"))
            .header("x-csrf-token", c.csrf.clone().unwrap())
            .header("origin", &origin)
            .header("host", &host)
            .json(&json!({"theme": "dark", "landingPage": "/"}))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::FORBIDDEN, "{origin} / {host}");
    }
    // Same-origin requests (Origin = PUBLIC_URL, here the served address) pass.
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
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let manager = app.account(&brand, Role::Manager).await;
    let worker = app.account(&brand, Role::Worker).await;
    let c = app.client();
    for _ in 0..5 {
        let (status, _) = c
            .post(
                "/api/auth/login",
                json!({"email": manager, "password": "wrong-pass"}),
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    // Locked for a while: even the right password waits.
    let (status, body) = c
        .post(
            "/api/auth/login",
            json!({"email": manager, "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["code"], "too_many_attempts");
    // Other accounts are not affected.
    app.login(&worker).await;
    // The lock expires by itself (never a permanent lock-out).
    sqlx::query("UPDATE platform.login_throttle SET locked_until = now() - interval '1 second'")
        .execute(&app.owner)
        .await
        .unwrap();
    app.login(&manager).await;
    let left: i64 =
        sqlx::query_scalar("SELECT count(*) FROM platform.login_throttle WHERE key = $1")
            .bind(format!("account:{manager}"))
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
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let domain = brand.client_id.to_lowercase();
    let http = reqwest::Client::new();
    let attempt = |email: String, ip: &'static str, password: &'static str| {
        http.post(format!("{}/api/auth/login", app.base))
            .header("x-forwarded-for", ip)
            .json(&json!({"email": email, "password": password}))
            .send()
    };
    // Many different (unknown) accounts from one address.
    for i in 0..30 {
        let resp = attempt(
            format!("guess{i}@{domain}.test"),
            "203.0.113.7",
            "nope-nope",
        )
        .await
        .unwrap();
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    }
    // The address is now slowed down, never refused: someone behind it
    // who makes one typo signs in right after (issue 20: a shared address
    // with one typo is not blocked for minutes).
    let manager = app.account(&brand, Role::Manager).await;
    let resp = attempt(manager.clone(), "203.0.113.7", "wrong-pass")
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let resp = attempt(manager.clone(), "203.0.113.7", PASSWORD)
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    // Someone behind the same address whose account has no failures of its
    // own signs in too.
    let resp = attempt(brand.admin.clone(), "203.0.113.7", PASSWORD)
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    // Five failures of one account from there lock that account from there.
    for _ in 0..5 {
        let resp = attempt(manager.clone(), "203.0.113.7", "wrong-pass")
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    }
    let resp = attempt(manager.clone(), "203.0.113.7", PASSWORD)
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    // The client cannot choose its address: only the right-most entry, the
    // one our own proxy appended, counts; what the client put before it is
    // ignored.
    let resp = attempt(manager.clone(), "198.51.100.9, 203.0.113.7", PASSWORD)
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    // From another address the manager is fine.
    let resp = attempt(manager.clone(), "198.51.100.2", PASSWORD)
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
}

/// A stranger who knows an account's email cannot lock its owner out
/// (issue 20): five wrong passwords from address A, then the right one from
/// address B signs in (slowed down by a fixed delay, never refused), and A
/// stays refused for that account.
#[tokio::test]
async fn a_stranger_cannot_lock_an_account_out() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let http = reqwest::Client::new();
    let attempt = |ip: &'static str, password: &'static str| {
        http.post(format!("{}/api/auth/login", app.base))
            .header("x-forwarded-for", ip)
            .json(&json!({"email": brand.admin, "password": password}))
            .send()
    };
    for round in 0..2 {
        for _ in 0..5 {
            let resp = attempt("203.0.113.30", "wrong-pass").await.unwrap();
            assert!(
                [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS].contains(&resp.status()),
                "round {round}"
            );
        }
        let resp = attempt("203.0.113.30", PASSWORD).await.unwrap();
        assert_eq!(
            resp.status(),
            StatusCode::TOO_MANY_REQUESTS,
            "round {round}"
        );
        let resp = attempt("198.51.100.31", PASSWORD).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "round {round}");
    }
    // The owner's success cleared the account's own counter, not the
    // stranger's address.
    let keys: Vec<String> = sqlx::query_scalar(
        "SELECT key FROM platform.login_throttle WHERE key LIKE $1 ORDER BY key",
    )
    .bind(format!("account:{}%", brand.admin))
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(keys, [format!("account:{}|ip:203.0.113.30", brand.admin)]);
}

#[tokio::test]
async fn errors_are_json_envelopes() {
    let app = TestApp::spawn().await;
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
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["code"], "invalid_input");
    assert!(resp_has_request_id(&c).await);
}

async fn resp_has_request_id(c: &Client) -> bool {
    let resp = c.http.get(c.url("/api/health")).send().await.unwrap();
    resp.headers().contains_key("x-request-id")
}

#[tokio::test]
async fn passwords_are_stored_as_argon2id_with_the_required_parameters() {
    let app = TestApp::spawn().await;
    // Every way an account comes to exist: onboarding (as the command line
    // does), a platform admin, the platform API and the All Users page.
    let brand = app.brand().await;
    let platform = app.login(&app.platform_admin().await).await;
    let (status, body) = platform
        .post(
            "/api/platform/tenants",
            json!({"clientId": "hashco", "name": "Hash Co", "kind": "brand", "userLimit": 5,
                   "admin": {"name": "Hal Admin", "email": "admin@hashco.test", "password": "hashco-pass"}}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let admin = app.login(&brand.admin).await;
    let (status, body) = admin
        .post(
            "/api/client-auth",
            json!({"action": "adduser", "email": format!("added@{}.test", brand.client_id.to_lowercase()), "name": "Added", "password": "password-1"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let hashes: Vec<String> = sqlx::query_scalar("SELECT password_hash FROM platform.accounts")
        .fetch_all(&app.owner)
        .await
        .unwrap();
    assert_eq!(hashes.len(), 4);
    for h in hashes {
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
    }
}

#[tokio::test]
async fn ended_sessions_and_stale_counters_are_swept() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let worker = app.account(&brand, Role::Worker).await;
    let live = app.login(&brand.admin).await;
    let idle = app.login(&worker).await;
    sqlx::query(
        "UPDATE platform.sessions SET last_seen_at = now() - interval '2 hours'
         WHERE account_id = (SELECT id FROM platform.accounts WHERE email = $1)",
    )
    .bind(&worker)
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
    brandops::auth::sweep_ended(&app.state.db, app.state.settings.session_idle_timeout)
        .await
        .unwrap();
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

/// Wrong passwords of one account sent at once from one address get at most
/// the limit (5) checked; the rest are refused without a check.
#[tokio::test]
async fn parallel_wrong_sign_ins_check_at_most_the_account_limit() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let victim = app.account(&brand, Role::Worker).await;
    let http = reqwest::Client::new();
    let attempts = (0..12).map(|i| {
        http.post(format!("{}/api/auth/login", app.base))
            .header("x-forwarded-for", "198.51.100.10")
            .json(&json!({"email": victim, "password": format!("wrong-guess-{i}")}))
            .send()
    });
    let statuses: Vec<StatusCode> = futures::future::join_all(attempts)
        .await
        .into_iter()
        .map(|r| r.unwrap().status())
        .collect();
    let checked = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(checked + refused, 12, "{statuses:?}");
    assert!(checked <= 5, "{checked} passwords checked: {statuses:?}");
}

/// Correct sign-ins of one account at once never fail: each one's success
/// clears the account's counter while the others are counting. (The counter
/// used to be read by a second statement after an insert that did nothing,
/// which found no row when a success had just deleted it: a 500.)
#[tokio::test]
async fn parallel_correct_sign_ins_of_one_account_never_fail() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let user = app.account(&brand, Role::Worker).await;
    let http = reqwest::Client::new();
    for round in 0..4 {
        let attempts = (0..8).map(|i| {
            http.post(format!("{}/api/auth/login", app.base))
                .header("x-forwarded-for", format!("198.51.100.{}", i + 10))
                .json(&json!({"email": user, "password": PASSWORD}))
                .send()
        });
        let statuses: Vec<StatusCode> = futures::future::join_all(attempts)
            .await
            .into_iter()
            .map(|r| r.unwrap().status())
            .collect();
        // Attempts are counted before the password is checked, so a burst of
        // correct ones may be told to wait; never an error.
        assert!(
            statuses
                .iter()
                .all(|s| *s == StatusCode::OK || *s == StatusCode::TOO_MANY_REQUESTS),
            "round {round}: {statuses:?}"
        );
        assert!(
            statuses.contains(&StatusCode::OK),
            "round {round}: {statuses:?}"
        );
    }
}

/// Guessing the current password on the password-change form is throttled
/// like sign-in, on the same account counter.
#[tokio::test]
async fn wrong_current_passwords_are_throttled_like_sign_in() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let worker = app.account(&brand, Role::Worker).await;
    let c = app.login(&worker).await;
    let change =
        |current: &str| json!({"currentPassword": current, "newPassword": "brand-new-pass"});
    for i in 0..5 {
        let (status, err) = c
            .put("/api/me/password", change(&format!("guess-{i}-x")))
            .await;
        assert_eq!(
            (status, err["code"].as_str()),
            (StatusCode::FORBIDDEN, Some("wrong_password"))
        );
    }
    let (status, err) = c.put("/api/me/password", change(PASSWORD)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{err}");
    assert_eq!(err["code"], "too_many_attempts");
    // The lock expires by itself; then the right password works and clears it.
    sqlx::query("UPDATE platform.login_throttle SET locked_until = now() - interval '1 second'")
        .execute(&app.owner)
        .await
        .unwrap();
    let (status, _) = c.put("/api/me/password", change(PASSWORD)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let left: i64 =
        sqlx::query_scalar("SELECT count(*) FROM platform.login_throttle WHERE key = $1")
            .bind(format!("account:{worker}"))
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(left, 0);
}

/// A method an address does not take is a 405 that lists the ones it does.
#[tokio::test]
async fn method_not_allowed_names_the_allowed_methods() {
    let app = TestApp::spawn().await;
    let http = reqwest::Client::new();
    for (method, path, allow) in [
        ("TRACE", "/api/health", "GET, HEAD"),
        ("DELETE", "/api/me/preferences", "GET, HEAD, PUT"),
        ("GET", "/api/client-auth", "POST, PATCH"),
    ] {
        let resp = http
            .request(
                reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
                format!("{}{path}", app.base),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(
            resp.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        assert_eq!(resp.headers()["allow"], allow, "{method} {path}");
        let body: Value = resp.json().await.unwrap();
        assert_eq!(body["code"], "method_not_allowed");
    }
}
