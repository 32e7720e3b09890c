//! EPCIS 2.0 events: the product journey and traceability (issue 9).
//!
//! - `mod.rs`: the rules: the official schema (vendored in
//!   `backend/assets/epcis/`, ADR 0016) and its validator, GS1 identifiers
//!   as events name them (GTINs in Digital Link URIs and EPC URNs, GLNs of
//!   locations, SSCCs of containers), CBV 2.0 values, what an event row
//!   keeps beside its JSON-LD, and the events the server makes itself (a
//!   code job's commissioning, a packing, shipping or receiving recorded in
//!   the app);
//! - `api.rs`: `POST /api/epcis/capture`, `GET /api/epcis/events` (the
//!   export), `POST /api/epcis/steps` (record a step), `GET
//!   /api/product-journey` and `GET /api/traceability` (the spec's calls);
//! - `export.rs`: the export's document, streamed, with each code job's
//!   commissioning, and each shipment package's aggregation, rendered from
//!   the code rows as events of at most 10,000 EPCs (SGTINs or Digital Link
//!   URIs);
//! - `store.rs`: the SQL of `epcis_events`, and the scan observations read
//!   from `scan_rollup`.
//!
//! Scans are observations, not events: the journey shows them per day and
//! country from the scan rollup, and no EPCIS row is written per scan.

pub mod api;
pub mod export;
pub mod store;

use std::sync::LazyLock;

use chrono::{DateTime, SecondsFormat, Utc};
use poem_openapi::registry::MetaSchema;
use poem_openapi::{Enum, Object};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::codes::CodeJobRow;
use crate::gs1;
use crate::http::error::ApiError;
use crate::http::input::{ParseText, TextRule};

/// The JSON-LD context of EPCIS 2.0 documents.
pub const EPCIS_CONTEXT: &str = "https://ref.gs1.org/standards/epcis/epcis-context.jsonld";

/// The most events one capture may hold.
pub const MAX_CAPTURE_EVENTS: usize = 1000;
/// The largest capture body (the operation's limit in `app::api::BODY_LIMITS`).
pub const MAX_CAPTURE_BYTES: usize = 4 * 1024 * 1024;
/// The most validation errors a refused capture lists.
pub const MAX_REPORTED_ERRORS: usize = 20;

static SCHEMA_TEXT: &str = include_str!("../../assets/epcis/EPCISDocument.schema.json");

/// The official EPCIS 2.0 JSON schema, compiled once; formats (`uri`,
/// `date-time`) are checked.
pub static SCHEMA: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let schema: Value =
        serde_json::from_str(SCHEMA_TEXT).expect("the vendored EPCIS schema is JSON");
    jsonschema::draft7::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the vendored EPCIS schema compiles")
});

/// One problem in a document: where (a JSON pointer into it) and what.
#[derive(Object, Debug, Clone, PartialEq, Eq)]
pub struct DocumentError {
    /// A JSON pointer (RFC 6901) to the offending value; empty for the
    /// document itself.
    pub pointer: String,
    pub message: String,
}

