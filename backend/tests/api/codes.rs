//! Serialized codes: jobs run in the background and store exactly the codes
//! asked for, with random serials and GS1 Digital Link URIs; the quota holds
//! (also under parallel jobs); downloads stream CSV and ZIP; a job resumes
//! after a restart; bad input changes nothing; other tenants see nothing.

use std::collections::HashSet;
use std::io::Read;
use std::time::Duration;

use brandops::codes::Serial;
use futures::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated, create_product, download, finished_job, gtin,
};

/// Creates "Aspirin 500" and answers its id and GTIN-14.
async fn product(c: &Client) -> (String, String) {
    let p = create_product(c, "Aspirin 500", "ASP").await;
    (p.id, p.gtin)
}

/// The code job once it is done or failed.
async fn finished(c: &Client, id: &str) -> Value {
    finished_job(c, &format!("/api/code-jobs/{id}")).await
}

async fn start(c: &Client, body: Value) -> Value {
    let (status, job) = c.post("/api/code-jobs", body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    job
}

async fn stored<
    T: for<'r> sqlx::Decode<'r, sqlx::Postgres> + sqlx::Type<sqlx::Postgres> + Send + Unpin,
>(
    app: &TestApp,
    t: &TestTenant,
    sql: &str,
) -> T {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.replace("{schema}", &t.schema)))
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

