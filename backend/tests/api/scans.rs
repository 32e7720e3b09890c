//! Scans: the public resolver's verdicts (genuine, suspicious, not
//! recognised), its answers as a page and as JSON, malformed links, bots
//! counted apart, the per-address limit that never refuses a code's first
//! scan, places from an IP database, the spec's brand scans shape and
//! message, the platform admins' list, and isolation between brands.

use std::collections::BTreeMap;

use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Client, TestApp, assert_isolated, gtin, product_with_codes};
use crate::reviews::post_review;

/// Scans a URI as a consumer's phone at `ip` would, asking for JSON.
pub(crate) async fn scan(uri: &str, ip: &str) -> (StatusCode, Value) {
    scan_as(
        uri,
        ip,
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148",
    )
    .await
}

pub(crate) async fn scan_as(uri: &str, ip: &str, agent: &str) -> (StatusCode, Value) {
    let resp = reqwest::Client::new()
        .get(uri)
        .header("accept", "application/json")
        .header("user-agent", agent)
        .header("x-forwarded-for", ip)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap())
}

/// The scan page (or another page of the resolver) as a browser gets it.
pub(crate) async fn scan_page(url: &str) -> String {
    reqwest::Client::new()
        .get(url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// Posts `body` as JSON to one of the scan page's own calls (`/r/review`,
/// `/r/locate`) as a consumer's phone at `ip` would.
pub(crate) async fn post_from_scan_page(
    app: &TestApp,
    path: &str,
    body: Value,
    ip: &str,
) -> (StatusCode, Value) {
    let resp = reqwest::Client::new()
        .post(format!("{}{path}", app.base))
        .header("x-forwarded-for", ip)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// Shares a place for a scan (`body`: its token, lat, lon) from `ip`.
async fn locate(app: &TestApp, body: Value, ip: &str) -> (StatusCode, Value) {
    post_from_scan_page(app, "/r/locate", body, ip).await
}

fn serial_of(uri: &str) -> &str {
    uri.rsplit('/').next().unwrap()
}

#[tokio::test]
async fn a_code_is_genuine_then_suspicious_past_the_brands_rules() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product, uris) = product_with_codes(&admin, 2, Some("2021-06-30")).await;
    let uri = &uris[0];
    assert!(uri.starts_with(&app.base), "{uri}");

    let (status, first) = scan(uri, "198.51.100.1").await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["verdict"], "genuine");
    assert_eq!(first["scans_before"], 0);
    assert_eq!(first["product"]["name"], "Aspirin <b>500</b>");
    assert_eq!(first["product"]["gtin"].as_str().unwrap().len(), 14);
    assert!(
        first["product"]["skuid"]
            .as_str()
            .unwrap()
            .starts_with("ASP")
    );
    assert_eq!(first["expiry"], "2021-06-30");
    assert_eq!(first["expired"], true);
    assert!(first["lot"].is_string());

    let (_, second) = scan(uri, "198.51.100.1").await;
    assert_eq!(second["verdict"], "genuine");
    assert_eq!(second["scans_before"], 1);

    // The brand allows two scans per code: the third is suspicious, and so
    // is every later one.
    let (status, rules) = admin
        .put(
            "/api/scan-settings",
            json!({"suspicious_scan_count": 2, "suspicious_distance_km": 500, "suspicious_window_hours": 24}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{rules}");
    let (_, third) = scan(uri, "198.51.100.1").await;
    assert_eq!(third["verdict"], "suspicious");
    assert_eq!(third["scans_before"], 2);
    // The other code is untouched.
    let (_, other) = scan(&uris[1], "198.51.100.1").await;
    assert_eq!(other["verdict"], "genuine");

    // The page, for people: escaped, with the expiry warning and its own CSP.
    let resp = reqwest::Client::new().get(uri).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let csp = resp.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = resp.text().await.unwrap();
    assert!(html.contains("Check this pack"), "{html}");
    assert!(html.contains("Aspirin &lt;b&gt;500&lt;/b&gt;"), "{html}");
    assert!(
        !html.contains("<b>500"),
        "markup from a product name must not render"
    );
    assert!(
        html.contains("expired on <time datetime=\"2021-06-30\">2021-06-30</time>"),
        "{html}"
    );

    // The dashboard sees them: four scans by people, one first scan each
    // for two codes, the suspicious ones.
    let (status, a) = admin.get("/api/scan-analytics").await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["totals"]["scans"], 5, "{a}");
    assert_eq!(a["totals"]["first_scans"], 2);
    assert_eq!(a["totals"]["repeat_scans"], 3);
    assert_eq!(a["totals"]["suspicious"], 2);
    assert_eq!(a["by_product"][0]["product_id"], product.as_str());
    assert_eq!(a["by_product"][0]["scans"], 5);
    assert_eq!(a["by_day"].as_array().unwrap().len(), 30);
    let today = &a["by_day"][29];
    assert_eq!(today["scans"], 5, "{a}");

    let stored: (i64, i32) = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT (SELECT count(*) FROM {0}.scans), (SELECT scans FROM {0}.code_scan_state ORDER BY scans DESC LIMIT 1)",
        brand.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(stored, (5, 4));
}

#[tokio::test]
async fn link_types_all_and_dpp() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, Some("2099-01-31")).await;
    let resp = reqwest::Client::new()
        .get(format!("{}?linkType=all", uris[0]))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "application/linkset+json");
    let set: Value = resp.json().await.unwrap();
    assert_eq!(set["linkset"][0]["anchor"], uris[0].as_str(), "{set}");
    assert_eq!(
        set["linkset"][0]["https://gs1.org/voc/defaultLink"][0]["href"],
        uris[0].as_str()
    );
    let (status, v) = scan(&format!("{}?linkType=gs1:dpp", uris[0]), "198.51.100.11").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["code"], "no_passport");
    // Neither is a scan; another link type is the default page, a scan.
    let (_, v) = scan(&format!("{}?linkType=gs1:pip", uris[0]), "198.51.100.11").await;
    assert_eq!(v["verdict"], "genuine");
    assert_eq!(v["scans_before"], 0);
    let unknown = format!("{}/01/{:0>14}/21/X?linkType=all", app.base, gtin());
    let resp = reqwest::Client::new().get(unknown).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn parallel_scans_of_one_code_each_count_once() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let answers = join_all((0..12).map(|i| {
        let uri = uris[0].clone();
        async move { scan(&uri, &format!("198.51.100.{}", 10 + i)).await }
    }))
    .await;
    let mut before: Vec<i64> = answers
        .iter()
        .map(|(s, a)| {
            assert_eq!(*s, StatusCode::OK, "{a}");
            a["scans_before"].as_i64().unwrap()
        })
        .collect();
    before.sort_unstable();
    assert_eq!(before, (0..12).collect::<Vec<_>>());
    let (_, a) = admin.get("/api/scan-analytics").await;
    assert_eq!(a["totals"]["scans"], 12);
    assert_eq!(a["totals"]["first_scans"], 1);
}

