//! `POST /r/locate`: the consumer, on the scan page, chose to share where
//! they are. Their browser's position is reverse-geocoded offline (GeoNames'
//! places of 1,000 people or more, CC BY 4.0, embedded by the
//! `reverse_geocoder` crate; the scan page credits it) to a city, region and
//! country, and the scan moves there. The scan token from the scan's answer
//! says which scan; a scan is placed by its browser once. Each address may
//! share `LOCATE_RATE_PER_MINUTE` places a minute, a limit of its own
//! ([`LocateLimiter`]), apart from scans' and reviews'.

use std::sync::OnceLock;

use chrono::Utc;
use poem::http::{StatusCode, header};
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use poem_openapi::Object;
use poem_openapi::types::ToJSON;
use reverse_geocoder::ReverseGeocoder;
use serde::Deserialize;

use super::{Place, store};
use crate::http::error::ErrorBody;
use crate::http::guard::origin_of;
use crate::http::rate_limit::RateLimiter;
use crate::http::response::Notice;
use crate::http::state::SharedState;
use crate::reviews::TokenKey;

/// The places one address may share per minute
/// (`settings.locate_rate_per_minute`).
#[derive(Clone)]
pub struct LocateLimiter(pub RateLimiter);

static PLACES: OnceLock<ReverseGeocoder> = OnceLock::new();

/// How long after a scan its place may be given.
const LOCATE_HOURS: i64 = 24;

/// Where the consumer is, shared from the scan page with their consent
/// (their browser's position).
#[derive(Object, Deserialize, Debug)]
pub struct LocateRequest {
    /// The `review_token` of the scan's answer (at most 24 hours old).
    pub token: String,
    /// Latitude in degrees, -90 to 90.
    #[oai(validator(minimum(value = "-90"), maximum(value = "90")))]
    pub lat: f64,
    /// Longitude in degrees, -180 to 180.
    #[oai(validator(minimum(value = "-180"), maximum(value = "180")))]
    pub lon: f64,
    /// The browser's accuracy, in metres.
    #[oai(validator(minimum(value = "0")))]
    #[serde(default)]
    pub accuracy: Option<f64>,
}

fn respond(status: StatusCode, body: &impl ToJSON) -> Response {
    let mut builder = Response::builder()
        .status(status)
        .content_type("application/json")
        .header(header::CACHE_CONTROL, "no-store");
    if status == StatusCode::TOO_MANY_REQUESTS {
        builder = builder.header(header::RETRY_AFTER, "60");
    }
    builder.body(body.to_json().map(|b| b.to_string()).unwrap_or_default())
}

fn answer(status: StatusCode, code: &str, message: &str) -> Response {
    respond(
        status,
        &ErrorBody {
            error: message.to_string(),
            code: code.to_string(),
        },
    )
}

/// The place of a position: the nearest GeoNames place, the position
/// rounded to about a kilometre (no more precision is kept).
pub async fn place_of(lat: f64, lon: f64, accuracy_m: Option<f64>) -> anyhow::Result<Place> {
    let found = tokio::task::spawn_blocking(move || {
        let places = PLACES.get_or_init(ReverseGeocoder::new);
        let r = places.search((lat, lon)).record;
        (r.cc.clone(), r.admin1.clone(), r.name.clone())
    })
    .await?;
    let round = |v: f64| ((v * 100.0).round() / 100.0) as f32;
    let cut = |s: String| s.chars().take(100).collect::<String>();
    Ok(Place {
        country: found.0.chars().take(2).collect(),
        country_name: String::new(),
        region: cut(found.1),
        city: cut(found.2),
        lat: Some(round(lat)),
        lon: Some(round(lon)),
        source: "browser",
        accuracy_km: accuracy_m.map(|m| (m / 1000.0).ceil().clamp(1.0, 20_000.0) as i32),
    })
}

#[handler]
pub async fn locate(
    req: &Request,
    body: Body,
    Data(state): Data<&SharedState>,
    Data(limiter): Data<&LocateLimiter>,
    Data(review_key): Data<&TokenKey>,
) -> Response {
    if let Some(origin) = req.header(header::ORIGIN)
        && origin_of(origin).as_ref() != Some(&state.public_origin)
    {
        return answer(
            StatusCode::FORBIDDEN,
            "forbidden",
            "Places are taken only from this site's scan page.",
        );
    }
    let Ok(bytes) = body.into_bytes_limit(2048).await else {
        return answer(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "The request is too large.",
        );
    };
    let Ok(position) = serde_json::from_slice::<LocateRequest>(&bytes) else {
        return answer(
            StatusCode::BAD_REQUEST,
            "invalid_input",
            "Send the scan's token, lat and lon as JSON numbers.",
        );
    };
    let in_range = position.lat.is_finite()
        && position.lon.is_finite()
        && position.lat.abs() <= 90.0
        && position.lon.abs() <= 180.0
        && position.accuracy.is_none_or(|a| a.is_finite() && a >= 0.0);
    if !in_range {
        return answer(
            StatusCode::BAD_REQUEST,
            "invalid_input",
            "lat must be within ±90 and lon within ±180 degrees; accuracy is metres.",
        );
    }
    let ip = crate::http::guard::client_ip(req, state.settings.trust_proxy)
        .and_then(|ip| ip.parse().ok());
    if !limiter.0.allow(ip) {
        return answer(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_requests",
            "Too many requests from your network. Please wait a minute.",
        );
    }
    let fresh = review_key.verify(&position.token, Utc::now()).filter(|_| {
        review_key
            .age_hours(&position.token, Utc::now())
            .is_some_and(|h| h <= LOCATE_HOURS)
    });
    let Some((tenant_id, scan_id)) = fresh else {
        return answer(
            StatusCode::BAD_REQUEST,
            "invalid_token",
            "This page is too old to share a place. Scan the pack again.",
        );
    };
    match save(state, tenant_id, scan_id, &position).await {
        Ok(true) => respond(
            StatusCode::OK,
            &Notice::new("Thank you: your place was added to this scan.", "placed"),
        ),
        Ok(false) => answer(
            StatusCode::CONFLICT,
            "conflict",
            "This scan already has its place.",
        ),
        Err(err) => {
            tracing::error!(error = ?err, "placing a scan failed");
            answer(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "Your place cannot be saved right now.",
            )
        }
    }
}

async fn save(
    state: &SharedState,
    tenant_id: uuid::Uuid,
    scan_id: i64,
    position: &LocateRequest,
) -> anyhow::Result<bool> {
    let Some(tenant) = crate::tenants::store::active_tenant(&state.db.platform, tenant_id).await?
    else {
        return Ok(false);
    };
    let place = place_of(position.lat, position.lon, position.accuracy).await?;
    let mut tx = state.db.begin_tenant(&tenant).await?;
    let moved = store::relocate(&mut tx, scan_id, &place).await?;
    tx.commit().await?;
    Ok(moved)
}
