//! What every handler can reach: configuration, pools, the policy, the
//! operations table, the hasher, the job runner's handle and the files.
//!
//! Infrastructure only. A domain's own state (the scans' writers, the
//! review tokens' key, the public pages' rate limits, ...) is its own poem
//! `Data`, registered on the routes by the composition root (`crate::app`)
//! and taken by the handlers that need it (`Data<&ScanWriters>`).

use std::sync::Arc;

use poem::web::cookie::CookieKey;

use crate::config::{Origin, Settings};
use crate::db::Db;
use crate::http::access::Access;
use crate::http::operations::Operations;
use crate::identity::password::Passwords;

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
}

pub type SharedState = Arc<AppState>;
