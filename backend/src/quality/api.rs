//! `/api/inspections`, `/api/nonconformances` and
//! `/api/lots/{id}/coa.pdf`: recording inspections (which hold or release
//! the lot), the nonconformance board and its CAPA steps, and a lot's
//! certificate of analysis.

use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, Object, OpenApi};
use uuid::Uuid;

use super::{
    Check, DecimalText, Inspection, MAX_CHECKS, NcState, Nonconformance, Parameter, Severity,
    Verdict, certificate, missing_for, store, verdict,
};
use crate::audit;
use crate::http::error::{ApiError, QueryError, StateError, WriteLookupError, WriteStateError};
use crate::http::fields::{LongText, ShortText};
use crate::http::input::{Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;
use crate::lots::{self, LotStatus};
use crate::organisation;

#[derive(Default)]
pub struct QualityApi;

/// One check of a new inspection: limits (`min` and/or `max`) or an
/// `expected` text, never both, and the `value` found.
#[derive(Object, Debug)]
pub struct NewCheck {
    /// What was checked, e.g. `pH` or `Appearance` (1 to 100 characters;
    /// each parameter once per inspection).
    pub parameter: Text<Parameter>,
    /// The lower limit, a decimal as text (e.g. `6.5`).
    pub min: Optional<Text<DecimalText>>,
    /// The upper limit, a decimal as text (e.g. `7.5`); not below `min`.
    pub max: Optional<Text<DecimalText>>,
    /// The text expected (e.g. `Clear`), for a check without limits.
    pub expected: Optional<Text<ShortText>>,
    /// What was found (1 to 200 characters): a decimal for a check with
    /// limits, which passes when `min <= value <= max`; otherwise text,
    /// which passes when it equals `expected`, ignoring case and the spaces
    /// around it.
    pub value: Text<ShortText>,
}

#[derive(Object, Debug)]
pub struct NewInspection {
    /// The lot inspected.
    pub lot_id: Uuid,
    /// 1 to 50 checks. The inspection passes when every check passes.
    #[oai(validator(min_items = 1, max_items = 50))]
    pub checks: Vec<NewCheck>,
}

/// The inspection recorded.
#[derive(Object, Debug)]
pub struct InspectionRecorded {
    pub id: Uuid,
    pub verdict: Verdict,
    /// The lot's status after the inspection: `held` after a failure (unless
    /// it was rejected or recalled), `released` after a pass of a lot in
    /// quarantine, otherwise unchanged.
    pub lot_status: LotStatus,
}

/// Inspections, newest first.
#[derive(Object, Debug)]
pub struct InspectionList {
    pub inspections: Vec<Inspection>,
}

#[derive(Object, Debug)]
pub struct NewNonconformance {
    /// The lot it concerns, if any.
    pub lot_id: Optional<Uuid>,
    /// A short title (1 to 200 characters).
    pub title: Text<ShortText>,
    /// What was found (1 to 5000 characters).
    pub description: Text<LongText>,
    pub severity: Severity,
}

/// A change of a nonconformance: its next state and/or its CAPA fields.
#[derive(Object, Debug)]
pub struct NonconformanceChange {
    /// The `version` the change was made on; a change of an older version
    /// is refused (409 `stale`).
    #[oai(validator(minimum(value = "1")))]
    pub version: i32,
    /// The next state, exactly one step on: open -> investigating -> action
    /// -> verification -> closed (anything else: 409 `invalid_transition`).
    /// Entering `action` needs a root cause, `verification` a corrective
    /// action too, `closed` a verification note as well (409 `incomplete`).
    pub state: Optional<NcState>,
    /// Why it happened (1 to 5000 characters).
    pub root_cause: Optional<Text<LongText>>,
    /// What was done about it (1 to 5000 characters).
    pub corrective_action: Optional<Text<LongText>>,
    /// How the action was found to work (1 to 5000 characters).
    pub verification_note: Optional<Text<LongText>>,
}

/// Nonconformances, newest first.
#[derive(Object, Debug)]
pub struct NonconformanceList {
    pub nonconformances: Vec<Nonconformance>,
}

json_response!(
    /// Recorded; the lot's status is changed with it.
    InspectionCreated { 201 => Created(InspectionRecorded) }
);
json_response!(
    /// Raised, in state `open`.
    NonconformanceCreated { 201 => Created(Nonconformance) }
);

#[derive(ApiResponse)]
pub enum CertificateFile {
    /// The certificate as a PDF (its text is extractable).
    #[oai(status = 200, content_type = "application/pdf")]
    Ok(
        Binary<Vec<u8>>,
        #[oai(header = "content-disposition")] String,
    ),
}

/// The inspections and nonconformances a list shows at most.
const LIST_LIMIT: i64 = 500;

fn no_such_lot() -> ApiError {
    ApiError::not_found("No such lot in your organisation.")
}

fn no_such_nonconformance() -> ApiError {
    ApiError::not_found("No such nonconformance in your organisation.")
}

fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, code, message)
}

