//! The audit log: who did what, to whom, when (`platform.audit_log`).

use sqlx::PgExecutor;
use uuid::Uuid;

/// Who performed an action: a signed-in account, or the command line.
#[derive(Clone, Debug)]
pub struct Actor {
    pub account_id: Option<Uuid>,
    pub email: String,
    pub ip: Option<String>,
}

impl Actor {
    /// Work done by the operator through the `brandops` command.
    pub fn cli() -> Self {
        Self {
            account_id: None,
            email: "cli".into(),
            ip: None,
        }
    }
}

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
