//! Digital product passports: every save a new version and earlier ones
//! unchanged (also under parallel saves), lot passports that replace the
//! product's, what the public sees (each field by its own visibility or its
//! section's, through the resolver too), documents saved before per-field
//! visibility, completeness, bad input refused with nothing changed, markup
//! kept as text, every save audited in its own transaction, who may do
//! what, isolation.

use brandops::accounts::Role;
use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated, create_product, product_with_codes,
};

/// A new product, "Trail Shoe"; its id.
async fn product(c: &Client) -> String {
    create_product(c, "Trail Shoe", "SHOE-").await.id
}

/// A passport with every counted field filled; the importer restricted.
fn full() -> Value {
    json!({
        "identification": {"visibility": "public", "unique_product_id": "urn:shoe:trail-1",
                           "commodity_code": "64039991"},
        "compliance_documents": {"visibility": "public", "items": [
            {"title": "EU declaration of conformity", "url": "https://example.com/doc.pdf"}]},
        "user_manuals": {"visibility": "public", "items": [
            {"title": "Manual", "url": "https://example.com/manual.pdf"}]},
        "safety_information": {"visibility": "public", "items": [
            {"title": "Safety sheet", "url": "https://example.com/safety.pdf"}]},
        "manufacturer": {"visibility": "public", "name": "Shoe Works", "operator_id": "OP-1",
                         "facility_ids": ["4012345000009"]},
        "importer": {"visibility": "restricted", "name": "Secret Imports GmbH", "eori": "DE123456789012345"},
        "responsible_operator": {"visibility": "public", "name": "Shoe EU", "operator_id": "EU-OP-7"},
        "substances_of_concern": {"visibility": "public", "items": [
            {"name": "Lead", "cas_number": "7439-92-1", "concentration_percent": 0.05,
             "location": "buckle"}]},
        "materials": {"visibility": "public", "items": [
            {"name": "Leather", "share_percent": 60, "recycled_percent": 0},
            {"name": "Rubber", "share_percent": 40, "recycled_percent": 25}]},
        "repair": {"visibility": "public", "instructions": "Resole at any cobbler.\nKeep dry.",
                   "spare_parts_availability": "Soles for 5 years"},
        "recycling": {"visibility": "restricted", "instructions": "Separate sole and upper.",
                      "recyclability": "Partly recyclable"}
    })
}

async fn save(c: &Client, id: &str, lot: Option<&str>, body: Value) -> (StatusCode, Value) {
    let path = match lot {
        Some(lot) => format!("/api/passports/{id}?lot={lot}"),
        None => format!("/api/passports/{id}"),
    };
    c.put(&path, body).await
}

async fn get_ok(c: &Client, path: &str) -> Value {
    let (status, body) = c.get(path).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    body
}

#[tokio::test]
async fn every_save_is_a_new_version_and_earlier_ones_stay_as_they_were() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;

    let empty = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(empty["version"], 0);
    assert_eq!(empty["completeness"], 0);
    assert_eq!(empty["missing"].as_array().unwrap().len(), 17);
    assert_eq!(empty["product_name"], "Trail Shoe");

    let (status, v1) = save(&admin, &id, None, full()).await;
    assert_eq!(status, StatusCode::OK, "{v1}");
    assert_eq!(v1["version"], 1);
    assert_eq!(v1["completeness"], 100);
    assert_eq!(v1["missing"], json!([]));
    assert!(v1.get("lot").is_none());
    assert_eq!(v1["data"]["materials"]["items"][1]["name"], "Rubber");

    let mut changed = full();
    changed["manufacturer"]["name"] = json!("  Shoe Works 2  ");
    let (status, v2) = save(&admin, &id, None, changed).await;
    assert_eq!(status, StatusCode::OK, "{v2}");
    assert_eq!(v2["version"], 2);
    assert_eq!(
        v2["data"]["manufacturer"]["name"], "Shoe Works 2",
        "trimmed"
    );

    let current = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(current["version"], 2);
    assert_eq!(current["data"], v2["data"]);

    let history = get_ok(&admin, &format!("/api/passports/{id}/versions")).await;
    let numbers: Vec<_> = history["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, vec![2, 1]);
    let old = get_ok(&admin, &format!("/api/passports/{id}/versions/1")).await;
    assert_eq!(old["version"], 1);
    assert_eq!(old["data"], v1["data"]);
    assert_eq!(old["data"]["manufacturer"]["name"], "Shoe Works");
    let (status, _) = admin.get(&format!("/api/passports/{id}/versions/3")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Not even the database lets a version change.
    for sql in [
        "UPDATE {}.passport_versions SET completeness = 1",
        "DELETE FROM {}.passport_versions",
        "TRUNCATE {}.passport_versions",
    ] {
        let err = sqlx::query(sqlx::AssertSqlSafe(sql.replace("{}", &brand.schema)))
            .execute(&app.owner)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("never changed"), "{sql}: {err}");
    }
    assert_eq!(app.rows(&brand, "passport_versions").await, 2);
    let again = get_ok(&admin, &format!("/api/passports/{id}/versions/1")).await;
    assert_eq!(again, old);
}

