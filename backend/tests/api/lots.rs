//! The lot register (issue 22): registering lots (their first status from
//! the product's `requires_inspection`), the list and one lot with its
//! history, changing a status with a reason (admins and managers only),
//! bad input that changes nothing, atomicity with the audit row, and
//! isolation between brands.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated, create_product, gtin, slow_inserts,
};

/// Registers lot `number` of `product_id` with `body`'s other fields;
/// panics unless it is created.
pub(crate) async fn create_lot(c: &Client, product_id: &str, number: &str, extra: Value) -> Value {
    let mut body = json!({"product_id": product_id, "number": number});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let (status, lot) = c.post("/api/lots", body).await;
    assert_eq!(status, StatusCode::CREATED, "{lot}");
    lot
}

/// Changes a lot's status; answers the status and body.
pub(crate) async fn set_status(
    c: &Client,
    id: &str,
    status: &str,
    reason: &str,
) -> (StatusCode, Value) {
    c.post(
        &format!("/api/lots/{id}/status"),
        json!({"status": status, "reason": reason}),
    )
    .await
}

async fn history_rows(app: &TestApp, t: &TestTenant) -> i64 {
    app.rows(t, "lot_status_changes").await
}

#[tokio::test]
async fn a_lot_is_registered_listed_and_read_with_its_history() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let product = create_product(&admin, "Aspirin <b>500</b>", "ASP").await;

    let lot = create_lot(
        &admin,
        &product.id,
        "L-2026/01",
        json!({"manufactured_on": "2026-01-10", "expires_on": "2028-01-10"}),
    )
    .await;
    assert_eq!(lot["status"], "released");
    assert_eq!(lot["number"], "L-2026/01");
    assert_eq!(lot["product_id"], product.id.as_str());
    assert_eq!(lot["product_name"], "Aspirin <b>500</b>");
    assert_eq!(lot["gtin"], product.gtin.as_str());
    assert_eq!(lot["manufactured_on"], "2026-01-10");
    assert_eq!(lot["expires_on"], "2028-01-10");
    assert_eq!(lot["expired"], false);
    assert!(lot["status_changed_at"].is_string() && lot["created_at"].is_string());
    assert_eq!(app.audited(&brand, "lot.created").await, 1);
    assert_eq!(history_rows(&app, &brand).await, 1);
    let (target, detail): (String, Value) = sqlx::query_as(
        "SELECT target, detail FROM platform.audit_log WHERE action = 'lot.created' AND tenant_id = $1",
    )
    .bind(brand.tenant.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(target, lot["id"].as_str().unwrap());
    assert_eq!(detail["number"], "L-2026/01");
    assert_eq!(detail["status"], "released");

    // An expired lot says so; a lot without dates is not expired.
    let old = create_lot(
        &admin,
        &product.id,
        "OLD1",
        json!({"manufactured_on": "2019-01-01", "expires_on": "2020-01-01"}),
    )
    .await;
    assert_eq!(old["expired"], true);
    let bare = create_lot(&admin, &product.id, "BARE", json!({})).await;
    assert_eq!(bare["expired"], false);
    assert!(bare.get("expires_on").is_none(), "{bare}");

    // Workers read the list, newest first, and one lot with its history.
    let (status, list) = worker.get("/api/lots").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let numbers: Vec<_> = list["lots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["number"].as_str().unwrap())
        .collect();
    assert_eq!(numbers, ["BARE", "OLD1", "L-2026/01"]);
    assert_eq!(list["more"], false);

    let id = lot["id"].as_str().unwrap();
    let (status, one) = worker.get(&format!("/api/lots/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{one}");
    assert_eq!(one["number"], "L-2026/01");
    assert_eq!(one["status"], "released");
    let history = one["history"].as_array().unwrap();
    assert_eq!(history.len(), 1, "{one}");
    assert!(history[0].get("from").is_none(), "{one}");
    assert_eq!(history[0]["to"], "released");
    assert_eq!(history[0]["reason"], "Registered");
    assert_eq!(history[0]["who"], admin.user["name"]);

    // Filters: by product and by status.
    let other = create_product(&admin, "Other", "OTH").await;
    create_lot(&admin, &other.id, "L-2026/01", json!({})).await;
    let (_, list) = worker
        .get(&format!("/api/lots?product_id={}", other.id))
        .await;
    assert_eq!(list["lots"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["lots"][0]["product_id"], other.id.as_str());
    let (status, _) = set_status(&admin, id, "held", "Complaint 17").await;
    assert_eq!(status, StatusCode::OK);
    let (_, held) = worker.get("/api/lots?status=held").await;
    assert_eq!(held["lots"].as_array().unwrap().len(), 1, "{held}");
    assert_eq!(held["lots"][0]["id"], id);
    let (status, err) = worker.get("/api/lots?status=lost").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
}

#[tokio::test]
async fn a_product_that_requires_inspection_gets_its_lots_in_quarantine() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, product) = admin
        .post(
            "/api/products",
            json!({"product_name": "Serum", "skuid": "SER-1", "gtin": crate::helpers::gtin(),
                   "requires_inspection": true}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{product}");
    let lot = create_lot(&admin, product["id"].as_str().unwrap(), "Q1", json!({})).await;
    assert_eq!(lot["status"], "quarantine");
    let (_, one) = admin
        .get(&format!("/api/lots/{}", lot["id"].as_str().unwrap()))
        .await;
    assert_eq!(one["history"][0]["to"], "quarantine");
}

#[tokio::test]
async fn bad_lots_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let product = create_product(&admin, "Aspirin", "ASP").await;
    create_lot(&admin, &product.id, "L1", json!({})).await;
    let before = (
        app.rows(&brand, "lots").await,
        history_rows(&app, &brand).await,
        app.audited(&brand, "lot.created").await,
    );

    let cases = [
        (
            json!({"product_id": product.id, "number": "has space"}),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            json!({"product_id": product.id, "number": ""}),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            json!({"product_id": product.id, "number": "L2", "manufactured_on": "2026-02-01", "expires_on": "2026-02-01"}),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        // A barcode writes a lot's dates YYMMDD: years 2000 to 2099 only.
        (
            json!({"product_id": product.id, "number": "L2", "expires_on": "0027-04-16"}),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            json!({"product_id": product.id, "number": "L2", "expires_on": "2100-01-01"}),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            json!({"product_id": product.id, "number": "L2", "manufactured_on": "1999-12-31"}),
            StatusCode::BAD_REQUEST,
            "invalid_input",
        ),
        (
            json!({"product_id": "00000000-0000-0000-0000-000000000000", "number": "L2"}),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            json!({"product_id": product.id, "number": "L1"}),
            StatusCode::CONFLICT,
            "lot_exists",
        ),
    ];
    for (body, want, code) in cases {
        let (status, err) = admin.post("/api/lots", body.clone()).await;
        assert_eq!(status, want, "{body}: {err}");
        assert_eq!(err["code"], code, "{body}: {err}");
        assert!(!err["error"].as_str().unwrap().is_empty());
    }
    let (_, err) = admin
        .post(
            "/api/lots",
            json!({"product_id": product.id, "number": "L2", "manufactured_on": "2026-02-01", "expires_on": "2026-01-01"}),
        )
        .await;
    assert_eq!(err["error"], "expires_on must be after manufactured_on.");
    let (_, err) = admin
        .post(
            "/api/lots",
            json!({"product_id": product.id, "number": "L2", "expires_on": "0027-04-16"}),
        )
        .await;
    assert!(
        err["error"].as_str().unwrap().contains("2000 to 2099"),
        "{err}"
    );
    // A code job's lot is held to the same rule: its codes must print.
    let (status, err) = admin
        .post(
            "/api/code-jobs",
            json!({"product_id": product.id, "quantity": 1,
                   "lot": {"number": "L4", "expires_on": "0027-04-16"}}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");

    // An archived product gets no new lots.
    let (status, _) = admin
        .send(
            reqwest::Method::DELETE,
            &format!("/api/products/{}", product.id),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, err) = admin
        .post(
            "/api/lots",
            json!({"product_id": product.id, "number": "L3"}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert_eq!(err["code"], "product_archived");

    let after = (
        app.rows(&brand, "lots").await,
        history_rows(&app, &brand).await,
        app.audited(&brand, "lot.created").await,
    );
    assert_eq!(before, after);
}

#[tokio::test]
async fn managers_change_a_status_with_a_reason_and_workers_may_not() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let manager = app.login(&app.account(&brand, Role::Manager).await).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let product = create_product(&admin, "Aspirin", "ASP").await;
    let lot = create_lot(&admin, &product.id, "L1", json!({})).await;
    let id = lot["id"].as_str().unwrap();

    let (status, changed) =
        set_status(&manager, id, "recalled", "  Contaminated <b>batch</b>  ").await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    assert_eq!(changed["status"], "recalled");
    assert_eq!(changed["id"], id);
    assert_eq!(app.audited(&brand, "lot.status_changed").await, 1);
    let detail: Value = sqlx::query_scalar(
        "SELECT detail FROM platform.audit_log WHERE action = 'lot.status_changed' AND tenant_id = $1",
    )
    .bind(brand.tenant.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(
        detail,
        json!({"from": "released", "to": "recalled", "reason": "Contaminated <b>batch</b>"})
    );

    let (_, one) = worker.get(&format!("/api/lots/{id}")).await;
    let history = one["history"].as_array().unwrap();
    assert_eq!(history.len(), 2, "{one}");
    assert_eq!(history[1]["from"], "released");
    assert_eq!(history[1]["to"], "recalled");
    // Trimmed; markup stays text.
    assert_eq!(history[1]["reason"], "Contaminated <b>batch</b>");
    assert_eq!(history[1]["who"], manager.user["name"]);

    // Workers may not; bad reasons and unknown lots change nothing.
    let (status, err) = set_status(&worker, id, "released", "I think it is fine").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    for reason in ["", "   ", "tab\there", &"x".repeat(501)] {
        let (status, err) = set_status(&admin, id, "released", reason).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{reason:?}: {err}");
        assert_eq!(err["code"], "invalid_input");
    }
    let (status, err) = admin
        .post(
            &format!("/api/lots/{id}/status"),
            json!({"status": "released"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let (status, err) = set_status(&admin, id, "gone", "why").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    for other in ["00000000-0000-0000-0000-000000000000", "not-an-id"] {
        let (status, err) = set_status(&admin, other, "held", "why").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
        let (status, _) = admin.get(&format!("/api/lots/{other}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    assert_eq!(history_rows(&app, &brand).await, 2);
    assert_eq!(app.audited(&brand, "lot.status_changed").await, 1);
    let (_, one) = admin.get(&format!("/api/lots/{id}")).await;
    assert_eq!(one["status"], "recalled");

    // 500 characters are enough.
    let (status, _) = set_status(&admin, id, "held", &"x".repeat(500)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_registration_that_fails_leaves_no_lot_history_or_audit_row() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let product = create_product(&admin, "Aspirin", "ASP").await;
    // The history refuses the registration's row: the lot and its audit
    // row written before it in the same transaction must go too.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {}.lot_status_changes ADD CONSTRAINT test_refuses CHECK (reason <> 'Registered')",
        brand.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    let (status, err) = admin
        .post(
            "/api/lots",
            json!({"product_id": product.id, "number": "L1"}),
        )
        .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{err}");
    assert_eq!(app.rows(&brand, "lots").await, 0);
    assert_eq!(app.audited(&brand, "lot.created").await, 0);
}

#[tokio::test]
async fn the_list_is_bounded_and_says_there_are_more() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let product = create_product(&admin, "Aspirin", "ASP").await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {}.lots (id, product_id, number, created_at)
         SELECT gen_random_uuid(), $1::uuid, 'N' || n, now() - n * interval '1 second'
         FROM generate_series(1, 501) AS n",
        brand.schema
    )))
    .bind(uuid::Uuid::parse_str(&product.id).unwrap())
    .execute(&app.owner)
    .await
    .unwrap();
    let (status, list) = admin.get("/api/lots").await;
    assert_eq!(status, StatusCode::OK);
    let lots = list["lots"].as_array().unwrap();
    assert_eq!(lots.len(), 500);
    assert_eq!(list["more"], true);
    assert_eq!(lots[0]["number"], "N1");
    assert_eq!(lots[499]["number"], "N500");
}

#[tokio::test]
async fn another_brand_neither_sees_nor_changes_a_lot() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let product = create_product(a, "Aspirin", "ASP").await;
            let lot = create_lot(a, &product.id, "ISO1", json!({})).await;
            lot["id"].as_str().unwrap().to_string()
        },
        async |c, id| {
            vec![
                c.get("/api/lots").await,
                c.get(&format!("/api/lots/{id}")).await,
                set_status(c, id, "released", "probe").await,
            ]
        },
    )
    .await;
}

/// The HTML and the JSON the resolver answers for `uri`.
async fn scanned(uri: &str, ip: &str) -> (String, Value) {
    let html = crate::scans::scan_page(uri).await;
    let (status, json) = crate::scans::scan(uri, ip).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    (html, json)
}

const RECALLED: &str = "This product has been recalled. Do not use it.";
const HELD: &str = "This batch is on hold by the manufacturer. Do not use it until further notice.";

#[tokio::test]
async fn a_recalled_or_held_lot_warns_on_the_scan_page_and_in_the_json() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, uris) =
        crate::helpers::product_with_codes(&admin, 2, Some("2099-12-31")).await;
    let (_, list) = admin
        .get(&format!("/api/lots?product_id={product_id}"))
        .await;
    let lot = &list["lots"][0];
    assert_eq!(lot["status"], "released", "{list}");
    let id = lot["id"].as_str().unwrap();

    // Released: no warning, and the JSON says so.
    let (html, json) = scanned(&uris[0], "203.0.113.10").await;
    assert_eq!(json["lot_status"], "released", "{json}");
    assert!(!html.contains(RECALLED) && !html.contains(HELD), "{html}");
    assert!(!html.contains("role=\"alert\""), "{html}");

    let (status, _) = set_status(&admin, id, "recalled", "Contamination found").await;
    assert_eq!(status, StatusCode::OK);
    let (html, json) = scanned(&uris[0], "203.0.113.11").await;
    assert_eq!(json["lot_status"], "recalled", "{json}");
    assert!(
        html.contains(&format!(
            "role=\"alert\"><h2>Recalled</h2><p>{RECALLED}</p>"
        )),
        "{html}"
    );
    // A code of the lot scanned for the first time warns too.
    let (html, json) = scanned(&uris[1], "203.0.113.12").await;
    assert_eq!(json["lot_status"], "recalled", "{json}");
    assert!(html.contains(RECALLED), "{html}");

    let (status, _) = set_status(&admin, id, "held", "Under investigation").await;
    assert_eq!(status, StatusCode::OK);
    let (html, json) = scanned(&uris[0], "203.0.113.13").await;
    assert_eq!(json["lot_status"], "held", "{json}");
    assert!(html.contains(HELD) && !html.contains(RECALLED), "{html}");

    let (status, _) = set_status(&admin, id, "released", "Investigation closed: no defect").await;
    assert_eq!(status, StatusCode::OK);
    let (html, json) = scanned(&uris[0], "203.0.113.14").await;
    assert_eq!(json["lot_status"], "released", "{json}");
    assert!(!html.contains(HELD) && !html.contains(RECALLED), "{html}");
}

#[tokio::test]
async fn a_code_without_a_lot_has_no_lot_status() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = crate::helpers::product_with_codes(&admin, 1, None).await;
    let (html, json) = scanned(&uris[0], "203.0.113.20").await;
    assert!(json.get("lot_status").is_none(), "{json}");
    assert!(!html.contains("role=\"alert\""), "{html}");
}

#[tokio::test]
async fn a_code_job_registers_its_lot_with_its_history() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, product) = admin
        .post(
            "/api/products",
            json!({"product_name": "Serum", "skuid": "SER-2", "gtin": crate::helpers::gtin(),
                   "requires_inspection": true}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{product}");
    let product_id = product["id"].as_str().unwrap();
    crate::helpers::generate_codes(
        &admin,
        json!({"product_id": product_id, "quantity": 1, "lot": {"number": "CJ-1"}}),
    )
    .await;
    // A second job of the same lot reuses it.
    crate::helpers::generate_codes(
        &admin,
        json!({"product_id": product_id, "quantity": 1, "lot": {"number": "CJ-1"}}),
    )
    .await;
    let (_, list) = admin
        .get(&format!("/api/lots?product_id={product_id}"))
        .await;
    let lots = list["lots"].as_array().unwrap();
    assert_eq!(lots.len(), 1, "{list}");
    assert_eq!(lots[0]["number"], "CJ-1");
    assert_eq!(lots[0]["status"], "quarantine");
    let (_, one) = admin
        .get(&format!("/api/lots/{}", lots[0]["id"].as_str().unwrap()))
        .await;
    assert_eq!(one["history"].as_array().unwrap().len(), 1, "{one}");
    assert_eq!(app.audited(&brand, "lot.created").await, 1);
}

/// The lot's history as (from, to), oldest first, read as the owner.
async fn chain(app: &TestApp, t: &TestTenant, lot_id: &str) -> Vec<(Option<String>, String)> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT from_status, to_status FROM {}.lot_status_changes WHERE lot_id = $1::uuid ORDER BY id",
        t.schema
    )))
    .bind(lot_id)
    .fetch_all(&app.owner)
    .await
    .unwrap()
}

