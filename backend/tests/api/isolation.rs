//! Isolation that holds against any statement (ADR 0010): from inside a
//! tenant's own connection, as injected SQL would try, nothing reaches
//! another tenant or the platform's secrets; platform connections reach no
//! tenant schema; the platform functions act only for the calling tenant;
//! canary rows never cross; the connection cap holds.
//!
//! `make test` runs this module twice: straight to PostgreSQL, and with the
//! tenant connections going through PgBouncer in transaction mode
//! (`TEST_PGBOUNCER_URL`).

use std::str::FromStr;
use std::sync::Arc;

use brandops::accounts::Role;
use brandops::db::TenantTx;
use reqwest::StatusCode;
use serde_json::json;
use sqlx::postgres::PgConnectOptions;
use sqlx::{AssertSqlSafe, Connection, PgConnection, Row};

use crate::helpers::{TestApp, TestTenant, pooler_url};

fn sqlstate(err: &sqlx::Error) -> Option<String> {
    match err {
        sqlx::Error::Database(db) => db.code().map(|c| c.to_string()),
        _ => None,
    }
}

/// Runs `sql` (one or more statements, simple protocol: as an injected
/// string would arrive) and returns the error PostgreSQL answered, if any.
async fn inject(tx: &mut TenantTx, sql: &str) -> Result<(), sqlx::Error> {
    sqlx::raw_sql(AssertSqlSafe(sql.to_string()))
        .execute(&mut **tx)
        .await
        .map(|_| ())
}

fn refused(result: Result<(), sqlx::Error>, what: &str) {
    let err = result.expect_err(&format!("{what}: PostgreSQL allowed it"));
    assert_eq!(
        sqlstate(&err).as_deref(),
        Some("42501"),
        "{what}: expected permission denied, got {err}"
    );
}

/// What A's connection can see of B: B's display name, through every door
/// an attacker would try after their statement ran.
async fn reaches_b(tx: &mut TenantTx, b: &TestTenant) -> Vec<String> {
    let mut reached = Vec::new();
    for sql in [
        format!("SELECT display_name FROM {}.org_settings", b.schema),
        "SELECT display_name FROM org_settings WHERE display_name LIKE '%B-canary%'".into(),
        "SELECT email FROM platform.accounts".into(),
        "SELECT account_id::text FROM platform.sessions".into(),
        "SELECT version::text FROM platform.tenant_migrations".into(),
    ] {
        // Each probe in a savepoint, so one refusal does not end the others.
        let _ = inject(tx, "SAVEPOINT probe").await;
        match sqlx::query_scalar::<_, String>(AssertSqlSafe(sql.clone()))
            .fetch_all(&mut **tx)
            .await
        {
            Ok(rows) if !rows.is_empty() => reached.push(format!("{sql} -> {rows:?}")),
            _ => {}
        }
        let _ = inject(tx, "ROLLBACK TO SAVEPOINT probe").await;
    }
    reached
}

async fn two_brands(app: &TestApp) -> (TestTenant, TestTenant) {
    let (a, b) = (app.brand().await, app.brand().await);
    sqlx::query(AssertSqlSafe(format!(
        "UPDATE {}.org_settings SET display_name = 'B-canary'",
        b.schema
    )))
    .execute(&app.owner)
    .await
    .unwrap();
    (a, b)
}

async fn owner_name(app: &TestApp) -> String {
    sqlx::query_scalar("SELECT current_user::text")
        .fetch_one(&app.owner)
        .await
        .unwrap()
}

