//! The export's document, streamed (issue 23). Two kinds of stored rows
//! stand for many EPCs, which the export renders from the code rows and
//! never stores one per code:
//!
//! - a code job's commissioning (`source = 'codes'`, `code_job_id`), stored
//!   as one row with its class and quantity: ObjectEvents (action ADD,
//!   bizStep commissioning) whose `epcList` is all positions of the job;
//! - a shipment package's aggregation (`shipment_id`, `shipment_package`),
//!   stored as one row with what the package holds, lot class by lot
//!   class: AggregationEvents (action ADD, bizStep packing, the SSCC as
//!   `parentID`) whose `childEPCs` are the ranges of codes the package took
//!   when it shipped (`shipment_codes`); those units leave the class's
//!   quantity, and what stays of the `childQuantityList` (units without
//!   codes) goes on the first event.
//!
//! Both are a [`Serialised`]: runs of (job, first position, last position)
//! written into one EPC list, at most [`MAX_EPCS_PER_EVENT`] per event. The
//! codes come from the database as a stream and the document goes to the
//! client in chunks of about 64 KiB through a channel of a few chunks (as
//! the code downloads, `codes::export`), so a job of ten million codes is
//! never in memory.
//!
//! An EPC is the code's SGTIN (`urn:epc:id:sgtin:{company prefix}.{indicator
//! and item reference}.{serial}`) when the organisation's GS1 company prefix
//! (`org_settings.gs1_company_prefix`) is known and the job's GTIN is one of
//! its own; otherwise (the prefix's length, and so the split, is unknown)
//! its GS1 Digital Link URI on GS1's canonical host,
//! `https://id.gs1.org/01/{gtin}/21/{serial}`, which EPCIS 2.0 accepts as
//! an EPC as well. A serial is 11 base-62 characters, which neither form
//! needs to escape.
//!
//! The first event of a row keeps the stored eventID; the next ones get
//! `urn:uuid:`s derived from it and their place (the same on every export).

use std::collections::HashMap;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use poem::Body;
use poem_openapi::payload::Payload;
use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::types::Type;
use rust_decimal::Decimal;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;
use uuid::Uuid;

use super::store::{EventRow, PackageCodesRow};
use crate::codes::{CodeJobRow, Serial, store as codes_store};
use crate::db::Db;
use crate::tenants::TenantRef;

/// The most EPCs one event of the export lists (a commissioning's or a
/// package's).
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

/// The eventID of the `index`th event (from 0) a stored commissioning or
/// package aggregation is rendered as: its own for the first, a `urn:uuid:` derived from it and
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

/// A run of codes an event lists: positions `first` to `last` (both
/// included) of code job `job_seq`, named in `form`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpcRun {
    pub job_seq: i32,
    pub form: EpcForm,
    pub first: i32,
    pub last: i32,
}

/// A stored row written with codes: the runs of codes it lists, in which
/// list, and what of its stored quantity list stays.
#[derive(Clone, Debug, PartialEq)]
pub struct Serialised {
    /// Where the EPCs go: `epcList` (a commissioning's ObjectEvent) or
    /// `childEPCs` (a package's AggregationEvent).
    pub list: &'static str,
    /// The stored quantity list the codes are counted in (`quantityList`,
    /// `childQuantityList`): the events leave it out, but for `remainder`.
    pub quantities: &'static str,
    /// What stays of it on the first event (units without codes); none:
    /// left out.
    pub remainder: Vec<Value>,
    /// The codes, in order.
    pub runs: Vec<EpcRun>,
}

impl Serialised {
    /// A commissioning: all positions of the job.
    pub fn commissioning(job: &CodeJobRow, company_prefix: Option<&str>) -> Self {
        Self {
            list: "epcList",
            quantities: "quantityList",
            remainder: Vec::new(),
            runs: vec![EpcRun {
                job_seq: job.seq,
                form: EpcForm::new(&job.gtin, company_prefix),
                first: 1,
                last: job.quantity,
            }],
        }
    }

