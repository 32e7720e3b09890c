//! SQL of the genealogy and of recalls.
//!
//! Each direction of the genealogy is ONE recursive query over `lot_inputs`
//! (0023): a breadth-first walk whose every step is one row holding the
//! lots found at that depth (`frontier`) and every lot found so far
//! (`seen`). A step adds only lots not yet seen, so
//!
//! - a lot reached by several paths is listed once, at its shortest depth;
//! - a cycle (A made from B, B made from A: not possible through
//!   manufacturing, but `lot_inputs` does not forbid it) ends the walk, as
//!   nothing new is found;
//! - the walk stops after [`super::MAX_DEPTH`] steps; one step more is
//!   looked at only to say whether anything was left out (`truncated`).
//!
//! The receipts (upstream) and shipments (downstream) of the lots found are
//! joined in the same statement; a lot with several has several rows, in
//! order, which [`super::group_upstream`] / [`super::group_downstream`]
//! gather.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

/// A row of the upstream walk: a lot (with the lots one step nearer the
/// root it went into, and how much) and one of its receipts, if any.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct UpRow {
    pub depth: i32,
    pub lot_id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub number: String,
    pub status: String,
    pub quantity: Option<Decimal>,
    pub links: Vec<Uuid>,
    pub receipt_id: Option<Uuid>,
    pub received_at: Option<DateTime<Utc>>,
    pub purchase_order_id: Option<Uuid>,
    pub purchase_order_number: Option<i64>,
    pub supplier_id: Option<Uuid>,
    pub supplier_name: Option<String>,
    pub received_quantity: Option<Decimal>,
    pub truncated: bool,
}

/// The lot `lot_id` (depth 0) and its component lots at any depth up to
/// `max_depth`, each once at its shortest depth, with their receipts
/// (purchase order, supplier): one recursive statement. No rows when the
/// tenant has no such lot.
pub async fn upstream(
    conn: &mut PgConnection,
    lot_id: Uuid,
    max_depth: i32,
) -> Result<Vec<UpRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH RECURSIVE walk (depth, frontier, seen) AS (
             SELECT 0, ARRAY[$1::uuid], ARRAY[$1::uuid]
           UNION ALL
             SELECT w.depth + 1, n.ids, w.seen || n.ids
             FROM walk w
             CROSS JOIN LATERAL (
                 SELECT array_agg(DISTINCT i.input_lot_id) AS ids
                 FROM lot_inputs i
                 WHERE i.output_lot_id = ANY (w.frontier) AND i.input_lot_id <> ALL (w.seen)
             ) n
             WHERE n.ids IS NOT NULL AND w.depth <= $2
         ), found AS (
             SELECT w.depth, f.lot_id
             FROM walk w CROSS JOIN LATERAL unnest(w.frontier) AS f (lot_id)
             WHERE w.depth <= $2
         ), linked AS (
             SELECT f.depth, f.lot_id, sum(i.quantity) AS quantity,
                    coalesce(array_agg(DISTINCT i.output_lot_id)
                             FILTER (WHERE i.output_lot_id IS NOT NULL), '{}') AS links
             FROM found f
             LEFT JOIN (lot_inputs i JOIN found p ON p.lot_id = i.output_lot_id)
                    ON i.input_lot_id = f.lot_id AND p.depth = f.depth - 1
             GROUP BY f.depth, f.lot_id
         )
         SELECT k.depth, l.id AS lot_id, l.product_id, p.product_name, p.gtin, l.number, l.status,
                k.quantity, k.links,
                r.id AS receipt_id, r.received_at, po.id AS purchase_order_id,
                po.number AS purchase_order_number, s.id AS supplier_id, s.name AS supplier_name,
                rl.quantity AS received_quantity,
                EXISTS (SELECT 1 FROM walk WHERE walk.depth > $2) AS truncated
         FROM linked k
         JOIN lots l ON l.id = k.lot_id
         JOIN products p ON p.id = l.product_id
         LEFT JOIN (purchase_receipt_lines rl
                    JOIN purchase_receipts r ON r.id = rl.receipt_id
                    JOIN purchase_orders po ON po.id = r.purchase_order_id
                    JOIN suppliers s ON s.id = po.supplier_id) ON rl.lot_id = l.id
         ORDER BY k.depth, p.product_name, l.number, l.id, r.received_at, r.id, rl.line_id",
    )
    .bind(lot_id)
    .bind(max_depth)
    .fetch_all(conn)
    .await
}