#[tokio::test]
async fn injected_role_switches_are_refused_or_gain_nothing() {
    let app = TestApp::spawn().await;
    let (a, b) = two_brands(&app).await;
    let db = &app.state.db;
    let owner = owner_name(&app).await;
    let b_role = b.tenant.role_name.as_str();
    let platform_role = db.roles.platform_role.clone();

    // The connection is A's own login: no role to fall back to.
    let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
    let who: (String, String) = sqlx::query_as("SELECT session_user::text, current_user::text")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(who.0, a.tenant.role_name.as_str());
    assert_eq!(who.1, who.0);
    assert!(reaches_b(&mut tx, &b).await.is_empty());

    // RESET ROLE and SET ROLE NONE succeed, and change nothing.
    for sql in ["RESET ROLE", "SET LOCAL ROLE NONE", "SET ROLE NONE"] {
        inject(&mut tx, sql).await.unwrap();
        let current: String = sqlx::query_scalar("SELECT current_user::text")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        assert_eq!(current, a.tenant.role_name.as_str(), "{sql}");
        assert_eq!(reaches_b(&mut tx, &b).await, Vec::<String>::new(), "{sql}");
    }
    drop(tx);

    // Switching to another role, by any statement, is refused.
    for sql in [
        format!("SET ROLE \"{b_role}\""),
        format!("SET LOCAL ROLE \"{b_role}\""),
        format!("SET ROLE \"{platform_role}\""),
        format!("SET ROLE \"{owner}\""),
        format!("SET SESSION AUTHORIZATION \"{owner}\""),
        format!("SET SESSION AUTHORIZATION \"{b_role}\""),
        format!("SET SESSION AUTHORIZATION \"{platform_role}\""),
        format!("SELECT set_config('role', '{b_role}', true)"),
        format!("SELECT set_config('role', '{b_role}', false)"),
        format!("SELECT set_config('role', '{owner}', true)"),
        format!("SELECT set_config('role', '{platform_role}', true)"),
        format!("SELECT set_config('session_authorization', '{owner}', true)"),
        format!("SET ROLE \"{}\"", db.roles.tenant_group),
    ] {
        let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
        let result = inject(&mut tx, &sql).await;
        if sql.contains(&db.roles.tenant_group) {
            // A's role is a member of the tenant group, which owns nothing
            // and can read no table: switching to it gains nothing.
            result.unwrap();
            assert!(reaches_b(&mut tx, &b).await.is_empty(), "{sql}");
        } else {
            refused(result, &sql);
        }
        drop(tx);
    }
}

#[tokio::test]
async fn injected_reads_and_writes_outside_the_own_schema_are_refused() {
    let app = TestApp::spawn().await;
    let (a, b) = two_brands(&app).await;
    let db = &app.state.db;

    // Another schema on the search path: its tables stay out of reach.
    let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
    inject(
        &mut tx,
        &format!("SET search_path TO {}, platform, public", b.schema),
    )
    .await
    .unwrap();
    let err = sqlx::query_scalar::<_, String>("SELECT display_name FROM org_settings")
        .fetch_one(&mut *tx)
        .await
        .unwrap_err();
    // Without USAGE on B's schema PostgreSQL does not even look in it.
    assert_eq!(sqlstate(&err).as_deref(), Some("42P01"), "{err}");
    drop(tx);

    for sql in [
        format!("SELECT * FROM {}.org_settings", b.schema),
        format!("UPDATE {}.org_settings SET display_name = 'x'", b.schema),
        format!(
            "INSERT INTO {}.user_preferences (account_id) VALUES (gen_random_uuid())",
            b.schema
        ),
        "SELECT * FROM platform.accounts".into(),
        "SELECT password_hash FROM platform.accounts".into(),
        "SELECT * FROM platform.sessions".into(),
        "SELECT * FROM platform.login_throttle".into(),
        "SELECT * FROM platform.audit_log".into(),
        "SELECT * FROM platform.tenants".into(),
        "INSERT INTO platform.tenant_migrations (tenant_id, version, checksum) SELECT id, 99, '' FROM platform.tenants".into(),
        "DELETE FROM platform.tenant_migrations".into(),
        "UPDATE platform.tenants SET user_limit = 100000".into(),
        format!("CREATE TABLE {}.evil (i int)", b.schema),
        format!("CREATE TABLE {}.evil (i int)", a.schema),
        "CREATE TABLE platform.evil (i int)".into(),
        "CREATE TABLE public.evil (i int)".into(),
        "CREATE SCHEMA evil".into(),
        "CREATE FUNCTION public.evil() RETURNS int LANGUAGE sql AS 'SELECT 1'".into(),
        format!("ALTER TABLE {}.org_settings ADD COLUMN evil int", a.schema),
        format!("DROP TABLE {}.org_settings", b.schema),
        format!("GRANT USAGE ON SCHEMA {} TO PUBLIC", b.schema),
        "SELECT platform.caller_tenant(false)".into(),
        "SELECT pg_read_file('postgresql.conf')".into(),
        format!("ALTER ROLE \"{}\" SET search_path = {}", b.tenant.role_name.as_str(), a.schema),
        format!("ALTER ROLE \"{}\" PASSWORD 'x'", b.tenant.role_name.as_str()),
        format!("ALTER ROLE \"{}\" PASSWORD 'x'", db.roles.platform_role),
        format!("CREATE ROLE evil LOGIN IN ROLE \"{}\"", b.tenant.role_name.as_str()),
    ] {
        let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
        refused(inject(&mut tx, &sql).await, &sql);
        drop(tx);
    }

    // Nothing of B changed.
    let name: String = sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT display_name FROM {}.org_settings",
        b.schema
    )))
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(name, "B-canary");
}

