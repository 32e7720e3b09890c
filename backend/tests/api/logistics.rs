//! Logistics (issue 23): shipments reserve their lots (first expiry first
//! out), ship once and all-or-nothing, give each package a unique SSCC
//! from the organisation's GS1 company prefix, record valid EPCIS shipping
//! and receiving events, and print an SSCC label whose GS1-128 barcode a
//! real decoder reads back. A package of a lot with codes carries the lot's
//! next codes not shipped yet, one per whole unit, never another
//! shipment's; the export lists them as SGTINs under its SSCC.

use brandops::accounts::Role;
use reqwest::StatusCode;
use rxing::{BarcodeFormat, DecodeHints, RXingResultMetadataType, RXingResultMetadataValue};
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated_between, assert_refused_to_tenant, create_product,
    download, generate_codes, repo_root, slow_inserts, unique,
};

/// A GLN with a right check digit.
const GLN: &str = "9506000134352";
const PREFIX: &str = "4006381";

struct Setup {
    app: TestApp,
    brand: TestTenant,
    admin: Client,
    product: String,
    skuid: String,
    gtin: String,
    location: String,
    customer: String,
}

async fn location(c: &Client, code: &str) -> String {
    let (status, loc) = c
        .post(
            "/api/locations",
            json!({"code": code, "name": format!("Warehouse {code}"), "kind": "warehouse"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{loc}");
    loc["id"].as_str().unwrap().to_string()
}

/// A customer, added through the parties API.
async fn customer(c: &Client, name: &str, gln: Option<&str>) -> String {
    let mut body = json!({"name": name, "country": "DE"});
    if let Some(gln) = gln {
        body["gln"] = json!(gln);
    }
    let (status, created) = c.post("/api/customers", body).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    created["id"].as_str().unwrap().to_string()
}

/// A lot registered as the owner (the lot register's API is another part).
async fn lot(app: &TestApp, t: &TestTenant, product: &str, number: &str, expires: &str) -> String {
    let id = uuid::Uuid::new_v4();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {}.lots (id, product_id, number, expires_on, status)
         VALUES ($1, $2::uuid, $3, $4::date, 'released')",
        t.schema
    )))
    .bind(id)
    .bind(product)
    .bind(number)
    .bind(expires)
    .execute(&app.owner)
    .await
    .unwrap();
    id.to_string()
}

