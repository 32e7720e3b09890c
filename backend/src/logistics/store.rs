//! SQL of logistics: shipments, their lines and packages, the SSCC
//! counter and the organisation's GS1 company prefix. Stock is never
//! written here: the ledger (`inventory::ledger`) does that.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::http::input::IsoDate;

// --- the organisation's GS1 company prefix -------------------------------------

/// The organisation's GS1 company prefix, if it set one.
pub async fn company_prefix(conn: &mut PgConnection) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT gs1_company_prefix FROM org_settings")
        .fetch_one(conn)
        .await
}

/// Sets the organisation's GS1 company prefix.
pub async fn set_company_prefix(
    conn: &mut PgConnection,
    prefix: &str,
    by: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE org_settings SET gs1_company_prefix = $1, updated_at = now(), updated_by = $2",
    )
    .bind(prefix)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Takes `count` serials of `prefix`'s counter (creating it at 0): one
/// upsert, so parallel shipments queue on the row. Answers the first.
pub async fn take_serials(
    conn: &mut PgConnection,
    prefix: &str,
    count: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO sscc_counters (company_prefix, next_serial) VALUES ($1, $2)
         ON CONFLICT (company_prefix)
         DO UPDATE SET next_serial = sscc_counters.next_serial + EXCLUDED.next_serial
         RETURNING next_serial - $2",
    )
    .bind(prefix)
    .bind(count)
    .fetch_one(conn)
    .await
}

// --- parties and products --------------------------------------------------------

/// A customer as a shipment shows it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomerRow {
    pub id: Uuid,
    pub name: String,
    pub gln: Option<String>,
    pub country: String,
}

pub async fn customer(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<CustomerRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, gln, country FROM customers WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// A product as a shipment line needs it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProductRow {
    pub id: Uuid,
    pub product_name: String,
    pub gtin: String,
}

pub async fn product(conn: &mut PgConnection, id: Uuid) -> Result<Option<ProductRow>, sqlx::Error> {
    sqlx::query_as("SELECT id, product_name, gtin FROM products WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// A lot as a line naming it needs it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LotRow {
    pub id: Uuid,
    pub product_id: Uuid,
    pub number: String,
    pub status: String,
    pub expired: bool,
}

pub async fn lot(conn: &mut PgConnection, id: Uuid) -> Result<Option<LotRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, product_id, number, status,
                coalesce(expires_on < current_date, false) AS expired
           FROM lots WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

// --- shipments ------------------------------------------------------------------

#[allow(clippy::too_many_arguments)]
pub async fn insert_shipment(
    conn: &mut PgConnection,
    id: Uuid,
    customer_id: Uuid,
    from_location_id: Uuid,
    sales_order_id: Option<Uuid>,
    by: Uuid,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO shipments (id, customer_id, from_location_id, sales_order_id, created_by)
         VALUES ($1, $2, $3, $4, $5) RETURNING number",
    )
    .bind(id)
    .bind(customer_id)
    .bind(from_location_id)
    .bind(sales_order_id)
    .bind(by)
    .fetch_one(conn)
    .await
}

