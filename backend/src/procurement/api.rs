//! `/api/purchase-orders` and `/api/supplier-bills`: purchase orders, their
//! receipts, and supplier bills with the three-way match.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi};
use rust_decimal::Decimal;
use uuid::Uuid;

use super::store::{self, BillRow, LineRow, OrderRow};
use super::{
    BillMatch, BilledLine, MatchLine, Mismatch, OVER_RECEIPT_TOLERANCE, OrderStatus, order_number,
    receivable_limit, status_after_receipt, three_way_match,
};
use crate::audit;
use crate::codes::LotNumber;
use crate::db::unique_violation;
use crate::gs1;
use crate::http::error::{
    ApiError, LookupError, QueryError, StateError, WriteLookupError, WriteStateError,
};
use crate::http::fields::ShortText;
use crate::http::input::{IsoDate, LotDate, Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::identity::Role;
use crate::inventory::idempotency;
use crate::inventory::ledger::{self, MoveRequest};
use crate::inventory::{
    Currency, IdempotencyKey, MoveReason, Quantity, UnitCost, money_text, quantity_text,
};
use crate::json_response;
use crate::lots::{self, LotStatus};
use crate::products;

#[derive(Default)]
pub struct ProcurementApi;

// --- shapes ----------------------------------------------------------------------

/// A purchase order: what is bought from a supplier, at what price.
#[derive(Object, Debug)]
pub struct PurchaseOrder {
    pub id: Uuid,
    /// The number people quote, `PO-000042`.
    pub number: String,
    pub supplier_id: Uuid,
    pub supplier_name: String,
    pub status: OrderStatus,
    pub expected_on: IsoDate,
    /// ISO 4217: every price of the order is in it.
    pub currency: String,
    /// Quantity × unit price over the lines, a decimal string.
    pub total: String,
    #[oai(skip_serializing_if_is_none)]
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub confirmed_at: Option<DateTime<Utc>>,
    #[oai(skip_serializing_if_is_none)]
    pub cancelled_at: Option<DateTime<Utc>>,
}

impl From<OrderRow> for PurchaseOrder {
    fn from(r: OrderRow) -> Self {
        PurchaseOrder {
            id: r.id,
            number: order_number(r.number),
            supplier_id: r.supplier_id,
            supplier_name: r.supplier_name,
            status: OrderStatus::parse(&r.status).unwrap_or(OrderStatus::Draft),
            expected_on: IsoDate(r.expected_on),
            currency: r.currency,
            total: money_text(r.total),
            created_by: r.created_by,
            created_at: r.created_at,
            confirmed_at: r.confirmed_at,
            cancelled_at: r.cancelled_at,
        }
    }
}

/// A line of a purchase order, with what arrived and was billed of it.
#[derive(Object, Debug)]
pub struct PurchaseOrderLine {
    pub id: Uuid,
    /// 1, 2, … in the order the lines were given.
    pub position: i32,
    pub product_id: Uuid,
    pub product_name: String,
    /// Its lots arrive in `quarantine` (else `released`).
    pub requires_inspection: bool,
    /// Decimal strings.
    pub quantity: String,
    pub unit_price: String,
    pub received_quantity: String,
    /// What may still be received: up to 5% above the ordered quantity.
    pub receivable_quantity: String,
    /// Charged by the bills recorded against it.
    pub billed_quantity: String,
}

impl From<LineRow> for PurchaseOrderLine {
    fn from(r: LineRow) -> Self {
        PurchaseOrderLine {
            id: r.id,
            position: r.position,
            product_id: r.product_id,
            product_name: r.product_name,
            requires_inspection: r.requires_inspection,
            quantity: quantity_text(r.quantity),
            unit_price: money_text(r.unit_price),
            received_quantity: quantity_text(r.received_quantity),
            receivable_quantity: quantity_text(
                (receivable_limit(r.quantity) - r.received_quantity).max(Decimal::ZERO),
            ),
            billed_quantity: quantity_text(r.billed_quantity),
        }
    }
}

/// What one receipt brought in for one order line.
#[derive(Object, Debug)]
pub struct ReceiptLine {
    pub line_id: Uuid,
    pub lot_id: Uuid,
    pub lot_number: String,
    /// The lot's status now.
    pub lot_status: LotStatus,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    pub quantity: String,
    /// The stock move (reason `receipt`) that put it into stock.
    pub move_id: Uuid,
}

/// Goods that arrived against a purchase order, into one location.
#[derive(Object, Debug)]
pub struct Receipt {
    pub id: Uuid,
    pub purchase_order_id: Uuid,
    pub location_id: Uuid,
    pub location_code: String,
    #[oai(skip_serializing_if_is_none)]
    pub received_by: Option<Uuid>,
    pub received_at: DateTime<Utc>,
    pub lines: Vec<ReceiptLine>,
    /// The order's status: just after this receipt in the answer to a
    /// receipt, the order's status now in an order's detail.
    pub order_status: OrderStatus,
}

/// Whether a bill may be paid.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
pub enum BillStatus {
    Pending,
    Approved,
}

/// A supplier's bill against a purchase order, with its three-way match.
#[derive(Object, Debug)]
pub struct SupplierBill {
    pub id: Uuid,
    /// The supplier's own number, unique per supplier.
    pub number: String,
    pub supplier_id: Uuid,
    pub supplier_name: String,
    pub purchase_order_id: Uuid,
    pub order_number: String,
    /// The order's currency.
    pub currency: String,
    /// Quantity × unit price over its lines, a decimal string.
    pub total: String,
    /// As matched when the bill was recorded.
    #[oai(rename = "match")]
    pub match_: BillMatch,
    /// Empty when matched.
    pub mismatches: Vec<Mismatch>,
    pub status: BillStatus,
    #[oai(skip_serializing_if_is_none)]
    pub approved_by: Option<Uuid>,
    #[oai(skip_serializing_if_is_none)]
    pub approved_at: Option<DateTime<Utc>>,
    /// Why a mismatched bill was approved (or a note given with a matched
    /// one).
    #[oai(skip_serializing_if_is_none)]
    pub approval_reason: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

impl From<BillRow> for SupplierBill {
    fn from(r: BillRow) -> Self {
        SupplierBill {
            id: r.id,
            number: r.number,
            supplier_id: r.supplier_id,
            supplier_name: r.supplier_name,
            purchase_order_id: r.purchase_order_id,
            order_number: order_number(r.order_number),
            currency: r.currency,
            total: money_text(r.total),
            match_: BillMatch::parse(&r.r#match).unwrap_or(BillMatch::Mismatch),
            mismatches: serde_json::from_value(r.mismatches).unwrap_or_default(),
            status: if r.status == "approved" {
                BillStatus::Approved
            } else {
                BillStatus::Pending
            },
            approved_by: r.approved_by,
            approved_at: r.approved_at,
            approval_reason: r.approval_reason,
            created_by: r.created_by,
            created_at: r.created_at,
        }
    }
}

/// A purchase order with its lines, receipts and bills.
#[derive(Object, Debug)]
pub struct PurchaseOrderDetail {
    #[oai(flatten)]
    pub order: PurchaseOrder,
    /// By position.
    pub lines: Vec<PurchaseOrderLine>,
    /// Oldest first.
    pub receipts: Vec<Receipt>,
    /// Newest first.
    pub bills: Vec<SupplierBill>,
}

/// The purchase orders, newest first (at most 500).
#[derive(Object, Debug)]
pub struct PurchaseOrderList {
    pub orders: Vec<PurchaseOrder>,
}

/// The supplier bills, newest first (at most 500).
#[derive(Object, Debug)]
pub struct SupplierBillList {
    pub bills: Vec<SupplierBill>,
}

#[derive(Object, Debug)]
pub struct NewPurchaseOrderLine {
    /// An active product of the organisation.
    pub product_id: Uuid,
    /// More than 0, at most 3 decimal places, as a string: `"100"`.
    pub quantity: Text<Quantity>,
    /// 0 or more, at most 6 decimal places, as a string: `"12.50"`.
    pub unit_price: Text<UnitCost>,
}

#[derive(Object, Debug)]
pub struct NewPurchaseOrder {
    /// One of the organisation's suppliers.
    pub supplier_id: Uuid,
    /// When the goods are expected.
    pub expected_on: IsoDate,
    /// ISO 4217, e.g. `EUR`: every unit price is in it.
    pub currency: Text<Currency>,
    /// 1 to 200 lines.
    #[oai(validator(min_items = 1, max_items = 200))]
    pub lines: Vec<NewPurchaseOrderLine>,
}

#[derive(Object, Debug)]
pub struct NewReceiptLine {
    /// A line of this order, at most once per receipt.
    pub line_id: Uuid,
    /// More than 0, at most 3 decimal places, as a string.
    pub quantity: Text<Quantity>,
    /// The supplier's lot number (GS1 AI 10): the lot is created, or
    /// extended when the product has it already.
    pub lot_number: Text<LotNumber>,
    /// The lot's expiry date (for a new lot; an existing lot keeps its own
    /// and must not be given another).
    pub expires_on: Optional<LotDate>,
}

#[derive(Object, Debug)]
pub struct NewReceipt {
    /// Where the goods go (a quarantine location is usual for goods that
    /// require inspection).
    pub location_id: Uuid,
    /// 1 to 200 lines.
    #[oai(validator(min_items = 1, max_items = 200))]
    pub lines: Vec<NewReceiptLine>,
}

#[derive(Object, Debug)]
pub struct NewSupplierBillLine {
    /// A line of the bill's order, at most once per bill.
    pub line_id: Uuid,
    /// More than 0, at most 3 decimal places, as a string.
    pub quantity: Text<Quantity>,
    /// In the order's currency: 0 or more, at most 6 decimal places.
    pub unit_price: Text<UnitCost>,
}

#[derive(Object, Debug)]
pub struct NewSupplierBill {
    pub purchase_order_id: Uuid,
    /// The supplier's bill number, 1 to 200 characters: unique per
    /// supplier, whatever its case.
    pub number: Text<ShortText>,
    /// 1 to 200 lines.
    #[oai(validator(min_items = 1, max_items = 200))]
    pub lines: Vec<NewSupplierBillLine>,
}

#[derive(Object, Debug)]
pub struct BillApproval {
    /// Required to approve a mismatched bill (admins only), 1 to 200
    /// characters; kept with the approval.
    pub reason: Optional<Text<ShortText>>,
}

json_response!(
    /// Created, as a draft.
    PurchaseOrderCreated { 201 => Created(PurchaseOrderDetail) }
);
json_response!(
    /// Received (or, for a retry with the same `Idempotency-Key`, the
    /// receipt the first request recorded).
    ReceiptCreated { 201 => Created(Receipt) }
);
json_response!(
    /// Recorded, with its match.
    SupplierBillCreated { 201 => Created(SupplierBill) }
);

fn no_such_order() -> ApiError {
    ApiError::not_found("No such purchase order in your organisation.")
}

fn no_such_bill() -> ApiError {
    ApiError::not_found("No such supplier bill in your organisation.")
}

fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, code, message)
}

fn invalid_transition(message: impl Into<String>) -> ApiError {
    conflict("invalid_transition", message)
}

fn status_of(row: &OrderRow) -> OrderStatus {
    OrderStatus::parse(&row.status).unwrap_or(OrderStatus::Draft)
}

/// Moves order `id` to `to` (`confirmed` or `cancelled`) in the caller's
/// transaction, with its audit row (`procurement.order_confirmed`,
/// `procurement.order_cancelled`): the order's row locked first, so two
/// steps at once queue and the second sees the first's status. Only a
/// draft is confirmed; only a draft or confirmed order without receipts is
/// cancelled; anything else is 409 `invalid_transition`.
async fn step(
    tx: &mut sqlx::PgConnection,
    actor: &audit::Actor,
    id: Uuid,
    to: OrderStatus,
) -> Result<PurchaseOrder, ApiError> {
    if !store::lock_order(tx, id).await? {
        return Err(no_such_order());
    }
    let row = store::find_order(tx, id).await?.ok_or_else(no_such_order)?;
    let number = order_number(row.number);
    let from = status_of(&row);
    let (allowed, action) = match to {
        OrderStatus::Confirmed => (from == OrderStatus::Draft, "procurement.order_confirmed"),
        _ => (from.cancellable(), "procurement.order_cancelled"),
    };
    if !allowed {
        let only = match to {
            OrderStatus::Confirmed => "only a draft order can be confirmed",
            _ => "only a draft or confirmed order without receipts can be cancelled",
        };
        return Err(invalid_transition(format!(
            "{number} is {}: {only}.",
            from.as_str()
        )));
    }
    if to == OrderStatus::Cancelled && store::receipt_count(tx, id).await? > 0 {
        return Err(invalid_transition(format!(
            "{number} has receipts: it can no longer be cancelled."
        )));
    }
    store::set_status(tx, id, to.as_str()).await?;
    audit::record_own_tenant(
        tx,
        actor,
        action,
        &id.to_string(),
        serde_json::json!({ "number": number, "from": from.as_str() }),
    )
    .await?;
    let row = store::find_order(tx, id).await?.ok_or_else(no_such_order)?;
    Ok(row.into())
}

/// Orders and bills listed at most.
const LIST_LIMIT: i64 = 500;

const CREATE_RECEIPT: &str = "createPurchaseReceipt";

#[OpenApi(tag = "ApiTags::Procurement")]
impl ProcurementApi {
    /// The purchase orders, newest first (at most 500), in one status when
    /// given.
    #[oai(
        path = "/purchase-orders",
        method = "get",
        operation_id = "listPurchaseOrders"
    )]
    async fn list_orders(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        status: Query<Option<OrderStatus>>,
    ) -> Result<JsonOk<PurchaseOrderList>, QueryError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let rows =
            store::list_orders(&mut conn, status.0.map(OrderStatus::as_str), LIST_LIMIT).await?;
        Ok(JsonOk(PurchaseOrderList {
            orders: rows.into_iter().map(PurchaseOrder::from).collect(),
        }))
    }

    /// Creates a purchase order as a `draft` (admins and managers): a
    /// supplier of the organisation, the date the goods are expected, the
    /// currency, and 1 to 200 lines of active products with their
    /// quantities and unit prices (decimal strings). One bad line refuses
    /// the whole order (400, naming the line).
    #[oai(
        path = "/purchase-orders",
        method = "post",
        operation_id = "createPurchaseOrder"
    )]
    async fn create_order(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewPurchaseOrder>,
    ) -> Result<PurchaseOrderCreated, WriteLookupError> {
        let currency = body.currency.parse_as("currency")?;
        let mut lines = Vec::with_capacity(body.lines.len());
        for (i, line) in body.lines.iter().enumerate() {
            let n = i + 1;
            let quantity = line.quantity.parse_as(&format!("lines[{n}].quantity"))?;
            let unit_price = line
                .unit_price
                .parse_as(&format!("lines[{n}].unit_price"))?;
            lines.push((line.product_id, quantity, unit_price));
        }
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let supplier = store::supplier_name(&mut tx, body.supplier_id)
            .await?
            .ok_or_else(|| ApiError::not_found("No such supplier in your organisation."))?;
        for (i, (product_id, _, _)) in lines.iter().enumerate() {
            let product = products::store::find(&mut tx, *product_id)
                .await?
                .ok_or_else(|| {
                    ApiError::not_found(format!(
                        "Line {}: no such product in your organisation.",
                        i + 1
                    ))
                })?;
            if product.archived_at.is_some() {
                return Err(ApiError::invalid_input(format!(
                    "Line {}: {} is archived and cannot be ordered.",
                    i + 1,
                    product.product_name
                ))
                .into());
            }
        }
        let id = Uuid::new_v4();
        let number = store::insert_order(
            &mut tx,
            id,
            body.supplier_id,
            body.expected_on.0,
            &currency,
            caller.session.account_id,
        )
        .await?;
        for (i, (product_id, quantity, unit_price)) in lines.iter().enumerate() {
            store::insert_line(
                &mut tx,
                id,
                i as i32 + 1,
                *product_id,
                *quantity,
                *unit_price,
            )
            .await?;
        }
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "procurement.order_created",
            &id.to_string(),
            serde_json::json!({
                "number": order_number(number),
                "supplier_id": body.supplier_id,
                "supplier": supplier,
                "currency": currency,
                "lines": lines.iter().map(|(p, q, u)| serde_json::json!({
                    "product_id": p,
                    "quantity": quantity_text(*q),
                    "unit_price": money_text(*u),
                })).collect::<Vec<_>>(),
            }),
        )
        .await?;
        let detail = detail(&mut tx, id).await?;
        tx.commit().await?;
        Ok(PurchaseOrderCreated::Created(Json(detail)))
    }

    /// One purchase order with its lines (ordered, received, still
    /// receivable and billed quantities), its receipts (lot by lot) and its
    /// bills.
    #[oai(
        path = "/purchase-orders/:id",
        method = "get",
        operation_id = "getPurchaseOrder"
    )]
    async fn get_order(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<PurchaseOrderDetail>, LookupError> {
        let id = id.0.or(no_such_order)?;
        // One snapshot for the order and its parts.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let detail = detail(&mut tx, id).await?;
        drop(tx);
        Ok(JsonOk(detail))
    }

    /// Confirms a draft order (admins and managers): it is sent to the
    /// supplier and goods may be received. Any other status: 409
    /// `invalid_transition`.
    #[oai(
        path = "/purchase-orders/:id/confirm",
        method = "post",
        operation_id = "confirmPurchaseOrder"
    )]
    async fn confirm(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<PurchaseOrder>, StateError> {
        let id = id.0.or(no_such_order)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let order = step(&mut tx, &caller.actor, id, OrderStatus::Confirmed).await?;
        tx.commit().await?;
        Ok(JsonOk(order))
    }

    /// Cancels a draft or confirmed order that has no receipts (admins and
    /// managers). Anything else: 409 `invalid_transition`.
    #[oai(
        path = "/purchase-orders/:id/cancel",
        method = "post",
        operation_id = "cancelPurchaseOrder"
    )]
    async fn cancel(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<PurchaseOrder>, StateError> {
        let id = id.0.or(no_such_order)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let order = step(&mut tx, &caller.actor, id, OrderStatus::Cancelled).await?;
        tx.commit().await?;
        Ok(JsonOk(order))
    }

    /// Receives goods against a confirmed (or partly received) order
    /// (workers, managers, admins), into one location, in one transaction:
    /// for each line, its lot is created (in `quarantine` when the product
    /// requires inspection, else `released`) or extended, a receipt move at
    /// the line's unit price in the order's currency is written to the
    /// ledger, and the line's received quantity is raised, never beyond 5%
    /// above the ordered quantity (409 `over_receipt`). The order becomes
    /// `partially_received`, or `received` when every line has arrived in
    /// full. A draft or cancelled order: 409 `invalid_transition`. One bad
    /// line changes nothing.
    ///
    /// With an `Idempotency-Key` header, a retry with the same key answers
    /// the first receipt without receiving again; the same key with
    /// another request is refused with 409 `idempotency_key_reused`.
    #[oai(
        path = "/purchase-orders/:id/receipts",
        method = "post",
        operation_id = "createPurchaseReceipt"
    )]
    async fn receive(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        /// Any text of 1 to 255 printable ASCII characters (a UUID):
        /// the same key answers the first result.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<Text<IdempotencyKey>>>,
        body: Json<NewReceipt>,
    ) -> Result<ReceiptCreated, WriteStateError> {
        let id = id.0.or(no_such_order)?;
        let key = idempotency_key
            .0
            .as_ref()
            .map(|k| k.parse_as("The Idempotency-Key header"))
            .transpose()?;
        let mut wanted = Vec::with_capacity(body.lines.len());
        let mut seen = HashSet::new();
        for (i, line) in body.lines.iter().enumerate() {
            let n = i + 1;
            let quantity = line.quantity.parse_as(&format!("lines[{n}].quantity"))?;
            let lot_number = line.lot_number.as_str();
            if !gs1::is_lot_or_serial(lot_number) {
                return Err(ApiError::invalid_input(format!(
                    "lines[{n}].lot_number must be 1 to 20 characters: letters, digits and the GS1 punctuation ! \" % & ' ( ) * + , - . / : ; < = > ? _ (no spaces)."
                ))
                .into());
            }
            if !seen.insert(line.line_id) {
                return Err(ApiError::invalid_input(format!(
                    "lines[{n}] names an order line a line before it names already: give each order line once per receipt."
                ))
                .into());
            }
            wanted.push((
                line.line_id,
                quantity,
                lot_number.to_string(),
                line.expires_on.0.map(|d| d.0),
            ));
        }
        let hash = idempotency::digest(&format!(
            "{id}|{}|{}",
            body.location_id,
            wanted
                .iter()
                .map(|(l, q, lot, e)| format!("{l}:{}:{lot}:{e:?}", q.normalize()))
                .collect::<Vec<_>>()
                .join(",")
        ));
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if let Some(key) = &key
            && let Some(first) =
                idempotency::replay(&mut tx, CREATE_RECEIPT, key, &hash, "receipt").await?
        {
            return Ok(ReceiptCreated::Created(Json(first)));
        }
        if !store::lock_order(&mut tx, id).await? {
            return Err(no_such_order().into());
        }
        let order = store::find_order(&mut tx, id)
            .await?
            .ok_or_else(no_such_order)?;
        let number = order_number(order.number);
        let from = status_of(&order);
        if !from.receives() {
            return Err(invalid_transition(format!(
                "{number} is {}: goods are received only against a confirmed order.",
                from.as_str()
            ))
            .into());
        }
        if crate::inventory::store::location_kind(&mut tx, body.location_id)
            .await?
            .is_none()
        {
            return Err(ApiError::not_found("No such location in your organisation.").into());
        }
        let order_lines = store::lines(&mut tx, id).await?;
        let receipt_id = Uuid::new_v4();
        store::insert_receipt(
            &mut tx,
            receipt_id,
            id,
            body.location_id,
            caller.session.account_id,
        )
        .await?;
        let registered = format!("Received on {number}");
        let mut audited = Vec::with_capacity(wanted.len());
        for (i, (line_id, quantity, lot_number, expires_on)) in wanted.iter().enumerate() {
            let n = i + 1;
            let line = order_lines
                .iter()
                .find(|l| l.id == *line_id)
                .ok_or_else(|| {
                    ApiError::not_found(format!("lines[{n}]: {number} has no such line."))
                })?;
            let lot = lots::store::ensure(
                &mut tx,
                &caller.actor,
                &caller.session.name,
                &lots::store::NewLot {
                    product_id: line.product_id,
                    number: lot_number,
                    manufactured_on: None,
                    expires_on: *expires_on,
                    status: LotStatus::initial(line.requires_inspection),
                    reason: &registered,
                },
            )
            .await?;
            if let Some(e) = expires_on
                && !lot.added
                && lot.expires_on != Some(*e)
            {
                let has = lot
                    .expires_on
                    .map_or("no expiry date".to_string(), |d| format!("expiry {d}"));
                return Err(ApiError::invalid_input(format!(
                    "lines[{n}]: lot {lot_number} of {} exists already with {has}: leave expires_on out to add to it, or give the new goods another lot number.",
                    line.product_name
                ))
                .into());
            }
            let moved = ledger::record_move(
                &mut tx,
                &caller.actor,
                &MoveRequest {
                    product_id: line.product_id,
                    lot_id: lot.id,
                    quantity: *quantity,
                    from_location_id: None,
                    to_location_id: Some(body.location_id),
                    reason: MoveReason::Receipt,
                    unit_cost: Some(line.unit_price),
                    currency: Some(&order.currency),
                    reference: Some(&number),
                },
            )
            .await?;
            store::insert_receipt_line(&mut tx, receipt_id, line.id, lot.id, *quantity, moved.id)
                .await?;
            if store::raise_received(&mut tx, line.id, *quantity, OVER_RECEIPT_TOLERANCE)
                .await?
                .is_none()
            {
                let limit = receivable_limit(line.quantity);
                let fresh = store::lines(&mut tx, id).await?;
                let received = fresh
                    .iter()
                    .find(|l| l.id == line.id)
                    .map_or(line.received_quantity, |l| l.received_quantity);
                return Err(conflict(
                    "over_receipt",
                    format!(
                        "lines[{n}]: {} ordered {} of {}, {} received so far; {} more would exceed the 5% tolerance (at most {} in all, so {} more).",
                        number,
                        quantity_text(line.quantity),
                        line.product_name,
                        quantity_text(received),
                        quantity_text(*quantity),
                        quantity_text(limit),
                        quantity_text((limit - received).max(Decimal::ZERO)),
                    ),
                )
                .into());
            }
            audited.push(serde_json::json!({
                "line_id": line.id,
                "lot_id": lot.id,
                "lot_number": lot_number,
                "quantity": quantity_text(*quantity),
                "move_id": moved.id,
            }));
        }
        let after: Vec<(Decimal, Decimal)> = store::lines(&mut tx, id)
            .await?
            .iter()
            .map(|l| (l.quantity, l.received_quantity))
            .collect();
        let to = status_after_receipt(&after);
        if to != from {
            store::set_status(&mut tx, id, to.as_str()).await?;
        }
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "procurement.received",
            &receipt_id.to_string(),
            serde_json::json!({
                "purchase_order_id": id,
                "number": number,
                "location_id": body.location_id,
                "lines": audited,
                "from": from.as_str(),
                "to": to.as_str(),
            }),
        )
        .await?;
        let answer = receipts(&mut tx, id, to)
            .await?
            .into_iter()
            .find(|r| r.id == receipt_id)
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the new receipt is gone")))?;
        if let Some(key) = &key {
            idempotency::remember(&mut tx, CREATE_RECEIPT, key, &answer).await?;
        }
        tx.commit().await?;
        Ok(ReceiptCreated::Created(Json(answer)))
    }

    /// The supplier bills, newest first (at most 500), of one order when
    /// given.
    #[oai(
        path = "/supplier-bills",
        method = "get",
        operation_id = "listSupplierBills"
    )]
    async fn list_bills(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        purchase_order_id: Query<Option<Uuid>>,
    ) -> Result<JsonOk<SupplierBillList>, QueryError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let rows = store::list_bills(&mut conn, purchase_order_id.0, LIST_LIMIT).await?;
        Ok(JsonOk(SupplierBillList {
            bills: rows.into_iter().map(SupplierBill::from).collect(),
        }))
    }

    /// Records a supplier's bill against a purchase order (admins and
    /// managers) and matches it three ways, line by line: the quantity
    /// billed must be at most what was received less what earlier bills
    /// charged for the line (`quantity_not_received`), and the unit price
    /// must be the order's (`price_differs`). Every recorded bill counts as
    /// billed, approved or not. A mismatched bill is recorded too: it
    /// answers `match: mismatch` with the mismatches and waits for an
    /// admin. The number is unique per supplier, whatever its case (409
    /// `duplicate_bill_number`).
    #[oai(
        path = "/supplier-bills",
        method = "post",
        operation_id = "createSupplierBill"
    )]
    async fn create_bill(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewSupplierBill>,
    ) -> Result<SupplierBillCreated, WriteStateError> {
        let number = body.number.parse_as("number")?;
        let mut billed = Vec::with_capacity(body.lines.len());
        let mut seen = HashSet::new();
        for (i, line) in body.lines.iter().enumerate() {
            let n = i + 1;
            let quantity = line.quantity.parse_as(&format!("lines[{n}].quantity"))?;
            let unit_price = line
                .unit_price
                .parse_as(&format!("lines[{n}].unit_price"))?;
            if !seen.insert(line.line_id) {
                return Err(ApiError::invalid_input(format!(
                    "lines[{n}] names an order line a line before it names already: give each order line once per bill."
                ))
                .into());
            }
            billed.push(BilledLine {
                line_id: line.line_id,
                quantity,
                unit_price,
            });
        }
        let order_id = body.purchase_order_id;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        // The order's lock: bills and receipts of one order queue, so two
        // bills never both count the same received quantity as unbilled.
        if !store::lock_order(&mut tx, order_id).await? {
            return Err(no_such_order().into());
        }
        let order = store::find_order(&mut tx, order_id)
            .await?
            .ok_or_else(no_such_order)?;
        let lines = store::lines(&mut tx, order_id).await?;
        for (i, b) in billed.iter().enumerate() {
            if !lines.iter().any(|l| l.id == b.line_id) {
                return Err(ApiError::not_found(format!(
                    "lines[{}]: {} has no such line.",
                    i + 1,
                    order_number(order.number)
                ))
                .into());
            }
        }
        let matching: Vec<MatchLine> = lines
            .iter()
            .map(|l| MatchLine {
                line_id: l.id,
                unit_price: l.unit_price,
                received: l.received_quantity,
                billed_before: l.billed_quantity,
            })
            .collect();
        let mismatches = three_way_match(&matching, &billed);
        let matched = if mismatches.is_empty() {
            BillMatch::Matched
        } else {
            BillMatch::Mismatch
        };
        let mismatches_json = serde_json::to_value(&mismatches).map_err(ApiError::internal)?;
        let id = Uuid::new_v4();
        store::insert_bill(
            &mut tx,
            &store::NewBill {
                id,
                supplier_id: order.supplier_id,
                purchase_order_id: order_id,
                number: &number,
                r#match: matched.as_str(),
                mismatches: &mismatches_json,
                created_by: caller.session.account_id,
            },
        )
        .await
        .map_err(|e| match unique_violation(&e) {
            Some(_) => conflict(
                "duplicate_bill_number",
                format!(
                    "{} has a bill numbered {number} already (bill numbers are unique per supplier, whatever their case).",
                    order.supplier_name
                ),
            ),
            None => ApiError::from(e),
        })?;
        for b in &billed {
            store::insert_bill_line(&mut tx, id, b.line_id, b.quantity, b.unit_price).await?;
        }
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "procurement.bill_created",
            &id.to_string(),
            serde_json::json!({
                "number": number,
                "purchase_order_id": order_id,
                "supplier_id": order.supplier_id,
                "match": matched.as_str(),
                "mismatches": mismatches_json,
            }),
        )
        .await?;
        let bill = store::find_bill(&mut tx, id)
            .await?
            .ok_or_else(no_such_bill)?;
        tx.commit().await?;
        Ok(SupplierBillCreated::Created(Json(bill.into())))
    }

    /// Approves a pending bill for payment (admins and managers). A
    /// mismatched bill answers 409 `bill_mismatch` unless an admin approves
    /// it with a `reason`, which is kept. A bill is approved once (409
    /// `invalid_transition` after).
    #[oai(
        path = "/supplier-bills/:id/approve",
        method = "post",
        operation_id = "approveSupplierBill"
    )]
    async fn approve_bill(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: Json<BillApproval>,
    ) -> Result<JsonOk<SupplierBill>, WriteStateError> {
        let id = id.0.or(no_such_bill)?;
        let reason = body.reason.parse_as("reason")?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let (status, matched) = store::lock_bill(&mut tx, id)
            .await?
            .ok_or_else(no_such_bill)?;
        if status == "approved" {
            return Err(invalid_transition("This bill was approved already.").into());
        }
        let mismatched = BillMatch::parse(&matched) != Some(BillMatch::Matched);
        if mismatched {
            if caller.session.role != Role::Admin {
                return Err(conflict(
                    "bill_mismatch",
                    "This bill does not match its order and receipts: only an admin may approve it, with a reason.",
                )
                .into());
            }
            if reason.is_none() {
                return Err(conflict(
                    "bill_mismatch",
                    "This bill does not match its order and receipts: give the reason you approve it anyway.",
                )
                .into());
            }
        }
        store::approve_bill(&mut tx, id, caller.session.account_id, reason.as_deref()).await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "procurement.bill_approved",
            &id.to_string(),
            serde_json::json!({ "match": matched, "reason": reason }),
        )
        .await?;
        let bill = store::find_bill(&mut tx, id)
            .await?
            .ok_or_else(no_such_bill)?;
        tx.commit().await?;
        Ok(JsonOk(bill.into()))
    }
}

