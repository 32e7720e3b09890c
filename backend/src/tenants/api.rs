//! `/api/platform/tenants`: platform admins list, onboard, suspend and
//! reactivate tenants.

use chrono::{DateTime, Utc};
use poem::Request;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};
use uuid::Uuid;

use super::provision::{TenantSpec, provision};
use super::{TenantKind, default_modules};
use crate::accounts::{Email, NewAccount, NewPassword, PersonName, Role};
use crate::api::ApiTags;
use crate::audit;
use crate::auth::SessionAuth;
use crate::auth::guard::context;
use crate::auth::session;
use crate::error::ApiError;
use crate::error_responses;
use crate::state::SharedState;

pub struct PlatformApi;

#[derive(Object, Debug, sqlx::FromRow)]
pub struct Tenant {
    pub id: Uuid,
    #[oai(rename = "clientId")]
    pub client_id: String,
    pub name: String,
    pub kind: String,
    #[oai(rename = "schema")]
    pub schema_name: String,
    #[oai(rename = "userLimit")]
    pub user_limit: i32,
    #[oai(rename = "userCount")]
    pub user_count: i64,
    /// `active` or `suspended`.
    pub status: String,
    pub modules: Vec<String>,
    #[oai(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
}

#[derive(Object, Debug)]
pub struct FirstAdmin {
    pub name: String,
    pub email: String,
    pub password: String,
}

#[derive(Object, Debug)]
pub struct NewTenant {
    /// Public id: 2–40 letters, digits, `-` or `_`, starting with a letter.
    #[oai(rename = "clientId")]
    pub client_id: String,
    pub name: String,
    pub kind: TenantKind,
    #[oai(rename = "userLimit")]
    pub user_limit: i32,
    /// Module keys to enable; all brand modules when omitted.
    pub modules: Option<Vec<String>>,
    pub admin: FirstAdmin,
}

#[derive(ApiResponse)]
pub enum TenantListOk {
    #[oai(status = 200)]
    Ok(Json<Vec<Tenant>>),
}
error_responses!(TenantListError { Unauthorized = 401, Forbidden = 403 });

#[derive(ApiResponse)]
pub enum TenantCreated {
    /// Created, with its schema, role, migrations and first admin.
    #[oai(status = 201)]
    Created(Json<Tenant>),
}
error_responses!(TenantCreateError {
    BadRequest = 400,
    Unauthorized = 401,
    Forbidden = 403,
    Conflict = 409,
});

#[derive(ApiResponse)]
pub enum TenantOk {
    #[oai(status = 200)]
    Ok(Json<Tenant>),
}
error_responses!(TenantChangeError {
    Unauthorized = 401,
    Forbidden = 403,
    NotFound = 404,
});

const TENANT_COLUMNS: &str = "t.id, t.client_id, t.name, t.kind, t.schema_name, t.user_limit,
    (SELECT count(*) FROM platform.accounts a WHERE a.tenant_id = t.id) AS user_count,
    t.status, t.modules, t.created_at";

pub async fn find_tenant<'e>(
    db: impl sqlx::PgExecutor<'e>,
    client_id: &str,
) -> Result<Option<Tenant>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TENANT_COLUMNS} FROM platform.tenants t WHERE lower(t.client_id) = lower($1)"
    )))
    .bind(client_id)
    .fetch_optional(db)
    .await
}

pub async fn list_tenants<'e>(db: impl sqlx::PgExecutor<'e>) -> Result<Vec<Tenant>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TENANT_COLUMNS} FROM platform.tenants t ORDER BY t.created_at, t.client_id"
    )))
    .fetch_all(db)
    .await
}

