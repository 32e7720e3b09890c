//! The demo tenants' stock (issue 22): the `[stock]` section of a tenant
//! file (products, locations, lots, receipts with their costs, transfers,
//! reservations and reorder rules) written the way the app writes them: on
//! the tenant's own connection, through the inventory's store and ledger
//! (`inventory::ledger::record_move`, `inventory::ledger::reserve`) and the
//! lot register (`lots::store::register`), with the audit rows, as the
//! tenant's first admin. Lot dates are days from the
//! seeding, so the expiry warnings show whenever the demo runs.
//!
//! A tenant is stocked once: when it has no location yet, all of its
//! section in one transaction, or nothing.

use std::collections::HashMap;

use anyhow::{Context, anyhow};
use chrono::{Days, NaiveDate, Utc};
use uuid::Uuid;

use super::definition::{StockEntry, TenantFile};
use crate::accounts::Email;
use crate::audit::Actor;
use crate::db::Db;
use crate::inventory::ledger::{self, MoveRequest};
use crate::inventory::{
    Currency, LocationCode, LocationKind, MoveReason, Quantity, QuantityOrZero, UnitCost, store,
};
use crate::lots::LotStatus;
use crate::lots::store::NewLot;
use crate::products::store::ProductFields;
use crate::products::{Gtin, ProductName, Skuid};
use crate::tenancy::store::all_tenant_refs;

/// Stocks every demo tenant that has a `[stock]` section and no location
/// yet; returns how many it stocked.
pub async fn seed_demo_stock(db: &Db, tenants: &[TenantFile]) -> anyhow::Result<usize> {
    let refs = all_tenant_refs(&db.owner).await?;
    let mut stocked = 0;
    for t in tenants {
        let Some(stock) = &t.stock else { continue };
        let tenant = refs
            .iter()
            .find(|r| r.client_id == t.client_id)
            .with_context(|| format!("tenant {} is not onboarded", t.client_id))?;
        let admin = t
            .accounts
            .iter()
            .find(|a| a.role.as_deref() == Some("admin"))
            .with_context(|| format!("tenant {}: no admin to stock it as", t.client_id))?;
        let email = Email::parse(&admin.email).map_err(|e| anyhow!(e.message))?;
        let mut owner = db.owner.acquire().await?;
        let (account_id, _) = crate::accounts::store::find_by_email(&mut owner, tenant.id, &email)
            .await?
            .with_context(|| format!("tenant {}: no account {}", t.client_id, admin.email))?;
        drop(owner);
        let actor = Actor {
            account_id: Some(account_id),
            email: admin.email.clone(),
            ip: None,
        };
        let mut tx = db.begin_tenant(tenant).await?;
        if !store::list_locations(&mut tx).await?.is_empty() {
            continue;
        }
        write_stock(&mut tx, &actor, &admin.name, stock, Utc::now().date_naive())
            .await
            .with_context(|| format!("tenant {}: demo stock", t.client_id))?;
        tx.commit().await?;
        stocked += 1;
    }
    Ok(stocked)
}

fn api(e: crate::http::error::ApiError) -> anyhow::Error {
    anyhow!(e.message)
}

fn day(today: NaiveDate, days: Option<i64>) -> anyhow::Result<Option<NaiveDate>> {
    days.map(|d| {
        let shifted = if d >= 0 {
            today.checked_add_days(Days::new(d.unsigned_abs()))
        } else {
            today.checked_sub_days(Days::new(d.unsigned_abs()))
        };
        shifted.context("a lot date out of range")
    })
    .transpose()
}