    /// A package's aggregation (`document` as stored, its
    /// `childQuantityList` counting every unit): the runs of codes it
    /// carried, and its quantities less the units those codes are, by
    /// class.
    pub fn package(
        document: &Value,
        codes: &[PackageCodesRow],
        company_prefix: Option<&str>,
    ) -> Self {
        let mut coded: HashMap<&str, Decimal> = HashMap::new();
        for c in codes {
            *coded.entry(c.epc_class.as_str()).or_default() +=
                Decimal::from(i64::from(c.last_position) - i64::from(c.first_position) + 1);
        }
        let remainder = document
            .get("childQuantityList")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|q| {
                        let class = q.get("epcClass").and_then(Value::as_str)?;
                        let Some(n) = coded.get(class) else {
                            return Some(q.clone());
                        };
                        let held = q
                            .get("quantity")
                            .and_then(|v| Decimal::from_str(&v.to_string()).ok())?;
                        let left = held - n;
                        if left <= Decimal::ZERO {
                            return None;
                        }
                        let mut q = q.clone();
                        q["quantity"] = serde_json::from_str(&left.normalize().to_string())
                            .unwrap_or(Value::Null);
                        Some(q)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self {
            list: "childEPCs",
            quantities: "childQuantityList",
            remainder,
            runs: codes
                .iter()
                .map(|c| EpcRun {
                    job_seq: c.job_seq,
                    form: EpcForm::new(&c.gtin, company_prefix),
                    first: c.first_position,
                    last: c.last_position,
                })
                .collect(),
        }
    }

    /// The `index`th event's JSON-LD (from 0) without its closing brace,
    /// its EPC list opened: the part's eventID, the stored quantity list
    /// left out (the first keeps the remainder).
    fn head(&self, row: &EventRow, index: usize) -> Result<Vec<u8>, serde_json::Error> {
        let mut event = super::export_event(row);
        if let Some(map) = event.as_object_mut() {
            map.remove(self.quantities);
            map.remove(self.list);
            if index == 0 && !self.remainder.is_empty() {
                map.insert(self.quantities.into(), Value::Array(self.remainder.clone()));
            }
            map.insert(
                "eventID".into(),
                Value::String(part_event_id(&row.event_id, index)),
            );
        }
        let mut head = serde_json::to_vec(&event)?;
        // An object's last byte is its `}`.
        head.pop();
        head.extend_from_slice(format!(r#","{}":["#, self.list).as_bytes());
        Ok(head)
    }
}

/// What the export writes: the page's rows, the jobs of its commissioning
/// rows and the codes its packages carried.
pub struct Page {
    pub rows: Vec<EventRow>,
    pub jobs: HashMap<Uuid, CodeJobRow>,
    /// By (shipment, package).
    pub packages: HashMap<(Uuid, i32), Vec<PackageCodesRow>>,
    pub company_prefix: Option<String>,
    pub created: DateTime<Utc>,
}

impl Page {
    /// How `row` is written with codes; None: as stored.
    pub fn serialised(&self, row: &EventRow) -> Option<Serialised> {
        let prefix = self.company_prefix.as_deref();
        if row.source == "codes" {
            let job = row.code_job_id.and_then(|id| self.jobs.get(&id))?;
            return Some(Serialised::commissioning(job, prefix));
        }
        if row.event_type == "AggregationEvent"
            && let (Some(shipment), Some(package)) = (row.shipment_id, row.shipment_package)
        {
            let codes = self.packages.get(&(shipment, package))?;
            if !codes.is_empty() {
                return Some(Serialised::package(&row.document, codes, prefix));
            }
        }
        None
    }
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
        let Some(serialised) = page.serialised(row) else {
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
        let (mut part, mut in_part) = (0usize, 0usize);
        for run in &serialised.runs {
            let mut serials =
                codes_store::job_serials_between(conn, run.job_seq, run.first, run.last);
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
                    buf.extend_from_slice(&serialised.head(row, part).map_err(io)?);
                } else {
                    buf.push(b',');
                }
                run.form.write(serial, &mut buf);
                in_part += 1;
                if !flush(&mut buf, out, false).await {
                    return Ok(());
                }
            }
        }
        if in_part > 0 {
            buf.extend_from_slice(b"]}");
        } else {
            // No code rows (never the case for a finished job): the event
            // as stored.
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

    fn run(shipment: Uuid, job_seq: i32, first: i32, last: i32, class: &str) -> PackageCodesRow {
        PackageCodesRow {
            shipment_id: shipment,
            package: 1,
            job_seq,
            gtin: "09506000134352".into(),
            first_position: first,
            last_position: last,
            epc_class: class.into(),
        }
    }

    #[test]
    fn a_package_lists_its_codes_and_keeps_only_the_units_without_codes() {
        let shipment = Uuid::new_v4();
        let doc = serde_json::json!({
            "type": "AggregationEvent", "action": "ADD", "childEPCs": [],
            "parentID": "https://id.gs1.org/00/106141412345678908",
            "childQuantityList": [
                {"epcClass": "A", "quantity": 5},
                {"epcClass": "B", "quantity": 2.5},
                {"epcClass": "C", "quantity": 3}
            ]
        });
        let codes = [
            run(shipment, 7, 1, 3, "A"),
            run(shipment, 8, 1, 2, "A"),
            run(shipment, 9, 4, 5, "B"),
        ];
        let s = Serialised::package(&doc, &codes, Some("9506000"));
        assert_eq!(s.list, "childEPCs");
        assert_eq!(
            Value::Array(s.remainder.clone()),
            serde_json::json!([{"epcClass": "B", "quantity": 0.5}, {"epcClass": "C", "quantity": 3}])
        );
        assert_eq!(
            s.runs
                .iter()
                .map(|r| (r.job_seq, r.first, r.last))
                .collect::<Vec<_>>(),
            [(7, 1, 3), (8, 1, 2), (9, 4, 5)]
        );
        assert_eq!(
            s.runs[0].form,
            EpcForm::Sgtin("urn:epc:id:sgtin:9506000.013435.".into())
        );

        let row = EventRow {
            seq: 1,
            event_id: "urn:uuid:x".into(),
            event_type: "AggregationEvent".into(),
            action: Some("ADD".into()),
            event_time: Utc::now(),
            event_time_zone_offset: "+00:00".into(),
            record_time: Utc::now(),
            biz_step: Some("packing".into()),
            disposition: None,
            read_point: None,
            biz_location: None,
            parent_id: None,
            source: "recorded".into(),
            code_job_id: None,
            shipment_id: Some(shipment),
            shipment_package: Some(1),
            document: doc,
        };
        // The first event: its own id, the remainder, then the EPCs; the
        // next ones: a derived id and the EPCs only.
        for (index, remainder) in [(0, true), (1, false)] {
            let mut head = s.head(&row, index).unwrap();
            head.extend_from_slice(br#""x"]}"#);
            let event: Value = serde_json::from_slice(&head).unwrap();
            assert_eq!(event["eventID"], part_event_id("urn:uuid:x", index));
            assert_eq!(event["childEPCs"], serde_json::json!(["x"]));
            assert_eq!(
                event.get("childQuantityList").is_some(),
                remainder,
                "{event}"
            );
        }
        let page = Page {
            rows: vec![],
            jobs: HashMap::new(),
            packages: HashMap::from([((shipment, 1), codes.to_vec())]),
            company_prefix: None,
            created: Utc::now(),
        };
        assert!(page.serialised(&row).is_some());
        let other = EventRow {
            shipment_package: Some(2),
            ..row.clone()
        };
        assert_eq!(page.serialised(&other), None, "a package without codes");
        let unmarked = EventRow {
            shipment_id: None,
            shipment_package: None,
            ..row
        };
        assert_eq!(page.serialised(&unmarked), None);
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