/// Parallel scans of a product's codes from one place add to the same
/// counters (the day's rollup, consumers and sessions), which are split into
/// shards so that they do not queue: every scan is counted once, and the
/// figures are the same as if they had come one by one.
#[tokio::test]
async fn parallel_scans_of_many_codes_are_each_counted_once() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product, uris) = product_with_codes(&admin, 24, None).await;
    let gtin_path = uris[0].split("/21/").next().unwrap().to_string();
    let answers = join_all((0..32).map(|i| {
        let uri = if i < 24 {
            uris[i].clone()
        } else {
            format!("{gtin_path}/21/FAKE{i}")
        };
        async move { scan(&uri, "198.51.100.77").await }
    }))
    .await;
    for (i, (status, a)) in answers.iter().enumerate() {
        assert_eq!(*status, StatusCode::OK, "{a}");
        let want = if i < 24 { "genuine" } else { "not_recognised" };
        assert_eq!(a["verdict"], want, "{i}: {a}");
    }
    let (_, a) = admin.get("/api/scan-analytics").await;
    assert_eq!(a["totals"]["scans"], 32, "{a}");
    assert_eq!(a["totals"]["first_scans"], 24);
    assert_eq!(a["totals"]["genuine"], 24);
    assert_eq!(a["totals"]["not_recognised"], 8);
    assert_eq!(a["by_product"][0]["product_id"], product.as_str());
    assert_eq!(a["by_product"][0]["scans"], 32);
    assert_eq!(a["by_day"][29]["scans"], 32);
    assert_eq!(a["by_place"].as_array().unwrap().len(), 1, "{a}");
    assert_eq!(a["by_place"][0]["scans"], 32);
    // Each scan came without the consumer cookie: 32 new consumers, each
    // with one session of one scan.
    let (_, u) = admin.get("/api/users-data").await;
    assert_eq!(u["data"]["new_consumers"], 32, "{u}");
    assert_eq!(u["data"]["by_day"][29]["consumers"], 32);
    let (_, s) = admin.get("/api/sessions-data").await;
    assert_eq!(s["data"]["sessions"], 32, "{s}");
    assert_eq!(s["data"]["session_scans"], 32);
    let (_, b) = admin.get("/api/brand-scans").await;
    assert_eq!(b["data"]["product_scans"][0]["sum"], 32, "{b}");
}

