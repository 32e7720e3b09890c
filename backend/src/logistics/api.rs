//! `/api/shipments`: shipments to customers (create, list, read, ship,
//! deliver, cancel) and their SSCC logistic labels.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, Object, OpenApi};
use rust_decimal::Decimal;
use uuid::Uuid;

use super::events::{PackedLot, PackedPackage};
use super::{
    ShipmentStatus, events, invalid_transition, label, serials, shipment_reference, store,
};
use crate::audit;
use crate::epcis;
use crate::http::error::{ApiError, QueryError, StateError, WriteStateError};
use crate::http::input::{IsoDate, Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::inventory::{self, MoveReason, Quantity, ledger, quantity_text};
use crate::json_response;
use crate::lots::LotStatus;
use crate::organisation;

#[derive(Default)]
pub struct LogisticsApi;

/// The most lines one shipment may have.
pub const MAX_LINES: usize = 100;
/// The most shipments a list shows.
const LIST_LIMIT: i64 = 200;

/// A line of a new shipment.
#[derive(Object, Debug)]
pub struct NewShipmentLine {
    pub product_id: Uuid,
    /// More than 0, at most 3 decimal places, as a string.
    pub quantity: Text<Quantity>,
    /// Ship from this lot (released, unexpired, at the shipment's
    /// location); leave it out and the server picks first expiry first out.
    pub lot_id: Optional<Uuid>,
    /// The package (1 to 99) the line is packed in; 1 when left out. Each
    /// package gets its own SSCC when the shipment ships.
    #[oai(validator(minimum(value = "1"), maximum(value = "99")))]
    pub package: Optional<i32>,
}

#[derive(Object, Debug)]
pub struct NewShipment {
    pub customer_id: Uuid,
    /// Where the stock leaves from (its own balances, not those below it).
    pub from_location_id: Uuid,
    /// 1 to 100 lines.
    #[oai(validator(min_items = 1, max_items = 100))]
    pub lines: Vec<NewShipmentLine>,
    /// The sales order it fulfils, if any.
    pub sales_order_id: Optional<Uuid>,
}

/// The customer of a shipment.
#[derive(Object, Debug)]
pub struct ShipmentCustomer {
    pub id: Uuid,
    pub name: String,
    /// Its GLN, the destination of the shipment's EPCIS events.
    #[oai(skip_serializing_if_is_none)]
    pub gln: Option<String>,
    pub country: String,
}

/// Stock a line's reservation holds (or, once shipped, held): one lot at
/// one location.
#[derive(Object, Debug)]
pub struct ShipmentPick {
    pub lot_id: Uuid,
    pub lot_number: String,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    pub location_id: Uuid,
    pub quantity: String,
}

#[derive(Object, Debug)]
pub struct ShipmentLine {
    pub position: i32,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub quantity: String,
    /// The lot the line asked for; absent when the server picked.
    #[oai(skip_serializing_if_is_none)]
    pub lot_id: Option<Uuid>,
    pub package: i32,
    /// The line's stock is still promised to the shipment (a draft whose
    /// reservation was released elsewhere, by a recall say, can no longer
    /// ship: cancel it and create another).
    pub reserved: bool,
    /// The lots picked, first expiry first.
    pub picks: Vec<ShipmentPick>,
}

/// A package of a shipment.
#[derive(Object, Debug)]
pub struct ShipmentPackage {
    pub package: i32,
    /// Its SSCC (18 digits), given when the shipment ships.
    #[oai(skip_serializing_if_is_none)]
    pub sscc: Option<String>,
}

#[derive(Object, Debug)]
pub struct Shipment {
    pub id: Uuid,
    pub number: i64,
    /// The number people quote, `SH-000042`.
    pub reference: String,
    pub status: ShipmentStatus,
    pub customer: ShipmentCustomer,
    pub from_location_id: Uuid,
    pub from_location_code: String,
    #[oai(skip_serializing_if_is_none)]
    pub sales_order_id: Option<Uuid>,
    pub created_at: chrono::DateTime<chrono::Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub shipped_at: Option<chrono::DateTime<chrono::Utc>>,
    #[oai(skip_serializing_if_is_none)]
    pub delivered_at: Option<chrono::DateTime<chrono::Utc>>,
    #[oai(skip_serializing_if_is_none)]
    pub cancelled_at: Option<chrono::DateTime<chrono::Utc>>,
    pub lines: Vec<ShipmentLine>,
    pub packages: Vec<ShipmentPackage>,
}

/// Shipments, newest first (at most 200).
#[derive(Object, Debug)]
pub struct ShipmentList {
    pub shipments: Vec<Shipment>,
}

json_response!(
    /// Created as a draft; its stock is reserved.
    ShipmentCreated { 201 => Created(Shipment) }
);

#[derive(ApiResponse)]
pub enum LabelFile {
    /// The SSCC logistic labels, one A5 page per package.
    #[oai(status = 200, content_type = "application/pdf")]
    Ok(
        Binary<Vec<u8>>,
        #[oai(header = "content-disposition")] String,
    ),
}

fn no_such_shipment() -> ApiError {
    ApiError::not_found("No such shipment in your organisation.")
}

fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(poem::http::StatusCode::CONFLICT, code, message)
}