#[tokio::test]
async fn a_lot_passport_replaces_the_products_for_that_lot_only() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;
    save(&admin, &id, None, full()).await;
    let mut lot = full();
    lot["materials"]["items"] = json!([{"name": "Recycled leather", "share_percent": 100}]);
    let (status, l1) = save(&admin, &id, Some("L-1"), lot).await;
    assert_eq!(status, StatusCode::OK, "{l1}");
    assert_eq!(l1["version"], 1, "a lot's versions are its own");
    assert_eq!(l1["lot"], "L-1");

    let for_lot = get_ok(&admin, &format!("/api/passports/{id}?lot=L-1")).await;
    assert_eq!(for_lot["lot"], "L-1");
    assert_eq!(
        for_lot["data"]["materials"]["items"][0]["name"],
        "Recycled leather"
    );
    let other_lot = get_ok(&admin, &format!("/api/passports/{id}?lot=L-2")).await;
    assert!(other_lot.get("lot").is_none(), "{other_lot}");
    assert_eq!(
        other_lot["data"]["materials"]["items"][0]["name"],
        "Leather"
    );
    let own = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(own["data"]["materials"]["items"][0]["name"], "Leather");
    assert_eq!(own["version"], 1);

    let lot_history = get_ok(&admin, &format!("/api/passports/{id}/versions?lot=L-1")).await;
    assert_eq!(lot_history["lot"], "L-1");
    assert_eq!(lot_history["versions"].as_array().unwrap().len(), 1);
    let none = get_ok(&admin, &format!("/api/passports/{id}/versions?lot=L-2")).await;
    assert_eq!(none["versions"], json!([]));

    let list = get_ok(&admin, "/api/passports").await;
    let row = &list["products"][0];
    assert_eq!(row["product_id"], id.as_str());
    assert_eq!(row["completeness"], 100);
    assert_eq!(row["lots"][0]["lot"], "L-1");
    assert_eq!(row["lots"][0]["version"], 1);
    assert_eq!(list["counted_fields"].as_array().unwrap().len(), 17);

    let (status, body) = admin
        .get(&format!("/api/passports/{id}?lot=no%20spaces"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().starts_with("lot must be"));
}

/// An owner connection inside the tenant's schema, as the resolver's
/// tenant connection would be.
async fn in_schema(app: &TestApp, t: &TestTenant) -> sqlx::pool::PoolConnection<sqlx::Postgres> {
    let mut conn = app.owner.acquire().await.unwrap();
    sqlx::query("SELECT set_config('search_path', $1, false)")
        .bind(&t.schema)
        .execute(&mut *conn)
        .await
        .unwrap();
    conn
}

