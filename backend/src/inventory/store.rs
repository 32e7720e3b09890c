//! SQL of inventory. The balance statements are the heart of it (ADR 0020):
//! [`write_move`], [`take_lines`] and [`reserve_line`] change a balance row
//! by a conditional `UPDATE … WHERE on_hand - reserved >= $q` (stock coming
//! in by an upsert), and the callers take the rows in one order (location
//! id, then lot id), so that parallel moves and reservations queue on the
//! rows they share and never deadlock.

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::http::input::IsoDate;

// --- locations -------------------------------------------------------------

/// A location as stored, with its path from the root (`WH1 / A / 03`).
#[derive(Debug, sqlx::FromRow)]
pub struct LocationRow {
    pub id: Uuid,
    pub code: String,
    pub name: String,
    pub kind: String,
    pub parent_id: Option<Uuid>,
    pub path: String,
    pub created_at: DateTime<Utc>,
}

/// Every location, each after its parent (depth first, by code).
pub async fn list_locations(conn: &mut PgConnection) -> Result<Vec<LocationRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH RECURSIVE tree AS (
             SELECT id, code, name, kind, parent_id, created_at, code AS path,
                    ARRAY[lower(code)] AS sort
               FROM locations WHERE parent_id IS NULL
             UNION ALL
             SELECT c.id, c.code, c.name, c.kind, c.parent_id, c.created_at,
                    t.path || ' / ' || c.code, t.sort || lower(c.code)
               FROM locations c JOIN tree t ON c.parent_id = t.id
         )
         SELECT id, code, name, kind, parent_id, path, created_at FROM tree ORDER BY sort",
    )
    .fetch_all(conn)
    .await
}