/// Suspends (`suspend = true`) or reactivates a tenant. Suspension ends every
/// session of its users at once; the session lookup also refuses them.
pub async fn set_suspended(
    db: &sqlx::PgPool,
    client_id: &str,
    suspend: bool,
    actor: &audit::Actor,
) -> Result<Tenant, ApiError> {
    let mut tx = db.begin().await?;
    let id: Option<Uuid> = sqlx::query_scalar(
        "UPDATE platform.tenants
         SET status = CASE WHEN $2 THEN 'suspended' ELSE 'active' END,
             suspended_at = CASE WHEN $2 THEN now() ELSE NULL END
         WHERE lower(client_id) = lower($1) RETURNING id",
    )
    .bind(client_id)
    .bind(suspend)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(id) = id else {
        return Err(ApiError::not_found(format!(
            "No tenant with clientId '{client_id}'."
        )));
    };
    let ended = if suspend {
        session::end_all_for_tenant(&mut *tx, id).await?
    } else {
        0
    };
    audit::record(
        &mut *tx,
        actor,
        if suspend {
            "tenant.suspend"
        } else {
            "tenant.reactivate"
        },
        Some(id),
        Some(client_id),
        serde_json::json!({ "sessionsEnded": ended }),
    )
    .await?;
    let tenant = find_tenant(&mut *tx, client_id)
        .await?
        .ok_or_else(|| ApiError::not_found("tenant vanished"))?;
    tx.commit().await?;
    Ok(tenant)
}

#[OpenApi(tag = "ApiTags::Platform")]
impl PlatformApi {
    /// Every tenant with its user count and status (platform admins).
    #[oai(
        path = "/platform/tenants",
        method = "get",
        operation_id = "listTenants"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        _auth: SessionAuth,
    ) -> Result<TenantListOk, TenantListError> {
        Ok(TenantListOk::Ok(Json(list_tenants(&state.db.app).await?)))
    }

    /// Onboard a tenant: schema, database role, migrations and its first
    /// admin account are created together, or not at all.
    #[oai(
        path = "/platform/tenants",
        method = "post",
        operation_id = "createTenant"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
        req: &Request,
        body: Json<NewTenant>,
    ) -> Result<TenantCreated, TenantCreateError> {
        let body = body.0;
        let modules = body.modules.unwrap_or_else(|| default_modules(body.kind));
        let spec = TenantSpec::parse(
            &body.client_id,
            &body.name,
            body.kind,
            None,
            body.user_limit,
            modules,
        )?;
        let admin = NewAccount {
            name: PersonName::parse(&body.admin.name)?,
            email: Email::parse(&body.admin.email)?,
            role: Role::Admin,
            password_hash: state
                .passwords
                .hash(NewPassword::parse(&body.admin.password)?.expose())
                .await?,
        };
        let actor = auth.0.actor(context(req).ip);
        provision(&state.db.owner, &state.db.names, &spec, &[admin], &actor).await?;
        let tenant = find_tenant(&state.db.app, &spec.client_id)
            .await?
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("created tenant not found")))?;
        Ok(TenantCreated::Created(Json(tenant)))
    }

    /// Suspend a tenant: its users cannot sign in and their sessions end.
    #[oai(
        path = "/platform/tenants/:client_id/suspend",
        method = "post",
        operation_id = "suspendTenant"
    )]
    async fn suspend(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
        req: &Request,
        client_id: Path<String>,
    ) -> Result<TenantOk, TenantChangeError> {
        let actor = auth.0.actor(context(req).ip);
        Ok(TenantOk::Ok(Json(
            set_suspended(&state.db.app, &client_id.0, true, &actor).await?,
        )))
    }

    /// Reactivate a suspended tenant.
    #[oai(
        path = "/platform/tenants/:client_id/reactivate",
        method = "post",
        operation_id = "reactivateTenant"
    )]
    async fn reactivate(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
        req: &Request,
        client_id: Path<String>,
    ) -> Result<TenantOk, TenantChangeError> {
        let actor = auth.0.actor(context(req).ip);
        Ok(TenantOk::Ok(Json(
            set_suspended(&state.db.app, &client_id.0, false, &actor).await?,
        )))
    }
}
