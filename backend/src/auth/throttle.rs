//! Sign-in throttling, per account and per client address.
//!
//! Failures are counted in a 15-minute window. Past a threshold each further
//! failure locks the key for a delay (30 s, then doubling), capped at 15 minutes, and
//! the lock always expires: an attacker can slow a victim's sign-in down but
//! never lock them out for good. A successful sign-in clears the account key.

use sqlx::PgPool;

const WINDOW_SECS: f64 = 15.0 * 60.0;
const MAX_LOCK_SECS: f64 = 15.0 * 60.0;
/// Failures per account before delays start.
pub const ACCOUNT_THRESHOLD: i32 = 5;
/// Failures per address before delays start (an office shares one address).
pub const ADDRESS_THRESHOLD: i32 = 30;

pub fn account_key(email: &str) -> String {
    format!("account:{}", email.trim().to_lowercase())
}

pub fn address_key(ip: &str) -> String {
    format!("ip:{ip}")
}

/// Seconds until the longest lock among `keys` ends, if any is locked.
pub async fn locked_for(pool: &PgPool, keys: &[String]) -> Result<Option<i64>, sqlx::Error> {
    let secs: Option<f64> = sqlx::query_scalar(
        "SELECT max(extract(epoch FROM locked_until - now()))::float8
         FROM platform.login_throttle WHERE key = ANY($1) AND locked_until > now()",
    )
    .bind(keys)
    .fetch_one(pool)
    .await?;
    Ok(secs.map(|s| s.ceil().max(1.0) as i64))
}

/// Counts a failure for `key`; locks it once past `threshold`.
pub async fn record_failure(pool: &PgPool, key: &str, threshold: i32) -> Result<(), sqlx::Error> {
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
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn clear(pool: &PgPool, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM platform.login_throttle WHERE key = $1")
        .bind(key)
        .execute(pool)
        .await?;
    Ok(())
}