#[tokio::test]
async fn the_public_sees_only_public_sections_of_the_lots_or_the_products_passport() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;
    let uuid: uuid::Uuid = id.parse().unwrap();
    let mut conn = in_schema(&app, &brand).await;
    let none = brandops::passports::store::public_passport(&mut conn, uuid, None)
        .await
        .unwrap();
    assert!(none.is_none(), "no passport yet");

    let mut body = full();
    body["manufacturer"]["name"] = json!("<script>alert('x')</script>");
    save(&admin, &id, None, body).await;
    let mut lot = full();
    lot["repair"]["visibility"] = json!("restricted");
    lot["importer"]["visibility"] = json!("public");
    save(&admin, &id, Some("L-9"), lot).await;

    let p = brandops::passports::store::public_passport(&mut conn, uuid, Some("L-7"))
        .await
        .unwrap()
        .expect("the product's passport");
    let json = serde_json::to_value(&p).unwrap();
    assert!(json.get("lot").is_none());
    assert_eq!(json["version"], 1);
    let text = json.to_string();
    assert!(
        !text.contains("Secret Imports"),
        "importer is restricted: {json}"
    );
    assert!(
        !text.contains("Separate sole"),
        "recycling is restricted: {json}"
    );
    assert!(!text.contains("visibility"), "{json}");
    assert_eq!(
        json["sections"]["repair"]["spare_parts_availability"],
        "Soles for 5 years"
    );
    let html = brandops::passports::render_public_html(&p);
    assert!(!html.contains("Secret Imports") && !html.contains("<script>"));
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));

    let p = brandops::passports::store::public_passport(&mut conn, uuid, Some("L-9"))
        .await
        .unwrap()
        .expect("the lot's passport");
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["lot"], "L-9");
    assert_eq!(json["sections"]["importer"]["eori"], "DE123456789012345");
    assert!(json["sections"].get("repair").is_none(), "{json}");

    // An archived product's packs are still out there: the public still
    // sees its passport, while the brand's API no longer lists it.
    let (status, _) = admin
        .send(
            reqwest::Method::DELETE,
            &format!("/api/products/{id}"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        brandops::passports::store::public_passport(&mut conn, uuid, None)
            .await
            .unwrap()
            .is_some()
    );
    let (status, _) = admin.get(&format!("/api/passports/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn completeness_counts_the_filled_fields() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;
    let other = product(&admin).await;
    let (status, p) = save(
        &admin,
        &id,
        None,
        json!({"importer": {"visibility": "public", "name": "Imp", "eori": "FR12AB"},
               "materials": {"visibility": "public", "items": [{"name": "Cotton"}]},
               "substances_of_concern": {"visibility": "public", "items": [{"name": "Nickel"}]}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    // 3 of 17 (substances do not count): 17.6…, rounded down.
    assert_eq!(p["completeness"], 17);
    let missing = p["missing"].as_array().unwrap();
    assert_eq!(missing.len(), 14);
    assert!(!missing.contains(&json!("importer.name")));
    assert!(missing.contains(&json!("recycling.recyclability")));
    assert_eq!(p["data"]["repair"]["visibility"], "restricted", "default");
    let list = get_ok(&admin, "/api/passports").await;
    let by_id = |pid: &str| {
        list["products"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["product_id"] == pid)
            .cloned()
            .unwrap()
    };
    assert_eq!(by_id(&id)["completeness"], 17);
    assert_eq!(by_id(&other)["completeness"], 0);
    assert_eq!(by_id(&other)["version"], 0);
}

#[tokio::test]
async fn bad_input_is_refused_with_a_message_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;
    save(&admin, &id, None, full()).await;
    let cases = [
        (
            "/substances_of_concern/items/0/cas_number",
            json!("7439-92-2"),
            "wrong check digit",
        ),
        (
            "/substances_of_concern/items/0/cas_number",
            json!("12-3"),
            "CAS number",
        ),
        ("/importer/eori", json!("de123"), "EORI"),
        ("/importer/eori", json!("DE1234567890123456"), "EORI"),
        (
            "/user_manuals/items/0/url",
            json!("http://example.com/m.pdf"),
            "https://",
        ),
        (
            "/user_manuals/items/0/url",
            json!("javascript:alert(1)"),
            "https://",
        ),
        (
            "/user_manuals/items/0/title",
            json!("a\u{0}b"),
            "control characters",
        ),
        ("/manufacturer/name", json!("   "), "1 to 200"),
        ("/manufacturer/name", json!("x".repeat(201)), "1 to 200"),
        ("/manufacturer/name", json!("a\u{202e}b"), "text-direction"),
        (
            "/repair/instructions",
            json!("bell\u{7}"),
            "control characters",
        ),
        ("/repair/instructions", json!("x".repeat(5001)), "too long"),
        (
            "/identification/commodity_code",
            json!("6403.99"),
            "HS code",
        ),
        (
            "/materials/items/0/share_percent",
            json!(61),
            "more than 100%",
        ),
    ];
    for (pointer, value, message) in cases {
        let mut body = full();
        *body.pointer_mut(pointer).unwrap() = value;
        let (status, answer) = save(&admin, &id, None, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{pointer}: {answer}");
        assert_eq!(answer["code"], "invalid_input", "{pointer}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(message),
            "{pointer}: {answer}"
        );
    }
    // Shapes the contract forbids.
    for body in [
        json!({"importer": {"visibility": "secret"}}),
        json!({"materials": {"visibility": "public", "items": [{"name": "x", "share_percent": 101}]}}),
        json!({"repair": {"visibility": "public", "instructions": 5}}),
        json!({"repair": {"instructions": "no visibility"}}),
        // A section may be left out, but is never null (found by schemathesis).
        json!({"recycling": null}),
        json!({"identification": null, "materials": null}),
        json!({"materials": {"visibility": "public", "items": null}}),
        json!({"manufacturer": {"visibility": "public", "name": "M", "facility_ids": null}}),
    ] {
        let (status, answer) = save(&admin, &id, None, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
    }
    assert_eq!(app.rows(&brand, "passport_versions").await, 1);
    let current = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(current["version"], 1);
}

#[tokio::test]
async fn markup_is_stored_and_answered_as_text() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;
    let markup = "<img src=x onerror=\"alert(1)\"> & 'quotes'";
    let mut body = full();
    body["repair"]["instructions"] = json!(markup);
    body["compliance_documents"]["items"][0]["title"] = json!(markup);
    let (status, p) = save(&admin, &id, None, body).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["data"]["repair"]["instructions"], markup);
    let stored: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT document #>> '{{repair,instructions}}' FROM {}.passport_versions",
        brand.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(stored, markup);
    let got = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(
        got["data"]["compliance_documents"]["items"][0]["title"],
        markup
    );
}

#[tokio::test]
async fn parallel_saves_get_distinct_version_numbers() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let manager = app.login(&app.account(&brand, Role::Manager).await).await;
    let id = product(&admin).await;
    let saves = (0..10).map(|i| {
        let c = if i % 2 == 0 { &admin } else { &manager };
        let mut body = full();
        body["manufacturer"]["name"] = json!(format!("Maker {i}"));
        save(c, &id, None, body)
    });
    let answers = join_all(saves).await;
    let mut versions: Vec<i64> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, StatusCode::OK, "{body}");
            body["version"].as_i64().unwrap()
        })
        .collect();
    versions.sort_unstable();
    assert_eq!(versions, (1..=10).collect::<Vec<_>>());
    assert_eq!(app.rows(&brand, "passport_versions").await, 10);
    let current = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(current["version"], 10);
}

