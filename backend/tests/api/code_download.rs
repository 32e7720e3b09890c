//! The pharma clients' code downloads (issue 10): client users create
//! products and code jobs (client A's `/gme/codeDownload`), and client B's
//! bulk download of chosen batches or a date range as one ZIP of CSVs with a
//! manifest (`GET /api/codes/bulk.zip`, its `/pmbi/codeDownload`): the ZIP's
//! contents, bad and empty selections, who may call it, and isolation.

use std::io::Read;

use brandops::accounts::Role;
use brandops::tenants::TenantKind;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated_between, create_product, download, generate_codes,
    gtin, repo_root, unique,
};

/// Starts a job of `quantity` codes of `product` in lot `lot` (with dates)
/// and waits until it is done: answers the job as the API shows it and its
/// CSV rows.
async fn job_in_lot(c: &Client, product: &str, quantity: u32, lot: &str) -> (Value, Vec<String>) {
    let job = generate_codes(
        c,
        json!({"product_id": product, "quantity": quantity,
               "lot": {"number": lot, "manufactured_on": "2026-01-01", "expires_on": "2028-12-31"}}),
    )
    .await;
    let (status, answer) = c.get(&format!("/api/code-jobs/{}", job.id)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let rows = job.rows.iter().map(|r| r.join(",")).collect();
    (answer, rows)
}

/// The files of a ZIP, by name.
fn unzip(bytes: Vec<u8>) -> std::collections::BTreeMap<String, String> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut files = std::collections::BTreeMap::new();
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).unwrap();
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        files.insert(file.name().unwrap().to_string(), text);
    }
    files
}

/// Downloads the bulk ZIP of `query`: its status and, when it is a ZIP, its
/// files; otherwise the error's JSON as the only "file", `error`.
async fn bulk(c: &Client, query: &str) -> (StatusCode, std::collections::BTreeMap<String, String>) {
    let (status, kind, bytes) = download(c, &format!("/api/codes/bulk.zip?{query}")).await;
    if status == StatusCode::OK {
        assert_eq!(kind, "application/zip");
        (status, unzip(bytes))
    } else {
        let text = String::from_utf8(bytes).unwrap();
        (status, [("error".to_string(), text)].into_iter().collect())
    }
}

/// What the bulk ZIP of `query` would hold (`GET /api/codes/bulk`).
async fn summary(c: &Client, query: &str) -> (StatusCode, Value) {
    c.get(&format!("/api/codes/bulk?{query}")).await
}

fn error_of(files: &std::collections::BTreeMap<String, String>) -> Value {
    serde_json::from_str(&files["error"]).unwrap()
}

async fn client_b_tenant(app: &TestApp) -> (TestTenant, Client, Client) {
    let t = app.tenant_named("clientB", TenantKind::Client).await;
    let admin = app.login(&t.admin).await;
    let employee = app.login(&app.account(&t, Role::Employee).await).await;
    (t, admin, employee)
}

async fn client_b(app: &TestApp) -> (Client, Client) {
    let (_, admin, employee) = client_b_tenant(app).await;
    (admin, employee)
}

