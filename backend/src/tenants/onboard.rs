//! Onboarding a tenant: the one way a tenant comes to exist, used by the
//! platform API, the `brandops tenant create` command and the demo seed.
//!
//! [`Onboarding::prepare`] checks everything a person typed (and hashes the
//! first accounts' passwords) before the database is touched; [`onboard`]
//! then creates the platform row, the schema and role, the tenant
//! migrations, the organisation's settings and the first accounts, all inside
//! the caller's owner transaction: all of it or nothing.

use sqlx::PgConnection;
use uuid::Uuid;

use super::store::{self, TenantRow};
use super::{Ident, OrganisationName, TenantKind, TenantRef, default_modules};
use crate::accounts::{Email, NewAccount, NewPassword, PersonName, Role};
use crate::audit::{self, Actor};
use crate::auth::password::Passwords;
use crate::db::{self, DbRoles, unique_violation};
use crate::http::error::ApiError;
use crate::http::input::TextRule;
use crate::whitespace_class;
use poem_openapi::registry::MetaSchema;

/// A tenant to onboard, as received: nothing here is checked yet.
#[derive(Clone, Debug)]
pub struct Onboarding {
    pub client_id: String,
    pub name: String,
    pub kind: TenantKind,
    /// The schema name; derived from the clientId when absent.
    pub schema: Option<String>,
    pub user_limit: i32,
    /// [`PRODUCT_LIMIT_DEFAULT`] and [`CODE_QUOTA_DEFAULT`] when absent.
    pub product_limit: Option<i32>,
    pub code_quota: Option<i64>,
    /// Module keys; [`default_modules`] of the kind when absent.
    pub modules: Option<Vec<String>>,
    pub accounts: Vec<FirstAccount>,
}

/// One of a new tenant's first accounts, as received.
#[derive(Clone)]
pub struct FirstAccount {
    pub email: String,
    pub name: String,
    pub role: Role,
    pub password: String,
}

impl std::fmt::Debug for FirstAccount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FirstAccount")
            .field("email", &self.email)
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}

/// A checked tenant, its first accounts' passwords hashed: ready for
/// [`onboard`].
pub struct PreparedTenant {
    pub client_id: String,
    pub name: OrganisationName,
    pub kind: TenantKind,
    pub schema: Ident,
    pub user_limit: i32,
    pub product_limit: i32,
    pub code_quota: i64,
    pub modules: Vec<String>,
    pub accounts: Vec<NewAccount>,
}

/// The longest clientId. Its tenant's database role is named
/// `<database prefix, at most 25>_<schema>`, and the schema `client_<id>`
/// (or `brand_<id>`): 30 keeps that within PostgreSQL's 63 bytes for every
/// database name. (With 40, a long clientId passed this check and was then
/// refused as "The schema name is too long.")
pub const CLIENT_ID_MAX: usize = 30;

/// A clientId in the contract, as [`parse_client_id`] reads it (trimmed).
pub struct ClientId;

impl TextRule for ClientId {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(
            concat!(
                "^[",
                whitespace_class!(),
                "]*[A-Za-z][A-Za-z0-9_-]{1,29}[",
                whitespace_class!(),
                "]*$"
            )
            .into(),
        );
    }
}

/// An existing tenant's clientId in a path: as stored, never padded.
pub struct ClientIdInPath;

impl TextRule for ClientIdInPath {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[A-Za-z][A-Za-z0-9_-]{1,29}$".into());
    }
}

/// A new tenant's user limit: 1 to 100000 (an integer in the contract with
/// these bounds; the handler's check has the message).
pub const USER_LIMIT_MAX: i32 = 100_000;
pub const PRODUCT_LIMIT_MAX: i32 = 1_000_000;
pub const CODE_QUOTA_MAX: i64 = 10_000_000_000;
pub const PRODUCT_LIMIT_DEFAULT: i32 = 100;
pub const CODE_QUOTA_DEFAULT: i64 = 1_000_000;

