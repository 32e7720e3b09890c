//! SQL of manufacturing: bills of materials, their cycle check, orders,
//! the FIFO cost of consumed lots, and the `lot_inputs` rows.

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

// --- bills of materials --------------------------------------------------------

/// Takes the tenant's BOM lock until the transaction ends: BOM creates
/// queue here (reads do not), so each takes the next version number and
/// checks for cycles against what the ones ahead committed.
pub async fn lock_boms(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("LOCK TABLE boms IN SHARE ROW EXCLUSIVE MODE")
        .execute(conn)
        .await?;
    Ok(())
}

/// A product as a BOM or an order needs it.
#[derive(Debug, sqlx::FromRow)]
pub struct ProductInfo {
    pub id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub requires_inspection: bool,
    pub archived: bool,
}

/// The products `ids` of the tenant (those it has).
pub async fn products(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<ProductInfo>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, product_name, gtin, requires_inspection, archived_at IS NOT NULL AS archived
           FROM products WHERE id = ANY($1)",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// The components among `components` from which `product_id` can be
/// reached through the latest BOM version of each product (the new version
/// of `product_id` replaces its own): each would close a cycle. A component
/// that is the product itself is one. A recursive query; `UNION` keeps each
/// (product, component) pair once, so it ends whatever the graph holds.
pub async fn cycle_through(
    conn: &mut PgConnection,
    product_id: Uuid,
    components: &[Uuid],
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar(
        "WITH RECURSIVE latest AS (
             SELECT DISTINCT ON (product_id) id, product_id
               FROM boms ORDER BY product_id, version DESC
         ),
         edges AS (
             SELECT l.product_id AS parent, c.product_id AS child
               FROM latest l JOIN bom_components c ON c.bom_id = l.id
              WHERE l.product_id <> $1
         ),
         walk (via, product_id) AS (
             SELECT c, c FROM unnest($2::uuid[]) AS c
             UNION
             SELECT w.via, e.child FROM walk w JOIN edges e ON e.parent = w.product_id
         )
         SELECT DISTINCT via FROM walk WHERE product_id = $1",
    )
    .bind(product_id)
    .bind(components)
    .fetch_all(conn)
    .await
}

/// The next version number of the product's BOM (under [`lock_boms`]).
pub async fn next_version(conn: &mut PgConnection, product_id: Uuid) -> Result<i32, sqlx::Error> {
    sqlx::query_scalar("SELECT coalesce(max(version), 0) + 1 FROM boms WHERE product_id = $1")
        .bind(product_id)
        .fetch_one(conn)
        .await
}

/// Inserts a BOM version with its components (position = index + 1).
pub async fn insert_bom(
    conn: &mut PgConnection,
    id: Uuid,
    product_id: Uuid,
    version: i32,
    output_quantity: Decimal,
    components: &[(Uuid, Decimal)],
    by: Option<Uuid>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO boms (id, product_id, version, output_quantity, created_by)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(product_id)
    .bind(version)
    .bind(output_quantity)
    .bind(by)
    .execute(&mut *conn)
    .await?;
    let products: Vec<Uuid> = components.iter().map(|c| c.0).collect();
    let quantities: Vec<Decimal> = components.iter().map(|c| c.1).collect();
    sqlx::query(
        "INSERT INTO bom_components (bom_id, position, product_id, quantity)
         SELECT $1, ord, p, q FROM unnest($2::uuid[], $3::numeric[]) WITH ORDINALITY AS t(p, q, ord)",
    )
    .bind(id)
    .bind(&products)
    .bind(&quantities)
    .execute(conn)
    .await?;
    Ok(())
}

