//! The parties' tables: `suppliers` and `customers` (tenant migration 0023),
//! the same shape but for the customers' group. Every statement is a
//! literal (tests/api/sql.rs prepares each), so each kind has its own.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::Kind;

#[derive(sqlx::FromRow, Debug)]
pub struct PartyRow {
    pub id: Uuid,
    pub name: String,
    pub gln: Option<String>,
    pub email: Option<String>,
    pub country: String,
    /// Customers only; always `None` for a supplier.
    pub customer_group: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// What a new party is.
pub struct NewParty {
    pub name: String,
    pub gln: Option<String>,
    pub email: Option<String>,
    pub country: String,
    pub customer_group: Option<String>,
}

/// The organisation's parties of `kind` by name, those whose name (any
/// case) or GLN contains `search` when given, at most `limit`.
pub async fn list(
    conn: &mut PgConnection,
    kind: Kind,
    search: Option<&str>,
    limit: i64,
) -> Result<Vec<PartyRow>, sqlx::Error> {
    let query = match kind {
        Kind::Supplier => sqlx::query_as(
            "SELECT id, name, gln, email, country, NULL::text AS customer_group, created_at
               FROM suppliers
              WHERE $1::text IS NULL
                 OR strpos(lower(name), lower($1)) > 0 OR strpos(coalesce(gln, ''), $1) > 0
              ORDER BY lower(name), id
              LIMIT $2",
        ),
        Kind::Customer => sqlx::query_as(
            "SELECT id, name, gln, email, country, customer_group, created_at
               FROM customers
              WHERE $1::text IS NULL
                 OR strpos(lower(name), lower($1)) > 0 OR strpos(coalesce(gln, ''), $1) > 0
              ORDER BY lower(name), id
              LIMIT $2",
        ),
    };
    query.bind(search).bind(limit).fetch_all(conn).await
}

pub async fn find(
    conn: &mut PgConnection,
    kind: Kind,
    id: Uuid,
) -> Result<Option<PartyRow>, sqlx::Error> {
    let query = match kind {
        Kind::Supplier => sqlx::query_as(
            "SELECT id, name, gln, email, country, NULL::text AS customer_group, created_at
               FROM suppliers WHERE id = $1",
        ),
        Kind::Customer => sqlx::query_as(
            "SELECT id, name, gln, email, country, customer_group, created_at
               FROM customers WHERE id = $1",
        ),
    };
    query.bind(id).fetch_optional(conn).await
}

/// Adds a party; a GLN the organisation has for another party of the same
/// kind is a unique violation (`suppliers_gln_key`, `customers_gln_key`).
pub async fn insert(
    conn: &mut PgConnection,
    kind: Kind,
    id: Uuid,
    party: &NewParty,
    by: Uuid,
) -> Result<PartyRow, sqlx::Error> {
    let query = match kind {
        Kind::Supplier => sqlx::query_as(
            "INSERT INTO suppliers (id, name, gln, email, country, created_by)
             SELECT $1, $2, $3, $4, $5, $6 WHERE $7::text IS NULL
             RETURNING id, name, gln, email, country, NULL::text AS customer_group, created_at",
        ),
        Kind::Customer => sqlx::query_as(
            "INSERT INTO customers (id, name, gln, email, country, created_by, customer_group)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             RETURNING id, name, gln, email, country, customer_group, created_at",
        ),
    };
    query
        .bind(id)
        .bind(&party.name)
        .bind(&party.gln)
        .bind(&party.email)
        .bind(&party.country)
        .bind(by)
        .bind(&party.customer_group)
        .fetch_one(conn)
        .await
}