#[tokio::test]
async fn workers_read_passports_and_only_editors_save() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let id = product(&admin).await;
    save(&admin, &id, None, full()).await;
    let read = get_ok(&worker, &format!("/api/passports/{id}")).await;
    assert_eq!(read["version"], 1);
    get_ok(&worker, "/api/passports").await;
    get_ok(&worker, &format!("/api/passports/{id}/versions/1")).await;
    let (status, body) = save(&worker, &id, None, full()).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(app.rows(&brand, "passport_versions").await, 1);
}

#[tokio::test]
async fn unknown_malformed_and_archived_products_are_not_found() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let archived = product(&admin).await;
    admin
        .send(
            reqwest::Method::DELETE,
            &format!("/api/products/{archived}"),
            None,
        )
        .await;
    for id in [
        uuid::Uuid::new_v4().to_string(),
        "not-a-uuid".to_string(),
        archived,
    ] {
        for path in [
            format!("/api/passports/{id}"),
            format!("/api/passports/{id}/versions"),
            format!("/api/passports/{id}/versions/1"),
        ] {
            let (status, body) = admin.get(&path).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        }
        let (status, body) = save(&admin, &id, None, full()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{id}: {body}");
    }
    assert_eq!(app.rows(&brand, "passport_versions").await, 0);
}

