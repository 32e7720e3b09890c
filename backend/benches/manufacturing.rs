//! `make bench`, manufacturing (issue 23), written to the `manufacturing`
//! section of docs/benchmarks.md: completing a manufacturing order that
//! consumes 100 component lots (`POST /api/manufacturing-orders/{id}/complete`:
//! the order's lock, 100 balances locked and planned earliest expiry first,
//! their FIFO cost, 100 consumption moves with their audit rows, the output
//! lot, the production move, the `lot_inputs` rows and the EPCIS
//! TransformationEvent, in one transaction). Target: under 100 ms. The
//! baseline, in the same run: the same completion consuming 1 lot, so the
//! ratio shows what the 99 more lots cost on this machine.
//!
//! Never run by `make test`; timings do not belong in tests.

mod common;

use std::time::Instant;

use serde_json::json;

use common::{Bench, SignedIn, machine, median};

const ROUNDS: usize = 15;
const LOTS: usize = 100;

/// Inserts `n` lots of `product` (expiring a day apart) as the owner; their ids.
async fn lots(
    owner: &sqlx::PgPool,
    schema: &str,
    product: &str,
    prefix: &str,
    n: usize,
) -> Vec<String> {
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let id = uuid::Uuid::new_v4();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO {schema}.lots (id, product_id, number, expires_on)
             VALUES ($1, $2::uuid, $3, current_date + 365 + $4::int)"
        )))
        .bind(id)
        .bind(product)
        .bind(format!("{prefix}{i}"))
        .bind(i as i32)
        .execute(owner)
        .await
        .unwrap();
        ids.push(id.to_string());
    }
    ids
}

/// One order of 1 `output` from `n` lots of 1 `component` each (received
/// through the API), started; the milliseconds its completion takes.
#[allow(clippy::too_many_arguments)]
async fn complete_one(
    admin: &SignedIn,
    owner: &sqlx::PgPool,
    schema: &str,
    output: &str,
    component: &str,
    location: &str,
    round: usize,
    n: usize,
) -> f64 {
    let prefix = format!("B{n}R{round}-");
    for lot in lots(owner, schema, component, &prefix, n).await {
        admin
            .post(
                "/api/stock-moves",
                json!({"product_id": component, "lot_id": lot, "quantity": "1",
                       "to_location_id": location, "reason": "receipt",
                       "unit_cost": "0.25", "currency": "EUR"}),
            )
            .await;
    }
    let order = admin
        .post(
            "/api/manufacturing-orders",
            json!({"product_id": output, "quantity": "1", "location_id": location,
                   "output_lot_number": format!("OUT{n}-{round}")}),
        )
        .await;
    let id = order["id"].as_str().unwrap();
    admin
        .post(&format!("/api/manufacturing-orders/{id}/start"), json!({}))
        .await;
    let t = Instant::now();
    let done = admin
        .post(
            &format!("/api/manufacturing-orders/{id}/complete"),
            json!({"produced_quantity": "1"}),
        )
        .await;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["consumed"].as_array().unwrap().len(), n);
    ms
}

#[tokio::main]
async fn main() {
    let bench = Bench::new().await;
    let (owner, root) = (&bench.owner, &bench.root);
    let schema = bench.acme_schema().await;
    let (base, _) = bench.serve().await;
    let admin = SignedIn::login(&base, "admin@acme.test").await;
    let location = admin
        .post(
            "/api/locations",
            json!({"code": "BENCH-MFG", "name": "Bench plant", "kind": "warehouse"}),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut products = Vec::new();
    for (i, name) in [
        "Bench output 100",
        "Bench part 100",
        "Bench output 1",
        "Bench part 1",
    ]
    .iter()
    .enumerate()
    {
        products.push(
            admin
                .create_product(name, &format!("BENCH-MFG-{i}"), &gtin(i))
                .await,
        );
    }
    let (out100, part100, out1, part1) = (&products[0], &products[1], &products[2], &products[3]);
    for (out, part, per) in [(out100, part100, LOTS), (out1, part1, 1)] {
        admin
            .post(
                "/api/boms",
                json!({"product_id": out, "output_quantity": "1",
                       "components": [{"product_id": part, "quantity": per.to_string()}]}),
            )
            .await;
    }
    let (mut many, mut one) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        many.push(
            complete_one(
                &admin, owner, &schema, out100, part100, &location, round, LOTS,
            )
            .await,
        );
        one.push(complete_one(&admin, owner, &schema, out1, part1, &location, round, 1).await);
    }
    let (many_m, one_m) = (median(many.clone()), median(one.clone()));
    let ratio = many_m / one_m;
    let meets = |ok: bool| if ok { "meets it" } else { "does NOT meet it" };
    let report = format!(
        "## Manufacturing: completing an order that consumes {LOTS} lots\n\n\
         `backend/benches/manufacturing.rs`.\n\n\
         - Machine: {machine}\n\
         - Date: {date}\n\
         - Build: release (`cargo bench`); server, client and PostgreSQL on the same machine; one client, {ROUNDS} rounds alternating (median shown).\n\n\
         | `POST /api/manufacturing-orders/{{id}}/complete` | ms | runs |\n|---|---:|---|\n\
         | consuming {LOTS} component lots (FEFO plan, FIFO cost, {LOTS} consumption moves and audit rows, output lot, production move, `lot_inputs`, TransformationEvent; one transaction) | {many_m:.1} | {many_runs} |\n\
         | baseline: the same completion consuming 1 lot | {one_m:.1} | {one_runs} |\n\n\
         **{LOTS} lots: {many_m:.1} ms** (target < 100 ms: {target}); **{LOTS} lots / 1 lot = {ratio:.1}**.\n",
        machine = machine(),
        date = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        many_runs = common::runs(&many, 1),
        one_runs = common::runs(&one, 1),
        target = meets(many_m < 100.0),
    );
    println!("{report}");
    common::write_section(&root.join("docs/benchmarks.md"), "manufacturing", &report);
    bench.finish().await;
}

/// A GTIN-14 with a valid check digit for product `i`.
fn gtin(i: usize) -> String {
    let body = format!("0950600{:06}", 900 + i);
    let digits: Vec<u32> = body.chars().map(|c| c.to_digit(10).unwrap()).collect();
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(k, d)| if k % 2 == 0 { d * 3 } else { *d })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}
