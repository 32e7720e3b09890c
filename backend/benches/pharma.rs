//! `make bench`, the pharmaceutical clients (issue 10), in one run on one
//! machine, written to the `pharma` section of docs/benchmarks.md:
//! - batch update: a 1,000,000-row CSV uploaded to `POST
//!   /api/batch-updates?dry_run=false` and applied (upload, storing, every
//!   row checked, the codes checked against the tenant's 1,000,000 codes,
//!   the batch data written in one transaction) against a raw `COPY` of the
//!   same file into a table. Target: at most 3× the raw COPY. The server's
//!   memory growth meanwhile: target under 100 MB.
//!
//! The server runs in this process, so "the server's memory" is this
//! process's resident set; the benchmark's client streams the file from
//! disk, so it holds only a few buffers. Never run by `make test`.

mod common;

use std::time::{Duration, Instant};

use brandops::codes::Serial;
use rand::RngCore;
use serde_json::Value;
use tokio::io::AsyncReadExt;

use common::{Bench, RssPeak, SignedIn, machine};

const ROWS: u32 = 1_000_000;
const ROUNDS: usize = 2;
const GTIN: &str = "08901030865275";

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1_048_576.0
}

/// A file's bytes as a stream read from disk in 256 KiB pieces.
fn file_stream(path: std::path::PathBuf) -> reqwest::Body {
    let stream = futures::stream::unfold(None, move |file: Option<tokio::fs::File>| {
        let path = path.clone();
        async move {
            let mut file = match file {
                Some(f) => f,
                None => tokio::fs::File::open(&path).await.ok()?,
            };
            let mut buf = vec![0u8; 256 * 1024];
            let n = file.read(&mut buf).await.ok()?;
            if n == 0 {
                return None;
            }
            buf.truncate(n);
            Some((Ok::<_, std::io::Error>(buf), Some(file)))
        }
    });
    reqwest::Body::wrap_stream(stream)
}

