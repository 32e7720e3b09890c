//! SQL of pricing (tenant migration 0029). Every write takes the table lock
//! first ([`lock_price_lists`]) and a replacement also locks its list's row
//! ([`lock_list`]), so parallel writes queue and each sees what the ones
//! ahead committed (the overlap check included).

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

/// Takes the tenant's price-list lock until the transaction ends: creates
/// and replacements queue here (reads do not), so the overlap check of
/// each sees the lists the ones ahead committed.
pub async fn lock_price_lists(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query("LOCK TABLE price_lists IN SHARE ROW EXCLUSIVE MODE")
        .execute(conn)
        .await?;
    Ok(())
}

/// Locks list `id`'s row until the transaction ends; `false` when the
/// tenant has no such list.
pub async fn lock_list(conn: &mut PgConnection, id: Uuid) -> Result<bool, sqlx::Error> {
    let found: Option<i32> =
        sqlx::query_scalar("SELECT 1 FROM price_lists WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(conn)
            .await?;
    Ok(found.is_some())
}

/// A product as a price list needs it.
#[derive(Debug, sqlx::FromRow)]
pub struct ProductInfo {
    pub id: Uuid,
    pub product_name: String,
    pub archived: bool,
}

/// The products `ids` that the tenant has.
pub async fn products(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<ProductInfo>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, product_name, archived_at IS NOT NULL AS archived
           FROM products WHERE id = ANY($1)",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// What a list is, without its items.
pub struct ListHead<'a> {
    pub name: &'a str,
    pub currency: &'a str,
    pub valid_from: NaiveDate,
    pub valid_to: Option<NaiveDate>,
    pub customer_group: Option<&'a str>,
    pub tiering: &'a str,
}

/// The name of a list other than `except` of the scope `customer_group`
/// (NULL: the default lists) whose validity overlaps `from`..`to` (both
/// inclusive, `to` NULL: open-ended), if there is one.
pub async fn overlapping(
    conn: &mut PgConnection,
    except: Uuid,
    customer_group: Option<&str>,
    from: NaiveDate,
    to: Option<NaiveDate>,
) -> Result<Option<(String, NaiveDate, Option<NaiveDate>)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT name, valid_from, valid_to FROM price_lists
          WHERE id <> $1 AND customer_group IS NOT DISTINCT FROM $2
            AND valid_from <= coalesce($4, 'infinity'::date)
            AND coalesce(valid_to, 'infinity'::date) >= $3
          ORDER BY valid_from LIMIT 1",
    )
    .bind(except)
    .bind(customer_group)
    .bind(from)
    .bind(to)
    .fetch_optional(conn)
    .await
}

/// Inserts list `id` (without items).
pub async fn insert_list(
    conn: &mut PgConnection,
    id: Uuid,
    head: &ListHead<'_>,
    by: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO price_lists (id, name, currency, valid_from, valid_to, customer_group, tiering,
                                  created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
    )
    .bind(id)
    .bind(head.name)
    .bind(head.currency)
    .bind(head.valid_from)
    .bind(head.valid_to)
    .bind(head.customer_group)
    .bind(head.tiering)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(())
}

/// Replaces what list `id` (locked by the caller) is, raising its version,
/// and deletes its items and breaks (written again by the caller).
pub async fn replace_list(
    conn: &mut PgConnection,
    id: Uuid,
    head: &ListHead<'_>,
    by: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE price_lists SET name = $2, currency = $3, valid_from = $4, valid_to = $5,
                customer_group = $6, tiering = $7, updated_by = $8, updated_at = now(),
                version = version + 1
          WHERE id = $1",
    )
    .bind(id)
    .bind(head.name)
    .bind(head.currency)
    .bind(head.valid_from)
    .bind(head.valid_to)
    .bind(head.customer_group)
    .bind(head.tiering)
    .bind(by)
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM price_list_items WHERE price_list_id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Writes the items of list `id`: `products` in their order, and the
/// breaks as three parallel arrays (product, minimum, price).
pub async fn insert_items(
    conn: &mut PgConnection,
    id: Uuid,
    products: &[Uuid],
    break_products: &[Uuid],
    min_quantities: &[Decimal],
    unit_prices: &[Decimal],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO price_list_items (price_list_id, product_id, position)
         SELECT $1, p, n FROM unnest($2::uuid[]) WITH ORDINALITY AS t (p, n)",
    )
    .bind(id)
    .bind(products)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO price_breaks (price_list_id, product_id, min_quantity, unit_price)
         SELECT $1, p, m, u FROM unnest($2::uuid[], $3::numeric[], $4::numeric[]) AS t (p, m, u)",
    )
    .bind(id)
    .bind(break_products)
    .bind(min_quantities)
    .bind(unit_prices)
    .execute(conn)
    .await?;
    Ok(())
}

