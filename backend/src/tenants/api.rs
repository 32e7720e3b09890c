//! `/api/platform/tenants`: platform admins list, onboard, suspend and
//! reactivate tenants.

use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

use super::{FirstAccount, Onboarding, Tenant, TenantKind, onboard, set_suspended, store};
use crate::accounts::Role;
use crate::error_responses;
use crate::http::error::ApiError;
use crate::http::security::SignedIn;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;

#[derive(Default)]
pub struct TenantsApi;

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

json_response!(TenantListOk { 200 => Ok(Vec<Tenant>) });
error_responses!(TenantListError { Unauthorized = 401, Forbidden = 403 });

json_response!(
    /// Created, with its schema, role, migrations and first admin.
    TenantCreated { 201 => Created(Tenant) }
);
error_responses!(TenantCreateError with body {
    BadRequest = 400,
    Unauthorized = 401,
    Forbidden = 403,
    Conflict = 409,
});

json_response!(TenantOk { 200 => Ok(Tenant) });
error_responses!(TenantChangeError {
    BadRequest = 400,
    Unauthorized = 401,
    Forbidden = 403,
    NotFound = 404,
});

#[OpenApi(tag = "ApiTags::Platform")]
impl TenantsApi {
    /// Every tenant with its user count and status (platform admins).
    #[oai(
        path = "/platform/tenants",
        method = "get",
        operation_id = "listTenants"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        _caller: SignedIn,
    ) -> Result<TenantListOk, TenantListError> {
        Ok(TenantListOk::Ok(Json(
            store::list_tenants(&state.db.platform).await?,
        )))
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
        caller: SignedIn,
        body: Json<NewTenant>,
    ) -> Result<TenantCreated, TenantCreateError> {
        let body = body.0;
        let request = Onboarding {
            client_id: body.client_id,
            name: body.name,
            kind: body.kind,
            schema: None,
            user_limit: body.user_limit,
            modules: body.modules,
            accounts: vec![FirstAccount {
                email: body.admin.email,
                name: body.admin.name,
                role: Role::Admin,
                password: body.admin.password,
            }],
        };
        let prepared = request.prepare(&state.passwords).await?;
        let mut tx = state.db.owner.begin().await?;
        let created = onboard(&mut tx, &state.db.roles, &prepared, &caller.actor).await?;
        tx.commit().await?;
        let tenant = store::find_tenant(&state.db.platform, &created.client_id)
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
        caller: SignedIn,
        client_id: Path<String>,
    ) -> Result<TenantOk, TenantChangeError> {
        let tenant = set_suspended(&state.db.platform, &client_id.0, true, &caller.actor).await?;
        Ok(TenantOk::Ok(Json(tenant)))
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
        caller: SignedIn,
        client_id: Path<String>,
    ) -> Result<TenantOk, TenantChangeError> {
        let tenant = set_suspended(&state.db.platform, &client_id.0, false, &caller.actor).await?;
        Ok(TenantOk::Ok(Json(tenant)))
    }
}