#[tokio::test]
async fn codes_that_are_not_the_brands_are_not_recognised() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product, uris) = product_with_codes(&admin, 1, Some("2099-12-31")).await;
    let uri = &uris[0];
    let gtin_path = uri.split("/10/").next().unwrap();
    let unknown = [
        // A serial this brand never made, on its GTIN.
        format!("{gtin_path}/21/AAAAAAAAAAA"),
        // A serial of another shape.
        format!("{gtin_path}/21/12345"),
        // The right serial with another lot.
        format!("{gtin_path}/10/OTHER/21/{}", serial_of(uri)),
    ];
    for u in &unknown {
        let (status, v) = scan(u, "198.51.100.2").await;
        assert_eq!(status, StatusCode::OK, "{u}: {v}");
        assert_eq!(v["verdict"], "not_recognised", "{u}");
        assert_eq!(
            v["product"],
            Value::Null,
            "a fake code learns nothing of the product"
        );
    }
    // A valid GTIN no brand holds.
    let (status, v) = scan(
        &format!("{}/01/{:0>14}/21/X", app.base, gtin()),
        "198.51.100.2",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["verdict"], "not_recognised");
    // The right code is still genuine and never counted as scanned before.
    let (_, v) = scan(uri, "198.51.100.2").await;
    assert_eq!(v["verdict"], "genuine");
    assert_eq!(v["scans_before"], 0);
    assert_eq!(v["expired"], Value::Null);

    let (_, a) = admin.get("/api/scan-analytics").await;
    assert_eq!(a["totals"]["not_recognised"], 3, "{a}");
    assert_eq!(a["totals"]["scans"], 4);
    assert_eq!(a["by_product"][0]["product_id"], product.as_str());
    // The page says what to do.
    let html = scan_page(&unknown[0]).await;
    assert!(
        html.contains("Not recognised") && html.contains("counterfeit"),
        "{html}"
    );
}

#[tokio::test]
async fn malformed_links_get_a_clear_400_and_record_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let gtin14 = uris[0].split("/01/").nth(1).unwrap()[..14].to_string();
    let mut wrong_digit = gtin14.clone();
    let last = wrong_digit.pop().unwrap().to_digit(10).unwrap();
    wrong_digit.push(char::from_digit((last + 1) % 10, 10).unwrap());
    let cases = [
        (format!("/01/{wrong_digit}/21/ABC"), "check digit"),
        (
            format!("/01/{gtin14}/21/ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            "at most 20",
        ),
        (
            format!("/01/{gtin14}/21/AB%20C"),
            "characters GS1 does not allow",
        ),
        (
            format!("/01/{gtin14}/21/%7Bx%7D"),
            "characters GS1 does not allow",
        ),
        (format!("/01/{gtin14}/99/1/21/ABC"), "does not know"),
        (format!("/01/{gtin14}/21/A/10/L1"), "out of order"),
        ("/01/12345/21/ABC".to_string(), "8, 12, 13 or 14 digits"),
    ];
    let http = reqwest::Client::new();
    for (path, says) in &cases {
        let resp = http
            .get(format!("{}{path}", app.base))
            .header("accept", "application/json")
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::BAD_REQUEST, "{path}");
        let body: Value = resp.json().await.unwrap();
        assert_eq!(body["code"], "invalid_link");
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{path}: {body}"
        );
        let page = http
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), StatusCode::BAD_REQUEST);
        let html = page.text().await.unwrap();
        assert!(html.contains("This link cannot be checked"), "{html}");
        assert!(!html.contains("<script>"));
    }
    let (_, a) = admin.get("/api/scan-analytics").await;
    assert_eq!(a["totals"]["scans"], 0);
    // '<' and '>' are in GS1's character set: such a serial is well formed,
    // names no code, and its page echoes no markup.
    let resp = http
        .get(format!("{}/01/{gtin14}/21/%3Cscript%3E", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let html = resp.text().await.unwrap();
    assert!(
        html.contains("Not recognised") && !html.contains("<script>"),
        "{html}"
    );
}

#[tokio::test]
async fn bots_and_link_previews_are_counted_apart() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    for agent in [
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "WhatsApp/2.23.20.0 A",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    ] {
        let (status, v) = scan_as(&uris[0], "198.51.100.3", agent).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["verdict"], "genuine");
        assert_eq!(v["scans_before"], 0, "a bot's hit is not a scan");
    }
    let (_, a) = admin.get("/api/scan-analytics").await;
    assert_eq!(a["totals"]["scans"], 0, "{a}");
    assert_eq!(a["totals"]["bots"], 4);
    let (_, v) = scan(&uris[0], "198.51.100.3").await;
    assert_eq!(v["scans_before"], 0);
}

