//! Tenants: one PostgreSQL schema and one PostgreSQL role per organisation.
//!
//! - `mod.rs`: what a tenant is (kind, identifiers, modules, name);
//! - `onboard.rs`: [`onboard`], the one way a tenant comes to exist (API,
//!   command line and demo seed);
//! - `api.rs`: the platform admins' operations on tenants;
//! - `store.rs`: the SQL of `platform.tenants`;
//! - `definition.rs` and `seed.rs`: the demo tenants of `tenants/demo/`;
//!   `demo_stock.rs`: their stock (issue 22), through the inventory ledger.
//!   `demo_calls.rs`: their supply chain (issue 23), through the API itself.

pub mod api;
pub mod definition;
pub mod demo_calls;
pub mod demo_stock;
pub mod onboard;
pub mod seed;
pub mod store;

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use poem_openapi::registry::MetaSchema;
use sqlx::PgPool;
use uuid::Uuid;

use crate::audit::{self, Actor};
use crate::auth::store as sessions;
use crate::http::error::ApiError;
use crate::http::input::{TextRule, plain_name, plain_text};
use crate::trimmed_plain_text_pattern;

pub use crate::tenancy::{Ident, TenantKind, TenantRef};
pub use onboard::{FirstAccount, Onboarding, PreparedTenant, onboard, schema_for};

/// A tenant as platform admins see it.
#[derive(Object, Debug, sqlx::FromRow)]
pub struct Tenant {
    pub id: Uuid,
    #[oai(rename = "clientId")]
    pub client_id: String,
    pub name: String,
    pub kind: String,
    #[oai(rename = "schema")]
    pub schema_name: String,
    #[oai(rename = "userLimit")]
    pub user_limit: i32,
    /// How many products it may have.
    #[oai(rename = "productLimit")]
    pub product_limit: i32,
    /// How many serialized codes it may generate in all.
    #[oai(rename = "codeQuota")]
    pub code_quota: i64,
    #[oai(rename = "userCount")]
    pub user_count: i64,
    /// `active` or `suspended`.
    pub status: String,
    pub modules: Vec<String>,
    #[oai(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
}

/// Plan limits and modules to change; `None` keeps the current value.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub user_limit: Option<i32>,
    pub product_limit: Option<i32>,
    pub code_quota: Option<i64>,
    /// The whole list of modules, checked by [`parse_modules`].
    pub modules: Option<Vec<String>>,
}

