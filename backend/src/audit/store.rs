//! SQL of the audit log.

use sqlx::PgExecutor;
use uuid::Uuid;

use super::Actor;

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
