//! Inventory (issue 22): locations, the ledger and its balances, reads,
//! reservations (FEFO), replenishment and valuation. The promise under
//! test: no oversell, no negative stock and no lost move, under any
//! concurrency.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated, assert_refused_to_tenant, create_product,
    slow_inserts, unique,
};

/// A brand with the stock a test needs: its admin, a product, a warehouse
/// with bins A and B.
struct Stock {
    app: TestApp,
    brand: TestTenant,
    admin: Client,
    product: String,
    warehouse: String,
    a: String,
    b: String,
}

async fn location(c: &Client, code: &str, kind: &str, parent: Option<&str>) -> String {
    let mut body = json!({"code": code, "name": format!("Location {code}"), "kind": kind});
    if let Some(p) = parent {
        body["parent_id"] = json!(p);
    }
    let (status, loc) = c.post("/api/locations", body).await;
    assert_eq!(status, StatusCode::CREATED, "{loc}");
    loc["id"].as_str().unwrap().to_string()
}

/// A lot of `product` registered with `status` and `expires_on` (the lot
/// register's own API is another part of the issue: written as the owner).
async fn lot(
    app: &TestApp,
    t: &TestTenant,
    product: &str,
    number: &str,
    expires_on: Option<&str>,
    status: &str,
) -> String {
    let id = uuid::Uuid::new_v4();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {}.lots (id, product_id, number, expires_on, status)
         VALUES ($1, $2::uuid, $3, $4::date, $5)",
        t.schema
    )))
    .bind(id)
    .bind(product)
    .bind(number)
    .bind(expires_on)
    .bind(status)
    .execute(&app.owner)
    .await
    .unwrap();
    id.to_string()
}

async fn set_status(app: &TestApp, t: &TestTenant, lot: &str, status: &str) {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {}.lots SET status = $2 WHERE id = $1::uuid",
        t.schema
    )))
    .bind(lot)
    .bind(status)
    .execute(&app.owner)
    .await
    .unwrap();
}

async fn setup() -> Stock {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let product = create_product(&admin, "Aspirin 500", "ASP").await.id;
    let warehouse = location(&admin, &unique("WH"), "warehouse", None).await;
    let a = location(&admin, &unique("A"), "bin", Some(&warehouse)).await;
    let b = location(&admin, &unique("B"), "bin", Some(&warehouse)).await;
    Stock {
        app,
        brand,
        admin,
        product,
        warehouse,
        a,
        b,
    }
}

fn receipt(product: &str, lot: &str, to: &str, quantity: &str) -> Value {
    json!({"product_id": product, "lot_id": lot, "quantity": quantity, "to_location_id": to,
           "reason": "receipt", "unit_cost": "2.50", "currency": "EUR"})
}

fn transfer(product: &str, lot: &str, from: &str, to: &str, quantity: &str) -> Value {
    json!({"product_id": product, "lot_id": lot, "quantity": quantity,
           "from_location_id": from, "to_location_id": to, "reason": "transfer"})
}

fn out(product: &str, lot: &str, from: &str, quantity: &str) -> Value {
    json!({"product_id": product, "lot_id": lot, "quantity": quantity,
           "from_location_id": from, "reason": "shipment"})
}

async fn mv(c: &Client, body: Value) -> (StatusCode, Value) {
    c.post("/api/stock-moves", body).await
}

async fn moved(c: &Client, body: Value) -> Value {
    let (status, m) = mv(c, body).await;
    assert_eq!(status, StatusCode::CREATED, "{m}");
    m
}

