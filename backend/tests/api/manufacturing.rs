//! Manufacturing (issue 23): versioned, immutable bills of materials without
//! cycles; manufacturing orders whose completion consumes component lots
//! (earliest expiry first), produces the output lot at the components'
//! cost, records `lot_inputs` and an EPCIS TransformationEvent, and starts a
//! code job, all or nothing.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated, assert_refused_to_tenant, create_product,
    slow_inserts, slow_inserts_by, slow_updates_by, unique,
};
use crate::lots::set_status;

struct Plant {
    app: TestApp,
    brand: TestTenant,
    admin: Client,
    bin: String,
}

async fn setup() -> Plant {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let bin = location(&admin).await;
    Plant {
        app,
        brand,
        admin,
        bin,
    }
}

async fn location(c: &Client) -> String {
    let (status, loc) = c
        .post(
            "/api/locations",
            json!({"code": unique("MFG"), "name": "Plant", "kind": "warehouse"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{loc}");
    loc["id"].as_str().unwrap().to_string()
}

async fn product(c: &Client, name: &str) -> String {
    create_product(c, name, "MFG").await.id
}

/// A lot of `product` with `quantity` received into `location` at
/// `unit_cost` EUR; answers its id.
async fn stocked_lot(
    c: &Client,
    product: &str,
    number: &str,
    expires_on: Option<&str>,
    location: &str,
    quantity: &str,
    unit_cost: &str,
) -> String {
    let mut body = json!({"product_id": product, "number": number});
    if let Some(e) = expires_on {
        body["expires_on"] = json!(e);
    }
    let (status, lot) = c.post("/api/lots", body).await;
    assert_eq!(status, StatusCode::CREATED, "{lot}");
    let id = lot["id"].as_str().unwrap().to_string();
    let (status, m) = c
        .post(
            "/api/stock-moves",
            json!({"product_id": product, "lot_id": id, "quantity": quantity,
                   "to_location_id": location, "reason": "receipt",
                   "unit_cost": unit_cost, "currency": "EUR"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{m}");
    id
}

async fn bom(c: &Client, product: &str, output: &str, components: &[(&str, &str)]) -> Value {
    let (status, b) = create_bom(c, product, output, components).await;
    assert_eq!(status, StatusCode::CREATED, "{b}");
    b
}

async fn create_bom(
    c: &Client,
    product: &str,
    output: &str,
    components: &[(&str, &str)],
) -> (StatusCode, Value) {
    let components: Vec<Value> = components
        .iter()
        .map(|(p, q)| json!({"product_id": p, "quantity": q}))
        .collect();
    c.post(
        "/api/boms",
        json!({"product_id": product, "output_quantity": output, "components": components}),
    )
    .await
}

async fn order(c: &Client, product: &str, quantity: &str, location: &str, lot: &str) -> Value {
    let (status, o) = c
        .post(
            "/api/manufacturing-orders",
            json!({"product_id": product, "quantity": quantity, "location_id": location,
                   "output_lot_number": lot, "expires_on": "2099-12-31"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{o}");
    o
}

async fn start(c: &Client, id: &str) -> (StatusCode, Value) {
    c.post(&format!("/api/manufacturing-orders/{id}/start"), json!({}))
        .await
}

async fn complete(c: &Client, id: &str, body: Value) -> (StatusCode, Value) {
    c.post(&format!("/api/manufacturing-orders/{id}/complete"), body)
        .await
}

async fn available(c: &Client, lot: &str) -> String {
    let (status, s) = c.get(&format!("/api/stock?lot_id={lot}")).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    s["stock"]
        .as_array()
        .unwrap()
        .first()
        .map(|r| r["available"].as_str().unwrap().to_string())
        .unwrap_or_else(|| "0".into())
}

#[tokio::test]
async fn bom_versions_are_consecutive_and_immutable() {
    let p = setup().await;
    let cream = product(&p.admin, "Cream").await;
    let oil = product(&p.admin, "Oil").await;
    let wax = product(&p.admin, "Wax").await;
    let v1 = bom(&p.admin, &cream, "10", &[(&oil, "2"), (&wax, "0.5")]).await;
    assert_eq!(v1["version"], 1);
    assert_eq!(v1["output_quantity"], "10");
    assert_eq!(v1["components"][1]["quantity"], "0.5");
    // Parallel creates queue: distinct, consecutive versions.
    let three_oil = [(oil.as_str(), "3")];
    let answers =
        futures::future::join_all((0..20).map(|_| create_bom(&p.admin, &cream, "10", &three_oil)))
            .await;
    let mut versions: Vec<i64> = answers
        .iter()
        .map(|(s, b)| {
            assert_eq!(*s, StatusCode::CREATED, "{b}");
            b["version"].as_i64().unwrap()
        })
        .collect();
    versions.sort();
    assert_eq!(versions, (2..=21).collect::<Vec<i64>>());
    let (status, list) = p.admin.get(&format!("/api/boms?product_id={cream}")).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let boms = list["boms"].as_array().unwrap();
    assert_eq!(boms.len(), 21);
    assert_eq!(boms[0]["version"], 21, "newest first");
    assert_eq!(boms[20]["components"].as_array().unwrap().len(), 2);
    assert_eq!(
        p.app.audited(&p.brand, "manufacturing.bom_created").await,
        21
    );
    // The database refuses changes to a version, even from the app's role.
    assert_refused_to_tenant(
        &p.app,
        &p.brand,
        &[
            "UPDATE boms SET output_quantity = 1",
            "DELETE FROM boms",
            "TRUNCATE boms CASCADE",
            "UPDATE bom_components SET quantity = 1",
            "DELETE FROM bom_components",
            "TRUNCATE bom_components",
        ],
    )
    .await;
    // And so does it for the owner: the triggers hold for everyone.
    let err = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {}.boms SET output_quantity = 1",
        p.brand.schema
    )))
    .execute(&p.app.owner)
    .await
    .expect_err("owner update");
    assert!(err.to_string().contains("append-only"), "{err}");
    let (_, again) = p.admin.get(&format!("/api/boms?product_id={cream}")).await;
    assert_eq!(again["boms"][20]["output_quantity"], "10");
}

#[tokio::test]
async fn bad_boms_are_refused_and_change_nothing() {
    let p = setup().await;
    let a = product(&p.admin, "A").await;
    let b = product(&p.admin, "B").await;
    let other = p.app.brand().await;
    let other_admin = p.app.login(&other.admin).await;
    let foreign = product(&other_admin, "Foreign").await;
    for (components, status, what) in [
        (vec![(b.as_str(), "0")], StatusCode::BAD_REQUEST, "zero"),
        (
            vec![(b.as_str(), "-1")],
            StatusCode::BAD_REQUEST,
            "negative",
        ),
        (
            vec![(b.as_str(), "1.2345")],
            StatusCode::BAD_REQUEST,
            "4 places",
        ),
        (
            vec![(b.as_str(), "1"), (b.as_str(), "2")],
            StatusCode::BAD_REQUEST,
            "twice",
        ),
        (vec![], StatusCode::BAD_REQUEST, "empty"),
        (
            vec![(foreign.as_str(), "1")],
            StatusCode::NOT_FOUND,
            "another tenant's",
        ),
    ] {
        let (got, body) = create_bom(&p.admin, &a, "1", &components).await;
        assert_eq!(got, status, "{what}: {body}");
    }
    let (got, _) = create_bom(&p.admin, &a, "0", &[(&b, "1")]).await;
    assert_eq!(got, StatusCode::BAD_REQUEST);
    let (got, _) = create_bom(&other_admin, &a, "1", &[(&foreign, "1")]).await;
    assert_eq!(got, StatusCode::NOT_FOUND, "another tenant's product");
    assert_eq!(p.app.rows(&p.brand, "boms").await, 0);
    assert_eq!(p.app.rows(&p.brand, "bom_components").await, 0);
}

#[tokio::test]
async fn component_cycles_at_any_depth_are_refused() {
    let p = setup().await;
    let a = product(&p.admin, "Alpha").await;
    let b = product(&p.admin, "Bravo").await;
    let c = product(&p.admin, "Charlie").await;
    let d = product(&p.admin, "Delta").await;
    // A product needing itself.
    let (status, body) = create_bom(&p.admin, &a, "1", &[(&b, "1"), (&a, "1")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().contains("itself"), "{body}");
    // A needs B; B needs A.
    bom(&p.admin, &a, "1", &[(&b, "1")]).await;
    let (status, body) = create_bom(&p.admin, &b, "1", &[(&a, "1")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("Alpha cannot be a component of Bravo"),
        "{body}"
    );
    // A -> B -> C -> A, and D -> C with C -> D two levels down.
    bom(&p.admin, &b, "1", &[(&c, "1")]).await;
    let (status, body) = create_bom(&p.admin, &c, "1", &[(&d, "1"), (&a, "2")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Alpha"), "{body}");
    // Without the cycle, C's BOM is fine; then D cannot need A.
    bom(&p.admin, &c, "1", &[(&d, "1")]).await;
    let (status, body) = create_bom(&p.admin, &d, "1", &[(&a, "1")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // The latest version counts: once A no longer needs B, B may need A.
    bom(&p.admin, &a, "1", &[(&d, "1")]).await;
    let (status, body) = create_bom(&p.admin, &b, "1", &[(&a, "1")]).await;
    assert_eq!(status, StatusCode::CREATED, "A -> D, B -> A: {body}");
    // And now A cannot need B again (B -> A), nor can D need B (B -> A -> D).
    let (status, body) = create_bom(&p.admin, &a, "1", &[(&b, "1")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = create_bom(&p.admin, &d, "1", &[(&b, "1")]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let e = product(&p.admin, "Echo").await;
    let f = product(&p.admin, "Foxtrot").await;
    // Two parallel creates that would close a cycle together: one wins.
    let answers = futures::future::join_all([
        create_bom(&p.admin, &e, "1", &[(&f, "1")]),
        create_bom(&p.admin, &f, "1", &[(&e, "1")]),
    ])
    .await;
    let created = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{answers:?}");
    assert!(
        answers.iter().any(|(s, _)| *s == StatusCode::BAD_REQUEST),
        "{answers:?}"
    );
    // Versions written: A v1, v2; B v1, v2; C v1; and one of E, F.
    assert_eq!(p.app.rows(&p.brand, "boms").await, 6);
}

/// A plant with a cream made of oil and wax: oil in three lots (one
/// expired, one held, two usable with different expiries), wax in one.
struct Recipe {
    p: Plant,
    cream: String,
    oil: String,
    wax: String,
    oil_early: String,
    oil_late: String,
    oil_expired: String,
    oil_held: String,
    wax_lot: String,
}

async fn recipe() -> Recipe {
    let p = setup().await;
    let cream = product(&p.admin, "Cream").await;
    let oil = product(&p.admin, "Oil").await;
    let wax = product(&p.admin, "Wax").await;
    // 10 cream from 4 oil and 1 wax.
    bom(&p.admin, &cream, "10", &[(&oil, "4"), (&wax, "1")]).await;
    let oil_late = stocked_lot(
        &p.admin,
        &oil,
        "OIL-LATE",
        Some("2099-01-01"),
        &p.bin,
        "10",
        "3",
    )
    .await;
    let oil_early = stocked_lot(
        &p.admin,
        &oil,
        "OIL-EARLY",
        Some("2098-01-01"),
        &p.bin,
        "3",
        "2",
    )
    .await;
    let oil_expired = stocked_lot(&p.admin, &oil, "OIL-OLD", None, &p.bin, "50", "1").await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {}.lots SET expires_on = current_date - 1 WHERE id = $1::uuid",
        p.brand.schema
    )))
    .bind(&oil_expired)
    .execute(&p.app.owner)
    .await
    .unwrap();
    let oil_held = stocked_lot(
        &p.admin,
        &oil,
        "OIL-HELD",
        Some("2097-01-01"),
        &p.bin,
        "50",
        "1",
    )
    .await;
    let (status, body) = p
        .admin
        .post(
            &format!("/api/lots/{oil_held}/status"),
            json!({"status": "held", "reason": "complaint"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let wax_lot = stocked_lot(&p.admin, &wax, "WAX-1", None, &p.bin, "5", "10").await;
    Recipe {
        p,
        cream,
        oil,
        wax,
        oil_early,
        oil_late,
        oil_expired,
        oil_held,
        wax_lot,
    }
}

#[tokio::test]
async fn completion_consumes_first_expiry_first_and_produces_the_costed_output_lot() {
    let r = recipe().await;
    let c = &r.p.admin;
    let o = order(c, &r.cream, "10", &r.p.bin, "CREAM-1").await;
    assert_eq!(o["status"], "planned");
    assert_eq!(o["bom_version"], 1);
    assert_eq!(o["number"].as_str().unwrap().len(), 9, "{o}");
    let id = o["id"].as_str().unwrap();
    let (status, started) = start(c, id).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    assert_eq!(started["status"], "in_progress");
    // 15 cream: 6 oil (3 early, 3 late) and 1.5 wax.
    let (status, done) = complete(c, id, json!({"produced_quantity": "15"})).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["status"], "completed");
    assert_eq!(done["produced_quantity"], "15");
    let consumed: Vec<(String, String)> = done["consumed"]
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
        consumed,
        [
            ("OIL-EARLY".to_string(), "3".to_string()),
            ("OIL-LATE".to_string(), "3".to_string()),
            ("WAX-1".to_string(), "1.5".to_string()),
        ]
    );
    assert_eq!(available(c, &r.oil_early).await, "0");
    assert_eq!(available(c, &r.oil_late).await, "7");
    assert_eq!(available(c, &r.oil_expired).await, "50");
    assert_eq!(available(c, &r.oil_held).await, "50");
    assert_eq!(available(c, &r.wax_lot).await, "3.5");
    // Cost: 3×2 + 3×3 + 1.5×10 = 30 EUR for 15: 2.00 each.
    assert_eq!(done["unit_cost"], "2.00");
    assert_eq!(done["currency"], "EUR");
    let output = done["output_lot_id"].as_str().unwrap();
    let (_, lot) = c.get(&format!("/api/lots/{output}")).await;
    assert_eq!(lot["number"], "CREAM-1");
    assert_eq!(lot["status"], "released");
    assert_eq!(lot["expires_on"], "2099-12-31");
    assert_eq!(available(c, output).await, "15");
    let (_, moves) = c.get(&format!("/api/stock-moves?lot_id={output}")).await;
    assert_eq!(moves["moves"][0]["unit_cost"], "2.00");
    assert_eq!(moves["moves"][0]["reference"], done["number"]);
    let (_, used) = c
        .get(&format!("/api/stock-moves?lot_id={}", r.oil_early))
        .await;
    assert_eq!(used["moves"][0]["reason"], "consumption");
    // The genealogy's edges.
    let rows: Vec<(String, String, String)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT output_lot_id::text, input_lot_id::text, quantity::text FROM {}.lot_inputs
          WHERE manufacturing_order_id = $1::uuid ORDER BY quantity, input_lot_id",
        r.p.brand.schema
    )))
    .bind(id)
    .fetch_all(&r.p.app.owner)
    .await
    .unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|(out, _, _)| out == output));
    let mut inputs: Vec<(&str, f64)> = rows
        .iter()
        .map(|(_, i, q)| (i.as_str(), q.parse::<f64>().unwrap()))
        .collect();
    inputs.sort_by(|a, b| a.0.cmp(b.0));
    let mut want = vec![
        (r.oil_early.as_str(), 3.0),
        (r.oil_late.as_str(), 3.0),
        (r.wax_lot.as_str(), 1.5),
    ];
    want.sort_by(|a, b| a.0.cmp(b.0));
    assert_eq!(inputs, want);
    // The TransformationEvent, in a valid EPCIS 2.0 export.
    let (status, doc) = c.get("/api/epcis/events").await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    let errors = brandops::epcis::schema_errors(&doc);
    assert!(errors.is_empty(), "{errors:?}");
    let events = doc["epcisBody"]["eventList"].as_array().unwrap();
    let event = events
        .iter()
        .find(|e| e["type"] == "TransformationEvent")
        .expect("a TransformationEvent");
    assert_eq!(event["eventID"], done["epcis_event_id"]);
    let classes = |key: &str| -> Vec<String> {
        event[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| q["epcClass"].as_str().unwrap().to_string())
            .collect()
    };
    let inputs = classes("inputQuantityList");
    assert_eq!(inputs.len(), 3);
    assert!(
        inputs.iter().any(|c| c.ends_with("/10/OIL-EARLY")),
        "{inputs:?}"
    );
    assert!(
        inputs.iter().any(|c| c.ends_with("/10/WAX-1")),
        "{inputs:?}"
    );
    let outputs = classes("outputQuantityList");
    assert_eq!(outputs.len(), 1);
    assert!(outputs[0].starts_with("https://id.gs1.org/01/"));
    assert!(outputs[0].ends_with("/10/CREAM-1"));
    assert_eq!(event["outputQuantityList"][0]["quantity"], 15);
    // GET answers the same, with the consumed lots.
    let (_, again) = c.get(&format!("/api/manufacturing-orders/{id}")).await;
    assert_eq!(again["consumed"], done["consumed"]);
    let (_, list) = c.get("/api/manufacturing-orders?status=completed").await;
    assert_eq!(list["orders"][0]["id"], id);
    for action in [
        "manufacturing.order_created",
        "manufacturing.order_started",
        "manufacturing.order_completed",
    ] {
        assert_eq!(r.p.app.audited(&r.p.brand, action).await, 1, "{action}");
    }
    let _ = (&r.oil, &r.wax);
}

#[tokio::test]
async fn a_shortage_names_every_short_component_and_consumes_nothing() {
    let r = recipe().await;
    let c = &r.p.admin;
    let o = order(c, &r.cream, "10", &r.p.bin, "CREAM-2").await;
    let id = o["id"].as_str().unwrap();
    start(c, id).await;
    let moves = r.p.app.rows(&r.p.brand, "stock_moves").await;
    let lots = r.p.app.rows(&r.p.brand, "lots").await;
    let events = r.p.app.rows(&r.p.brand, "epcis_events").await;
    // 100 cream: 40 oil (13 usable) and 10 wax (5).
    let (status, body) = complete(c, id, json!({"produced_quantity": "100", "codes": 5})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "insufficient_stock");
    let msg = body["error"].as_str().unwrap();
    assert!(msg.contains("Oil (40 needed, 13 available)"), "{msg}");
    assert!(msg.contains("Wax (10 needed, 5 available)"), "{msg}");
    // Only oil short: still nothing consumed, wax included.
    let (status, body) = complete(c, id, json!({"produced_quantity": "40"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let msg = body["error"].as_str().unwrap();
    assert!(msg.contains("Oil") && !msg.contains("Wax"), "{msg}");
    assert_eq!(r.p.app.rows(&r.p.brand, "stock_moves").await, moves);
    assert_eq!(r.p.app.rows(&r.p.brand, "lots").await, lots);
    assert_eq!(r.p.app.rows(&r.p.brand, "epcis_events").await, events);
    assert_eq!(r.p.app.rows(&r.p.brand, "lot_inputs").await, 0);
    assert_eq!(r.p.app.rows(&r.p.brand, "code_jobs").await, 0);
    assert_eq!(available(c, &r.oil_early).await, "3");
    assert_eq!(available(c, &r.wax_lot).await, "5");
    let (_, still) = c.get(&format!("/api/manufacturing-orders/{id}")).await;
    assert_eq!(still["status"], "in_progress");
    assert_eq!(
        r.p.app
            .audited(&r.p.brand, "manufacturing.order_completed")
            .await,
        0
    );
    // A location elsewhere has none of it.
    let other = location(c).await;
    let o2 = order(c, &r.cream, "1", &other, "CREAM-3").await;
    let id2 = o2["id"].as_str().unwrap();
    start(c, id2).await;
    let (status, body) = complete(c, id2, json!({"produced_quantity": "1"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("0 available"),
        "{body}"
    );
}

#[tokio::test]
async fn every_refused_transition_answers_invalid_transition() {
    let r = recipe().await;
    let c = &r.p.admin;
    let o = order(c, &r.cream, "1", &r.p.bin, "T-1").await;
    let id = o["id"].as_str().unwrap();
    let cancel = |id: String| async move {
        c.post(&format!("/api/manufacturing-orders/{id}/cancel"), json!({}))
            .await
    };
    let expect_refused = |(status, body): (StatusCode, Value), what: &str| {
        assert_eq!(status, StatusCode::CONFLICT, "{what}: {body}");
        assert_eq!(body["code"], "invalid_transition", "{what}: {body}");
    };
    expect_refused(
        complete(c, id, json!({"produced_quantity": "1"})).await,
        "complete a planned order",
    );
    assert_eq!(start(c, id).await.0, StatusCode::OK);
    expect_refused(start(c, id).await, "start twice");
    assert_eq!(
        complete(c, id, json!({"produced_quantity": "1"})).await.0,
        StatusCode::OK
    );
    expect_refused(start(c, id).await, "start a completed order");
    expect_refused(cancel(id.to_string()).await, "cancel a completed order");
    expect_refused(
        complete(c, id, json!({"produced_quantity": "1"})).await,
        "complete twice",
    );
    let o = order(c, &r.cream, "1", &r.p.bin, "T-2").await;
    let id = o["id"].as_str().unwrap();
    let (status, cancelled) = cancel(id.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["status"], "cancelled");
    expect_refused(start(c, id).await, "start a cancelled order");
    expect_refused(cancel(id.to_string()).await, "cancel twice");
    expect_refused(
        complete(c, id, json!({"produced_quantity": "1"})).await,
        "complete a cancelled order",
    );
    let missing = uuid::Uuid::new_v4();
    assert_eq!(
        start(c, &missing.to_string()).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(start(c, "not-a-uuid").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn orders_refuse_bad_input() {
    let r = recipe().await;
    let c = &r.p.admin;
    let post = |body: Value| async move { c.post("/api/manufacturing-orders", body).await };
    let base = json!({"product_id": r.cream, "quantity": "1", "location_id": r.p.bin,
                      "output_lot_number": "OK-1"});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    for (body, status, code) in [
        (
            with("quantity", json!("0")),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            with("output_lot_number", json!("")),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            with("expires_on", json!("2001-01-01")),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            with("bom_version", json!(9)),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            with("product_id", json!(r.oil)),
            StatusCode::CONFLICT,
            "no_bom",
        ),
        (
            with("location_id", json!(uuid::Uuid::new_v4())),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            with("output_lot_number", json!("CREAM-X")),
            StatusCode::CREATED,
            "",
        ),
        (
            with("output_lot_number", json!("OIL-LATE")),
            StatusCode::CREATED,
            "",
        ),
    ] {
        let (got, answer) = post(body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
        if !code.is_empty() {
            assert_eq!(answer["code"], code, "{answer}");
        }
    }
    // The output lot must be new for the product.
    let (got, answer) = post(with("product_id", json!(r.oil)).clone()).await;
    assert_eq!(got, StatusCode::CONFLICT, "{answer}");
    let (status, _) = c
        .post(
            "/api/lots",
            json!({"product_id": r.cream, "number": "TAKEN"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (got, answer) = post(with("output_lot_number", json!("TAKEN"))).await;
    assert_eq!(got, StatusCode::CONFLICT, "{answer}");
    assert_eq!(answer["code"], "lot_exists");
    assert_eq!(r.p.app.rows(&r.p.brand, "manufacturing_orders").await, 2);
    // A bad completion body.
    let o = order(c, &r.cream, "1", &r.p.bin, "BODY-1").await;
    let id = o["id"].as_str().unwrap();
    start(c, id).await;
    for body in [
        json!({"produced_quantity": "0"}),
        json!({"produced_quantity": "1", "codes": 0}),
        json!({}),
    ] {
        let (got, answer) = complete(c, id, body.clone()).await;
        assert_eq!(got, StatusCode::BAD_REQUEST, "{body}: {answer}");
    }
}

#[tokio::test]
async fn a_pinned_version_stays_and_inspected_products_come_out_in_quarantine() {
    let p = setup().await;
    let c = &p.admin;
    let (status, serum) = c
        .post(
            "/api/products",
            json!({"product_name": "Serum", "skuid": unique("SER"), "gtin": crate::helpers::gtin(),
                   "requires_inspection": true}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{serum}");
    let serum = serum["id"].as_str().unwrap().to_string();
    let water = product(c, "Water").await;
    let salt = product(c, "Salt").await;
    bom(c, &serum, "1", &[(&water, "1")]).await;
    stocked_lot(c, &water, "W1", None, &p.bin, "10", "0.10").await;
    stocked_lot(c, &salt, "S1", None, &p.bin, "10", "1").await;
    let (status, o) = c
        .post(
            "/api/manufacturing-orders",
            json!({"product_id": serum, "quantity": "3", "location_id": p.bin,
                   "output_lot_number": "SER-1"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{o}");
    // A later version (salt instead of water) does not change the order.
    bom(c, &serum, "1", &[(&salt, "1")]).await;
    let id = o["id"].as_str().unwrap();
    start(c, id).await;
    let (status, done) = complete(c, id, json!({"produced_quantity": "3"})).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["bom_version"], 1);
    assert_eq!(done["consumed"][0]["lot_number"], "W1");
    assert_eq!(done["unit_cost"], "0.10");
    let (_, lot) = c
        .get(&format!(
            "/api/lots/{}",
            done["output_lot_id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(lot["status"], "quarantine");
    // A named version.
    let (status, o2) = c
        .post(
            "/api/manufacturing-orders",
            json!({"product_id": serum, "bom_version": 2, "quantity": "1",
                   "location_id": p.bin, "output_lot_number": "SER-2"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{o2}");
    assert_eq!(o2["components"][0]["product_name"], "Salt");
    assert_eq!(o2["components"][0]["required"], "1");
}

#[tokio::test]
async fn completion_with_codes_starts_a_code_job_for_the_output_lot() {
    let r = recipe().await;
    let c = &r.p.admin;
    let o = order(c, &r.cream, "10", &r.p.bin, "CODED-1").await;
    let id = o["id"].as_str().unwrap();
    start(c, id).await;
    let moves = r.p.app.rows(&r.p.brand, "stock_moves").await;
    let (status, body) = complete(
        c,
        id,
        json!({"produced_quantity": "2", "codes": 10_000_000}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "code_quota");
    assert_eq!(r.p.app.rows(&r.p.brand, "stock_moves").await, moves);
    let (status, done) = complete(c, id, json!({"produced_quantity": "2", "codes": 3})).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let job = done["code_job_id"].as_str().expect("a code job");
    let job = crate::helpers::finished_job(c, &format!("/api/code-jobs/{job}")).await;
    assert_eq!(job["status"], "done", "{job}");
    assert_eq!(job["quantity"], 3);
    assert_eq!(job["lot"]["number"], "CODED-1", "{job}");
}

#[tokio::test]
async fn twenty_parallel_completions_of_one_order_complete_it_once() {
    let r = recipe().await;
    let c = &r.p.admin;
    let o = order(c, &r.cream, "10", &r.p.bin, "PAR-1").await;
    let id = o["id"].as_str().unwrap();
    start(c, id).await;
    slow_inserts(&r.p.app, &r.p.brand, "stock_moves").await;
    let moves = r.p.app.rows(&r.p.brand, "stock_moves").await;
    let answers = futures::future::join_all(
        (0..20).map(|_| complete(c, id, json!({"produced_quantity": "5"}))),
    )
    .await;
    let ok = answers.iter().filter(|(s, _)| *s == StatusCode::OK).count();
    assert_eq!(ok, 1, "{answers:?}");
    for (status, body) in answers.iter().filter(|(s, _)| *s != StatusCode::OK) {
        assert_eq!(*status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["code"], "invalid_transition", "{body}");
    }
    // 2 oil from the early lot, 0.5 wax, and the output: three moves once.
    assert_eq!(r.p.app.rows(&r.p.brand, "stock_moves").await, moves + 3);
    assert_eq!(r.p.app.rows(&r.p.brand, "lot_inputs").await, 2);
    assert_eq!(available(c, &r.oil_early).await, "1");
}

/// A recall of a component lot racing the completions that consume it:
/// a completion holding the lot when the recall walks the genealogy
/// commits before the recall can lock the lot, and the recall's next walk
/// finds the lot it made; a completion after the recall finds the lot
/// recalled and is refused. Never a lot made from a recalled lot left
/// `released`.
#[tokio::test]
async fn a_recall_racing_completions_reaches_every_lot_they_made() {
    let r = recipe().await;
    let c = &r.p.admin;
    // Orders of 2.5 cream: 1 oil and 0.25 wax each.
    let mut ids = Vec::new();
    for i in 0..3 {
        let o = order(c, &r.cream, "2.5", &r.p.bin, &format!("RACE-{i}")).await;
        let id = o["id"].as_str().unwrap().to_string();
        start(c, &id).await;
        ids.push(id);
    }
    // Each genealogy edge takes 0.3 s: the first completion holds the wax
    // lot while the recall walks (a tenant has two connections: one each).
    slow_inserts_by(&r.p.app, &r.p.brand, "lot_inputs", 0.3).await;
    let body = json!({"produced_quantity": "2.5"});
    let first = complete(c, &ids[0], body.clone());
    let recall = async {
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        c.post(
            "/api/recalls",
            json!({"lot_id": r.wax_lot, "reason": "Contaminated wax"}),
        )
        .await
    };
    let later = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        futures::future::join_all(ids[1..].iter().map(|id| complete(c, id, body.clone()))).await
    };
    let (first, (status, recalled), later) = tokio::join!(first, recall, later);
    assert_eq!(status, StatusCode::CREATED, "{recalled}");
    let mut made: i64 = 0;
    for (status, body) in std::iter::once(&first).chain(&later) {
        if *status == StatusCode::OK {
            made += 1;
            let out = body["output_lot_id"].as_str().unwrap();
            let (_, lot) = c.get(&format!("/api/lots/{out}")).await;
            assert_eq!(
                lot["status"], "recalled",
                "made from the recalled wax: {lot}"
            );
        } else {
            // No released wax is left (or the picked lot was recalled
            // under it).
            assert_eq!(*status, StatusCode::CONFLICT, "{body}");
            assert!(
                ["insufficient_stock", "lot_not_available"]
                    .contains(&body["code"].as_str().unwrap()),
                "{body}"
            );
        }
    }
    // The recall lists the lot of every completion that got in first.
    let listed = recalled["lots"].as_array().unwrap().len() as i64;
    assert_eq!(listed, 1 + made, "{recalled}");
    assert_eq!(r.p.app.rows(&r.p.brand, "lot_inputs").await, 2 * made);
}

#[tokio::test]
async fn a_hold_landing_while_a_completion_plans_refuses_it_and_consumes_nothing() {
    let r = recipe().await;
    let c = &r.p.admin;
    let o = order(c, &r.cream, "10", &r.p.bin, "HOLD-RACE").await;
    let id = o["id"].as_str().unwrap().to_string();
    start(c, &id).await;
    let moves_before = r.p.app.rows(&r.p.brand, "stock_moves").await;
    // The hold keeps the wax lot's row locked for 0.6 s after changing it;
    // the completion plans from the wax as still released (the hold is not
    // committed), then waits for the lot at its moves and sees it held.
    slow_updates_by(&r.p.app, &r.p.brand, "lots", 0.6).await;
    let hold = set_status(c, &r.wax_lot, "held", "Suspected contamination");
    let completion = async {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        complete(c, &id, json!({"produced_quantity": "5"})).await
    };
    let ((held, body), (status, done)) = tokio::join!(hold, completion);
    assert_eq!(held, StatusCode::OK, "{body}");
    assert_eq!(status, StatusCode::CONFLICT, "{done}");
    assert_eq!(done["code"], "lot_not_available", "{done}");
    assert!(done["error"].as_str().unwrap().contains("WAX-1"), "{done}");
    assert_eq!(r.p.app.rows(&r.p.brand, "stock_moves").await, moves_before);
    let (_, after) = c.get(&format!("/api/manufacturing-orders/{id}")).await;
    assert_eq!(after["status"], "in_progress", "{after}");
}

#[tokio::test]
async fn workers_start_and_complete_but_do_not_plan() {
    let r = recipe().await;
    let worker_email =
        r.p.app
            .account(&r.p.brand, brandops::accounts::Role::Worker)
            .await;
    let worker = r.p.app.login(&worker_email).await;
    let (status, _) = create_bom(&worker, &r.cream, "1", &[(&r.oil, "1")]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = worker
        .post(
            "/api/manufacturing-orders",
            json!({"product_id": r.cream, "quantity": "1", "location_id": r.p.bin,
                   "output_lot_number": "W-1"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let o = order(&r.p.admin, &r.cream, "10", &r.p.bin, "W-2").await;
    let id = o["id"].as_str().unwrap();
    assert_eq!(start(&worker, id).await.0, StatusCode::OK);
    let (status, done) = complete(&worker, id, json!({"produced_quantity": "1"})).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let (status, _) = worker.get("/api/boms").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn manufacturing_is_isolated() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let bin = location(a).await;
            let out = product(a, "IsoOut").await;
            let part = product(a, "IsoPart").await;
            bom(a, &out, "1", &[(&part, "1")]).await;
            stocked_lot(a, &part, "ISO-IN", None, &bin, "5", "1").await;
            let o = order(a, &out, "1", &bin, "ISO-OUT").await;
            let id = o["id"].as_str().unwrap().to_string();
            let (status, body) = start(a, &id).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            let (status, body) = complete(a, &id, json!({"produced_quantity": "1"})).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            id
        },
        async |c, id| {
            vec![
                c.get("/api/boms").await,
                c.get("/api/manufacturing-orders").await,
                c.get(&format!("/api/manufacturing-orders/{id}")).await,
                start(c, id).await,
                c.post(&format!("/api/manufacturing-orders/{id}/cancel"), json!({}))
                    .await,
                complete(c, id, json!({"produced_quantity": "1"})).await,
            ]
        },
    )
    .await;
}