impl DocumentError {
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// The schema's first errors (at most [`MAX_REPORTED_ERRORS`]), empty when
/// `doc` is valid.
pub fn schema_errors(doc: &Value) -> Vec<DocumentError> {
    SCHEMA
        .iter_errors(doc)
        .take(MAX_REPORTED_ERRORS)
        .map(|e| DocumentError::new(e.instance_path().as_str(), e.to_string()))
        .collect()
}

// --- GS1 identifiers --------------------------------------------------------

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The GTIN-14 an EPC or EPC class names: a GS1 Digital Link URI
/// (`…/01/{gtin}/…`), or an SGTIN / LGTIN URN (`urn:epc:id:sgtin:`,
/// `urn:epc:class:lgtin:`, `urn:epc:idpat:sgtin:`). None for anything else
/// (SSCCs, GLNs, other schemes).
pub fn gtin_of(id: &str) -> Option<String> {
    for prefix in [
        "urn:epc:id:sgtin:",
        "urn:epc:class:lgtin:",
        "urn:epc:idpat:sgtin:",
    ] {
        if let Some(rest) = id.strip_prefix(prefix) {
            let mut parts = rest.split('.');
            let (cp, iir) = (parts.next()?, parts.next()?);
            if !digits(cp) || !digits(iir) || cp.len() + iir.len() != 13 {
                return None;
            }
            let body = format!("{}{cp}{}", &iir[..1], &iir[1..]);
            return Some(format!("{body}{}", gs1::check_digit(&body)?));
        }
    }
    if id.starts_with("https://") || id.starts_with("http://") {
        let path = id.split_once("://")?.1.split_once('/')?.1;
        let path = path.split(['?', '#']).next().unwrap_or_default();
        let segments: Vec<&str> = path.split('/').collect();
        for pair in segments.windows(2) {
            if pair[0] == "01"
                && let Ok(g) = gs1::gtin14(pair[1])
            {
                return Some(g);
            }
        }
    }
    None
}

/// A location of an event (its `readPoint` or `bizLocation`): a GLN (13
/// digits), `https://id.gs1.org/414/{gln}[/254/{extension}]` or
/// `urn:epc:id:sgln:{company prefix}.{location reference}.{extension}`;
/// the check digit of a GLN must be right. A bare GLN becomes its Digital
/// Link URI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location(String);

const LOCATION_MESSAGE: &str = "must be a GLN (13 digits), https://id.gs1.org/414/{gln} or urn:epc:id:sgln:{company prefix}.{location reference}.{extension}";

impl Location {
    pub fn parse(field: &str, raw: &str) -> Result<Self, ApiError> {
        let bad = || ApiError::invalid_input(format!("{field} {LOCATION_MESSAGE}."));
        let wrong_check = || {
            ApiError::invalid_input(format!(
                "{field} names a GLN with a wrong check digit: check the location's number."
            ))
        };
        if raw.len() == 13 && digits(raw) {
            return if gs1::gln(raw).is_ok() {
                Ok(Self(format!("https://id.gs1.org/414/{raw}")))
            } else {
                Err(wrong_check())
            };
        }
        if let Some(rest) = raw.strip_prefix("https://id.gs1.org/414/") {
            let (gln, ext) = match rest.split_once('/') {
                Some((gln, ext)) => (gln, Some(ext)),
                None => (rest, None),
            };
            if gln.len() != 13 || !digits(gln) {
                return Err(bad());
            }
            if let Some(ext) = ext {
                let ext = ext.strip_prefix("254/").ok_or_else(bad)?;
                if !(1..=20).contains(&ext.len()) || !ext.bytes().all(|b| b.is_ascii_alphanumeric())
                {
                    return Err(bad());
                }
            }
            return if gs1::gln(gln).is_ok() {
                Ok(Self(raw.to_string()))
            } else {
                Err(wrong_check())
            };
        }
        if let Some(rest) = raw.strip_prefix("urn:epc:id:sgln:") {
            let parts: Vec<&str> = rest.split('.').collect();
            let ok = parts.len() == 3
                && digits(parts[0])
                && (6..=12).contains(&parts[0].len())
                && (parts[1].is_empty() || digits(parts[1]))
                && parts[0].len() + parts[1].len() == 12
                && (1..=20).contains(&parts[2].len())
                && parts[2].bytes().all(|b| b.is_ascii_alphanumeric());
            // The URN carries no check digit: its 12 digits are the GLN's.
            return if ok {
                Ok(Self(raw.to_string()))
            } else {
                Err(bad())
            };
        }
        Err(bad())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for Location {
    fn limits(schema: &mut MetaSchema) {
        // The check digit and the SGLN's 12 digits cannot be said in a
        // pattern: those are 400s that say so.
        schema.pattern = Some(
            r"^(?:[0-9]{13}|https://id\.gs1\.org/414/[0-9]{13}(?:/254/[0-9A-Za-z]{1,20})?|urn:epc:id:sgln:[0-9]{6,12}\.[0-9]{0,6}\.[0-9A-Za-z]{1,20})$".into(),
        );
    }
}

/// A container's SSCC (GS1 AI 00): 18 digits with a right check digit,
/// named in events as `https://id.gs1.org/00/{sscc}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sscc(String);

impl Sscc {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        match gs1::sscc(raw) {
            Ok(sscc) => Ok(Self(sscc)),
            Err(gs1::NumberError::Shape) => Err(ApiError::invalid_input(
                "container must be an SSCC: 18 digits.",
            )),
            Err(gs1::NumberError::CheckDigit) => Err(ApiError::invalid_input(
                "container has a wrong check digit: check the SSCC on its label.",
            )),
        }
    }
    pub fn uri(&self) -> String {
        format!("https://id.gs1.org/00/{}", self.0)
    }
}

impl TextRule for Sscc {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[0-9]{18}$".into());
        schema.description = Some(
            "An SSCC (GS1 AI 00): 18 digits, the last the GS1 check digit (from the \
             right, the other digits weighted 3, 1, 3, 1, …, summed; the check digit \
             brings the sum up to a multiple of 10).",
        );
    }
}

crate::text_parser!(Sscc);
crate::text_parser!(field: Location => Location);

/// The EPC class of a product (and lot) as a Digital Link URI on GS1's
/// canonical host.
pub fn product_class(gtin: &str, lot: Option<&str>) -> String {
    match lot {
        Some(lot) => format!(
            "https://id.gs1.org/01/{gtin}/10/{}",
            gs1::percent_encode(lot)
        ),
        None => format!("https://id.gs1.org/01/{gtin}"),
    }
}

/// A CBV 2.0 value as its bare word (`shipping`), whichever of its
/// spellings the event used (`https://ref.gs1.org/cbv/BizStep-shipping`,
/// `urn:epcglobal:cbv:bizstep:shipping`); any other URI as given.
pub fn cbv_word(value: &str) -> String {
    for prefix in [
        "https://ref.gs1.org/cbv/BizStep-",
        "https://ref.gs1.org/cbv/Disp-",
        "urn:epcglobal:cbv:bizstep:",
        "urn:epcglobal:cbv:disp:",
    ] {
        if let Some(word) = value.strip_prefix(prefix) {
            return word.to_string();
        }
    }
    value.to_string()
}

/// A bizStep filter of the export: a CBV word or a URI.
pub struct BizStepFilter;

impl TextRule for BizStepFilter {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[!-~]{1,200}$".into());
    }
}

