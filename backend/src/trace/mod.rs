//! Traceability (issue 23): a lot's genealogy, upstream (the component lots
//! it was made from, at any depth, and where they were bought) and
//! downstream (the lots made from it, at any depth, and where they were
//! shipped), and recalls, which recall a lot and everything made from it in
//! one transaction and list the shipments and customers reached.
//!
//! - `mod.rs`: the types the API answers, and how rows become them;
//! - `api.rs`: `GET /api/lots/{id}/genealogy` (tag Lots) and the operations
//!   under `/api/recalls` (tag Recalls);
//! - `store.rs`: the SQL: one recursive statement per direction, with a
//!   cycle guard and the depth limit [`MAX_DEPTH`], never a walk in Rust.
//!
//! The genealogy reads the foundation's tables (0023): `lot_inputs` (the
//! edges manufacturing writes), `purchase_receipt_lines` and
//! `shipment_lots`. A recall changes lots' statuses only through
//! `lots::store::change_status` and releases reservations only through
//! `inventory::ledger::release`.

pub mod api;
pub mod store;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::http::csv;
use crate::inventory::quantity_text;
use crate::lots::LotStatus;

/// The deepest a genealogy walks (steps of manufacturing from the lot):
/// far beyond real bills of materials, and a bound on the work a request
/// does whatever `lot_inputs` holds. A walk that stops there says
/// `truncated`.
pub const MAX_DEPTH: i32 = 32;

/// A lot as the genealogy shows it.
#[derive(Object, Debug, Clone, PartialEq)]
pub struct TracedLot {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    /// The product's GTIN-14.
    pub gtin: String,
    /// The lot number (GS1 AI 10).
    pub number: String,
    pub status: LotStatus,
}

/// A receipt of a lot from a supplier.
#[derive(Object, Debug, Clone, PartialEq)]
pub struct TracedReceipt {
    pub receipt_id: Uuid,
    pub purchase_order_id: Uuid,
    /// The purchase order's number (PO-000042 shows 42).
    pub purchase_order_number: i64,
    pub supplier_id: Uuid,
    pub supplier_name: String,
    pub received_at: DateTime<Utc>,
    /// How much of the lot it received (a decimal string).
    pub quantity: String,
}

/// A shipment (shipped or delivered) of a lot to a customer.
#[derive(Object, Debug, Clone, PartialEq)]
pub struct TracedShipment {
    pub shipment_id: Uuid,
    /// The shipment's number (SH-000042 shows 42).
    pub shipment_number: i64,
    /// `shipped` or `delivered`.
    pub status: String,
    pub shipped_at: Option<DateTime<Utc>>,
    #[oai(skip_serializing_if_is_none)]
    pub delivered_at: Option<DateTime<Utc>>,
    pub customer_id: Uuid,
    pub customer_name: String,
    /// How much of the lot it took (a decimal string).
    pub quantity: String,
}

/// A component lot of the genealogy's lot.
#[derive(Object, Debug, Clone)]
pub struct UpstreamLot {
    #[oai(flatten)]
    pub lot: TracedLot,
    /// Steps of manufacturing between it and the genealogy's lot (1: a
    /// direct component). A lot reached by several paths is listed once,
    /// at its shortest depth.
    pub depth: i32,
    /// The lots one step nearer (depth - 1) it went into.
    pub used_in: Vec<Uuid>,
    /// How much of it went into those lots, in all (a decimal string).
    pub quantity_used: String,
    /// Its receipts from suppliers, oldest first.
    pub receipts: Vec<TracedReceipt>,
}

/// A lot made from the genealogy's lot.
#[derive(Object, Debug, Clone)]
pub struct DownstreamLot {
    #[oai(flatten)]
    pub lot: TracedLot,
    /// Steps of manufacturing between the genealogy's lot and it (1: made
    /// directly from it). Listed once, at its shortest depth.
    pub depth: i32,
    /// The lots one step nearer (depth - 1) it was made from.
    pub made_from: Vec<Uuid>,
    /// How much of those lots went into it, in all (a decimal string).
    pub quantity_used: String,
    /// Its shipments that left (shipped or delivered), oldest first.
    pub shipments: Vec<TracedShipment>,
}

