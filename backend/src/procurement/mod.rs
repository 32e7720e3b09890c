//! Procurement (issue 23): purchase orders and their state machine,
//! receipts into the lot register and the stock ledger, and supplier bills
//! with the three-way match (order, receipt, bill).
//!
//! - A purchase order moves `draft -> confirmed -> partially_received ->
//!   received`, or to `cancelled` from a draft or a confirmed order without
//!   receipts; every other step is refused (409 `invalid_transition`). The
//!   order's row is locked for each step, so parallel steps queue.
//! - A receipt creates or extends lots (`lots::store::ensure`: a product
//!   that requires inspection starts its lots in `quarantine`), writes the
//!   receipt moves through `inventory::ledger::record_move` at the line's
//!   price in the order's currency, and raises each line's
//!   `received_quantity` by one conditional `UPDATE` that refuses more than
//!   [`OVER_RECEIPT_TOLERANCE`] above the ordered quantity (409
//!   `over_receipt`). All in one transaction.
//! - A bill is matched line by line when recorded ([`three_way_match`]).
//!
//! Files: `mod.rs` (the types and the rules), `api.rs` (the operations),
//! `store.rs` (the SQL).

pub mod api;
pub mod store;

use poem_openapi::{Enum, Object};
use rust_decimal::Decimal;
use uuid::Uuid;

use crate::inventory::{money_text, quantity_text};

/// How far above the ordered quantity a line may be received in total: 5%.
pub const OVER_RECEIPT_TOLERANCE: Decimal = Decimal::from_parts(5, 0, 0, false, 2);

/// The most a line may be received in total: the ordered quantity plus
/// [`OVER_RECEIPT_TOLERANCE`].
pub fn receivable_limit(ordered: Decimal) -> Decimal {
    ordered + ordered * OVER_RECEIPT_TOLERANCE
}

/// Where a purchase order stands.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename = "PurchaseOrderStatus", rename_all = "snake_case")]
pub enum OrderStatus {
    /// Being prepared: lines may still be wrong; not sent to the supplier.
    Draft,
    /// Sent to the supplier: goods may arrive.
    Confirmed,
    /// Some goods arrived, not all.
    PartiallyReceived,
    /// Every line arrived in full (more may still arrive within the
    /// tolerance).
    Received,
    /// Called off before anything arrived.
    Cancelled,
}

impl OrderStatus {
    pub const ALL: [OrderStatus; 5] = [
        OrderStatus::Draft,
        OrderStatus::Confirmed,
        OrderStatus::PartiallyReceived,
        OrderStatus::Received,
        OrderStatus::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Draft => "draft",
            OrderStatus::Confirmed => "confirmed",
            OrderStatus::PartiallyReceived => "partially_received",
            OrderStatus::Received => "received",
            OrderStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// Whether goods may be received against an order in this status.
    pub fn receives(self) -> bool {
        matches!(
            self,
            OrderStatus::Confirmed | OrderStatus::PartiallyReceived | OrderStatus::Received
        )
    }

    /// Whether an order in this status may be cancelled (the caller also
    /// checks that it has no receipts).
    pub fn cancellable(self) -> bool {
        matches!(self, OrderStatus::Draft | OrderStatus::Confirmed)
    }
}

/// What a whole order's status is after a receipt: `received` when every
/// line has arrived in full, else `partially_received`.
pub fn status_after_receipt(lines: &[(Decimal, Decimal)]) -> OrderStatus {
    if lines.iter().all(|(ordered, received)| received >= ordered) {
        OrderStatus::Received
    } else {
        OrderStatus::PartiallyReceived
    }
}

/// Whether a bill matched its order and receipts.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
pub enum BillMatch {
    Matched,
    Mismatch,
}

impl BillMatch {
    pub fn as_str(self) -> &'static str {
        match self {
            BillMatch::Matched => "matched",
            BillMatch::Mismatch => "mismatch",
        }
    }
    pub fn parse(name: &str) -> Option<Self> {
        [BillMatch::Matched, BillMatch::Mismatch]
            .into_iter()
            .find(|m| m.as_str() == name)
    }
}

/// Why a bill line does not match.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum MismatchReason {
    /// The bill charges more than was received and not billed before.
    QuantityNotReceived,
    /// The bill's unit price is not the order's.
    PriceDiffers,
}

