//! Organisation users (All Users page): the spec's exact calls and answers,
//! the user limit under concurrency, isolation between organisations, audit.

mod common;

use common::{DEMO_PASSWORD, spawn_app};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn add(email: &str, role: Option<&str>) -> Value {
    let mut body = json!({"action": "adduser", "email": email, "name": "New Person", "password": "password-1"});
    if let Some(r) = role {
        body["role"] = json!(r);
    }
    body
}

async fn audit_actions(app: &common::TestApp, target: &str) -> Vec<String> {
    sqlx::query_scalar("SELECT action FROM platform.audit_log WHERE target = $1 ORDER BY id")
        .bind(target)
        .fetch_all(&app.owner)
        .await
        .unwrap()
}

#[tokio::test]
async fn account_info_lists_the_other_accounts_of_my_organisation_only() {
    let app = spawn_app().await;
    let admin = app.login("admin@acme.test").await;
    let (status, body) = admin.get("/api/account-info?action=otheraccountinfo").await;
    assert_eq!(status, StatusCode::OK);
    let list = body.as_array().unwrap();
    let emails: Vec<&str> = list.iter().map(|a| a["email"].as_str().unwrap()).collect();
    assert_eq!(emails, ["manager@acme.test", "worker@acme.test"]);
    for a in list {
        let mut keys: Vec<&String> = a.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["email", "id", "name", "role"]);
    }
    let (status, _) = admin.get("/api/account-info?action=other").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let globex = app.login("admin@globex.test").await;
    let (_, body) = globex
        .get("/api/account-info?action=otheraccountinfo")
        .await;
    assert_eq!(body, json!([]));
}

#[tokio::test]
async fn adduser_creates_a_worker_by_default_and_validates_every_field() {
    let app = spawn_app().await;
    let admin = app.login("admin@acme.test").await;
    let (status, user) = admin
        .post("/api/client-auth", add("New.Worker@Acme.test", None))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{user}");
    assert_eq!(user["email"], "new.worker@acme.test");
    assert_eq!(user["role"], "worker");
    assert_eq!(user["name"], "New Person");
    assert!(user["id"].is_string());
    let (status, user) = admin
        .post("/api/client-auth", add("boss@acme.test", Some("manager")))
        .await;
    assert_eq!(
        (status, user["role"].as_str()),
        (StatusCode::CREATED, Some("manager"))
    );
    // The new user can sign in.
    app.login_with("new.worker@acme.test", "password-1").await;

    for (body, needle) in [
        (add("not-an-email", None), "Invalid Email format"),
        (add("a@b", None), "Invalid Email format"),
        (
            add("x@acme.test", Some("admin")),
            "Role must be worker or manager",
        ),
        (
            json!({"action": "adduser", "email": "y@acme.test", "password": "password-1"}),
            "Name is required",
        ),
        (
            json!({"action": "adduser", "name": "Y", "password": "password-1"}),
            "Email is required",
        ),
        (
            json!({"action": "adduser", "email": "y@acme.test", "name": "Y"}),
            "Password is required",
        ),
        (
            json!({"action": "adduser", "email": "y@acme.test", "name": "Y", "password": "short"}),
            "too short",
        ),
    ] {
        let (status, err) = admin.post("/api/client-auth", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert_eq!(err["code"], "invalid_input");
        assert!(err["error"].as_str().unwrap().contains(needle), "{err}");
    }
    let (status, err) = admin
        .post("/api/client-auth", add("worker@acme.test", None))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(err["code"], "conflict");
    // Emails are unique platform-wide, case-insensitively.
    let (status, _) = admin
        .post("/api/client-auth", add("ADMIN@GLOBEX.TEST", None))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        audit_actions(&app, "new.worker@acme.test").await,
        ["user.add", "auth.login"]
    );
}

#[tokio::test]
async fn only_organisation_admins_may_manage_users() {
    let app = spawn_app().await;
    let expected =
        json!({"error": "You do not have permission to perform this action.", "code": "forbidden"});
    for email in [
        "manager@acme.test",
        "worker@acme.test",
        "employee@clienta.test",
        "platform@brandops.test",
    ] {
        let c = app.login(email).await;
        let (status, body) = c.post("/api/client-auth", add("z@acme.test", None)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{email}");
        assert_eq!(body, expected, "{email}");
        let (status, _) = c.patch("/api/client-auth", json!({"action": "resetorguserpassword", "email": "worker@acme.test", "new_password": "hijacked-1"})).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{email}");
        let (status, _) = c.get("/api/account-info?action=otheraccountinfo").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{email}");
    }
    // The worker's password is unchanged.
    app.login("worker@acme.test").await;
    // A client organisation's admin adds employees.
    let client_admin = app.login("admin@clienta.test").await;
    let (status, user) = client_admin
        .post("/api/client-auth", add("new@clienta.test", None))
        .await;
    assert_eq!(
        (status, user["role"].as_str()),
        (StatusCode::CREATED, Some("employee"))
    );
}

#[tokio::test]
async fn the_user_limit_answers_with_the_exact_message() {
    let app = spawn_app().await;
    let admin = app.login("admin@globex.test").await; // limit 3, 1 account
    assert_eq!(
        admin
            .post("/api/client-auth", add("g1@globex.test", None))
            .await
            .0,
        StatusCode::CREATED
    );
    assert_eq!(
        admin
            .post("/api/client-auth", add("g2@globex.test", None))
            .await
            .0,
        StatusCode::CREATED
    );
    let (status, body) = admin
        .post("/api/client-auth", add("g3@globex.test", None))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["error"], "You have reached limit to add users.");
    assert_eq!(body["code"], "user_limit");
}

