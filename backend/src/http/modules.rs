//! Module switches: the parts of brandops an organisation's plan includes
//! ([`MODULES`], stored per tenant in `platform.tenants.modules`) and which
//! API operations belong to each, decided by the operation's OpenAPI tag
//! ([`module_of`]). The security schemes (`security.rs`) refuse a tenant's
//! member an operation of a module their organisation does not have (403
//! `module_disabled`); operations of no module (sign-in, profile, users,
//! organisation, platform, health) are never refused.
//!
//! Infrastructure: this file imports nothing but the tags, so the guard and
//! the security schemes own the mapping without knowing any domain. A new
//! domain's tag gets its line in [`module_of`] (the match is exhaustive: it
//! does not compile without one) and in [`TAGS`] (the server refuses to
//! start when an operation's tag is missing there).

use poem_openapi::Tags;

use crate::http::tags::ApiTags;

/// The modules an organisation can have enabled: key (stored in
/// `platform.tenants.modules`) and the name people read.
pub const MODULES: &[(&str, &str)] = &[
    ("products", "Products"),
    ("codes", "Serialized codes"),
    ("labels", "Label printing"),
    ("scans", "Scan analytics"),
    ("dpp", "Digital product passport"),
    ("journey", "Product journey"),
    ("inventory", "Inventory"),
    ("procurement", "Procurement"),
    ("manufacturing", "Manufacturing"),
    ("qa", "QA and compliance"),
    ("logistics", "Logistics"),
    ("sales", "Sales and orders"),
    ("pricing", "Pricing"),
    ("invoices", "Invoices"),
    ("finance", "Financial metrics"),
    ("tasks", "Task board"),
    ("calendar", "Calendar"),
    ("client_tools", "Client code tools"),
];

/// The module (a key of [`MODULES`]) whose operations carry `tag`; `None`
/// for operations every organisation has.
pub const fn module_of(tag: &ApiTags) -> Option<&'static str> {
    match tag {
        ApiTags::Health
        | ApiTags::Auth
        | ApiTags::Users
        | ApiTags::Me
        | ApiTags::Organisation
        | ApiTags::Platform
        | ApiTags::Public => None,
        ApiTags::Products => Some("products"),
        ApiTags::Codes => Some("codes"),
        ApiTags::Labels => Some("labels"),
        // Scan analytics, and the consumers' reviews left on the scan page.
        ApiTags::Scans | ApiTags::Reviews => Some("scans"),
        ApiTags::Passports => Some("dpp"),
        ApiTags::Epcis => Some("journey"),
        ApiTags::Companies | ApiTags::BatchUpdates => Some("client_tools"),
        // The lot register belongs with the products it registers lots of.
        ApiTags::Lots => Some("products"),
        ApiTags::Quality => Some("qa"),
        ApiTags::Inventory => Some("inventory"),
        ApiTags::Suppliers | ApiTags::Procurement => Some("procurement"),
        ApiTags::Manufacturing => Some("manufacturing"),
        // Customers are who shipments go to (the sales issue reads them too).
        ApiTags::Customers | ApiTags::Logistics | ApiTags::Recalls => Some("logistics"),
        ApiTags::Pricing => Some("pricing"),
    }
}

/// Every tag, to find one by the name an operation's metadata gives.
pub const TAGS: &[ApiTags] = &[
    ApiTags::Health,
    ApiTags::Auth,
    ApiTags::Users,
    ApiTags::Me,
    ApiTags::Organisation,
    ApiTags::Platform,
    ApiTags::Products,
    ApiTags::Codes,
    ApiTags::Labels,
    ApiTags::Scans,
    ApiTags::Reviews,
    ApiTags::Epcis,
    ApiTags::Passports,
    ApiTags::Companies,
    ApiTags::BatchUpdates,
    ApiTags::Lots,
    ApiTags::Quality,
    ApiTags::Inventory,
    ApiTags::Suppliers,
    ApiTags::Customers,
    ApiTags::Procurement,
    ApiTags::Manufacturing,
    ApiTags::Logistics,
    ApiTags::Recalls,
    ApiTags::Pricing,
    ApiTags::Public,
];

/// The module of the operations tagged `name`: `Ok(None)` for a tag of no
/// module, an error for a name that is not one of [`TAGS`].
pub fn module_of_tag(name: &str) -> anyhow::Result<Option<&'static str>> {
    TAGS.iter()
        .find(|tag| tag.name() == name)
        .map(module_of)
        .ok_or_else(|| anyhow::anyhow!("tag {name} is missing from http::modules::TAGS"))
}

/// The name people read for the module `key` (the key itself when unknown).
pub fn module_name(key: &str) -> &str {
    MODULES
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(key, |(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_maps_to_a_known_module_or_none() {
        for tag in TAGS {
            assert_eq!(module_of_tag(tag.name()).unwrap(), module_of(tag));
            if let Some(key) = module_of(tag) {
                assert!(MODULES.iter().any(|(k, _)| *k == key), "{key}");
            }
        }
        assert!(module_of_tag("Nonsense").is_err());
    }

    #[test]
    fn module_keys_are_unique_and_named() {
        let mut keys: Vec<_> = MODULES.iter().map(|(k, _)| *k).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), MODULES.len());
        assert_eq!(module_name("dpp"), "Digital product passport");
        assert_eq!(module_name("unknown"), "unknown");
    }
}
