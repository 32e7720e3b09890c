//! SQL of procurement. The order's row is the lock every step of an order
//! takes first ([`lock_order`]); the over-receipt guard is one conditional
//! statement ([`raise_received`]).

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

// --- suppliers ---------------------------------------------------------------

/// The name of supplier `id`; `None` when the tenant has none.
pub async fn supplier_name(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT name FROM suppliers WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
}

// --- purchase orders -----------------------------------------------------------

/// A purchase order as stored, with its supplier's name and its total.
#[derive(Debug, sqlx::FromRow)]
pub struct OrderRow {
    pub id: Uuid,
    pub number: i64,
    pub supplier_id: Uuid,
    pub supplier_name: String,
    pub status: String,
    pub expected_on: NaiveDate,
    pub currency: String,
    /// The sum of quantity × unit price over its lines.
    pub total: Decimal,
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub confirmed_at: Option<DateTime<Utc>>,
    pub cancelled_at: Option<DateTime<Utc>>,
}

/// Inserts a draft order; answers its number.
pub async fn insert_order(
    conn: &mut PgConnection,
    id: Uuid,
    supplier_id: Uuid,
    expected_on: NaiveDate,
    currency: &str,
    by: Uuid,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO purchase_orders (id, supplier_id, expected_on, currency, created_by)
         VALUES ($1, $2, $3, $4, $5) RETURNING number",
    )
    .bind(id)
    .bind(supplier_id)
    .bind(expected_on)
    .bind(currency)
    .bind(by)
    .fetch_one(conn)
    .await
}

/// Inserts a line of order `order_id`.
pub async fn insert_line(
    conn: &mut PgConnection,
    order_id: Uuid,
    position: i32,
    product_id: Uuid,
    quantity: Decimal,
    unit_price: Decimal,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO purchase_order_lines (id, purchase_order_id, position, product_id, quantity, unit_price)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(Uuid::new_v4())
    .bind(order_id)
    .bind(position)
    .bind(product_id)
    .bind(quantity)
    .bind(unit_price)
    .execute(conn)
    .await?;
    Ok(())
}

/// Order `id` with its row locked until the transaction ends: every step
/// of an order (confirm, cancel, receipt, bill) takes this lock first, so
/// parallel steps queue and each sees the status the one before left.
pub async fn lock_order(conn: &mut PgConnection, id: Uuid) -> Result<bool, sqlx::Error> {
    let found: Option<i32> =
        sqlx::query_scalar("SELECT 1 FROM purchase_orders WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(conn)
            .await?;
    Ok(found.is_some())
}

/// Order `id`, if the tenant has it.
pub async fn find_order(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<OrderRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT o.id, o.number, o.supplier_id, s.name AS supplier_name, o.status,
                o.expected_on, o.currency,
                (SELECT coalesce(sum(l.quantity * l.unit_price), 0) FROM purchase_order_lines l
                  WHERE l.purchase_order_id = o.id) AS total,
                o.created_by, o.created_at, o.confirmed_at, o.cancelled_at FROM purchase_orders o JOIN suppliers s ON s.id = o.supplier_id
          WHERE o.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The orders, newest first, in one status when given: at most `limit`.
pub async fn list_orders(
    conn: &mut PgConnection,
    status: Option<&str>,
    limit: i64,
) -> Result<Vec<OrderRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT o.id, o.number, o.supplier_id, s.name AS supplier_name, o.status,
                o.expected_on, o.currency,
                (SELECT coalesce(sum(l.quantity * l.unit_price), 0) FROM purchase_order_lines l
                  WHERE l.purchase_order_id = o.id) AS total,
                o.created_by, o.created_at, o.confirmed_at, o.cancelled_at FROM purchase_orders o JOIN suppliers s ON s.id = o.supplier_id
          WHERE ($1::text IS NULL OR o.status = $1)
          ORDER BY o.created_at DESC, o.id DESC LIMIT $2",
    )
    .bind(status)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Sets the status of order `id` (locked by the caller), stamping the time
/// of a confirmation or a cancellation.
pub async fn set_status(
    conn: &mut PgConnection,
    id: Uuid,
    status: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE purchase_orders SET status = $2, updated_at = now(),
                confirmed_at = CASE WHEN $2 = 'confirmed' THEN now() ELSE confirmed_at END,
                cancelled_at = CASE WHEN $2 = 'cancelled' THEN now() ELSE cancelled_at END
          WHERE id = $1",
    )
    .bind(id)
    .bind(status)
    .execute(conn)
    .await?;
    Ok(())
}

/// How many receipts order `id` has.
pub async fn receipt_count(conn: &mut PgConnection, id: Uuid) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT count(*) FROM purchase_receipts WHERE purchase_order_id = $1")
        .bind(id)
        .fetch_one(conn)
        .await
}