#[tokio::test]
async fn another_brand_can_neither_read_nor_change_a_passport() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let id = product(a).await;
            let (status, p) = save(a, &id, None, full()).await;
            assert_eq!(status, StatusCode::OK, "{p}");
            let (status, p) = save(a, &id, Some("L-1"), full()).await;
            assert_eq!(status, StatusCode::OK, "{p}");
            id
        },
        async |c, id| {
            let mut hostile = full();
            hostile["manufacturer"]["name"] = json!("Taken over");
            vec![
                c.get("/api/passports").await,
                c.get(&format!("/api/passports/{id}")).await,
                c.get(&format!("/api/passports/{id}?lot=L-1")).await,
                c.get(&format!("/api/passports/{id}/versions")).await,
                c.get(&format!("/api/passports/{id}/versions/1")).await,
                save(c, id, None, hostile.clone()).await,
                save(c, id, Some("L-1"), hostile).await,
            ]
        },
    )
    .await;
}

/// The public passport through the resolver: as JSON (`Accept:
/// application/json`) and as the passport's page and the scan page.
async fn public_views(uri: &str) -> (Value, String, String) {
    let http = reqwest::Client::new();
    let resp = http
        .get(format!("{uri}?linkType=gs1:dpp"))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let json: Value = resp.json().await.unwrap();
    let page = http
        .get(format!("{uri}?linkType=gs1:dpp"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.unwrap();
    let scan_page = http.get(uri).send().await.unwrap().text().await.unwrap();
    (json, page, scan_page)
}

#[tokio::test]
async fn each_field_is_public_or_restricted_on_its_own_also_through_the_resolver() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (id, uris) = product_with_codes(&admin, 1, None).await;
    let mut body = full();
    // A public section with restricted fields.
    body["manufacturer"]["contact"] = json!("Secret contact, Backstreet 1");
    body["manufacturer"]["field_visibility"] =
        json!({"contact": "restricted", "facility_ids": "restricted"});
    // A restricted section with a public field (and a redundant one).
    body["importer"]["contact"] = json!("imports@example.com");
    body["importer"]["field_visibility"] = json!({"eori": "public", "name": "restricted"});
    // Restricted recycling, but its recyclability public.
    body["recycling"]["field_visibility"] = json!({"recyclability": "public"});
    // A public list with a restricted item; a restricted list with a public one.
    body["user_manuals"]["items"] = json!([
        {"title": "Manual", "url": "https://example.com/manual.pdf"},
        {"title": "Service manual", "url": "https://example.com/service.pdf", "visibility": "restricted"}]);
    body["materials"]["visibility"] = json!("restricted");
    body["materials"]["items"][1]["visibility"] = json!("public");
    let (status, saved) = save(&admin, &id, None, body).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(
        saved["data"]["importer"]["field_visibility"],
        json!({"name": "restricted", "eori": "public"})
    );
    assert_eq!(
        saved["data"]["materials"]["items"][1]["visibility"],
        "public"
    );
    assert!(
        saved["data"]["materials"]["items"][0]
            .get("visibility")
            .is_none()
    );
    assert_eq!(saved["completeness"], 100, "visibility does not count");
    let current = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(current["data"], saved["data"], "read back as saved");

    let (json, page, scan_page) = public_views(&uris[0]).await;
    let sections = &json["sections"];
    assert_eq!(
        sections["manufacturer"],
        json!({"name": "Shoe Works", "operator_id": "OP-1"})
    );
    assert_eq!(sections["importer"], json!({"eori": "DE123456789012345"}));
    assert_eq!(
        sections["recycling"],
        json!({"recyclability": "Partly recyclable"})
    );
    assert_eq!(
        sections["user_manuals"],
        json!({"items": [{"title": "Manual", "url": "https://example.com/manual.pdf"}]})
    );
    assert_eq!(
        sections["materials"],
        json!({"items": [{"name": "Rubber", "share_percent": 40.0, "recycled_percent": 25.0}]})
    );
    let text = json.to_string();
    for html in [&page, &scan_page] {
        for shown in [
            "Shoe Works",
            "DE123456789012345",
            "Partly recyclable",
            "manual.pdf",
            "Rubber",
        ] {
            assert!(html.contains(shown), "{shown} missing: {html}");
        }
    }
    for hidden in [
        "Secret contact",
        "4012345000009",
        "Secret Imports",
        "imports@example.com",
        "Separate sole",
        "Service manual",
        "service.pdf",
        "Leather",
        "visibility",
    ] {
        assert!(!text.contains(hidden), "{hidden} in {json}");
        assert!(!page.contains(hidden), "{hidden} in the passport page");
        assert!(!scan_page.contains(hidden), "{hidden} in the scan page");
    }
}

#[tokio::test]
async fn a_visibility_for_no_such_field_is_refused_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;
    save(&admin, &id, None, full()).await;
    for (section, field) in [
        ("importer", "nme"),
        ("manufacturer", "eori"),
        ("identification", "gtin"),
        ("recycling", "instructions "),
    ] {
        let mut body = full();
        body[section]["field_visibility"] = json!({ field: "public" });
        let (status, answer) = save(&admin, &id, None, body).await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "{section}.{field}: {answer}"
        );
        assert_eq!(answer["code"], "invalid_input");
        let message = answer["error"].as_str().unwrap();
        assert!(
            message.starts_with(&format!(
                "{section}.field_visibility names {field:?}, which is not a field of {section} (its fields: "
            )),
            "{message}"
        );
    }
    // Shapes the contract forbids.
    for body in [
        json!({"importer": {"visibility": "restricted", "field_visibility": {"name": "secret"}}}),
        json!({"importer": {"visibility": "restricted", "field_visibility": {"name": null}}}),
        json!({"importer": {"visibility": "restricted", "field_visibility": null}}),
        json!({"importer": {"visibility": "restricted", "field_visibility": ["name"]}}),
        json!({"materials": {"visibility": "public", "items": [{"name": "x", "visibility": "secret"}]}}),
        json!({"materials": {"visibility": "public", "items": [{"name": "x", "visibility": null}]}}),
    ] {
        let (status, answer) = save(&admin, &id, None, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
    }
    assert_eq!(app.rows(&brand, "passport_versions").await, 1);
}

