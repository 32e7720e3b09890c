//! SQL of the lot register.

use chrono::NaiveDate;
use sqlx::PgConnection;
use uuid::Uuid;

use super::{LotRow, LotStatus, StatusHistoryRow};
use crate::audit::{self, Actor};

/// A lot to add to the register.
#[derive(Debug, Clone, Copy)]
pub struct NewLot<'a> {
    pub product_id: Uuid,
    pub number: &'a str,
    pub manufactured_on: Option<NaiveDate>,
    pub expires_on: Option<NaiveDate>,
    pub status: LotStatus,
    /// The reason of its first history row ([`super::REGISTERED`]).
    pub reason: &'a str,
}

/// A lot as [`ensure`] found or added it.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct StoredLot {
    pub id: Uuid,
    pub manufactured_on: Option<NaiveDate>,
    pub expires_on: Option<NaiveDate>,
    /// Whether [`ensure`] added it (false: the product had it already).
    pub added: bool,
}

/// Adds `lot` to the register in the caller's transaction, with its first
/// history row (from no status to `lot.status`) and the audit row
/// (`lot.created`). `None`, and nothing written, when the product already
/// has a lot of that number. The caller checks that the product is the
/// tenant's and active, and the dates.
pub async fn register(
    conn: &mut PgConnection,
    actor: &Actor,
    actor_name: &str,
    lot: &NewLot<'_>,
) -> Result<Option<Uuid>, sqlx::Error> {
    let id: Option<Uuid> = sqlx::query_scalar(
        "INSERT INTO lots (id, product_id, number, manufactured_on, expires_on, status, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (product_id, number) DO NOTHING
         RETURNING id",
    )
    .bind(Uuid::new_v4())
    .bind(lot.product_id)
    .bind(lot.number)
    .bind(lot.manufactured_on)
    .bind(lot.expires_on)
    .bind(lot.status.as_str())
    .bind(actor.account_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(id) = id else { return Ok(None) };
    record_registered(conn, actor, actor_name, id, lot).await?;
    Ok(Some(id))
}

/// The lot `number` of the product, added to the register (as [`register`]
/// does) when the product does not have it yet: code jobs name their lot
/// this way. A lot found keeps its dates and status.
pub async fn ensure(
    conn: &mut PgConnection,
    actor: &Actor,
    actor_name: &str,
    lot: &NewLot<'_>,
) -> Result<StoredLot, sqlx::Error> {
    let stored: StoredLot = sqlx::query_as(
        "WITH added AS (
             INSERT INTO lots (id, product_id, number, manufactured_on, expires_on, status, created_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (product_id, number) DO NOTHING
             RETURNING id, manufactured_on, expires_on)
         SELECT id, manufactured_on, expires_on, true AS added FROM added
         UNION ALL
         SELECT id, manufactured_on, expires_on, false FROM lots WHERE product_id = $2 AND number = $3
         LIMIT 1",
    )
    .bind(Uuid::new_v4())
    .bind(lot.product_id)
    .bind(lot.number)
    .bind(lot.manufactured_on)
    .bind(lot.expires_on)
    .bind(lot.status.as_str())
    .bind(actor.account_id)
    .fetch_one(&mut *conn)
    .await?;
    if stored.added {
        record_registered(conn, actor, actor_name, stored.id, lot).await?;
    }
    Ok(stored)
}

/// The first history row and the audit row of a lot just added.
async fn record_registered(
    conn: &mut PgConnection,
    actor: &Actor,
    actor_name: &str,
    id: Uuid,
    lot: &NewLot<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO lot_status_changes (lot_id, from_status, to_status, reason, changed_by, changed_by_name)
         VALUES ($1, NULL, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(lot.status.as_str())
    .bind(lot.reason)
    .bind(actor.account_id)
    .bind(actor_name)
    .execute(&mut *conn)
    .await?;
    audit::record_own_tenant(
        conn,
        actor,
        "lot.created",
        &id.to_string(),
        serde_json::json!({
            "product_id": lot.product_id,
            "number": lot.number,
            "manufactured_on": lot.manufactured_on,
            "expires_on": lot.expires_on,
            "status": lot.status.as_str(),
        }),
    )
    .await
}

/// A lot [`register_batch_lots`] added.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct AddedLot {
    pub id: Uuid,
    pub product_id: Uuid,
    pub number: String,
    pub manufactured_on: Option<NaiveDate>,
    pub expires_on: Option<NaiveDate>,
    pub status: String,
}

/// The reason of the first history row of a lot a batch update registered.
pub const REGISTERED_BY_BATCH_UPDATE: &str = "Registered by a batch update";

/// Registers the lots that batch update `update_id`'s batches name and the
/// register lacks (ADR 0019): one per product (of the batch's GTIN) and
/// batch number, with the dates of the update's first batch of that number,
/// in the status its product starts lots in, with its first history row.
/// Answers the lots added; the caller records their audit rows and links
/// the batches, in the update's transaction.
pub async fn register_batch_lots(
    conn: &mut PgConnection,
    update_id: Uuid,
    actor: &Actor,
    actor_name: &str,
) -> Result<Vec<AddedLot>, sqlx::Error> {
    sqlx::query_as(
        "WITH wanted AS (
             SELECT DISTINCT ON (p.id, b.batch_number)
                    p.id AS product_id, b.batch_number, b.manufactured_on, b.expires_on,
                    CASE WHEN p.requires_inspection THEN 'quarantine' ELSE 'released' END AS status
             FROM batches b JOIN products p ON p.gtin = b.gtin
             WHERE b.update_id = $1
             ORDER BY p.id, b.batch_number, b.position
         ), added AS (
             INSERT INTO lots (id, product_id, number, manufactured_on, expires_on, status, created_by)
             SELECT gen_random_uuid(), product_id, batch_number, manufactured_on, expires_on, status, $2
             FROM wanted
             ON CONFLICT (product_id, number) DO NOTHING
             RETURNING id, product_id, number, manufactured_on, expires_on, status
         ), history AS (
             INSERT INTO lot_status_changes (lot_id, from_status, to_status, reason, changed_by, changed_by_name)
             SELECT id, NULL, status, $3, $2, $4 FROM added
         )
         SELECT id, product_id, number, manufactured_on, expires_on, status FROM added",
    )
    .bind(update_id)
    .bind(actor.account_id)
    .bind(REGISTERED_BY_BATCH_UPDATE)
    .bind(actor_name)
    .fetch_all(conn)
    .await
}

