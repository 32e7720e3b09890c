//! `make bench`, inventory (issue 22), in one run on one machine, written to
//! the `inventory` section of docs/benchmarks.md:
//! - moves: stock moves through the API (`POST /api/stock-moves`, receipts:
//!   the lot's share lock, one balance upsert, the ledger row, the audit row,
//!   in one transaction), CLIENTS concurrent clients each on its own balance
//!   row, against pgbench's single-row inserts into a table like
//!   `stock_moves` with as many clients, in the same database. Target: at
//!   least 0.5×;
//! - reads at scale: `GET /api/stock?product_id=` for one product with
//!   10,000 and with 1,000,000 moves of it in the ledger (the same 100
//!   balance rows). Target: at most 2× the time with 10,000;
//! - reservations: 50 parallel reservations of 1 unit against 10 on hand,
//!   ROUNDS times: exactly 10 succeed every time.
//!
//! Never run by `make test`; timings do not belong in tests.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use common::{Bench, SignedIn, machine, median};

const CLIENTS: usize = 16;
const SECONDS: u64 = 10;
const ROUNDS: usize = 3;
const RESERVATION_ROUNDS: usize = 10;

/// Inserts a lot of `product` as the owner; its id.
async fn lot(owner: &sqlx::PgPool, schema: &str, product: &str, number: &str) -> String {
    let id = uuid::Uuid::new_v4();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {schema}.lots (id, product_id, number) VALUES ($1, $2::uuid, $3)"
    )))
    .bind(id)
    .bind(product)
    .bind(number)
    .execute(owner)
    .await
    .unwrap();
    id.to_string()
}

async fn location(admin: &SignedIn, code: &str) -> String {
    let loc = admin
        .post(
            "/api/locations",
            json!({"code": code, "name": code, "kind": "bin"}),
        )
        .await;
    loc["id"].as_str().unwrap().to_string()
}

/// Receipts from CLIENTS clients for SECONDS, each client into its own
/// location: moves per second.
async fn moves(admin: Arc<SignedIn>, product: String, lot: String, locations: Vec<String>) -> f64 {
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for to in locations {
        let (stop, done, admin) = (stop.clone(), done.clone(), admin.clone());
        let body = json!({"product_id": product, "lot_id": lot, "quantity": "1",
                          "to_location_id": to, "reason": "receipt",
                          "unit_cost": "1.25", "currency": "EUR"});
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let r = admin
                    .http
                    .post(admin.url("/api/stock-moves"))
                    .header("x-csrf-token", &admin.csrf)
                    .json(&body)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(r.status().as_u16(), 201);
                let _ = r.bytes().await.unwrap();
                done.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(SECONDS)).await;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        t.await.unwrap();
    }
    done.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
}

/// pgbench: single-row inserts into `bench_moves` (a table like
/// `stock_moves`), CLIENTS clients for SECONDS; transactions per second.
fn pgbench(db_url: &str, schema: &str, product: &str, lot: &str, to: &str) -> f64 {
    common::pgbench_tps(
        db_url,
        "move-insert",
        &format!(
            "INSERT INTO {schema}.bench_moves (id, product_id, lot_id, quantity, to_location_id, reason, unit_cost, currency) \
             VALUES (gen_random_uuid(), '{product}', '{lot}', 1, '{to}', 'receipt', 1.25, 'EUR');\n"
        ),
        CLIENTS,
        SECONDS,
    )
}

/// Median milliseconds of 30 calls (after 5 to warm up).
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

/// Adds `n` receipts of `product`'s lots into its locations to the ledger,
/// as the owner (the balances are the API's; only the ledger grows).
async fn grow_ledger(owner: &sqlx::PgPool, schema: &str, product: &str, n: i64) {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {schema}.stock_moves (id, product_id, lot_id, quantity, to_location_id, reason, unit_cost, currency)
         WITH b AS (
             SELECT array_agg(lot_id ORDER BY location_id, lot_id) AS lots,
                    array_agg(location_id ORDER BY location_id, lot_id) AS locs,
                    count(*) AS n
               FROM {schema}.stock_balances WHERE product_id = $1::uuid
         )
         SELECT gen_random_uuid(), $1::uuid, b.lots[(1 + g % b.n)::int], 1, b.locs[(1 + g % b.n)::int],
                'receipt', 1, 'EUR'
           FROM generate_series(1, $2) g, b"
    )))
    .bind(product)
    .bind(n)
    .execute(owner)
    .await
    .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("ANALYZE {schema}.stock_moves")))
        .execute(owner)
        .await
        .unwrap();
}

