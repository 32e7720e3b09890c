//! Batch updates (issue 10): Schedule H2 batch data assigned to codes by
//! CSV, XLSX or the manual form; checked row by row, applied whole or not
//! at all, once per content; and each client sees only its own.

use std::time::Duration;

use brandops::accounts::Role;
use brandops::codes::Serial;
use brandops::tenants::TenantKind;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated_between, download, gtin, unique,
};

/// Codes stored (as the owner) for a client: a product with `gtin`, a code
/// job of `n` codes in lot `lot` (when given). Answers the serials, in the
/// job's order, and the job's id.
async fn codes(
    app: &TestApp,
    t: &TestTenant,
    gtin: &str,
    lot: Option<&str>,
    n: i64,
) -> (Vec<String>, String) {
    let s = &t.schema;
    let job = uuid::Uuid::new_v4();
    let base = (uuid::Uuid::new_v4().as_u128() % 1_000_000_000_000) as i64 * 1000;
    let lot_sql = lot.map_or("NULL".to_string(), |l| format!("'{l}'"));
    let sql = format!(
        "WITH p AS (INSERT INTO {s}.products (id, product_name, skuid, gtin)
                    VALUES (gen_random_uuid(), 'Paracetamol 500', '{sku}', '{gtin}') RETURNING id, gtin),
              l AS (INSERT INTO {s}.lots (id, product_id, number)
                    SELECT gen_random_uuid(), p.id, {lot_sql} FROM p WHERE {lot_sql} IS NOT NULL RETURNING id),
              j AS (INSERT INTO {s}.code_jobs (id, product_id, lot_id, gtin, resolver_base, quantity, generated, status)
                    SELECT '{job}', p.id, (SELECT id FROM l), p.gtin, 'https://id.example', {n}, {n}, 'done' FROM p
                    RETURNING seq)
         INSERT INTO {s}.codes (serial, job_seq, position) SELECT {base} + g, j.seq, g FROM j, generate_series(1, {n}) g",
        sku = unique("SKU"),
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(&app.owner)
        .await
        .unwrap();
    let serials = (1..=n)
        .map(|g| Serial::from_db(base + g).to_string())
        .collect();
    (serials, job.to_string())
}

fn gtin14() -> String {
    format!("0{}", gtin())
}

async fn client(app: &TestApp, id: &str) -> (TestTenant, Client) {
    let t = app.tenant_named(id, TenantKind::Client).await;
    let c = app.login(&t.admin).await;
    (t, c)
}

/// Uploads `bytes` as the multipart field `file`.
async fn upload(c: &Client, name: &str, bytes: Vec<u8>, dry_run: bool) -> (StatusCode, Value) {
    let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_string());
    let form = reqwest::multipart::Form::new().part("file", part);
    let resp = c
        .http
        .post(c.url(&format!("/api/batch-updates?dry_run={dry_run}")))
        .header("x-csrf-token", c.csrf.clone().unwrap())
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = resp.status();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// Polls an update until it ends (at most two minutes).
async fn finished(c: &Client, id: &str) -> Value {
    for _ in 0..1200 {
        let (status, update) = c.get(&format!("/api/batch-updates/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{update}");
        if ["valid", "invalid", "applied", "failed"].contains(&update["status"].as_str().unwrap()) {
            return update;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("batch update {id} did not finish");
}

/// Uploads and waits for the end.
async fn run(c: &Client, name: &str, bytes: Vec<u8>, dry_run: bool) -> Value {
    let (status, update) = upload(c, name, bytes, dry_run).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{update}");
    finished(c, update["id"].as_str().unwrap()).await
}

const HEADER: &str = "code,gtin,batch_number,manufacturing_date,expiry_date,licence_number\n";

fn csv(rows: &[String]) -> Vec<u8> {
    let mut text = HEADER.to_string();
    for row in rows {
        text.push_str(row);
        text.push('\n');
    }
    text.into_bytes()
}

fn good_rows(serials: &[String], gtin: &str, batch: &str) -> Vec<String> {
    serials
        .iter()
        .map(|s| format!("{s},{gtin},{batch},2026-01-10,2028-01-31,KA/25/1234"))
        .collect()
}

/// The codes that have batch data (in any update's slots).
async fn code_batches(app: &TestApp, t: &TestTenant) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(DISTINCT (x.job_seq, x.slot, o)) FROM {}.batch_slots x, unnest(x.offsets) AS o",
        t.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_csv_is_checked_by_a_dry_run_then_applied_whole() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, Some("B-77"), 5).await;
    let file = csv(&good_rows(&serials, &g, "B-77"));

    let dry = run(&admin, "batch.csv", file.clone(), true).await;
    assert_eq!(dry["status"], "valid", "{dry}");
    assert_eq!(dry["rows_read"], 5);
    assert_eq!(dry["rows_applied"], 0);
    assert_eq!(dry["format"], "csv");
    assert_eq!(dry["file_name"], "batch.csv");
    assert_eq!(code_batches(&app, &a).await, 0, "a dry run writes nothing");

    let employee = app.login(&app.account(&a, Role::Employee).await).await;
    let applied = run(&employee, "batch.csv", file, false).await;
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(applied["rows_applied"], 5);
    assert_eq!(applied["bytes_read"], applied["size_bytes"]);
    assert_eq!(applied["batches"][0]["batch_number"], "B-77");
    assert_eq!(applied["batches"][0]["codes"], 5);
    assert_eq!(applied["batches"][0]["expires_on"], "2028-01-31");
    assert_eq!(applied["created_by_name"], employee.user["name"]);
    assert_eq!(code_batches(&app, &a).await, 5);
    assert_eq!(app.audited(&a, "batch_update.applied").await, 1);

    let id = applied["id"].as_str().unwrap();
    let (status, kind, result) =
        download(&admin, &format!("/api/batch-updates/{id}/result.csv")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/csv"));
    let result = String::from_utf8(result).unwrap();
    assert!(
        result.contains(&format!("{g},B-77,2026-01-10,2028-01-31,KA/25/1234,5")),
        "{result}"
    );

    let (_, history) = admin.get("/api/batch-updates").await;
    let updates = history["updates"].as_array().unwrap();
    assert_eq!(updates.len(), 2);
    assert_eq!(updates[0]["id"], applied["id"], "newest first");
}

#[tokio::test]
async fn the_same_content_is_applied_once_even_when_sent_at_once() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, None, 3).await;
    let file = csv(&good_rows(&serials, &g, "B1"));

    let sends = (0..4).map(|_| upload(&admin, "same.csv", file.clone(), false));
    let answers = futures::future::join_all(sends).await;
    let accepted: Vec<&Value> = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::ACCEPTED)
        .map(|(_, b)| b)
        .collect();
    assert_eq!(accepted.len(), 1, "{answers:?}");
    for (status, body) in answers.iter().filter(|(s, _)| *s != StatusCode::ACCEPTED) {
        assert_eq!(*status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["code"], "already_applied");
    }
    let done = finished(&admin, accepted[0]["id"].as_str().unwrap()).await;
    assert_eq!(done["status"], "applied");

    // Again, after it was applied: refused, naming the earlier update.
    let (status, body) = upload(&admin, "renamed.csv", file.clone(), false).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains(done["id"].as_str().unwrap()),
        "{body}"
    );
    assert_eq!(app.rows(&a, "batch_updates").await, 1);
    // A dry run of it is still allowed (it writes nothing).
    assert_eq!(run(&admin, "same.csv", file, true).await["status"], "valid");
}

