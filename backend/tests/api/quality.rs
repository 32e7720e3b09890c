//! Quality and compliance (issue 22): inspections hold or release their lot
//! in the same transaction, the CAPA order and its requirements, the
//! certificate of analysis read back with `pdftotext`, validation that
//! changes nothing, and isolation between tenants.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Answers, Client, TestApp, TestTenant, assert_isolated_between, create_product, download, unique,
};

/// A lot of a new product in `status`, set up directly in the tenant's
/// schema (the lots API is another part of the issue); answers its id.
async fn lot(app: &TestApp, t: &TestTenant, c: &Client, name: &str, status: &str) -> String {
    let product = create_product(c, name, "QA").await;
    let id = uuid::Uuid::new_v4();
    let number: String = unique("L").chars().take(20).collect();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {}.lots (id, product_id, number, manufactured_on, expires_on, status)
         VALUES ($1, $2::uuid, $3, '2026-01-05', '2028-01-05', $4)",
        t.schema
    )))
    .bind(id)
    .bind(&product.id)
    .bind(&number)
    .bind(status)
    .execute(&app.owner)
    .await
    .unwrap();
    id.to_string()
}

async fn lot_status(app: &TestApp, t: &TestTenant, lot_id: &str) -> String {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT status FROM {}.lots WHERE id = $1::uuid",
        t.schema
    )))
    .bind(lot_id)
    .fetch_one(&app.owner)
    .await
    .unwrap()
}

/// The reasons of the lot's status changes, oldest first.
async fn lot_history(app: &TestApp, t: &TestTenant, lot_id: &str) -> Vec<(String, String)> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT to_status, reason FROM {}.lot_status_changes WHERE lot_id = $1::uuid ORDER BY id",
        t.schema
    )))
    .bind(lot_id)
    .fetch_all(&app.owner)
    .await
    .unwrap()
}

fn passing(lot_id: &str) -> Value {
    json!({"lot_id": lot_id, "checks": [
        {"parameter": "pH", "min": "6.5", "max": "7.5", "value": "7.0"},
        {"parameter": "Appearance", "expected": "Clear", "value": " clear "},
    ]})
}

fn failing(lot_id: &str) -> Value {
    json!({"lot_id": lot_id, "checks": [
        {"parameter": "pH", "min": "6.5", "max": "7.5", "value": "7.51"},
        {"parameter": "Appearance", "expected": "Clear", "value": "Clear"},
    ]})
}

async fn inspect(c: &Client, body: Value) -> Value {
    let (status, answer) = c.post("/api/inspections", body).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer
}

#[tokio::test]
async fn a_failed_inspection_holds_the_lot_and_a_pass_does_not_release_it() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let lot_id = lot(&app, &brand, &admin, "Syrup", "released").await;

    // A worker records it; the pH is 0.01 over its limit.
    let failed = inspect(&worker, failing(&lot_id)).await;
    assert_eq!(failed["verdict"], "fail", "{failed}");
    assert_eq!(failed["lot_status"], "held");
    assert_eq!(lot_status(&app, &brand, &lot_id).await, "held");
    let history = lot_history(&app, &brand, &lot_id).await;
    assert_eq!(history.len(), 1, "{history:?}");
    assert_eq!(history[0].0, "held");
    let id = failed["id"].as_str().unwrap();
    assert!(
        history[0].1.contains(id) && history[0].1.contains("pH"),
        "{history:?}"
    );
    assert_eq!(app.audited(&brand, "quality.inspection_recorded").await, 1);
    assert_eq!(app.audited(&brand, "lot.status_changed").await, 1);

    // A pass does not release a held lot: a person does, with a reason.
    let passed = inspect(&worker, passing(&lot_id)).await;
    assert_eq!(passed["verdict"], "pass", "{passed}");
    assert_eq!(passed["lot_status"], "held");
    assert_eq!(lot_status(&app, &brand, &lot_id).await, "held");
    assert_eq!(lot_history(&app, &brand, &lot_id).await.len(), 1);

    // Both are listed for the lot, newest first, with their checks.
    let (status, list) = worker
        .get(&format!("/api/inspections?lot_id={lot_id}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let list = list["inspections"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["verdict"], "pass");
    assert_eq!(list[1]["verdict"], "fail");
    let checks = list[1]["checks"].as_array().unwrap();
    assert_eq!(checks[0]["parameter"], "pH");
    assert_eq!(checks[0]["min"], "6.5");
    assert_eq!(checks[0]["max"], "7.5");
    assert_eq!(checks[0]["value"], "7.51");
    assert_eq!(checks[0]["passed"], false);
    assert_eq!(checks[1]["expected"], "Clear");
    assert_eq!(checks[1]["passed"], true);

    // Inspections are records of fact: the database refuses to change them.
    for sql in [
        "UPDATE {}.inspections SET verdict = 'pass'",
        "DELETE FROM {}.inspection_checks",
    ] {
        let err = sqlx::query(sqlx::AssertSqlSafe(sql.replace("{}", &brand.schema)))
            .execute(&app.owner)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("append-only"), "{err}");
    }
}

