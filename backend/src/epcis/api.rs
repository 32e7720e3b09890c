//! The EPCIS operations: capture and export of EPCIS 2.0 documents, a step
//! recorded in the app, and the spec's product journey and traceability.

use std::collections::HashSet;

use chrono::{DateTime, NaiveTime, Utc};
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::registry::MetaSchema;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use serde_json::Value;
use uuid::Uuid;

use super::store::{self, EventRow, ExportFilter, ProductRef};
use super::{
    BizStepFilter, DocumentError, EventSource, EventView, Location, MAX_CAPTURE_EVENTS, Sscc, Step,
    StepKind,
};
use crate::codes::LotNumber;
use crate::gs1;
use crate::http::error::{ApiError, LookupError, WriteLookupError};
use crate::http::input::{IsoDate, Optional, ParseText, Text, TextRule};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::products::Skuid;
use crate::{error_responses, json_response};

#[derive(Default)]
pub struct EpcisApi;

/// A captured document: how many events were stored, and their eventIDs
/// (those the document left out are `urn:uuid:` ones the server gave).
#[derive(Object, Debug)]
pub struct CaptureReport {
    pub captured: u64,
    pub event_ids: Vec<String>,
}

/// A capture refused for its content: the error envelope with the
/// problems found (the schema validator's first errors, each with a JSON
/// pointer into the document). Nothing was stored.
#[derive(Object, Debug)]
pub struct CaptureRefused {
    pub error: String,
    /// `invalid_epcis` (or `invalid_input` for a body that is not JSON).
    pub code: String,
    #[oai(default)]
    pub errors: Vec<DocumentError>,
}

#[derive(ApiResponse)]
pub enum CaptureAnswer {
    /// Every event of the document was stored.
    #[oai(status = 201)]
    Captured(Json<CaptureReport>),
    /// The document is not a valid EPCIS 2.0 document: nothing was stored;
    /// `errors` says where and why.
    #[oai(status = 400)]
    Invalid(Json<CaptureRefused>),
}

fn refused(message: &str, errors: Vec<DocumentError>) -> CaptureAnswer {
    CaptureAnswer::Invalid(Json(CaptureRefused {
        error: format!(
            "Nothing was captured: {message} ({} problem(s) listed in errors).",
            errors.len()
        ),
        code: "invalid_epcis".into(),
        errors,
    }))
}

error_responses!(CaptureError with body {
    Unauthorized = 401,
    Forbidden = 403,
    Conflict = 409,
});

#[derive(ApiResponse)]
pub enum ExportAnswer {
    /// An EPCIS 2.0 `EPCISDocument` (JSON-LD) of the matching events, in the
    /// order they were stored, streamed; it validates against the official
    /// EPCIS 2.0 JSON schema. A code job's commissioning is written as
    /// ObjectEvents (action ADD) listing its codes as EPCs, at most 10,000
    /// per event. When more events match, `next-cursor` is the `after` of
    /// the next page.
    #[oai(status = 200)]
    Ok(
        super::export::StreamedJson,
        #[oai(header = "next-cursor")] Option<String>,
    ),
}

/// A packing, shipping or receiving staff record.
#[derive(Object, Debug)]
pub struct RecordStep {
    pub step: StepKind,
    /// The product's skuid.
    pub skuid: Text<Skuid>,
    /// The lot (GS1 AI 10), when the units are of one.
    pub lot: Optional<Text<LotNumber>>,
    /// How many units (packed into the container, or shipped or received
    /// when no container is named).
    #[oai(validator(minimum(value = "1"), maximum(value = "10000000")))]
    pub quantity: Optional<i64>,
    /// The container's SSCC (18 digits): required for packing; for
    /// shipping and receiving, the container that moves.
    pub container: Optional<Text<Sscc>>,
    /// Where it happens (readPoint and bizLocation): a GLN, or
    /// `https://id.gs1.org/414/{gln}` or `urn:epc:id:sgln:…`.
    pub location: Text<Location>,
    /// Where a shipment goes (shipping only), as `location`.
    pub destination: Optional<Text<Location>>,
    /// When it happened; now when absent. Not in the future.
    pub event_time: Optional<DateTime<Utc>>,
}

