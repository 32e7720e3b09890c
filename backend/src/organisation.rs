//! `/api/organisation`: the caller's organisation, its limits and usage
//! (the /configuration and /ui/table pages).

use poem::Request;
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};

use crate::api::ApiTags;
use crate::audit;
use crate::auth::SessionAuth;
use crate::auth::guard::context;
use crate::db::end_read_only;
use crate::error::ApiError;
use crate::error_responses;
use crate::state::SharedState;
use crate::tenants::{MODULES, TenantKind};

pub struct OrganisationApi;

#[derive(Object, Debug)]
pub struct Module {
    pub key: String,
    pub name: String,
    pub enabled: bool,
}

/// One line of the usage table: how much of a limit is used.
#[derive(Object, Debug)]
pub struct Usage {
    pub key: String,
    pub label: String,
    pub used: i64,
    pub limit: i64,
}

#[derive(Object, Debug)]
pub struct Organisation {
    #[oai(rename = "clientId")]
    pub client_id: String,
    /// The organisation's display name (kept in its own schema; its admins
    /// may change it).
    pub name: String,
    pub kind: TenantKind,
    pub status: String,
    #[oai(rename = "userLimit")]
    pub user_limit: i32,
    #[oai(rename = "userCount")]
    pub user_count: i64,
    pub modules: Vec<Module>,
    pub usage: Vec<Usage>,
}

#[derive(Object, Debug)]
pub struct OrganisationUpdate {
    pub name: String,
}

#[derive(ApiResponse)]
pub enum OrganisationOk {
    #[oai(status = 200)]
    Ok(Json<Organisation>),
}
error_responses!(OrganisationError { BadRequest = 400, Unauthorized = 401, Forbidden = 403 });

impl OrganisationApi {
    async fn load(state: &SharedState, auth: &SessionAuth) -> Result<Organisation, ApiError> {
        let tenant = auth.0.tenant.as_ref().ok_or_else(ApiError::forbidden)?;
        let (status, user_limit, modules, user_count): (String, i32, Vec<String>, i64) =
            sqlx::query_as(
                "SELECT t.status, t.user_limit, t.modules,
                        (SELECT count(*) FROM platform.accounts a WHERE a.tenant_id = t.id)
                 FROM platform.tenants t WHERE t.id = $1",
            )
            .bind(tenant.id)
            .fetch_one(&state.db.app)
            .await?;
        let mut tx = state.db.begin_tenant(tenant).await?;
        let name: String = sqlx::query_scalar("SELECT display_name FROM org_settings")
            .fetch_one(&mut *tx)
            .await?;
        end_read_only(tx);
        Ok(Organisation {
            client_id: tenant.client_id.clone(),
            name,
            kind: tenant.kind,
            status,
            user_limit,
            user_count,
            modules: MODULES
                .iter()
                .map(|(key, label)| Module {
                    key: (*key).into(),
                    name: (*label).into(),
                    enabled: modules.iter().any(|m| m == key),
                })
                .collect(),
            usage: vec![Usage {
                key: "users".into(),
                label: "Users".into(),
                used: user_count,
                limit: i64::from(user_limit),
            }],
        })
    }
}

#[OpenApi(tag = "ApiTags::Organisation")]
impl OrganisationApi {
    /// The caller's organisation: name, kind, limits, usage and modules.
    #[oai(
        path = "/organisation",
        method = "get",
        operation_id = "getOrganisation"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
    ) -> Result<OrganisationOk, OrganisationError> {
        Ok(OrganisationOk::Ok(Json(Self::load(&state, &auth).await?)))
    }

    /// Rename the organisation (organisation admins).
    #[oai(
        path = "/organisation",
        method = "put",
        operation_id = "updateOrganisation"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
        req: &Request,
        body: Json<OrganisationUpdate>,
    ) -> Result<OrganisationOk, OrganisationError> {
        let tenant = auth.0.tenant.as_ref().ok_or_else(ApiError::forbidden)?;
        let name = body.name.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(ApiError::invalid_input(
                "Organisation name is required (200 characters at most).",
            )
            .into());
        }
        audit::record(
            &state.db.app,
            &auth.0.actor(context(req).ip),
            "organisation.rename",
            Some(tenant.id),
            Some(&tenant.client_id),
            serde_json::json!({ "name": name }),
        )
        .await?;
        let mut tx = state.db.begin_tenant(tenant).await?;
        sqlx::query(
            "UPDATE org_settings SET display_name = $1, updated_at = now(), updated_by = $2",
        )
        .bind(name)
        .bind(auth.0.account_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(OrganisationOk::Ok(Json(Self::load(&state, &auth).await?)))
    }
}