/// On hand and reserved of (product, location, lot), as `GET /api/stock`
/// shows them ("0" when there is no row).
async fn balance(c: &Client, product: &str, location: &str, lot: &str) -> (String, String) {
    let (status, s) = c
        .get(&format!(
            "/api/stock?product_id={product}&location_id={location}&lot_id={lot}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{s}");
    match s["stock"].as_array().unwrap().first() {
        Some(row) => (
            row["on_hand"].as_str().unwrap().to_string(),
            row["reserved"].as_str().unwrap().to_string(),
        ),
        None => ("0".into(), "0".into()),
    }
}

#[tokio::test]
async fn locations_form_a_tree_with_unique_codes() {
    let s = setup().await;
    let code = unique("wh");
    let root = location(&s.admin, &code, "warehouse", None).await;
    let zone = location(&s.admin, "Z1", "zone", Some(&root)).await;
    location(&s.admin, "Z1-BIN-1", "bin", Some(&zone)).await;
    let (status, list) = s.admin.get("/api/locations").await;
    assert_eq!(status, StatusCode::OK);
    let bin = list["locations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["code"] == "Z1-BIN-1")
        .unwrap();
    assert_eq!(bin["path"], format!("{code} / Z1 / Z1-BIN-1"));
    assert_eq!(bin["kind"], "bin");
    // Codes are unique whatever their case.
    let (status, body) = s
        .admin
        .post(
            "/api/locations",
            json!({"code": code.to_uppercase(), "name": "Again", "kind": "warehouse"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "duplicate_code");
    // The parent must be the organisation's.
    let (status, body) = s
        .admin
        .post(
            "/api/locations",
            json!({"code": "ORPHAN", "name": "Orphan", "kind": "bin",
                   "parent_id": uuid::Uuid::new_v4()}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    for bad in [
        json!({"code": "", "name": "x", "kind": "bin"}),
        json!({"code": "has space", "name": "x", "kind": "bin"}),
        json!({"code": "OK1", "name": "", "kind": "bin"}),
        json!({"code": "OK1", "name": "x", "kind": "shelf"}),
    ] {
        let (status, body) = s.admin.post("/api/locations", bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
    }
    assert_eq!(s.app.rows(&s.brand, "locations").await, 6);
    assert_eq!(
        s.app.audited(&s.brand, "inventory.location_created").await,
        6
    );
    // Workers read locations but do not add them.
    let worker = s
        .app
        .login(&s.app.account(&s.brand, Role::Worker).await)
        .await;
    assert_eq!(worker.get("/api/locations").await.0, StatusCode::OK);
    let (status, _) = worker
        .post(
            "/api/locations",
            json!({"code": "W1", "name": "W", "kind": "bin"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn moves_change_the_balances_and_stock_never_goes_negative() {
    let s = setup().await;
    let l1 = lot(
        &s.app,
        &s.brand,
        &s.product,
        "L1",
        Some("2099-01-31"),
        "released",
    )
    .await;
    let worker = s
        .app
        .login(&s.app.account(&s.brand, Role::Worker).await)
        .await;
    let m = moved(&worker, receipt(&s.product, &l1, &s.a, "10")).await;
    assert_eq!(m["quantity"], "10");
    assert_eq!(m["unit_cost"], "2.50");
    assert_eq!(m["lot_number"], "L1");
    moved(&worker, transfer(&s.product, &l1, &s.a, &s.b, "3.5")).await;
    assert_eq!(balance(&worker, &s.product, &s.a, &l1).await.0, "6.5");
    assert_eq!(balance(&worker, &s.product, &s.b, &l1).await.0, "3.5");
    // More than is there: refused, naming the product, the lot and what is
    // available; nothing changed.
    let (status, body) = mv(&worker, out(&s.product, &l1, &s.a, "6.501")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "insufficient_stock");
    let msg = body["error"].as_str().unwrap();
    assert!(
        msg.contains("Aspirin 500") && msg.contains("L1") && msg.contains("6.5 available"),
        "{msg}"
    );
    // Nothing at all at a location: refused too.
    let (status, body) = mv(&worker, transfer(&s.product, &l1, &s.warehouse, &s.a, "1")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "insufficient_stock");
    assert_eq!(balance(&worker, &s.product, &s.a, &l1).await.0, "6.5");
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 2);
    assert_eq!(s.app.audited(&s.brand, "inventory.move").await, 2);
    // Everything out: the row reads as nothing on hand.
    moved(&worker, out(&s.product, &l1, &s.a, "6.5")).await;
    let (_, stock) = worker
        .get(&format!("/api/stock?product_id={}", s.product))
        .await;
    let rows = stock["stock"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{stock}");
    assert_eq!(rows[0]["location_id"], s.b.as_str());
    assert_eq!(rows[0]["available"], "3.5");
    assert_eq!(rows[0]["lot_status"], "released");
    assert_eq!(rows[0]["expires_on"], "2099-01-31");
    // The ledger, newest first.
    let (status, page) = worker
        .get(&format!("/api/stock-moves?product_id={}", s.product))
        .await;
    assert_eq!(status, StatusCode::OK);
    let reasons: Vec<_> = page["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["reason"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(reasons, ["shipment", "transfer", "receipt"]);
}

#[tokio::test]
async fn bad_moves_are_refused_and_change_nothing() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    let other = create_product(&s.admin, "Other", "OTH").await.id;
    let other_lot = lot(&s.app, &s.brand, &other, "O1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "5")).await;
    let base = receipt(&s.product, &l1, &s.a, "1");
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    let without = |k: &str| {
        let mut b = base.clone();
        b.as_object_mut().unwrap().remove(k);
        b
    };
    for (bad, what) in [
        (with("quantity", json!("0")), "zero"),
        (with("quantity", json!("-1")), "negative"),
        (with("quantity", json!("1.2345")), "four places"),
        (with("quantity", json!("1e3")), "exponent"),
        (with("quantity", json!(1.5)), "a number, not a string"),
        (with("quantity", json!("")), "empty"),
        (without("unit_cost"), "a receipt without a cost"),
        (without("currency"), "a receipt without a currency"),
        (with("currency", json!("EURO")), "not ISO 4217"),
        (with("currency", json!("ABC")), "not a currency"),
        (with("currency", json!("eur")), "lower case"),
        (with("unit_cost", json!("-2")), "a negative cost"),
        (with("unit_cost", json!("1e2")), "an exponent cost"),
        (without("to_location_id"), "neither from nor to"),
        (with("reason", json!("gift")), "an unknown reason"),
        (with("lot_id", json!(other_lot)), "another product's lot"),
        (with("reason", json!("transfer")), "a transfer without from"),
        (with("reference", json!("")), "an empty reference"),
    ] {
        let (status, body) = mv(&s.admin, bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{what}: {body}");
        assert_eq!(body["code"], "invalid_input", "{what}");
    }
    let same = transfer(&s.product, &l1, &s.a, &s.a, "1");
    assert_eq!(mv(&s.admin, same).await.0, StatusCode::BAD_REQUEST);
    let mut costed = transfer(&s.product, &l1, &s.a, &s.b, "1");
    costed["unit_cost"] = json!("1");
    costed["currency"] = json!("EUR");
    assert_eq!(mv(&s.admin, costed).await.0, StatusCode::BAD_REQUEST);
    let none = uuid::Uuid::new_v4().to_string();
    for (bad, what) in [
        (with("product_id", json!(none)), "an unknown product"),
        (with("lot_id", json!(none)), "an unknown lot"),
        (with("to_location_id", json!(none)), "an unknown location"),
    ] {
        let (status, body) = mv(&s.admin, bad).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{what}: {body}");
    }
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 1);
    assert_eq!(balance(&s.admin, &s.product, &s.a, &l1).await.0, "5");
}

#[tokio::test]
async fn held_recalled_and_expired_lots_move_only_into_quarantine_or_scrap() {
    let s = setup().await;
    let quarantine = location(&s.admin, "Q", "quarantine", Some(&s.warehouse)).await;
    let scrap = location(&s.admin, "SCRAP", "scrap", None).await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    let old = lot(
        &s.app,
        &s.brand,
        &s.product,
        "OLD",
        Some("2020-01-01"),
        "released",
    )
    .await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "10")).await;
    // A receipt of any lot is recorded (it is where stock comes in).
    moved(&s.admin, receipt(&s.product, &old, &s.a, "4")).await;
    for status in ["held", "recalled", "quarantine", "rejected"] {
        set_status(&s.app, &s.brand, &l1, status).await;
        for body in [
            transfer(&s.product, &l1, &s.a, &s.b, "1"),
            out(&s.product, &l1, &s.a, "1"),
        ] {
            let (code, answer) = mv(&s.admin, body).await;
            assert_eq!(code, StatusCode::CONFLICT, "{status}: {answer}");
            assert_eq!(answer["code"], "lot_not_available");
            assert!(
                answer["error"].as_str().unwrap().contains(status),
                "{answer}"
            );
        }
    }
    // Through the lot register's own way of changing a status, too.
    {
        let mut tx = s.app.state.db.begin_tenant(&s.brand.tenant).await.unwrap();
        brandops::lots::store::change_status(
            &mut tx,
            &brandops::audit::Actor {
                account_id: s.admin.user["id"].as_str().map(|id| id.parse().unwrap()),
                email: s.brand.admin.clone(),
                ip: None,
            },
            "QA",
            l1.parse().unwrap(),
            brandops::lots::LotStatus::Recalled,
            "recall R-1",
        )
        .await
        .unwrap()
        .unwrap();
        tx.commit().await.unwrap();
    }
    let (code, answer) = mv(&s.admin, out(&s.product, &l1, &s.a, "1")).await;
    assert_eq!(code, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["code"], "lot_not_available");
    // Into quarantine and scrap it may go.
    moved(&s.admin, transfer(&s.product, &l1, &s.a, &quarantine, "4")).await;
    moved(
        &s.admin,
        transfer(&s.product, &l1, &quarantine, &scrap, "1"),
    )
    .await;
    // An expired lot too.
    let (code, answer) = mv(&s.admin, transfer(&s.product, &old, &s.a, &s.b, "1")).await;
    assert_eq!(code, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["code"], "lot_not_available");
    assert!(answer["error"].as_str().unwrap().contains("expired"));
    moved(&s.admin, transfer(&s.product, &old, &s.a, &scrap, "4")).await;
    // Released again, it moves.
    set_status(&s.app, &s.brand, &l1, "released").await;
    moved(&s.admin, transfer(&s.product, &l1, &quarantine, &s.b, "3")).await;
    assert_eq!(balance(&s.admin, &s.product, &s.a, &l1).await.0, "6");
    assert_eq!(balance(&s.admin, &s.product, &s.b, &l1).await.0, "3");
    assert_eq!(balance(&s.admin, &s.product, &scrap, &l1).await.0, "1");
}

#[tokio::test]
async fn a_reverse_move_corrects_a_mistake() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "10")).await;
    let wrong = moved(&s.admin, transfer(&s.product, &l1, &s.a, &s.b, "7")).await;
    let mut reverse = transfer(&s.product, &l1, &s.b, &s.a, "7");
    reverse["reason"] = json!("adjustment");
    reverse["reference"] = json!(format!("reverses {}", wrong["id"].as_str().unwrap()));
    moved(&s.admin, reverse).await;
    assert_eq!(balance(&s.admin, &s.product, &s.a, &l1).await.0, "10");
    assert_eq!(balance(&s.admin, &s.product, &s.b, &l1).await.0, "0");
    // The mistake stays in the ledger, with its correction.
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 3);
}

#[tokio::test]
async fn the_ledger_is_append_only_for_the_tenant_role() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "10")).await;
    assert_refused_to_tenant(
        &s.app,
        &s.brand,
        &[
            "UPDATE stock_moves SET quantity = 1",
            "DELETE FROM stock_moves",
            "TRUNCATE stock_moves",
        ],
    )
    .await;
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 1);
    let (_, page) = s.admin.get("/api/stock-moves").await;
    assert_eq!(page["moves"][0]["quantity"], "10");
}

async fn post_keyed(c: &Client, key: &str, body: &Value) -> (StatusCode, Value) {
    post_keyed_to(c, "/api/stock-moves", key, body).await
}

async fn post_keyed_to(c: &Client, path: &str, key: &str, body: &Value) -> (StatusCode, Value) {
    let resp = c
        .http
        .post(c.url(path))
        .header("x-csrf-token", c.csrf.as_deref().unwrap())
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_retry_with_the_same_idempotency_key_moves_once() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    let body = receipt(&s.product, &l1, &s.a, "10");
    let key = uuid::Uuid::new_v4().to_string();
    let first = post_keyed(&s.admin, &key, &body).await;
    assert_eq!(first.0, StatusCode::CREATED, "{}", first.1);
    let again = post_keyed(&s.admin, &key, &body).await;
    assert_eq!(again, first);
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 1);
    assert_eq!(balance(&s.admin, &s.product, &s.a, &l1).await.0, "10");
    // The same key with another request: refused, nothing moved.
    let other = receipt(&s.product, &l1, &s.a, "11");
    let (status, answer) = post_keyed(&s.admin, &key, &other).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["code"], "idempotency_key_reused");
    // A refused request is not kept: once it can succeed, its retry does.
    let key2 = uuid::Uuid::new_v4().to_string();
    let big = out(&s.product, &l1, &s.a, "12");
    assert_eq!(
        post_keyed(&s.admin, &key2, &big).await.0,
        StatusCode::CONFLICT
    );
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "2")).await;
    assert_eq!(
        post_keyed(&s.admin, &key2, &big).await.0,
        StatusCode::CREATED
    );
    assert_eq!(
        post_keyed(&s.admin, &key2, &big).await.0,
        StatusCode::CREATED
    );
    assert_eq!(balance(&s.admin, &s.product, &s.a, &l1).await.0, "0");
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 3);
    // A malformed key is a 400.
    let (status, _) = post_keyed(&s.admin, "has space", &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn concurrent_retries_with_one_key_move_once() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    slow_inserts(&s.app, &s.brand, "stock_moves").await;
    let body = receipt(&s.product, &l1, &s.a, "10");
    let key = uuid::Uuid::new_v4().to_string();
    let answers =
        futures::future::join_all((0..10).map(|_| post_keyed(&s.admin, &key, &body))).await;
    for a in &answers {
        assert_eq!(a.0, StatusCode::CREATED, "{}", a.1);
        assert_eq!(a.1, answers[0].1);
    }
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 1);
    assert_eq!(balance(&s.admin, &s.product, &s.a, &l1).await.0, "10");
}