#[tokio::test]
async fn one_bad_row_changes_nothing_and_every_problem_is_reported() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let other_gtin = gtin14();
    let (serials, _) = codes(&app, &a, &g, Some("LOT-9"), 12).await;
    // An earlier update that must survive the failed one untouched.
    let first = run(
        &admin,
        "first.csv",
        csv(&good_rows(&serials[..2], &g, "LOT-9")),
        false,
    )
    .await;
    assert_eq!(first["status"], "applied", "{first}");

    // Another client's code is not one of this organisation's.
    let (b, _) = client(&app, "clientB").await;
    let (b_serials, _) = codes(&app, &b, &g, None, 1).await;
    let bad_check_digit = format!("{}{}", &g[..13], (g.as_bytes()[13] - b'0' + 1) % 10);
    let s = &serials;
    let rows = vec![
        format!("{},{g},LOT-9,2026-01-10,2028-01-31,KA/1", s[0]), // 2 ok
        format!("{},{g},LOT-9,2026-02-30,2028-01-31,KA/1", s[1]), // 3 date
        format!("{},{g},LOT-9,2026-01-10,2025-01-31,KA/1", s[2]), // 4 expiry before
        format!("{},{g},LOT-9,2099-01-10,2099-12-31,KA/1", s[3]), // 5 future
        format!("{},{g},LOT 9,2026-01-10,2028-01-31,KA/1", s[4]), // 6 batch format
        format!(
            "{},{bad_check_digit},LOT-9,2026-01-10,2028-01-31,KA/1",
            s[5]
        ), // 7 check digit
        format!("{},{other_gtin},LOT-9,2026-01-10,2028-01-31,KA/1", s[6]), // 8 other GTIN
        format!("{},{g},LOT-8,2026-01-10,2028-01-31,KA/1", s[7]), // 9 other lot
        format!("{},{g},LOT-9,2026-01-10,2028-01-31,", s[8]),     // 10 licence
        format!("{},{g},LOT-9,2026-01-10,2028-01-31,KA/1", b_serials[0]), // 11 not ours
        format!("{},{g},LOT-9,2026-01-10,2028-01-31,KA/1", s[0]), // 12 repeated
        format!("ZZZ,{g},LOT-9,2026-01-10,2028-01-31,KA/1"),      // 13 code
        format!("<script>alert(1)</script>,{g},LOT-9,2026-01-10,2028-01-31,KA/1"), // 14 markup
    ];
    let update = run(&admin, "bad.csv", csv(&rows), false).await;
    assert_eq!(update["status"], "invalid", "{update}");
    assert_eq!(update["rows_read"], 13);
    assert_eq!(update["rows_applied"], 0);
    let errors: Vec<(i64, String)> = update["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["row"].as_i64().unwrap(),
                e["column"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(i64, &str)> = vec![
        (3, "manufacturing_date"),
        (4, "expiry_date"),
        (5, "manufacturing_date"),
        (6, "batch_number"),
        (7, "gtin"),
        (8, "gtin"),
        (9, "batch_number"),
        (10, "licence_number"),
        (11, "code"),
        (12, "code"),
        (13, "code"),
        (14, "code"),
    ];
    let expected: Vec<(i64, String)> = expected
        .into_iter()
        .map(|(r, c)| (r, c.to_string()))
        .collect();
    assert_eq!(errors, expected, "{update}");
    assert_eq!(update["error_count"], 12);
    let reason = |row: i64| {
        update["errors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["row"] == row)
            .unwrap()["reason"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        reason(4).contains("must be after manufacturing_date"),
        "{}",
        reason(4)
    );
    assert!(reason(7).contains("check digit"), "{}", reason(7));
    assert!(reason(8).contains(&g), "{}", reason(8));
    assert!(reason(9).contains("LOT-9"), "{}", reason(9));
    assert!(reason(10).contains("Schedule H2"), "{}", reason(10));
    assert!(
        reason(11).contains("No code of your organisation"),
        "{}",
        reason(11)
    );
    assert!(reason(12).contains("also in row 2"), "{}", reason(12));

    // Nothing changed: the earlier update's two codes, no batch of this one.
    assert_eq!(code_batches(&app, &a).await, 2);
    assert_eq!(app.rows(&a, "batches").await, 1);
    // The result download lists the problems.
    let id = update["id"].as_str().unwrap();
    let (_, _, result) = download(&admin, &format!("/api/batch-updates/{id}/result.csv")).await;
    let result = String::from_utf8(result).unwrap();
    assert!(
        result.starts_with("row,column,reason\n3,manufacturing_date,"),
        "{result}"
    );
    // A failed update does not block applying the corrected file.
    let fixed = run(
        &admin,
        "bad.csv",
        csv(&good_rows(&serials[2..], &g, "LOT-9")),
        false,
    )
    .await;
    assert_eq!(fixed["status"], "applied", "{fixed}");
    assert_eq!(code_batches(&app, &a).await, 12);
}

/// The queue entry of update `id`: (attempts, leased now).
async fn queue_entry(app: &TestApp, id: &str) -> Option<(i32, bool)> {
    sqlx::query_as(
        "SELECT attempts, leased_by IS NOT NULL FROM platform.job_queue
         WHERE kind = 'batch_updates' AND job_id = $1::uuid",
    )
    .bind(id)
    .fetch_optional(&app.owner)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_failure_while_writing_leaves_nothing_and_the_retry_applies_once() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, None, 700).await;
    // The database refuses the codes' batch data: the writing fails after
    // the update's batches were inserted, in the same transaction.
    let s = &a.schema;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {s}.batch_slots ADD CONSTRAINT test_refused CHECK (false) NOT VALID"
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    let (status, update) = upload(
        &admin,
        "big.csv",
        csv(&good_rows(&serials, &g, "LOT-A")),
        false,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{update}");
    let id = update["id"].as_str().unwrap();
    // Wait until the first try failed and the job is back in the queue.
    let mut postponed = false;
    for _ in 0..600 {
        if let Some((attempts, false)) = queue_entry(&app, id).await
            && attempts >= 1
        {
            postponed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(postponed, "the failed try was not put back in the queue");
    let (_, now) = admin.get(&format!("/api/batch-updates/{id}")).await;
    assert_ne!(now["status"], "applied", "{now}");
    assert_eq!(now["rows_applied"], 0, "{now}");
    assert_eq!(app.rows(&a, "batches").await, 0, "no batch is half-written");
    assert_eq!(code_batches(&app, &a).await, 0);
    assert_eq!(app.audited(&a, "batch_update.applied").await, 0);

    // The database accepts again; the next try applies the whole file once.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {s}.batch_slots DROP CONSTRAINT test_refused"
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "UPDATE platform.job_queue SET leased_until = now() WHERE kind = 'batch_updates' AND job_id = $1::uuid",
    )
    .bind(id)
    .execute(&app.owner)
    .await
    .unwrap();
    let done = finished(&admin, id).await;
    assert_eq!(done["status"], "applied", "{done}");
    assert_eq!(done["rows_applied"], 700, "{done}");
    assert_eq!(code_batches(&app, &a).await, 700);
    assert_eq!(app.rows(&a, "batches").await, 1);
    assert_eq!(app.audited(&a, "batch_update.applied").await, 1);
    assert!(
        queue_entry(&app, id).await.is_none(),
        "the job left the queue"
    );
}

#[tokio::test]
async fn a_later_update_replaces_a_code_batch_data() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, None, 2).await;
    run(
        &admin,
        "one.csv",
        csv(&good_rows(&serials, &g, "OLD")),
        false,
    )
    .await;
    let second = run(
        &admin,
        "two.csv",
        csv(&good_rows(&serials[..1], &g, "NEW")),
        false,
    )
    .await;
    assert_eq!(second["status"], "applied", "{second}");
    let numbers: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT DISTINCT ON (x.job_seq, x.slot, o) b.batch_number
         FROM {s}.batch_slots x CROSS JOIN unnest(x.offsets) AS o JOIN {s}.batches b ON b.id = x.batch_id
         ORDER BY x.job_seq, x.slot, o, x.batch_id DESC",
        s = a.schema
    )))
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(numbers, ["NEW", "OLD"]);
}