/// Checks the plan limits a platform admin sets (at onboarding or later);
/// the message names the field.
pub fn check_limits(
    user_limit: Option<i32>,
    product_limit: Option<i32>,
    code_quota: Option<i64>,
) -> Result<(), ApiError> {
    if user_limit.is_some_and(|l| !(1..=USER_LIMIT_MAX).contains(&l)) {
        return Err(ApiError::invalid_input(
            "userLimit must be between 1 and 100000.",
        ));
    }
    if product_limit.is_some_and(|l| !(0..=PRODUCT_LIMIT_MAX).contains(&l)) {
        return Err(ApiError::invalid_input(
            "productLimit must be between 0 and 1000000.",
        ));
    }
    if code_quota.is_some_and(|q| !(0..=CODE_QUOTA_MAX).contains(&q)) {
        return Err(ApiError::invalid_input(
            "codeQuota must be between 0 and 10000000000.",
        ));
    }
    Ok(())
}

fn parse_client_id(raw: &str) -> Result<String, ApiError> {
    let client_id = raw.trim();
    let valid = (2..=CLIENT_ID_MAX).contains(&client_id.len())
        && client_id.starts_with(|c: char| c.is_ascii_alphabetic())
        && client_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid {
        return Err(ApiError::invalid_input(
            "clientId must be 2 to 30 characters: letters, digits, '-' or '_', starting with a letter.",
        ));
    }
    Ok(client_id.to_string())
}

fn parse_modules(modules: Option<&[String]>, kind: TenantKind) -> Result<Vec<String>, ApiError> {
    match modules {
        None => Ok(default_modules(kind)),
        Some(keys) => super::parse_modules(keys),
    }
}

/// The schema named, or the one derived from the clientId: `brand_<id>` for
/// brands, `client_<id without a leading "client">` for clients (`clientA` →
/// `client_a`).
pub fn schema_for(raw: Option<&str>, client_id: &str, kind: TenantKind) -> Result<Ident, ApiError> {
    let schema = match raw {
        Some(s) => Ident::parse(s).ok_or_else(|| {
            ApiError::invalid_input("schema must be a lower-case identifier (a-z, 0-9, _).")
        })?,
        None => {
            let slug = client_id.to_ascii_lowercase().replace('-', "_");
            let derived = match kind {
                TenantKind::Brand => format!("brand_{slug}"),
                TenantKind::Client => {
                    let rest = slug.strip_prefix("client").unwrap_or(&slug);
                    format!("client_{}", rest.trim_start_matches('_'))
                }
            };
            Ident::parse(&derived).ok_or_else(|| {
                ApiError::invalid_input("clientId does not give a usable schema name.")
            })?
        }
    };
    if matches!(schema.as_str(), "platform" | "public") || schema.as_str().starts_with("pg_") {
        return Err(ApiError::invalid_input("That schema name is reserved."));
    }
    Ok(schema)
}

impl Onboarding {
    /// Checks every field, then hashes the first accounts' passwords.
    pub async fn prepare(&self, passwords: &Passwords) -> Result<PreparedTenant, ApiError> {
        let client_id = parse_client_id(&self.client_id)?;
        let name = OrganisationName::parse(&self.name)?;
        check_limits(Some(self.user_limit), self.product_limit, self.code_quota)?;
        let modules = parse_modules(self.modules.as_deref(), self.kind)?;
        let schema = schema_for(self.schema.as_deref(), &client_id, self.kind)?;
        if self.accounts.len() > self.user_limit as usize {
            return Err(ApiError::invalid_input(
                "More first accounts than the user limit allows.",
            ));
        }
        let mut checked = Vec::new();
        for a in &self.accounts {
            if !a.role.belongs_to(self.kind) {
                return Err(ApiError::invalid_input(format!(
                    "{}: a {} organisation has no role {}.",
                    a.email,
                    self.kind.as_str(),
                    a.role.as_str()
                )));
            }
            checked.push((
                Email::parse(&a.email)?,
                PersonName::parse(&a.name)?,
                a.role,
                NewPassword::parse(&a.password)?,
            ));
        }
        let mut accounts = Vec::new();
        for (email, name, role, password) in checked {
            accounts.push(NewAccount {
                email,
                name,
                role,
                password_hash: passwords.hash(password.expose()).await?,
            });
        }
        Ok(PreparedTenant {
            client_id,
            name,
            kind: self.kind,
            schema,
            user_limit: self.user_limit,
            product_limit: self.product_limit.unwrap_or(PRODUCT_LIMIT_DEFAULT),
            code_quota: self.code_quota.unwrap_or(CODE_QUOTA_DEFAULT),
            modules,
            accounts,
        })
    }
}