/// Sets a tenant's plan limits and modules, each change with its audit
/// record in the same transaction (`tenant.limits` with the new values,
/// `tenant.modules` with the modules before and after; none when nothing
/// given changed anything).
/// Lowering one below current use is allowed: it blocks new additions and
/// deletes nothing. Modules apply from their members' next request.
pub async fn set_limits(
    pool: &PgPool,
    client_id: &str,
    limits: Limits,
    actor: &Actor,
) -> Result<Tenant, ApiError> {
    onboard::check_limits(limits.user_limit, limits.product_limit, limits.code_quota)?;
    let limits_unchanged = limits.user_limit.is_none()
        && limits.product_limit.is_none()
        && limits.code_quota.is_none();
    let mut tx = pool.begin().await?;
    let not_found = || ApiError::not_found(format!("No tenant with clientId '{client_id}'."));
    // Locks the row: the modules before the change are the ones replaced.
    let before = store::find_tenant_for_update(&mut tx, client_id)
        .await?
        .ok_or_else(not_found)?;
    let Some(id) = store::set_limits(
        &mut tx,
        client_id,
        limits.user_limit,
        limits.product_limit,
        limits.code_quota,
        limits.modules.as_deref(),
    )
    .await?
    else {
        return Err(not_found());
    };
    let tenant = store::find_tenant(&mut *tx, client_id)
        .await?
        .ok_or_else(|| ApiError::not_found("tenant vanished"))?;
    if !limits_unchanged {
        let detail = serde_json::json!({
            "userLimit": tenant.user_limit,
            "productLimit": tenant.product_limit,
            "codeQuota": tenant.code_quota,
        });
        audit::record(
            &mut *tx,
            actor,
            "tenant.limits",
            Some(id),
            Some(client_id),
            detail,
        )
        .await?;
    }
    if limits.modules.is_some() && tenant.modules != before {
        let detail = serde_json::json!({ "before": before, "after": tenant.modules });
        audit::record(
            &mut *tx,
            actor,
            "tenant.modules",
            Some(id),
            Some(client_id),
            detail,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(tenant)
}

/// Suspends (`suspend = true`) or reactivates a tenant. Suspension ends every
/// session of its users at once; the session lookup also refuses them.
pub async fn set_suspended(
    pool: &PgPool,
    client_id: &str,
    suspend: bool,
    actor: &Actor,
) -> Result<Tenant, ApiError> {
    plain_text("clientId", client_id)?;
    let mut tx = pool.begin().await?;
    let Some(id) = store::set_suspended(&mut tx, client_id, suspend).await? else {
        return Err(ApiError::not_found(format!(
            "No tenant with clientId '{client_id}'."
        )));
    };
    let ended = if suspend {
        sessions::end_all_for_tenant(&mut *tx, id).await?
    } else {
        0
    };
    let action = if suspend {
        "tenant.suspend"
    } else {
        "tenant.reactivate"
    };
    let detail = serde_json::json!({ "sessionsEnded": ended });
    audit::record(&mut *tx, actor, action, Some(id), Some(client_id), detail).await?;
    let tenant = store::find_tenant(&mut *tx, client_id)
        .await?
        .ok_or_else(|| ApiError::not_found("tenant vanished"))?;
    tx.commit().await?;
    Ok(tenant)
}

/// An organisation's name: 1 to 200 characters after trimming.
#[derive(Clone, Debug)]
pub struct OrganisationName(String);

impl OrganisationName {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let name = raw.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(ApiError::invalid_input(
                "Organisation name is required (200 characters at most).",
            ));
        }
        plain_name("Organisation name", name)?;
        Ok(Self(name.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for OrganisationName {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(198).into());
    }
}

crate::text_parser!(OrganisationName);

/// A module's key in the contract: one of [`MODULES`].
pub struct ModuleKey;

impl TextRule for ModuleKey {
    fn limits(schema: &mut MetaSchema) {
        schema.enum_items = MODULES.iter().map(|(key, _)| (*key).into()).collect();
    }
}

/// The modules an organisation can have enabled (their keys are stored in
/// `platform.tenants.modules`); the catalogue lives with the infrastructure
/// that enforces it.
pub use crate::http::modules::MODULES;

/// The modules a client organisation works with: its products, their code
/// jobs and labels, the scans of its codes, their journey (a code job's
/// codes are commissioned as EPCIS events, a client's too), and the client
/// code tools (companies, batch updates).
const CLIENT_MODULES: &[&str] = &[
    "products",
    "codes",
    "labels",
    "scans",
    "journey",
    "client_tools",
];

/// The modules a new tenant gets when none are named: every brand module for
/// a brand; for a client, [`CLIENT_MODULES`].
pub fn default_modules(kind: TenantKind) -> Vec<String> {
    MODULES
        .iter()
        .map(|(key, _)| *key)
        .filter(|key| match kind {
            TenantKind::Brand => *key != "client_tools",
            TenantKind::Client => CLIENT_MODULES.contains(key),
        })
        .map(str::to_string)
        .collect()
}

/// Module keys checked against [`MODULES`]: each known one once, in the
/// catalogue's order; an unknown key is a 400 that names it.
pub fn parse_modules<S: AsRef<str>>(keys: &[S]) -> Result<Vec<String>, ApiError> {
    if let Some(unknown) = keys
        .iter()
        .map(AsRef::as_ref)
        .find(|k| !MODULES.iter().any(|(key, _)| key == k))
    {
        return Err(ApiError::invalid_input(format!(
            "Unknown module '{unknown}'. Known modules: {}.",
            MODULES
                .iter()
                .map(|(k, _)| *k)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(MODULES
        .iter()
        .map(|(key, _)| *key)
        .filter(|key| keys.iter().any(|k| k.as_ref() == *key))
        .map(str::to_string)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::{OrganisationName, TenantKind, default_modules, parse_modules};

    #[test]
    fn module_lists() {
        assert_eq!(
            parse_modules(&["labels", "products", "labels"]).unwrap(),
            ["products", "labels"]
        );
        assert!(parse_modules::<&str>(&[]).unwrap().is_empty());
        let err = parse_modules(&["products", "teleport"]).unwrap_err();
        assert!(err.message.contains("'teleport'"), "{}", err.message);
        let client = default_modules(TenantKind::Client);
        assert_eq!(
            client,
            [
                "products",
                "codes",
                "labels",
                "scans",
                "journey",
                "client_tools"
            ]
        );
        let brand = default_modules(TenantKind::Brand);
        assert!(brand.iter().all(|m| m != "client_tools"));
        assert!(brand.iter().any(|m| m == "journey") && brand.iter().any(|m| m == "calendar"));
    }

    #[test]
    fn organisation_names() {
        assert_eq!(
            OrganisationName::parse("  Acme  ").unwrap().as_str(),
            "Acme"
        );
        assert!(OrganisationName::parse("   ").is_err());
        assert!(OrganisationName::parse(&"é".repeat(200)).is_ok());
        assert!(OrganisationName::parse(&"é".repeat(201)).is_err());
    }
}