/// An XLSX as a spreadsheet program writes one: the GTIN typed as a number
/// (its leading zero gone), the dates as date cells, extra columns.
fn xlsx(serials: &[String], gtin: &str, batch: &str) -> Vec<u8> {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let mut book = Workbook::new();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let sheet = book.add_worksheet();
    let header = [
        "notes",
        "licence_number",
        "code",
        "gtin",
        "batch_number",
        "manufacturing_date",
        "expiry_date",
    ];
    for (i, h) in header.iter().enumerate() {
        sheet.write_string(0, i as u16, *h).unwrap();
    }
    let made = ExcelDateTime::from_ymd(2026, 3, 1).unwrap();
    let expires = ExcelDateTime::from_ymd(2029, 2, 28).unwrap();
    for (i, serial) in serials.iter().enumerate() {
        let row = i as u32 + 1;
        sheet.write_string(row, 0, "<b>note</b>").unwrap();
        sheet.write_string(row, 1, "MH-2026-0001").unwrap();
        sheet.write_string(row, 2, serial).unwrap();
        sheet
            .write_number(row, 3, gtin.parse::<f64>().unwrap())
            .unwrap();
        sheet.write_string(row, 4, batch).unwrap();
        sheet
            .write_datetime_with_format(row, 5, &made, &date)
            .unwrap();
        sheet
            .write_datetime_with_format(row, 6, &expires, &date)
            .unwrap();
    }
    book.save_to_buffer().unwrap()
}