/// The kind of location `id`; `None` when the tenant has none.
pub async fn location_kind(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT kind FROM locations WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Inserts a location (a unique violation on `locations_code_key` for a
/// code taken, whatever its case).
pub async fn insert_location(
    conn: &mut PgConnection,
    id: Uuid,
    code: &str,
    name: &str,
    kind: &str,
    parent_id: Option<Uuid>,
    by: Option<Uuid>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO locations (id, code, name, kind, parent_id, created_by)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(code)
    .bind(name)
    .bind(kind)
    .bind(parent_id)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Location `id` with its path.
pub async fn find_location(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<LocationRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH RECURSIVE up AS (
             SELECT id, parent_id, code, 0 AS depth FROM locations WHERE id = $1
             UNION ALL
             SELECT p.id, p.parent_id, p.code, up.depth + 1
               FROM locations p JOIN up ON p.id = up.parent_id
         )
         SELECT l.id, l.code, l.name, l.kind, l.parent_id, l.created_at,
                (SELECT string_agg(code, ' / ' ORDER BY depth DESC) FROM up) AS path
           FROM locations l WHERE l.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

// --- products and lots -------------------------------------------------------

/// The name of product `id`; `None` when the tenant has none.
pub async fn product_name(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT product_name FROM products WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// A lot as a move needs it.
#[derive(Debug)]
pub struct MoveLot {
    pub product_id: Uuid,
    pub number: String,
    pub status: String,
    pub expires_on: Option<NaiveDate>,
    /// Its expiry date is before today.
    pub expired: bool,
}

/// What a move checks before it writes, read in one statement
/// ([`move_context`]).
#[derive(Debug, sqlx::FromRow)]
pub struct MoveContext {
    /// `None`: no such product.
    pub product_name: Option<String>,
    /// `None`: no such location (or none asked).
    pub from_kind: Option<String>,
    pub to_kind: Option<String>,
    lot_product_id: Option<Uuid>,
    lot_number: Option<String>,
    lot_status: Option<String>,
    lot_expires_on: Option<NaiveDate>,
    lot_expired: Option<bool>,
}

impl MoveContext {
    /// The lot; `None` when the tenant has none with that id.
    pub fn lot(&self) -> Option<MoveLot> {
        Some(MoveLot {
            product_id: self.lot_product_id?,
            number: self.lot_number.clone()?,
            status: self.lot_status.clone()?,
            expires_on: self.lot_expires_on,
            expired: self.lot_expired.unwrap_or(false),
        })
    }
}

/// The product's name, the kinds of the two locations and lot `lot_id` of
/// a move, in one statement that also takes the move's locks: the lot's
/// row share-locked until the transaction ends (`FOR KEY SHARE`, as the
/// ledger's foreign key would: a status change, which locks it `FOR
/// UPDATE`, waits for the moves in flight, and the moves after it see the
/// new status), then, for a transfer, both balance rows in the lock order
/// (location id), so that two opposite transfers never deadlock.
pub async fn move_context(
    conn: &mut PgConnection,
    product_id: Uuid,
    lot_id: Uuid,
    from_location_id: Option<Uuid>,
    to_location_id: Option<Uuid>,
) -> Result<MoveContext, sqlx::Error> {
    sqlx::query_as(
        "SELECT (SELECT product_name FROM products WHERE id = $1) AS product_name,
                (SELECT kind FROM locations WHERE id = $3) AS from_kind,
                (SELECT kind FROM locations WHERE id = $4) AS to_kind,
                l.product_id AS lot_product_id, l.number AS lot_number,
                l.status AS lot_status, l.expires_on AS lot_expires_on,
                coalesce(l.expires_on < current_date, false) AS lot_expired,
                CASE WHEN $3::uuid IS NOT NULL AND $4::uuid IS NOT NULL THEN
                    (SELECT count(*) FROM (
                         SELECT 1 FROM stock_balances
                          WHERE product_id = $1 AND lot_id = $2 AND location_id IN ($3, $4)
                          ORDER BY location_id
                          FOR NO KEY UPDATE) locked)
                END AS balances_locked
           FROM (SELECT 1) one
           LEFT JOIN (SELECT product_id, number, status, expires_on
                        FROM lots WHERE id = $2 FOR KEY SHARE) l ON true",
    )
    .bind(product_id)
    .bind(lot_id)
    .bind(from_location_id)
    .bind(to_location_id)
    .fetch_one(conn)
    .await
}

// --- balances ------------------------------------------------------------------

/// What is available (on hand less reserved) of (product, location, lot):
/// for the message of a refused move.
pub async fn available(
    conn: &mut PgConnection,
    product_id: Uuid,
    location_id: Uuid,
    lot_id: Uuid,
) -> Result<Decimal, sqlx::Error> {
    let found: Option<Decimal> = sqlx::query_scalar(
        "SELECT on_hand - reserved FROM stock_balances
          WHERE product_id = $1 AND location_id = $2 AND lot_id = $3",
    )
    .bind(product_id)
    .bind(location_id)
    .bind(lot_id)
    .fetch_optional(conn)
    .await?;
    Ok(found.unwrap_or_default())
}

/// A balance row as `GET /api/stock` shows it.
#[derive(Debug, sqlx::FromRow)]
pub struct StockRow {
    pub product_id: Uuid,
    pub product_name: String,
    pub location_id: Uuid,
    pub location_code: String,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub expires_on: Option<IsoDate>,
    pub expired: bool,
    pub lot_status: String,
    pub on_hand: Decimal,
    pub reserved: Decimal,
}

/// The balances with stock (on hand above 0), filtered, by product, location
/// code and expiry; at most `limit`. Reads the balance rows only, never the
/// ledger.
pub async fn stock(
    conn: &mut PgConnection,
    product_id: Option<Uuid>,
    location_id: Option<Uuid>,
    lot_id: Option<Uuid>,
    limit: i64,
) -> Result<Vec<StockRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT b.product_id, p.product_name, b.location_id, loc.code AS location_code,
                b.lot_id, l.number AS lot_number, l.expires_on,
                coalesce(l.expires_on < current_date, false) AS expired,
                l.status AS lot_status, b.on_hand, b.reserved
           FROM stock_balances b
           JOIN products p ON p.id = b.product_id
           JOIN locations loc ON loc.id = b.location_id
           JOIN lots l ON l.id = b.lot_id
          WHERE ($1::uuid IS NULL OR b.product_id = $1)
            AND ($2::uuid IS NULL OR b.location_id = $2)
            AND ($3::uuid IS NULL OR b.lot_id = $3)
            AND b.on_hand > 0
          ORDER BY p.product_name, b.product_id, lower(loc.code), l.expires_on NULLS LAST, l.number
          LIMIT $4",
    )
    .bind(product_id)
    .bind(location_id)
    .bind(lot_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

// --- the ledger ------------------------------------------------------------------

/// What a new move records.
pub struct NewMove<'a> {
    pub id: Uuid,
    pub product_id: Uuid,
    pub lot_id: Uuid,
    pub quantity: Decimal,
    pub from_location_id: Option<Uuid>,
    pub to_location_id: Option<Uuid>,
    pub reason: &'a str,
    pub unit_cost: Option<Decimal>,
    pub currency: Option<&'a str>,
    pub reference: Option<&'a str>,
    pub created_by: Option<Uuid>,
}

/// A move as stored, with its lot's number.
#[derive(Debug, sqlx::FromRow)]
pub struct MoveRow {
    pub seq: i64,
    pub id: Uuid,
    pub product_id: Uuid,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub quantity: Decimal,
    pub from_location_id: Option<Uuid>,
    pub to_location_id: Option<Uuid>,
    pub reason: String,
    pub unit_cost: Option<Decimal>,
    pub currency: Option<String>,
    pub reference: Option<String>,
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

/// Writes a move in one statement: takes the quantity out of the balance
/// at `from_location_id` if that much is available (on hand less
/// reserved), adds it to the balance at `to_location_id` (creating it),
/// appends the ledger row and records the audit row (`inventory.move`,
/// with `detail`). Answers the move, or `None` when not enough was
/// available to take (then nothing changed). The caller has checked the
/// lot and the locations and taken the locks ([`move_context`]).
pub async fn write_move(
    conn: &mut PgConnection,
    m: &NewMove<'_>,
    detail: &serde_json::Value,
    actor_ip: Option<&str>,
) -> Result<Option<MoveRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH taken AS (
             UPDATE stock_balances SET on_hand = on_hand - $4, updated_at = now()
              WHERE product_id = $2 AND location_id = $5 AND lot_id = $3
                AND on_hand - reserved >= $4
             RETURNING 1
         ), put AS (
             INSERT INTO stock_balances (product_id, location_id, lot_id, on_hand)
             SELECT $2, $6, $3, $4
              WHERE $6::uuid IS NOT NULL AND ($5::uuid IS NULL OR EXISTS (SELECT FROM taken))
             ON CONFLICT (product_id, location_id, lot_id)
             DO UPDATE SET on_hand = stock_balances.on_hand + EXCLUDED.on_hand, updated_at = now()
             RETURNING 1
         ), m AS (
             INSERT INTO stock_moves (id, product_id, lot_id, quantity, from_location_id,
                                      to_location_id, reason, unit_cost, currency, reference,
                                      created_by)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
              WHERE $5::uuid IS NULL OR EXISTS (SELECT FROM taken)
             RETURNING *
         ), audited AS (
             SELECT platform.tenant_audit('inventory.move', m.id::text, $12, $11, $13) FROM m
         )
         SELECT m.seq, m.id, m.product_id, m.lot_id, l.number AS lot_number, m.quantity,
                m.from_location_id, m.to_location_id, m.reason, m.unit_cost, m.currency,
                m.reference, m.created_by, m.created_at
           FROM m JOIN lots l ON l.id = m.lot_id CROSS JOIN audited",
    )
    .bind(m.id)
    .bind(m.product_id)
    .bind(m.lot_id)
    .bind(m.quantity)
    .bind(m.from_location_id)
    .bind(m.to_location_id)
    .bind(m.reason)
    .bind(m.unit_cost)
    .bind(m.currency)
    .bind(m.reference)
    .bind(m.created_by)
    .bind(detail)
    .bind(actor_ip)
    .fetch_optional(conn)
    .await
}

/// Takes planned lines out of stock at once (the manufacturing order's
/// consumption): for each line (`ids[i]`, `product_ids[i]`, `lot_ids[i]`,
/// `quantities[i]` at `location_id`) the lot share-locked (in id order),
/// the balance taken by one conditional update if the lot is still
/// released and unexpired and that much is available, the ledger row
/// appended with `reason` and `reference`, and the audit row
/// (`inventory.move`, `details[i]`) recorded: one statement for all. No two
/// lines may name the same balance. Answers the ids of the lines taken; a
/// line missing from it took nothing, and the caller rolls back.
#[allow(clippy::too_many_arguments)]
pub async fn take_lines(
    conn: &mut PgConnection,
    ids: &[Uuid],
    product_ids: &[Uuid],
    lot_ids: &[Uuid],
    quantities: &[Decimal],
    details: &[serde_json::Value],
    location_id: Uuid,
    reason: &str,
    reference: Option<&str>,
    created_by: Option<Uuid>,
    actor_ip: Option<&str>,
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "WITH line AS (
             SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::numeric[], $5::jsonb[])
                 AS u(id, product_id, lot_id, quantity, detail)
         ), usable AS (
             SELECT id FROM lots
              WHERE id = ANY($3) AND status = 'released'
                AND (expires_on IS NULL OR expires_on >= current_date)
              ORDER BY id
              FOR KEY SHARE
         ), taken AS (
             UPDATE stock_balances b SET on_hand = b.on_hand - line.quantity, updated_at = now()
               FROM line
              WHERE b.product_id = line.product_id AND b.location_id = $6
                AND b.lot_id = line.lot_id
                AND b.lot_id IN (SELECT id FROM usable)
                AND b.on_hand - b.reserved >= line.quantity
             RETURNING line.id
         ), m AS (
             INSERT INTO stock_moves (id, product_id, lot_id, quantity, from_location_id,
                                      reason, reference, created_by)
             SELECT line.id, line.product_id, line.lot_id, line.quantity, $6, $7, $8, $9
               FROM line WHERE line.id IN (SELECT id FROM taken)
             RETURNING id
         ), audited AS (
             SELECT m.id, platform.tenant_audit('inventory.move', m.id::text, line.detail, $9, $10)
               FROM m JOIN line ON line.id = m.id
         )
         SELECT id FROM audited",
    )
    .bind(ids)
    .bind(product_ids)
    .bind(lot_ids)
    .bind(quantities)
    .bind(details)
    .bind(location_id)
    .bind(reason)
    .bind(reference)
    .bind(created_by)
    .bind(actor_ip)
    .fetch_all(conn)
    .await
}