json_response!(
    /// The event stored.
    RecordAnswer { 201 => Recorded(EventView) }
);

/// The product a journey or traceability is of.
#[derive(Object, Debug)]
pub struct TracedProduct {
    pub id: Uuid,
    pub product_name: String,
    pub skuid: String,
    pub gtin: String,
}

impl From<&ProductRef> for TracedProduct {
    fn from(p: &ProductRef) -> Self {
        Self {
            id: p.id,
            product_name: p.product_name.clone(),
            skuid: p.skuid.clone(),
            gtin: p.gtin.clone(),
        }
    }
}

/// Scans of the product on one day from one country (an observation, not
/// an EPCIS event).
#[derive(Object, Debug)]
pub struct ScanObservation {
    pub day: IsoDate,
    /// ISO 3166-1 alpha-2; empty when the place is not known.
    pub country: String,
    pub country_name: String,
    pub scans: i64,
    pub first_scans: i64,
    pub genuine: i64,
    pub suspicious: i64,
    pub not_recognised: i64,
}

#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "lowercase")]
pub enum JourneyStepKind {
    /// An EPCIS event (`event` is set).
    Event,
    /// Consumers' scans (`observation` is set).
    Observation,
}

/// One step of a journey: an event, or a day's scans from one country.
#[derive(Object, Debug)]
pub struct JourneyStep {
    pub kind: JourneyStepKind,
    /// When: the event's time; for scans, the end of their day (UTC), or
    /// now for today's.
    pub at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub event: Option<EventView>,
    #[oai(skip_serializing_if_is_none)]
    pub observation: Option<ScanObservation>,
}

/// The spec's product journey: the product's events (its own, and those of
/// the containers it was packed into) and its scans, oldest first.
#[derive(Object, Debug)]
pub struct ProductJourney {
    pub product: TracedProduct,
    pub steps: Vec<JourneyStep>,
    /// True when there were more events or observations than the journey
    /// shows (the newest 1,000 of each are shown).
    pub truncated: bool,
}

/// Where the product came from.
#[derive(Object, Debug)]
pub struct Upstream {
    /// Its commissioning events: which lots and code jobs, how many.
    pub commissioned: Vec<EventView>,
    /// Transformations that produced it, with their inputs.
    pub transformed_from: Vec<EventView>,
}

/// Where it went.
#[derive(Object, Debug)]
pub struct Downstream {
    /// The containers (parentIDs) its units were packed into.
    pub containers: Vec<String>,
    /// The packing (aggregation) events.
    pub packed_into: Vec<EventView>,
    /// Shipping events of the product or its containers.
    pub shipped: Vec<EventView>,
    /// Receiving events of the product or its containers.
    pub received: Vec<EventView>,
    /// Transformations that consumed it, with their outputs.
    pub transformed_into: Vec<EventView>,
}

/// The spec's traceability: upstream and downstream of a product.
#[derive(Object, Debug)]
pub struct Traceability {
    pub product: TracedProduct,
    /// The lots its commissioned codes are of.
    pub lots: Vec<String>,
    pub upstream: Upstream,
    pub downstream: Downstream,
    /// Consumers' scans of it, in all.
    pub scans: i64,
    /// True when the product has more events than were read (1,000).
    pub truncated: bool,
}

/// A page cursor of the export.
pub struct Cursor;

impl TextRule for Cursor {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[0-9]{1,18}$".into());
    }
}

/// The position after which the page starts.
impl ParseText for Cursor {
    type Output = i64;
    fn parse_text(raw: &str) -> Result<i64, ApiError> {
        raw.parse::<i64>().map_err(|_| {
            ApiError::invalid_input("after must be the next-cursor of an earlier page.")
        })
    }
}

const MOST_EVENTS: i64 = 1000;
const MOST_CONTAINERS: i64 = 1000;
const EXPORT_PAGE: u32 = 500;

fn no_such_product() -> ApiError {
    ApiError::not_found("No product of your organisation has this skuid.")
}

