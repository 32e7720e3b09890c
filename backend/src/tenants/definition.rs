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
