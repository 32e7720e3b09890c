//! The resolver against the GS1-Conformant Resolver standard (1.x), point
//! by point, each test quoting the conformance statement it checks: the
//! description file, CORS and the methods, the linkset (validated against
//! GS1's own linkset JSON schema, `tests/fixtures/gs1/`), the `Link`
//! headers, Digital Links with no serial, key qualifiers, and the 404s.

use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};

use crate::helpers::{Client, TestApp, gtin, product_with_codes};
use crate::scans::scan;

/// GS1's linkset JSON schema (the standard's normative artefact).
fn linkset_schema() -> jsonschema::Validator {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/gs1/linkset-schema.json"
    );
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid_linkset(set: &Value) {
    let errors: Vec<String> = linkset_schema()
        .iter_errors(set)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{set} fails GS1's schema: {errors:?}");
}

/// The `Link` header values of an answer.
fn links(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all("link")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect()
}

/// `uri` split into the GTIN-14 and the lot, as the code's URI holds them.
fn gtin_and_lot(uri: &str) -> (String, Option<String>) {
    let rest = uri.split("/01/").nth(1).unwrap();
    let parts: Vec<&str> = rest.split('/').collect();
    let lot = (parts.get(1) == Some(&"10")).then(|| parts[2].to_string());
    (parts[0].to_string(), lot)
}

/// How many scans the brand has recorded.
async fn scans_recorded(admin: &Client) -> i64 {
    let (_, a) = admin.get("/api/scan-analytics").await;
    a["totals"]["scans"].as_i64().unwrap()
}