/// Creates the tenant and its first accounts inside `tx`, the caller's owner
/// transaction: nothing is left behind unless the caller commits.
pub async fn onboard(
    tx: &mut PgConnection,
    roles: &DbRoles,
    new: &PreparedTenant,
    actor: &Actor,
) -> Result<TenantRef, ApiError> {
    let role = Ident::parse(&roles.tenant_role(new.schema.as_str()))
        .ok_or_else(|| ApiError::invalid_input("The schema name is too long."))?;
    let taken = || {
        ApiError::conflict(format!(
            "A tenant with clientId '{}' already exists.",
            new.client_id
        ))
    };
    if store::client_id_taken(&mut *tx, &new.client_id).await? {
        return Err(taken());
    }
    let tenant = TenantRef {
        id: Uuid::new_v4(),
        client_id: new.client_id.clone(),
        kind: new.kind,
        schema_name: new.schema.clone(),
        role_name: role,
    };
    let row = TenantRow {
        id: tenant.id,
        client_id: &new.client_id,
        name: new.name.as_str(),
        kind: new.kind,
        schema: &tenant.schema_name,
        role: &tenant.role_name,
        user_limit: new.user_limit,
        product_limit: new.product_limit,
        code_quota: new.code_quota,
        modules: &new.modules,
    };
    store::insert_tenant(tx, &row)
        .await
        .map_err(|e| match unique_violation(&e) {
            Some("tenants_client_id_key") => taken(),
            Some(_) => ApiError::conflict(format!(
                "The schema '{}' is already used by another tenant.",
                new.schema.as_str()
            )),
            None => ApiError::from(e),
        })?;

    // A schema of that name outside our tables (made by hand) is refused
    // rather than adopted.
    let (schema_taken, role_exists) =
        db::provision::existing(tx, &tenant.schema_name, &tenant.role_name).await?;
    if schema_taken {
        return Err(ApiError::conflict(format!(
            "The schema '{}' already exists in the database.",
            new.schema.as_str()
        )));
    }
    db::provision::create_schema_and_role(tx, roles, &tenant, role_exists).await?;
    db::migrate::migrate_tenant(tx, &tenant)
        .await
        .map_err(ApiError::internal)?;

    let mut created = Vec::new();
    for account in &new.accounts {
        created.push(crate::accounts::store::insert_account(tx, Some(tenant.id), account).await?);
    }
    audit::record(
        &mut *tx,
        actor,
        "tenant.create",
        Some(tenant.id),
        Some(&new.client_id),
        serde_json::json!({
            "kind": new.kind.as_str(),
            "schema": new.schema.as_str(),
            "userLimit": new.user_limit,
            "accounts": created.iter().map(|a| &a.email).collect::<Vec<_>>(),
        }),
    )
    .await?;

    // The tenant's own first row is written as the tenant, like any request.
    db::provision::enter_as_tenant(tx, &tenant).await?;
    crate::organisation::store::insert_settings(tx, &new.name).await?;
    db::provision::leave_tenant(tx).await?;
    Ok(tenant)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every clientId `parse_client_id` accepts gives a schema and a role
    /// name PostgreSQL takes, for the longest database-name prefix.
    #[test]
    fn the_longest_client_ids_fit_every_database() {
        let names = DbRoles::for_database(&"9".repeat(64), crate::config::Secret::new("s"));
        for kind in [TenantKind::Brand, TenantKind::Client] {
            let id = format!("a{}", "x".repeat(CLIENT_ID_MAX - 1));
            let client_id = parse_client_id(&id).unwrap();
            let schema = schema_for(None, &client_id, kind).unwrap();
            assert!(
                Ident::parse(&names.tenant_role(schema.as_str())).is_some(),
                "{kind:?} {id}"
            );
        }
        assert!(parse_client_id(&"a".repeat(CLIENT_ID_MAX + 1)).is_err());
    }
}
