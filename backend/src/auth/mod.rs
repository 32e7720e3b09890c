//! Sign-in, sessions, CSRF tokens and sign-in throttling.
//!
//! - `mod.rs`: the session a request carries and the rules around it;
//! - `api.rs`: sign in, the current session, sign out;
//! - `store.rs`: the SQL of sessions, sign-in lookups and throttling;
//! - `password.rs`: argon2id hashing; `throttle.rs`: the throttling rules.

pub mod api;
pub mod password;
pub mod store;
pub mod throttle;

use std::time::Duration;

use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::accounts::Role;
use crate::audit::Actor;
use crate::db::Db;
use crate::tenants::TenantRef;

/// Name of the private session cookie.
pub const SESSION_COOKIE: &str = "brandops_session";
/// Header that must carry the session's CSRF token on unsafe methods.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// A signed-in session, as loaded for each request. The browser holds an
/// opaque 256-bit id in a private cookie; the database holds only its
/// SHA-256, with the account, the CSRF token and the times. Logout, password
/// resets, removal and tenant suspension delete rows, which ends the
/// sessions at once.
#[derive(Clone, Debug)]
pub struct Session {
    pub id_hash: Vec<u8>,
    pub account_id: Uuid,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub csrf_token: String,
    /// None for platform admins.
    pub tenant: Option<TenantRef>,
    /// The plan modules the tenant has now (`platform.tenants.modules`, read
    /// with the session on every request); empty for platform admins.
    pub modules: Vec<String>,
}

impl Session {
    /// The Casbin domain: `brand:<id>`, `client:<id>` or `platform`.
    pub fn access_domain(&self) -> String {
        self.tenant
            .as_ref()
            .map_or_else(|| "platform".to_string(), TenantRef::access_domain)
    }

    pub fn client_id(&self) -> Option<&str> {
        self.tenant.as_ref().map(|t| t.client_id.as_str())
    }

    pub fn actor(&self, ip: Option<String>) -> Actor {
        Actor {
            account_id: Some(self.account_id),
            email: self.email.clone(),
            ip,
        }
    }
}

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

/// What the database keeps of a session token.
pub fn hash_token(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Constant-time comparison for tokens.
pub fn tokens_equal(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Deletes ended sessions and stale sign-in failure counters. The lookups
/// already ignore them; this only keeps the tables small. The server runs it
/// every ten minutes.
pub async fn sweep_ended(db: &Db, idle: Duration) -> Result<(), sqlx::Error> {
    store::sweep_ended(&db.platform, idle).await
}