#[tokio::test]
async fn an_xlsx_is_read_like_a_csv() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientB").await;
    // A GTIN with leading zeros, which a spreadsheet's number cell drops
    // (the file writes it as a number): read back right-aligned in 14 digits.
    let body = format!("00000{}", &gtin()[5..12]);
    let g = format!("0{body}{}", brandops::gs1::check_digit(&body).unwrap());
    let (serials, _) = codes(&app, &a, &g, None, 4).await;
    let update = run(&admin, "batch.xlsx", xlsx(&serials, &g, "X-1"), false).await;
    assert_eq!(update["status"], "applied", "{update}");
    assert_eq!(update["format"], "xlsx");
    assert_eq!(update["rows_applied"], 4);
    assert_eq!(update["batches"][0]["manufactured_on"], "2026-03-01");
    assert_eq!(update["batches"][0]["expires_on"], "2029-02-28");
    assert_eq!(update["batches"][0]["licence_number"], "MH-2026-0001");
    assert_eq!(update["batches"][0]["gtin"], g);

    // A bad row in an XLSX is reported by its spreadsheet row.
    let mut bad = serials.clone();
    bad[2] = "nope".into();
    let update = run(&admin, "bad.xlsx", xlsx(&bad, &g, "X-2"), false).await;
    assert_eq!(update["status"], "invalid", "{update}");
    assert_eq!(update["errors"][0]["row"], 4);
    assert_eq!(update["errors"][0]["column"], "code");
}

#[tokio::test]
async fn the_templates_name_the_columns() {
    use calamine::{Reader, Xlsx};
    let app = TestApp::spawn().await;
    let (_, admin) = client(&app, "clientA").await;
    let (status, kind, bytes) = download(&admin, "/api/batch-updates/template.csv").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/csv"));
    // The header, then one example row that reads as a real row would.
    let text = String::from_utf8(bytes).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(format!("{}\n", lines[0]), HEADER);
    assert_eq!(
        lines[1],
        "0000000000A,09506000134352,PCM2611,2026-01-10,2028-01-31,MH/MFG/123456"
    );
    let (status, kind, bytes) = download(&admin, "/api/batch-updates/template.xlsx").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.contains("spreadsheetml"));
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
    let first = book.sheet_names()[0].clone();
    let range = book.worksheet_range(&first).unwrap();
    let header: Vec<String> = range
        .rows()
        .next()
        .unwrap()
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(header.join(",") + "\n", HEADER);
    let example: Vec<String> = range
        .rows()
        .nth(1)
        .unwrap()
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(example.join(","), lines[1]);
}

/// A pack must not carry two batch numbers (issue 21): a row naming another
/// batch than the lot its code was generated for (the lot its Digital Link
/// carries) is a row error, in the check and again when applying; and the
/// summary counts rows, not problems.
#[tokio::test]
async fn a_batch_number_other_than_the_code_lot_is_a_row_error() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, Some("PCM2611"), 3).await;
    let s = &serials;
    let rows = vec![
        format!("{},{g},OTHER1,2026-01-10,2028-01-31,KA/1", s[0]), // 2 other lot
        format!("{},{g},PCM2611,2026-02-30,2028-01-31,", s[1]),    // 3 date, licence
        format!("{},{g},OTHER1,2026-01-10,2028-01-31,KA/1", s[0]), // 4 repeated, other lot
    ];
    let check = run(&admin, "lots.csv", csv(&rows), true).await;
    assert_eq!(check["status"], "invalid", "{check}");
    assert_eq!(check["rows_read"], 3);
    assert_eq!(check["error_count"], 5, "{check}");
    assert_eq!(check["error_rows"], 3, "{check}");
    let lot_problem = |update: &Value, row: i64| {
        update["errors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["row"] == row && e["column"] == "batch_number")
            .map(|e| e["reason"].as_str().unwrap().to_string())
    };
    let reason = lot_problem(&check, 2).expect("row 2 has a batch_number problem");
    assert!(
        reason.contains("OTHER1") && reason.contains("PCM2611"),
        "{reason}"
    );
    assert!(lot_problem(&check, 4).is_some(), "{check}");

    // Applied without a check first: the same row error, nothing written.
    let apply = run(&admin, "lot.csv", csv(&rows[..1]), false).await;
    assert_eq!(apply["status"], "invalid", "{apply}");
    assert_eq!(apply["rows_applied"], 0);
    assert_eq!(apply["error_count"], 1);
    assert_eq!(apply["error_rows"], 1);
    let reason = lot_problem(&apply, 2).expect("row 2 has a batch_number problem");
    assert!(
        reason.contains("OTHER1") && reason.contains("PCM2611"),
        "{reason}"
    );
    assert_eq!(code_batches(&app, &a).await, 0);

    // The code's own lot is applied.
    let good = vec![format!("{},{g},PCM2611,2026-01-10,2028-01-31,KA/1", s[0])];
    let done = run(&admin, "good.csv", csv(&good), false).await;
    assert_eq!(done["status"], "applied", "{done}");
    assert_eq!(done["error_rows"], 0);
    assert_eq!(code_batches(&app, &a).await, 1);
}

