//! The EPCIS 2.0 events of a shipment, stored in the EPCIS store
//! (`epcis_events`) in the ship's or delivery's transaction, so the
//! export (`GET /api/epcis/events`) and the product journey show them.
//!
//! - Shipping: per package, an `AggregationEvent` (action `ADD`, bizStep
//!   `packing`) packing what it holds into its SSCC
//!   (`https://id.gs1.org/00/{sscc}`); then one `ObjectEvent` (action
//!   `OBSERVE`, bizStep `shipping`, disposition `in_transit`) of the SSCCs.
//! - Receiving: one `ObjectEvent` (`OBSERVE`, bizStep `receiving`) of the
//!   SSCCs.
//!
//! The customer's GLN, when it has one, is the events' destination
//! (`destinationList`, type `owning_party`) and the receiving's
//! `bizLocation`.
//!
//! A package's aggregation is stored as one row whatever it holds, as a
//! code job's commissioning is: its `childQuantityList` names each lot's
//! class (`https://id.gs1.org/01/{gtin}/10/{lot}`) and every unit of it the
//! package holds, and the row is marked with its shipment and package
//! (`epcis_events.shipment_id`, `shipment_package`). The codes the package
//! took of its lots when it shipped (`shipment_codes`, see `serials`) are
//! not stored in the event, one per code: the export
//! (`epcis::export`) renders them from the code rows as the event's
//! `childEPCs` (SGTINs, or Digital Link URIs), at most 10,000 per event,
//! and takes those units out of the class's quantity; what has no code (a
//! lot without codes, units beyond its codes, a fractional unit) stays
//! there as a quantity. So the stored row says what the package holds (the
//! journey shows it), and the export says which packs.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::epcis::{self, EventSource, NewEvent};
use crate::inventory::quantity_text;

/// One lot in a package.
pub struct PackedLot<'a> {
    pub gtin: &'a str,
    pub lot_number: &'a str,
    pub quantity: Decimal,
}

/// A package and what it holds.
pub struct PackedPackage<'a> {
    /// Its number in the shipment (1 to 99).
    pub package: i32,
    pub sscc: &'a str,
    pub lots: Vec<PackedLot<'a>>,
}

/// The class of a lot, as a package's `childQuantityList` names it (and
/// `shipment_codes.epc_class` repeats it for the codes counted in it).
pub fn lot_class(gtin: &str, lot_number: &str) -> String {
    epcis::product_class(gtin, Some(lot_number))
}

fn sscc_uri(sscc: &str) -> String {
    format!("https://id.gs1.org/00/{sscc}")
}

fn destination(customer_gln: Option<&str>) -> Option<Value> {
    customer_gln.map(|gln| {
        json!([{"type": "owning_party", "destination": format!("https://id.gs1.org/414/{gln}")}])
    })
}

/// A quantity as EPCIS writes it: a JSON number.
fn number(q: Decimal) -> Value {
    serde_json::from_str(&quantity_text(q)).unwrap_or(Value::Null)
}

fn base(event_type: &str, at: DateTime<Utc>) -> Value {
    json!({
        "type": event_type,
        "eventID": format!("urn:uuid:{}", Uuid::new_v4()),
        "eventTime": epcis::epcis_time(at),
        "eventTimeZoneOffset": "+00:00",
    })
}

fn stored(document: &Value, by: Uuid) -> NewEvent {
    let mut event = epcis::describe(document, "", EventSource::Recorded)
        .expect("a shipment's event is a valid event");
    event.recorded_by = Some(by);
    event
}

