//! SQL of scans: the GTIN registry lookup (platform), and `scans`,
//! `code_scan_state`, `scan_rollup`, `scan_bots` and the scan rules in
//! `org_settings` (tenant schema).

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::ingest::NewScan;
use super::{Place, ScanSettings};
use crate::tenants::TenantRef;
use crate::tenants::store::TenantRefRow;

/// The active tenant that holds a GTIN-14 in the platform's registry.
pub async fn gtin_holder<'e>(
    db: impl PgExecutor<'e>,
    gtin: &str,
) -> anyhow::Result<Option<TenantRef>> {
    let row: Option<TenantRefRow> = sqlx::query_as(
        "SELECT t.id, t.client_id, t.kind, t.schema_name, t.role_name
         FROM platform.gtins g JOIN platform.tenants t ON t.id = g.tenant_id
         WHERE g.gtin = $1 AND t.status = 'active'",
    )
    .bind(gtin)
    .fetch_optional(db)
    .await?;
    row.map(TenantRefRow::into_ref).transpose()
}

/// The tenant's product with a GTIN-14 (archived ones too: their packs are
/// still out there).
pub async fn product_of_gtin(
    conn: &mut PgConnection,
    gtin: &str,
) -> Result<Option<Uuid>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM products WHERE gtin = $1")
        .bind(gtin)
        .fetch_optional(conn)
        .await
}

/// A code of the tenant as a scan finds it.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct ScannedCode {
    pub product_id: Uuid,
    pub gtin: String,
    pub lot_number: Option<String>,
    pub manufactured_on: Option<NaiveDate>,
    pub expires_on: Option<NaiveDate>,
    /// The status of the code job's lot (`lots.status`), when it has one.
    pub lot_status: Option<String>,
    pub product_name: String,
    pub skuid: String,
    /// Scans recorded before this one (0: never scanned).
    pub scans: i32,
    pub suspicious: bool,
}

pub async fn find_code(
    conn: &mut PgConnection,
    serial: i64,
) -> Result<Option<ScannedCode>, sqlx::Error> {
    sqlx::query_as(
        "SELECT j.product_id, j.gtin, l.number AS lot_number, l.manufactured_on, l.expires_on,
                l.status AS lot_status, p.product_name, p.skuid, coalesce(s.scans, 0) AS scans,
                coalesce(s.suspicious, false) AS suspicious
         FROM codes c
         JOIN code_jobs j ON j.seq = c.job_seq
         JOIN products p ON p.id = j.product_id
         LEFT JOIN lots l ON l.id = j.lot_id
         LEFT JOIN code_scan_state s ON s.serial = c.serial
         WHERE c.serial = $1",
    )
    .bind(serial)
    .fetch_optional(conn)
    .await
}

// Counters that every scan adds to (the day's rollup per product and place,
// the day's consumers, the day's bots) are split into shards (migration
// 0010): a writer adds to a shard of its key that no other writer holds
// (`scan_rollup_shard(…)` and the like, which lock it), and opens a new one
// only when every shard is held, so parallel writers do not queue behind one
// row. Readers sum over the shards.

/// What recording a person's scan of a real code found and decided.
#[derive(Debug)]
pub struct Recorded {
    /// The code, with the scans before this one and the verdict after it.
    pub code: ScannedCode,
    /// The scan's id (a review refers to it).
    pub scan_id: i64,
    /// The same consumer had scanned this code before (see
    /// [`super::ScanConsumer::counted_as`]).
    pub seen_before: bool,
}

/// A row of [`write_scans`]: the scan's place in the batch, its id, and its
/// code when the URI named one.
#[derive(sqlx::FromRow)]
struct WrittenScan {
    ord: i64,
    scan_id: i64,
    product_id: Option<Uuid>,
    gtin: Option<String>,
    lot_number: Option<String>,
    manufactured_on: Option<NaiveDate>,
    expires_on: Option<NaiveDate>,
    lot_status: Option<String>,
    product_name: Option<String>,
    skuid: Option<String>,
    scans: Option<i32>,
    suspicious: Option<bool>,
    seen_before: Option<bool>,
}

