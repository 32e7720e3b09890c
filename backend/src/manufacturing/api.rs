//! `/api/boms` and `/api/manufacturing-orders`: bills of materials and the
//! orders that consume components and produce an output lot.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use rust_decimal::Decimal;
use uuid::Uuid;

use super::store::{self, ComponentRow, OrderRow};
use super::{EventLot, OrderStatus, order_number, scaled, transformation_event};
use crate::audit;
use crate::codes::{self, LotNumber, MAX_QUANTITY};
use crate::epcis;
use crate::http::error::{ApiError, LookupError, QueryError, StateError, WriteStateError};
use crate::http::input::{IsoDate, LotDate, Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::inventory::ledger::{self, MoveRequest};
use crate::inventory::{self, MoveReason, Quantity, money_text, quantity_text};
use crate::jobs;
use crate::json_response;
use crate::lots::{self, LotStatus};

#[derive(Default)]
pub struct ManufacturingApi;

/// The most components one BOM version may list.
const MAX_COMPONENTS: usize = 100;
/// The most BOM versions or orders a list shows.
const LIST_LIMIT: i64 = 500;

// --- shapes ----------------------------------------------------------------------

#[derive(Object, Debug)]
pub struct NewBomComponent {
    /// A product of the organisation, other than the one made.
    pub product_id: Uuid,
    /// How much of it one run uses: more than 0, at most 3 decimal places,
    /// as a string (`"2"`, `"0.25"`).
    pub quantity: Text<Quantity>,
}

#[derive(Object, Debug)]
pub struct NewBom {
    /// The product the list makes.
    pub product_id: Uuid,
    /// How much of the product one run makes (a decimal string above 0).
    pub output_quantity: Text<Quantity>,
    /// 1 to 100 components, each product once. A component that needs the
    /// product (directly or through its own latest BOM, at any depth) is
    /// refused: 400.
    #[oai(validator(min_items = 1, max_items = 100))]
    pub components: Vec<NewBomComponent>,
}

/// A component of a BOM version.
#[derive(Object, Debug)]
pub struct BomComponent {
    pub product_id: Uuid,
    pub product_name: String,
    /// How much one run uses, a decimal string.
    pub quantity: String,
}

/// A version of a product's bill of materials: never changed once made.
#[derive(Object, Debug)]
pub struct Bom {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    /// 1, 2, ... per product, in order of creation.
    pub version: i32,
    /// How much of the product one run makes, a decimal string.
    pub output_quantity: String,
    pub components: Vec<BomComponent>,
    #[oai(skip_serializing_if_is_none)]
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

/// BOM versions: of one product newest first, or of all by product name.
#[derive(Object, Debug)]
pub struct BomList {
    pub boms: Vec<Bom>,
}

#[derive(Object, Debug)]
pub struct NewManufacturingOrder {
    /// The product to make: it needs a BOM.
    pub product_id: Uuid,
    /// The BOM version to make it by; its latest when left out. Pinned on
    /// the order: later versions do not change it.
    #[oai(validator(minimum(value = "1")))]
    pub bom_version: Optional<i32>,
    /// How much to make (a decimal string above 0).
    pub quantity: Text<Quantity>,
    /// Where the components are taken from and the output is put: a
    /// warehouse, zone or bin.
    pub location_id: Uuid,
    /// The number of the lot it produces (GS1 AI 10), new for the product.
    pub output_lot_number: Text<LotNumber>,
    /// The output lot's expiry date, after today.
    pub expires_on: Optional<LotDate>,
}

/// A component an order needs.
#[derive(Object, Debug)]
pub struct OrderComponent {
    pub product_id: Uuid,
    pub product_name: String,
    /// What the order's quantity needs, scaled from the pinned BOM
    /// version (rounded up to 3 places), a decimal string.
    pub required: String,
}

/// A lot an order consumed, and how much of it.
#[derive(Object, Debug)]
pub struct ConsumedLot {
    pub lot_id: Uuid,
    pub lot_number: String,
    pub product_id: Uuid,
    pub product_name: String,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    pub quantity: String,
}

/// A manufacturing order.
#[derive(Object, Debug)]
pub struct ManufacturingOrder {
    pub id: Uuid,
    /// The number people quote: `MO-000042`.
    pub number: String,
    pub product_id: Uuid,
    pub product_name: String,
    pub bom_id: Uuid,
    /// The pinned BOM version.
    pub bom_version: i32,
    /// How much to make, a decimal string.
    pub quantity: String,
    pub location_id: Uuid,
    pub location_code: String,
    pub output_lot_number: String,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    pub status: OrderStatus,
    /// What the order's quantity needs of each component.
    pub components: Vec<OrderComponent>,
    /// Once completed: how much was made, a decimal string.
    #[oai(skip_serializing_if_is_none)]
    pub produced_quantity: Option<String>,
    /// Once completed: the lot produced.
    #[oai(skip_serializing_if_is_none)]
    pub output_lot_id: Option<Uuid>,
    /// Once completed: the output's unit cost (the consumed components'
    /// FIFO cost over the quantity produced), a decimal string.
    #[oai(skip_serializing_if_is_none)]
    pub unit_cost: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub currency: Option<String>,
    /// The code job started for the output lot, when codes were asked for.
    #[oai(skip_serializing_if_is_none)]
    pub code_job_id: Option<Uuid>,
    /// The eventID of the EPCIS TransformationEvent recorded on completion.
    #[oai(skip_serializing_if_is_none)]
    pub epcis_event_id: Option<String>,
    /// The lots consumed (in the answer of one order, not in lists).
    #[oai(skip_serializing_if_is_none)]
    pub consumed: Option<Vec<ConsumedLot>>,
    #[oai(skip_serializing_if_is_none)]
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub started_at: Option<DateTime<Utc>>,
    #[oai(skip_serializing_if_is_none)]
    pub completed_at: Option<DateTime<Utc>>,
    #[oai(skip_serializing_if_is_none)]
    pub cancelled_at: Option<DateTime<Utc>>,
}

/// Manufacturing orders, newest first (at most 500).
#[derive(Object, Debug)]
pub struct ManufacturingOrderList {
    pub orders: Vec<ManufacturingOrder>,
}

#[derive(Object, Debug)]
pub struct OrderCompletion {
    /// How much was made (a decimal string above 0); the components are
    /// consumed in proportion: `component quantity × produced_quantity /
    /// output_quantity`, rounded up to 3 places.
    pub produced_quantity: Text<Quantity>,
    /// Start a code job of this many codes (1 to 10,000,000) for the output
    /// lot, from the plan's code quota.
    pub codes: Optional<i64>,
}

json_response!(
    /// The new version.
    BomCreated { 201 => Created(Bom) }
);
json_response!(
    /// Created, `planned`.
    OrderCreated { 201 => Created(ManufacturingOrder) }
);

// --- helpers ---------------------------------------------------------------------

fn no_such_order() -> ApiError {
    ApiError::not_found("No such manufacturing order in your organisation.")
}

fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, code, message)
}

