//! The batch-update operations: one upload for every uploader and the
//! manual form, the history, one update with its problems, its result as
//! CSV, and the CSV and XLSX templates.

use std::io::SeekFrom;

use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiRequest, ApiResponse, Multipart, Object, OpenApi};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncSeekExt};
use uuid::Uuid;

use super::{
    BatchUpdate, Format, HEAD_BYTES, MAX_FILE_BYTES, MAX_ROWS, RowProblem, StoredForm,
    UpdateStatus, check_row, file_key, read, store,
};
use crate::db::unique_violation;
use crate::http::error::{AccessError, ApiError, LookupError, WriteConflictError};
use crate::http::input::{Day, DryRun, Optional, OrDefault, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::{jobs, json_response};

#[derive(Default)]
pub struct BatchUpdatesApi;

/// Serials one form may list.
pub const MAX_FORM_SERIALS: usize = 10_000;

/// A file to upload.
#[derive(Multipart, Debug)]
pub struct BatchFile {
    /// A CSV (UTF-8) or XLSX file whose header row names the columns
    /// `code`, `gtin`, `batch_number`, `manufacturing_date`, `expiry_date`,
    /// `licence_number`, and up to 1,000,000 rows below it.
    pub file: Upload,
}

/// Codes of one code job, by their place in it (1 = its first code, as in
/// its download).
#[derive(Object, Debug)]
pub struct CodeRange {
    pub code_job_id: Uuid,
    #[oai(validator(minimum(value = "1")))]
    pub first: i32,
    #[oai(validator(minimum(value = "1")))]
    pub last: i32,
}

/// The manual form: the same batch data for a range of codes and/or a list
/// of serials.
#[derive(Object, Debug)]
pub struct BatchForm {
    /// A code job's codes from `first` to `last`.
    pub range: Optional<CodeRange>,
    /// Codes by serial (11 characters) or URI, at most 10,000.
    pub serials: OrDefault<Vec<String>>,
    /// GTIN-8, -12, -13 or -14, with its check digit.
    pub gtin: String,
    /// 1 to 20 characters of GS1's character set 82 (AI 10).
    pub batch_number: String,
    /// `YYYY-MM-DD`, not in the future.
    pub manufacturing_date: Text<Day>,
    /// `YYYY-MM-DD`, after the manufacturing date.
    pub expiry_date: Text<Day>,
    /// The manufacturing licence number (1 to 50 characters).
    pub licence_number: String,
}

/// A file, or the form's rows.
#[derive(ApiRequest, Debug)]
pub enum BatchUpdateBody {
    /// A CSV or XLSX file (`multipart/form-data`).
    File(BatchFile),
    /// The manual form (`application/json`).
    Form(Json<BatchForm>),
}

json_response!(
    /// Queued: follow its progress with `GET /api/batch-updates/{id}`.
    BatchUpdateAccepted { 202 => Accepted(BatchUpdate) }
);

/// The organisation's batch updates, newest first.
#[derive(Object, Debug)]
pub struct BatchUpdateList {
    /// At most 100.
    pub updates: Vec<BatchUpdate>,
}

/// One update with its problems and, once applied, its batches.
#[derive(Object, Debug)]
pub struct BatchUpdateDetail {
    #[oai(flatten)]
    pub update: BatchUpdate,
    /// The first 1,000 problems, by row (`error_count` counts them all).
    pub errors: Vec<RowProblem>,
    /// The batches it assigned, with their codes (empty unless applied).
    pub batches: Vec<store::BatchSummary>,
}

#[derive(ApiResponse)]
pub enum CsvFile {
    /// A CSV file.
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Ok(
        Binary<Vec<u8>>,
        #[oai(header = "content-disposition")] String,
    ),
}

#[derive(ApiResponse)]
pub enum XlsxFile {
    /// An XLSX workbook.
    #[oai(
        status = 200,
        content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )]
    Ok(
        Binary<Vec<u8>>,
        #[oai(header = "content-disposition")] String,
    ),
}

fn no_such_update() -> ApiError {
    ApiError::not_found("No such batch update in your organisation.")
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!(
            "The file is larger than {} MB: split it into smaller files.",
            MAX_FILE_BYTES / (1024 * 1024)
        ),
    )
}

fn wrong_type(message: &str) -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_file",
        message,
    )
}