async fn publish_passport(admin: &Client, product: &str) {
    let (status, saved) = admin
        .put(
            &format!("/api/passports/{product}"),
            json!({"manufacturer": {"visibility": "public", "name": "Pills Works", "operator_id": "OP-1", "facility_ids": []}}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
}

/// "SHALL provide a resolver description file at /.well-known/gs1resolver."
#[tokio::test]
async fn the_description_file_is_at_the_well_known_address() {
    let app = TestApp::spawn().await;
    let http = reqwest::Client::new();
    let resp = http
        .get(format!("{}/.well-known/gs1resolver", app.base))
        .header("origin", "https://scanner.example")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "application/json");
    assert_eq!(resp.headers()["access-control-allow-origin"], "*");
    let d: Value = resp.json().await.unwrap();
    // The schema's required fields, and what this resolver answers.
    assert_eq!(d["resolverRoot"], app.base.as_str(), "{d}");
    assert_eq!(d["supportedPrimaryKeys"], json!(["01"]));
    assert_eq!(
        d["supportedLinkType"],
        json!([{"namespace": "https://gs1.org/voc/", "prefix": "gs1:"}])
    );
    assert_eq!(d["linkTypeDefaultCanBeLinkset"], false);
    assert!(d["name"].as_str().is_some_and(|n| !n.is_empty()));
    // Another well-known address is the resolver's 404, not the web app.
    let resp = http
        .get(format!("{}/.well-known/nothing-here", app.base))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    let v: Value = resp.json().await.unwrap();
    assert_eq!(v["code"], "not_found");
}

/// "SHALL support HTTP 1.1 (or higher) GET, HEAD and OPTIONS requests." and
/// "SHALL support CORS", for the resolver's routes only: never the API's,
/// which carry sessions.
#[tokio::test]
async fn cors_and_options_on_the_resolver_only() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let (gtin14, _) = gtin_and_lot(&uris[0]);
    let http = reqwest::Client::new();
    for url in [
        uris[0].clone(),
        format!("{}/01/{gtin14}", app.base),
        format!("{}/.well-known/gs1resolver", app.base),
    ] {
        let pre = http
            .request(reqwest::Method::OPTIONS, &url)
            .header("origin", "https://scanner.example")
            .header("access-control-request-method", "GET")
            .header("access-control-request-headers", "accept")
            .send()
            .await
            .unwrap();
        assert_eq!(pre.status(), StatusCode::NO_CONTENT, "{url}");
        let h = pre.headers();
        assert_eq!(h["access-control-allow-origin"], "*");
        let methods = h["access-control-allow-methods"].to_str().unwrap();
        for m in ["GET", "HEAD", "OPTIONS"] {
            assert!(methods.contains(m), "{url}: {methods}");
        }
        assert!(
            h["access-control-allow-headers"]
                .to_str()
                .unwrap()
                .to_ascii_lowercase()
                .contains("accept")
        );
        assert!(h.get("access-control-allow-credentials").is_none());
        let head = http.head(&url).send().await.unwrap();
        assert_eq!(head.status(), StatusCode::OK, "HEAD {url}");
    }
    // An app on another origin reads the answer and its Link header.
    let resp = http
        .get(&uris[0])
        .header("origin", "https://scanner.example")
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["access-control-allow-origin"], "*");
    let exposed = resp.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap();
    assert!(exposed.contains("Link"), "{exposed}");
    // Errors of the resolver are readable too (a 400, a 405).
    let bad = http
        .get(format!("{}/01/123/21/X", app.base))
        .header("origin", "https://scanner.example")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    assert_eq!(bad.headers()["access-control-allow-origin"], "*");
    let post = http.post(&uris[0]).send().await.unwrap();
    assert_eq!(post.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(post.headers()["allow"], "GET, HEAD, OPTIONS");
    // The API: no CORS, and no preflight answered.
    let api = http
        .get(format!("{}/api/auth/session", app.base))
        .header("origin", "https://scanner.example")
        .send()
        .await
        .unwrap();
    assert!(api.headers().get("access-control-allow-origin").is_none());
    let api_pre = http
        .request(
            reqwest::Method::OPTIONS,
            format!("{}/api/auth/session", app.base),
        )
        .header("origin", "https://scanner.example")
        .header("access-control-request-method", "GET")
        .send()
        .await
        .unwrap();
    assert_ne!(api_pre.status(), StatusCode::NO_CONTENT);
    assert!(
        api_pre
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
    // Nor the scan page's own forms.
    let review = http
        .request(reqwest::Method::OPTIONS, format!("{}/r/review", app.base))
        .header("origin", "https://scanner.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(
        review
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}

/// "SHALL respond to a query parameter of linkType set to linkset by
/// returning a list of links … If the request GS1 Digital Link URI includes
/// one or more key qualifiers, any links associated with each level up to
/// the primary key SHALL be included." The linkset validates against GS1's
/// schema, each entry with its `itemDescription`, the default link with its
/// target and title only, and `gs1:dpp` once a passport is published.
#[tokio::test]
async fn the_linkset_lists_every_level_and_validates_against_gs1s_schema() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product, uris) = product_with_codes(&admin, 1, Some("2099-01-31")).await;
    let uri = &uris[0];
    let (gtin14, lot) = gtin_and_lot(uri);
    let lot = lot.expect("a code of a lot");
    let gtin_level = format!("{}/01/{gtin14}", app.base);
    let lot_level = format!("{gtin_level}/10/{lot}");
    let http = reqwest::Client::new();
    let fetch = |url: String, accept: Option<&'static str>| {
        let http = http.clone();
        async move {
            let mut req = http.get(url);
            if let Some(accept) = accept {
                req = req.header("accept", accept);
            }
            let resp = req.send().await.unwrap();
            assert_eq!(resp.status(), StatusCode::OK);
            assert_eq!(resp.headers()["content-type"], "application/linkset+json");
            assert!(
                links(resp.headers())
                    .iter()
                    .any(|l| l.contains("json-ld#context")),
                "the JSON-LD context is named"
            );
            resp.json::<Value>().await.unwrap()
        }
    };
    // Every way of asking: linkType=linkset, the deprecated all, the Accept
    // header; the same linkset.
    let set = fetch(format!("{uri}?linkType=linkset"), None).await;
    assert_eq!(fetch(format!("{uri}?linkType=all"), None).await, set);
    assert_eq!(
        fetch(uri.clone(), Some("application/linkset+json")).await,
        set
    );
    assert_valid_linkset(&set);
    // The schema does refuse what it should: a link attribute it does not
    // name, an entry with no anchor.
    let mut extra = set.clone();
    extra["linkset"][0]["https://gs1.org/voc/defaultLink"][0]["verdict"] = json!("genuine");
    assert!(!linkset_schema().is_valid(&extra));
    let mut anchorless = set.clone();
    anchorless["linkset"][0]
        .as_object_mut()
        .unwrap()
        .remove("anchor");
    assert!(!linkset_schema().is_valid(&anchorless));
    let entries = set["linkset"].as_array().unwrap();
    let anchors: Vec<&str> = entries
        .iter()
        .map(|e| e["anchor"].as_str().unwrap())
        .collect();
    assert_eq!(anchors, [uri.as_str(), &lot_level, &gtin_level], "{set}");
    for entry in entries {
        assert_eq!(entry["itemDescription"], "Aspirin <b>500</b>", "{entry}");
        let default = entry["https://gs1.org/voc/defaultLink"].as_array().unwrap();
        assert_eq!(default.len(), 1, "one default link");
        let mut keys: Vec<&String> = default[0].as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["href", "title"], "{entry}");
        assert_eq!(default[0]["href"], entry["anchor"]);
        // "All links exposed SHALL include the target URL, the link
        // relationship type (the link type) and a human-readable title."
        let pip = &entry["https://gs1.org/voc/pip"][0];
        assert!(pip["title"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(
            entry.get("https://gs1.org/voc/dpp").is_none(),
            "no passport yet"
        );
    }
    // The linkset of the GTIN alone has its one level; of the lot, two.
    let product_set = fetch(format!("{gtin_level}?linkType=linkset"), None).await;
    assert_valid_linkset(&product_set);
    assert_eq!(product_set["linkset"].as_array().unwrap().len(), 1);
    assert_eq!(product_set["linkset"][0]["anchor"], gtin_level.as_str());
    let lot_set = fetch(format!("{lot_level}?linkType=linkset"), None).await;
    assert_valid_linkset(&lot_set);
    assert_eq!(lot_set["linkset"].as_array().unwrap().len(), 2);
    // A published passport is listed, at every level, and it answers.
    publish_passport(&admin, &product).await;
    let set = fetch(format!("{uri}?linkType=linkset"), None).await;
    assert_valid_linkset(&set);
    for entry in set["linkset"].as_array().unwrap() {
        let dpp = &entry["https://gs1.org/voc/dpp"][0];
        let href = dpp["href"].as_str().unwrap();
        assert_eq!(
            href,
            format!("{}?linkType=gs1:dpp", entry["anchor"].as_str().unwrap())
        );
        let (status, passport) = scan(href, "198.51.100.90").await;
        assert_eq!(status, StatusCode::OK, "{href}: {passport}");
    }
    // None of it was a scan.
    assert_eq!(scans_recorded(&admin).await, 0);
    // A GTIN no brand holds has no linkset.
    let resp = http
        .get(format!("{}/01/{}?linkType=linkset", app.base, gtin()))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
}