fn bom_out(row: store::BomRow, components: &[ComponentRow]) -> Bom {
    Bom {
        components: components
            .iter()
            .filter(|c| c.bom_id == row.id)
            .map(|c| BomComponent {
                product_id: c.product_id,
                product_name: c.product_name.clone(),
                quantity: quantity_text(c.quantity),
            })
            .collect(),
        id: row.id,
        product_id: row.product_id,
        product_name: row.product_name,
        version: row.version,
        output_quantity: quantity_text(row.output_quantity),
        created_by: row.created_by,
        created_at: row.created_at,
    }
}

fn order_out(
    r: OrderRow,
    components: &[ComponentRow],
    consumed: Option<Vec<store::ConsumedRow>>,
) -> ManufacturingOrder {
    ManufacturingOrder {
        components: components
            .iter()
            .filter(|c| c.bom_id == r.bom_id)
            .map(|c| OrderComponent {
                product_id: c.product_id,
                product_name: c.product_name.clone(),
                required: quantity_text(scaled(c.quantity, r.quantity, r.output_quantity)),
            })
            .collect(),
        consumed: consumed.map(|rows| {
            rows.into_iter()
                .map(|c| ConsumedLot {
                    lot_id: c.lot_id,
                    lot_number: c.lot_number,
                    product_id: c.product_id,
                    product_name: c.product_name,
                    expires_on: c.expires_on.map(IsoDate),
                    quantity: quantity_text(c.quantity),
                })
                .collect()
        }),
        id: r.id,
        number: order_number(r.number),
        product_id: r.product_id,
        product_name: r.product_name,
        bom_id: r.bom_id,
        bom_version: r.bom_version,
        quantity: quantity_text(r.quantity),
        location_id: r.location_id,
        location_code: r.location_code,
        output_lot_number: r.output_lot_number,
        expires_on: r.expires_on.map(IsoDate),
        // The table's CHECK allows only the four states.
        status: OrderStatus::parse(&r.status).unwrap_or(OrderStatus::Cancelled),
        produced_quantity: r.produced_quantity.map(quantity_text),
        output_lot_id: r.output_lot_id,
        unit_cost: r.unit_cost.map(money_text),
        currency: r.currency,
        code_job_id: r.code_job_id,
        epcis_event_id: r.epcis_event_id,
        created_by: r.created_by,
        created_at: r.created_at,
        started_at: r.started_at,
        completed_at: r.completed_at,
        cancelled_at: r.cancelled_at,
    }
}