/// A line of an order, with what was received and billed of it.
#[derive(Debug, sqlx::FromRow, Clone)]
pub struct LineRow {
    pub id: Uuid,
    pub position: i32,
    pub product_id: Uuid,
    pub product_name: String,
    pub requires_inspection: bool,
    pub quantity: Decimal,
    pub unit_price: Decimal,
    pub received_quantity: Decimal,
    /// Charged by every bill recorded against it.
    pub billed_quantity: Decimal,
}

/// The lines of order `id`, by position.
pub async fn lines(conn: &mut PgConnection, order_id: Uuid) -> Result<Vec<LineRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT l.id, l.position, l.product_id, p.product_name, p.requires_inspection, l.quantity,
                l.unit_price, l.received_quantity,
                (SELECT coalesce(sum(b.quantity), 0) FROM supplier_bill_lines b WHERE b.line_id = l.id)
                    AS billed_quantity
           FROM purchase_order_lines l JOIN products p ON p.id = l.product_id
          WHERE l.purchase_order_id = $1 ORDER BY l.position",
    )
    .bind(order_id)
    .fetch_all(conn)
    .await
}

// --- receipts --------------------------------------------------------------------

/// Inserts a receipt of order `order_id` into `location_id`.
pub async fn insert_receipt(
    conn: &mut PgConnection,
    id: Uuid,
    order_id: Uuid,
    location_id: Uuid,
    by: Uuid,
) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO purchase_receipts (id, purchase_order_id, location_id, received_by)
         VALUES ($1, $2, $3, $4) RETURNING received_at",
    )
    .bind(id)
    .bind(order_id)
    .bind(location_id)
    .bind(by)
    .fetch_one(conn)
    .await
}

/// Inserts a line of receipt `receipt_id`.
pub async fn insert_receipt_line(
    conn: &mut PgConnection,
    receipt_id: Uuid,
    line_id: Uuid,
    lot_id: Uuid,
    quantity: Decimal,
    move_id: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO purchase_receipt_lines (receipt_id, line_id, lot_id, quantity, move_id)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(receipt_id)
    .bind(line_id)
    .bind(lot_id)
    .bind(quantity)
    .bind(move_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Raises line `line_id`'s received quantity by `quantity` if the total
/// stays within `tolerance` (a fraction, 0.05) above the ordered quantity:
/// one conditional statement. Answers the new total, or `None` when it
/// would go beyond (nothing changed).
pub async fn raise_received(
    conn: &mut PgConnection,
    line_id: Uuid,
    quantity: Decimal,
    tolerance: Decimal,
) -> Result<Option<Decimal>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE purchase_order_lines SET received_quantity = received_quantity + $2
          WHERE id = $1 AND received_quantity + $2 <= quantity * (1 + $3)
         RETURNING received_quantity",
    )
    .bind(line_id)
    .bind(quantity)
    .bind(tolerance)
    .fetch_optional(conn)
    .await
}

/// A receipt of an order.
#[derive(Debug, sqlx::FromRow)]
pub struct ReceiptRow {
    pub id: Uuid,
    pub location_id: Uuid,
    pub location_code: String,
    pub received_by: Option<Uuid>,
    pub received_at: DateTime<Utc>,
}

/// The receipts of order `id`, oldest first.
pub async fn receipts(
    conn: &mut PgConnection,
    order_id: Uuid,
) -> Result<Vec<ReceiptRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.location_id, loc.code AS location_code, r.received_by, r.received_at
           FROM purchase_receipts r JOIN locations loc ON loc.id = r.location_id
          WHERE r.purchase_order_id = $1 ORDER BY r.received_at, r.id",
    )
    .bind(order_id)
    .fetch_all(conn)
    .await
}

/// A line of a receipt: into which lot, by which move.
#[derive(Debug, sqlx::FromRow)]
pub struct ReceiptLineRow {
    pub receipt_id: Uuid,
    pub line_id: Uuid,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub lot_status: String,
    pub expires_on: Option<NaiveDate>,
    pub quantity: Decimal,
    pub move_id: Uuid,
}

/// The lines of every receipt of order `id`.
pub async fn receipt_lines(
    conn: &mut PgConnection,
    order_id: Uuid,
) -> Result<Vec<ReceiptLineRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT rl.receipt_id, rl.line_id, rl.lot_id, lot.number AS lot_number,
                lot.status AS lot_status, lot.expires_on, rl.quantity, rl.move_id
           FROM purchase_receipt_lines rl
           JOIN purchase_receipts r ON r.id = rl.receipt_id
           JOIN purchase_order_lines l ON l.id = rl.line_id
           JOIN lots lot ON lot.id = rl.lot_id
          WHERE r.purchase_order_id = $1 ORDER BY l.position",
    )
    .bind(order_id)
    .fetch_all(conn)
    .await
}

