//! The caller's organisation: reading it, renaming it (all or nothing), and
//! another tenant never seeing or changing it; its name in the session; the
//! dashboard's "Get started" checklist.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{
    Client, TestApp, assert_isolated, create_product, product_with_codes, unique,
};

#[tokio::test]
async fn members_read_their_organisation_and_admins_rename_it() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;

    let (status, org) = worker.get("/api/organisation").await;
    assert_eq!(status, StatusCode::OK, "{org}");
    assert_eq!(org["clientId"], brand.client_id);
    assert_eq!(org["name"], format!("{} Ltd", brand.client_id));
    assert_eq!(org["kind"], "brand");
    assert_eq!(org["status"], "active");
    assert_eq!(org["userCount"], 2);
    assert_eq!(org["usage"][0]["key"], "users");
    assert_eq!(org["usage"][0]["used"], 2);
    assert_eq!(
        (
            &org["usage"][1]["key"],
            &org["usage"][1]["used"],
            &org["usage"][1]["limit"]
        ),
        (&json!("products"), &json!(0), &json!(100))
    );
    assert_eq!(
        (
            &org["usage"][2]["key"],
            &org["usage"][2]["used"],
            &org["usage"][2]["limit"]
        ),
        (&json!("codes"), &json!(0), &json!(1_000_000))
    );

    // The name is trimmed; blank or over-long names are refused and change nothing.
    for bad in ["", "   ", &"n".repeat(201)] {
        let (status, err) = admin.put("/api/organisation", json!({"name": bad})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad:?}: {err}");
        assert_eq!(err["code"], "invalid_input");
        assert_eq!(
            err["error"],
            "Organisation name is required (200 characters at most)."
        );
    }
    let (status, org) = admin
        .put(
            "/api/organisation",
            json!({"name": "  <b>Renamed</b> & Co  "}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{org}");
    assert_eq!(org["name"], "<b>Renamed</b> & Co");
    assert_eq!(worker.get("/api/organisation").await.1["name"], org["name"]);
    let audits: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.audit_log
         WHERE action = 'organisation.rename' AND target = $1 AND detail->>'name' = $2",
    )
    .bind(&brand.client_id)
    .bind("<b>Renamed</b> & Co")
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(audits, 1);

    // Workers may read but not rename.
    let (status, _) = worker
        .put("/api/organisation", json!({"name": "Mine"}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

async fn rename_audits(app: &TestApp, client_id: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM platform.audit_log WHERE action = 'organisation.rename' AND target = $1",
    )
    .bind(client_id)
    .fetch_one(&app.owner)
    .await
    .unwrap()
}

/// The rename and its audit record are one transaction. Before issue 6 the
/// audit row was committed first, on its own, so a rename that then failed
/// left a record of a rename that never happened.
#[tokio::test]
async fn a_rename_that_fails_leaves_no_audit_record() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    // Make the tenant's own table refuse one particular name, so the rename
    // fails after the audit row has been written in the same transaction.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {}.org_settings ADD CONSTRAINT test_refuses_doomed CHECK (display_name <> 'Doomed')",
        brand.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();

    let (status, err) = admin
        .put("/api/organisation", json!({"name": "Doomed"}))
        .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{err}");
    assert_eq!(err["code"], "internal");
    let audits = rename_audits(&app, &brand.client_id).await;
    assert_eq!(
        audits, 0,
        "an audit row records a rename that did not happen"
    );
    assert_eq!(
        admin.get("/api/organisation").await.1["name"],
        format!("{} Ltd", brand.client_id)
    );

    // A rename that succeeds writes both.
    let (status, _) = admin
        .put("/api/organisation", json!({"name": "Fine"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let audits = rename_audits(&app, &brand.client_id).await;
    assert_eq!(audits, 1);
}

#[tokio::test]
async fn another_tenant_neither_sees_nor_changes_the_organisation() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let name = unique("Canary Org ");
            let (status, _) = a.put("/api/organisation", json!({"name": name})).await;
            assert_eq!(status, StatusCode::OK);
            name
        },
        // There is no id to aim at: the organisation is always the caller's
        // own, so the probe reads it, and renaming is the caller's own too.
        async |caller, marker| {
            vec![
                caller.get("/api/organisation").await,
                caller
                    .get(&format!("/api/organisation?clientId={marker}"))
                    .await,
                caller.get("/api/me").await,
            ]
        },
    )
    .await;
}

/// The checklist's steps as `(key, done, path)`.
async fn checklist(c: &Client) -> (Vec<(String, bool, Option<String>)>, bool) {
    let (status, body) = c.get("/api/organisation/get-started").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let steps = body["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["key"].as_str().unwrap().to_string(),
                s["done"].as_bool().unwrap(),
                s["path"].as_str().map(str::to_string),
            )
        })
        .collect();
    (steps, body["dismissed"].as_bool().unwrap())
}