async fn set_lot_status(app: &TestApp, t: &TestTenant, lot: &str, status: &str) {
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

async fn receive(c: &Client, product: &str, lot: &str, to: &str, quantity: &str) {
    let (status, m) = c
        .post(
            "/api/stock-moves",
            json!({"product_id": product, "lot_id": lot, "quantity": quantity,
                   "to_location_id": to, "reason": "receipt", "unit_cost": "1.00",
                   "currency": "EUR"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{m}");
}

/// On hand and reserved of (product, location, lot).
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

async fn set_prefix(c: &Client, prefix: &str) {
    let (status, org) = c
        .put("/api/organisation/gs1", json!({"company_prefix": prefix}))
        .await;
    assert_eq!(status, StatusCode::OK, "{org}");
    assert_eq!(org["gs1CompanyPrefix"], prefix);
}

async fn setup() -> Setup {
    setup_in(TestApp::spawn().await).await
}

async fn setup_in(app: TestApp) -> Setup {
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let p = create_product(&admin, "Tea <b>green</b>", "SHP").await;
    let location = location(&admin, &unique("WH")).await;
    let customer = customer(&admin, "Pharma <i>Wholesale</i>", Some(GLN)).await;
    Setup {
        app,
        brand,
        admin,
        product: p.id,
        skuid: p.skuid,
        gtin: p.gtin,
        location,
        customer,
    }
}

fn shipment_body(s: &Setup, lines: Value) -> Value {
    json!({"customer_id": s.customer, "from_location_id": s.location, "lines": lines})
}

async fn create(c: &Client, body: Value) -> Value {
    let (status, sh) = c.post("/api/shipments", body).await;
    assert_eq!(status, StatusCode::CREATED, "{sh}");
    sh
}

async fn act(c: &Client, id: &str, what: &str) -> (StatusCode, Value) {
    c.post(&format!("/api/shipments/{id}/{what}"), json!({}))
        .await
}

async fn count(app: &TestApp, t: &TestTenant, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.replace("{s}", &t.schema)))
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

fn assert_valid_epcis(doc: &Value) {
    let text =
        std::fs::read_to_string(repo_root().join("backend/assets/epcis/EPCISDocument.schema.json"))
            .unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "not valid EPCIS 2.0: {errors:?}\n{doc}");
}

#[tokio::test]
async fn a_shipment_picks_first_expiry_ships_with_ssccs_and_is_delivered() {
    let s = setup().await;
    let late = lot(&s.app, &s.brand, &s.product, "LATE", "2031-01-01").await;
    let early = lot(&s.app, &s.brand, &s.product, "EARLY", "2030-01-01").await;
    receive(&s.admin, &s.product, &late, &s.location, "10").await;
    receive(&s.admin, &s.product, &early, &s.location, "10").await;
    set_prefix(&s.admin, PREFIX).await;

    // A worker creates it: the earliest expiry first, and the stock is
    // promised at once.
    let worker = s
        .app
        .login(&s.app.account(&s.brand, Role::Worker).await)
        .await;
    let sh = create(
        &worker,
        shipment_body(&s, json!([{"product_id": s.product, "quantity": "12"}])),
    )
    .await;
    assert_eq!(sh["status"], "draft");
    assert!(sh["reference"].as_str().unwrap().starts_with("SH-"));
    assert_eq!(sh["customer"]["name"], "Pharma <i>Wholesale</i>", "text");
    let picks = sh["lines"][0]["picks"].as_array().unwrap();
    let got: Vec<(&str, &str)> = picks
        .iter()
        .map(|p| {
            (
                p["lot_number"].as_str().unwrap(),
                p["quantity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, [("EARLY", "10"), ("LATE", "2")]);
    assert_eq!(sh["lines"][0]["reserved"], true);
    assert_eq!(sh["packages"], json!([{"package": 1}]));
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &early).await,
        ("10".into(), "10".into())
    );
    let id = sh["id"].as_str().unwrap().to_string();

    // A label before it ships: refused.
    let (status, _) = worker.get(&format!("/api/shipments/{id}/label.pdf")).await;
    assert_eq!(status, StatusCode::CONFLICT);

    let (status, shipped) = act(&worker, &id, "ship").await;
    assert_eq!(status, StatusCode::OK, "{shipped}");
    assert_eq!(shipped["status"], "shipped");
    let sscc = shipped["packages"][0]["sscc"].as_str().unwrap().to_string();
    assert_eq!(sscc.len(), 18);
    assert_eq!(&sscc[..8], &format!("0{PREFIX}"));
    assert!(brandops::gs1::check_digit_ok(&sscc), "{sscc}");
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &early).await,
        ("0".into(), "0".into())
    );
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &late).await,
        ("8".into(), "0".into())
    );
    let moves = count(
        &s.app,
        &s.brand,
        "SELECT count(*) FROM {s}.stock_moves WHERE reason = 'shipment'",
    )
    .await;
    assert_eq!(moves, 2);
    let lots: Vec<(String, rust_decimal::Decimal)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT l.number, sl.quantity FROM {s}.shipment_lots sl JOIN {s}.lots l ON l.id = sl.lot_id
          WHERE sl.shipment_id = $1::uuid ORDER BY l.number",
        s = s.brand.schema
    )))
    .bind(&id)
    .fetch_all(&s.app.owner)
    .await
    .unwrap();
    assert_eq!(
        lots,
        [
            ("EARLY".to_string(), rust_decimal::Decimal::from(10)),
            ("LATE".to_string(), rust_decimal::Decimal::from(2))
        ]
    );

    // The EPCIS export: the aggregation into the SSCC and the shipping,
    // to the customer's GLN; valid EPCIS 2.0.
    let (status, doc) = s.admin.get("/api/epcis/events?biz_step=packing").await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    assert_valid_epcis(&doc);
    let agg = &doc["epcisBody"]["eventList"][0];
    assert_eq!(agg["type"], "AggregationEvent");
    assert_eq!(agg["parentID"], format!("https://id.gs1.org/00/{sscc}"));
    let classes: Vec<(&str, f64)> = agg["childQuantityList"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["epcClass"].as_str().unwrap(),
                q["quantity"].as_f64().unwrap(),
            )
        })
        .collect();
    let class = |lot: &str| format!("https://id.gs1.org/01/{}/10/{lot}", s.gtin);
    assert_eq!(
        classes,
        [
            (class("EARLY").as_str(), 10.0),
            (class("LATE").as_str(), 2.0)
        ]
    );
    let (_, doc) = s.admin.get("/api/epcis/events?biz_step=shipping").await;
    assert_valid_epcis(&doc);
    let obs = &doc["epcisBody"]["eventList"][0];
    assert_eq!(obs["type"], "ObjectEvent");
    assert_eq!(
        obs["epcList"],
        json!([format!("https://id.gs1.org/00/{sscc}")])
    );
    assert_eq!(
        obs["destinationList"][0]["destination"],
        format!("https://id.gs1.org/414/{GLN}")
    );

    // Every refused transition: 409 invalid_transition, nothing changed
    // (cancelling is for admins and managers: a worker is refused it).
    let (status, _) = act(&worker, &id, "cancel").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for what in ["ship", "cancel"] {
        let (status, body) = act(&s.admin, &id, what).await;
        assert_eq!(status, StatusCode::CONFLICT, "{what}: {body}");
        assert_eq!(body["code"], "invalid_transition");
    }
    let (status, delivered) = act(&worker, &id, "deliver").await;
    assert_eq!(status, StatusCode::OK, "{delivered}");
    assert_eq!(delivered["status"], "delivered");
    for what in ["ship", "deliver", "cancel"] {
        let (status, body) = act(&s.admin, &id, what).await;
        assert_eq!(status, StatusCode::CONFLICT, "{what}: {body}");
        assert_eq!(body["code"], "invalid_transition");
    }
    let (_, doc) = s.admin.get("/api/epcis/events?biz_step=receiving").await;
    assert_valid_epcis(&doc);
    assert_eq!(
        doc["epcisBody"]["eventList"][0]["bizLocation"]["id"],
        format!("https://id.gs1.org/414/{GLN}")
    );

    // A draft neither delivers; a cancelled one neither ships nor delivers.
    receive(&s.admin, &s.product, &late, &s.location, "5").await;
    let draft = create(
        &s.admin,
        shipment_body(&s, json!([{"product_id": s.product, "quantity": "1"}])),
    )
    .await;
    let draft = draft["id"].as_str().unwrap().to_string();
    let (status, body) = act(&s.admin, &draft, "deliver").await;
    assert_eq!(
        (status, body["code"].clone()),
        (StatusCode::CONFLICT, json!("invalid_transition"))
    );
    let (status, cancelled) = act(&s.admin, &draft, "cancel").await;
    assert_eq!(status, StatusCode::OK, "{cancelled}");
    assert_eq!(cancelled["status"], "cancelled");
    assert_eq!(cancelled["lines"][0]["reserved"], false);
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &late).await,
        ("13".into(), "0".into()),
        "the cancelled draft's stock is free again"
    );
    for what in ["ship", "deliver", "cancel"] {
        let (status, body) = act(&s.admin, &draft, what).await;
        assert_eq!(status, StatusCode::CONFLICT, "{what}: {body}");
        assert_eq!(body["code"], "invalid_transition");
    }

    let (status, list) = s.admin.get("/api/shipments?status=delivered").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["shipments"].as_array().unwrap().len(), 1);
    for action in [
        "logistics.company_prefix_set",
        "logistics.shipment_created",
        "logistics.shipment_shipped",
        "logistics.shipment_delivered",
        "logistics.shipment_cancelled",
    ] {
        assert!(s.app.audited(&s.brand, action).await >= 1, "{action}");
    }
}