/// "SHOULD expose link to the linkset in an HTTP Link header": every
/// ordinary answer (the scan's JSON and page, a product's) names its
/// linkset.
#[tokio::test]
async fn ordinary_answers_name_their_linkset() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let (gtin14, _) = gtin_and_lot(&uris[0]);
    let http = reqwest::Client::new();
    for (url, accept) in [
        (uris[0].clone(), "application/json"),
        (uris[0].clone(), "text/html"),
        (format!("{}/01/{gtin14}", app.base), "application/json"),
        (format!("{}/01/{gtin14}", app.base), "text/html"),
    ] {
        let resp = http
            .get(&url)
            .header("accept", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{url}");
        let expected =
            format!("<{url}?linkType=linkset>; rel=\"linkset\"; type=\"application/linkset+json\"");
        assert_eq!(links(resp.headers()), [expected], "{url} ({accept})");
    }
}

/// GTIN-only (`/01/{gtin}`) and GTIN + lot (`/01/{gtin}/10/{lot}`) URIs are
/// valid Digital Links: the product's page and JSON, no verdict, no scan
/// written, the resolver's limit still applied. A key qualifier GS1 allows
/// (AI 22) is read, never called invalid.
#[tokio::test]
async fn links_with_no_serial_answer_the_product_without_a_verdict() {
    let app = TestApp::spawn_with(|s| s.scan_rate_per_minute = 4).await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, Some("2099-01-31")).await;
    let (gtin14, lot) = gtin_and_lot(&uris[0]);
    let lot = lot.unwrap();
    let ip = "198.51.100.91";
    let (status, v) = scan(&format!("{}/01/{gtin14}", app.base), ip).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["product"]["name"], "Aspirin <b>500</b>");
    assert_eq!(v["product"]["gtin"], gtin14.as_str());
    assert_eq!(v["passport"], false);
    assert!(v.get("verdict").is_none() && v.get("lot").is_none(), "{v}");
    // The GTIN-13 form (a trailing slash tolerated) is the same product.
    let (status, v) = scan(&format!("{}/01/{}/", app.base, &gtin14[1..]), ip).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["product"]["gtin"], gtin14.as_str());
    let (status, v) = scan(&format!("{}/01/{gtin14}/10/{lot}", app.base), ip).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["lot"], lot.as_str());
    assert!(v.get("verdict").is_none(), "{v}");
    // The page: the product, and why there is no verdict; markup as text.
    let html = reqwest::Client::new()
        .get(format!("{}/01/{gtin14}/10/{lot}", app.base))
        .header("x-forwarded-for", ip)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("Aspirin &lt;b&gt;500&lt;/b&gt;"), "{html}");
    assert!(html.contains("cannot say whether a pack is genuine"));
    assert!(!html.contains("Genuine product") && !html.contains("Not recognised"));
    // The resolver's limit holds for them too (4 a minute here).
    let (status, _) = scan(&format!("{}/01/{gtin14}", app.base), ip).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Nothing was written: no scan, and the code's first scan is still its
    // first (a variant, AI 22, is read and the code found).
    assert_eq!(scans_recorded(&admin).await, 0);
    let serial = uris[0].rsplit('/').next().unwrap();
    let with_variant = format!("{}/01/{gtin14}/22/V1/10/{lot}/21/{serial}", app.base);
    let (status, v) = scan(&with_variant, "198.51.100.92").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "genuine");
    assert_eq!(v["scans_before"], 0);
    // A GTIN no brand holds: the resolver's own 404.
    let (status, v) = scan(&format!("{}/01/{}", app.base, gtin()), "198.51.100.93").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["code"], "not_found");
}

