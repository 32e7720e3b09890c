//! What every handler can reach: configuration, pools, the policy, the hasher.

use std::sync::Arc;

use poem::web::cookie::CookieKey;

use crate::access::Access;
use crate::auth::password::Passwords;
use crate::config::Settings;
use crate::db::Db;

pub struct AppState {
    pub settings: Settings,
    pub db: Db,
    pub access: Access,
    pub passwords: Passwords,
    pub cookie_key: CookieKey,
}

pub type SharedState = Arc<AppState>;
