//! Server-side sessions. The browser holds an opaque 256-bit id in a private
//! cookie; the database holds only its SHA-256, with the account, the CSRF
//! token and the times. Logout, password resets, removal and tenant
//! suspension delete rows here, which ends the sessions at once.

use std::time::Duration;

use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use crate::accounts::Role;
use crate::audit::Actor;
use crate::tenants::TenantRef;

#[derive(Clone, Debug)]
pub struct Session {
    pub id_hash: Vec<u8>,
    pub account_id: Uuid,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub csrf_token: String,
    /// None for platform admins.
    pub tenant: Option<TenantRef>,
}

impl Session {
    /// The Casbin domain: `brand:<id>`, `client:<id>` or `platform`.
    pub fn access_domain(&self) -> String {
        self.tenant
            .as_ref()
            .map_or_else(|| "platform".to_string(), TenantRef::access_domain)
    }

    pub fn client_id(&self) -> Option<&str> {
        self.tenant.as_ref().map(|t| t.client_id.as_str())
    }

    pub fn actor(&self, ip: Option<String>) -> Actor {
        Actor {
            account_id: Some(self.account_id),
            email: self.email.clone(),
            ip,
        }
    }
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    hex::encode(buf)
}

pub fn hash_token(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// A fresh session: the token for the cookie and the CSRF token.
pub struct NewSession {
    pub token: String,
    pub csrf_token: String,
}

pub async fn create<'e>(
    db: impl PgExecutor<'e>,
    account_id: Uuid,
    absolute: Duration,
) -> Result<NewSession, sqlx::Error> {
    let token = random_hex(32);
    let csrf_token = random_hex(32);
    sqlx::query(
        "INSERT INTO platform.sessions (id_hash, account_id, csrf_token, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))",
    )
    .bind(hash_token(&token))
    .bind(account_id)
    .bind(&csrf_token)
    .bind(absolute.as_secs_f64())
    .execute(db)
    .await?;
    Ok(NewSession { token, csrf_token })
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
                t.id AS tenant_id, t.client_id, t.kind, t.schema_name, t.role_name
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
    }))
}

pub async fn delete<'e>(db: impl PgExecutor<'e>, id_hash: &[u8]) -> Result<(), sqlx::Error> {
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

/// Constant-time comparison for tokens.
pub fn tokens_equal(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}
