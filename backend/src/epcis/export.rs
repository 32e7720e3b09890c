//! The export's document, streamed (issue 23): a code job's commissioning
//! is stored as one row (its class and quantity), and rendered on export
//! as ObjectEvents (action ADD, bizStep commissioning) listing the job's
//! codes as EPCs, at most [`MAX_EPCS_PER_EVENT`] each. The codes come from
//! the database as a stream and the document goes to the client in chunks
//! of about 64 KiB through a channel of a few chunks (as the code
//! downloads, `codes::export`), so a job of ten million codes is never in
//! memory.
//!
//! An EPC is the code's SGTIN (`urn:epc:id:sgtin:{company prefix}.{indicator
//! and item reference}.{serial}`) when the organisation's GS1 company prefix
//! (`org_settings.gs1_company_prefix`) is known and the GTIN is one of its
//! own; otherwise (the prefix's length, and so the split, is unknown) its
//! GS1 Digital Link URI on GS1's canonical host,
//! `https://id.gs1.org/01/{gtin}/21/{serial}`, which EPCIS 2.0 accepts as
//! an EPC as well. A serial is 11 base-62 characters, which neither form
//! needs to escape.
//!
//! The first event of a job keeps the stored eventID; the next ones get
//! `urn:uuid:`s derived from it and their place (the same on every export).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use poem::Body;
use poem_openapi::payload::Payload;
use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::types::Type;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;
use uuid::Uuid;

use super::store::EventRow;
use crate::codes::{CodeJobRow, Serial, store as codes_store};
use crate::db::Db;
use crate::tenants::TenantRef;

/// The most EPCs one commissioning event of the export lists.
pub const MAX_EPCS_PER_EVENT: usize = 10_000;

/// Bytes gathered before a chunk is sent.
const CHUNK: usize = 64 * 1024;
/// Chunks in flight between the producer and the client.
const IN_FLIGHT: usize = 4;

type Chunk = Result<Vec<u8>, std::io::Error>;

/// A JSON answer written as a stream: the contract describes it as any
/// JSON value (as `Json<Value>`), the body is produced while it is sent.
pub struct StreamedJson(pub Body);

impl Payload for StreamedJson {
    const CONTENT_TYPE: &'static str = "application/json; charset=utf-8";
    fn schema_ref() -> MetaSchemaRef {
        <Value as Type>::schema_ref()
    }
    fn register(registry: &mut Registry) {
        <Value as Type>::register(registry);
    }
}

impl poem::IntoResponse for StreamedJson {
    fn into_response(self) -> poem::Response {
        poem::Response::builder()
            .content_type(Self::CONTENT_TYPE)
            .body(self.0)
    }
}

/// How the export names a job's codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpcForm {
    /// `urn:epc:id:sgtin:{company prefix}.{indicator + item reference}.`
    Sgtin(String),
    /// `https://id.gs1.org/01/{gtin}/21/`
    DigitalLink(String),
}

impl EpcForm {
    /// The form for a GTIN-14: an SGTIN when `company_prefix` (6 to 12
    /// digits) is the GTIN's own, else the Digital Link URI.
    pub fn new(gtin: &str, company_prefix: Option<&str>) -> Self {
        if let Some(cp) = company_prefix
            && gtin.len() == 14
            && gtin.bytes().all(|b| b.is_ascii_digit())
            && (6..=12).contains(&cp.len())
            && gtin[1..1 + cp.len()] == *cp
        {
            let item = &gtin[1 + cp.len()..13];
            return Self::Sgtin(format!("urn:epc:id:sgtin:{cp}.{}{item}.", &gtin[..1]));
        }
        Self::DigitalLink(format!("https://id.gs1.org/01/{gtin}/21/"))
    }

    /// Appends the EPC of `serial`, as a JSON string.
    pub fn write(&self, serial: Serial, out: &mut Vec<u8>) {
        let prefix = match self {
            Self::Sgtin(p) | Self::DigitalLink(p) => p,
        };
        out.push(b'"');
        out.extend_from_slice(prefix.as_bytes());
        out.extend_from_slice(&serial.encode());
        out.push(b'"');
    }
}

/// The eventID of the `index`th event (from 0) a stored commissioning is
/// rendered as: its own for the first, a `urn:uuid:` derived from it and
/// `index` for the others.
pub fn part_event_id(event_id: &str, index: usize) -> String {
    if index == 0 {
        return event_id.to_string();
    }
    let digest = Sha256::digest(format!("{event_id}#{index}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    format!(
        "urn:uuid:{}",
        uuid::Builder::from_custom_bytes(bytes).into_uuid()
    )
}

/// A commissioning event's JSON-LD without its closing brace and without
/// `quantityList` (its EPCs follow), with the part's eventID.
fn event_head(row: &EventRow, index: usize) -> Result<Vec<u8>, serde_json::Error> {
    let mut event = super::export_event(row);
    if let Some(map) = event.as_object_mut() {
        map.remove("quantityList");
        map.insert(
            "eventID".into(),
            Value::String(part_event_id(&row.event_id, index)),
        );
    }
    let mut head = serde_json::to_vec(&event)?;
    // An object's last byte is its `}`.
    head.pop();
    head.extend_from_slice(br#","epcList":["#);
    Ok(head)
}

/// What the export writes: the page's rows, and the jobs of its
/// commissioning rows.
pub struct Page {
    pub rows: Vec<EventRow>,
    pub jobs: HashMap<Uuid, CodeJobRow>,
    pub company_prefix: Option<String>,
    pub created: DateTime<Utc>,
}

/// The document of `page`, streamed.
pub fn document(db: Db, tenant: TenantRef, page: Page) -> Body {
    let (tx, rx) = mpsc::channel::<Chunk>(IN_FLIGHT);
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|chunk| (chunk, rx))
    });
    tokio::spawn(async move {
        if let Err(err) = produce(&db, &tenant, page, &tx).await {
            tracing::warn!(error = %err, "EPCIS export stopped");
            let _ = tx.send(Err(err)).await;
        }
    });
    Body::from_bytes_stream(stream)
}

