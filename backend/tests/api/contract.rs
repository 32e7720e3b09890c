//! What schemathesis (scripts/schemathesis.sh) found where the server and
//! the contract disagreed: request text fields took numbers and booleans
//! where the contract says string, optional fields took null, a clientId the
//! server accepted could not be onboarded, and well-formed requests that a
//! rule of the caller's organisation refuses were 400s.

use brandops::tenants::TenantKind;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{TestApp, unique};

#[tokio::test]
async fn text_fields_take_strings_only() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, before) = admin.get("/api/organisation").await;

    // `{"name": false}` renamed the organisation to "false".
    for name in [json!(false), json!(12), json!(null), json!(["x"])] {
        let (status, err) = admin
            .put("/api/organisation", json!({ "name": name }))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {err}");
        assert_eq!(err["code"], "invalid_input");
    }
    let (_, after) = admin.get("/api/organisation").await;
    assert_eq!(after["name"], before["name"]);

    let anonymous = app.client();
    let (status, _) = anonymous
        .post(
            "/api/auth/login",
            json!({"email": brand.admin, "password": 12_345_678}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Optional fields are absent or a value; null is not a value.
    let (status, err) = admin
        .post(
            "/api/client-auth",
            json!({"action": "adduser", "email": format!("n@{}.test", brand.client_id.to_lowercase()),
                   "name": "N", "password": "password-1", "role": null}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let platform = app.login(&app.platform_admin().await).await;
    let client_id = unique("nul");
    let (status, err) = platform
        .post(
            "/api/platform/tenants",
            json!({"clientId": client_id, "name": "Null Ltd", "kind": "brand", "userLimit": 5,
                   "modules": null,
                   "admin": {"name": "A", "email": format!("a@{client_id}.test"), "password": "password-1"}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let (_, tenants) = platform.get("/api/platform/tenants").await;
    assert!(
        !tenants.to_string().contains(&client_id),
        "nothing was created"
    );
}

#[tokio::test]
async fn every_client_id_the_server_accepts_can_be_onboarded() {
    let app = TestApp::spawn().await;
    let platform = app.login(&app.platform_admin().await).await;
    let tenant = |client_id: &str, kind: &str| {
        json!({"clientId": client_id, "name": "Long Ltd", "kind": kind, "userLimit": 5,
               "admin": {"name": "A", "email": format!("a@{}.test", client_id.to_lowercase()),
                         "password": "password-1"}})
    };
    // 30 characters is the longest: its database role fits PostgreSQL's 63
    // bytes whatever the database is called.
    for kind in ["brand", "client"] {
        let id = format!("{kind}{}", "x".repeat(30 - kind.len()));
        let (status, body) = platform
            .post("/api/platform/tenants", tenant(&id, kind))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{id}: {body}");
    }
    // A longer one passed the check, and was then refused (or not) depending
    // on the database's name.
    let (status, err) = platform
        .post(
            "/api/platform/tenants",
            tenant(&format!("l{}", "x".repeat(30)), "brand"),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert_eq!(
        err["error"],
        "clientId must be 2 to 30 characters: letters, digits, '-' or '_', starting with a letter."
    );
}

#[tokio::test]
async fn a_role_the_organisation_does_not_have_is_forbidden() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let client = app.tenant_named(&unique("cl"), TenantKind::Client).await;
    let add = |tenant: &str, role: &str| {
        json!({"action": "adduser", "email": format!("{}@{}.test", unique("u"), tenant.to_lowercase()),
               "name": "U", "password": "password-1", "role": role})
    };
    let brand_admin = app.login(&brand.admin).await;
    let client_admin = app.login(&client.admin).await;
    // Roles the contract knows, in an organisation that has none of them: the
    // request is well formed, this caller may not do it (it was a 400).
    let (status, err) = brand_admin
        .post("/api/client-auth", add(&brand.client_id, "employee"))
        .await;
    assert_eq!(
        (status, err["error"].as_str()),
        (
            StatusCode::FORBIDDEN,
            Some("Role must be worker or manager.")
        )
    );
    for role in ["worker", "Manager"] {
        let (status, err) = client_admin
            .post("/api/client-auth", add(&client.client_id, role))
            .await;
        assert_eq!(
            (status, err["error"].as_str()),
            (
                StatusCode::FORBIDDEN,
                Some("Role must be employee in a client organisation.")
            ),
            "{role}"
        );
    }
    // A role the contract does not know is a bad request.
    let (status, _) = brand_admin
        .post("/api/client-auth", add(&brand.client_id, "admin"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
