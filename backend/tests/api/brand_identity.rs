//! The brand's identity on the consumer's scan page (issue 21): the
//! organisation's logo (the product images' upload rules, admins only,
//! replaced and removed whole), its name as text, the product's first
//! image; the public files answer only for the brand's current ones.

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Client, PNG, TestApp, assert_isolated, jpeg, product_with_codes, send_file};
use crate::scans::scan_page;

async fn upload_logo(c: &Client, name: &str, mime: &str, bytes: Vec<u8>) -> (StatusCode, Value) {
    send_file(
        c,
        reqwest::Method::PUT,
        "/api/organisation/logo",
        name,
        mime,
        bytes,
    )
    .await
}

async fn remove_logo(c: &Client) -> (StatusCode, Value) {
    c.send(reqwest::Method::DELETE, "/api/organisation/logo", None)
        .await
}

/// A file fetched with no session at all, as a consumer's phone would:
/// its status, content type and bytes.
async fn public(url: &str) -> (StatusCode, String, Vec<u8>) {
    let resp = reqwest::Client::new().get(url).send().await.unwrap();
    let status = resp.status();
    let kind = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, kind, resp.bytes().await.unwrap().to_vec())
}

/// The `src` of the page's `<img>` whose `src` starts with `prefix`.
fn img_src(html: &str, prefix: &str) -> Option<String> {
    let start = html.find(&format!("src=\"{prefix}"))? + 5;
    let end = start + html[start..].find('"')?;
    Some(html[start..end].to_string())
}