/// Every change starts from the status the one before it left.
fn assert_unbroken(history: &[(Option<String>, String)]) {
    assert_eq!(history[0].0, None, "{history:?}");
    for pair in history.windows(2) {
        assert_eq!(
            pair[1].0.as_deref(),
            Some(pair[0].1.as_str()),
            "{history:?}"
        );
    }
}

#[tokio::test]
async fn parallel_status_changes_keep_one_unbroken_history() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let product = create_product(&admin, "Race", "RACE").await.id;
    let lot = create_lot(&admin, &product, "R1", json!({})).await;
    let id = lot["id"].as_str().unwrap();
    // Each change then holds its transaction open after reading the status
    // it changes from: without the lot's row lock, two would read the same.
    slow_inserts(&app, &brand, "lot_status_changes").await;
    let wanted = [
        "held",
        "released",
        "rejected",
        "held",
        "recalled",
        "released",
        "held",
        "quarantine",
    ];
    let answers = futures::future::join_all(wanted.iter().enumerate().map(|(i, s)| {
        let (admin, reason) = (&admin, format!("race {i}"));
        async move { set_status(admin, id, s, &reason).await }
    }))
    .await;
    for (status, body) in &answers {
        assert_eq!(*status, StatusCode::OK, "{body}");
    }
    let history = chain(&app, &brand, id).await;
    assert_eq!(history.len(), 1 + wanted.len(), "{history:?}");
    assert_unbroken(&history);
    let (_, now) = admin.get(&format!("/api/lots/{id}")).await;
    assert_eq!(now["status"], history.last().unwrap().1.as_str(), "{now}");
    assert_eq!(
        app.audited(&brand, "lot.status_changed").await,
        wanted.len() as i64
    );
}

