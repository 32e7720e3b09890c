//! Seeding the demo tenants of `tenants/demo/` into an empty database.

use std::path::Path;

use sqlx::PgPool;

use super::definition::load_demo;
use super::{FirstAccount, Onboarding, onboard, store};
use crate::accounts::{Email, NewAccount, PersonName, Role};
use crate::audit::{self, Actor};
use crate::auth::password::Passwords;
use crate::companies::{Cin, CompanyName, RegisteredAddress};
use crate::db::DbRoles;
use crate::db::provision::{enter_as_tenant, leave_tenant};

/// Seeds every demo tenant and platform admin when the database holds no
/// tenant yet; returns how many accounts it created (0: nothing seeded).
pub async fn seed_demo_if_empty(
    owner: &PgPool,
    roles: &DbRoles,
    dir: &Path,
    password: &str,
) -> anyhow::Result<usize> {
    if store::any_tenant(owner).await? {
        return Ok(0);
    }
    let (tenants, platform) = load_demo(dir)?;
    let passwords = Passwords::new(2)?;
    let actor = Actor::cli();
    let mut seeded = 0;
    // One transaction for the whole demo set: all of it or none of it.
    let mut tx = owner.begin().await?;
    for t in &tenants {
        let fail = |message: String| anyhow::anyhow!("tenant {}: {message}", t.client_id);
        let mut accounts = Vec::new();
        for a in &t.accounts {
            let role = a
                .role
                .as_deref()
                .and_then(Role::parse)
                .ok_or_else(|| fail(format!("{}: unknown role", a.email)))?;
            accounts.push(FirstAccount {
                email: a.email.clone(),
                name: a.name.clone(),
                role,
                password: password.to_string(),
            });
        }
        seeded += accounts.len();
        let request = Onboarding {
            client_id: t.client_id.clone(),
            name: t.name.clone(),
            kind: t.kind,
            schema: t.schema.clone(),
            user_limit: t.user_limit,
            product_limit: t.product_limit,
            code_quota: t.code_quota,
            modules: Some(t.modules.clone()),
            accounts,
        };
        let prepared = request
            .prepare(&passwords)
            .await
            .map_err(|e| fail(e.message))?;
        let tenant = onboard(&mut tx, roles, &prepared, &actor)
            .await
            .map_err(|e| fail(e.message))?;
        if !t.companies.is_empty() {
            enter_as_tenant(&mut tx, &tenant).await?;
            for c in &t.companies {
                let cin = Cin::parse(&c.cin).map_err(|e| fail(e.message))?;
                let name = CompanyName::parse(&c.name).map_err(|e| fail(e.message))?;
                let address =
                    RegisteredAddress::parse(&c.registered_address).map_err(|e| fail(e.message))?;
                crate::companies::store::insert(
                    &mut tx,
                    uuid::Uuid::new_v4(),
                    cin.as_str(),
                    name.as_str(),
                    address.as_str(),
                    None,
                )
                .await?;
            }
            leave_tenant(&mut tx).await?;
        }
    }
    let hash = passwords.hash(password).await?;
    for a in &platform.accounts {
        let fail = |message: String| anyhow::anyhow!("{}: {message}", a.email);
        let account = NewAccount {
            email: Email::parse(&a.email).map_err(|e| fail(e.message))?,
            name: PersonName::parse(&a.name).map_err(|e| fail(e.message))?,
            role: Role::PlatformAdmin,
            password_hash: hash.clone(),
        };
        crate::accounts::store::insert_account(&mut tx, None, &account)
            .await
            .map_err(|e| fail(e.message))?;
        let detail = serde_json::json!({});
        audit::record(
            &mut *tx,
            &actor,
            "platform_admin.create",
            None,
            Some(&a.email),
            detail,
        )
        .await?;
        seeded += 1;
    }
    tx.commit().await?;
    Ok(seeded)
}
