//! Tenancy: PostgreSQL itself refuses cross-tenant access; canary rows never
//! cross with a pool of one connection; all tenant schemas have the same
//! shape; onboarding is all or nothing; suspension ends sessions.

mod common;

use common::{spawn_app, spawn_app_with};
use reqwest::StatusCode;
use serde_json::json;

async fn tenant_ref(app: &common::TestApp, client_id: &str) -> brandops::tenants::TenantRef {
    brandops::tenants::all_tenant_refs(&app.owner)
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.client_id == client_id)
        .unwrap()
}

fn sqlstate(err: &sqlx::Error) -> Option<String> {
    match err {
        sqlx::Error::Database(db) => db.code().map(|c| c.to_string()),
        _ => None,
    }
}

#[tokio::test]
async fn postgres_refuses_a_query_naming_another_tenants_schema() {
    let app = spawn_app().await;
    let acme = tenant_ref(&app, "acme").await;
    let db = &app.state.db;

    // Inside acme's transaction its own tables are readable, unqualified...
    let mut tx = db.begin_tenant(&acme).await.unwrap();
    let name: String = sqlx::query_scalar("SELECT display_name FROM org_settings")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(name, "Acme Consumer Goods");
    // ...but naming globex's schema is refused by PostgreSQL.
    let err = sqlx::query("SELECT * FROM brand_globex.org_settings")
        .fetch_all(&mut *tx)
        .await
        .unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("42501"), "{err}");
    assert!(err.to_string().contains("permission denied"), "{err}");
    tx.rollback().await.unwrap();

    // Writes too, and the platform tables are out of reach inside a tenant.
    for sql in [
        "INSERT INTO client_a.user_preferences (account_id) VALUES (gen_random_uuid())",
        "SELECT * FROM platform.accounts",
        "SELECT * FROM platform.sessions",
    ] {
        let mut tx = db.begin_tenant(&acme).await.unwrap();
        let err = sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut *tx)
            .await
            .unwrap_err();
        assert_eq!(sqlstate(&err).as_deref(), Some("42501"), "{sql}: {err}");
    }

    // The runtime role outside a tenant transaction reads no tenant schema.
    let err = sqlx::query("SELECT * FROM brand_acme.org_settings")
        .fetch_all(&db.app)
        .await
        .unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("42501"), "{err}");

    // Nothing is set at session level: after the transaction the connection
    // is back to the runtime role with the default search_path.
    let (role, path): (String, String) =
        sqlx::query_as("SELECT current_user::text, current_setting('search_path')")
            .fetch_one(&db.app)
            .await
            .unwrap();
    assert_eq!(role, db.names.runtime_role);
    assert!(!path.contains("brand_acme"), "{path}");
}

#[tokio::test]
async fn canary_rows_never_cross_tenants_on_a_single_pooled_connection() {
    let app = spawn_app_with(|s| s.db_max_connections = 1).await;
    for (schema, canary) in [
        ("brand_acme", "canary-acme"),
        ("brand_globex", "canary-globex"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE {schema}.org_settings SET display_name = $1"
        )))
        .bind(canary)
        .execute(&app.owner)
        .await
        .unwrap();
    }
    let acme = app.login("admin@acme.test").await;
    let globex = app.login("admin@globex.test").await;
    for round in 0..20 {
        for (c, canary, theme) in [
            (&acme, "canary-acme", "dark"),
            (&globex, "canary-globex", "light"),
        ] {
            let (status, org) = c.get("/api/organisation").await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(org["name"], canary, "round {round}");
            let landing = format!("/products/{round}");
            let (status, _) = c
                .put(
                    "/api/me/preferences",
                    json!({"theme": theme, "landingPage": landing}),
                )
                .await;
            assert_eq!(status, StatusCode::OK);
            let (_, prefs) = c.get("/api/me/preferences").await;
            assert_eq!(
                (prefs["theme"].as_str(), prefs["landingPage"].as_str()),
                (Some(theme), Some(landing.as_str()))
            );
        }
    }
    // Each schema holds only its own tenant's rows.
    for (schema, client) in [("brand_acme", "acme"), ("brand_globex", "globex")] {
        let foreign: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM {schema}.user_preferences p
             WHERE NOT EXISTS (SELECT 1 FROM platform.accounts a JOIN platform.tenants t ON t.id = a.tenant_id
                               WHERE a.id = p.account_id AND t.client_id = '{client}')"
        )))
        .fetch_one(&app.owner)
        .await
        .unwrap();
        assert_eq!(foreign, 0, "{schema}");
        let own: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM {schema}.user_preferences"
        )))
        .fetch_one(&app.owner)
        .await
        .unwrap();
        assert_eq!(own, 1, "{schema}");
    }
}