/// The filters of the ledger's read.
pub struct MoveFilter {
    pub product_id: Option<Uuid>,
    pub lot_id: Option<Uuid>,
    /// Moves from or to it.
    pub location_id: Option<Uuid>,
    /// Made on or after this day (UTC).
    pub from: Option<NaiveDate>,
    /// Made on or before this day (UTC).
    pub to: Option<NaiveDate>,
    /// Older than the move with this `seq` (the keyset cursor).
    pub before: Option<i64>,
}

/// The ledger, newest first, at most `limit` moves.
pub async fn list_moves(
    conn: &mut PgConnection,
    f: &MoveFilter,
    limit: i64,
) -> Result<Vec<MoveRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT m.seq, m.id, m.product_id, m.lot_id, l.number AS lot_number, m.quantity,
                m.from_location_id, m.to_location_id, m.reason, m.unit_cost, m.currency,
                m.reference, m.created_by, m.created_at
           FROM stock_moves m JOIN lots l ON l.id = m.lot_id
          WHERE ($1::uuid IS NULL OR m.product_id = $1)
            AND ($2::uuid IS NULL OR m.lot_id = $2)
            AND ($3::uuid IS NULL OR m.from_location_id = $3 OR m.to_location_id = $3)
            AND ($4::date IS NULL OR m.created_at >= ($4::date::timestamp AT TIME ZONE 'UTC'))
            AND ($5::date IS NULL OR m.created_at < (($5::date + 1)::timestamp AT TIME ZONE 'UTC'))
            AND ($6::bigint IS NULL OR m.seq < $6)
          ORDER BY m.seq DESC
          LIMIT $7",
    )
    .bind(f.product_id)
    .bind(f.lot_id)
    .bind(f.location_id)
    .bind(f.from)
    .bind(f.to)
    .bind(f.before)
    .bind(limit)
    .fetch_all(conn)
    .await
}