/// A lot's genealogy, both ways.
#[derive(Object, Debug, Clone)]
pub struct Genealogy {
    pub lot: TracedLot,
    /// The lot's own receipts from suppliers.
    pub receipts: Vec<TracedReceipt>,
    /// The lot's own shipments to customers.
    pub shipments: Vec<TracedShipment>,
    /// Its component lots at any depth (by depth, product, number).
    pub upstream: Vec<UpstreamLot>,
    /// The lots made from it at any depth, with their shipments.
    pub downstream: Vec<DownstreamLot>,
    /// The deepest either list goes (32): a walk that stopped there while
    /// more lay beyond says `truncated`.
    pub max_depth: i32,
    /// Lots lie beyond `max_depth` in either direction and are not listed.
    pub truncated: bool,
}

fn lot_status(s: &str) -> LotStatus {
    // The table's CHECK allows only the five statuses.
    LotStatus::parse(s).unwrap_or(LotStatus::Held)
}

fn qty(d: Option<Decimal>) -> String {
    quantity_text(d.unwrap_or_default())
}

/// One direction of a genealogy, gathered: the root (depth 0) with its
/// own receipts or shipments, the other lots, and whether the walk was cut.
pub struct Walked<L, E> {
    pub root: Option<(TracedLot, Vec<E>)>,
    pub lots: Vec<L>,
    pub truncated: bool,
}

/// The upstream rows gathered by lot: the root (depth 0) with its receipts,
/// the component lots, and whether the walk was cut.
pub fn group_upstream(rows: Vec<store::UpRow>) -> Walked<UpstreamLot, TracedReceipt> {
    let truncated = rows.first().is_some_and(|r| r.truncated);
    let mut root = None;
    let mut lots: Vec<UpstreamLot> = Vec::new();
    let mut current: Option<(store::UpRow, Vec<TracedReceipt>)> = None;
    let mut flush = |cur: Option<(store::UpRow, Vec<TracedReceipt>)>| {
        if let Some((r, receipts)) = cur {
            let lot = TracedLot {
                id: r.lot_id,
                product_id: r.product_id,
                product_name: r.product_name,
                gtin: r.gtin,
                number: r.number,
                status: lot_status(&r.status),
            };
            if r.depth == 0 {
                root = Some((lot, receipts));
            } else {
                lots.push(UpstreamLot {
                    lot,
                    depth: r.depth,
                    used_in: r.links,
                    quantity_used: qty(r.quantity),
                    receipts,
                });
            }
        }
    };
    for row in rows {
        let receipt = match (
            row.receipt_id,
            row.purchase_order_id,
            row.purchase_order_number,
            row.supplier_id,
            &row.supplier_name,
            row.received_at,
        ) {
            (
                Some(receipt_id),
                Some(po),
                Some(po_number),
                Some(supplier_id),
                Some(name),
                Some(at),
            ) => Some(TracedReceipt {
                receipt_id,
                purchase_order_id: po,
                purchase_order_number: po_number,
                supplier_id,
                supplier_name: name.clone(),
                received_at: at,
                quantity: qty(row.received_quantity),
            }),
            _ => None,
        };
        match &mut current {
            Some((cur, receipts)) if cur.lot_id == row.lot_id => receipts.extend(receipt),
            _ => {
                flush(current.take());
                current = Some((row, receipt.into_iter().collect()));
            }
        }
    }
    flush(current);
    Walked {
        root,
        lots,
        truncated,
    }
}