// --- supplier bills ------------------------------------------------------------

/// A bill as stored, with its order's number and its supplier's name.
#[derive(Debug, sqlx::FromRow)]
pub struct BillRow {
    pub id: Uuid,
    pub supplier_id: Uuid,
    pub supplier_name: String,
    pub purchase_order_id: Uuid,
    pub order_number: i64,
    pub currency: String,
    pub number: String,
    pub r#match: String,
    pub mismatches: serde_json::Value,
    pub status: String,
    /// The sum of quantity × unit price over its lines.
    pub total: Decimal,
    pub approved_by: Option<Uuid>,
    pub approved_at: Option<DateTime<Utc>>,
    pub approval_reason: Option<String>,
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

/// A new bill.
pub struct NewBill<'a> {
    pub id: Uuid,
    pub supplier_id: Uuid,
    pub purchase_order_id: Uuid,
    pub number: &'a str,
    pub r#match: &'a str,
    pub mismatches: &'a serde_json::Value,
    pub created_by: Uuid,
}

/// Inserts a bill (a unique violation on `supplier_bills_number_key` when
/// the supplier has a bill of that number, whatever its case).
pub async fn insert_bill(conn: &mut PgConnection, b: &NewBill<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO supplier_bills (id, supplier_id, purchase_order_id, number, match, mismatches, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(b.id)
    .bind(b.supplier_id)
    .bind(b.purchase_order_id)
    .bind(b.number)
    .bind(b.r#match)
    .bind(b.mismatches)
    .bind(b.created_by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Inserts a line of bill `bill_id`.
pub async fn insert_bill_line(
    conn: &mut PgConnection,
    bill_id: Uuid,
    line_id: Uuid,
    quantity: Decimal,
    unit_price: Decimal,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO supplier_bill_lines (bill_id, line_id, quantity, unit_price)
         VALUES ($1, $2, $3, $4)",
    )
    .bind(bill_id)
    .bind(line_id)
    .bind(quantity)
    .bind(unit_price)
    .execute(conn)
    .await?;
    Ok(())
}

/// Locks bill `id` until the transaction ends: answers its status and
/// match, `None` when the tenant has no such bill.
pub async fn lock_bill(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT status, match FROM supplier_bills WHERE id = $1 FOR UPDATE")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Bill `id`, if the tenant has it.
pub async fn find_bill(conn: &mut PgConnection, id: Uuid) -> Result<Option<BillRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT b.id, b.supplier_id, s.name AS supplier_name, b.purchase_order_id,
                o.number AS order_number, o.currency, b.number, b.match, b.mismatches, b.status,
                (SELECT coalesce(sum(bl.quantity * bl.unit_price), 0) FROM supplier_bill_lines bl
                  WHERE bl.bill_id = b.id) AS total,
                b.approved_by, b.approved_at, b.approval_reason, b.created_by, b.created_at FROM supplier_bills b
           JOIN suppliers s ON s.id = b.supplier_id
           JOIN purchase_orders o ON o.id = b.purchase_order_id
          WHERE b.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The bills, newest first, of one order when given: at most `limit`.
pub async fn list_bills(
    conn: &mut PgConnection,
    order_id: Option<Uuid>,
    limit: i64,
) -> Result<Vec<BillRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT b.id, b.supplier_id, s.name AS supplier_name, b.purchase_order_id,
                o.number AS order_number, o.currency, b.number, b.match, b.mismatches, b.status,
                (SELECT coalesce(sum(bl.quantity * bl.unit_price), 0) FROM supplier_bill_lines bl
                  WHERE bl.bill_id = b.id) AS total,
                b.approved_by, b.approved_at, b.approval_reason, b.created_by, b.created_at FROM supplier_bills b
           JOIN suppliers s ON s.id = b.supplier_id
           JOIN purchase_orders o ON o.id = b.purchase_order_id
          WHERE ($1::uuid IS NULL OR b.purchase_order_id = $1)
          ORDER BY b.created_at DESC, b.id DESC LIMIT $2",
    )
    .bind(order_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Approves bill `id` (locked and pending: the caller checked).
pub async fn approve_bill(
    conn: &mut PgConnection,
    id: Uuid,
    by: Uuid,
    reason: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE supplier_bills SET status = 'approved', approved_by = $2, approved_at = now(),
                approval_reason = $3
          WHERE id = $1",
    )
    .bind(id)
    .bind(by)
    .bind(reason)
    .execute(conn)
    .await?;
    Ok(())
}
