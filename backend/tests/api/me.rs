//! The signed-in user's own profile, password and preferences.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{PASSWORD, TestApp, assert_isolated};

#[tokio::test]
async fn the_profile_is_the_callers_own() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let manager = app.account(&brand, Role::Manager).await;
    let c = app.login(&manager).await;
    let (status, me) = c.get("/api/me").await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["email"], manager);
    assert_eq!(me["role"], "manager");
    assert_eq!(me["clientId"], brand.client_id);
    assert_eq!(me["organisationName"], format!("{} Ltd", brand.client_id));
    assert_eq!(me["id"], c.user["id"]);
    assert!(me["createdAt"].is_string());

    // A platform admin has no organisation: the fields are absent, not null.
    let platform = app.login(&app.platform_admin().await).await;
    let (status, me) = platform.get("/api/me").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["role"], "platform_admin");
    assert!(
        me.get("clientId").is_none() && me.get("organisationName").is_none(),
        "{me}"
    );
}

#[tokio::test]
async fn changing_ones_password_needs_the_current_one_and_ends_other_sessions() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let worker = app.account(&brand, Role::Worker).await;
    let here = app.login(&worker).await;
    let elsewhere = app.login(&worker).await;
    let change = |current: &str, new: &str| json!({"currentPassword": current, "newPassword": new});

    let (status, err) = here
        .put(
            "/api/me/password",
            change("not-my-password", "brand-new-pass"),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(err["code"], "wrong_password");
    let (status, err) = here
        .put("/api/me/password", change(PASSWORD, "short"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["code"], "invalid_input");
    assert_eq!(elsewhere.get("/api/auth/session").await.0, StatusCode::OK);

    let (status, _) = here
        .put("/api/me/password", change(PASSWORD, "brand-new-pass"))
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(here.get("/api/auth/session").await.0, StatusCode::OK);
    assert_eq!(
        elsewhere.get("/api/auth/session").await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = app
        .client()
        .post(
            "/api/auth/login",
            json!({"email": worker, "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    app.login_with(&worker, "brand-new-pass").await;
    let audits: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.audit_log WHERE action = 'user.change_own_password' AND target = $1",
    )
    .bind(&worker)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(audits, 1);
}

#[tokio::test]
async fn preferences_are_saved_per_user_and_validated() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let manager = app.login(&app.account(&brand, Role::Manager).await).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;

    let defaults = json!({"theme": "system", "landingPage": "/"});
    assert_eq!(admin.get("/api/me/preferences").await.1, defaults);
    let (status, saved) = admin
        .put(
            "/api/me/preferences",
            json!({"theme": "dark", "landingPage": " /products "}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved, json!({"theme": "dark", "landingPage": "/products"}));
    assert_eq!(admin.get("/api/me/preferences").await.1, saved);
    // Another user of the same organisation keeps their own.
    assert_eq!(manager.get("/api/me/preferences").await.1, defaults);

    for bad in [
        json!({"theme": "dark", "landingPage": "https://evil.example/"}),
        json!({"theme": "dark", "landingPage": "/<script>"}),
        json!({"theme": "dark", "landingPage": format!("/{}", "a".repeat(200))}),
    ] {
        let (status, err) = manager.put("/api/me/preferences", bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {err}");
        assert_eq!(err["code"], "invalid_input");
    }
    let (status, _) = manager
        .put(
            "/api/me/preferences",
            json!({"theme": "neon", "landingPage": "/"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(manager.get("/api/me/preferences").await.1, defaults);

    // The spec gives workers no /settings: they read the defaults, save nothing.
    let (status, _) = worker
        .put(
            "/api/me/preferences",
            json!({"theme": "dark", "landingPage": "/"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(worker.get("/api/me/preferences").await.1, defaults);

    // Platform admins have no tenant to keep them in: always the defaults.
    let platform = app.login(&app.platform_admin().await).await;
    assert_eq!(platform.get("/api/me/preferences").await.1, defaults);
    let (status, err) = platform
        .put(
            "/api/me/preferences",
            json!({"theme": "dark", "landingPage": "/"}),
        )
        .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("forbidden"))
    );
}

#[tokio::test]
async fn another_tenant_neither_sees_nor_changes_ones_preferences() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let (status, _) = a
                .put(
                    "/api/me/preferences",
                    json!({"theme": "dark", "landingPage": "/canary-landing-page"}),
                )
                .await;
            assert_eq!(status, StatusCode::OK);
            "/canary-landing-page".to_string()
        },
        async |caller, _| {
            vec![
                caller.get("/api/me/preferences").await,
                caller.get("/api/me").await,
            ]
        },
    )
    .await;
}
