//! SQL of products: the tenant's `products` table, and the platform's GTIN
//! registry and product limit through `platform.tenant_*` functions (which
//! act for the connection's own tenant only; ADR 0010).

use sqlx::PgConnection;
use uuid::Uuid;

use super::Product;

/// A product to insert or the fields to change.
pub struct ProductFields<'a> {
    pub product_name: Option<&'a str>,
    pub skuid: Option<&'a str>,
    pub gtin: Option<&'a str>,
    pub category: Option<&'a str>,
    pub product_description: Option<&'a str>,
    /// The whole list, as JSON (from [`super::Attributes::to_json`]).
    pub attributes: Option<serde_json::Value>,
    /// The company it belongs to (checked to be one of the organisation's).
    pub company_id: Option<Uuid>,
    /// Its received and manufactured lots start in quarantine.
    pub requires_inspection: Option<bool>,
    /// The unit its quantities are counted in.
    pub unit: Option<&'a str>,
}

/// The organisation's product limit; its tenant row stays locked until the
/// transaction ends, so concurrent creations queue here.
pub async fn lock_product_limit(conn: &mut PgConnection) -> Result<i32, sqlx::Error> {
    sqlx::query_scalar("SELECT platform.tenant_lock_product_limit()")
        .fetch_one(conn)
        .await
}

/// The organisation's product limit and code quota.
pub async fn plan(conn: &mut PgConnection) -> Result<(i32, i64), sqlx::Error> {
    sqlx::query_as("SELECT product_limit, code_quota FROM platform.tenant_plan()")
        .fetch_one(conn)
        .await
}

/// How many active (not archived) products the organisation has. Its own
/// statement, after [`lock_product_limit`], so that it sees what the
/// creations ahead in the queue committed.
pub async fn count_active(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT count(*) FROM products WHERE archived_at IS NULL")
        .fetch_one(conn)
        .await
}

/// Claims a GTIN-14 in the platform's registry: false when another
/// organisation holds it.
pub async fn claim_gtin(conn: &mut PgConnection, gtin: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT platform.tenant_claim_gtin($1)")
        .bind(gtin)
        .fetch_one(conn)
        .await
}

/// Gives up the organisation's claim on a GTIN-14.
pub async fn release_gtin(conn: &mut PgConnection, gtin: &str) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT platform.tenant_release_gtin($1)")
        .bind(gtin)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn insert(
    conn: &mut PgConnection,
    fields: &ProductFields<'_>,
    by: Uuid,
) -> Result<Product, sqlx::Error> {
    sqlx::query_as(
        "INSERT INTO products (id, product_name, skuid, gtin, category, product_description, created_by, attributes, company_id,
                               requires_inspection, unit)
         VALUES ($1, $2, $3, $4, coalesce($5, ''), coalesce($6, ''), $7, coalesce($8, '[]'::jsonb), $9,
                 coalesce($10, false), coalesce($11, 'each'))
         RETURNING id, product_name, skuid, gtin, category, image_urls, metadata, attributes, product_description,
                sample_qr_id, created_at, updated_at, archived_at, company_id, requires_inspection, unit",
    )
    .bind(Uuid::new_v4())
    .bind(fields.product_name)
    .bind(fields.skuid)
    .bind(fields.gtin)
    .bind(fields.category)
    .bind(fields.product_description)
    .bind(by)
    .bind(&fields.attributes)
    .bind(fields.company_id)
    .bind(fields.requires_inspection)
    .bind(fields.unit)
    .fetch_one(conn)
    .await
}

/// Active products, newest first.
pub async fn list_active(conn: &mut PgConnection) -> Result<Vec<Product>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, product_name, skuid, gtin, category, image_urls, metadata, attributes, product_description,
                sample_qr_id, created_at, updated_at, archived_at, company_id, requires_inspection, unit FROM products WHERE archived_at IS NULL ORDER BY created_at DESC, id",
    )
    .fetch_all(conn)
    .await
}

/// The product `id`, archived or not.
pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<Product>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, product_name, skuid, gtin, category, image_urls, metadata, attributes, product_description,
                sample_qr_id, created_at, updated_at, archived_at, company_id, requires_inspection, unit FROM products WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The active product `id`, locked until the transaction ends.