#[tokio::test]
async fn parallel_moves_out_never_oversell() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "10")).await;
    slow_inserts(&s.app, &s.brand, "stock_moves").await;
    // Moves out of A, and transfers both ways between A and B (the lock
    // order keeps them from deadlocking).
    let bodies: Vec<Value> = (0..30)
        .map(|i| match i % 3 {
            0 => out(&s.product, &l1, &s.a, "1"),
            1 => transfer(&s.product, &l1, &s.a, &s.b, "1"),
            _ => transfer(&s.product, &l1, &s.b, &s.a, "1"),
        })
        .collect();
    let answers = futures::future::join_all(bodies.into_iter().map(|b| mv(&s.admin, b))).await;
    for (status, body) in &answers {
        assert!(
            *status == StatusCode::CREATED
                || (*status == StatusCode::CONFLICT && body["code"] == "insufficient_stock"),
            "{status} {body}"
        );
    }
    let shipped = answers
        .iter()
        .enumerate()
        .filter(|(i, (st, _))| i % 3 == 0 && *st == StatusCode::CREATED)
        .count();
    let (a, _) = balance(&s.admin, &s.product, &s.a, &l1).await;
    let (b, _) = balance(&s.admin, &s.product, &s.b, &l1).await;
    let a: i64 = a.parse().unwrap();
    let b: i64 = b.parse().unwrap();
    assert!(a >= 0 && b >= 0);
    assert_eq!(a + b + shipped as i64, 10, "nothing lost, nothing made up");
    let moves = s.app.rows(&s.brand, "stock_moves").await;
    let created = answers
        .iter()
        .filter(|(st, _)| *st == StatusCode::CREATED)
        .count();
    assert_eq!(
        moves,
        1 + created as i64,
        "every answered move is in the ledger"
    );
}