#[tokio::test]
async fn the_company_prefix_is_checked_and_shipping_needs_it() {
    let s = setup().await;
    let l = lot(&s.app, &s.brand, &s.product, "L1", "2030-01-01").await;
    receive(&s.admin, &s.product, &l, &s.location, "5").await;
    let sh = create(
        &s.admin,
        shipment_body(&s, json!([{"product_id": s.product, "quantity": "1"}])),
    )
    .await;
    let id = sh["id"].as_str().unwrap().to_string();
    let (status, body) = act(&s.admin, &id, "ship").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "no_company_prefix");
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &l).await,
        ("5".into(), "1".into()),
        "nothing moved"
    );

    for bad in ["12345", "1234567890123", "12345a", " 123456"] {
        let (status, body) = s
            .admin
            .put("/api/organisation/gs1", json!({"company_prefix": bad}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["error"].as_str().unwrap().contains("6 to 12 digits"));
    }
    let (_, org) = s.admin.get("/api/organisation").await;
    assert!(org.get("gs1CompanyPrefix").is_none(), "{org}");
    // Only admins set it.
    for role in [Role::Manager, Role::Worker] {
        let c = s.app.login(&s.app.account(&s.brand, role).await).await;
        let (status, _) = c
            .put("/api/organisation/gs1", json!({"company_prefix": PREFIX}))
            .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{role:?}");
    }
    set_prefix(&s.admin, "123456789012").await;
    let (_, org) = s.admin.get("/api/organisation").await;
    assert_eq!(org["gs1CompanyPrefix"], "123456789012");

    // The prefix's last serial: the next ship finds the range used up, and
    // nothing is shipped.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {}.sscc_counters (company_prefix, next_serial) VALUES ('123456789012', 100000)",
        s.brand.schema
    )))
    .execute(&s.app.owner)
    .await
    .unwrap();
    let (status, body) = act(&s.admin, &id, "ship").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "sscc_range_exhausted");
    let (_, sh) = s.admin.get(&format!("/api/shipments/{id}")).await;
    assert_eq!(sh["status"], "draft");
    assert_eq!(s.app.rows(&s.brand, "shipment_packages").await, 0);
    // One serial left: it ships with the last SSCC of the prefix.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {}.sscc_counters SET next_serial = 99999",
        s.brand.schema
    )))
    .execute(&s.app.owner)
    .await
    .unwrap();
    let (status, body) = act(&s.admin, &id, "ship").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let sscc = body["packages"][0]["sscc"].as_str().unwrap();
    assert_eq!(&sscc[..17], "91234567890129999");
}

#[tokio::test]
async fn bad_shipments_change_nothing() {
    let s = setup().await;
    let l = lot(&s.app, &s.brand, &s.product, "L1", "2030-01-01").await;
    receive(&s.admin, &s.product, &l, &s.location, "5").await;
    let other = create_product(&s.admin, "Other", "OTH").await.id;
    let held = lot(&s.app, &s.brand, &s.product, "HELD", "2030-01-01").await;
    receive(&s.admin, &s.product, &held, &s.location, "5").await;
    set_lot_status(&s.app, &s.brand, &held, "held").await;
    let none = uuid::Uuid::new_v4().to_string();
    let line = |q: &str| json!({"product_id": s.product, "quantity": q});
    for (body, want, code) in [
        (shipment_body(&s, json!([])), StatusCode::BAD_REQUEST, None),
        (
            shipment_body(&s, json!([line("0")])),
            StatusCode::BAD_REQUEST,
            None,
        ),
        (
            shipment_body(&s, json!([line("1.2345")])),
            StatusCode::BAD_REQUEST,
            None,
        ),
        (
            shipment_body(
                &s,
                json!([{"product_id": s.product, "quantity": "1", "package": 100}]),
            ),
            StatusCode::BAD_REQUEST,
            None,
        ),
        (
            json!({"customer_id": none, "from_location_id": s.location, "lines": [line("1")]}),
            StatusCode::NOT_FOUND,
            None,
        ),
        (
            json!({"customer_id": s.customer, "from_location_id": none, "lines": [line("1")]}),
            StatusCode::NOT_FOUND,
            None,
        ),
        (
            shipment_body(&s, json!([{"product_id": none, "quantity": "1"}])),
            StatusCode::NOT_FOUND,
            None,
        ),
        (
            shipment_body(
                &s,
                json!([{"product_id": other, "quantity": "1", "lot_id": l}]),
            ),
            StatusCode::BAD_REQUEST,
            None,
        ),
        (
            shipment_body(
                &s,
                json!([{"product_id": s.product, "quantity": "1", "lot_id": held}]),
            ),
            StatusCode::CONFLICT,
            Some("lot_not_available"),
        ),
        // A shortage on the second line: nothing is reserved for the first.
        (
            shipment_body(&s, json!([line("2"), line("4")])),
            StatusCode::CONFLICT,
            Some("insufficient_stock"),
        ),
        (
            shipment_body(
                &s,
                json!([{"product_id": s.product, "quantity": "6", "lot_id": l}]),
            ),
            StatusCode::CONFLICT,
            Some("insufficient_stock"),
        ),
    ] {
        let (status, answer) = s.admin.post("/api/shipments", body.clone()).await;
        assert_eq!(status, want, "{body}: {answer}");
        if let Some(code) = code {
            assert_eq!(answer["code"], code, "{answer}");
        }
        assert!(!answer["error"].as_str().unwrap_or_default().is_empty());
    }
    assert_eq!(s.app.rows(&s.brand, "shipments").await, 0);
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &l).await,
        ("5".into(), "0".into())
    );
}

