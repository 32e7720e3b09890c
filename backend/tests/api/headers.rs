//! Security headers: a strict Content-Security-Policy on the web app, no
//! caching of answers that carry a session or CSRF token, HSTS over https.

use reqwest::header::HeaderMap;
use serde_json::json;

use crate::helpers::{PASSWORD, TestApp};

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .map_or("", |v| v.to_str().unwrap_or_default())
}

#[tokio::test]
async fn the_web_app_and_the_api_carry_the_security_headers() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let http = reqwest::Client::new();

    for page in ["/", "/manage_org", "/auth/login"] {
        let resp = http
            .get(format!("{}{page}", app.base))
            .send()
            .await
            .unwrap();
        let h = resp.headers();
        let csp = header(h, "content-security-policy");
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "object-src 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(
                csp.contains(directive),
                "{page}: {directive} missing in {csp:?}"
            );
        }
        assert!(
            !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"),
            "{csp}"
        );
        assert_eq!(header(h, "x-content-type-options"), "nosniff");
        assert_eq!(header(h, "referrer-policy"), "same-origin");
        assert_eq!(header(h, "x-frame-options"), "DENY");
        assert_eq!(
            header(h, "strict-transport-security"),
            "",
            "plain http: no HSTS"
        );
    }

    // Error answers too (the static files refuse HEAD).
    let resp = http
        .head(format!("{}/manage_org", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(header(resp.headers(), "x-frame-options"), "DENY");
    assert!(header(resp.headers(), "content-security-policy").contains("frame-ancestors 'none'"));

    // Sign-in and session answers carry the CSRF token: never cached.
    let login = http
        .post(format!("{}/api/auth/login", app.base))
        .json(&json!({"email": brand.admin, "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200);
    assert_eq!(header(login.headers(), "cache-control"), "no-store");
    let admin = app.login(&brand.admin).await;
    for path in [
        "/api/auth/session",
        "/api/me",
        "/api/organisation",
        "/api/nothing",
    ] {
        let resp = admin.http.get(admin.url(path)).send().await.unwrap();
        assert_eq!(
            header(resp.headers(), "cache-control"),
            "no-store",
            "{path}"
        );
        assert_eq!(header(resp.headers(), "x-frame-options"), "DENY", "{path}");
    }
}

#[tokio::test]
async fn hsts_is_sent_when_the_app_is_served_over_https() {
    let app = TestApp::spawn_with(|s| s.public_url = Some("https://brandops.example".into())).await;
    let resp = reqwest::Client::new()
        .get(format!("{}/api/health", app.base))
        .send()
        .await
        .unwrap();
    let hsts = header(resp.headers(), "strict-transport-security");
    assert!(
        hsts.starts_with("max-age=") && hsts.contains("includeSubDomains"),
        "{hsts:?}"
    );
}