#[tokio::test]
async fn retried_reservations_with_one_key_reserve_once() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "10")).await;
    slow_inserts(&s.app, &s.brand, "stock_reservations").await;
    let body = json!({"product_id": s.product, "quantity": "4", "reference": "SO-7"});
    let key = uuid::Uuid::new_v4().to_string();
    let answers = futures::future::join_all(
        (0..10).map(|_| post_keyed_to(&s.admin, "/api/stock-reservations", &key, &body)),
    )
    .await;
    for a in &answers {
        assert_eq!(a.0, StatusCode::CREATED, "{}", a.1);
        assert_eq!(a.1, answers[0].1);
    }
    assert_eq!(s.app.rows(&s.brand, "stock_reservations").await, 1);
    let (_, b) = balance(&s.admin, &s.product, &s.a, &l1).await;
    assert_eq!(b, "4", "reserved once");
    // The same key with another request: refused, nothing reserved.
    let other = json!({"product_id": s.product, "quantity": "5", "reference": "SO-7"});
    let (status, answer) = post_keyed_to(&s.admin, "/api/stock-reservations", &key, &other).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["code"], "idempotency_key_reused");
    assert_eq!(s.app.rows(&s.brand, "stock_reservations").await, 1);
}

async fn reserve(c: &Client, product: &str, quantity: &str) -> (StatusCode, Value) {
    c.post(
        "/api/stock-reservations",
        json!({"product_id": product, "quantity": quantity, "reference": "SO-1"}),
    )
    .await
}

