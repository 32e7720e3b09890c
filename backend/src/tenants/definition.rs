//! Declarative tenant definitions: `tenants/demo/*.toml` (see its README).

use std::path::Path;

use anyhow::Context;
use serde::Deserialize;

use super::TenantKind;

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct TenantFile {
    pub client_id: String,
    pub name: String,
    pub kind: TenantKind,
    pub schema: Option<String>,
    pub user_limit: i32,
    #[serde(default)]
    pub product_limit: Option<i32>,
    #[serde(default)]
    pub code_quota: Option<i64>,
    #[serde(default)]
    pub modules: Vec<String>,
    pub accounts: Vec<AccountEntry>,
    /// Companies the tenant operates (client A's CIN selector), checked as
    /// `createCompany` checks them.
    #[serde(default)]
    pub companies: Vec<CompanyEntry>,
    /// Demo stock (issue 22), seeded by `demo_stock` through the inventory
    /// ledger: products, locations, lots, moves, reservations, reorder rules.
    #[serde(default)]
    pub stock: Option<StockEntry>,
    /// Demo calls (issue 23: parties, purchase orders, bills of materials,
    /// manufacturing orders, shipments), sent by `demo_calls` to the API
    /// itself, in process, as the tenant's first admin, in order.
    #[serde(default)]
    pub demo_calls: Vec<DemoCall>,
}

/// One API call of a demo. Strings in `path` and `body` may name what the
/// calls before answered: `${name.field.0.field}` (a call's answer, saved
/// under its `name`), `${sku:SKU-ID}` (a product's id), `${location:CODE}`
/// (a location's id), `${today+N}` / `${today-N}` (a date N days from the
/// seeding).
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct DemoCall {
    /// The name its answer is saved under.
    #[serde(default)]
    pub name: Option<String>,
    /// `POST` (the default), `PUT`, `PATCH` or `DELETE`.
    #[serde(default)]
    pub method: Option<String>,
    pub path: String,
    #[serde(default)]
    pub body: Option<toml::Value>,
}

/// A demo tenant's stock. Products, locations and lots are named by their
/// SKU id, code and number; lot dates are days from the day of seeding, so
/// the expiry warnings show whenever the demo runs.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct StockEntry {
    #[serde(default)]
    pub products: Vec<StockProduct>,
    #[serde(default)]
    pub locations: Vec<StockLocation>,
    #[serde(default)]
    pub lots: Vec<StockLot>,
    #[serde(default)]
    pub moves: Vec<StockMoveEntry>,
    #[serde(default)]
    pub reservations: Vec<StockReservation>,
    #[serde(default)]
    pub reorder_rules: Vec<StockReorderRule>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct StockProduct {
    pub skuid: String,
    pub name: String,
    pub gtin: String,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct StockLocation {
    pub code: String,
    pub name: String,
    pub kind: String,
    /// The code of its parent, listed before it.
    #[serde(default)]
    pub parent: Option<String>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct StockLot {
    /// The product's SKU id.
    pub product: String,
    pub number: String,
    /// Days from the seeding (negative: in the past).
    #[serde(default)]
    pub manufactured_days: Option<i64>,
    #[serde(default)]
    pub expires_days: Option<i64>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct StockMoveEntry {
    pub reason: String,
    pub product: String,
    pub lot: String,
    pub quantity: String,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
    #[serde(default)]
    pub unit_cost: Option<String>,
    #[serde(default)]
    pub currency: Option<String>,
    #[serde(default)]
    pub reference: Option<String>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct StockReservation {
    pub product: String,
    pub quantity: String,
    #[serde(default)]
    pub location: Option<String>,
    pub reference: String,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct StockReorderRule {
    pub product: String,
    pub location: String,
    pub min: String,
    pub max: String,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct CompanyEntry {
    pub cin: String,
    pub name: String,
    pub registered_address: String,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct AccountEntry {
    pub email: String,
    pub name: String,
    #[serde(default)]
    pub role: Option<String>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PlatformFile {
    pub accounts: Vec<AccountEntry>,
}

/// The demo set: every tenant file in `dir` (sorted by name) and the platform
/// admins of `dir/platform.toml`.
pub fn load_demo(dir: &Path) -> anyhow::Result<(Vec<TenantFile>, PlatformFile)> {
    let mut tenants = Vec::new();
    let mut platform = None;
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read tenant definitions in {}", dir.display()))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        if path.file_stem().and_then(|s| s.to_str()) == Some("platform") {
            platform =
                Some(toml::from_str(&text).with_context(|| format!("in {}", path.display()))?);
        } else {
            tenants.push(toml::from_str(&text).with_context(|| format!("in {}", path.display()))?);
        }
    }
    let platform =
        platform.with_context(|| format!("{}/platform.toml is missing", dir.display()))?;
    Ok((tenants, platform))
}