/// Order `id` as one order's answer: with its components and the lots it
/// consumed.
async fn full_order(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
) -> Result<ManufacturingOrder, ApiError> {
    let row = store::order(conn, id, false)
        .await?
        .ok_or_else(no_such_order)?;
    let components = store::components(conn, &[row.bom_id]).await?;
    let consumed = store::consumed(conn, id).await?;
    Ok(order_out(row, &components, Some(consumed)))
}

/// 409 `invalid_transition` for an order in `from` asked to become `to`.
fn invalid_transition(number: &str, from: OrderStatus, to: OrderStatus) -> ApiError {
    let asked = match to {
        OrderStatus::InProgress => "started",
        OrderStatus::Completed => "completed",
        OrderStatus::Cancelled => "cancelled",
        OrderStatus::Planned => "planned",
    };
    let hint = match (from, to) {
        (OrderStatus::Planned, OrderStatus::Completed) => " Start it first.",
        _ => "",
    };
    conflict(
        "invalid_transition",
        format!(
            "Order {number} is {}: it cannot be {asked}. Orders go planned -> in_progress -> completed, and can be cancelled before completion.{hint}",
            from.as_str()
        ),
    )
}

/// Locks order `id` and checks that it may become `to`.
async fn lock_for(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
    to: OrderStatus,
) -> Result<OrderRow, ApiError> {
    let row = store::order(conn, id, true)
        .await?
        .ok_or_else(no_such_order)?;
    let from = OrderStatus::parse(&row.status).unwrap_or(OrderStatus::Cancelled);
    if !from.may_become(to) {
        return Err(invalid_transition(&order_number(row.number), from, to));
    }
    Ok(row)
}

