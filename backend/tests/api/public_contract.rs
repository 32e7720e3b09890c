//! The public routes' contract (`app::public`, tag `Public` in
//! `openapi.yaml`) against what the server answers: the routes served are
//! the ones described, and real answers of every kind (a genuine and an
//! unknown code, a malformed link, a review added, refused and repeated, a
//! place shared and refused, a rate limit) match their status's schema,
//! with no field the schema does not name.

use std::collections::BTreeSet;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, gtin, product_with_codes};
use crate::scans::{post_from_scan_page, scan};

/// The merged contract as JSON.
fn contract() -> Value {
    let yaml: serde_yaml::Value = serde_yaml::from_str(&brandops::app::api::spec_yaml()).unwrap();
    serde_json::to_value(yaml).unwrap()
}

/// Every object schema of the contract's components closed to fields it
/// does not name, so that an answer with an undescribed field fails.
fn closed(mut doc: Value) -> Value {
    fn close(v: &mut Value) {
        match v {
            Value::Object(map) => {
                if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                    map.insert("additionalProperties".into(), Value::Bool(false));
                }
                map.values_mut().for_each(close);
            }
            Value::Array(items) => items.iter_mut().for_each(close),
            _ => {}
        }
    }
    close(&mut doc["components"]);
    doc
}

/// Checks `body` against the JSON schema the contract gives `path`'s
/// `method` for `status`.
fn assert_conforms(doc: &Value, path: &str, method: &str, status: StatusCode, body: &Value) {
    let response = &doc["paths"][path][method]["responses"][status.as_str()];
    let schema = &response["content"]["application/json"]["schema"];
    assert!(
        schema.is_object(),
        "{method} {path} declares no JSON answer for {status}"
    );
    // The schema with the components it refers to.
    let mut root = json!({ "components": doc["components"].clone() });
    for (key, value) in schema.as_object().unwrap() {
        root[key] = value.clone();
    }
    let validator = jsonschema::validator_for(&root).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(body)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{method} {path} {status}: {body} does not match the contract: {errors:?}"
    );
}

#[test]
fn the_public_routes_are_the_ones_described() {
    let doc = contract();
    let described: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .iter()
                .filter(|(_, op)| op["tags"].as_array().unwrap().contains(&json!("Public")))
                .map(|(method, _)| (path.clone(), method.to_uppercase()))
                .collect::<Vec<_>>()
        })
        .collect();
    let served: BTreeSet<(String, String)> = brandops::app::public::routes()
        .into_iter()
        .map(|(path, method, _)| (path, method.to_string()))
        .collect();
    // The resolver's one route serves both Digital Link forms described.
    let as_served = |path: &str| {
        if path.starts_with("/01/") {
            "/01/*rest".to_string()
        } else {
            path.to_string()
        }
    };
    let described_routes: BTreeSet<(String, String)> = described
        .iter()
        .map(|(p, m)| (as_served(p), m.clone()))
        .collect();
    assert_eq!(described_routes, served);
    assert_eq!(described.len(), 7, "{described:?}");
    // And each public operation is an app's: no sign-in, JSON in and out.
    for (path, method) in &described {
        let op = &doc["paths"][path][method.to_lowercase()];
        assert!(op.get("security").is_none(), "{method} {path}");
        assert!(op["operationId"].is_string(), "{method} {path}");
    }
}

