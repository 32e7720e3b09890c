//! Reviews from the scan page (tied to a real scan, one per scan, plain
//! text, rate-limited, refused from other sites), the brand's list with its
//! CSRF rule and filters, hiding, isolation; and the consumer sessions and
//! users figures that the scan page's anonymous cookie feeds.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Client, TestApp, assert_isolated, product_with_codes, unique};
use crate::scans::{post_from_scan_page, scan, scan_page};

/// Sends a review from the scan page as a consumer at `ip`.
pub(crate) async fn post_review(app: &TestApp, body: Value, ip: &str) -> (StatusCode, Value) {
    post_from_scan_page(app, "/r/review", body, ip).await
}

async fn reviews(c: &Client, query: &str) -> Value {
    // Like the spec's call, with the CSRF token (`send` adds it).
    let (status, list) = c
        .send(reqwest::Method::GET, &format!("/api/reviews{query}"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list
}

#[tokio::test]
async fn a_consumer_reviews_a_real_scan_once_and_the_brand_moderates_it() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app
        .login(&app.account(&brand, brandops::accounts::Role::Worker).await)
        .await;
    let (product, uris) = product_with_codes(&admin, 1, None).await;
    let (_, v) = scan(&uris[0], "198.51.100.20").await;
    let token = v["review_token"]
        .as_str()
        .expect("a person's scan gets a review token");

    let text = "<b>Works</b> & tastes fine <script>alert(1)</script>";
    let (status, added) = post_review(
        &app,
        json!({"token": token, "rating": 4, "text": text}),
        "198.51.100.20",
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{added}");
    let (status, again) = post_review(
        &app,
        json!({"token": token, "rating": 5, "text": "again"}),
        "198.51.100.20",
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");

    let list = reviews(&admin, "").await;
    assert_eq!(list["reviews"].as_array().unwrap().len(), 1);
    let review = &list["reviews"][0];
    assert_eq!(review["body"], text, "stored as the text it is");
    assert_eq!(review["rating"], 4);
    assert_eq!(review["product_id"], product.as_str());
    assert_eq!(review["hidden"], false);
    assert_eq!(reviews(&worker, "?rating=5").await["reviews"], json!([]));
    assert_eq!(
        reviews(&worker, &format!("?product_id={product}&rating=4")).await["reviews"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // The spec's rule: the call carries x-csrf-token.
    let resp = admin
        .http
        .get(admin.url("/api/reviews"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "CSRF token is missing");
    let resp = admin
        .http
        .get(admin.url("/api/reviews"))
        .header("x-csrf-token", "forged")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);

    // The next scan page shows it, escaped, with the rating.
    let html = scan_page(&uris[0]).await;
    assert!(html.contains("Rated 4.0 out of 5 by 1 buyer."), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !html.contains("<script>"));
    assert!(html.contains("action=\"/r/review\""));

    // Workers read; admins and managers hide; a hidden review leaves the page.
    let id = review["id"].as_str().unwrap();
    let (status, _) = worker
        .patch(&format!("/api/reviews/{id}"), json!({"hidden": true}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, hidden) = admin
        .patch(&format!("/api/reviews/{id}"), json!({"hidden": true}))
        .await;
    assert_eq!(status, StatusCode::OK, "{hidden}");
    assert_eq!(hidden["hidden"], true);
    assert_eq!(
        reviews(&admin, "?hidden=true").await["reviews"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(reviews(&admin, "?hidden=false").await["reviews"], json!([]));
    let html = scan_page(&uris[0]).await;
    assert!(
        html.contains("No reviews yet.") && !html.contains("tastes fine"),
        "{html}"
    );
    let (status, _) = admin
        .patch(
            "/api/reviews/00000000-0000-0000-0000-000000000000",
            json!({"hidden": true}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(app.audited(&brand, "review.hidden").await, 1);
    assert_eq!(app.audited(&brand, "review.shown").await, 0);
    let (status, shown) = admin
        .patch(&format!("/api/reviews/{id}"), json!({"hidden": false}))
        .await;
    assert_eq!((status, &shown["hidden"]), (StatusCode::OK, &json!(false)));
    assert_eq!(app.audited(&brand, "review.shown").await, 1);
}

#[tokio::test]
async fn the_scan_pages_form_posts_a_review() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let html = scan_page(&uris[0]).await;
    let start = html.find("name=\"token\" value=\"").unwrap() + "name=\"token\" value=\"".len();
    let token = &html[start..start + html[start..].find('"').unwrap()];
    let resp = reqwest::Client::new()
        .post(format!("{}/r/review", app.base))
        .header("origin", &app.base)
        .form(&[
            ("token", token),
            ("rating", "5"),
            ("text", "Genuine, thanks"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let thanks = resp.text().await.unwrap();
    assert!(thanks.contains("your review was saved"), "{thanks}");
    // The thank-you page links back to the product's page: the code's own.
    let back = uris[0].strip_prefix(&app.base).unwrap();
    assert!(
        thanks.contains(&format!(
            "<a href=\"{back}\">Back to the product’s page</a>"
        )),
        "{thanks}"
    );
    assert_eq!(
        reviews(&admin, "").await["reviews"][0]["body"],
        "Genuine, thanks"
    );
}

#[tokio::test]
async fn bad_reviews_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 1, None).await;
    let (_, v) = scan(&uris[0], "198.51.100.21").await;
    let token = v["review_token"].as_str().unwrap().to_string();
    let (head, mac) = token.rsplit_once('.').unwrap();
    let forged_mac = format!("{head}.{}", "0".repeat(mac.len()));
    let (scan_part, rest) = head.split_once('.').unwrap();
    let (scan_id, issued) = rest.split_once('.').unwrap();
    let other_scan = format!(
        "{scan_part}.{}.{issued}.{mac}",
        scan_id.parse::<i64>().unwrap() + 1
    );
    let cases = [
        (
            json!({"token": forged_mac, "rating": 5, "text": "x"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"token": other_scan, "rating": 5, "text": "x"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"token": "nonsense", "rating": 5, "text": "x"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"token": token, "rating": 0, "text": "x"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"token": token, "rating": 6, "text": "x"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"token": token, "rating": "five", "text": "x"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"token": token, "rating": 5, "text": "x".repeat(1001)}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"token": token, "rating": 5, "text": "bell\u{7}"}),
            StatusCode::BAD_REQUEST,
        ),
        (json!({"rating": 5}), StatusCode::BAD_REQUEST),
    ];
    for (i, (body, want)) in cases.iter().enumerate() {
        let (status, answer) =
            post_review(&app, body.clone(), &format!("198.51.100.{}", 100 + i)).await;
        assert_eq!(status, *want, "{body}: {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    // A form from another site.
    let resp = reqwest::Client::new()
        .post(format!("{}/r/review", app.base))
        .header("origin", "https://evil.example")
        .json(&json!({"token": token, "rating": 5, "text": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    // A huge body.
    let resp = reqwest::Client::new()
        .post(format!("{}/r/review", app.base))
        .header("content-type", "application/json")
        .body("x".repeat(100_000))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(reviews(&admin, "").await["reviews"], json!([]));
    // Fakes and bots get no form.
    let gtin_path = uris[0].split("/21/").next().unwrap();
    let (_, fake) = scan(&format!("{gtin_path}/21/AAAAAAAAAAA"), "198.51.100.22").await;
    assert_eq!(fake["review_token"], Value::Null);
    // Too many from one address.
    let mut last = StatusCode::OK;
    for _ in 0..12 {
        last = post_review(
            &app,
            json!({"token": "nonsense", "rating": 5}),
            "198.51.100.23",
        )
        .await
        .0;
    }
    assert_eq!(last, StatusCode::TOO_MANY_REQUESTS);
    // The genuine token still works once.
    let (status, _) =
        post_review(&app, json!({"token": token, "rating": 5}), "198.51.100.24").await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn another_brand_cannot_see_or_hide_reviews() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a: &Client| {
            let (_, uris) = product_with_codes(a, 1, None).await;
            let (_, v) = scan(&uris[0], "198.51.100.30").await;
            let (status, _) = post_review(
                &app,
                json!({"token": v["review_token"], "rating": 3, "text": unique("isolated review ")}),
                "198.51.100.30",
            )
            .await;
            assert_eq!(status, StatusCode::CREATED);
            reviews(a, "").await["reviews"][0]["id"].as_str().unwrap().to_string()
        },
        async |c: &Client, id: &str| {
            vec![
                c.send(reqwest::Method::GET, "/api/reviews", None).await,
                c.patch(&format!("/api/reviews/{id}"), json!({"hidden": false})).await,
            ]
        },
    )
    .await;
}

#[tokio::test]
async fn a_review_id_of_another_brand_is_not_found() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let (ca, cb) = (app.login(&a.admin).await, app.login(&b.admin).await);
    let (_, uris) = product_with_codes(&ca, 1, None).await;
    let (_, v) = scan(&uris[0], "198.51.100.31").await;
    post_review(
        &app,
        json!({"token": v["review_token"], "rating": 2, "text": "meh"}),
        "198.51.100.31",
    )
    .await;
    let id = reviews(&ca, "").await["reviews"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, answer) = cb
        .patch(&format!("/api/reviews/{id}"), json!({"hidden": true}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!answer.to_string().contains(&id));
    assert_eq!(reviews(&ca, "").await["reviews"][0]["hidden"], false);
    assert_eq!(reviews(&cb, "").await["reviews"], json!([]));
}

#[tokio::test]
async fn consumers_and_their_sessions_are_counted() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (_, uris) = product_with_codes(&admin, 3, None).await;
    // One phone with its cookie scans three codes; another phone one.
    let phone = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    for uri in &uris {
        let resp = phone
            .get(uri)
            .header("x-forwarded-for", "198.51.100.40")
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
    }
    let other = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let resp = other
        .get(&uris[0])
        .header("x-forwarded-for", "198.51.100.41")
        .send()
        .await
        .unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.starts_with("brandops_consumer=") && cookie.contains("HttpOnly"),
        "{cookie}"
    );

    let (status, s) = admin.get("/api/sessions-data").await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["data"]["sessions"], 2, "{s}");
    assert_eq!(s["data"]["session_scans"], 4);
    assert_eq!(s["data"]["average_scans_per_session"], 2.0);
    assert_eq!(s["data"]["by_day"].as_array().unwrap().len(), 30);
    let (status, u) = admin.get("/api/users-data").await;
    assert_eq!(status, StatusCode::OK, "{u}");
    assert_eq!(u["data"]["new_consumers"], 2, "{u}");
    assert_eq!(u["data"]["consumer_days"], 2);
    assert_eq!(u["data"]["returning_consumer_days"], 0);
    let today = &u["data"]["by_day"][29];
    assert_eq!(today["consumers"], 2);
    assert_eq!(today["new_consumers"], 2);
    let (status, _) = admin
        .get("/api/users-data?from=2026-02-02&to=2026-02-01")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Another brand sees none of it.
    let other_brand = app.brand().await;
    let ob = app.login(&other_brand.admin).await;
    let (_, s) = ob.get("/api/sessions-data").await;
    assert_eq!(s["data"]["sessions"], 0);
}