#[tokio::test]
async fn platform_connections_reach_no_tenant_schema() {
    let app = TestApp::spawn().await;
    let (a, _) = two_brands(&app).await;
    let db = &app.state.db;
    let a_role = a.tenant.role_name.as_str();
    for sql in [
        format!("SELECT * FROM {}.org_settings", a.schema),
        format!("UPDATE {}.org_settings SET display_name = 'x'", a.schema),
        format!("DELETE FROM {}.user_preferences", a.schema),
        format!("CREATE TABLE {}.evil (i int)", a.schema),
        format!("SET ROLE \"{a_role}\""),
        format!("SELECT set_config('role', '{a_role}', false)"),
        format!("SET SESSION AUTHORIZATION \"{a_role}\""),
        format!("SET ROLE \"{}\"", db.roles.tenant_group),
        "CREATE TABLE platform.evil (i int)".into(),
        "INSERT INTO platform.tenant_migrations (tenant_id, version, checksum) SELECT id, 99, '' FROM platform.tenants".into(),
        format!("ALTER ROLE \"{a_role}\" PASSWORD 'x'"),
    ] {
        let mut conn = db.platform.acquire().await.unwrap();
        let err = sqlx::raw_sql(AssertSqlSafe(sql.clone()))
            .execute(&mut *conn)
            .await
            .expect_err(&sql);
        assert_eq!(sqlstate(&err).as_deref(), Some("42501"), "{sql}: {err}");
    }
    // And its session role is its own login, a member of no role.
    let memberships: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member
         WHERE r.rolname = session_user",
    )
    .fetch_one(&db.platform)
    .await
    .unwrap();
    assert_eq!(memberships, 0);
    // The tenant functions act for no one on a platform connection.
    let err = sqlx::query("SELECT platform.tenant_audit('organisation.x', 't', '{}', NULL, NULL)")
        .execute(&db.platform)
        .await
        .unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("42501"), "{err}");
}