/// The downstream rows gathered by lot: the root (depth 0) with its
/// shipments, the lots made from it, and whether the walk was cut.
pub fn group_downstream(rows: Vec<store::DownRow>) -> Walked<DownstreamLot, TracedShipment> {
    let truncated = rows.first().is_some_and(|r| r.truncated);
    let mut root = None;
    let mut lots: Vec<DownstreamLot> = Vec::new();
    let mut current: Option<(store::DownRow, Vec<TracedShipment>)> = None;
    let mut flush = |cur: Option<(store::DownRow, Vec<TracedShipment>)>| {
        if let Some((r, shipments)) = cur {
            let lot = TracedLot {
                id: r.lot_id,
                product_id: r.product_id,
                product_name: r.product_name,
                gtin: r.gtin,
                number: r.number,
                status: lot_status(&r.status),
            };
            if r.depth == 0 {
                root = Some((lot, shipments));
            } else {
                lots.push(DownstreamLot {
                    lot,
                    depth: r.depth,
                    made_from: r.links,
                    quantity_used: qty(r.quantity),
                    shipments,
                });
            }
        }
    };
    for row in rows {
        let shipment = match (
            row.shipment_id,
            row.shipment_number,
            &row.shipment_status,
            row.customer_id,
            &row.customer_name,
        ) {
            (Some(shipment_id), Some(number), Some(status), Some(customer_id), Some(name)) => {
                Some(TracedShipment {
                    shipment_id,
                    shipment_number: number,
                    status: status.clone(),
                    shipped_at: row.shipped_at,
                    delivered_at: row.delivered_at,
                    customer_id,
                    customer_name: name.clone(),
                    quantity: qty(row.shipped_quantity),
                })
            }
            _ => None,
        };
        match &mut current {
            Some((cur, shipments)) if cur.lot_id == row.lot_id => shipments.extend(shipment),
            _ => {
                flush(current.take());
                current = Some((row, shipment.into_iter().collect()));
            }
        }
    }
    flush(current);
    Walked {
        root,
        lots,
        truncated,
    }
}

// --- recalls ------------------------------------------------------------------------

/// A lot a recall covers.
#[derive(Object, Debug, Clone)]
pub struct RecalledLot {
    #[oai(flatten)]
    pub lot: TracedLot,
    /// 0 for the recalled lot, n for a lot made from it n steps down.
    pub depth: i32,
    /// Its status before the recall.
    pub previous_status: LotStatus,
    /// Whether this recall set it `recalled` (false: it was recalled
    /// already, and stays so).
    pub status_changed: bool,
}

/// What of a recalled lot a shipment took to a customer.
#[derive(Object, Debug, Clone)]
pub struct RecalledShipment {
    pub shipment_id: Uuid,
    pub shipment_number: i64,
    /// `shipped` or `delivered` (as it is now).
    pub status: String,
    pub shipped_at: Option<DateTime<Utc>>,
    pub customer_id: Uuid,
    pub customer_name: String,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub product_name: String,
    /// A decimal string.
    pub quantity: String,
}

/// A customer a recall reached, and how much of the recalled lots it got.
#[derive(Object, Debug, Clone, PartialEq)]
pub struct AffectedCustomer {
    pub customer_id: Uuid,
    pub name: String,
    /// In all, over its shipments and the recalled lots (a decimal string).
    pub quantity: String,
}

/// A recall: the lot, every lot made from it, the shipments and customers
/// they reached, and the reservations released.
#[derive(Object, Debug, Clone)]
pub struct Recall {
    pub id: Uuid,
    /// What people quote (RC-000042 shows 42).
    pub number: i64,
    /// The lot recalled.
    pub lot_id: Uuid,
    pub reason: String,
    /// Who recalled it, by name at the time.
    pub created_by_name: String,
    pub created_at: DateTime<Utc>,
    /// The lot (depth 0) and every lot made from it.
    pub lots: Vec<RecalledLot>,
    /// What of those lots had left for customers, lot by lot.
    pub shipments: Vec<RecalledShipment>,
    /// The customers reached, by name.
    pub customers: Vec<AffectedCustomer>,
    /// The open stock reservations of those lots it released.
    pub released_reservations: Vec<Uuid>,
    /// The downstream walk stopped at the depth limit: lots beyond it were
    /// not recalled (recall the deepest listed lots too).
    pub truncated: bool,
}

/// A recall as the list shows it.
#[derive(Object, Debug, Clone)]
pub struct RecallSummary {
    pub id: Uuid,
    pub number: i64,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub product_name: String,
    pub reason: String,
    pub created_by_name: String,
    pub created_at: DateTime<Utc>,
    /// How many lots it covers (the lot and those made from it).
    pub lots: i64,
    pub shipments: i64,
    pub customers: i64,
}

