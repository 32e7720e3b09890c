//! The scan operations: the brand's analytics (the spec's
//! `GET /api/brand-scans`, and `GET /api/scan-analytics` for the
//! dashboard), its suspicious-scan rules, and the platform admins' list of
//! scans across brands. Every figure is a sum over `scan_rollup`, so the
//! answers take the same time with ten thousand scans or ten million.

use chrono::{Duration, NaiveDate, Utc};
use futures_util::StreamExt;
use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use uuid::Uuid;

use super::{ScanSettings, Verdict, store};
use crate::audit;
use crate::codes::Serial;
use crate::http::error::{AccessError, ApiError, LookupError, QueryError, WriteError};
use crate::http::input::{IsoDate, Text};
use crate::http::response::JsonOk;
use crate::http::security::{SignedIn, TenantSession};
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::tenants::TenantRef;
use crate::tenants::onboard::ClientIdInPath;

#[derive(Default)]
pub struct ScansApi;

/// One of the most scanned codes.
#[derive(Object, Debug)]
pub struct ScanRecord {
    /// The code's serial.
    pub id: String,
    pub product_id: Uuid,
    /// Scans of the code since it was made.
    pub scan_count: i64,
    /// Distinct consumers who scanned it (repeat scans by one consumer
    /// count once).
    pub consumers: i64,
    /// The code is suspicious under the organisation's rules: it may have
    /// been copied. `GET /code-scans/{id}` shows its history.
    pub suspicious: bool,
}

/// A scan of one code, for its history.
#[derive(Object, Debug)]
pub struct CodeScan {
    pub scanned_at: chrono::DateTime<Utc>,
    /// The verdict this scan was given.
    pub verdict: Verdict,
    /// The code's first scan.
    pub first_scan: bool,
    /// The first scan of the code by this consumer; false for a repeat.
    pub consumer_first: bool,
    /// The consumer, anonymously: "Consumer 2" is the second consumer who
    /// scanned this code (their cookie's id, or without it their place).
    pub consumer: String,
    /// ISO 3166-1 alpha-2, or empty when the place is not known.
    pub country: String,
    pub country_name: String,
    pub region: String,
    pub city: String,
    /// Where the place came from: `ip`, `browser` or `none`.
    pub location_source: String,
}

/// A scanned code and its scans.
#[derive(Object, Debug)]
pub struct CodeScanHistory {
    /// The code's serial.
    pub id: String,
    pub product_id: Uuid,
    pub product_name: String,
    pub scan_count: i64,
    pub consumers: i64,
    pub suspicious: bool,
    pub first_scanned_at: chrono::DateTime<Utc>,
    pub last_scanned_at: chrono::DateTime<Utc>,
    /// Its scans, newest first (at most 200).
    pub scans: Vec<CodeScan>,
}

/// Scans from one place. Places not known have empty names and no
/// coordinates.
#[derive(Object, Debug)]
pub struct ScanLocation {
    /// ISO 3166-1 alpha-2 country code.
    pub country: String,
    pub country_name: String,
    pub region: String,
    pub city: String,
    #[oai(skip_serializing_if_is_none)]
    pub lat: Option<f64>,
    #[oai(skip_serializing_if_is_none)]
    pub lon: Option<f64>,
    pub count: i64,
}

#[derive(Object, Debug)]
pub struct ProductScanSum {
    pub product_id: Uuid,
    pub sum: i64,
}

#[derive(Object, Debug)]
pub struct ProductCodeCount {
    pub product_id: Uuid,
    pub count: i64,
}

/// The spec's brand scans: the most scanned codes (at most 100), scans by
/// place and by product in the range, codes generated per product and the
/// codes the plan still allows.
#[derive(Object, Debug)]
pub struct BrandScansData {
    pub scan: Vec<ScanRecord>,
    pub locations: Vec<ScanLocation>,
    pub product_scans: Vec<ProductScanSum>,
    pub total_qr_generated: Vec<ProductCodeCount>,
    pub qr_codes_remaining: i64,
}

/// The brand's scans in the spec's shape: its most scanned codes, scans by
/// place and by product, codes generated and `qr_codes_remaining`.
#[derive(Object, Debug)]
pub struct BrandScans {
    pub data: BrandScansData,
}

