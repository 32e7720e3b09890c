//! Genealogy and recalls (issue 23): a lot's component lots and the lots
//! made from it at any depth (through cycles and the depth limit), and a
//! recall that reaches every lot made from the recalled one, releases their
//! reservations, lists the shipments and customers, and warns consumers
//! who scan them.
//!
//! The supply chain behind a genealogy (receipts, manufacturing's lot
//! inputs, shipments) is written by [`write_supply_chain`] straight into
//! the foundation tables (0023) on the tenant's own connection: the
//! procurement, manufacturing and logistics APIs are built beside this, and
//! that one function is what switches to them.

use std::collections::HashMap;

use brandops::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::helpers::{
    Client, TestApp, TestTenant, assert_isolated, assert_refused_to_tenant, create_product,
    slow_inserts, unique,
};

/// A receipt of a lot from a supplier.
struct Receipt<'a> {
    lot: &'a str,
    supplier: &'a str,
    quantity: &'a str,
}

/// An input lot consumed into an output lot by a manufacturing order.
struct Input<'a> {
    output: &'a str,
    input: &'a str,
    quantity: &'a str,
}

/// A shipment of a lot to a customer, in a status.
struct Shipment<'a> {
    lot: &'a str,
    customer: &'a str,
    status: &'a str,
    quantity: &'a str,
}

/// What [`write_supply_chain`] wrote: purchase order numbers by supplier,
/// shipment numbers by customer.
#[derive(Default)]
struct Written {
    purchase_orders: HashMap<String, i64>,
    shipments: HashMap<String, i64>,
}