#[tokio::test]
async fn reservations_take_the_earliest_expiry_first() {
    let s = setup().await;
    let late = lot(
        &s.app,
        &s.brand,
        &s.product,
        "LATE",
        Some("2099-12-31"),
        "released",
    )
    .await;
    let early = lot(
        &s.app,
        &s.brand,
        &s.product,
        "EARLY",
        Some("2098-01-31"),
        "released",
    )
    .await;
    let never = lot(&s.app, &s.brand, &s.product, "NEVER", None, "released").await;
    let held = lot(
        &s.app,
        &s.brand,
        &s.product,
        "HELD",
        Some("2097-01-01"),
        "released",
    )
    .await;
    let expired = lot(
        &s.app,
        &s.brand,
        &s.product,
        "GONE",
        Some("2020-01-01"),
        "released",
    )
    .await;
    for (l, at) in [
        (&late, &s.a),
        (&early, &s.b),
        (&never, &s.a),
        (&held, &s.a),
        (&expired, &s.a),
    ] {
        moved(&s.admin, receipt(&s.product, l, at, "5")).await;
    }
    set_status(&s.app, &s.brand, &held, "held").await;
    let worker = s
        .app
        .login(&s.app.account(&s.brand, Role::Worker).await)
        .await;
    let (status, r) = reserve(&worker, &s.product, "12").await;
    assert_eq!(status, StatusCode::CREATED, "{r}");
    let lines: Vec<_> = r["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["lot_number"].as_str().unwrap().to_string(),
                l["quantity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            ("EARLY".to_string(), "5".to_string()),
            ("LATE".to_string(), "5".to_string()),
            ("NEVER".to_string(), "2".to_string())
        ]
    );
    assert_eq!(r["lines"][0]["expires_on"], "2098-01-31");
    assert_eq!(balance(&worker, &s.product, &s.a, &never).await.1, "2");
    // 3 usable are left: 4 is refused, and nothing is reserved.
    let (status, body) = reserve(&worker, &s.product, "4").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "insufficient_stock");
    assert_eq!(s.app.rows(&s.brand, "stock_reservations").await, 1);
    // Reserved stock cannot be moved out by others.
    let (status, body) = mv(&worker, out(&s.product, &late, &s.a, "1")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "insufficient_stock");
    moved(&worker, out(&s.product, &never, &s.a, "3")).await;
    // Released, it is available again; twice is refused.
    let path = format!("/api/stock-reservations/{}", r["id"].as_str().unwrap());
    let (status, released) = worker.send(reqwest::Method::DELETE, &path, None).await;
    assert_eq!(status, StatusCode::OK, "{released}");
    assert_eq!(released["status"], "released");
    let (status, body) = worker.send(reqwest::Method::DELETE, &path, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "already_released");
    assert_eq!(
        balance(&worker, &s.product, &s.a, &late).await,
        ("5".into(), "0".into())
    );
    moved(&worker, out(&s.product, &late, &s.a, "5")).await;
    let (_, list) = worker.get("/api/stock-reservations").await;
    assert_eq!(list["reservations"].as_array().unwrap().len(), 0);
    let (_, list) = worker
        .get("/api/stock-reservations?include_released=true")
        .await;
    assert_eq!(list["reservations"].as_array().unwrap().len(), 1);
    assert_eq!(s.app.audited(&s.brand, "inventory.reserved").await, 1);
    assert_eq!(
        s.app
            .audited(&s.brand, "inventory.reservation_released")
            .await,
        1
    );
}

