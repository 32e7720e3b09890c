//! `make bench`, genealogy and recall (issue 23), written to the `trace`
//! section of docs/benchmarks.md: over a tenant with 10,000 lots in ten
//! trees of 1,000 (each lot made from the one a quarter of its place above,
//! so seven levels deep), `GET /api/lots/{id}/genealogy` of a tree's root
//! (1,000 lots downstream) and `POST /api/recalls` of a tree's root (1,000
//! lots recalled, each with its history and audit rows), first with 10,000
//! stock moves in the ledger and then with 1,000,000. Target: the calls
//! with a million moves within 2× of those with ten thousand (the walks
//! read `lot_inputs`, the receipts and the shipments, never the ledger).
//!
//! Never run by `make test`; timings do not belong in tests.

mod common;

use std::time::Instant;

use serde_json::json;

use common::{Bench, SignedIn, machine, median};

const TREES: i64 = 10;
const PER_TREE: i64 = 1_000;

/// Registers TREES × PER_TREE lots of `product` and their edges (lot k of a
/// tree made from lot (k - 1) / 4, by a completed manufacturing order of
/// its own, made at `location` from a one-component BOM), as the owner;
/// the roots' ids.
async fn forest(owner: &sqlx::PgPool, schema: &str, product: &str, location: &str) -> Vec<String> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {schema}.lots (id, product_id, number)
         SELECT md5('bench-lot-' || t || '-' || k)::uuid, $1::uuid, 'T' || t || 'K' || k
           FROM generate_series(0, $2 - 1) t, generate_series(0, $3 - 1) k"
    )))
    .bind(product)
    .bind(TREES)
    .bind(PER_TREE)
    .execute(owner)
    .await
    .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "WITH bom AS (
             INSERT INTO {schema}.boms (id, product_id, version, output_quantity)
             VALUES (gen_random_uuid(), $1::uuid, 1, 1) RETURNING id
         ), component AS (
             INSERT INTO {schema}.bom_components (bom_id, position, product_id, quantity)
             SELECT id, 1, $1::uuid, 1 FROM bom
         )
         INSERT INTO {schema}.manufacturing_orders
                (id, product_id, bom_id, quantity, location_id, output_lot_number, status,
                 produced_quantity, output_lot_id, started_at, completed_at)
         SELECT md5('bench-mo-' || t || '-' || k)::uuid, $1::uuid, bom.id, 1, $2::uuid,
                'T' || t || 'K' || k, 'completed', 1, md5('bench-lot-' || t || '-' || k)::uuid,
                now(), now()
           FROM bom, generate_series(0, $3 - 1) t, generate_series(1, $4 - 1) k"
    )))
    .bind(product)
    .bind(location)
    .bind(TREES)
    .bind(PER_TREE)
    .execute(owner)
    .await
    .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {schema}.lot_inputs (manufacturing_order_id, output_lot_id, input_lot_id, quantity)
         SELECT md5('bench-mo-' || t || '-' || k)::uuid, md5('bench-lot-' || t || '-' || k)::uuid,
                md5('bench-lot-' || t || '-' || ((k - 1) / 4))::uuid, 1
           FROM generate_series(0, $1 - 1) t, generate_series(1, $2 - 1) k"
    )))
    .bind(TREES)
    .bind(PER_TREE)
    .execute(owner)
    .await
    .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("ANALYZE {schema}.lots")))
        .execute(owner)
        .await
        .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("ANALYZE {schema}.lot_inputs")))
        .execute(owner)
        .await
        .unwrap();
    sqlx::query_scalar(
        "SELECT md5('bench-lot-' || t || '-0')::uuid::text FROM generate_series(0, $1 - 1) t ORDER BY t",
    )
    .bind(TREES)
    .fetch_all(owner)
    .await
    .unwrap()
}