#[allow(clippy::too_many_arguments)]
pub async fn insert_line(
    conn: &mut PgConnection,
    shipment_id: Uuid,
    position: i32,
    product_id: Uuid,
    quantity: Decimal,
    lot_id: Option<Uuid>,
    package: i32,
    reservation_id: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO shipment_lines (shipment_id, position, product_id, quantity, lot_id, package,
                                     reservation_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(shipment_id)
    .bind(position)
    .bind(product_id)
    .bind(quantity)
    .bind(lot_id)
    .bind(package)
    .bind(reservation_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// A shipment as stored, with its customer and location.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ShipmentRow {
    pub id: Uuid,
    pub number: i64,
    pub status: String,
    pub customer_id: Uuid,
    pub customer_name: String,
    pub customer_gln: Option<String>,
    pub customer_country: String,
    pub from_location_id: Uuid,
    pub location_code: String,
    pub location_name: String,
    pub sales_order_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub shipped_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub cancelled_at: Option<DateTime<Utc>>,
}

/// Shipment `id`.
pub async fn shipment(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<ShipmentRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.id, s.number, s.status, s.customer_id, c.name AS customer_name,
                c.gln AS customer_gln, c.country AS customer_country, s.from_location_id,
                l.code AS location_code, l.name AS location_name, s.sales_order_id,
                s.created_at, s.shipped_at, s.delivered_at, s.cancelled_at
           FROM shipments s
           JOIN customers c ON c.id = s.customer_id
           JOIN locations l ON l.id = s.from_location_id
          WHERE s.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Locks shipment `id` until the transaction ends; answers its status.
/// A second ship or deliver of it waits here, then sees the first's.
pub async fn lock_shipment(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT status FROM shipments WHERE id = $1 FOR UPDATE")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The shipments, newest first, of one status or all, one customer or
/// all; at most `limit`.
pub async fn list_shipments(
    conn: &mut PgConnection,
    status: Option<&str>,
    customer_id: Option<Uuid>,
    limit: i64,
) -> Result<Vec<ShipmentRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT s.id, s.number, s.status, s.customer_id, c.name AS customer_name,
                c.gln AS customer_gln, c.country AS customer_country, s.from_location_id,
                l.code AS location_code, l.name AS location_name, s.sales_order_id,
                s.created_at, s.shipped_at, s.delivered_at, s.cancelled_at
           FROM shipments s
           JOIN customers c ON c.id = s.customer_id
           JOIN locations l ON l.id = s.from_location_id
          WHERE ($1::text IS NULL OR s.status = $1)
            AND ($2::uuid IS NULL OR s.customer_id = $2)
          ORDER BY s.created_at DESC, s.id DESC
          LIMIT $3",
    )
    .bind(status)
    .bind(customer_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// A line of a shipment, with its product and whether its reservation
/// still holds the stock.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LineRow {
    pub shipment_id: Uuid,
    pub position: i32,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub quantity: Decimal,
    pub lot_id: Option<Uuid>,
    pub package: i32,
    pub reservation_id: Uuid,
    pub reservation_status: String,
}

/// The lines of the shipments `ids`, by shipment and position.
pub async fn lines(conn: &mut PgConnection, ids: &[Uuid]) -> Result<Vec<LineRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT sl.shipment_id, sl.position, sl.product_id, p.product_name, p.gtin, sl.quantity,
                sl.lot_id, sl.package, sl.reservation_id, r.status AS reservation_status
           FROM shipment_lines sl
           JOIN products p ON p.id = sl.product_id
           JOIN stock_reservations r ON r.id = sl.reservation_id
          WHERE sl.shipment_id = ANY($1)
          ORDER BY sl.shipment_id, sl.position",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// A pick: the stock a line's reservation took, lot by lot.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PickRow {
    pub shipment_id: Uuid,
    pub position: i32,
    pub location_id: Uuid,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub expires_on: Option<IsoDate>,
    pub quantity: Decimal,
}

/// The picks of the shipments `ids`, by shipment, position, then lot
/// expiry.
pub async fn picks(conn: &mut PgConnection, ids: &[Uuid]) -> Result<Vec<PickRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT sl.shipment_id, sl.position, rl.location_id, rl.lot_id, l.number AS lot_number,
                l.expires_on, rl.quantity
           FROM shipment_lines sl
           JOIN stock_reservation_lines rl ON rl.reservation_id = sl.reservation_id
           JOIN lots l ON l.id = rl.lot_id
          WHERE sl.shipment_id = ANY($1)
          ORDER BY sl.shipment_id, sl.position, l.expires_on NULLS LAST, l.number, rl.location_id",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// A package of a shipped shipment.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PackageRow {
    pub shipment_id: Uuid,
    pub package: i32,
    pub sscc: String,
}

pub async fn packages(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<PackageRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT shipment_id, package, sscc FROM shipment_packages
          WHERE shipment_id = ANY($1) ORDER BY shipment_id, package",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

pub async fn insert_package(
    conn: &mut PgConnection,
    shipment_id: Uuid,
    package: i32,
    sscc: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO shipment_packages (shipment_id, package, sscc) VALUES ($1, $2, $3)")
        .bind(shipment_id)
        .bind(package)
        .bind(sscc)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn insert_shipment_lot(
    conn: &mut PgConnection,
    shipment_id: Uuid,
    product_id: Uuid,
    lot_id: Uuid,
    quantity: Decimal,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO shipment_lots (shipment_id, product_id, lot_id, quantity)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(shipment_id)
    .bind(product_id)
    .bind(lot_id)
    .bind(quantity)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn mark_shipped(
    conn: &mut PgConnection,
    id: Uuid,
    by: Uuid,
) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE shipments SET status = 'shipped', shipped_at = now(), shipped_by = $2
          WHERE id = $1 RETURNING shipped_at",
    )
    .bind(id)
    .bind(by)
    .fetch_one(conn)
    .await
}

pub async fn mark_delivered(
    conn: &mut PgConnection,
    id: Uuid,
    by: Uuid,
) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE shipments SET status = 'delivered', delivered_at = now(), delivered_by = $2
          WHERE id = $1 RETURNING delivered_at",
    )
    .bind(id)
    .bind(by)
    .fetch_one(conn)
    .await
}