#[derive(Object, Debug)]
pub struct ScanTotals {
    /// Scans by people (bots excluded).
    pub scans: i64,
    /// First scans of a code.
    pub first_scans: i64,
    /// Later scans of a code.
    pub repeat_scans: i64,
    pub genuine: i64,
    pub suspicious: i64,
    pub not_recognised: i64,
    /// Hits of bots and link previews, not counted as scans.
    pub bots: i64,
}

#[derive(Object, Debug)]
pub struct ScanDay {
    pub day: IsoDate,
    pub scans: i64,
    pub first_scans: i64,
    pub repeat_scans: i64,
    pub suspicious: i64,
    pub not_recognised: i64,
}

#[derive(Object, Debug)]
pub struct ProductScans {
    /// The nil UUID for scans of the organisation's GTINs that name none of
    /// its products.
    pub product_id: Uuid,
    pub product_name: String,
    pub skuid: String,
    pub scans: i64,
}

#[derive(Object, Debug)]
pub struct PlaceScans {
    pub country: String,
    pub country_name: String,
    pub region: String,
    pub city: String,
    #[oai(skip_serializing_if_is_none)]
    pub lat: Option<f64>,
    #[oai(skip_serializing_if_is_none)]
    pub lon: Option<f64>,
    pub scans: i64,
}

/// The dashboard's figures for a range of days (UTC).
#[derive(Object, Debug)]
pub struct ScanAnalytics {
    pub from: IsoDate,
    pub to: IsoDate,
    pub totals: ScanTotals,
    /// Every day of the range, oldest first.
    pub by_day: Vec<ScanDay>,
    pub by_product: Vec<ProductScans>,
    /// At most 1,000 places, most scans first.
    pub by_place: Vec<PlaceScans>,
}

#[derive(Object, Debug)]
pub struct Geolocation {
    /// `lat,lon`, or empty.
    pub loc: String,
    pub country: String,
    pub city: String,
    pub region: String,
}

/// A scan as platform admins see it.
#[derive(Object, Debug)]
pub struct AdminScan {
    pub id: String,
    #[oai(rename = "BrandId")]
    pub brand_id: String,
    #[oai(rename = "BrandName")]
    pub brand_name: String,
    pub scanned_at: chrono::DateTime<Utc>,
    pub verdict: Verdict,
    pub product_name: String,
    #[oai(rename = "Geolocation")]
    pub geolocation: Geolocation,
}

/// Consumer sessions on scan pages: a session is a run of scans by one
/// anonymous consumer with less than 30 minutes between two of them.
#[derive(Object, Debug)]
pub struct SessionsData {
    pub from: IsoDate,
    pub to: IsoDate,
    /// Sessions started in the range.
    pub sessions: i64,
    /// Scans by consumers with a session, in the range.
    pub session_scans: i64,
    pub average_scans_per_session: f64,
    pub by_day: Vec<SessionDay>,
}

#[derive(Object, Debug)]
pub struct SessionDay {
    pub day: IsoDate,
    pub sessions: i64,
    pub session_scans: i64,
}

/// Consumer sessions on the organisation's scan pages, per day.
#[derive(Object, Debug)]
pub struct SessionsDataAnswer {
    pub data: SessionsData,
}

/// Consumers (anonymous first-party ids) who scanned, per day: a consumer
/// who scans on three days counts on each of them. New: first seen that day;
/// returning: seen on an earlier day.
#[derive(Object, Debug)]
pub struct UsersData {
    pub from: IsoDate,
    pub to: IsoDate,
    /// Consumers first seen in the range.
    pub new_consumers: i64,
    /// Days on which consumers seen before came back, summed over the range.
    pub returning_consumer_days: i64,
    /// Days on which any consumer scanned, summed over the range.
    pub consumer_days: i64,
    pub by_day: Vec<UsersDay>,
}

#[derive(Object, Debug)]
pub struct UsersDay {
    pub day: IsoDate,
    pub consumers: i64,
    pub new_consumers: i64,
    pub returning_consumers: i64,
}

/// Consumers who scanned the organisation's codes, new and returning, per
/// day.
#[derive(Object, Debug)]
pub struct UsersDataAnswer {
    pub data: UsersData,
}