#[tokio::test]
async fn a_lot_in_quarantine_is_released_by_a_passing_inspection_only() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let good = lot(&app, &brand, &admin, "Tablets", "quarantine").await;
    let bad = lot(&app, &brand, &admin, "Tablets", "quarantine").await;
    let recalled = lot(&app, &brand, &admin, "Tablets", "recalled").await;

    let answer = inspect(&admin, passing(&good)).await;
    assert_eq!(answer["lot_status"], "released", "{answer}");
    assert_eq!(lot_status(&app, &brand, &good).await, "released");
    let history = lot_history(&app, &brand, &good).await;
    assert_eq!(history.len(), 1);
    assert!(history[0].1.contains("passed"), "{history:?}");

    let answer = inspect(&admin, failing(&bad)).await;
    assert_eq!(answer["lot_status"], "held", "{answer}");
    assert_eq!(lot_status(&app, &brand, &bad).await, "held");

    // A recalled lot stays recalled, whatever an inspection finds.
    for body in [failing(&recalled), passing(&recalled)] {
        assert_eq!(inspect(&admin, body).await["lot_status"], "recalled");
    }
    assert_eq!(lot_status(&app, &brand, &recalled).await, "recalled");
    assert!(lot_history(&app, &brand, &recalled).await.is_empty());
}

#[tokio::test]
async fn a_failed_inspection_whose_hold_fails_leaves_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let lot_id = lot(&app, &brand, &admin, "Cream", "released").await;
    // The lot's history refuses the hold: it is written after the
    // inspection, its checks and its audit row, in the same transaction.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {}.lot_status_changes ADD CONSTRAINT test_refuses_holds CHECK (to_status <> 'held')",
        brand.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();

    let (status, err) = admin.post("/api/inspections", failing(&lot_id)).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{err}");
    assert_eq!(app.rows(&brand, "inspections").await, 0);
    assert_eq!(app.rows(&brand, "inspection_checks").await, 0);
    assert_eq!(app.audited(&brand, "quality.inspection_recorded").await, 0);
    assert_eq!(app.audited(&brand, "lot.status_changed").await, 0);
    assert_eq!(lot_status(&app, &brand, &lot_id).await, "released");

    // A pass (which changes no status) is recorded.
    inspect(&admin, passing(&lot_id)).await;
    assert_eq!(app.rows(&brand, "inspections").await, 1);
}