#[tokio::test]
async fn bad_files_get_clear_errors_and_store_nothing() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str)> = vec![
        ("empty.csv", Vec::new(), StatusCode::BAD_REQUEST, "empty"),
        (
            "image.csv",
            vec![0x89, b'P', b'N', b'G', 0, 0, 0xff, 0xfe],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "neither",
        ),
        (
            "old.xls",
            vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ".xls",
        ),
        (
            "cols.csv",
            b"code,gtin\nA,B\n".to_vec(),
            StatusCode::BAD_REQUEST,
            "batch_number, manufacturing_date, expiry_date, licence_number",
        ),
        (
            "head.csv",
            HEADER.as_bytes().to_vec(),
            StatusCode::BAD_REQUEST,
            "no rows",
        ),
        (
            "latin1.csv",
            b"code,gtin,batch_number,manufacturing_date,expiry_date,licence_number\n\xe9,1\n"
                .to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "neither",
        ),
    ];
    for (name, bytes, status, says) in cases {
        let (got, body) = upload(&admin, name, bytes, false).await;
        assert_eq!(got, status, "{name}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(says),
            "{name}: {body}"
        );
    }
    // Larger than the limit: refused before it is read.
    let resp = admin
        .http
        .post(admin.url("/api/batch-updates?dry_run=false"))
        .header("x-csrf-token", admin.csrf.clone().unwrap())
        .header("content-type", "multipart/form-data; boundary=x")
        .header("content-length", (300u64 * 1024 * 1024).to_string())
        .body("--x--")
        .send()
        .await;
    if let Ok(resp) = resp {
        assert_eq!(resp.status(), StatusCode::PAYLOAD_TOO_LARGE);
    }
    // A ZIP that is no workbook, and a malformed CSV, end invalid with a
    // problem on row 0.
    let zip = run(&admin, "fake.xlsx", b"PK\x03\x04garbage".to_vec(), false).await;
    assert_eq!(zip["status"], "invalid", "{zip}");
    assert_eq!(zip["errors"][0]["row"], 0);
    assert!(
        zip["errors"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("xlsx"),
        "{zip}"
    );
    // (Past the first 64 KiB, which the upload itself looks at.)
    let mut broken = HEADER.as_bytes().to_vec();
    broken.resize(70 * 1024, b'\n');
    broken.extend_from_slice(b"a,b,c,d,e,f\n\xff\xfe,2,3,4,5,6\n");
    let bad = run(&admin, "broken.csv", broken, false).await;
    assert_eq!(bad["status"], "invalid", "{bad}");
    assert!(
        bad["errors"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("UTF-8"),
        "{bad}"
    );
    assert_eq!(app.rows(&a, "batches").await, 0);
    assert_eq!(app.rows(&a, "batch_updates").await, 2);
}

#[tokio::test]
async fn the_form_assigns_a_range_and_a_list_of_serials() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientB").await;
    let g = gtin14();
    let (serials, job) = codes(&app, &a, &g, None, 10).await;
    let form = json!({
        "range": {"code_job_id": job, "first": 3, "last": 6},
        "serials": [serials[8], format!("https://id.example/01/{g}/21/{}", serials[9])],
        "gtin": g, "batch_number": "F-1", "manufacturing_date": "2026-05-01",
        "expiry_date": "2027-05-01", "licence_number": "<i>L</i>-9",
    });
    let (status, update) = admin
        .post("/api/batch-updates?dry_run=false", form.clone())
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{update}");
    assert_eq!(update["source"], "form");
    let done = finished(&admin, update["id"].as_str().unwrap()).await;
    assert_eq!(done["status"], "applied", "{done}");
    assert_eq!(done["rows_applied"], 6);
    assert_eq!(
        done["batches"][0]["licence_number"], "<i>L</i>-9",
        "markup is kept as text"
    );
    assert_eq!(code_batches(&app, &a).await, 6);
    // The same entry again: applied once.
    let (status, again) = admin
        .post("/api/batch-updates?dry_run=false", form.clone())
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");

    let mut bad = form.clone();
    bad["gtin"] = json!("12345678");
    bad["expiry_date"] = json!("2026-01-01");
    let (status, body) = admin.post("/api/batch-updates?dry_run=true", bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains("check digit") && message.contains("expiry_date"),
        "{message}"
    );
    let mut unknown = form.clone();
    unknown["range"]["code_job_id"] = json!(uuid::Uuid::new_v4());
    let (status, _) = admin.post("/api/batch-updates?dry_run=true", unknown).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let mut beyond = form.clone();
    beyond["range"]["last"] = json!(11);
    let (status, body) = admin.post("/api/batch-updates?dry_run=true", beyond).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (status, _) = admin
        .post("/api/batch-updates?dry_run=true", json!({"gtin": g, "batch_number": "F", "manufacturing_date": "2026-01-01", "expiry_date": "2027-01-01", "licence_number": "L"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no codes");
    assert_eq!(app.rows(&a, "batch_updates").await, 1);
}

#[tokio::test]
async fn brands_and_other_roles_are_refused() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let (a, _) = client(&app, "clientA").await;
    let callers = [
        app.login(&brand.admin).await,
        app.login(&app.account(&brand, Role::Manager).await).await,
        app.login(&app.account(&a, Role::Manager).await).await,
    ];
    for c in &callers {
        let (status, _) = c.get("/api/batch-updates").await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = upload(c, "x.csv", csv(&[]), true).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    assert_eq!(app.rows(&a, "batch_updates").await, 0);
}

#[tokio::test]
async fn another_client_never_sees_an_update() {
    let app = TestApp::spawn().await;
    let (a, a_admin) = client(&app, "clientA").await;
    let (b, b_admin) = client(&app, "clientB").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, None, 2).await;
    assert_isolated_between(
        &a_admin,
        &b_admin,
        async |c: &Client| {
            let update = run(
                c,
                &format!("{}.csv", unique("secret")),
                csv(&good_rows(&serials, &g, "ISO")),
                false,
            )
            .await;
            assert_eq!(update["status"], "applied", "{update}");
            update["id"].as_str().unwrap().to_string()
        },
        async |c: &Client, id: &str| {
            vec![
                c.get("/api/batch-updates").await,
                c.get(&format!("/api/batch-updates/{id}")).await,
                c.get(&format!("/api/batch-updates/{id}/result.csv")).await,
            ]
        },
    )
    .await;
    // B naming A's codes finds no code of its own, and changes nothing.
    let update = run(
        &b_admin,
        "steal.csv",
        csv(&good_rows(&serials, &g, "B")),
        false,
    )
    .await;
    assert_eq!(update["status"], "invalid");
    assert_eq!(update["error_count"], 2);
    assert_eq!(code_batches(&app, &b).await, 0);
    assert_eq!(
        app.rows(&b, "batches").await,
        0,
        "the batches written before the codes were checked are undone"
    );
    assert_eq!(code_batches(&app, &a).await, 2);
}

#[tokio::test]
async fn the_scan_page_shows_the_batch_data_and_warns_when_expired() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, None, 2).await;
    // The GTIN in the platform's registry (as creating the product does),
    // and the product a company's, the manufacturer on the label.
    let cin = "L24230MH1950PLC008311";
    let (status, company) = admin
        .post(
            "/api/companies",
            json!({"cin": cin, "name": "Alpha <Labs> Ltd", "registered_address": "1 Marine Drive, Mumbai"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{company}");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "INSERT INTO platform.gtins (gtin, tenant_id) VALUES ('{g}', '{t}');
         UPDATE {s}.products SET company_id = '{c}'",
        t = a.tenant.id,
        s = a.schema,
        c = company["id"].as_str().unwrap()
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    let rows = vec![
        format!(
            "{},{g},FRESH-1,2026-01-10,2099-01-31,KA/25/1234",
            serials[0]
        ),
        format!("{},{g},OLD-1,2019-01-10,2021-06-30,KA/19/0001", serials[1]),
    ];
    assert_eq!(
        run(&admin, "h2.csv", csv(&rows), false).await["status"],
        "applied"
    );

    let page = |serial: &str| {
        let url = format!("{}/01/{g}/21/{serial}", app.base);
        async move { reqwest::get(url).await.unwrap().text().await.unwrap() }
    };
    let fresh = page(&serials[0]).await;
    for shown in [
        "FRESH-1",
        "2026-01-10",
        "2099-01-31",
        "KA/25/1234",
        "Alpha &lt;Labs&gt; Ltd",
        "1 Marine Drive, Mumbai",
    ] {
        assert!(fresh.contains(shown), "{shown} missing: {fresh}");
    }
    assert!(!fresh.contains("Expired."), "{fresh}");
    let old = page(&serials[1]).await;
    assert!(old.contains("OLD-1") && old.contains("KA/19/0001"), "{old}");
    assert!(
        old.contains("expired on <time datetime=\"2021-06-30\">2021-06-30</time>"),
        "{old}"
    );

    // A later update of one code: its page shows the newer batch, the
    // other code's page keeps its own.
    let newer = vec![format!(
        "{},{g},FRESH-2,2026-02-10,2099-02-28,KA/26/0002",
        serials[0]
    )];
    assert_eq!(
        run(&admin, "h2-again.csv", csv(&newer), false).await["status"],
        "applied"
    );
    let fresh = page(&serials[0]).await;
    assert!(
        fresh.contains("FRESH-2") && !fresh.contains("FRESH-1"),
        "{fresh}"
    );
    assert!(page(&serials[1]).await.contains("OLD-1"));

    // The JSON answer carries the same batch data, and its expiry.
    let verdict = |serial: &str| {
        let url = format!("{}/01/{g}/21/{serial}", app.base);
        async move {
            let resp = reqwest::Client::new()
                .get(url)
                .header("accept", "application/json")
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), StatusCode::OK);
            resp.json::<Value>().await.unwrap()
        }
    };
    let fresh = verdict(&serials[0]).await;
    assert_eq!(
        fresh["batch"],
        json!({"number": "FRESH-2", "manufactured_on": "2026-02-10", "expires_on": "2099-02-28", "licence_number": "KA/26/0002"}),
        "{fresh}"
    );
    assert_eq!(
        fresh["manufacturer"],
        json!({"name": "Alpha <Labs> Ltd", "address": "1 Marine Drive, Mumbai"})
    );
    assert_eq!(fresh["expiry"], "2099-02-28");
    assert_eq!(fresh.get("expired"), None, "{fresh}");
    let old = verdict(&serials[1]).await;
    assert_eq!(old["batch"]["number"], "OLD-1", "{old}");
    assert_eq!(old["expiry"], "2021-06-30");
    assert_eq!(old["expired"], true);
}

/// A batch number a spreadsheet would run as a formula is written
/// neutralised in the update's result CSV (issue 20).
#[tokio::test]
async fn a_formula_batch_number_is_neutralised_in_the_result_csv() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, Some("=B7+1"), 2).await;
    let applied = run(
        &admin,
        "batch.csv",
        csv(&good_rows(&serials, &g, "=B7+1")),
        false,
    )
    .await;
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(applied["batches"][0]["batch_number"], "=B7+1");
    let id = applied["id"].as_str().unwrap();
    let (status, _, result) =
        download(&admin, &format!("/api/batch-updates/{id}/result.csv")).await;
    assert_eq!(status, StatusCode::OK);
    let result = String::from_utf8(result).unwrap();
    assert!(
        result.contains(&format!("{g},'=B7+1,2026-01-10,")),
        "{result}"
    );
    assert!(
        result
            .lines()
            .all(|l| l.split(',').all(|c| !c.starts_with(['=', '+', '-', '@']))),
        "{result}"
    );
}

