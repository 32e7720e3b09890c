//! What every handler can reach: configuration, pools, the policy, the
//! operations table, the hasher.

use std::sync::Arc;

use poem::web::cookie::CookieKey;

use crate::auth::password::Passwords;
use crate::config::Settings;
use crate::db::Db;
use crate::http::access::Access;
use crate::http::operations::Operations;

pub struct AppState {
    pub settings: Settings,
    pub db: Db,
    pub access: Access,
    pub operations: Operations,
    pub passwords: Passwords,
    pub cookie_key: CookieKey,
}

pub type SharedState = Arc<AppState>;