#[tokio::test]
async fn the_limit_per_address_never_refuses_a_codes_first_scan() {
    let app = TestApp::spawn_with(|s| s.scan_rate_per_minute = 3).await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 3, None).await;
    let ip = "198.51.100.4";
    for _ in 0..3 {
        let (status, _) = scan(&uris[0], ip).await;
        assert_eq!(status, StatusCode::OK);
    }
    // Over the limit: a repeat scan and a fake code wait...
    let (status, v) = scan(&uris[0], ip).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["code"], "too_many_requests");
    let gtin_path = uris[0].split("/21/").next().unwrap();
    let (status, _) = scan(&format!("{gtin_path}/21/AAAAAAAAAAA"), ip).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // ...but a new pack's first scan is answered and counted.
    let (status, v) = scan(&uris[1], ip).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "genuine");
    // Another address is not affected.
    let (status, _) = scan(&uris[0], "198.51.100.5").await;
    assert_eq!(status, StatusCode::OK);
    let (_, a) = admin.get("/api/scan-analytics").await;
    assert_eq!(a["totals"]["scans"], 5);
}

/// A small city database in MMDB format, as GeoLite2-City lays it out.
fn fixture_mmdb() -> std::path::PathBuf {
    use maxminddb_writer::Database;
    use maxminddb_writer::paths::IpAddrWithMask;
    #[derive(serde::Serialize)]
    struct Names {
        names: BTreeMap<&'static str, &'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        iso_code: Option<&'static str>,
    }
    #[derive(serde::Serialize)]
    struct Location {
        latitude: f64,
        longitude: f64,
        accuracy_radius: u16,
    }
    #[derive(serde::Serialize)]
    struct City {
        country: Names,
        subdivisions: Vec<Names>,
        city: Names,
        location: Location,
    }
    let mut db = Database::default();
    db.metadata.binary_format_major_version = 2;
    db.metadata.database_type = "brandops-test-City".into();
    db.metadata.languages = vec!["en".into()];
    let places = [
        (
            "203.0.113.0",
            "IN",
            "India",
            "Maharashtra",
            "Mumbai",
            19.076,
            72.8777,
        ),
        (
            "192.0.2.0",
            "DE",
            "Germany",
            "Berlin",
            "Berlin",
            52.52,
            13.405,
        ),
    ];
    for (net, iso, country, region, city, lat, lon) in places {
        let record = City {
            country: Names {
                names: [("en", country)].into(),
                iso_code: Some(iso),
            },
            subdivisions: vec![Names {
                names: [("en", region)].into(),
                iso_code: None,
            }],
            city: Names {
                names: [("en", city)].into(),
                iso_code: None,
            },
            location: Location {
                latitude: lat,
                longitude: lon,
                accuracy_radius: 20,
            },
        };
        let data = db.insert_value(&record).unwrap();
        db.insert_node(IpAddrWithMask::new(net.parse().unwrap(), 24), data);
    }
    let path = std::env::temp_dir().join(format!("brandops-{}.mmdb", uuid::Uuid::new_v4()));
    let file = std::fs::File::create(&path).unwrap();
    db.write_to(file).unwrap();
    path
}

