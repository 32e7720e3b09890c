//! What the infrastructure knows of a tenant: its kind, its identifiers and
//! the [`TenantRef`] a request or a job carries to reach its schema.
//!
//! Infrastructure (`db`, `storage`, `jobs`, `http`) reaches a tenant only
//! through these types, so it never imports the `tenants` domain (which
//! onboards, limits and suspends tenants, and re-exports them). This
//! module imports nothing of the crate.
//!
//! - `mod.rs`: [`Ident`], [`TenantKind`], [`TenantRef`];
//! - `store.rs`: the platform queries that load `TenantRef`s (migrations,
//!   the job runner, the public pages).

pub mod store;

use poem_openapi::Enum;
use uuid::Uuid;

/// A lower-case SQL identifier (`^[a-z][a-z0-9_]{0,62}$`), safe to interpolate
/// into `SET LOCAL ROLE` and `search_path`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident(String);

impl Ident {
    pub fn parse(s: &str) -> Option<Self> {
        let ok = (1..=63).contains(&s.len())
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        ok.then(|| Self(s.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum TenantKind {
    Brand,
    Client,
}

impl TenantKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TenantKind::Brand => "brand",
            TenantKind::Client => "client",
        }
    }
    /// The Casbin domain of this kind's tenant `client_id`: `brand:acme`,
    /// `client:clientA`.
    pub fn access_domain(self, client_id: &str) -> String {
        format!("{}:{client_id}", self.as_str())
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "brand" => Some(Self::Brand),
            "client" => Some(Self::Client),
            _ => None,
        }
    }
}

/// What a request needs to know about its tenant.
#[derive(Clone, Debug)]
pub struct TenantRef {
    pub id: Uuid,
    pub client_id: String,
    pub kind: TenantKind,
    pub schema_name: Ident,
    pub role_name: Ident,
}

impl TenantRef {
    /// Builds a TenantRef from stored columns, refusing anything that is not a
    /// plain identifier (the table's CHECK constraints say the same).
    pub fn from_columns(
        id: Uuid,
        client_id: String,
        kind: &str,
        schema: &str,
        role: &str,
    ) -> Result<Self, anyhow::Error> {
        Ok(Self {
            id,
            client_id,
            kind: TenantKind::parse(kind)
                .ok_or_else(|| anyhow::anyhow!("tenant {id}: unknown kind {kind:?}"))?,
            schema_name: Ident::parse(schema)
                .ok_or_else(|| anyhow::anyhow!("tenant {id}: bad schema name"))?,
            role_name: Ident::parse(role)
                .ok_or_else(|| anyhow::anyhow!("tenant {id}: bad role name"))?,
        })
    }

    /// The Casbin domain of this tenant's users: `brand:acme`, `client:clientA`.
    pub fn access_domain(&self) -> String {
        self.kind.access_domain(&self.client_id)
    }
}

#[cfg(test)]
mod tests {
    use super::Ident;

    #[test]
    fn idents() {
        assert!(Ident::parse("brand_acme").is_some());
        assert!(Ident::parse("client_a").is_some());
        for bad in [
            "",
            "Brand",
            "1abc",
            "a-b",
            "a b",
            "a\"b",
            "a;drop",
            &"a".repeat(64),
        ] {
            assert!(Ident::parse(bad).is_none(), "{bad}");
        }
    }
}