#[tokio::test]
async fn every_tenant_schema_has_the_same_columns() {
    let app = spawn_app().await;
    // One more tenant onboarded at run time must match too.
    let platform = app.login("platform@brandops.test").await;
    let (status, body) = platform
        .post(
            "/api/platform/tenants",
            json!({"clientId": "initech", "name": "Initech", "kind": "brand", "userLimit": 5,
                   "admin": {"name": "Ina Admin", "email": "admin@initech.test", "password": "initech-pass"}}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let schemas: Vec<String> =
        sqlx::query_scalar("SELECT schema_name FROM platform.tenants ORDER BY schema_name")
            .fetch_all(&app.owner)
            .await
            .unwrap();
    assert_eq!(
        schemas,
        [
            "brand_acme",
            "brand_globex",
            "brand_initech",
            "client_a",
            "client_b"
        ]
    );
    let mut shapes = Vec::new();
    for schema in &schemas {
        let cols: Vec<(String, String, String, String)> = sqlx::query_as(
            "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text
             FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, column_name",
        )
        .bind(schema)
        .fetch_all(&app.owner)
        .await
        .unwrap();
        assert!(!cols.is_empty(), "{schema}");
        shapes.push((schema, cols));
    }
    for (schema, cols) in &shapes[1..] {
        assert_eq!(cols, &shapes[0].1, "{schema} differs from {}", shapes[0].0);
    }
}

async fn tenant_traces(app: &common::TestApp, client_id: &str, schema: &str) -> (i64, bool, bool) {
    let rows: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.tenants WHERE lower(client_id) = lower($1)",
    )
    .bind(client_id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    let schema_exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)")
            .bind(schema)
            .fetch_one(&app.owner)
            .await
            .unwrap();
    let role_exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)")
            .bind(app.state.db.names.tenant_role(schema))
            .fetch_one(&app.owner)
            .await
            .unwrap();
    (rows, schema_exists, role_exists)
}