#[tokio::test]
async fn tenant_functions_act_only_for_the_calling_tenant() {
    let app = TestApp::spawn().await;
    let (a, b) = two_brands(&app).await;
    let db = &app.state.db;
    let id_of = |email: String| {
        let owner = app.owner.clone();
        async move {
            sqlx::query_scalar::<_, uuid::Uuid>("SELECT id FROM platform.accounts WHERE email = $1")
                .bind(email)
                .fetch_one(&owner)
                .await
                .unwrap()
        }
    };
    let a_admin = id_of(a.admin.clone()).await;
    let b_admin = id_of(b.admin.clone()).await;
    let b_worker = id_of(app.account(&b, Role::Worker).await).await;

    // An injected call naming B's account from A's connection removes nothing.
    let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
    let removed: Option<String> =
        sqlx::query_scalar("SELECT platform.tenant_remove_account($1, $2, NULL)")
            .bind(b_worker)
            .bind(a_admin)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    assert_eq!(removed, None);
    tx.commit().await.unwrap();

    // Acting as B's admin from A's connection is refused.
    for (sql, actor) in [
        (
            "SELECT platform.tenant_remove_account($1, $2, NULL)::text",
            b_admin,
        ),
        (
            "SELECT platform.tenant_add_account('x@evil.test', 'X', 'worker', '$argon2id$x', $2, NULL)::text WHERE $1::uuid IS NOT NULL",
            b_admin,
        ),
        (
            "SELECT platform.tenant_audit('organisation.rename', 'x', '{}', $2, NULL)::text WHERE $1::uuid IS NOT NULL",
            b_admin,
        ),
    ] {
        let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
        let err = sqlx::query(AssertSqlSafe(sql))
            .bind(b_worker)
            .bind(actor)
            .execute(&mut *tx)
            .await
            .unwrap_err();
        assert_eq!(sqlstate(&err).as_deref(), Some("42501"), "{sql}: {err}");
    }

    // A role the organisation cannot give, and a limit it cannot pass, from
    // its own connection either.
    let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
    let err = sqlx::query(
        "SELECT platform.tenant_add_account('x@evil.test', 'X', 'admin', '$argon2id$x', $1, NULL)",
    )
    .bind(a_admin)
    .execute(&mut *tx)
    .await
    .unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("22023"), "{err}");
    drop(tx);
    sqlx::query("UPDATE platform.tenants SET user_limit = 1 WHERE id = $1")
        .bind(a.tenant.id)
        .execute(&app.owner)
        .await
        .unwrap();
    let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
    let err = sqlx::query(
        "SELECT platform.tenant_add_account('x@evil.test', 'X', 'worker', '$argon2id$x', $1, NULL)",
    )
    .bind(a_admin)
    .execute(&mut *tx)
    .await
    .unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("BO001"), "{err}");
    drop(tx);

    // B still has its worker, and no account was added anywhere.
    let (b_count, evil): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM platform.accounts WHERE id = $1),
                (SELECT count(*) FROM platform.accounts WHERE email = 'x@evil.test')",
    )
    .bind(b_worker)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!((b_count, evil), (1, 0));
}