pub async fn lock_active(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<Product>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, product_name, skuid, gtin, category, image_urls, metadata, attributes, product_description,
                sample_qr_id, created_at, updated_at, archived_at, company_id, requires_inspection, unit FROM products WHERE id = $1 AND archived_at IS NULL FOR UPDATE",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Changes the fields given (the others keep their values).
pub async fn update(
    conn: &mut PgConnection,
    id: Uuid,
    fields: &ProductFields<'_>,
) -> Result<Product, sqlx::Error> {
    sqlx::query_as(
        "UPDATE products SET
             product_name = coalesce($2, product_name),
             skuid = coalesce($3, skuid),
             gtin = coalesce($4, gtin),
             category = coalesce($5, category),
             product_description = coalesce($6, product_description),
             attributes = coalesce($7, attributes),
             company_id = coalesce($8, company_id),
             requires_inspection = coalesce($9, requires_inspection),
             unit = coalesce($10, unit),
             updated_at = now()
         WHERE id = $1 RETURNING id, product_name, skuid, gtin, category, image_urls, metadata, attributes, product_description,
                sample_qr_id, created_at, updated_at, archived_at, company_id, requires_inspection, unit",
    )
    .bind(id)
    .bind(fields.product_name)
    .bind(fields.skuid)
    .bind(fields.gtin)
    .bind(fields.category)
    .bind(fields.product_description)
    .bind(&fields.attributes)
    .bind(fields.company_id)
    .bind(fields.requires_inspection)
    .bind(fields.unit)
    .fetch_one(conn)
    .await
}

/// Archives the active product `id`; None when there is none.
pub async fn archive(conn: &mut PgConnection, id: Uuid) -> Result<Option<Product>, sqlx::Error> {
    sqlx::query_as(
        "UPDATE products SET archived_at = now(), updated_at = now()
         WHERE id = $1 AND archived_at IS NULL RETURNING id, product_name, skuid, gtin, category, image_urls, metadata, attributes, product_description,
                sample_qr_id, created_at, updated_at, archived_at, company_id, requires_inspection, unit",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Adds an image's URL to the product.
pub async fn add_image(
    conn: &mut PgConnection,
    id: Uuid,
    url: &str,
) -> Result<Product, sqlx::Error> {
    sqlx::query_as(
        "UPDATE products SET image_urls = array_append(image_urls, $2), updated_at = now()
         WHERE id = $1 RETURNING id, product_name, skuid, gtin, category, image_urls, metadata, attributes, product_description,
                sample_qr_id, created_at, updated_at, archived_at, company_id, requires_inspection, unit",
    )
    .bind(id)
    .bind(url)
    .fetch_one(conn)
    .await
}

/// Removes an image's URL from the product.
pub async fn remove_image(
    conn: &mut PgConnection,
    id: Uuid,
    url: &str,
) -> Result<Product, sqlx::Error> {
    sqlx::query_as(
        "UPDATE products SET image_urls = array_remove(image_urls, $2), updated_at = now()
         WHERE id = $1 RETURNING id, product_name, skuid, gtin, category, image_urls, metadata, attributes, product_description,
                sample_qr_id, created_at, updated_at, archived_at, company_id, requires_inspection, unit",
    )
    .bind(id)
    .bind(url)
    .fetch_one(conn)
    .await
}

/// Which of these SKU ids (lower-cased) the organisation's products use.
pub async fn skuids_taken(
    conn: &mut PgConnection,
    lower_skuids: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT lower(skuid) FROM products WHERE lower(skuid) = ANY($1)")
        .bind(lower_skuids)
        .fetch_all(conn)
        .await
}

/// Which of these GTIN-14s the organisation's products use.
pub async fn gtins_taken(
    conn: &mut PgConnection,
    gtins: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT gtin FROM products WHERE gtin = ANY($1)")
        .bind(gtins)
        .fetch_all(conn)
        .await
}

/// Which of these GTIN-14s other organisations hold.
pub async fn gtins_held_by_others(
    conn: &mut PgConnection,
    gtins: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT platform.tenant_gtins_held_by_others($1)")
        .bind(gtins)
        .fetch_all(conn)
        .await
}

/// Makes `uri` the product's sample code, unless it has one already (the
/// first code job to finish gives it; later ones do not change it).
pub async fn set_sample_code(
    conn: &mut PgConnection,
    id: Uuid,
    uri: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE products SET sample_qr_id = $2 WHERE id = $1 AND sample_qr_id IS NULL")
        .bind(id)
        .bind(uri)
        .execute(conn)
        .await?;
    Ok(())
}

/// The first image (its stored URL) of the active product `id`, if it has
/// one: the one its scan page shows.
pub async fn first_image(conn: &mut PgConnection, id: Uuid) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT image_urls[1] FROM products WHERE id = $1 AND archived_at IS NULL")
        .bind(id)
        .fetch_optional(conn)
        .await
        .map(Option::flatten)
}