async fn write_stock(
    tx: &mut sqlx::PgConnection,
    actor: &Actor,
    actor_name: &str,
    stock: &StockEntry,
    today: NaiveDate,
) -> anyhow::Result<()> {
    let by = actor.account_id.context("the actor is an account")?;
    let mut products: HashMap<&str, (Uuid, String)> = HashMap::new();
    for p in &stock.products {
        let name = ProductName::parse(&p.name).map_err(api)?;
        let skuid = Skuid::parse(&p.skuid).map_err(api)?;
        let gtin = Gtin::parse(&p.gtin).map_err(api)?;
        if !crate::products::store::claim_gtin(tx, gtin.as_str()).await? {
            anyhow::bail!("GTIN {} is another organisation's", p.gtin);
        }
        let fields = ProductFields {
            product_name: Some(name.as_str()),
            skuid: Some(skuid.as_str()),
            gtin: Some(gtin.as_str()),
            category: None,
            product_description: None,
            attributes: None,
            company_id: None,
            requires_inspection: None,
            unit: None,
        };
        let product = crate::products::store::insert(tx, &fields, by).await?;
        products.insert(p.skuid.as_str(), (product.id, product.product_name));
    }
    let named = |skuid: &str| {
        products
            .get(skuid)
            .with_context(|| format!("no product {skuid} in the demo stock"))
    };
    let product = |skuid: &str| named(skuid).map(|(id, _)| *id);

    let mut locations: HashMap<&str, Uuid> = HashMap::new();
    for l in &stock.locations {
        let code = LocationCode::parse("code", &l.code).map_err(api)?;
        let kind = LocationKind::parse(&l.kind).with_context(|| format!("kind {}", l.kind))?;
        let parent = match &l.parent {
            None => None,
            Some(p) => Some(
                *locations
                    .get(p.as_str())
                    .with_context(|| format!("parent {p}"))?,
            ),
        };
        let id = Uuid::new_v4();
        ledger::add_location(tx, actor, id, &code, &l.name, kind, parent).await?;
        locations.insert(l.code.as_str(), id);
    }
    let location = |code: &str| {
        locations
            .get(code)
            .copied()
            .with_context(|| format!("no location {code} in the demo stock"))
    };

    let mut lots: HashMap<(&str, &str), Uuid> = HashMap::new();
    for l in &stock.lots {
        let product_id = product(&l.product)?;
        let lot = NewLot {
            product_id,
            number: &l.number,
            manufactured_on: day(today, l.manufactured_days)?,
            expires_on: day(today, l.expires_days)?,
            status: LotStatus::Released,
            reason: crate::lots::REGISTERED,
        };
        let id = crate::lots::store::register(tx, actor, actor_name, &lot)
            .await?
            .with_context(|| format!("lot {} of {} twice", l.number, l.product))?;
        lots.insert((l.product.as_str(), l.number.as_str()), id);
    }

    for m in &stock.moves {
        let reason =
            MoveReason::parse(&m.reason).with_context(|| format!("reason {}", m.reason))?;
        let unit_cost = m
            .unit_cost
            .as_deref()
            .map(|c| UnitCost::parse("unit_cost", c))
            .transpose()
            .map_err(api)?;
        let currency = m
            .currency
            .as_deref()
            .map(|c| Currency::parse("currency", c))
            .transpose()
            .map_err(api)?;
        let request = MoveRequest {
            product_id: product(&m.product)?,
            lot_id: *lots
                .get(&(m.product.as_str(), m.lot.as_str()))
                .with_context(|| format!("no lot {} of {}", m.lot, m.product))?,
            quantity: Quantity::parse("quantity", &m.quantity).map_err(api)?,
            from_location_id: m.from.as_deref().map(location).transpose()?,
            to_location_id: m.to.as_deref().map(location).transpose()?,
            reason,
            unit_cost,
            currency: currency.as_deref(),
            reference: m.reference.as_deref(),
        };
        ledger::record_move(tx, actor, &request)
            .await
            .map_err(api)?;
    }

    for r in &stock.reservations {
        let (product_id, name) = named(&r.product)?;
        let product_id = *product_id;
        let quantity = Quantity::parse("quantity", &r.quantity).map_err(api)?;
        let location_id = r.location.as_deref().map(location).transpose()?;
        ledger::create_reservation(
            tx,
            actor,
            Uuid::new_v4(),
            product_id,
            name,
            location_id,
            quantity,
            &r.reference,
        )
        .await
        .map_err(api)?;
    }

    for rule in &stock.reorder_rules {
        let product_id = product(&rule.product)?;
        let location_id = location(&rule.location)?;
        let min = QuantityOrZero::parse("min", &rule.min).map_err(api)?;
        let max = QuantityOrZero::parse("max", &rule.max).map_err(api)?;
        anyhow::ensure!(
            min <= max,
            "reorder rule of {}: min above max",
            rule.product
        );
        ledger::set_reorder_rule(tx, actor, product_id, location_id, min, max).await?;
    }
    Ok(())
}