/// The file's type, from its first bytes.
fn sniff(head: &[u8]) -> Result<Format, ApiError> {
    if head.starts_with(b"PK\x03\x04") {
        return Ok(Format::Xlsx);
    }
    if head.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        return Err(wrong_type(
            "This is an old .xls workbook: save it as .xlsx or as CSV UTF-8 and upload it again.",
        ));
    }
    // UTF-8 text (the head may end inside a character) without NULs.
    let text = match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(err) => err.error_len().is_none() && head.len() == HEAD_BYTES,
    };
    if !text || head.contains(&0) {
        return Err(wrong_type(
            "The file is neither a CSV (UTF-8 text) nor an .xlsx workbook. Download the template to see the format.",
        ));
    }
    Ok(Format::Csv)
}

/// A file name to show: its last path part, printable, at most 255 characters.
fn display_name(raw: Option<&str>, format: Format) -> String {
    let last = raw
        .unwrap_or_default()
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default();
    let name: String = last.chars().filter(|c| !c.is_control()).take(255).collect();
    let name = name.trim();
    if name.is_empty() {
        format!("upload.{}", format.as_str())
    } else {
        name.to_string()
    }
}

/// The form's fields, checked on their own (the codes are checked by the
/// job): a 400 naming every problem.
fn check_form(form: &BatchForm) -> Result<StoredForm, ApiError> {
    let serials = &form.serials.0;
    if form.range.as_ref().is_none() && serials.is_empty() {
        return Err(ApiError::invalid_input(
            "Give the codes: a range of a code job's codes, or a list of serials.",
        ));
    }
    if serials.len() > MAX_FORM_SERIALS {
        return Err(ApiError::invalid_input(format!(
            "The form lists {} serials: at most {MAX_FORM_SERIALS}. Upload a file for more.",
            serials.len()
        )));
    }
    if let Some(range) = form.range.as_ref() {
        if range.last < range.first {
            return Err(ApiError::invalid_input(
                "range.last must not be before range.first.",
            ));
        }
        if i64::from(range.last) - i64::from(range.first) >= i64::from(MAX_ROWS) {
            return Err(ApiError::invalid_input(format!(
                "A range holds at most {MAX_ROWS} codes."
            )));
        }
    }
    let stored = StoredForm {
        range: form.range.as_ref().map(|r| super::StoredRange {
            code_job_id: r.code_job_id,
            first: r.first,
            last: r.last,
        }),
        serials: serials.iter().map(|s| s.trim().to_string()).collect(),
        gtin: form.gtin.clone(),
        batch_number: form.batch_number.clone(),
        manufacturing_date: form.manufacturing_date.as_str().to_string(),
        expiry_date: form.expiry_date.as_str().to_string(),
        licence_number: form.licence_number.clone(),
    };
    let today = chrono::Utc::now().date_naive();
    if let Err(problems) = check_row(1, stored.cells(super::NO_CODE), today) {
        let reasons: Vec<&str> = problems.iter().map(|p| p.reason.as_str()).collect();
        return Err(ApiError::invalid_input(reasons.join(" ")));
    }
    Ok(stored)
}

/// What a new update is made of, once its file is stored.
struct Received {
    source: &'static str,
    file_name: String,
    format: Format,
    size: i64,
    sha256: String,
}

/// Stores an uploaded file under the update's key, hashing it on the way.
async fn receive_file(
    state: &SharedState,
    caller: &TenantSession,
    id: Uuid,
    file: Upload,
) -> Result<Received, ApiError> {
    let size = file.size();
    if size == 0 {
        return Err(ApiError::invalid_input("The file is empty."));
    }
    if size > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let raw_name = file.file_name().map(str::to_string);
    let mut reader = file.into_async_read();
    let mut head = vec![0u8; HEAD_BYTES.min(size)];
    reader
        .read_exact(&mut head)
        .await
        .map_err(|_| ApiError::invalid_input("The file could not be read."))?;
    let format = sniff(&head)?;
    if format == Format::Csv {
        read::check_csv_head(&head).map_err(|p| ApiError::invalid_input(p.reason))?;
    }
    reader
        .seek(SeekFrom::Start(0))
        .await
        .map_err(|_| ApiError::invalid_input("The file could not be read."))?;
    let key = file_key(&caller.tenant, id, format);
    let mut hasher = Sha256::new();
    state
        .storage
        .put_reader(&key, reader, |piece| hasher.update(piece))
        .await?;
    Ok(Received {
        source: "file",
        file_name: display_name(raw_name.as_deref(), format),
        format,
        size: size as i64,
        sha256: hex::encode(hasher.finalize()),
    })
}