/// Writes receipts, lot inputs and shipments of existing lots into the
/// foundation tables (suppliers, purchase orders and their lines, receipts
/// with their ledger receipt move, `lot_inputs` with a completed manufacturing
/// order each, customers, shipments and `shipment_lots`), in one
/// transaction on the tenant's own connection. A supplier or customer name
/// used twice is one party. The ONE place to switch to the procurement,
/// manufacturing and logistics APIs once they are merged.
async fn write_supply_chain(
    app: &TestApp,
    t: &TestTenant,
    receipts: &[Receipt<'_>],
    inputs: &[Input<'_>],
    shipments: &[Shipment<'_>],
) -> Written {
    let mut tx = app.state.db.begin_tenant(&t.tenant).await.unwrap();
    let location = Uuid::new_v4();
    sqlx::query("INSERT INTO locations (id, code, name, kind) VALUES ($1, $2, 'Trace warehouse', 'warehouse')")
        .bind(location)
        .bind(unique("TR"))
        .execute(&mut *tx)
        .await
        .unwrap();
    let mut written = Written::default();
    let mut suppliers: HashMap<String, Uuid> = HashMap::new();
    for r in receipts {
        let lot = Uuid::parse_str(r.lot).unwrap();
        let product: Uuid = sqlx::query_scalar("SELECT product_id FROM lots WHERE id = $1")
            .bind(lot)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        let supplier = match suppliers.get(r.supplier) {
            Some(s) => *s,
            None => {
                let id = Uuid::new_v4();
                sqlx::query("INSERT INTO suppliers (id, name, country) VALUES ($1, $2, 'DE')")
                    .bind(id)
                    .bind(r.supplier)
                    .execute(&mut *tx)
                    .await
                    .unwrap();
                suppliers.insert(r.supplier.to_string(), id);
                id
            }
        };
        let (po, line, receipt, mv) = (
            Uuid::new_v4(),
            Uuid::new_v4(),
            Uuid::new_v4(),
            Uuid::new_v4(),
        );
        let number: i64 = sqlx::query_scalar(
            "INSERT INTO purchase_orders (id, supplier_id, status, expected_on, currency)
             VALUES ($1, $2, 'received', current_date, 'EUR') RETURNING number",
        )
        .bind(po)
        .bind(supplier)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        written
            .purchase_orders
            .insert(r.supplier.to_string(), number);
        sqlx::query(
            "INSERT INTO purchase_order_lines (id, purchase_order_id, position, product_id, quantity, unit_price, received_quantity)
             VALUES ($1, $2, 1, $3, $4::numeric, 2, $4::numeric)",
        )
        .bind(line)
        .bind(po)
        .bind(product)
        .bind(r.quantity)
        .execute(&mut *tx)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO stock_moves (id, product_id, lot_id, quantity, to_location_id, reason, unit_cost, currency)
             VALUES ($1, $2, $3, $4::numeric, $5, 'receipt', 2, 'EUR')",
        )
        .bind(mv)
        .bind(product)
        .bind(lot)
        .bind(r.quantity)
        .bind(location)
        .execute(&mut *tx)
        .await
        .unwrap();
        sqlx::query("INSERT INTO purchase_receipts (id, purchase_order_id, location_id) VALUES ($1, $2, $3)")
            .bind(receipt)
            .bind(po)
            .bind(location)
            .execute(&mut *tx)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO purchase_receipt_lines (receipt_id, line_id, lot_id, quantity, move_id)
             VALUES ($1, $2, $3, $4::numeric, $5)",
        )
        .bind(receipt)
        .bind(line)
        .bind(lot)
        .bind(r.quantity)
        .bind(mv)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    for i in inputs {
        // A completed manufacturing order (with a BOM version of its own)
        // for each edge, as manufacturing's completion leaves it.
        let (bom, order) = (Uuid::new_v4(), Uuid::new_v4());
        sqlx::query(
            "INSERT INTO boms (id, product_id, version, output_quantity)
             SELECT $1, l.product_id,
                    coalesce((SELECT max(version) FROM boms WHERE product_id = l.product_id), 0) + 1, 1
               FROM lots l WHERE l.id = $2::uuid",
        )
        .bind(bom)
        .bind(i.output)
        .execute(&mut *tx)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO manufacturing_orders (id, product_id, bom_id, quantity, location_id,
                                               output_lot_number, status, produced_quantity,
                                               output_lot_id, completed_at)
             SELECT $1, l.product_id, $2, 1, $3, l.number, 'completed', 1, l.id, now()
               FROM lots l WHERE l.id = $4::uuid",
        )
        .bind(order)
        .bind(bom)
        .bind(location)
        .bind(i.output)
        .execute(&mut *tx)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO lot_inputs (manufacturing_order_id, output_lot_id, input_lot_id, quantity)
             VALUES ($1, $2::uuid, $3::uuid, $4::numeric)",
        )
        .bind(order)
        .bind(i.output)
        .bind(i.input)
        .bind(i.quantity)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    let mut customers: HashMap<String, Uuid> = HashMap::new();
    for s in shipments {
        let lot = Uuid::parse_str(s.lot).unwrap();
        let customer = match customers.get(s.customer) {
            Some(c) => *c,
            None => {
                let id = Uuid::new_v4();
                sqlx::query("INSERT INTO customers (id, name, country) VALUES ($1, $2, 'FR')")
                    .bind(id)
                    .bind(s.customer)
                    .execute(&mut *tx)
                    .await
                    .unwrap();
                customers.insert(s.customer.to_string(), id);
                id
            }
        };
        let shipment = Uuid::new_v4();
        let number: i64 = sqlx::query_scalar(
            "INSERT INTO shipments (id, customer_id, from_location_id, status, shipped_at,
                                    delivered_at, cancelled_at)
             VALUES ($1, $2, $3, $4,
                     CASE WHEN $4 IN ('shipped', 'delivered') THEN now() END,
                     CASE WHEN $4 = 'delivered' THEN now() END,
                     CASE WHEN $4 = 'cancelled' THEN now() END)
             RETURNING number",
        )
        .bind(shipment)
        .bind(customer)
        .bind(location)
        .bind(s.status)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
        written.shipments.insert(s.customer.to_string(), number);
        sqlx::query(
            "INSERT INTO shipment_lots (shipment_id, product_id, lot_id, quantity)
             SELECT $1, product_id, id, $3::numeric FROM lots WHERE id = $2",
        )
        .bind(shipment)
        .bind(lot)
        .bind(s.quantity)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    written
}

/// A product of `name` and its lots `numbers` (registered through the API):
/// their ids, in order.
async fn lots(c: &Client, name: &str, numbers: &[&str]) -> Vec<String> {
    let product = create_product(c, name, "TRC").await;
    let mut ids = Vec::new();
    for n in numbers {
        let (status, lot) = c
            .post(
                "/api/lots",
                json!({"product_id": product.id, "number": n, "expires_on": "2099-01-01"}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{lot}");
        ids.push(lot["id"].as_str().unwrap().to_string());
    }
    ids
}

async fn genealogy(c: &Client, lot: &str) -> Value {
    let (status, g) = c.get(&format!("/api/lots/{lot}/genealogy")).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    g
}

/// (lot number, depth) of a genealogy list, in its order.
fn listed(list: &Value) -> Vec<(String, i64)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["number"].as_str().unwrap().to_string(),
                l["depth"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn pairs(expected: &[(&str, i64)]) -> Vec<(String, i64)> {
    expected.iter().map(|(n, d)| (n.to_string(), *d)).collect()
}

fn by_number<'a>(list: &'a Value, number: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|l| l["number"] == number)
        .unwrap_or_else(|| panic!("{number} not in {list}"))
}

#[tokio::test]
async fn genealogy_goes_four_levels_both_ways_and_lists_a_lot_once() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    // U4 -> U3 -> U2 -> U1 -> R -> D1 -> D2 -> D3 -> D4; X goes into U1
    // and into U2 (two paths: listed once, at depth 2).
    let l = lots(
        &admin,
        "Chain <b>part</b>",
        &["U4", "U3", "U2", "U1", "R", "D1", "D2", "D3", "D4", "X"],
    )
    .await;
    let [u4, u3, u2, u1, r, d1, d2, d3, d4, x] =
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(|i| l[i].as_str());
    let edge = |output, input, quantity| Input {
        output,
        input,
        quantity,
    };
    let written = write_supply_chain(
        &app,
        &brand,
        &[
            Receipt {
                lot: u4,
                supplier: "Acme Chemicals",
                quantity: "100",
            },
            Receipt {
                lot: x,
                supplier: "Beta Supplies",
                quantity: "7.5",
            },
        ],
        &[
            edge(u3, u4, "10"),
            edge(u2, u3, "9"),
            edge(u1, u2, "8"),
            edge(r, u1, "7"),
            edge(u1, x, "1.5"),
            edge(u2, x, "2"),
            edge(d1, r, "6"),
            edge(d2, d1, "5"),
            edge(d3, d2, "4"),
            edge(d4, d3, "3"),
        ],
        &[
            Shipment {
                lot: d4,
                customer: "Pharmacy North",
                status: "shipped",
                quantity: "2",
            },
            Shipment {
                lot: d2,
                customer: "Clinic South",
                status: "delivered",
                quantity: "1.25",
            },
            // Neither a draft nor a cancelled shipment left.
            Shipment {
                lot: d3,
                customer: "Draft Co",
                status: "draft",
                quantity: "1",
            },
            Shipment {
                lot: d1,
                customer: "Cancel Co",
                status: "cancelled",
                quantity: "1",
            },
        ],
    )
    .await;

    let g = genealogy(&worker, r).await;
    assert_eq!(g["lot"]["number"], "R", "{g}");
    assert_eq!(g["lot"]["product_name"], "Chain <b>part</b>");
    assert_eq!(g["truncated"], false);
    assert_eq!(g["max_depth"], 32);
    assert_eq!(
        listed(&g["upstream"]),
        pairs(&[("U1", 1), ("U2", 2), ("X", 2), ("U3", 3), ("U4", 4)]),
        "{g}"
    );
    let x_up = by_number(&g["upstream"], "X");
    // One step nearer is U1 only (U2 is at the same depth).
    assert_eq!(x_up["used_in"], json!([u1]));
    assert_eq!(x_up["quantity_used"], "1.5");
    assert_eq!(x_up["status"], "released");
    assert_eq!(x_up["receipts"][0]["supplier_name"], "Beta Supplies");
    assert_eq!(x_up["receipts"][0]["quantity"], "7.5");
    let u4_up = by_number(&g["upstream"], "U4");
    assert_eq!(u4_up["used_in"], json!([u3]));
    assert_eq!(u4_up["quantity_used"], "10");
    assert_eq!(u4_up["receipts"].as_array().unwrap().len(), 1, "{u4_up}");
    assert_eq!(u4_up["receipts"][0]["supplier_name"], "Acme Chemicals");
    assert_eq!(
        u4_up["receipts"][0]["purchase_order_number"],
        written.purchase_orders["Acme Chemicals"]
    );
    assert!(u4_up["receipts"][0]["received_at"].is_string());
    assert_eq!(by_number(&g["upstream"], "U1")["receipts"], json!([]));

    assert_eq!(
        listed(&g["downstream"]),
        pairs(&[("D1", 1), ("D2", 2), ("D3", 3), ("D4", 4)]),
        "{g}"
    );
    let d4_down = by_number(&g["downstream"], "D4");
    assert_eq!(d4_down["made_from"], json!([d3]));
    assert_eq!(d4_down["quantity_used"], "3");
    assert_eq!(d4_down["shipments"][0]["customer_name"], "Pharmacy North");
    assert_eq!(d4_down["shipments"][0]["status"], "shipped");
    assert_eq!(d4_down["shipments"][0]["quantity"], "2");
    assert_eq!(
        d4_down["shipments"][0]["shipment_number"],
        written.shipments["Pharmacy North"]
    );
    let d2_down = by_number(&g["downstream"], "D2");
    assert_eq!(d2_down["shipments"][0]["customer_name"], "Clinic South");
    assert_eq!(d2_down["shipments"][0]["status"], "delivered");
    assert!(d2_down["shipments"][0]["delivered_at"].is_string());
    // The draft and the cancelled shipment never left.
    assert_eq!(by_number(&g["downstream"], "D3")["shipments"], json!([]));
    assert_eq!(by_number(&g["downstream"], "D1")["shipments"], json!([]));

    // From the top, everything is downstream; from the bottom, upstream.
    let top = genealogy(&admin, u4).await;
    assert_eq!(top["upstream"], json!([]));
    assert_eq!(top["receipts"][0]["supplier_name"], "Acme Chemicals");
    assert_eq!(
        listed(&top["downstream"]),
        pairs(&[
            ("U3", 1),
            ("U2", 2),
            ("U1", 3),
            ("R", 4),
            ("D1", 5),
            ("D2", 6),
            ("D3", 7),
            ("D4", 8)
        ])
    );
    let bottom = genealogy(&admin, d4).await;
    assert_eq!(bottom["shipments"][0]["customer_name"], "Pharmacy North");
    assert_eq!(bottom["upstream"].as_array().unwrap().len(), 9, "{bottom}");
    assert_eq!(bottom["downstream"], json!([]));

    // Unknown and malformed ids are the same 404.
    for id in [Uuid::new_v4().to_string(), "nope".to_string()] {
        let (status, body) = admin.get(&format!("/api/lots/{id}/genealogy")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    }
}

#[tokio::test]
async fn a_cycle_ends_the_walk_and_lists_each_lot_once() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let l = lots(&admin, "Loop", &["A", "B", "C", "E"]).await;
    let (a, b, c, e) = (l[0].as_str(), l[1].as_str(), l[2].as_str(), l[3].as_str());
    // A made from B and B made from A (a return of a return), and a longer
    // loop A -> C -> E -> A.
    let edge = |output, input| Input {
        output,
        input,
        quantity: "1",
    };
    write_supply_chain(
        &app,
        &brand,
        &[],
        &[edge(a, b), edge(b, a), edge(c, a), edge(e, c), edge(a, e)],
        &[],
    )
    .await;
    let g = genealogy(&admin, a).await;
    assert_eq!(
        listed(&g["upstream"]),
        pairs(&[("B", 1), ("E", 1), ("C", 2)]),
        "{g}"
    );
    assert_eq!(
        listed(&g["downstream"]),
        pairs(&[("B", 1), ("C", 1), ("E", 2)]),
        "{g}"
    );
    assert_eq!(g["truncated"], false);
    let g = genealogy(&admin, b).await;
    assert_eq!(
        listed(&g["upstream"]),
        pairs(&[("A", 1), ("E", 2), ("C", 3)]),
        "{g}"
    );
}

#[tokio::test]
async fn a_chain_deeper_than_the_limit_is_cut_and_says_so() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let numbers: Vec<String> = (0..35).map(|i| format!("N{i:02}")).collect();
    let refs: Vec<&str> = numbers.iter().map(String::as_str).collect();
    let l = lots(&admin, "Deep", &refs).await;
    let inputs: Vec<Input> = l
        .windows(2)
        .map(|w| Input {
            output: w[1].as_str(),
            input: w[0].as_str(),
            quantity: "1",
        })
        .collect();
    write_supply_chain(&app, &brand, &[], &inputs, &[]).await;
    let g = genealogy(&admin, &l[0]).await;
    let down = g["downstream"].as_array().unwrap();
    assert_eq!(down.len(), 32);
    assert_eq!(down[31]["number"], "N32");
    assert_eq!(g["truncated"], true);
    // Exactly 32 deep: nothing left out.
    let g = genealogy(&admin, &l[2]).await;
    assert_eq!(g["downstream"].as_array().unwrap().len(), 32);
    assert_eq!(g["truncated"], false, "{}", g["downstream"]);
}