// --- idempotency keys ------------------------------------------------------------

/// Claims `key` for `operation`: true when this request is the first with
/// it. A request with the same key still in flight makes this wait until
/// that one commits (then false) or rolls back (then true).
pub async fn claim_key(
    conn: &mut PgConnection,
    operation: &str,
    key: &str,
    request_hash: &str,
) -> Result<bool, sqlx::Error> {
    let claimed: Option<i32> = sqlx::query_scalar(
        "INSERT INTO idempotency_keys (operation, key, request_hash, status, response)
         VALUES ($1, $2, $3, 0, '{}')
         ON CONFLICT (operation, key) DO NOTHING
         RETURNING 1",
    )
    .bind(operation)
    .bind(key)
    .bind(request_hash)
    .fetch_optional(conn)
    .await?;
    Ok(claimed.is_some())
}

/// The first answer given to `key` of `operation`: its request's hash,
/// status and body.
pub async fn stored_answer(
    conn: &mut PgConnection,
    operation: &str,
    key: &str,
) -> Result<Option<(String, i16, serde_json::Value)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT request_hash, status, response FROM idempotency_keys
          WHERE operation = $1 AND key = $2",
    )
    .bind(operation)
    .bind(key)
    .fetch_optional(conn)
    .await
}

/// Keeps the answer of the request that claimed `key`, in its transaction.
pub async fn save_answer(
    conn: &mut PgConnection,
    operation: &str,
    key: &str,
    status: i16,
    response: &serde_json::Value,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE idempotency_keys SET status = $3, response = $4 WHERE operation = $1 AND key = $2",
    )
    .bind(operation)
    .bind(key)
    .bind(status)
    .bind(response)
    .execute(conn)
    .await?;
    Ok(())
}