/// Stores the form's rows (as JSON) under the update's key.
async fn receive_form(
    state: &SharedState,
    caller: &TenantSession,
    id: Uuid,
    form: &BatchForm,
) -> Result<Received, ApiError> {
    let stored = check_form(form)?;
    if let Some(range) = &stored.range {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let job = crate::codes::store::find_job(&mut conn, range.code_job_id).await?;
        conn.finish().await?;
        let job = job.ok_or_else(|| {
            ApiError::conflict("No code job of your organisation has this id (range.code_job_id).")
        })?;
        if range.last > job.generated {
            return Err(ApiError::conflict(format!(
                "That code job has {} codes so far: range.last must be at most that.",
                job.generated
            )));
        }
    }
    let bytes = serde_json::to_vec(&stored).map_err(anyhow::Error::from)?;
    let sha256 = hex::encode(Sha256::digest(&bytes));
    let size = bytes.len() as i64;
    let key = file_key(&caller.tenant, id, Format::Json);
    state
        .storage
        .put(&key, bytes)
        .await
        .map_err(anyhow::Error::from)?;
    Ok(Received {
        source: "form",
        file_name: "Manual entry".into(),
        format: Format::Json,
        size,
        sha256,
    })
}

/// The 409 for content that was already applied.
fn already_applied(earlier: &BatchUpdate) -> ApiError {
    let what = if earlier.source == "form" {
        "The same entry"
    } else {
        "This file"
    };
    let state = if earlier.status == UpdateStatus::Applied {
        format!(
            "was already applied on {} by {}",
            earlier.created_at.format("%Y-%m-%d %H:%M UTC"),
            earlier.created_by_name
        )
    } else {
        format!("is being applied (uploaded by {})", earlier.created_by_name)
    };
    ApiError::new(
        StatusCode::CONFLICT,
        "already_applied",
        format!(
            "{what} {state} (update {}): it is not applied twice. To change codes again, upload a file with the new data.",
            earlier.id
        ),
    )
}

/// One update with its problems and batches; 404 when the organisation
/// has no such update.
async fn detail(
    state: &SharedState,
    caller: &TenantSession,
    id: Uuid,
) -> Result<BatchUpdateDetail, ApiError> {
    let mut conn = state.db.read_tenant(&caller.tenant).await?;
    let update = store::find(&mut conn, id)
        .await?
        .ok_or_else(no_such_update)?;
    let errors = store::problems(&mut conn, id).await?;
    let batches = store::batches_of(&mut conn, id).await?;
    conn.finish().await?;
    Ok(BatchUpdateDetail {
        update,
        errors,
        batches,
    })
}

fn csv_attachment(name: &str) -> String {
    format!("attachment; filename=\"{name}\"")
}

