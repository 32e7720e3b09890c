//! SQL of passports: `passports` (one row per product or lot passport, with
//! its current version) and `passport_versions` (every version, never
//! changed). A product's own passport has `lot = ''`.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{PassportData, PublicPassport};

/// A stored version, with the product it belongs to.
#[derive(sqlx::FromRow)]
pub struct StoredVersion {
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    /// '' for the product's own passport.
    pub lot: String,
    pub version: i32,
    pub document: serde_json::Value,
    pub completeness: i16,
    pub created_at: DateTime<Utc>,
    pub created_by: Uuid,
}

/// The name and GTIN of the active product `id`.
pub async fn active_product(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT product_name, gtin FROM products WHERE id = $1 AND archived_at IS NULL")
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// Takes the next version number of the passport (product, lot): the row
/// stays locked until the transaction ends, so parallel saves queue here.
pub async fn next_version(
    conn: &mut PgConnection,
    product_id: Uuid,
    lot: &str,
    completeness: i16,
) -> Result<i32, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO passports AS p (product_id, lot, current_version, completeness, updated_at)
         VALUES ($1, $2, 1, $3, now())
         ON CONFLICT (product_id, lot) DO UPDATE
             SET current_version = p.current_version + 1,
                 completeness = EXCLUDED.completeness,
                 updated_at = EXCLUDED.updated_at
         RETURNING current_version",
    )
    .bind(product_id)
    .bind(lot)
    .bind(completeness)
    .fetch_one(conn)
    .await
}

/// Stores version `version` of the passport (product, lot).
pub async fn insert_version(
    conn: &mut PgConnection,
    product_id: Uuid,
    lot: &str,
    version: i32,
    document: &serde_json::Value,
    completeness: i16,
    by: Uuid,
) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO passport_versions (product_id, lot, version, document, completeness, created_at, created_by)
         VALUES ($1, $2, $3, $4, $5, now(), $6) RETURNING created_at",
    )
    .bind(product_id)
    .bind(lot)
    .bind(version)
    .bind(document)
    .bind(completeness)
    .bind(by)
    .fetch_one(conn)
    .await
}

/// The current version for `lot`: the lot's own passport if it has one,
/// else the product's (`lot` '' asks for the product's). Archived products
/// only when `archived_too`.
pub async fn current(
    conn: &mut PgConnection,
    product_id: Uuid,
    lot: &str,
    archived_too: bool,
) -> Result<Option<StoredVersion>, sqlx::Error> {
    sqlx::query_as(
        "SELECT v.product_id, p.product_name, p.gtin, v.lot, v.version, v.document, v.completeness,
                v.created_at, v.created_by
         FROM passports h
         JOIN passport_versions v
           ON v.product_id = h.product_id AND v.lot = h.lot AND v.version = h.current_version
         JOIN products p ON p.id = h.product_id
         WHERE h.product_id = $1 AND h.lot IN ('', $2) AND ($3 OR p.archived_at IS NULL)
         ORDER BY h.lot = '' LIMIT 1",
    )
    .bind(product_id)
    .bind(lot)
    .bind(archived_too)
    .fetch_optional(conn)
    .await
}

/// Version `version` of the passport (product, lot) itself (no fallback
/// from a lot to the product), of an active product.
pub async fn version(
    conn: &mut PgConnection,
    product_id: Uuid,
    lot: &str,
    version: i64,
) -> Result<Option<StoredVersion>, sqlx::Error> {
    sqlx::query_as(
        "SELECT v.product_id, p.product_name, p.gtin, v.lot, v.version, v.document, v.completeness,
                v.created_at, v.created_by
         FROM passport_versions v JOIN products p ON p.id = v.product_id
         WHERE v.product_id = $1 AND v.lot = $2 AND v.version = $3 AND p.archived_at IS NULL",
    )
    .bind(product_id)
    .bind(lot)
    .bind(version)
    .fetch_optional(conn)
    .await
}

/// One version in a passport's history.
#[derive(sqlx::FromRow)]
pub struct VersionRow {
    pub version: i32,
    pub completeness: i16,
    pub created_at: DateTime<Utc>,
    pub created_by: Uuid,
}

/// The versions of the passport (product, lot), newest first.
pub async fn versions(
    conn: &mut PgConnection,
    product_id: Uuid,
    lot: &str,
) -> Result<Vec<VersionRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT version, completeness, created_at, created_by FROM passport_versions
         WHERE product_id = $1 AND lot = $2 ORDER BY version DESC",
    )
    .bind(product_id)
    .bind(lot)
    .fetch_all(conn)
    .await
}

/// An active product with its own passport's state (version 0 and
/// completeness 0 when it has none).
#[derive(sqlx::FromRow)]
pub struct ProductPassportRow {
    pub product_id: Uuid,
    pub product_name: String,
    pub skuid: String,
    pub gtin: String,
    pub version: i32,
    pub completeness: i16,
    pub updated_at: Option<DateTime<Utc>>,
}

/// The active products and their own passports, by name.
pub async fn list(conn: &mut PgConnection) -> Result<Vec<ProductPassportRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT p.id AS product_id, p.product_name, p.skuid, p.gtin,
                coalesce(h.current_version, 0) AS version, coalesce(h.completeness, 0::smallint) AS completeness,
                h.updated_at
         FROM products p LEFT JOIN passports h ON h.product_id = p.id AND h.lot = ''
         WHERE p.archived_at IS NULL
         ORDER BY lower(p.product_name), p.id",
    )
    .fetch_all(conn)
    .await
}

/// A lot's own passport.
#[derive(sqlx::FromRow)]
pub struct LotPassportRow {
    pub product_id: Uuid,
    pub lot: String,
    pub version: i32,
    pub completeness: i16,
    pub updated_at: DateTime<Utc>,
}

/// Every lot passport of active products.
pub async fn lot_passports(conn: &mut PgConnection) -> Result<Vec<LotPassportRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT h.product_id, h.lot, h.current_version AS version, h.completeness, h.updated_at
         FROM passports h JOIN products p ON p.id = h.product_id
         WHERE h.lot <> '' AND p.archived_at IS NULL
         ORDER BY h.product_id, h.lot",
    )
    .fetch_all(conn)
    .await
}

/// The passport the public sees for a scanned product (and lot): the lot's
/// own if it has one, else the product's; only its public sections. None
/// when the product has no passport. For the resolver, on the tenant's own
/// connection; archived products keep their passports (their packs are
/// still out there).
pub async fn public_passport(
    conn: &mut PgConnection,
    product_id: Uuid,
    lot: Option<&str>,
) -> Result<Option<PublicPassport>, sqlx::Error> {
    let Some(stored) = current(conn, product_id, lot.unwrap_or(""), true).await? else {
        return Ok(None);
    };
    let data = PassportData::from_stored(stored.document.clone())
        .map_err(|e| sqlx::Error::Decode(e.message.into()))?;
    Ok(Some(PublicPassport::new(&stored, data)))
}