/// `book` (an XLSX) with the part `name` left out and the parts `parts`
/// added: `(name, head, piece, times, tail)`, written piece by piece.
fn rebuilt(book: &[u8], drop: &str, parts: &[(&str, &str, &str, usize, &str)]) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut from = zip::ZipArchive::new(std::io::Cursor::new(book)).unwrap();
    let mut to = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for i in 0..from.len() {
        let mut part = from.by_index(i).unwrap();
        let name = part.name().unwrap().into_owned();
        if name == drop {
            continue;
        }
        let mut bytes = Vec::new();
        part.read_to_end(&mut bytes).unwrap();
        to.start_file(name, options).unwrap();
        to.write_all(&bytes).unwrap();
    }
    for (name, head, piece, times, tail) in parts {
        to.start_file(name.to_string(), options).unwrap();
        to.write_all(head.as_bytes()).unwrap();
        let block = piece.repeat(4096);
        for _ in 0..times / 4096 {
            to.write_all(block.as_bytes()).unwrap();
        }
        for _ in 0..times % 4096 {
            to.write_all(piece.as_bytes()).unwrap();
        }
        to.write_all(tail.as_bytes()).unwrap();
    }
    to.finish().unwrap().into_inner()
}

/// `zip` with the entry `name` declared `size` bytes unpacked (local header
/// and central directory), whatever it holds.
fn declared(mut zip: Vec<u8>, name: &str, size: u32) -> Vec<u8> {
    let name = name.as_bytes();
    let mut at = 0;
    while at + 46 < zip.len() {
        let (size_at, len_at, name_at) = match &zip[at..at + 4] {
            b"PK\x03\x04" => (22, 26, 30),
            b"PK\x01\x02" => (24, 28, 46),
            _ => {
                at += 1;
                continue;
            }
        };
        let len = u16::from_le_bytes([zip[at + len_at], zip[at + len_at + 1]]) as usize;
        if zip.get(at + name_at..at + name_at + len) == Some(name) {
            zip[at + size_at..at + size_at + 4].copy_from_slice(&size.to_le_bytes());
        }
        at += 4;
    }
    zip
}

