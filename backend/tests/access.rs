//! Walks every operation of `openapi.yaml` with every demo account (and no
//! account), asserting the policy's allow/deny. A new operation without an
//! expectation here fails the test.

mod common;

use std::collections::BTreeMap;

use common::spawn_app;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

const ACCOUNTS: [&str; 10] = [
    "anonymous",
    "admin@acme.test",
    "manager@acme.test",
    "worker@acme.test",
    "admin@globex.test",
    "admin@clienta.test",
    "employee@clienta.test",
    "admin@clientb.test",
    "employee@clientb.test",
    "platform@brandops.test",
];

/// Who may call each operation. Names: "anyone", "signed-in", "tenant members",
/// "org admins", "preference editors", "platform".
fn expected(who: &str, account: &str) -> bool {
    let signed_in = account != "anonymous";
    let platform = account == "platform@brandops.test";
    let tenant_member = signed_in && !platform;
    let org_admin = account.starts_with("admin@");
    let worker = account.starts_with("worker@");
    match who {
        "anyone" => true,
        "signed-in" => signed_in,
        "tenant members" => tenant_member,
        "org admins" => org_admin,
        "preference editors" => tenant_member && !worker,
        "platform" => platform,
        other => panic!("unknown expectation {other}"),
    }
}

/// Each operation: who may call it, and a request body that changes nothing
/// when allowed (it is invalid, or names something that does not exist).
fn operations() -> BTreeMap<(&'static str, &'static str), (&'static str, Option<Value>)> {
    let none = "00000000-0000-0000-0000-000000000000";
    BTreeMap::from([
        (("get", "/api/health"), ("anyone", None)),
        (("get", "/api/ready"), ("anyone", None)),
        (
            ("post", "/api/auth/login"),
            ("anyone", Some(json!({"email": "", "password": ""}))),
        ),
        (("get", "/api/auth/session"), ("signed-in", None)),
        (("post", "/api/auth/logout"), ("signed-in", Some(json!({})))),
        (("get", "/api/me"), ("signed-in", None)),
        (
            ("put", "/api/me/password"),
            (
                "signed-in",
                Some(json!({"currentPassword": "wrong-password", "newPassword": "new-password-1"})),
            ),
        ),
        (("get", "/api/me/preferences"), ("signed-in", None)),
        (
            ("put", "/api/me/preferences"),
            (
                "preference editors",
                Some(json!({"theme": "dark", "landingPage": "not a path"})),
            ),
        ),
        (("get", "/api/organisation"), ("tenant members", None)),
        (
            ("put", "/api/organisation"),
            ("org admins", Some(json!({"name": ""}))),
        ),
        (("get", "/api/account-info"), ("org admins", None)),
        (
            ("post", "/api/client-auth"),
            (
                "org admins",
                Some(json!({"action": "removeuser", "user_id": none})),
            ),
        ),
        (
            ("patch", "/api/client-auth"),
            (
                "org admins",
                Some(json!({"action": "resetorguserpassword", "email": "", "new_password": ""})),
            ),
        ),
        (("get", "/api/platform/tenants"), ("platform", None)),
        (
            ("post", "/api/platform/tenants"),
            (
                "platform",
                Some(
                    json!({"clientId": "", "name": "", "kind": "brand", "userLimit": 0, "admin": {"name": "", "email": "", "password": ""}}),
                ),
            ),
        ),
        (
            ("post", "/api/platform/tenants/{client_id}/suspend"),
            ("platform", Some(json!({}))),
        ),
        (
            ("post", "/api/platform/tenants/{client_id}/reactivate"),
            ("platform", Some(json!({}))),
        ),
    ])
}

fn contract_operations() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(common::repo_root().join("openapi.yaml")).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_mapping().unwrap() {
        for (method, _) in item.as_mapping().unwrap() {
            ops.push((
                method.as_str().unwrap().to_string(),
                path.as_str().unwrap().to_string(),
            ));
        }
    }
    ops
}

#[tokio::test]
async fn every_operation_with_every_role_and_tenant() {
    let app = spawn_app().await;
    let table = operations();
    let ops = contract_operations();
    for (method, path) in &ops {
        assert!(
            table.contains_key(&(method.as_str(), path.as_str())),
            "{method} {path} is in openapi.yaml but has no access expectation in tests/access.rs"
        );
    }
    assert_eq!(
        ops.len(),
        table.len(),
        "the table lists operations the contract does not have"
    );

    let mut failures = Vec::new();
    for account in ACCOUNTS {
        let client = if account == "anonymous" {
            app.client()
        } else {
            app.login(account).await
        };
        // Logout last: it ends the session the other calls use.
        let mut order: Vec<_> = table.iter().collect();
        order.sort_by_key(|((_, p), _)| *p == "/api/auth/logout");
        for ((method, path), (who, body)) in order {
            let url_path = path.replace("{client_id}", "no-such-tenant");
            let url_path = if *path == "/api/account-info" {
                format!("{url_path}?action=otheraccountinfo")
            } else {
                url_path
            };
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let (status, answer) = client.send(m, &url_path, body.clone()).await;
            let allowed = !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
                || (status == StatusCode::UNAUTHORIZED && answer["code"] == "invalid_credentials");
            let want = expected(who, account);
            if allowed != want {
                failures.push(format!(
                    "{account}: {method} {path} -> {status} {answer} (expected {})",
                    if want { "allowed" } else { "denied" }
                ));
                continue;
            }
            if !want {
                let code = if account == "anonymous" {
                    "unauthenticated"
                } else {
                    "forbidden"
                };
                if answer["code"] != code {
                    failures.push(format!(
                        "{account}: {method} {path} denied with {answer}, expected code {code}"
                    ));
                }
            } else if body.is_some() && status.is_success() && *path != "/api/auth/logout" {
                failures.push(format!(
                    "{account}: {method} {path} changed something: {status} {answer}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
