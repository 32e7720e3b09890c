//! The downloads of a job's codes, streamed in constant memory: rows come
//! from the database as a stream, are turned into CSV lines in chunks of
//! about 64 KiB, and each chunk goes to the client (through a channel of a
//! few chunks, so a slow client slows the query instead of filling memory).
//!
//! - `codes.csv`: `gtin,serial,lot,expiry,uri`, one line per code, in the
//!   order they were generated;
//! - `codes.zip`: `codes.csv` (deflated) and `manifest.json` (the job, its
//!   product, GTIN, lot, count, created_at and the SHA-256 of `codes.csv`),
//!   written by the `zip` crate's streaming writer on a blocking thread.

use std::io::Write;

use futures_util::StreamExt;
use poem::Body;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;
use zip::write::SimpleFileOptions;

use super::{CSV_HEADER, CodeJobRow, Serial, store};
use crate::db::Db;
use crate::products::Product;
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

/// `manifest.json` of a job's ZIP.
#[derive(serde::Serialize)]
struct Manifest<'a> {
    job_id: uuid::Uuid,
    product: ManifestProduct<'a>,
    gtin: &'a str,
    lot: Option<super::Lot>,
    count: i32,
    /// RFC 3339, as the API shows it.
    created_at: String,
    /// Of `codes.csv`, as stored in this ZIP.
    codes_csv_sha256: String,
}

#[derive(serde::Serialize)]
struct ManifestProduct<'a> {
    id: uuid::Uuid,
    name: &'a str,
    skuid: &'a str,
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

/// `codes.zip` of a job, streamed: the CSV is produced as for [`csv`] and
/// compressed on a blocking thread, which then adds the manifest.
pub fn zip(db: Db, tenant: TenantRef, job: CodeJobRow, product: Product) -> Body {
    let (body_tx, body) = channel_body();
    let (csv_tx, mut csv_rx) = mpsc::channel::<Chunk>(IN_FLIGHT);
    let job_id = job.id;
    let producer_job = job.clone();
    tokio::spawn(async move {
        if let Err(err) = produce_csv(&db, &tenant, &producer_job, &csv_tx).await {
            let _ = csv_tx.send(Err(err)).await;
        }
    });
    let error_tx = body_tx.clone();
    tokio::task::spawn_blocking(move || {
        let result = (|| -> Result<(), Box<dyn std::error::Error>> {
            let mut zip = zip_writer(body_tx);
            // Over 4 GiB a ZIP needs ZIP64 records; a code line is about
            // 60 bytes plus the resolver base.
            let estimate = i64::from(job.quantity) * (70 + job.resolver_base.len() as i64);
            let options = SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .large_file(estimate > 3_500_000_000);
            zip.start_file("codes.csv", options)?;
            let mut sha = Sha256::new();
            while let Some(chunk) = csv_rx.blocking_recv() {
                let chunk = chunk?;
                sha.update(&chunk);
                zip.write_all(&chunk)?;
            }
            let manifest = Manifest {
                job_id: job.id,
                product: ManifestProduct {
                    id: product.id,
                    name: &product.product_name,
                    skuid: &product.skuid,
                },
                gtin: &job.gtin,
                lot: job.lot(),
                count: job.generated,
                created_at: job.created_at.to_rfc3339(),
                codes_csv_sha256: hex::encode(sha.finalize()),
            };
            zip.start_file("manifest.json", SimpleFileOptions::default())?;
            serde_json::to_writer_pretty(&mut zip, &manifest)?;
            zip.finish()?.into_inner().flush()?;
            Ok(())
        })();
        if let Err(err) = result {
            tracing::warn!(error = %err, job = %job_id, "codes ZIP download stopped");
            let _ = error_tx.blocking_send(Err(std::io::Error::other(err.to_string())));
        }
    });
    body
}