/// The filter as its bare CBV word ([`cbv_word`]), as events store it.
impl ParseText for BizStepFilter {
    type Output = String;
    fn parse_text(raw: &str) -> Result<String, ApiError> {
        if raw.is_empty() || raw.len() > 200 || !raw.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ApiError::invalid_input(
                "biz_step must be a CBV word (such as shipping) or a URI: 1 to 200 characters without spaces.",
            ));
        }
        Ok(cbv_word(raw))
    }
}

// --- Event rows -----------------------------------------------------------------

/// Where an event came from.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "lowercase")]
pub enum EventSource {
    /// A code job's commissioning.
    Codes,
    /// A captured EPCIS document.
    Capture,
    /// A step recorded in the app.
    Recorded,
}

impl EventSource {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Codes => "codes",
            Self::Capture => "capture",
            Self::Recorded => "recorded",
        }
    }
    pub fn parse(s: &str) -> Self {
        match s {
            "codes" => Self::Codes,
            "capture" => Self::Capture,
            _ => Self::Recorded,
        }
    }
}

/// An event to store: its JSON-LD and the columns beside it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NewEvent {
    pub event_id: String,
    pub event_type: String,
    pub action: Option<String>,
    pub event_time: DateTime<Utc>,
    pub event_time_zone_offset: String,
    pub biz_step: Option<String>,
    pub disposition: Option<String>,
    pub read_point: Option<String>,
    pub biz_location: Option<String>,
    pub parent_id: Option<String>,
    pub gtins: Vec<String>,
    pub ids: Vec<String>,
    pub source: &'static str,
    pub code_job_id: Option<Uuid>,
    /// The shipment and package (1 to 99) whose AggregationEvent this is:
    /// the export lists the codes the package carried
    /// (`shipment_codes`) as its `childEPCs`.
    pub shipment_id: Option<Uuid>,
    pub shipment_package: Option<i32>,
    pub recorded_by: Option<Uuid>,
    pub document: Value,
}

/// The event types stored (the schema also knows TransactionEvent and
/// AssociationEvent, which the journey has no use for yet).
pub const EVENT_TYPES: [&str; 3] = ["ObjectEvent", "AggregationEvent", "TransformationEvent"];

