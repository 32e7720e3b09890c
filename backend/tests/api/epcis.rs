//! EPCIS 2.0 events: a finished code job commissions its codes (one event,
//! in the transaction that finishes it); staff record packing, shipping and
//! receiving; captured documents are checked against the official schema
//! and stored all or nothing; the export validates against that schema; the
//! journey and traceability show events and scans; other tenants see
//! nothing.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Client, TestApp, assert_isolated, create_product, generate_codes, repo_root};

/// A GLN (13 digits) with a right check digit.
const GLN: &str = "9506000134352";
const GLN_2: &str = "4000001000005";
/// An SSCC with a right check digit.
const SSCC: &str = "106141412345678908";

/// Checks `doc` against the official schema as vendored, compiled here on
/// its own (formats checked).
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
    assert_eq!(doc["type"], "EPCISDocument");
}

/// A product (its name with markup) and its skuid and GTIN-14.
async fn product(c: &Client) -> (String, String, String) {
    let p = create_product(c, "Tea <b>green</b>", "EPC").await;
    (p.id, p.skuid, p.gtin)
}

/// Generates `quantity` codes of the product in lot `lot`; answers the job
/// id and the codes' URIs.
async fn codes(c: &Client, product_id: &str, quantity: u32, lot: &str) -> (String, Vec<String>) {
    let job = generate_codes(
        c,
        json!({"product_id": product_id, "quantity": quantity, "lot": {"number": lot}}),
    )
    .await;
    let uris = job.uris();
    (job.id, uris)
}

async fn export(c: &Client, query: &str) -> (StatusCode, Value, Option<String>) {
    let resp = c
        .http
        .get(c.url(&format!("/api/epcis/events{query}")))
        .send()
        .await
        .unwrap();
    let status = resp.status();
    let next = resp
        .headers()
        .get("next-cursor")
        .map(|v| v.to_str().unwrap().to_string());
    (status, resp.json().await.unwrap(), next)
}

fn events(doc: &Value) -> &Vec<Value> {
    doc["epcisBody"]["eventList"].as_array().unwrap()
}

#[tokio::test]
async fn a_finished_code_job_commissions_its_codes_in_one_event() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, skuid, gtin14) = product(&admin).await;
    let (job_id, uris) = codes(&admin, &product_id, 25, "L7/1").await;
    assert_eq!(uris.len(), 25);

    let (status, doc, next) = export(&admin, &format!("?skuid={skuid}")).await;
    assert_eq!(status, StatusCode::OK, "{doc}");
    assert_eq!(next, None);
    assert_valid_epcis(&doc);
    let list = events(&doc);
    assert_eq!(list.len(), 1, "{doc}");
    let e = &list[0];
    assert_eq!(e["type"], "ObjectEvent");
    assert_eq!(e["action"], "ADD");
    assert_eq!(e["bizStep"], "commissioning");
    assert_eq!(e["disposition"], "active");
    assert!(e["eventID"].as_str().unwrap().starts_with("urn:uuid:"));
    // The export lists the job's codes (from its code rows) as EPCs: their
    // Digital Link URIs on GS1's host, the company prefix being unknown.
    assert!(e.get("quantityList").is_none(), "{e}");
    let mut epcs: Vec<String> = e["epcList"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let mut expected: Vec<String> = uris
        .iter()
        .map(|u| format!("https://id.gs1.org/01/{gtin14}/21/{}", serial_of(u)))
        .collect();
    epcs.sort();
    expected.sort();
    assert_eq!(epcs, expected);
    // One row for the job, never one per code.
    let rows: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) FROM {}.epcis_events WHERE code_job_id = '{job_id}' AND source = 'codes'",
        brand.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(rows, 1);

    let (status, journey) = admin
        .get(&format!("/api/product-journey?skuid={skuid}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{journey}");
    assert_eq!(journey["product"]["product_name"], "Tea <b>green</b>");
    let step = &journey["steps"][0];
    assert_eq!(step["kind"], "event");
    assert_eq!(step["event"]["biz_step"], "commissioning");
    assert_eq!(step["event"]["code_job_id"], job_id);
    assert_eq!(step["event"]["source"], "codes");

    let (status, trace) = admin.get(&format!("/api/traceability?skuid={skuid}")).await;
    assert_eq!(status, StatusCode::OK, "{trace}");
    assert_eq!(trace["lots"], json!(["L7/1"]));
    assert_eq!(
        trace["upstream"]["commissioned"][0]["quantities"][0]["quantity"],
        25.0
    );
}