/// A list as stored.
#[derive(Debug, sqlx::FromRow)]
pub struct ListRow {
    pub id: Uuid,
    pub name: String,
    pub currency: String,
    pub valid_from: NaiveDate,
    pub valid_to: Option<NaiveDate>,
    pub customer_group: Option<String>,
    pub tiering: String,
    pub version: i32,
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub updated_by: Option<Uuid>,
    pub updated_at: DateTime<Utc>,
}

/// List `id`, if the tenant has it.
pub async fn find_list(conn: &mut PgConnection, id: Uuid) -> Result<Option<ListRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, currency, valid_from, valid_to, customer_group, tiering, version,
                created_by, created_at, updated_by, updated_at
           FROM price_lists WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The lists: the default ones first, then by group, the latest validity
/// first in each; at most `limit`.
pub async fn list_lists(conn: &mut PgConnection, limit: i64) -> Result<Vec<ListRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, currency, valid_from, valid_to, customer_group, tiering, version,
                created_by, created_at, updated_by, updated_at
           FROM price_lists
          ORDER BY customer_group NULLS FIRST, valid_from DESC, id
          LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// One break of a list's product, with the product's name.
#[derive(Debug, sqlx::FromRow)]
pub struct BreakRow {
    pub price_list_id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    pub min_quantity: Decimal,
    pub unit_price: Decimal,
}

/// The breaks of the lists `ids`, by list, item position and minimum.
pub async fn breaks_of(
    conn: &mut PgConnection,
    ids: &[Uuid],
) -> Result<Vec<BreakRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT b.price_list_id, b.product_id, p.product_name, b.min_quantity, b.unit_price
           FROM price_breaks b
           JOIN price_list_items i
             ON i.price_list_id = b.price_list_id AND i.product_id = b.product_id
           JOIN products p ON p.id = b.product_id
          WHERE b.price_list_id = ANY($1)
          ORDER BY b.price_list_id, i.position, b.min_quantity",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// The list that applies on `on` to a customer of group `customer_group`
/// (NULL: a customer without a group, or no customer): the group's list
/// valid that day, else the default list valid that day.
pub async fn applicable_list(
    conn: &mut PgConnection,
    customer_group: Option<&str>,
    on: NaiveDate,
) -> Result<Option<ListRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, currency, valid_from, valid_to, customer_group, tiering, version,
                created_by, created_at, updated_by, updated_at
           FROM price_lists
          WHERE (customer_group = $1 OR customer_group IS NULL)
            AND valid_from <= $2 AND (valid_to IS NULL OR valid_to >= $2)
          ORDER BY customer_group NULLS LAST, valid_from DESC
          LIMIT 1",
    )
    .bind(customer_group)
    .bind(on)
    .fetch_optional(conn)
    .await
}

/// The breaks of product `product_id` in list `list_id`, by minimum.
pub async fn product_breaks(
    conn: &mut PgConnection,
    list_id: Uuid,
    product_id: Uuid,
) -> Result<Vec<(Decimal, Decimal)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT min_quantity, unit_price FROM price_breaks
          WHERE price_list_id = $1 AND product_id = $2 ORDER BY min_quantity",
    )
    .bind(list_id)
    .bind(product_id)
    .fetch_all(conn)
    .await
}