/// Writes people's scans in one statement (the batch of
/// [`super::ingest`]: each code and each consumer at most once): for each
/// URI that names a code of the tenant (its serial, with the URI's GTIN and
/// lot matching the code's), the code's consumer (once per code and
/// consumer), the code's count, distinct consumers and verdict (its row
/// locked, so that a scan in a parallel statement counts after or before,
/// never alongside); for every scan, the raw scan (`not_recognised` when the URI
/// names no code, counted against the GTIN's product if the tenant has
/// one), the day's rollup per product and place, and the consumer with the
/// day's consumers and sessions.
///
/// One answer per scan, in order: its code, with the scans before this one
/// and the verdict after it, or `None`.
pub async fn write_scans(
    conn: &mut PgConnection,
    scans: &[&NewScan],
) -> Result<Vec<Option<Recorded>>, sqlx::Error> {
    let rows: Vec<WrittenScan> = sqlx::query_as(
        "WITH input AS (
             SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[],
                                  $6::text[], $7::text[], $8::text[], $9::text[], $10::real[],
                                  $11::real[], $12::text[], $13::int[], $14::uuid[], $15::uuid[])
                 WITH ORDINALITY AS i(serial, gtin, lot, serial_text, agent, country, country_name,
                                      region, city, lat, lon, source, accuracy, consumer,
                                      counted_as, ord)
         ), code AS (
             SELECT i.ord, c.serial, j.product_id, j.gtin, l.number AS lot_number,
                    l.manufactured_on, l.expires_on, l.status AS lot_status, p.product_name, p.skuid
             FROM input i
             JOIN codes c ON c.serial = i.serial
             JOIN code_jobs j ON j.seq = c.job_seq
             JOIN products p ON p.id = j.product_id
             LEFT JOIN lots l ON l.id = j.lot_id
             WHERE j.gtin = i.gtin AND (i.lot IS NULL OR l.number = i.lot)
         ), rules AS (
             SELECT suspicious_scan_count, suspicious_distance_km, suspicious_window_hours
             FROM org_settings
         ), met AS (
             -- The code's consumers, each once: a pair already there (an
             -- earlier scan, or a parallel statement's, waited for) is a
             -- repeat scan by that consumer.
             INSERT INTO code_scan_consumers (serial, consumer, first_at)
             SELECT code.serial, i.counted_as, now() FROM code JOIN input i USING (ord)
             ON CONFLICT (serial, consumer) DO NOTHING
             RETURNING serial
         ), state AS (
             -- A code turns suspicious (and stays so) when more distinct
             -- consumers than the rule allows have scanned it, or when a
             -- consumer scans it far from where another consumer did within
             -- the window. Repeat scans by one consumer change neither.
             INSERT INTO code_scan_state AS s
                 (serial, product_id, scans, consumers, first_at, last_at, last_lat, last_lon,
                  last_consumer)
             SELECT code.serial, code.product_id, 1, (met.serial IS NOT NULL)::int, now(), now(),
                    i.lat, i.lon, i.counted_as
             FROM code JOIN input i USING (ord) LEFT JOIN met ON met.serial = code.serial
             ON CONFLICT (serial) DO UPDATE SET
                 scans = s.scans + 1,
                 consumers = s.consumers + EXCLUDED.consumers,
                 last_at = now(),
                 last_lat = coalesce(EXCLUDED.last_lat, s.last_lat),
                 last_lon = coalesce(EXCLUDED.last_lon, s.last_lon),
                 last_consumer = CASE WHEN EXCLUDED.last_lat IS NOT NULL
                                      THEN EXCLUDED.last_consumer ELSE s.last_consumer END,
                 suspicious = s.suspicious
                     OR s.consumers + EXCLUDED.consumers > (SELECT suspicious_scan_count FROM rules)
                     OR (EXCLUDED.last_lat IS NOT NULL AND s.last_lat IS NOT NULL
                         AND EXCLUDED.last_consumer IS DISTINCT FROM s.last_consumer
                         AND now() - s.last_at
                             <= make_interval(hours => (SELECT suspicious_window_hours FROM rules))
                         AND 2 * 6371 * asin(least(1, sqrt(
                                 power(sin(radians(EXCLUDED.last_lat - s.last_lat) / 2), 2)
                                 + cos(radians(s.last_lat)) * cos(radians(EXCLUDED.last_lat))
                                   * power(sin(radians(EXCLUDED.last_lon - s.last_lon) / 2), 2))))
                             > (SELECT suspicious_distance_km FROM rules))
             RETURNING s.serial, s.scans, s.suspicious
         ), scan AS (
             INSERT INTO scans (serial, gtin, lot, serial_text, product_id, verdict, first_scan,
                                agent_class, country, country_name, region, city, lat, lon,
                                location_source, location_accuracy_km, consumer_id, counted_as)
             SELECT code.serial, i.gtin, i.lot, i.serial_text,
                    coalesce(code.product_id, (SELECT id FROM products p WHERE p.gtin = i.gtin)),
                    CASE WHEN code.serial IS NULL THEN 'not_recognised'
                         WHEN state.suspicious THEN 'suspicious' ELSE 'genuine' END,
                    CASE WHEN code.serial IS NOT NULL THEN state.scans = 1 END,
                    i.agent, i.country, i.country_name, i.region, i.city, i.lat, i.lon,
                    i.source, i.accuracy, i.consumer,
                    CASE WHEN code.serial IS NOT NULL THEN i.counted_as END
             FROM input i
             LEFT JOIN code USING (ord)
             LEFT JOIN state ON state.serial = code.serial
             ORDER BY i.ord
             RETURNING id, consumer_id, verdict, first_scan, country, country_name, region, city,
                       lat, lon,
                       coalesce(product_id, '00000000-0000-0000-0000-000000000000'::uuid) AS product
         ), place AS (
             SELECT (now() AT TIME ZONE 'UTC')::date AS day, product, country,
                    max(country_name) AS country_name, region, city,
                    avg(lat)::real AS lat, avg(lon)::real AS lon, count(*) AS scans,
                    count(*) FILTER (WHERE first_scan) AS first_scans,
                    count(*) FILTER (WHERE verdict = 'genuine') AS genuine,
                    count(*) FILTER (WHERE verdict = 'suspicious') AS suspicious,
                    count(*) FILTER (WHERE verdict = 'not_recognised') AS not_recognised
             FROM scan GROUP BY product, country, region, city
         ), rollup AS (
             INSERT INTO scan_rollup AS r (day, product_id, country, country_name, region, city,
                                           lat, lon, shard, scans, first_scans, genuine,
                                           suspicious, not_recognised)
             SELECT place.day, place.product, place.country, place.country_name, place.region,
                    place.city, place.lat, place.lon,
                    scan_rollup_shard(place.day, place.product, place.country, place.region,
                                      place.city),
                    place.scans, place.first_scans, place.genuine, place.suspicious,
                    place.not_recognised
             FROM place
             ON CONFLICT (day, product_id, country, region, city, shard) DO UPDATE SET
                 scans = r.scans + EXCLUDED.scans,
                 first_scans = r.first_scans + EXCLUDED.first_scans,
                 genuine = r.genuine + EXCLUDED.genuine,
                 suspicious = r.suspicious + EXCLUDED.suspicious,
                 not_recognised = r.not_recognised + EXCLUDED.not_recognised,
                 lat = coalesce(r.lat, EXCLUDED.lat),
                 lon = coalesce(r.lon, EXCLUDED.lon)
         ), seen AS (
             -- Parallel statements' scans of one consumer queue on its row,
             -- and each reads the time of the scan before it from the row it
             -- updates (`previous_seen`), so none is counted twice.
             INSERT INTO consumers AS k (id, first_seen, last_seen, scans, sessions)
             SELECT consumer_id, now(), now(), 1, 1 FROM scan
             ON CONFLICT (id) DO UPDATE SET
                 previous_seen = k.last_seen,
                 last_seen = now(),
                 scans = k.scans + 1,
                 sessions = k.sessions
                     + CASE WHEN k.last_seen < now() - interval '30 minutes' THEN 1 ELSE 0 END
             RETURNING k.previous_seen AS before
         ), consumer_day AS (
             -- Seen today (new, or last seen before today), new, sessions
             -- started (a first scan, or 30 minutes after the last one).
             SELECT (now() AT TIME ZONE 'UTC')::date AS day,
                    count(*) FILTER (WHERE before IS NULL
                        OR (before AT TIME ZONE 'UTC')::date < (now() AT TIME ZONE 'UTC')::date) AS consumers,
                    count(*) FILTER (WHERE before IS NULL) AS new_consumers,
                    count(*) FILTER (WHERE before IS NULL
                        OR before < now() - interval '30 minutes') AS sessions,
                    count(*) AS session_scans
             FROM seen
         ), consumer_rollup_row AS (
             INSERT INTO consumer_rollup AS r (day, shard, consumers, new_consumers, sessions,
                                               session_scans)
             SELECT consumer_day.day, consumer_rollup_shard(consumer_day.day),
                    consumer_day.consumers, consumer_day.new_consumers, consumer_day.sessions,
                    consumer_day.session_scans
             FROM consumer_day WHERE consumer_day.session_scans > 0
             ON CONFLICT (day, shard) DO UPDATE SET
                 consumers = r.consumers + EXCLUDED.consumers,
                 new_consumers = r.new_consumers + EXCLUDED.new_consumers,
                 sessions = r.sessions + EXCLUDED.sessions,
                 session_scans = r.session_scans + EXCLUDED.session_scans
         )
         SELECT i.ord, scan.id AS scan_id, code.product_id, code.gtin, code.lot_number,
                code.manufactured_on, code.expires_on, code.lot_status, code.product_name, code.skuid,
                state.scans - 1 AS scans, state.suspicious,
                CASE WHEN code.serial IS NOT NULL THEN met.serial IS NULL END AS seen_before
         FROM input i
         JOIN scan ON scan.consumer_id = i.consumer
         LEFT JOIN code USING (ord)
         LEFT JOIN state ON state.serial = code.serial
         LEFT JOIN met ON met.serial = code.serial",
    )
    .bind(scans.iter().map(|s| s.serial).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.gtin.as_str()).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.lot.as_deref()).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.serial_text.as_str()).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.agent).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.place.country.as_str()).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.place.country_name.as_str()).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.place.region.as_str()).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.place.city.as_str()).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.place.lat).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.place.lon).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.place.source).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.place.accuracy_km).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.consumer).collect::<Vec<_>>())
    .bind(scans.iter().map(|s| s.counted_as).collect::<Vec<_>>())
    .fetch_all(conn)
    .await?;
    let mut answers: Vec<Option<Recorded>> = scans.iter().map(|_| None).collect();
    for row in rows {
        let code = match (row.product_id, row.gtin, row.product_name, row.skuid) {
            (Some(product_id), Some(gtin), Some(product_name), Some(skuid)) => ScannedCode {
                product_id,
                gtin,
                lot_number: row.lot_number,
                manufactured_on: row.manufactured_on,
                expires_on: row.expires_on,
                lot_status: row.lot_status,
                product_name,
                skuid,
                scans: row.scans.unwrap_or_default(),
                suspicious: row.suspicious.unwrap_or_default(),
            },
            _ => continue,
        };
        let slot = usize::try_from(row.ord - 1)
            .ok()
            .and_then(|i| answers.get_mut(i));
        if let Some(slot) = slot {
            *slot = Some(Recorded {
                code,
                scan_id: row.scan_id,
                seen_before: row.seen_before.unwrap_or_default(),
            });
        }
    }
    Ok(answers)
}