#[tokio::test]
async fn a_passport_saved_before_per_field_visibility_reads_as_it_was() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (id, uris) = product_with_codes(&admin, 1, None).await;
    // A document as the first passports release stored it: no
    // `field_visibility`, no items' `visibility`.
    let old = json!({
        "identification": {"visibility": "public", "unique_product_id": "urn:old:1"},
        "compliance_documents": {"visibility": "restricted", "items": [
            {"title": "Old declaration", "url": "https://example.com/old.pdf"}]},
        "user_manuals": {"visibility": "public", "items": [
            {"title": "Old manual", "url": "https://example.com/old-manual.pdf"}]},
        "safety_information": {"visibility": "restricted", "items": []},
        "manufacturer": {"visibility": "public", "name": "Old Works", "contact": "old@example.com",
                         "facility_ids": ["F-OLD"]},
        "importer": {"visibility": "restricted", "name": "Old Secret Imports", "eori": "DE999"},
        "responsible_operator": {"visibility": "restricted"},
        "substances_of_concern": {"visibility": "public", "items": [{"name": "Lead"}]},
        "materials": {"visibility": "restricted", "items": [{"name": "Old secret blend"}]},
        "repair": {"visibility": "public", "instructions": "Old repair"},
        "recycling": {"visibility": "restricted", "recyclability": "Old secret recycling"}
    });
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "WITH h AS (INSERT INTO {s}.passports (product_id, lot, current_version, completeness)
                    VALUES ($1, '', 1, 41) RETURNING product_id)
         INSERT INTO {s}.passport_versions (product_id, lot, version, document, completeness, created_by)
         SELECT product_id, '', 1, $2, 41, $3 FROM h",
        s = brand.schema
    )))
    .bind(id.parse::<uuid::Uuid>().unwrap())
    .bind(&old)
    .bind(uuid::Uuid::new_v4())
    .execute(&app.owner)
    .await
    .unwrap();

    let p = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(p["version"], 1);
    assert_eq!(p["data"]["manufacturer"]["name"], "Old Works");
    assert_eq!(p["data"]["manufacturer"]["field_visibility"], json!({}));
    assert_eq!(p["data"]["importer"]["visibility"], "restricted");
    assert!(
        p["data"]["materials"]["items"][0]
            .get("visibility")
            .is_none()
    );
    let v1 = get_ok(&admin, &format!("/api/passports/{id}/versions/1")).await;
    assert_eq!(v1["data"], p["data"]);

    // Every field has its section's visibility.
    let (json, page, _) = public_views(&uris[0]).await;
    assert_eq!(
        json["sections"]["manufacturer"],
        json!({"name": "Old Works", "contact": "old@example.com", "facility_ids": ["F-OLD"]})
    );
    assert_eq!(
        json["sections"]["substances_of_concern"]["items"][0]["name"],
        "Lead"
    );
    assert!(
        page.contains("Old manual") && page.contains("Old repair"),
        "{page}"
    );
    for hidden in [
        "Old declaration",
        "Old Secret Imports",
        "Old secret blend",
        "Old secret recycling",
    ] {
        assert!(!json.to_string().contains(hidden), "{hidden}: {json}");
        assert!(!page.contains(hidden), "{hidden}: {page}");
    }

    // What it reads as saves again as the next version.
    let (status, v2) = save(&admin, &id, None, p["data"].clone()).await;
    assert_eq!(status, StatusCode::OK, "{v2}");
    assert_eq!(v2["version"], 2);
    assert_eq!(v2["data"], p["data"]);
    let stored: Value = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT document FROM {}.passport_versions WHERE version = 1",
        brand.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(stored, old, "the old version is never rewritten");
}