/// The events of shipment `shipment_id` leaving: one aggregation per
/// package (marked as the package's), then the shipping observation of
/// every package.
pub fn shipping(
    shipment_id: Uuid,
    packages: &[PackedPackage<'_>],
    customer_gln: Option<&str>,
    at: DateTime<Utc>,
    by: Uuid,
) -> Vec<NewEvent> {
    let mut events = Vec::with_capacity(packages.len() + 1);
    for package in packages {
        let mut doc = base("AggregationEvent", at);
        doc["action"] = json!("ADD");
        doc["bizStep"] = json!("packing");
        doc["disposition"] = json!("in_progress");
        doc["parentID"] = json!(sscc_uri(package.sscc));
        doc["childEPCs"] = json!([]);
        doc["childQuantityList"] = Value::Array(
            package
                .lots
                .iter()
                .map(|l| {
                    json!({
                        "epcClass": lot_class(l.gtin, l.lot_number),
                        "quantity": number(l.quantity),
                    })
                })
                .collect(),
        );
        let mut event = stored(&doc, by);
        event.shipment_id = Some(shipment_id);
        event.shipment_package = Some(package.package);
        events.push(event);
    }
    let mut doc = base("ObjectEvent", at);
    doc["action"] = json!("OBSERVE");
    doc["bizStep"] = json!("shipping");
    doc["disposition"] = json!("in_transit");
    doc["epcList"] = Value::Array(packages.iter().map(|p| json!(sscc_uri(p.sscc))).collect());
    if let Some(dest) = destination(customer_gln) {
        doc["destinationList"] = dest;
    }
    events.push(stored(&doc, by));
    events
}

/// The event of a shipment received by its customer.
pub fn receiving(
    ssccs: &[String],
    customer_gln: Option<&str>,
    at: DateTime<Utc>,
    by: Uuid,
) -> NewEvent {
    let mut doc = base("ObjectEvent", at);
    doc["action"] = json!("OBSERVE");
    doc["bizStep"] = json!("receiving");
    doc["disposition"] = json!("in_progress");
    doc["epcList"] = Value::Array(ssccs.iter().map(|s| json!(sscc_uri(s))).collect());
    if let Some(gln) = customer_gln {
        doc["bizLocation"] = json!({"id": format!("https://id.gs1.org/414/{gln}")});
    }
    if let Some(dest) = destination(customer_gln) {
        doc["destinationList"] = dest;
    }
    stored(&doc, by)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipping_and_receiving_are_valid_epcis() {
        let by = Uuid::new_v4();
        let shipment = Uuid::new_v4();
        let packages = [
            PackedPackage {
                package: 1,
                sscc: "106141412345678908",
                lots: vec![
                    PackedLot {
                        gtin: "09506000134352",
                        lot_number: "L 1/2",
                        quantity: Decimal::new(125, 1),
                    },
                    PackedLot {
                        gtin: "09506000134352",
                        lot_number: "L2",
                        quantity: Decimal::from(3),
                    },
                ],
            },
            PackedPackage {
                package: 2,
                sscc: "095060001300000002",
                lots: vec![PackedLot {
                    gtin: "09506000134352",
                    lot_number: "L3",
                    quantity: Decimal::from(1),
                }],
            },
        ];
        for gln in [Some("9506000134352"), None] {
            let mut events: Vec<Value> = shipping(shipment, &packages, gln, Utc::now(), by)
                .into_iter()
                .map(|e| e.document)
                .collect();
            events.push(receiving(&["106141412345678908".into()], gln, Utc::now(), by).document);
            assert_eq!(events.len(), 4);
            let doc = epcis::document(events, Utc::now());
            assert!(
                epcis::schema_errors(&doc).is_empty(),
                "{:?}",
                epcis::schema_errors(&doc)
            );
        }
        let events = shipping(shipment, &packages, Some("9506000134352"), Utc::now(), by);
        assert_eq!(
            (events[1].shipment_id, events[1].shipment_package),
            (Some(shipment), Some(2)),
            "a package's aggregation is marked as its own"
        );
        assert_eq!(
            (events[2].shipment_id, events[2].shipment_package),
            (None, None)
        );
        assert_eq!(
            events[0].parent_id.as_deref(),
            Some("https://id.gs1.org/00/106141412345678908")
        );
        assert_eq!(events[0].gtins, ["09506000134352"]);
        assert_eq!(
            events[0].document["childQuantityList"][0]["epcClass"],
            "https://id.gs1.org/01/09506000134352/10/L%201%2F2"
        );
        assert_eq!(events[0].document["childQuantityList"][0]["quantity"], 12.5);
        assert_eq!(events[2].biz_step.as_deref(), Some("shipping"));
        assert_eq!(
            events[2].document["destinationList"][0]["destination"],
            "https://id.gs1.org/414/9506000134352"
        );
    }
}