/// The shipments `rows` with their lines, picks and packages.
async fn assemble(
    conn: &mut sqlx::PgConnection,
    rows: Vec<store::ShipmentRow>,
) -> Result<Vec<Shipment>, ApiError> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let lines = store::lines(conn, &ids).await?;
    let picks = store::picks(conn, &ids).await?;
    let packages = store::packages(conn, &ids).await?;
    let mut picks_of: HashMap<(Uuid, i32), Vec<ShipmentPick>> = HashMap::new();
    for p in picks {
        picks_of
            .entry((p.shipment_id, p.position))
            .or_default()
            .push(ShipmentPick {
                lot_id: p.lot_id,
                lot_number: p.lot_number,
                expires_on: p.expires_on,
                location_id: p.location_id,
                quantity: quantity_text(p.quantity),
            });
    }
    let mut lines_of: HashMap<Uuid, Vec<ShipmentLine>> = HashMap::new();
    for l in lines {
        lines_of
            .entry(l.shipment_id)
            .or_default()
            .push(ShipmentLine {
                position: l.position,
                product_id: l.product_id,
                product_name: l.product_name,
                gtin: l.gtin,
                quantity: quantity_text(l.quantity),
                lot_id: l.lot_id,
                package: l.package,
                reserved: l.reservation_status == "active",
                picks: picks_of
                    .remove(&(l.shipment_id, l.position))
                    .unwrap_or_default(),
            });
    }
    let mut ssccs: HashMap<(Uuid, i32), String> = packages
        .into_iter()
        .map(|p| ((p.shipment_id, p.package), p.sscc))
        .collect();
    Ok(rows
        .into_iter()
        .map(|r| {
            let lines = lines_of.remove(&r.id).unwrap_or_default();
            let numbers: BTreeSet<i32> = lines.iter().map(|l| l.package).collect();
            let packages = numbers
                .into_iter()
                .map(|n| ShipmentPackage {
                    package: n,
                    sscc: ssccs.remove(&(r.id, n)),
                })
                .collect();
            Shipment {
                id: r.id,
                number: r.number,
                reference: shipment_reference(r.number),
                status: ShipmentStatus::parse(&r.status).unwrap_or(ShipmentStatus::Draft),
                customer: ShipmentCustomer {
                    id: r.customer_id,
                    name: r.customer_name,
                    gln: r.customer_gln,
                    country: r.customer_country,
                },
                from_location_id: r.from_location_id,
                from_location_code: r.location_code,
                sales_order_id: r.sales_order_id,
                created_at: r.created_at,
                shipped_at: r.shipped_at,
                delivered_at: r.delivered_at,
                cancelled_at: r.cancelled_at,
                lines,
                packages,
            }
        })
        .collect())
}

/// Shipment `id` with its reference, its row locked until the transaction
/// ends (so a second step waits, then sees the first's status), when it is
/// `want`; else 409 `invalid_transition` saying `only` (what may take this
/// step).
async fn lock_in(
    tx: &mut sqlx::PgConnection,
    id: Uuid,
    want: ShipmentStatus,
    only: &str,
) -> Result<(store::ShipmentRow, String), ApiError> {
    let status = store::lock_shipment(tx, id)
        .await?
        .ok_or_else(no_such_shipment)?;
    let row = store::shipment(tx, id)
        .await?
        .ok_or_else(no_such_shipment)?;
    let reference = shipment_reference(row.number);
    if status != want.as_str() {
        return Err(invalid_transition(format!(
            "Shipment {reference} is {status}: {only}."
        )));
    }
    Ok((row, reference))
}