#[tokio::test]
async fn an_inspection_racing_a_recall_never_releases_the_recalled_lot() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, product) = admin
        .post(
            "/api/products",
            json!({"product_name": "Racing serum", "skuid": "RSE-1", "gtin": gtin(),
                   "requires_inspection": true}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{product}");
    let product = product["id"].as_str().unwrap();
    // The inspection holds its transaction open after reading the lot's
    // status, so the recall arrives while it decides.
    slow_inserts(&app, &brand, "inspection_checks").await;
    for round in 0..4 {
        let lot = create_lot(&admin, product, &format!("RQ{round}"), json!({})).await;
        assert_eq!(lot["status"], "quarantine");
        let id = lot["id"].as_str().unwrap();
        let inspection = json!({"lot_id": id, "checks": [
            {"parameter": "pH", "min": "6.5", "max": "7.5", "value": "7.0"},
        ]});
        let (inspected, recalled) = tokio::join!(
            admin.post("/api/inspections", inspection),
            set_status(&admin, id, "recalled", "Supplier recall")
        );
        assert_eq!(inspected.0, StatusCode::CREATED, "{}", inspected.1);
        assert_eq!(recalled.0, StatusCode::OK, "{}", recalled.1);
        let (_, now) = admin.get(&format!("/api/lots/{id}")).await;
        assert_eq!(now["status"], "recalled", "round {round}: {now}");
        assert_unbroken(&chain(&app, &brand, id).await);
    }
}

/// Tenant migration 0022 on a schema holding batches from before the lot
/// register: each (product, batch number) becomes one released lot with its
/// first batch's dates and a history row, a lot the register had already is
/// linked and left as it was, and a batch of a GTIN without a product stays
/// unlinked. Run in a scratch schema inside a transaction that is rolled back.
#[tokio::test]
async fn migration_0022_registers_and_links_the_batches_of_before() {
    let app = TestApp::spawn().await;
    let mut tx = app.owner.begin().await.unwrap();
    let schema = format!("mig_{}", uuid::Uuid::new_v4().simple());
    let run = async |tx: &mut sqlx::PgConnection, sql: String| {
        sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
            .execute(tx)
            .await
            .unwrap();
    };
    run(
        &mut tx,
        format!("CREATE SCHEMA {schema}; SET LOCAL search_path = {schema}"),
    )
    .await;
    let migrations = &brandops::db::migrate::TENANT;
    for m in migrations.iter().filter(|m| m.version < 22) {
        run(&mut tx, m.sql.as_str().to_string()).await;
    }
    let (p1, p2) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    let (g1, g2, orphan) = (gtin(), gtin(), gtin());
    let existing = uuid::Uuid::new_v4();
    let update = uuid::Uuid::new_v4();
    sqlx::query(
        "INSERT INTO products (id, product_name, skuid, gtin) VALUES ($1, 'One', 'ONE', $2), ($3, 'Two', 'TWO', $4);
         ",
    )
    .bind(p1)
    .bind(format!("0{g1}"))
    .bind(p2)
    .bind(format!("0{g2}"))
    .execute(&mut *tx)
    .await
    .unwrap();
    sqlx::query("INSERT INTO lots (id, product_id, number, status) VALUES ($1, $2, 'B2', 'held')")
        .bind(existing)
        .bind(p1)
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO batch_updates (id, source, file_name, format, size_bytes, content_sha256,
                                    dry_run, status, created_by, created_by_name)
         VALUES ($1, 'form', 'form', 'json', 1, repeat('a', 64), false, 'applied', $1, 'Tester')",
    )
    .bind(update)
    .execute(&mut *tx)
    .await
    .unwrap();
    // (position, gtin, batch, made, expires): B1 of product one twice (its
    // first row's dates win), B2 (registered already), B1 of product two,
    // and a GTIN no product has.
    let rows = [
        (0, format!("0{g1}"), "B1", "2026-01-01", "2028-01-01"),
        (1, format!("0{g1}"), "B1", "2026-02-01", "2028-02-01"),
        (2, format!("0{g1}"), "B2", "2026-01-01", "2028-01-01"),
        (3, format!("0{g2}"), "B1", "2026-03-01", "2028-03-01"),
        (4, format!("0{orphan}"), "B9", "2026-01-01", "2028-01-01"),
    ];
    for (position, gtin, batch, made, expires) in &rows {
        sqlx::query(
            "INSERT INTO batches (update_id, position, gtin, batch_number, manufactured_on,
                                  expires_on, licence_number, codes)
             VALUES ($1, $2, $3, $4, $5::date, $6::date, 'LIC-1', 1)",
        )
        .bind(update)
        .bind(position)
        .bind(gtin)
        .bind(batch)
        .bind(made)
        .bind(expires)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    let m22 = migrations.iter().find(|m| m.version == 22).unwrap();
    run(&mut tx, m22.sql.as_str().to_string()).await;

    let lots: Vec<(uuid::Uuid, uuid::Uuid, String, String, Option<chrono::NaiveDate>)> =
        sqlx::query_as(
            "SELECT id, product_id, number, status, manufactured_on FROM lots ORDER BY number, product_id = $1 DESC",
        )
        .bind(p1)
        .fetch_all(&mut *tx)
        .await
        .unwrap();
    assert_eq!(lots.len(), 3, "{lots:?}");
    let b1_one = lots.iter().find(|l| l.1 == p1 && l.2 == "B1").unwrap();
    let b1_two = lots.iter().find(|l| l.1 == p2 && l.2 == "B1").unwrap();
    assert_eq!(
        (b1_one.3.as_str(), b1_one.4.map(|d| d.to_string())),
        ("released", Some("2026-01-01".into()))
    );
    assert_eq!(b1_two.3, "released");
    let kept = lots.iter().find(|l| l.0 == existing).unwrap();
    assert_eq!(kept.3, "held", "a lot the register had keeps its status");

    let links: Vec<(i32, Option<uuid::Uuid>)> =
        sqlx::query_as("SELECT position, lot_id FROM batches ORDER BY position")
            .fetch_all(&mut *tx)
            .await
            .unwrap();
    assert_eq!(
        links,
        vec![
            (0, Some(b1_one.0)),
            (1, Some(b1_one.0)),
            (2, Some(existing)),
            (3, Some(b1_two.0)),
            (4, None)
        ]
    );
    let history: Vec<(uuid::Uuid, Option<String>, String)> = sqlx::query_as(
        "SELECT lot_id, from_status, to_status FROM lot_status_changes ORDER BY lot_id",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let mut added = [b1_one.0, b1_two.0];
    added.sort();
    assert_eq!(
        history,
        added
            .iter()
            .map(|id| (*id, None, "released".to_string()))
            .collect::<Vec<_>>(),
        "one first history row per lot the migration registered, none for the one it found"
    );
    tx.rollback().await.unwrap();
}