/// The serial (GS1 AI 21) of a code's URI.
fn serial_of(uri: &str) -> String {
    let rest = uri.split_once("/21/").unwrap().1;
    rest.split(['/', '?']).next().unwrap().to_string()
}

#[tokio::test]
async fn a_job_of_25000_codes_is_commissioned_in_three_events_of_its_sgtins() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, skuid, gtin14) = product(&admin).await;
    // The organisation's GS1 company prefix: the GTIN's 7 digits after the
    // indicator.
    let prefix = &gtin14[1..8];
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {}.org_settings SET gs1_company_prefix = $1",
        brand.schema
    )))
    .bind(prefix)
    .execute(&app.owner)
    .await
    .unwrap();
    let (job_id, uris) = codes(&admin, &product_id, 25_000, "BIG1").await;
    assert_eq!(uris.len(), 25_000);

    let (status, doc, _) = export(&admin, &format!("?skuid={skuid}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_valid_epcis(&doc);
    let list = events(&doc);
    assert_eq!(list.len(), 3, "three events of at most 10,000 EPCs");
    let stored: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT event_id FROM {}.epcis_events WHERE code_job_id = '{job_id}'",
        brand.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(list[0]["eventID"], stored.as_str());
    let mut ids = std::collections::HashSet::new();
    let mut epcs = Vec::new();
    let item = format!("{}{}", &gtin14[..1], &gtin14[8..13]);
    for e in list {
        assert_eq!(e["type"], "ObjectEvent");
        assert_eq!(e["action"], "ADD");
        assert_eq!(e["bizStep"], "commissioning");
        assert!(ids.insert(e["eventID"].as_str().unwrap().to_string()));
        let these = e["epcList"].as_array().unwrap();
        assert!(
            !these.is_empty() && these.len() <= 10_000,
            "{}",
            these.len()
        );
        epcs.extend(these.iter().map(|v| v.as_str().unwrap().to_string()));
    }
    let mut expected: Vec<String> = uris
        .iter()
        .map(|u| format!("urn:epc:id:sgtin:{prefix}.{item}.{}", serial_of(u)))
        .collect();
    epcs.sort();
    expected.sort();
    assert_eq!(epcs.len(), 25_000);
    assert_eq!(epcs, expected);
    // Still one stored row for the job; a second export names the same
    // events.
    let (_, again, _) = export(&admin, &format!("?skuid={skuid}")).await;
    let again_ids: std::collections::HashSet<String> = events(&again)
        .iter()
        .map(|e| e["eventID"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(again_ids, ids);
}

#[tokio::test]
async fn a_job_whose_commissioning_fails_does_not_finish() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, _, _) = product(&admin).await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {}.epcis_events ADD CONSTRAINT no_commissioning CHECK (source <> 'codes')",
        brand.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    let (status, job) = admin
        .post(
            "/api/code-jobs",
            json!({"product_id": product_id, "quantity": 10}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let id = job["id"].as_str().unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (_, job) = admin.get(&format!("/api/code-jobs/{id}")).await;
    assert_ne!(job["status"], "done", "{job}");
    assert_eq!(job["generated"], 0, "{job}");
    let codes = app.rows(&brand, "codes").await;
    assert_eq!(codes, 0, "codes stored without their commissioning");
    assert_eq!(app.rows(&brand, "epcis_events").await, 0);
}

#[tokio::test]
async fn recorded_steps_and_scans_make_the_journey_and_traceability() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let manager = app
        .login(&app.account(&brand, brandops::accounts::Role::Manager).await)
        .await;
    let (product_id, skuid, gtin14) = product(&admin).await;
    let (_, uris) = codes(&admin, &product_id, 3, "L1").await;
    for uri in &uris[..2] {
        let resp = reqwest::Client::new()
            .get(uri)
            .header("accept", "application/json")
            .header(
                "user-agent",
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148",
            )
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
    }
    let (status, packed) = manager
        .post(
            "/api/epcis/steps",
            json!({"step": "packing", "skuid": skuid, "lot": "L1", "quantity": 3,
                   "container": SSCC, "location": GLN, "event_time": "2026-01-02T10:00:00Z"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{packed}");
    assert_eq!(packed["event_type"], "AggregationEvent");
    assert_eq!(packed["biz_step"], "packing");
    assert_eq!(packed["parent_id"], format!("https://id.gs1.org/00/{SSCC}"));
    assert_eq!(
        packed["biz_location"],
        format!("https://id.gs1.org/414/{GLN}")
    );
    let (status, shipped) = admin
        .post(
            "/api/epcis/steps",
            json!({"step": "shipping", "skuid": skuid, "container": SSCC, "location": GLN,
                   "destination": format!("https://id.gs1.org/414/{GLN_2}"),
                   "event_time": "2026-01-03T10:00:00Z"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{shipped}");
    assert_eq!(shipped["disposition"], "in_transit");
    let (status, received) = admin
        .post(
            "/api/epcis/steps",
            json!({"step": "receiving", "skuid": skuid, "container": SSCC,
                   "location": "urn:epc:id:sgln:4000001.00000.0", "event_time": "2026-01-04T10:00:00Z"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{received}");

    let (status, journey) = admin
        .get(&format!(
            "/api/product-journey?skuid={}",
            skuid.to_lowercase()
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{journey}");
    let steps = journey["steps"].as_array().unwrap();
    let kinds: Vec<String> = steps
        .iter()
        .map(|s| match s["kind"].as_str().unwrap() {
            "event" => s["event"]["biz_step"].as_str().unwrap().to_string(),
            other => other.to_string(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "packing",
            "shipping",
            "receiving",
            "commissioning",
            "observation"
        ],
        "{journey}"
    );
    let ats: Vec<&str> = steps.iter().map(|s| s["at"].as_str().unwrap()).collect();
    assert!(
        ats.windows(2).all(|w| w[0] <= w[1]),
        "oldest first: {ats:?}"
    );
    let seen = &steps[4]["observation"];
    assert_eq!(seen["scans"], 2);
    assert_eq!(seen["genuine"], 2);
    assert_eq!(journey["truncated"], false);

    let (status, trace) = admin.get(&format!("/api/traceability?skuid={skuid}")).await;
    assert_eq!(status, StatusCode::OK, "{trace}");
    assert_eq!(trace["product"]["gtin"], gtin14);
    assert_eq!(trace["scans"], 2);
    assert_eq!(trace["lots"], json!(["L1"]));
    let down = &trace["downstream"];
    assert_eq!(
        down["containers"],
        json!([format!("https://id.gs1.org/00/{SSCC}")])
    );
    assert_eq!(down["packed_into"].as_array().unwrap().len(), 1);
    assert_eq!(
        down["shipped"][0]["destinations"],
        json!([format!("https://id.gs1.org/414/{GLN_2}")])
    );
    assert_eq!(
        down["received"][0]["biz_location"],
        "urn:epc:id:sgln:4000001.00000.0"
    );
    assert_eq!(
        trace["upstream"]["commissioned"].as_array().unwrap().len(),
        1
    );

    // The export: everything, one bizStep, a time range, pages.
    let (status, doc, _) = export(&admin, "").await;
    assert_eq!(status, StatusCode::OK);
    assert_valid_epcis(&doc);
    assert_eq!(events(&doc).len(), 4);
    // The product's: its own and its container's events.
    let (_, doc, _) = export(&admin, &format!("?skuid={skuid}")).await;
    assert_valid_epcis(&doc);
    assert_eq!(events(&doc).len(), 4, "{doc}");
    let (_, doc, _) = export(&admin, "?biz_step=shipping").await;
    assert_valid_epcis(&doc);
    assert_eq!(events(&doc).len(), 1);
    assert_eq!(events(&doc)[0]["bizStep"], "shipping");
    let (_, doc, _) = export(
        &admin,
        "?biz_step=https://ref.gs1.org/cbv/BizStep-receiving&from=2026-01-04T00:00:00Z&to=2026-01-05T00:00:00Z",
    )
    .await;
    assert_eq!(events(&doc).len(), 1, "{doc}");
    let (_, page1, next) = export(&admin, "?limit=3").await;
    assert_eq!(events(&page1).len(), 3);
    let next = next.expect("a next page");
    let (_, page2, last) = export(&admin, &format!("?limit=3&after={next}")).await;
    assert_valid_epcis(&page2);
    assert_eq!(events(&page2).len(), 1);
    assert_eq!(last, None);

    // Workers read, but do not record.
    let worker = app
        .login(&app.account(&brand, brandops::accounts::Role::Worker).await)
        .await;
    let (status, _) = worker
        .get(&format!("/api/product-journey?skuid={skuid}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = worker
        .post(
            "/api/epcis/steps",
            json!({"step": "receiving", "skuid": skuid, "location": GLN}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

/// Cases packed into a pallet: the pallet's shipping is the product's
/// journey too, and traceability names both containers.
#[tokio::test]
async fn containers_packed_into_containers_are_followed() {
    const PALLET: &str = "106141412345678915";
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, skuid, _) = product(&admin).await;
    codes(&admin, &product_id, 2, "L7").await;
    let (status, packed) = admin
        .post(
            "/api/epcis/steps",
            json!({"step": "packing", "skuid": skuid, "lot": "L7", "quantity": 2,
                   "container": SSCC, "location": GLN, "event_time": "2026-02-01T10:00:00Z"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{packed}");
    // The case onto a pallet (captured from a warehouse system).
    let pallet_packing = json!({
        "@context": ["https://ref.gs1.org/standards/epcis/epcis-context.jsonld"],
        "type": "EPCISDocument",
        "schemaVersion": "2.0",
        "creationDate": "2026-02-01T12:00:00Z",
        "epcisBody": {"eventList": [{
            "type": "AggregationEvent",
            "eventID": format!("urn:uuid:{}", uuid::Uuid::new_v4()),
            "eventTime": "2026-02-01T12:00:00Z",
            "eventTimeZoneOffset": "+00:00",
            "action": "ADD",
            "parentID": format!("https://id.gs1.org/00/{PALLET}"),
            "childEPCs": [format!("https://id.gs1.org/00/{SSCC}")],
            "bizStep": "packing"
        }]}
    });
    let (status, captured) = admin.post("/api/epcis/capture", pallet_packing).await;
    assert_eq!(status, StatusCode::CREATED, "{captured}");
    let (status, shipped) = admin
        .post(
            "/api/epcis/steps",
            json!({"step": "shipping", "skuid": skuid, "container": PALLET, "location": GLN,
                   "event_time": "2026-02-02T10:00:00Z"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{shipped}");

    let (status, t) = admin.get(&format!("/api/traceability?skuid={skuid}")).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let containers: Vec<&str> = t["downstream"]["containers"]
        .as_array()
        .or_else(|| t["containers"].as_array())
        .unwrap_or_else(|| panic!("{t}"))
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(
        containers.contains(&format!("https://id.gs1.org/00/{SSCC}").as_str())
            && containers.contains(&format!("https://id.gs1.org/00/{PALLET}").as_str()),
        "{t}"
    );
    let (status, journey) = admin
        .get(&format!("/api/product-journey?skuid={skuid}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{journey}");
    let text = journey.to_string();
    assert!(
        text.contains("shipping") && text.contains(PALLET),
        "the pallet's shipping is the product's journey: {journey}"
    );
}

#[tokio::test]
async fn bad_steps_get_clear_errors_and_store_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, skuid, _) = product(&admin).await;
    for (body, says) in [
        (
            json!({"step": "packing", "skuid": skuid, "location": GLN}),
            "container is required",
        ),
        (
            json!({"step": "shipping", "skuid": skuid, "location": "9506000134353"}),
            "check digit",
        ),
        (
            json!({"step": "shipping", "skuid": skuid, "location": "https://id.gs1.org/414/9506000134353"}),
            "check digit",
        ),
        (
            json!({"step": "packing", "skuid": skuid, "location": GLN, "container": "106141412345678909"}),
            "check digit",
        ),
        (
            json!({"step": "receiving", "skuid": skuid, "location": GLN, "destination": GLN}),
            "only for shipping",
        ),
        (
            json!({"step": "receiving", "skuid": skuid, "location": "somewhere"}),
            "must be a GLN",
        ),
        (
            json!({"step": "receiving", "skuid": skuid, "location": GLN, "event_time": "2999-01-01T00:00:00Z"}),
            "future",
        ),
    ] {
        let (status, answer) = admin.post("/api/epcis/steps", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }
    let (status, answer) = admin
        .post(
            "/api/epcis/steps",
            json!({"step": "receiving", "skuid": "NO-SUCH-SKU", "location": GLN}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert_eq!(app.rows(&brand, "epcis_events").await, 0);
}

/// A valid document: two events of the product, one with an extension
/// holding markup.
fn document(gtin14: &str, ids: [&str; 2]) -> Value {
    json!({
        "@context": ["https://ref.gs1.org/standards/epcis/epcis-context.jsonld",
                     {"ex": "https://example.com/epcis/"}],
        "type": "EPCISDocument",
        "schemaVersion": "2.0",
        "creationDate": "2026-01-01T00:00:00Z",
        "epcisBody": {"eventList": [
            {
                "type": "ObjectEvent",
                "eventID": ids[0],
                "eventTime": "2026-01-05T08:00:00.000+01:00",
                "eventTimeZoneOffset": "+01:00",
                "action": "OBSERVE",
                "bizStep": "https://ref.gs1.org/cbv/BizStep-shipping",
                "disposition": "in_transit",
                "epcList": [format!("https://id.gs1.org/01/{gtin14}/21/ABC1")],
                "readPoint": {"id": format!("https://id.gs1.org/414/{GLN}")},
                "ex:note": "<script>alert(1)</script>"
            },
            {
                "type": "TransformationEvent",
                "eventID": ids[1],
                "eventTime": "2026-01-06T08:00:00Z",
                "eventTimeZoneOffset": "+00:00",
                "inputQuantityList": [{"epcClass": "urn:epc:class:lgtin:4012345.012345.998877", "quantity": 200, "uom": "KGM"}],
                "outputEPCList": [format!("https://id.gs1.org/01/{gtin14}/21/ABC2")],
                "bizStep": "commissioning"
            }
        ]}
    })
}

#[tokio::test]
async fn capture_stores_a_valid_document_whole_and_refuses_a_bad_one_whole() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, skuid, gtin14) = product(&admin).await;
    let ids = [
        "urn:uuid:6d4a3f1e-0000-4000-8000-000000000001",
        "urn:uuid:6d4a3f1e-0000-4000-8000-000000000002",
    ];

    // One bad event (no eventTime): nothing is stored, the reason is given.
    let mut bad = document(&gtin14, ids);
    bad["epcisBody"]["eventList"][1]
        .as_object_mut()
        .unwrap()
        .remove("eventTime");
    let (status, answer) = admin.post("/api/epcis/capture", bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["code"], "invalid_epcis");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .starts_with("Nothing was captured")
    );
    let errors = answer["errors"].as_array().unwrap();
    assert!(!errors.is_empty());
    assert!(
        errors
            .iter()
            .any(|e| e["pointer"] == "/epcisBody/eventList/1"
                && e["message"].as_str().unwrap().contains("eventTime")),
        "{answer}"
    );
    // A GLN with a wrong check digit, which no schema can say.
    let mut bad = document(&gtin14, ids);
    bad["epcisBody"]["eventList"][0]["readPoint"]["id"] =
        json!("https://id.gs1.org/414/9506000134353");
    let (status, answer) = admin.post("/api/epcis/capture", bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(
        answer["errors"][0]["pointer"],
        "/epcisBody/eventList/0/readPoint/id"
    );
    // Not a document; a bad format; the same eventID twice.
    for (bad, pointer) in [
        (json!({"type": "ObjectEvent"}), ""),
        (json!([1, 2]), ""),
        (
            {
                let mut d = document(&gtin14, ids);
                d["creationDate"] = json!("yesterday");
                d
            },
            "/creationDate",
        ),
        (
            document(&gtin14, [ids[0], ids[0]]),
            "/epcisBody/eventList/1/eventID",
        ),
    ] {
        let (status, answer) = admin.post("/api/epcis/capture", bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {answer}");
        assert!(
            answer["errors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["pointer"] == pointer),
            "{bad}: {answer}"
        );
    }
    assert_eq!(app.rows(&brand, "epcis_events").await, 0);

    // The valid one is stored whole.
    let (status, report) = admin
        .post("/api/epcis/capture", document(&gtin14, ids))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{report}");
    assert_eq!(report["captured"], 2);
    assert_eq!(report["event_ids"], json!(ids));
    // Again: its eventIDs are stored, so nothing is.
    let (status, answer) = admin
        .post("/api/epcis/capture", document(&gtin14, ids))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert_eq!(app.rows(&brand, "epcis_events").await, 2);

    // Exported as captured (markup as text, the extension's context with
    // it), valid against the official schema.
    let (_, doc, _) = export(&admin, &format!("?skuid={skuid}")).await;
    assert_valid_epcis(&doc);
    let list = events(&doc);
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["ex:note"], "<script>alert(1)</script>");
    assert_eq!(list[0]["@context"][1]["ex"], "https://example.com/epcis/");
    assert_eq!(list[0]["eventTime"], "2026-01-05T08:00:00.000+01:00");

    let (_, trace) = admin.get(&format!("/api/traceability?skuid={skuid}")).await;
    let from = &trace["upstream"]["transformed_from"];
    assert_eq!(
        from[0]["inputs"],
        json!(["urn:epc:class:lgtin:4012345.012345.998877"]),
        "{trace}"
    );
    assert_eq!(trace["downstream"]["shipped"][0]["event_id"], ids[0]);
}

#[tokio::test]
async fn an_unknown_skuid_is_a_404_that_names_nothing() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let a = app.login(&a.admin).await;
    let b = app.login(&b.admin).await;
    let (_, skuid, _) = product(&a).await;
    for path in [
        "/api/product-journey",
        "/api/traceability",
        "/api/epcis/events",
    ] {
        for (who, sku) in [(&a, "NO-SUCH-SKU"), (&b, skuid.as_str())] {
            let (status, answer) = who.get(&format!("{path}?skuid={sku}")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {answer}");
            assert_eq!(
                answer["error"],
                "No product of your organisation has this skuid."
            );
        }
    }
    for path in [
        "/api/product-journey?skuid=bad%20sku",
        "/api/epcis/events?biz_step=",
        "/api/epcis/events?biz_step=a%20b",
        "/api/epcis/events?after=x",
    ] {
        let (status, answer) = a.get(path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {answer}");
    }
}

#[tokio::test]
async fn another_brand_sees_no_events_journey_or_traceability() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let (_, skuid, gtin14) = product(a).await;
            let (status, e) = a
                .post(
                    "/api/epcis/steps",
                    json!({"step": "shipping", "skuid": skuid, "location": GLN}),
                )
                .await;
            assert_eq!(status, StatusCode::CREATED, "{e}");
            let (status, r) = a
                .post(
                    "/api/epcis/capture",
                    document(
                        &gtin14,
                        [
                            &format!("urn:uuid:{}", uuid::Uuid::new_v4()),
                            &format!("urn:uuid:{}", uuid::Uuid::new_v4()),
                        ],
                    ),
                )
                .await;
            assert_eq!(status, StatusCode::CREATED, "{r}");
            gtin14
        },
        async |c, gtin14| {
            let (_, doc, _) = export(c, "").await;
            let mut answers = vec![(StatusCode::OK, doc)];
            // B cannot know A's skuid: probe by what B could guess, the
            // GTIN, through every read.
            for path in [
                "/api/product-journey",
                "/api/traceability",
                "/api/epcis/events",
            ] {
                answers.push(c.get(&format!("{path}?skuid={gtin14}")).await);
            }
            answers
        },
    )
    .await;
}

#[tokio::test]
async fn capture_is_size_capped_and_parallel_captures_store_an_event_once() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, _, gtin14) = product(&admin).await;

    // Over 4 MiB: 413 before anything is read.
    let big = json!({"type": "EPCISDocument", "pad": "x".repeat(4 * 1024 * 1024 + 1)});
    let (status, answer) = admin.post("/api/epcis/capture", big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
    // More events than a capture may hold: refused whole.
    let mut many = document(
        &gtin14,
        [
            "urn:uuid:6d4a3f1e-0000-4000-8000-00000000000a",
            "urn:uuid:6d4a3f1e-0000-4000-8000-00000000000b",
        ],
    );
    let event = many["epcisBody"]["eventList"][0].clone();
    let list: Vec<Value> = (0..1001)
        .map(|i| {
            let mut e = event.clone();
            e["eventID"] = json!(format!("urn:uuid:6d4a3f1e-0000-4000-8000-{i:012}"));
            e
        })
        .collect();
    many["epcisBody"]["eventList"] = json!(list);
    let (status, answer) = admin.post("/api/epcis/capture", many).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["errors"][0]["pointer"], "/epcisBody/eventList");
    assert_eq!(app.rows(&brand, "epcis_events").await, 0);

    // The same document six times at once: stored once, the others 409.
    let ids = [
        "urn:uuid:6d4a3f1e-0000-4000-8000-0000000000c1",
        "urn:uuid:6d4a3f1e-0000-4000-8000-0000000000c2",
    ];
    let answers = futures::future::join_all(
        (0..6).map(|_| admin.post("/api/epcis/capture", document(&gtin14, ids))),
    )
    .await;
    let created = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    let conflicts = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CONFLICT)
        .count();
    assert_eq!((created, conflicts), (1, 5), "{answers:?}");
    assert_eq!(app.rows(&brand, "epcis_events").await, 2);
}

/// A NUL character in an extension field (PostgreSQL's jsonb cannot store
/// it) is a 400 that names the field, and nothing is stored (issue 20).
#[tokio::test]
async fn a_nul_character_is_refused_with_its_field() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, _, gtin14) = product(&admin).await;
    let ids = [
        "urn:uuid:6d4a3f1e-0000-4000-8000-0000000000a1",
        "urn:uuid:6d4a3f1e-0000-4000-8000-0000000000a2",
    ];
    let mut doc = document(&gtin14, ids);
    doc["epcisBody"]["eventList"][0]["ex:note"] = json!("a\u{0}b");
    let (status, answer) = admin.post("/api/epcis/capture", doc).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["code"], "invalid_epcis");
    assert_eq!(
        answer["errors"][0]["pointer"], "/epcisBody/eventList/0/ex:note",
        "{answer}"
    );
    assert_eq!(app.rows(&brand, "epcis_events").await, 0);
    // And the same document without it is captured.
    let (status, answer) = admin
        .post("/api/epcis/capture", document(&gtin14, ids))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
}

/// A client organisation's codes are commissioned too (issue 21): its
/// admins and employees read their product's journey and traceability, its
/// admins record steps, its employees only read; another client and a brand
/// see none of it.
#[tokio::test]
async fn a_client_reads_its_own_journey_and_nobody_else_does() {
    let app = TestApp::spawn().await;
    let client = app.client_org().await;
    let admin = app.login(&client.admin).await;
    let (product_id, skuid, _) = product(&admin).await;
    let (job_id, _) = codes(&admin, &product_id, 5, "PCM2611").await;

    let (status, journey) = admin
        .get(&format!("/api/product-journey?skuid={skuid}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{journey}");
    assert_eq!(journey["steps"][0]["event"]["code_job_id"], job_id);
    let (status, trace) = admin.get(&format!("/api/traceability?skuid={skuid}")).await;
    assert_eq!(status, StatusCode::OK, "{trace}");
    assert_eq!(trace["lots"], json!(["PCM2611"]));
    let (status, e) = admin
        .post(
            "/api/epcis/steps",
            json!({"step": "shipping", "skuid": skuid, "location": GLN}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{e}");

    let employee = app
        .login(
            &app.account(&client, brandops::accounts::Role::Employee)
                .await,
        )
        .await;
    let (status, journey) = employee
        .get(&format!("/api/product-journey?skuid={skuid}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{journey}");
    assert_eq!(journey["steps"].as_array().unwrap().len(), 2, "{journey}");
    let (status, _) = employee
        .get(&format!("/api/traceability?skuid={skuid}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = employee
        .post(
            "/api/epcis/steps",
            json!({"step": "receiving", "skuid": skuid, "location": GLN}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // Another client and a brand, asking for the same skuid, find nothing.
    let other = app.login(&app.client_org().await.admin).await;
    let brand = app.login(&app.brand().await.admin).await;
    for c in [&other, &brand] {
        for path in ["/api/product-journey", "/api/traceability"] {
            let (status, body) = c.get(&format!("{path}?skuid={skuid}")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
            assert!(!body.to_string().contains(&job_id), "{body}");
        }
        let (_, doc, _) = export(c, &format!("?skuid={skuid}")).await;
        assert!(!doc.to_string().contains("PCM2611"), "{doc}");
    }
}