#[tokio::test]
async fn a_ship_is_all_or_nothing_when_a_lot_became_unavailable() {
    let s = setup().await;
    set_prefix(&s.admin, PREFIX).await;
    let a = lot(&s.app, &s.brand, &s.product, "A", "2030-01-01").await;
    let b = lot(&s.app, &s.brand, &s.product, "B", "2030-06-01").await;
    receive(&s.admin, &s.product, &a, &s.location, "3").await;
    receive(&s.admin, &s.product, &b, &s.location, "3").await;
    let sh = create(
        &s.admin,
        shipment_body(
            &s,
            json!([{"product_id": s.product, "quantity": "3", "lot_id": a},
                   {"product_id": s.product, "quantity": "3", "lot_id": b, "package": 2}]),
        ),
    )
    .await;
    let id = sh["id"].as_str().unwrap().to_string();
    // Lot B is put on hold after the draft: the ship is refused whole.
    set_lot_status(&s.app, &s.brand, &b, "held").await;
    let moves = s.app.rows(&s.brand, "stock_moves").await;
    let events = s.app.rows(&s.brand, "epcis_events").await;
    let (status, body) = act(&s.admin, &id, "ship").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "lot_not_available");
    assert_eq!(s.app.rows(&s.brand, "stock_moves").await, moves);
    assert_eq!(s.app.rows(&s.brand, "epcis_events").await, events);
    assert_eq!(s.app.rows(&s.brand, "shipment_lots").await, 0);
    assert_eq!(s.app.rows(&s.brand, "shipment_packages").await, 0);
    assert_eq!(s.app.rows(&s.brand, "sscc_counters").await, 0);
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &a).await,
        ("3".into(), "3".into()),
        "lot A is still on hand and promised"
    );
    let (_, sh) = s.admin.get(&format!("/api/shipments/{id}")).await;
    assert_eq!(sh["status"], "draft");
    // Released again, it ships both packages.
    set_lot_status(&s.app, &s.brand, &b, "released").await;
    let (status, body) = act(&s.admin, &id, "ship").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let ssccs: Vec<&str> = body["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["sscc"].as_str().unwrap())
        .collect();
    assert_eq!(ssccs.len(), 2);
    assert_ne!(ssccs[0], ssccs[1]);
}

#[tokio::test]
async fn parallel_ships_of_one_shipment_ship_it_once() {
    let s = setup().await;
    set_prefix(&s.admin, PREFIX).await;
    let l = lot(&s.app, &s.brand, &s.product, "L1", "2030-01-01").await;
    receive(&s.admin, &s.product, &l, &s.location, "10").await;
    let sh = create(
        &s.admin,
        shipment_body(&s, json!([{"product_id": s.product, "quantity": "4"}])),
    )
    .await;
    let id = sh["id"].as_str().unwrap().to_string();
    slow_inserts(&s.app, &s.brand, "stock_moves").await;
    let answers = futures::future::join_all((0..20).map(|_| act(&s.admin, &id, "ship"))).await;
    let ok = answers
        .iter()
        .filter(|(st, _)| *st == StatusCode::OK)
        .count();
    assert_eq!(ok, 1, "{answers:?}");
    for (status, body) in &answers {
        if *status != StatusCode::OK {
            assert_eq!(*status, StatusCode::CONFLICT, "{body}");
            assert_eq!(body["code"], "invalid_transition");
        }
    }
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &l).await,
        ("6".into(), "0".into())
    );
    assert_eq!(s.app.rows(&s.brand, "shipment_packages").await, 1);
    let shipping = count(
        &s.app,
        &s.brand,
        "SELECT count(*) FROM {s}.epcis_events WHERE biz_step = 'shipping'",
    )
    .await;
    assert_eq!(shipping, 1);
}

#[tokio::test]
async fn parallel_drafts_never_promise_the_same_stock_and_ssccs_stay_unique() {
    let s = setup().await;
    set_prefix(&s.admin, PREFIX).await;
    let l = lot(&s.app, &s.brand, &s.product, "L1", "2030-01-01").await;
    receive(&s.admin, &s.product, &l, &s.location, "20").await;
    slow_inserts(&s.app, &s.brand, "stock_reservation_lines").await;
    let body = shipment_body(
        &s,
        json!([{"product_id": s.product, "quantity": "2"},
               {"product_id": s.product, "quantity": "1", "package": 2}]),
    );
    let answers =
        futures::future::join_all((0..20).map(|_| s.admin.post("/api/shipments", body.clone())))
            .await;
    let mut ids = Vec::new();
    for (status, body) in &answers {
        if *status == StatusCode::CREATED {
            ids.push(body["id"].as_str().unwrap().to_string());
        } else {
            assert_eq!(*status, StatusCode::CONFLICT, "{body}");
            assert_eq!(body["code"], "insufficient_stock");
        }
    }
    assert_eq!(ids.len(), 6, "20 units hold six shipments of 3");
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &l).await,
        ("20".into(), "18".into())
    );

    // Ship them all at once: twelve packages, twelve distinct SSCCs.
    slow_inserts(&s.app, &s.brand, "shipment_packages").await;
    let answers = futures::future::join_all(ids.iter().map(|id| act(&s.admin, id, "ship"))).await;
    let mut ssccs = std::collections::BTreeSet::new();
    for (status, body) in &answers {
        assert_eq!(*status, StatusCode::OK, "{body}");
        for p in body["packages"].as_array().unwrap() {
            let sscc = p["sscc"].as_str().unwrap().to_string();
            assert!(brandops::gs1::check_digit_ok(&sscc));
            ssccs.insert(sscc);
        }
    }
    assert_eq!(ssccs.len(), 12);
    let next: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT next_serial FROM {}.sscc_counters",
        s.brand.schema
    )))
    .fetch_one(&s.app.owner)
    .await
    .unwrap();
    assert_eq!(next, 12);
    assert_eq!(
        balance(&s.admin, &s.product, &s.location, &l).await,
        ("2".into(), "0".into())
    );
}