/// The spec's message for a platform admin who names no company.
pub const COMPANY_ID_REQUIRED: &str = "company_id is required";

/// The longest range the dashboard shows day by day.
const MAX_DAYS: i64 = 731;
/// The most scans a code's history shows.
const HISTORY_LIMIT: i64 = 200;
/// The most scans the platform admins' list shows.
const ADMIN_LIST_LIMIT: i64 = 200;

/// Brands read at once for the platform admins' list.
const ADMIN_BRANDS_AT_ONCE: usize = 4;

fn admin_scan(tenant: &TenantRef, name: &str, s: store::RecentScan) -> AdminScan {
    let loc = match (s.lat, s.lon) {
        (Some(lat), Some(lon)) => format!("{lat:.4},{lon:.4}"),
        _ => String::new(),
    };
    AdminScan {
        id: s.id.to_string(),
        brand_id: tenant.client_id.clone(),
        brand_name: name.to_owned(),
        scanned_at: s.scanned_at,
        verdict: Verdict::parse(&s.verdict).unwrap_or(Verdict::NotRecognised),
        product_name: s.product_name.unwrap_or_default(),
        geolocation: Geolocation {
            loc,
            country: s.country,
            city: s.city,
            region: s.region,
        },
    }
}

/// A dashboard range: `to` defaults to today, `from` to 29 days before it;
/// in order, at most [`MAX_DAYS`] days.
fn day_range(
    from: Option<IsoDate>,
    to: Option<IsoDate>,
) -> Result<(NaiveDate, NaiveDate), ApiError> {
    let to = to.map_or_else(|| Utc::now().date_naive(), |d| d.0);
    let from = from.map_or(to - Duration::days(29), |d| d.0);
    ordered(Some(from), Some(to))?;
    if (to - from).num_days() >= MAX_DAYS {
        return Err(ApiError::invalid_input(format!(
            "The range is too long: at most {MAX_DAYS} days."
        )));
    }
    Ok((from, to))
}

/// Every day from `from` to `to`, with the row of `rows` for it (rows in
/// day order) or the default.
fn every_day<R, T>(
    from: NaiveDate,
    to: NaiveDate,
    rows: Vec<R>,
    day_of: impl Fn(&R) -> NaiveDate,
    make: impl Fn(NaiveDate, Option<R>) -> T,
) -> Vec<T> {
    let mut rows = rows.into_iter().peekable();
    let mut out = Vec::new();
    let mut d = from;
    while d <= to {
        let row = rows.next_if(|r| day_of(r) == d);
        out.push(make(d, row));
        d += Duration::days(1);
    }
    out
}

fn ordered(from: Option<NaiveDate>, to: Option<NaiveDate>) -> Result<(), ApiError> {
    match (from, to) {
        (Some(f), Some(t)) if f > t => Err(ApiError::invalid_input("from must not be after to.")),
        _ => Ok(()),
    }
}

/// A clientId in a query: absent, or as the contract's pattern says.
fn client_id_param<'a>(
    name: &str,
    value: Option<&'a Text<ClientIdInPath>>,
) -> Result<Option<&'a str>, ApiError> {
    let Some(text) = value.and_then(Text::get) else {
        return Ok(None);
    };
    let ok = (2..=30).contains(&text.len())
        && text.starts_with(|c: char| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(Some(text))
    } else if text.is_empty() && name == "company_id" {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "company_id_required",
            COMPANY_ID_REQUIRED,
        ))
    } else {
        Err(ApiError::invalid_input(format!(
            "{name} must be an organisation's clientId: a letter, then 1 to 29 letters, digits, '-' or '_'."
        )))
    }
}

/// Whose scans a `/brand-scans` caller reads: their own organisation's, or,
/// for a platform admin, the one `company_id` names.
async fn scans_owner(
    state: &SharedState,
    caller: &SignedIn,
    company_id: Option<&str>,
) -> Result<TenantRef, ApiError> {
    match (&caller.session.tenant, company_id) {
        (Some(own), None) => Ok(own.clone()),
        (Some(own), Some(named)) if named.eq_ignore_ascii_case(&own.client_id) => Ok(own.clone()),
        (Some(_), Some(_)) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "You can only see your own organisation's scans.",
        )),
        (None, None) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "company_id_required",
            COMPANY_ID_REQUIRED,
        )),
        (None, Some(named)) => store::active_brands(&state.db.platform, Some(named))
            .await
            .map_err(ApiError::internal)?
            .into_iter()
            .next()
            .map(|(tenant, _)| tenant)
            .ok_or_else(|| ApiError::not_found("No active brand has that company_id.")),
    }
}