/// A BOM version as stored.
#[derive(Debug, sqlx::FromRow)]
pub struct BomRow {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    pub version: i32,
    pub output_quantity: Decimal,
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

/// A component of a BOM version as stored.
#[derive(Debug, sqlx::FromRow)]
pub struct ComponentRow {
    pub bom_id: Uuid,
    pub position: i32,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub quantity: Decimal,
}

/// The BOM versions of one product (newest first) or of all (by product
/// name, newest version first); at most `limit`.
pub async fn list_boms(
    conn: &mut PgConnection,
    product_id: Option<Uuid>,
    limit: i64,
) -> Result<Vec<BomRow>, sqlx::Error> {
    sqlx::query_as("SELECT b.id, b.product_id, p.product_name, b.version, b.output_quantity,
                b.created_by, b.created_at
           FROM boms b JOIN products p ON p.id = b.product_id WHERE ($1::uuid IS NULL OR b.product_id = $1)
          ORDER BY p.product_name, b.product_id, b.version DESC
          LIMIT $2")
    .bind(product_id)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The product's BOM: version `version`, or its latest.
pub async fn find_bom(
    conn: &mut PgConnection,
    product_id: Uuid,
    version: Option<i32>,
) -> Result<Option<BomRow>, sqlx::Error> {
    sqlx::query_as("SELECT b.id, b.product_id, p.product_name, b.version, b.output_quantity,
                b.created_by, b.created_at
           FROM boms b JOIN products p ON p.id = b.product_id WHERE b.product_id = $1 AND ($2::integer IS NULL OR b.version = $2)
          ORDER BY b.version DESC LIMIT 1")
    .bind(product_id)
    .bind(version)
    .fetch_optional(conn)
    .await
}

/// BOM `id`.
pub async fn bom(conn: &mut PgConnection, id: Uuid) -> Result<Option<BomRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT b.id, b.product_id, p.product_name, b.version, b.output_quantity,
                b.created_by, b.created_at
           FROM boms b JOIN products p ON p.id = b.product_id WHERE b.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The components of the BOMs `ids`, by position.
pub async fn components(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<ComponentRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT c.bom_id, c.position, c.product_id, p.product_name, p.gtin, c.quantity
           FROM bom_components c JOIN products p ON p.id = c.product_id
          WHERE c.bom_id = ANY($1)
          ORDER BY c.bom_id, c.position",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

// --- orders ----------------------------------------------------------------------

/// A new order.
pub struct NewOrder<'a> {
    pub id: Uuid,
    pub product_id: Uuid,
    pub bom_id: Uuid,
    pub quantity: Decimal,
    pub location_id: Uuid,
    pub output_lot_number: &'a str,
    pub expires_on: Option<NaiveDate>,
    pub created_by: Option<Uuid>,
}

pub async fn insert_order(conn: &mut PgConnection, o: &NewOrder<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO manufacturing_orders (id, product_id, bom_id, quantity, location_id,
                                           output_lot_number, expires_on, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(o.id)
    .bind(o.product_id)
    .bind(o.bom_id)
    .bind(o.quantity)
    .bind(o.location_id)
    .bind(o.output_lot_number)
    .bind(o.expires_on)
    .bind(o.created_by)
    .execute(conn)
    .await?;
    Ok(())
}

/// An order as stored, with what it names.
#[derive(Debug, sqlx::FromRow)]
pub struct OrderRow {
    pub id: Uuid,
    pub number: i64,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub requires_inspection: bool,
    pub bom_id: Uuid,
    pub bom_version: i32,
    pub output_quantity: Decimal,
    pub quantity: Decimal,
    pub location_id: Uuid,
    pub location_code: String,
    pub output_lot_number: String,
    pub expires_on: Option<NaiveDate>,
    pub status: String,
    pub produced_quantity: Option<Decimal>,
    pub output_lot_id: Option<Uuid>,
    pub unit_cost: Option<Decimal>,
    pub currency: Option<String>,
    pub code_job_id: Option<Uuid>,
    pub epcis_event_id: Option<String>,
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub cancelled_at: Option<DateTime<Utc>>,
}

/// The orders, newest first, of one status or all; at most `limit`.
pub async fn list_orders(
    conn: &mut PgConnection,
    status: Option<&str>,
    limit: i64,
) -> Result<Vec<OrderRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT o.id, o.number, o.product_id, p.product_name, p.gtin,
        p.requires_inspection, o.bom_id, b.version AS bom_version, b.output_quantity, o.quantity,
        o.location_id, loc.code AS location_code, o.output_lot_number, o.expires_on, o.status,
        o.produced_quantity, o.output_lot_id, o.unit_cost, o.currency, o.code_job_id,
        o.epcis_event_id, o.created_by, o.created_at, o.started_at, o.completed_at,
        o.cancelled_at
   FROM manufacturing_orders o
   JOIN products p ON p.id = o.product_id
   JOIN boms b ON b.id = o.bom_id
   JOIN locations loc ON loc.id = o.location_id WHERE ($1::text IS NULL OR o.status = $1)
          ORDER BY o.created_at DESC, o.id DESC
          LIMIT $2",
    )
    .bind(status)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Order `id`; its row locked (`FOR UPDATE`) until the transaction ends
/// when `lock`: a second start or completion waits here, then sees the
/// first one's state.
pub async fn order(
    conn: &mut PgConnection,
    id: Uuid,
    lock: bool,
) -> Result<Option<OrderRow>, sqlx::Error> {
    let query = if lock {
        sqlx::query_as(
            "SELECT o.id, o.number, o.product_id, p.product_name, p.gtin,
        p.requires_inspection, o.bom_id, b.version AS bom_version, b.output_quantity, o.quantity,
        o.location_id, loc.code AS location_code, o.output_lot_number, o.expires_on, o.status,
        o.produced_quantity, o.output_lot_id, o.unit_cost, o.currency, o.code_job_id,
        o.epcis_event_id, o.created_by, o.created_at, o.started_at, o.completed_at,
        o.cancelled_at
   FROM manufacturing_orders o
   JOIN products p ON p.id = o.product_id
   JOIN boms b ON b.id = o.bom_id
   JOIN locations loc ON loc.id = o.location_id WHERE o.id = $1 FOR UPDATE OF o",
        )
    } else {
        sqlx::query_as(
            "SELECT o.id, o.number, o.product_id, p.product_name, p.gtin,
        p.requires_inspection, o.bom_id, b.version AS bom_version, b.output_quantity, o.quantity,
        o.location_id, loc.code AS location_code, o.output_lot_number, o.expires_on, o.status,
        o.produced_quantity, o.output_lot_id, o.unit_cost, o.currency, o.code_job_id,
        o.epcis_event_id, o.created_by, o.created_at, o.started_at, o.completed_at,
        o.cancelled_at
   FROM manufacturing_orders o
   JOIN products p ON p.id = o.product_id
   JOIN boms b ON b.id = o.bom_id
   JOIN locations loc ON loc.id = o.location_id WHERE o.id = $1",
        )
    };
    query.bind(id).fetch_optional(conn).await
}

/// Sets order `id` to `status` (`in_progress` stamps `started_at`,
/// `cancelled` `cancelled_at`).
pub async fn set_status(
    conn: &mut PgConnection,
    id: Uuid,
    status: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE manufacturing_orders
            SET status = $2,
                started_at = CASE WHEN $2 = 'in_progress' THEN now() ELSE started_at END,
                cancelled_at = CASE WHEN $2 = 'cancelled' THEN now() ELSE cancelled_at END
          WHERE id = $1",
    )
    .bind(id)
    .bind(status)
    .execute(conn)
    .await?;
    Ok(())
}

/// What completion records on the order.
pub struct Completion<'a> {
    pub produced_quantity: Decimal,
    pub output_lot_id: Uuid,
    pub unit_cost: Option<Decimal>,
    pub currency: Option<&'a str>,
    pub code_job_id: Option<Uuid>,
    pub epcis_event_id: &'a str,
}

pub async fn complete(
    conn: &mut PgConnection,
    id: Uuid,
    c: &Completion<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE manufacturing_orders
            SET status = 'completed', completed_at = now(), produced_quantity = $2,
                output_lot_id = $3, unit_cost = $4, currency = $5, code_job_id = $6,
                epcis_event_id = $7
          WHERE id = $1",
    )
    .bind(id)
    .bind(c.produced_quantity)
    .bind(c.output_lot_id)
    .bind(c.unit_cost)
    .bind(c.currency)
    .bind(c.code_job_id)
    .bind(c.epcis_event_id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether the product has a lot numbered `number`.
pub async fn lot_exists(
    conn: &mut PgConnection,
    product_id: Uuid,
    number: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM lots WHERE product_id = $1 AND number = $2)")
        .bind(product_id)
        .bind(number)
        .fetch_one(conn)
        .await
}

// --- cost ------------------------------------------------------------------------

/// The cost of taking some of a lot, in one currency.
#[derive(Debug, sqlx::FromRow)]
pub struct LotCost {
    pub lot_id: Uuid,
    pub currency: String,
    pub value: Decimal,
}

/// The FIFO cost of taking `quantities[i]` of lot `lots[i]` next: each
/// lot's receipts (moves without a `from`, which carry their unit cost),
/// oldest first, less what already left the lot (moves without a `to`),
/// valued at each receipt's unit cost; per lot and currency. One
/// statement, before the consumption moves are written.
pub async fn fifo_cost(
    conn: &mut PgConnection,
    lots: &[Uuid],
    quantities: &[Decimal],
) -> Result<Vec<LotCost>, sqlx::Error> {
    sqlx::query_as(
        "WITH want AS (
             SELECT lot_id, sum(q) AS q FROM unnest($1::uuid[], $2::numeric[]) AS w(lot_id, q)
              GROUP BY lot_id
         ),
         used AS (
             SELECT w.lot_id, coalesce(sum(m.quantity), 0) AS used
               FROM want w LEFT JOIN stock_moves m
                 ON m.lot_id = w.lot_id AND m.from_location_id IS NOT NULL
                AND m.to_location_id IS NULL
              GROUP BY w.lot_id
         ),
         layers AS (
             SELECT m.lot_id, m.quantity, m.unit_cost, m.currency,
                    sum(m.quantity) OVER (PARTITION BY m.lot_id ORDER BY m.seq) - m.quantity
                        AS older
               FROM stock_moves m
              WHERE m.lot_id = ANY($1) AND m.from_location_id IS NULL
         )
         SELECT l.lot_id, l.currency,
                sum(GREATEST(0, LEAST(l.older + l.quantity, u.used + w.q)
                                - GREATEST(l.older, u.used)) * l.unit_cost) AS value
           FROM layers l
           JOIN used u ON u.lot_id = l.lot_id
           JOIN want w ON w.lot_id = l.lot_id
          GROUP BY l.lot_id, l.currency
         HAVING sum(GREATEST(0, LEAST(l.older + l.quantity, u.used + w.q)
                                - GREATEST(l.older, u.used))) > 0",
    )
    .bind(lots)
    .bind(quantities)
    .fetch_all(conn)
    .await
}

// --- lot inputs --------------------------------------------------------------------

/// Records that the order put `quantities[i]` of lot `inputs[i]` into
/// `output_lot_id` (one row per input lot).
pub async fn insert_lot_inputs(
    conn: &mut PgConnection,
    order_id: Uuid,
    output_lot_id: Uuid,
    inputs: &[Uuid],
    quantities: &[Decimal],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO lot_inputs (manufacturing_order_id, output_lot_id, input_lot_id, quantity)
         SELECT $1, $2, lot_id, sum(q) FROM unnest($3::uuid[], $4::numeric[]) AS t(lot_id, q)
          GROUP BY lot_id",
    )
    .bind(order_id)
    .bind(output_lot_id)
    .bind(inputs)
    .bind(quantities)
    .execute(conn)
    .await?;
    Ok(())
}

/// A lot an order consumed.
#[derive(Debug, sqlx::FromRow)]
pub struct ConsumedRow {
    pub lot_id: Uuid,
    pub lot_number: String,
    pub product_id: Uuid,
    pub product_name: String,
    pub expires_on: Option<NaiveDate>,
    pub quantity: Decimal,
}

/// The lots order `id` consumed, by product name and expiry.
pub async fn consumed(conn: &mut PgConnection, id: Uuid) -> Result<Vec<ConsumedRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT i.input_lot_id AS lot_id, l.number AS lot_number, l.product_id, p.product_name,
                l.expires_on, i.quantity
           FROM lot_inputs i
           JOIN lots l ON l.id = i.input_lot_id
           JOIN products p ON p.id = l.product_id
          WHERE i.manufacturing_order_id = $1
          ORDER BY p.product_name, l.expires_on NULLS LAST, l.number",
    )
    .bind(id)
    .fetch_all(conn)
    .await
}
