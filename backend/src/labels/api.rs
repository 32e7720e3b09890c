//! The label operations: templates (`/api/label-templates`), the live
//! preview, and print jobs (`/api/print-jobs`) with their output and
//! reprints.

use chrono::NaiveDate;
use poem::Body;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, Object, OpenApi, ResponseContent};
use uuid::Uuid;

use super::render::{self, LabelData};
use super::store::{self, PrintJobRow, TemplateRow};
use super::{Design, LabelTemplate, MAX_LABELS, PrintFormat, PrintJob, TemplateName, print};
use crate::codes::{self, CodeBase, JobStatus, Serial};
use crate::db::unique_violation;
use crate::http::error::{ApiError, LookupError, QueryError, StateError, WriteStateError};
use crate::http::input::{Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::jobs;
use crate::json_response;
use crate::products;

#[derive(Default)]
pub struct LabelsApi;

#[derive(Object, Debug)]
pub struct NewLabelTemplate {
    pub name: Text<TemplateName>,
    pub design: Design,
}

#[derive(Object, Debug)]
pub struct LabelPreviewRequest {
    pub design: Design,
    /// Show the first code of this code job (else a sample code).
    pub code_job_id: Optional<Uuid>,
}

#[derive(Object, Debug)]
pub struct NewPrintJob {
    pub template_id: Uuid,
    /// A done code job: one label per code.
    pub code_job_id: Uuid,
    pub format: PrintFormat,
}

/// The organisation's label templates.
#[derive(Object, Debug)]
pub struct LabelTemplateList {
    pub templates: Vec<LabelTemplate>,
}

/// The organisation's print jobs, newest first.
#[derive(Object, Debug)]
pub struct PrintJobList {
    pub jobs: Vec<PrintJob>,
}

json_response!(
    /// Created.
    LabelTemplateCreated { 201 => Created(LabelTemplate) }
);
json_response!(
    /// Accepted: the job is queued; follow it with `GET /api/print-jobs/{id}`.
    PrintJobAccepted { 202 => Accepted(PrintJob) }
);

#[derive(ApiResponse)]
pub enum LabelPreview {
    /// The label as a PNG (8 dots per millimetre).
    #[oai(status = 200, content_type = "image/png")]
    Ok(Binary<Vec<u8>>),
}

#[derive(ApiResponse)]
pub enum TemplateRemoved {
    /// Removed from use; print jobs made with it keep their copy.
    #[oai(status = 204)]
    NoContent,
}

/// A print job's file.
#[derive(ResponseContent)]
pub enum PrintFile {
    #[oai(content_type = "application/pdf")]
    Pdf(Binary<Body>),
    #[oai(content_type = "text/plain; charset=utf-8")]
    Zpl(Binary<Body>),
}

#[derive(ApiResponse)]
pub enum PrintOutput {
    /// The PDF, or the ZPL as text.
    #[oai(status = 200)]
    Ok(PrintFile, #[oai(header = "content-disposition")] String),
}

fn no_such_template() -> ApiError {
    ApiError::not_found("No such label template in your organisation.")
}

fn no_such_print_job() -> ApiError {
    ApiError::not_found("No such print job in your organisation.")
}

fn no_such_code_job() -> ApiError {
    ApiError::not_found("No such code job in your organisation.")
}

fn name_taken(err: sqlx::Error) -> ApiError {
    match unique_violation(&err) {
        Some("label_templates_name_key") => {
            ApiError::conflict("Another label template already has this name.")
        }
        _ => ApiError::from(err),
    }
}

fn template(row: TemplateRow) -> Result<LabelTemplate, ApiError> {
    Ok(LabelTemplate {
        design: Design::from_json(&row.design).map_err(ApiError::internal)?,
        id: row.id,
        name: row.name,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

fn print_job(row: &PrintJobRow) -> PrintJob {
    PrintJob {
        id: row.id,
        code_job_id: row.code_job_id,
        template_id: row.template_id,
        template_name: row.template_name.clone(),
        // The table's CHECKs allow only these.
        format: PrintFormat::parse(&row.format).unwrap_or(PrintFormat::Pdf),
        status: JobStatus::parse(&row.status).unwrap_or(JobStatus::Failed),
        total: i64::from(row.total),
        printed: i64::from(row.printed),
        output_bytes: row.output_bytes,
        error: row.error.clone(),
        reprint_of: row.reprint_of,
        created_at: row.created_at,
        finished_at: row.finished_at,
    }
}

/// A code job whose codes can be printed: done, and not too many.
fn printable(job: &codes::CodeJobRow) -> Result<(), ApiError> {
    if JobStatus::parse(&job.status) != Some(JobStatus::Done) {
        return Err(ApiError::conflict(
            "This code job is not done yet: print its codes once they are all generated.",
        ));
    }
    if job.generated > MAX_LABELS {
        return Err(ApiError::conflict(
            "A print job holds at most 1,000,000 labels; this code job has more codes.",
        ));
    }
    Ok(())
}

/// The sample code a preview shows when no code job is named.
fn sample_label(base: &str) -> LabelData {
    let gtin = "09506000134352";
    let lot = "LOT-2026A";
    let expiry = NaiveDate::from_ymd_opt(2028, 12, 31);
    let serial = Serial(0x5A17_C0DE_0000_0001);
    LabelData {
        product_name: "Sample product".into(),
        gtin: gtin.into(),
        lot: Some(lot.into()),
        expiry,
        serial: serial.to_string(),
        uri: CodeBase::new(base, gtin, Some(lot), expiry).uri(serial),
    }
}

/// Queues a print job, in the transaction that created it.
async fn queue(
    state: &SharedState,
    caller: &TenantSession,
    job: store::NewPrintJob<'_>,
) -> Result<PrintJob, ApiError> {
    let mut tx = state.db.begin_tenant(&caller.tenant).await?;
    store::insert_print_job(&mut tx, &job).await?;
    codes::store::enqueue(&mut tx, jobs::LABELS, job.id).await?;
    let row = store::find_print_job(&mut tx, job.id)
        .await?
        .ok_or_else(no_such_print_job)?;
    tx.commit().await?;
    state.jobs.wake();
    Ok(print_job(&row))
}

#[OpenApi(tag = "ApiTags::Labels")]
impl LabelsApi {
    /// The organisation's label templates, by name.
    #[oai(
        path = "/label-templates",
        method = "get",
        operation_id = "listLabelTemplates"
    )]
    async fn list_templates(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<LabelTemplateList>, QueryError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let rows = store::list_templates(&mut conn).await?;
        let templates = rows.into_iter().map(template).collect::<Result<_, _>>()?;
        Ok(JsonOk(LabelTemplateList { templates }))
    }

    /// Save a new label template; its design is checked with the renderer
    /// (the barcode and text lines must fit, the size must be the sheet's).
    #[oai(
        path = "/label-templates",
        method = "post",
        operation_id = "createLabelTemplate"
    )]
    async fn create_template(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewLabelTemplate>,
    ) -> Result<LabelTemplateCreated, WriteStateError> {
        let name = body.name.parse()?;
        let (design, _, _) = body.design.check()?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let row = store::insert_template(
            &mut tx,
            Uuid::new_v4(),
            name.as_str(),
            &design.to_json(),
            caller.session.account_id,
        )
        .await
        .map_err(name_taken)?;
        tx.commit().await?;
        Ok(LabelTemplateCreated::Created(Json(template(row)?)))
    }

    /// One label template.
    #[oai(
        path = "/label-templates/:id",
        method = "get",
        operation_id = "getLabelTemplate"
    )]
    async fn get_template(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<LabelTemplate>, LookupError> {
        let id = id.0.or(no_such_template)?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let row = store::find_template(&mut conn, id)
            .await?
            .ok_or_else(no_such_template)?;
        Ok(JsonOk(template(row)?))
    }

    /// Replace a template's name and design (print jobs already made keep
    /// the design they were made with).
    #[oai(
        path = "/label-templates/:id",
        method = "put",
        operation_id = "updateLabelTemplate"
    )]
    async fn update_template(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: Json<NewLabelTemplate>,
    ) -> Result<JsonOk<LabelTemplate>, WriteStateError> {
        let id = id.0.or(no_such_template)?;
        let name = body.name.parse()?;
        let (design, _, _) = body.design.check()?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let row = store::update_template(&mut tx, id, name.as_str(), &design.to_json())
            .await
            .map_err(name_taken)?
            .ok_or_else(no_such_template)?;
        tx.commit().await?;
        Ok(JsonOk(template(row)?))
    }

    /// Remove a template from use.
    #[oai(
        path = "/label-templates/:id",
        method = "delete",
        operation_id = "deleteLabelTemplate"
    )]
    async fn delete_template(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<TemplateRemoved, LookupError> {
        let id = id.0.or(no_such_template)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if !store::archive_template(&mut tx, id).await? {
            return Err(no_such_template().into());
        }
        tx.commit().await?;
        Ok(TemplateRemoved::NoContent)
    }

    /// The live preview of a design: one label as a PNG, showing the first
    /// code of a code job or a sample code.
    #[oai(
        path = "/label-templates/preview",
        method = "post",
        operation_id = "previewLabel"
    )]
    async fn preview(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<LabelPreviewRequest>,
    ) -> Result<LabelPreview, WriteStateError> {
        let (_, design, _) = body.design.check()?;
        let label = match body.code_job_id.0 {
            None => sample_label(state.settings.public_url()),
            Some(id) => {
                let mut conn = state.db.read_tenant(&caller.tenant).await?;
                let job = codes::store::find_job(&mut conn, id)
                    .await?
                    .ok_or_else(no_such_code_job)?;
                let product = products::store::find(&mut conn, job.product_id).await?;
                let first = {
                    use futures_util::StreamExt;
                    let mut serials = codes::store::job_serials(&mut conn, job.seq);
                    serials.next().await.transpose()?
                };
                let Some(serial) = first.map(Serial::from_db) else {
                    return Err(ApiError::conflict("This code job has no codes yet.").into());
                };
                LabelData {
                    product_name: product.map(|p| p.product_name).unwrap_or_default(),
                    gtin: job.gtin.clone(),
                    lot: job.lot_number.clone(),
                    expiry: job.expires_on,
                    serial: serial.to_string(),
                    uri: job.code_base().uri(serial),
                }
            }
        };
        let png = tokio::task::spawn_blocking(move || render::render_png(&design, &label, 8.0))
            .await
            .map_err(ApiError::internal)?
            .map_err(|e| ApiError::invalid_input(e.to_string()))?;
        Ok(LabelPreview::Ok(Binary(png)))
    }

    /// Print a done code job's codes with a template, as PDF or ZPL, in the
    /// background; follow it with `GET /api/print-jobs/{id}`.
    #[oai(path = "/print-jobs", method = "post", operation_id = "createPrintJob")]
    async fn create_print_job(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewPrintJob>,
    ) -> Result<PrintJobAccepted, WriteStateError> {
        let (template_row, code_job) = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            let t = store::find_template(&mut conn, body.template_id)
                .await?
                .ok_or_else(no_such_template)?;
            let c = codes::store::find_job(&mut conn, body.code_job_id)
                .await?
                .ok_or_else(no_such_code_job)?;
            (t, c)
        };
        printable(&code_job)?;
        let design = Design::from_json(&template_row.design).map_err(ApiError::internal)?;
        let job = queue(
            &state,
            &caller,
            store::NewPrintJob {
                id: Uuid::new_v4(),
                code_job_id: code_job.id,
                template_id: template_row.id,
                design: &design.to_json(),
                format: body.format.as_str(),
                total: code_job.generated,
                reprint_of: None,
                created_by: caller.session.account_id,
            },
        )
        .await?;
        Ok(PrintJobAccepted::Accepted(Json(job)))
    }

    /// Print again what a print job printed, with the same design (even if
    /// its template changed since).
    #[oai(
        path = "/print-jobs/:id/reprint",
        method = "post",
        operation_id = "reprintPrintJob"
    )]
    async fn reprint(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<PrintJobAccepted, StateError> {
        let id = id.0.or(no_such_print_job)?;
        let original = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            store::find_print_job(&mut conn, id)
                .await?
                .ok_or_else(no_such_print_job)?
        };
        let job = queue(
            &state,
            &caller,
            store::NewPrintJob {
                id: Uuid::new_v4(),
                code_job_id: original.code_job_id,
                template_id: original.template_id,
                design: &original.design,
                format: &original.format,
                total: original.total,
                reprint_of: Some(original.id),
                created_by: caller.session.account_id,
            },
        )
        .await?;
        Ok(PrintJobAccepted::Accepted(Json(job)))
    }

    /// The organisation's print jobs, newest first (at most 500).
    #[oai(path = "/print-jobs", method = "get", operation_id = "listPrintJobs")]
    async fn list_print_jobs(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<PrintJobList>, QueryError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let rows = store::list_print_jobs(&mut conn, 500).await?;
        Ok(JsonOk(PrintJobList {
            jobs: rows.iter().map(print_job).collect(),
        }))
    }

    /// One print job: its status and progress.
    #[oai(path = "/print-jobs/:id", method = "get", operation_id = "getPrintJob")]
    async fn get_print_job(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<PrintJob>, LookupError> {
        let id = id.0.or(no_such_print_job)?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let row = store::find_print_job(&mut conn, id)
            .await?
            .ok_or_else(no_such_print_job)?;
        Ok(JsonOk(print_job(&row)))
    }

    /// A done print job's file: `application/pdf`, or ZPL as
    /// `text/plain`.
    #[oai(
        path = "/print-jobs/:id/output",
        method = "get",
        operation_id = "downloadPrintOutput"
    )]
    async fn output(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<PrintOutput, StateError> {
        let id = id.0.or(no_such_print_job)?;
        let row = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            store::find_print_job(&mut conn, id)
                .await?
                .ok_or_else(no_such_print_job)?
        };
        if JobStatus::parse(&row.status) != Some(JobStatus::Done) {
            return Err(ApiError::conflict(
                "This print job has no output: it is not done (or it failed).",
            )
            .into());
        }
        let format = PrintFormat::parse(&row.format).unwrap_or(PrintFormat::Pdf);
        let key = print::output_key(&caller.tenant, id, format);
        let (body, _) = state.storage.get(&key).await.map_err(|err| match err {
            object_store::Error::NotFound { .. } => {
                ApiError::not_found("This print job's file is gone. Reprint it.")
            }
            other => ApiError::internal(other),
        })?;
        let name = format!("attachment; filename=\"labels-{id}.{}\"", format.as_str());
        let file = match format {
            PrintFormat::Pdf => PrintFile::Pdf(Binary(body)),
            PrintFormat::Zpl => PrintFile::Zpl(Binary(body)),
        };
        Ok(PrintOutput::Ok(file, name))
    }
}
