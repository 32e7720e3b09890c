//! Manufacturing (issue 23): versioned bills of materials and manufacturing
//! orders. Completing an order consumes component lots (earliest expiry
//! first, through `inventory::ledger`), produces the output lot (through
//! `lots::store`), records which input lots went into it (`lot_inputs`, the
//! genealogy's edges), an EPCIS TransformationEvent and, when asked, a code
//! job for the output lot, in one transaction.
//!
//! Files: `mod.rs` (the types and the rules: states, scaling, the event),
//! `api.rs` (`/api/boms`, `/api/manufacturing-orders`), `store.rs` (the SQL).

pub mod api;
pub mod store;

use chrono::{DateTime, Utc};
use poem_openapi::Enum;
use rust_decimal::{Decimal, RoundingStrategy};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::epcis::{self, EventSource, NewEvent};

/// Where a manufacturing order stands.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename = "ManufacturingOrderStatus", rename_all = "snake_case")]
pub enum OrderStatus {
    /// Created, its BOM version pinned; nothing consumed yet.
    Planned,
    /// Started on the shop floor.
    InProgress,
    /// Done: components consumed, the output lot produced.
    Completed,
    /// Called off before completion; nothing was consumed.
    Cancelled,
}

impl OrderStatus {
    pub const ALL: [OrderStatus; 4] = [
        OrderStatus::Planned,
        OrderStatus::InProgress,
        OrderStatus::Completed,
        OrderStatus::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Planned => "planned",
            OrderStatus::InProgress => "in_progress",
            OrderStatus::Completed => "completed",
            OrderStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// Whether an order in this state may move to `to`: planned ->
    /// in_progress -> completed; planned or in_progress -> cancelled.
    pub fn may_become(self, to: OrderStatus) -> bool {
        matches!(
            (self, to),
            (OrderStatus::Planned, OrderStatus::InProgress)
                | (OrderStatus::InProgress, OrderStatus::Completed)
                | (
                    OrderStatus::Planned | OrderStatus::InProgress,
                    OrderStatus::Cancelled
                )
        )
    }
}

/// The number people quote for order `n`: `MO-000042`.
pub fn order_number(n: i64) -> String {
    format!("MO-{n:06}")
}

/// How much of a component a run producing `produced` needs, when the BOM
/// makes `output_quantity` from `per_output` of it: scaled, rounded up to
/// the ledger's 3 decimal places (a run never consumes less than it needs),
/// at least 0.001.
pub fn scaled(per_output: Decimal, produced: Decimal, output_quantity: Decimal) -> Decimal {
    let exact = per_output * produced / output_quantity;
    let rounded = exact.round_dp_with_strategy(3, RoundingStrategy::AwayFromZero);
    rounded.max(Decimal::new(1, 3)).normalize()
}

/// A quantity as an EPCIS JSON number.
fn epcis_quantity(q: Decimal) -> Value {
    serde_json::from_str(&q.normalize().to_string()).unwrap_or(Value::Null)
}

/// A lot in a TransformationEvent: its product's GTIN, its number, how much.
pub struct EventLot<'a> {
    pub gtin: &'a str,
    pub lot: &'a str,
    pub quantity: Decimal,
}

/// The EPCIS 2.0 TransformationEvent of a completed order: the input lots
/// (each lot's class, its Digital Link `https://id.gs1.org/01/{gtin}/10/{lot}`,
/// with the quantity consumed) and the output lot with the quantity
/// produced; bizStep `commissioning`, disposition `active`; the order's id
/// as its transformationID.
pub fn transformation_event(
    order_id: Uuid,
    inputs: &[EventLot<'_>],
    output: &EventLot<'_>,
    at: DateTime<Utc>,
    recorded_by: Option<Uuid>,
) -> NewEvent {
    let list = |lots: &[&EventLot<'_>]| -> Vec<Value> {
        lots.iter()
            .map(|l| {
                json!({
                    "epcClass": epcis::product_class(l.gtin, Some(l.lot)),
                    "quantity": epcis_quantity(l.quantity),
                })
            })
            .collect()
    };
    let inputs: Vec<&EventLot<'_>> = inputs.iter().collect();
    let document = json!({
        "type": "TransformationEvent",
        "eventID": format!("urn:uuid:{}", Uuid::new_v4()),
        "eventTime": epcis::epcis_time(at),
        "eventTimeZoneOffset": "+00:00",
        "transformationID": format!("urn:uuid:{order_id}"),
        "bizStep": "commissioning",
        "disposition": "active",
        "inputQuantityList": list(&inputs),
        "outputQuantityList": list(&[output]),
    });
    let mut event = epcis::describe(&document, "", EventSource::Recorded)
        .expect("a transformation event is a valid event");
    event.recorded_by = recorded_by;
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn states_move_forward_only() {
        use OrderStatus::*;
        assert!(Planned.may_become(InProgress));
        assert!(InProgress.may_become(Completed));
        assert!(Planned.may_become(Cancelled));
        assert!(InProgress.may_become(Cancelled));
        for (from, to) in [
            (Planned, Completed),
            (Completed, Cancelled),
            (Completed, InProgress),
            (Cancelled, InProgress),
            (InProgress, InProgress),
            (Completed, Completed),
            (Cancelled, Planned),
        ] {
            assert!(!from.may_become(to), "{from:?} -> {to:?}");
        }
        for s in OrderStatus::ALL {
            assert_eq!(OrderStatus::parse(s.as_str()), Some(s));
        }
    }

    #[test]
    fn components_scale_with_what_is_produced_and_round_up() {
        assert_eq!(scaled(d("2"), d("10"), d("1")), d("20"));
        assert_eq!(scaled(d("3"), d("5"), d("10")), d("1.5"));
        assert_eq!(scaled(d("1"), d("1"), d("3")), d("0.334"));
        assert_eq!(scaled(d("0.001"), d("1"), d("1000")), d("0.001"));
        assert_eq!(order_number(42), "MO-000042");
    }

    #[test]
    fn the_transformation_event_is_valid_epcis() {
        let event = transformation_event(
            Uuid::new_v4(),
            &[
                EventLot {
                    gtin: "09506000134352",
                    lot: "IN 1/2",
                    quantity: d("2.5"),
                },
                EventLot {
                    gtin: "09506000134369",
                    lot: "IN2",
                    quantity: d("3"),
                },
            ],
            &EventLot {
                gtin: "09506000134376",
                lot: "OUT1",
                quantity: d("10"),
            },
            Utc::now(),
            None,
        );
        assert_eq!(event.event_type, "TransformationEvent");
        assert_eq!(
            event.gtins,
            ["09506000134352", "09506000134369", "09506000134376"]
        );
        let doc = epcis::document(vec![event.document.clone()], Utc::now());
        assert!(
            epcis::schema_errors(&doc).is_empty(),
            "{:?}",
            epcis::schema_errors(&doc)
        );
        assert_eq!(
            event.document["inputQuantityList"][0]["epcClass"],
            "https://id.gs1.org/01/09506000134352/10/IN%201%2F2"
        );
        assert_eq!(event.document["inputQuantityList"][0]["quantity"], 2.5);
    }
}