/// Parses the checks of a new inspection (each parameter once).
fn parse_checks(checks: &[NewCheck]) -> Result<Vec<Check>, ApiError> {
    if checks.is_empty() || checks.len() > MAX_CHECKS {
        return Err(ApiError::invalid_input(format!(
            "An inspection needs 1 to {MAX_CHECKS} checks; this one has {}.",
            checks.len()
        )));
    }
    let mut parsed: Vec<Check> = Vec::with_capacity(checks.len());
    for (i, c) in checks.iter().enumerate() {
        let n = i + 1;
        let at = |field: &str| format!("checks[{n}].{field}");
        let parameter = c.parameter.parse()?;
        if parsed
            .iter()
            .any(|p| p.parameter.to_lowercase() == parameter.to_lowercase())
        {
            return Err(ApiError::invalid_input(format!(
                "checks[{n}]: the parameter '{parameter}' is checked twice; check each parameter once."
            )));
        }
        parsed.push(Check::new(
            n,
            parameter,
            c.min.as_ref().map(|m| m.parse_as(&at("min"))).transpose()?,
            c.max.as_ref().map(|m| m.parse_as(&at("max"))).transpose()?,
            c.expected
                .as_ref()
                .map(|e| e.parse_as(&at("expected")))
                .transpose()?,
            c.value.parse_as(&at("value"))?,
        )?);
    }
    Ok(parsed)
}

/// What an inspection with `verdict` does to a lot in `status`.
fn lot_after(status: LotStatus, verdict: Verdict) -> Option<LotStatus> {
    match (verdict, status) {
        (Verdict::Fail, LotStatus::Quarantine | LotStatus::Released) => Some(LotStatus::Held),
        (Verdict::Pass, LotStatus::Quarantine) => Some(LotStatus::Released),
        _ => None,
    }
}