/// "Unknown paths … and an unknown linkType" are 404, in the resolver's
/// own words (never the web app's index.html), and record nothing.
#[tokio::test]
async fn other_keys_and_unknown_link_types_are_404() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let http = reqwest::Client::new();
    for path in [
        "/414/9506000134352",
        "/00/106141412345678908",
        "/8004/0614141ABC",
    ] {
        let resp = http
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(resp.headers()["access-control-allow-origin"], "*");
        let html = resp.text().await.unwrap();
        assert!(html.contains("GTINs (AI 01) only"), "{path}: {html}");
        assert!(!html.contains("id=\"root\""), "not the web app");
        let resp = http
            .get(format!("{}{path}", app.base))
            .header("accept", "application/json")
            .send()
            .await
            .unwrap();
        let v: Value = resp.json().await.unwrap();
        assert_eq!(v["code"], "not_found");
    }
    for link_type in [
        "gs1:recipeInfo",
        "nonsense",
        "https%3A%2F%2Fexample.com%2Fx",
    ] {
        let (status, v) = scan(
            &format!("{}?linkType={link_type}", uris[0]),
            "198.51.100.94",
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{link_type}: {v}");
        assert_eq!(v["code"], "no_such_link");
    }
    // The default link's own types are the default answer (a scan).
    let (status, v) = scan(
        &format!("{}?linkType=gs1:defaultLink", uris[0]),
        "198.51.100.95",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["verdict"], "genuine");
    assert_eq!(scans_recorded(&admin).await, 1);
}