// --- reservations ------------------------------------------------------------------

/// A balance a reservation may take from.
#[derive(Debug, sqlx::FromRow)]
pub struct Reservable {
    pub location_id: Uuid,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub expires_on: Option<IsoDate>,
    pub available: Decimal,
}

/// The product's balances a reservation may take from (released,
/// unexpired lots, outside quarantine and scrap locations, something
/// available), in `location_id` or anywhere, locked (`FOR UPDATE`) in the
/// one lock order (location id, then lot id): parallel reservations of the
/// product queue here, and each sees what the ones ahead left.
pub async fn lock_reservable(
    conn: &mut PgConnection,
    product_id: Uuid,
    location_id: Option<Uuid>,
) -> Result<Vec<Reservable>, sqlx::Error> {
    sqlx::query_as(
        "SELECT b.location_id, b.lot_id, l.number AS lot_number, l.expires_on,
                b.on_hand - b.reserved AS available
           FROM stock_balances b
           JOIN lots l ON l.id = b.lot_id
           JOIN locations loc ON loc.id = b.location_id
          WHERE b.product_id = $1
            AND ($2::uuid IS NULL OR b.location_id = $2)
            AND l.status = 'released'
            AND (l.expires_on IS NULL OR l.expires_on >= current_date)
            AND loc.kind NOT IN ('quarantine', 'scrap')
            AND b.on_hand - b.reserved > 0
          ORDER BY b.location_id, b.lot_id
          FOR UPDATE OF b",
    )
    .bind(product_id)
    .bind(location_id)
    .fetch_all(conn)
    .await
}

/// Adds `quantity` to the reserved stock of a balance if that much is
/// available: one conditional statement; false when not (nothing changed).
pub async fn reserve_line(
    conn: &mut PgConnection,
    product_id: Uuid,
    location_id: Uuid,
    lot_id: Uuid,
    quantity: Decimal,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE stock_balances SET reserved = reserved + $4, updated_at = now()
          WHERE product_id = $1 AND location_id = $2 AND lot_id = $3
            AND on_hand - reserved >= $4",
    )
    .bind(product_id)
    .bind(location_id)
    .bind(lot_id)
    .bind(quantity)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives back `quantity` of the reserved stock of a balance.
pub async fn unreserve_line(
    conn: &mut PgConnection,
    product_id: Uuid,
    location_id: Uuid,
    lot_id: Uuid,
    quantity: Decimal,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE stock_balances SET reserved = reserved - $4, updated_at = now()
          WHERE product_id = $1 AND location_id = $2 AND lot_id = $3",
    )
    .bind(product_id)
    .bind(location_id)
    .bind(lot_id)
    .bind(quantity)
    .execute(conn)
    .await?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub async fn insert_reservation(
    conn: &mut PgConnection,
    id: Uuid,
    product_id: Uuid,
    location_id: Option<Uuid>,
    quantity: Decimal,
    reference: &str,
    by: Option<Uuid>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO stock_reservations (id, product_id, location_id, quantity, reference, created_by)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(product_id)
    .bind(location_id)
    .bind(quantity)
    .bind(reference)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_reservation_line(
    conn: &mut PgConnection,
    reservation_id: Uuid,
    location_id: Uuid,
    lot_id: Uuid,
    quantity: Decimal,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO stock_reservation_lines (reservation_id, location_id, lot_id, quantity)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(reservation_id)
    .bind(location_id)
    .bind(lot_id)
    .bind(quantity)
    .execute(conn)
    .await?;
    Ok(())
}

/// A reservation as stored.
#[derive(Debug, sqlx::FromRow)]
pub struct ReservationRow {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    pub location_id: Option<Uuid>,
    pub quantity: Decimal,
    pub reference: String,
    pub status: String,
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub released_at: Option<DateTime<Utc>>,
}

/// A line of a reservation as stored.
#[derive(Debug, sqlx::FromRow)]
pub struct ReservationLineRow {
    pub reservation_id: Uuid,
    pub location_id: Uuid,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub expires_on: Option<IsoDate>,
    pub quantity: Decimal,
}

/// The reservations, newest first, of one product or all, active or all;
/// at most `limit`.
pub async fn list_reservations(
    conn: &mut PgConnection,
    product_id: Option<Uuid>,
    active_only: bool,
    limit: i64,
) -> Result<Vec<ReservationRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.product_id, p.product_name, r.location_id, r.quantity, r.reference,
                r.status, r.created_by, r.created_at, r.released_at
           FROM stock_reservations r JOIN products p ON p.id = r.product_id
          WHERE ($1::uuid IS NULL OR r.product_id = $1)
            AND (NOT $2 OR r.status = 'active')
          ORDER BY r.created_at DESC, r.id
          LIMIT $3",
    )
    .bind(product_id)
    .bind(active_only)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Reservation `id`, locked until the transaction ends when `lock`.
