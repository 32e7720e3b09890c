//! Organisation users (All Users page): the spec's exact calls and answers,
//! the user limit under concurrency, isolation between organisations, audit.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, TestApp, TestTenant, assert_isolated, unique};

fn add(email: &str, role: Option<&str>) -> Value {
    let mut body = json!({"action": "adduser", "email": email, "name": "New Person", "password": "password-1"});
    if let Some(r) = role {
        body["role"] = json!(r);
    }
    body
}

/// An address in the tenant's own mail domain.
fn email_in(tenant: &TestTenant, local: &str) -> String {
    format!("{local}@{}.test", tenant.client_id.to_lowercase())
}

async fn audit_actions(app: &TestApp, target: &str) -> Vec<String> {
    sqlx::query_scalar("SELECT action FROM platform.audit_log WHERE target = $1 ORDER BY id")
        .bind(target)
        .fetch_all(&app.owner)
        .await
        .unwrap()
}

/// Gives the tenant a user limit of `limit` (an owner update, as a platform
/// operator would).
async fn set_user_limit(app: &TestApp, tenant: &TestTenant, limit: i32) {
    sqlx::query("UPDATE platform.tenants SET user_limit = $1 WHERE id = $2")
        .bind(limit)
        .bind(tenant.tenant.id)
        .execute(&app.owner)
        .await
        .unwrap();
}

async fn account_count(app: &TestApp, tenant: &TestTenant) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM platform.accounts WHERE tenant_id = $1")
        .bind(tenant.tenant.id)
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

#[tokio::test]
async fn account_info_lists_the_other_accounts_of_my_organisation_only() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let manager = app.account(&brand, Role::Manager).await;
    let worker = app.account(&brand, Role::Worker).await;
    let other = app.brand().await;
    app.account(&other, Role::Worker).await;

    let admin = app.login(&brand.admin).await;
    let (status, body) = admin.get("/api/account-info?action=otheraccountinfo").await;
    assert_eq!(status, StatusCode::OK);
    let list = body.as_array().unwrap();
    let mut emails: Vec<&str> = list.iter().map(|a| a["email"].as_str().unwrap()).collect();
    // Sorted by name.
    let names: Vec<String> = list
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_lowercase())
        .collect();
    assert!(names.is_sorted(), "{names:?}");
    emails.sort();
    let mut expected = [manager.as_str(), worker.as_str()];
    expected.sort();
    assert_eq!(emails, expected);
    for a in list {
        let mut keys: Vec<&String> = a.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["email", "id", "name", "role"]);
    }
    let (status, _) = admin.get("/api/account-info?action=other").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // An organisation whose admin is alone sees nobody, not the others'.
    let lone = app.brand().await;
    let lone = app.login(&lone.admin).await;
    let (status, body) = lone.get("/api/account-info?action=otheraccountinfo").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!([]));
}

#[tokio::test]
async fn adduser_creates_a_worker_by_default_and_validates_every_field() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let existing_worker = app.account(&brand, Role::Worker).await;
    let other = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let new_worker = email_in(&brand, "new.worker");
    let typed = format!("New.Worker@{}.TEST", brand.client_id);
    let (status, user) = admin.post("/api/client-auth", add(&typed, None)).await;
    assert_eq!(status, StatusCode::CREATED, "{user}");
    assert_eq!(user["email"], new_worker.as_str());
    assert_eq!(user["role"], "worker");
    assert_eq!(user["name"], "New Person");
    assert!(user["id"].is_string());
    let (status, user) = admin
        .post(
            "/api/client-auth",
            add(&email_in(&brand, "boss"), Some("manager")),
        )
        .await;
    assert_eq!(
        (status, user["role"].as_str()),
        (StatusCode::CREATED, Some("manager"))
    );
    // The new user can sign in.
    app.login_with(&new_worker, "password-1").await;

    let x = email_in(&brand, "x");
    let y = email_in(&brand, "y");
    for (body, needle) in [
        (add("not-an-email", None), "Invalid Email format"),
        (add("a@b", None), "Invalid Email format"),
        (add(&x, Some("admin")), "Role must be worker or manager"),
        (
            json!({"action": "adduser", "email": y, "password": "password-1"}),
            "Name is required",
        ),
        (
            json!({"action": "adduser", "name": "Y", "password": "password-1"}),
            "Email is required",
        ),
        (
            json!({"action": "adduser", "email": y, "name": "Y"}),
            "Password is required",
        ),
        (
            json!({"action": "adduser", "email": y, "name": "Y", "password": "short"}),
            "too short",
        ),
    ] {
        let (status, err) = admin.post("/api/client-auth", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert_eq!(err["code"], "invalid_input");
        assert!(err["error"].as_str().unwrap().contains(needle), "{err}");
    }
    let (status, own) = admin
        .post("/api/client-auth", add(&existing_worker, None))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(own["code"], "conflict");
    // Emails are unique platform-wide, case-insensitively; one that belongs
    // to another organisation gets the very same answer, which says nothing
    // of where, or whether, the address is in use.
    let (status, foreign) = admin
        .post("/api/client-auth", add(&other.admin.to_uppercase(), None))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(own, foreign);
    let text = foreign["error"].as_str().unwrap().to_lowercase();
    assert!(
        !text.contains("exist") && !text.contains("organisation"),
        "{foreign}"
    );
    assert_eq!(
        audit_actions(&app, &new_worker).await,
        ["user.add", "auth.login"]
    );
}