#[OpenApi(tag = "ApiTags::Quality")]
impl QualityApi {
    /// Records an inspection of a lot and decides its verdict (see the
    /// checks' rules). A failed inspection puts the lot on `held` (a lot
    /// already rejected or recalled keeps its status); a passed one releases
    /// a lot in `quarantine` (a held, rejected or recalled lot is released
    /// only by a person, with a reason). The inspection, the lot's status,
    /// its history and the audit records are written together.
    #[oai(
        path = "/inspections",
        method = "post",
        operation_id = "createInspection"
    )]
    async fn create_inspection(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewInspection>,
    ) -> Result<InspectionCreated, WriteLookupError> {
        let checks = parse_checks(&body.checks)?;
        let outcome = verdict(&checks);
        let id = Uuid::new_v4();
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let lot = store::lock_lot(&mut tx, body.lot_id)
            .await?
            .ok_or_else(no_such_lot)?;
        let status = lot.status().ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("unknown lot status {}", lot.status))
        })?;
        store::insert_inspection(
            &mut tx,
            id,
            lot.id,
            outcome,
            caller.session.account_id,
            &caller.session.name,
            &checks,
        )
        .await?;
        let failed: Vec<&str> = checks
            .iter()
            .filter(|c| !c.passes())
            .map(|c| c.parameter.as_str())
            .collect();
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "quality.inspection_recorded",
            &id.to_string(),
            serde_json::json!({
                "lot_id": lot.id, "lot": lot.number, "verdict": outcome.as_str(),
                "checks": checks.len(), "failed": failed,
            }),
        )
        .await?;
        let mut after = status;
        if let Some(to) = lot_after(status, outcome) {
            let reason = match outcome {
                Verdict::Fail => format!("Inspection {id} failed: {}", failed.join(", ")),
                Verdict::Pass => format!("Inspection {id} passed"),
            };
            let reason: String = reason.chars().take(500).collect();
            lots::store::change_status(
                &mut tx,
                &caller.actor,
                &caller.session.name,
                lot.id,
                to,
                &reason,
            )
            .await?
            .ok_or_else(no_such_lot)?;
            after = to;
        }
        tx.commit().await?;
        Ok(InspectionCreated::Created(Json(InspectionRecorded {
            id,
            verdict: outcome,
            lot_status: after,
        })))
    }

    /// The inspections of a lot (`lot_id`), or the organisation's newest
    /// 500, newest first, each with its checks.
    #[oai(
        path = "/inspections",
        method = "get",
        operation_id = "listInspections"
    )]
    async fn list_inspections(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        lot_id: Query<Option<Uuid>>,
    ) -> Result<JsonOk<InspectionList>, QueryError> {
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let inspections = store::inspections(&mut tx, lot_id.0, LIST_LIMIT).await?;
        drop(tx);
        Ok(JsonOk(InspectionList { inspections }))
    }

    /// A lot's certificate of analysis: a PDF with the lot, its product,
    /// every inspection with each check's limits, value and result, and the
    /// verdict (the newest inspection's). 409 `not_inspected` for a lot
    /// without inspections.
    #[oai(
        path = "/lots/:id/coa.pdf",
        method = "get",
        operation_id = "getLotCertificate"
    )]
    async fn certificate(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<CertificateFile, StateError> {
        let id = id.0.or(no_such_lot)?;
        // One snapshot for the lot and its inspections.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let lot = store::lot(&mut tx, id).await?.ok_or_else(no_such_lot)?;
        let inspections = store::inspections(&mut tx, Some(id), i64::MAX).await?;
        let organisation = organisation::store::display_name(&mut tx).await?;
        drop(tx);
        if inspections.is_empty() {
            return Err(conflict(
                "not_inspected",
                format!(
                    "Lot {} has no inspection yet: record one before issuing its certificate.",
                    lot.number
                ),
            )
            .into());
        }
        let pdf = certificate::render(&organisation, &lot, &inspections, chrono::Utc::now())
            .map_err(|err| ApiError::internal(anyhow::anyhow!("certificate: {err}")))?;
        let safe: String = lot
            .number
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        Ok(CertificateFile::Ok(
            Binary(pdf),
            format!("attachment; filename=\"coa-{safe}.pdf\""),
        ))
    }

    /// Raises a nonconformance (state `open`), about a lot or not.
    #[oai(
        path = "/nonconformances",
        method = "post",
        operation_id = "createNonconformance"
    )]
    async fn create_nonconformance(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewNonconformance>,
    ) -> Result<NonconformanceCreated, WriteLookupError> {
        let title = body.title.parse_as("title")?;
        let description = body.description.parse_as("description")?;
        let id = Uuid::new_v4();
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if let Some(lot_id) = body.lot_id.0 {
            store::lot(&mut tx, lot_id).await?.ok_or_else(no_such_lot)?;
        }
        store::insert_nonconformance(
            &mut tx,
            id,
            body.lot_id.0,
            &title,
            &description,
            body.severity,
            caller.session.account_id,
            &caller.session.name,
        )
        .await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "quality.nonconformance_raised",
            &id.to_string(),
            serde_json::json!({
                "title": title, "severity": body.severity.as_str(), "lot_id": body.lot_id.0,
            }),
        )
        .await?;
        let nc = store::nonconformance(&mut tx, id)
            .await?
            .ok_or_else(no_such_nonconformance)?;
        tx.commit().await?;
        Ok(NonconformanceCreated::Created(Json(nc)))
    }

    /// The organisation's nonconformances (the newest 500), newest first,
    /// with the states each entered: the board.
    #[oai(
        path = "/nonconformances",
        method = "get",
        operation_id = "listNonconformances"
    )]
    async fn list_nonconformances(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<NonconformanceList>, QueryError> {
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let nonconformances = store::nonconformances(&mut tx, LIST_LIMIT).await?;
        drop(tx);
        Ok(JsonOk(NonconformanceList { nonconformances }))
    }

    /// Moves a nonconformance to its next state and/or sets its CAPA fields
    /// (root cause, corrective action, verification note), given the
    /// `version` it was read at. The order is enforced (409
    /// `invalid_transition`, also for any change of a closed one), so are
    /// the fields each state needs (409 `incomplete`) and the version (409
    /// `stale`). Each step is recorded and audited.
    #[oai(
        path = "/nonconformances/:id",
        method = "patch",
        operation_id = "updateNonconformance"
    )]
    async fn update_nonconformance(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: Json<NonconformanceChange>,
    ) -> Result<JsonOk<Nonconformance>, WriteStateError> {
        let id = id.0.or(no_such_nonconformance)?;
        let root_cause = body.root_cause.parse_as("root_cause")?;
        let corrective_action = body.corrective_action.parse_as("corrective_action")?;
        let verification_note = body.verification_note.parse_as("verification_note")?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if !store::lock_nonconformance(&mut tx, id).await? {
            return Err(no_such_nonconformance().into());
        }
        let mut nc = store::nonconformance(&mut tx, id)
            .await?
            .ok_or_else(no_such_nonconformance)?;
        if nc.version != body.version {
            return Err(conflict(
                "stale",
                format!(
                    "This nonconformance was changed by someone else (it is at version {}, your change was made on version {}). Reload it and make your change again.",
                    nc.version, body.version
                ),
            )
            .into());
        }
        let from = nc.state;
        let changes_fields =
            root_cause.is_some() || corrective_action.is_some() || verification_note.is_some();
        if from == NcState::Closed && (changes_fields || body.state.0.is_some()) {
            return Err(conflict(
                "invalid_transition",
                "This nonconformance is closed: it is never changed again.",
            )
            .into());
        }
        if let Some(to) = body.state.0
            && Some(to) != from.next()
        {
            let next = from.next().map_or(String::new(), |n| {
                format!(" Its next state is {}.", n.as_str())
            });
            return Err(conflict(
                "invalid_transition",
                format!(
                    "A nonconformance in {} cannot move to {}: it moves one step at a time, open -> investigating -> action -> verification -> closed.{next}",
                    from.as_str(),
                    to.as_str()
                ),
            )
            .into());
        }
        if root_cause.is_some() {
            nc.root_cause = root_cause;
        }
        if corrective_action.is_some() {
            nc.corrective_action = corrective_action;
        }
        if verification_note.is_some() {
            nc.verification_note = verification_note;
        }
        if let Some(to) = body.state.0 {
            let missing = missing_for(
                to,
                nc.root_cause.is_some(),
                nc.corrective_action.is_some(),
                nc.verification_note.is_some(),
            );
            if !missing.is_empty() {
                return Err(conflict(
                    "incomplete",
                    format!(
                        "To move to {} this nonconformance needs: {}.",
                        to.as_str(),
                        missing.join(", ").replace('_', " ")
                    ),
                )
                .into());
            }
            nc.state = to;
        }
        if !changes_fields && body.state.0.is_none() {
            // Nothing to change: the nonconformance as it is.
            drop(tx);
            return Ok(JsonOk(nc));
        }
        store::update_nonconformance(&mut tx, &nc).await?;
        if nc.state != from {
            store::insert_step(
                &mut tx,
                id,
                Some(from),
                nc.state,
                caller.session.account_id,
                &caller.session.name,
            )
            .await?;
            audit::record_own_tenant(
                &mut tx,
                &caller.actor,
                "quality.nonconformance_moved",
                &id.to_string(),
                serde_json::json!({ "from": from.as_str(), "to": nc.state.as_str() }),
            )
            .await?;
        }
        if changes_fields {
            let fields: Vec<&str> = [
                ("root_cause", body.root_cause.0.is_some()),
                ("corrective_action", body.corrective_action.0.is_some()),
                ("verification_note", body.verification_note.0.is_some()),
            ]
            .into_iter()
            .filter(|(_, set)| *set)
            .map(|(name, _)| name)
            .collect();
            audit::record_own_tenant(
                &mut tx,
                &caller.actor,
                "quality.capa_updated",
                &id.to_string(),
                serde_json::json!({ "fields": fields, "state": nc.state.as_str() }),
            )
            .await?;
        }
        let nc = store::nonconformance(&mut tx, id)
            .await?
            .ok_or_else(no_such_nonconformance)?;
        tx.commit().await?;
        Ok(JsonOk(nc))
    }
}
