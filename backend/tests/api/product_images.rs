//! Product images: type read from the content, size capped, served as the
//! image it is (never as markup), at most 10 per product, other tenants see
//! none of them.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Client, PNG, TestApp, assert_isolated, create_product, jpeg, send_file};

/// A new product, "Shown"; its id.
async fn product(c: &Client) -> String {
    create_product(c, "Shown", "IMG").await.id
}

async fn upload(
    c: &Client,
    product: &str,
    name: &str,
    mime: &str,
    bytes: Vec<u8>,
) -> (StatusCode, Value) {
    let path = format!("/api/products/{product}/images");
    send_file(c, reqwest::Method::POST, &path, name, mime, bytes).await
}

#[tokio::test]
async fn images_are_checked_by_content_and_served_as_images() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let id = product(&admin).await;

    let (status, p) = upload(&admin, &id, "pack.png", "image/png", PNG.to_vec()).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    let url = p["image_urls"][0].as_str().unwrap().to_string();
    assert!(
        url.starts_with(&format!("/api/products/{id}/images/")) && url.ends_with(".png"),
        "{url}"
    );
    let resp = admin.http.get(admin.url(&url)).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let h = resp.headers().clone();
    assert_eq!(h["content-type"], "image/png");
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert!(
        h["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("sandbox")
    );
    assert_eq!(resp.bytes().await.unwrap().as_ref(), PNG);

    // A JPEG whose name and declared type lie is still a JPEG.
    let (status, p) = upload(&admin, &id, "photo.gif", "text/html", jpeg()).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    assert!(p["image_urls"][1].as_str().unwrap().ends_with(".jpg"));

    // Markup, SVG, an empty file, a damaged PNG, something too large: refused.
    let html = b"<html><script>alert(1)</script></html>".to_vec();
    let svg = b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>".to_vec();
    let mut too_large = PNG.to_vec();
    too_large.resize(5 * 1024 * 1024 + 1, 0);
    for (name, bytes, expected) in [
        ("x.png", html, StatusCode::UNSUPPORTED_MEDIA_TYPE),
        ("x.svg", svg, StatusCode::UNSUPPORTED_MEDIA_TYPE),
        ("x.png", Vec::new(), StatusCode::BAD_REQUEST),
        ("x.png", PNG[..12].to_vec(), StatusCode::BAD_REQUEST),
        ("x.png", too_large, StatusCode::PAYLOAD_TOO_LARGE),
    ] {
        let (status, body) = upload(&admin, &id, name, "image/png", bytes).await;
        assert_eq!(status, expected, "{name}: {body}");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body}"
        );
    }
    // A body far over the limit is refused before it is read.
    let (status, _) = upload(
        &admin,
        &id,
        "huge.png",
        "image/png",
        vec![0; 7 * 1024 * 1024],
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (_, p) = admin.get(&format!("/api/products/{id}")).await;
    assert_eq!(
        p["image_urls"].as_array().unwrap().len(),
        2,
        "nothing refused was added"
    );

    // At most 10.
    for _ in 0..8 {
        let (status, _) = upload(&admin, &id, "p.png", "image/png", PNG.to_vec()).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, body) = upload(&admin, &id, "p.png", "image/png", PNG.to_vec()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    // Removed: gone from the product and no longer served.
    let (status, p) = admin.send(reqwest::Method::DELETE, &url, None).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert!(
        !p["image_urls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u == &json!(url))
    );
    let (status, _) = admin.get(&url).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Names that are not an image of this product: the same 404.
    for bad in [
        "nope",
        "../../etc/passwd",
        "00000000-0000-0000-0000-000000000000.png",
    ] {
        let (status, _) = admin.get(&format!("/api/products/{id}/images/{bad}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{bad}");
    }
}

#[tokio::test]
async fn another_tenant_cannot_see_or_remove_an_image() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let id = product(a).await;
            let (_, p) = upload(a, &id, "a.png", "image/png", PNG.to_vec()).await;
            p["image_urls"][0].as_str().unwrap().to_string()
        },
        async |c, url| {
            let resp = c.http.get(c.url(url)).send().await.unwrap();
            let status = resp.status();
            let shown = if status == StatusCode::OK {
                url.to_string()
            } else {
                String::new()
            };
            vec![
                (status, Value::String(shown)),
                c.send(reqwest::Method::DELETE, &format!("{url}x"), None)
                    .await,
            ]
        },
    )
    .await;
}