/// Grows the ledger to `n` receipts over the forest's lots, as the owner.
async fn grow_ledger(owner: &sqlx::PgPool, schema: &str, product: &str, location: &str, n: i64) {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO {schema}.stock_moves (id, product_id, lot_id, quantity, to_location_id, reason, unit_cost, currency)
         SELECT gen_random_uuid(), $1::uuid,
                md5('bench-lot-' || (g % $4) || '-' || ((g / $4) % $5))::uuid, 1, $2::uuid,
                'receipt', 1, 'EUR'
           FROM generate_series(1, $3) g"
    )))
    .bind(product)
    .bind(location)
    .bind(n)
    .bind(TREES)
    .bind(PER_TREE)
    .execute(owner)
    .await
    .unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("ANALYZE {schema}.stock_moves")))
        .execute(owner)
        .await
        .unwrap();
}

/// Median milliseconds of 20 genealogy reads (after 3 to warm up).
async fn time_genealogy(admin: &SignedIn, root: &str) -> f64 {
    let url = admin.url(&format!("/api/lots/{root}/genealogy"));
    let mut times = Vec::new();
    for i in 0..23 {
        let t = Instant::now();
        let r = admin.http.get(&url).send().await.unwrap();
        assert!(r.status().is_success(), "{url}: {}", r.status());
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(
            body["downstream"].as_array().unwrap().len() as i64,
            PER_TREE - 1
        );
        if i >= 3 {
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    median(times)
}

/// Milliseconds of one recall of `root`'s tree.
async fn time_recall(admin: &SignedIn, root: &str) -> f64 {
    let t = Instant::now();
    let r = admin
        .http
        .post(admin.url("/api/recalls"))
        .header("x-csrf-token", &admin.csrf)
        .json(&json!({"lot_id": root, "reason": "bench"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["lots"].as_array().unwrap().len() as i64, PER_TREE);
    t.elapsed().as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let bench = Bench::new().await;
    let (owner, root) = (&bench.owner, &bench.root);
    let schema = bench.acme_schema().await;
    let (base, _) = bench.serve().await;
    let admin = SignedIn::login(&base, "admin@acme.test").await;
    let product = admin
        .create_product("Bench trace", "BENCH-TRACE", "09506000134352")
        .await;
    let location = admin
        .post(
            "/api/locations",
            json!({"code": "BENCH-TRACE", "name": "Bench trace", "kind": "bin"}),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let roots = forest(owner, &schema, &product, &location).await;

    let mut rows = Vec::new();
    let mut have = 0_i64;
    for (round, n) in [10_000_i64, 1_000_000].into_iter().enumerate() {
        grow_ledger(owner, &schema, &product, &location, n - have).await;
        have = n;
        let genealogy = time_genealogy(&admin, &roots[0]).await;
        let recall = time_recall(&admin, &roots[1 + round]).await;
        rows.push((n, genealogy, recall));
    }
    let g_ratio = rows[1].1 / rows[0].1;
    let r_ratio = rows[1].2 / rows[0].2;
    let meets = |ok: bool| if ok { "meets it" } else { "does NOT meet it" };
    let mut table = String::new();
    for (n, g, r) in &rows {
        table.push_str(&format!("| {n} | {g:.1} ms | {r:.0} ms |\n"));
    }
    let report = format!(
        "## Genealogy and recall at scale\n\n\
         `backend/benches/trace.rs`.\n\n\
         - Machine: {machine}\n\
         - Date: {date}\n\
         - Build: release (`cargo bench`); server, client and PostgreSQL on the same machine; one client.\n\
         - Data: {lots} lots in {TREES} trees of {PER_TREE} (seven levels deep).\n\n\
         | stock moves in the ledger | genealogy of a root (999 lots downstream, median of 20) | recall of a root (1,000 lots) |\n|---:|---:|---:|\n{table}\n\
         **Genealogy 1 million / 10 thousand = {g_ratio:.2}** (target ≤ 2: {g_meets}); \
         **recall 1 million / 10 thousand = {r_ratio:.2}** (target ≤ 2: {r_meets}).\n",
        machine = machine(),
        date = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        lots = TREES * PER_TREE,
        g_meets = meets(g_ratio <= 2.0),
        r_meets = meets(r_ratio <= 2.0),
    );
    println!("{report}");
    common::write_section(&root.join("docs/benchmarks.md"), "trace", &report);
    bench.finish().await;
}