/// Order `id` with its lines, receipts and bills (404 when the tenant has
/// none).
async fn detail(conn: &mut sqlx::PgConnection, id: Uuid) -> Result<PurchaseOrderDetail, ApiError> {
    let order = store::find_order(conn, id)
        .await?
        .ok_or_else(no_such_order)?;
    let status = status_of(&order);
    let lines = store::lines(conn, id).await?;
    let receipts = receipts(conn, id, status).await?;
    let bills = store::list_bills(conn, Some(id), LIST_LIMIT).await?;
    Ok(PurchaseOrderDetail {
        order: order.into(),
        lines: lines.into_iter().map(PurchaseOrderLine::from).collect(),
        receipts,
        bills: bills.into_iter().map(SupplierBill::from).collect(),
    })
}

/// The receipts of order `id` with their lines; `order_status` is the
/// order's status as given.
async fn receipts(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
    order_status: OrderStatus,
) -> Result<Vec<Receipt>, ApiError> {
    let rows = store::receipts(conn, id).await?;
    let mut lines = store::receipt_lines(conn, id).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let (mine, rest): (Vec<_>, Vec<_>) =
                lines.drain(..).partition(|l| l.receipt_id == r.id);
            lines = rest;
            Receipt {
                id: r.id,
                purchase_order_id: id,
                location_id: r.location_id,
                location_code: r.location_code,
                received_by: r.received_by,
                received_at: r.received_at,
                lines: mine
                    .into_iter()
                    .map(|l| ReceiptLine {
                        line_id: l.line_id,
                        lot_id: l.lot_id,
                        lot_number: l.lot_number,
                        lot_status: LotStatus::parse(&l.lot_status).unwrap_or(LotStatus::Held),
                        expires_on: l.expires_on.map(IsoDate),
                        quantity: quantity_text(l.quantity),
                        move_id: l.move_id,
                    })
                    .collect(),
                order_status,
            }
        })
        .collect())
}
