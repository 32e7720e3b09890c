//! Module switches: a tenant's members are refused (403 `module_disabled`)
//! the operations of a plan module their organisation does not have, and
//! nothing else; the platform admin's change applies from the next request;
//! only platform admins change a tenant's modules, with known keys, audited;
//! one tenant's switch changes nothing for another.

use brandops::tenants::{TenantKind, default_modules};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Client, TestApp, TestTenant, gtin, unique};

const PRODUCTS: &str = "/api/product-handler?action=allproducts";

async fn stored_modules(app: &TestApp, t: &TestTenant) -> Vec<String> {
    sqlx::query_scalar("SELECT modules FROM platform.tenants WHERE id = $1")
        .bind(t.tenant.id)
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

/// The default modules of `kind` without `off`.
fn without(kind: TenantKind, off: &str) -> Value {
    json!(
        default_modules(kind)
            .into_iter()
            .filter(|m| m != off)
            .collect::<Vec<_>>()
    )
}

async fn set_modules(platform: &Client, t: &TestTenant, modules: Value) -> Value {
    let (status, tenant) = platform
        .patch(
            &format!("/api/platform/tenants/{}", t.client_id),
            json!({ "modules": modules }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{tenant}");
    tenant
}

fn assert_module_disabled((status, err): &(StatusCode, Value), name: &str) {
    assert_eq!(*status, StatusCode::FORBIDDEN, "{err}");
    assert_eq!(err["code"], "module_disabled", "{err}");
    let message = err["error"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("{name} is not part of your organisation's plan.")),
        "{message}"
    );
    assert!(message.contains("platform administrator"), "{message}");
}

#[tokio::test]
async fn a_tenant_without_a_module_is_refused_its_operations_until_the_platform_admin_adds_it() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let platform = app.login(&app.platform_admin().await).await;
    let admin = app.login(&brand.admin).await;
    assert_eq!(admin.get(PRODUCTS).await.0, StatusCode::OK);

    let tenant = set_modules(&platform, &brand, without(TenantKind::Brand, "products")).await;
    assert!(
        !tenant["modules"]
            .as_array()
            .unwrap()
            .contains(&json!("products"))
    );

    // The same session, its next requests: every products operation is
    // refused, and nothing is written.
    assert_module_disabled(&admin.get(PRODUCTS).await, "Products");
    let create = admin
        .post(
            "/api/products",
            json!({"product_name": "Refused", "skuid": unique("sku"), "gtin": gtin()}),
        )
        .await;
    assert_module_disabled(&create, "Products");
    assert_eq!(app.rows(&brand, "products").await, 0);
    assert_module_disabled(&admin.get("/api/products/export.csv").await, "Products");

    // Operations of other modules and of no module still answer.
    for path in [
        "/api/code-jobs",
        "/api/organisation",
        "/api/account-info?action=otheraccountinfo",
        "/api/me",
    ] {
        let (status, body) = admin.get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
    // The session says which modules the organisation has now.
    let (status, session) = admin.get("/api/auth/session").await;
    assert_eq!(status, StatusCode::OK);
    let modules = session["modules"].as_array().unwrap();
    assert!(!modules.contains(&json!("products")) && modules.contains(&json!("codes")));

    // Enabled again: the very next request goes through.
    set_modules(&platform, &brand, json!(default_modules(TenantKind::Brand))).await;
    assert_eq!(admin.get(PRODUCTS).await.0, StatusCode::OK);
    let (status, created) = admin
        .post(
            "/api/products",
            json!({"product_name": "Allowed", "skuid": unique("sku"), "gtin": gtin()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
}

#[tokio::test]
async fn each_module_guards_the_operations_of_its_tag() {
    let app = TestApp::spawn().await;
    let platform = app.login(&app.platform_admin().await).await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    set_modules(&platform, &brand, json!([])).await;
    for (path, name) in [
        ("/api/code-jobs", "Serialized codes"),
        ("/api/label-templates", "Label printing"),
        ("/api/brand-scans", "Scan analytics"),
        ("/api/reviews", "Scan analytics"),
        ("/api/passports", "Digital product passport"),
        // The ERP: each tag's module (issue 22 on).
        ("/api/lots", "Products"),
        ("/api/locations", "Inventory"),
        ("/api/stock", "Inventory"),
        ("/api/nonconformances", "QA and compliance"),
        ("/api/suppliers", "Procurement"),
        ("/api/customers", "Logistics"),
    ] {
        assert_module_disabled(&admin.get(path).await, name);
    }
    assert_eq!(admin.get("/api/organisation").await.0, StatusCode::OK);
    // A platform admin reading that brand's scans is not a member of it:
    // never refused by its modules.
    let (status, body) = platform
        .get(&format!("/api/brand-scans?company_id={}", brand.client_id))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // A client organisation's own tools are a module too.
    let client = app.client_org().await;
    let client_admin = app.login(&client.admin).await;
    assert_eq!(
        client_admin.get("/api/batch-updates").await.0,
        StatusCode::OK
    );
    set_modules(
        &platform,
        &client,
        without(TenantKind::Client, "client_tools"),
    )
    .await;
    assert_module_disabled(
        &client_admin.get("/api/batch-updates").await,
        "Client code tools",
    );
    assert_eq!(client_admin.get(PRODUCTS).await.0, StatusCode::OK);
}

#[tokio::test]
async fn the_session_and_the_login_carry_the_modules_and_the_catalogue() {
    let app = TestApp::spawn().await;
    let client = app.client_org().await;
    let mut c = app.client();
    let (status, login) = c
        .post(
            "/api/auth/login",
            json!({"email": client.admin, "password": crate::helpers::PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{login}");
    assert_eq!(
        login["modules"],
        json!([
            "products",
            "codes",
            "labels",
            "scans",
            "journey",
            "client_tools"
        ])
    );
    c.csrf = Some(login["csrfToken"].as_str().unwrap().to_string());
    let (_, session) = c.get("/api/auth/session").await;
    assert_eq!(session["modules"], login["modules"]);
    let catalogue = session["moduleCatalogue"].as_array().unwrap();
    let products = catalogue.iter().find(|m| m["key"] == "products").unwrap();
    assert_eq!(products["name"], "Products");
    let ops = products["operations"].as_array().unwrap();
    assert!(ops.contains(&json!("createProduct")) && !ops.contains(&json!("login")));
    let inventory = catalogue.iter().find(|m| m["key"] == "inventory").unwrap();
    let ops = inventory["operations"].as_array().unwrap();
    assert!(ops.contains(&json!("createStockMove")) && !ops.contains(&json!("createProduct")));
    let procurement = catalogue
        .iter()
        .find(|m| m["key"] == "procurement")
        .unwrap();
    assert!(
        procurement["operations"]
            .as_array()
            .unwrap()
            .contains(&json!("createSupplier"))
    );
    // A module with no operations yet lists none.
    let sales = catalogue.iter().find(|m| m["key"] == "sales").unwrap();
    assert_eq!(sales["operations"], json!([]));

    // Platform admins belong to no tenant: no modules, and none refused.
    let platform = app.login(&app.platform_admin().await).await;
    let (_, session) = platform.get("/api/auth/session").await;
    assert_eq!(session["modules"], json!([]));
    assert_eq!(
        platform.get("/api/platform/tenants").await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn only_platform_admins_change_modules_and_each_change_is_audited() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let before = stored_modules(&app, &brand).await;
    let admin = app.login(&brand.admin).await;
    let path = format!("/api/platform/tenants/{}", brand.client_id);
    let (status, err) = admin.patch(&path, json!({"modules": ["products"]})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    assert_eq!(err["code"], "forbidden");
    assert_eq!(stored_modules(&app, &brand).await, before);
    assert_eq!(app.audited(&brand, "tenant.modules").await, 0);

    let platform = app.login(&app.platform_admin().await).await;
    // Stored once each, in the catalogue's order.
    let tenant = set_modules(&platform, &brand, json!(["labels", "products", "labels"])).await;
    assert_eq!(tenant["modules"], json!(["products", "labels"]));
    assert_eq!(stored_modules(&app, &brand).await, ["products", "labels"]);
    let detail: Value = sqlx::query_scalar(
        "SELECT detail FROM platform.audit_log WHERE action = 'tenant.modules' AND tenant_id = $1",
    )
    .bind(brand.tenant.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        detail,
        json!({"before": before, "after": ["products", "labels"]})
    );
    // The same list again changes nothing and records nothing; limits alone
    // record no module change.
    set_modules(&platform, &brand, json!(["products", "labels"])).await;
    let (status, _) = platform.patch(&path, json!({"userLimit": 7})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.audited(&brand, "tenant.modules").await, 1);
    assert_eq!(stored_modules(&app, &brand).await, ["products", "labels"]);
}

#[tokio::test]
async fn bad_module_keys_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let before = stored_modules(&app, &brand).await;
    let platform = app.login(&app.platform_admin().await).await;
    let path = format!("/api/platform/tenants/{}", brand.client_id);
    for body in [
        json!({"modules": ["products", "teleport"]}),
        json!({"modules": ["Products"]}),
        json!({"modules": "products"}),
        json!({"modules": [1]}),
        json!({"userLimit": 5, "modules": ["teleport"]}),
    ] {
        let (status, err) = platform.patch(&path, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert_eq!(err["code"], "invalid_input", "{body}: {err}");
    }
    let (_, err) = platform
        .patch(&path, json!({"modules": ["teleport"]}))
        .await;
    assert!(
        err["error"].as_str().unwrap().contains("'teleport'"),
        "{err}"
    );
    assert_eq!(stored_modules(&app, &brand).await, before);
    let user_limit: i32 =
        sqlx::query_scalar("SELECT user_limit FROM platform.tenants WHERE id = $1")
            .bind(brand.tenant.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(user_limit, 10);
    assert_eq!(app.audited(&brand, "tenant.modules").await, 0);
    let (status, err) = platform
        .patch("/api/platform/tenants/nobody", json!({"modules": []}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
}

#[tokio::test]
async fn switching_one_tenants_module_changes_nothing_for_another() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let b_before = stored_modules(&app, &b).await;
    let platform = app.login(&app.platform_admin().await).await;
    let (admin_a, admin_b) = (app.login(&a.admin).await, app.login(&b.admin).await);
    set_modules(&platform, &a, without(TenantKind::Brand, "products")).await;
    assert_module_disabled(&admin_a.get(PRODUCTS).await, "Products");
    assert_eq!(admin_b.get(PRODUCTS).await.0, StatusCode::OK);
    assert_eq!(stored_modules(&app, &b).await, b_before);
    let (_, session) = admin_b.get("/api/auth/session").await;
    assert!(
        session["modules"]
            .as_array()
            .unwrap()
            .contains(&json!("products"))
    );
    // And back: B's switch leaves A's list as the platform admin set it.
    set_modules(&platform, &b, without(TenantKind::Brand, "dpp")).await;
    assert_eq!(
        json!(stored_modules(&app, &a).await),
        without(TenantKind::Brand, "products")
    );
    assert_eq!(admin_a.get("/api/passports").await.0, StatusCode::OK);
    assert_module_disabled(
        &admin_b.get("/api/passports").await,
        "Digital product passport",
    );
}