#[tokio::test]
async fn platform_admins_onboard_tenants_all_or_nothing() {
    let app = spawn_app().await;
    let platform = app.login("platform@brandops.test").await;
    let body = |client_id: &str, email: &str| {
        json!({"clientId": client_id, "name": "Umbrella Labs", "kind": "client", "userLimit": 4,
               "admin": {"name": "Uma Admin", "email": email, "password": "umbrella-pass"}})
    };
    // The first admin's email is taken: nothing at all may remain.
    let (status, err) = platform
        .post(
            "/api/platform/tenants",
            body("clientUmbrella", "admin@acme.test"),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert_eq!(
        tenant_traces(&app, "clientUmbrella", "client_umbrella").await,
        (0, false, false)
    );
    // Invalid input is refused before anything is created.
    for bad in [
        body("x", "u@umbrella.test"),
        body("clientUmbrella", "not-an-email"),
        json!({"clientId": "clientUmbrella", "name": "", "kind": "client", "userLimit": 4, "admin": {"name": "U", "email": "u@umbrella.test", "password": "umbrella-pass"}}),
        json!({"clientId": "clientUmbrella", "name": "U", "kind": "client", "userLimit": 0, "admin": {"name": "U", "email": "u@umbrella.test", "password": "umbrella-pass"}}),
        json!({"clientId": "clientUmbrella", "name": "U", "kind": "client", "userLimit": 4, "modules": ["teleport"], "admin": {"name": "U", "email": "u@umbrella.test", "password": "umbrella-pass"}}),
    ] {
        let (status, err) = platform.post("/api/platform/tenants", bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {err}");
        assert_eq!(err["code"], "invalid_input");
    }
    assert_eq!(
        tenant_traces(&app, "clientUmbrella", "client_umbrella").await,
        (0, false, false)
    );

    let (status, tenant) = platform
        .post(
            "/api/platform/tenants",
            body("clientUmbrella", "u@umbrella.test"),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{tenant}");
    assert_eq!(tenant["clientId"], "clientUmbrella");
    assert_eq!(tenant["schema"], "client_umbrella");
    assert_eq!(tenant["userCount"], 1);
    assert_eq!(tenant["status"], "active");
    assert_eq!(
        tenant_traces(&app, "clientUmbrella", "client_umbrella").await,
        (1, true, true)
    );
    let (status, err) = platform
        .post(
            "/api/platform/tenants",
            body("CLIENTUMBRELLA", "v@umbrella.test"),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");

    // The new admin signs in, sees their own organisation, and nothing else.
    let admin = app.login_with("u@umbrella.test", "umbrella-pass").await;
    assert_eq!(admin.user["clientId"], "clientUmbrella");
    let (_, org) = admin.get("/api/organisation").await;
    assert_eq!(org["name"], "Umbrella Labs");
    assert_eq!(org["kind"], "client");
    let (_, others) = admin.get("/api/account-info?action=otheraccountinfo").await;
    assert_eq!(others, json!([]));

    let (status, list) = platform.get("/api/platform/tenants").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list.as_array().unwrap().len(), 5);
    // Tenant admins are not platform admins.
    assert_eq!(
        admin.get("/api/platform/tenants").await.0,
        StatusCode::FORBIDDEN
    );
    let audit: i64 = sqlx::query_scalar("SELECT count(*) FROM platform.audit_log WHERE action = 'tenant.create' AND target = 'clientUmbrella'")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(audit, 1);
}

#[tokio::test]
async fn suspending_a_tenant_ends_its_sessions_and_blocks_sign_in() {
    let app = spawn_app().await;
    let platform = app.login("platform@brandops.test").await;
    let globex = app.login("admin@globex.test").await;
    let acme = app.login("admin@acme.test").await;
    let (status, t) = platform
        .post("/api/platform/tenants/globex/suspend", json!({}))
        .await;
    assert_eq!(
        (status, t["status"].as_str()),
        (StatusCode::OK, Some("suspended"))
    );
    assert_eq!(
        globex.get("/api/auth/session").await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(acme.get("/api/auth/session").await.0, StatusCode::OK);
    let (status, err) = app
        .client()
        .post(
            "/api/auth/login",
            json!({"email": "admin@globex.test", "password": common::DEMO_PASSWORD}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(err["code"], "tenant_suspended");
    assert_eq!(
        platform
            .post("/api/platform/tenants/nope/suspend", json!({}))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (status, t) = platform
        .post("/api/platform/tenants/globex/reactivate", json!({}))
        .await;
    assert_eq!(
        (status, t["status"].as_str()),
        (StatusCode::OK, Some("active"))
    );
    app.login("admin@globex.test").await;
}

#[tokio::test]
async fn the_cli_onboards_lists_and_suspends_tenants() {
    let app = spawn_app().await;
    let bin = env!("CARGO_BIN_EXE_brandops");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .env("DATABASE_URL", &app.database_url)
            .env("TENANTS_DIR", common::repo_root().join("tenants"))
            .env("ADMIN_PASSWORD", "hooli-password")
            .env("LOG_FORMAT", "pretty")
            .env("RUST_LOG", "warn")
            .output()
            .unwrap()
    };
    let out = run(&[
        "tenant",
        "create",
        "--client-id",
        "hooli",
        "--name",
        "Hooli",
        "--kind",
        "brand",
        "--user-limit",
        "2",
        "--admin-email",
        "admin@hooli.test",
        "--admin-name",
        "Gavin",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&[
        "tenant",
        "create",
        "--client-id",
        "hooli",
        "--name",
        "Hooli",
        "--kind",
        "brand",
        "--user-limit",
        "2",
        "--admin-email",
        "other@hooli.test",
        "--admin-name",
        "Gavin",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("already exists"), "{stderr}");
    let out = run(&["tenant", "list"]);
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(
        listing.contains("hooli") && listing.contains("brand_hooli"),
        "{listing}"
    );
    app.login_with("admin@hooli.test", "hooli-password").await;
    let out = run(&["tenant", "suspend", "hooli"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (status, _) = app
        .client()
        .post(
            "/api/auth/login",
            json!({"email": "admin@hooli.test", "password": "hooli-password"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_recreated_database_of_the_same_name_can_be_set_up_again() {
    let url = common::fresh_database().await;
    let setup = |url: String| async move {
        let (owner, names) = brandops::db::Db::connect_owner(&url).await.unwrap();
        brandops::migrate::migrate_all(&owner, &names)
            .await
            .unwrap();
        let seeded = brandops::tenants::seed::seed_demo_if_empty(
            &owner,
            &names,
            &common::repo_root().join("tenants/demo"),
            common::DEMO_PASSWORD,
        )
        .await
        .unwrap();
        owner.close().await;
        seeded
    };
    assert_eq!(setup(url.clone()).await, 9);
    // Drop and recreate it: its tenant roles (cluster-wide) are left behind.
    let name = url.rsplit('/').next().unwrap().to_string();
    let admin = sqlx::PgPool::connect(&std::env::var("TEST_DATABASE_URL").unwrap())
        .await
        .unwrap();
    for sql in [
        format!("DROP DATABASE {name} WITH (FORCE)"),
        format!("CREATE DATABASE {name}"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&admin)
            .await
            .unwrap();
    }
    assert_eq!(setup(url.clone()).await, 9);
}
