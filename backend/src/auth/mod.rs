//! Sign-in, sessions, CSRF tokens and sign-in throttling.
//!
//! - `mod.rs`: a new session's tokens, the sweep of ended sessions;
//! - `api.rs`: sign in, the current session, sign out;
//! - `store.rs`: the SQL of sessions, sign-in lookups and throttling;
//! - `throttle.rs`: the throttling rules.
//!
//! The session type, the cookie and header names, token comparison and
//! password hashing are infrastructure (`crate::identity`, which the guard
//! uses); they are re-exported here.

pub mod api;
pub mod store;
pub mod throttle;

pub use crate::identity::password;
pub use crate::identity::{
    CSRF_HEADER, PLATFORM_DOMAIN, SESSION_COOKIE, Session, hash_token, tokens_equal,
};

use std::time::Duration;

use rand::RngCore;

use crate::db::Db;

/// A fresh session: the token for the cookie and the CSRF token.
pub struct NewSession {
    pub token: String,
    pub csrf_token: String,
}

impl NewSession {
    pub fn generate() -> Self {
        Self {
            token: random_hex(32),
            csrf_token: random_hex(32),
        }
    }
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    hex::encode(buf)
}

/// Deletes ended sessions and stale sign-in failure counters. The lookups
/// already ignore them; this only keeps the tables small. The server runs it
/// every ten minutes.
pub async fn sweep_ended(db: &Db, idle: Duration) -> Result<(), sqlx::Error> {
    store::sweep_ended(&db.platform, idle).await
}