/// The barcode of `format` in a PNG, decoded by rxing: its text and
/// symbology identifier.
fn decode(png: &[u8]) -> (String, String) {
    let img = image::load_from_memory(png).unwrap().to_luma8();
    let (w, h) = img.dimensions();
    let result = rxing::helpers::detect_in_luma_with_hints(
        img.into_raw(),
        w,
        h,
        Some(BarcodeFormat::CODE_128),
        // Every row: the barcode sits at the foot of the label.
        &mut DecodeHints {
            TryHarder: Some(true),
            ..DecodeHints::default()
        },
    )
    .unwrap_or_else(|e| panic!("no GS1-128 found: {e}"));
    let id = match result
        .getRXingResultMetadata()
        .get(&RXingResultMetadataType::SYMBOLOGY_IDENTIFIER)
    {
        Some(RXingResultMetadataValue::SymbologyIdentifier(id)) => id.clone(),
        other => panic!("no symbology identifier: {other:?}"),
    };
    (result.getText().to_string(), id)
}

#[tokio::test]
async fn the_sscc_label_decodes_back_with_a_real_decoder() {
    let s = setup().await;
    set_prefix(&s.admin, PREFIX).await;
    let l = lot(&s.app, &s.brand, &s.product, "L-7", "2030-01-01").await;
    receive(&s.admin, &s.product, &l, &s.location, "30").await;
    let other = create_product(&s.admin, "Honey", "HON").await;
    let hl = lot(&s.app, &s.brand, &other.id, "H1", "2030-01-01").await;
    receive(&s.admin, &other.id, &hl, &s.location, "5").await;
    // Package 1: one product, 24 units; package 2: two products.
    let sh = create(
        &s.admin,
        shipment_body(
            &s,
            json!([{"product_id": s.product, "quantity": "24"},
                   {"product_id": s.product, "quantity": "1", "package": 2},
                   {"product_id": other.id, "quantity": "2.5", "package": 2}]),
        ),
    )
    .await;
    let id = sh["id"].as_str().unwrap().to_string();
    let (status, shipped) = act(&s.admin, &id, "ship").await;
    assert_eq!(status, StatusCode::OK, "{shipped}");
    let ssccs: Vec<String> = shipped["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["sscc"].as_str().unwrap().to_string())
        .collect();

    let worker = s
        .app
        .login(&s.app.account(&s.brand, Role::Worker).await)
        .await;
    let (status, kind, pdf) = download(&worker, &format!("/api/shipments/{id}/label.pdf")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "application/pdf");

    let dir = std::env::temp_dir().join(format!("brandops-sscc-{id}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("label.pdf"), &pdf).unwrap();
    let out = std::process::Command::new("pdftoppm")
        .args(["-r", "200", "-png"])
        .arg(dir.join("label.pdf"))
        .arg(dir.join("page"))
        .output()
        .expect("pdftoppm (Debian's poppler-utils) must be installed");
    assert!(out.status.success(), "{out:?}");
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    pages.sort();
    assert_eq!(pages.len(), 2, "one page per package");
    let (text, symbology) = decode(&std::fs::read(&pages[0]).unwrap());
    assert_eq!(symbology, "]C1", "GS1-128: FNC1 in first position");
    assert_eq!(text, format!("00{}02{}3724", ssccs[0], s.gtin));
    let (text, symbology) = decode(&std::fs::read(&pages[1]).unwrap());
    assert_eq!(symbology, "]C1");
    assert_eq!(
        text,
        format!("00{}", ssccs[1]),
        "two products: the SSCC alone"
    );

    let out = std::process::Command::new("pdftotext")
        .arg(dir.join("label.pdf"))
        .arg("-")
        .output()
        .expect("pdftotext must be installed");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Pharma <i>Wholesale</i>"), "{text}");
    assert!(text.contains(&format!("GLN (410): {GLN}")), "{text}");
    assert!(
        text.contains(&format!(
            "(00) {} {} {} {}",
            &ssccs[0][..1],
            PREFIX,
            &ssccs[0][8..17],
            &ssccs[0][17..]
        )),
        "{text}"
    );
    assert!(text.contains("L-7"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn shipments_are_isolated_between_organisations() {
    let app = TestApp::spawn().await;
    let (ta, tb) = (app.brand().await, app.brand().await);
    let (a, b) = (app.login(&ta.admin).await, app.login(&tb.admin).await);
    assert_isolated_between(
        &a,
        &b,
        async |a| {
            let product = create_product(a, "Isolated tea", "ISO").await.id;
            let loc = location(a, &unique("WH")).await;
            let cust = customer(a, "Isolated customer", None).await;
            let l = lot(&app, &ta, &product, "ISO-1", "2030-01-01").await;
            receive(a, &product, &l, &loc, "5").await;
            let sh = create(
                a,
                json!({"customer_id": cust, "from_location_id": loc,
                       "lines": [{"product_id": product, "quantity": "1"}]}),
            )
            .await;
            sh["id"].as_str().unwrap().to_string()
        },
        async |c, id| {
            vec![
                c.get("/api/shipments").await,
                c.get(&format!("/api/shipments/{id}")).await,
                c.get(&format!("/api/shipments/{id}/label.pdf")).await,
                act(c, id, "deliver").await,
                act(c, id, "ship").await,
                act(c, id, "cancel").await,
            ]
        },
    )
    .await;
}

// --- serial-level shipments -------------------------------------------------------

/// A code job of `quantity` codes of the product in lot `number` (the lot
/// is registered, or found, by the job): the lot's id and the codes'
/// serials in the job's order.
async fn coded_lot(s: &Setup, number: &str, quantity: u32) -> (String, Vec<String>) {
    let job = generate_codes(
        &s.admin,
        json!({"product_id": s.product, "quantity": quantity, "lot": {"number": number}}),
    )
    .await;
    let serials: Vec<String> = job.rows.iter().map(|r| r[1].clone()).collect();
    assert_eq!(serials.len(), quantity as usize);
    let (status, list) = s
        .admin
        .get(&format!("/api/lots?product_id={}", s.product))
        .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let lot = list["lots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["number"] == number)
        .unwrap_or_else(|| panic!("no lot {number}: {list}"));
    (lot["id"].as_str().unwrap().to_string(), serials)
}

/// The SGTINs of the product's codes.
struct Sgtins {
    prefix: String,
    item: String,
}

impl Sgtins {
    fn of(&self, serial: &str) -> String {
        format!("urn:epc:id:sgtin:{}.{}.{serial}", self.prefix, self.item)
    }
}

/// Sets the organisation's company prefix to the product's own (the
/// GTIN's 7 digits after the indicator), so its codes are SGTINs.
async fn own_prefix(s: &Setup) -> Sgtins {
    let prefix = s.gtin[1..8].to_string();
    set_prefix(&s.admin, &prefix).await;
    Sgtins {
        prefix,
        item: format!("{}{}", &s.gtin[..1], &s.gtin[8..13]),
    }
}

async fn ship(c: &Client, id: &str) -> Value {
    let (status, shipped) = act(c, id, "ship").await;
    assert_eq!(status, StatusCode::OK, "{shipped}");
    shipped
}

/// The whole export, all pages (checked against the EPCIS 2.0 schema).
async fn export_all(c: &Client, query: &str) -> Vec<Value> {
    let mut events = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let mut path = format!("/api/epcis/events?limit=500{query}");
        if let Some(a) = &after {
            path.push_str(&format!("&after={a}"));
        }
        let resp = c.http.get(c.url(&path)).send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        after = resp
            .headers()
            .get("next-cursor")
            .map(|v| v.to_str().unwrap().to_string());
        let doc: Value = resp.json().await.unwrap();
        assert_valid_epcis(&doc);
        events.extend(doc["epcisBody"]["eventList"].as_array().unwrap().clone());
        if after.is_none() {
            return events;
        }
    }
}

/// The packing events of the export for the SSCC `sscc`.
fn packed_into<'a>(events: &'a [Value], sscc: &str) -> Vec<&'a Value> {
    let parent = format!("https://id.gs1.org/00/{sscc}");
    events
        .iter()
        .filter(|e| e["type"] == "AggregationEvent" && e["parentID"] == parent.as_str())
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|l| l.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// (class, quantity) of an event's childQuantityList.
fn quantities(e: &Value) -> Vec<(String, f64)> {
    e["childQuantityList"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|q| {
                    (
                        q["epcClass"].as_str().unwrap().to_string(),
                        q["quantity"].as_f64().unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn sscc_of(shipped: &Value, package: i64) -> String {
    shipped["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["package"] == package)
        .unwrap()["sscc"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn shipped_packages_carry_their_lots_next_codes_as_sgtins_never_twice() {
    let s = setup().await;
    let sgtin = own_prefix(&s).await;
    // Lot SER1: two code jobs, of 3 and 4 codes; 10.5 units in stock.
    let (lot, first) = coded_lot(&s, "SER1", 3).await;
    let (again, second) = coded_lot(&s, "SER1", 4).await;
    assert_eq!(lot, again, "the second job's lot is the first's");
    let codes: Vec<String> = first.iter().chain(&second).map(|x| sgtin.of(x)).collect();
    // Another lot without codes, in the same package.
    let plain = self::lot(&s.app, &s.brand, &s.product, "PLAIN", "2030-01-01").await;
    receive(&s.admin, &s.product, &lot, &s.location, "10.5").await;
    receive(&s.admin, &s.product, &plain, &s.location, "5").await;

    // Shipment A: package 1 takes 2 units, package 2 takes 4 (and 1.5 of
    // the lot without codes).
    let a = create(
        &s.admin,
        shipment_body(
            &s,
            json!([{"product_id": s.product, "quantity": "2", "lot_id": lot},
                   {"product_id": s.product, "quantity": "4", "lot_id": lot, "package": 2},
                   {"product_id": s.product, "quantity": "1.5", "lot_id": plain, "package": 2}]),
        ),
    )
    .await;
    let a = ship(&s.admin, a["id"].as_str().unwrap()).await;
    // Shipment B, later: the rest of the lot, 4.5 units: one code is left.
    let b = create(
        &s.admin,
        shipment_body(
            &s,
            json!([{"product_id": s.product, "quantity": "4.5", "lot_id": lot}]),
        ),
    )
    .await;
    let b = ship(&s.admin, b["id"].as_str().unwrap()).await;

    // Stored as ranges, never a row per code.
    let ranges: Vec<(i32, i32, i32, i32)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT sc.package, j.quantity, sc.first_position, sc.last_position
           FROM {s}.shipment_codes sc JOIN {s}.code_jobs j ON j.seq = sc.job_seq
          ORDER BY sc.job_seq, sc.first_position",
        s = s.brand.schema
    )))
    .fetch_all(&s.app.owner)
    .await
    .unwrap();
    assert_eq!(
        ranges,
        [(1, 3, 1, 2), (2, 3, 3, 3), (2, 4, 1, 3), (1, 4, 4, 4)],
        "(package, job size, first, last)"
    );

    let events = export_all(&s.admin, "").await;
    let class = |number: &str| format!("https://id.gs1.org/01/{}/10/{number}", s.gtin);
    let a1 = packed_into(&events, &sscc_of(&a, 1));
    assert_eq!(a1.len(), 1);
    assert_eq!(strings(&a1[0]["childEPCs"]), codes[..2]);
    assert!(a1[0].get("childQuantityList").is_none(), "{}", a1[0]);
    let a2 = packed_into(&events, &sscc_of(&a, 2));
    assert_eq!(a2.len(), 1);
    assert_eq!(strings(&a2[0]["childEPCs"]), codes[2..6]);
    assert_eq!(
        quantities(a2[0]),
        [(class("PLAIN"), 1.5)],
        "the lot without codes stays a quantity"
    );
    let b1 = packed_into(&events, &sscc_of(&b, 1));
    assert_eq!(b1.len(), 1);
    assert_eq!(strings(&b1[0]["childEPCs"]), codes[6..]);
    assert_eq!(
        quantities(b1[0]),
        [(class("SER1"), 3.5)],
        "units beyond the lot's codes stay a quantity"
    );
    // Every code once, across both shipments.
    let mut all: Vec<String> = [a1[0], a2[0], b1[0]]
        .iter()
        .flat_map(|e| strings(&e["childEPCs"]))
        .collect();
    all.sort();
    let mut expected = codes.clone();
    expected.sort();
    assert_eq!(all, expected);
    // The stored row is one per package and still says what it holds.
    let stored: Vec<Value> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT document FROM {}.epcis_events WHERE shipment_id IS NOT NULL ORDER BY seq",
        s.brand.schema
    )))
    .fetch_all(&s.app.owner)
    .await
    .unwrap();
    assert_eq!(stored.len(), 3);
    assert_eq!(quantities(&stored[2]), [(class("SER1"), 4.5)]);

    // The product's own export (skuid) has them too.
    let mine = export_all(&s.admin, &format!("&skuid={}", s.skuid)).await;
    assert_eq!(packed_into(&mine, &sscc_of(&b, 1)).len(), 1);
    assert!(s.app.audited(&s.brand, "logistics.shipment_shipped").await >= 2);
}

#[tokio::test]
async fn a_package_of_more_than_10000_codes_is_split_into_events_of_at_most_10000() {
    let s = setup().await;
    let sgtin = own_prefix(&s).await;
    let (lot, serials) = coded_lot(&s, "BIG", 10_001).await;
    receive(&s.admin, &s.product, &lot, &s.location, "10001").await;
    let sh = create(
        &s.admin,
        shipment_body(
            &s,
            json!([{"product_id": s.product, "quantity": "10001", "lot_id": lot}]),
        ),
    )
    .await;
    let id = sh["id"].as_str().unwrap().to_string();
    let shipped = ship(&s.admin, &id).await;
    let events = export_all(&s.admin, "&biz_step=packing").await;
    let parts = packed_into(&events, &sscc_of(&shipped, 1));
    assert_eq!(parts.len(), 2, "10,000 EPCs, then 1");
    let stored: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT event_id FROM {}.epcis_events WHERE shipment_id = $1::uuid",
        s.brand.schema
    )))
    .bind(&id)
    .fetch_one(&s.app.owner)
    .await
    .unwrap();
    assert_eq!(parts[0]["eventID"], stored.as_str());
    let derived = parts[1]["eventID"].as_str().unwrap();
    assert!(
        derived.starts_with("urn:uuid:") && derived != stored,
        "{derived}"
    );
    let first = strings(&parts[0]["childEPCs"]);
    let second = strings(&parts[1]["childEPCs"]);
    assert_eq!((first.len(), second.len()), (10_000, 1));
    for part in &parts {
        assert!(part.get("childQuantityList").is_none(), "all have codes");
        assert_eq!(part["bizStep"], "packing");
    }
    let expected: Vec<String> = serials.iter().map(|x| sgtin.of(x)).collect();
    assert_eq!([first, second].concat(), expected);
    assert_eq!(s.app.rows(&s.brand, "shipment_codes").await, 1);
}

#[tokio::test]
async fn parallel_shipments_of_one_lot_never_share_a_code_and_leave_no_gap() {
    let s = setup().await;
    let sgtin = own_prefix(&s).await;
    let (lot, serials) = coded_lot(&s, "PAR", 30).await;
    receive(&s.admin, &s.product, &lot, &s.location, "40").await;
    // Twenty drafts of 1 or 2 units: 30 in all, as many as the codes.
    let mut ids = Vec::new();
    for k in 0..20 {
        let quantity = if k % 2 == 0 { "1" } else { "2" };
        let sh = create(
            &s.admin,
            shipment_body(
                &s,
                json!([{"product_id": s.product, "quantity": quantity, "lot_id": lot}]),
            ),
        )
        .await;
        ids.push((sh["id"].as_str().unwrap().to_string(), k % 2 + 1));
    }
    // Slowed ranges: each ship holds its transaction open after it read
    // the jobs' free positions.
    slow_inserts(&s.app, &s.brand, "shipment_codes").await;
    let answers =
        futures::future::join_all(ids.iter().map(|(id, _)| act(&s.admin, id, "ship"))).await;
    let mut sscc_units = Vec::new();
    for ((_, units), (status, body)) in ids.iter().zip(&answers) {
        assert_eq!(*status, StatusCode::OK, "{body}");
        sscc_units.push((sscc_of(body, 1), *units));
    }

    // The ranges: positions 1 to 30, each once, no gap.
    let ranges: Vec<(i32, i32)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT first_position, last_position FROM {}.shipment_codes ORDER BY first_position",
        s.brand.schema
    )))
    .fetch_all(&s.app.owner)
    .await
    .unwrap();
    assert_eq!(ranges.len(), 20);
    let mut next = 1;
    for (first, last) in &ranges {
        assert_eq!(*first, next, "{ranges:?}");
        assert!(last >= first);
        next = last + 1;
    }
    assert_eq!(next, 31, "{ranges:?}");

    // The export: each package lists as many codes as its whole units, and
    // no code twice.
    let events = export_all(&s.admin, "&biz_step=packing").await;
    let mut seen = std::collections::BTreeSet::new();
    for (sscc, units) in &sscc_units {
        let parts = packed_into(&events, sscc);
        assert_eq!(parts.len(), 1);
        let epcs = strings(&parts[0]["childEPCs"]);
        assert_eq!(epcs.len(), *units as usize, "{sscc}");
        for epc in epcs {
            assert!(seen.insert(epc.clone()), "{epc} shipped twice");
        }
    }
    let expected: std::collections::BTreeSet<String> =
        serials.iter().map(|x| sgtin.of(x)).collect();
    assert_eq!(seen, expected);
}

