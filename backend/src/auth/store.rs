//! SQL of sessions, sign-in lookups and sign-in throttling (all in the
//! `platform` schema).

use std::time::Duration;

use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use super::throttle::{Counter, MAX_LOCK_SECS, WINDOW_SECS};
use super::{NewSession, Session, hash_token};
use crate::accounts::Role;
use crate::tenants::TenantRef;

pub async fn create_session<'e>(
    db: impl PgExecutor<'e>,
    account_id: Uuid,
    absolute: Duration,
) -> Result<NewSession, sqlx::Error> {
    let new = NewSession::generate();
    sqlx::query(
        "INSERT INTO platform.sessions (id_hash, account_id, csrf_token, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))",
    )
    .bind(hash_token(&new.token))
    .bind(account_id)
    .bind(&new.csrf_token)
    .bind(absolute.as_secs_f64())
    .execute(db)
    .await?;
    Ok(new)
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    account_id: Uuid,
    email: String,
    name: String,
    role: String,
    csrf_token: String,
    tenant_id: Option<Uuid>,
    client_id: Option<String>,
    kind: Option<String>,
    schema_name: Option<String>,
    role_name: Option<String>,
    modules: Option<Vec<String>>,
}

/// Looks the session up (one round trip) and refreshes its last-seen time at
/// most once a minute. Expired, idle or suspended-tenant sessions are not
/// found.
pub async fn load(
    pool: &PgPool,
    token: &str,
    idle: Duration,
) -> Result<Option<Session>, anyhow::Error> {
    let id_hash = hash_token(token);
    let row: Option<SessionRow> = sqlx::query_as(
        "WITH touched AS (
             UPDATE platform.sessions SET last_seen_at = now()
             WHERE id_hash = $1 AND last_seen_at < now() - interval '60 seconds'
               AND last_seen_at > now() - make_interval(secs => $2)
               AND expires_at > now()
         )
         SELECT s.account_id, a.email, a.name, a.role, s.csrf_token,
                t.id AS tenant_id, t.client_id, t.kind, t.schema_name, t.role_name,
                t.modules
         FROM platform.sessions s
         JOIN platform.accounts a ON a.id = s.account_id
         LEFT JOIN platform.tenants t ON t.id = a.tenant_id
         WHERE s.id_hash = $1
           AND s.expires_at > now()
           AND s.last_seen_at > now() - make_interval(secs => $2)
           AND (a.tenant_id IS NULL OR t.status = 'active')",
    )
    .bind(&id_hash)
    .bind(idle.as_secs_f64())
    .fetch_optional(pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let role = Role::parse(&row.role)
        .ok_or_else(|| anyhow::anyhow!("account {} has unknown role", row.account_id))?;
    let tenant = match (
        row.tenant_id,
        row.client_id,
        row.kind,
        row.schema_name,
        row.role_name,
    ) {
        (Some(id), Some(client), Some(kind), Some(schema), Some(role)) => {
            Some(TenantRef::from_columns(id, client, &kind, &schema, &role)?)
        }
        _ => None,
    };
    Ok(Some(Session {
        id_hash,
        account_id: row.account_id,
        email: row.email,
        name: row.name,
        role,
        csrf_token: row.csrf_token,
        tenant,
        modules: row.modules.unwrap_or_default(),
    }))
}

pub async fn delete_session<'e>(
    db: impl PgExecutor<'e>,
    id_hash: &[u8],
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM platform.sessions WHERE id_hash = $1")
        .bind(id_hash)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn end_all_for_account<'e>(
    db: impl PgExecutor<'e>,
    account_id: Uuid,
) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM platform.sessions WHERE account_id = $1")
            .bind(account_id)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

/// Ends every session of `account_id` but the one whose hash is `keep`.
pub async fn end_others_for_account<'e>(
    db: impl PgExecutor<'e>,
    account_id: Uuid,
    keep: &[u8],
) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM platform.sessions WHERE account_id = $1 AND id_hash <> $2")
            .bind(account_id)
            .bind(keep)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

pub async fn end_all_for_tenant<'e>(
    db: impl PgExecutor<'e>,
    tenant_id: Uuid,
) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query(
        "DELETE FROM platform.sessions WHERE account_id IN
             (SELECT id FROM platform.accounts WHERE tenant_id = $1)",
    )
    .bind(tenant_id)
    .execute(db)
    .await?
    .rows_affected())
}

pub async fn sweep_ended<'e>(db: impl PgExecutor<'e>, idle: Duration) -> Result<(), sqlx::Error> {
    sqlx::query(
        "WITH s AS (DELETE FROM platform.sessions
                    WHERE expires_at < now() OR last_seen_at < now() - make_interval(secs => $1))
         DELETE FROM platform.login_throttle
         WHERE window_start < now() - interval '1 day'
           AND (locked_until IS NULL OR locked_until < now())",
    )
    .bind(idle.as_secs_f64())
    .execute(db)
    .await?;
    Ok(())
}

