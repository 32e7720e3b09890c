//! Client A's companies (issue 10): the CIN checked part by part, creating,
//! listing and one company's overview, who may call them, isolation, the
//! audit record, and products linked to a company.

use brandops::accounts::Role;
use brandops::tenants::TenantKind;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated_between, create_product, gtin, repo_root, unique,
};

const CIN: &str = "L24230MH1950PLC008311";

fn company(cin: &str, name: &str) -> Value {
    json!({"cin": cin, "name": name, "registered_address": "Plot 12, MIDC, Andheri East, Mumbai 400093"})
}

async fn create(c: &Client, cin: &str, name: &str) -> Value {
    let (status, body) = c.post("/api/companies", company(cin, name)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

async fn client_a(app: &TestApp) -> (TestTenant, Client) {
    let t = app.tenant_named("clientA", TenantKind::Client).await;
    let admin = app.login(&t.admin).await;
    (t, admin)
}

#[tokio::test]
async fn each_part_of_a_cin_is_checked_and_named() {
    let app = TestApp::spawn().await;
    let (a, admin) = client_a(&app).await;
    for (cin, part) in [
        ("L24230MH1950PLC00831", "exactly 21 characters"),
        ("L24230MH1950PLC0083111", "exactly 21 characters"),
        ("l24230mh1950plc008311", "capital letters"),
        ("X24230MH1950PLC008311", "listing status"),
        ("L2423XMH1950PLC008311", "industry code"),
        ("L24230ZZ1950PLC008311", "state code"),
        ("L24230MH1849PLC008311", "year of incorporation"),
        ("L24230MH2999PLC008311", "year of incorporation"),
        ("L24230MH1950XYZ008311", "ownership type"),
        ("L24230MH1950PLC00831X", "registration number"),
    ] {
        let (status, err) = admin.post("/api/companies", company(cin, "Acme")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{cin}: {err}");
        assert_eq!(err["code"], "invalid_input", "{cin}");
        let message = err["error"].as_str().unwrap();
        assert!(message.contains(part), "{cin}: {message}");
        assert!(message.starts_with("CIN "), "{cin}: {message}");
    }
    let (status, err) = admin.post("/api/companies", company(CIN, "  ")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let (status, err) = admin
        .post(
            "/api/companies",
            json!({"cin": CIN, "name": "Acme", "registered_address": ""}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert_eq!(app.rows(&a, "companies").await, 0);
    assert_eq!(app.audited(&a, "company.added").await, 0);
}

#[tokio::test]
async fn admins_add_companies_employees_read_them() {
    let app = TestApp::spawn().await;
    let (a, admin) = client_a(&app).await;
    let employee = app.login(&app.account(&a, Role::Employee).await).await;

    let (status, list) = employee.get("/api/companies").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["companies"], json!([]));

    let first = create(
        &admin,
        "U72200KA2007PTC041799",
        "<b>Beta</b> Pharma Pvt Ltd",
    )
    .await;
    let second = create(&admin, CIN, "Alpha Laboratories Ltd").await;
    assert_eq!(second["cin"], CIN);
    assert_eq!(
        second["registered_address"],
        "Plot 12, MIDC, Andheri East, Mumbai 400093"
    );
    // Markup is kept as text.
    assert_eq!(first["name"], "<b>Beta</b> Pharma Pvt Ltd");
    assert_eq!(app.audited(&a, "company.added").await, 2);
    let (target, detail): (String, Value) = sqlx::query_as(
        "SELECT target, detail FROM platform.audit_log
         WHERE action = 'company.added' AND tenant_id = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(a.tenant.id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(target, second["id"].as_str().unwrap());
    assert_eq!(detail["cin"], CIN);

    // Listed by CIN, for employees too.
    let (status, list) = employee.get("/api/companies").await;
    assert_eq!(status, StatusCode::OK);
    let cins: Vec<_> = list["companies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cin"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(cins, [CIN, "U72200KA2007PTC041799"]);

    // A CIN is registered once.
    let (status, err) = admin.post("/api/companies", company(CIN, "Again")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert_eq!(
        err["error"],
        format!("A company with the CIN {CIN} is already registered in your organisation.")
    );
    assert_eq!(app.rows(&a, "companies").await, 2);
    assert_eq!(app.audited(&a, "company.added").await, 2);

    // Employees may not add one.
    let (status, err) = employee
        .post("/api/companies", company("U74999DL2015OPC123456", "Gamma"))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    assert_eq!(err["code"], "forbidden");
    assert_eq!(app.rows(&a, "companies").await, 2);

    // An empty company's overview, for employees too.
    let id = second["id"].as_str().unwrap();
    let (status, overview) = employee.get(&format!("/api/companies/{id}/overview")).await;
    assert_eq!(status, StatusCode::OK, "{overview}");
    assert_eq!(overview["company"]["cin"], CIN);
    assert_eq!(overview["products"], json!([]));
    assert_eq!(overview["batches"], json!([]));
    assert_eq!(
        overview["codes"],
        json!({"generated": 0, "printed": 0, "scanned": 0})
    );
    for path in [
        "/api/companies/00000000-0000-0000-0000-000000000000/overview",
        "/api/companies/not-an-id/overview",
    ] {
        let (status, err) = employee.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {err}");
    }
}

#[tokio::test]
async fn nobody_but_client_a_reaches_companies() {
    let app = TestApp::spawn().await;
    let (_, a_admin) = client_a(&app).await;
    let id = create(&a_admin, CIN, "Alpha Laboratories Ltd").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let client_b = app.tenant_named("clientB", TenantKind::Client).await;
    let brand = app.brand().await;
    let callers = [
        app.login(&client_b.admin).await,
        app.login(&app.account(&client_b, Role::Employee).await)
            .await,
        app.login(&brand.admin).await,
        app.login(&app.account(&brand, Role::Worker).await).await,
        app.login(&app.platform_admin().await).await,
    ];
    for c in &callers {
        for (method, path, body) in [
            (Method::GET, "/api/companies".to_string(), None),
            (
                Method::POST,
                "/api/companies".to_string(),
                Some(company("U72200KA2007PTC041799", "Intruder")),
            ),
            (Method::GET, format!("/api/companies/{id}/overview"), None),
        ] {
            let (status, err) = c.send(method, &path, body).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{} {path}: {err}", c.user);
            assert_eq!(err["code"], "forbidden");
            assert!(!err.to_string().contains(CIN));
        }
    }
    let (status, _) = app.client().get("/api/companies").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// A copy of the access policy that also lets client B's admins call the
/// companies operations: isolation must hold even where the policy lets
/// another tenant in.
fn tenants_dir_letting_client_b_in() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(unique("companies-policy"));
    std::fs::create_dir_all(dir.join("access")).unwrap();
    let source = repo_root().join("tenants/access");
    std::fs::copy(source.join("model.conf"), dir.join("access/model.conf")).unwrap();
    let mut policy = std::fs::read_to_string(source.join("policy.csv")).unwrap();
    for op in ["listCompanies", "createCompany", "getCompanyOverview"] {
        policy.push_str(&format!("p, admin, client:clientB, {op}, call\n"));
    }
    std::fs::write(dir.join("access/policy.csv"), policy).unwrap();
    dir
}

#[tokio::test]
async fn another_client_never_sees_the_companies() {
    let dir = tenants_dir_letting_client_b_in();
    let app = TestApp::spawn_with(|s| s.tenants_dir = dir.clone()).await;
    let (_, a) = client_a(&app).await;
    let b = app.tenant_named("clientB", TenantKind::Client).await;
    let b = app.login(&b.admin).await;
    assert_isolated_between(
        &a,
        &b,
        async |a: &Client| {
            create(a, CIN, "Alpha Laboratories Ltd").await["id"]
                .as_str()
                .unwrap()
                .to_string()
        },
        async |c: &Client, id: &str| {
            vec![
                c.get("/api/companies").await,
                c.get(&format!("/api/companies/{id}/overview")).await,
            ]
        },
    )
    .await;
    // B may register the same CIN in its own organisation: A's is not
    // visible to it, not even as a conflict.
    create(&b, CIN, "B's own record").await;
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn a_company_that_fails_to_be_stored_leaves_no_audit_record() {
    let app = TestApp::spawn().await;
    let (a, admin) = client_a(&app).await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {}.companies ADD CONSTRAINT test_refuses_doomed CHECK (name <> 'Doomed')",
        a.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    let (status, err) = admin.post("/api/companies", company(CIN, "Doomed")).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{err}");
    assert_eq!(app.rows(&a, "companies").await, 0);
    assert_eq!(app.audited(&a, "company.added").await, 0);
    create(&admin, CIN, "Fine").await;
    assert_eq!(app.audited(&a, "company.added").await, 1);
}

/// Stores, as the owner, a product of `company` in the tenant with a lot of
/// 5 codes, a print job that printed 4 labels (and a reprint of 2) and 3 of
/// them scanned. (Stored directly: a print job caught while it runs, and
/// scans without the public resolver; `labels::a_client_admin_prints_*`
/// prints a client's codes through the API.)
async fn product_with_history(app: &TestApp, t: &TestTenant, company: &str, name: &str) {
    let s = &t.schema;
    let gtin14 = format!("0{}", gtin());
    let sql = format!(
        "WITH p AS (INSERT INTO {s}.products (id, product_name, skuid, gtin, company_id)
                    VALUES (gen_random_uuid(), '{name}', '{sku}', '{gtin}', '{company}') RETURNING id, gtin),
              l AS (INSERT INTO {s}.lots (id, product_id, number, manufactured_on, expires_on)
                    SELECT gen_random_uuid(), p.id, 'LOT-{name}', '2026-01-01', '2028-01-01' FROM p RETURNING id, product_id),
              j AS (INSERT INTO {s}.code_jobs (id, product_id, lot_id, gtin, resolver_base, quantity, generated, status)
                    SELECT gen_random_uuid(), l.product_id, l.id, p.gtin, 'https://id.example', 5, 5, 'done'
                    FROM l JOIN p ON p.id = l.product_id RETURNING id, product_id),
              t AS (INSERT INTO {s}.label_templates (id, name, design)
                    VALUES (gen_random_uuid(), 'T {name}', '{{}}') RETURNING id),
              pj AS (INSERT INTO {s}.print_jobs (id, code_job_id, template_id, design, format, status, total, printed)
                     SELECT '{pj}', j.id, t.id, '{{}}', 'pdf', 'running', 5, 4 FROM j, t RETURNING id),
              rj AS (INSERT INTO {s}.print_jobs (id, code_job_id, template_id, design, format, status, total, printed, reprint_of)
                     SELECT gen_random_uuid(), j.id, t.id, '{{}}', 'pdf', 'running', 2, 2, pj.id FROM j, t, pj RETURNING id)
         INSERT INTO {s}.code_scan_state (serial, product_id, scans, first_at, last_at)
         SELECT {base} + g, j.product_id, 1, now(), now() FROM j, generate_series(1, 3) g",
        sku = unique("SKU"),
        gtin = gtin14,
        pj = uuid::Uuid::new_v4(),
        base = (uuid::Uuid::new_v4().as_u128() % 1_000_000_000) as i64 * 10,
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(&app.owner)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_overview_shows_the_company_products_batches_and_codes() {
    let app = TestApp::spawn().await;
    let (a, admin) = client_a(&app).await;
    let alpha = create(&admin, CIN, "Alpha Laboratories Ltd").await;
    let beta = create(&admin, "U72200KA2007PTC041799", "Beta Pharma Pvt Ltd").await;
    let alpha_id = alpha["id"].as_str().unwrap();
    product_with_history(&app, &a, alpha_id, "Paracetamol").await;
    product_with_history(&app, &a, beta["id"].as_str().unwrap(), "Ibuprofen").await;

    let employee = app.login(&app.account(&a, Role::Employee).await).await;
    let (status, overview) = employee
        .get(&format!("/api/companies/{alpha_id}/overview"))
        .await;
    assert_eq!(status, StatusCode::OK, "{overview}");
    let products = overview["products"].as_array().unwrap();
    assert_eq!(products.len(), 1, "{overview}");
    assert_eq!(products[0]["product_name"], "Paracetamol");
    assert!(products[0]["gtin"].as_str().unwrap().len() == 14);
    let batches = overview["batches"].as_array().unwrap();
    assert_eq!(batches.len(), 1, "{overview}");
    assert_eq!(batches[0]["number"], "LOT-Paracetamol");
    assert_eq!(batches[0]["product_name"], "Paracetamol");
    assert_eq!(batches[0]["manufactured_on"], "2026-01-01");
    assert_eq!(batches[0]["expires_on"], "2028-01-01");
    assert_eq!(batches[0]["codes"], 5);
    assert_eq!(
        overview["codes"],
        json!({"generated": 5, "printed": 4, "scanned": 3})
    );
}

#[tokio::test]
async fn a_product_is_linked_only_to_a_company_of_its_own_organisation() {
    let app = TestApp::spawn().await;
    let (_, a_admin) = client_a(&app).await;
    let foreign = create(&a_admin, CIN, "Alpha Laboratories Ltd").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    // A brand with a company of its own (stored as the owner: brands do not
    // call the companies operations).
    let brand = app.brand().await;
    let own = uuid::Uuid::new_v4().to_string();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {}.companies (id, cin, name, registered_address) VALUES ($1::uuid, $2, 'Own', 'Pune')",
        brand.schema
    )))
    .bind(&own)
    .bind("U24100MH2010PTC000001")
    .execute(&app.owner)
    .await
    .unwrap();
    let admin = app.login(&brand.admin).await;

    // Another organisation's company, or none at all: refused, nothing stored.
    for company in [foreign.as_str(), "00000000-0000-0000-0000-000000000000"] {
        let (status, err) = admin
            .post(
                "/api/products",
                json!({"product_name": "P", "skuid": unique("SKU"), "gtin": gtin(), "company_id": company}),
            )
            .await;
        // Well formed, naming nothing of the caller's: a 409 (not a 400).
        assert_eq!(status, StatusCode::CONFLICT, "{err}");
        assert_eq!(
            err["error"],
            "No such company in your organisation: company_id must name one of its companies (see the company list)."
        );
        assert!(!err.to_string().contains(&foreign));
    }
    assert_eq!(app.rows(&brand, "products").await, 0);

    // Its own company: linked on creation, or later.
    let (status, p) = admin
        .post(
            "/api/products",
            json!({"product_name": "P", "skuid": unique("SKU"), "gtin": gtin(), "company_id": own}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    assert_eq!(p["company_id"], own);
    let other = create_product(&admin, "Q", "SKU").await;
    let (status, q) = admin.get(&format!("/api/products/{}", other.id)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(q.get("company_id").is_none(), "{q}");
    let path = format!("/api/products/{}", other.id);
    let (status, err) = admin.patch(&path, json!({"company_id": foreign})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    let (status, q) = admin.patch(&path, json!({"company_id": own})).await;
    assert_eq!(status, StatusCode::OK, "{q}");
    assert_eq!(q["company_id"], own);
    // Other changes keep the company.
    let (status, q) = admin.patch(&path, json!({"product_name": "Q2"})).await;
    assert_eq!(status, StatusCode::OK, "{q}");
    assert_eq!(q["company_id"], own);
}

/// A client's dashboard overview (issue 21): the codes generated and the
/// batches of the signed-in client's organisation alone, for client B
/// (which has no companies) as for client A; another client's never appear.
#[tokio::test]
async fn a_client_overview_counts_its_own_codes_only() {
    let app = TestApp::spawn().await;
    let (_, a) = client_a(&app).await;
    let b_tenant = app.tenant_named("clientB", TenantKind::Client).await;
    let b = app.login(&b_tenant.admin).await;
    let lot_a = unique("LA").replace('-', "");
    let lot_b = unique("LB").replace('-', "");
    let pa = create_product(&a, "Paracetamol A", "OVA").await;
    let pb = create_product(&b, "Paracetamol B", "OVB").await;
    crate::helpers::generate_codes(
        &a,
        json!({"product_id": pa.id, "quantity": 7, "lot": {"number": lot_a}}),
    )
    .await;
    crate::helpers::generate_codes(
        &b,
        json!({"product_id": pb.id, "quantity": 3, "lot": {"number": lot_b}}),
    )
    .await;

    let (status, overview) = b.get("/api/client-overview").await;
    assert_eq!(status, StatusCode::OK, "{overview}");
    assert_eq!(overview["codes"]["generated"], 3, "{overview}");
    assert_eq!(overview["codes"]["printed"], 0);
    assert_eq!(overview["codes"]["scanned"], 0);
    assert_eq!(overview["more_batches"], false);
    let batches = overview["batches"].as_array().unwrap();
    assert_eq!(batches.len(), 1, "{overview}");
    assert_eq!(batches[0]["number"], lot_b);
    assert_eq!(batches[0]["product_name"], "Paracetamol B");
    assert_eq!(batches[0]["codes"], 3);
    assert!(!overview.to_string().contains(&lot_a), "{overview}");

    let employee = app
        .login(&app.account(&b_tenant, Role::Employee).await)
        .await;
    let (status, seen) = employee.get("/api/client-overview").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(seen, overview);

    let (status, overview) = a.get("/api/client-overview").await;
    assert_eq!(status, StatusCode::OK, "{overview}");
    assert_eq!(overview["codes"]["generated"], 7, "{overview}");
    assert!(!overview.to_string().contains(&lot_b), "{overview}");

    // Brands have no client overview.
    let brand = app.login(&app.brand().await.admin).await;
    let (status, _) = brand.get("/api/client-overview").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
