//! `/api/locations`, `/api/stock-moves`, `/api/stock`,
//! `/api/stock/valuation`, `/api/stock-reservations`, `/api/reorder-rules`
//! and `/api/replenishment`: the inventory's operations.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi};
use rust_decimal::Decimal;
use uuid::Uuid;

use super::idempotency;
use super::ledger::{self, MoveRequest};
use super::store::{self, MoveFilter, MoveRow, ReservationLineRow, ReservationRow, StockRow};
use super::{
    Currency, IdempotencyKey, LocationCode, LocationKind, MoveReason, Quantity, QuantityOrZero,
    UnitCost, money_text, quantity_text,
};
use crate::db::unique_violation;
use crate::http::error::{
    AccessError, ApiError, QueryError, StateError, WriteLookupError, WriteStateError,
};
use crate::http::fields::ShortText;
use crate::http::input::{IsoDate, Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;
use crate::lots::LotStatus;

#[derive(Default)]
pub struct InventoryApi;

// --- shapes ----------------------------------------------------------------------

/// A place stock is kept: a warehouse, a zone or bin in it, or a
/// quarantine or scrap area. Locations form a tree.
#[derive(Object, Debug)]
pub struct Location {
    pub id: Uuid,
    /// Unique in the organisation, whatever its case (`WH1/A-03`).
    pub code: String,
    pub name: String,
    pub kind: LocationKind,
    #[oai(skip_serializing_if_is_none)]
    pub parent_id: Option<Uuid>,
    /// The codes from the root down to it, `WH1 / A / 03`.
    pub path: String,
    pub created_at: DateTime<Utc>,
}

impl From<store::LocationRow> for Location {
    fn from(r: store::LocationRow) -> Self {
        Location {
            id: r.id,
            kind: LocationKind::parse(&r.kind).unwrap_or(LocationKind::Warehouse),
            code: r.code,
            name: r.name,
            parent_id: r.parent_id,
            path: r.path,
            created_at: r.created_at,
        }
    }
}

/// The organisation's locations, each after its parent.
#[derive(Object, Debug)]
pub struct LocationList {
    pub locations: Vec<Location>,
}

#[derive(Object, Debug)]
pub struct NewLocation {
    /// 1 to 40 letters, digits, `.`, `_`, `/` or `-`, starting with a letter
    /// or digit; unique in the organisation whatever its case.
    pub code: Text<LocationCode>,
    /// 1 to 200 characters.
    pub name: Text<ShortText>,
    pub kind: LocationKind,
    /// The location it is part of (a zone's warehouse, a bin's zone).
    pub parent_id: Optional<Uuid>,
}

/// A move of stock: the ledger's row, never changed afterwards.
#[derive(Object, Debug)]
pub struct StockMove {
    pub id: Uuid,
    pub product_id: Uuid,
    pub lot_id: Uuid,
    pub lot_number: String,
    /// A decimal string (`"12"`, `"2.5"`).
    pub quantity: String,
    /// Where it came from; none for a receipt.
    #[oai(skip_serializing_if_is_none)]
    pub from_location_id: Option<Uuid>,
    /// Where it went; none when it left the stock.
    #[oai(skip_serializing_if_is_none)]
    pub to_location_id: Option<Uuid>,
    pub reason: MoveReason,
    /// A receipt's unit cost, a decimal string (`"12.50"`).
    #[oai(skip_serializing_if_is_none)]
    pub unit_cost: Option<String>,
    /// A receipt's currency (ISO 4217).
    #[oai(skip_serializing_if_is_none)]
    pub currency: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub reference: Option<String>,
    /// The account that recorded it.
    #[oai(skip_serializing_if_is_none)]
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

impl From<MoveRow> for StockMove {
    fn from(r: MoveRow) -> Self {
        StockMove {
            id: r.id,
            product_id: r.product_id,
            lot_id: r.lot_id,
            lot_number: r.lot_number,
            quantity: quantity_text(r.quantity),
            from_location_id: r.from_location_id,
            to_location_id: r.to_location_id,
            reason: MoveReason::parse(&r.reason).unwrap_or(MoveReason::Adjustment),
            unit_cost: r.unit_cost.map(money_text),
            currency: r.currency,
            reference: r.reference,
            created_by: r.created_by,
            created_at: r.created_at,
        }
    }
}

#[derive(Object, Debug)]
pub struct NewStockMove {
    pub product_id: Uuid,
    /// A lot of the product.
    pub lot_id: Uuid,
    /// More than 0, at most 3 decimal places, as a string: `"12"`, `"2.5"`.
    pub quantity: Text<Quantity>,
    /// Where the stock comes from; leave it out for a receipt.
    pub from_location_id: Optional<Uuid>,
    /// Where the stock goes; leave it out when it leaves the stock
    /// (consumption, shipment). At least one of the two is given, and they
    /// differ.
    pub to_location_id: Optional<Uuid>,
    /// `receipt` has no `from_location_id`; `transfer` has both.
    pub reason: MoveReason,
    /// Required for a receipt (no `from_location_id`), refused otherwise:
    /// 0 or more, at most 6 decimal places, as a string (`"12.50"`).
    pub unit_cost: Optional<Text<UnitCost>>,
    /// Required for a receipt: ISO 4217, e.g. `EUR`.
    pub currency: Optional<Text<Currency>>,
    /// A note of what it was for (an order number), 1 to 200 characters.
    pub reference: Optional<Text<ShortText>>,
}

/// One page of the ledger, newest first.
#[derive(Object, Debug)]
pub struct StockMovePage {
    pub moves: Vec<StockMove>,
    /// Pass it as `cursor` for the next (older) page; absent on the last.
    #[oai(skip_serializing_if_is_none)]
    pub next_cursor: Option<String>,
}

/// Stock of one lot of a product at one location.
#[derive(Object, Debug)]
pub struct StockRowOut {
    pub product_id: Uuid,
    pub product_name: String,
    pub location_id: Uuid,
    pub location_code: String,
    pub lot_id: Uuid,
    pub lot_number: String,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    /// Its expiry date has passed.
    pub expired: bool,
    pub lot_status: LotStatus,
    /// Decimal strings: on hand, reserved, and available (on hand less
    /// reserved).
    pub on_hand: String,
    pub reserved: String,
    pub available: String,
}

impl From<StockRow> for StockRowOut {
    fn from(r: StockRow) -> Self {
        StockRowOut {
            product_id: r.product_id,
            product_name: r.product_name,
            location_id: r.location_id,
            location_code: r.location_code,
            lot_id: r.lot_id,
            lot_number: r.lot_number,
            expires_on: r.expires_on,
            expired: r.expired,
            lot_status: LotStatus::parse(&r.lot_status).unwrap_or(LotStatus::Held),
            on_hand: quantity_text(r.on_hand),
            reserved: quantity_text(r.reserved),
            available: quantity_text(r.on_hand - r.reserved),
        }
    }
}

/// The stock on hand, by product, location and lot (rows with nothing on
/// hand are left out).
#[derive(Object, Debug)]
pub struct StockList {
    pub stock: Vec<StockRowOut>,
    /// More rows exist than listed: narrow the filters.
    pub more: bool,
}

/// Whether a reservation still holds its stock.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
pub enum ReservationStatus {
    Active,
    Released,
}

/// Stock a reservation holds of one lot at one location.
#[derive(Object, Debug)]
pub struct ReservationLine {
    pub location_id: Uuid,
    pub lot_id: Uuid,
    pub lot_number: String,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    pub quantity: String,
}

impl From<ReservationLineRow> for ReservationLine {
    fn from(r: ReservationLineRow) -> Self {
        ReservationLine {
            location_id: r.location_id,
            lot_id: r.lot_id,
            lot_number: r.lot_number,
            expires_on: r.expires_on,
            quantity: quantity_text(r.quantity),
        }
    }
}

/// Stock promised: not available to moves or other reservations until
/// released.
#[derive(Object, Debug)]
pub struct Reservation {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    /// The location asked for; absent when reserved anywhere.
    #[oai(skip_serializing_if_is_none)]
    pub location_id: Option<Uuid>,
    pub quantity: String,
    pub reference: String,
    pub status: ReservationStatus,
    /// Earliest expiry first.
    pub lines: Vec<ReservationLine>,
    #[oai(skip_serializing_if_is_none)]
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub released_at: Option<DateTime<Utc>>,
}

fn reservation_out(r: ReservationRow, mut lines: Vec<ReservationLineRow>) -> Reservation {
    lines.sort_by(|a, b| {
        (a.expires_on.is_none(), a.expires_on, &a.lot_number).cmp(&(
            b.expires_on.is_none(),
            b.expires_on,
            &b.lot_number,
        ))
    });
    Reservation {
        id: r.id,
        product_id: r.product_id,
        product_name: r.product_name,
        location_id: r.location_id,
        quantity: quantity_text(r.quantity),
        reference: r.reference,
        status: if r.status == "active" {
            ReservationStatus::Active
        } else {
            ReservationStatus::Released
        },
        lines: lines.into_iter().map(ReservationLine::from).collect(),
        created_by: r.created_by,
        created_at: r.created_at,
        released_at: r.released_at,
    }
}

#[derive(Object, Debug)]
pub struct NewReservation {
    pub product_id: Uuid,
    /// More than 0, at most 3 decimal places, as a string.
    pub quantity: Text<Quantity>,
    /// Reserve from this location only; leave it out for anywhere.
    pub location_id: Optional<Uuid>,
    /// What it is for (an order number), 1 to 200 characters.
    pub reference: Text<ShortText>,
}

/// The reservations, newest first (at most 500).
#[derive(Object, Debug)]
pub struct ReservationList {
    pub reservations: Vec<Reservation>,
}

/// A product's reorder rule: keep its usable stock at `location_id` (and
/// below it) between the minimum and the maximum.
#[derive(Object, Debug)]
pub struct ReorderRule {
    pub product_id: Uuid,
    pub product_name: String,
    pub location_id: Uuid,
    pub location_code: String,
    pub min_quantity: String,
    pub max_quantity: String,
    pub updated_at: DateTime<Utc>,
}

impl From<store::RuleRow> for ReorderRule {
    fn from(r: store::RuleRow) -> Self {
        ReorderRule {
            product_id: r.product_id,
            product_name: r.product_name,
            location_id: r.location_id,
            location_code: r.location_code,
            min_quantity: quantity_text(r.min_quantity),
            max_quantity: quantity_text(r.max_quantity),
            updated_at: r.updated_at,
        }
    }
}

/// The organisation's reorder rules, by product name.
#[derive(Object, Debug)]
pub struct ReorderRuleList {
    pub rules: Vec<ReorderRule>,
}

#[derive(Object, Debug)]
pub struct ReorderRuleChange {
    /// The location (with every location below it) whose stock counts.
    pub location_id: Uuid,
    /// 0 or more, at most 3 decimal places, as a string.
    pub min_quantity: Text<QuantityOrZero>,
    /// At least `min_quantity`.
    pub max_quantity: Text<QuantityOrZero>,
}

/// A product below its minimum, and how much to order.
#[derive(Object, Debug)]
pub struct ReplenishmentLine {
    pub product_id: Uuid,
    pub product_name: String,
    pub location_id: Uuid,
    pub location_code: String,
    pub min_quantity: String,
    pub max_quantity: String,
    /// Usable stock on hand at the location and below it: released,
    /// unexpired lots outside quarantine and scrap locations.
    pub on_hand: String,
    /// Of that, reserved.
    pub reserved: String,
    /// `max_quantity - (on_hand - reserved)`: what tops the available stock
    /// up to the maximum.
    pub suggested_quantity: String,
}

/// The products whose available stock (on hand less reserved) is below
/// their rule's minimum.
#[derive(Object, Debug)]
pub struct Replenishment {
    pub lines: Vec<ReplenishmentLine>,
}

/// Part of a product's stock valued in one currency.
#[derive(Object, Debug)]
pub struct CurrencyValue {
    pub currency: String,
    /// The quantity valued at receipts in this currency.
    pub quantity: String,
    /// Its value, a decimal string.
    pub value: String,
}

/// A product's stock on hand and its value.
#[derive(Object, Debug)]
pub struct ProductValuation {
    pub product_id: Uuid,
    pub product_name: String,
    /// On hand outside scrap locations.
    pub on_hand: String,
    /// Per currency of the receipts that value it: never added together.
    pub values: Vec<CurrencyValue>,
    /// On hand not covered by a receipt (none when every unit came in
    /// through one).
    pub unvalued_quantity: String,
}

/// The value of the stock on hand per product, FIFO by receipt: the stock
/// on hand is what came in last, so its quantity is valued at the newest
/// receipts' unit costs.
#[derive(Object, Debug)]
pub struct Valuation {
    pub products: Vec<ProductValuation>,
}

json_response!(
    /// Created.
    LocationCreated { 201 => Created(Location) }
);
json_response!(
    /// Recorded (or, for a retry with the same `Idempotency-Key`, the move
    /// the first request recorded).
    MoveCreated { 201 => Created(StockMove) }
);
json_response!(
    /// Reserved: the lines, earliest expiry first.
    ReservationCreated { 201 => Created(Reservation) }
);

fn no_such_reservation() -> ApiError {
    ApiError::not_found("No such reservation in your organisation.")
}

fn no_such_product() -> ApiError {
    ApiError::not_found("No such product in your organisation.")
}

/// Rows `GET /api/stock` answers at most.
const STOCK_LIMIT: i64 = 5000;
/// Moves per page of the ledger.
const MOVES_PAGE: i64 = 100;
/// Reservations listed at most.
const RESERVATIONS_LIMIT: i64 = 500;

const CREATE_MOVE: &str = "createStockMove";
const CREATE_RESERVATION: &str = "createStockReservation";

#[OpenApi(tag = "ApiTags::Inventory")]
impl InventoryApi {
    /// The organisation's locations (a tree: each after its parent, with
    /// its path).
    #[oai(path = "/locations", method = "get", operation_id = "listLocations")]
    async fn list_locations(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<LocationList>, AccessError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let locations = store::list_locations(&mut conn).await?;
        Ok(JsonOk(LocationList {
            locations: locations.into_iter().map(Location::from).collect(),
        }))
    }

    /// Adds a location (admins and managers). Its code is unique in the
    /// organisation whatever its case (409 `duplicate_code`); its parent must
    /// be one of the organisation's locations.
    #[oai(path = "/locations", method = "post", operation_id = "createLocation")]
    async fn create_location(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewLocation>,
    ) -> Result<LocationCreated, WriteStateError> {
        let code = body.code.parse_as("code")?;
        let name = body.name.parse_as("name")?;
        let kind = body.kind;
        let parent_id = body.parent_id.0;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if let Some(parent) = parent_id
            && store::location_kind(&mut tx, parent).await?.is_none()
        {
            return Err(
                ApiError::not_found("No such parent location in your organisation.").into(),
            );
        }
        let id = Uuid::new_v4();
        ledger::add_location(&mut tx, &caller.actor, id, &code, &name, kind, parent_id)
            .await
            .map_err(|e| match unique_violation(&e) {
            Some(_) => ApiError::new(
                poem::http::StatusCode::CONFLICT,
                "duplicate_code",
                format!("A location with the code {code} exists already (codes are unique whatever their case)."),
            ),
            None => ApiError::from(e),
        })?;
        let location = store::find_location(&mut tx, id)
            .await?
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the new location is gone")))?;
        tx.commit().await?;
        Ok(LocationCreated::Created(Json(location.into())))
    }

    /// Records a move of stock (workers, managers, admins) and changes the
    /// balances in the same transaction: a receipt (no `from_location_id`;
    /// `unit_cost` and `currency` required), a transfer, or stock leaving
    /// (no `to_location_id`). Refused with 409 `insufficient_stock` when
    /// less is available (on hand less reserved) than it takes, and 409
    /// `lot_not_available` when the lot is not released (or expired) and
    /// the stock does not go into a quarantine or scrap location. Moves are
    /// never changed: a mistake is corrected by the reverse move.
    ///
    /// With an `Idempotency-Key` header, a retry with the same key answers
    /// the first move without moving again (also while the first is still
    /// in flight); the same key with another request is refused with 409
    /// `idempotency_key_reused`. Refused requests are not kept: a retry of
    /// one is tried again.
    #[oai(
        path = "/stock-moves",
        method = "post",
        operation_id = "createStockMove"
    )]
    async fn create_move(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// Any text of 1 to 255 printable ASCII characters (a UUID):
        /// the same key answers the first result.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<Text<IdempotencyKey>>>,
        body: Json<NewStockMove>,
    ) -> Result<MoveCreated, WriteStateError> {
        let key = idempotency_key
            .0
            .as_ref()
            .map(|k| k.parse_as("The Idempotency-Key header"))
            .transpose()?;
        let quantity = body.quantity.parse_as("quantity")?;
        let from = body.from_location_id.0;
        let to = body.to_location_id.0;
        let unit_cost = body.unit_cost.parse_as("unit_cost")?;
        let currency = body.currency.parse_as("currency")?;
        let reference = body.reference.parse_as("reference")?;
        if from.is_none() && to.is_none() {
            return Err(ApiError::invalid_input(
                "Give from_location_id, to_location_id or both: a move goes somewhere or comes from somewhere.",
            )
            .into());
        }
        if from.is_some() && from == to {
            return Err(ApiError::invalid_input(
                "from_location_id and to_location_id must differ.",
            )
            .into());
        }
        if from.is_none() {
            if unit_cost.is_none() || currency.is_none() {
                return Err(ApiError::invalid_input(
                    "A receipt (a move without from_location_id) needs unit_cost and currency.",
                )
                .into());
            }
        } else if unit_cost.is_some() || currency.is_some() {
            return Err(ApiError::invalid_input(
                "Only a receipt (a move without from_location_id) carries unit_cost and currency.",
            )
            .into());
        }
        if body.reason == MoveReason::Receipt && from.is_some() {
            return Err(ApiError::invalid_input(
                "A receipt has no from_location_id: stock comes in from outside.",
            )
            .into());
        }
        if body.reason == MoveReason::Transfer && (from.is_none() || to.is_none()) {
            return Err(ApiError::invalid_input(
                "A transfer has both from_location_id and to_location_id.",
            )
            .into());
        }
        let request = MoveRequest {
            product_id: body.product_id,
            lot_id: body.lot_id,
            quantity,
            from_location_id: from,
            to_location_id: to,
            reason: body.reason,
            unit_cost,
            currency: currency.as_deref(),
            reference: reference.as_deref(),
        };
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if let Some(key) = &key
            && let Some(first) =
                idempotency::replay(&mut tx, CREATE_MOVE, key, &request_hash(&request), "move")
                    .await?
        {
            return Ok(MoveCreated::Created(Json(first)));
        }
        let row = ledger::record_move(&mut tx, &caller.actor, &request).await?;
        let answer = StockMove::from(row);
        if let Some(key) = &key {
            idempotency::remember(&mut tx, CREATE_MOVE, key, &answer).await?;
        }
        tx.commit().await?;
        Ok(MoveCreated::Created(Json(answer)))
    }

    /// The ledger, newest first, 100 moves a page: of one product, one lot,
    /// moves from or to one location, made from one day to another (UTC,
    /// both included). `cursor` is the `next_cursor` of the page before.
    #[oai(path = "/stock-moves", method = "get", operation_id = "listStockMoves")]
    #[allow(clippy::too_many_arguments)]
    async fn list_moves(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Query<Option<Uuid>>,
        lot_id: Query<Option<Uuid>>,
        /// Moves from or to this location.
        location_id: Query<Option<Uuid>>,
        from: Query<Option<IsoDate>>,
        to: Query<Option<IsoDate>>,
        #[oai(validator(minimum(value = "1")))] cursor: Query<Option<i64>>,
    ) -> Result<JsonOk<StockMovePage>, QueryError> {
        let filter = MoveFilter {
            product_id: product_id.0,
            lot_id: lot_id.0,
            location_id: location_id.0,
            from: from.0.map(|d| d.0),
            to: to.0.map(|d| d.0),
            before: cursor.0,
        };
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let mut rows = store::list_moves(&mut conn, &filter, MOVES_PAGE + 1).await?;
        let next_cursor = if rows.len() as i64 > MOVES_PAGE {
            rows.truncate(MOVES_PAGE as usize);
            rows.last().map(|r| r.seq.to_string())
        } else {
            None
        };
        Ok(JsonOk(StockMovePage {
            moves: rows.into_iter().map(StockMove::from).collect(),
            next_cursor,
        }))
    }

    /// The stock on hand by product, location and lot (at most 5000 rows),
    /// with each lot's status and expiry: read from the balances, never by
    /// adding up the ledger.
    #[oai(path = "/stock", method = "get", operation_id = "listStock")]
    async fn list_stock(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Query<Option<Uuid>>,
        location_id: Query<Option<Uuid>>,
        lot_id: Query<Option<Uuid>>,
    ) -> Result<JsonOk<StockList>, QueryError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let mut rows = store::stock(
            &mut conn,
            product_id.0,
            location_id.0,
            lot_id.0,
            STOCK_LIMIT + 1,
        )
        .await?;
        let more = rows.len() as i64 > STOCK_LIMIT;
        rows.truncate(STOCK_LIMIT as usize);
        Ok(JsonOk(StockList {
            stock: rows.into_iter().map(StockRowOut::from).collect(),
            more,
        }))
    }

    /// The value of the stock on hand per product, FIFO by receipt, per
    /// currency (amounts in different currencies are never added).
    #[oai(
        path = "/stock/valuation",
        method = "get",
        operation_id = "getStockValuation"
    )]
    async fn valuation(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<Valuation>, AccessError> {
        // One snapshot for the quantities and their values.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let held = store::held(&mut tx).await?;
        let values = store::valuation(&mut tx).await?;
        drop(tx);
        let products = held
            .into_iter()
            .map(|h| {
                let mine: Vec<_> = values
                    .iter()
                    .filter(|v| v.product_id == h.product_id)
                    .collect();
                let valued: Decimal = mine.iter().map(|v| v.quantity).sum();
                ProductValuation {
                    product_id: h.product_id,
                    product_name: h.product_name,
                    on_hand: quantity_text(h.on_hand),
                    values: mine
                        .iter()
                        .map(|v| CurrencyValue {
                            currency: v.currency.clone(),
                            quantity: quantity_text(v.quantity),
                            value: money_text(v.value),
                        })
                        .collect(),
                    unvalued_quantity: quantity_text((h.on_hand - valued).max(Decimal::ZERO)),
                }
            })
            .collect();
        Ok(JsonOk(Valuation { products }))
    }

    /// The reservations, newest first (at most 500): of one product, and
    /// only the active ones unless `include_released` is true.
    #[oai(
        path = "/stock-reservations",
        method = "get",
        operation_id = "listStockReservations"
    )]
    async fn list_reservations(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Query<Option<Uuid>>,
        include_released: Query<Option<bool>>,
    ) -> Result<JsonOk<ReservationList>, QueryError> {
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let rows = store::list_reservations(
            &mut tx,
            product_id.0,
            !include_released.0.unwrap_or(false),
            RESERVATIONS_LIMIT,
        )
        .await?;
        let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
        let mut lines = store::reservation_lines(&mut tx, &ids).await?;
        drop(tx);
        let reservations = rows
            .into_iter()
            .map(|r| {
                let (mine, rest): (Vec<_>, Vec<_>) =
                    lines.drain(..).partition(|l| l.reservation_id == r.id);
                lines = rest;
                reservation_out(r, mine)
            })
            .collect();
        Ok(JsonOk(ReservationList { reservations }))
    }

    /// Reserves stock of a product (workers, managers, admins) from
    /// released, unexpired lots outside quarantine and scrap locations,
    /// earliest expiry first (FEFO), in `location_id` or anywhere. Answers
    /// the lines, or 409 `insufficient_stock` and reserves nothing. Reserved
    /// stock is not available to moves or other reservations.
    ///
    /// With an `Idempotency-Key` header, a retry with the same key answers
    /// the first reservation without reserving again (also while the first
    /// is still in flight); the same key with another request is refused
    /// with 409 `idempotency_key_reused`.
    #[oai(
        path = "/stock-reservations",
        method = "post",
        operation_id = "createStockReservation"
    )]
    async fn create_reservation(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// Any text of 1 to 255 printable ASCII characters (a UUID):
        /// the same key answers the first result.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<Text<IdempotencyKey>>>,
        body: Json<NewReservation>,
    ) -> Result<ReservationCreated, WriteStateError> {
        let key = idempotency_key
            .0
            .as_ref()
            .map(|k| k.parse_as("The Idempotency-Key header"))
            .transpose()?;
        let quantity = body.quantity.parse_as("quantity")?;
        let reference = body.reference.parse_as("reference")?;
        let location_id = body.location_id.0;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if let Some(key) = &key {
            let hash = idempotency::digest(&format!(
                "{}|{:?}|{}|{reference}",
                body.product_id,
                location_id,
                quantity.normalize()
            ));
            if let Some(first) =
                idempotency::replay(&mut tx, CREATE_RESERVATION, key, &hash, "reservation").await?
            {
                return Ok(ReservationCreated::Created(Json(first)));
            }
        }
        let product_name = store::product_name(&mut tx, body.product_id)
            .await?
            .ok_or_else(no_such_product)?;
        if let Some(location) = location_id
            && store::location_kind(&mut tx, location).await?.is_none()
        {
            return Err(ApiError::not_found("No such location in your organisation.").into());
        }
        let id = Uuid::new_v4();
        let lines = ledger::create_reservation(
            &mut tx,
            &caller.actor,
            id,
            body.product_id,
            &product_name,
            location_id,
            quantity,
            &reference,
        )
        .await?;
        let row = store::lock_reservation(&mut tx, id)
            .await?
            .ok_or_else(no_such_reservation)?;
        let answer = reservation_out(row, lines);
        if let Some(key) = &key {
            idempotency::remember(&mut tx, CREATE_RESERVATION, key, &answer).await?;
        }
        tx.commit().await?;
        Ok(ReservationCreated::Created(Json(answer)))
    }

    /// Releases a reservation (workers, managers, admins): its stock is
    /// available again. 409 `already_released` when it was released before.
    #[oai(
        path = "/stock-reservations/:id",
        method = "delete",
        operation_id = "releaseStockReservation"
    )]
    async fn release_reservation(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Reservation>, StateError> {
        let id = id.0.or(no_such_reservation)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        // The reservation first (a second release waits here, then sees
        // it released), then its balances in the lock order.
        let row = store::lock_reservation(&mut tx, id)
            .await?
            .ok_or_else(no_such_reservation)?;
        if row.status != "active" {
            return Err(ApiError::new(
                poem::http::StatusCode::CONFLICT,
                "already_released",
                "This reservation was released already.",
            )
            .into());
        }
        let lines = ledger::release(
            &mut tx,
            &caller.actor,
            Some(caller.session.account_id),
            &row,
        )
        .await?;
        let row = store::lock_reservation(&mut tx, id)
            .await?
            .ok_or_else(no_such_reservation)?;
        tx.commit().await?;
        Ok(JsonOk(reservation_out(row, lines)))
    }

    /// The organisation's reorder rules, by product name.
    #[oai(
        path = "/reorder-rules",
        method = "get",
        operation_id = "listReorderRules"
    )]
    async fn list_rules(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<ReorderRuleList>, AccessError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let rules = store::list_rules(&mut conn).await?;
        Ok(JsonOk(ReorderRuleList {
            rules: rules.into_iter().map(ReorderRule::from).collect(),
        }))
    }

    /// Sets a product's reorder rule (admins and managers): one per
    /// product, replaced by the next. `min_quantity` at most
    /// `max_quantity`.
    #[oai(
        path = "/reorder-rules/:product_id",
        method = "put",
        operation_id = "setReorderRule"
    )]
    async fn set_rule(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Path<PathId>,
        body: Json<ReorderRuleChange>,
    ) -> Result<JsonOk<ReorderRule>, WriteLookupError> {
        let product_id = product_id.0.or(no_such_product)?;
        let min = body.min_quantity.parse_as("min_quantity")?;
        let max = body.max_quantity.parse_as("max_quantity")?;
        if min > max {
            return Err(ApiError::invalid_input(
                "min_quantity must not be more than max_quantity.",
            )
            .into());
        }
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::product_name(&mut tx, product_id)
            .await?
            .ok_or_else(no_such_product)?;
        if store::location_kind(&mut tx, body.location_id)
            .await?
            .is_none()
        {
            return Err(ApiError::not_found("No such location in your organisation.").into());
        }
        ledger::set_reorder_rule(
            &mut tx,
            &caller.actor,
            product_id,
            body.location_id,
            min,
            max,
        )
        .await?;
        let rule = store::list_rules(&mut tx)
            .await?
            .into_iter()
            .find(|r| r.product_id == product_id)
            .ok_or_else(no_such_product)?;
        tx.commit().await?;
        Ok(JsonOk(rule.into()))
    }

    /// The products whose available stock (usable on hand less reserved)
    /// at their rule's location and below it is under the rule's minimum,
    /// with `suggested_quantity = max_quantity - (on_hand - reserved)`.
    #[oai(
        path = "/replenishment",
        method = "get",
        operation_id = "getReplenishment"
    )]
    async fn replenishment(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<Replenishment>, AccessError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let rows = store::replenishment(&mut conn).await?;
        Ok(JsonOk(Replenishment {
            lines: rows
                .into_iter()
                .map(|r| ReplenishmentLine {
                    product_id: r.product_id,
                    product_name: r.product_name,
                    location_id: r.location_id,
                    location_code: r.location_code,
                    min_quantity: quantity_text(r.min_quantity),
                    max_quantity: quantity_text(r.max_quantity),
                    on_hand: quantity_text(r.on_hand),
                    reserved: quantity_text(r.reserved),
                    suggested_quantity: quantity_text(r.suggested_quantity),
                })
                .collect(),
        }))
    }
}

/// A digest of what a move asks for: the same `Idempotency-Key` with
/// another request is refused.
fn request_hash(m: &MoveRequest<'_>) -> String {
    idempotency::digest(&format!(
        "{}|{}|{}|{:?}|{:?}|{}|{:?}|{:?}|{:?}",
        m.product_id,
        m.lot_id,
        m.quantity.normalize(),
        m.from_location_id,
        m.to_location_id,
        m.reason.as_str(),
        m.unit_cost.map(|c| c.normalize()),
        m.currency,
        m.reference,
    ))
}
