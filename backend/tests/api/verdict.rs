//! A fair verdict for the pack's owner: repeat scans by one consumer (the
//! scan page's anonymous cookie) never make a code suspicious; more distinct
//! consumers than the brand's rule allows do, also when they scan at once.
//! A code's scan history, and that another brand cannot read it.

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::helpers::{Client, TestApp, assert_isolated, product_with_codes};

const PHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";

/// Scans `uri` as a phone at `ip` would, with the consumer cookie when
/// given: the answer as JSON or the page, and the cookie the answer set.
async fn scan_by(
    uri: &str,
    ip: &str,
    consumer: Option<&str>,
    json: bool,
) -> (StatusCode, String, Option<String>) {
    let mut req = reqwest::Client::new()
        .get(uri)
        .header("user-agent", PHONE)
        .header("x-forwarded-for", ip);
    if json {
        req = req.header("accept", "application/json");
    }
    if let Some(id) = consumer {
        req = req.header("cookie", format!("brandops_consumer={id}"));
    }
    let resp = req.send().await.unwrap();
    let status = resp.status();
    let cookie = resp
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("brandops_consumer="))
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    (status, resp.text().await.unwrap(), cookie)
}

async fn scan_json(uri: &str, ip: &str, consumer: &str) -> Value {
    let (status, body, _) = scan_by(uri, ip, Some(consumer), true).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    serde_json::from_str(&body).unwrap()
}

fn serial_of(uri: &str) -> &str {
    uri.rsplit('/').next().unwrap()
}

#[tokio::test]
async fn one_consumer_scanning_twenty_times_stays_genuine() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let uri = &uris[0];
    // The first scan comes without the cookie; its answer sets it.
    let (status, page, cookie) = scan_by(uri, "198.51.100.20", None, false).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Genuine product"), "{page}");
    assert!(
        page.contains("first time this code has been scanned"),
        "{page}"
    );
    let me = cookie.expect("the first answer sets the consumer cookie");
    for n in 1..19 {
        let v = scan_json(uri, "198.51.100.20", &me).await;
        assert_eq!(v["verdict"], "genuine", "scan {}: {v}", n + 1);
        assert_eq!(v["scans_before"], n);
        assert_eq!(v["seen_before"], true, "{v}");
    }
    // The twentieth, as a page: still genuine, with a neutral line.
    let (_, page, set) = scan_by(uri, "198.51.100.20", Some(&me), false).await;
    assert!(page.contains("Genuine product"), "{page}");
    assert!(
        page.contains("You have scanned this pack before."),
        "{page}"
    );
    assert!(!page.contains("Check this pack"), "{page}");
    assert!(!page.contains("copied"), "{page}");
    assert_eq!(set, None, "a known consumer's cookie is not set again");

    let (status, b) = admin.get("/api/brand-scans").await;
    assert_eq!(status, StatusCode::OK, "{b}");
    let row = &b["data"]["scan"][0];
    assert_eq!(row["id"], serial_of(uri));
    assert_eq!(row["scan_count"], 20);
    assert_eq!(row["consumers"], 1);
    assert_eq!(row["suspicious"], false);
}