#[OpenApi(tag = "ApiTags::Manufacturing")]
impl ManufacturingApi {
    /// Creates the next version of a product's bill of materials (1 for its
    /// first). Versions are never changed: a new list is a new version, and
    /// orders keep the version they were made on. A component that would
    /// close a cycle (the product itself, or one that needs the product
    /// through the latest BOM versions at any depth) is refused with 400;
    /// parallel creates queue, so they get consecutive versions and cannot
    /// form a cycle together.
    #[oai(path = "/boms", method = "post", operation_id = "createBom")]
    async fn create_bom(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewBom>,
    ) -> Result<BomCreated, WriteStateError> {
        let output_quantity = body.output_quantity.parse_as("output_quantity")?;
        if body.components.is_empty() || body.components.len() > MAX_COMPONENTS {
            return Err(ApiError::invalid_input(format!(
                "A bill of materials needs 1 to {MAX_COMPONENTS} components."
            ))
            .into());
        }
        let mut components: Vec<(Uuid, Decimal)> = Vec::with_capacity(body.components.len());
        for (i, c) in body.components.iter().enumerate() {
            let n = i + 1;
            let quantity = c.quantity.parse_as(&format!("components[{n}].quantity"))?;
            if c.product_id == body.product_id {
                return Err(ApiError::invalid_input(format!(
                    "components[{n}] is the product itself: a product cannot be a component of itself (a cycle)."
                ))
                .into());
            }
            if components.iter().any(|(p, _)| *p == c.product_id) {
                return Err(ApiError::invalid_input(format!(
                    "components[{n}] names a product listed before: list each component once, with its whole quantity."
                ))
                .into());
            }
            components.push((c.product_id, quantity));
        }
        let mut ids: Vec<Uuid> = components.iter().map(|c| c.0).collect();
        ids.push(body.product_id);
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let found = store::products(&mut tx, &ids).await?;
        let name = |id: Uuid| {
            found
                .iter()
                .find(|p| p.id == id)
                .map(|p| p.product_name.clone())
        };
        let product_name = name(body.product_id)
            .ok_or_else(|| ApiError::not_found("No such product in your organisation."))?;
        if found.iter().any(|p| p.id == body.product_id && p.archived) {
            return Err(conflict(
                "product_archived",
                "This product is archived: it cannot get a new bill of materials.",
            )
            .into());
        }
        for (i, (id, _)) in components.iter().enumerate() {
            if name(*id).is_none() {
                return Err(ApiError::not_found(format!(
                    "No such product in your organisation (components[{}].product_id).",
                    i + 1
                ))
                .into());
            }
        }
        // BOM creates queue here: the version and the cycle check see what
        // the ones ahead committed.
        store::lock_boms(&mut tx).await?;
        let component_ids: Vec<Uuid> = components.iter().map(|c| c.0).collect();
        let cycles = store::cycle_through(&mut tx, body.product_id, &component_ids).await?;
        if let Some(via) = cycles.first() {
            let via_name = name(*via).unwrap_or_default();
            return Err(ApiError::invalid_input(format!(
                "{via_name} cannot be a component of {product_name}: {via_name} already needs {product_name} (directly or through its own components), which would make a cycle."
            ))
            .into());
        }
        let version = store::next_version(&mut tx, body.product_id).await?;
        let id = Uuid::new_v4();
        store::insert_bom(
            &mut tx,
            id,
            body.product_id,
            version,
            output_quantity,
            &components,
            Some(caller.session.account_id),
        )
        .await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "manufacturing.bom_created",
            &id.to_string(),
            serde_json::json!({
                "product_id": body.product_id,
                "version": version,
                "output_quantity": quantity_text(output_quantity),
                "components": components.iter().map(|(p, q)| serde_json::json!({
                    "product_id": p, "quantity": quantity_text(*q),
                })).collect::<Vec<_>>(),
            }),
        )
        .await?;
        let row = store::bom(&mut tx, id)
            .await?
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the BOM just made is gone")))?;
        let rows = store::components(&mut tx, &[id]).await?;
        tx.commit().await?;
        Ok(BomCreated::Created(Json(bom_out(row, &rows))))
    }

    /// The BOM versions of a product (`product_id`), newest first, or of
    /// every product (at most 500), each with its components.
    #[oai(path = "/boms", method = "get", operation_id = "listBoms")]
    async fn list_boms(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Query<Option<Uuid>>,
    ) -> Result<JsonOk<BomList>, QueryError> {
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let rows = store::list_boms(&mut tx, product_id.0, LIST_LIMIT).await?;
        let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
        let components = store::components(&mut tx, &ids).await?;
        drop(tx);
        Ok(JsonOk(BomList {
            boms: rows.into_iter().map(|r| bom_out(r, &components)).collect(),
        }))
    }

    /// Creates a manufacturing order, `planned`, pinned to the product's
    /// latest BOM version or the one named. 409 `no_bom` when the product
    /// has no BOM, `lot_exists` when it already has the output lot.
    #[oai(
        path = "/manufacturing-orders",
        method = "post",
        operation_id = "createManufacturingOrder"
    )]
    async fn create_order(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewManufacturingOrder>,
    ) -> Result<OrderCreated, WriteStateError> {
        let quantity = body.quantity.parse_as("quantity")?;
        let lot_number = body.output_lot_number.parse()?;
        let version = body.bom_version.0;
        if version.is_some_and(|v| v < 1) {
            return Err(ApiError::invalid_input("bom_version must be 1 or more.").into());
        }
        let expires_on = body.expires_on.0.map(|d| d.0);
        if let Some(e) = expires_on
            && e <= Utc::now().date_naive()
        {
            return Err(ApiError::invalid_input(
                "expires_on must be after today: the output lot would be expired when made.",
            )
            .into());
        }
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let product = store::products(&mut tx, &[body.product_id])
            .await?
            .pop()
            .ok_or_else(|| ApiError::not_found("No such product in your organisation."))?;
        if product.archived {
            return Err(conflict(
                "product_archived",
                "This product is archived: it cannot be manufactured.",
            )
            .into());
        }
        let kind = inventory::store::location_kind(&mut tx, body.location_id)
            .await?
            .ok_or_else(|| ApiError::not_found("No such location in your organisation."))?;
        if kind == "quarantine" || kind == "scrap" {
            return Err(ApiError::invalid_input(format!(
                "location_id is a {kind} location: manufacture at a warehouse, zone or bin, where usable components are kept."
            ))
            .into());
        }
        let bom = store::find_bom(&mut tx, body.product_id, version)
            .await?
            .ok_or_else(|| match version {
                Some(v) => {
                    ApiError::not_found(format!("{} has no BOM version {v}.", product.product_name))
                }
                None => conflict(
                    "no_bom",
                    format!(
                        "{} has no bill of materials yet: create one before ordering it.",
                        product.product_name
                    ),
                ),
            })?;
        if store::lot_exists(&mut tx, body.product_id, lot_number.as_str()).await? {
            return Err(conflict(
                "lot_exists",
                format!(
                    "{} already has a lot {}: give the output lot a new number.",
                    product.product_name,
                    lot_number.as_str()
                ),
            )
            .into());
        }
        let id = Uuid::new_v4();
        store::insert_order(
            &mut tx,
            &store::NewOrder {
                id,
                product_id: body.product_id,
                bom_id: bom.id,
                quantity,
                location_id: body.location_id,
                output_lot_number: lot_number.as_str(),
                expires_on,
                created_by: Some(caller.session.account_id),
            },
        )
        .await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "manufacturing.order_created",
            &id.to_string(),
            serde_json::json!({
                "product_id": body.product_id,
                "bom_version": bom.version,
                "quantity": quantity_text(quantity),
                "location_id": body.location_id,
                "output_lot_number": lot_number.as_str(),
            }),
        )
        .await?;
        let order = full_order(&mut tx, id).await?;
        tx.commit().await?;
        Ok(OrderCreated::Created(Json(order)))
    }

    /// The manufacturing orders, newest first (at most 500), of one status
    /// or all.
    #[oai(
        path = "/manufacturing-orders",
        method = "get",
        operation_id = "listManufacturingOrders"
    )]
    async fn list_orders(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        status: Query<Option<OrderStatus>>,
    ) -> Result<JsonOk<ManufacturingOrderList>, QueryError> {
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let rows =
            store::list_orders(&mut tx, status.0.map(OrderStatus::as_str), LIST_LIMIT).await?;
        let mut boms: Vec<Uuid> = rows.iter().map(|r| r.bom_id).collect();
        boms.sort();
        boms.dedup();
        let components = store::components(&mut tx, &boms).await?;
        drop(tx);
        Ok(JsonOk(ManufacturingOrderList {
            orders: rows
                .into_iter()
                .map(|r| order_out(r, &components, None))
                .collect(),
        }))
    }

    /// One manufacturing order, with what it needs and the lots it
    /// consumed.
    #[oai(
        path = "/manufacturing-orders/:id",
        method = "get",
        operation_id = "getManufacturingOrder"
    )]
    async fn get_order(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<ManufacturingOrder>, LookupError> {
        let id = id.0.or(no_such_order)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let order = full_order(&mut tx, id).await?;
        drop(tx);
        Ok(JsonOk(order))
    }

    /// Starts a planned order (workers, managers, admins): `in_progress`.
    /// 409 `invalid_transition` from any other state.
    #[oai(
        path = "/manufacturing-orders/:id/start",
        method = "post",
        operation_id = "startManufacturingOrder"
    )]
    async fn start_order(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<ManufacturingOrder>, StateError> {
        Ok(JsonOk(
            self.transition(&state, &caller, id.0, OrderStatus::InProgress)
                .await?,
        ))
    }

    /// Cancels a planned or in-progress order (nothing was consumed).
    /// 409 `invalid_transition` for a completed or cancelled one.
    #[oai(
        path = "/manufacturing-orders/:id/cancel",
        method = "post",
        operation_id = "cancelManufacturingOrder"
    )]
    async fn cancel_order(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<ManufacturingOrder>, StateError> {
        Ok(JsonOk(
            self.transition(&state, &caller, id.0, OrderStatus::Cancelled)
                .await?,
        ))
    }

    /// Completes an order in progress, in one transaction: consumes the
    /// components (scaled to `produced_quantity`) from released, unexpired
    /// lots at the order's location, earliest expiry first; produces the
    /// output lot (in `quarantine` when the product requires inspection)
    /// with a receipt move whose unit cost is the consumed lots' FIFO cost
    /// over the quantity produced; records which input lots went into it
    /// and how much of each; records an EPCIS TransformationEvent; and,
    /// with `codes`, starts a code job for the output lot (403 `code_quota`
    /// beyond the plan's quota). A shortage answers 409 `insufficient_stock`
    /// naming every short component, and nothing is consumed. 409
    /// `invalid_transition` unless the order is in progress (a second,
    /// parallel completion gets it), `mixed_currencies` when the consumed
    /// lots were received in different currencies, `lot_exists` when the
    /// output lot was registered meanwhile.
    #[oai(
        path = "/manufacturing-orders/:id/complete",
        method = "post",
        operation_id = "completeManufacturingOrder"
    )]
    async fn complete_order(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: Json<OrderCompletion>,
    ) -> Result<JsonOk<ManufacturingOrder>, WriteStateError> {
        let id = id.0.or(no_such_order)?;
        let produced = body.produced_quantity.parse_as("produced_quantity")?;
        let codes = body.codes.0;
        if let Some(n) = codes
            && !(1..=MAX_QUANTITY).contains(&n)
        {
            return Err(ApiError::invalid_input("codes must be 1 to 10,000,000.").into());
        }
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let order = complete(&state, &caller, &mut tx, id, produced, codes).await?;
        tx.commit().await?;
        if codes.is_some() {
            state.jobs.wake();
        }
        Ok(JsonOk(order))
    }
}