#[tokio::test]
async fn scans_are_placed_from_the_ip_database_and_far_apart_scans_are_suspicious() {
    let mmdb = fixture_mmdb();
    let app = TestApp::spawn_with(|s| s.geoip_mmdb = Some(mmdb.clone())).await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product, uris) = product_with_codes(&admin, 2, None).await;
    let (_, v) = scan(&uris[0], "203.0.113.7").await;
    assert_eq!(v["verdict"], "genuine");
    // The same code, an hour's flight is not 6,000 km: suspicious.
    let (_, v) = scan(&uris[0], "192.0.2.9").await;
    assert_eq!(v["verdict"], "suspicious", "{v}");
    // An address the database does not know: no place.
    let (_, v) = scan(&uris[1], "198.51.100.6").await;
    assert_eq!(v["verdict"], "genuine");

    let (_, a) = admin.get("/api/scan-analytics").await;
    let places: Vec<(String, String, String, i64)> = a["by_place"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["country"].as_str().unwrap().to_string(),
                p["region"].as_str().unwrap().to_string(),
                p["city"].as_str().unwrap().to_string(),
                p["scans"].as_i64().unwrap(),
            )
        })
        .collect();
    assert!(
        places.contains(&("IN".into(), "Maharashtra".into(), "Mumbai".into(), 1)),
        "{a}"
    );
    assert!(
        places.contains(&("DE".into(), "Berlin".into(), "Berlin".into(), 1)),
        "{a}"
    );
    assert!(
        places.contains(&(String::new(), String::new(), String::new(), 1)),
        "{a}"
    );
    let mumbai = a["by_place"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["city"] == "Mumbai")
        .unwrap();
    assert!((mumbai["lat"].as_f64().unwrap() - 19.076).abs() < 0.01);
    assert_eq!(mumbai["country_name"], "India");

    let (_, b) = admin.get("/api/brand-scans").await;
    let locations = b["data"]["locations"].as_array().unwrap();
    assert!(
        locations
            .iter()
            .any(|l| l["city"] == "Mumbai" && l["count"] == 1),
        "{b}"
    );
    assert_eq!(
        b["data"]["product_scans"][0]["product_id"],
        product.as_str()
    );

    let platform = app.login(&app.platform_admin().await).await;
    let (status, list) = platform
        .get(&format!("/api/admin/scans?brandId={}", brand.client_id))
        .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let berlin = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["Geolocation"]["city"] == "Berlin")
        .unwrap();
    assert_eq!(berlin["BrandId"], brand.client_id.as_str());
    assert_eq!(berlin["Geolocation"]["country"], "DE");
    assert_eq!(berlin["Geolocation"]["region"], "Berlin");
    assert_eq!(berlin["Geolocation"]["loc"], "52.5200,13.4050");
    assert_eq!(berlin["verdict"], "suspicious");
    let _ = std::fs::remove_file(mmdb);
}

#[tokio::test]
async fn brand_scans_answers_the_spec_shape_and_message() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product, uris) = product_with_codes(&admin, 3, None).await;
    scan(&uris[0], "198.51.100.7").await;
    scan(&uris[0], "198.51.100.7").await;
    scan(&uris[1], "198.51.100.7").await;

    let (status, b) = admin.get("/api/brand-scans").await;
    assert_eq!(status, StatusCode::OK, "{b}");
    let data = &b["data"];
    // The spec's record (id, product_id, scan_count), with the consumers
    // and the verdict flag of issue 21 (no cookie: each scan its own
    // consumer).
    assert_eq!(
        data["scan"][0],
        json!({"id": serial_of(&uris[0]), "product_id": product, "scan_count": 2,
               "consumers": 2, "suspicious": false})
    );
    assert_eq!(data["scan"][1]["scan_count"], 1);
    assert_eq!(
        data["product_scans"],
        json!([{"product_id": product, "sum": 3}])
    );
    assert_eq!(
        data["total_qr_generated"],
        json!([{"product_id": product, "count": 3}])
    );
    let (_, jobs) = admin.get("/api/code-jobs").await;
    assert_eq!(data["qr_codes_remaining"], jobs["qr_codes_remaining"]);
    assert!(data["qr_codes_remaining"].is_i64());
    assert!(data["locations"].is_array());

    // A range with no scans.
    let (_, old) = admin
        .get("/api/brand-scans?from=2000-01-01&to=2000-12-31")
        .await;
    assert_eq!(old["data"]["product_scans"], json!([]));
    let (status, bad) = admin.get("/api/brand-scans?from=2026-02-30").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    let (status, _) = admin
        .get("/api/brand-scans?from=2026-02-02&to=2026-02-01")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Platform admins must name the company: the spec's message.
    let platform = app.login(&app.platform_admin().await).await;
    let (status, err) = platform.get("/api/brand-scans").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "company_id is required");
    let (status, err) = platform.get("/api/brand-scans?company_id=").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "company_id is required");
    let (status, err) = platform.get("/api/brand-scans?company_id=a%20b").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let (status, named) = platform
        .get(&format!("/api/brand-scans?company_id={}", brand.client_id))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(named, b);
    let (status, _) = platform
        .get("/api/brand-scans?company_id=nosuchbrand")
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A brand's own people cannot name another brand.
    let other = app.brand().await;
    let (status, err) = admin
        .get(&format!("/api/brand-scans?company_id={}", other.client_id))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
}