#[tokio::test]
async fn client_users_create_products_and_code_jobs() {
    let app = TestApp::spawn().await;
    let a = app.tenant_named("clientA", TenantKind::Client).await;
    let admin = app.login(&a.admin).await;
    let employee = app.login(&app.account(&a, Role::Employee).await).await;
    let (status, company) = admin
        .post(
            "/api/companies",
            json!({"cin": "L24230MH1995PLC093214", "name": "A Labs", "registered_address": "Mumbai"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{company}");
    let company = company["id"].as_str().unwrap();

    // The admin adds a product of one of its companies and generates codes.
    let (status, product) = admin
        .post(
            "/api/products",
            json!({"product_name": "Paracetamol 500", "skuid": unique("PCM"), "gtin": gtin(), "company_id": company}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{product}");
    assert_eq!(product["company_id"], company);
    let product = product["id"].as_str().unwrap();
    let (job, rows) = job_in_lot(&admin, product, 25, "B-0001").await;
    assert_eq!(job["generated"], 25);
    assert_eq!(rows.len(), 25);
    assert!(job["lot_id"].is_string(), "{job}");

    // The employee reads them and downloads the codes, but adds nothing.
    let (status, list) = employee
        .get("/api/product-handler?action=allproducts")
        .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let (status, read) = employee.get(&format!("/api/products/{product}")).await;
    assert_eq!(status, StatusCode::OK, "{read}");
    let (status, jobs) = employee
        .get(&format!("/api/code-jobs?product_id={product}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{jobs}");
    assert_eq!(jobs["jobs"][0]["id"], job["id"]);
    let id = job["id"].as_str().unwrap();
    for format in ["csv", "zip"] {
        let (status, _, _) =
            download(&employee, &format!("/api/code-jobs/{id}/codes.{format}")).await;
        assert_eq!(status, StatusCode::OK, "{format}");
    }
    let (status, err) = employee
        .post(
            "/api/code-jobs",
            json!({"product_id": product, "quantity": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    let (status, err) = employee
        .post(
            "/api/products",
            json!({"product_name": "X", "skuid": unique("X"), "gtin": gtin()}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    let (status, err) = employee
        .patch(
            &format!("/api/products/{product}"),
            json!({"product_name": "Y"}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    assert_eq!(app.rows(&a, "products").await, 1);
    assert_eq!(app.rows(&a, "code_jobs").await, 1);

    // Client B's admin too (it has no companies).
    let (b_admin, _) = client_b(&app).await;
    let p = create_product(&b_admin, "Ibuprofen", "IBU").await;
    let (job, _) = job_in_lot(&b_admin, &p.id, 3, "X1").await;
    assert_eq!(job["status"], "done");
}

#[tokio::test]
async fn the_bulk_zip_holds_a_csv_per_job_and_a_manifest() {
    let app = TestApp::spawn().await;
    let (admin, employee) = client_b(&app).await;
    let first = create_product(&admin, "Amoxicillin <b>250</b>", "AMX").await;
    let second = create_product(&admin, "Cetirizine", "CTZ").await;
    let (job1, rows1) = job_in_lot(&admin, &first.id, 30, "A/26:1").await;
    let (job2, rows2) = job_in_lot(&admin, &first.id, 20, "A/26:1").await;
    let (job3, rows3) = job_in_lot(&admin, &second.id, 40, "C-7").await;
    // A job without a lot belongs to no batch, but to the day.
    let plain = generate_codes(&admin, json!({"product_id": second.id, "quantity": 5})).await;
    let lot_a = job1["lot_id"].as_str().unwrap().to_string();
    assert_eq!(job2["lot_id"], lot_a.as_str());
    let lot_c = job3["lot_id"].as_str().unwrap().to_string();

    // One batch: its two jobs, oldest first, each a CSV as codes.csv.
    let (status, files) = bulk(&employee, &format!("lot_id={lot_a}")).await;
    assert_eq!(status, StatusCode::OK, "{files:?}");
    assert_eq!(files.len(), 3, "{:?}", files.keys());
    let manifest: Value = serde_json::from_str(&files["manifest.json"]).unwrap();
    assert_eq!(manifest["selection"], json!({"lot_ids": [lot_a]}));
    assert_eq!(manifest["total_count"], 50);
    assert_eq!(manifest["still_generating"], json!([]));
    let listed = manifest["files"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    for (entry, (job, rows)) in listed.iter().zip([(&job1, &rows1), (&job2, &rows2)]) {
        let name = entry["file"].as_str().unwrap();
        // The lot's `/` and `:` do not make folders or odd names.
        assert_eq!(
            name,
            format!("{}_A_26_1_{}.csv", first.gtin, job["id"].as_str().unwrap())
        );
        let csv = &files[name];
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some("gtin,serial,lot,expiry,uri"));
        assert_eq!(&lines.map(str::to_string).collect::<Vec<_>>(), rows);
        assert_eq!(entry["job_id"], job["id"]);
        assert_eq!(entry["product"]["id"], first.id.as_str());
        assert_eq!(entry["product"]["name"], "Amoxicillin <b>250</b>");
        assert_eq!(entry["product"]["skuid"], first.skuid.as_str());
        assert_eq!(entry["gtin"], first.gtin.as_str());
        assert_eq!(
            entry["lot"],
            json!({"number": "A/26:1", "manufactured_on": "2026-01-01", "expires_on": "2028-12-31"})
        );
        assert_eq!(entry["count"], rows.len());
        assert_eq!(entry["created_at"], job["created_at"]);
        assert_eq!(entry["sha256"], hex::encode(Sha256::digest(csv.as_bytes())));
    }
    // The same CSV as the job's own download.
    let (_, _, own) = download(
        &admin,
        &format!("/api/code-jobs/{}/codes.csv", job1["id"].as_str().unwrap()),
    )
    .await;
    assert_eq!(
        files[listed[0]["file"].as_str().unwrap()].as_bytes(),
        own.as_slice()
    );

    // Two batches, named twice: each once.
    let (status, files) = bulk(
        &admin,
        &format!("lot_id={lot_c}&lot_id={lot_a}&lot_id={lot_c}"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{files:?}");
    let manifest: Value = serde_json::from_str(&files["manifest.json"]).unwrap();
    assert_eq!(manifest["selection"], json!({"lot_ids": [lot_c, lot_a]}));
    assert_eq!(manifest["files"].as_array().unwrap().len(), 3);
    assert_eq!(manifest["total_count"], 90);
    assert_eq!(files.len(), 4);

    // Today's jobs: all four, the one without a lot too.
    let today = chrono::Utc::now().date_naive();
    let (status, files) = bulk(&admin, &format!("from={today}&to={today}")).await;
    assert_eq!(status, StatusCode::OK, "{files:?}");
    let manifest: Value = serde_json::from_str(&files["manifest.json"]).unwrap();
    assert_eq!(
        manifest["selection"],
        json!({"from": today.to_string(), "to": today.to_string()})
    );
    assert_eq!(manifest["total_count"], 95);
    let last = &manifest["files"][3];
    assert_eq!(last["job_id"], plain.id.as_str());
    assert_eq!(last["lot"], Value::Null);
    assert_eq!(last["file"], format!("{}_{}.csv", second.gtin, plain.id));
    assert_eq!(rows3.len(), 40);

    // What each download holds, before downloading it.
    for (query, expected) in [
        (
            format!("lot_id={lot_a}"),
            json!({"files": 2, "codes": 50, "pending": 0}),
        ),
        (
            format!("lot_id={lot_c}&lot_id={lot_a}&lot_id={lot_c}"),
            json!({"files": 3, "codes": 90, "pending": 0}),
        ),
        (
            format!("from={today}&to={today}"),
            json!({"files": 4, "codes": 95, "pending": 0}),
        ),
    ] {
        let (status, got) = summary(&employee, &query).await;
        assert_eq!(status, StatusCode::OK, "{query}: {got}");
        assert_eq!(got, expected, "{query}");
    }
    // The batches to choose from: the one with the newest job first, with
    // its product and codes.
    let (status, lots) = employee.get("/api/codes/lots").await;
    assert_eq!(status, StatusCode::OK, "{lots}");
    assert_eq!(lots["more"], false);
    let lots = lots["lots"].as_array().unwrap();
    assert_eq!(lots.len(), 2, "{lots:?}");
    assert_eq!(lots[0]["id"], lot_c.as_str());
    assert_eq!(lots[0]["number"], "C-7");
    assert_eq!(lots[0]["product_name"], "Cetirizine");
    assert_eq!(lots[0]["gtin"], second.gtin.as_str());
    assert_eq!(lots[0]["expires_on"], "2028-12-31");
    assert_eq!(
        (&lots[0]["codes"], &lots[0]["jobs"], &lots[0]["pending"]),
        (&json!(40), &json!(1), &json!(0))
    );
    assert_eq!(lots[1]["id"], lot_a.as_str());
    assert_eq!(lots[1]["product_name"], "Amoxicillin <b>250</b>");
    assert_eq!(
        (&lots[1]["codes"], &lots[1]["jobs"], &lots[1]["pending"]),
        (&json!(50), &json!(2), &json!(0))
    );
    assert_eq!(lots[1]["last_job_at"], job2["created_at"]);
}

#[tokio::test]
async fn bad_and_empty_selections_are_refused_clearly() {
    let app = TestApp::spawn().await;
    let (b, admin, _) = client_b_tenant(&app).await;
    let p = create_product(&admin, "Metformin", "MET").await;
    let (job, _) = job_in_lot(&admin, &p.id, 2, "M-1").await;
    let lot = job["lot_id"].as_str().unwrap().to_string();
    let unknown = uuid::Uuid::new_v4().to_string();
    let many: Vec<String> = (0..101)
        .map(|_| format!("lot_id={}", uuid::Uuid::new_v4()))
        .collect();
    for (query, status, message) in [
        (
            "",
            400,
            "Choose the batches (lot_id) or the date range (from and to) whose codes to download.",
        ),
        (
            &format!("lot_id={lot}&from=2026-01-01&to=2026-01-31") as &str,
            400,
            "Choose batches (lot_id) or a date range (from and to), not both.",
        ),
        (
            "from=2026-01-01",
            400,
            "A date range needs both from and to.",
        ),
        ("to=2026-01-01", 400, "A date range needs both from and to."),
        (
            "from=2026-02-01&to=2026-01-01",
            400,
            "from must not be after to.",
        ),
        (
            &many.join("&"),
            400,
            "Choose at most 100 batches (lot_id) at once.",
        ),
        (
            &format!("lot_id={unknown}"),
            404,
            "One or more of the chosen batches is not in your organisation.",
        ),
        (
            &format!("lot_id={lot}&lot_id={unknown}"),
            404,
            "One or more of the chosen batches is not in your organisation.",
        ),
        (
            "from=2001-01-01&to=2001-12-31",
            404,
            "No codes have been generated from 2001-01-01 to 2001-12-31: there is nothing to download.",
        ),
    ] {
        let (got, files) = bulk(&admin, query).await;
        assert_eq!(got.as_u16(), status, "{query}: {files:?}");
        let err = error_of(&files);
        assert_eq!(err["error"], message, "{query}");
        assert!(!err.to_string().contains(&unknown), "{query}: {err}");
        // The summary answers as the download would.
        let (got, err) = summary(&admin, query).await;
        assert_eq!(got.as_u16(), status, "summary {query}: {err}");
        assert_eq!(err["error"], message, "summary {query}");
    }
    // Malformed values are the contract's 400s.
    for query in [
        "lot_id=not-a-uuid",
        "from=2026-13-01&to=2026-12-31",
        "from=yesterday&to=2026-01-01",
    ] {
        let (got, files) = bulk(&admin, query).await;
        assert_eq!(got, StatusCode::BAD_REQUEST, "{query}: {files:?}");
        assert!(error_of(&files)["error"].is_string(), "{query}");
    }
    // A batch whose only job is still generating: nothing to download yet.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {}.code_jobs SET status = 'running'",
        b.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    let (got, files) = bulk(&admin, &format!("lot_id={lot}")).await;
    assert_eq!(got, StatusCode::CONFLICT, "{files:?}");
    assert_eq!(
        error_of(&files)["error"],
        "The codes for the chosen batch are still being generated. Download them when the jobs are done."
    );
    let (got, err) = summary(&admin, &format!("lot_id={lot}")).await;
    assert_eq!(got, StatusCode::CONFLICT, "{err}");
    let (_, lots) = admin.get("/api/codes/lots").await;
    assert_eq!(lots["lots"][0]["pending"], 1, "{lots}");
    assert_eq!(lots["lots"][0]["codes"], 0, "{lots}");
}

#[tokio::test]
async fn only_client_b_members_download_in_bulk() {
    let app = TestApp::spawn().await;
    let (admin, employee) = client_b(&app).await;
    let p = create_product(&admin, "Losartan", "LOS").await;
    let (job, _) = job_in_lot(&admin, &p.id, 2, "L-1").await;
    let query = format!("lot_id={}", job["lot_id"].as_str().unwrap());
    for c in [&admin, &employee] {
        assert_eq!(bulk(c, &query).await.0, StatusCode::OK);
        assert_eq!(summary(c, &query).await.0, StatusCode::OK);
    }
    let a = app.tenant_named("clientA", TenantKind::Client).await;
    let brand = app.brand().await;
    let others = [
        app.login(&a.admin).await,
        app.login(&app.account(&a, Role::Employee).await).await,
        app.login(&brand.admin).await,
        app.login(&app.account(&brand, Role::Manager).await).await,
        app.login(&app.platform_admin().await).await,
    ];
    for c in &others {
        let (status, files) = bulk(c, &query).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{files:?}");
        assert_eq!(error_of(&files)["code"], "forbidden");
        let (status, err) = summary(c, &query).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{err}");
    }
    let (status, files) = bulk(&app.client(), &query).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{files:?}");
    assert_eq!(
        summary(&app.client(), &query).await.0,
        StatusCode::UNAUTHORIZED
    );
}

/// A copy of the policy that also lets client A download in bulk: the
/// isolation must hold even where the policy lets another tenant in.
fn tenants_dir_letting_client_a_in() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(unique("bulk-policy"));
    std::fs::create_dir_all(dir.join("access")).unwrap();
    let source = repo_root().join("tenants/access");
    std::fs::copy(source.join("model.conf"), dir.join("access/model.conf")).unwrap();
    let mut policy = std::fs::read_to_string(source.join("policy.csv")).unwrap();
    policy.push_str("p, admin, client:clientA, downloadCodesBulk, call\n");
    policy.push_str("p, admin, client:clientA, summarizeCodesBulk, call\n");
    std::fs::write(dir.join("access/policy.csv"), policy).unwrap();
    dir
}

#[tokio::test]
async fn another_clients_lots_never_leak() {
    let dir = tenants_dir_letting_client_a_in();
    let app = TestApp::spawn_with(|s| s.tenants_dir = dir.clone()).await;
    let (b, _) = client_b(&app).await;
    let a = app.tenant_named("clientA", TenantKind::Client).await;
    let a = app.login(&a.admin).await;
    let today = chrono::Utc::now().date_naive();
    assert_isolated_between(
        &b,
        &a,
        async |b: &Client| {
            let p = create_product(b, "Atorvastatin", "ATV").await;
            let (job, _) = job_in_lot(b, &p.id, 3, "SECRET-1").await;
            job["lot_id"].as_str().unwrap().to_string()
        },
        async |c: &Client, lot: &str| {
            let mut answers = Vec::new();
            for query in [format!("lot_id={lot}"), format!("from={today}&to={today}")] {
                let (status, files) = bulk(c, &query).await;
                let shown = match files.get("manifest.json") {
                    Some(manifest) => serde_json::from_str(manifest).unwrap(),
                    None => error_of(&files),
                };
                answers.push((status, shown));
            }
            for query in [format!("lot_id={lot}"), format!("from={today}&to={today}")] {
                answers.push(summary(c, &query).await);
            }
            for path in ["/api/code-jobs", "/api/codes/lots"] {
                answers.push(c.get(path).await);
            }
            answers
        },
    )
    .await;
    std::fs::remove_dir_all(dir).ok();
}

/// A lot number a spreadsheet would run as a formula (GS1's character set
/// allows `=`, `+` and `-`) is written neutralised in every code CSV: the
/// job's `codes.csv`, the `codes.csv` in its ZIP and the bulk ZIP's CSVs;
/// the Digital Link URIs stay exact (issue 20).
#[tokio::test]
async fn lot_numbers_are_never_formulas_in_code_csvs() {
    let app = TestApp::spawn().await;
    let (admin, _) = client_b(&app).await;
    let product = create_product(&admin, "Formula", "FRM").await;
    let lot = "-1+2=3";
    let (job, _) = job_in_lot(&admin, &product.id, 3, lot).await;
    let id = job["id"].as_str().unwrap();
    let check = |csv: &str| {
        let lines: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(lines.len(), 3, "{csv}");
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells[2], "'-1+2=3", "{line}");
            assert!(cells[4].contains("/10/-1%2B2%3D3/21/"), "{line}");
            assert!(
                cells.iter().all(|c| !c.starts_with(['=', '+', '-', '@'])),
                "{line}"
            );
        }
    };
    let (status, _, csv) = download(&admin, &format!("/api/code-jobs/{id}/codes.csv")).await;
    assert_eq!(status, StatusCode::OK);
    check(&String::from_utf8(csv).unwrap());
    let (status, _, zip) = download(&admin, &format!("/api/code-jobs/{id}/codes.zip")).await;
    assert_eq!(status, StatusCode::OK);
    check(&unzip(zip)["codes.csv"]);
    let lot_id = job["lot_id"].as_str().unwrap();
    let (status, files) = bulk(&admin, &format!("lot_id={lot_id}")).await;
    assert_eq!(status, StatusCode::OK, "{files:?}");
    let csvs: Vec<&String> = files
        .iter()
        .filter(|(name, _)| name.ends_with(".csv"))
        .map(|(_, csv)| csv)
        .collect();
    assert_eq!(csvs.len(), 1);
    check(csvs[0]);
}
