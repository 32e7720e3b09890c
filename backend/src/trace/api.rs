//! The genealogy (`GET /api/lots/{id}/genealogy`, tag Lots) and recalls
//! (`/api/recalls`, tag Recalls).

use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::{Json, PlainText};
use poem_openapi::{ApiResponse, Object, OpenApi};
use uuid::Uuid;

use super::{Genealogy, MAX_DEPTH, Recall, RecallSummary, store};
use crate::audit;
use crate::http::error::{AccessError, ApiError, LookupError, NotFoundError, WriteStateError};
use crate::http::input::{PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::inventory::{self, ledger};
use crate::json_response;
use crate::lots::{self, LotStatus, StatusReason};

fn no_such_lot() -> ApiError {
    ApiError::not_found("No such lot in your organisation.")
}

fn no_such_recall() -> ApiError {
    ApiError::not_found("No such recall in your organisation.")
}

#[derive(Default)]
pub struct GenealogyApi;

#[OpenApi(tag = "ApiTags::Lots")]
impl GenealogyApi {
    /// A lot's genealogy. Upstream: the component lots it was made from at
    /// any depth (each with its depth, how much of it was used and in which
    /// lots, its status, and its receipts: supplier, purchase order, when).
    /// Downstream: the lots made from it at any depth (each with the lots
    /// it was made from) and their shipments that left (shipped or
    /// delivered) with their customers. A lot reached by several paths is
    /// listed once, at its shortest depth; each direction is one recursive
    /// query with a cycle guard, stopping at depth 32 (`truncated` says
    /// when lots lay beyond).
    #[oai(
        path = "/lots/:id/genealogy",
        method = "get",
        operation_id = "getLotGenealogy"
    )]
    async fn genealogy(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Genealogy>, NotFoundError> {
        let id = id.0.or(no_such_lot)?;
        // One snapshot for both directions.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::read_snapshot(&mut tx).await?;
        let up = store::upstream(&mut tx, id, MAX_DEPTH).await?;
        let down = store::downstream(&mut tx, id, MAX_DEPTH).await?;
        tx.commit().await?;
        let up = super::group_upstream(up);
        let down = super::group_downstream(down);
        let (Some((lot, receipts)), Some((_, shipments))) = (up.root, down.root) else {
            return Err(no_such_lot().into());
        };
        Ok(JsonOk(Genealogy {
            lot,
            receipts,
            shipments,
            upstream: up.lots,
            downstream: down.lots,
            max_depth: MAX_DEPTH,
            truncated: up.truncated || down.truncated,
        }))
    }
}

#[derive(Default)]
pub struct RecallsApi;

/// A recall to make.
#[derive(Object, Debug)]
pub struct NewRecall {
    /// The lot to recall: it and every lot made from it are recalled.
    pub lot_id: Uuid,
    /// Why (1 to 500 characters): kept with the recall, in every lot's
    /// history and in the audit log.
    pub reason: Text<StatusReason>,
}

json_response!(
    /// Recalled: the lot and every lot made from it are `recalled`, their
    /// open reservations released; the shipments and customers reached.
    RecallCreated { 201 => Created(Recall) }
);

/// The recalls, newest first (at most 500).
#[derive(Object, Debug)]
pub struct RecallList {
    pub recalls: Vec<RecallSummary>,
}

#[derive(ApiResponse)]
pub enum AffectedCsv {
    /// `recall,recalled_lot,depth,product,gtin,lot,lot_status,…,customer,…,quantity`:
    /// one line per shipment of a recalled lot, and one per recalled lot no
    /// shipment took (RFC 4180; cells a spreadsheet would run as formulas
    /// start with `'`).
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Ok(
        PlainText<String>,
        #[oai(header = "content-disposition")] String,
    ),
}

/// Recalls listed at most.
const LIST_LIMIT: i64 = 500;

async fn load(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
) -> Result<
    (
        store::RecallRow,
        Vec<store::RecallLotRow>,
        Vec<store::RecallShipmentRow>,
    ),
    ApiError,
> {
    let row = store::find_recall(conn, id)
        .await?
        .ok_or_else(no_such_recall)?;
    let lots = store::recall_lots(conn, id).await?;
    let shipments = store::recall_shipments(conn, id).await?;
    Ok((row, lots, shipments))
}