/// `platform.tenant_audit` (through `audit::record_own_tenant`) records for
/// the calling tenant only, as one of its accounts, under a domain's prefix:
/// an injected call cannot write a row as another tenant's account, nor an
/// action the platform records itself (`user.add`, `tenant.create`, …), nor
/// change which prefixes are allowed.
#[tokio::test]
async fn tenant_audit_rows_are_the_callers_own_under_a_domains_prefix() {
    let app = TestApp::spawn().await;
    let (a, b) = two_brands(&app).await;
    let db = &app.state.db;
    let account = |email: String| {
        let owner = app.owner.clone();
        async move {
            sqlx::query_scalar::<_, uuid::Uuid>("SELECT id FROM platform.accounts WHERE email = $1")
                .bind(email)
                .fetch_one(&owner)
                .await
                .unwrap()
        }
    };
    let a_admin = account(a.admin.clone()).await;
    let b_admin = account(b.admin.clone()).await;
    let rows = async || -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM platform.audit_log WHERE target = 'audit-probe'")
            .fetch_one(&app.owner)
            .await
            .unwrap()
    };

    // Another tenant's account, or no account, as the actor: refused, even
    // with an allowed action.
    for actor in [Some(b_admin), None] {
        let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
        let err = sqlx::query(
            "SELECT platform.tenant_audit('passport.saved', 'audit-probe', '{}', $1, NULL)",
        )
        .bind(actor)
        .execute(&mut *tx)
        .await
        .unwrap_err();
        assert_eq!(sqlstate(&err).as_deref(), Some("42501"), "{actor:?}: {err}");
    }

    // The platform's own actions, unknown prefixes and malformed names:
    // refused.
    for action in [
        "user.add",
        "user.remove",
        "tenant.create",
        "tenant.limits",
        "auth.login",
        "platform_admin.create",
        "widget.created",
        "passport",
        "passport.",
        ".saved",
        "Passport.saved",
        "passport.Saved",
        "passport.saved.twice",
        "passport.saved;",
        " passport.saved",
        "passports.saved",
        "organisation_x.rename",
        "",
    ] {
        let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
        let err = sqlx::query("SELECT platform.tenant_audit($1, 'audit-probe', '{}', $2, NULL)")
            .bind(action)
            .bind(a_admin)
            .execute(&mut *tx)
            .await
            .unwrap_err();
        assert_eq!(
            sqlstate(&err).as_deref(),
            Some("22023"),
            "{action:?}: {err}"
        );
    }
    let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
    let err = sqlx::query("SELECT platform.tenant_audit(NULL, 'audit-probe', '{}', $1, NULL)")
        .bind(a_admin)
        .execute(&mut *tx)
        .await
        .unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("22023"), "{err}");
    drop(tx);

    // The list of prefixes is out of a tenant's reach.
    for sql in [
        "SELECT * FROM platform.tenant_audit_domains",
        "INSERT INTO platform.tenant_audit_domains (prefix, domain) VALUES ('user_x', 'x')",
        "UPDATE platform.tenant_audit_domains SET prefix = 'user_x' WHERE prefix = 'passport'",
        "DELETE FROM platform.tenant_audit_domains",
    ] {
        let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
        refused(inject(&mut tx, sql).await, sql);
    }
    assert_eq!(rows().await, 0, "nothing refused was recorded");

    // Each domain's prefix is recorded, always for the calling tenant and
    // its own account.
    let mut tx = db.begin_tenant(&a.tenant).await.unwrap();
    for action in [
        "organisation.rename",
        "company.added",
        "review.hidden",
        "scan.settings_changed",
        "batch_update.applied",
        "passport.saved",
    ] {
        brandops::audit::record_own_tenant(
            &mut tx,
            &brandops::audit::Actor {
                account_id: Some(a_admin),
                email: "ignored@example.test".into(),
                ip: Some("192.0.2.1".into()),
            },
            action,
            "audit-probe",
            json!({}),
        )
        .await
        .unwrap_or_else(|err| panic!("{action}: {err}"));
    }
    tx.commit().await.unwrap();
    let recorded: Vec<(uuid::Uuid, String, String)> = sqlx::query_as(
        "SELECT tenant_id, actor_email, action FROM platform.audit_log
         WHERE target = 'audit-probe' ORDER BY id",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    assert_eq!(recorded.len(), 6);
    // Never B's, whose admin was named above.
    for (tenant, email, action) in &recorded {
        assert_eq!((tenant, email), (&a.tenant.id, &a.admin), "{action}");
    }
}

#[tokio::test]
async fn login_roles_need_their_derived_password() {
    let app = TestApp::spawn().await;
    let (a, _) = two_brands(&app).await;
    let roles = &app.state.db.roles;
    let role = a.tenant.role_name.as_str();
    let url = PgConnectOptions::from_str(&app.database_url).unwrap();
    let mut conn = PgConnection::connect_with(
        &url.clone()
            .username(role)
            .password(&roles.password_for(role)),
    )
    .await
    .expect("the derived password logs in");
    let path: String = sqlx::query_scalar("SELECT current_setting('search_path')")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(path.trim_matches('"'), a.schema);
    conn.close().await.unwrap();
    for (user, password) in [
        (role.to_string(), "wrong".to_string()),
        (role.to_string(), roles.password_for(&roles.platform_role)),
        (roles.platform_role.clone(), roles.password_for(role)),
        (
            roles.tenant_group.clone(),
            roles.password_for(&roles.tenant_group),
        ),
    ] {
        let err = PgConnection::connect_with(&url.clone().username(&user).password(&password))
            .await
            .expect_err(&user);
        // 28P01: wrong password; 28000: a role that may not log in.
        assert!(
            matches!(sqlstate(&err).as_deref(), Some("28P01" | "28000")),
            "{user}: {err}"
        );
    }
}

