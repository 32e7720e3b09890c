//! Seeding the demo tenants of `tenants/demo/` into an empty database.

use std::path::Path;

use sqlx::PgPool;

use super::definition::load_demo;
use super::provision::{TenantSpec, provision_in};
use crate::accounts::{Email, NewAccount, PersonName, Role, insert_account};
use crate::audit::{self, Actor};
use crate::auth::password::Passwords;
use crate::db::DbNames;

/// Seeds every demo tenant and platform admin when the database holds no
/// tenant yet; returns how many accounts it created (0: nothing seeded).
pub async fn seed_demo_if_empty(
    owner: &PgPool,
    names: &DbNames,
    dir: &Path,
    password: &str,
) -> anyhow::Result<usize> {
    let any: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM platform.tenants)")
        .fetch_one(owner)
        .await?;
    if any {
        return Ok(0);
    }
    let (tenants, platform) = load_demo(dir)?;
    let passwords = Passwords::new(2)?;
    let hash = passwords.hash(password).await?;
    let actor = Actor::cli();
    let mut seeded = 0;
    // One transaction for the whole demo set: all of it or none of it.
    let mut tx = owner.begin().await?;
    for t in &tenants {
        let spec = TenantSpec::parse(
            &t.client_id,
            &t.name,
            t.kind,
            t.schema.as_deref(),
            t.user_limit,
            t.modules.clone(),
        )
        .map_err(|e| anyhow::anyhow!("tenant {}: {}", t.client_id, e.message))?;
        let mut accounts = Vec::new();
        for a in &t.accounts {
            let role = a
                .role
                .as_deref()
                .and_then(Role::parse)
                .ok_or_else(|| anyhow::anyhow!("{}: unknown role", a.email))?;
            accounts.push(NewAccount {
                email: Email::parse(&a.email).map_err(|e| anyhow::anyhow!(e.message))?,
                name: PersonName::parse(&a.name).map_err(|e| anyhow::anyhow!(e.message))?,
                role,
                password_hash: hash.clone(),
            });
            seeded += 1;
        }
        provision_in(&mut tx, names, &spec, &accounts, &actor)
            .await
            .map_err(|e| anyhow::anyhow!("tenant {}: {}", t.client_id, e.message))?;
    }
    for a in &platform.accounts {
        let account = NewAccount {
            email: Email::parse(&a.email).map_err(|e| anyhow::anyhow!(e.message))?,
            name: PersonName::parse(&a.name).map_err(|e| anyhow::anyhow!(e.message))?,
            role: Role::PlatformAdmin,
            password_hash: hash.clone(),
        };
        insert_account(&mut tx, None, &account)
            .await
            .map_err(|e| anyhow::anyhow!("{}: {}", a.email, e.message))?;
        audit::record(
            &mut *tx,
            &actor,
            "platform_admin.create",
            None,
            Some(&a.email),
            serde_json::json!({}),
        )
        .await?;
        seeded += 1;
    }
    tx.commit().await?;
    Ok(seeded)
}
