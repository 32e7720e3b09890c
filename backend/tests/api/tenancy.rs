//! Tenancy: all tenant schemas have the same shape; onboarding is all or
//! nothing; suspension ends sessions; the demo seed. (What PostgreSQL
//! refuses across tenants is in `isolation.rs`.)

use brandops::accounts::Role;
use brandops::config::Settings;
use brandops::tenants::TenantKind;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{PASSWORD, TestApp, fresh_database, repo_root};

#[tokio::test]
async fn every_tenant_schema_has_the_same_columns() {
    let app = TestApp::spawn().await;
    let created = [
        app.brand().await,
        app.brand().await,
        app.client_org().await,
        app.client_org().await,
    ];
    // One more tenant onboarded at run time, through the API, must match too.
    let platform = app.login(&app.platform_admin().await).await;
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
    let mut expected: Vec<String> = created.iter().map(|t| t.schema.clone()).collect();
    expected.push("brand_initech".to_string());
    expected.sort();
    assert_eq!(schemas, expected);
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

async fn tenant_traces(app: &TestApp, client_id: &str, schema: &str) -> (i64, bool, bool) {
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
            .bind(app.state.db.roles.tenant_role(schema))
            .fetch_one(&app.owner)
            .await
            .unwrap();
    (rows, schema_exists, role_exists)
}

#[tokio::test]
async fn platform_admins_onboard_tenants_all_or_nothing() {
    let app = TestApp::spawn().await;
    let existing = app.brand().await;
    let platform = app.login(&app.platform_admin().await).await;
    let body = |client_id: &str, email: &str| {
        json!({"clientId": client_id, "name": "Umbrella Labs", "kind": "client", "userLimit": 4,
               "admin": {"name": "Uma Admin", "email": email, "password": "umbrella-pass"}})
    };
    // The first admin's email is taken: nothing at all may remain.
    let (status, err) = platform
        .post(
            "/api/platform/tenants",
            body("clientUmbrella", &existing.admin),
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

    // The list holds the tenant that existed and the new one, nothing more.
    let (status, list) = platform.get("/api/platform/tenants").await;
    assert_eq!(status, StatusCode::OK);
    let mut listed: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["clientId"].as_str().unwrap())
        .collect();
    listed.sort();
    let mut expected = [existing.client_id.as_str(), "clientUmbrella"];
    expected.sort();
    assert_eq!(listed, expected);
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
    let app = TestApp::spawn().await;
    let (suspended, other) = (app.brand().await, app.brand().await);
    let platform = app.login(&app.platform_admin().await).await;
    let victim = app.login(&suspended.admin).await;
    let bystander = app.login(&other.admin).await;
    let path = |action: &str| format!("/api/platform/tenants/{}/{action}", suspended.client_id);
    let (status, t) = platform.post(&path("suspend"), json!({})).await;
    assert_eq!(
        (status, t["status"].as_str()),
        (StatusCode::OK, Some("suspended"))
    );
    assert_eq!(
        victim.get("/api/auth/session").await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(bystander.get("/api/auth/session").await.0, StatusCode::OK);
    let (status, err) = app
        .client()
        .post(
            "/api/auth/login",
            json!({"email": suspended.admin, "password": PASSWORD}),
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
    let (status, t) = platform.post(&path("reactivate"), json!({})).await;
    assert_eq!(
        (status, t["status"].as_str()),
        (StatusCode::OK, Some("active"))
    );
    app.login(&suspended.admin).await;
}

#[tokio::test]
async fn the_cli_onboards_lists_and_suspends_tenants() {
    let app = TestApp::spawn().await;
    let bin = env!("CARGO_BIN_EXE_brandops");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .args(args)
            .env("DATABASE_URL", &app.database_url)
            .env("DB_ROLE_SECRET", app.state.settings.db_role_secret.expose())
            .env("TENANTS_DIR", repo_root().join("tenants"))
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
    use brandops::identity::password::Passwords;
    use brandops::tenants::{FirstAccount, Onboarding, onboard};

    let url = fresh_database().await;
    let name = url.rsplit('/').next().unwrap().to_string();
    let passwords = Passwords::new(1).unwrap();
    let mut prepared = Vec::new();
    for (client_id, kind) in [("acme", TenantKind::Brand), ("clientA", TenantKind::Client)] {
        let request = Onboarding {
            client_id: client_id.to_string(),
            name: format!("{client_id} Ltd"),
            kind,
            schema: None,
            user_limit: 5,
            product_limit: None,
            code_quota: None,
            modules: None,
            accounts: vec![FirstAccount {
                email: format!("admin@{}.test", client_id.to_lowercase()),
                name: "Ada Admin".to_string(),
                role: Role::Admin,
                password: PASSWORD.to_string(),
            }],
        };
        prepared.push(request.prepare(&passwords).await.unwrap());
    }
    // Migrates and onboards every tenant; answers which of their roles
    // existed before (tenant roles are cluster-wide) and how many tenants the
    // database holds after.
    let setup = |url: String| {
        let prepared = &prepared;
        async move {
            let settings = Settings::for_tests(&url, &repo_root());
            let (owner, roles) = brandops::db::Db::connect_owner(&url, &settings.db_role_secret)
                .await
                .unwrap();
            brandops::db::migrate::migrate_all(&owner, &roles)
                .await
                .unwrap();
            let mut roles_existed = Vec::new();
            let mut tx = owner.begin().await.unwrap();
            for p in prepared {
                let existed: bool =
                    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)")
                        .bind(roles.tenant_role(p.schema.as_str()))
                        .fetch_one(&mut *tx)
                        .await
                        .unwrap();
                roles_existed.push(existed);
                onboard(&mut tx, &roles, p, &brandops::audit::Actor::cli())
                    .await
                    .unwrap();
            }
            tx.commit().await.unwrap();
            let tenants: i64 = sqlx::query_scalar("SELECT count(*) FROM platform.tenants")
                .fetch_one(&owner)
                .await
                .unwrap();
            owner.close().await;
            (roles_existed, tenants)
        }
    };
    assert_eq!(setup(url.clone()).await, (vec![false, false], 2));
    // Drop and recreate it: its tenant roles (cluster-wide) are left behind.
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
    assert_eq!(setup(url.clone()).await, (vec![true, true], 2));
    // The tenants of the recreated database work: each one's transaction
    // reads its own first row, as its role.
    let db = brandops::db::Db::connect(&Settings::for_tests(&url, &repo_root()))
        .await
        .unwrap();
    let refs = brandops::tenants::store::all_tenant_refs(&db.owner)
        .await
        .unwrap();
    assert_eq!(refs.len(), 2);
    for tenant in &refs {
        let mut tx = db.begin_tenant(tenant).await.unwrap();
        let name: String = sqlx::query_scalar("SELECT display_name FROM org_settings")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        drop(tx);
        assert_eq!(name, format!("{} Ltd", tenant.client_id));
    }
    db.close().await;
}

#[tokio::test]
async fn the_demo_seed_onboards_every_listed_account_once() {
    use brandops::tenants::definition::load_demo;
    use brandops::tenants::seed::seed_demo_if_empty;

    let app = TestApp::spawn().await;
    let dir = repo_root().join("tenants/demo");
    let password = "seed-password-1";
    // Seeds only into a database without tenants: before any is created.
    let seeded = seed_demo_if_empty(&app.owner, &app.state.db.roles, &dir, password)
        .await
        .unwrap();
    let (tenants, platform) = load_demo(&dir).unwrap();
    let listed = tenants.iter().map(|t| t.accounts.len()).sum::<usize>() + platform.accounts.len();
    assert!(!tenants.is_empty() && !platform.accounts.is_empty());
    assert_eq!(seeded, listed);

    for t in &tenants {
        let (kind, user_limit, product_limit, code_quota): (String, i32, i32, i64) =
            sqlx::query_as(
                "SELECT kind, user_limit, product_limit, code_quota
                 FROM platform.tenants WHERE client_id = $1",
            )
            .bind(&t.client_id)
            .fetch_one(&app.owner)
            .await
            .unwrap();
        // The demo files set every limit.
        assert_eq!(
            (
                kind.as_str(),
                user_limit,
                Some(product_limit),
                Some(code_quota)
            ),
            (t.kind.as_str(), t.user_limit, t.product_limit, t.code_quota),
            "{}",
            t.client_id
        );
        assert!(t.product_limit.is_some() && t.code_quota.is_some());
        for a in &t.accounts {
            let c = app.login_with(&a.email, password).await;
            assert_eq!(c.user["email"], a.email.to_lowercase(), "{}", a.email);
            assert_eq!(c.user["name"], a.name.as_str(), "{}", a.email);
            assert_eq!(c.user["role"].as_str(), a.role.as_deref(), "{}", a.email);
            assert_eq!(c.user["clientId"], t.client_id.as_str(), "{}", a.email);
        }
        // The companies listed (client A's) are there, as its admins see them.
        if !t.companies.is_empty() {
            let admin = t
                .accounts
                .iter()
                .find(|a| a.role.as_deref() == Some("admin"));
            let c = app.login_with(&admin.unwrap().email, password).await;
            let (status, list) = c.get("/api/companies").await;
            assert_eq!(status, reqwest::StatusCode::OK, "{list}");
            let mut cins: Vec<_> = list["companies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["cin"].as_str().unwrap().to_string())
                .collect();
            let mut listed: Vec<_> = t.companies.iter().map(|c| c.cin.clone()).collect();
            cins.sort();
            listed.sort();
            assert_eq!(cins, listed, "{}", t.client_id);
        }
    }
    for a in &platform.accounts {
        let c = app.login_with(&a.email, password).await;
        assert_eq!(c.user["role"], "platform_admin", "{}", a.email);
        assert!(c.user["clientId"].is_null(), "{}", a.email);
    }

    // A second seed finds tenants and seeds nothing.
    let again = seed_demo_if_empty(&app.owner, &app.state.db.roles, &dir, password)
        .await
        .unwrap();
    assert_eq!(again, 0);
    let accounts: i64 = sqlx::query_scalar("SELECT count(*) FROM platform.accounts")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(accounts, listed as i64);
    // The seed hashes like every other way an account comes to exist.
    let hashes: Vec<String> = sqlx::query_scalar("SELECT password_hash FROM platform.accounts")
        .fetch_all(&app.owner)
        .await
        .unwrap();
    for h in hashes {
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
    }
}

#[tokio::test]
async fn the_demo_stock_is_written_through_the_ledger_once() {
    use brandops::tenants::definition::load_demo;
    use brandops::tenants::demo_stock::seed_demo_stock;
    use brandops::tenants::seed::seed_demo_if_empty;

    let app = TestApp::spawn().await;
    let dir = repo_root().join("tenants/demo");
    let password = "seed-password-1";
    seed_demo_if_empty(&app.owner, &app.state.db.roles, &dir, password)
        .await
        .unwrap();
    let (tenants, _) = load_demo(&dir).unwrap();
    assert!(
        tenants.iter().any(|t| t.stock.is_some()),
        "acme has demo stock"
    );
    assert_eq!(seed_demo_stock(&app.state.db, &tenants).await.unwrap(), 1);
    // Once: a tenant with locations is left as it is.
    assert_eq!(seed_demo_stock(&app.state.db, &tenants).await.unwrap(), 0);

    // What acme's worker reads through the API.
    let c = app.login_with("worker@acme.test", password).await;
    let (status, stock) = c.get("/api/stock").await;
    assert_eq!(status, reqwest::StatusCode::OK, "{stock}");
    let row = |lot: &str| {
        stock["stock"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["lot_number"] == lot)
            .cloned()
            .collect::<Vec<_>>()
    };
    // TEA-2605: 120 received, 40 moved to another bin.
    let tea = row("TEA-2605");
    let mut on_hand: Vec<_> = tea.iter().map(|r| r["on_hand"].as_str().unwrap()).collect();
    on_hand.sort_unstable();
    assert_eq!(on_hand, ["40", "80"]);
    // The reservation took the earliest expiry first: all 60 of TEA-2511.
    assert_eq!(row("TEA-2511")[0]["reserved"], "60");
    assert_eq!(row("COF-2509")[0]["expired"], true);

    let (_, moves) = c.get("/api/stock-moves").await;
    assert_eq!(moves["moves"].as_array().unwrap().len(), 7, "{moves}");
    let (_, below) = c.get("/api/replenishment").await;
    let lines = below["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "{below}");
    assert_eq!(lines[0]["product_name"], "Wildflower honey 500 g");
    assert_eq!(lines[0]["suggested_quantity"], "76");
    let (_, value) = c.get("/api/stock/valuation").await;
    let tea = value["products"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["product_name"] == "Sencha green tea 100 g")
        .cloned()
        .unwrap();
    assert_eq!(tea["values"][0]["value"], "450.00", "{value}");

    // Every write was audited, as the first admin.
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.audit_log
          WHERE actor_email = 'admin@acme.test'
            AND (action LIKE 'inventory.%' OR action = 'lot.created')",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    // 6 locations, 5 lots, 7 moves, 1 reservation, 2 reorder rules.
    assert_eq!(audited, 21);
}

#[tokio::test]
async fn the_demo_supply_chain_is_sent_through_the_api_once() {
    use brandops::app::Application;
    use brandops::tenants::definition::load_demo;
    use brandops::tenants::demo_calls::seed_demo_calls;
    use brandops::tenants::demo_stock::seed_demo_stock;
    use brandops::tenants::seed::seed_demo_if_empty;

    let app = TestApp::spawn().await;
    let dir = repo_root().join("tenants/demo");
    let password = "seed-password-2";
    seed_demo_if_empty(&app.owner, &app.state.db.roles, &dir, password)
        .await
        .unwrap();
    let (tenants, _) = load_demo(&dir).unwrap();
    seed_demo_stock(&app.state.db, &tenants).await.unwrap();
    // As `brandops setup` does: the app in process, on a port never served.
    let mut settings = app.state.settings.clone();
    settings.port = 0;
    settings.public_url = None;
    let in_process = Application::build(settings).await.unwrap();
    let origin = in_process.state().settings.public_url.clone().unwrap();
    let today = chrono::Utc::now().date_naive();
    let ep = in_process.endpoint();
    assert_eq!(
        seed_demo_calls(&ep, &origin, &tenants, password, today)
            .await
            .unwrap(),
        1
    );
    // Once: acme has suppliers now.
    assert_eq!(
        seed_demo_calls(&ep, &origin, &tenants, password, today)
            .await
            .unwrap(),
        0
    );

    let c = app.login_with("manager@acme.test", password).await;
    let (_, suppliers) = c.get("/api/suppliers").await;
    assert_eq!(
        suppliers["suppliers"].as_array().unwrap().len(),
        2,
        "{suppliers}"
    );
    let (_, customers) = c.get("/api/customers").await;
    assert_eq!(
        customers["customers"].as_array().unwrap().len(),
        2,
        "{customers}"
    );
    let (_, orders) = c.get("/api/purchase-orders").await;
    let mut statuses: Vec<&str> = orders["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["status"].as_str().unwrap())
        .collect();
    statuses.sort_unstable();
    assert_eq!(statuses, ["draft", "partially_received"], "{orders}");
    let (_, made) = c.get("/api/manufacturing-orders").await;
    let made = &made["orders"][0];
    assert_eq!(made["status"], "completed", "{made}");
    let (_, shipments) = c.get("/api/shipments").await;
    let shipment = &shipments["shipments"][0];
    assert_eq!(shipment["status"], "shipped", "{shipment}");
    let ssccs: Vec<&str> = shipment["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["sscc"].as_str().unwrap())
        .collect();
    assert_eq!(ssccs.len(), 2, "{shipment}");
    assert!(
        ssccs
            .iter()
            .all(|s| s.len() == 18 && s[1..].starts_with("0614141")),
        "{ssccs:?}"
    );
    // The gift boxes left: 12 made, 6 shipped.
    let (_, stock) = c.get("/api/stock").await;
    let gift: Vec<&str> = stock["stock"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["lot_number"] == "GIFT-2611")
        .map(|r| r["on_hand"].as_str().unwrap())
        .collect();
    assert_eq!(gift, ["6"], "{stock}");
    // Honey went into the boxes: 12 left, 88 to reorder. Tea: 120 more
    // at 2.45, 22 gone (the first received, at 2.40, by FIFO).
    let (_, below) = c.get("/api/replenishment").await;
    assert_eq!(below["lines"][0]["suggested_quantity"], "88", "{below}");
    let (_, value) = c.get("/api/stock/valuation").await;
    let tea = value["products"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["product_name"] == "Sencha green tea 100 g")
        .cloned()
        .unwrap();
    assert_eq!(tea["values"][0]["value"], "691.20", "{value}");
    // Each call was audited as the first admin, as a user's would be.
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM platform.audit_log
          WHERE actor_email = 'admin@acme.test'
            AND split_part(action, '.', 1) IN
                ('supplier', 'customer', 'procurement', 'manufacturing', 'logistics')",
    )
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert!(audited >= 12, "{audited}");
}
