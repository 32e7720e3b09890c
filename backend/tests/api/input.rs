//! Text a person sends: control characters (a NUL byte was a 500 before) and
//! text-direction marks in names and emails are refused with a 400 that
//! names the field, and change nothing.

use brandops::tenants::TenantKind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, TestApp, unique};

#[tokio::test]
async fn control_characters_and_direction_marks_are_refused_by_field() {
    let app = TestApp::spawn().await;
    let brand = app.tenant_named("inputs", TenantKind::Brand).await;
    let admin = app.login(&brand.admin).await;
    let platform = app.login(&app.platform_admin().await).await;
    let anonymous = app.client();
    let add = |name: &str, email: &str, password: &str| json!({"action": "adduser", "name": name, "email": email, "password": password});
    let tenant = |name: &str, admin_name: &str| {
        json!({"clientId": "newco", "name": name, "kind": "brand", "userLimit": 5,
               "admin": {"name": admin_name, "email": "admin@newco.test", "password": "newco-pass-1"}})
    };
    let cases: Vec<(&str, &_, Method, String, Option<Value>)> = vec![
        (
            "Email",
            &anonymous,
            Method::POST,
            "/api/auth/login".into(),
            Some(json!({"email": "admin@inputs.test\u{0}", "password": PASSWORD})),
        ),
        (
            "Password",
            &anonymous,
            Method::POST,
            "/api/auth/login".into(),
            Some(json!({"email": brand.admin, "password": "pass\u{0}word"})),
        ),
        (
            "Name",
            &admin,
            Method::POST,
            "/api/client-auth".into(),
            Some(add("Nul\u{0}Name", "nul@inputs.test", "long-enough-1")),
        ),
        (
            "Name",
            &admin,
            Method::POST,
            "/api/client-auth".into(),
            Some(add("Eve\u{202E}nimda", "rlo@inputs.test", "long-enough-1")),
        ),
        (
            "Email",
            &admin,
            Method::POST,
            "/api/client-auth".into(),
            Some(add("Bidi", "bi\u{2066}di@inputs.test", "long-enough-1")),
        ),
        (
            "Password",
            &admin,
            Method::POST,
            "/api/client-auth".into(),
            Some(add("Tab", "tab@inputs.test", "long\tenough-1")),
        ),
        (
            "Email",
            &admin,
            Method::PATCH,
            "/api/client-auth".into(),
            Some(
                json!({"action": "resetorguserpassword", "email": "x\u{0}@inputs.test", "new_password": "long-enough-1"}),
            ),
        ),
        (
            "Organisation name",
            &admin,
            Method::PUT,
            "/api/organisation".into(),
            Some(json!({"name": "Acme\u{0}"})),
        ),
        (
            "Organisation name",
            &admin,
            Method::PUT,
            "/api/organisation".into(),
            Some(json!({"name": "Acme \u{202E}fdp.exe"})),
        ),
        (
            "Password",
            &admin,
            Method::PUT,
            "/api/me/password".into(),
            Some(json!({"currentPassword": PASSWORD, "newPassword": "new\u{0}password"})),
        ),
        (
            "Organisation name",
            &platform,
            Method::POST,
            "/api/platform/tenants".into(),
            Some(tenant("New\u{1b}[31mCo", "Admin")),
        ),
        (
            "Name",
            &platform,
            Method::POST,
            "/api/platform/tenants".into(),
            Some(tenant("NewCo", "Ad\u{0}min")),
        ),
        (
            "clientId",
            &platform,
            Method::POST,
            "/api/platform/tenants/inputs%00/suspend".into(),
            Some(json!({})),
        ),
    ];
    for (field, caller, method, path, body) in cases {
        let (status, err) = caller.send(method.clone(), &path, body.clone()).await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "{method} {path} {body:?}: {err}"
        );
        assert_eq!(err["code"], "invalid_input", "{err}");
        let message = err["error"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("{field} must not contain")),
            "{method} {path}: {message}"
        );
    }
    // Nothing was stored or changed.
    let accounts: i64 =
        sqlx::query_scalar("SELECT count(*) FROM platform.accounts WHERE tenant_id = $1")
            .bind(brand.tenant.id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(accounts, 1);
    assert_eq!(admin.get("/api/organisation").await.1["name"], "inputs Ltd");
    assert_eq!(
        platform
            .get("/api/platform/tenants")
            .await
            .1
            .as_array()
            .unwrap()
            .len(),
        1
    );
    app.login(&brand.admin).await;
    // Names in any script, with markup, are text like any other.
    let (status, user) = admin
        .post(
            "/api/client-auth",
            add("Zoë <b>محمد</b> 名前", "zoe@inputs.test", "long-enough-1"),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{user}");
    assert_eq!(user["name"], "Zoë <b>محمد</b> 名前");
}

/// No stored password is longer than the cap, so a longer "current password"
/// is wrong without being hashed.
#[tokio::test]
async fn an_over_long_current_password_is_simply_wrong() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (status, err) = admin
        .put(
            "/api/me/password",
            json!({"currentPassword": "x".repeat(60_000), "newPassword": "brand-new-pass"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(err["code"], "wrong_password");
}

/// Sends `body` to `path` as a chunked POST with no Content-Length, on a raw
/// connection; the status code and the answer.
async fn post_chunked(base: &str, path: &str, body: &[u8]) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    let mut request = head.into_bytes();
    for chunk in body.chunks(8 * 1024) {
        request.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        request.extend_from_slice(chunk);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"0\r\n\r\n");
    // The server may answer and stop reading before the body ends.
    let _ = stream.write_all(&request).await;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

#[tokio::test]
async fn request_bodies_are_limited_to_64_kib_as_they_stream_in() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let login = |padding: usize| {
        json!({"email": brand.admin, "password": PASSWORD, "padding": "x".repeat(padding)})
            .to_string()
    };

    // With a Content-Length.
    let resp = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .header("content-type", "application/json")
        .body(login(70 * 1024))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let err: Value = resp.json().await.unwrap();
    assert_eq!(err["code"], "too_large");
    assert!(err["error"].as_str().unwrap().contains("64 KiB"), "{err}");

    // Without one: counted as it arrives.
    let (status, answer) =
        post_chunked(&app.base, "/api/auth/login", login(200 * 1024).as_bytes()).await;
    assert_eq!(status, 413, "{answer}");
    assert!(answer.contains("\"too_large\""), "{answer}");

    // Just under the limit is read as usual.
    let (status, answer) =
        post_chunked(&app.base, "/api/auth/login", login(60 * 1024).as_bytes()).await;
    assert_eq!(status, 200, "{answer}");
}

/// A body that is not JSON is a 415 the contract declares, in the envelope.
#[tokio::test]
async fn a_body_that_is_not_json_is_a_declared_415() {
    let app = TestApp::spawn().await;
    let resp = reqwest::Client::new()
        .post(format!("{}/api/auth/login", app.base))
        .header("content-type", "text/plain")
        .body("email=a@b.co&password=x")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let err: Value = resp.json().await.unwrap();
    assert_eq!(err["code"], "unsupported_media_type");
    let contract: serde_yaml::Value =
        serde_yaml::from_str(&brandops::app::api::spec_yaml()).unwrap();
    for (path, method) in [
        ("/api/auth/login", "post"),
        ("/api/organisation", "put"),
        ("/api/client-auth", "post"),
        ("/api/platform/tenants", "post"),
    ] {
        let responses = &contract["paths"][path][method]["responses"];
        assert!(
            responses.get("415").is_some(),
            "{method} {path} does not declare 415"
        );
    }
}

/// Names made of characters that show nothing (a byte-order mark, a
/// zero-width space) are refused for a user, a label template and a
/// company, and nothing is stored (issue 20).
#[tokio::test]
async fn invisible_names_are_refused_everywhere() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let client = app.tenant_named("clientA", TenantKind::Client).await;
    let client_admin = app.login(&client.admin).await;
    let templates = app.rows(&brand, "label_templates").await;
    for name in ["\u{feff}", "\u{200b}\u{200b}", " \u{2060} ", "\u{feff}Bob"] {
        let email = format!("{}@{}.test", unique("inv"), brand.client_id.to_lowercase());
        let (status, err) = admin
            .post(
                "/api/client-auth",
                json!({"action": "adduser", "email": email, "name": name, "password": "password-1"}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}: {err}");
        assert!(err["error"].as_str().unwrap().contains("visible"), "{err}");
        let design = json!({"width_mm": 60.0, "height_mm": 40.0, "symbology": "qr", "sheet": "single",
            "fields": {"product_name": true, "gtin": true, "lot": true, "expiry": true, "serial": true},
            "font_size_pt": 7, "margin_mm": 1.5});
        let (status, err) = admin
            .post(
                "/api/label-templates",
                json!({"name": name, "design": design}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}: {err}");
        let (status, err) = client_admin
            .post(
                "/api/companies",
                json!({"cin": "L24230MH1950PLC008311", "name": name,
                       "registered_address": "Plot 12, MIDC, Andheri East, Mumbai 400093"}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}: {err}");
    }
    assert_eq!(app.rows(&brand, "label_templates").await, templates);
    assert_eq!(app.rows(&client, "companies").await, 0);
}
