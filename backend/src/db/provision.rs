//! The database side of onboarding a tenant, run as the owner inside the
//! onboarding transaction: its PostgreSQL role and schema with their grants,
//! then its migrations; and the login roles every migration run checks. PostgreSQL's DDL (CREATE ROLE and CREATE SCHEMA
//! included) is transactional, so a failure at any later step of onboarding
//! leaves none of it behind. The rows of onboarding are in `tenants::store`.

use sqlx::{AssertSqlSafe, PgConnection};

use super::DbRoles;
use crate::tenancy::{Ident, TenantRef};

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

/// Creates the tenant's schema and LOGIN role (or resets a role left behind
/// by a dropped database of the same name: role names carry the database
/// name and roles are cluster-wide), gives the role its own schema only, as
/// its `search_path`, and the tenant group's rights on the platform's
/// `tenant_*` functions.
pub async fn create_schema_and_role(
    conn: &mut PgConnection,
    roles: &DbRoles,
    tenant: &TenantRef,
    role_exists: bool,
) -> Result<(), sqlx::Error> {
    let (schema, role) = (tenant.schema_name.as_str(), tenant.role_name.as_str());
    let create_role = if role_exists { "ALTER" } else { "CREATE" };
    sqlx::raw_sql(AssertSqlSafe(format!(
        "{create_role} ROLE \"{role}\" LOGIN INHERIT PASSWORD '{verifier}';
         CREATE SCHEMA \"{schema}\";
         REVOKE ALL ON SCHEMA \"{schema}\" FROM PUBLIC;
         GRANT USAGE ON SCHEMA \"{schema}\" TO \"{role}\";
         ALTER DEFAULT PRIVILEGES IN SCHEMA \"{schema}\"
             GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO \"{role}\";
         ALTER DEFAULT PRIVILEGES IN SCHEMA \"{schema}\"
             GRANT USAGE, SELECT ON SEQUENCES TO \"{role}\";
         GRANT \"{role}\" TO CURRENT_USER;",
        verifier = roles.scram_verifier(role),
    )))
    .execute(&mut *conn)
    .await?;
    tenant_login(conn, roles, tenant).await
}

/// Makes an existing tenant role what [`create_schema_and_role`] makes: a
/// LOGIN role with the password derived from the current secret, whose only
/// setting is its `search_path` (its schema), member of the tenant group and
/// of nothing else. Every migration run (each start) does this for every
/// tenant, so older tenants follow, a changed secret takes effect, and what a
/// tenant's own connection may change about its own role (PostgreSQL lets any
/// role set its own password and settings) is undone.
pub async fn tenant_login(
    conn: &mut PgConnection,
    roles: &DbRoles,
    tenant: &TenantRef,
) -> Result<(), sqlx::Error> {
    let (schema, role) = (tenant.schema_name.as_str(), tenant.role_name.as_str());
    revoke_memberships(conn, role, Some(&roles.tenant_group)).await?;
    sqlx::raw_sql(AssertSqlSafe(format!(
        "ALTER ROLE \"{role}\" LOGIN INHERIT NOCREATEDB NOCREATEROLE PASSWORD '{verifier}';
         ALTER ROLE \"{role}\" RESET ALL;
         ALTER ROLE \"{role}\" SET search_path = \"{schema}\";
         GRANT \"{group}\" TO \"{role}\";",
        verifier = roles.scram_verifier(role),
        group = roles.tenant_group,
    )))
    .execute(conn)
    .await?;
    Ok(())
}