#[tokio::test]
async fn fifty_parallel_reservations_of_ten_on_hand_reserve_exactly_ten() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "10")).await;
    slow_inserts(&s.app, &s.brand, "stock_reservation_lines").await;
    let answers =
        futures::future::join_all((0..50).map(|_| reserve(&s.admin, &s.product, "1"))).await;
    let created = answers
        .iter()
        .filter(|(st, _)| *st == StatusCode::CREATED)
        .count();
    let refused = answers
        .iter()
        .filter(|(st, b)| *st == StatusCode::CONFLICT && b["code"] == "insufficient_stock")
        .count();
    assert_eq!(created, 10, "{answers:?}");
    assert_eq!(refused, 40, "{answers:?}");
    assert_eq!(
        balance(&s.admin, &s.product, &s.a, &l1).await,
        ("10".into(), "10".into())
    );
    assert_eq!(s.app.rows(&s.brand, "stock_reservation_lines").await, 10);
}

#[tokio::test]
async fn replenishment_suggests_topping_up_to_the_maximum() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    let full = create_product(&s.admin, "Full", "FUL").await.id;
    let l2 = lot(&s.app, &s.brand, &full, "F1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "3")).await;
    moved(&s.admin, receipt(&full, &l2, &s.b, "30")).await;
    assert_eq!(
        reserve(&s.admin, &s.product, "1").await.0,
        StatusCode::CREATED
    );
    let rule = |min: &str, max: &str| json!({"location_id": s.warehouse, "min_quantity": min, "max_quantity": max});
    let (status, body) = s
        .admin
        .put(
            &format!("/api/reorder-rules/{}", s.product),
            rule("5", "20"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["min_quantity"], "5");
    let (status, _) = s
        .admin
        .put(&format!("/api/reorder-rules/{full}"), rule("5", "20"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = s
        .admin
        .put(
            &format!("/api/reorder-rules/{}", s.product),
            rule("21", "20"),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = s
        .admin
        .put(
            &format!("/api/reorder-rules/{}", uuid::Uuid::new_v4()),
            rule("1", "2"),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let worker = s
        .app
        .login(&s.app.account(&s.brand, Role::Worker).await)
        .await;
    let (status, _) = worker
        .put(&format!("/api/reorder-rules/{}", s.product), rule("1", "2"))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, r) = worker.get("/api/replenishment").await;
    assert_eq!(status, StatusCode::OK);
    let lines = r["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "{r}");
    assert_eq!(lines[0]["product_id"], s.product.as_str());
    assert_eq!(lines[0]["on_hand"], "3");
    assert_eq!(lines[0]["reserved"], "1");
    // max - (on_hand - reserved) = 20 - (3 - 1)
    assert_eq!(lines[0]["suggested_quantity"], "18");
    let (_, rules) = worker.get("/api/reorder-rules").await;
    assert_eq!(rules["rules"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn valuation_is_fifo_by_receipt_per_currency() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    let costed = |q: &str, cost: &str, cur: &str| {
        let mut b = receipt(&s.product, &l1, &s.a, q);
        b["unit_cost"] = json!(cost);
        b["currency"] = json!(cur);
        b
    };
    moved(&s.admin, costed("10", "2", "EUR")).await;
    moved(&s.admin, costed("5", "3", "EUR")).await;
    moved(&s.admin, costed("5", "1.5", "USD")).await;
    moved(&s.admin, out(&s.product, &l1, &s.a, "12")).await;
    // 8 on hand: the newest receipts, 5 USD at 1.50 and 3 of the EUR ones
    // at 3.
    let (status, v) = s.admin.get("/api/stock/valuation").await;
    assert_eq!(status, StatusCode::OK);
    let p = &v["products"][0];
    assert_eq!(p["on_hand"], "8");
    assert_eq!(p["unvalued_quantity"], "0");
    assert_eq!(
        p["values"],
        json!([
            {"currency": "EUR", "quantity": "3", "value": "9.00"},
            {"currency": "USD", "quantity": "5", "value": "7.50"}
        ])
    );
}

#[tokio::test]
async fn a_move_whose_ledger_row_fails_leaves_nothing() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "10")).await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {}.stock_moves ADD CONSTRAINT test_refuse CHECK (reference IS DISTINCT FROM 'fail')",
        s.brand.schema
    )))
    .execute(&s.app.owner)
    .await
    .unwrap();
    let mut body = transfer(&s.product, &l1, &s.a, &s.b, "4");
    body["reference"] = json!("fail");
    let (status, _) = mv(&s.admin, body).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(balance(&s.admin, &s.product, &s.a, &l1).await.0, "10");
    assert_eq!(balance(&s.admin, &s.product, &s.b, &l1).await.0, "0");
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 1);
    assert_eq!(s.app.audited(&s.brand, "inventory.move").await, 1);
}

