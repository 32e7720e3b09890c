//! SQL of `reviews` (tenant schema).

use sqlx::PgConnection;
use uuid::Uuid;

use super::Review;

/// What adding a review for a scan came to.
pub enum Added {
    /// Saved; the path of the scanned code's page (`/01/…/21/…`), for the
    /// thank-you page's link back to it.
    Added { back: String },
    /// The scan already has its review.
    AlreadyReviewed,
    /// No scan of a real code with that id.
    NoSuchScan,
}

/// Adds the review of a scan of one of the tenant's codes (one per scan).
pub async fn add(
    conn: &mut PgConnection,
    id: Uuid,
    scan_id: i64,
    rating: i16,
    body: &str,
) -> Result<Added, sqlx::Error> {
    let added: Option<(String, Option<String>, String)> = sqlx::query_as(
        "WITH added AS (
             INSERT INTO reviews (id, scan_id, product_id, rating, body)
             SELECT $1, s.id, s.product_id, $3, $4 FROM scans s
             WHERE s.id = $2 AND s.product_id IS NOT NULL AND s.verdict <> 'not_recognised'
             ON CONFLICT (scan_id) DO NOTHING
             RETURNING scan_id
         )
         SELECT s.gtin, s.lot, s.serial_text FROM added JOIN scans s ON s.id = added.scan_id",
    )
    .bind(id)
    .bind(scan_id)
    .bind(rating)
    .bind(body)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((gtin, lot, serial)) = added {
        let mut back = format!("/01/{gtin}");
        if let Some(lot) = lot {
            back.push_str("/10/");
            back.push_str(&crate::gs1::percent_encode(&lot));
        }
        back.push_str("/21/");
        back.push_str(&crate::gs1::percent_encode(&serial));
        return Ok(Added::Added { back });
    }
    let reviewed: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM reviews WHERE scan_id = $1)")
            .bind(scan_id)
            .fetch_one(conn)
            .await?;
    Ok(if reviewed {
        Added::AlreadyReviewed
    } else {
        Added::NoSuchScan
    })
}

/// Reviews, newest first, filtered (each filter off when `None`).
pub async fn list(
    conn: &mut PgConnection,
    product_id: Option<Uuid>,
    rating: Option<i16>,
    hidden: Option<bool>,
    limit: i64,
) -> Result<Vec<Review>, sqlx::Error> {
    sqlx::query_as(
        "SELECT r.id, r.product_id, coalesce(p.product_name, '') AS product_name,
                coalesce(p.skuid, '') AS skuid, r.rating, r.body, r.created_at,
                r.hidden_at IS NOT NULL AS hidden
         FROM reviews r LEFT JOIN products p ON p.id = r.product_id
         WHERE ($1::uuid IS NULL OR r.product_id = $1)
           AND ($2::smallint IS NULL OR r.rating = $2)
           AND ($3::boolean IS NULL OR (r.hidden_at IS NOT NULL) = $3)
         ORDER BY r.created_at DESC, r.id
         LIMIT $4",
    )
    .bind(product_id)
    .bind(rating)
    .bind(hidden)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Hides or shows a review; `None` when there is no such review.
pub async fn set_hidden(
    conn: &mut PgConnection,
    id: Uuid,
    hidden: bool,
    by: Uuid,
) -> Result<Option<Review>, sqlx::Error> {
    let found: Option<Uuid> = sqlx::query_scalar(
        "UPDATE reviews SET hidden_at = CASE WHEN $2::boolean THEN coalesce(hidden_at, now()) END,
                hidden_by = CASE WHEN $2::boolean THEN $3::uuid END
         WHERE id = $1 RETURNING id",
    )
    .bind(id)
    .bind(hidden)
    .bind(by)
    .fetch_optional(&mut *conn)
    .await?;
    if found.is_none() {
        return Ok(None);
    }
    sqlx::query_as(
        "SELECT r.id, r.product_id, coalesce(p.product_name, '') AS product_name,
                coalesce(p.skuid, '') AS skuid, r.rating, r.body, r.created_at,
                r.hidden_at IS NOT NULL AS hidden
         FROM reviews r LEFT JOIN products p ON p.id = r.product_id
         WHERE r.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// A product's visible reviews for its scan page: the average rating, how
/// many, and the newest few (rating, text).
pub async fn for_scan_page(
    conn: &mut PgConnection,
    product_id: Uuid,
    newest: i64,
) -> Result<(Option<f64>, i64, Vec<(i16, String)>), sqlx::Error> {
    let (average, count): (Option<f64>, i64) = sqlx::query_as(
        "SELECT avg(rating)::float8, count(*)::bigint FROM reviews
         WHERE product_id = $1 AND hidden_at IS NULL",
    )
    .bind(product_id)
    .fetch_one(&mut *conn)
    .await?;
    let recent = sqlx::query_as(
        "SELECT rating, body FROM reviews
         WHERE product_id = $1 AND hidden_at IS NULL AND body <> ''
         ORDER BY created_at DESC LIMIT $2",
    )
    .bind(product_id)
    .bind(newest)
    .fetch_all(conn)
    .await?;
    Ok((average, count, recent))
}