pub async fn lock_reservation(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<ReservationRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.product_id, p.product_name, r.location_id, r.quantity, r.reference,
                r.status, r.created_by, r.created_at, r.released_at
           FROM stock_reservations r JOIN products p ON p.id = r.product_id
          WHERE r.id = $1
          FOR UPDATE OF r",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The lines of the reservations `ids`, in the lock order (location id,
/// then lot id).
pub async fn reservation_lines(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<ReservationLineRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.reservation_id, s.location_id, s.lot_id, l.number AS lot_number, l.expires_on,
                s.quantity
           FROM stock_reservation_lines s JOIN lots l ON l.id = s.lot_id
          WHERE s.reservation_id = ANY($1)
          ORDER BY s.reservation_id, s.location_id, s.lot_id",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// Marks reservation `id` released by `by`.
pub async fn mark_released(
    conn: &mut PgConnection,
    id: Uuid,
    by: Option<Uuid>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE stock_reservations SET status = 'released', released_at = now(), released_by = $2
          WHERE id = $1",
    )
    .bind(id)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

// --- replenishment -----------------------------------------------------------------

/// A reorder rule as stored, with what it covers.
#[derive(Debug, sqlx::FromRow)]
pub struct RuleRow {
    pub product_id: Uuid,
    pub product_name: String,
    pub location_id: Uuid,
    pub location_code: String,
    pub min_quantity: Decimal,
    pub max_quantity: Decimal,
    pub updated_at: DateTime<Utc>,
}

/// Sets the product's reorder rule (one per product).
pub async fn upsert_rule(
    conn: &mut PgConnection,
    product_id: Uuid,
    location_id: Uuid,
    min: Decimal,
    max: Decimal,
    by: Option<Uuid>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO reorder_rules (product_id, location_id, min_quantity, max_quantity, updated_by)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (product_id) DO UPDATE
            SET location_id = EXCLUDED.location_id, min_quantity = EXCLUDED.min_quantity,
                max_quantity = EXCLUDED.max_quantity, updated_by = EXCLUDED.updated_by,
                updated_at = now()",
    )
    .bind(product_id)
    .bind(location_id)
    .bind(min)
    .bind(max)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

/// The reorder rules, by product name.
pub async fn list_rules(conn: &mut PgConnection) -> Result<Vec<RuleRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.product_id, p.product_name, r.location_id, loc.code AS location_code,
                r.min_quantity, r.max_quantity, r.updated_at
           FROM reorder_rules r
           JOIN products p ON p.id = r.product_id
           JOIN locations loc ON loc.id = r.location_id
          ORDER BY p.product_name, r.product_id",
    )
    .fetch_all(conn)
    .await
}

/// A product below its minimum.
#[derive(Debug, sqlx::FromRow)]
pub struct ReplenishmentRow {
    pub product_id: Uuid,
    pub product_name: String,
    pub location_id: Uuid,
    pub location_code: String,
    pub min_quantity: Decimal,
    pub max_quantity: Decimal,
    pub on_hand: Decimal,
    pub reserved: Decimal,
    pub suggested_quantity: Decimal,
}

