//! Who calls: the session a request carries, the account's role, and the
//! secrets around them (the session cookie's and the CSRF header's names,
//! token hashing and comparison, password hashing).
//!
//! Infrastructure: the guard (`http::guard`) reads the cookie and checks
//! the CSRF token, the security schemes (`http::security`) hand the
//! [`Session`] to handlers, and the policy is keyed on [`Role`] names. The
//! domains do the rest and re-export what they use from here: `auth` signs
//! in and out and stores the sessions (`auth::store::load` is what the
//! composition root gives the guard to load one), `accounts` manages the
//! accounts and their roles. This module imports only infrastructure
//! (`tenancy`, `audit`).
//!
//! - `mod.rs`: [`Session`], [`Role`], the cookie and header names, tokens;
//! - `password.rs`: argon2id hashing ([`password::Passwords`]).

pub mod password;

use poem_openapi::Enum;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::audit::Actor;
use crate::tenancy::{TenantKind, TenantRef};

/// Name of the private session cookie.
pub const SESSION_COOKIE: &str = "brandops_session";
/// The Casbin domain of platform admins, who belong to no organisation.
pub const PLATFORM_DOMAIN: &str = "platform";
/// Header that must carry the session's CSRF token on unsafe methods.
pub const CSRF_HEADER: &str = "x-csrf-token";

#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    Manager,
    Worker,
    Employee,
    PlatformAdmin,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::Admin,
        Role::Manager,
        Role::Worker,
        Role::Employee,
        Role::PlatformAdmin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Manager => "manager",
            Role::Worker => "worker",
            Role::Employee => "employee",
            Role::PlatformAdmin => "platform_admin",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Whether an organisation admin manages accounts of this role (adds
    /// them, resets their passwords): everyone but admins.
    pub fn managed_by_org_admins(self) -> bool {
        matches!(self, Role::Manager | Role::Worker | Role::Employee)
    }

    /// Whether an organisation of this kind has this role: brands have
    /// admins, managers and workers; client organisations admins and
    /// employees. Platform admins belong to no organisation.
    pub fn belongs_to(self, kind: TenantKind) -> bool {
        matches!(
            (self, kind),
            (Role::Admin, _)
                | (Role::Manager | Role::Worker, TenantKind::Brand)
                | (Role::Employee, TenantKind::Client)
        )
    }
}

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
            .map_or_else(|| PLATFORM_DOMAIN.to_string(), TenantRef::access_domain)
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
