//! `make bench`, scans (issue 9), in one run on one machine, written to the
//! `scans` section of docs/benchmarks.md:
//! - ingestion: consumers' scans through the public resolver
//!   (`GET /01/{gtin}/21/{serial}`, JSON), 16 concurrent clients, against
//!   pgbench's single-row inserts into an equivalent table (`LIKE scans`)
//!   with as many clients, in the same database. Target: at least 0.5×;
//! - latency: the resolver's median and p99 under that load;
//! - analytics at scale: `GET /api/brand-scans` and `GET /api/scan-analytics`
//!   with 10 thousand and with 10 million scans in the tenant (raw scans,
//!   their codes' state and their rollups, made the same way for both).
//!   Target: at most 2× the time with 10 thousand.
//!
//! Never run by `make test`; timings do not belong in tests.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use sqlx::PgPool;

use common::{Bench, SignedIn, machine, median};

const CLIENTS: usize = 16;
const CODES: u32 = 50_000;
const SECONDS: u64 = 10;
const ROUNDS: usize = 3;

/// Scans `uris` from CLIENTS clients for SECONDS: scans per second and
/// every request's latency in milliseconds.
async fn ingest(uris: Arc<Vec<String>>) -> (f64, Vec<f64>) {
    let stop = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    let started = Instant::now();
    for client in 0..CLIENTS {
        let (stop, next, uris) = (stop.clone(), next.clone(), uris.clone());
        tasks.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let mut latencies = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let t = Instant::now();
                let r = http
                    .get(&uris[i % uris.len()])
                    .header("accept", "application/json")
                    .header(
                        "user-agent",
                        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile",
                    )
                    .header(
                        "x-forwarded-for",
                        format!("10.{}.{}.{}", client, (i >> 8) & 255, i & 255),
                    )
                    .send()
                    .await
                    .unwrap();
                assert!(r.status().is_success(), "{}", r.status());
                let _ = r.bytes().await.unwrap();
                latencies.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            latencies
        }));
    }
    tokio::time::sleep(Duration::from_secs(SECONDS)).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let rate = all.len() as f64 / started.elapsed().as_secs_f64();
    (rate, all)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// pgbench: single-row inserts into `bench_scans` (a table like `scans`),
/// CLIENTS clients for SECONDS; transactions per second.
fn pgbench(db_url: &str, schema: &str, product: &str) -> f64 {
    common::pgbench_tps(
        db_url,
        "scan-insert",
        &format!(
            "\\set serial random(1, 1000000000)\n\
             INSERT INTO {schema}.bench_scans (serial, gtin, serial_text, product_id, verdict, first_scan, agent_class, country, country_name, region, city, location_source) \
             VALUES (:serial, '09506000134352', 'ABCDEFGHIJK', '{product}', 'genuine', false, 'mobile', '', '', '', '', 'none');\n"
        ),
        CLIENTS,
        SECONDS,
    )
}

