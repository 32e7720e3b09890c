//! SQL of EPCIS events: the tenant's `epcis_events`, the product a skuid
//! names, and the scan observations of a product from `scan_rollup`.

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use super::NewEvent;

/// A stored event.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct EventRow {
    pub seq: i64,
    pub event_id: String,
    pub event_type: String,
    pub action: Option<String>,
    pub event_time: DateTime<Utc>,
    pub event_time_zone_offset: String,
    pub record_time: DateTime<Utc>,
    pub biz_step: Option<String>,
    pub disposition: Option<String>,
    pub read_point: Option<String>,
    pub biz_location: Option<String>,
    pub parent_id: Option<String>,
    pub source: String,
    pub code_job_id: Option<Uuid>,
    /// With `shipment_package`: the package whose AggregationEvent this is.
    pub shipment_id: Option<Uuid>,
    pub shipment_package: Option<i32>,
    pub document: Value,
}

/// The product a skuid names (case-insensitively), unless archived.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct ProductRef {
    pub id: Uuid,
    pub product_name: String,
    pub skuid: String,
    pub gtin: String,
}

pub async fn product_by_skuid(
    conn: &mut PgConnection,
    skuid: &str,
) -> Result<Option<ProductRef>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, product_name, skuid, gtin FROM products
         WHERE lower(skuid) = lower($1) AND archived_at IS NULL",
    )
    .bind(skuid)
    .fetch_optional(conn)
    .await
}

/// Stores `events` in one statement: all of them or (on any error, such as
/// an eventID already stored) none. Answers how many were stored; a code
/// job's commissioning already stored is skipped.
pub async fn insert_events(
    conn: &mut PgConnection,
    events: &[NewEvent],
) -> Result<u64, sqlx::Error> {
    let rows = serde_json::to_value(events).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let done = sqlx::query(
        "INSERT INTO epcis_events (event_id, event_type, action, event_time, event_time_zone_offset,
                                   biz_step, disposition, read_point, biz_location, parent_id,
                                   gtins, ids, source, code_job_id, shipment_id, shipment_package,
                                   recorded_by, document)
         SELECT event_id, event_type, action, event_time, event_time_zone_offset,
                biz_step, disposition, read_point, biz_location, parent_id,
                gtins, ids, source, code_job_id, shipment_id, shipment_package, recorded_by,
                document
         FROM jsonb_to_recordset($1) AS e(event_id text, event_type text, action text,
                event_time timestamptz, event_time_zone_offset text, biz_step text,
                disposition text, read_point text, biz_location text, parent_id text,
                gtins text[], ids text[], source text, code_job_id uuid, shipment_id uuid,
                shipment_package integer, recorded_by uuid, document jsonb)
         ON CONFLICT (code_job_id) WHERE source = 'codes' DO NOTHING",
    )
    .bind(rows)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Which of `event_ids` are stored already.
pub async fn stored_event_ids(
    conn: &mut PgConnection,
    event_ids: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT event_id FROM epcis_events WHERE event_id = ANY($1)")
        .bind(event_ids)
        .fetch_all(conn)
        .await
}

/// The event `event_id`.
pub async fn find_event(
    conn: &mut PgConnection,
    event_id: &str,
) -> Result<Option<EventRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT seq, event_id, event_type, action, event_time, event_time_zone_offset, record_time,
                biz_step, disposition, read_point, biz_location, parent_id, source, code_job_id,
                shipment_id, shipment_package, document
         FROM epcis_events WHERE event_id = $1",
    )
    .bind(event_id)
    .fetch_optional(conn)
    .await
}

/// The containers (parentIDs) the product's units were packed into, and
/// those these were packed into (up to four levels), at most `limit`.
pub async fn containers_of(
    conn: &mut PgConnection,
    gtin: &str,
    limit: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "WITH RECURSIVE packed (id, depth) AS (
             SELECT parent_id, 1 FROM epcis_events
             WHERE event_type = 'AggregationEvent' AND parent_id IS NOT NULL
               AND gtins @> ARRAY[$1::text]
           UNION
             -- The containers those were packed into (cases into pallets,
             -- pallets into containers), a few levels up at most.
             SELECT e.parent_id, packed.depth + 1
             FROM packed JOIN epcis_events e
               ON e.event_type = 'AggregationEvent' AND e.parent_id IS NOT NULL
              AND e.ids @> ARRAY[packed.id]
             WHERE packed.depth < 4
         )
         SELECT DISTINCT id FROM packed
         ORDER BY id
         LIMIT $2",
    )
    .bind(gtin)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The product's events (naming its GTIN, or one of `containers`), oldest