/// A row of the downstream walk: a lot (with the lots one step nearer the
/// root it was made from, and how much of them) and one of its shipments
/// (shipped or delivered), if any.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct DownRow {
    pub depth: i32,
    pub lot_id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub number: String,
    pub status: String,
    pub quantity: Option<Decimal>,
    pub links: Vec<Uuid>,
    pub shipment_id: Option<Uuid>,
    pub shipment_number: Option<i64>,
    pub shipment_status: Option<String>,
    pub shipped_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub customer_id: Option<Uuid>,
    pub customer_name: Option<String>,
    pub shipped_quantity: Option<Decimal>,
    pub truncated: bool,
}

/// The lot `lot_id` (depth 0) and the lots made from it at any depth up to
/// `max_depth`, each once at its shortest depth, with their shipments that
/// left (shipped or delivered) and the customers: one recursive statement.
/// No rows when the tenant has no such lot.
pub async fn downstream(
    conn: &mut PgConnection,
    lot_id: Uuid,
    max_depth: i32,
) -> Result<Vec<DownRow>, sqlx::Error> {
    sqlx::query_as(
        "WITH RECURSIVE walk (depth, frontier, seen) AS (
             SELECT 0, ARRAY[$1::uuid], ARRAY[$1::uuid]
           UNION ALL
             SELECT w.depth + 1, n.ids, w.seen || n.ids
             FROM walk w
             CROSS JOIN LATERAL (
                 SELECT array_agg(DISTINCT i.output_lot_id) AS ids
                 FROM lot_inputs i
                 WHERE i.input_lot_id = ANY (w.frontier) AND i.output_lot_id <> ALL (w.seen)
             ) n
             WHERE n.ids IS NOT NULL AND w.depth <= $2
         ), found AS (
             SELECT w.depth, f.lot_id
             FROM walk w CROSS JOIN LATERAL unnest(w.frontier) AS f (lot_id)
             WHERE w.depth <= $2
         ), linked AS (
             SELECT f.depth, f.lot_id, sum(i.quantity) AS quantity,
                    coalesce(array_agg(DISTINCT i.input_lot_id)
                             FILTER (WHERE i.input_lot_id IS NOT NULL), '{}') AS links
             FROM found f
             LEFT JOIN (lot_inputs i JOIN found p ON p.lot_id = i.input_lot_id)
                    ON i.output_lot_id = f.lot_id AND p.depth = f.depth - 1
             GROUP BY f.depth, f.lot_id
         )
         SELECT k.depth, l.id AS lot_id, l.product_id, p.product_name, p.gtin, l.number, l.status,
                k.quantity, k.links,
                sh.id AS shipment_id, sh.number AS shipment_number, sh.status AS shipment_status,
                sh.shipped_at, sh.delivered_at, c.id AS customer_id, c.name AS customer_name,
                sl.quantity AS shipped_quantity,
                EXISTS (SELECT 1 FROM walk WHERE walk.depth > $2) AS truncated
         FROM linked k
         JOIN lots l ON l.id = k.lot_id
         JOIN products p ON p.id = l.product_id
         LEFT JOIN (shipment_lots sl
                    JOIN shipments sh ON sh.id = sl.shipment_id
                                     AND sh.status IN ('shipped', 'delivered')
                    JOIN customers c ON c.id = sh.customer_id) ON sl.lot_id = l.id
         ORDER BY k.depth, p.product_name, l.number, l.id, sh.shipped_at, sh.id",
    )
    .bind(lot_id)
    .bind(max_depth)
    .fetch_all(conn)
    .await
}