impl ManufacturingApi {
    /// Moves an order to `to` (start or cancel), with its audit row.
    async fn transition(
        &self,
        state: &SharedState,
        caller: &TenantSession,
        id: PathId,
        to: OrderStatus,
    ) -> Result<ManufacturingOrder, ApiError> {
        let id = id.or(no_such_order)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let row = lock_for(&mut tx, id, to).await?;
        store::set_status(&mut tx, id, to.as_str()).await?;
        let action = match to {
            OrderStatus::InProgress => "manufacturing.order_started",
            _ => "manufacturing.order_cancelled",
        };
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            action,
            &id.to_string(),
            serde_json::json!({ "number": order_number(row.number), "from": row.status }),
        )
        .await?;
        let order = full_order(&mut tx, id).await?;
        tx.commit().await?;
        Ok(order)
    }
}

/// A planned consumption: a component and the lot lines it takes.
struct Take {
    component: ComponentRow,
    lines: Vec<inventory::store::ReservationLineRow>,
}

/// The completion's work in the caller's transaction (see
/// `completeManufacturingOrder`); the caller commits.
pub async fn complete(
    state: &SharedState,
    caller: &TenantSession,
    tx: &mut sqlx::PgConnection,
    id: Uuid,
    produced: Decimal,
    codes: Option<i64>,
) -> Result<ManufacturingOrder, ApiError> {
    let order = lock_for(tx, id, OrderStatus::Completed).await?;
    let number = order_number(order.number);
    // The code quota first, as code jobs take it before the lot register.
    if let Some(n) = codes {
        let quota = codes::store::lock_code_quota(tx).await?;
        let remaining = (quota - codes::store::reserved_codes(tx).await?).max(0);
        if n > remaining {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "code_quota",
                format!(
                    "Completing with {n} codes needs {n} codes, but only {remaining} remain in your plan's code quota. Ask for fewer codes or a higher quota; nothing was completed."
                ),
            ));
        }
    }
    // The components in one lock order (product id; the balances of each
    // in location, lot order), each planned earliest expiry first; every
    // shortage is named before anything moves.
    let mut components = store::components(tx, &[order.bom_id]).await?;
    components.sort_by_key(|c| c.product_id);
    let mut takes: Vec<Take> = Vec::with_capacity(components.len());
    let mut short: Vec<String> = Vec::new();
    for component in components {
        let need = scaled(component.quantity, produced, order.output_quantity);
        let candidates =
            inventory::store::lock_reservable(tx, component.product_id, Some(order.location_id))
                .await?;
        let available: Decimal = candidates.iter().map(|c| c.available).sum();
        match ledger::plan_fefo(candidates, need) {
            Some(lines) => takes.push(Take { component, lines }),
            None => short.push(format!(
                "{} ({} needed, {} available)",
                component.product_name,
                quantity_text(need),
                quantity_text(available)
            )),
        }
    }
    if !short.is_empty() {
        short.sort();
        return Err(ledger::insufficient(format!(
            "Not enough stock at {} in released, unexpired lots to complete {number}: {}. Nothing was consumed.",
            order.location_code,
            short.join("; ")
        )));
    }
    if store::lot_exists(tx, order.product_id, &order.output_lot_number).await? {
        return Err(conflict(
            "lot_exists",
            format!(
                "{} already has a lot {}: it was registered after the order was made. Cancel this order and make a new one with another lot number.",
                order.product_name, order.output_lot_number
            ),
        ));
    }
    // The cost of what is consumed, before the moves change the lots.
    let lot_ids: Vec<Uuid> = takes
        .iter()
        .flat_map(|t| t.lines.iter().map(|l| l.lot_id))
        .collect();
    let quantities: Vec<Decimal> = takes
        .iter()
        .flat_map(|t| t.lines.iter().map(|l| l.quantity))
        .collect();
    let mut totals: BTreeMap<String, Decimal> = BTreeMap::new();
    for c in store::fifo_cost(tx, &lot_ids, &quantities).await? {
        *totals.entry(c.currency).or_default() += c.value;
    }
    if totals.len() > 1 {
        let list: Vec<&str> = totals.keys().map(String::as_str).collect();
        return Err(conflict(
            "mixed_currencies",
            format!(
                "The components to consume were received in {}: their cost cannot be added into one unit cost. Nothing was consumed.",
                list.join(" and ")
            ),
        ));
    }
    let (currency, total) = totals.into_iter().next().ok_or_else(|| {
        conflict(
            "cost_unknown",
            "The components to consume have no receipt cost, so the output cannot be valued. Nothing was consumed.",
        )
    })?;
    let unit_cost = (total / produced).round_dp(6);
    // The consumption: every line out in one statement.
    let planned: Vec<ledger::PlannedTake> = takes
        .iter()
        .flat_map(|t| {
            t.lines.iter().map(|l| ledger::PlannedTake {
                product_id: t.component.product_id,
                product_name: t.component.product_name.clone(),
                lot_id: l.lot_id,
                lot_number: l.lot_number.clone(),
                quantity: l.quantity,
            })
        })
        .collect();
    ledger::take_planned(
        tx,
        &caller.actor,
        order.location_id,
        &planned,
        MoveReason::Consumption,
        Some(&number),
    )
    .await?;
    let status = LotStatus::initial(order.requires_inspection);
    let reason = format!("Produced by manufacturing order {number}");
    let output_lot = lots::store::register(
        tx,
        &caller.actor,
        &caller.session.name,
        &lots::store::NewLot {
            product_id: order.product_id,
            number: &order.output_lot_number,
            manufactured_on: Some(Utc::now().date_naive()),
            expires_on: order.expires_on,
            status,
            reason: &reason,
        },
    )
    .await?
    .ok_or_else(|| {
        conflict(
            "lot_exists",
            format!(
                "{} already has a lot {}: give the output lot a new number.",
                order.product_name, order.output_lot_number
            ),
        )
    })?;
    // The production move: a receipt of the output at the components' cost.
    ledger::record_move(
        tx,
        &caller.actor,
        &MoveRequest {
            product_id: order.product_id,
            lot_id: output_lot,
            quantity: produced,
            from_location_id: None,
            to_location_id: Some(order.location_id),
            reason: MoveReason::Receipt,
            unit_cost: Some(unit_cost),
            currency: Some(&currency),
            reference: Some(&number),
        },
    )
    .await?;
    store::insert_lot_inputs(tx, id, output_lot, &lot_ids, &quantities).await?;
    let inputs: Vec<EventLot<'_>> = takes
        .iter()
        .flat_map(|t| {
            t.lines.iter().map(|l| EventLot {
                gtin: &t.component.gtin,
                lot: &l.lot_number,
                quantity: l.quantity,
            })
        })
        .collect();
    let event = transformation_event(
        id,
        &inputs,
        &EventLot {
            gtin: &order.gtin,
            lot: &order.output_lot_number,
            quantity: produced,
        },
        Utc::now(),
        Some(caller.session.account_id),
    );
    let event_id = event.event_id.clone();
    epcis::store::insert_events(tx, &[event]).await?;
    let code_job_id = match codes {
        None => None,
        Some(n) => {
            let resolver_base = match codes::store::resolver_base(tx).await? {
                Some(base) => base,
                None => state.settings.public_url().to_string(),
            };
            let job = Uuid::new_v4();
            codes::store::insert_job(
                tx,
                &codes::store::NewJob {
                    id: job,
                    product_id: order.product_id,
                    lot_id: Some(output_lot),
                    gtin: &order.gtin,
                    resolver_base: &resolver_base,
                    quantity: n as i32,
                    created_by: caller.session.account_id,
                },
            )
            .await?;
            codes::store::enqueue(tx, jobs::CODES, job).await?;
            Some(job)
        }
    };
    store::complete(
        tx,
        id,
        &store::Completion {
            produced_quantity: produced,
            output_lot_id: output_lot,
            unit_cost: Some(unit_cost),
            currency: Some(&currency),
            code_job_id,
            epcis_event_id: &event_id,
        },
    )
    .await?;
    audit::record_own_tenant(
        tx,
        &caller.actor,
        "manufacturing.order_completed",
        &id.to_string(),
        serde_json::json!({
            "number": number,
            "produced_quantity": quantity_text(produced),
            "output_lot_id": output_lot,
            "output_lot_status": status.as_str(),
            "unit_cost": money_text(unit_cost),
            "currency": currency,
            "inputs": lot_ids.iter().zip(&quantities).map(|(l, q)| serde_json::json!({
                "lot_id": l, "quantity": quantity_text(*q),
            })).collect::<Vec<_>>(),
            "code_job_id": code_job_id,
            "epcis_event_id": event_id,
        }),
    )
    .await?;
    full_order(tx, id).await
}
