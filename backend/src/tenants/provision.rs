//! Onboarding a tenant: schema, role, tenant migrations, first accounts and
//! the platform row, in one owner transaction. PostgreSQL's DDL (CREATE ROLE
//! and CREATE SCHEMA included) is transactional, so a failure at any step
//! leaves nothing behind.

use sqlx::{AssertSqlSafe, PgPool, Postgres, Transaction};
use uuid::Uuid;

use super::{Ident, MODULES, TenantKind, TenantRef};
use crate::accounts::{NewAccount, insert_account, unique_violation};
use crate::audit::{self, Actor};
use crate::db::DbNames;
use crate::error::ApiError;
use crate::migrate::migrate_tenant;

/// A validated request to create a tenant.
pub struct TenantSpec {
    pub client_id: String,
    pub name: String,
    pub kind: TenantKind,
    pub schema: Ident,
    pub user_limit: i32,
    pub modules: Vec<String>,
}

impl TenantSpec {
    /// Checks every field and derives the schema name when none is given:
    /// `brand_<id>` for brands, `client_<id without a leading "client">` for
    /// clients (`clientA` → `client_a`).
    pub fn parse(
        client_id: &str,
        name: &str,
        kind: TenantKind,
        schema: Option<&str>,
        user_limit: i32,
        modules: Vec<String>,
    ) -> Result<Self, ApiError> {
        let client_id = client_id.trim();
        let valid_id = (2..=40).contains(&client_id.len())
            && client_id.starts_with(|c: char| c.is_ascii_alphabetic())
            && client_id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid_id {
            return Err(ApiError::invalid_input(
                "clientId must be 2 to 40 characters: letters, digits, '-' or '_', starting with a letter.",
            ));
        }
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(ApiError::invalid_input(
                "Organisation name is required (200 characters at most).",
            ));
        }
        if !(1..=100_000).contains(&user_limit) {
            return Err(ApiError::invalid_input(
                "userLimit must be between 1 and 100000.",
            ));
        }
        for m in &modules {
            if !MODULES.iter().any(|(key, _)| key == m) {
                return Err(ApiError::invalid_input(format!(
                    "Unknown module '{m}'. Known modules: {}.",
                    MODULES
                        .iter()
                        .map(|(k, _)| *k)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        let schema = match schema {
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
        Ok(Self {
            client_id: client_id.to_string(),
            name: name.to_string(),
            kind,
            schema,
            user_limit,
            modules,
        })
    }
}

/// Creates the tenant and its first accounts, all or nothing.
pub async fn provision(
    owner: &PgPool,
    names: &DbNames,
    spec: &TenantSpec,
    accounts: &[NewAccount],
    actor: &Actor,
) -> Result<TenantRef, ApiError> {
    let mut tx = owner.begin().await?;
    let tenant = provision_in(&mut tx, names, spec, accounts, actor).await?;
    tx.commit().await?;
    Ok(tenant)
}

/// As [`provision`], inside the caller's owner transaction.
pub async fn provision_in(
    tx: &mut Transaction<'static, Postgres>,
    names: &DbNames,
    spec: &TenantSpec,
    accounts: &[NewAccount],
    actor: &Actor,
) -> Result<TenantRef, ApiError> {
    if accounts.len() > spec.user_limit as usize {
        return Err(ApiError::invalid_input(
            "More first accounts than the user limit allows.",
        ));
    }
    let role = Ident::parse(&names.tenant_role(spec.schema.as_str()))
        .ok_or_else(|| ApiError::invalid_input("The schema name is too long."))?;
    let id = Uuid::new_v4();
    let taken: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM platform.tenants WHERE lower(client_id) = lower($1))",
    )
    .bind(&spec.client_id)
    .fetch_one(&mut **tx)
    .await?;
    if taken {
        return Err(ApiError::conflict(format!(
            "A tenant with clientId '{}' already exists.",
            spec.client_id
        )));
    }

    sqlx::query(
        "INSERT INTO platform.tenants (id, client_id, name, kind, schema_name, role_name, user_limit, modules)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(&spec.client_id)
    .bind(&spec.name)
    .bind(spec.kind.as_str())
    .bind(spec.schema.as_str())
    .bind(role.as_str())
    .bind(spec.user_limit)
    .bind(&spec.modules)
    .execute(&mut **tx)
    .await
    .map_err(|e| match unique_violation(&e) {
        Some("tenants_client_id_key") => ApiError::conflict(format!(
            "A tenant with clientId '{}' already exists.",
            spec.client_id
        )),
        Some(_) => ApiError::conflict(format!(
            "The schema '{}' is already used by another tenant.",
            spec.schema.as_str()
        )),
        None => ApiError::from(e),
    })?;

    // A schema of that name outside our tables (made by hand) is refused rather
    // than adopted. A role of that name can only be a leftover of a dropped
    // database of the same name (role names carry the database name and roles
    // are cluster-wide): it is reused, reset to NOLOGIN NOINHERIT.
    let (schema_taken, role_exists): (bool, bool) = sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1),
                EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $2)",
    )
    .bind(spec.schema.as_str())
    .bind(role.as_str())
    .fetch_one(&mut **tx)
    .await?;
    if schema_taken {
        return Err(ApiError::conflict(format!(
            "The schema '{}' already exists in the database.",
            spec.schema.as_str()
        )));
    }
    let (schema, role_name, runtime) = (
        spec.schema.as_str(),
        role.as_str(),
        names.runtime_role.as_str(),
    );
    let create_role = if role_exists { "ALTER" } else { "CREATE" };
    sqlx::raw_sql(AssertSqlSafe(format!(
        "{create_role} ROLE \"{role_name}\" NOLOGIN NOINHERIT;
         CREATE SCHEMA \"{schema}\";
         REVOKE ALL ON SCHEMA \"{schema}\" FROM PUBLIC;
         GRANT USAGE ON SCHEMA \"{schema}\" TO \"{role_name}\";
         ALTER DEFAULT PRIVILEGES IN SCHEMA \"{schema}\"
             GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO \"{role_name}\";
         ALTER DEFAULT PRIVILEGES IN SCHEMA \"{schema}\"
             GRANT USAGE, SELECT ON SEQUENCES TO \"{role_name}\";
         GRANT \"{role_name}\" TO \"{runtime}\";
         GRANT \"{role_name}\" TO CURRENT_USER;"
    )))
    .execute(&mut **tx)
    .await?;

    let tenant = TenantRef {
        id,
        client_id: spec.client_id.clone(),
        kind: spec.kind,
        schema_name: spec.schema.clone(),
        role_name: role,
    };
    migrate_tenant(tx, &tenant)
        .await
        .map_err(ApiError::internal)?;

    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO \"{schema}\".org_settings (display_name) VALUES ($1)"
    )))
    .bind(&spec.name)
    .execute(&mut **tx)
    .await?;

    let mut created = Vec::new();
    for account in accounts {
        created.push(insert_account(tx, Some(id), account).await?);
    }
    audit::record(
        &mut **tx,
        actor,
        "tenant.create",
        Some(id),
        Some(&spec.client_id),
        serde_json::json!({
            "kind": spec.kind.as_str(),
            "schema": schema,
            "userLimit": spec.user_limit,
            "accounts": created.iter().map(|a| &a.email).collect::<Vec<_>>(),
        }),
    )
    .await?;
    Ok(tenant)
}
