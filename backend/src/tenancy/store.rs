//! The platform queries that load [`TenantRef`]s from `platform.tenants`.

use sqlx::PgExecutor;
use uuid::Uuid;

use super::TenantRef;

/// The columns of `platform.tenants` a [`TenantRef`] is built from: a query
/// selects `id, client_id, kind, schema_name, role_name` into it, then
/// [`TenantRefRow::into_ref`] checks them.
#[derive(sqlx::FromRow)]
pub struct TenantRefRow {
    pub id: Uuid,
    pub client_id: String,
    pub kind: String,
    pub schema_name: String,
    pub role_name: String,
}

impl TenantRefRow {
    pub fn into_ref(self) -> anyhow::Result<TenantRef> {
        TenantRef::from_columns(
            self.id,
            self.client_id,
            &self.kind,
            &self.schema_name,
            &self.role_name,
        )
    }
}

/// Every tenant with the columns TenantRef needs, for migrations and tests.
pub async fn all_tenant_refs<'e>(db: impl PgExecutor<'e>) -> anyhow::Result<Vec<TenantRef>> {
    let rows: Vec<TenantRefRow> = sqlx::query_as(
        "SELECT id, client_id, kind, schema_name, role_name FROM platform.tenants ORDER BY created_at, client_id",
    )
    .fetch_all(db)
    .await?;
    rows.into_iter().map(TenantRefRow::into_ref).collect()
}

/// The tenant with this id, when it is active (a suspended one's jobs wait,
/// and the public scan page adds nothing to it).
pub async fn active_tenant<'e>(
    db: impl PgExecutor<'e>,
    tenant_id: Uuid,
) -> anyhow::Result<Option<TenantRef>> {
    let row: Option<TenantRefRow> = sqlx::query_as(
        "SELECT id, client_id, kind, schema_name, role_name FROM platform.tenants
         WHERE id = $1 AND status = 'active'",
    )
    .bind(tenant_id)
    .fetch_optional(db)
    .await?;
    row.map(TenantRefRow::into_ref).transpose()
}