async fn product(
    conn: &mut sqlx::PgConnection,
    skuid: &Text<Skuid>,
) -> Result<ProductRef, ApiError> {
    let skuid = skuid.parse()?;
    store::product_by_skuid(conn, skuid.as_str())
        .await?
        .ok_or_else(no_such_product)
}

/// The product's events, and whether there were more.
async fn events_of(
    conn: &mut sqlx::PgConnection,
    product: &ProductRef,
) -> Result<(Vec<String>, Vec<EventRow>, bool), ApiError> {
    let containers = store::containers_of(conn, &product.gtin, MOST_CONTAINERS).await?;
    let rows = store::product_events(conn, &product.gtin, &containers, MOST_EVENTS + 1).await?;
    let truncated = rows.len() as i64 > MOST_EVENTS;
    let rows = if truncated { rows[1..].to_vec() } else { rows };
    Ok((containers, rows, truncated))
}

/// Where a day's scans stand in the journey: at the end of their day
/// (UTC), or now for today's, so that they follow the day's events.
fn day_end(day: chrono::NaiveDate, now: DateTime<Utc>) -> DateTime<Utc> {
    let end = day
        .and_time(NaiveTime::from_hms_milli_opt(23, 59, 59, 999).unwrap_or(NaiveTime::MIN))
        .and_utc();
    end.min(now)
}

fn is_step(view: &EventView, words: &[&str]) -> bool {
    view.biz_step.as_deref().is_some_and(|s| words.contains(&s))
}