/// Records the audit row (`lot.created`) of a lot [`register_batch_lots`]
/// added.
pub async fn audit_added(
    conn: &mut PgConnection,
    actor: &Actor,
    lot: &AddedLot,
) -> Result<(), sqlx::Error> {
    audit::record_own_tenant(
        conn,
        actor,
        "lot.created",
        &lot.id.to_string(),
        serde_json::json!({
            "product_id": lot.product_id,
            "number": lot.number,
            "manufactured_on": lot.manufactured_on,
            "expires_on": lot.expires_on,
            "status": lot.status,
        }),
    )
    .await
}

/// The tenant's lots, newest first, of one product and in one status when
/// given: at most `limit`.
pub async fn list(
    conn: &mut PgConnection,
    product_id: Option<Uuid>,
    status: Option<LotStatus>,
    limit: i64,
) -> Result<Vec<LotRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT l.id, l.product_id, p.product_name, p.gtin, l.number, l.manufactured_on, l.expires_on,
                l.status, COALESCE(l.expires_on < current_date, false) AS expired,
                l.status_changed_at, l.created_at
         FROM lots l JOIN products p ON p.id = l.product_id
         WHERE ($1::uuid IS NULL OR l.product_id = $1) AND ($2::text IS NULL OR l.status = $2)
         ORDER BY l.created_at DESC, l.id DESC
         LIMIT $3",
    )
    .bind(product_id)
    .bind(status.map(LotStatus::as_str))
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The lot `id`, if the tenant has it.
pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<LotRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT l.id, l.product_id, p.product_name, p.gtin, l.number, l.manufactured_on, l.expires_on,
                l.status, COALESCE(l.expires_on < current_date, false) AS expired,
                l.status_changed_at, l.created_at
         FROM lots l JOIN products p ON p.id = l.product_id
         WHERE l.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The lot's status changes, oldest first.
pub async fn history(
    conn: &mut PgConnection,
    lot_id: Uuid,
) -> Result<Vec<StatusHistoryRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT from_status, to_status, reason, changed_by_name, changed_at
         FROM lot_status_changes WHERE lot_id = $1 ORDER BY id",
    )
    .bind(lot_id)
    .fetch_all(conn)
    .await
}

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