/// Rows of the lot's status history that set it `recalled`.
async fn recalled_rows(app: &TestApp, t: &TestTenant, lot: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) FROM {}.lot_status_changes WHERE lot_id = $1::uuid AND to_status = 'recalled'",
        t.schema
    )))
    .bind(lot)
    .fetch_one(&app.owner)
    .await
    .unwrap()
}

async fn status_of(c: &Client, lot: &str) -> String {
    let (_, l) = c.get(&format!("/api/lots/{lot}")).await;
    l["status"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_recall_reaches_every_lot_made_from_it_and_its_customers() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let manager = app.login(&app.account(&brand, Role::Manager).await).await;
    let worker = app.login(&app.account(&brand, Role::Worker).await).await;
    // UP -> R -> M1 -> M2, R -> M3; M3 recalled before by QA.
    let l = lots(&admin, "Syrup", &["UP", "R", "M1", "M2", "M3", "OTHER"]).await;
    let [up, r, m1, m2, m3, other] = [0, 1, 2, 3, 4, 5].map(|i| l[i].as_str());
    let edge = |output, input| Input {
        output,
        input,
        quantity: "2",
    };
    write_supply_chain(
        &app,
        &brand,
        &[Receipt {
            lot: up,
            supplier: "Acme",
            quantity: "50",
        }],
        &[edge(r, up), edge(m1, r), edge(m2, m1), edge(m3, r)],
        &[
            Shipment {
                lot: m2,
                customer: "=HYPERLINK(\"http://x\")",
                status: "shipped",
                quantity: "3",
            },
            Shipment {
                lot: m1,
                customer: "Pharmacy, North",
                status: "delivered",
                quantity: "1.5",
            },
            Shipment {
                lot: m2,
                customer: "Pharmacy, North",
                status: "shipped",
                quantity: "2",
            },
            Shipment {
                lot: other,
                customer: "Elsewhere",
                status: "shipped",
                quantity: "9",
            },
        ],
    )
    .await;
    let (status, _) = admin
        .post(
            &format!("/api/lots/{m3}/status"),
            json!({"status": "recalled", "reason": "QA found a leak"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);

    // M1 stock reserved: the recall releases the reservation.
    let product: String = {
        let (_, lot) = admin.get(&format!("/api/lots/{m1}")).await;
        lot["product_id"].as_str().unwrap().to_string()
    };
    let (status, loc) = admin
        .post(
            "/api/locations",
            json!({"code": unique("B"), "name": "Bin", "kind": "bin"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{loc}");
    let bin = loc["id"].as_str().unwrap();
    let (status, m) = admin
        .post(
            "/api/stock-moves",
            json!({"product_id": product, "lot_id": m1, "quantity": "10", "to_location_id": bin,
                   "reason": "receipt", "unit_cost": "1", "currency": "EUR"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{m}");
    let (status, reservation) = admin
        .post(
            "/api/stock-reservations",
            json!({"product_id": product, "quantity": "4", "reference": "Order 7"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{reservation}");
    let reservation_id = reservation["id"].as_str().unwrap().to_string();

    // Workers never start a recall; a bad reason or an unknown lot changes
    // nothing.
    let (status, _) = worker
        .post("/api/recalls", json!({"lot_id": r, "reason": "no"}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = manager
        .post("/api/recalls", json!({"lot_id": r, "reason": "  "}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = manager
        .post(
            "/api/recalls",
            json!({"lot_id": Uuid::new_v4(), "reason": "x"}),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(app.rows(&brand, "recalls").await, 0);
    assert_eq!(status_of(&admin, r).await, "released");

    let (status, recall) = manager
        .post(
            "/api/recalls",
            json!({"lot_id": r, "reason": "Contaminated <b>water</b>"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{recall}");
    assert_eq!(recall["lot_id"], r);
    assert_eq!(recall["reason"], "Contaminated <b>water</b>");
    assert_eq!(recall["truncated"], false);
    let recalled: Vec<(String, i64, bool)> = recall["lots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            assert_eq!(l["status"], "recalled", "{l}");
            (
                l["number"].as_str().unwrap().to_string(),
                l["depth"].as_i64().unwrap(),
                l["status_changed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        recalled,
        [
            ("R".to_string(), 0, true),
            ("M1".to_string(), 1, true),
            ("M3".to_string(), 1, false),
            ("M2".to_string(), 2, true)
        ]
    );
    assert_eq!(
        by_number(&recall["lots"], "M3")["previous_status"],
        "recalled"
    );
    // Upstream and unrelated lots are untouched.
    assert_eq!(status_of(&admin, up).await, "released");
    assert_eq!(status_of(&admin, other).await, "released");
    for lot in [r, m1, m2, m3] {
        assert_eq!(status_of(&admin, lot).await, "recalled");
        assert_eq!(recalled_rows(&app, &brand, lot).await, 1, "{lot}");
    }
    let (_, history) = admin.get(&format!("/api/lots/{m2}")).await;
    let last = history["history"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert!(
        last["reason"].as_str().unwrap().starts_with("Recall RC-"),
        "{last}"
    );

    let shipments = recall["shipments"].as_array().unwrap();
    assert_eq!(shipments.len(), 3, "{recall}");
    assert_eq!(
        recall["customers"],
        json!([
            {"customer_id": recall["customers"][0]["customer_id"], "name": "=HYPERLINK(\"http://x\")", "quantity": "3"},
            {"customer_id": recall["customers"][1]["customer_id"], "name": "Pharmacy, North", "quantity": "3.5"},
        ])
    );
    assert_eq!(recall["released_reservations"], json!([reservation_id]));
    let (_, res) = admin
        .get("/api/stock-reservations?include_released=true")
        .await;
    let res = res["reservations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == reservation_id.as_str())
        .unwrap()
        .clone();
    assert_eq!(res["status"], "released", "{res}");
    let (_, stock) = admin.get(&format!("/api/stock?product_id={product}")).await;
    assert_eq!(stock["stock"][0]["reserved"], "0", "{stock}");
    assert_eq!(app.audited(&brand, "recall.created").await, 1);
    assert_eq!(
        app.audited(&brand, "inventory.reservation_released").await,
        1
    );

    // Read back the same, by workers too; the list counts it.
    let id = recall["id"].as_str().unwrap();
    let (status, again) = worker.get(&format!("/api/recalls/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["lots"], recall["lots"]);
    assert_eq!(again["shipments"], recall["shipments"]);
    assert_eq!(again["customers"], recall["customers"]);
    assert_eq!(
        again["released_reservations"],
        recall["released_reservations"]
    );
    let (_, list) = worker.get("/api/recalls").await;
    assert_eq!(list["recalls"][0]["id"], id);
    assert_eq!(list["recalls"][0]["lots"], 4);
    assert_eq!(list["recalls"][0]["shipments"], 3);
    assert_eq!(list["recalls"][0]["customers"], 2);
    assert_eq!(list["recalls"][0]["lot_number"], "R");

    // The CSV lists the same, quoted, with formulas neutralised.
    let resp = worker
        .http
        .get(worker.url(&format!("/api/recalls/{id}/affected.csv")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    assert!(
        resp.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("attachment")
    );
    let csv = resp.text().await.unwrap();
    let lines: Vec<&str> = csv.trim_end().split("\r\n").collect();
    // R, M3: no shipment (a line each); M1: one; M2: two.
    assert_eq!(lines.len(), 1 + 5, "{csv}");
    assert!(lines[0].starts_with("recall,recalled_lot,depth,product"));
    assert!(
        csv.contains(",\"'=HYPERLINK(\"\"http://x\"\")\",,,3\r\n"),
        "{csv}"
    );
    assert!(csv.contains(",\"Pharmacy, North\",,,1.5\r\n"), "{csv}");
    assert!(!csv.contains(",=HYPERLINK"), "{csv}");

    // Recalled once: a second recall of the lot is refused, and so is one
    // of a lot it reached? No: M1 may get its own recall (it covers M1 and
    // M2 again, changing nothing).
    let (status, body) = admin
        .post("/api/recalls", json!({"lot_id": r, "reason": "again"}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "already_recalled");
    let (status, second) = admin
        .post(
            "/api/recalls",
            json!({"lot_id": m1, "reason": "Formal recall of M1"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    assert!(
        second["lots"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["status_changed"] == false),
        "{second}"
    );
    for lot in [m1, m2] {
        assert_eq!(recalled_rows(&app, &brand, lot).await, 1, "{lot}");
    }
}

#[tokio::test]
async fn twenty_recalls_of_one_lot_at_once_one_succeeds_the_others_are_refused() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let l = lots(&admin, "Race", &["R", "D1", "D2"]).await;
    let edge = |output, input| Input {
        output,
        input,
        quantity: "1",
    };
    write_supply_chain(
        &app,
        &brand,
        &[],
        &[edge(&l[1], &l[0]), edge(&l[2], &l[1])],
        &[],
    )
    .await;
    // Each history row is slowed, so the transactions overlap.
    slow_inserts(&app, &brand, "lot_status_changes").await;
    let body = json!({"lot_id": l[0], "reason": "Race"});
    let answers =
        futures::future::join_all((0..20).map(|_| admin.post("/api/recalls", body.clone()))).await;
    let created = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{answers:?}");
    for (status, body) in &answers {
        if *status != StatusCode::CREATED {
            assert_eq!(*status, StatusCode::CONFLICT, "{body}");
            assert_eq!(body["code"], "already_recalled");
        }
    }
    assert_eq!(app.rows(&brand, "recalls").await, 1);
    assert_eq!(app.audited(&brand, "recall.created").await, 1);
    for lot in &l {
        assert_eq!(recalled_rows(&app, &brand, lot).await, 1, "{lot}");
    }
}

#[tokio::test]
async fn a_code_of_a_lot_made_from_a_recalled_lot_scans_with_the_warning() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let (product_id, uris) =
        crate::helpers::product_with_codes(&admin, 2, Some("2099-12-31")).await;
    let (_, list) = admin
        .get(&format!("/api/lots?product_id={product_id}"))
        .await;
    let coded = list["lots"][0]["id"].as_str().unwrap().to_string();
    let raw = lots(&admin, "Raw material", &["RAW1"]).await;
    write_supply_chain(
        &app,
        &brand,
        &[],
        &[Input {
            output: &coded,
            input: &raw[0],
            quantity: "5",
        }],
        &[],
    )
    .await;
    let (_, json) = crate::scans::scan(&uris[0], "203.0.113.40").await;
    assert_eq!(json["lot_status"], "released", "{json}");

    let (status, recall) = admin
        .post(
            "/api/recalls",
            json!({"lot_id": raw[0], "reason": "Supplier recall"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{recall}");
    let html = crate::scans::scan_page(&uris[1]).await;
    assert!(
        html.contains(
            "role=\"alert\"><h2>Recalled</h2><p>This product has been recalled. Do not use it.</p>"
        ),
        "{html}"
    );
    let (_, json) = crate::scans::scan(&uris[0], "203.0.113.41").await;
    assert_eq!(json["lot_status"], "recalled", "{json}");
}

#[tokio::test]
async fn recall_tables_are_append_only_for_the_tenant_role() {
    let app = TestApp::spawn().await;
    let brand = app.brand().await;
    let admin = app.login(&brand.admin).await;
    let l = lots(&admin, "Fixed", &["F1"]).await;
    let (status, _) = admin
        .post("/api/recalls", json!({"lot_id": l[0], "reason": "x"}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_refused_to_tenant(
        &app,
        &brand,
        &[
            "UPDATE recalls SET reason = 'y'",
            "DELETE FROM recall_lots",
            "TRUNCATE recalls CASCADE",
        ],
    )
    .await;
}

#[tokio::test]
async fn another_brand_sees_no_genealogy_and_no_recall() {
    let app = TestApp::spawn().await;
    assert_isolated(
        &app,
        async |a| {
            let l = lots(a, "Isolated", &["ISO1"]).await;
            let (status, recall) = a
                .post("/api/recalls", json!({"lot_id": l[0], "reason": "probe"}))
                .await;
            assert_eq!(status, StatusCode::CREATED, "{recall}");
            l[0].clone()
        },
        async |c, lot| {
            let (_, list) = c.get("/api/recalls").await;
            let recall = list["recalls"]
                .as_array()
                .and_then(|l| l.first())
                .and_then(|r| r["id"].as_str())
                .unwrap_or("00000000-0000-0000-0000-000000000000")
                .to_string();
            vec![
                c.get(&format!("/api/lots/{lot}/genealogy")).await,
                (StatusCode::OK, list),
                c.get(&format!("/api/recalls/{recall}")).await,
                c.post("/api/recalls", json!({"lot_id": lot, "reason": "probe"}))
                    .await,
            ]
        },
    )
    .await;
}