#[tokio::main]
async fn main() {
    let bench = Bench::new().await;
    let (owner, root) = (&bench.owner, &bench.root);
    let schema: String =
        sqlx::query_scalar("SELECT schema_name FROM platform.tenants WHERE client_id = 'clientA'")
            .fetch_one(owner)
            .await
            .unwrap();
    // 1,000,000 codes of one product, as a finished code job wrote them.
    let mut rng = rand::rng();
    let serials: Vec<i64> = (0..ROWS).map(|_| rng.next_u64() as i64).collect();
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {schema}.products (id, product_name, skuid, gtin) VALUES ('00000000-0000-0000-0000-0000000000b1', 'Bench tablets', 'BENCH-1', '{GTIN}');
         INSERT INTO {schema}.code_jobs (id, product_id, gtin, resolver_base, quantity, generated, status)
         VALUES ('00000000-0000-0000-0000-0000000000b2', '00000000-0000-0000-0000-0000000000b1', '{GTIN}', 'https://id.example', {ROWS}, {ROWS}, 'done')"
    )))
    .execute(owner)
    .await
    .unwrap();
    let job_seq: i32 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT seq FROM {schema}.code_jobs WHERE id = '00000000-0000-0000-0000-0000000000b2'"
    )))
    .fetch_one(owner)
    .await
    .unwrap();
    {
        let mut conn = owner.acquire().await.unwrap();
        let mut copy = conn
            .copy_in_raw(&format!(
                "COPY {schema}.codes (serial, job_seq, position) FROM STDIN"
            ))
            .await
            .unwrap();
        let mut rows = String::with_capacity(ROWS as usize * 30);
        for (i, s) in serials.iter().enumerate() {
            rows.push_str(&format!("{s}\t{job_seq}\t{}\n", i + 1));
        }
        copy.send(rows.as_bytes()).await.unwrap();
        copy.finish().await.unwrap();
    }
    sqlx::query(sqlx::AssertSqlSafe(format!("ANALYZE {schema}.codes")))
        .execute(owner)
        .await
        .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "CREATE TABLE {schema}.bench_raw (code text, gtin text, batch_number text, manufacturing_date date, expiry_date date, licence_number text)"
    )))
    .execute(owner)
    .await
    .unwrap();

    let (base, _) = bench.serve().await;
    let admin = SignedIn::login(&base, "admin@clienta.test").await;
    let dir = tempfile::tempdir().unwrap();

    let (mut raw_copy, mut ours, mut growth, mut size) = (Vec::new(), Vec::new(), 0u64, 0u64);
    let mut phases = Vec::new();
    for round in 0..ROUNDS {
        // The file, written before the clocks start: each round its own
        // batch number, so its content (and hash) is new.
        let path = dir.path().join(format!("round{round}.csv"));
        {
            let mut text = String::with_capacity(ROWS as usize * 80);
            text.push_str("code,gtin,batch_number,manufacturing_date,expiry_date,licence_number\n");
            for (i, s) in serials.iter().enumerate() {
                let batch = if i % 2 == 0 { "A" } else { "B" };
                text.push_str(&format!(
                    "{},{GTIN},R{round}-{batch},2026-01-10,2028-01-31,KA/25/001234\n",
                    Serial::from_db(*s)
                ));
            }
            std::fs::write(&path, text.as_bytes()).unwrap();
            size = text.len() as u64;
        }

        // Raw COPY of the same file into a table without indexes.
        sqlx::query(sqlx::AssertSqlSafe(format!("TRUNCATE {schema}.bench_raw")))
            .execute(owner)
            .await
            .unwrap();
        let started = Instant::now();
        {
            let mut conn = owner.acquire().await.unwrap();
            let mut tx = sqlx::Acquire::begin(&mut *conn).await.unwrap();
            let mut copy = tx
                .copy_in_raw(&format!(
                    "COPY {schema}.bench_raw FROM STDIN (FORMAT csv, HEADER true)"
                ))
                .await
                .unwrap();
            let mut file = tokio::fs::File::open(&path).await.unwrap();
            let mut buf = vec![0u8; 1 << 20];
            loop {
                let n = file.read(&mut buf).await.unwrap();
                if n == 0 {
                    break;
                }
                copy.send(&buf[..n]).await.unwrap();
            }
            copy.finish().await.unwrap();
            tx.commit().await.unwrap();
        }
        raw_copy.push(started.elapsed().as_secs_f64());

        // Ours: upload, then poll until applied.
        let before = common::rss();
        let peak = RssPeak::start();
        let started = Instant::now();
        let part = reqwest::multipart::Part::stream_with_length(file_stream(path.clone()), size)
            .file_name("bench.csv");
        let resp = admin
            .http
            .post(admin.url("/api/batch-updates?dry_run=false"))
            .header("x-csrf-token", &admin.csrf)
            .multipart(reqwest::multipart::Form::new().part("file", part))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 202, "{:?}", resp.text().await);
        let update: Value = resp.json().await.unwrap();
        let uploaded = started.elapsed().as_secs_f64();
        let id = update["id"].as_str().unwrap().to_string();
        let mut checked = None;
        loop {
            let u = admin.get_json(&format!("/api/batch-updates/{id}")).await;
            match u["status"].as_str() {
                Some("applied") => {
                    assert_eq!(u["rows_applied"], ROWS);
                    break;
                }
                Some("applying") if checked.is_none() => {
                    checked = Some(started.elapsed().as_secs_f64());
                }
                Some("invalid" | "failed") => panic!("bench update ended {u}"),
                _ => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
        let total = started.elapsed().as_secs_f64();
        let checked = checked.unwrap_or(total);
        phases.push(format!(
            "{uploaded:.2} s upload, {:.2} s reading and staging, {:.2} s checking and writing",
            checked - uploaded,
            total - checked
        ));
        ours.push(total);
        growth = growth.max(peak.finish().await.saturating_sub(before));
        let _ = std::fs::remove_file(&path);
    }
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let ratio = best(&ours) / best(&raw_copy);
    let fmt = |v: &[f64]| common::runs(v, 2);
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    let report = format!(
        "## Pharmaceutical clients (issue 10)\n\n\
         Machine: {machine}.\n\n\
         ### Batch update of {ROWS} rows ({file_mb:.1} MB CSV)\n\n\
         | | runs (s) | best (s) |\n|---|---|---|\n\
         | raw `COPY … FROM STDIN (FORMAT csv)` of the file into a table without indexes | {rawr} | {raw:.2} |\n\
         | `POST /api/batch-updates?dry_run=false` until applied | {oursr} | {ours_best:.2} |\n\n\
         - Ratio: **{ratio:.2}×** the raw COPY (target ≤ 3×: {rv}).\n\
         - Server memory growth (peak resident set during upload and apply, less before): \
         **{growth_mb:.1} MB** (target < 100 MB: {mv}).\n\
         - Where the time went, by run (as the page's polling sees it): {phases}.\n\n\
         Ours runs from the first byte of the upload to `GET` saying applied: streaming the file to \
         the server's store while hashing it, reading and checking every row, staging them with \
         `COPY`, checking each code against the tenant's {ROWS} codes (and for repeats), then writing \
         the batches and the codes' slots (ADR 0017) in the same transaction. The file's two batches \
         alternate row by row, so every slot of 512 codes holds both: twice the slot rows of a file \
         that lists its codes batch by batch.\n",
        machine = machine(),
        file_mb = mb(size),
        rawr = fmt(&raw_copy),
        raw = best(&raw_copy),
        oursr = fmt(&ours),
        ours_best = best(&ours),
        rv = verdict(ratio <= 3.0),
        growth_mb = mb(growth),
        mv = verdict(growth < 100 * 1_048_576),
        phases = phases.join("; "),
    );
    common::write_section(&root.join("docs/benchmarks.md"), "pharma", &report);
    println!("{report}");
    bench.finish().await;
}
