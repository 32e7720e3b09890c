//! The assembled service: its operations table, its policy and the names
//! the guard relies on, checked against every domain's API.

use std::path::Path;

use poem::http::Method;

use super::api::{Apis, BODY_LIMITS};
use crate::http::access::Access;
use crate::http::operations::{DEFAULT_BODY_LIMIT, Operations};

fn operations() -> Operations {
    Operations::of::<Apis>(BODY_LIMITS).unwrap()
}

async fn resolve(ops: &Operations, method: Method, path: &str) -> Option<&'static str> {
    ops.resolve(&method, &path.parse().unwrap())
        .await
        .map(|o| o.id.0)
}

#[tokio::test]
async fn requests_resolve_to_the_operation_poem_routes_them_to() {
    let ops = operations();
    assert_eq!(resolve(&ops, Method::GET, "/health").await, Some("health"));
    assert_eq!(
        resolve(&ops, Method::POST, "/platform/tenants").await,
        Some("createTenant")
    );
    assert_eq!(
        resolve(&ops, Method::POST, "/platform/tenants/acme/suspend").await,
        Some("suspendTenant")
    );
    assert_eq!(
        resolve(&ops, Method::GET, "/account-info?action=otheraccountinfo").await,
        Some("listOtherAccounts")
    );
    // Wrong method, unknown or longer paths: no operation at all.
    assert_eq!(
        resolve(&ops, Method::DELETE, "/platform/tenants").await,
        None
    );
    assert_eq!(
        resolve(&ops, Method::POST, "/platform/tenants/acme").await,
        None
    );
    assert_eq!(
        resolve(&ops, Method::POST, "/platform/tenants/a/suspend/x").await,
        None
    );
    let long = format!("/{}", "x".repeat(60_000));
    assert_eq!(resolve(&ops, Method::GET, &long).await, None);
}

#[tokio::test]
async fn operations_with_a_request_body_have_a_body_limit() {
    let ops = operations();
    for (method, path, limit) in [
        (Method::POST, "/auth/login", Some(DEFAULT_BODY_LIMIT)),
        (Method::PUT, "/organisation", Some(DEFAULT_BODY_LIMIT)),
        (Method::POST, "/auth/logout", None),
        (Method::GET, "/health", None),
        (
            Method::POST,
            "/epcis/capture",
            Some(crate::epcis::MAX_CAPTURE_BYTES),
        ),
    ] {
        let op = ops.resolve(&method, &path.parse().unwrap()).await.unwrap();
        assert_eq!(op.body_limit, limit, "{method} {path}");
    }
}

#[test]
fn ids_are_unique_and_sorted() {
    let ops = operations();
    let mut sorted = ops.ids().to_vec();
    sorted.dedup();
    assert_eq!(sorted, ops.ids());
    assert!(ops.ids().contains(&"updateOrganisation"));
}

#[test]
fn the_operations_the_guard_names_exist() {
    let ops = operations();
    for id in [crate::http::guard::HEALTH, crate::http::guard::LOGIN] {
        assert!(ops.ids().contains(&id), "{id}");
    }
}

#[tokio::test]
async fn every_operation_has_a_rule_and_every_rule_an_operation() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tenants/access");
    let ops = operations();
    Access::load(&dir, ops.ids()).await.unwrap();
    let mut missing = ops.ids().to_vec();
    missing.push("noSuchOperation");
    let err = Access::load(&dir, &missing[1..]).await.unwrap_err();
    assert!(err.to_string().contains("names no operation"), "{err}");
    let err = Access::load(&dir, &missing).await.unwrap_err();
    assert!(
        err.to_string().contains("noSuchOperation has no rule"),
        "{err}"
    );
}

#[tokio::test]
async fn operations_belong_to_the_module_of_their_tag() {
    let ops = operations();
    for (method, path, module) in [
        (Method::GET, "/product-handler", Some("products")),
        (Method::POST, "/code-jobs", Some("codes")),
        (Method::GET, "/label-templates", Some("labels")),
        (Method::GET, "/brand-scans", Some("scans")),
        (Method::GET, "/reviews", Some("scans")),
        (Method::GET, "/companies", Some("client_tools")),
        (Method::POST, "/auth/login", None),
        (Method::GET, "/organisation", None),
        (Method::GET, "/platform/tenants", None),
        (Method::GET, "/health", None),
    ] {
        let op = ops.resolve(&method, &path.parse().unwrap()).await.unwrap();
        assert_eq!(op.module, module, "{method} {path}");
    }
    assert!(ops.of_module("products").contains(&"createProduct"));
    assert!(ops.of_module("dpp").contains(&"savePassport"));
    assert!(ops.of_module("journey").contains(&"captureEpcis"));
    assert!(ops.of_module("client_tools").contains(&"createBatchUpdate"));
    assert!(ops.of_module("products").contains(&"createLot"));
    assert!(ops.of_module("inventory").contains(&"createStockMove"));
    assert!(ops.of_module("qa").contains(&"createInspection"));
    assert!(ops.of_module("procurement").contains(&"createSupplier"));
    assert!(ops.of_module("logistics").contains(&"createCustomer"));
}
