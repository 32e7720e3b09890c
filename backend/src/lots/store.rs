//! SQL of the lot register.

use sqlx::PgConnection;
use uuid::Uuid;

use super::LotStatus;
use crate::audit::{self, Actor};

/// A lot's status before and after [`change_status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusChange {
    pub from: LotStatus,
    pub to: LotStatus,
}

/// Changes lot `lot_id`'s status to `to` for `reason`, in the caller's
/// transaction: locks the lot's row, updates it, and writes the history row
/// (`lot_status_changes`) and the audit row (`lot.status_changed`), so the
/// three commit together or not at all. `None` when the tenant has no such
/// lot. A change to the status the lot already has is recorded too (a
/// second reason is still a decision someone took).
///
/// The caller checks who may change it and that `reason` is a sane text
/// (1 to 500 characters); `actor_name` is how the history shows who.
pub async fn change_status(
    conn: &mut PgConnection,
    actor: &Actor,
    actor_name: &str,
    lot_id: Uuid,
    to: LotStatus,
    reason: &str,
) -> Result<Option<StatusChange>, sqlx::Error> {
    let from: Option<String> =
        sqlx::query_scalar("SELECT status FROM lots WHERE id = $1 FOR UPDATE")
            .bind(lot_id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(from) = from.as_deref().and_then(LotStatus::parse) else {
        return Ok(None);
    };
    sqlx::query("UPDATE lots SET status = $2, status_changed_at = now() WHERE id = $1")
        .bind(lot_id)
        .bind(to.as_str())
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO lot_status_changes (lot_id, from_status, to_status, reason, changed_by, changed_by_name)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(lot_id)
    .bind(from.as_str())
    .bind(to.as_str())
    .bind(reason)
    .bind(actor.account_id)
    .bind(actor_name)
    .execute(&mut *conn)
    .await?;
    audit::record_own_tenant(
        conn,
        actor,
        "lot.status_changed",
        &lot_id.to_string(),
        serde_json::json!({ "from": from.as_str(), "to": to.as_str(), "reason": reason }),
    )
    .await?;
    Ok(Some(StatusChange { from, to }))
}
