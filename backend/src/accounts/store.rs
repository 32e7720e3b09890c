//! SQL of accounts (`platform.accounts`) and of each user's preferences
//! (`user_preferences`, in the tenant's schema).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::{AccountSummary, EMAIL_CANNOT_BE_USED, Email, NewAccount};
use crate::audit::Actor;
use crate::db::unique_violation;
use crate::http::error::ApiError;

pub async fn insert_account(
    conn: &mut PgConnection,
    tenant_id: Option<Uuid>,
    account: &NewAccount,
) -> Result<AccountSummary, ApiError> {
    sqlx::query_as::<_, AccountSummary>(
        "INSERT INTO platform.accounts (id, tenant_id, email, name, role, password_hash)
         VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING id, name, email, role",
    )
    .bind(Uuid::new_v4())
    .bind(tenant_id)
    .bind(account.email.as_str())
    .bind(account.name.as_str())
    .bind(account.role.as_str())
    .bind(&account.password_hash)
    .fetch_one(conn)
    .await
    .map_err(|e| match unique_violation(&e) {
        // Whether the address is taken here or in another organisation is
        // not ours to tell: one answer for every address that cannot be used.
        Some("accounts_email_key") => ApiError::conflict(EMAIL_CANNOT_BE_USED),
        _ => ApiError::from(e),
    })
}

/// Adds an account to the organisation this tenant connection belongs to,
/// within its user limit, with its audit record (`platform.tenant_add_account`
/// finds the organisation from the connection's role). The new account's id.
pub async fn add_to_own_tenant(
    conn: &mut PgConnection,
    account: &NewAccount,
    actor: &Actor,
) -> Result<Uuid, sqlx::Error> {
    sqlx::query_scalar("SELECT platform.tenant_add_account($1, $2, $3, $4, $5, $6)")
        .bind(account.email.as_str())
        .bind(account.name.as_str())
        .bind(account.role.as_str())
        .bind(&account.password_hash)
        .bind(actor.account_id)
        .bind(&actor.ip)
        .fetch_one(conn)
        .await
}

/// Removes the account `id` of the organisation this tenant connection
/// belongs to, with its sessions and an audit record; its email, or None when
/// the organisation has no such account.
pub async fn remove_from_own_tenant(
    conn: &mut PgConnection,
    id: Uuid,
    actor: &Actor,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT platform.tenant_remove_account($1, $2, $3)")
        .bind(id)
        .bind(actor.account_id)
        .bind(&actor.ip)
        .fetch_one(conn)
        .await
}

/// The tenant's accounts other than `except`, by name.
pub async fn list_others<'e>(
    db: impl PgExecutor<'e>,
    tenant_id: Uuid,
    except: Uuid,
) -> Result<Vec<AccountSummary>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, email, role FROM platform.accounts
         WHERE tenant_id = $1 AND id <> $2 ORDER BY lower(name), email",
    )
    .bind(tenant_id)
    .bind(except)
    .fetch_all(db)
    .await
}

/// The id and role of the tenant's account with this email, locked until
/// the transaction ends; None when the tenant has no such account.
pub async fn find_by_email(
    conn: &mut PgConnection,
    tenant_id: Uuid,
    email: &Email,
) -> Result<Option<(Uuid, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, role FROM platform.accounts WHERE email = $1 AND tenant_id = $2 FOR UPDATE",
    )
    .bind(email.as_str())
    .bind(tenant_id)
    .fetch_optional(conn)
    .await
}

pub async fn password_hash<'e>(
    db: impl PgExecutor<'e>,
    account_id: Uuid,
) -> Result<String, sqlx::Error> {
    sqlx::query_scalar("SELECT password_hash FROM platform.accounts WHERE id = $1")
        .bind(account_id)
        .fetch_one(db)
        .await
}

pub async fn set_password(
    conn: &mut PgConnection,
    account_id: Uuid,
    hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE platform.accounts SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(account_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// When the account was created, and its organisation's name (None for
/// platform admins).
pub async fn profile_facts<'e>(
    db: impl PgExecutor<'e>,
    account_id: Uuid,
) -> Result<(DateTime<Utc>, Option<String>), sqlx::Error> {
    sqlx::query_as(
        "SELECT a.created_at, t.name FROM platform.accounts a
         LEFT JOIN platform.tenants t ON t.id = a.tenant_id WHERE a.id = $1",
    )
    .bind(account_id)
    .fetch_one(db)
    .await
}

/// Tenant schema: the account's saved theme and landing page, if any.
pub async fn preferences(
    conn: &mut PgConnection,
    account_id: Uuid,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT theme, landing_page FROM user_preferences WHERE account_id = $1")
        .bind(account_id)
        .fetch_optional(conn)
        .await
}

/// Tenant schema: saves the account's theme and landing page.
pub async fn save_preferences(
    conn: &mut PgConnection,
    account_id: Uuid,
    theme: &str,
    landing_page: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO user_preferences (account_id, theme, landing_page, updated_at)
         VALUES ($1, $2, $3, now())
         ON CONFLICT (account_id) DO UPDATE
         SET theme = EXCLUDED.theme, landing_page = EXCLUDED.landing_page, updated_at = now()",
    )
    .bind(account_id)
    .bind(theme)
    .bind(landing_page)
    .execute(conn)
    .await?;
    Ok(())
}

/// Tenant schema: removes the account's preferences (the account is gone).
pub async fn delete_preferences(
    conn: &mut PgConnection,
    account_id: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM user_preferences WHERE account_id = $1")
        .bind(account_id)
        .execute(conn)
        .await?;
    Ok(())
}