/// The account a sign-in names, with its tenant's id and status.
#[derive(sqlx::FromRow)]
pub struct LoginAccount {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub role: String,
    pub password_hash: String,
    pub client_id: Option<String>,
    pub tenant_kind: Option<String>,
    pub tenant_status: Option<String>,
    /// The tenant's plan modules (none for platform admins).
    pub modules: Option<Vec<String>>,
}

pub async fn find_login_account<'e>(
    db: impl PgExecutor<'e>,
    email: &str,
) -> Result<Option<LoginAccount>, sqlx::Error> {
    sqlx::query_as(
        "SELECT a.id, a.name, a.email, a.role, a.password_hash,
                t.client_id, t.kind AS tenant_kind, t.status AS tenant_status, t.modules
         FROM platform.accounts a LEFT JOIN platform.tenants t ON t.id = a.tenant_id
         WHERE a.email = $1",
    )
    .bind(email)
    .fetch_optional(db)
    .await
}

/// The counter of `key` (a zero one when it has none), locked until the
/// transaction ends.
pub async fn throttle_counter(conn: &mut PgConnection, key: &str) -> Result<Counter, sqlx::Error> {
    // One statement: creates the row or locks the one there, and reads it.
    // (An insert that did nothing followed by `SELECT … FOR UPDATE` found no
    // row when a successful sign-in deleted it in between: a 500.)
    let (attempts, window_expired, locked_secs): (i32, bool, Option<f64>) = sqlx::query_as(
        "INSERT INTO platform.login_throttle AS t (key, failures, window_start)
         VALUES ($1, 0, now())
         ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key
         RETURNING t.failures, t.window_start < now() - make_interval(secs => $2),
                   extract(epoch FROM t.locked_until - now())::float8",
    )
    .bind(key)
    .bind(WINDOW_SECS)
    .fetch_one(&mut *conn)
    .await?;
    Ok(Counter {
        attempts,
        window_expired,
        locked_secs,
    })
}

/// Stores the counter of `key` after an attempt went ahead.
pub async fn throttle_save(
    conn: &mut PgConnection,
    key: &str,
    attempts: i32,
    reset_window: bool,
    lock_secs: Option<f64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE platform.login_throttle SET
             failures = $2,
             window_start = CASE WHEN $3 THEN now() ELSE window_start END,
             locked_until = CASE WHEN $4::float8 IS NOT NULL THEN now() + make_interval(secs => $4)
                                 WHEN $3 THEN NULL ELSE locked_until END
         WHERE key = $1",
    )
    .bind(key)
    .bind(attempts)
    .bind(reset_window)
    .bind(lock_secs)
    .execute(conn)
    .await?;
    Ok(())
}

/// Seconds until the longest lock among `keys` ends, if any is locked.
pub async fn throttle_locked_for<'e>(
    db: impl PgExecutor<'e>,
    keys: &[String],
) -> Result<Option<i64>, sqlx::Error> {
    let secs: Option<f64> = sqlx::query_scalar(
        "SELECT max(extract(epoch FROM locked_until - now()))::float8
         FROM platform.login_throttle WHERE key = ANY($1) AND locked_until > now()",
    )
    .bind(keys)
    .fetch_one(db)
    .await?;
    Ok(secs.map(|s| s.ceil().max(1.0) as i64))
}

/// Counts a failure for `key`; locks it once past `threshold`.
pub async fn throttle_record_failure<'e>(
    db: impl PgExecutor<'e>,
    key: &str,
    threshold: i32,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO platform.login_throttle AS t (key, failures, window_start)
         VALUES ($1, 1, now())
         ON CONFLICT (key) DO UPDATE SET
             failures = CASE WHEN t.window_start < now() - make_interval(secs => $2)
                             THEN 1 ELSE t.failures + 1 END,
             window_start = CASE WHEN t.window_start < now() - make_interval(secs => $2)
                                 THEN now() ELSE t.window_start END,
             locked_until = CASE
                 WHEN t.window_start < now() - make_interval(secs => $2) THEN NULL
                 WHEN t.failures + 1 >= $3 THEN now() + make_interval(secs =>
                     least($4, 30 * 2 ^ least(t.failures + 1 - $3, 20)))
                 ELSE t.locked_until END",
    )
    .bind(key)
    .bind(WINDOW_SECS)
    .bind(threshold)
    .bind(MAX_LOCK_SECS)
    .execute(db)
    .await?;
    Ok(())
}

pub async fn throttle_clear<'e>(db: impl PgExecutor<'e>, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM platform.login_throttle WHERE key = $1")
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}
