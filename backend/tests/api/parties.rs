//! Parties (issue 23): suppliers and customers. Validation (GLN check digit,
//! country, group), a GLN unique per organisation even under parallel
//! requests, who may add them, the audit row, search, and isolation.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{TestApp, assert_isolated, unique};

/// A GLN with a valid check digit, different for every call.
fn gln() -> String {
    let body: String = format!("{:012}", rand::random::<u64>() % 1_000_000_000_000);
    let digit = brandops::gs1::check_digit(&body).unwrap();
    format!("{body}{digit}")
}

#[tokio::test]
async fn suppliers_and_customers_are_added_read_and_searched() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let supplier_gln = gln();
    let (status, supplier) = admin
        .post(
            "/api/suppliers",
            json!({"name": "  Pharma Chem GmbH ", "gln": supplier_gln, "email": "Orders@Chem.example",
                   "country": "DE"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{supplier}");
    assert_eq!(supplier["name"], "Pharma Chem GmbH");
    assert_eq!(supplier["gln"], supplier_gln.as_str());
    assert_eq!(supplier["email"], "orders@chem.example");
    assert_eq!(supplier["country"], "DE");
    assert!(supplier.get("group").is_none(), "{supplier}");
    assert_eq!(app.audited(&brand, "supplier.created").await, 1);

    let (status, customer) = admin
        .post(
            "/api/customers",
            json!({"name": "City Pharmacy", "country": "IN", "group": "retail"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{customer}");
    assert_eq!(customer["group"], "retail");
    assert!(customer.get("gln").is_none(), "{customer}");
    assert_eq!(app.audited(&brand, "customer.created").await, 1);

    let id = supplier["id"].as_str().unwrap();
    let (status, one) = admin.get(&format!("/api/suppliers/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{one}");
    assert_eq!(one["name"], "Pharma Chem GmbH");
    // A supplier's id is not a customer's.
    let (status, _) = admin.get(&format!("/api/customers/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = admin.get("/api/suppliers/not-a-uuid").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    admin
        .post(
            "/api/suppliers",
            json!({"name": "Other Metals", "country": "FR"}),
        )
        .await;
    let (_, found) = admin.get("/api/suppliers?q=chem").await;
    let names: Vec<_> = found["suppliers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert_eq!(names, vec![json!("Pharma Chem GmbH")]);
    let (_, found) = admin
        .get(&format!("/api/suppliers?q={}", &supplier_gln[..8]))
        .await;
    assert_eq!(found["suppliers"].as_array().unwrap().len(), 1, "{found}");
    let (_, all) = admin.get("/api/suppliers").await;
    assert_eq!(all["suppliers"].as_array().unwrap().len(), 2, "{all}");
    let (_, customers) = admin.get("/api/customers").await;
    assert_eq!(customers["customers"][0]["name"], "City Pharmacy");
}

#[tokio::test]
async fn bad_parties_are_refused_with_a_message_and_nothing_is_stored() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let valid = gln();
    let wrong_digit = format!("{}{}", &valid[..12], (valid.as_bytes()[12] - b'0' + 1) % 10);
    for (path, body, needle) in [
        (
            "/api/suppliers",
            json!({"name": "A", "gln": wrong_digit, "country": "DE"}),
            "check digit",
        ),
        (
            "/api/suppliers",
            json!({"name": "A", "gln": "12345", "country": "DE"}),
            "13 digits",
        ),
        (
            "/api/suppliers",
            json!({"name": "A", "country": "XX"}),
            "ISO 3166-1",
        ),
        (
            "/api/suppliers",
            json!({"name": "A", "country": "de"}),
            "ISO 3166-1",
        ),
        (
            "/api/suppliers",
            json!({"name": "", "country": "DE"}),
            "name",
        ),
        (
            "/api/suppliers",
            json!({"name": "A\u{0}B", "country": "DE"}),
            "name",
        ),
        (
            "/api/suppliers",
            json!({"name": "A", "country": "DE", "email": "nope"}),
            "Email",
        ),
        (
            "/api/customers",
            json!({"name": "A", "country": "DE", "group": "Big Buyers"}),
            "group",
        ),
        ("/api/customers", json!({"name": "A", "country": 49}), ""),
    ] {
        let (status, err) = admin.post(path, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert!(
            err["error"].as_str().unwrap_or_default().contains(needle),
            "{body}: {err}"
        );
    }
    assert_eq!(app.rows(&brand, "suppliers").await, 0);
    assert_eq!(app.rows(&brand, "customers").await, 0);

    // Markup is kept as text, never interpreted (the pages render text).
    let (status, s) = admin
        .post(
            "/api/suppliers",
            json!({"name": "<img src=x onerror=alert(1)>", "country": "DE"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    assert_eq!(s["name"], "<img src=x onerror=alert(1)>");
}

#[tokio::test]
async fn a_gln_names_one_supplier_even_when_two_are_added_at_once() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let shared = gln();
    let answers = futures::future::join_all((0..8).map(|i| {
        let admin = &admin;
        let body = json!({"name": format!("Dup {i}"), "gln": shared, "country": "DE"});
        async move { admin.post("/api/suppliers", body).await }
    }))
    .await;
    let created = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{answers:?}");
    for (status, err) in answers.iter().filter(|(s, _)| *s != StatusCode::CREATED) {
        assert_eq!(*status, StatusCode::CONFLICT, "{err}");
        assert_eq!(err["code"], "duplicate_gln", "{err}");
    }
    assert_eq!(app.rows(&brand, "suppliers").await, 1);
    assert_eq!(app.audited(&brand, "supplier.created").await, 1);
    // The same GLN may be a customer's too (the tables are separate), and
    // another organisation's.
    let (status, _) = admin
        .post(
            "/api/customers",
            json!({"name": "Same place", "gln": shared, "country": "DE"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let other = app.login(&app.brand().await.admin).await;
    let (status, _) = other
        .post(
            "/api/suppliers",
            json!({"name": "Elsewhere", "gln": shared, "country": "DE"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn workers_read_parties_but_do_not_add_them() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let manager = app.login(&app.account(&brand, Role::Manager).await).await;
    let (status, _) = manager
        .post(
            "/api/customers",
            json!({"name": "By manager", "country": "GB"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, list) = worker.get("/api/customers").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["customers"].as_array().unwrap().len(), 1);
    for path in ["/api/customers", "/api/suppliers"] {
        let (status, _) = worker
            .post(path, json!({"name": "By worker", "country": "GB"}))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
    }
    assert_eq!(app.rows(&brand, "suppliers").await, 0);
}

#[tokio::test]
async fn parties_are_isolated() {
    let app = TestApp::spawn().await;
    let ids = std::sync::OnceLock::<(String, String)>::new();
    assert_isolated(
        &app,
        async |a| {
            let name = unique("Iso party");
            let (_, s) = a
                .post("/api/suppliers", json!({"name": name, "country": "DE"}))
                .await;
            let (_, c) = a
                .post("/api/customers", json!({"name": name, "country": "DE"}))
                .await;
            let pair = (
                s["id"].as_str().unwrap().to_string(),
                c["id"].as_str().unwrap().to_string(),
            );
            ids.set(pair).unwrap();
            name
        },
        async |c, _| {
            let (supplier, customer) = ids.get().unwrap();
            vec![
                c.get("/api/suppliers").await,
                c.get("/api/customers").await,
                c.get(&format!("/api/suppliers/{supplier}")).await,
                c.get(&format!("/api/customers/{customer}")).await,
            ]
        },
    )
    .await;
}