fn step<'a>(
    steps: &'a [(String, bool, Option<String>)],
    key: &str,
) -> &'a (String, bool, Option<String>) {
    steps
        .iter()
        .find(|s| s.0 == key)
        .unwrap_or_else(|| panic!("no step {key}: {steps:?}"))
}

#[tokio::test]
async fn the_session_names_the_organisation_as_its_admins_set_it() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, session) = admin.get("/api/auth/session").await;
    assert_eq!(status, StatusCode::OK, "{session}");
    assert_eq!(
        session["user"]["organisationName"],
        format!("{} Ltd", brand.client_id)
    );
    let (status, _) = admin
        .put("/api/organisation", json!({"name": "<i>Acme</i> & Sons"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, session) = admin.get("/api/auth/session").await;
    assert_eq!(session["user"]["organisationName"], "<i>Acme</i> & Sons");

    // A platform admin belongs to no organisation.
    let platform = app.login(&app.platform_admin().await).await;
    let (status, session) = platform.get("/api/auth/session").await;
    assert_eq!(status, StatusCode::OK, "{session}");
    assert!(
        session["user"].get("organisationName").is_none(),
        "{session}"
    );
}

#[tokio::test]
async fn a_brands_checklist_is_ticked_from_its_own_data() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;

    let (steps, dismissed) = checklist(&admin).await;
    assert!(!dismissed);
    let keys: Vec<_> = steps.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        keys,
        ["product", "codes", "label", "print", "scan", "passport"]
    );
    assert!(steps.iter().all(|s| !s.1), "{steps:?}");
    assert_eq!(
        step(&steps, "product").2.as_deref(),
        Some("/products/Add_product")
    );
    assert_eq!(step(&steps, "print").2.as_deref(), Some("/printer"));
    assert_eq!(step(&steps, "passport").2.as_deref(), Some("/DPP"));

    // A product and a finished code job tick their two steps, for everyone.
    product_with_codes(&admin, 3, None).await;
    let (steps, _) = checklist(&worker).await;
    let done: Vec<_> = steps.iter().filter(|s| s.1).map(|s| s.0.as_str()).collect();
    assert_eq!(done, ["product", "codes"]);
    // A worker may not open /printer or /DPP: those steps have no link.
    assert_eq!(step(&steps, "print").2, None);
    assert_eq!(step(&steps, "passport").2, None);
    assert_eq!(step(&steps, "label").2.as_deref(), Some("/print/lables"));
}

#[tokio::test]
async fn hiding_the_checklist_is_per_user_and_undone() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;

    let (status, body) = admin
        .put("/api/organisation/get-started", json!({"dismissed": true}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["dismissed"], true);
    // Twice is the same.
    let (status, _) = admin
        .put("/api/organisation/get-started", json!({"dismissed": true}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(checklist(&admin).await.1);
    // Another user of the same organisation still sees it.
    assert!(!checklist(&worker).await.1);
    // A new session of the admin (another browser) remembers it.
    assert!(checklist(&app.login(&brand.admin).await).await.1);

    let (status, body) = admin
        .put("/api/organisation/get-started", json!({"dismissed": false}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["dismissed"], false);
    assert!(!checklist(&admin).await.1);

    let (status, err) = admin
        .put("/api/organisation/get-started", json!({"dismissed": "yes"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
}

#[tokio::test]
async fn another_tenants_data_never_ticks_a_step_nor_hides_the_checklist() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let (a, b) = (app.login(&a.admin).await, app.login(&b.admin).await);
    create_product(&a, "Canary <b>product</b>", "CAN").await;
    let (status, _) = a
        .put("/api/organisation/get-started", json!({"dismissed": true}))
        .await;
    assert_eq!(status, StatusCode::OK);

    let (steps, dismissed) = checklist(&a).await;
    assert!(step(&steps, "product").1);
    assert!(dismissed);
    let (steps, dismissed) = checklist(&b).await;
    assert!(steps.iter().all(|s| !s.1), "{steps:?}");
    assert!(!dismissed);
}

#[tokio::test]
async fn a_client_organisation_has_its_own_steps() {
    let app = TestApp::spawn().await;
    let client = app.client_org().await;
    let admin = app.login(&client.admin).await;
    let employee = app.login(&app.account(&client, Role::Employee).await).await;
    let (steps, _) = checklist(&admin).await;
    let keys: Vec<_> = steps.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        keys,
        ["product", "codes", "print", "batch_check", "batch_apply"]
    );
    // An employee may not add products: that step is no link for them.
    let (steps, _) = checklist(&employee).await;
    assert_eq!(step(&steps, "product").2, None);
}