/// Makes the caller's transaction one read-only snapshot (its first
/// statement), so that both directions of a genealogy read the same data.
pub async fn read_snapshot(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .execute(conn)
        .await?;
    Ok(())
}

// --- recalls ------------------------------------------------------------------------

/// A lot's status as locked.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct LockedLot {
    pub id: Uuid,
    pub status: String,
}

/// Locks the lots `ids` (`FOR UPDATE`) in one order (their id), so that
/// recalls of overlapping lots queue instead of deadlocking; answers their
/// statuses as committed when the locks were taken.
pub async fn lock_lots(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<LockedLot>, sqlx::Error> {
    sqlx::query_as("SELECT id, status FROM lots WHERE id = ANY($1) ORDER BY id FOR UPDATE")
        .bind(ids)
        .fetch_all(conn)
        .await
}

/// The recall (its id and number) that already covers lot `lot_id` as its
/// recalled lot, if any.
pub async fn recall_of_lot(
    conn: &mut PgConnection,
    lot_id: Uuid,
) -> Result<Option<(Uuid, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT id, number FROM recalls WHERE lot_id = $1")
        .bind(lot_id)
        .fetch_optional(conn)
        .await
}

/// Stores the recall's row; answers its number.
pub async fn insert_recall(
    conn: &mut PgConnection,
    id: Uuid,
    lot_id: Uuid,
    reason: &str,
    by: Option<Uuid>,
    by_name: &str,
    truncated: bool,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO recalls (id, lot_id, reason, created_by, created_by_name, truncated)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING number",
    )
    .bind(id)
    .bind(lot_id)
    .bind(reason)
    .bind(by)
    .bind(by_name)
    .bind(truncated)
    .fetch_one(conn)
    .await
}

/// Stores the lots a recall covers (parallel arrays).
pub async fn insert_recall_lots(
    conn: &mut PgConnection,
    recall_id: Uuid,
    lots: &[Uuid],
    depths: &[i32],
    previous: &[String],
    changed: &[bool],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO recall_lots (recall_id, lot_id, depth, previous_status, status_changed)
         SELECT $1, l, d, s, c FROM unnest($2::uuid[], $3::int[], $4::text[], $5::bool[]) AS t (l, d, s, c)",
    )
    .bind(recall_id)
    .bind(lots)
    .bind(depths)
    .bind(previous)
    .bind(changed)
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores the shipments a recall reached (parallel arrays).
pub async fn insert_recall_shipments(
    conn: &mut PgConnection,
    recall_id: Uuid,
    shipments: &[Uuid],
    lots: &[Uuid],
    quantities: &[Decimal],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO recall_shipments (recall_id, shipment_id, lot_id, quantity)
         SELECT $1, s, l, q FROM unnest($2::uuid[], $3::uuid[], $4::numeric[]) AS t (s, l, q)",
    )
    .bind(recall_id)
    .bind(shipments)
    .bind(lots)
    .bind(quantities)
    .execute(conn)
    .await?;
    Ok(())
}

/// The active reservations holding stock of any of `lots`, by id.
pub async fn open_reservations(
    conn: &mut PgConnection,
    lots: &[Uuid],
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT DISTINCT r.id FROM stock_reservations r
           JOIN stock_reservation_lines l ON l.reservation_id = r.id
          WHERE l.lot_id = ANY($1) AND r.status = 'active'
          ORDER BY r.id",
    )
    .bind(lots)
    .fetch_all(conn)
    .await
}

/// Stores the reservations a recall released.
pub async fn insert_recall_reservations(
    conn: &mut PgConnection,
    recall_id: Uuid,
    reservations: &[Uuid],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO recall_reservations (recall_id, reservation_id)
         SELECT $1, r FROM unnest($2::uuid[]) AS t (r)",
    )
    .bind(recall_id)
    .bind(reservations)
    .execute(conn)
    .await?;
    Ok(())
}

/// A recall as stored, with its lot and what it covers, counted.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct RecallRow {
    pub id: Uuid,
    pub number: i64,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub product_name: String,
    pub reason: String,
    pub created_by_name: String,
    pub created_at: DateTime<Utc>,
    pub truncated: bool,
    pub lots: i64,
    pub shipments: i64,
    pub customers: i64,
}

