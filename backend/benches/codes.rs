//! `make bench`, codes and labels (issue 8), in one run on one machine,
//! written to the `codes` section of docs/benchmarks.md:
//! - generation: a code job of 1,000,000 codes through the API (queued,
//!   run by the background runner, batches written with COPY and committed
//!   with the job's progress) against a raw `COPY` of 1,000,000 equivalent
//!   rows into the same (emptied) table. Target: at most 2× the raw COPY;
//! - download: those codes as `codes.csv` over HTTP against `COPY (the same
//!   rows, in the same order) TO STDOUT`, and the server's resident memory
//!   growth meanwhile. Targets: at least 0.5× the COPY's speed, under 50 MB;
//! - bulk download (issue 10): as many codes in four jobs of two batches of
//!   client B, as one ZIP (`/api/codes/bulk.zip`), its time and the
//!   server's memory growth meanwhile. Target: constant memory, under 50 MB;
//! - labels: 10,000 labels as PDF (A4 sheets) and as ZPL, labels per
//!   second and memory growth.
//!
//! The server runs in this process, so "the server's memory" is this
//! process's resident set (the client only counts the bytes it receives).
//! Never run by `make test`; timings do not belong in tests.

mod common;

use std::time::Instant;

use futures::StreamExt;
use rand::RngCore;
use serde_json::json;

use common::{Bench, RssPeak, SignedIn, machine};

const CODES: u32 = 1_000_000;
const LABELS: u32 = 10_000;
const ROUNDS: usize = 2;

/// Reads a response to its end, counting bytes (never holding them).
async fn drain(resp: reqwest::Response) -> u64 {
    assert!(resp.status().is_success(), "{}", resp.status());
    let mut stream = resp.bytes_stream();
    let mut n = 0;
    while let Some(chunk) = stream.next().await {
        n += chunk.unwrap().len() as u64;
    }
    n
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1_048_576.0
}