fn str_at<'a>(event: &'a Value, key: &str) -> Option<&'a str> {
    event.get(key).and_then(Value::as_str)
}

/// The identifiers of a list of EPCs (`epcList`, `childEPCs`, …).
fn epcs_at(event: &Value, key: &str) -> Vec<String> {
    event
        .get(key)
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The classes of a quantity list (`quantityList`, `childQuantityList`, …).
fn classes_at(event: &Value, key: &str) -> Vec<String> {
    event
        .get(key)
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|q| q.get("epcClass").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Every EPC and class an event names as what it is about.
const WHAT_KEYS: [&str; 8] = [
    "epcList",
    "quantityList",
    "childEPCs",
    "childQuantityList",
    "inputEPCList",
    "inputQuantityList",
    "outputEPCList",
    "outputQuantityList",
];

fn what_ids(event: &Value, keys: &[&str]) -> Vec<String> {
    let mut ids = Vec::new();
    for key in keys {
        if key.ends_with("QuantityList") || *key == "quantityList" {
            ids.extend(classes_at(event, key));
        } else {
            ids.extend(epcs_at(event, key));
        }
    }
    ids
}

fn gtins_of(ids: &[String]) -> Vec<String> {
    let mut gtins: Vec<String> = ids.iter().filter_map(|id| gtin_of(id)).collect();
    gtins.sort();
    gtins.dedup();
    gtins
}

/// Reads a schema-valid event (`pointer` is where it sits in its document)
/// into the row to store; refuses what the schema cannot say: event types
/// the journey does not store, a GLN location with a wrong check digit.
pub fn describe(
    event: &Value,
    pointer: &str,
    source: EventSource,
) -> Result<NewEvent, DocumentError> {
    let event_type = str_at(event, "type").unwrap_or_default().to_string();
    if !EVENT_TYPES.contains(&event_type.as_str()) {
        return Err(DocumentError::new(
            format!("{pointer}/type"),
            "Only ObjectEvent, AggregationEvent and TransformationEvent are accepted.",
        ));
    }
    let event_time = str_at(event, "eventTime")
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(|| {
            DocumentError::new(
                format!("{pointer}/eventTime"),
                "eventTime must be a date-time.",
            )
        })?;
    let location = |key: &str| -> Result<Option<String>, DocumentError> {
        let Some(id) = event
            .get(key)
            .and_then(|l| l.get("id"))
            .and_then(Value::as_str)
        else {
            return Ok(None);
        };
        if let Some(gln) = id
            .split_once("/414/")
            .map(|(_, rest)| rest.split('/').next().unwrap_or_default())
            .filter(|_| id.starts_with("http"))
            && gs1::gln(gln).is_err()
        {
            return Err(DocumentError::new(
                format!("{pointer}/{key}/id"),
                "The GLN of this location (after /414/) must be 13 digits with a right check digit.",
            ));
        }
        Ok(Some(id.to_string()))
    };
    let read_point = location("readPoint")?;
    let biz_location = location("bizLocation")?;
    let parent_id = str_at(event, "parentID").map(str::to_string);
    let mut ids = what_ids(event, &WHAT_KEYS);
    let gtins = gtins_of(&ids);
    ids.extend(parent_id.clone());
    ids.sort();
    ids.dedup();
    let mut document = event.clone();
    let event_id = match str_at(event, "eventID") {
        Some(id) => id.to_string(),
        None => {
            let id = format!("urn:uuid:{}", Uuid::new_v4());
            document["eventID"] = Value::String(id.clone());
            id
        }
    };
    if event_id.len() > 500 {
        return Err(DocumentError::new(
            format!("{pointer}/eventID"),
            "eventID must be at most 500 characters.",
        ));
    }
    // The repository sets the record time (EPCIS 2.0 §7.4.1): the export
    // writes the row's.
    if let Some(map) = document.as_object_mut() {
        map.remove("recordTime");
    }
    Ok(NewEvent {
        event_id,
        event_type,
        action: str_at(event, "action").map(str::to_string),
        event_time,
        event_time_zone_offset: str_at(event, "eventTimeZoneOffset")
            .unwrap_or("+00:00")
            .to_string(),
        biz_step: str_at(event, "bizStep").map(cbv_word),
        disposition: str_at(event, "disposition").map(cbv_word),
        read_point,
        biz_location,
        parent_id,
        gtins,
        ids,
        source: source.as_str(),
        code_job_id: None,
        shipment_id: None,
        shipment_package: None,
        recorded_by: None,
        document,
    })
}

/// `t` as EPCIS writes times: RFC 3339 in UTC with milliseconds.
pub fn epcis_time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The commissioning of a finished code job as stored: one ObjectEvent,
/// action ADD, bizStep commissioning, disposition active, with the job's
/// class (GTIN and lot) and quantity, never a list of its codes. The export
/// renders it with the job's codes as EPCs (`export`), in events of at
/// most 10,000.
pub fn commissioning(job: &CodeJobRow, at: DateTime<Utc>) -> NewEvent {
    let class = product_class(&job.gtin, job.lot_number.as_deref());
    let document = json!({
        "type": "ObjectEvent",
        "eventID": format!("urn:uuid:{}", Uuid::new_v4()),
        "eventTime": epcis_time(at),
        "eventTimeZoneOffset": "+00:00",
        "action": "ADD",
        "bizStep": "commissioning",
        "disposition": "active",
        "quantityList": [{"epcClass": class, "quantity": job.quantity}],
    });
    let mut event = describe(&document, "", EventSource::Codes)
        .expect("a commissioning event is a valid event");
    event.code_job_id = Some(job.id);
    event
}

/// A supply-chain step staff record in the app.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "lowercase")]
pub enum StepKind {
    /// Units packed into a container (an AggregationEvent, ADD).
    Packing,
    /// Goods leaving a location (an ObjectEvent, OBSERVE, in transit).
    Shipping,
    /// Goods arriving at a location (an ObjectEvent, OBSERVE).
    Receiving,
}

/// What a recorded step says, checked.
pub struct Step<'a> {
    pub kind: StepKind,
    pub gtin: &'a str,
    pub lot: Option<&'a str>,
    pub quantity: Option<i64>,
    pub container: Option<Sscc>,
    pub location: Location,
    pub destination: Option<Location>,
    pub at: DateTime<Utc>,
}

/// The event of a recorded step, as EPCIS 2.0 JSON-LD with CBV 2.0 values.
pub fn step_event(step: &Step<'_>) -> Value {
    let class = product_class(step.gtin, step.lot);
    let mut quantity = json!({"epcClass": class});
    if let Some(q) = step.quantity {
        quantity["quantity"] = json!(q);
    }
    let location = json!({"id": step.location.as_str()});
    let mut event = json!({
        "eventID": format!("urn:uuid:{}", Uuid::new_v4()),
        "eventTime": epcis_time(step.at),
        "eventTimeZoneOffset": "+00:00",
        "readPoint": location,
        "bizLocation": location,
    });
    match step.kind {
        StepKind::Packing => {
            event["type"] = json!("AggregationEvent");
            event["action"] = json!("ADD");
            event["bizStep"] = json!("packing");
            event["disposition"] = json!("in_progress");
            if let Some(container) = &step.container {
                event["parentID"] = json!(container.uri());
            }
            event["childQuantityList"] = json!([quantity]);
        }
        StepKind::Shipping | StepKind::Receiving => {
            event["type"] = json!("ObjectEvent");
            event["action"] = json!("OBSERVE");
            match &step.container {
                Some(container) => event["epcList"] = json!([container.uri()]),
                None => event["quantityList"] = json!([quantity]),
            }
            if step.kind == StepKind::Shipping {
                event["bizStep"] = json!("shipping");
                event["disposition"] = json!("in_transit");
                if let Some(dest) = &step.destination {
                    event["destinationList"] =
                        json!([{"type": "location", "destination": dest.as_str()}]);
                }
            } else {
                event["bizStep"] = json!("receiving");
                event["disposition"] = json!("in_progress");
            }
        }
    }
    event
}

/// An EPCIS 2.0 document of `events` (each as stored, with its record
/// time).
pub fn document(events: Vec<Value>, created: DateTime<Utc>) -> Value {
    json!({
        "@context": [EPCIS_CONTEXT],
        "type": "EPCISDocument",
        "schemaVersion": "2.0",
        "creationDate": epcis_time(created),
        "epcisBody": {"eventList": events},
    })
}

// --- Reading events back ------------------------------------------------------------

/// An EPC class and how many of it.
#[derive(Object, Debug, Clone)]
pub struct QuantityView {
    pub epc_class: String,
    #[oai(skip_serializing_if_is_none)]
    pub quantity: Option<f64>,
    #[oai(skip_serializing_if_is_none)]
    pub uom: Option<String>,
}

/// An event as the journey and traceability show it.
#[derive(Object, Debug, Clone)]
pub struct EventView {
    pub event_id: String,
    /// `ObjectEvent`, `AggregationEvent` or `TransformationEvent`.
    pub event_type: String,
    #[oai(skip_serializing_if_is_none)]
    pub action: Option<String>,
    pub event_time: DateTime<Utc>,
    pub event_time_zone_offset: String,
    pub record_time: DateTime<Utc>,
    /// CBV 2.0 word (`commissioning`, `packing`, `shipping`, …) or URI.
    #[oai(skip_serializing_if_is_none)]
    pub biz_step: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub disposition: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub read_point: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub biz_location: Option<String>,
    /// The container of an AggregationEvent.
    #[oai(skip_serializing_if_is_none)]
    pub parent_id: Option<String>,
    /// The instances it names (`epcList` or `childEPCs`), at most 100.
    pub epcs: Vec<String>,
    /// How many instances it names in all.
    pub epc_count: i64,
    /// The classes and quantities it names (`quantityList` or
    /// `childQuantityList`).
    pub quantities: Vec<QuantityView>,
    /// What a TransformationEvent consumed (EPCs and classes).
    pub inputs: Vec<String>,
    /// What a TransformationEvent produced (EPCs and classes).
    pub outputs: Vec<String>,
    /// The destinations of a shipment (`destinationList`).
    pub destinations: Vec<String>,
    pub source: EventSource,
    /// The code job a commissioning event is of.
    #[oai(skip_serializing_if_is_none)]
    pub code_job_id: Option<Uuid>,
}

const EPCS_SHOWN: usize = 100;

impl EventView {
    pub fn from_row(row: &store::EventRow) -> Self {
        let doc = &row.document;
        let mut epcs = epcs_at(doc, "epcList");
        epcs.extend(epcs_at(doc, "childEPCs"));
        let epc_count = epcs.len() as i64;
        epcs.truncate(EPCS_SHOWN);
        let quantities = ["quantityList", "childQuantityList"]
            .iter()
            .filter_map(|key| doc.get(*key).and_then(Value::as_array))
            .flatten()
            .filter_map(|q| {
                Some(QuantityView {
                    epc_class: q.get("epcClass")?.as_str()?.to_string(),
                    quantity: q.get("quantity").and_then(Value::as_f64),
                    uom: q.get("uom").and_then(Value::as_str).map(str::to_string),
                })
            })
            .collect();
        let mut inputs = what_ids(doc, &["inputEPCList", "inputQuantityList"]);
        inputs.truncate(EPCS_SHOWN);
        let mut outputs = what_ids(doc, &["outputEPCList", "outputQuantityList"]);
        outputs.truncate(EPCS_SHOWN);
        let destinations = doc
            .get("destinationList")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|d| d.get("destination").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        Self {
            event_id: row.event_id.clone(),
            event_type: row.event_type.clone(),
            action: row.action.clone(),
            event_time: row.event_time,
            event_time_zone_offset: row.event_time_zone_offset.clone(),
            record_time: row.record_time,
            biz_step: row.biz_step.clone(),
            disposition: row.disposition.clone(),
            read_point: row.read_point.clone(),
            biz_location: row.biz_location.clone(),
            parent_id: row.parent_id.clone(),
            epcs,
            epc_count,
            quantities,
            inputs,
            outputs,
            destinations,
            source: EventSource::parse(&row.source),
            code_job_id: row.code_job_id,
        }
    }

    /// Whether the product (GTIN-14) is among the inputs / outputs.
    pub fn consumes(&self, gtin: &str) -> bool {
        self.inputs
            .iter()
            .any(|id| gtin_of(id).as_deref() == Some(gtin))
    }
    pub fn produces(&self, gtin: &str) -> bool {
        self.outputs
            .iter()
            .any(|id| gtin_of(id).as_deref() == Some(gtin))
    }
}

/// The stored event as an EPCIS document's event: its JSON-LD with its
/// eventID and record time.
pub fn export_event(row: &store::EventRow) -> Value {
    let mut event = row.document.clone();
    event["eventID"] = Value::String(row.event_id.clone());
    event["recordTime"] = Value::String(epcis_time(row.record_time));
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendored_schema_compiles_and_checks_formats() {
        let doc = document(vec![], Utc::now());
        assert!(schema_errors(&doc).is_empty(), "{:?}", schema_errors(&doc));
        let mut bad = doc.clone();
        bad["creationDate"] = json!("yesterday");
        let errors = schema_errors(&bad);
        assert_eq!(errors[0].pointer, "/creationDate", "{errors:?}");
    }

    #[test]
    fn gtins_from_digital_links_and_urns() {
        // 09506000134352 is GS1's example GTIN.
        for id in [
            "https://id.gs1.org/01/09506000134352/21/abc",
            "https://example.com/x/01/09506000134352/10/L1",
            "urn:epc:id:sgtin:9506000.013435.abc",
            "urn:epc:class:lgtin:9506000.013435.L1",
            "urn:epc:idpat:sgtin:9506000.013435.*",
        ] {
            assert_eq!(gtin_of(id).as_deref(), Some("09506000134352"), "{id}");
        }
        for id in [
            "https://id.gs1.org/01/09506000134353",
            "https://id.gs1.org/00/106141412345678908",
            "urn:epc:id:sscc:0614141.1234567890",
            "urn:epc:id:sgtin:95060.013435.abc",
        ] {
            assert_eq!(gtin_of(id), None, "{id}");
        }
    }

    #[test]
    fn locations_check_their_gln() {
        assert_eq!(
            Location::parse("location", "9506000134352")
                .unwrap()
                .as_str(),
            "https://id.gs1.org/414/9506000134352"
        );
        assert!(Location::parse("location", "https://id.gs1.org/414/9506000134352/254/A1").is_ok());
        assert!(Location::parse("location", "urn:epc:id:sgln:9506000.13435.0").is_ok());
        let wrong = Location::parse("location", "9506000134353").unwrap_err();
        assert!(wrong.message.contains("check digit"), "{}", wrong.message);
        assert!(Location::parse("location", "https://id.gs1.org/414/9506000134353").is_err());
        assert!(Location::parse("location", "urn:epc:id:sgln:9506000.1343.0").is_err());
        assert!(Location::parse("location", "somewhere").is_err());
    }

    #[test]
    fn ssccs_check_their_digit() {
        assert!(Sscc::parse("106141412345678908").is_ok());
        assert!(Sscc::parse("106141412345678909").is_err());
        assert!(Sscc::parse("10614141234567890").is_err());
    }

    #[test]
    fn cbv_spellings() {
        assert_eq!(
            cbv_word("https://ref.gs1.org/cbv/BizStep-shipping"),
            "shipping"
        );
        assert_eq!(cbv_word("urn:epcglobal:cbv:disp:in_transit"), "in_transit");
        assert_eq!(
            cbv_word("https://example.com/steps/x"),
            "https://example.com/steps/x"
        );
    }

    #[test]
    fn recorded_steps_are_valid_epcis() {
        for kind in [StepKind::Packing, StepKind::Shipping, StepKind::Receiving] {
            let step = Step {
                kind,
                gtin: "09506000134352",
                lot: Some("L 1/2"),
                quantity: Some(12),
                container: Some(Sscc::parse("106141412345678908").unwrap()),
                location: Location::parse("location", "9506000134352").unwrap(),
                destination: Some(
                    Location::parse("destination", "urn:epc:id:sgln:9506000.13435.0").unwrap(),
                ),
                at: Utc::now(),
            };
            let doc = document(vec![step_event(&step)], Utc::now());
            assert!(
                schema_errors(&doc).is_empty(),
                "{kind:?}: {:?}",
                schema_errors(&doc)
            );
        }
    }
}