#[tokio::test]
async fn admins_set_the_logo_by_the_product_image_rules() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;

    // Wrong type: the name and declared type say PNG, the content is markup.
    let (status, err) = upload_logo(
        &admin,
        "logo.png",
        "image/png",
        b"<svg onload=alert(1)></svg>".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{err}");
    assert_eq!(err["code"], "unsupported_image");
    // Too large: over 5 MB, even with a real PNG header.
    let mut big = PNG.to_vec();
    big.resize(5 * 1024 * 1024 + 1, 0);
    let (status, err) = upload_logo(&admin, "big.png", "image/png", big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{err}");
    assert_eq!(err["code"], "too_large");
    // A worker may not set it.
    let (status, _) = upload_logo(&worker, "logo.png", "image/png", PNG.to_vec()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = remove_logo(&worker).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Nothing refused left a logo.
    let (_, org) = admin.get("/api/organisation").await;
    assert!(org.get("logoUrl").is_none(), "{org}");

    let (status, org) = upload_logo(&admin, "anything.txt", "text/plain", PNG.to_vec()).await;
    assert_eq!(status, StatusCode::OK, "{org}");
    let first = org["logoUrl"].as_str().unwrap().to_string();
    assert!(
        first.starts_with("/api/organisation/logo/") && first.ends_with(".png"),
        "{first}"
    );
    // Every member may see it (the configuration page's preview), as the
    // image it is.
    let resp = worker.http.get(worker.url(&first)).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "image/png");
    assert_eq!(resp.headers()["x-content-type-options"], "nosniff");
    assert_eq!(resp.bytes().await.unwrap().as_ref(), PNG);

    // A new logo replaces the old one: the old address answers no more.
    let (status, org) = upload_logo(&admin, "logo.jpg", "image/jpeg", jpeg()).await;
    assert_eq!(status, StatusCode::OK, "{org}");
    let second = org["logoUrl"].as_str().unwrap().to_string();
    assert!(second.ends_with(".jpg") && second != first, "{second}");
    assert_eq!(admin.get(&first).await.0, StatusCode::NOT_FOUND);
    let resp = admin.http.get(admin.url(&second)).send().await.unwrap();
    assert_eq!(resp.headers()["content-type"], "image/jpeg");
    // The same id with another extension is not the logo.
    let other_ext = second.replace(".jpg", ".png");
    assert_eq!(admin.get(&other_ext).await.0, StatusCode::NOT_FOUND);

    // Removed: gone from the organisation and its address; removing again
    // changes nothing.
    let (status, org) = remove_logo(&admin).await;
    assert_eq!(status, StatusCode::OK, "{org}");
    assert!(org.get("logoUrl").is_none(), "{org}");
    assert_eq!(admin.get(&second).await.0, StatusCode::NOT_FOUND);
    let (status, _) = remove_logo(&admin).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_scan_page_shows_the_brand_its_logo_and_the_product_image() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, _) = admin
        .put(
            "/api/organisation",
            json!({"name": "<img src=x onerror=alert(1)> & Co"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (product, uris) = product_with_codes(&admin, 2, None).await;
    let (_, p) = admin.get(&format!("/api/products/{product}")).await;
    let gtin = p["gtin"].as_str().unwrap().to_string();

    // No logo, no image: the name alone, as text, and no image at all.
    let html = scan_page(&uris[0]).await;
    assert!(
        html.contains("A product of</span> &lt;img src=x onerror=alert(1)&gt; &amp; Co</p>"),
        "{html}"
    );
    assert!(!html.contains("<img"), "{html}");

    let (status, org) = upload_logo(&admin, "logo.png", "image/png", PNG.to_vec()).await;
    assert_eq!(status, StatusCode::OK, "{org}");
    let (status, _) = send_file(
        &admin,
        reqwest::Method::POST,
        &format!("/api/products/{product}/images"),
        "first.jpg",
        "image/jpeg",
        jpeg(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = send_file(
        &admin,
        reqwest::Method::POST,
        &format!("/api/products/{product}/images"),
        "second.png",
        "image/png",
        PNG.to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);

    let html = scan_page(&uris[1]).await;
    let logo = img_src(&html, &format!("/r/brand/{gtin}/logo/")).expect(&html);
    let image = img_src(&html, &format!("/r/brand/{gtin}/image/")).expect(&html);
    assert!(
        html.contains("alt=\"&lt;img src=x onerror=alert(1)&gt; &amp; Co logo\""),
        "{html}"
    );
    assert!(
        html.contains("alt=\"Photo of Aspirin &lt;b&gt;500&lt;/b&gt;\""),
        "{html}"
    );
    assert!(!html.contains("<img src=x"), "{html}");

    // Both are served to anyone, as the images they are: the logo, and the
    // product's first image (the JPEG).
    let (status, kind, bytes) = public(&format!("{}{logo}", app.base)).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/png"));
    assert_eq!(bytes, PNG);
    let (status, kind, bytes) = public(&format!("{}{image}", app.base)).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/jpeg"));
    assert_eq!(bytes, jpeg());

    // Only those: the product's second image, a made-up id, another kind of
    // file, a path that climbs, an unknown GTIN, all answer 404.
    let (_, p) = admin.get(&format!("/api/products/{product}")).await;
    let second = p["image_urls"][1]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    for path in [
        format!("/r/brand/{gtin}/image/{second}"),
        format!("/r/brand/{gtin}/logo/{second}"),
        format!("/r/brand/{gtin}/image/00000000-0000-0000-0000-000000000000.png"),
        format!("/r/brand/{gtin}/labels/{second}"),
        format!("/r/brand/{gtin}/logo/..%2F..%2Fimages%2F{second}"),
        format!(
            "/r/brand/09506000134352/logo/{}",
            logo.rsplit('/').next().unwrap()
        ),
    ] {
        let (status, _, _) = public(&format!("{}{path}", app.base)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }

    // Another brand's GTIN never reaches this brand's logo.
    let other = app.brand().await;
    let other_admin = app.login(&other.admin).await;
    let (other_product, _) = product_with_codes(&other_admin, 1, None).await;
    let (_, op) = other_admin
        .get(&format!("/api/products/{other_product}"))
        .await;
    let other_gtin = op["gtin"].as_str().unwrap();
    let crossed = logo.replace(&gtin, other_gtin);
    let (status, _, _) = public(&format!("{}{crossed}", app.base)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{crossed}");

    // Removing the logo takes it off the page and its address.
    let (status, _) = remove_logo(&admin).await;
    assert_eq!(status, StatusCode::OK);
    let html = scan_page(&uris[0]).await;
    assert!(
        img_src(&html, &format!("/r/brand/{gtin}/logo/")).is_none(),
        "{html}"
    );
    assert!(html.contains(&image), "{html}");
    let (status, _, _) = public(&format!("{}{logo}", app.base)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn another_tenant_cannot_read_or_replace_the_logo() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let (status, org) = upload_logo(a, "a.png", "image/png", PNG.to_vec()).await;
            assert_eq!(status, StatusCode::OK, "{org}");
            org["logoUrl"].as_str().unwrap().to_string()
        },
        async |c, url| {
            // Reading it, replacing and removing "the" logo: for another
            // tenant these reach its own logo only.
            let resp = c.http.get(c.url(url)).send().await.unwrap();
            let read = if resp.status() == StatusCode::OK {
                (StatusCode::OK, Value::String(url.to_string()))
            } else {
                (resp.status(), resp.json().await.unwrap_or(Value::Null))
            };
            let org = c.get("/api/organisation").await;
            vec![read, org]
        },
    )
    .await;

    // B's upload and removal leave A's logo as it was.
    let (a, b) = (app.brand().await, app.brand().await);
    let (a, b) = (app.login(&a.admin).await, app.login(&b.admin).await);
    let (_, org) = upload_logo(&a, "a.png", "image/png", PNG.to_vec()).await;
    let url = org["logoUrl"].as_str().unwrap().to_string();
    let (status, _) = upload_logo(&b, "b.jpg", "image/jpeg", jpeg()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(b.get(&url).await.0, StatusCode::NOT_FOUND);
    let (status, _) = remove_logo(&b).await;
    assert_eq!(status, StatusCode::OK);
    let resp = a.http.get(a.url(&url)).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.bytes().await.unwrap().as_ref(), PNG);
    let (_, org) = a.get("/api/organisation").await;
    assert_eq!(org["logoUrl"], url.as_str());
}

#[tokio::test]
async fn an_address_fetches_brand_images_at_twice_its_scan_rate() {
    // One scan a minute: a scan page's two images, then 429.
    let app = TestApp::spawn_with(|s| s.scan_rate_per_minute = 1).await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, org) = upload_logo(&admin, "a.png", "image/png", PNG.to_vec()).await;
    assert_eq!(status, StatusCode::OK, "{org}");
    let (_, p) = admin.get("/api/organisation").await;
    let (product, _) = product_with_codes(&admin, 1, None).await;
    let (_, product) = admin.get(&format!("/api/products/{product}")).await;
    let gtin = product["gtin"].as_str().unwrap();
    let id = p["logoUrl"].as_str().unwrap().rsplit('/').next().unwrap();
    let url = format!("{}/r/brand/{gtin}/logo/{id}", app.base);
    for _ in 0..2 {
        let (status, _, bytes) = public(&url).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(bytes, PNG);
    }
    let (status, _, body) = public(&url).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(String::from_utf8_lossy(&body).contains("wait a minute"));
}