/// PostgreSQL lets any role change its own password and settings, so an
/// injected statement can break its own tenant's next connections (never
/// reach another's). The next migration run, at every start, undoes it.
#[tokio::test]
async fn a_tenant_sabotaging_its_own_role_is_undone_at_the_next_start() {
    let app = TestApp::spawn().await;
    let (a, b) = two_brands(&app).await;
    let roles = &app.state.db.roles;
    let role = a.tenant.role_name.as_str();
    let mut tx = app.state.db.begin_tenant(&a.tenant).await.unwrap();
    inject(
        &mut tx,
        &format!(
            "ALTER ROLE \"{role}\" PASSWORD 'chosen-by-attacker';
             ALTER ROLE \"{role}\" SET search_path = {};
             ALTER ROLE \"{role}\" SET default_transaction_read_only = on",
            b.schema
        ),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let options = PgConnectOptions::from_str(&app.database_url)
        .unwrap()
        .username(role)
        .password(&roles.password_for(role));
    let err = PgConnection::connect_with(&options).await.unwrap_err();
    assert_eq!(sqlstate(&err).as_deref(), Some("28P01"), "{err}");

    brandops::db::migrate::migrate_all(&app.owner, roles)
        .await
        .unwrap();
    let mut conn = PgConnection::connect_with(&options)
        .await
        .expect("the derived password works again");
    let (path, read_only): (String, String) = sqlx::query_as(
        "SELECT current_setting('search_path'), current_setting('default_transaction_read_only')",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(
        (path.trim_matches('"'), read_only.as_str()),
        (a.schema.as_str(), "off")
    );
}

#[tokio::test]
async fn canary_rows_never_cross_tenants_with_one_tenant_pool_at_a_time() {
    // Room for a single tenant pool of one connection: every request of the
    // other tenant closes it and opens its own.
    let app = TestApp::spawn_with(|s| {
        s.db_max_connections = 5;
        s.db_tenant_pool_size = 1;
    })
    .await;
    assert_eq!(app.state.db.tenants.budget().max_pools, 1);
    let (a, b) = (app.brand().await, app.brand().await);
    let tenants = [(&a, "canary-a", "dark"), (&b, "canary-b", "light")];
    for (t, canary, _) in tenants {
        sqlx::query(AssertSqlSafe(format!(
            "UPDATE {}.org_settings SET display_name = $1",
            t.schema
        )))
        .bind(canary)
        .execute(&app.owner)
        .await
        .unwrap();
    }
    let clients = [app.login(&a.admin).await, app.login(&b.admin).await];
    for round in 0..20 {
        for (c, (_, canary, theme)) in clients.iter().zip(tenants) {
            let (status, org) = c.get("/api/organisation").await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(org["name"], canary, "round {round}");
            let landing = format!("/products/{round}");
            let (status, _) = c
                .put(
                    "/api/me/preferences",
                    json!({"theme": theme, "landingPage": landing}),
                )
                .await;
            assert_eq!(status, StatusCode::OK);
            let (_, prefs) = c.get("/api/me/preferences").await;
            assert_eq!(
                (prefs["theme"].as_str(), prefs["landingPage"].as_str()),
                (Some(theme), Some(landing.as_str()))
            );
        }
    }
    // Each schema holds only its own tenant's rows.
    for (t, _, _) in tenants {
        let (foreign, own): (i64, i64) = sqlx::query_as(AssertSqlSafe(format!(
            "SELECT count(*) FILTER (WHERE NOT EXISTS (
                        SELECT 1 FROM platform.accounts a
                        WHERE a.id = p.account_id AND a.tenant_id = $1)),
                    count(*)
             FROM {}.user_preferences p",
            t.schema
        )))
        .bind(t.tenant.id)
        .fetch_one(&app.owner)
        .await
        .unwrap();
        assert_eq!((foreign, own), (0, 1), "{}", t.schema);
    }
}