#[OpenApi(tag = "ApiTags::Scans")]
impl ScansApi {
    /// The brand's scans (the spec's call): its most scanned codes, scans by
    /// place and by product (all time, or `from`–`to`), codes generated per
    /// product and `qr_codes_remaining`. A platform admin names the brand
    /// with `company_id` (its clientId).
    #[oai(path = "/brand-scans", method = "get", operation_id = "brandScans")]
    async fn brand_scans(
        &self,
        state: Data<&SharedState>,
        caller: SignedIn,
        company_id: Query<Option<Text<ClientIdInPath>>>,
        from: Query<Option<IsoDate>>,
        to: Query<Option<IsoDate>>,
    ) -> Result<JsonOk<BrandScans>, LookupError> {
        let (from, to) = (from.0.map(|d| d.0), to.0.map(|d| d.0));
        ordered(from, to)?;
        let company_id = client_id_param("company_id", company_id.0.as_ref())?;
        let tenant = scans_owner(&state, &caller, company_id).await?;
        let mut conn = state.db.read_tenant(&tenant).await?;
        let scan = store::most_scanned(&mut conn, 100)
            .await?
            .into_iter()
            .map(|c| ScanRecord {
                id: Serial::from_db(c.serial).to_string(),
                product_id: c.product_id,
                scan_count: i64::from(c.scans),
                consumers: i64::from(c.consumers),
                suspicious: c.suspicious,
            })
            .collect();
        let locations = store::by_place(&mut conn, from, to)
            .await?
            .into_iter()
            .map(|p| ScanLocation {
                country: p.country,
                country_name: p.country_name,
                region: p.region,
                city: p.city,
                lat: p.lat,
                lon: p.lon,
                count: p.scans,
            })
            .collect();
        let product_scans = store::by_product(&mut conn, from, to)
            .await?
            .into_iter()
            .filter(|p| !p.product_id.is_nil())
            .map(|p| ProductScanSum {
                product_id: p.product_id,
                sum: p.scans,
            })
            .collect();
        let total_qr_generated = store::generated_per_product(&mut conn)
            .await?
            .into_iter()
            .map(|(product_id, count)| ProductCodeCount { product_id, count })
            .collect();
        let (_, quota) = crate::products::store::plan(&mut conn).await?;
        let reserved = crate::codes::store::reserved_codes(&mut conn).await?;
        Ok(JsonOk(BrandScans {
            data: BrandScansData {
                scan,
                locations,
                product_scans,
                total_qr_generated,
                qr_codes_remaining: (quota - reserved).max(0),
            },
        }))
    }

    /// A scanned code of the organisation and its scans, newest first (at
    /// most 200): when, where, the verdict, first or repeat, and the
    /// consumer, anonymously. 404 when the organisation has no scanned code
    /// with that serial.
    #[oai(path = "/code-scans/:id", method = "get", operation_id = "codeScans")]
    async fn code_scans(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<String>,
    ) -> Result<JsonOk<CodeScanHistory>, LookupError> {
        let missing = || ApiError::not_found("No code with that serial has been scanned.");
        let serial = Serial::decode(&id.0).ok_or_else(missing)?.to_db();
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let code = store::code_state(&mut conn, serial)
            .await?
            .ok_or_else(missing)?;
        let scans = store::code_history(&mut conn, serial, HISTORY_LIMIT)
            .await?
            .into_iter()
            .map(|s| CodeScan {
                scanned_at: s.scanned_at,
                verdict: Verdict::parse(&s.verdict).unwrap_or(Verdict::NotRecognised),
                first_scan: s.first_scan,
                consumer_first: s.consumer_first,
                consumer: s.consumer_number.map_or_else(
                    || "Consumer not known".to_string(),
                    |n| format!("Consumer {n}"),
                ),
                country: s.country,
                country_name: s.country_name,
                region: s.region,
                city: s.city,
                location_source: s.location_source,
            })
            .collect();
        Ok(JsonOk(CodeScanHistory {
            id: Serial::from_db(code.serial).to_string(),
            product_id: code.product_id,
            product_name: code.product_name.unwrap_or_default(),
            scan_count: i64::from(code.scans),
            consumers: i64::from(code.consumers),
            suspicious: code.suspicious,
            first_scanned_at: code.first_at,
            last_scanned_at: code.last_at,
            scans,
        }))
    }