async fn save_audits(app: &TestApp, t: &TestTenant) -> Vec<(String, Value)> {
    sqlx::query_as(
        "SELECT target, detail FROM platform.audit_log
         WHERE action = 'passport.saved' AND tenant_id = $1 ORDER BY id",
    )
    .bind(t.tenant.id)
    .fetch_all(&app.owner)
    .await
    .unwrap()
}

#[tokio::test]
async fn every_save_is_audited() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let manager = app.login(&app.account(&brand, Role::Manager).await).await;
    let id = product(&admin).await;
    let (status, _) = save(&admin, &id, None, full()).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = save(&manager, &id, Some("L-1"), json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let audits = save_audits(&app, &brand).await;
    assert_eq!(
        audits,
        vec![
            (id.clone(), json!({"version": 1, "completeness": 100})),
            (
                id.clone(),
                json!({"version": 1, "completeness": 0, "lot": "L-1"})
            ),
        ]
    );
    let actors: Vec<Option<String>> = sqlx::query_scalar(
        "SELECT actor_email FROM platform.audit_log
         WHERE action = 'passport.saved' AND tenant_id = $1 ORDER BY id",
    )
    .bind(brand.tenant.id)
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(actors[0].as_deref(), Some(brand.admin.as_str()));
    assert_ne!(actors[1], actors[0]);

    // Refused saves record nothing.
    let mut bad = full();
    bad["importer"]["eori"] = json!("de1");
    let (status, _) = save(&admin, &id, None, bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let (status, _) = save(&worker, &id, None, full()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(save_audits(&app, &brand).await.len(), 2);
}

/// The version and its audit record are one transaction: a save that
/// fails after the audit row was written leaves neither.
#[tokio::test]
async fn a_save_that_fails_leaves_no_audit_record_and_no_version() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;
    save(&admin, &id, None, full()).await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {}.passport_versions ADD CONSTRAINT test_refuses_doomed
         CHECK (document #>> '{{manufacturer,name}}' IS DISTINCT FROM 'Doomed')",
        brand.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    let mut doomed = full();
    doomed["manufacturer"]["name"] = json!("Doomed");
    let (status, err) = save(&admin, &id, None, doomed).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{err}");
    assert_eq!(
        save_audits(&app, &brand).await.len(),
        1,
        "only the first save"
    );
    assert_eq!(app.rows(&brand, "passport_versions").await, 1);
    let current = get_ok(&admin, &format!("/api/passports/{id}")).await;
    assert_eq!(current["version"], 1);
    let list = get_ok(&admin, "/api/passports").await;
    assert_eq!(list["products"][0]["version"], 1);

    let (status, _) = save(&admin, &id, None, full()).await;
    assert_eq!(status, StatusCode::OK);
    let audits = save_audits(&app, &brand).await;
    assert_eq!(audits.len(), 2);
    assert_eq!(audits[1].1["version"], 2);
}
