//! What every handler can reach: configuration, pools, the policy, the
//! operations table, the hasher.

use std::sync::Arc;

use poem::web::cookie::CookieKey;

use crate::auth::password::Passwords;
use crate::config::Settings;
use crate::db::Db;
use crate::http::access::Access;
use crate::http::guard::Origin;
use crate::http::operations::Operations;

pub struct AppState {
    pub settings: Settings,
    pub db: Db,
    pub access: Access,
    pub operations: Operations,
    pub passwords: Passwords,
    pub cookie_key: CookieKey,
    /// The origin of `settings.public_url`: the only one unsafe requests may
    /// come from.
    pub public_origin: Origin,
    /// The background job runner's handle (wake it after queuing a job).
    pub jobs: crate::jobs::Runner,
    /// Files: product images, label outputs.
    pub storage: crate::storage::Storage,
    /// The offline IP database that places scans (`GEOIP_MMDB`), if any.
    pub ip_places: Option<crate::scans::geo::IpPlaces>,
    /// The public resolver's per-address limit.
    pub scan_limiter: crate::http::rate_limit::RateLimiter,
    /// Which brand holds a GTIN (the resolver's lookup, remembered briefly).
    pub gtin_holders: crate::scans::holders::GtinHolders,
    /// The brands' scan writers (people's scans are written in batches).
    pub scan_writers: crate::scans::ingest::ScanWriters,
    /// Reviews one address may send per minute.
    pub review_limiter: crate::http::rate_limit::RateLimiter,
    /// Places one address may share per minute (`POST /r/locate`,
    /// `settings.locate_rate_per_minute`).
    pub locate_limiter: crate::http::rate_limit::RateLimiter,
    /// Signs the review tokens of scans (derived from `DB_ROLE_SECRET`).
    pub review_key: crate::reviews::TokenKey,
}

pub type SharedState = Arc<AppState>;