#[tokio::main]
async fn main() {
    let bench = Bench::new().await;
    let (owner, root) = (&bench.owner, &bench.root);
    sqlx::query("UPDATE platform.tenants SET code_quota = 100000000 WHERE client_id = 'acme'")
        .execute(owner)
        .await
        .unwrap();
    let schema = bench.acme_schema().await;
    let (base, _) = bench.serve().await;
    let admin = SignedIn::login(&base, "admin@acme.test").await;
    let c = &admin.http;
    let product_id = admin
        .create_product("Bench water", "BENCH-1", "09506000134352")
        .await;

    // --- generation ------------------------------------------------------
    let mut raw_copy = Vec::new();
    let mut ours = Vec::new();
    let mut last_job = String::new();
    for round in 0..ROUNDS {
        sqlx::query(sqlx::AssertSqlSafe(format!("TRUNCATE {schema}.codes")))
            .execute(owner)
            .await
            .unwrap();
        // The same rows the runner writes: a random serial, a job key, a
        // position; prepared before the clock starts.
        let mut rng = rand::rng();
        let mut rows = String::with_capacity(CODES as usize * 36);
        for position in 1..=CODES {
            rows.push_str(&format!(
                "{}\t{}\t{position}\n",
                rng.next_u64() as i64,
                -1 - round as i32
            ));
        }
        let started = Instant::now();
        let mut conn = owner.acquire().await.unwrap();
        let mut tx = sqlx::Acquire::begin(&mut *conn).await.unwrap();
        let mut copy = tx
            .copy_in_raw(&format!(
                "COPY {schema}.codes (serial, job_seq, position) FROM STDIN"
            ))
            .await
            .unwrap();
        for chunk in rows.as_bytes().chunks(1 << 20) {
            copy.send(chunk).await.unwrap();
        }
        copy.finish().await.unwrap();
        tx.commit().await.unwrap();
        raw_copy.push(started.elapsed().as_secs_f64());
        drop(conn);

        sqlx::query(sqlx::AssertSqlSafe(format!("TRUNCATE {schema}.codes")))
            .execute(owner)
            .await
            .unwrap();
        let started = Instant::now();
        let job = admin
            .post(
                "/api/code-jobs",
                json!({"product_id": product_id, "quantity": CODES, "lot": {"number": format!("BENCH{round}")}}),
            )
            .await;
        let id = job["id"].as_str().unwrap().to_string();
        ours.push(
            admin
                .until_done(&format!("/api/code-jobs/{id}"), started)
                .await,
        );
        last_job = id;
    }
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (raw_best, ours_best) = (best(&raw_copy), best(&ours));
    let generation_ratio = ours_best / raw_best;

    // --- download ----------------------------------------------------------
    let job_seq: i32 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT seq FROM {schema}.code_jobs WHERE id = '{last_job}'"
    )))
    .fetch_one(owner)
    .await
    .unwrap();
    let (mut copy_out, mut csv_runs, mut csv_bytes, mut growth) = (Vec::new(), Vec::new(), 0, 0);
    for _ in 0..ROUNDS {
        let started = Instant::now();
        let mut conn = owner.acquire().await.unwrap();
        let mut out = conn
            .copy_out_raw(&format!(
                "COPY (SELECT serial, position FROM {schema}.codes WHERE job_seq = {job_seq} ORDER BY position) TO STDOUT"
            ))
            .await
            .unwrap();
        let mut n = 0;
        while let Some(chunk) = out.next().await {
            n += chunk.unwrap().len();
        }
        drop(out);
        assert!(n > 0);
        copy_out.push(started.elapsed().as_secs_f64());

        let before = common::rss();
        let peak = RssPeak::start();
        let started = Instant::now();
        let resp = c
            .get(format!("{base}/api/code-jobs/{last_job}/codes.csv"))
            .send()
            .await
            .unwrap();
        csv_bytes = drain(resp).await;
        csv_runs.push(started.elapsed().as_secs_f64());
        growth = growth.max(peak.finish().await.saturating_sub(before));
    }
    let started = Instant::now();
    let zip_bytes = drain(
        c.get(format!("{base}/api/code-jobs/{last_job}/codes.zip"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let zip_time = started.elapsed().as_secs_f64();
    let download_ratio = best(&copy_out) / best(&csv_runs);

    // --- bulk download (client B's /pmbi/codeDownload) --------------------
    // The same number of codes in four jobs of two batches, as one ZIP of
    // four CSVs and a manifest.
    let client_b = SignedIn::login(&base, "admin@clientb.test").await;
    let gtin_body = "950600013437";
    let bulk_product = client_b
        .create_product(
            "Bench tablets",
            "BENCH-B",
            &format!(
                "{gtin_body}{}",
                brandops::gs1::check_digit(gtin_body).unwrap()
            ),
        )
        .await;
    let mut bulk_lots: Vec<String> = Vec::new();
    for lot in ["BULK-A", "BULK-A", "BULK-B", "BULK-B"] {
        let job = client_b
            .post(
                "/api/code-jobs",
                json!({"product_id": bulk_product, "quantity": CODES / 4, "lot": {"number": lot}}),
            )
            .await;
        client_b
            .until_done(
                &format!("/api/code-jobs/{}", job["id"].as_str().unwrap()),
                Instant::now(),
            )
            .await;
        let lot_id = job["lot_id"].as_str().unwrap().to_string();
        if !bulk_lots.contains(&lot_id) {
            bulk_lots.push(lot_id);
        }
    }
    let query = bulk_lots
        .iter()
        .map(|id| format!("lot_id={id}"))
        .collect::<Vec<_>>()
        .join("&");
    let before = common::rss();
    let peak = RssPeak::start();
    let started = Instant::now();
    let bulk_bytes = drain(
        client_b
            .http
            .get(format!("{base}/api/codes/bulk.zip?{query}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let bulk_time = started.elapsed().as_secs_f64();
    let bulk_growth = peak.finish().await.saturating_sub(before);

    // --- labels ------------------------------------------------------------
    let job = admin
        .post(
            "/api/code-jobs",
            json!({"product_id": product_id, "quantity": LABELS,
                   "lot": {"number": "LBL1", "expires_on": "2028-01-31"}}),
        )
        .await;
    let label_job = job["id"].as_str().unwrap().to_string();
    admin
        .until_done(&format!("/api/code-jobs/{label_job}"), Instant::now())
        .await;
    let template = admin.post(
        "/api/label-templates",
        json!({"name": "Bench A4", "design": {"width_mm": 70, "height_mm": 37, "symbology": "qr",
               "sheet": "a4_3x8", "fields": {"product_name": true, "gtin": true, "lot": true,
               "expiry": true, "serial": true}, "font_size_pt": 7, "margin_mm": 1.5}}),
    )
    .await;
    let mut labels = Vec::new();
    for format in ["pdf", "zpl"] {
        let before = common::rss();
        let peak = RssPeak::start();
        let started = Instant::now();
        let print = admin
            .post(
                "/api/print-jobs",
                json!({"template_id": template["id"], "code_job_id": label_job, "format": format}),
            )
            .await;
        let id = print["id"].as_str().unwrap();
        let secs = admin
            .until_done(&format!("/api/print-jobs/{id}"), started)
            .await;
        let grew = peak.finish().await.saturating_sub(before);
        let done = admin.get_json(&format!("/api/print-jobs/{id}")).await;
        labels.push((
            format,
            secs,
            grew,
            done["output_bytes"].as_u64().unwrap_or(0),
        ));
    }

    let fmt = |v: &[f64]| common::runs(v, 2);
    let verdict = |ok: bool| if ok { "meets it" } else { "misses it" };
    let mut report = format!(
        "## Codes and labels\n\n\
         `backend/benches/codes.rs`.\n\n\
         - Machine: {machine}\n\
         - Date: {date}\n\
         - Build: release (`cargo bench`); the server in the benchmark's process, {ROUNDS} rounds \
         (best shown), the baseline and ours alternating.\n\n\
         | measurement | seconds | runs |\n|---|---:|---|\n\
         | baseline: raw `COPY` of {CODES} code rows (random serial, job, position) into the emptied `codes` table, one transaction | {raw_best:.2} | {rr} |\n\
         | a code job of {CODES} codes: `POST /api/code-jobs` until `GET` says done (random serials, batches of 50,000 written with `COPY`, each committed with the job's progress) | {ours_best:.2} | {or} |\n\
         | baseline: `COPY (SELECT serial, position … WHERE job_seq = … ORDER BY position) TO STDOUT` of those codes | {copy_best:.2} | {cr} |\n\
         | `GET /api/code-jobs/{{id}}/codes.csv` of those codes ({csv_mb:.0} MB), streamed | {csv_best:.2} | {csvr} |\n\
         | for reference: `codes.zip` of those codes ({zip_mb:.0} MB, deflated) | {zip_time:.2} | |\n\
         | bulk download (client B): `GET /api/codes/bulk.zip?lot_id=…&lot_id=…` of {CODES} codes in 4 jobs of 2 batches, one ZIP of 4 CSVs and a manifest ({bulk_mb:.0} MB, deflated), streamed | {bulk_time:.2} | |\n\n\
         **Generation / raw COPY = {generation_ratio:.2}×** the time (target ≤ 2×: {gv}).\n\n\
         **Download speed / COPY TO STDOUT = {download_ratio:.2}** (target ≥ 0.5: {dv}); the server's resident memory grew by \
         **{growth_mb:.1} MB** during the download (target < 50 MB: {mv}); during the bulk ZIP download, by \
         **{bulk_growth_mb:.1} MB** (target: constant memory, < 50 MB: {bv}).\n\n\
         | labels | format | seconds | labels/s | output | memory growth |\n|---:|---|---:|---:|---:|---:|\n",
        machine = machine(),
        date = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        rr = fmt(&raw_copy),
        or = fmt(&ours),
        copy_best = best(&copy_out),
        cr = fmt(&copy_out),
        csv_best = best(&csv_runs),
        csvr = fmt(&csv_runs),
        csv_mb = mb(csv_bytes),
        zip_mb = mb(zip_bytes),
        gv = verdict(generation_ratio <= 2.0),
        dv = verdict(download_ratio >= 0.5),
        growth_mb = mb(growth),
        mv = verdict(growth < 50 * 1_048_576),
        bulk_mb = mb(bulk_bytes),
        bulk_growth_mb = mb(bulk_growth),
        bv = verdict(bulk_growth < 50 * 1_048_576),
    );
    for (format, secs, grew, bytes) in &labels {
        report.push_str(&format!(
            "| {LABELS} | {} | {secs:.2} | {:.0} | {:.1} MB | {:.1} MB |\n",
            if *format == "pdf" {
                "PDF, A4 3 × 8 sheets, QR"
            } else {
                "ZPL, QR"
            },
            f64::from(LABELS) / secs,
            mb(*bytes),
            mb(*grew),
        ));
    }
    report.push_str(
        "\nLabel times run from `POST /api/print-jobs` until `GET` says done: reading the codes, \
         encoding every QR code, writing the file and storing it. Memory growth is the peak of the \
         process's resident set during the job less the value before it.\n",
    );
    common::write_section(&root.join("docs/benchmarks.md"), "codes", &report);
    println!("{report}");
    bench.finish().await;
}