/// The products whose usable stock at their rule's location (and every
/// location below it) is below the rule's minimum. Usable: lots released
/// and unexpired, outside quarantine and scrap locations; available is on
/// hand less reserved, and the suggestion tops it up to the maximum:
/// `max - (on_hand - reserved)`.
pub async fn replenishment(conn: &mut PgConnection) -> Result<Vec<ReplenishmentRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH RECURSIVE tree AS (
             SELECT r.product_id, r.location_id AS id FROM reorder_rules r
             UNION ALL
             SELECT t.product_id, c.id FROM tree t JOIN locations c ON c.parent_id = t.id
         ),
         usable AS (
             SELECT t.product_id, sum(b.on_hand) AS on_hand, sum(b.reserved) AS reserved
               FROM tree t
               JOIN locations loc ON loc.id = t.id
               JOIN stock_balances b ON b.product_id = t.product_id AND b.location_id = t.id
               JOIN lots l ON l.id = b.lot_id
              WHERE loc.kind NOT IN ('quarantine', 'scrap')
                AND l.status = 'released'
                AND (l.expires_on IS NULL OR l.expires_on >= current_date)
              GROUP BY t.product_id
         )
         SELECT r.product_id, p.product_name, r.location_id, loc.code AS location_code,
                r.min_quantity, r.max_quantity,
                coalesce(u.on_hand, 0) AS on_hand, coalesce(u.reserved, 0) AS reserved,
                r.max_quantity - (coalesce(u.on_hand, 0) - coalesce(u.reserved, 0))
                    AS suggested_quantity
           FROM reorder_rules r
           JOIN products p ON p.id = r.product_id
           JOIN locations loc ON loc.id = r.location_id
           LEFT JOIN usable u ON u.product_id = r.product_id
          WHERE coalesce(u.on_hand, 0) - coalesce(u.reserved, 0) < r.min_quantity
          ORDER BY p.product_name, r.product_id",
    )
    .fetch_all(conn)
    .await
}

// --- valuation ---------------------------------------------------------------------

/// A product's stock on hand (outside scrap locations).
#[derive(Debug, sqlx::FromRow)]
pub struct HeldRow {
    pub product_id: Uuid,
    pub product_name: String,
    pub on_hand: Decimal,
}

/// Every product with stock on hand outside scrap locations, by name.
pub async fn held(conn: &mut PgConnection) -> Result<Vec<HeldRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT b.product_id, p.product_name, sum(b.on_hand) AS on_hand
           FROM stock_balances b
           JOIN locations loc ON loc.id = b.location_id
           JOIN products p ON p.id = b.product_id
          WHERE loc.kind <> 'scrap'
          GROUP BY b.product_id, p.product_name
         HAVING sum(b.on_hand) > 0
          ORDER BY p.product_name, b.product_id",
    )
    .fetch_all(conn)
    .await
}

/// Part of a product's stock valued in one currency.
#[derive(Debug, sqlx::FromRow)]
pub struct ValueRow {
    pub product_id: Uuid,
    pub currency: String,
    pub quantity: Decimal,
    pub value: Decimal,
}

/// FIFO by receipt: the stock on hand is what was received last, so each
/// product's on-hand quantity is valued at its newest receipts' unit costs,
/// going back until the quantity is covered; summed per currency (two
/// currencies are never added).
pub async fn valuation(conn: &mut PgConnection) -> Result<Vec<ValueRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH held AS (
             SELECT b.product_id, sum(b.on_hand) AS on_hand
               FROM stock_balances b JOIN locations loc ON loc.id = b.location_id
              WHERE loc.kind <> 'scrap'
              GROUP BY b.product_id
             HAVING sum(b.on_hand) > 0
         ),
         layers AS (
             SELECT m.product_id, m.quantity, m.unit_cost, m.currency,
                    sum(m.quantity) OVER (PARTITION BY m.product_id ORDER BY m.seq DESC)
                        - m.quantity AS newer
               FROM stock_moves m JOIN held h ON h.product_id = m.product_id
              WHERE m.from_location_id IS NULL
         )
         SELECT l.product_id, l.currency,
                sum(LEAST(l.quantity, h.on_hand - l.newer)) AS quantity,
                sum(LEAST(l.quantity, h.on_hand - l.newer) * l.unit_cost) AS value
           FROM layers l JOIN held h ON h.product_id = l.product_id
          WHERE l.newer < h.on_hand
          GROUP BY l.product_id, l.currency
          ORDER BY l.product_id, l.currency",
    )
    .fetch_all(conn)
    .await
}
