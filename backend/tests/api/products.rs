//! Products: the spec's list call, creation within the plan's limit (also
//! under parallel requests), GTINs checked and registered to one
//! organisation, SKU ids unique, archive, who may do what, isolation.

use brandops::accounts::Role;
use futures::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Client, TestApp, TestTenant, assert_isolated, generate_codes, gtin, unique};

fn new_product(skuid: &str, gtin: &str) -> Value {
    json!({"product_name": "Sparkling Water 1L", "skuid": skuid, "gtin": gtin,
           "category": "Beverages", "product_description": "Still the best.\nReally."})
}

async fn create(c: &Client, skuid: &str, gtin: &str) -> (StatusCode, Value) {
    c.post("/api/products", new_product(skuid, gtin)).await
}

async fn list(c: &Client) -> Value {
    let (status, body) = c.get("/api/product-handler?action=allproducts").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

async fn set_product_limit(app: &TestApp, t: &TestTenant, limit: i32) {
    sqlx::query("UPDATE platform.tenants SET product_limit = $1 WHERE id = $2")
        .bind(limit)
        .bind(t.tenant.id)
        .execute(&app.owner)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_brand_creates_products_and_the_spec_list_call_shows_them() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let empty = list(&admin).await;
    assert_eq!(
        empty,
        json!({"products": [], "max_products": 100, "added_products": 0})
    );
    let g = gtin();
    let (status, p) = create(&admin, "WATER-1L", &g).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    assert_eq!(p["gtin"], format!("0{g}"), "stored as GTIN-14");
    assert_eq!(p["product_name"], "Sparkling Water 1L");
    assert_eq!(p["category"], "Beverages");
    assert_eq!(p["image_urls"], json!([]));
    assert_eq!(p["metadata"], json!({}));
    assert!(p.get("archived_at").is_none());
    let listed = list(&admin).await;
    assert_eq!(listed["added_products"], 1);
    assert_eq!(listed["products"][0]["id"], p["id"]);
    let (status, got) = admin
        .get(&format!("/api/products/{}", p["id"].as_str().unwrap()))
        .await;
    assert_eq!((status, &got), (StatusCode::OK, &p));

    // Markup is text: stored and answered as it was sent, never interpreted.
    let markup = "<script>alert(1)</script> & <b>bold</b>";
    let (status, m) = admin
        .post(
            "/api/products",
            json!({"product_name": markup, "skuid": "MARKUP", "gtin": gtin(),
                   "product_description": markup}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{m}");
    assert_eq!(
        (m["product_name"].as_str(), m["category"].as_str()),
        (Some(markup), Some(""))
    );

    // A worker may add products, but not change or delete them.
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    let (status, w) = create(&worker, "BY-WORKER", &gtin()).await;
    assert_eq!(status, StatusCode::CREATED, "{w}");
    let path = format!("/api/products/{}", w["id"].as_str().unwrap());
    let (status, _) = worker
        .patch(&path, json!({"product_name": "Renamed"}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = worker.send(Method::DELETE, &path, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(list(&admin).await["added_products"], 3);
}

#[tokio::test]
async fn bad_products_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let good = gtin();
    let wrong_check = format!("{}{}", &good[..12], (good.as_bytes()[12] - b'0' + 1) % 10);
    for (body, says) in [
        (new_product("SKU-1", &wrong_check), "check digit"),
        (new_product("SKU-1", "12345"), "8, 12, 13 or 14 digits"),
        (new_product("SKU-1", " 4006381333931"), "digits"),
        (new_product("SKU 1", &good), "skuid"),
        (new_product("", &good), "skuid"),
        (
            json!({"product_name": "  ", "skuid": "SKU-1", "gtin": good}),
            "product_name",
        ),
        (
            json!({"product_name": "A\u{202e}B", "skuid": "SKU-1", "gtin": good}),
            "product_name",
        ),
        (
            json!({"product_name": "A", "skuid": "SKU-1", "gtin": good, "product_description": "nul\u{0}"}),
            "product_description",
        ),
        (
            json!({"product_name": "A", "skuid": "SKU-1", "gtin": good, "category": ""}),
            "category",
        ),
        (
            json!({"product_name": "A", "skuid": "SKU-1", "gtin": good, "product_description": "x".repeat(5001)}),
            "product_description",
        ),
        (json!({"product_name": "A", "skuid": "SKU-1"}), "gtin"),
        (
            json!({"product_name": 5, "skuid": "SKU-1", "gtin": good}),
            "",
        ),
        (
            json!({"product_name": "A", "skuid": "SKU-1", "gtin": good, "category": null}),
            "",
        ),
    ] {
        let (status, err) = admin.post("/api/products", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert!(
            err["error"].as_str().unwrap().contains(says),
            "{body}: {err}"
        );
    }
    assert_eq!(app.rows(&brand, "products").await, 0);
    let claimed: i64 =
        sqlx::query_scalar("SELECT count(*) FROM platform.gtins WHERE tenant_id = $1")
            .bind(brand.tenant.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(claimed, 0);
}

#[tokio::test]
async fn skuids_are_unique_and_a_gtin_belongs_to_one_organisation() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let (a_admin, b_admin) = (app.login(&a.admin).await, app.login(&b.admin).await);
    let g = gtin();
    let (status, _) = create(&a_admin, "Cola-1", &g).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, err) = create(&a_admin, "COLA-1", &gtin()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert!(err["error"].as_str().unwrap().contains("skuid"), "{err}");
    let (status, err) = create(&a_admin, "Cola-2", &g).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    // Another organisation cannot use A's GTIN, and is not told whose it is.
    let (status, err) = create(&b_admin, "B-1", &format!("0{g}")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    let text = err.to_string();
    assert!(text.contains("another organisation"), "{text}");
    assert!(
        !text.contains(&a.client_id) && !text.to_lowercase().contains(&a.client_id.to_lowercase()),
        "{text}"
    );
    assert_eq!(app.rows(&b, "products").await, 0);

    // Two organisations claiming one new GTIN at once: exactly one gets it.
    let contested = gtin();
    let (ra, rb) = tokio::join!(
        create(&a_admin, "A-race", &contested),
        create(&b_admin, "B-race", &contested)
    );
    let mut statuses = [ra.0, rb.0];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::CREATED, StatusCode::CONFLICT],
        "{ra:?} {rb:?}"
    );
}

#[tokio::test]
async fn the_product_limit_holds_under_parallel_creation() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    set_product_limit(&app, &brand, 3).await;
    let admin = app.login(&brand.admin).await;
    let gtins: Vec<String> = (0..8).map(|_| gtin()).collect();
    let attempts = gtins.iter().enumerate().map(|(i, g)| {
        let admin = &admin;
        async move { create(admin, &format!("PAR-{i}"), g).await }
    });
    let answers = join_all(attempts).await;
    let created = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    let refused: Vec<_> = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::FORBIDDEN)
        .collect();
    assert_eq!((created, refused.len()), (3, 5), "{answers:?}");
    assert_eq!(refused[0].1["code"], "product_limit");
    assert_eq!(app.rows(&brand, "products").await, 3);
    // A refused creation claimed no GTIN.
    let claimed: i64 =
        sqlx::query_scalar("SELECT count(*) FROM platform.gtins WHERE tenant_id = $1")
            .bind(brand.tenant.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(claimed, 3);
    // Lowering the limit below use deletes nothing; archiving frees a place.
    set_product_limit(&app, &brand, 1).await;
    let listed = list(&admin).await;
    assert_eq!(
        (&listed["max_products"], &listed["added_products"]),
        (&json!(1), &json!(3))
    );
    let (status, _) = create(&admin, "ONE-MORE", &gtin()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    set_product_limit(&app, &brand, 3).await;
    let id = listed["products"][0]["id"].as_str().unwrap().to_string();
    let (status, archived) = admin
        .send(Method::DELETE, &format!("/api/products/{id}"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{archived}");
    assert!(archived["archived_at"].is_string());
    let (status, _) = create(&admin, "ONE-MORE", &gtin()).await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn archiving_and_changing_products() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let (admin, b_admin) = (app.login(&a.admin).await, app.login(&b.admin).await);
    let (old_gtin, new_gtin) = (gtin(), gtin());
    let (_, p) = create(&admin, "CHANGE-ME", &old_gtin).await;
    let path = format!("/api/products/{}", p["id"].as_str().unwrap());
    let (status, changed) = admin
        .patch(
            &path,
            json!({"product_name": "  New name  ", "gtin": new_gtin}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    assert_eq!(changed["product_name"], "New name");
    assert_eq!(changed["skuid"], "CHANGE-ME");
    assert_eq!(changed["gtin"], format!("0{new_gtin}"));
    // The old GTIN was given up: another organisation may now use it; the
    // new one is A's.
    let (status, _) = create(&b_admin, "B-OLD", &old_gtin).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = create(&b_admin, "B-NEW", &new_gtin).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // A bad change changes nothing.
    let (status, _) = admin
        .patch(&path, json!({"product_name": "", "skuid": "OTHER"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, same) = admin.get(&path).await;
    assert_eq!(same, changed);

    let (status, _) = admin.send(Method::DELETE, &path, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list(&admin).await["added_products"], 0);
    // Deleted is gone from the API (its codes and their jobs stay).
    let (status, _) = admin.get(&path).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let archived_at: Option<chrono::DateTime<chrono::Utc>> =
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT archived_at FROM {}.products WHERE id = $1",
            a.schema
        )))
        .bind(uuid::Uuid::parse_str(path.rsplit('/').next().unwrap()).unwrap())
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert!(archived_at.is_some(), "archived, not deleted");
    for (method, body) in [
        (Method::PATCH, Some(json!({"product_name": "x"}))),
        (Method::DELETE, None),
    ] {
        let (status, _) = admin.send(method, &path, body).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    // An archived product keeps its GTIN for the organisation.
    let (status, _) = create(&b_admin, "B-ARCH", &new_gtin).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = admin
        .get(&format!("/api/products/{}", uuid::Uuid::new_v4()))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn another_organisation_can_neither_see_nor_change_a_product() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let skuid = unique("ISO-");
            let (status, p) = create(a, &skuid, &gtin()).await;
            assert_eq!(status, StatusCode::CREATED, "{p}");
            p["id"].as_str().unwrap().to_string()
        },
        async |c, id| {
            let path = format!("/api/products/{id}");
            vec![
                c.get("/api/product-handler?action=allproducts").await,
                c.get(&path).await,
                c.patch(&path, json!({"product_name": "Taken over"})).await,
                c.get(&path).await,
            ]
        },
    )
    .await;
    // Deleting (archiving) is tried apart: the owner's own probe would
    // archive it, after which it is gone for the owner too.
    let (a, b) = (app.brand().await, app.brand().await);
    let (a, b) = (app.login(&a.admin).await, app.login(&b.admin).await);
    let (_, p) = create(&a, &unique("DEL-"), &gtin()).await;
    let path = format!("/api/products/{}", p["id"].as_str().unwrap());
    let (status, answer) = b.send(Method::DELETE, &path, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!answer.to_string().contains(p["id"].as_str().unwrap()));
    let (status, still) = a.get(&path).await;
    assert_eq!(status, StatusCode::OK);
    assert!(still.get("archived_at").is_none());
}

/// The GTIN registry's functions act for the calling organisation only: an
/// injected call from A's connection cannot release B's GTIN.
#[tokio::test]
async fn an_injected_release_cannot_touch_another_organisations_gtin() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let b_admin = app.login(&b.admin).await;
    let g = gtin();
    let (status, _) = create(&b_admin, "B-OWN", &g).await;
    assert_eq!(status, StatusCode::CREATED);
    let mut tx = app.state.db.begin_tenant(&a.tenant).await.unwrap();
    sqlx::query("SELECT platform.tenant_release_gtin($1)")
        .bind(format!("0{g}"))
        .execute(&mut *tx)
        .await
        .unwrap();
    let mine: bool = sqlx::query_scalar("SELECT platform.tenant_claim_gtin($1)")
        .bind(format!("0{g}"))
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert!(!mine);
    tx.commit().await.unwrap();
    let owner: uuid::Uuid =
        sqlx::query_scalar("SELECT tenant_id FROM platform.gtins WHERE gtin = $1")
            .bind(format!("0{g}"))
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(owner, b.tenant.id);
}

async fn import(c: &Client, dry_run: bool, csv: &str) -> (StatusCode, Value) {
    let resp = c
        .http
        .post(c.url(&format!("/api/products/import?dry_run={dry_run}")))
        .header("x-csrf-token", c.csrf.clone().unwrap())
        .header("content-type", "text/csv")
        .body(csv.to_string())
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

async fn export(c: &Client) -> String {
    let resp = c
        .http
        .get(c.url("/api/products/export.csv"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "text/csv; charset=utf-8");
    resp.text().await.unwrap()
}

#[tokio::test]
async fn a_csv_import_is_checked_whole_before_anything_is_written() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (g1, g2, g3) = (gtin(), gtin(), gtin());
    let good = format!(
        "product_name,skuid,gtin,category,product_description\n\
         Water,W-1,{g1},Drinks,\"Still, cold\"\n\
         =HYPERLINK(\"http://evil\"),W-2,{g2},,\n"
    );
    let (status, report) = import(&admin, true, &good).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(
        report,
        json!({"dry_run": true, "rows": 2, "created": 0, "errors": []})
    );
    assert_eq!(
        app.rows(&brand, "products").await,
        0,
        "a dry run writes nothing"
    );

    // One bad row (row 3: a wrong check digit), and row 4 repeats row 2's
    // skuid: the dry run names both; applying writes nothing (422).
    let bad_gtin = format!("{}{}", &g3[..12], (g3.as_bytes()[12] - b'0' + 1) % 10);
    let bad = format!("{good}Juice,J-1,{bad_gtin},,\nCola,w-1,{g3},,\n");
    let (status, report) = import(&admin, true, &bad).await;
    assert_eq!(status, StatusCode::OK);
    let errors: Vec<_> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["row"].as_u64().unwrap(),
                e["column"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [(4, "gtin".to_string()), (5, "skuid".to_string())],
        "{report}"
    );
    let (status, report) = import(&admin, false, &bad).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{report}");
    assert_eq!(report["code"], "invalid_rows");
    assert_eq!(report["errors"].as_array().unwrap().len(), 2);
    assert_eq!(app.rows(&brand, "products").await, 0);

    // The good file applies whole; markup and formulas are stored as text.
    let (status, report) = import(&admin, false, &good).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["created"], 2);
    let listed = list(&admin).await;
    assert_eq!(listed["added_products"], 2);
    // Importing it again: every row collides with what is stored.
    let (status, report) = import(&admin, false, &good).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(report["errors"].as_array().unwrap().len(), 4, "{report}");

    // The export: the import's columns, formulas defused with a quote.
    let csv = export(&admin).await;
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("product_name,skuid,gtin,category,product_description")
    );
    assert!(
        csv.contains(&format!("Water,W-1,0{g1},Drinks,\"Still, cold\"")),
        "{csv}"
    );
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"http://evil\"\")\",W-2"),
        "{csv}"
    );

    // A GTIN another organisation holds, and the product limit.
    let other = app.brand().await;
    let other_admin = app.login(&other.admin).await;
    let g4 = gtin();
    let (status, _) = create(&other_admin, "THEIRS", &g4).await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, report) = import(
        &admin,
        true,
        &format!("product_name,skuid,gtin\nMine,M-1,{g4}\n"),
    )
    .await;
    assert_eq!(report["errors"][0]["column"], "gtin");
    let reason = report["errors"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("another organisation") && !reason.contains(&other.client_id),
        "{reason}"
    );
    set_product_limit(&app, &brand, 3).await;
    let (_, report) = import(
        &admin,
        true,
        &format!(
            "product_name,skuid,gtin\nA,A-1,{}\nB,B-1,{}\n",
            gtin(),
            gtin()
        ),
    )
    .await;
    assert_eq!(report["errors"][0]["row"], 0, "{report}");
    assert!(
        report["errors"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("only 1 more")
    );

    // Files that are not CSV of products.
    for (body, expected) in [
        ("name,sku\nA,B\n", StatusCode::BAD_REQUEST),
        ("product_name,skuid,gtin\n", StatusCode::BAD_REQUEST),
        ("", StatusCode::BAD_REQUEST),
    ] {
        let (status, answer) = import(&admin, true, body).await;
        assert_eq!(status, expected, "{body:?}: {answer}");
    }
    let (status, _) = admin
        .post(
            "/api/products/import?dry_run=true",
            json!({"product_name": "x"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(app.rows(&brand, "products").await, 2);
}

#[tokio::test]
async fn the_export_shows_only_the_organisations_own_products() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let skuid = unique("EXP");
            let (status, _) = create(a, &skuid, &gtin()).await;
            assert_eq!(status, StatusCode::CREATED);
            skuid
        },
        async |c, _| vec![(StatusCode::OK, Value::String(export(c).await))],
    )
    .await;
}

#[tokio::test]
async fn products_have_typed_attributes() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let attributes = json!([
        {"type": "number", "name": "Net weight (g)", "value": 500.0},
        {"type": "boolean", "name": "Vegan", "value": true},
        {"type": "date", "name": "Launched", "value": "2026-03-01"},
        {"type": "text", "name": "Origin", "value": "<script>alert(1)</script>"}
    ]);
    let mut body = new_product("ATTR-1", &gtin());
    body["attributes"] = attributes.clone();
    let (status, p) = admin.post("/api/products", body).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    assert_eq!(
        p["attributes"], attributes,
        "typed values, markup kept as text"
    );
    let id = p["id"].as_str().unwrap();
    let (_, got) = admin.get(&format!("/api/products/{id}")).await;
    assert_eq!(got["attributes"], attributes);

    // Replaced whole by an update; left alone when not given.
    let (status, p) = admin
        .patch(
            &format!("/api/products/{id}"),
            json!({"attributes": [{"type": "number", "name": "Net weight (g)", "value": 0.75}]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["attributes"][0]["value"], 0.75);
    let (_, p) = admin
        .patch(&format!("/api/products/{id}"), json!({"category": "Food"}))
        .await;
    assert_eq!(p["attributes"].as_array().unwrap().len(), 1);

    // Each value must be of its type; names unique; at most 50.
    let many: Vec<Value> = (0..51)
        .map(|i| json!({"type": "boolean", "name": format!("a{i}"), "value": true}))
        .collect();
    for bad in [
        json!([{"type": "number", "name": "W", "value": "500"}]),
        json!([{"type": "boolean", "name": "V", "value": "yes"}]),
        json!([{"type": "date", "name": "D", "value": "2026-02-30"}]),
        json!([{"type": "colour", "name": "C", "value": "red"}]),
        json!([{"type": "text", "name": "", "value": "x"}]),
        json!([{"type": "text", "name": "A", "value": "x"}, {"type": "number", "name": "a", "value": 1}]),
        json!([{"type": "text", "name": "T", "value": "x".repeat(501)}]),
        Value::Array(many),
    ] {
        let (status, answer) = admin
            .patch(&format!("/api/products/{id}"), json!({"attributes": bad}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad} → {answer}");
    }
    let (_, p) = admin.get(&format!("/api/products/{id}")).await;
    assert_eq!(p["attributes"][0]["value"], 0.75, "nothing changed");
}

/// The spec's product shape carries `metadata`: the typed attributes as one
/// object, name → value, in every answer (the spec's list call included),
/// following each change of the attributes.
#[tokio::test]
async fn metadata_is_the_attributes_by_name() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let mut body = new_product("META-1", &gtin());
    body["attributes"] = json!([
        {"type": "number", "name": "Net weight (g)", "value": 500.5},
        {"type": "boolean", "name": "Vegan", "value": true},
        {"type": "date", "name": "Launched", "value": "2026-03-01"},
        {"type": "text", "name": "Origin", "value": "<b>Alps</b>"}
    ]);
    let (status, p) = admin.post("/api/products", body).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    let expected = json!({"Net weight (g)": 500.5, "Vegan": true, "Launched": "2026-03-01",
                          "Origin": "<b>Alps</b>"});
    assert_eq!(p["metadata"], expected);
    let id = p["id"].as_str().unwrap();
    assert_eq!(list(&admin).await["products"][0]["metadata"], expected);
    let (_, got) = admin.get(&format!("/api/products/{id}")).await;
    assert_eq!(got["metadata"], expected);

    let (status, p) = admin
        .patch(
            &format!("/api/products/{id}"),
            json!({"attributes": [{"type": "text", "name": "Origin", "value": "Jura"}]}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["metadata"], json!({"Origin": "Jura"}));
    let (_, p) = admin
        .patch(&format!("/api/products/{id}"), json!({"attributes": []}))
        .await;
    assert_eq!(p["metadata"], json!({}));
    assert_eq!(list(&admin).await["products"][0]["metadata"], json!({}));
}

/// The spec's `sample_qr_id`: the URI of the first code of the product's
/// first code job to finish, in the list call and on the product; a later
/// job does not change it, and a product without codes has none.
#[tokio::test]
async fn the_sample_code_is_the_first_code_of_the_first_finished_job() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, p) = create(&admin, "SAMPLE-1", &gtin()).await;
    let (_, other) = create(&admin, "SAMPLE-2", &gtin()).await;
    let id = p["id"].as_str().unwrap();
    assert!(p.get("sample_qr_id").is_none(), "{p}");
    let first = generate_codes(
        &admin,
        json!({"product_id": id, "quantity": 3, "lot": {"number": "S-1"}}),
    )
    .await;
    generate_codes(&admin, json!({"product_id": id, "quantity": 2})).await;
    let sample = first.uris()[0].clone();
    let listed = list(&admin).await;
    let shown = |pid: &Value| {
        listed["products"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["id"] == *pid)
            .unwrap()
            .clone()
    };
    assert_eq!(shown(&p["id"])["sample_qr_id"], sample.as_str());
    assert!(shown(&other["id"]).get("sample_qr_id").is_none());
    let (_, got) = admin.get(&format!("/api/products/{id}")).await;
    assert_eq!(got["sample_qr_id"], sample.as_str());
    assert!(sample.contains("/10/S-1/21/"), "{sample}");
}

/// Issue 22: whether a product's lots need inspection, and the unit its
/// quantities are counted in, set on creation and changed later.
#[tokio::test]
async fn requires_inspection_and_unit_are_set_and_changed() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;

    // Defaults: no inspection, counted in `each`.
    let (status, plain) = create(&admin, "PLAIN", &gtin()).await;
    assert_eq!(status, StatusCode::CREATED, "{plain}");
    assert_eq!(plain["requires_inspection"], false);
    assert_eq!(plain["unit"], "each");

    let (status, serum) = admin
        .post(
            "/api/products",
            json!({"product_name": "Serum", "skuid": "SERUM", "gtin": gtin(),
                   "requires_inspection": true, "unit": "ml"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{serum}");
    assert_eq!(serum["requires_inspection"], true);
    assert_eq!(serum["unit"], "ml");

    let path = format!("/api/products/{}", plain["id"].as_str().unwrap());
    let (status, changed) = admin
        .patch(&path, json!({"requires_inspection": true, "unit": "kg"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{changed}");
    assert_eq!(changed["requires_inspection"], true);
    assert_eq!(changed["unit"], "kg");
    // Left out, they keep their values.
    let (_, same) = admin.patch(&path, json!({"product_name": "Plain"})).await;
    assert_eq!(same["requires_inspection"], true);
    assert_eq!(same["unit"], "kg");
    let (_, listed) = admin.get("/api/product-handler?action=allproducts").await;
    assert!(
        listed["products"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == plain["id"] && p["unit"] == "kg"),
        "{listed}"
    );

    // Bad units and non-boolean flags change nothing.
    for body in [
        json!({"unit": "KG"}),
        json!({"unit": ""}),
        json!({"unit": "1kg"}),
        json!({"unit": "kilograms_of_stuff"}),
        json!({"unit": "k g"}),
        json!({"requires_inspection": "yes"}),
    ] {
        let (status, err) = admin.patch(&path, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
    }
    let (status, err) = admin
        .post(
            "/api/products",
            json!({"product_name": "X", "skuid": "BADUNIT", "gtin": gtin(), "unit": "Litre"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert!(
        err["error"].as_str().unwrap().starts_with("unit must be"),
        "{err}"
    );
    let (_, still) = admin.get(&path).await;
    assert_eq!(still["unit"], "kg");
    assert_eq!(still["requires_inspection"], true);
}