/// The server's connections, as PostgreSQL counts them: every backend of
/// this database logged in as one of its roles (owner excluded). Through
/// PgBouncer, the tenant connections are the server's clients of PgBouncer
/// (PgBouncer's own backends are its business), counted on its console.
async fn server_connections(app: &TestApp, console: Option<&mut PgConnection>) -> i64 {
    let prefix = &app.state.db.roles.role_prefix;
    let direct: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_stat_activity
         WHERE datname = current_database() AND usename LIKE $1 || '\\_%'
           AND ($2 OR usename = $3)",
    )
    .bind(prefix)
    .bind(console.is_none())
    .bind(&app.state.db.roles.platform_role)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    let Some(console) = console else {
        return direct;
    };
    let database = &app.database_url[app.database_url.rfind('/').unwrap() + 1..];
    let clients = sqlx::raw_sql("SHOW CLIENTS")
        .fetch_all(console)
        .await
        .unwrap();
    let through_pooler = clients
        .iter()
        .filter(|r| {
            r.try_get::<String, _>("database")
                .is_ok_and(|d| d == database)
                && r.try_get::<String, _>("user")
                    .is_ok_and(|u| u.starts_with(&format!("{prefix}_")))
        })
        .count();
    direct + through_pooler as i64
}

/// A connection to PgBouncer's admin console, when the tests run through it.
async fn pooler_console() -> Option<PgConnection> {
    let mut url = reqwest::Url::parse(&pooler_url()?).unwrap();
    url.set_path("/pgbouncer");
    Some(PgConnection::connect(url.as_str()).await.unwrap())
}

#[tokio::test]
async fn many_tenants_at_once_stay_under_the_connection_cap() {
    let app = Arc::new(
        TestApp::spawn_with(|s| {
            s.db_max_connections = 10;
            s.db_tenant_pool_size = 2;
        })
        .await,
    );
    let budget = app.state.db.tenants.budget();
    let cap = i64::from(budget.total - brandops::db::Budget::OWNER);
    let mut tenants = Vec::new();
    for _ in 0..8 {
        tenants.push(app.brand().await);
    }
    let mut tasks = Vec::new();
    for (i, t) in tenants.iter().cycle().take(64).enumerate() {
        let (app, tenant) = (app.clone(), t.tenant.clone());
        tasks.push(tokio::spawn(async move {
            let mut tx = app.state.db.begin_tenant(&tenant).await.unwrap();
            let n: String = sqlx::query_scalar("SELECT display_name FROM org_settings")
                .fetch_one(&mut *tx)
                .await
                .unwrap();
            if i % 3 == 0 {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            drop(tx);
            n
        }));
    }
    let sampler = {
        let app = app.clone();
        tokio::spawn(async move {
            let mut console = pooler_console().await;
            let mut peak = 0;
            for _ in 0..200 {
                peak = peak.max(server_connections(&app, console.as_mut()).await);
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
            peak
        })
    };
    for (task, t) in tasks.into_iter().zip(tenants.iter().cycle()) {
        assert!(task.await.unwrap().starts_with(&t.client_id));
    }
    let peak = sampler.await.unwrap();
    assert!(peak <= cap, "peak {peak} connections, cap {cap}");
    let (pools, _) = app.state.db.tenants.open();
    assert!(pools <= budget.max_pools);
}

/// When the tests run through PgBouncer, prove the tenant connections really
/// went through it: its admin console lists a pool of A's role.
#[tokio::test]
async fn tenant_connections_go_through_the_configured_pooler() {
    let Some(mut console) = pooler_console().await else {
        return;
    };
    let app = TestApp::spawn().await;
    let (a, _) = two_brands(&app).await;
    let mut tx = app.state.db.begin_tenant(&a.tenant).await.unwrap();
    sqlx::query("SELECT 1").execute(&mut *tx).await.unwrap();
    let pools = sqlx::raw_sql("SHOW POOLS")
        .fetch_all(&mut console)
        .await
        .unwrap();
    let users: Vec<String> = pools
        .iter()
        .map(|r| r.try_get::<String, _>("user").unwrap_or_default())
        .collect();
    drop(tx);
    assert!(
        users.iter().any(|u| u == a.tenant.role_name.as_str()),
        "{users:?}"
    );
}