#[tokio::main]
async fn main() {
    let mut bench = Bench::new().await;
    bench.settings.db_max_connections = 40;
    bench.settings.db_tenant_pool_size = 16;
    let (owner, root, db_url) = (&bench.owner, &bench.root, &bench.db_url);
    let schema = bench.acme_schema().await;
    let (base, _) = bench.serve().await;
    let admin = Arc::new(SignedIn::login(&base, "admin@acme.test").await);

    // --- moves through the API against pgbench ----------------------------
    let product = admin
        .create_product("Bench stock", "BENCH-STOCK", &gtin(100))
        .await;
    let lot_id = lot(owner, &schema, &product, "BENCH1").await;
    let mut locations = Vec::new();
    for i in 0..CLIENTS {
        locations.push(location(&admin, &format!("BENCH-{i}")).await);
    }
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "CREATE TABLE {schema}.bench_moves (LIKE {schema}.stock_moves INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS INCLUDING INDEXES)"
    )))
    .execute(owner)
    .await
    .unwrap();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        ours.push(
            moves(
                admin.clone(),
                product.clone(),
                lot_id.clone(),
                locations.clone(),
            )
            .await,
        );
        let (url, s, p, l, t) = (
            db_url.clone(),
            schema.clone(),
            product.clone(),
            lot_id.clone(),
            locations[0].clone(),
        );
        theirs.push(
            tokio::task::spawn_blocking(move || pgbench(&url, &s, &p, &l, &t))
                .await
                .unwrap(),
        );
    }
    let (ours_m, theirs_m) = (median(ours.clone()), median(theirs.clone()));
    let move_ratio = ours_m / theirs_m;

    // --- GET /api/stock with 10 thousand and 1 million moves ---------------
    let read_product = admin
        .create_product("Bench read", "BENCH-READ", &gtin(101))
        .await;
    let mut read_lots = Vec::new();
    for i in 0..20 {
        read_lots.push(lot(owner, &schema, &read_product, &format!("R{i}")).await);
    }
    let mut read_locations = Vec::new();
    for i in 0..5 {
        read_locations.push(location(&admin, &format!("READ-{i}")).await);
    }
    for l in &read_lots {
        for to in &read_locations {
            admin
                .post(
                    "/api/stock-moves",
                    json!({"product_id": read_product, "lot_id": l, "quantity": "1000",
                           "to_location_id": to, "reason": "receipt",
                           "unit_cost": "1", "currency": "EUR"}),
                )
                .await;
        }
    }
    let url = format!("{base}/api/stock?product_id={read_product}");
    let mut reads = Vec::new();
    let mut have = 100_i64;
    for n in [10_000_i64, 1_000_000] {
        let t = Instant::now();
        grow_ledger(owner, &schema, &read_product, n - have).await;
        have = n;
        let made = t.elapsed().as_secs_f64();
        let ms = time_call(&admin.http, &url).await;
        reads.push((n, made, ms));
    }
    let read_ratio = reads[1].2 / reads[0].2;

    // --- 50 parallel reservations of 1 against 10 ---------------------------
    let mut reserved_counts = Vec::new();
    for round in 0..RESERVATION_ROUNDS {
        let p = admin
            .create_product(
                &format!("Bench reserve {round}"),
                &format!("BENCH-RES-{round}"),
                &gtin(round),
            )
            .await;
        let l = lot(owner, &schema, &p, "RES").await;
        admin
            .post(
                "/api/stock-moves",
                json!({"product_id": p, "lot_id": l, "quantity": "10",
                       "to_location_id": locations[0], "reason": "receipt",
                       "unit_cost": "1", "currency": "EUR"}),
            )
            .await;
        let attempts = (0..50).map(|_| {
            let admin = admin.clone();
            let p = p.clone();
            async move {
                admin
                    .http
                    .post(admin.url("/api/stock-reservations"))
                    .header("x-csrf-token", &admin.csrf)
                    .json(&json!({"product_id": p, "quantity": "1", "reference": "bench"}))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            }
        });
        let statuses = futures::future::join_all(attempts).await;
        assert!(
            statuses.iter().all(|s| *s == 201 || *s == 409),
            "{statuses:?}"
        );
        reserved_counts.push(statuses.iter().filter(|s| **s == 201).count());
    }
    let always_ten = reserved_counts.iter().all(|n| *n == 10);

    let meets = |ok: bool| if ok { "meets it" } else { "does NOT meet it" };
    let fmt = |v: &[f64]| common::runs(v, 0);
    let mut rows = String::new();
    for (n, made, ms) in &reads {
        rows.push_str(&format!("| {n} | {made:.0} s | {ms:.1} ms |\n"));
    }
    let report = format!(
        "## Inventory: stock moves, stock reads at scale, parallel reservations\n\n\
         `backend/benches/inventory.rs`.\n\n\
         - Machine: {machine}\n\
         - Date: {date}\n\
         - Build: release (`cargo bench`); server, clients and PostgreSQL on the same machine; {CLIENTS} concurrent clients, {ROUNDS} rounds of {SECONDS} s alternating (median shown).\n\n\
         | moves | per second | runs |\n|---|---:|---|\n\
         | stock moves through the API (`POST /api/stock-moves`, receipts, each client on its own balance row: the lot's share lock, one balance upsert, the ledger row and the audit row in one transaction) | {ours_m:.0} | {ours_runs} |\n\
         | baseline: pgbench, single-row `INSERT` into a table like `stock_moves` | {theirs_m:.0} | {theirs_runs} |\n\n\
         **API moves / single-row inserts = {move_ratio:.2}** (target ≥ 0.5: {move_meets}).\n\n\
         | moves of the product in the ledger | made in | `GET /api/stock?product_id=` (100 balance rows) |\n|---:|---:|---:|\n{rows}\n\
         Median of 30 calls each, one client. **1 million / 10 thousand = {read_ratio:.2}** (target ≤ 2: {read_meets}): the read takes the balance rows, never the ledger.\n\n\
         **50 parallel reservations of 1 against 10 on hand, {RESERVATION_ROUNDS} rounds: {counts:?} succeeded** ({res_meets}: exactly 10 every time).\n",
        machine = machine(),
        date = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        ours_runs = fmt(&ours),
        theirs_runs = fmt(&theirs),
        move_meets = meets(move_ratio >= 0.5),
        read_meets = meets(read_ratio <= 2.0),
        counts = reserved_counts,
        res_meets = meets(always_ten),
    );
    println!("{report}");
    common::write_section(&root.join("docs/benchmarks.md"), "inventory", &report);
    bench.finish().await;
}

/// A GTIN-14 with a valid check digit for round `i`.
fn gtin(i: usize) -> String {
    let body = format!("0950600{:06}", 200 + i);
    let digits: Vec<u32> = body.chars().map(|c| c.to_digit(10).unwrap()).collect();
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(k, d)| if k % 2 == 0 { d * 3 } else { *d })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}