/// A compressed Digital Link of `gtin` (when given) and `serial`, as GS1
/// Digital Link: Compression writes it without its optimisations: each AI
/// as its digits in hex, the GTIN as a 47-bit number, the serial as 7-bit
/// ASCII with its encoding (4) and length (5 bits). (The decoder itself is
/// checked against GS1's toolkit's own examples in `scans::compressed`.)
fn compress(gtin: Option<&str>, serial: &str) -> String {
    let mut bits = String::new();
    if let Some(gtin) = gtin {
        bits.push_str("00000001");
        bits.push_str(&format!("{:047b}", gtin.parse::<u64>().unwrap()));
    }
    bits.push_str("00100001100");
    bits.push_str(&format!("{:05b}", serial.len()));
    for b in serial.bytes() {
        bits.push_str(&format!("{b:07b}"));
    }
    while !bits.len().is_multiple_of(6) {
        bits.push('0');
    }
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    bits.as_bytes()
        .chunks(6)
        .map(|c| {
            char::from(alphabet[usize::from_str_radix(std::str::from_utf8(c).unwrap(), 2).unwrap()])
        })
        .collect()
}

/// "SHALL be able to decompress a URI to generate a GS1 Digital Link URI
/// … If handling a compressed request URI, it SHALL expose the
/// uncompressed URI in the Link response header with a rel value of
/// owl:sameAs." Fully (`/{base64}`) and partially (`/01/{gtin}/{base64}`)
/// compressed; the web app's own pages stay the web app's.
#[tokio::test]
async fn compressed_links_are_decompressed() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 2, None).await;
    let http = reqwest::Client::new();
    for (uri, compressed) in [
        (&uris[0], {
            let (gtin14, _) = gtin_and_lot(&uris[0]);
            let serial = uris[0].rsplit('/').next().unwrap();
            format!("{}/{}", app.base, compress(Some(&gtin14), serial))
        }),
        (&uris[1], {
            let (gtin14, _) = gtin_and_lot(&uris[1]);
            let serial = uris[1].rsplit('/').next().unwrap();
            format!("{}/01/{gtin14}/{}", app.base, compress(None, serial))
        }),
    ] {
        let resp = http
            .get(&compressed)
            .header("accept", "application/json")
            .header("origin", "https://scanner.example")
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{compressed}");
        assert_eq!(resp.headers()["access-control-allow-origin"], "*");
        let header = links(resp.headers());
        assert!(
            header.contains(&format!("<{uri}>; rel=\"owl:sameAs\"")),
            "{compressed}: {header:?}"
        );
        assert!(header.contains(&format!(
            "<{uri}?linkType=linkset>; rel=\"linkset\"; type=\"application/linkset+json\""
        )));
        let v: Value = resp.json().await.unwrap();
        assert_eq!(v["verdict"], "genuine", "{compressed}: {v}");
        // Its linkset is the uncompressed URI's.
        let set: Value = http
            .get(format!("{compressed}?linkType=linkset"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_valid_linkset(&set);
        assert_eq!(set["linkset"][0]["anchor"], uri.as_str());
    }
    assert_eq!(scans_recorded(&admin).await, 2);
    // A page of the web app is not taken for a compressed link.
    let resp = http
        .get(format!("{}/products", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers().get("link").is_none());
    assert!(!resp.text().await.unwrap().contains("cannot be checked"));
}