/// One line of a bill that does not match: what was expected (the
/// quantity received and not yet billed, or the order's unit price) and
/// what was billed, both decimal strings.
#[derive(Object, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mismatch {
    pub line_id: Uuid,
    pub reason: MismatchReason,
    pub expected: String,
    pub billed: String,
}

/// An order line as the match sees it.
#[derive(Debug, Clone, Copy)]
pub struct MatchLine {
    pub line_id: Uuid,
    pub unit_price: Decimal,
    pub received: Decimal,
    /// Billed by earlier bills (any match, approved or not).
    pub billed_before: Decimal,
}

/// What a bill charges for one order line.
#[derive(Debug, Clone, Copy)]
pub struct BilledLine {
    pub line_id: Uuid,
    pub quantity: Decimal,
    pub unit_price: Decimal,
}

/// The three-way match of a bill: for each of its lines, the quantity
/// billed must be at most what was received less what earlier bills
/// charged for the line (`quantity_not_received` otherwise, expecting that
/// rest), and the unit price must equal the order's, exactly
/// (`price_differs`). `order` has every line the bill names.
pub fn three_way_match(order: &[MatchLine], bill: &[BilledLine]) -> Vec<Mismatch> {
    let mut mismatches = Vec::new();
    for b in bill {
        let Some(line) = order.iter().find(|l| l.line_id == b.line_id) else {
            continue;
        };
        let open = (line.received - line.billed_before).max(Decimal::ZERO);
        if b.quantity > open {
            mismatches.push(Mismatch {
                line_id: b.line_id,
                reason: MismatchReason::QuantityNotReceived,
                expected: quantity_text(open),
                billed: quantity_text(b.quantity),
            });
        }
        if b.unit_price != line.unit_price {
            mismatches.push(Mismatch {
                line_id: b.line_id,
                reason: MismatchReason::PriceDiffers,
                expected: money_text(line.unit_price),
                billed: money_text(b.unit_price),
            });
        }
    }
    mismatches
}

/// A purchase order's number as people quote it: `PO-000042`.
pub fn order_number(n: i64) -> String {
    format!("PO-{n:06}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn the_tolerance_is_five_percent() {
        assert_eq!(receivable_limit(d("100")), d("105"));
        assert_eq!(receivable_limit(d("10")), d("10.5"));
        assert_eq!(receivable_limit(d("0.001")), d("0.00105"));
    }

    #[test]
    fn transitions() {
        use OrderStatus::*;
        assert!(!Draft.receives());
        assert!(Confirmed.receives() && PartiallyReceived.receives() && Received.receives());
        assert!(!Cancelled.receives());
        assert!(Draft.cancellable() && Confirmed.cancellable());
        assert!(!PartiallyReceived.cancellable() && !Received.cancellable());
        assert!(!Cancelled.cancellable());
        assert_eq!(
            status_after_receipt(&[(d("10"), d("10")), (d("5"), d("5.2"))]),
            Received
        );
        assert_eq!(
            status_after_receipt(&[(d("10"), d("10")), (d("5"), d("4"))]),
            PartiallyReceived
        );
        for s in OrderStatus::ALL {
            assert_eq!(OrderStatus::parse(s.as_str()), Some(s));
        }
    }

    #[test]
    fn the_match_counts_earlier_bills_and_compares_prices_exactly() {
        let id = Uuid::new_v4();
        let order = [MatchLine {
            line_id: id,
            unit_price: d("2.5"),
            received: d("10"),
            billed_before: d("4"),
        }];
        let bill = |q: &str, p: &str| {
            [BilledLine {
                line_id: id,
                quantity: d(q),
                unit_price: d(p),
            }]
        };
        assert!(three_way_match(&order, &bill("6", "2.50")).is_empty());
        assert_eq!(
            three_way_match(&order, &bill("6.001", "2.50")),
            vec![Mismatch {
                line_id: id,
                reason: MismatchReason::QuantityNotReceived,
                expected: "6".into(),
                billed: "6.001".into(),
            }]
        );
        let both = three_way_match(&order, &bill("7", "2.51"));
        assert_eq!(both.len(), 2);
        assert_eq!(both[1].reason, MismatchReason::PriceDiffers);
        assert_eq!(
            (both[1].expected.as_str(), both[1].billed.as_str()),
            ("2.50", "2.51")
        );
    }
}
