//! Plan limits: platform admins set a tenant's user limit, product limit and
//! code quota when onboarding it and later; lowering one below current use
//! blocks new additions and deletes nothing; bad values change nothing.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, TestApp};

async fn stored(app: &TestApp, client_id: &str) -> (i32, i32, i64) {
    sqlx::query_as(
        "SELECT user_limit, product_limit, code_quota FROM platform.tenants WHERE client_id = $1",
    )
    .bind(client_id)
    .fetch_one(&app.owner)
    .await
    .unwrap()
}

#[tokio::test]
async fn platform_admins_set_limits_at_onboarding_and_later() {
    let app = TestApp::spawn().await;
    let platform = app.login(&app.platform_admin().await).await;
    let onboard = |client_id: &str, extra: Value| {
        let mut body = json!({"clientId": client_id, "name": "Limits Ltd", "kind": "brand",
            "userLimit": 4,
            "admin": {"name": "Lee Admin", "email": format!("admin@{client_id}.test"),
                      "password": "limits-pass-1"}});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let (status, t) = platform
        .post("/api/platform/tenants", onboard("limitsa", json!({})))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    assert_eq!(
        (&t["userLimit"], &t["productLimit"], &t["codeQuota"]),
        (&json!(4), &json!(100), &json!(1_000_000))
    );
    let (status, t) = platform
        .post(
            "/api/platform/tenants",
            onboard(
                "limitsb",
                json!({"productLimit": 7, "codeQuota": 9_000_000_000i64}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    assert_eq!(stored(&app, "limitsb").await, (4, 7, 9_000_000_000));

    // Later: only the limits given change, and an audit row says what they are.
    let (status, t) = platform
        .patch("/api/platform/tenants/limitsb", json!({"productLimit": 0}))
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(stored(&app, "limitsb").await, (4, 0, 9_000_000_000));
    assert_eq!(t["productLimit"], 0);
    let (status, _) = platform
        .patch(
            "/api/platform/tenants/LIMITSB",
            json!({"userLimit": 9, "codeQuota": 12}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored(&app, "limitsb").await, (9, 0, 12));
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.audit_log
         WHERE action = 'tenant.limits' AND target = 'LIMITSB'
           AND detail = '{\"userLimit\": 9, \"productLimit\": 0, \"codeQuota\": 12}'::jsonb",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(audited, 1);
}

#[tokio::test]
async fn bad_limits_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let platform = app.login(&app.platform_admin().await).await;
    let before = stored(&app, &brand.client_id).await;
    let path = format!("/api/platform/tenants/{}", brand.client_id);
    for (body, field) in [
        (json!({"userLimit": 0}), "userLimit"),
        (json!({"userLimit": 100_001}), "userLimit"),
        (json!({"productLimit": -1}), "productLimit"),
        (json!({"productLimit": 1_000_001}), "productLimit"),
        (json!({"codeQuota": 10_000_000_001i64}), "codeQuota"),
        (json!({"codeQuota": "many"}), "many"),
        (json!({"userLimit": 5, "productLimit": -5}), "productLimit"),
    ] {
        let (status, err) = platform.patch(&path, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert!(
            err["error"].as_str().unwrap_or_default().contains(field),
            "{body}: {err}"
        );
    }
    assert_eq!(stored(&app, &brand.client_id).await, before);
    // An empty change is no change.
    let (status, t) = platform.patch(&path, json!({})).await;
    assert_eq!(
        (status, &t["userLimit"]),
        (StatusCode::OK, &json!(before.0))
    );
    let (status, _) = platform
        .patch(
            "/api/platform/tenants/no-such-tenant",
            json!({"userLimit": 5}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // An organisation admin may not set its own limits.
    let admin = app.login(&brand.admin).await;
    let (status, _) = admin.patch(&path, json!({"userLimit": 1000})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(stored(&app, &brand.client_id).await, before);
}

#[tokio::test]
async fn a_limit_lowered_below_use_blocks_additions_and_deletes_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    for _ in 0..3 {
        app.account(&brand, Role::Worker).await;
    }
    let platform = app.login(&app.platform_admin().await).await;
    let (status, t) = platform
        .patch(
            &format!("/api/platform/tenants/{}", brand.client_id),
            json!({"userLimit": 2}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    assert_eq!(t["userCount"], 4);
    let admin = app.login(&brand.admin).await;
    let (status, err) = admin
        .post(
            "/api/client-auth",
            json!({"action": "adduser", "name": "One More", "email": "one.more@limits.test",
                   "password": PASSWORD, "role": "worker"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    assert_eq!(err["error"], "You have reached limit to add users.");
    let (_, list) = admin.get("/api/account-info?action=otheraccountinfo").await;
    assert_eq!(list.as_array().map(Vec::len), Some(3));
}