pub async fn mark_cancelled(
    conn: &mut PgConnection,
    id: Uuid,
    by: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE shipments SET status = 'cancelled', cancelled_at = now(), cancelled_by = $2
          WHERE id = $1",
    )
    .bind(id)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

// --- the codes a package carries (serial-level EPCIS) ------------------------------

/// Of the lots `ids`, those with finished code jobs, their rows locked
/// `FOR NO KEY UPDATE` in one order (their id) until the transaction ends.
///
/// Why the lot's row, and why this lock: a package takes a lot's next
/// codes across all of the lot's jobs (`serials::take`), so the lot is
/// what allocations queue on; a counter row per job would need every job
/// of the lot locked all the same, and a second record kept in step with
/// `shipment_codes`, whose largest position per job already is the
/// counter. `FOR NO KEY UPDATE` conflicts with itself (a second ship of the
/// lot waits here until the first commits, then its next statement sees
/// the first's ranges) but not with the ledger's `FOR KEY SHARE` on the lot
/// (`inventory::store::move_context`), so stock moves of the lot go on. The
/// ship takes it after its moves, when it holds the ledger's share lock on
/// each of these lots already: no status change or recall (`FOR UPDATE`)
/// can hold the row then, so the only waits here are for other ships
/// allocating the same lots, which lock in the same (id) order (and for a
/// plain `UPDATE` of a lot's row in flight, which holds no lock a ship
/// needs): no deadlock.
pub async fn lock_coded_lots(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT l.id FROM lots l
          WHERE l.id = ANY($1)
            AND EXISTS (SELECT 1 FROM code_jobs j WHERE j.lot_id = l.id AND j.status = 'done')
          ORDER BY l.id
          FOR NO KEY UPDATE OF l",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// A finished code job of a lot and its positions shipped so far (its
/// ranges are contiguous from position 1).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CodedJobRow {
    pub lot_id: Uuid,
    pub seq: i32,
    pub quantity: i32,
    pub used: i32,
}

/// The finished code jobs of the lots `ids`, by lot and seq, with how far
/// each is shipped. Run it after [`lock_coded_lots`], as a statement of its
/// own: its snapshot then has the ranges of the ships that held the locks
/// before.
pub async fn coded_jobs(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<CodedJobRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT j.lot_id, j.seq, j.quantity,
                coalesce((SELECT max(sc.last_position) FROM shipment_codes sc
                           WHERE sc.job_seq = j.seq), 0) AS used
           FROM code_jobs j
          WHERE j.lot_id = ANY($1) AND j.status = 'done'
          ORDER BY j.lot_id, j.seq",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// A range of codes a package took, to store.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NewShipmentCodes {
    pub package: i32,
    pub lot_id: Uuid,
    pub job_seq: i32,
    pub first_position: i32,
    pub last_position: i32,
    /// The class of the package's event that counts these units.
    pub epc_class: String,
}

/// Stores the ranges `codes` of shipment `shipment_id` in one statement.
pub async fn insert_shipment_codes(
    conn: &mut PgConnection,
    shipment_id: Uuid,
    codes: &[NewShipmentCodes],
) -> Result<(), sqlx::Error> {
    let rows = serde_json::to_value(codes).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query(
        "INSERT INTO shipment_codes (shipment_id, package, lot_id, job_seq, first_position,
                                     last_position, epc_class)
         SELECT $1, package, lot_id, job_seq, first_position, last_position, epc_class
           FROM jsonb_to_recordset($2) AS c(package integer, lot_id uuid, job_seq integer,
                first_position integer, last_position integer, epc_class text)",
    )
    .bind(shipment_id)
    .bind(rows)
    .execute(conn)
    .await?;
    Ok(())
}
