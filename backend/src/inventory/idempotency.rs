//! `Idempotency-Key` for the writes a client may retry (the Stripe
//! pattern): the first request with a key claims it in its own
//! transaction and keeps its answer there; a retry gets that answer without
//! doing anything again, also while the first is still in flight (it waits
//! for the first's commit); the same key with another request is 409
//! `idempotency_key_reused`. A refused request keeps nothing (its
//! transaction rolls back with the claim), so a retry of it is tried again.
//! Keys live in the tenant's `idempotency_keys`, per operation.

use poem::http::StatusCode;
use poem_openapi::types::{ParseFromJSON, ToJSON};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;

use super::store;
use crate::http::error::ApiError;

/// A digest of what a request asks for (`text` lists every field that
/// matters, normalised): the same key with another digest is refused.
pub fn digest(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Claims `key` for `operation` in the caller's transaction: `None` when
/// this request is the first with it (do the work, then [`remember`] the
/// answer), or the first request's answer. 409 `idempotency_key_reused`
/// when the key was used for a request with another `hash`; `what` names
/// the thing in that message ("move", "receipt").
pub async fn replay<T: ParseFromJSON>(
    conn: &mut PgConnection,
    operation: &str,
    key: &str,
    hash: &str,
    what: &str,
) -> Result<Option<T>, ApiError> {
    if store::claim_key(conn, operation, key, hash).await? {
        return Ok(None);
    }
    let (stored_hash, _, response) = store::stored_answer(conn, operation, key)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a claimed key is gone")))?;
    if stored_hash != hash {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "idempotency_key_reused",
            format!(
                "This Idempotency-Key was used for another request: send a new key for a new {what}."
            ),
        ));
    }
    T::parse_from_json(Some(response))
        .map(Some)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("stored {what}: {}", e.message())))
}

/// Keeps `answer` (status 201) for the request that claimed `key`, in its
/// transaction.
pub async fn remember<T: ToJSON>(
    conn: &mut PgConnection,
    operation: &str,
    key: &str,
    answer: &T,
) -> Result<(), ApiError> {
    let json = answer.to_json().unwrap_or_default();
    store::save_answer(conn, operation, key, 201, &json).await?;
    Ok(())
}