#[tokio::test]
async fn the_resolvers_answers_match_the_contract() {
    let doc = closed(contract());
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 2, Some("2021-06-30")).await;
    let lot_path = "/01/{gtin}/10/{lot}/21/{serial}";
    let plain_path = "/01/{gtin}/21/{serial}";
    let path_of = |uri: &str| {
        if uri.contains("/10/") {
            lot_path
        } else {
            plain_path
        }
    };

    // A genuine code (expired: the lot's expiry is past), then again.
    let (status, first) = scan(&uris[0], "198.51.100.60").await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["verdict"], "genuine");
    assert_eq!(first["expired"], true, "{first}");
    assert_conforms(&doc, path_of(&uris[0]), "get", status, &first);
    let (status, again) = scan(&uris[0], "198.51.100.60").await;
    assert_conforms(&doc, path_of(&uris[0]), "get", status, &again);

    // A code of a GTIN no brand holds.
    let unknown = format!("{}/01/{}/21/NOPE1", app.base, gtin());
    let (status, body) = scan(&unknown, "198.51.100.60").await;
    assert_eq!(
        (status, body["verdict"].as_str()),
        (StatusCode::OK, Some("not_recognised"))
    );
    assert_conforms(&doc, plain_path, "get", status, &body);

    // A GTIN with a wrong check digit.
    let bad = format!("{}/01/12345678901234/21/X", app.base);
    let (status, body) = scan(&bad, "198.51.100.60").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_conforms(&doc, plain_path, "get", status, &body);

    // A link type the resolver has no link of.
    let (status, body) = scan(
        &format!("{}?linkType=gs1:recipeInfo", uris[1]),
        "198.51.100.63",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_conforms(&doc, path_of(&uris[1]), "get", status, &body);

    // Links with no serial: the product, the lot, a GTIN no brand holds.
    let product_uri = uris[0].split("/10/").next().unwrap().to_string();
    let (status, body) = scan(&product_uri, "198.51.100.63").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_conforms(&doc, "/01/{gtin}", "get", status, &body);
    let lot_uri = uris[0].rsplit_once("/21/").unwrap().0.to_string();
    let (status, body) = scan(&lot_uri, "198.51.100.63").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_conforms(&doc, "/01/{gtin}/10/{lot}", "get", status, &body);
    let (status, body) = scan(&format!("{}/01/{}", app.base, gtin()), "198.51.100.63").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_conforms(&doc, "/01/{gtin}", "get", status, &body);

    // The resolver description file.
    let (status, body) = scan(
        &format!("{}/.well-known/gs1resolver", app.base),
        "198.51.100.63",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_conforms(&doc, "/.well-known/gs1resolver", "get", status, &body);
}

#[tokio::test]
async fn review_and_place_answers_match_the_contract() {
    let doc = closed(contract());
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let (_, scanned) = scan(&uris[0], "198.51.100.61").await;
    let token = scanned["review_token"].as_str().unwrap().to_string();
    let ip = "198.51.100.61";

    let review = |body: Value| post_from_scan_page(&app, "/r/review", body, ip);
    let (status, body) = review(json!({"token": token, "rating": 4, "text": "<b>good</b>"})).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["code"], "added");
    assert_conforms(&doc, "/r/review", "post", status, &body);
    let (status, body) = review(json!({"token": token, "rating": 5})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_conforms(&doc, "/r/review", "post", status, &body);
    // What the contract refuses, the server refuses: a rating as text.
    let (status, body) = review(json!({"token": token, "rating": "5"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_conforms(&doc, "/r/review", "post", status, &body);

    let locate = |body: Value| post_from_scan_page(&app, "/r/locate", body, ip);
    let (status, body) = locate(json!({"token": token, "lat": 48.85, "lon": 2.35})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["code"], "placed");
    assert_conforms(&doc, "/r/locate", "post", status, &body);
    let (status, body) = locate(json!({"token": token, "lat": 48.85, "lon": 2.35})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_conforms(&doc, "/r/locate", "post", status, &body);
    let (status, body) = locate(json!({"token": token, "lat": 91, "lon": 2.35})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_conforms(&doc, "/r/locate", "post", status, &body);
}

#[tokio::test]
async fn a_rate_limited_review_says_when_to_try_again() {
    let doc = closed(contract());
    let app = TestApp::spawn().await;
    let ip = "198.51.100.62";
    let mut last = None;
    // Ten a minute from one network; the eleventh is refused.
    for _ in 0..11 {
        let resp = reqwest::Client::new()
            .post(format!("{}/r/review", app.base))
            .header("x-forwarded-for", ip)
            .json(&json!({"token": "not.a.valid.token", "rating": 3}))
            .send()
            .await
            .unwrap();
        last = Some(resp);
    }
    let resp = last.unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(resp.headers()["retry-after"], "60");
    let status = resp.status();
    let body: Value = resp.json().await.unwrap();
    assert_conforms(&doc, "/r/review", "post", status, &body);
}
