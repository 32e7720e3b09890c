//! The database side of onboarding a tenant, run as the owner inside the
//! onboarding transaction: its PostgreSQL role and schema with their grants,
//! then its migrations. PostgreSQL's DDL (CREATE ROLE and CREATE SCHEMA
//! included) is transactional, so a failure at any later step of onboarding
//! leaves none of it behind. The rows of onboarding are in `tenants::store`.

use sqlx::{AssertSqlSafe, PgConnection};

use super::{DbNames, enter_tenant_sql};
use crate::tenants::{Ident, TenantRef};

/// Whether a schema or a role of these names already exists in the cluster.
pub async fn existing(
    conn: &mut PgConnection,
    schema: &Ident,
    role: &Ident,
) -> Result<(bool, bool), sqlx::Error> {
    sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1),
                EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $2)",
    )
    .bind(schema.as_str())
    .bind(role.as_str())
    .fetch_one(conn)
    .await
}

/// Creates the tenant's schema and role (or resets a role left behind by a
/// dropped database of the same name: role names carry the database name and
/// roles are cluster-wide), gives the role its own schema only, and lets the
/// runtime role switch into it.
pub async fn create_schema_and_role(
    conn: &mut PgConnection,
    names: &DbNames,
    tenant: &TenantRef,
    role_exists: bool,
) -> Result<(), sqlx::Error> {
    let (schema, role, runtime) = (
        tenant.schema_name.as_str(),
        tenant.role_name.as_str(),
        names.runtime_role.as_str(),
    );
    let create_role = if role_exists { "ALTER" } else { "CREATE" };
    sqlx::raw_sql(AssertSqlSafe(format!(
        "{create_role} ROLE \"{role}\" NOLOGIN NOINHERIT;
         CREATE SCHEMA \"{schema}\";
         REVOKE ALL ON SCHEMA \"{schema}\" FROM PUBLIC;
         GRANT USAGE ON SCHEMA \"{schema}\" TO \"{role}\";
         ALTER DEFAULT PRIVILEGES IN SCHEMA \"{schema}\"
             GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO \"{role}\";
         ALTER DEFAULT PRIVILEGES IN SCHEMA \"{schema}\"
             GRANT USAGE, SELECT ON SEQUENCES TO \"{role}\";
         GRANT \"{role}\" TO \"{runtime}\";
         GRANT \"{role}\" TO CURRENT_USER;"
    )))
    .execute(conn)
    .await?;
    Ok(())
}

/// Runs the rest of the owner's transaction as the tenant, in its schema, as
/// a request would (for a new tenant's first rows).
pub async fn enter_as_tenant(
    conn: &mut PgConnection,
    tenant: &TenantRef,
) -> Result<(), sqlx::Error> {
    sqlx::raw_sql(AssertSqlSafe(enter_tenant_sql(tenant)))
        .execute(conn)
        .await?;
    Ok(())
}

/// Back to the owner after [`enter_as_tenant`], with the default search path.
pub async fn leave_tenant(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::raw_sql("RESET ROLE; SELECT set_config('search_path', '\"$user\", public', true)")
        .execute(conn)
        .await?;
    Ok(())
}