/// first; at most `limit`, the newest ones when there are more.
pub async fn product_events(
    conn: &mut PgConnection,
    gtin: &str,
    containers: &[String],
    limit: i64,
) -> Result<Vec<EventRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT * FROM (
             SELECT seq, event_id, event_type, action, event_time, event_time_zone_offset,
                    record_time, biz_step, disposition, read_point, biz_location, parent_id,
                    source, code_job_id, shipment_id, shipment_package, document
             FROM epcis_events
             WHERE gtins @> ARRAY[$1::text] OR ids && $2::text[]
             ORDER BY event_time DESC, seq DESC
             LIMIT $3) newest
         ORDER BY event_time, seq",
    )
    .bind(gtin)
    .bind(containers)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The export's filters.
pub struct ExportFilter<'a> {
    pub gtin: Option<&'a str>,
    /// With `gtin`: the containers its units were packed into, whose
    /// events are the product's too.
    pub containers: &'a [String],
    pub biz_step: Option<&'a str>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
    /// Events stored after this one (the page cursor).
    pub after: Option<i64>,
    pub limit: i64,
}

/// Events for the export, in the order they were stored.
pub async fn export_events(
    conn: &mut PgConnection,
    f: &ExportFilter<'_>,
) -> Result<Vec<EventRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT seq, event_id, event_type, action, event_time, event_time_zone_offset, record_time,
                biz_step, disposition, read_point, biz_location, parent_id, source, code_job_id,
                shipment_id, shipment_package, document
         FROM epcis_events
         WHERE ($1::text IS NULL OR gtins @> ARRAY[$1::text] OR ids && $7::text[])
           AND ($2::text IS NULL OR biz_step = $2)
           AND ($3::timestamptz IS NULL OR event_time >= $3)
           AND ($4::timestamptz IS NULL OR event_time < $4)
           AND ($5::bigint IS NULL OR seq > $5)
         ORDER BY seq
         LIMIT $6",
    )
    .bind(f.gtin)
    .bind(f.biz_step)
    .bind(f.from)
    .bind(f.to)
    .bind(f.after)
    .bind(f.limit)
    .bind(f.containers)
    .fetch_all(conn)
    .await
}

/// A run of codes a shipment's package carried (`shipment_codes`):
/// positions `first_position` to `last_position` of code job `job_seq`
/// (made with `gtin`), counted in the class `epc_class` of the package's
/// stored AggregationEvent.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct PackageCodesRow {
    pub shipment_id: Uuid,
    pub package: i32,
    pub job_seq: i32,
    pub gtin: String,
    pub first_position: i32,
    pub last_position: i32,
    pub epc_class: String,
}

/// The runs of codes the packages of the shipments `ids` carried, by
/// shipment, package, job and position.
pub async fn package_codes(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<PackageCodesRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT sc.shipment_id, sc.package, sc.job_seq, j.gtin, sc.first_position,
                sc.last_position, sc.epc_class
           FROM shipment_codes sc
           JOIN code_jobs j ON j.seq = sc.job_seq
          WHERE sc.shipment_id = ANY($1)
          ORDER BY sc.shipment_id, sc.package, sc.job_seq, sc.first_position",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// Scans of a product on one day from one country.
#[derive(sqlx::FromRow, Debug)]
pub struct ObservationRow {
    pub day: NaiveDate,
    pub country: String,
    pub country_name: String,
    pub scans: i64,
    pub first_scans: i64,
    pub genuine: i64,
    pub suspicious: i64,
    pub not_recognised: i64,
}

/// The product's scans per day and country (from the rollup, never the raw
/// scans), oldest first; the newest `limit` groups.
pub async fn observations(
    conn: &mut PgConnection,
    product_id: Uuid,
    limit: i64,
) -> Result<Vec<ObservationRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT * FROM (
             SELECT day, country, max(country_name) AS country_name,
                    sum(scans)::bigint AS scans, sum(first_scans)::bigint AS first_scans,
                    sum(genuine)::bigint AS genuine, sum(suspicious)::bigint AS suspicious,
                    sum(not_recognised)::bigint AS not_recognised
             FROM scan_rollup
             WHERE product_id = $1
             GROUP BY day, country
             ORDER BY day DESC, country
             LIMIT $2) newest
         ORDER BY day, country",
    )
    .bind(product_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Consumers' scans of the product, in all (from the rollup).
pub async fn scan_total(conn: &mut PgConnection, product_id: Uuid) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT coalesce(sum(scans), 0)::bigint FROM scan_rollup WHERE product_id = $1",
    )
    .bind(product_id)
    .fetch_one(conn)
    .await
}

/// The organisation's GS1 company prefix, when it has set one.
pub async fn company_prefix(conn: &mut PgConnection) -> Result<Option<String>, sqlx::Error> {
    let prefix: Option<Option<String>> =
        sqlx::query_scalar("SELECT gs1_company_prefix FROM org_settings")
            .fetch_optional(conn)
            .await?;
    Ok(prefix.flatten())
}