#[tokio::test]
async fn only_organisation_admins_may_manage_users() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let manager = app.account(&brand, Role::Manager).await;
    let worker = app.account(&brand, Role::Worker).await;
    let client = app.client_org().await;
    let employee = app.account(&client, Role::Employee).await;
    let platform = app.platform_admin().await;
    let expected =
        json!({"error": "You do not have permission to perform this action.", "code": "forbidden"});
    for email in [&manager, &worker, &employee, &platform] {
        let c = app.login(email).await;
        let (status, body) = c
            .post("/api/client-auth", add(&email_in(&brand, "z"), None))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{email}");
        assert_eq!(body, expected, "{email}");
        let (status, _) = c.patch("/api/client-auth", json!({"action": "resetorguserpassword", "email": worker, "new_password": "hijacked-1"})).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{email}");
        let (status, _) = c.get("/api/account-info?action=otheraccountinfo").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{email}");
    }
    // The worker's password is unchanged, and nobody was added.
    app.login(&worker).await;
    assert_eq!(account_count(&app, &brand).await, 3);
    // A client organisation's admin adds employees.
    let client_admin = app.login(&client.admin).await;
    let (status, user) = client_admin
        .post("/api/client-auth", add(&email_in(&client, "new"), None))
        .await;
    assert_eq!(
        (status, user["role"].as_str()),
        (StatusCode::CREATED, Some("employee"))
    );
}

#[tokio::test]
async fn the_user_limit_answers_with_the_exact_message() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    set_user_limit(&app, &brand, 3).await; // limit 3, 1 account
    let admin = app.login(&brand.admin).await;
    assert_eq!(
        admin
            .post("/api/client-auth", add(&email_in(&brand, "g1"), None))
            .await
            .0,
        StatusCode::CREATED
    );
    assert_eq!(
        admin
            .post("/api/client-auth", add(&email_in(&brand, "g2"), None))
            .await
            .0,
        StatusCode::CREATED
    );
    let (status, body) = admin
        .post("/api/client-auth", add(&email_in(&brand, "g3"), None))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["error"], "You have reached limit to add users.");
    assert_eq!(body["code"], "user_limit");
    assert_eq!(account_count(&app, &brand).await, 3);
}

#[tokio::test]
async fn the_user_limit_holds_under_concurrency() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    set_user_limit(&app, &brand, 3).await; // limit 3, 1 account: 2 free places
    let admin = app.login(&brand.admin).await;
    // Slow every insert down, so that the adds really wait for each other at
    // the limit check instead of happening to run one after the other.
    sqlx::raw_sql(
        "CREATE FUNCTION platform.test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS
             $$ BEGIN PERFORM pg_sleep(0.05); RETURN NEW; END $$;
         CREATE TRIGGER test_slow_insert AFTER INSERT ON platform.accounts
             FOR EACH ROW EXECUTE FUNCTION platform.test_slow_insert();",
    )
    .execute(&app.owner)
    .await
    .unwrap();
    let emails: Vec<String> = (0..12)
        .map(|i| email_in(&brand, &format!("race{i}")))
        .collect();
    let attempts = emails
        .iter()
        .map(|email| admin.post("/api/client-auth", add(email, None)));
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
    assert_eq!(limited, 10, "{results:?}");
    assert_eq!(account_count(&app, &brand).await, 3);
}