/// Issue 20: an XLSX that unpacks to hundreds of megabytes (its shared
/// strings under another case, one huge cell, sizes that lie) is refused
/// with a reason before `calamine` reads it; a normal workbook still works.
#[tokio::test]
async fn xlsx_bombs_are_refused_before_they_are_read() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientB").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, None, 2).await;
    let book = xlsx(&serials, &g, "X-1");
    let strings = "xl/sharedStrings.xml";
    let sheet = "xl/worksheets/sheet1.xml";
    let cell = "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>code</t></is></c><c r=\"B1\" t=\"inlineStr\"><is><t>";

    let bombs = [
        // 200 MB of one string, under another case.
        (
            "case",
            "parts other than worksheets) unpack to more than 48 MB",
            rebuilt(
                &book,
                strings,
                &[(
                    "XL/SharedStrings.xml",
                    "<sst>",
                    "<si><t>0000000000A</t></si>",
                    8_000_000,
                    "</sst>",
                )],
            ),
        ),
        // One cell of 100 MB.
        (
            "cell",
            "times its packed size",
            rebuilt(
                &book,
                sheet,
                &[(
                    sheet,
                    cell,
                    "a",
                    100 * 1024 * 1024,
                    "</t></is></c></row></sheetData></worksheet>",
                )],
            ),
        ),
        // Shared strings of 200 MB declared as 1 KB.
        (
            "lie",
            // (the ZIP reader stops at the stated size: the check fails)
            "not a readable ZIP archive",
            declared(
                rebuilt(
                    &book,
                    strings,
                    &[(
                        strings,
                        "<sst>",
                        "<si><t>0000000000A</t></si>",
                        8_000_000,
                        "</sst>",
                    )],
                ),
                strings,
                1024,
            ),
        ),
    ];
    for (what, expected, bomb) in bombs {
        assert!(bomb.len() < 2 * 1024 * 1024, "{what}: {}", bomb.len());
        let update = run(&admin, &format!("{what}.xlsx"), bomb, true).await;
        assert_eq!(update["status"], "invalid", "{what}: {update}");
        assert_eq!(update["errors"][0]["row"], 0, "{what}: {update}");
        let reason = update["errors"][0]["reason"].as_str().unwrap();
        assert!(reason.contains(expected), "{what}: {reason}");
    }

    // A normal workbook is still read.
    let update = run(&admin, "batch.xlsx", book, false).await;
    assert_eq!(update["status"], "applied", "{update}");
    assert_eq!(update["rows_applied"], 2);
}