/// Per day: consumers seen, new consumers, sessions started, their scans.
#[derive(sqlx::FromRow, Debug)]
pub struct ConsumerDay {
    pub day: NaiveDate,
    pub consumers: i64,
    pub new_consumers: i64,
    pub sessions: i64,
    pub session_scans: i64,
}

pub async fn consumer_days(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<ConsumerDay>, sqlx::Error> {
    sqlx::query_as(
        "SELECT day, sum(consumers)::bigint AS consumers,
                sum(new_consumers)::bigint AS new_consumers, sum(sessions)::bigint AS sessions,
                sum(session_scans)::bigint AS session_scans
         FROM consumer_rollup WHERE day BETWEEN $1 AND $2 GROUP BY day ORDER BY day",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

/// Counts a bot's or link preview's hit (today, UTC).
pub async fn count_bot(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO scan_bots AS b (day, shard, hits)
         VALUES ((now() AT TIME ZONE 'UTC')::date,
                 scan_bots_shard((now() AT TIME ZONE 'UTC')::date), 1)
         ON CONFLICT (day, shard) DO UPDATE SET hits = b.hits + 1",
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn settings(conn: &mut PgConnection) -> Result<ScanSettings, sqlx::Error> {
    let (count, km, hours): (i32, i32, i32) = sqlx::query_as(
        "SELECT suspicious_scan_count, suspicious_distance_km, suspicious_window_hours FROM org_settings",
    )
    .fetch_one(conn)
    .await?;
    Ok(ScanSettings {
        suspicious_scan_count: count,
        suspicious_distance_km: km,
        suspicious_window_hours: hours,
    })
}

pub async fn set_settings(
    conn: &mut PgConnection,
    rules: &ScanSettings,
    by: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE org_settings SET suspicious_scan_count = $1, suspicious_distance_km = $2,
                suspicious_window_hours = $3, updated_at = now(), updated_by = $4",
    )
    .bind(rules.suspicious_scan_count)
    .bind(rules.suspicious_distance_km)
    .bind(rules.suspicious_window_hours)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Sums of the rollup over a range of days (either end open when `None`).
#[derive(sqlx::FromRow, Debug, Default)]
pub struct Totals {
    pub scans: i64,
    pub first_scans: i64,
    pub genuine: i64,
    pub suspicious: i64,
    pub not_recognised: i64,
}

pub async fn totals(
    conn: &mut PgConnection,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Totals, sqlx::Error> {
    sqlx::query_as(
        "SELECT coalesce(sum(scans), 0)::bigint AS scans,
                coalesce(sum(first_scans), 0)::bigint AS first_scans,
                coalesce(sum(genuine), 0)::bigint AS genuine,
                coalesce(sum(suspicious), 0)::bigint AS suspicious,
                coalesce(sum(not_recognised), 0)::bigint AS not_recognised
         FROM scan_rollup
         WHERE ($1::date IS NULL OR day >= $1) AND ($2::date IS NULL OR day <= $2)",
    )
    .bind(from)
    .bind(to)
    .fetch_one(conn)
    .await
}

#[derive(sqlx::FromRow, Debug)]
pub struct DayRow {
    pub day: NaiveDate,
    pub scans: i64,
    pub first_scans: i64,
    pub genuine: i64,
    pub suspicious: i64,
    pub not_recognised: i64,
}

pub async fn by_day(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<DayRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT day, sum(scans)::bigint AS scans, sum(first_scans)::bigint AS first_scans,
                sum(genuine)::bigint AS genuine, sum(suspicious)::bigint AS suspicious,
                sum(not_recognised)::bigint AS not_recognised
         FROM scan_rollup WHERE day BETWEEN $1 AND $2
         GROUP BY day ORDER BY day",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

#[derive(sqlx::FromRow, Debug)]
pub struct ProductRow {
    pub product_id: Uuid,
    pub product_name: Option<String>,
    pub skuid: Option<String>,
    pub scans: i64,
}

/// Scans per product, most scanned first (the nil id: scans of the
/// tenant's GTINs that name no product of it).
pub async fn by_product(
    conn: &mut PgConnection,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Vec<ProductRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.product_id, p.product_name, p.skuid, sum(r.scans)::bigint AS scans
         FROM scan_rollup r LEFT JOIN products p ON p.id = r.product_id
         WHERE ($1::date IS NULL OR r.day >= $1) AND ($2::date IS NULL OR r.day <= $2)
         GROUP BY r.product_id, p.product_name, p.skuid
         ORDER BY scans DESC, r.product_id",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

#[derive(sqlx::FromRow, Debug)]
pub struct PlaceRow {
    pub country: String,
    pub country_name: String,
    pub region: String,
    pub city: String,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub scans: i64,
}

/// Scans per place, most first (at most 1,000 places).
pub async fn by_place(
    conn: &mut PgConnection,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
) -> Result<Vec<PlaceRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT country, max(country_name) AS country_name, region, city,
                avg(lat)::float8 AS lat, avg(lon)::float8 AS lon, sum(scans)::bigint AS scans
         FROM scan_rollup
         WHERE ($1::date IS NULL OR day >= $1) AND ($2::date IS NULL OR day <= $2)
         GROUP BY country, region, city
         -- A place whose scans moved to the place a browser gave keeps a
         -- row with nothing left in it.
         HAVING sum(scans) > 0
         ORDER BY scans DESC, country, region, city
         LIMIT 1000",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

pub async fn bot_hits(
    conn: &mut PgConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT coalesce(sum(hits), 0)::bigint FROM scan_bots WHERE day BETWEEN $1 AND $2",
    )
    .bind(from)
    .bind(to)
    .fetch_one(conn)
    .await
}

/// One of the most scanned codes.
#[derive(sqlx::FromRow, Debug)]
pub struct ScannedCodeState {
    pub serial: i64,
    pub product_id: Uuid,
    pub product_name: Option<String>,
    pub scans: i32,
    /// Distinct consumers (see [`super::ScanConsumer::counted_as`]).
    pub consumers: i32,
    pub suspicious: bool,
    pub first_at: DateTime<Utc>,
    pub last_at: DateTime<Utc>,
}

/// The most scanned codes, most first.
pub async fn most_scanned(
    conn: &mut PgConnection,
    limit: i64,
) -> Result<Vec<ScannedCodeState>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.serial, s.product_id, p.product_name, s.scans, s.consumers, s.suspicious,
                s.first_at, s.last_at
         FROM code_scan_state s LEFT JOIN products p ON p.id = s.product_id
         ORDER BY s.scans DESC, s.serial LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// A scanned code's state, if it has been scanned.
pub async fn code_state(
    conn: &mut PgConnection,
    serial: i64,
) -> Result<Option<ScannedCodeState>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.serial, s.product_id, p.product_name, s.scans, s.consumers, s.suspicious,
                s.first_at, s.last_at
         FROM code_scan_state s LEFT JOIN products p ON p.id = s.product_id
         WHERE s.serial = $1",
    )
    .bind(serial)
    .fetch_optional(conn)
    .await
}

/// A scan of one code, for its history.
#[derive(sqlx::FromRow, Debug)]
pub struct CodeScanRow {
    pub scanned_at: DateTime<Utc>,
    pub verdict: String,
    pub first_scan: bool,
    /// The first scan of the code by this consumer.
    pub consumer_first: bool,
    /// The consumer's number for this code (1: the first who scanned it);
    /// `None` for scans older than the consumer cookie.
    pub consumer_number: Option<i64>,
    pub country: String,
    pub country_name: String,
    pub region: String,
    pub city: String,
    pub location_source: String,
}

/// A code's scans, newest first (at most `limit`), each with its consumer
/// numbered in the order they first scanned the code (the consumer the
/// verdict counted, or for scans before that was kept, their cookie's id).
pub async fn code_history(
    conn: &mut PgConnection,
    serial: i64,
    limit: i64,
) -> Result<Vec<CodeScanRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH k AS (
             SELECT id, coalesce(counted_as, consumer_id) AS who FROM scans WHERE serial = $1
         ), n AS (
             SELECT who, min(id) AS first_id, row_number() OVER (ORDER BY min(id)) AS number
             FROM k WHERE who IS NOT NULL GROUP BY who
         )
         SELECT s.scanned_at, s.verdict, coalesce(s.first_scan, false) AS first_scan,
                coalesce(n.first_id = s.id, false) AS consumer_first,
                n.number AS consumer_number, s.country, s.country_name, s.region, s.city,
                s.location_source
         FROM k JOIN scans s ON s.id = k.id LEFT JOIN n ON n.who = k.who
         ORDER BY s.id DESC LIMIT $2",
    )
    .bind(serial)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Codes generated per product.
pub async fn generated_per_product(
    conn: &mut PgConnection,
) -> Result<Vec<(Uuid, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT product_id, sum(generated)::bigint FROM code_jobs GROUP BY product_id ORDER BY product_id",
    )
    .fetch_all(conn)
    .await
}

/// A scan as the platform admins' list shows it.
#[derive(sqlx::FromRow, Debug)]
pub struct RecentScan {
    pub id: i64,
    pub scanned_at: DateTime<Utc>,
    pub verdict: String,
    pub product_name: Option<String>,
    pub country: String,
    pub region: String,
    pub city: String,
    pub lat: Option<f32>,
    pub lon: Option<f32>,
}

/// The newest scans, newest first.
pub async fn recent(conn: &mut PgConnection, limit: i64) -> Result<Vec<RecentScan>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.id, s.scanned_at, s.verdict, p.product_name, s.country, s.region, s.city, s.lat, s.lon
         FROM scans s LEFT JOIN products p ON p.id = s.product_id
         ORDER BY s.id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Active brands with their names, for the platform admins' list.
pub async fn active_brands<'e>(
    db: impl PgExecutor<'e>,
    client_id: Option<&str>,
) -> anyhow::Result<Vec<(TenantRef, String)>> {
    #[derive(sqlx::FromRow)]
    struct Brand {
        #[sqlx(flatten)]
        tenant: TenantRefRow,
        name: String,
    }
    let rows: Vec<Brand> = sqlx::query_as(
        "SELECT id, client_id, kind, schema_name, role_name, name FROM platform.tenants
         WHERE kind = 'brand' AND status = 'active'
           AND ($1::text IS NULL OR lower(client_id) = lower($1))
         ORDER BY client_id",
    )
    .bind(client_id)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|b| Ok((b.tenant.into_ref()?, b.name)))
        .collect()
}

