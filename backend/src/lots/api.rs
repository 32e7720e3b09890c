//! The lot register's operations under `/api/lots`: list, register, read
//! with its status history, and change a lot's status with a reason.

use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use uuid::Uuid;

use super::{Lot, LotStatus, REGISTERED, StatusHistoryEntry, StatusReason, store};
use crate::codes::LotNumber;
use crate::http::error::{ApiError, LookupError, QueryError, WriteLookupError, WriteStateError};
use crate::http::input::{LotDate, Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;
use crate::products;

#[derive(Default)]
pub struct LotsApi;

/// The most lots one list shows.
pub const LIST_LIMIT: i64 = 500;

/// The organisation's lots, newest first.
#[derive(Object, Debug)]
pub struct LotList {
    pub lots: Vec<Lot>,
    /// More lots match than listed (the oldest are left out): narrow the
    /// list by product or status.
    pub more: bool,
}

/// A lot with its status history.
#[derive(Object, Debug)]
pub struct LotDetail {
    #[oai(flatten)]
    pub lot: Lot,
    /// Every change of its status, oldest first; the first is its
    /// registration.
    pub history: Vec<StatusHistoryEntry>,
}

/// A lot to register.
#[derive(Object, Debug)]
pub struct LotRegistration {
    /// An active product of the organisation.
    pub product_id: Uuid,
    /// The lot number (GS1 AI 10), unique per product.
    pub number: Text<LotNumber>,
    /// Date of manufacture (GS1 AI 11).
    pub manufactured_on: Optional<LotDate>,
    /// Expiry date (GS1 AI 17), after the date of manufacture.
    pub expires_on: Optional<LotDate>,
}

#[derive(Object, Debug)]
pub struct LotStatusChange {
    /// The new status.
    pub status: LotStatus,
    /// Why (1 to 500 characters): shown in the lot's history and audited.
    pub reason: Text<StatusReason>,
}

json_response!(
    /// Registered: the lot starts in `quarantine` when its product requires
    /// inspection, else `released`.
    LotCreated { 201 => Created(Lot) }
);

fn no_such_lot() -> ApiError {
    ApiError::not_found("No such lot in your organisation.")
}

fn no_such_product() -> ApiError {
    ApiError::not_found("No such product in your organisation.")
}

#[OpenApi(tag = "ApiTags::Lots")]
impl LotsApi {
    /// The organisation's lots, newest first (at most 500), of one product
    /// and in one status when given. `expired` says whether a lot's expiry
    /// date has passed.
    #[oai(path = "/lots", method = "get", operation_id = "listLots")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// Only this product's lots.
        product_id: Query<Option<Uuid>>,
        /// Only lots in this status.
        status: Query<Option<LotStatus>>,
    ) -> Result<JsonOk<LotList>, QueryError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let mut rows = store::list(&mut conn, product_id.0, status.0, LIST_LIMIT + 1).await?;
        let more = rows.len() as i64 > LIST_LIMIT;
        rows.truncate(LIST_LIMIT as usize);
        Ok(JsonOk(LotList {
            lots: rows.iter().map(super::LotRow::to_api).collect(),
            more,
        }))
    }

    /// Register a lot of a product: its number (GS1 AI 10, unique per
    /// product) and, optionally, its dates of manufacture and expiry. It
    /// starts in `quarantine` when the product requires inspection, else
    /// `released`; the registration is the first entry of its history.
    #[oai(path = "/lots", method = "post", operation_id = "createLot")]
    async fn create(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<LotRegistration>,
    ) -> Result<LotCreated, WriteStateError> {
        let number = body.number.parse()?;
        let made = body.manufactured_on.0.map(|d| d.0);
        let expires = body.expires_on.0.map(|d| d.0);
        if let (Some(m), Some(e)) = (made, expires)
            && e <= m
        {
            return Err(
                ApiError::invalid_input("expires_on must be after manufactured_on.").into(),
            );
        }
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let product = products::store::find(&mut tx, body.product_id)
            .await?
            .ok_or_else(no_such_product)?;
        if product.archived_at.is_some() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "product_archived",
                "This product is archived: lots cannot be registered for it.",
            )
            .into());
        }
        let new = store::NewLot {
            product_id: product.id,
            number: number.as_str(),
            manufactured_on: made,
            expires_on: expires,
            status: LotStatus::initial(product.requires_inspection),
            reason: REGISTERED,
        };
        let id = store::register(&mut tx, &caller.actor, &caller.session.name, &new)
            .await?
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::CONFLICT,
                    "lot_exists",
                    format!(
                        "This product already has a lot {}. Use that lot, or give the new one another number.",
                        number.as_str()
                    ),
                )
            })?;
        let lot = store::find(&mut tx, id).await?.ok_or_else(no_such_lot)?;
        tx.commit().await?;
        Ok(LotCreated::Created(Json(lot.to_api())))
    }

    /// One lot with its status history, oldest change first.
    #[oai(path = "/lots/:id", method = "get", operation_id = "getLot")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<LotDetail>, LookupError> {
        let id = id.0.or(no_such_lot)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let lot = store::find(&mut tx, id).await?.ok_or_else(no_such_lot)?;
        let history = store::history(&mut tx, id).await?;
        tx.commit().await?;
        Ok(JsonOk(LotDetail {
            lot: lot.to_api(),
            history: history
                .iter()
                .map(super::StatusHistoryRow::to_api)
                .collect(),
        }))
    }

    /// Change a lot's status (hold it, release it, reject or recall it),
    /// with the reason, which its history and the audit log keep with who
    /// and when. A recalled or held lot's codes warn consumers on the scan
    /// page. Answers the lot as it now is.
    #[oai(
        path = "/lots/:id/status",
        method = "post",
        operation_id = "changeLotStatus"
    )]
    async fn change_status(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: Json<LotStatusChange>,
    ) -> Result<JsonOk<Lot>, WriteLookupError> {
        let id = id.0.or(no_such_lot)?;
        let reason = body.reason.parse()?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::change_status(
            &mut tx,
            &caller.actor,
            &caller.session.name,
            id,
            body.status,
            reason.as_str(),
        )
        .await?
        .ok_or_else(no_such_lot)?;
        let lot = store::find(&mut tx, id).await?.ok_or_else(no_such_lot)?;
        tx.commit().await?;
        Ok(JsonOk(lot.to_api()))
    }
}