/// A batch is a lot of the register (ADR 0019): applying an update
/// registers the lots its batches name (or finds them), links each batch
/// to its lot, and a recall of that lot reaches the client's codes on the
/// scan page.
#[tokio::test]
async fn an_applied_update_registers_and_links_its_lots() {
    let app = TestApp::spawn().await;
    let (a, admin) = client(&app, "clientA").await;
    let g = gtin14();
    let (serials, _) = codes(&app, &a, &g, None, 3).await;
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "INSERT INTO platform.gtins (gtin, tenant_id) VALUES ('{g}', '{t}')",
        t = a.tenant.id,
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    // A lot the register already has (made by hand), and one it lacks.
    let product_id: uuid::Uuid = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT id FROM {}.products WHERE gtin = '{g}'",
        a.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap();
    let (status, known) = admin
        .post(
            "/api/lots",
            json!({"product_id": product_id, "number": "KNOWN-1"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{known}");
    let rows = vec![
        format!("{},{g},NEW-1,2026-01-10,2028-01-31,KA/25/1234", serials[0]),
        format!("{},{g},NEW-1,2026-01-10,2028-01-31,KA/25/1234", serials[1]),
        format!(
            "{},{g},KNOWN-1,2026-01-10,2028-01-31,KA/25/1234",
            serials[2]
        ),
    ];
    let employee = app.login(&app.account(&a, Role::Employee).await).await;
    let applied = run(&employee, "h2.csv", csv(&rows), false).await;
    assert_eq!(applied["status"], "applied", "{applied}");

    let (status, list) = employee
        .get(&format!("/api/lots?product_id={product_id}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let lots = list["lots"].as_array().unwrap();
    assert_eq!(lots.len(), 2, "{list}");
    let new = lots.iter().find(|l| l["number"] == "NEW-1").unwrap();
    assert_eq!(new["status"], "released");
    assert_eq!(new["manufactured_on"], "2026-01-10");
    assert_eq!(new["expires_on"], "2028-01-31");
    let (_, one) = employee
        .get(&format!("/api/lots/{}", new["id"].as_str().unwrap()))
        .await;
    assert_eq!(one["history"][0]["reason"], "Registered by a batch update");
    assert_eq!(one["history"][0]["who"], employee.user["name"]);
    // One new lot (KNOWN-1 was found), audited.
    assert_eq!(app.audited(&a, "lot.created").await, 2);
    let links: Vec<(String, Option<uuid::Uuid>)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT batch_number, lot_id FROM {}.batches ORDER BY batch_number",
        a.schema
    )))
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(links.len(), 2);
    assert_eq!(links[0].0, "KNOWN-1");
    assert_eq!(
        links[0].1.unwrap().to_string(),
        known["id"].as_str().unwrap()
    );
    assert_eq!(links[1].1.unwrap().to_string(), new["id"].as_str().unwrap());

    // The same batch number again (other data): no second lot.
    let again = vec![format!(
        "{},{g},NEW-1,2026-01-10,2028-01-31,KA/25/9999",
        serials[0]
    )];
    assert_eq!(
        run(&admin, "h2-again.csv", csv(&again), false).await["status"],
        "applied"
    );
    assert_eq!(app.rows(&a, "lots").await, 2);
    assert_eq!(app.audited(&a, "lot.created").await, 2);

    // Recalling the lot reaches the pack's scan page and JSON.
    let (status, _) = admin
        .post(
            &format!("/api/lots/{}/status", new["id"].as_str().unwrap()),
            json!({"status": "recalled", "reason": "Sterility failure"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let uri = format!("{}/01/{g}/21/{}", app.base, serials[1]);
    let html = crate::scans::scan_page(&uri).await;
    assert!(
        html.contains("This product has been recalled. Do not use it."),
        "{html}"
    );
    let (status, json) = crate::scans::scan(&uri, "203.0.113.30").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["lot_status"], "recalled", "{json}");
    // The code of the other lot is not recalled.
    let other = format!("{}/01/{g}/21/{}", app.base, serials[2]);
    let (_, json) = crate::scans::scan(&other, "203.0.113.31").await;
    assert_eq!(json["lot_status"], "released", "{json}");
}