#[tokio::test]
async fn another_tenants_ids_never_move_stock() {
    let s = setup().await;
    let l1 = lot(&s.app, &s.brand, &s.product, "L1", None, "released").await;
    moved(&s.admin, receipt(&s.product, &l1, &s.a, "10")).await;
    let (_, r) = reserve(&s.admin, &s.product, "2").await;
    let other = s.app.brand().await;
    let b = s.app.login(&other.admin).await;
    let b_product = create_product(&b, "B's", "BBB").await.id;
    let b_lot = lot(&s.app, &other, &b_product, "BL", None, "released").await;
    let b_loc = location(&b, "BLOC", "bin", None).await;
    for (body, what) in [
        (receipt(&s.product, &l1, &b_loc, "1"), "A's product and lot"),
        (receipt(&b_product, &b_lot, &s.a, "1"), "A's location"),
        (out(&b_product, &b_lot, &s.a, "1"), "out of A's location"),
        (
            transfer(&b_product, &b_lot, &s.a, &b_loc, "1"),
            "from A's location",
        ),
    ] {
        let (status, answer) = mv(&b, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{what}: {answer}");
    }
    let (status, _) = reserve(&b, &s.product, "1").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let path = format!("/api/stock-reservations/{}", r["id"].as_str().unwrap());
    let (status, _) = b.send(reqwest::Method::DELETE, &path, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = b
        .put(
            &format!("/api/reorder-rules/{}", s.product),
            json!({"location_id": b_loc, "min_quantity": "1", "max_quantity": "2"}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(s.app.rows(&other, "stock_moves").await, 0);
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, 1);
    assert_eq!(
        balance(&s.admin, &s.product, &s.a, &l1).await,
        ("10".into(), "2".into())
    );
}

#[tokio::test]
async fn inventory_is_isolated() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let product = create_product(a, "Iso", "ISO").await.id;
            let loc = location(a, &unique("ISO"), "warehouse", None).await;
            // The lot through the owner, in the schema of `a`'s tenant.
            let schema: String = sqlx::query_scalar(
                "SELECT schema_name FROM platform.tenants t
                  JOIN platform.accounts ac ON ac.tenant_id = t.id
                 WHERE ac.email = $1",
            )
            .bind(a.user["email"].as_str().unwrap_or_default())
            .fetch_one(&app.owner)
            .await
            .unwrap();
            let lot_id = uuid::Uuid::new_v4();
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "INSERT INTO {schema}.lots (id, product_id, number) VALUES ($1, $2::uuid, 'ISO1')"
            )))
            .bind(lot_id)
            .bind(&product)
            .execute(&app.owner)
            .await
            .unwrap();
            moved(a, receipt(&product, &lot_id.to_string(), &loc, "5")).await;
            let (_, r) = reserve(a, &product, "1").await;
            assert!(r["id"].is_string(), "{r}");
            a.put(
                &format!("/api/reorder-rules/{product}"),
                json!({"location_id": loc, "min_quantity": "10", "max_quantity": "20"}),
            )
            .await;
            loc
        },
        async |c, loc| {
            vec![
                c.get("/api/locations").await,
                c.get(&format!("/api/stock?location_id={loc}")).await,
                c.get("/api/stock").await,
                c.get(&format!("/api/stock-moves?location_id={loc}")).await,
                c.get("/api/stock-moves").await,
                c.get("/api/stock-reservations?include_released=true").await,
                c.get("/api/stock/valuation").await,
                c.get("/api/reorder-rules").await,
                c.get("/api/replenishment").await,
                c.post(
                    "/api/locations",
                    json!({"code": unique("X"), "name": "x", "kind": "bin", "parent_id": loc}),
                )
                .await,
            ]
        },
    )
    .await;
}