#[tokio::test]
async fn six_consumers_past_the_threshold_make_a_code_suspicious() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, rules) = admin.get("/api/scan-settings").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(rules["suspicious_scan_count"], 5, "{rules}");
    let (_, uris) = product_with_codes(&admin, 2, None).await;
    let consumers: Vec<String> = (0..6).map(|_| Uuid::new_v4().to_string()).collect();
    // Five consumers, each twice: ten scans, five consumers, genuine.
    for round in 0..2 {
        for who in &consumers[..5] {
            let v = scan_json(&uris[0], "198.51.100.21", who).await;
            assert_eq!(v["verdict"], "genuine", "{v}");
            assert_eq!(v["seen_before"].as_bool().unwrap_or(false), round == 1);
        }
    }
    // The sixth consumer is past the rule: suspicious, and it stays so.
    let v = scan_json(&uris[0], "198.51.100.21", &consumers[5]).await;
    assert_eq!(v["verdict"], "suspicious", "{v}");
    let v = scan_json(&uris[0], "198.51.100.21", &consumers[0]).await;
    assert_eq!(v["verdict"], "suspicious", "{v}");
    // The other code is untouched.
    let v = scan_json(&uris[1], "198.51.100.21", &consumers[5]).await;
    assert_eq!(v["verdict"], "genuine", "{v}");

    let (_, b) = admin.get("/api/brand-scans").await;
    let row = &b["data"]["scan"][0];
    assert_eq!(row["id"], serial_of(&uris[0]), "{b}");
    assert_eq!(row["scan_count"], 12);
    assert_eq!(row["consumers"], 6);
    assert_eq!(row["suspicious"], true);
    assert_eq!(b["data"]["scan"][1]["suspicious"], false);

    // The history: newest first, the consumers numbered in the order they
    // first scanned, first or repeat, never the cookie itself.
    let (status, h) = admin
        .get(&format!("/api/code-scans/{}", serial_of(&uris[0])))
        .await;
    assert_eq!(status, StatusCode::OK, "{h}");
    assert_eq!(h["id"], serial_of(&uris[0]));
    assert_eq!(h["scan_count"], 12);
    assert_eq!(h["consumers"], 6);
    assert_eq!(h["suspicious"], true);
    let scans = h["scans"].as_array().unwrap();
    assert_eq!(scans.len(), 12);
    let newest = &scans[0];
    assert_eq!(newest["consumer"], "Consumer 1");
    assert_eq!(newest["consumer_first"], false);
    assert_eq!(newest["verdict"], "suspicious");
    assert_eq!(scans[1]["consumer"], "Consumer 6");
    assert_eq!(scans[1]["consumer_first"], true);
    let oldest = &scans[11];
    assert_eq!(oldest["first_scan"], true);
    assert_eq!(oldest["consumer_first"], true);
    assert_eq!(oldest["consumer"], "Consumer 1");
    assert_eq!(oldest["verdict"], "genuine");
    assert_eq!(oldest["location_source"], "none");
    // Consumer 5's second scan (the second round), then their first.
    assert_eq!(scans[2]["consumer"], "Consumer 5");
    assert_eq!(scans[2]["consumer_first"], false);
    assert_eq!(scans[7]["consumer"], "Consumer 5");
    assert_eq!(scans[7]["consumer_first"], true);
    let text = h.to_string();
    for who in &consumers {
        assert!(!text.contains(who.as_str()), "a raw consumer id: {text}");
    }
}

/// Parallel scans by many consumers, each scanning twice at once: every
/// consumer counts once, none is lost.
#[tokio::test]
async fn parallel_scans_count_each_consumer_once() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, rules) = admin
        .put(
            "/api/scan-settings",
            json!({"suspicious_scan_count": 1000, "suspicious_distance_km": 500, "suspicious_window_hours": 24}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{rules}");
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let consumers: Vec<String> = (0..10).map(|_| Uuid::new_v4().to_string()).collect();
    let answers = join_all(
        consumers
            .iter()
            .chain(consumers.iter())
            .enumerate()
            .map(|(i, who)| {
                let uri = uris[0].clone();
                async move { scan_json(&uri, &format!("198.51.100.{}", 30 + i), who).await }
            }),
    )
    .await;
    let repeats = answers
        .iter()
        .filter(|v| v["seen_before"].as_bool().unwrap_or(false))
        .count();
    assert_eq!(repeats, 10, "{answers:?}");
    let (_, b) = admin.get("/api/brand-scans").await;
    assert_eq!(b["data"]["scan"][0]["scan_count"], 20, "{b}");
    assert_eq!(b["data"]["scan"][0]["consumers"], 10, "{b}");
    let (_, h) = admin
        .get(&format!("/api/code-scans/{}", serial_of(&uris[0])))
        .await;
    let firsts = h["scans"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["consumer_first"] == true)
        .count();
    assert_eq!(firsts, 10, "{h}");
}

#[tokio::test]
async fn a_codes_history_is_the_brands_own() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a: &Client| {
            let (_, uris) = product_with_codes(a, 1, None).await;
            scan_by(&uris[0], "198.51.100.40", None, true).await;
            serial_of(&uris[0]).to_string()
        },
        async |c: &Client, serial: &str| vec![c.get(&format!("/api/code-scans/{serial}")).await],
    )
    .await;
    let (a, b) = (app.brand().await, app.brand().await);
    let (a, b) = (app.login(&a.admin).await, app.login(&b.admin).await);
    let (_, uris) = product_with_codes(&a, 2, None).await;
    scan_by(&uris[0], "198.51.100.41", None, true).await;
    let (status, v) = b
        .get(&format!("/api/code-scans/{}", serial_of(&uris[0])))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    assert_eq!(v["code"], "not_found");
    // A code never scanned, and a serial that is not one.
    let (status, _) = a
        .get(&format!("/api/code-scans/{}", serial_of(&uris[1])))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, v) = a.get("/api/code-scans/not-a-serial").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    let (status, _) = app
        .client()
        .get(&format!("/api/code-scans/{}", serial_of(&uris[0])))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