/// The recalls, newest first, at most `limit`.
pub async fn list_recalls(
    conn: &mut PgConnection,
    limit: i64,
) -> Result<Vec<RecallRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.number, r.lot_id, l.number AS lot_number, p.product_name, r.reason,
                r.created_by_name, r.created_at, r.truncated,
                (SELECT count(*) FROM recall_lots rl WHERE rl.recall_id = r.id) AS lots,
                (SELECT count(DISTINCT rs.shipment_id) FROM recall_shipments rs
                  WHERE rs.recall_id = r.id) AS shipments,
                (SELECT count(DISTINCT sh.customer_id) FROM recall_shipments rs
                   JOIN shipments sh ON sh.id = rs.shipment_id WHERE rs.recall_id = r.id) AS customers
         FROM recalls r JOIN lots l ON l.id = r.lot_id JOIN products p ON p.id = l.product_id
         ORDER BY r.created_at DESC, r.id DESC
         LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The recall `id`, if the tenant has it.
pub async fn find_recall(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<RecallRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.number, r.lot_id, l.number AS lot_number, p.product_name, r.reason,
                r.created_by_name, r.created_at, r.truncated,
                (SELECT count(*) FROM recall_lots rl WHERE rl.recall_id = r.id) AS lots,
                (SELECT count(DISTINCT rs.shipment_id) FROM recall_shipments rs
                  WHERE rs.recall_id = r.id) AS shipments,
                (SELECT count(DISTINCT sh.customer_id) FROM recall_shipments rs
                   JOIN shipments sh ON sh.id = rs.shipment_id WHERE rs.recall_id = r.id) AS customers
         FROM recalls r JOIN lots l ON l.id = r.lot_id JOIN products p ON p.id = l.product_id
         WHERE r.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// A lot a recall covers, as it is now.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct RecallLotRow {
    pub lot_id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub number: String,
    pub depth: i16,
    pub status: String,
    pub previous_status: String,
    pub status_changed: bool,
}

/// The lots recall `id` covers, by depth, product and number.
pub async fn recall_lots(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Vec<RecallLotRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT rl.lot_id, l.product_id, p.product_name, p.gtin, l.number, rl.depth, l.status,
                rl.previous_status, rl.status_changed
         FROM recall_lots rl JOIN lots l ON l.id = rl.lot_id JOIN products p ON p.id = l.product_id
         WHERE rl.recall_id = $1
         ORDER BY rl.depth, p.product_name, l.number, l.id",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// What of a lot a shipment took, as a recall keeps it.
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct RecallShipmentRow {
    pub shipment_id: Uuid,
    pub shipment_number: i64,
    pub shipment_status: String,
    pub shipped_at: Option<DateTime<Utc>>,
    pub customer_id: Uuid,
    pub customer_name: String,
    pub customer_gln: Option<String>,
    pub customer_email: Option<String>,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub product_name: String,
    pub quantity: Decimal,
}

/// The shipments recall `id` reached, lot by lot, by shipment number.
pub async fn recall_shipments(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Vec<RecallShipmentRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT rs.shipment_id, sh.number AS shipment_number, sh.status AS shipment_status,
                sh.shipped_at, c.id AS customer_id, c.name AS customer_name,
                c.gln AS customer_gln, c.email AS customer_email,
                rs.lot_id, l.number AS lot_number, p.product_name, rs.quantity
         FROM recall_shipments rs
         JOIN shipments sh ON sh.id = rs.shipment_id
         JOIN customers c ON c.id = sh.customer_id
         JOIN lots l ON l.id = rs.lot_id
         JOIN products p ON p.id = l.product_id
         WHERE rs.recall_id = $1
         ORDER BY sh.number, p.product_name, l.number, l.id",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}

/// The reservations recall `id` released.
pub async fn recall_reservations(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT reservation_id FROM recall_reservations WHERE recall_id = $1 ORDER BY reservation_id",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}