/// Empties the tenant's scans and makes `n` of them the same way for every
/// size: over the last 365 days, 50 places in 5 countries, one scan in 50
/// suspicious, codes scanned about five times each; then their codes' state
/// and their rollups, as the resolver keeps them.
async fn make_scans(owner: &PgPool, schema: &str, product: &str, n: i64) {
    for table in [
        "scans",
        "code_scan_state",
        "scan_rollup",
        "scan_bots",
        "consumers",
        "consumer_rollup",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(format!("TRUNCATE {schema}.{table}")))
            .execute(owner)
            .await
            .unwrap();
    }
    let codes = (n / 5).max(1);
    let statements = [
        format!(
            "INSERT INTO {schema}.scans (scanned_at, serial, gtin, serial_text, product_id, verdict,
                 first_scan, agent_class, country, country_name, region, city, lat, lon, location_source)
             SELECT now() - (g % 365) * interval '1 day', g % {codes}, '09506000134352', 'X', '{product}',
                    CASE WHEN g % 50 = 0 THEN 'suspicious' ELSE 'genuine' END, g <= {codes}, 'mobile',
                    (ARRAY['IN','DE','US','BR','JP'])[1 + g % 5],
                    (ARRAY['India','Germany','United States','Brazil','Japan'])[1 + g % 5],
                    'Region ' || (g % 10), 'City ' || (g % 50), (g % 50) - 25, (g % 50) * 3 - 75, 'ip'
             FROM generate_series(1, {n}) g"
        ),
        format!(
            "INSERT INTO {schema}.code_scan_state (serial, product_id, scans, suspicious, first_at, last_at)
             SELECT serial, '{product}', count(*), bool_or(verdict = 'suspicious'), min(scanned_at), max(scanned_at)
             FROM {schema}.scans GROUP BY serial"
        ),
        format!(
            "INSERT INTO {schema}.scan_rollup (day, product_id, country, country_name, region, city, lat, lon,
                 scans, first_scans, genuine, suspicious, not_recognised)
             SELECT (scanned_at AT TIME ZONE 'UTC')::date, product_id, country, max(country_name), region, city,
                    avg(lat), avg(lon), count(*), count(*) FILTER (WHERE first_scan),
                    count(*) FILTER (WHERE verdict = 'genuine'), count(*) FILTER (WHERE verdict = 'suspicious'), 0
             FROM {schema}.scans GROUP BY 1, 2, 3, 5, 6"
        ),
        format!("ANALYZE {schema}.scans, {schema}.code_scan_state, {schema}.scan_rollup"),
    ];
    for sql in statements {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(owner)
            .await
            .unwrap();
    }
}