#[tokio::test]
async fn the_user_limit_holds_under_concurrency() {
    let app = spawn_app().await;
    let admin = app.login("admin@globex.test").await; // limit 3, 1 account: 2 free places
    let attempts = (0..12).map(|i| {
        admin.post(
            "/api/client-auth",
            add(&format!("race{i}@globex.test"), None),
        )
    });
    let results = futures::future::join_all(attempts).await;
    let created = results
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    let limited = results
        .iter()
        .filter(|(s, b)| {
            *s == StatusCode::FORBIDDEN && b["error"] == "You have reached limit to add users."
        })
        .count();
    assert_eq!(created, 2, "{results:?}");
    assert_eq!(limited, 10);
    let count: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.accounts a JOIN platform.tenants t ON t.id = a.tenant_id WHERE t.client_id = 'globex'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(count, 3);
}

#[tokio::test]
async fn removeuser_stays_inside_the_organisation() {
    let app = spawn_app().await;
    let acme = app.login("admin@acme.test").await;
    let globex = app.login("admin@globex.test").await;
    let (_, list) = acme.get("/api/account-info?action=otheraccountinfo").await;
    let worker_id = list
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["email"] == "worker@acme.test")
        .unwrap()["id"]
        .clone();
    let worker = app.login("worker@acme.test").await;

    // Another organisation's admin never finds acme's worker.
    let (status, body) = globex
        .post(
            "/api/client-auth",
            json!({"action": "removeuser", "user_id": worker_id}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(worker.get("/api/auth/session").await.0, StatusCode::OK);
    // Nor can one reset the other's passwords.
    let (status, _) = globex.patch("/api/client-auth", json!({"action": "resetorguserpassword", "email": "worker@acme.test", "new_password": "hijacked-1"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // An admin cannot remove themself.
    let me = acme.user["id"].clone();
    let (status, body) = acme
        .post(
            "/api/client-auth",
            json!({"action": "removeuser", "user_id": me}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _) = acme
        .post(
            "/api/client-auth",
            json!({"action": "removeuser", "user_id": "not-a-uuid"}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = acme
        .post("/api/client-auth", json!({"action": "removeuser"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // The worker's preferences live in acme's schema and go with them.
    assert_eq!(
        worker
            .put(
                "/api/me/preferences",
                json!({"theme": "dark", "landingPage": "/"})
            )
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    sqlx::query(
        "INSERT INTO brand_acme.user_preferences (account_id, theme) VALUES ($1::uuid, 'dark')",
    )
    .bind(worker_id.as_str().unwrap())
    .execute(&app.owner)
    .await
    .unwrap();
    let (status, body) = acme
        .post(
            "/api/client-auth",
            json!({"action": "removeuser", "user_id": worker_id}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({"ok": true}));
    assert_eq!(
        worker.get("/api/auth/session").await.0,
        StatusCode::UNAUTHORIZED
    );
    let prefs: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM brand_acme.user_preferences WHERE account_id = $1::uuid",
    )
    .bind(worker_id.as_str().unwrap())
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(prefs, 0);
    let (_, list) = acme.get("/api/account-info?action=otheraccountinfo").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(
        audit_actions(&app, "worker@acme.test")
            .await
            .last()
            .unwrap(),
        "user.remove"
    );
}

#[tokio::test]
async fn resetorguserpassword_changes_the_password_and_ends_the_target_sessions() {
    let app = spawn_app().await;
    let admin = app.login("admin@acme.test").await;
    let worker = app.login("worker@acme.test").await;
    let body = |email: &str, pw: &str| json!({"action": "resetorguserpassword", "email": email, "new_password": pw});
    let (status, _) = admin
        .patch("/api/client-auth", body("worker@acme.test", "short"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = admin
        .patch("/api/client-auth", body("", "long-enough-1"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = admin
        .patch("/api/client-auth", body("ghost@acme.test", "long-enough-1"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = admin.patch("/api/client-auth", json!({"action": "other", "email": "worker@acme.test", "new_password": "long-enough-1"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(worker.get("/api/auth/session").await.0, StatusCode::OK);

    let (status, ok) = admin
        .patch(
            "/api/client-auth",
            body("Worker@Acme.test", "long-enough-1"),
        )
        .await;
    assert_eq!((status, ok), (StatusCode::OK, json!({"ok": true})));
    assert_eq!(
        worker.get("/api/auth/session").await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = app
        .client()
        .post(
            "/api/auth/login",
            json!({"email": "worker@acme.test", "password": DEMO_PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    app.login_with("worker@acme.test", "long-enough-1").await;
    // The admin's own session is untouched.
    assert_eq!(admin.get("/api/auth/session").await.0, StatusCode::OK);
    let row: (Option<uuid::Uuid>, String, Option<String>) = sqlx::query_as(
        "SELECT actor_account_id, action, target FROM platform.audit_log WHERE action = 'user.reset_password'",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        row.0.map(|u| u.to_string()),
        admin.user["id"].as_str().map(str::to_string)
    );
    assert_eq!(row.2.as_deref(), Some("worker@acme.test"));
}