#[OpenApi(tag = "ApiTags::Epcis")]
impl EpcisApi {
    /// Captures an EPCIS 2.0 JSON-LD `EPCISDocument` (at most 1,000
    /// ObjectEvents, AggregationEvents and TransformationEvents, 4 MiB).
    /// The document is checked against the official EPCIS 2.0 JSON schema,
    /// then for what the schema cannot say (GLN check digits of locations,
    /// eventIDs unique); a document with one bad event stores nothing (400
    /// with the first errors and their JSON pointers). eventIDs already
    /// stored: 409, nothing stored. Events without an eventID get a
    /// `urn:uuid:` one.
    #[oai(
        path = "/epcis/capture",
        method = "post",
        operation_id = "captureEpcis"
    )]
    async fn capture(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<Value>,
    ) -> Result<CaptureAnswer, CaptureError> {
        let doc = body.0;
        let errors = super::schema_errors(&doc);
        if !errors.is_empty() {
            return Ok(refused(
                "the document does not follow the EPCIS 2.0 JSON schema",
                errors,
            ));
        }
        // PostgreSQL stores no NUL character in jsonb: a field holding one
        // is named, not answered with a 500.
        if let Some(pointer) = crate::http::input::nul_in_json(&doc) {
            return Ok(refused(
                "the document holds a NUL character, which cannot be stored",
                vec![DocumentError::new(
                    pointer,
                    "This field holds a NUL character (\\u0000): remove it.",
                )],
            ));
        }
        if doc.get("type").and_then(Value::as_str) != Some("EPCISDocument") {
            return Ok(refused(
                "only an EPCISDocument can be captured",
                vec![DocumentError::new("/type", "type must be EPCISDocument.")],
            ));
        }
        let empty = Vec::new();
        let list = doc["epcisBody"]["eventList"].as_array().unwrap_or(&empty);
        if list.is_empty() {
            return Ok(refused(
                "the document has no events",
                vec![DocumentError::new(
                    "/epcisBody/eventList",
                    "eventList is empty.",
                )],
            ));
        }
        if list.len() > MAX_CAPTURE_EVENTS {
            return Ok(refused(
                "too many events",
                vec![DocumentError::new(
                    "/epcisBody/eventList",
                    format!(
                        "A capture may hold at most {MAX_CAPTURE_EVENTS} events; split the document."
                    ),
                )],
            ));
        }
        // A context other than EPCIS's own (extensions' namespaces) goes
        // with each event, so that the export still reads them right.
        let context = doc
            .get("@context")
            .filter(|c| **c != serde_json::json!([super::EPCIS_CONTEXT]))
            .filter(|c| c.as_str() != Some(super::EPCIS_CONTEXT))
            .cloned();
        let mut events = Vec::with_capacity(list.len());
        let mut errors = Vec::new();
        let mut seen = HashSet::new();
        for (i, event) in list.iter().enumerate() {
            let pointer = format!("/epcisBody/eventList/{i}");
            match super::describe(event, &pointer, EventSource::Capture) {
                Ok(mut e) => {
                    if !seen.insert(e.event_id.clone()) {
                        errors.push(DocumentError::new(
                            format!("{pointer}/eventID"),
                            "Another event of the document has this eventID.",
                        ));
                    }
                    if let (Some(ctx), Some(map)) = (&context, e.document.as_object_mut()) {
                        map.entry("@context").or_insert_with(|| ctx.clone());
                    }
                    e.recorded_by = caller.actor.account_id;
                    events.push(e);
                }
                Err(err) => errors.push(err),
            }
            if errors.len() >= super::MAX_REPORTED_ERRORS {
                break;
            }
        }
        if !errors.is_empty() {
            return Ok(refused("some events are not valid", errors));
        }
        let ids: Vec<String> = events.iter().map(|e| e.event_id.clone()).collect();
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if !store::stored_event_ids(&mut tx, &ids).await?.is_empty() {
            return Err(ApiError::conflict(
                "Nothing was captured: some eventIDs of the document are stored already (events are never replaced).",
            )
            .into());
        }
        let stored = match store::insert_events(&mut tx, &events).await {
            Ok(n) => n,
            Err(err) if crate::db::sqlstate(&err) == Some("23505") => {
                return Err(ApiError::conflict(
                    "Nothing was captured: some eventIDs of the document are stored already (events are never replaced).",
                )
                .into());
            }
            Err(err) => return Err(ApiError::from(err).into()),
        };
        tx.commit().await?;
        Ok(CaptureAnswer::Captured(Json(CaptureReport {
            captured: stored,
            event_ids: ids,
        })))
    }

    /// Exports the organisation's events as an EPCIS 2.0 `EPCISDocument`,
    /// in the order they were stored: all, or those of one product
    /// (`skuid`: its own events and those of the containers it was packed
    /// into, as in the journey), one `biz_step` (a CBV word such as `shipping`, or a URI),
    /// with `from` ≤ eventTime < `to`. At most `limit` (default and most
    /// 500) stored events per page; the `next-cursor` header, when present,
    /// is the `after` of the next page. A code job's commissioning is
    /// stored once and written with its codes as EPCs (SGTINs when the
    /// organisation's GS1 company prefix is set and the GTIN is its own,
    /// else `https://id.gs1.org/01/{gtin}/21/{serial}`), in ObjectEvents of
    /// at most 10,000 EPCs each; a shipment's package aggregation is
    /// written the same way with the codes the package carried as its
    /// `childEPCs` (units without codes stay in its `childQuantityList`, on
    /// the first event); the document is streamed.
    #[oai(
        path = "/epcis/events",
        method = "get",
        operation_id = "exportEpcisEvents"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn export(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        skuid: Query<Option<Text<Skuid>>>,
        biz_step: Query<Option<Text<BizStepFilter>>>,
        from: Query<Option<DateTime<Utc>>>,
        to: Query<Option<DateTime<Utc>>>,
        after: Query<Option<Text<Cursor>>>,
        #[oai(validator(minimum(value = "1"), maximum(value = "500")))] limit: Query<Option<u32>>,
    ) -> Result<ExportAnswer, LookupError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let (gtin, containers) = match &skuid.0 {
            Some(s) => {
                let p = product(&mut conn, s).await?;
                let containers = store::containers_of(&mut conn, &p.gtin, MOST_CONTAINERS).await?;
                (Some(p.gtin), containers)
            }
            None => (None, Vec::new()),
        };
        let biz_step = biz_step.0.as_ref().map(Text::parse).transpose()?;
        let after = after.0.as_ref().map(Text::parse).transpose()?;
        let limit = i64::from(limit.0.unwrap_or(EXPORT_PAGE));
        let mut rows = store::export_events(
            &mut conn,
            &ExportFilter {
                gtin: gtin.as_deref(),
                containers: &containers,
                biz_step: biz_step.as_deref(),
                from: from.0,
                to: to.0,
                after,
                limit: limit + 1,
            },
        )
        .await?;
        let next = if rows.len() as i64 > limit {
            rows.truncate(limit as usize);
            rows.last().map(|r| r.seq.to_string())
        } else {
            None
        };
        // The jobs of the page's commissioning events, whose codes the
        // document lists.
        let mut jobs = std::collections::HashMap::new();
        for row in rows.iter().filter(|r| r.source == "codes") {
            if let Some(id) = row.code_job_id
                && let Some(job) = crate::codes::store::find_job(&mut conn, id).await?
            {
                jobs.insert(id, job);
            }
        }
        // The codes the page's package aggregations carried (committed with
        // the event, so a row read has them all).
        let shipments: Vec<Uuid> = rows
            .iter()
            .filter(|r| r.shipment_package.is_some())
            .filter_map(|r| r.shipment_id)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut packages: std::collections::HashMap<(Uuid, i32), Vec<_>> =
            std::collections::HashMap::new();
        if !shipments.is_empty() {
            for c in store::package_codes(&mut conn, &shipments).await? {
                packages
                    .entry((c.shipment_id, c.package))
                    .or_default()
                    .push(c);
            }
        }
        let company_prefix = store::company_prefix(&mut conn).await?;
        drop(conn);
        let page = super::export::Page {
            rows,
            jobs,
            packages,
            company_prefix,
            created: Utc::now(),
        };
        Ok(ExportAnswer::Ok(
            super::export::StreamedJson(super::export::document(
                state.db.clone(),
                caller.tenant.clone(),
                page,
            )),
            next,
        ))
    }

    /// Records a packing (an AggregationEvent: the units into a container),
    /// shipping or receiving (ObjectEvents, of the container or of the
    /// product's units) of a product, at a location given by its GLN, as an
    /// EPCIS 2.0 event with CBV 2.0 values.
    #[oai(
        path = "/epcis/steps",
        method = "post",
        operation_id = "recordEpcisStep"
    )]
    async fn record(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<RecordStep>,
    ) -> Result<RecordAnswer, WriteLookupError> {
        let b = body.0;
        let lot = b.lot.parse()?;
        let container = b.container.parse()?;
        if b.step == StepKind::Packing && container.is_none() {
            return Err(ApiError::invalid_input(
                "container is required for packing: the SSCC of the case or pallet the units go into.",
            )
            .into());
        }
        let location = b.location.parse_as("location")?;
        if b.destination.0.is_some() && b.step != StepKind::Shipping {
            return Err(ApiError::invalid_input("destination is only for shipping.").into());
        }
        let destination = b.destination.parse_as("destination")?;
        let now = Utc::now();
        let at = b.event_time.0.unwrap_or(now);
        if at > now + chrono::Duration::minutes(5) {
            return Err(ApiError::invalid_input("event_time must not be in the future.").into());
        }
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let product = product(&mut tx, &b.skuid).await?;
        let step = Step {
            kind: b.step,
            gtin: &product.gtin,
            lot: lot.as_ref().map(LotNumber::as_str),
            quantity: b.quantity.0,
            container,
            location,
            destination,
            at,
        };
        let doc = super::step_event(&step);
        let mut event = super::describe(&doc, "", EventSource::Recorded).map_err(|e| {
            ApiError::internal(anyhow::anyhow!("a recorded step is invalid: {e:?}"))
        })?;
        event.recorded_by = caller.actor.account_id;
        let event_id = event.event_id.clone();
        store::insert_events(&mut tx, &[event]).await?;
        let row = store::find_event(&mut tx, &event_id)
            .await?
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the recorded event vanished")))?;
        tx.commit().await?;
        Ok(RecordAnswer::Recorded(Json(EventView::from_row(&row))))
    }

    /// The spec's product journey of the product `skuid`: a timeline,
    /// oldest first, of its EPCIS events (commissioning, packing, shipping,
    /// receiving, transformations; also those of the containers it was
    /// packed into) and of consumers' scans as observations per day and
    /// country. An unknown skuid is a 404.
    #[oai(
        path = "/product-journey",
        method = "get",
        operation_id = "productJourney"
    )]
    async fn journey(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        skuid: Query<Text<Skuid>>,
    ) -> Result<JsonOk<ProductJourney>, LookupError> {
        let now = Utc::now();
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let product = product(&mut conn, &skuid.0).await?;
        let (_, rows, events_truncated) = events_of(&mut conn, &product).await?;
        let observations = store::observations(&mut conn, product.id, MOST_EVENTS + 1).await?;
        let observations_truncated = observations.len() as i64 > MOST_EVENTS;
        let skip = usize::from(observations_truncated);
        let mut steps: Vec<JourneyStep> = rows
            .iter()
            .map(|row| JourneyStep {
                kind: JourneyStepKind::Event,
                at: row.event_time,
                event: Some(EventView::from_row(row)),
                observation: None,
            })
            .chain(observations.into_iter().skip(skip).map(|o| JourneyStep {
                kind: JourneyStepKind::Observation,
                at: day_end(o.day, now),
                event: None,
                observation: Some(ScanObservation {
                    day: IsoDate(o.day),
                    country: o.country,
                    country_name: o.country_name,
                    scans: o.scans,
                    first_scans: o.first_scans,
                    genuine: o.genuine,
                    suspicious: o.suspicious,
                    not_recognised: o.not_recognised,
                }),
            }))
            .collect();
        // By day; within a day its events, then its scans (whose time is
        // only the day's).
        steps.sort_by_key(|s| {
            (
                s.at.date_naive(),
                s.kind == JourneyStepKind::Observation,
                s.at,
            )
        });
        Ok(JsonOk(ProductJourney {
            product: TracedProduct::from(&product),
            steps,
            truncated: events_truncated || observations_truncated,
        }))
    }

    /// The spec's traceability of the product `skuid`: upstream (which lots
    /// and code jobs were commissioned, what transformations produced it)
    /// and downstream (which containers its units were packed into, where
    /// it or they were shipped and received, what it was transformed
    /// into). An unknown skuid is a 404.
    #[oai(path = "/traceability", method = "get", operation_id = "traceability")]
    async fn traceability(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        skuid: Query<Text<Skuid>>,
    ) -> Result<JsonOk<Traceability>, LookupError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let product = product(&mut conn, &skuid.0).await?;
        let (containers, rows, truncated) = events_of(&mut conn, &product).await?;
        let scans = store::scan_total(&mut conn, product.id).await?;
        let gtin = product.gtin.as_str();
        let mut lots = Vec::new();
        let mut up = Upstream {
            commissioned: vec![],
            transformed_from: vec![],
        };
        let mut down = Downstream {
            containers,
            packed_into: vec![],
            shipped: vec![],
            received: vec![],
            transformed_into: vec![],
        };
        for row in &rows {
            let view = EventView::from_row(row);
            if view.event_type == "TransformationEvent" {
                if view.produces(gtin) {
                    up.transformed_from.push(view.clone());
                }
                if view.consumes(gtin) {
                    down.transformed_into.push(view);
                }
            } else if is_step(&view, &["commissioning"]) {
                for q in &view.quantities {
                    if let Some((_, lot)) = q.epc_class.split_once("/10/") {
                        // A lot whose escapes do not decode is shown as written.
                        let lot = lot.split('/').next().unwrap_or_default();
                        let lot = gs1::percent_decode(lot).unwrap_or_else(|| lot.to_string());
                        if !lots.contains(&lot) {
                            lots.push(lot);
                        }
                    }
                }
                up.commissioned.push(view);
            } else if view.event_type == "AggregationEvent" && view.action.as_deref() == Some("ADD")
            {
                down.packed_into.push(view);
            } else if is_step(&view, &["shipping", "departing"]) {
                down.shipped.push(view);
            } else if is_step(&view, &["receiving", "arriving", "accepting"]) {
                down.received.push(view);
            }
        }
        Ok(JsonOk(Traceability {
            product: TracedProduct::from(&product),
            lots,
            upstream: up,
            downstream: down,
            scans,
            truncated,
        }))
    }
}