#[tokio::test]
async fn scan_rules_are_validated_and_only_admins_change_them() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let manager = app
        .login(&app.account(&brand, brandops::accounts::Role::Manager).await)
        .await;
    let (status, rules) = admin.get("/api/scan-settings").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        rules,
        json!({"suspicious_scan_count": 5, "suspicious_distance_km": 500, "suspicious_window_hours": 24})
    );
    for bad in [
        json!({"suspicious_scan_count": 0, "suspicious_distance_km": 500, "suspicious_window_hours": 24}),
        json!({"suspicious_scan_count": 5, "suspicious_distance_km": 20001, "suspicious_window_hours": 24}),
        json!({"suspicious_scan_count": 5, "suspicious_distance_km": 500, "suspicious_window_hours": 721}),
        json!({"suspicious_scan_count": "5", "suspicious_distance_km": 500, "suspicious_window_hours": 24}),
        json!({"suspicious_scan_count": 5}),
    ] {
        let (status, _) = admin.put("/api/scan-settings", bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    let change = json!({"suspicious_scan_count": 9, "suspicious_distance_km": 100, "suspicious_window_hours": 2});
    let (status, _) = manager.put("/api/scan-settings", change.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, rules) = admin.get("/api/scan-settings").await;
    assert_eq!(
        rules["suspicious_scan_count"], 5,
        "refused changes change nothing"
    );
    let (status, saved) = admin.put("/api/scan-settings", change.clone()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(saved, change);
    let (_, rules) = manager.get("/api/scan-settings").await;
    assert_eq!(rules, change);
    assert_eq!(app.audited(&brand, "scan.settings_changed").await, 1);
}

#[tokio::test]
async fn platform_admins_list_scans_across_brands() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let (ca, cb) = (app.login(&a.admin).await, app.login(&b.admin).await);
    let (_, ua) = product_with_codes(&ca, 1, None).await;
    let (_, ub) = product_with_codes(&cb, 1, None).await;
    scan(&ua[0], "198.51.100.8").await;
    scan(&ub[0], "198.51.100.8").await;
    let platform = app.login(&app.platform_admin().await).await;
    let (status, all) = platform.get("/api/admin/scans").await;
    assert_eq!(status, StatusCode::OK, "{all}");
    let brands: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["BrandId"].as_str().unwrap())
        .collect();
    assert!(
        brands.contains(&a.client_id.as_str()) && brands.contains(&b.client_id.as_str()),
        "{all}"
    );
    let first = &all[0];
    for field in ["loc", "country", "city", "region"] {
        assert!(first["Geolocation"][field].is_string(), "{first}");
    }
    assert!(first["BrandName"].is_string());
    let (_, only_a) = platform
        .get(&format!("/api/admin/scans?brandId={}", a.client_id))
        .await;
    assert_eq!(only_a.as_array().unwrap().len(), 1);
    assert_eq!(only_a[0]["BrandId"], a.client_id.as_str());
    let (status, _) = platform.get("/api/admin/scans?brandId=").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, none) = platform.get("/api/admin/scans?brandId=nosuchbrand").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(none, json!([]));
    // Brand staff cannot read it; nobody without a session can.
    let (status, _) = ca.get("/api/admin/scans").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app.client().get("/api/admin/scans").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn another_brand_cannot_see_or_change_scans() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a: &Client| {
            let (_, uris) = product_with_codes(a, 1, None).await;
            scan(&uris[0], "198.51.100.9").await;
            serial_of(&uris[0]).to_string()
        },
        async |c: &Client, _marker: &str| {
            let own = c.user["clientId"].as_str().unwrap_or_default().to_string();
            vec![
                c.get("/api/brand-scans").await,
                c.get(&format!("/api/brand-scans?company_id={own}")).await,
                c.get("/api/scan-analytics").await,
                c.get("/api/scan-settings").await,
                c.put(
                    "/api/scan-settings",
                    json!({"suspicious_scan_count": 1, "suspicious_distance_km": 1, "suspicious_window_hours": 1}),
                )
                .await,
            ]
        },
    )
    .await;
    // A scan recorded in one brand's schema is nowhere in another's.
    let (a, b) = (app.brand().await, app.brand().await);
    let ca = app.login(&a.admin).await;
    let (_, uris) = product_with_codes(&ca, 1, None).await;
    scan(&uris[0], "198.51.100.9").await;
    let in_b = app.rows(&b, "scans").await;
    assert_eq!(in_b, 0);
    let cb = app.login(&b.admin).await;
    let (_, other) = cb.get("/api/scan-analytics").await;
    assert_eq!(other["totals"]["scans"], 0);
}