#[OpenApi(tag = "ApiTags::BatchUpdates")]
impl BatchUpdatesApi {
    /// Upload batch data for codes: a CSV or XLSX file (multipart, field
    /// `file`), or the manual form (JSON). The update is queued (202) and
    /// checked row by row; with `dry_run=true` it only reports problems,
    /// otherwise it is applied whole, or (any problem) not at all. The same
    /// content is applied once: uploading it again while or after it is
    /// applied is a 409.
    #[oai(
        path = "/batch-updates",
        method = "post",
        operation_id = "createBatchUpdate"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// `true`: only check; `false`: check, then apply.
        dry_run: Query<Text<DryRun>>,
        body: BatchUpdateBody,
    ) -> Result<BatchUpdateAccepted, WriteConflictError> {
        let dry_run = dry_run.0.parse()?;
        let id = Uuid::new_v4();
        let received = match body {
            BatchUpdateBody::File(file) => receive_file(&state, &caller, id, file.file).await?,
            BatchUpdateBody::Form(form) => receive_form(&state, &caller, id, &form).await?,
        };
        let key = file_key(&caller.tenant, id, received.format);
        let stored = async {
            let mut tx = state.db.begin_tenant(&caller.tenant).await?;
            let new = store::NewUpdate {
                id,
                source: received.source,
                file_name: &received.file_name,
                format: received.format.as_str(),
                size_bytes: received.size,
                content_sha256: &received.sha256,
                dry_run,
                created_by: caller.session.account_id,
                created_by_name: &caller.session.name,
            };
            if let Err(err) = store::insert(&mut tx, &new).await {
                drop(tx);
                if unique_violation(&err).is_some() {
                    let mut conn = state.db.read_tenant(&caller.tenant).await?;
                    let earlier = store::applied_with_hash(&mut conn, &received.sha256).await?;
                    conn.finish().await?;
                    return Err(earlier.map_or_else(
                        || ApiError::conflict("This content is being applied: try again shortly."),
                        |e| already_applied(&e),
                    ));
                }
                return Err(err.into());
            }
            crate::codes::store::enqueue(&mut tx, jobs::BATCH_UPDATES, id).await?;
            let row = store::find(&mut tx, id).await?.ok_or_else(no_such_update)?;
            tx.commit().await?;
            Ok::<_, ApiError>(row)
        }
        .await;
        match stored {
            Ok(row) => {
                state.jobs.wake();
                Ok(BatchUpdateAccepted::Accepted(Json(row)))
            }
            Err(err) => {
                let _ = state.storage.delete(&key).await;
                Err(err.into())
            }
        }
    }

    /// The organisation's batch updates (the upload history), newest first.
    #[oai(
        path = "/batch-updates",
        method = "get",
        operation_id = "listBatchUpdates"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<BatchUpdateList>, AccessError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let rows = store::list(&mut conn, 100).await?;
        conn.finish().await?;
        Ok(JsonOk(BatchUpdateList { updates: rows }))
    }

    /// A CSV template: the header row with the columns in order, and one
    /// example row.
    #[oai(
        path = "/batch-updates/template.csv",
        method = "get",
        operation_id = "getBatchUpdateTemplateCsv"
    )]
    async fn template_csv(&self, _caller: TenantSession) -> Result<CsvFile, AccessError> {
        Ok(CsvFile::Ok(
            Binary(super::template::csv().into_bytes()),
            csv_attachment("batch-update-template.csv"),
        ))
    }

    /// An XLSX template: the columns on the first sheet (code and GTIN
    /// formatted as text, so a spreadsheet keeps their leading zeros), and
    /// what each column takes on a second sheet.
    #[oai(
        path = "/batch-updates/template.xlsx",
        method = "get",
        operation_id = "getBatchUpdateTemplateXlsx"
    )]
    async fn template_xlsx(&self, _caller: TenantSession) -> Result<XlsxFile, AccessError> {
        let bytes = super::template::xlsx().map_err(ApiError::from)?;
        Ok(XlsxFile::Ok(
            Binary(bytes),
            csv_attachment("batch-update-template.xlsx"),
        ))
    }

    /// One update: its status and progress, its first 1,000 problems and,
    /// once applied, the batches it assigned.
    #[oai(
        path = "/batch-updates/:id",
        method = "get",
        operation_id = "getBatchUpdate"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<BatchUpdateDetail>, LookupError> {
        let id = id.0.or(no_such_update)?;
        Ok(JsonOk(detail(&state, &caller, id).await?))
    }

    /// An update's result as CSV: its problems (`row,column,reason`) when
    /// it has some, otherwise the batches it assigned (or, for a dry run,
    /// that it is valid).
    #[oai(
        path = "/batch-updates/:id/result.csv",
        method = "get",
        operation_id = "getBatchUpdateResult"
    )]
    async fn result(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<CsvFile, LookupError> {
        let id = id.0.or(no_such_update)?;
        let d = detail(&state, &caller, id).await?;
        let text = super::template::result_csv(&d.update, &d.errors, &d.batches);
        Ok(CsvFile::Ok(
            Binary(text.into_bytes()),
            csv_attachment(&format!("batch-update-{id}-result.csv")),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_told_apart_by_their_bytes() {
        assert_eq!(sniff(b"PK\x03\x04rest").unwrap(), Format::Xlsx);
        assert_eq!(sniff(b"code,gtin\n").unwrap(), Format::Csv);
        assert!(sniff(&[0xD0, 0xCF, 0x11, 0xE0, 0, 0]).is_err());
        assert!(sniff(&[0x89, b'P', b'N', b'G', 0, 0xff]).is_err());
    }

    #[test]
    fn file_names_lose_their_paths_and_control_characters() {
        assert_eq!(
            display_name(Some("C:\\x\\a\u{7}.csv"), Format::Csv),
            "a.csv"
        );
        assert_eq!(display_name(None, Format::Xlsx), "upload.xlsx");
    }
}