/// Runs the codes CSV through an independent GS1 parser (biip, in the venv
/// `scripts/gs1-venv.sh` makes; `make test` runs it first): every URI must
/// parse as GS1 Digital Link with exactly its row's GTIN, lot and serial.
/// Answers how many URIs it checked.
fn independent_gs1_check(csv: &str) -> usize {
    use std::io::Write;
    let root = crate::helpers::repo_root();
    let python = std::env::var("GS1_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| root.join(".venv-gs1/bin/python"));
    let mut child = std::process::Command::new(&python)
        .arg(root.join("tools/gs1/check_digital_link.py"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run scripts/gs1-venv.sh (make test does)",
                python.display()
            )
        });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(csv.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the GS1 parser refused a URI: {said}");
    said.trim().parse().unwrap()
}

async fn set_code_quota(app: &TestApp, t: &TestTenant, quota: i64) {
    sqlx::query("UPDATE platform.tenants SET code_quota = $1 WHERE id = $2")
        .bind(quota)
        .bind(t.tenant.id)
        .execute(&app.owner)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_job_generates_exactly_its_codes_with_random_serials_and_digital_link_uris() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, gtin14) = product(&admin).await;
    let job = start(
        &admin,
        json!({"product_id": product_id, "quantity": 1234,
               "lot": {"number": "L-26/11", "manufactured_on": "2026-11-01", "expires_on": "2028-10-31"}}),
    )
    .await;
    assert_eq!(job["quantity"], 1234);
    assert!(matches!(
        job["status"].as_str(),
        Some("queued" | "running" | "done")
    ));
    let id = job["id"].as_str().unwrap();
    let done = finished(&admin, id).await;
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["generated"], 1234);
    assert_eq!(done["gtin"], gtin14);
    assert_eq!(done["lot"]["number"], "L-26/11");
    assert_eq!(done["lot"]["expires_on"], "2028-10-31");

    // Stored: exactly the codes, positions 1..=n, serials distinct.
    let count: i64 = stored(&app, &brand, "SELECT count(*) FROM {schema}.codes").await;
    assert_eq!(count, 1234);
    let positions: i64 = stored(
        &app,
        &brand,
        "SELECT count(DISTINCT position) FROM {schema}.codes WHERE position BETWEEN 1 AND 1234",
    )
    .await;
    assert_eq!(positions, 1234);

    // The quota shows what is left.
    let (_, list) = admin
        .get(&format!("/api/code-jobs?product_id={product_id}"))
        .await;
    assert_eq!(list["jobs"][0]["id"], id);
    assert_eq!(list["code_quota"], 1_000_000);
    assert_eq!(list["qr_codes_remaining"], 1_000_000 - 1234);

    // The CSV: header, one line per code, serials random-looking and unique.
    let (status, kind, csv) = download(&admin, &format!("/api/code-jobs/{id}/codes.csv")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "text/csv; charset=utf-8");
    let csv = String::from_utf8(csv).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("gtin,serial,lot,expiry,uri"));
    let base = app.state.settings.public_url().to_string();
    let mut serials = HashSet::new();
    let mut values = Vec::new();
    for line in lines {
        let cols: Vec<_> = line.split(',').collect();
        assert_eq!(cols.len(), 5, "{line}");
        assert_eq!(cols[0], gtin14);
        let serial = cols[1];
        assert_eq!(serial.len(), 11);
        assert!(
            serial.chars().all(|c| c.is_ascii_alphanumeric()),
            "{serial}"
        );
        assert_eq!(cols[2], "L-26/11");
        assert_eq!(cols[3], "2028-10-31");
        assert_eq!(
            cols[4],
            format!("{base}/01/{gtin14}/10/L-26%2F11/21/{serial}")
        );
        assert!(serials.insert(serial.to_string()));
        values.push(Serial::decode(serial).unwrap().0);
    }
    assert_eq!(serials.len(), 1234);
    assert_eq!(independent_gs1_check(&csv), 1234);
    // Not a counter: consecutive serials are far apart, and the high bits
    // are used (64 random bits: about half of them have the top bit set).
    let close = values
        .windows(2)
        .filter(|w| w[0].abs_diff(w[1]) < 1 << 40)
        .count();
    assert_eq!(close, 0, "serials look sequential");
    let high = values.iter().filter(|v| **v >= 1 << 63).count();
    assert!(
        (400..=834).contains(&high),
        "{high} of 1234 with the top bit"
    );

    // The ZIP: codes.csv (the same bytes) and a manifest with its SHA-256.
    let (status, kind, zip) = download(&admin, &format!("/api/code-jobs/{id}/codes.zip")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "application/zip");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let mut inner = String::new();
    archive
        .by_name("codes.csv")
        .unwrap()
        .read_to_string(&mut inner)
        .unwrap();
    assert_eq!(inner, csv);
    let mut manifest = String::new();
    archive
        .by_name("manifest.json")
        .unwrap()
        .read_to_string(&mut manifest)
        .unwrap();
    let manifest: Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["job_id"], id);
    assert_eq!(manifest["product"]["id"], product_id.as_str());
    assert_eq!(manifest["product"]["name"], "Aspirin 500");
    assert_eq!(manifest["gtin"], gtin14);
    assert_eq!(manifest["lot"]["number"], "L-26/11");
    assert_eq!(manifest["count"], 1234);
    assert_eq!(manifest["created_at"], done["created_at"]);
    assert_eq!(
        manifest["codes_csv_sha256"],
        hex::encode(Sha256::digest(csv.as_bytes()))
    );

    // A second job of the same product never reuses a serial.
    let second = start(&admin, json!({"product_id": product_id, "quantity": 300})).await;
    let second = finished(&admin, second["id"].as_str().unwrap()).await;
    assert_eq!(second["status"], "done");
    assert!(second.get("lot").is_none());
    let distinct: i64 = stored(
        &app,
        &brand,
        "SELECT count(DISTINCT serial) FROM {schema}.codes",
    )
    .await;
    assert_eq!(distinct, 1534);
    let (_, _, csv) = download(
        &admin,
        &format!(
            "/api/code-jobs/{}/codes.csv",
            second["id"].as_str().unwrap()
        ),
    )
    .await;
    let first = String::from_utf8(csv)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(
        first.starts_with(&format!("{gtin14},"))
            && first.contains(&format!(",,,{base}/01/{gtin14}/21/")),
        "no lot: no /10/ in the URI: {first}"
    );

    // The product's GTIN is printed on codes now: it cannot change.
    let (status, body) = admin
        .patch(
            &format!("/api/products/{product_id}"),
            json!({"gtin": gtin()}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
}

#[tokio::test]
async fn an_organisation_may_point_its_codes_at_its_own_resolver() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, gtin14) = product(&admin).await;
    let before = start(&admin, json!({"product_id": product_id, "quantity": 1})).await;
    let (_, settings) = admin.get("/api/code-settings").await;
    assert_eq!(settings["custom"], false);
    assert_eq!(settings["resolver_base"], app.state.settings.public_url());
    for bad in [
        "id.example.com",
        "https://id.example.com/",
        "https://x.com?q=1",
        "javascript:alert(1)",
    ] {
        let (status, body) = admin
            .put("/api/code-settings", json!({"resolver_base": bad}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
    }
    let (status, settings) = admin
        .put(
            "/api/code-settings",
            json!({"resolver_base": "https://id.example.com/dl"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{settings}");
    assert_eq!(
        settings,
        json!({"resolver_base": "https://id.example.com/dl", "custom": true})
    );
    let job = start(&admin, json!({"product_id": product_id, "quantity": 2})).await;
    let id = job["id"].as_str().unwrap();
    finished(&admin, id).await;
    let (_, _, csv) = download(&admin, &format!("/api/code-jobs/{id}/codes.csv")).await;
    let csv = String::from_utf8(csv).unwrap();
    assert!(
        csv.contains(&format!(",https://id.example.com/dl/01/{gtin14}/21/")),
        "{csv}"
    );
    assert_eq!(independent_gs1_check(&csv), 2);
    // A job made before keeps its base.
    let (_, old) = admin
        .get(&format!(
            "/api/code-jobs/{}",
            before["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(old["resolver_base"], app.state.settings.public_url());
    // Back to the app's URL.
    let (_, settings) = admin.put("/api/code-settings", json!({})).await;
    assert_eq!(settings["custom"], false);
}

#[tokio::test]
async fn the_code_quota_refuses_a_job_up_front_and_holds_under_parallel_jobs() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, _) = product(&admin).await;
    set_code_quota(&app, &brand, 1000).await;
    let (status, body) = admin
        .post(
            "/api/code-jobs",
            json!({"product_id": product_id, "quantity": 1001}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "code_quota");
    assert!(
        body["error"].as_str().unwrap().contains("only 1000 remain"),
        "{body}"
    );

    let answers = join_all((0..6).map(|_| {
        admin.post(
            "/api/code-jobs",
            json!({"product_id": product_id, "quantity": 300}),
        )
    }))
    .await;
    let accepted = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::ACCEPTED)
        .count();
    let refused = answers
        .iter()
        .filter(|(s, b)| *s == StatusCode::FORBIDDEN && b["code"] == "code_quota")
        .count();
    assert_eq!((accepted, refused), (3, 3), "{answers:?}");
    for (_, job) in answers.iter().filter(|(s, _)| *s == StatusCode::ACCEPTED) {
        finished(&admin, job["id"].as_str().unwrap()).await;
    }
    let count: i64 = stored(&app, &brand, "SELECT count(*) FROM {schema}.codes").await;
    assert_eq!(count, 900);
    let (_, list) = admin.get("/api/code-jobs").await;
    assert_eq!(list["qr_codes_remaining"], 100);

    // Lowering the quota below use blocks new jobs and deletes nothing.
    set_code_quota(&app, &brand, 500).await;
    let (status, _) = admin
        .post(
            "/api/code-jobs",
            json!({"product_id": product_id, "quantity": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, list) = admin.get("/api/code-jobs").await;
    assert_eq!(list["qr_codes_remaining"], 0);
    let count: i64 = stored(&app, &brand, "SELECT count(*) FROM {schema}.codes").await;
    assert_eq!(count, 900);
}

#[tokio::test]
async fn bad_code_jobs_get_clear_errors_and_change_nothing() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, _) = product(&admin).await;
    let cases = [
        (
            json!({"product_id": product_id, "quantity": 0}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"product_id": product_id, "quantity": 10_000_001}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"product_id": product_id, "quantity": "12"}),
            StatusCode::BAD_REQUEST,
        ),
        (json!({"product_id": product_id}), StatusCode::BAD_REQUEST),
        (
            json!({"product_id": "not-a-uuid", "quantity": 1}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"product_id": product_id, "quantity": 1, "lot": {"number": "has space"}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"product_id": product_id, "quantity": 1, "lot": {"number": "lot#1"}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"product_id": product_id, "quantity": 1, "lot": {"number": "X".repeat(21)}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"product_id": product_id, "quantity": 1,
                   "lot": {"number": "L1", "manufactured_on": "2026-05-01", "expires_on": "2026-04-30"}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"product_id": product_id, "quantity": 1, "lot": {"number": "L1", "expires_on": "2026-02-30"}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"product_id": uuid::Uuid::new_v4(), "quantity": 1}),
            StatusCode::NOT_FOUND,
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = admin.post("/api/code-jobs", body.clone()).await;
        assert_eq!(status, expected, "{body} → {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{answer}"
        );
    }
    let jobs: i64 = stored(&app, &brand, "SELECT count(*) FROM {schema}.code_jobs").await;
    let lots: i64 = stored(&app, &brand, "SELECT count(*) FROM {schema}.lots").await;
    assert_eq!((jobs, lots), (0, 0));

    // Markup is GS1 punctuation (`<`, `>`, `/`): such a lot is kept as text,
    // and percent-encoded in URIs.
    let job = start(
        &admin,
        json!({"product_id": product_id, "quantity": 1, "lot": {"number": "<b>x</b>"}}),
    )
    .await;
    assert_eq!(job["lot"]["number"], "<b>x</b>");
    let id = job["id"].as_str().unwrap();
    finished(&admin, id).await;
    let (_, _, csv) = download(&admin, &format!("/api/code-jobs/{id}/codes.csv")).await;
    let csv = String::from_utf8(csv).unwrap();
    assert!(csv.contains("/10/%3Cb%3Ex%3C%2Fb%3E/21/"), "{csv}");
    assert_eq!(
        independent_gs1_check(&csv),
        1,
        "percent-encoded lots parse back"
    );

    // A lot is reused; the same number with other dates is a conflict.
    let lot = json!({"number": "B7", "expires_on": "2027-01-31"});
    start(
        &admin,
        json!({"product_id": product_id, "quantity": 1, "lot": lot}),
    )
    .await;
    start(
        &admin,
        json!({"product_id": product_id, "quantity": 1, "lot": {"number": "B7"}}),
    )
    .await;
    let (status, body) = admin
        .post(
            "/api/code-jobs",
            json!({"product_id": product_id, "quantity": 1, "lot": {"number": "B7", "expires_on": "2027-02-28"}}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let lots: i64 = stored(&app, &brand, "SELECT count(*) FROM {schema}.lots").await;
    assert_eq!(lots, 2);

    // An archived product gets no codes.
    admin
        .send(
            reqwest::Method::DELETE,
            &format!("/api/products/{product_id}"),
            None,
        )
        .await;
    let (status, body) = admin
        .post(
            "/api/code-jobs",
            json!({"product_id": product_id, "quantity": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");

    // Unknown and malformed job ids: the same 404.
    for id in [uuid::Uuid::new_v4().to_string(), "nope".to_string()] {
        let (status, _) = admin.get(&format!("/api/code-jobs/{id}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _, _) = download(&admin, &format!("/api/code-jobs/{id}/codes.csv")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
}

/// A server that stopped mid-job: its committed batches are counted, the
/// lease ran out, and the next runner finishes the job from there.
#[tokio::test]
async fn a_job_interrupted_by_a_restart_resumes_from_what_was_committed() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, gtin14) = product(&admin).await;
    let job_id = uuid::Uuid::new_v4();
    // What a stopped server leaves: a running job with 700 codes committed
    // (and counted), and a queue entry whose lease ran out.
    let schema = &brand.schema;
    for sql in [
        format!(
            "INSERT INTO {schema}.code_jobs (id, product_id, gtin, resolver_base, quantity, generated, status, started_at)
             VALUES ('{job_id}', '{product_id}', '{gtin14}', 'https://id.example.com', 120500, 700, 'running', now())"
        ),
        format!(
            "INSERT INTO {schema}.codes (serial, job_seq, position)
             SELECT (random() * 9e18)::bigint, (SELECT seq FROM {schema}.code_jobs WHERE id = '{job_id}'), g
             FROM generate_series(1, 700) g"
        ),
        format!(
            "INSERT INTO platform.job_queue (tenant_id, kind, job_id, leased_until, leased_by, attempts)
             VALUES ('{}', 'codes', '{job_id}', now() - interval '1 second', gen_random_uuid(), 1)",
            brand.tenant.id
        ),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&app.owner).await.unwrap();
    }
    let done = finished(&admin, &job_id.to_string()).await;
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["generated"], 120500);
    let (count, distinct_positions, max_position): (i64, i64, i32) =
        sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT count(*), count(DISTINCT position), max(position) FROM {schema}.codes"
        )))
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(
        (count, distinct_positions, max_position),
        (120500, 120500, 120500)
    );
    let queued: i64 = sqlx::query_scalar("SELECT count(*) FROM platform.job_queue")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(queued, 0, "a finished job leaves the queue");
}

#[tokio::test]
async fn a_job_still_running_cannot_be_downloaded_yet() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, gtin14) = product(&admin).await;
    // A queued job that no runner will take (it is not on the queue).
    let job_id = uuid::Uuid::new_v4();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {}.code_jobs (id, product_id, gtin, resolver_base, quantity)
         VALUES ('{job_id}', '{product_id}', '{gtin14}', 'https://id.example.com', 10)",
        brand.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    for format in ["csv", "zip"] {
        let (status, _, body) =
            download(&admin, &format!("/api/code-jobs/{job_id}/codes.{format}")).await;
        assert_eq!(
            status,
            StatusCode::CONFLICT,
            "{}",
            String::from_utf8_lossy(&body)
        );
    }
}

#[tokio::test]
async fn another_tenant_cannot_see_or_download_a_job() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let (product_id, _) = product(a).await;
            let job = start(a, json!({"product_id": product_id, "quantity": 5})).await;
            let id = job["id"].as_str().unwrap().to_string();
            finished(a, &id).await;
            id
        },
        async |c, id| {
            let mut answers = vec![
                c.get("/api/code-jobs").await,
                c.get(&format!("/api/code-jobs/{id}")).await,
            ];
            for format in ["csv", "zip"] {
                let (status, _, body) =
                    download(c, &format!("/api/code-jobs/{id}/codes.{format}")).await;
                let text = match format {
                    // The ZIP's manifest is deflate-stored: look inside.
                    "zip" if status == StatusCode::OK => {
                        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(body)).unwrap();
                        let mut m = String::new();
                        archive
                            .by_name("manifest.json")
                            .unwrap()
                            .read_to_string(&mut m)
                            .unwrap();
                        m
                    }
                    _ => String::from_utf8_lossy(&body).to_string(),
                };
                answers.push((status, Value::String(text)));
            }
            answers
        },
    )
    .await;
}

