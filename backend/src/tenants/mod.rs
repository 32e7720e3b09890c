//! Tenants: one PostgreSQL schema and one PostgreSQL role per organisation.

pub mod api;
pub mod definition;
pub mod provision;
pub mod seed;

use poem_openapi::Enum;
use sqlx::PgExecutor;
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
        format!("{}:{}", self.kind.as_str(), self.client_id)
    }
}

/// Every tenant with the columns TenantRef needs, for migrations and tests.
pub async fn all_tenant_refs<'e>(db: impl PgExecutor<'e>) -> anyhow::Result<Vec<TenantRef>> {
    let rows: Vec<(Uuid, String, String, String, String)> = sqlx::query_as(
        "SELECT id, client_id, kind, schema_name, role_name FROM platform.tenants ORDER BY created_at, client_id",
    )
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(id, c, k, s, r)| TenantRef::from_columns(id, c, &k, &s, &r))
        .collect()
}

/// The modules an organisation can have enabled; keys are stored in
/// `platform.tenants.modules`.
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

/// The modules a new tenant gets when none are named: every brand module for
/// a brand, the client code tools for a client.
pub fn default_modules(kind: TenantKind) -> Vec<String> {
    MODULES
        .iter()
        .map(|(key, _)| *key)
        .filter(|key| (*key == "client_tools") == (kind == TenantKind::Client))
        .map(str::to_string)
        .collect()
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