/// The platform LOGIN role (DML on the platform tables, owner of the
/// platform functions, member of no role, its password derived from the
/// current secret) and the tenant group role (USAGE on the platform schema,
/// EXECUTE on its `tenant_*` functions).
pub async fn platform_roles(conn: &mut PgConnection, roles: &DbRoles) -> Result<(), sqlx::Error> {
    let (platform, group) = (roles.platform_role.as_str(), roles.tenant_group.as_str());
    let (platform_exists, group_exists) = role_exists(conn, platform, group).await?;
    if !group_exists {
        sqlx::raw_sql(AssertSqlSafe(format!("CREATE ROLE \"{group}\" NOLOGIN")))
            .execute(&mut *conn)
            .await?;
    }
    let verb = if platform_exists { "ALTER" } else { "CREATE" };
    sqlx::raw_sql(AssertSqlSafe(format!(
        "{verb} ROLE \"{platform}\" LOGIN NOINHERIT NOCREATEDB NOCREATEROLE PASSWORD '{verifier}';
         ALTER ROLE \"{platform}\" RESET ALL;",
        verifier = roles.scram_verifier(platform),
    )))
    .execute(&mut *conn)
    .await?;
    // An earlier design made this role a member of every tenant role.
    revoke_memberships(conn, platform, None).await?;
    sqlx::raw_sql(AssertSqlSafe(format!(
        "GRANT \"{platform}\" TO CURRENT_USER;
         GRANT USAGE ON SCHEMA platform TO \"{platform}\";
         GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA platform TO \"{platform}\";
         GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA platform TO \"{platform}\";
         REVOKE ALL ON platform.schema_migrations, platform.tenant_migrations FROM \"{platform}\";
         GRANT SELECT ON platform.schema_migrations, platform.tenant_migrations TO \"{platform}\";
         REVOKE ALL ON SCHEMA platform FROM \"{group}\";
         GRANT USAGE ON SCHEMA platform TO \"{group}\";
         REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA platform FROM PUBLIC, \"{group}\";"
    )))
    .execute(&mut *conn)
    .await?;
    // The functions run as the platform role, so they can do no more than it
    // can. Changing a function's owner needs the new owner to have CREATE on
    // the schema, which it is given for these statements only.
    let functions: Vec<(String, bool)> = sqlx::query_as(
        "SELECT p.oid::regprocedure::text, p.proname LIKE 'tenant\\_%'
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = 'platform' ORDER BY 1",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut sql = format!("GRANT CREATE ON SCHEMA platform TO \"{platform}\";");
    for (function, for_tenants) in &functions {
        sql.push_str(&format!(
            "ALTER FUNCTION {function} OWNER TO \"{platform}\";"
        ));
        if *for_tenants {
            sql.push_str(&format!(
                "GRANT EXECUTE ON FUNCTION {function} TO \"{group}\";"
            ));
        }
    }
    sql.push_str(&format!(
        "REVOKE CREATE ON SCHEMA platform FROM \"{platform}\";"
    ));
    sqlx::raw_sql(AssertSqlSafe(sql)).execute(conn).await?;
    Ok(())
}

async fn role_exists(
    conn: &mut PgConnection,
    a: &str,
    b: &str,
) -> Result<(bool, bool), sqlx::Error> {
    sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1),
                EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $2)",
    )
    .bind(a)
    .bind(b)
    .fetch_one(conn)
    .await
}

/// Revokes every role membership `role` has, except `keep`.
async fn revoke_memberships(
    conn: &mut PgConnection,
    role: &str,
    keep: Option<&str>,
) -> Result<(), sqlx::Error> {
    let granted: Vec<String> = sqlx::query_scalar(
        "SELECT quote_ident(g.rolname) FROM pg_auth_members m
         JOIN pg_roles g ON g.oid = m.roleid
         JOIN pg_roles r ON r.oid = m.member
         WHERE r.rolname = $1 AND g.rolname IS DISTINCT FROM $2",
    )
    .bind(role)
    .bind(keep)
    .fetch_all(&mut *conn)
    .await?;
    for group in granted {
        // quote_ident made `group` a valid identifier.
        sqlx::raw_sql(AssertSqlSafe(format!("REVOKE {group} FROM \"{role}\"")))
            .execute(&mut *conn)
            .await?;
    }
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

/// `SET LOCAL ROLE` and a transaction-local `search_path` for `tenant`: the
/// owner writing a new tenant's first rows as the tenant.
fn enter_tenant_sql(tenant: &TenantRef) -> String {
    // Both names were validated as plain lower-case identifiers when the tenant
    // was created and again when TenantRef was built; they never come from
    // request text.
    format!(
        "SET LOCAL ROLE \"{role}\"; SELECT set_config('search_path', '{schema}', true)",
        role = tenant.role_name.as_str(),
        schema = tenant.schema_name.as_str(),
    )
}