#[OpenApi(tag = "ApiTags::Recalls")]
impl RecallsApi {
    /// Recalls a lot (admins and managers), in one transaction: the lot and
    /// every lot made from it (its downstream genealogy, at any depth) are
    /// set `recalled` (with a history row each; a lot already recalled
    /// stays so, with no second row), their open stock reservations are
    /// released, and the recall is recorded with the shipments that took
    /// those lots and their customers, which it answers. Consumers who scan
    /// a code of any of those lots are warned. A lot already recalled by a
    /// recall: 409 `already_recalled` (two recalls of one lot at once: one
    /// succeeds, the other gets that 409).
    #[oai(path = "/recalls", method = "post", operation_id = "createRecall")]
    async fn create(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewRecall>,
    ) -> Result<RecallCreated, WriteStateError> {
        let reason = body.reason.parse()?;
        let root = body.lot_id;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        // Walk, lock what was found, walk again until no new lot appears. A
        // manufacturing order consuming one of these lots holds it (`FOR
        // KEY SHARE`) until it commits: once every walked lot is locked, an
        // order that linked a new lot to one of them has committed (the
        // next walk, a new snapshot, sees it) and an order that had not
        // yet started finds the lot recalled and is refused.
        let mut locked: Vec<store::LockedLot> = Vec::new();
        let (down, lots) = loop {
            let down = store::downstream(&mut tx, root, MAX_DEPTH).await?;
            if down.is_empty() {
                return Err(no_such_lot().into());
            }
            // The lots, once each, by depth (the rows repeat a lot per
            // shipment).
            let mut lots: Vec<(Uuid, i32)> = Vec::new();
            for r in &down {
                if lots.last().is_none_or(|(id, _)| *id != r.lot_id) {
                    lots.push((r.lot_id, r.depth));
                }
            }
            let new: Vec<Uuid> = lots
                .iter()
                .map(|(id, _)| *id)
                .filter(|id| !locked.iter().any(|l| l.id == *id))
                .collect();
            if new.is_empty() {
                break (down, lots);
            }
            // In one order (their ids): a second recall of the same lot
            // (or of an overlapping one) waits here, then sees this one.
            locked.extend(store::lock_lots(&mut tx, &new).await?);
        };
        let truncated = down[0].truncated;
        let ids: Vec<Uuid> = lots.iter().map(|(id, _)| *id).collect();
        if let Some((_, number)) = store::recall_of_lot(&mut tx, root).await? {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "already_recalled",
                format!("This lot was recalled already by recall RC-{number:06}."),
            )
            .into());
        }
        let recall_id = Uuid::new_v4();
        let number = store::insert_recall(
            &mut tx,
            recall_id,
            root,
            reason.as_str(),
            caller.actor.account_id,
            &caller.session.name,
            truncated,
        )
        .await?;
        let why = format!("Recall RC-{number:06}: {}", reason.as_str());
        let why: String = why.chars().take(500).collect();
        let mut depths = Vec::with_capacity(ids.len());
        let mut previous = Vec::with_capacity(ids.len());
        let mut changed = Vec::with_capacity(ids.len());
        for (id, depth) in &lots {
            let status = locked
                .iter()
                .find(|l| l.id == *id)
                .map(|l| l.status.clone())
                .unwrap_or_else(|| "recalled".into());
            let change = status != LotStatus::Recalled.as_str();
            if change {
                lots::store::change_status(
                    &mut tx,
                    &caller.actor,
                    &caller.session.name,
                    *id,
                    LotStatus::Recalled,
                    &why,
                )
                .await?;
            }
            depths.push(*depth);
            previous.push(status);
            changed.push(change);
        }
        store::insert_recall_lots(&mut tx, recall_id, &ids, &depths, &previous, &changed).await?;
        let (mut s_ids, mut s_lots, mut s_qty) = (Vec::new(), Vec::new(), Vec::new());
        for r in &down {
            if let (Some(s), Some(q)) = (r.shipment_id, r.shipped_quantity) {
                s_ids.push(s);
                s_lots.push(r.lot_id);
                s_qty.push(q);
            }
        }
        store::insert_recall_shipments(&mut tx, recall_id, &s_ids, &s_lots, &s_qty).await?;
        // Their open reservations, released as `DELETE
        // /api/stock-reservations/{id}` releases one.
        let mut released = Vec::new();
        for reservation in store::open_reservations(&mut tx, &ids).await? {
            let Some(row) = inventory::store::lock_reservation(&mut tx, reservation).await? else {
                continue;
            };
            if row.status != "active" {
                continue;
            }
            ledger::release(
                &mut tx,
                &caller.actor,
                Some(caller.session.account_id),
                &row,
            )
            .await?;
            released.push(reservation);
        }
        store::insert_recall_reservations(&mut tx, recall_id, &released).await?;
        let (row, lot_rows, shipment_rows) = load(&mut tx, recall_id).await?;
        let recall = super::recall_out(&row, lot_rows, shipment_rows, released);
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "recall.created",
            &recall_id.to_string(),
            serde_json::json!({
                "number": number,
                "lot_id": root,
                "reason": reason.as_str(),
                "lots": ids,
                "lots_changed": changed.iter().filter(|c| **c).count(),
                "shipments": recall.shipments.len(),
                "customers": recall.customers.iter().map(|c| c.customer_id).collect::<Vec<_>>(),
                "released_reservations": recall.released_reservations,
                "truncated": truncated,
            }),
        )
        .await?;
        tx.commit().await?;
        Ok(RecallCreated::Created(Json(recall)))
    }

    /// The recalls, newest first (at most 500), each with how many lots,
    /// shipments and customers it covers.
    #[oai(path = "/recalls", method = "get", operation_id = "listRecalls")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<RecallList>, AccessError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let rows = store::list_recalls(&mut conn, LIST_LIMIT).await?;
        Ok(JsonOk(RecallList {
            recalls: rows.into_iter().map(RecallSummary::from).collect(),
        }))
    }

    /// One recall: its lots (with the statuses they have now), the
    /// shipments and customers it reached, the reservations it released.
    #[oai(path = "/recalls/:id", method = "get", operation_id = "getRecall")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Recall>, LookupError> {
        let id = id.0.or(no_such_recall)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let (row, lots, shipments) = load(&mut tx, id).await?;
        let released = store::recall_reservations(&mut tx, id).await?;
        tx.commit().await?;
        Ok(JsonOk(super::recall_out(&row, lots, shipments, released)))
    }

    /// The recall's affected lots, shipments and customers as CSV: one
    /// line per shipment of a recalled lot (with its customer and
    /// quantity), and one per recalled lot that no shipment took.
    #[oai(
        path = "/recalls/:id/affected.csv",
        method = "get",
        operation_id = "getRecallAffectedCsv"
    )]
    async fn affected_csv(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<AffectedCsv, LookupError> {
        let id = id.0.or(no_such_recall)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let (row, lots, shipments) = load(&mut tx, id).await?;
        tx.commit().await?;
        let csv = super::affected_csv(&row, &lots, &shipments);
        Ok(AffectedCsv::Ok(
            PlainText(csv),
            format!(
                "attachment; filename=\"recall-RC-{:06}-affected.csv\"",
                row.number
            ),
        ))
    }
}