impl From<store::RecallRow> for RecallSummary {
    fn from(r: store::RecallRow) -> Self {
        Self {
            id: r.id,
            number: r.number,
            lot_id: r.lot_id,
            lot_number: r.lot_number,
            product_name: r.product_name,
            reason: r.reason,
            created_by_name: r.created_by_name,
            created_at: r.created_at,
            lots: r.lots,
            shipments: r.shipments,
            customers: r.customers,
        }
    }
}

/// The recall as stored, made into its answer.
pub fn recall_out(
    row: &store::RecallRow,
    lots: Vec<store::RecallLotRow>,
    shipments: Vec<store::RecallShipmentRow>,
    released_reservations: Vec<Uuid>,
) -> Recall {
    Recall {
        id: row.id,
        number: row.number,
        lot_id: row.lot_id,
        reason: row.reason.clone(),
        created_by_name: row.created_by_name.clone(),
        created_at: row.created_at,
        lots: lots
            .into_iter()
            .map(|l| RecalledLot {
                lot: TracedLot {
                    id: l.lot_id,
                    product_id: l.product_id,
                    product_name: l.product_name,
                    gtin: l.gtin,
                    number: l.number,
                    status: lot_status(&l.status),
                },
                depth: i32::from(l.depth),
                previous_status: lot_status(&l.previous_status),
                status_changed: l.status_changed,
            })
            .collect(),
        customers: customers_of(&shipments),
        shipments: shipments
            .into_iter()
            .map(|s| RecalledShipment {
                shipment_id: s.shipment_id,
                shipment_number: s.shipment_number,
                status: s.shipment_status,
                shipped_at: s.shipped_at,
                customer_id: s.customer_id,
                customer_name: s.customer_name,
                lot_id: s.lot_id,
                lot_number: s.lot_number,
                product_name: s.product_name,
                quantity: quantity_text(s.quantity),
            })
            .collect(),
        released_reservations,
        truncated: row.truncated,
    }
}

/// The customers of `shipments`, by name, each with the quantity it got.
pub fn customers_of(shipments: &[store::RecallShipmentRow]) -> Vec<AffectedCustomer> {
    let mut by: BTreeMap<Uuid, (String, Decimal)> = BTreeMap::new();
    for s in shipments {
        let entry = by
            .entry(s.customer_id)
            .or_insert_with(|| (s.customer_name.clone(), Decimal::ZERO));
        entry.1 += s.quantity;
    }
    let mut out: Vec<AffectedCustomer> = by
        .into_iter()
        .map(|(customer_id, (name, q))| AffectedCustomer {
            customer_id,
            name,
            quantity: quantity_text(q),
        })
        .collect();
    out.sort_by(|a, b| {
        (a.name.to_lowercase(), a.customer_id).cmp(&(b.name.to_lowercase(), b.customer_id))
    });
    out
}

/// The header of `affected.csv`.
pub const CSV_HEADER: &str = "recall,recalled_lot,depth,product,gtin,lot,lot_status,status_changed_by_recall,shipment,shipment_status,shipped_at,customer_id,customer,customer_gln,customer_email,quantity\r\n";