/// Sends `buf` when it is full; false when the client went away.
async fn flush(buf: &mut Vec<u8>, out: &mpsc::Sender<Chunk>, force: bool) -> bool {
    if buf.len() < CHUNK && !force {
        return true;
    }
    let full = std::mem::replace(buf, Vec::with_capacity(CHUNK + 1024));
    out.send(Ok(full)).await.is_ok()
}

async fn produce(
    db: &Db,
    tenant: &TenantRef,
    page: Page,
    out: &mpsc::Sender<Chunk>,
) -> Result<(), std::io::Error> {
    fn io(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> std::io::Error {
        std::io::Error::other(e)
    }
    let shell = serde_json::to_string(&super::document(Vec::new(), page.created)).map_err(io)?;
    let (head, tail) = shell
        .split_once(r#""eventList":[]"#)
        .ok_or_else(|| io("the document has no event list"))?;
    let mut buf = Vec::with_capacity(CHUNK + 1024);
    buf.extend_from_slice(head.as_bytes());
    buf.extend_from_slice(br#""eventList":["#);
    let mut first = true;
    let mut conn = None;
    for row in &page.rows {
        let job = (row.source == "codes")
            .then(|| row.code_job_id.and_then(|id| page.jobs.get(&id)))
            .flatten();
        let Some(job) = job else {
            if !std::mem::take(&mut first) {
                buf.push(b',');
            }
            serde_json::to_writer(&mut buf, &super::export_event(row)).map_err(io)?;
            if !flush(&mut buf, out, false).await {
                return Ok(());
            }
            continue;
        };
        if conn.is_none() {
            conn = Some(db.read_tenant(tenant).await.map_err(io)?);
        }
        let Some(conn) = conn.as_mut() else {
            continue;
        };
        let form = EpcForm::new(&job.gtin, page.company_prefix.as_deref());
        let mut serials = codes_store::job_serials(conn, job.seq);
        let (mut part, mut in_part) = (0usize, 0usize);
        while let Some(serial) = serials.next().await {
            let serial = Serial::from_db(serial.map_err(io)?);
            if in_part == MAX_EPCS_PER_EVENT {
                buf.extend_from_slice(b"]}");
                part += 1;
                in_part = 0;
            }
            if in_part == 0 {
                if !std::mem::take(&mut first) {
                    buf.push(b',');
                }
                buf.extend_from_slice(&event_head(row, part).map_err(io)?);
            } else {
                buf.push(b',');
            }
            form.write(serial, &mut buf);
            in_part += 1;
            if !flush(&mut buf, out, false).await {
                return Ok(());
            }
        }
        if in_part > 0 {
            buf.extend_from_slice(b"]}");
        } else {
            // A job without code rows (never the case for a finished one):
            // the event as stored.
            if !std::mem::take(&mut first) {
                buf.push(b',');
            }
            serde_json::to_writer(&mut buf, &super::export_event(row)).map_err(io)?;
        }
    }
    buf.extend_from_slice(b"]");
    buf.extend_from_slice(tail.as_bytes());
    flush(&mut buf, out, true).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgtins_when_the_company_prefix_is_the_gtins_else_digital_links() {
        // GS1's example: GTIN 09506000134352, company prefix 9506000.
        let mut out = Vec::new();
        EpcForm::new("09506000134352", Some("9506000")).write(Serial(0), &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"urn:epc:id:sgtin:9506000.013435.00000000000\""
        );
        let sgtin = "urn:epc:id:sgtin:9506000.013435.00000000000";
        assert_eq!(
            super::super::gtin_of(sgtin).as_deref(),
            Some("09506000134352")
        );
        for prefix in [None, Some("4000001"), Some("12345")] {
            let mut out = Vec::new();
            EpcForm::new("09506000134352", prefix).write(Serial(61), &mut out);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                "\"https://id.gs1.org/01/09506000134352/21/0000000000z\"",
                "{prefix:?}"
            );
        }
    }

    #[test]
    fn parts_keep_the_first_id_and_derive_the_others() {
        assert_eq!(part_event_id("urn:uuid:x", 0), "urn:uuid:x");
        let one = part_event_id("urn:uuid:x", 1);
        assert!(one.starts_with("urn:uuid:") && one.len() == 45, "{one}");
        assert_eq!(one, part_event_id("urn:uuid:x", 1));
        assert_ne!(one, part_event_id("urn:uuid:x", 2));
        assert_ne!(one, part_event_id("urn:uuid:y", 1));
    }
}