    /// The dashboard's figures for `from`–`to` (UTC days, both included;
    /// default the last 30 days, at most 731): totals, every day, per
    /// product and per place.
    #[oai(
        path = "/scan-analytics",
        method = "get",
        operation_id = "scanAnalytics"
    )]
    async fn analytics(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        from: Query<Option<IsoDate>>,
        to: Query<Option<IsoDate>>,
    ) -> Result<JsonOk<ScanAnalytics>, QueryError> {
        let (from, to) = day_range(from.0, to.0)?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let t = store::totals(&mut conn, Some(from), Some(to)).await?;
        let bots = store::bot_hits(&mut conn, from, to).await?;
        let days = store::by_day(&mut conn, from, to).await?;
        let by_day = every_day(
            from,
            to,
            days,
            |r| r.day,
            |d, row| {
                let (scans, first, genuine, suspicious, unknown) =
                    row.map_or((0, 0, 0, 0, 0), |r| {
                        (
                            r.scans,
                            r.first_scans,
                            r.genuine,
                            r.suspicious,
                            r.not_recognised,
                        )
                    });
                ScanDay {
                    day: IsoDate(d),
                    scans,
                    first_scans: first,
                    repeat_scans: (genuine + suspicious - first).max(0),
                    suspicious,
                    not_recognised: unknown,
                }
            },
        );
        let by_product = store::by_product(&mut conn, Some(from), Some(to))
            .await?
            .into_iter()
            .map(|p| ProductScans {
                product_id: p.product_id,
                product_name: p
                    .product_name
                    .unwrap_or_else(|| "Not one of your products".to_string()),
                skuid: p.skuid.unwrap_or_default(),
                scans: p.scans,
            })
            .collect();
        let by_place = store::by_place(&mut conn, Some(from), Some(to))
            .await?
            .into_iter()
            .map(|p| PlaceScans {
                country: p.country,
                country_name: p.country_name,
                region: p.region,
                city: p.city,
                lat: p.lat,
                lon: p.lon,
                scans: p.scans,
            })
            .collect();
        Ok(JsonOk(ScanAnalytics {
            from: IsoDate(from),
            to: IsoDate(to),
            totals: ScanTotals {
                scans: t.scans,
                first_scans: t.first_scans,
                repeat_scans: (t.genuine + t.suspicious - t.first_scans).max(0),
                genuine: t.genuine,
                suspicious: t.suspicious,
                not_recognised: t.not_recognised,
                bots,
            },
            by_day,
            by_product,
            by_place,
        }))
    }

    /// Consumer sessions on the organisation's scan pages, per day of
    /// `from`–`to` (default the last 30 days).
    #[oai(path = "/sessions-data", method = "get", operation_id = "sessionsData")]
    async fn sessions_data(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        from: Query<Option<IsoDate>>,
        to: Query<Option<IsoDate>>,
    ) -> Result<JsonOk<SessionsDataAnswer>, QueryError> {
        let (from, to) = day_range(from.0, to.0)?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let days = store::consumer_days(&mut conn, from, to).await?;
        let (sessions, scans) = days
            .iter()
            .fold((0, 0), |(s, n), d| (s + d.sessions, n + d.session_scans));
        let by_day = every_day(
            from,
            to,
            days,
            |r| r.day,
            |d, row| SessionDay {
                day: IsoDate(d),
                sessions: row.as_ref().map_or(0, |r| r.sessions),
                session_scans: row.as_ref().map_or(0, |r| r.session_scans),
            },
        );
        Ok(JsonOk(SessionsDataAnswer {
            data: SessionsData {
                from: IsoDate(from),
                to: IsoDate(to),
                sessions,
                session_scans: scans,
                average_scans_per_session: if sessions == 0 {
                    0.0
                } else {
                    scans as f64 / sessions as f64
                },
                by_day,
            },
        }))
    }

    /// Consumers who scanned the organisation's codes, new and returning,
    /// per day of `from`–`to` (default the last 30 days).
    #[oai(path = "/users-data", method = "get", operation_id = "usersData")]
    async fn users_data(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        from: Query<Option<IsoDate>>,
        to: Query<Option<IsoDate>>,
    ) -> Result<JsonOk<UsersDataAnswer>, QueryError> {
        let (from, to) = day_range(from.0, to.0)?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let days = store::consumer_days(&mut conn, from, to).await?;
        let (all, new) = days
            .iter()
            .fold((0, 0), |(a, n), d| (a + d.consumers, n + d.new_consumers));
        let by_day = every_day(
            from,
            to,
            days,
            |r| r.day,
            |d, row| {
                let (consumers, new) = row.map_or((0, 0), |r| (r.consumers, r.new_consumers));
                UsersDay {
                    day: IsoDate(d),
                    consumers,
                    new_consumers: new,
                    returning_consumers: consumers - new,
                }
            },
        );
        Ok(JsonOk(UsersDataAnswer {
            data: UsersData {
                from: IsoDate(from),
                to: IsoDate(to),
                new_consumers: new,
                returning_consumer_days: all - new,
                consumer_days: all,
                by_day,
            },
        }))
    }

    /// The organisation's rules for the `suspicious` verdict.
    #[oai(
        path = "/scan-settings",
        method = "get",
        operation_id = "getScanSettings"
    )]
    async fn settings(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<ScanSettings>, AccessError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        Ok(JsonOk(store::settings(&mut conn).await?))
    }

    /// Changes the rules for the `suspicious` verdict. They apply to scans
    /// from now on; earlier verdicts stay as they were given.
    #[oai(
        path = "/scan-settings",
        method = "put",
        operation_id = "updateScanSettings"
    )]
    async fn update_settings(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<ScanSettings>,
    ) -> Result<JsonOk<ScanSettings>, WriteError> {
        let rules = body.0;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::set_settings(&mut tx, &rules, caller.session.account_id).await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "scan.settings_changed",
            &caller.tenant.client_id,
            serde_json::json!({
                "suspicious_scan_count": rules.suspicious_scan_count,
                "suspicious_distance_km": rules.suspicious_distance_km,
                "suspicious_window_hours": rules.suspicious_window_hours,
            }),
        )
        .await?;
        tx.commit().await?;
        Ok(JsonOk(rules))
    }

    /// Scans across brands, newest first (at most 200), for platform
    /// admins; `brandId` (a brand's clientId) shows one brand's.
    #[oai(path = "/admin/scans", method = "get", operation_id = "adminScans")]
    async fn admin_scans(
        &self,
        state: Data<&SharedState>,
        _caller: SignedIn,
        #[oai(name = "brandId")] brand_id: Query<Option<Text<ClientIdInPath>>>,
    ) -> Result<JsonOk<Vec<AdminScan>>, QueryError> {
        let brand_id = client_id_param("brandId", brand_id.0.as_ref())?;
        let brands = store::active_brands(&state.db.platform, brand_id)
            .await
            .map_err(ApiError::internal)?;
        // Each brand's newest scans, a few brands at a time (each on its own
        // connection), then the newest of all.
        let per_brand: Vec<Result<Vec<AdminScan>, ApiError>> = futures_util::stream::iter(brands)
            .map(|(tenant, name)| {
                let state = &*state;
                async move {
                    let mut conn = state.db.read_tenant(&tenant).await?;
                    let scans = store::recent(&mut conn, ADMIN_LIST_LIMIT).await?;
                    Ok::<_, ApiError>(
                        scans
                            .into_iter()
                            .map(|s| admin_scan(&tenant, &name, s))
                            .collect(),
                    )
                }
            })
            .buffer_unordered(ADMIN_BRANDS_AT_ONCE)
            .collect()
            .await;
        let mut all = Vec::new();
        for scans in per_brand {
            all.extend(scans?);
        }
        all.sort_by_key(|s| std::cmp::Reverse(s.scanned_at));
        all.truncate(ADMIN_LIST_LIMIT as usize);
        Ok(JsonOk(all))
    }
}
