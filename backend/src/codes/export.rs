//! The downloads of a job's codes, streamed in constant memory: rows come
//! from the database as a stream, are turned into CSV lines in chunks of
//! about 64 KiB, and each chunk goes to the client (through a channel of a
//! few chunks, so a slow client slows the query instead of filling memory).
//!
//! - `codes.csv`: `gtin,serial,lot,expiry,uri`, one line per code, in the
//!   order they were generated;
//! - `codes.zip`: `codes.csv` (deflated) and `manifest.json` (the job, its
//!   product, GTIN, lot, count, created_at and the SHA-256 of `codes.csv`),
//!   written by the `zip` crate's streaming writer on a blocking thread;
//! - the bulk ZIP (`/api/codes/bulk.zip`): the same writer with one CSV per
//!   job, one after the other, and a manifest listing every file.
//!
//! [`zip_of`] writes any ZIP of jobs' CSVs: a producer task streams each
//! job's CSV through a channel of its own, handed to the writer through a
//! channel of one, so at most one job's few chunks wait at a time.

use std::io::Write;

use futures_util::StreamExt;
use poem::Body;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;
use zip::write::SimpleFileOptions;

use super::{CSV_HEADER, CodeJobRow, Serial, store};
use crate::db::Db;
use crate::tenants::TenantRef;

/// Bytes gathered before a chunk is sent.
const CHUNK: usize = 64 * 1024;
/// Chunks in flight between the producer and the client.
const IN_FLIGHT: usize = 4;

type Chunk = Result<Vec<u8>, std::io::Error>;

/// A body fed by a bounded channel.
fn channel_body() -> (mpsc::Sender<Chunk>, Body) {
    let (tx, rx) = mpsc::channel::<Chunk>(IN_FLIGHT);
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|chunk| (chunk, rx))
    });
    (tx, Body::from_bytes_stream(stream))
}

/// Produces the job's CSV in chunks into `out`; stops early (Ok) when the
/// receiver is gone (the client went away).
async fn produce_csv(
    db: &Db,
    tenant: &TenantRef,
    job: &CodeJobRow,
    out: &mpsc::Sender<Chunk>,
) -> Result<(), std::io::Error> {
    let io = |e: sqlx::Error| std::io::Error::other(e);
    let base = job.code_base();
    let mut conn = db.read_tenant(tenant).await.map_err(io)?;
    let mut serials = store::job_serials(&mut conn, job.seq);
    let mut buf = Vec::with_capacity(CHUNK + 512);
    buf.extend_from_slice(CSV_HEADER.as_bytes());
    while let Some(serial) = serials.next().await {
        base.write_csv_line(Serial::from_db(serial.map_err(io)?), &mut buf);
        if buf.len() >= CHUNK {
            let full = std::mem::replace(&mut buf, Vec::with_capacity(CHUNK + 512));
            if out.send(Ok(full)).await.is_err() {
                return Ok(());
            }
        }
    }
    if !buf.is_empty() {
        let _ = out.send(Ok(buf)).await;
    }
    Ok(())
}

/// `codes.csv` of a job, streamed.
pub fn csv(db: Db, tenant: TenantRef, job: CodeJobRow) -> Body {
    let (tx, body) = channel_body();
    tokio::spawn(async move {
        if let Err(err) = produce_csv(&db, &tenant, &job, &tx).await {
            tracing::warn!(error = %err, job = %job.id, "codes download stopped");
            let _ = tx.send(Err(err)).await;
        }
    });
    body
}

/// The product of a job's file, as a manifest names it.
#[derive(serde::Serialize, Clone, Debug)]
pub struct ManifestProduct {
    pub id: uuid::Uuid,
    pub name: String,
    pub skuid: String,
}

/// One CSV of a ZIP: its name in the ZIP and the job whose codes it holds.
#[derive(Clone, Debug)]
pub struct JobFile {
    pub name: String,
    pub job: CodeJobRow,
    pub product: ManifestProduct,
}

/// What was written of one CSV: its code lines and its SHA-256 (hex), as
/// stored in the ZIP.
pub struct Written {
    pub count: u64,
    pub sha256: String,
}

/// `manifest.json` of a job's ZIP.
#[derive(serde::Serialize)]
struct Manifest<'a> {
    job_id: uuid::Uuid,
    product: &'a ManifestProduct,
    gtin: &'a str,
    lot: Option<super::Lot>,
    count: u64,
    /// RFC 3339, as the API shows it.
    created_at: String,
    /// Of `codes.csv`, as stored in this ZIP.
    codes_csv_sha256: String,
}

