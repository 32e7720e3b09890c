//! Procurement (issue 23): purchase orders and every transition they
//! refuse, receipts into lots and the ledger (all or nothing, never beyond
//! the 5% tolerance, also in parallel), supplier bills and the three-way
//! match, and who may do what.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated, create_product, slow_inserts, slow_updates,
    unique,
};

/// Adds a supplier through the parties API.
async fn supplier(c: &Client, name: &str) -> String {
    let (status, s) = c
        .post("/api/suppliers", json!({"name": name, "country": "DE"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    s["id"].as_str().unwrap().to_string()
}

/// A brand ready to buy: its admin, a supplier, two products (the second
/// requires inspection) and a warehouse.
struct Buyer {
    app: TestApp,
    brand: TestTenant,
    admin: Client,
    supplier: String,
    plain: String,
    inspected: String,
    warehouse: String,
}

async fn setup() -> Buyer {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let supplier = supplier(&admin, "Acme Chemicals").await;
    let plain = create_product(&admin, "Aspirin 500", "ASP").await.id;
    let (status, p) = admin
        .post(
            "/api/products",
            json!({"product_name": "Serum", "skuid": unique("SER"), "gtin": crate::helpers::gtin(),
                   "requires_inspection": true}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    let inspected = p["id"].as_str().unwrap().to_string();
    let warehouse = location(&admin, &unique("WH")).await;
    Buyer {
        app,
        brand,
        admin,
        supplier,
        plain,
        inspected,
        warehouse,
    }
}

async fn location(c: &Client, code: &str) -> String {
    let (status, loc) = c
        .post(
            "/api/locations",
            json!({"code": code, "name": "Goods in", "kind": "warehouse"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{loc}");
    loc["id"].as_str().unwrap().to_string()
}

/// Creates a draft order of `lines` (product, quantity, unit price).
async fn order(c: &Client, supplier: &str, lines: &[(&str, &str, &str)]) -> Value {
    let (status, o) = c
        .post(
            "/api/purchase-orders",
            json!({"supplier_id": supplier, "expected_on": "2030-01-15", "currency": "EUR",
                   "lines": lines.iter().map(|(p, q, u)| json!({"product_id": p, "quantity": q, "unit_price": u})).collect::<Vec<_>>()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{o}");
    o
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

fn line(o: &Value, i: usize) -> String {
    o["lines"][i]["id"].as_str().unwrap().to_string()
}

async fn step(c: &Client, order: &str, what: &str) -> (StatusCode, Value) {
    c.post(&format!("/api/purchase-orders/{order}/{what}"), json!({}))
        .await
}

async fn confirmed(c: &Client, supplier: &str, lines: &[(&str, &str, &str)]) -> Value {
    let o = order(c, supplier, lines).await;
    let (status, body) = step(c, &id(&o), "confirm").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    o
}

fn receipt(location: &str, lines: &[(&str, &str, &str)]) -> Value {
    json!({"location_id": location,
           "lines": lines.iter().map(|(l, q, lot)| json!({"line_id": l, "quantity": q, "lot_number": lot})).collect::<Vec<_>>()})
}

async fn receive(c: &Client, order: &str, body: Value) -> (StatusCode, Value) {
    c.post(&format!("/api/purchase-orders/{order}/receipts"), body)
        .await
}

async fn get_order(c: &Client, order: &str) -> Value {
    let (status, o) = c.get(&format!("/api/purchase-orders/{order}")).await;
    assert_eq!(status, StatusCode::OK, "{o}");
    o
}

async fn bill(
    c: &Client,
    order: &str,
    number: &str,
    lines: &[(&str, &str, &str)],
) -> (StatusCode, Value) {
    c.post(
        "/api/supplier-bills",
        json!({"purchase_order_id": order, "number": number,
               "lines": lines.iter().map(|(l, q, u)| json!({"line_id": l, "quantity": q, "unit_price": u})).collect::<Vec<_>>()}),
    )
    .await
}

async fn approve(c: &Client, bill: &str, body: Value) -> (StatusCode, Value) {
    c.post(&format!("/api/supplier-bills/{bill}/approve"), body)
        .await
}

#[tokio::test]
async fn a_draft_order_keeps_money_as_decimal_strings_and_refuses_bad_input() {
    let b = setup().await;
    let o = order(
        &b.admin,
        &b.supplier,
        &[(&b.plain, "100", "2.5"), (&b.inspected, "0.5", "10.125")],
    )
    .await;
    assert_eq!(o["status"], "draft");
    assert!(o["number"].as_str().unwrap().starts_with("PO-"), "{o}");
    assert_eq!(o["supplier_name"], "Acme Chemicals");
    assert_eq!(o["currency"], "EUR");
    assert_eq!(o["total"], "255.0625");
    assert_eq!(o["lines"][0]["quantity"], "100");
    assert_eq!(o["lines"][0]["unit_price"], "2.50");
    assert_eq!(o["lines"][0]["received_quantity"], "0");
    assert_eq!(o["lines"][0]["receivable_quantity"], "105");
    assert_eq!(o["lines"][1]["unit_price"], "10.125");
    assert_eq!(
        b.app.audited(&b.brand, "procurement.order_created").await,
        1
    );

    let good_line = json!({"product_id": b.plain, "quantity": "1", "unit_price": "1"});
    let base = json!({"supplier_id": b.supplier, "expected_on": "2030-01-15", "currency": "EUR", "lines": [good_line]});
    let with = |key: &str, value: Value| {
        let mut body = base.clone();
        body[key] = value;
        body
    };
    let other_brand = b.app.brand().await;
    let other = b.app.login(&other_brand.admin).await;
    let foreign_product = create_product(&other, "Theirs", "THR").await.id;
    for (body, want, what) in [
        (
            with("currency", json!("eur")),
            StatusCode::BAD_REQUEST,
            "currency",
        ),
        (
            with("lines", json!([])),
            StatusCode::BAD_REQUEST,
            "no lines",
        ),
        (
            with(
                "lines",
                json!([good_line, {"product_id": b.plain, "quantity": 5, "unit_price": "1"}]),
            ),
            StatusCode::BAD_REQUEST,
            "a float quantity",
        ),
        (
            with(
                "lines",
                json!([good_line, {"product_id": b.plain, "quantity": "1", "unit_price": "-1"}]),
            ),
            StatusCode::BAD_REQUEST,
            "a negative price",
        ),
        (
            with(
                "lines",
                json!([good_line, {"product_id": b.plain, "quantity": "0", "unit_price": "1"}]),
            ),
            StatusCode::BAD_REQUEST,
            "a zero quantity",
        ),
        (
            with(
                "lines",
                json!([good_line, {"product_id": foreign_product, "quantity": "1", "unit_price": "1"}]),
            ),
            StatusCode::NOT_FOUND,
            "another tenant's product",
        ),
        (
            with("supplier_id", json!(uuid::Uuid::new_v4())),
            StatusCode::NOT_FOUND,
            "an unknown supplier",
        ),
        (
            with("expected_on", json!("2030-02-30")),
            StatusCode::BAD_REQUEST,
            "a bad date",
        ),
    ] {
        let (status, answer) = b.admin.post("/api/purchase-orders", body).await;
        assert_eq!(status, want, "{what}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{answer}"
        );
    }
    assert_eq!(b.app.rows(&b.brand, "purchase_orders").await, 1);
    assert_eq!(b.app.rows(&b.brand, "purchase_order_lines").await, 2);
}

#[tokio::test]
async fn every_refused_transition_answers_invalid_transition() {
    let b = setup().await;
    // draft: no receipt.
    let draft = order(&b.admin, &b.supplier, &[(&b.plain, "10", "1")]).await;
    let (status, answer) = receive(
        &b.admin,
        &id(&draft),
        receipt(&b.warehouse, &[(&line(&draft, 0), "1", "L1")]),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["code"], "invalid_transition");

    // confirmed: not confirmed again.
    let (status, c) = step(&b.admin, &id(&draft), "confirm").await;
    assert_eq!(
        (status, c["status"].as_str()),
        (StatusCode::OK, Some("confirmed"))
    );
    let (status, answer) = step(&b.admin, &id(&draft), "confirm").await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("invalid_transition"))
    );

    // cancelled (from confirmed): nothing more.
    let (status, c) = step(&b.admin, &id(&draft), "cancel").await;
    assert_eq!(
        (status, c["status"].as_str()),
        (StatusCode::OK, Some("cancelled")),
        "{c}"
    );
    for what in ["confirm", "cancel"] {
        let (status, answer) = step(&b.admin, &id(&draft), what).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::CONFLICT, Some("invalid_transition")),
            "{what}"
        );
    }
    let (status, answer) = receive(
        &b.admin,
        &id(&draft),
        receipt(&b.warehouse, &[(&line(&draft, 0), "1", "L1")]),
    )
    .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("invalid_transition"))
    );

    // A draft may be cancelled too.
    let other = order(&b.admin, &b.supplier, &[(&b.plain, "10", "1")]).await;
    let (status, _) = step(&b.admin, &id(&other), "cancel").await;
    assert_eq!(status, StatusCode::OK);

    // partially_received and received: neither confirmed nor cancelled.
    let o = confirmed(&b.admin, &b.supplier, &[(&b.plain, "10", "1")]).await;
    let (status, r) = receive(
        &b.admin,
        &id(&o),
        receipt(&b.warehouse, &[(&line(&o, 0), "4", "P1")]),
    )
    .await;
    assert_eq!(
        (status, r["order_status"].as_str()),
        (StatusCode::CREATED, Some("partially_received")),
        "{r}"
    );
    for what in ["confirm", "cancel"] {
        let (status, answer) = step(&b.admin, &id(&o), what).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::CONFLICT, Some("invalid_transition")),
            "{what}"
        );
    }
    let (status, r) = receive(
        &b.admin,
        &id(&o),
        receipt(&b.warehouse, &[(&line(&o, 0), "6", "P1")]),
    )
    .await;
    assert_eq!(
        (status, r["order_status"].as_str()),
        (StatusCode::CREATED, Some("received")),
        "{r}"
    );
    for what in ["confirm", "cancel"] {
        let (status, answer) = step(&b.admin, &id(&o), what).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::CONFLICT, Some("invalid_transition")),
            "{what}"
        );
    }
    assert_eq!(get_order(&b.admin, &id(&o)).await["status"], "received");
    // Unknown orders: 404.
    let (status, _) = step(&b.admin, &uuid::Uuid::new_v4().to_string(), "confirm").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The list filters by status.
    let (_, list) = b.admin.get("/api/purchase-orders?status=cancelled").await;
    let ids: Vec<_> = list["orders"].as_array().unwrap().iter().map(id).collect();
    assert_eq!(ids.len(), 2, "{list}");
    assert!(ids.contains(&id(&draft)) && ids.contains(&id(&other)));
    let (_, list) = b.admin.get("/api/purchase-orders").await;
    assert_eq!(list["orders"].as_array().unwrap().len(), 3);
    assert_eq!(
        b.app.audited(&b.brand, "procurement.order_confirmed").await,
        2
    );
    assert_eq!(
        b.app.audited(&b.brand, "procurement.order_cancelled").await,
        2
    );
    assert_eq!(b.app.audited(&b.brand, "procurement.received").await, 2);
}

#[tokio::test]
async fn parallel_confirms_and_cancels_take_effect_once() {
    let b = setup().await;
    // Each step's UPDATE is slowed: without the order's row lock, all
    // twenty would read `draft` and all would succeed.
    slow_updates(&b.app, &b.brand, "purchase_orders").await;
    for what in ["confirm", "cancel"] {
        let o = order(&b.admin, &b.supplier, &[(&b.plain, "10", "1")]).await;
        let o = id(&o);
        let answers = futures::future::join_all((0..20).map(|_| step(&b.admin, &o, what))).await;
        let ok = answers.iter().filter(|(s, _)| *s == StatusCode::OK).count();
        let refused = answers
            .iter()
            .filter(|(s, a)| *s == StatusCode::CONFLICT && a["code"] == "invalid_transition")
            .count();
        assert_eq!((ok, refused), (1, 19), "{what}: {answers:?}");
    }
    assert_eq!(
        b.app.audited(&b.brand, "procurement.order_confirmed").await,
        1
    );
    assert_eq!(
        b.app.audited(&b.brand, "procurement.order_cancelled").await,
        1
    );
}

#[tokio::test]
async fn a_receipt_creates_lots_moves_stock_at_the_order_price_and_advances_the_order() {
    let b = setup().await;
    let o = confirmed(
        &b.admin,
        &b.supplier,
        &[(&b.plain, "10", "2.5"), (&b.inspected, "4", "7")],
    )
    .await;
    let (status, r) = b
        .admin
        .post(
            &format!("/api/purchase-orders/{}/receipts", id(&o)),
            json!({"location_id": b.warehouse, "lines": [
                {"line_id": line(&o, 0), "quantity": "6", "lot_number": "A-1", "expires_on": "2031-05-31"},
                {"line_id": line(&o, 1), "quantity": "4", "lot_number": "S-1"},
            ]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{r}");
    assert_eq!(r["order_status"], "partially_received");
    assert_eq!(r["lines"][0]["lot_status"], "released");
    assert_eq!(r["lines"][0]["expires_on"], "2031-05-31");
    assert_eq!(r["lines"][1]["lot_status"], "quarantine");
    // The moves: receipts at the line's price, in the order's currency.
    let (_, moves) = b
        .admin
        .get(&format!("/api/stock-moves?location_id={}", b.warehouse))
        .await;
    let moves = moves["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    let plain = moves
        .iter()
        .find(|m| m["product_id"] == b.plain.as_str())
        .unwrap();
    assert_eq!(plain["reason"], "receipt");
    assert_eq!(plain["unit_cost"], "2.50");
    assert_eq!(plain["currency"], "EUR");
    assert_eq!(plain["quantity"], "6");
    assert_eq!(plain["reference"], o["number"]);
    assert_eq!(plain["id"], r["lines"][0]["move_id"]);
    let (_, stock) = b
        .admin
        .get(&format!("/api/stock?product_id={}", b.plain))
        .await;
    assert_eq!(stock["stock"][0]["on_hand"], "6");

    // A second receipt extends the lot (no expiry given: it keeps its own).
    let (status, r2) = receive(
        &b.admin,
        &id(&o),
        receipt(&b.warehouse, &[(&line(&o, 0), "4", "A-1")]),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{r2}");
    assert_eq!(r2["order_status"], "received");
    assert_eq!(r2["lines"][0]["lot_id"], r["lines"][0]["lot_id"]);
    assert_eq!(b.app.rows(&b.brand, "lots").await, 2);
    let (_, stock) = b
        .admin
        .get(&format!("/api/stock?product_id={}", b.plain))
        .await;
    assert_eq!(stock["stock"][0]["on_hand"], "10");

    // The order shows it all.
    let detail = get_order(&b.admin, &id(&o)).await;
    assert_eq!(detail["status"], "received");
    assert_eq!(detail["lines"][0]["received_quantity"], "10");
    assert_eq!(detail["lines"][0]["receivable_quantity"], "0.5");
    assert_eq!(detail["receipts"].as_array().unwrap().len(), 2);
    assert_eq!(detail["receipts"][0]["lines"][1]["lot_number"], "S-1");

    // An existing lot given another expiry date: refused, nothing changed.
    let o2 = confirmed(&b.admin, &b.supplier, &[(&b.plain, "10", "2.5")]).await;
    let (status, answer) = b
        .admin
        .post(
            &format!("/api/purchase-orders/{}/receipts", id(&o2)),
            json!({"location_id": b.warehouse, "lines": [
                {"line_id": line(&o2, 0), "quantity": "1", "lot_number": "A-1", "expires_on": "2032-01-01"},
            ]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("2031-05-31"),
        "{answer}"
    );
    assert_eq!(b.app.rows(&b.brand, "stock_moves").await, 3);
    assert_eq!(b.app.audited(&b.brand, "lot.created").await, 2);
}

#[tokio::test]
async fn one_bad_line_changes_nothing() {
    let b = setup().await;
    let o = confirmed(
        &b.admin,
        &b.supplier,
        &[(&b.plain, "10", "1"), (&b.inspected, "10", "1")],
    )
    .await;
    let other = confirmed(&b.admin, &b.supplier, &[(&b.plain, "10", "1")]).await;
    let foreign = b.app.brand().await;
    let foreign_admin = b.app.login(&foreign.admin).await;
    let foreign_location = location(&foreign_admin, "FOREIGN").await;
    let good = (line(&o, 0), "5", "G-1");
    for (second, location, want, code) in [
        (
            (line(&o, 1), "11", "B-1"),
            b.warehouse.clone(),
            StatusCode::CONFLICT,
            "over_receipt",
        ),
        (
            (line(&other, 0), "1", "B-1"),
            b.warehouse.clone(),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            (line(&o, 1), "1", "bad lot"),
            b.warehouse.clone(),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            (line(&o, 1), "1.0001", "B-1"),
            b.warehouse.clone(),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            (line(&o, 0), "1", "B-1"),
            b.warehouse.clone(),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            (line(&o, 1), "1", "B-1"),
            foreign_location.clone(),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
    ] {
        let (status, answer) = receive(
            &b.admin,
            &id(&o),
            receipt(
                &location,
                &[(&good.0, good.1, good.2), (&second.0, second.1, second.2)],
            ),
        )
        .await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (want, Some(code)),
            "{answer}"
        );
    }
    for table in [
        "lots",
        "stock_moves",
        "stock_balances",
        "purchase_receipts",
        "purchase_receipt_lines",
    ] {
        assert_eq!(b.app.rows(&b.brand, table).await, 0, "{table}");
    }
    let detail = get_order(&b.admin, &id(&o)).await;
    assert_eq!(detail["status"], "confirmed");
    assert_eq!(detail["lines"][0]["received_quantity"], "0");
    assert_eq!(b.app.audited(&b.brand, "procurement.received").await, 0);
    assert_eq!(b.app.audited(&b.brand, "inventory.move").await, 0);
}

#[tokio::test]
async fn receipts_stop_at_five_percent_over_the_ordered_quantity() {
    let b = setup().await;
    let o = confirmed(&b.admin, &b.supplier, &[(&b.plain, "100", "1")]).await;
    let l = line(&o, 0);
    let (status, r) = receive(
        &b.admin,
        &id(&o),
        receipt(&b.warehouse, &[(&l, "105", "L1")]),
    )
    .await;
    assert_eq!(
        (status, r["order_status"].as_str()),
        (StatusCode::CREATED, Some("received")),
        "{r}"
    );
    let (status, answer) = receive(
        &b.admin,
        &id(&o),
        receipt(&b.warehouse, &[(&l, "0.001", "L1")]),
    )
    .await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("over_receipt")),
        "{answer}"
    );
    assert!(
        answer["error"].as_str().unwrap().contains("105"),
        "{answer}"
    );
    assert_eq!(
        get_order(&b.admin, &id(&o)).await["lines"][0]["received_quantity"],
        "105"
    );
}

#[tokio::test]
async fn parallel_receipts_at_the_limit_never_over_receive() {
    let b = setup().await;
    slow_inserts(&b.app, &b.brand, "purchase_receipt_lines").await;
    let o = confirmed(&b.admin, &b.supplier, &[(&b.plain, "100", "1")]).await;
    let l = line(&o, 0);
    let worker = b
        .app
        .login(&b.app.account(&b.brand, Role::Worker).await)
        .await;
    // Twenty receipts of 15 where 105 may arrive: exactly seven fit.
    let order_id = id(&o);
    let answers = futures::future::join_all((0..20).map(|i| {
        let c = if i % 2 == 0 { &b.admin } else { &worker };
        receive(c, &order_id, receipt(&b.warehouse, &[(&l, "15", "L1")]))
    }))
    .await;
    let created = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    let over = answers
        .iter()
        .filter(|(s, a)| *s == StatusCode::CONFLICT && a["code"] == "over_receipt")
        .count();
    assert_eq!((created, over), (7, 13), "{answers:?}");
    let detail = get_order(&b.admin, &id(&o)).await;
    assert_eq!(detail["lines"][0]["received_quantity"], "105");
    assert_eq!(detail["status"], "received");
    let (_, stock) = b
        .admin
        .get(&format!("/api/stock?product_id={}", b.plain))
        .await;
    assert_eq!(stock["stock"][0]["on_hand"], "105");
    assert_eq!(b.app.rows(&b.brand, "stock_moves").await, 7);
    assert_eq!(b.app.rows(&b.brand, "purchase_receipts").await, 7);
}

#[tokio::test]
async fn a_retried_receipt_with_the_same_key_receives_once() {
    let b = setup().await;
    let o = confirmed(&b.admin, &b.supplier, &[(&b.plain, "10", "1")]).await;
    let body = receipt(&b.warehouse, &[(&line(&o, 0), "3", "K1")]);
    let path = format!("/api/purchase-orders/{}/receipts", id(&o));
    let key = uuid::Uuid::new_v4().to_string();
    let send = async |body: &Value| {
        let resp = b
            .admin
            .http
            .post(b.admin.url(&path))
            .header("x-csrf-token", b.admin.csrf.clone().unwrap())
            .header("Idempotency-Key", &key)
            .json(body)
            .send()
            .await
            .unwrap();
        let status = resp.status();
        (status, resp.json::<Value>().await.unwrap())
    };
    let answers = futures::future::join_all((0..20).map(|_| send(&body))).await;
    for (status, answer) in &answers {
        assert_eq!(*status, StatusCode::CREATED, "{answer}");
        assert_eq!(answer["id"], answers[0].1["id"]);
    }
    assert_eq!(b.app.rows(&b.brand, "stock_moves").await, 1);
    assert_eq!(
        get_order(&b.admin, &id(&o)).await["lines"][0]["received_quantity"],
        "3"
    );
    let other = receipt(&b.warehouse, &[(&line(&o, 0), "4", "K1")]);
    let (status, answer) = send(&other).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("idempotency_key_reused"))
    );
}

#[tokio::test]
async fn bills_are_matched_three_ways_and_mismatches_need_an_admin_with_a_reason() {
    let b = setup().await;
    let manager = b
        .app
        .login(&b.app.account(&b.brand, Role::Manager).await)
        .await;
    let o = confirmed(
        &b.admin,
        &b.supplier,
        &[(&b.plain, "10", "2.5"), (&b.inspected, "5", "4")],
    )
    .await;
    let (l0, l1) = (line(&o, 0), line(&o, 1));
    let (status, _) = receive(
        &b.admin,
        &id(&o),
        receipt(&b.warehouse, &[(&l0, "6", "A"), (&l1, "5", "S")]),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);

    // Matched: within what was received, at the order's prices.
    let (status, first) = bill(
        &manager,
        &id(&o),
        "INV-1",
        &[(&l0, "4", "2.50"), (&l1, "5", "4")],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    assert_eq!(first["match"], "matched");
    assert_eq!(first["mismatches"], json!([]));
    assert_eq!(first["total"], "30.00");
    assert_eq!(first["status"], "pending");

    // Billed before counts: 6 received, 4 billed, 3 more is 1 too many;
    // and a price that differs.
    let (status, second) = bill(
        &manager,
        &id(&o),
        "INV-2",
        &[(&l0, "3", "2.60"), (&l1, "0.001", "4")],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    assert_eq!(second["match"], "mismatch");
    assert_eq!(
        second["mismatches"],
        json!([
            {"line_id": l0, "reason": "quantity_not_received", "expected": "2", "billed": "3"},
            {"line_id": l0, "reason": "price_differs", "expected": "2.50", "billed": "2.60"},
            {"line_id": l1, "reason": "quantity_not_received", "expected": "0", "billed": "0.001"},
        ])
    );
    let detail = get_order(&b.admin, &id(&o)).await;
    assert_eq!(detail["lines"][0]["billed_quantity"], "7");
    assert_eq!(detail["bills"].as_array().unwrap().len(), 2);

    // The number is unique per supplier, whatever its case; another
    // supplier may use it.
    let (status, answer) = bill(&manager, &id(&o), "inv-1", &[(&l0, "1", "2.50")]).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("duplicate_bill_number")),
        "{answer}"
    );
    let other_supplier = supplier(&b.admin, "Other GmbH").await;
    let o2 = confirmed(&b.admin, &other_supplier, &[(&b.plain, "1", "1")]).await;
    let (status, _) = bill(&manager, &id(&o2), "INV-1", &[(&line(&o2, 0), "1", "1")]).await;
    assert_eq!(status, StatusCode::CREATED);
    // A line of another order, a line twice: refused, nothing recorded.
    let (status, _) = bill(&manager, &id(&o), "INV-9", &[(&line(&o2, 0), "1", "1")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = bill(
        &manager,
        &id(&o),
        "INV-9",
        &[(&l0, "1", "1"), (&l0, "1", "1")],
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(b.app.rows(&b.brand, "supplier_bills").await, 3);

    // Approval: a matched bill by a manager; a mismatched one only by an
    // admin with a reason.
    let (status, ok) = approve(&manager, &id(&first), json!({})).await;
    assert_eq!(
        (status, ok["status"].as_str()),
        (StatusCode::OK, Some("approved")),
        "{ok}"
    );
    let (status, answer) = approve(&manager, &id(&first), json!({})).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("invalid_transition"))
    );
    let (status, answer) =
        approve(&manager, &id(&second), json!({"reason": "Agreed by phone"})).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("bill_mismatch")),
        "{answer}"
    );
    let (status, answer) = approve(&b.admin, &id(&second), json!({})).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::CONFLICT, Some("bill_mismatch")),
        "{answer}"
    );
    let (status, answer) = approve(&b.admin, &id(&second), json!({"reason": "  "})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (status, ok) = approve(
        &b.admin,
        &id(&second),
        json!({"reason": "Price rise agreed by phone"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{ok}");
    assert_eq!(ok["approval_reason"], "Price rise agreed by phone");
    assert_eq!(ok["match"], "mismatch");

    let (_, list) = b
        .admin
        .get(&format!("/api/supplier-bills?purchase_order_id={}", id(&o)))
        .await;
    assert_eq!(list["bills"].as_array().unwrap().len(), 2);
    let (_, list) = b.admin.get("/api/supplier-bills").await;
    assert_eq!(list["bills"].as_array().unwrap().len(), 3);
    assert_eq!(b.app.audited(&b.brand, "procurement.bill_created").await, 3);
    assert_eq!(
        b.app.audited(&b.brand, "procurement.bill_approved").await,
        2
    );
}

#[tokio::test]
async fn workers_read_and_receive_but_neither_order_nor_bill() {
    let b = setup().await;
    let worker = b
        .app
        .login(&b.app.account(&b.brand, Role::Worker).await)
        .await;
    let o = confirmed(&b.admin, &b.supplier, &[(&b.plain, "10", "1")]).await;
    let (status, _) = receive(
        &worker,
        &id(&o),
        receipt(&b.warehouse, &[(&line(&o, 0), "10", "W1")]),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, list) = worker.get("/api/purchase-orders").await;
    assert_eq!(
        (status, list["orders"].as_array().map(Vec::len)),
        (StatusCode::OK, Some(1))
    );
    let (status, _) = worker
        .get(&format!("/api/purchase-orders/{}", id(&o)))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = worker.get("/api/supplier-bills").await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = worker
        .post(
            "/api/purchase-orders",
            json!({"supplier_id": b.supplier, "expected_on": "2030-01-01", "currency": "EUR",
                   "lines": [{"product_id": b.plain, "quantity": "1", "unit_price": "1"}]}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let draft = order(&b.admin, &b.supplier, &[(&b.plain, "1", "1")]).await;
    for what in ["confirm", "cancel"] {
        let (status, _) = step(&worker, &id(&draft), what).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{what}");
    }
    let (status, _) = bill(&worker, &id(&o), "W-1", &[(&line(&o, 0), "1", "1")]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, made) = bill(&b.admin, &id(&o), "A-1", &[(&line(&o, 0), "1", "1")]).await;
    let (status, _) = approve(&worker, &id(&made), json!({})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(get_order(&b.admin, &id(&draft)).await["status"], "draft");
}

#[tokio::test]
async fn procurement_is_isolated() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let supplier = supplier(a, "Iso Supplies").await;
            let product = create_product(a, "Iso", "ISO").await.id;
            let loc = location(a, &unique("ISO")).await;
            let o = confirmed(a, &supplier, &[(&product, "10", "1"), (&product, "5", "1")]).await;
            let (status, _) =
                receive(a, &id(&o), receipt(&loc, &[(&line(&o, 0), "2", "ISO1")])).await;
            assert_eq!(status, StatusCode::CREATED);
            let (status, made) = bill(a, &id(&o), "ISO-BILL", &[(&line(&o, 0), "2", "1")]).await;
            assert_eq!(status, StatusCode::CREATED);
            format!("{}|{}|{}|{}", id(&o), line(&o, 1), id(&made), loc)
        },
        async |c, marker| {
            let parts: Vec<&str> = marker.split('|').collect();
            let (order, second_line, made, loc) = (parts[0], parts[1], parts[2], parts[3]);
            // Whatever B tries with A's ids must not change A's order; B's
            // answers never contain them (the marker is all four ids).
            vec![
                c.get("/api/purchase-orders").await,
                c.get(&format!("/api/purchase-orders/{order}")).await,
                c.get("/api/supplier-bills").await,
                c.get(&format!("/api/supplier-bills?purchase_order_id={order}"))
                    .await,
                step(c, order, "cancel").await,
                receive(c, order, receipt(loc, &[(second_line, "1", "X1")])).await,
                bill(c, order, "X-BILL", &[(second_line, "1", "1")]).await,
                approve(c, made, json!({})).await,
            ]
            .into_iter()
            .map(|(s, body)| {
                // A's answers show the ids; B's must not even echo them.
                let text = body.to_string();
                let shown = [order, second_line, made]
                    .iter()
                    .any(|id| text.contains(id));
                (s, if shown { json!(marker) } else { body })
            })
            .collect()
        },
    )
    .await;
}