/// Moves a scan to the place the consumer's browser gave (with their
/// consent), once: the scan row, its count from the old place's rollup row
/// to the new one's, and its code's last place when it is the code's latest
/// scan. False when there is no such scan or it already has
/// its browser place.
pub async fn relocate(
    conn: &mut PgConnection,
    scan_id: i64,
    place: &Place,
) -> Result<bool, sqlx::Error> {
    let moved: Option<i64> = sqlx::query_scalar(
        "WITH old AS (
             SELECT id, scanned_at, serial, coalesce(product_id, '00000000-0000-0000-0000-000000000000'::uuid) AS product,
                    country, region, city, verdict, coalesce(first_scan, false) AS first,
                    coalesce(counted_as, consumer_id) AS counted_as
             FROM scans WHERE id = $1 AND location_source <> 'browser'
             FOR UPDATE
         ), latest AS (
             -- When this is still the code's latest scan (the statement that
             -- recorded it set `last_at` to its time), the code's last place
             -- becomes this one: the next scan's distance rule measures from
             -- where the consumer really was.
             UPDATE code_scan_state c SET last_lat = $6, last_lon = $7,
                    last_consumer = old.counted_as
             FROM old WHERE c.serial = old.serial AND c.last_at = old.scanned_at
         ), moved AS (
             UPDATE scans s SET country = $2, country_name = $3, region = $4, city = $5,
                    lat = $6, lon = $7, location_source = 'browser', location_accuracy_km = $8
             FROM old WHERE s.id = old.id
             RETURNING old.id, (old.scanned_at AT TIME ZONE 'UTC')::date AS day, old.product,
                       old.country, old.region, old.city, old.verdict, old.first
         ), one AS (
             -- The scan is counted in one of its key's shards: take it from
             -- the fullest (the figures are sums over the shards).
             SELECT r.shard FROM scan_rollup r, moved
             WHERE r.day = moved.day AND r.product_id = moved.product AND r.country = moved.country
               AND r.region = moved.region AND r.city = moved.city
             ORDER BY r.scans DESC LIMIT 1
             FOR UPDATE OF r
         ), taken AS (
             UPDATE scan_rollup r SET
                 scans = r.scans - 1,
                 first_scans = r.first_scans - moved.first::int,
                 genuine = r.genuine - (moved.verdict = 'genuine')::int,
                 suspicious = r.suspicious - (moved.verdict = 'suspicious')::int,
                 not_recognised = r.not_recognised - (moved.verdict = 'not_recognised')::int
             FROM moved, one
             WHERE r.day = moved.day AND r.product_id = moved.product AND r.country = moved.country
               AND r.region = moved.region AND r.city = moved.city AND r.shard = one.shard
         ), given AS (
             INSERT INTO scan_rollup AS r (day, product_id, country, country_name, region, city,
                                           lat, lon, scans, first_scans, genuine, suspicious,
                                           not_recognised)
             SELECT moved.day, moved.product, $2, $3, $4, $5, $6, $7, 1, moved.first::int,
                    (moved.verdict = 'genuine')::int, (moved.verdict = 'suspicious')::int,
                    (moved.verdict = 'not_recognised')::int
             FROM moved
             ON CONFLICT (day, product_id, country, region, city, shard) DO UPDATE SET
                 scans = r.scans + 1,
                 first_scans = r.first_scans + EXCLUDED.first_scans,
                 genuine = r.genuine + EXCLUDED.genuine,
                 suspicious = r.suspicious + EXCLUDED.suspicious,
                 not_recognised = r.not_recognised + EXCLUDED.not_recognised,
                 lat = coalesce(r.lat, EXCLUDED.lat),
                 lon = coalesce(r.lon, EXCLUDED.lon)
         )
         SELECT id FROM moved",
    )
    .bind(scan_id)
    .bind(&place.country)
    .bind(&place.country_name)
    .bind(&place.region)
    .bind(&place.city)
    .bind(place.lat)
    .bind(place.lon)
    .bind(place.accuracy_km)
    .fetch_optional(conn)
    .await?;
    Ok(moved.is_some())
}
