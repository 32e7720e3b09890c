//! The caller's organisation: reading it, renaming it (all or nothing), and
//! another tenant never seeing or changing it.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{TestApp, assert_isolated, unique};

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
