//! The work of a print job, run by [`crate::jobs`]: the code job's codes are
//! read from the database as a stream, rendered on a blocking thread into a
//! temporary file (constant memory: the renderer writes page by page), and
//! the file is stored in the object store. Progress is written about twice
//! a second; the output exists only once the job is done. A job stopped by
//! a restart starts again from its first label.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::render::{self, LabelData, RenderError};
use super::{Design, PrintFormat, store};
use crate::codes::{self, CodeJobRow, JobStatus, Serial};
use crate::db::Db;
use crate::http::state::SharedState;
use crate::products;
use crate::storage::Storage;
use crate::tenants::TenantRef;

/// Labels handed to the renderer at a time.
const BATCH: usize = 256;

/// The object-store key of a print job's output.
pub fn output_key(tenant: &TenantRef, id: Uuid, format: PrintFormat) -> object_store::path::Path {
    Storage::key(tenant, "prints", id, format.as_str())
}

/// A reason the job cannot succeed, whatever the tries (marked failed).
struct Permanent(String);

/// Runs (or restarts) the print job `job_id` of `tenant`.
pub async fn run(
    state: &SharedState,
    tenant: &TenantRef,
    job_id: Uuid,
    last_try: bool,
) -> anyhow::Result<()> {
    let outcome = print(state, tenant, job_id).await;
    let reason = match outcome {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(Permanent(reason))) => reason,
        Err(err) if last_try => {
            tracing::error!(error = ?err, job = %job_id, "print job failed for good");
            "Printing stopped after repeated errors. Start the print job again.".to_string()
        }
        Err(err) => return Err(err),
    };
    let mut tx = state.db.begin_tenant(tenant).await?;
    store::fail_print_job(&mut tx, job_id, &reason).await?;
    tx.commit().await?;
    Ok(())
}

async fn print(
    state: &SharedState,
    tenant: &TenantRef,
    job_id: Uuid,
) -> anyhow::Result<Result<(), Permanent>> {
    let db = &state.db;
    let (job, codes_job, product_name) = {
        let mut tx = db.begin_tenant(tenant).await?;
        let Some(job) = store::lock_print_job(&mut tx, job_id).await? else {
            return Ok(Ok(()));
        };
        if !matches!(
            JobStatus::parse(&job.status),
            Some(JobStatus::Queued | JobStatus::Running)
        ) {
            return Ok(Ok(()));
        }
        let Some(codes_job) = codes::store::find_job(&mut tx, job.code_job_id).await? else {
            return Ok(Err(Permanent("Its code job no longer exists.".into())));
        };
        let product = products::store::find(&mut tx, codes_job.product_id).await?;
        store::start_print_job(&mut tx, job_id).await?;
        tx.commit().await?;
        let name = product.map(|p| p.product_name).unwrap_or_default();
        (job, codes_job, name)
    };
    let format = PrintFormat::parse(&job.format)
        .ok_or_else(|| anyhow::anyhow!("print job {job_id}: unknown format {}", job.format))?;
    let (_, render_design, sheet) = match Design::from_json(&job.design)
        .map_err(|e| e.to_string())
        .and_then(|d| d.check().map_err(|e| e.message))
    {
        Ok(checked) => checked,
        Err(reason) => {
            return Ok(Err(Permanent(format!(
                "Its label design is invalid: {reason}"
            ))));
        }
    };

    let file = std::env::temp_dir().join(format!("brandops-print-{job_id}.{}", format.as_str()));
    let result = render_to_file(
        db,
        tenant,
        &job,
        &codes_job,
        product_name,
        (render_design, sheet, format),
        &file,
    )
    .await;
    match result {
        Ok(Ok(bytes)) => {
            let key = output_key(tenant, job_id, format);
            let stored = state.storage.put_file(&key, &file).await;
            let _ = tokio::fs::remove_file(&file).await;
            stored?;
            let mut tx = db.begin_tenant(tenant).await?;
            store::finish_print_job(&mut tx, job_id, bytes as i64).await?;
            tx.commit().await?;
            Ok(Ok(()))
        }
        other => {
            let _ = tokio::fs::remove_file(&file).await;
            other.map(|r| r.map(drop))
        }
    }
}

/// Renders every code of the code job into `file`; the file's size.
async fn render_to_file(
    db: &Db,
    tenant: &TenantRef,
    job: &store::PrintJobRow,
    codes_job: &CodeJobRow,
    product_name: String,
    (design, sheet, format): (render::LabelDesign, render::Sheet, PrintFormat),
    file: &PathBuf,
) -> anyhow::Result<Result<u64, Permanent>> {
    let printed = Arc::new(AtomicU64::new(0));
    let (tx, mut rx) = mpsc::channel::<Vec<LabelData>>(4);
    let out = std::fs::File::create(file)?;
    let progress = printed.clone();
    let renderer = tokio::task::spawn_blocking(move || -> Result<u64, RenderError> {
        let labels = std::iter::from_fn(move || rx.blocking_recv()).flatten();
        let mut out = BufWriter::with_capacity(256 * 1024, out);
        let report = |n| progress.store(n, Ordering::Relaxed);
        let written = match format {
            PrintFormat::Pdf => render::render_pdf(&design, &sheet, labels, &mut out, report)?,
            PrintFormat::Zpl => render::render_zpl(&design, labels, &mut out, report)?,
        };
        out.flush()?;
        Ok(written)
    });

    // Feeds the renderer while writing progress; stops early when it stops.
    let feed = async {
        // Owned here: when this ends, the renderer sees the end of labels.
        let tx = tx;
        let base = codes_job.code_base();
        let lot = codes_job.lot_number.clone();
        let expiry = codes_job.expires_on;
        let mut conn = db.read_tenant(tenant).await?;
        let mut serials = codes::store::job_serials(&mut conn, codes_job.seq);
        let mut batch = Vec::with_capacity(BATCH);
        while let Some(serial) = serials.next().await {
            let serial = Serial::from_db(serial?);
            batch.push(LabelData {
                product_name: product_name.clone(),
                gtin: codes_job.gtin.clone(),
                lot: lot.clone(),
                expiry,
                serial: serial.to_string(),
                uri: base.uri(serial),
            });
            if batch.len() == BATCH {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                if tx.send(full).await.is_err() {
                    return Ok::<_, anyhow::Error>(());
                }
            }
        }
        if !batch.is_empty() {
            let _ = tx.send(batch).await;
        }
        Ok(())
    };
    let report_progress = async {
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tick.tick().await;
            let n = printed.load(Ordering::Relaxed).min(i32::MAX as u64) as i32;
            if let Ok(mut tx) = db.begin_tenant(tenant).await {
                let _ = store::set_printed(&mut tx, job.id, n).await;
                let _ = tx.commit().await;
            }
        }
    };
    let fed = tokio::select! {
        fed = feed => fed,
        () = report_progress => unreachable!("progress reporting never ends"),
    };
    let rendered = renderer.await?;
    fed?;
    match rendered {
        Ok(_) => Ok(Ok(std::fs::metadata(file)?.len())),
        Err(RenderError::Io(err)) => Err(err.into()),
        Err(err) => Ok(Err(Permanent(err.to_string()))),
    }
}
