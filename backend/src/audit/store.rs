//! SQL of the audit log: the one place that writes `platform.audit_log`
//! rows (besides the `platform.tenant_add_account` and
//! `platform.tenant_remove_account` functions, which record `user.add` and
//! `user.remove` with the change they make).
//!
//! An action is `{prefix}.{what}`, the prefix naming the domain that acted:
//! `organisation.rename`, `company.added`, `passport.saved`,
//! `batch_update.applied`, `tenant.create`, `auth.login`, …

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::Actor;

/// Records `action` on a platform connection or transaction (sign-in,
/// onboarding, platform administration, accounts): in the caller's
/// transaction when given one.
pub async fn record<'e>(
    db: impl PgExecutor<'e>,
    actor: &Actor,
    action: &str,
    tenant_id: Option<Uuid>,
    target: Option<&str>,
    detail: serde_json::Value,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO platform.audit_log (actor_account_id, actor_email, tenant_id, action, target, detail, ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(actor.account_id)
    .bind(&actor.email)
    .bind(tenant_id)
    .bind(action)
    .bind(target)
    .bind(detail)
    .bind(&actor.ip)
    .execute(db)
    .await?;
    Ok(())
}

/// Records `action` of `actor` on the tenant this tenant connection belongs
/// to, in the caller's transaction: the record and the change it records
/// commit together or not at all. Through `platform.tenant_audit`, which
/// finds the tenant from the connection's role (never from an argument),
/// checks that `actor` is one of its accounts and that the action's prefix
/// is a domain's (`platform.tenant_audit_domains`); a new domain adds its
/// prefix there in a platform migration.
pub async fn record_own_tenant(
    conn: &mut PgConnection,
    actor: &Actor,
    action: &str,
    target: &str,
    detail: serde_json::Value,
) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT platform.tenant_audit($1, $2, $3, $4, $5)")
        .bind(action)
        .bind(target)
        .bind(detail)
        .bind(actor.account_id)
        .bind(&actor.ip)
        .execute(conn)
        .await?;
    Ok(())
}