#[tokio::test]
async fn invalid_inspections_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let lot_id = lot(&app, &brand, &admin, "Gel", "quarantine").await;
    let with = |check: Value| json!({"lot_id": lot_id, "checks": [check]});
    let too_many: Vec<Value> = (0..51)
        .map(|i| json!({"parameter": format!("P{i}"), "min": "1", "value": "2"}))
        .collect();
    let cases = [
        (json!({"lot_id": lot_id, "checks": []}), ""),
        (json!({"lot_id": lot_id, "checks": too_many}), ""),
        (
            with(json!({"parameter": "pH", "value": "7"})),
            "limits (min and/or max) or an expected value",
        ),
        (
            with(json!({"parameter": "pH", "min": "1", "expected": "x", "value": "7"})),
            "not both",
        ),
        (
            with(json!({"parameter": "pH", "min": "8", "max": "7", "value": "7"})),
            "must not be greater than max",
        ),
        (
            with(json!({"parameter": "pH", "min": "1", "value": "seven"})),
            "decimal number",
        ),
        (
            with(json!({"parameter": "pH", "min": "1e3", "value": "7"})),
            "checks[1].min must be a decimal",
        ),
        (
            with(json!({"parameter": "pH", "max": "0.1234567", "value": "7"})),
            "checks[1].max must be a decimal",
        ),
        (
            with(json!({"parameter": "   ", "min": "1", "value": "7"})),
            "parameter",
        ),
        (
            with(json!({"parameter": "p\u{0}H", "min": "1", "value": "7"})),
            "parameter",
        ),
        (
            with(json!({"parameter": "pH", "expected": "Clear", "value": ""})),
            "checks[1].value is required",
        ),
        (
            json!({"lot_id": lot_id, "checks": [
                {"parameter": "pH", "min": "1", "value": "2"},
                {"parameter": "PH", "min": "1", "value": "2"},
            ]}),
            "checked twice",
        ),
        (with(json!({"parameter": "pH", "min": 1, "value": "2"})), ""),
    ];
    for (body, message) in cases {
        let (status, err) = admin.post("/api/inspections", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert_eq!(err["code"], "invalid_input", "{err}");
        assert!(
            err["error"].as_str().unwrap().contains(message),
            "{body}: {err} should say {message}"
        );
    }
    // A lot that does not exist.
    let (status, err) = admin
        .post(
            "/api/inspections",
            passing(&uuid::Uuid::new_v4().to_string()),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");

    assert_eq!(app.rows(&brand, "inspections").await, 0);
    assert_eq!(app.rows(&brand, "inspection_checks").await, 0);
    assert_eq!(app.audited(&brand, "quality.inspection_recorded").await, 0);
    assert_eq!(lot_status(&app, &brand, &lot_id).await, "quarantine");
}

async fn raise(c: &Client, lot_id: Option<&str>) -> Value {
    let mut body = json!({
        "title": "Label <b>smudged</b>",
        "description": "Batch labels unreadable.\nSee photos.",
        "severity": "major",
    });
    if let Some(lot) = lot_id {
        body["lot_id"] = json!(lot);
    }
    let (status, nc) = c.post("/api/nonconformances", body).await;
    assert_eq!(status, StatusCode::CREATED, "{nc}");
    nc
}

#[tokio::test]
async fn a_capa_moves_strictly_in_order_and_closes_only_when_complete() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let manager = app.login(&app.account(&brand, Role::Manager).await).await;
    let lot_id = lot(&app, &brand, &admin, "Balm", "released").await;
    let nc = raise(&manager, Some(&lot_id)).await;
    assert_eq!(nc["state"], "open");
    assert_eq!(nc["version"], 1);
    assert_eq!(nc["title"], "Label <b>smudged</b>");
    assert_eq!(nc["lot_id"], lot_id.as_str());
    assert_eq!(nc["steps"].as_array().unwrap().len(), 1);
    let path = format!("/api/nonconformances/{}", nc["id"].as_str().unwrap());

    let patch = async |body: Value| admin.patch(&path, body).await;
    let refused = |(status, err): (StatusCode, Value), code: &str, says: &str| {
        assert_eq!(status, StatusCode::CONFLICT, "{err}");
        assert_eq!(err["code"], code, "{err}");
        assert!(err["error"].as_str().unwrap().contains(says), "{err}");
    };

    // No skipping, no going back.
    refused(
        patch(json!({"version": 1, "state": "action"})).await,
        "invalid_transition",
        "investigating",
    );
    refused(
        patch(json!({"version": 1, "state": "closed"})).await,
        "invalid_transition",
        "one step at a time",
    );
    let (status, nc) = patch(json!({"version": 1, "state": "investigating"})).await;
    assert_eq!(status, StatusCode::OK, "{nc}");
    assert_eq!(
        (nc["state"].as_str(), nc["version"].as_i64()),
        (Some("investigating"), Some(2))
    );
    refused(
        patch(json!({"version": 2, "state": "open"})).await,
        "invalid_transition",
        "cannot move",
    );

    // Someone else's older version is stale.
    refused(
        patch(json!({"version": 1, "root_cause": "x"})).await,
        "stale",
        "version 2",
    );

    // Action needs the root cause.
    refused(
        patch(json!({"version": 2, "state": "action"})).await,
        "incomplete",
        "root cause",
    );
    let (status, nc) =
        patch(json!({"version": 2, "state": "action", "root_cause": "Ink dried in the printer."}))
            .await;
    assert_eq!(status, StatusCode::OK, "{nc}");
    assert_eq!(nc["state"], "action");

    // Fields alone, then verification with the corrective action.
    let (status, nc) =
        patch(json!({"version": 3, "corrective_action": "Printer cleaned; ink changed weekly."}))
            .await;
    assert_eq!(status, StatusCode::OK, "{nc}");
    assert_eq!(
        (nc["state"].as_str(), nc["version"].as_i64()),
        (Some("action"), Some(4))
    );
    let (status, nc) = patch(json!({"version": 4, "state": "verification"})).await;
    assert_eq!(status, StatusCode::OK, "{nc}");

    // Closing needs the verification note.
    refused(
        patch(json!({"version": 5, "state": "closed"})).await,
        "incomplete",
        "verification note",
    );
    let (status, nc) = patch(json!({"version": 5, "state": "closed", "verification_note": "Three batches printed clean."})).await;
    assert_eq!(status, StatusCode::OK, "{nc}");
    assert_eq!(nc["state"], "closed");
    let steps: Vec<_> = nc["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["to_state"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        steps,
        ["open", "investigating", "action", "verification", "closed"]
    );

    // Closed is final.
    refused(
        patch(json!({"version": 6, "root_cause": "Something else"})).await,
        "invalid_transition",
        "closed",
    );

    assert_eq!(
        app.audited(&brand, "quality.nonconformance_raised").await,
        1
    );
    assert_eq!(app.audited(&brand, "quality.nonconformance_moved").await, 4);
    assert_eq!(app.audited(&brand, "quality.capa_updated").await, 3);
    assert_eq!(app.rows(&brand, "nonconformance_steps").await, 5);

    // The board lists it; workers read it but do not move it.
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let (status, board) = worker.get("/api/nonconformances").await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(board["nonconformances"][0]["state"], "closed");
    assert_eq!(
        board["nonconformances"][0]["root_cause"],
        "Ink dried in the printer."
    );
    let (status, _) = worker.patch(&path, json!({"version": 6})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn invalid_nonconformances_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    for (body, status) in [
        (
            json!({"title": "", "description": "d", "severity": "minor"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"title": "t", "description": " \n ", "severity": "minor"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"title": "t", "description": "d", "severity": "huge"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"title": "t\u{202E}", "description": "d", "severity": "minor"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"title": "t", "description": "d", "severity": "minor", "lot_id": uuid::Uuid::new_v4()}),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (got, err) = admin.post("/api/nonconformances", body.clone()).await;
        assert_eq!(got, status, "{body}: {err}");
    }
    assert_eq!(app.rows(&brand, "nonconformances").await, 0);
    assert_eq!(
        app.audited(&brand, "quality.nonconformance_raised").await,
        0
    );

    let nc = raise(&admin, None).await;
    let path = format!("/api/nonconformances/{}", nc["id"].as_str().unwrap());
    let (status, err) = admin
        .patch(&path, json!({"version": 1, "root_cause": "\u{7}"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert!(
        err["error"].as_str().unwrap().contains("root_cause"),
        "{err}"
    );
    let (status, _) = admin
        .patch("/api/nonconformances/not-an-id", json!({"version": 1}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, board) = admin.get("/api/nonconformances").await;
    assert_eq!(board["nonconformances"][0]["version"], 1);
    assert!(board["nonconformances"][0].get("root_cause").is_none());
}

fn pdf_text(pdf: &[u8]) -> String {
    let dir = std::env::temp_dir().join(unique("coa"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("coa.pdf");
    std::fs::write(&file, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .args(["-layout", file.to_str().unwrap(), "-"])
        .output()
        .expect("pdftotext (Debian's poppler-utils) must be installed");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test]
async fn the_certificate_of_analysis_reads_back_with_pdftotext() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let lot_id = lot(
        &app,
        &brand,
        &admin,
        "Cough <b>Syrup</b> (100 ml)",
        "quarantine",
    )
    .await;
    let number: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT number FROM {}.lots WHERE id = $1::uuid",
        brand.schema
    )))
    .bind(&lot_id)
    .fetch_one(&app.owner)
    .await
    .unwrap();

    // No inspection, no certificate.
    let (status, err) = worker.get(&format!("/api/lots/{lot_id}/coa.pdf")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert_eq!(err["code"], "not_inspected");

    inspect(&worker, failing(&lot_id)).await;
    inspect(
        &worker,
        json!({"lot_id": lot_id, "checks": [
            {"parameter": "Assay (HPLC) \\ <i>%</i>", "min": "98.0", "max": "102.0", "value": "99.25"},
            {"parameter": "Odour 🌿", "expected": "None", "value": "none"},
        ]}),
    )
    .await;

    let (status, kind, pdf) = download(&worker, &format!("/api/lots/{lot_id}/coa.pdf")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "application/pdf");
    assert!(pdf.starts_with(b"%PDF-"));
    let text = pdf_text(&pdf);
    for expected in [
        "Certificate of analysis",
        "Cough <b>Syrup</b> (100 ml)",
        &number,
        "2026-01-05",
        "2028-01-05",
        // The newest inspection passed; the lot was held by the first.
        "PASS (the newest inspection's)",
        "held",
        "Assay (HPLC) \\ <i>%</i>",
        "98.0 to 102.0",
        "99.25",
        "Odour ?",
        "= None",
        "pH",
        "6.5 to 7.5",
        "7.51",
        "FAIL",
        "= Clear",
    ] {
        assert!(
            text.contains(expected),
            "'{expected}' is missing from:\n{text}"
        );
    }
    // Newest first.
    assert!(
        text.find("99.25").unwrap() < text.find("7.51").unwrap(),
        "{text}"
    );

    // Another tenant's lot, and no lot, are not found.
    let other = app.brand().await;
    let other = app.login(&other.admin).await;
    for path in [
        format!("/api/lots/{lot_id}/coa.pdf"),
        format!("/api/lots/{}/coa.pdf", uuid::Uuid::new_v4()),
        "/api/lots/nope/coa.pdf".to_string(),
    ] {
        let (status, err) = other.get(&path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {err}");
    }
}

#[tokio::test]
async fn another_brand_never_sees_the_inspections_of_a_lot() {
    let app = TestApp::spawn().await;
    // The two brands of `assert_isolated`, made here: the lot is set up in
    // A's schema.
    let (a, b) = (app.brand().await, app.brand().await);
    let (admin_a, admin_b) = (app.login(&a.admin).await, app.login(&b.admin).await);
    assert_isolated_between(
        &admin_a,
        &admin_b,
        async |c: &Client| {
            let lot_id = lot(&app, &a, c, "Isolated", "quarantine").await;
            inspect(c, passing(&lot_id)).await;
            raise(c, Some(&lot_id)).await;
            lot_id
        },
        async |c: &Client, lot_id: &str| -> Answers {
            vec![
                c.get(&format!("/api/inspections?lot_id={lot_id}")).await,
                c.get("/api/inspections").await,
                c.get("/api/nonconformances").await,
                c.get(&format!("/api/lots/{lot_id}/coa.pdf")).await,
                c.post("/api/inspections", failing(lot_id)).await,
                c.post(
                    "/api/nonconformances",
                    json!({"lot_id": lot_id, "title": "t", "description": "d", "severity": "minor"}),
                )
                .await,
            ]
        },
    )
    .await;
}