/// `affected.csv` of a recall (RFC 4180: CRLF lines, fields quoted when
/// they hold a comma, a quote or a line break; a cell a spreadsheet would
/// run as a formula gets a `'` in front, [`csv::field`]): one line per
/// shipment of a recalled lot, and one line for each recalled lot no
/// shipment took.
pub fn affected_csv(
    row: &store::RecallRow,
    lots: &[store::RecallLotRow],
    shipments: &[store::RecallShipmentRow],
) -> String {
    let mut out = String::from(CSV_HEADER);
    let recall = format!("RC-{:06}", row.number);
    for lot in lots {
        let mine: Vec<&store::RecallShipmentRow> = shipments
            .iter()
            .filter(|s| s.lot_id == lot.lot_id)
            .collect();
        let lot_cells = [
            recall.clone(),
            row.lot_number.clone(),
            lot.depth.to_string(),
            lot.product_name.clone(),
            lot.gtin.clone(),
            lot.number.clone(),
            lot.status.clone(),
            lot.status_changed.to_string(),
        ];
        let mut line = |cells: &[String]| {
            let fields: Vec<String> = cells.iter().map(|c| csv::field(c)).collect();
            out.push_str(&fields.join(","));
            out.push_str("\r\n");
        };
        if mine.is_empty() {
            let mut cells = lot_cells.to_vec();
            cells.extend(std::iter::repeat_n(String::new(), 8));
            line(&cells);
        }
        for s in mine {
            let mut cells = lot_cells.to_vec();
            cells.extend([
                format!("SH-{:06}", s.shipment_number),
                s.shipment_status.clone(),
                s.shipped_at.map(|t| t.to_rfc3339()).unwrap_or_default(),
                s.customer_id.to_string(),
                s.customer_name.clone(),
                s.customer_gln.clone().unwrap_or_default(),
                s.customer_email.clone().unwrap_or_default(),
                quantity_text(s.quantity),
            ]);
            line(&cells);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recall_row() -> store::RecallRow {
        store::RecallRow {
            id: Uuid::nil(),
            number: 7,
            lot_id: Uuid::nil(),
            lot_number: "=L1".into(),
            product_name: "Tea".into(),
            reason: "x".into(),
            created_by_name: "Ann".into(),
            created_at: Utc::now(),
            truncated: false,
            lots: 1,
            shipments: 1,
            customers: 1,
        }
    }

    #[test]
    fn the_csv_quotes_and_neutralises_its_cells() {
        let lot = store::RecallLotRow {
            lot_id: Uuid::from_u128(1),
            product_id: Uuid::nil(),
            product_name: "Tea, \"green\"".into(),
            gtin: "09506000134352".into(),
            number: "=L1".into(),
            depth: 0,
            status: "recalled".into(),
            previous_status: "released".into(),
            status_changed: true,
        };
        let other = store::RecallLotRow {
            lot_id: Uuid::from_u128(2),
            number: "B2".into(),
            depth: 1,
            ..lot.clone()
        };
        let ship = store::RecallShipmentRow {
            shipment_id: Uuid::nil(),
            shipment_number: 42,
            shipment_status: "shipped".into(),
            shipped_at: None,
            customer_id: Uuid::nil(),
            customer_name: "@Shop\nWest".into(),
            customer_gln: None,
            customer_email: Some("-a@b.c".into()),
            lot_id: lot.lot_id,
            lot_number: "=L1".into(),
            product_name: "Tea".into(),
            quantity: Decimal::new(1250, 2),
        };
        let csv = affected_csv(&recall_row(), &[lot, other], &[ship]);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], CSV_HEADER.trim_end());
        assert!(lines[1].starts_with("RC-000007,'=L1,0,\"Tea, \"\"green\"\"\",09506000134352,'=L1,recalled,true,SH-000042,shipped,,"), "{csv}");
        assert!(csv.contains(",\"'@Shop\nWest\",,'-a@b.c,12.5\r\n"), "{csv}");
        // The lot no shipment took still has its line.
        assert!(
            csv.contains(",1,\"Tea, \"\"green\"\"\",09506000134352,B2,recalled,true,,,,,,,,\r\n"),
            "{csv}"
        );
    }

    #[test]
    fn customers_are_summed_over_their_shipments() {
        let row = |customer: u128, name: &str, q: i64| store::RecallShipmentRow {
            shipment_id: Uuid::new_v4(),
            shipment_number: 1,
            shipment_status: "shipped".into(),
            shipped_at: None,
            customer_id: Uuid::from_u128(customer),
            customer_name: name.into(),
            customer_gln: None,
            customer_email: None,
            lot_id: Uuid::nil(),
            lot_number: "L".into(),
            product_name: "P".into(),
            quantity: Decimal::from(q),
        };
        let got = customers_of(&[row(2, "beta", 3), row(1, "Alpha", 2), row(2, "beta", 4)]);
        assert_eq!(
            got.iter()
                .map(|c| (c.name.as_str(), c.quantity.as_str()))
                .collect::<Vec<_>>(),
            [("Alpha", "2"), ("beta", "7")]
        );
    }
}