/// The median time, in ms, of 30 calls of `path` (after 5 warm-up calls).
async fn time_call(c: &reqwest::Client, url: &str) -> f64 {
    let mut times = Vec::new();
    for i in 0..35 {
        let t = Instant::now();
        let r = c.get(url).send().await.unwrap();
        assert!(r.status().is_success(), "{url}: {}", r.status());
        let _ = r.bytes().await.unwrap();
        if i >= 5 {
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    median(times)
}

#[tokio::main]
async fn main() {
    let mut bench = Bench::new().await;
    bench.settings.scan_rate_per_minute = 1_000_000;
    bench.settings.db_max_connections = 40;
    bench.settings.db_tenant_pool_size = 16;
    let (owner, root, db_url) = (&bench.owner, &bench.root, &bench.db_url);
    let schema = bench.acme_schema().await;
    let (base, _) = bench.serve().await;

    let admin = SignedIn::login(&base, "admin@acme.test").await;
    let c = &admin.http;
    let product_id = admin
        .create_product("Bench tablets", "BENCH-SCANS", "09506000134352")
        .await;
    let job = admin
        .post(
            "/api/code-jobs",
            json!({"product_id": product_id, "quantity": CODES}),
        )
        .await;
    let job_id = job["id"].as_str().unwrap().to_string();
    admin
        .until_done(&format!("/api/code-jobs/{job_id}"), Instant::now())
        .await;
    let csv = c
        .get(format!("{base}/api/code-jobs/{job_id}/codes.csv"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let uris: Arc<Vec<String>> = Arc::new(
        csv.lines()
            .skip(1)
            .map(|l| l.rsplit(',').next().unwrap().to_string())
            .collect(),
    );
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "CREATE TABLE {schema}.bench_scans (LIKE {schema}.scans INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS INCLUDING INDEXES)"
    )))
    .execute(owner)
    .await
    .unwrap();

    // --- ingestion and latency, rounds alternating ------------------------
    let (mut ours, mut theirs, mut latencies) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let (rate, lat) = ingest(uris.clone()).await;
        ours.push(rate);
        latencies.extend(lat);
        let url = db_url.clone();
        let (s, p) = (schema.clone(), product_id.clone());
        theirs.push(
            tokio::task::spawn_blocking(move || pgbench(&url, &s, &p))
                .await
                .unwrap(),
        );
    }
    latencies.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let (p50, p99) = (percentile(&latencies, 0.5), percentile(&latencies, 0.99));
    let (ours_m, theirs_m) = (median(ours.clone()), median(theirs.clone()));
    let ingest_ratio = ours_m / theirs_m;

    // --- analytics with 10 thousand and 10 million scans -----------------
    let mut timings = Vec::new();
    for n in [10_000_i64, 10_000_000] {
        let t = Instant::now();
        make_scans(owner, &schema, &product_id, n).await;
        let made = t.elapsed().as_secs_f64();
        let brand = time_call(c, &format!("{base}/api/brand-scans")).await;
        let analytics = time_call(
            c,
            &format!("{base}/api/scan-analytics?from=2000-01-01&to=2001-12-31"),
        )
        .await;
        let today = chrono::Utc::now().date_naive();
        let year = time_call(
            c,
            &format!(
                "{base}/api/scan-analytics?from={}&to={today}",
                today - chrono::Duration::days(364)
            ),
        )
        .await;
        timings.push((n, made, brand, analytics, year));
    }
    let ratio = |f: fn(&(i64, f64, f64, f64, f64)) -> f64| f(&timings[1]) / f(&timings[0]);
    let (brand_ratio, year_ratio) = (ratio(|t| t.2), ratio(|t| t.4));
    let meets = |ok: bool| if ok { "meets it" } else { "does NOT meet it" };

    let mut rows = String::new();
    for (n, made, brand, empty, year) in &timings {
        rows.push_str(&format!(
            "| {n} | {made:.0} s | {brand:.1} ms | {year:.1} ms | {empty:.1} ms |\n"
        ));
    }
    let fmt = |v: &[f64]| common::runs(v, 0);
    let report = format!(
        "## Scans: resolver ingestion, latency, analytics at scale\n\n\
         `backend/benches/scans.rs`.\n\n\
         - Machine: {machine}\n\
         - Date: {date}\n\
         - Build: release (`cargo bench`); server, clients and PostgreSQL on the same machine; {CLIENTS} concurrent clients, {ROUNDS} rounds of {SECONDS} s alternating (median shown).\n\n\
         | ingestion | per second | runs |\n|---|---:|---|\n\
         | scans through the public resolver (`GET /01/…/21/…`, JSON, a new consumer each: the GTIN's brand, the code's lookup, its count and verdict, the raw scan, the day's rollup, the consumer; written in batches by the brand's writer, each committed before its scans are answered) | {ours_m:.0} | {ours_runs} |\n\
         | baseline: pgbench, single-row `INSERT` into a table like `scans` | {theirs_m:.0} | {theirs_runs} |\n\n\
         **Resolver ingestion / single-row inserts = {ingest_ratio:.2}** (target ≥ 0.5: {ingest_meets}).\n\n\
         **Resolver latency under that load: median {p50:.1} ms, p99 {p99:.1} ms** ({count} requests).\n\n\
         | scans in the tenant | made in | `GET /api/brand-scans` | `GET /api/scan-analytics`, last 365 days | same, a range with no scans |\n|---:|---:|---:|---:|---:|\n{rows}\n\
         Median of 30 calls each, one client. **10 million / 10 thousand: brand-scans {brand_ratio:.2}, scan-analytics {year_ratio:.2}** (target ≤ 2: {scale_meets}). \
         Every figure is a sum over the daily rollup (rows per day, product and place), and the most scanned codes come from an index on the codes' counts and serials, so neither reads the raw scans.\n",
        machine = machine(),
        date = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        ours_runs = fmt(&ours),
        theirs_runs = fmt(&theirs),
        ingest_meets = meets(ingest_ratio >= 0.5),
        count = latencies.len(),
        scale_meets = meets(brand_ratio <= 2.0 && year_ratio <= 2.0),
    );
    println!("{report}");
    common::write_section(&root.join("docs/benchmarks.md"), "scans", &report);
    bench.finish().await;
}