/// A `Write` that sends what it is given to the body, from a blocking
/// thread.
struct ChannelWriter(mpsc::Sender<Chunk>);

impl Write for ChannelWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0
            .blocking_send(Ok(data.to_vec()))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "client went away"))?;
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Buffers small writes of the ZIP writer into chunks.
fn zip_writer(
    out: mpsc::Sender<Chunk>,
) -> zip::ZipWriter<zip::write::StreamWriter<std::io::BufWriter<ChannelWriter>>> {
    zip::ZipWriter::new_stream(std::io::BufWriter::with_capacity(CHUNK, ChannelWriter(out)))
}

/// The options of a job's CSV in a ZIP: deflated, with ZIP64 records when
/// it may pass 4 GiB (a code line is about 60 bytes plus the resolver base).
fn csv_options(job: &CodeJobRow) -> SimpleFileOptions {
    let estimate = i64::from(job.quantity) * (70 + job.resolver_base.len() as i64);
    SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(estimate > 3_500_000_000)
}

/// A ZIP of the `files` (each a job's CSV, produced as for [`csv`]) and
/// `manifest.json`, whose bytes `manifest` makes from the files and what
/// was written of each, streamed. The CSVs are compressed on a blocking thread.
pub fn zip_of<M>(db: Db, tenant: TenantRef, files: Vec<JobFile>, manifest: M) -> Body
where
    M: FnOnce(&[JobFile], &[Written]) -> serde_json::Result<Vec<u8>> + Send + 'static,
{
    let (body_tx, body) = channel_body();
    let (files_tx, mut files_rx) = mpsc::channel::<mpsc::Receiver<Chunk>>(1);
    let jobs: Vec<CodeJobRow> = files.iter().map(|f| f.job.clone()).collect();
    tokio::spawn(async move {
        for job in jobs {
            let (csv_tx, csv_rx) = mpsc::channel::<Chunk>(IN_FLIGHT);
            if files_tx.send(csv_rx).await.is_err() {
                return;
            }
            if let Err(err) = produce_csv(&db, &tenant, &job, &csv_tx).await {
                let _ = csv_tx.send(Err(err)).await;
                return;
            }
        }
    });
    let error_tx = body_tx.clone();
    tokio::task::spawn_blocking(move || {
        let result = (|| -> Result<(), Box<dyn std::error::Error>> {
            let mut zip = zip_writer(body_tx);
            let mut written = Vec::with_capacity(files.len());
            for file in &files {
                let mut csv_rx = files_rx
                    .blocking_recv()
                    .ok_or("the codes stopped before every file was written")?;
                zip.start_file(file.name.as_str(), csv_options(&file.job))?;
                let mut sha = Sha256::new();
                let mut lines: u64 = 0;
                while let Some(chunk) = csv_rx.blocking_recv() {
                    let chunk = chunk?;
                    sha.update(&chunk);
                    lines += chunk.iter().filter(|b| **b == b'\n').count() as u64;
                    zip.write_all(&chunk)?;
                }
                written.push(Written {
                    // The header is a line too.
                    count: lines.saturating_sub(1),
                    sha256: hex::encode(sha.finalize()),
                });
            }
            let manifest = manifest(&files, &written)?;
            zip.start_file("manifest.json", SimpleFileOptions::default())?;
            zip.write_all(&manifest)?;
            zip.finish()?.into_inner().flush()?;
            Ok(())
        })();
        if let Err(err) = result {
            tracing::warn!(error = %err, "codes ZIP download stopped");
            let _ = error_tx.blocking_send(Err(std::io::Error::other(err.to_string())));
        }
    });
    body
}

/// `codes.zip` of a job, streamed: `codes.csv` and its manifest.
pub fn zip(db: Db, tenant: TenantRef, job: CodeJobRow, product: ManifestProduct) -> Body {
    let file = JobFile {
        name: "codes.csv".to_string(),
        job,
        product,
    };
    zip_of(db, tenant, vec![file], |files, written| {
        let (file, written) = (&files[0], &written[0]);
        serde_json::to_vec_pretty(&Manifest {
            job_id: file.job.id,
            product: &file.product,
            gtin: &file.job.gtin,
            lot: file.job.lot(),
            count: written.count,
            created_at: file.job.created_at.to_rfc3339(),
            codes_csv_sha256: written.sha256.clone(),
        })
    })
}
