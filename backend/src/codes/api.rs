//! The code-job operations under `/api/code-jobs`: start a job, follow it,
//! list them, and download its codes as CSV or ZIP.

use chrono::{DateTime, NaiveDate, Utc};
use poem::Body;
use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, Object, OpenApi};
use uuid::Uuid;

use super::{
    CodeJob, CodeJobRow, JobStatus, LotNumber, MAX_QUANTITY, ResolverBase, bulk, export, store,
};
use crate::http::error::{
    AccessError, ApiError, LookupError, QueryError, StateError, WriteError, WriteStateError,
};
use crate::http::input::{IsoDate, LotDate, Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::jobs;
use crate::json_response;
use crate::products;

#[derive(Default)]
pub struct CodesApi;

/// The lot the codes belong to (GS1 AI 10, with AI 11 and AI 17 dates).
/// A lot the product already has is reused; its dates, when given, must be
/// the stored ones.
#[derive(Object, Debug)]
pub struct NewLot {
    pub number: Text<LotNumber>,
    pub manufactured_on: Optional<LotDate>,
    pub expires_on: Optional<LotDate>,
}

/// Where new codes' URIs point.
#[derive(Object, Debug)]
pub struct CodeSettings {
    /// The resolver base new codes get: the organisation's own, or the
    /// app's public URL.
    pub resolver_base: String,
    /// Whether it is the organisation's own.
    pub custom: bool,
}

#[derive(Object, Debug)]
pub struct CodeSettingsChange {
    /// The organisation's resolver base (`https://id.example.com`); leave it
    /// out to use the app's public URL. Codes already generated keep theirs.
    pub resolver_base: Optional<Text<ResolverBase>>,
}

#[derive(Object, Debug)]
pub struct NewCodeJob {
    /// An active product of the organisation.
    pub product_id: Uuid,
    /// How many codes to generate (1 to 10,000,000), within the plan's code
    /// quota.
    #[oai(validator(minimum(value = "1"), maximum(value = "10000000")))]
    pub quantity: i64,
    pub lot: Optional<NewLot>,
}

/// The organisation's jobs, newest first, with its code quota.
#[derive(Object, Debug)]
pub struct CodeJobList {
    pub jobs: Vec<CodeJob>,
    /// How many codes the plan allows in all.
    pub code_quota: i64,
    /// How many more codes jobs may ask for.
    pub qr_codes_remaining: i64,
}

/// A lot (batch) with code jobs.
#[derive(Object, Debug)]
pub struct CodeLot {
    /// What `GET /api/codes/bulk.zip?lot_id=` names.
    pub id: Uuid,
    pub number: String,
    pub product_id: Uuid,
    pub product_name: String,
    /// The GTIN-14 of its newest job's codes.
    pub gtin: String,
    #[oai(skip_serializing_if_is_none)]
    pub manufactured_on: Option<IsoDate>,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    /// Codes of its finished jobs: what a download of it holds.
    pub codes: i64,
    /// Its jobs still generating (a download leaves them out).
    pub pending: i64,
    /// Its code jobs.
    pub jobs: i64,
    /// When its newest job was created.
    pub last_job_at: DateTime<Utc>,
}

/// The organisation's lots with code jobs, the one with the newest job
/// first.
#[derive(Object, Debug)]
pub struct CodeLotList {
    pub lots: Vec<CodeLot>,
    /// More lots exist than listed (the oldest are left out).
    pub more: bool,
}

/// What `GET /api/codes/bulk.zip` would hold for the same selection.
#[derive(Object, Debug)]
pub struct BulkSummary {
    /// CSV files: the code jobs with codes.
    pub files: i64,
    /// Codes in them.
    pub codes: i64,
    /// Jobs of the selection still generating (left out).
    pub pending: i64,
}

json_response!(
    /// Accepted: the job is queued; follow it with `GET /api/code-jobs/{id}`.
    CodeJobAccepted { 202 => Accepted(CodeJob) }
);

#[derive(ApiResponse)]
pub enum CodesCsv {
    /// `gtin,serial,lot,expiry,uri`, one line per code, streamed.
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Ok(Binary<Body>, #[oai(header = "content-disposition")] String),
}

#[derive(ApiResponse)]
pub enum CodesZip {
    /// A ZIP of CSVs of codes and `manifest.json`, streamed.
    #[oai(status = 200, content_type = "application/zip")]
    Ok(Binary<Body>, #[oai(header = "content-disposition")] String),
}

fn no_such_job() -> ApiError {
    ApiError::not_found("No such code job in your organisation.")
}

/// The most jobs one list shows.
const LIST_LIMIT: i64 = 500;
/// Lots listed at most by `listCodeLots`.
const LOTS_LIMIT: i64 = 2000;

/// A job whose codes can be downloaded: done, or failed (its codes so far).
async fn downloadable(
    state: &SharedState,
    caller: &TenantSession,
    id: Uuid,
) -> Result<CodeJobRow, ApiError> {
    let mut conn = state.db.read_tenant(&caller.tenant).await?;
    let job = store::find_job(&mut conn, id)
        .await?
        .ok_or_else(no_such_job)?;
    match JobStatus::parse(&job.status) {
        Some(JobStatus::Done | JobStatus::Failed) => Ok(job),
        _ => Err(ApiError::conflict(format!(
            "The job is still generating codes ({} of {}). Download them when it is done.",
            job.generated, job.quantity
        ))),
    }
}

async fn code_settings(
    state: &SharedState,
    caller: &TenantSession,
) -> Result<CodeSettings, ApiError> {
    let mut conn = state.db.read_tenant(&caller.tenant).await?;
    Ok(match store::resolver_base(&mut conn).await? {
        Some(base) => CodeSettings {
            resolver_base: base,
            custom: true,
        },
        None => CodeSettings {
            resolver_base: state.settings.public_url().to_string(),
            custom: false,
        },
    })
}

#[OpenApi(tag = "ApiTags::Codes")]
impl CodesApi {
    /// The resolver base new codes' GS1 Digital Link URIs start with.
    #[oai(
        path = "/code-settings",
        method = "get",
        operation_id = "getCodeSettings"
    )]
    async fn settings(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<CodeSettings>, AccessError> {
        Ok(JsonOk(code_settings(&state, &caller).await?))
    }

    /// Set the organisation's resolver base (a domain that points at this
    /// app's resolver), or go back to the app's public URL. Jobs already
    /// created keep the base they were made with.
    #[oai(
        path = "/code-settings",
        method = "put",
        operation_id = "updateCodeSettings"
    )]
    async fn update_settings(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<CodeSettingsChange>,
    ) -> Result<JsonOk<CodeSettings>, WriteError> {
        let base = body.resolver_base.parse()?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::set_resolver_base(
            &mut tx,
            base.as_ref().map(ResolverBase::as_str),
            caller.session.account_id,
        )
        .await?;
        tx.commit().await?;
        Ok(JsonOk(code_settings(&state, &caller).await?))
    }

    /// Start a job that generates serialized codes for a product (and lot).
    /// The codes needed are reserved from the plan's code quota at once; a
    /// job that would exceed it is refused.
    #[oai(path = "/code-jobs", method = "post", operation_id = "createCodeJob")]
    async fn create(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewCodeJob>,
    ) -> Result<CodeJobAccepted, WriteStateError> {
        if !(1..=MAX_QUANTITY).contains(&body.quantity) {
            return Err(ApiError::invalid_input("quantity must be 1 to 10,000,000.").into());
        }
        let quantity = body.quantity as i32;
        let lot = match body.lot.as_ref() {
            None => None,
            Some(lot) => {
                let number = lot.number.parse()?;
                let made = lot.manufactured_on.0.map(|d| d.0);
                let expires = lot.expires_on.0.map(|d| d.0);
                if let (Some(m), Some(e)) = (made, expires)
                    && e <= m
                {
                    return Err(ApiError::invalid_input(
                        "lot.expires_on must be after lot.manufactured_on.",
                    )
                    .into());
                }
                Some((number, made, expires))
            }
        };
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        // Jobs of the organisation queue here, then count what is reserved.
        let quota = store::lock_code_quota(&mut tx).await?;
        let remaining = (quota - store::reserved_codes(&mut tx).await?).max(0);
        if i64::from(quantity) > remaining {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "code_quota",
                format!(
                    "This job needs {quantity} codes, but only {remaining} remain in your plan's code quota. Generate fewer codes or ask for a higher quota."
                ),
            )
            .into());
        }
        let product = products::store::find(&mut tx, body.product_id)
            .await?
            .ok_or_else(|| ApiError::not_found("No such product in your organisation."))?;
        if product.archived_at.is_some() {
            return Err(ApiError::conflict(
                "This product is archived: codes cannot be generated for it.",
            )
            .into());
        }
        let lot_id = match &lot {
            None => None,
            Some((number, made, expires)) => {
                // The lot register's (ADR 0019): a new lot starts as
                // its product's lots do, with its history and audit rows.
                let stored = crate::lots::store::ensure(
                    &mut tx,
                    &caller.actor,
                    &caller.session.name,
                    &crate::lots::store::NewLot {
                        product_id: product.id,
                        number: number.as_str(),
                        manufactured_on: *made,
                        expires_on: *expires,
                        status: crate::lots::LotStatus::initial(product.requires_inspection),
                        reason: crate::lots::REGISTERED,
                    },
                )
                .await?;
                let differs = |given: &Option<NaiveDate>, kept: &Option<NaiveDate>| {
                    given.is_some() && given != kept
                };
                if differs(made, &stored.manufactured_on) || differs(expires, &stored.expires_on) {
                    return Err(ApiError::conflict(format!(
                        "Lot {} of this product already exists with other dates. Leave the dates out to use it, or use another lot number.",
                        number.as_str()
                    ))
                    .into());
                }
                Some(stored.id)
            }
        };
        let resolver_base = match store::resolver_base(&mut tx).await? {
            Some(base) => base,
            None => state.settings.public_url().to_string(),
        };
        let id = Uuid::new_v4();
        store::insert_job(
            &mut tx,
            &store::NewJob {
                id,
                product_id: product.id,
                lot_id,
                gtin: &product.gtin,
                resolver_base: &resolver_base,
                quantity,
                created_by: caller.session.account_id,
            },
        )
        .await?;
        store::enqueue(&mut tx, jobs::CODES, id).await?;
        let job = store::find_job(&mut tx, id)
            .await?
            .ok_or_else(no_such_job)?;
        tx.commit().await?;
        state.jobs.wake();
        Ok(CodeJobAccepted::Accepted(Json(job.to_api())))
    }

    /// The organisation's code jobs, newest first (at most 500), of one
    /// product or all, with its code quota and what remains of it.
    #[oai(path = "/code-jobs", method = "get", operation_id = "listCodeJobs")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// Only this product's jobs.
        product_id: Query<Option<Uuid>>,
    ) -> Result<JsonOk<CodeJobList>, QueryError> {
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let jobs = store::list_jobs(&mut tx, product_id.0, LIST_LIMIT).await?;
        let (_, quota) = products::store::plan(&mut tx).await?;
        let reserved = store::reserved_codes(&mut tx).await?;
        drop(tx);
        Ok(JsonOk(CodeJobList {
            jobs: jobs.iter().map(CodeJobRow::to_api).collect(),
            code_quota: quota,
            qr_codes_remaining: (quota - reserved).max(0),
        }))
    }

    /// One code job: its status and progress.
    #[oai(path = "/code-jobs/:id", method = "get", operation_id = "getCodeJob")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<CodeJob>, LookupError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let job = store::find_job(&mut conn, id.0.or(no_such_job)?)
            .await?
            .ok_or_else(no_such_job)?;
        Ok(JsonOk(job.to_api()))
    }

    /// The job's codes as CSV (`gtin,serial,lot,expiry,uri`), once it is
    /// done (or failed: the codes it generated).
    #[oai(
        path = "/code-jobs/:id/codes.csv",
        method = "get",
        operation_id = "downloadCodesCsv"
    )]
    async fn csv(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<CodesCsv, StateError> {
        let job = downloadable(&state, &caller, id.0.or(no_such_job)?).await?;
        let name = format!("attachment; filename=\"codes-{}.csv\"", job.id);
        let body = export::csv(state.db.clone(), caller.tenant.clone(), job);
        Ok(CodesCsv::Ok(Binary(body), name))
    }

    /// The job's codes as a ZIP of `codes.csv` and `manifest.json` (job,
    /// product, GTIN, lot, count, created_at, SHA-256 of `codes.csv`).
    #[oai(
        path = "/code-jobs/:id/codes.zip",
        method = "get",
        operation_id = "downloadCodesZip"
    )]
    async fn zip(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<CodesZip, StateError> {
        let job = downloadable(&state, &caller, id.0.or(no_such_job)?).await?;
        let product = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            products::store::find(&mut conn, job.product_id)
                .await?
                .ok_or_else(no_such_job)?
        };
        let name = format!("attachment; filename=\"codes-{}.zip\"", job.id);
        let product = export::ManifestProduct {
            id: product.id,
            name: product.product_name,
            skuid: product.skuid,
        };
        let body = export::zip(state.db.clone(), caller.tenant.clone(), job, product);
        Ok(CodesZip::Ok(Binary(body), name))
    }

    /// The organisation's lots (batches) that have code jobs, the one with
    /// the newest job first (at most 2,000): the codes of each ready to
    /// download, and its jobs still generating.
    #[oai(path = "/codes/lots", method = "get", operation_id = "listCodeLots")]
    async fn lots(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<CodeLotList>, QueryError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let mut rows = store::code_lots(&mut conn, LOTS_LIMIT + 1).await?;
        conn.finish().await?;
        let more = rows.len() as i64 > LOTS_LIMIT;
        rows.truncate(LOTS_LIMIT as usize);
        let lots = rows
            .into_iter()
            .map(|r| CodeLot {
                id: r.id,
                number: r.number,
                product_id: r.product_id,
                product_name: r.product_name,
                gtin: r.gtin,
                manufactured_on: r.manufactured_on.map(IsoDate),
                expires_on: r.expires_on.map(IsoDate),
                codes: r.codes,
                pending: r.pending,
                jobs: r.jobs,
                last_job_at: r.last_job_at,
            })
            .collect();
        Ok(JsonOk(CodeLotList { lots, more }))
    }

    /// What the bulk download (`GET /api/codes/bulk.zip`) of the same
    /// selection would hold: its files, their codes, and the jobs still
    /// generating; or the error the download would give. Give `lot_id`
    /// (repeated, at most 100) or `from` and `to`, not both.
    #[oai(
        path = "/codes/bulk",
        method = "get",
        operation_id = "summarizeCodesBulk"
    )]
    async fn bulk_summary(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// A lot whose codes to count; repeat it for more lots.
        lot_id: Query<Option<Vec<Uuid>>>,
        /// The first day (UTC) of the jobs to count.
        from: Query<Option<IsoDate>>,
        /// The last day (UTC) of the jobs to count.
        to: Query<Option<IsoDate>>,
    ) -> Result<JsonOk<BulkSummary>, StateError> {
        let selection = bulk::Selection::parse(
            lot_id.0.unwrap_or_default(),
            from.0.map(|d| d.0),
            to.0.map(|d| d.0),
        )?;
        let jobs = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            let jobs = selection.jobs(&mut conn).await?;
            conn.finish().await?;
            jobs
        };
        let (files, pending) = bulk::files(&selection, jobs)?;
        Ok(JsonOk(BulkSummary {
            files: files.len() as i64,
            codes: files.iter().map(|f| i64::from(f.job.generated)).sum(),
            pending: pending.len() as i64,
        }))
    }

    /// The codes of chosen lots (batches), or of the code jobs created from
    /// `from` to `to` (days in UTC, both included), as one ZIP, streamed:
    /// one CSV per code job (`gtin,serial,lot,expiry,uri`, as `codes.csv`)
    /// and `manifest.json` listing each file with its job, product, GTIN,
    /// lot, count and SHA-256, and the jobs of the selection still
    /// generating (left out). Give `lot_id` (repeated, at most 100) or
    /// `from` and `to`, not both.
    #[oai(
        path = "/codes/bulk.zip",
        method = "get",
        operation_id = "downloadCodesBulk"
    )]
    async fn bulk_zip(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// A lot whose codes to download; repeat it for more lots.
        lot_id: Query<Option<Vec<Uuid>>>,
        /// The first day (UTC) of the jobs to download.
        from: Query<Option<IsoDate>>,
        /// The last day (UTC) of the jobs to download.
        to: Query<Option<IsoDate>>,
    ) -> Result<CodesZip, StateError> {
        let selection = bulk::Selection::parse(
            lot_id.0.unwrap_or_default(),
            from.0.map(|d| d.0),
            to.0.map(|d| d.0),
        )?;
        let jobs = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            selection.jobs(&mut conn).await?
        };
        let (files, pending) = bulk::files(&selection, jobs)?;
        let name = format!("attachment; filename=\"{}\"", selection.file_name());
        let body = bulk::zip(
            state.db.clone(),
            caller.tenant.clone(),
            selection,
            files,
            pending,
        );
        Ok(CodesZip::Ok(Binary(body), name))
    }
}