/// Whether a statement of the tenant containing `text` waits for a lock.
async fn waits_for_lock(app: &TestApp, text: &str) -> bool {
    let waiting: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND state = 'active' AND position($1 in query) > 0",
    )
    .bind(text)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    waiting > 0
}

#[tokio::test]
async fn a_ship_queues_on_its_lots_allocation_lock_which_stock_moves_do_not() {
    // Connections for the held lock, the ship and the stock move at once.
    let s = setup_in(TestApp::spawn_with(|c| c.db_tenant_pool_size = 4).await).await;
    let _ = own_prefix(&s).await;
    let (lot, _) = coded_lot(&s, "LCK", 3).await;
    receive(&s.admin, &s.product, &lot, &s.location, "5").await;
    let other = location(&s.admin, &unique("WH")).await;
    let sh = create(
        &s.admin,
        shipment_body(
            &s,
            json!([{"product_id": s.product, "quantity": "2", "lot_id": lot}]),
        ),
    )
    .await;
    let id = sh["id"].as_str().unwrap().to_string();

    // Another allocation of the lot in flight: its lock held.
    let lot_id: uuid::Uuid = lot.parse().unwrap();
    let mut held = s.app.state.db.begin_tenant(&s.brand.tenant).await.unwrap();
    let locked = brandops::logistics::store::lock_coded_lots(&mut held, &[lot_id])
        .await
        .unwrap();
    assert_eq!(locked, [lot_id]);

    let ship = act(&s.admin, &id, "ship");
    let meanwhile = async {
        // The ship waits there (its moves done, its codes not taken) …
        let mut waited = false;
        for _ in 0..600 {
            if waits_for_lock(&s.app, "FOR NO KEY UPDATE OF l").await {
                waited = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        // … while the ledger moves stock of the lot (its share lock on the
        // lot does not conflict).
        receive(&s.admin, &s.product, &lot, &other, "1").await;
        let (status, shipment) = s.admin.get(&format!("/api/shipments/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        let still = shipment["status"].clone();
        held.commit().await.unwrap();
        (waited, still)
    };
    let ((status, shipped), (waited, still)) = tokio::join!(ship, meanwhile);
    assert!(waited, "the ship did not wait for the lot's lock");
    assert_eq!(still, "draft", "the ship committed through the lock");
    assert_eq!(status, StatusCode::OK, "{shipped}");
    let ranges: Vec<(i32, i32)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT first_position, last_position FROM {}.shipment_codes",
        s.brand.schema
    )))
    .fetch_all(&s.app.owner)
    .await
    .unwrap();
    assert_eq!(ranges, [(1, 2)]);
}

#[tokio::test]
async fn shipment_codes_are_append_only_for_the_tenant_role() {
    let s = setup().await;
    let _ = own_prefix(&s).await;
    let (lot, _) = coded_lot(&s, "FIX", 2).await;
    receive(&s.admin, &s.product, &lot, &s.location, "2").await;
    let sh = create(
        &s.admin,
        shipment_body(
            &s,
            json!([{"product_id": s.product, "quantity": "2", "lot_id": lot}]),
        ),
    )
    .await;
    ship(&s.admin, sh["id"].as_str().unwrap()).await;
    assert_eq!(s.app.rows(&s.brand, "shipment_codes").await, 1);
    assert_refused_to_tenant(
        &s.app,
        &s.brand,
        &[
            "UPDATE shipment_codes SET last_position = 1",
            "DELETE FROM shipment_codes",
            "TRUNCATE shipment_codes",
        ],
    )
    .await;
    assert_eq!(s.app.rows(&s.brand, "shipment_codes").await, 1);
}

#[tokio::test]
async fn another_organisation_sees_none_of_a_packages_codes() {
    let app = TestApp::spawn().await;
    let (ta, tb) = (app.brand().await, app.brand().await);
    let (a, b) = (app.login(&ta.admin).await, app.login(&tb.admin).await);
    // B has a shipment of its own with codes, so its export is not empty.
    {
        let product = create_product(&b, "B's tea", "ISB").await;
        let loc = location(&b, &unique("WH")).await;
        let cust = customer(&b, "B's customer", None).await;
        set_prefix(&b, &product.gtin[1..8]).await;
        generate_codes(
            &b,
            json!({"product_id": product.id, "quantity": 2, "lot": {"number": "B1"}}),
        )
        .await;
        let (_, list) = b.get(&format!("/api/lots?product_id={}", product.id)).await;
        let l = list["lots"][0]["id"].as_str().unwrap().to_string();
        receive(&b, &product.id, &l, &loc, "2").await;
        let sh = create(
            &b,
            json!({"customer_id": cust, "from_location_id": loc,
                   "lines": [{"product_id": product.id, "quantity": "2"}]}),
        )
        .await;
        ship(&b, sh["id"].as_str().unwrap()).await;
    }
    assert_isolated_between(
        &a,
        &b,
        async |a| {
            let product = create_product(a, "Isolated tea", "ISO").await;
            let loc = location(a, &unique("WH")).await;
            let cust = customer(a, "Isolated customer", None).await;
            set_prefix(a, &product.gtin[1..8]).await;
            let job = generate_codes(
                a,
                json!({"product_id": product.id, "quantity": 2, "lot": {"number": "ISO1"}}),
            )
            .await;
            let (_, list) = a.get(&format!("/api/lots?product_id={}", product.id)).await;
            let l = list["lots"][0]["id"].as_str().unwrap().to_string();
            receive(a, &product.id, &l, &loc, "2").await;
            let sh = create(
                a,
                json!({"customer_id": cust, "from_location_id": loc,
                       "lines": [{"product_id": product.id, "quantity": "2"}]}),
            )
            .await;
            ship(a, sh["id"].as_str().unwrap()).await;
            // The marker: a serial the package carried.
            job.rows[1][1].clone()
        },
        async |c, _| {
            vec![
                c.get("/api/epcis/events").await,
                c.get("/api/epcis/events?biz_step=packing").await,
            ]
        },
    )
    .await;
    // Nor A's SSCCs.
    let (_, mine) = a.get("/api/shipments").await;
    let sscc = mine["shipments"][0]["packages"][0]["sscc"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, theirs) = b.get("/api/epcis/events").await;
    assert!(!theirs.to_string().contains(&sscc));
    let (_, own) = a.get("/api/epcis/events").await;
    assert!(own.to_string().contains(&sscc));
}