/// A place the consumer's browser gave counts for the distance rule: the
/// next scan of the code, from far away and soon after, is suspicious.
#[tokio::test]
async fn a_shared_place_feeds_the_distance_rule() {
    let mmdb = fixture_mmdb();
    let app = TestApp::spawn_with(|s| s.geoip_mmdb = Some(mmdb.clone())).await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 2, None).await;
    // Scanned from an address the IP database does not know, then placed
    // in Mumbai by the consumer's browser.
    let (_, v) = scan(&uris[0], "198.51.100.6").await;
    assert_eq!(v["verdict"], "genuine");
    let token = v["review_token"].as_str().unwrap().to_string();
    let resp = reqwest::Client::new()
        .post(format!("{}/r/locate", app.base))
        .header("x-forwarded-for", "198.51.100.6")
        .json(&json!({"token": token, "lat": 19.0760, "lon": 72.8777}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    // The same code an hour later would be 6,000 km away: suspicious.
    let (_, v) = scan(&uris[0], "192.0.2.9").await;
    assert_eq!(v["verdict"], "suspicious", "{v}");
    // The other code, never placed, is not.
    let (_, v) = scan(&uris[1], "198.51.100.6").await;
    assert_eq!(v["verdict"], "genuine");
    let (_, v) = scan(&uris[1], "192.0.2.9").await;
    assert_eq!(v["verdict"], "genuine", "{v}");
}

#[tokio::test]
async fn a_consumer_may_share_their_place_once() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let ip = "198.51.100.50";
    let (_, v) = scan(&uris[0], ip).await;
    let token = v["review_token"].as_str().unwrap().to_string();
    let http = reqwest::Client::new();
    for bad in [
        json!({"token": token, "lat": 91.0, "lon": 0.0}),
        json!({"token": token, "lat": 10.0, "lon": -180.5}),
        json!({"token": token, "lat": "19", "lon": 72.0}),
        json!({"token": "forged", "lat": 19.0, "lon": 72.0}),
    ] {
        let (status, answer) = locate(&app, bad.clone(), ip).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {answer}");
    }
    let (status, answer) = locate(
        &app,
        json!({"token": token, "lat": 19.0760, "lon": 72.8777, "accuracy": 35.0}),
        ip,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, _) = locate(&app, json!({"token": token, "lat": 48.85, "lon": 2.35}), ip).await;
    assert_eq!(status, StatusCode::CONFLICT, "a scan is placed once");

    let (_, a) = admin.get("/api/scan-analytics").await;
    let places = a["by_place"].as_array().unwrap();
    assert_eq!(
        places.len(),
        1,
        "the scan moved from 'unknown' to its place: {a}"
    );
    assert_eq!(places[0]["country"], "IN", "{a}");
    assert_eq!(places[0]["region"], "Maharashtra", "{a}");
    assert_eq!(places[0]["scans"], 1);
    assert!(
        (places[0]["lat"].as_f64().unwrap() - 19.08).abs() < 0.01,
        "rounded to about a km"
    );
    assert_eq!(a["totals"]["scans"], 1);
    assert_eq!(a["totals"]["first_scans"], 1);
    let source: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT location_source FROM {}.scans",
        brand.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(source, "browser");
    // The page offers it, with its script from this origin.
    let resp = http.get(&uris[0]).send().await.unwrap();
    let csp = resp.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    let html = resp.text().await.unwrap();
    assert!(
        html.contains("id=\"share-place\"")
            && html.contains("/r/scan.js")
            && html.contains("GeoNames")
    );
    let js = http
        .get(format!("{}/r/scan.js", app.base))
        .send()
        .await
        .unwrap();
    assert!(
        js.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
}

#[tokio::test]
async fn sharing_places_has_a_limit_of_its_own_apart_from_scans_and_reviews() {
    let app = TestApp::spawn_with(|s| {
        s.scan_rate_per_minute = 3;
        s.locate_rate_per_minute = 2;
    })
    .await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 2, None).await;
    // The limit is checked before the token: forged ones use it up too.
    let forged = json!({"token": "forged", "lat": 19.0, "lon": 72.0});

    // An address that has shared all the places it may is refused more...
    let ip = "198.51.100.70";
    for _ in 0..2 {
        let (status, v) = locate(&app, forged.clone(), ip).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    }
    let (status, v) = locate(&app, forged.clone(), ip).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["code"], "too_many_requests");
    // ...and still scans as much as its own limit lets it (repeat scans,
    // which that limit would refuse), and reviews.
    let (status, first) = scan(&uris[0], ip).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    for _ in 0..2 {
        let (status, v) = scan(&uris[0], ip).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let token = first["review_token"].as_str().unwrap();
    let (status, v) = post_review(
        &app,
        json!({"token": token, "rating": 5, "text": "Fine"}),
        ip,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");

    // An address that has used up its scans and its reviews still shares
    // its place.
    let ip = "198.51.100.71";
    let (status, first) = scan(&uris[1], ip).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    for _ in 0..2 {
        let (status, v) = scan(&uris[1], ip).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (status, v) = scan(&uris[1], ip).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    let forged_review = json!({"token": "forged", "rating": 5, "text": "Fine"});
    for _ in 0..10 {
        let (status, v) = post_review(&app, forged_review.clone(), ip).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    }
    let (status, v) = post_review(&app, forged_review, ip).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    let token = first["review_token"].as_str().unwrap();
    let (status, v) = locate(&app, json!({"token": token, "lat": 48.85, "lon": 2.35}), ip).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["code"], "placed");
}

#[tokio::test]
async fn the_scan_page_shows_the_public_passport_and_the_journey() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product, uris) = product_with_codes(&admin, 1, Some("2099-01-31")).await;
    // Before any passport: the page says so, gs1:dpp is a 404.
    let (status, v) = scan(&format!("{}?linkType=gs1:dpp", uris[0]), "198.51.100.60").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["code"], "no_passport");
    let (status, saved) = admin
        .put(
            &format!("/api/passports/{product}"),
            json!({
                "manufacturer": {"visibility": "public", "name": "Pills <b>Works</b>", "operator_id": "OP-1", "facility_ids": []},
                "importer": {"visibility": "restricted", "name": "Secret Imports GmbH", "eori": "DE123456789012345"},
            }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let http = reqwest::Client::new();
    let html = scan_page(&uris[0]).await;
    assert!(html.contains("Pills &lt;b&gt;Works&lt;/b&gt;"), "{html}");
    assert!(
        !html.contains("Secret Imports"),
        "restricted sections never show"
    );
    // Generating the codes commissioned them: the journey's first step.
    assert!(html.contains("Codes issued by the brand"), "{html}");
    let resp = http
        .get(format!("{}?linkType=gs1:dpp", uris[0]))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let text = resp.text().await.unwrap();
    assert!(
        text.contains("Pills <b>Works</b>") && !text.contains("Secret Imports"),
        "{text}"
    );
    let page = scan_page(&format!("{}?linkType=gs1:dpp", uris[0])).await;
    assert!(page.contains("Digital product passport") && !page.contains("Secret Imports"));
    // Asking for the passport is not a scan.
    let (_, a) = admin.get("/api/scan-analytics").await;
    assert_eq!(a["totals"]["scans"], 1, "{a}");
}

/// Every resolver answer takes a token (issue 20): over the limit, a bot's
/// or a link preview's request, the links (`linkType=all`) and the passport
/// (`linkType=gs1:dpp`) wait too; bots have a bucket of their own, five
/// times a person's; an IPv6 client counts by its /64.
#[tokio::test]
async fn every_resolver_answer_is_limited() {
    let app = TestApp::spawn_with(|s| s.scan_rate_per_minute = 3).await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 2, None).await;
    let ip = "198.51.100.70";
    for _ in 0..3 {
        assert_eq!(scan(&uris[0], ip).await.0, StatusCode::OK);
    }
    assert_eq!(scan(&uris[0], ip).await.0, StatusCode::TOO_MANY_REQUESTS);
    for query in ["?linkType=all", "?linkType=gs1:dpp"] {
        let (status, v) = scan(&format!("{}{query}", uris[0]), ip).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{query}: {v}");
    }
    // A bot's bucket: 15 a minute, then refused, whatever the code.
    let bot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    let bot_ip = "198.51.100.71";
    for i in 0..15 {
        let (status, v) = scan_as(&uris[0], bot_ip, bot).await;
        assert_eq!(status, StatusCode::OK, "bot request {i}: {v}");
    }
    let (status, v) = scan_as(&uris[1], bot_ip, bot).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(v.get("verdict").is_none(), "{v}");
    // A prefetch is a bot too.
    let resp = reqwest::Client::new()
        .get(&uris[0])
        .header("accept", "application/json")
        .header("sec-purpose", "prefetch")
        .header("x-forwarded-for", bot_ip)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    // Two addresses of one IPv6 /64 share a bucket; the next /64 has its own.
    for _ in 0..3 {
        assert_eq!(scan(&uris[0], "2001:db8:5:6::1").await.0, StatusCode::OK);
    }
    let (status, _) = scan(&uris[0], "2001:db8:5:6:abcd::2").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(scan(&uris[0], "2001:db8:5:7::1").await.0, StatusCode::OK);
}