async fn load(conn: &mut sqlx::PgConnection, id: Uuid) -> Result<Shipment, ApiError> {
    let row = store::shipment(conn, id)
        .await?
        .ok_or_else(no_such_shipment)?;
    assemble(conn, vec![row])
        .await?
        .pop()
        .ok_or_else(no_such_shipment)
}

/// What a package holds: by (GTIN, lot number), the lot and the quantity.
type PackageContents = BTreeMap<(String, String), (Uuid, Decimal)>;

/// A line of a new shipment, checked.
struct Line {
    position: i32,
    product: store::ProductRow,
    quantity: Decimal,
    lot: Option<store::LotRow>,
    package: i32,
}

/// Reserves a line's stock from `lot` only: its usable balance at
/// `location` (locked in the ledger's order), or 409.
async fn reserve_from_lot(
    conn: &mut sqlx::PgConnection,
    product: &store::ProductRow,
    lot: &store::LotRow,
    location: Uuid,
    quantity: Decimal,
) -> Result<Vec<inventory::store::ReservationLineRow>, ApiError> {
    if LotStatus::parse(&lot.status) != Some(LotStatus::Released) || lot.expired {
        let why = if lot.expired {
            "has expired".to_string()
        } else {
            format!("is {}", lot.status)
        };
        return Err(ledger::lot_not_available(format!(
            "Lot {} of {} {why}: only released, unexpired lots ship.",
            lot.number, product.product_name
        )));
    }
    let candidates: Vec<_> = inventory::store::lock_reservable(conn, product.id, Some(location))
        .await?
        .into_iter()
        .filter(|c| c.lot_id == lot.id)
        .collect();
    let available: Decimal = candidates.iter().map(|c| c.available).sum();
    let Some(lines) = ledger::plan_fefo(candidates, quantity) else {
        return Err(ledger::insufficient(format!(
            "Not enough stock of {}, lot {}, at that location: {} available (on hand less reserved), {} asked.",
            product.product_name,
            lot.number,
            quantity_text(available),
            quantity_text(quantity)
        )));
    };
    for line in &lines {
        let done = inventory::store::reserve_line(
            conn,
            product.id,
            line.location_id,
            line.lot_id,
            line.quantity,
        )
        .await?;
        if !done {
            return Err(ledger::insufficient(format!(
                "Not enough stock of {}, lot {}, to reserve {}.",
                product.product_name,
                lot.number,
                quantity_text(line.quantity)
            )));
        }
    }
    Ok(lines)
}