/// The queue functions act for the calling tenant only: tenant A queuing
/// B's job id (an injected call) makes a row of A's, which the runner drops
/// (A has no such job), and B's job is untouched; A's quota lock is A's.
#[tokio::test]
async fn injected_queue_calls_cannot_reach_another_tenants_jobs() {
    let app = TestApp::spawn().await;
    let (a, b) = (app.brand().await, app.brand().await);
    let b_admin = app.login(&b.admin).await;
    let (product_id, _) = product(&b_admin).await;
    let job = start(&b_admin, json!({"product_id": product_id, "quantity": 3})).await;
    let b_job = job["id"].as_str().unwrap().to_string();
    finished(&b_admin, &b_job).await;
    set_code_quota(&app, &b, 777).await;

    let mut tx = app.state.db.begin_tenant(&a.tenant).await.unwrap();
    sqlx::query("SELECT platform.tenant_enqueue_job('codes', $1)")
        .bind(uuid::Uuid::parse_str(&b_job).unwrap())
        .execute(&mut *tx)
        .await
        .unwrap();
    let quota: i64 = sqlx::query_scalar("SELECT platform.tenant_lock_code_quota()")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(quota, 1_000_000, "A's own quota, not B's 777");
    tx.commit().await.unwrap();
    let queued: Vec<uuid::Uuid> =
        sqlx::query_scalar("SELECT tenant_id FROM platform.job_queue WHERE job_id = $1")
            .bind(uuid::Uuid::parse_str(&b_job).unwrap())
            .fetch_all(&app.owner)
            .await
            .unwrap();
    assert!(queued.iter().all(|t| *t == a.tenant.id), "{queued:?}");
    app.state.jobs.wake();
    // The runner finds no such job in A and drops the row.
    for _ in 0..100 {
        let left: i64 = sqlx::query_scalar("SELECT count(*) FROM platform.job_queue")
            .fetch_one(&app.owner)
            .await
            .unwrap();
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM platform.job_queue")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(left, 0);
    let (_, job) = b_admin.get(&format!("/api/code-jobs/{b_job}")).await;
    assert_eq!(
        (job["status"].as_str(), job["generated"].as_i64()),
        (Some("done"), Some(3))
    );
    let count: i64 = stored(&app, &b, "SELECT count(*) FROM {schema}.codes").await;
    assert_eq!(count, 3);
}