#[tokio::test]
async fn removeuser_stays_inside_the_organisation() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    app.account(&brand, Role::Manager).await;
    let worker_email = app.account(&brand, Role::Worker).await;
    let other = app.brand().await;
    let acme = app.login(&brand.admin).await;
    let globex = app.login(&other.admin).await;
    let (_, list) = acme.get("/api/account-info?action=otheraccountinfo").await;
    let worker_id = list
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["email"] == worker_email.as_str())
        .unwrap()["id"]
        .clone();
    let worker = app.login(&worker_email).await;

    // Another organisation's admin never finds the worker.
    let (status, body) = globex
        .post(
            "/api/client-auth",
            json!({"action": "removeuser", "user_id": worker_id}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(worker.get("/api/auth/session").await.0, StatusCode::OK);
    // Nor can one reset the other's passwords.
    let (status, _) = globex.patch("/api/client-auth", json!({"action": "resetorguserpassword", "email": worker_email, "new_password": "hijacked-1"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.login(&worker_email).await;

    // An admin cannot remove themself: a well-formed request this caller
    // may not make (403; it was a 400, which the contract could not explain).
    let me = acme.user["id"].clone();
    let (status, body) = acme
        .post(
            "/api/client-auth",
            json!({"action": "removeuser", "user_id": me}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["error"], "You cannot remove your own account.");
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

    // The worker's preferences live in the tenant's schema and go with them.
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
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {}.user_preferences (account_id, theme) VALUES ($1::uuid, 'dark')",
        brand.schema
    )))
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
    let prefs: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) FROM {}.user_preferences WHERE account_id = $1::uuid",
        brand.schema
    )))
    .bind(worker_id.as_str().unwrap())
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(prefs, 0);
    let (_, list) = acme.get("/api/account-info?action=otheraccountinfo").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(
        audit_actions(&app, &worker_email).await.last().unwrap(),
        "user.remove"
    );
}

#[tokio::test]
async fn resetorguserpassword_changes_the_password_and_ends_the_target_sessions() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let worker_email = app.account(&brand, Role::Worker).await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&worker_email).await;
    let body = |email: &str, pw: &str| json!({"action": "resetorguserpassword", "email": email, "new_password": pw});
    let (status, _) = admin
        .patch("/api/client-auth", body(&worker_email, "short"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = admin
        .patch("/api/client-auth", body("", "long-enough-1"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = admin
        .patch(
            "/api/client-auth",
            body(&email_in(&brand, "ghost"), "long-enough-1"),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = admin
        .patch(
            "/api/client-auth",
            json!({"action": "other", "email": worker_email, "new_password": "long-enough-1"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(worker.get("/api/auth/session").await.0, StatusCode::OK);

    // The email is matched case-insensitively.
    let (status, ok) = admin
        .patch(
            "/api/client-auth",
            body(&worker_email.to_uppercase(), "long-enough-1"),
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
            json!({"email": worker_email, "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    app.login_with(&worker_email, "long-enough-1").await;
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
    assert_eq!(row.2.as_deref(), Some(worker_email.as_str()));
}

#[tokio::test]
async fn another_tenant_neither_sees_nor_changes_an_organisations_users() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let email = format!("{}@canary.test", unique("user"));
            let (status, body) = a
                .post(
                    "/api/client-auth",
                    json!({"action": "adduser", "email": email, "name": "Canary User", "password": "canary-pass-1"}),
                )
                .await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
            email
        },
        // Listing, and resetting the password of the account by its email.
        // (Removal needs the account id, which only its own organisation's
        // list shows.)
        async |caller, email| {
            vec![
                caller
                    .get("/api/account-info?action=otheraccountinfo")
                    .await,
                caller
                    .patch(
                        "/api/client-auth",
                        json!({"action": "resetorguserpassword", "email": email, "new_password": "taken-over-1"}),
                    )
                    .await,
                caller
                    .get("/api/account-info?action=otheraccountinfo")
                    .await,
            ]
        },
    )
    .await;
}

#[tokio::test]
async fn an_admin_cannot_reset_another_admins_password() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let other_admin = app.account(&brand, Role::Admin).await;
    let manager = app.account(&brand, Role::Manager).await;
    let admin = app.login(&brand.admin).await;
    let theirs = app.login(&other_admin).await;
    let reset = |email: &str| json!({"action": "resetorguserpassword", "email": email, "new_password": "taken-over-1"});

    for target in [&other_admin, &brand.admin] {
        let (status, err) = admin.patch("/api/client-auth", reset(target)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{target}: {err}");
        assert_eq!(err["code"], "forbidden");
    }
    // Nothing changed: the other admin's session and password still work.
    assert_eq!(theirs.get("/api/auth/session").await.0, StatusCode::OK);
    app.login(&other_admin).await;
    // The users an admin may add are still theirs to reset.
    let (status, _) = admin.patch("/api/client-auth", reset(&manager)).await;
    assert_eq!(status, StatusCode::OK);
    app.login_with(&manager, "taken-over-1").await;
}