#[OpenApi(tag = "ApiTags::Logistics")]
impl LogisticsApi {
    /// Creates a shipment as a draft and reserves its stock at once: each
    /// line's lot is the one it names (released, unexpired, at the
    /// location) or is picked first expiry first out among the released,
    /// unexpired lots at `from_location_id`. The reservations are what the
    /// draft promises: another shipment cannot take that stock (409
    /// `insufficient_stock`, naming the product; nothing is reserved), and
    /// shipping moves exactly those picks. 404 for a customer, location,
    /// product or lot that is not the organisation's; 409
    /// `lot_not_available` for a named lot that is not released or has
    /// expired.
    #[oai(path = "/shipments", method = "post", operation_id = "createShipment")]
    async fn create(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewShipment>,
    ) -> Result<ShipmentCreated, WriteStateError> {
        if body.lines.is_empty() || body.lines.len() > MAX_LINES {
            return Err(ApiError::invalid_input(format!(
                "A shipment needs 1 to {MAX_LINES} lines; this one has {}.",
                body.lines.len()
            ))
            .into());
        }
        let mut parsed = Vec::with_capacity(body.lines.len());
        for (i, l) in body.lines.iter().enumerate() {
            let quantity = l.quantity.parse_as(&format!("lines[{}].quantity", i + 1))?;
            let package = l.package.0.unwrap_or(1);
            if !(1..=99).contains(&package) {
                return Err(ApiError::invalid_input(format!(
                    "lines[{}].package must be a number from 1 to 99.",
                    i + 1
                ))
                .into());
            }
            parsed.push((i, quantity, package));
        }
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let customer = store::customer(&mut tx, body.customer_id)
            .await?
            .ok_or_else(|| ApiError::not_found("No such customer in your organisation."))?;
        if inventory::store::location_kind(&mut tx, body.from_location_id)
            .await?
            .is_none()
        {
            return Err(ApiError::not_found(
                "No such location (from_location_id) in your organisation.",
            )
            .into());
        }
        let mut lines = Vec::with_capacity(parsed.len());
        for (i, quantity, package) in parsed {
            let n = i + 1;
            let asked = &body.lines[i];
            let product = store::product(&mut tx, asked.product_id)
                .await?
                .ok_or_else(|| {
                    ApiError::not_found(format!(
                        "No such product (lines[{n}].product_id) in your organisation."
                    ))
                })?;
            let lot = match asked.lot_id.0 {
                None => None,
                Some(lot_id) => {
                    let lot = store::lot(&mut tx, lot_id).await?.ok_or_else(|| {
                        ApiError::not_found(format!(
                            "No such lot (lines[{n}].lot_id) in your organisation."
                        ))
                    })?;
                    if lot.product_id != product.id {
                        return Err(ApiError::invalid_input(format!(
                            "lines[{n}]: lot {} is not a lot of {}; choose one of its own lots or leave lot_id out.",
                            lot.number, product.product_name
                        ))
                        .into());
                    }
                    Some(lot)
                }
            };
            lines.push(Line {
                position: i32::try_from(n).unwrap_or(i32::MAX),
                product,
                quantity,
                lot,
                package,
            });
        }
        let id = Uuid::new_v4();
        let number = store::insert_shipment(
            &mut tx,
            id,
            customer.id,
            body.from_location_id,
            body.sales_order_id.0,
            caller.session.account_id,
        )
        .await?;
        let reference = shipment_reference(number);
        // Reserve in one order for every request (product, then position):
        // the ledger locks a product's balances together, so two drafts
        // with the same products queue instead of deadlocking.
        let mut order: Vec<usize> = (0..lines.len()).collect();
        order.sort_by_key(|&i| (lines[i].product.id, lines[i].position));
        let mut picked = Vec::new();
        for i in order {
            let line = &lines[i];
            let reservation = Uuid::new_v4();
            let picks = match &line.lot {
                Some(lot) => {
                    reserve_from_lot(
                        &mut tx,
                        &line.product,
                        lot,
                        body.from_location_id,
                        line.quantity,
                    )
                    .await?
                }
                None => {
                    ledger::reserve(
                        &mut tx,
                        reservation,
                        line.product.id,
                        &line.product.product_name,
                        Some(body.from_location_id),
                        line.quantity,
                    )
                    .await?
                }
            };
            inventory::store::insert_reservation(
                &mut tx,
                reservation,
                line.product.id,
                Some(body.from_location_id),
                line.quantity,
                &format!("Shipment {reference}"),
                Some(caller.session.account_id),
            )
            .await?;
            for p in &picks {
                inventory::store::insert_reservation_line(
                    &mut tx,
                    reservation,
                    p.location_id,
                    p.lot_id,
                    p.quantity,
                )
                .await?;
                picked.push(serde_json::json!({
                    "position": line.position, "lot_id": p.lot_id, "lot": p.lot_number,
                    "quantity": quantity_text(p.quantity),
                }));
            }
            store::insert_line(
                &mut tx,
                id,
                line.position,
                line.product.id,
                line.quantity,
                line.lot.as_ref().map(|l| l.id),
                line.package,
                reservation,
            )
            .await?;
        }
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "logistics.shipment_created",
            &id.to_string(),
            serde_json::json!({
                "reference": reference, "customer_id": customer.id,
                "from_location_id": body.from_location_id, "lines": lines.len(),
                "picks": picked,
            }),
        )
        .await?;
        tx.commit().await?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let shipment = load(&mut conn, id).await?;
        Ok(ShipmentCreated::Created(Json(shipment)))
    }

    /// The shipments, newest first (at most 200), of one `status` and/or
    /// one `customer_id`, each with its lines, picks and packages.
    #[oai(path = "/shipments", method = "get", operation_id = "listShipments")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        status: Query<Option<ShipmentStatus>>,
        customer_id: Query<Option<Uuid>>,
    ) -> Result<JsonOk<ShipmentList>, QueryError> {
        // One snapshot for the shipments and their parts.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let rows = store::list_shipments(
            &mut tx,
            status.0.map(ShipmentStatus::as_str),
            customer_id.0,
            LIST_LIMIT,
        )
        .await?;
        let shipments = assemble(&mut tx, rows).await?;
        drop(tx);
        Ok(JsonOk(ShipmentList { shipments }))
    }

    /// Shipment `id` with its lines, picks and packages (their SSCCs once
    /// shipped).
    #[oai(path = "/shipments/:id", method = "get", operation_id = "getShipment")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Shipment>, StateError> {
        let id = id.0.or(no_such_shipment)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let shipment = load(&mut tx, id).await?;
        drop(tx);
        Ok(JsonOk(shipment))
    }

    /// Ships a draft, all of it or nothing, in one transaction: its
    /// reservations are consumed and the picked stock leaves through the
    /// ledger (moves with reason `shipment`; a lot recalled or put on hold
    /// since the draft is refused with 409 `lot_not_available`), the lots
    /// shipped are recorded, each package gets an SSCC (AI 00: extension
    /// digit, the organisation's GS1 company prefix, a serial reference
    /// unique in the organisation, check digit) and the EPCIS events are
    /// stored: an AggregationEvent per package packing its lots
    /// (quantities of each lot's class) into its SSCC, and an ObjectEvent
    /// `shipping` of the SSCCs, to the customer's GLN when it has one.
    /// Of each lot with finished code jobs, the package takes the lot's next
    /// codes not shipped yet, one per whole unit (in order of job, then
    /// position; never a code another shipment took): the EPCIS export
    /// lists them as the aggregation's `childEPCs` (their SGTINs), and only
    /// the units without codes as quantities.
    /// 409 `invalid_transition` unless it is a draft (a second ship of the
    /// same shipment waits for the first, then gets it), 409
    /// `no_company_prefix` before the organisation set its prefix, 409
    /// `sscc_range_exhausted` when the prefix has no serials left, 409
    /// `reservation_released` when a line's reservation was released
    /// elsewhere.
    #[oai(
        path = "/shipments/:id/ship",
        method = "post",
        operation_id = "shipShipment"
    )]
    async fn ship(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Shipment>, StateError> {
        let id = id.0.or(no_such_shipment)?;
        let account = caller.session.account_id;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let (row, reference) =
            lock_in(&mut tx, id, ShipmentStatus::Draft, "only a draft ships").await?;
        let Some(prefix) = store::company_prefix(&mut tx).await? else {
            return Err(conflict(
                "no_company_prefix",
                "Your organisation has no GS1 company prefix yet: an admin sets it in Configuration, and the packages' SSCCs are built from it.",
            )
            .into());
        };
        let lines = store::lines(&mut tx, &[id]).await?;
        let picks = store::picks(&mut tx, &[id]).await?;
        // The reservations first (the ledger's order: reservation, then
        // balances), each still holding the line's stock.
        let mut reservations: Vec<Uuid> = lines.iter().map(|l| l.reservation_id).collect();
        reservations.sort();
        for r in &reservations {
            let held = inventory::store::lock_reservation(&mut tx, *r).await?;
            if held.is_none_or(|h| h.status != "active") {
                let line = lines.iter().find(|l| l.reservation_id == *r);
                return Err(conflict(
                    "reservation_released",
                    format!(
                        "The stock reserved for line {} ({}) of shipment {reference} was released (by a recall or by hand): cancel this shipment and create a new one.",
                        line.map(|l| l.position).unwrap_or_default(),
                        line.map(|l| l.product_name.as_str()).unwrap_or_default()
                    ),
                )
                .into());
            }
        }
        // The serials: one upsert on the prefix's counter row, so parallel
        // shipments queue there and each gets its own.
        let numbers: BTreeSet<i32> = lines.iter().map(|l| l.package).collect();
        let capacity = super::sscc_capacity(&prefix).unwrap_or(0);
        let first = store::take_serials(&mut tx, &prefix, numbers.len() as i64).await?;
        let first = u64::try_from(first).unwrap_or(u64::MAX);
        if first.saturating_add(numbers.len() as u64) > capacity {
            return Err(conflict(
                "sscc_range_exhausted",
                format!(
                    "The SSCC serial references of company prefix {prefix} are used up ({capacity} in all): ask GS1 for another prefix and set it in Configuration."
                ),
            )
            .into());
        }
        let mut sscc_of: BTreeMap<i32, String> = BTreeMap::new();
        for (k, n) in numbers.iter().enumerate() {
            let sscc = super::sscc(&prefix, first + k as u64).ok_or_else(|| {
                ApiError::internal(anyhow::anyhow!("no SSCC {} of {prefix}", first + k as u64))
            })?;
            sscc_of.insert(*n, sscc);
        }

        // The moves, in the ledger's lock order (product, location, lot).
        let line_of: HashMap<i32, &store::LineRow> =
            lines.iter().map(|l| (l.position, l)).collect();
        let mut moves: Vec<(Uuid, Uuid, Uuid, Decimal)> = picks
            .iter()
            .filter_map(|p| {
                line_of
                    .get(&p.position)
                    .map(|l| (l.product_id, p.location_id, p.lot_id, p.quantity))
            })
            .collect();
        moves.sort();
        let actor = &caller.actor;
        for (product_id, location_id, lot_id, quantity) in &moves {
            inventory::store::unreserve_line(
                &mut tx,
                *product_id,
                *location_id,
                *lot_id,
                *quantity,
            )
            .await?;
            ledger::record_move(
                &mut tx,
                actor,
                &ledger::MoveRequest {
                    product_id: *product_id,
                    lot_id: *lot_id,
                    quantity: *quantity,
                    from_location_id: Some(*location_id),
                    to_location_id: None,
                    reason: MoveReason::Shipment,
                    unit_cost: None,
                    currency: None,
                    reference: Some(&reference),
                },
            )
            .await?;
        }
        for r in &reservations {
            inventory::store::mark_released(&mut tx, *r, Some(account)).await?;
        }
        let mut shipped: BTreeMap<(Uuid, Uuid), Decimal> = BTreeMap::new();
        for (product_id, _, lot_id, quantity) in &moves {
            *shipped.entry((*product_id, *lot_id)).or_default() += *quantity;
        }
        for ((product_id, lot_id), quantity) in &shipped {
            store::insert_shipment_lot(&mut tx, id, *product_id, *lot_id, *quantity).await?;
        }
        for (n, sscc) in &sscc_of {
            store::insert_package(&mut tx, id, *n, sscc).await?;
        }
        let shipped_at = store::mark_shipped(&mut tx, id, account).await?;

        // What each package holds, lot by lot.
        let mut held: BTreeMap<i32, PackageContents> = BTreeMap::new();
        for p in &picks {
            if let Some(l) = line_of.get(&p.position) {
                let entry = held
                    .entry(l.package)
                    .or_default()
                    .entry((l.gtin.clone(), p.lot_number.clone()))
                    .or_insert((p.lot_id, Decimal::ZERO));
                entry.1 += p.quantity;
            }
        }

        // The codes each package carries: of each lot with finished code
        // jobs (locked, see `store::lock_coded_lots`), its next codes not
        // shipped yet, one per whole unit, package by package. Units
        // beyond the lot's codes carry none.
        let lot_ids: Vec<Uuid> = shipped
            .keys()
            .map(|(_, lot)| *lot)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let coded = store::lock_coded_lots(&mut tx, &lot_ids).await?;
        let mut codes: Vec<store::NewShipmentCodes> = Vec::new();
        if !coded.is_empty() {
            let mut jobs_of: HashMap<Uuid, Vec<serials::Job>> = HashMap::new();
            for j in store::coded_jobs(&mut tx, &coded).await? {
                jobs_of.entry(j.lot_id).or_default().push(serials::Job {
                    seq: j.seq,
                    quantity: j.quantity,
                    used: j.used,
                });
            }
            for (package, lots) in &held {
                for ((gtin, lot_number), (lot_id, quantity)) in lots {
                    let Some(jobs) = jobs_of.get_mut(lot_id) else {
                        continue;
                    };
                    for r in serials::take(jobs, serials::whole_units(*quantity)) {
                        codes.push(store::NewShipmentCodes {
                            package: *package,
                            lot_id: *lot_id,
                            job_seq: r.job_seq,
                            first_position: r.first,
                            last_position: r.last,
                            epc_class: events::lot_class(gtin, lot_number),
                        });
                    }
                }
            }
            if !codes.is_empty() {
                store::insert_shipment_codes(&mut tx, id, &codes).await?;
            }
        }

        let packed: Vec<PackedPackage<'_>> = sscc_of
            .iter()
            .map(|(n, sscc)| PackedPackage {
                package: *n,
                sscc,
                lots: held
                    .get(n)
                    .map(|lots| {
                        lots.iter()
                            .map(|((gtin, lot), (_, q))| PackedLot {
                                gtin,
                                lot_number: lot,
                                quantity: *q,
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
            .collect();
        let new_events = events::shipping(
            id,
            &packed,
            row.customer_gln.as_deref(),
            shipped_at,
            account,
        );
        epcis::store::insert_events(&mut tx, &new_events).await?;
        audit::record_own_tenant(
            &mut tx,
            actor,
            "logistics.shipment_shipped",
            &id.to_string(),
            serde_json::json!({
                "reference": reference,
                "packages": sscc_of.iter().map(|(n, s)| serde_json::json!({"package": n, "sscc": s})).collect::<Vec<_>>(),
                "lots": shipped.iter().map(|((_, lot), q)| serde_json::json!({"lot_id": lot, "quantity": quantity_text(*q)})).collect::<Vec<_>>(),
                "codes": codes.iter().map(|c| serde_json::json!({"package": c.package, "lot_id": c.lot_id, "job_seq": c.job_seq, "first_position": c.first_position, "last_position": c.last_position})).collect::<Vec<_>>(),
            }),
        )
        .await?;
        tx.commit().await?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        Ok(JsonOk(load(&mut conn, id).await?))
    }

    /// Records that the customer received a shipped shipment (an EPCIS
    /// ObjectEvent `receiving` of its SSCCs, at the customer's GLN when it
    /// has one). 409 `invalid_transition` unless it is shipped.
    #[oai(
        path = "/shipments/:id/deliver",
        method = "post",
        operation_id = "deliverShipment"
    )]
    async fn deliver(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Shipment>, StateError> {
        let id = id.0.or(no_such_shipment)?;
        let account = caller.session.account_id;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let (row, reference) = lock_in(
            &mut tx,
            id,
            ShipmentStatus::Shipped,
            "only a shipped shipment can be delivered",
        )
        .await?;
        let ssccs: Vec<String> = store::packages(&mut tx, &[id])
            .await?
            .into_iter()
            .map(|p| p.sscc)
            .collect();
        let at = store::mark_delivered(&mut tx, id, account).await?;
        let event = events::receiving(&ssccs, row.customer_gln.as_deref(), at, account);
        epcis::store::insert_events(&mut tx, &[event]).await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "logistics.shipment_delivered",
            &id.to_string(),
            serde_json::json!({"reference": reference, "ssccs": ssccs}),
        )
        .await?;
        tx.commit().await?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        Ok(JsonOk(load(&mut conn, id).await?))
    }

    /// Cancels a draft and releases the stock it reserved. 409
    /// `invalid_transition` unless it is a draft.
    #[oai(
        path = "/shipments/:id/cancel",
        method = "post",
        operation_id = "cancelShipment"
    )]
    async fn cancel(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Shipment>, StateError> {
        let id = id.0.or(no_such_shipment)?;
        let account = caller.session.account_id;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let (_, reference) = lock_in(
            &mut tx,
            id,
            ShipmentStatus::Draft,
            "only a draft can be cancelled",
        )
        .await?;
        let lines = store::lines(&mut tx, &[id]).await?;
        let mut reservations: Vec<(Uuid, Uuid)> = lines
            .iter()
            .map(|l| (l.reservation_id, l.product_id))
            .collect();
        reservations.sort();
        for (r, product_id) in &reservations {
            let held = inventory::store::lock_reservation(&mut tx, *r).await?;
            if held.is_none_or(|h| h.status != "active") {
                continue;
            }
            for line in inventory::store::reservation_lines(&mut tx, &[*r]).await? {
                inventory::store::unreserve_line(
                    &mut tx,
                    *product_id,
                    line.location_id,
                    line.lot_id,
                    line.quantity,
                )
                .await?;
            }
            inventory::store::mark_released(&mut tx, *r, Some(account)).await?;
        }
        store::mark_cancelled(&mut tx, id, account).await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "logistics.shipment_cancelled",
            &id.to_string(),
            serde_json::json!({"reference": reference}),
        )
        .await?;
        tx.commit().await?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        Ok(JsonOk(load(&mut conn, id).await?))
    }

    /// The SSCC logistic labels of a shipped shipment as a PDF, one A5 page
    /// per package: from and to, the SSCC as text and as a GS1-128 barcode
    /// of `(00)` + SSCC, followed by `(02)` GTIN and `(37)` count when the
    /// package holds one product in whole units, and what it holds. 409
    /// `not_shipped` for a draft or cancelled shipment (SSCCs are given
    /// when it ships).
    #[oai(
        path = "/shipments/:id/label.pdf",
        method = "get",
        operation_id = "getShipmentLabel"
    )]
    async fn label(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<LabelFile, StateError> {
        let id = id.0.or(no_such_shipment)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let shipment = load(&mut tx, id).await?;
        let organisation = organisation::store::display_name(&mut tx).await?;
        let prefix = store::company_prefix(&mut tx).await?;
        let location = inventory::store::find_location(&mut tx, shipment.from_location_id).await?;
        drop(tx);
        if shipment.packages.iter().any(|p| p.sscc.is_none()) || shipment.packages.is_empty() {
            return Err(conflict(
                "not_shipped",
                format!(
                    "Shipment {} is {}: its packages get their SSCCs, and so their labels, when it ships.",
                    shipment.reference,
                    shipment.status.as_str()
                ),
            )
            .into());
        }
        let mut from = vec![organisation];
        if let Some(l) = location {
            from.push(format!("{} ({})", l.name, l.path));
        }
        let c = &shipment.customer;
        let mut to = vec![c.name.clone(), format!("Country: {}", c.country)];
        if let Some(gln) = &c.gln {
            to.push(format!("GLN (410): {gln}"));
        }
        let parties = label::Parties { from, to };
        let count = shipment.packages.len();
        let labels: Vec<label::PackageLabel> = shipment
            .packages
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let sscc = p.sscc.clone().unwrap_or_default();
                let mine: Vec<&ShipmentLine> = shipment
                    .lines
                    .iter()
                    .filter(|l| l.package == p.package)
                    .collect();
                let products: BTreeSet<&str> = mine.iter().map(|l| l.gtin.as_str()).collect();
                let total: Decimal = mine
                    .iter()
                    .filter_map(|l| l.quantity.parse::<Decimal>().ok())
                    .sum();
                let content = match products.iter().next() {
                    Some(gtin)
                        if products.len() == 1
                            && total.fract().is_zero()
                            && total < Decimal::from(100_000_000) =>
                    {
                        Some((gtin.to_string(), quantity_text(total)))
                    }
                    _ => None,
                };
                let mut lines = Vec::new();
                for l in &mine {
                    for pick in &l.picks {
                        lines.push(format!(
                            "{} (GTIN {}), lot {}{}: {}",
                            l.product_name,
                            l.gtin,
                            pick.lot_number,
                            pick.expires_on
                                .map(|d| format!(", expires {d}"))
                                .unwrap_or_default(),
                            pick.quantity
                        ));
                    }
                }
                let human = match &prefix {
                    Some(pf) if sscc.get(1..1 + pf.len()) == Some(pf.as_str()) => {
                        super::sscc_human(&sscc, pf.len())
                    }
                    _ => format!("(00) {sscc}"),
                };
                label::PackageLabel {
                    sscc,
                    sscc_human: human,
                    content,
                    title: format!(
                        "Shipment {}, package {} of {count}",
                        shipment.reference,
                        k + 1
                    ),
                    lines,
                }
            })
            .collect();
        let pdf = label::render(&parties, &labels)
            .map_err(|err| ApiError::internal(anyhow::anyhow!("label: {err}")))?;
        Ok(LabelFile::Ok(
            Binary(pdf),
            format!(
                "attachment; filename=\"sscc-labels-{}.pdf\"",
                shipment.reference
            ),
        ))
    }
}
