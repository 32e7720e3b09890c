//! `/api/organisation`: the caller's organisation, its limits and usage
//! (the /configuration and /ui/table pages).

use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

use super::{get_started, store};
use crate::audit;
use crate::http::error::{AccessError, ApiError, WriteError};
use crate::http::input::Text;
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::tenants::{MODULES, OrganisationName, TenantKind};

#[derive(Default)]
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

/// The signed-in user's organisation.
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

/// A step of the "Get started" checklist.
#[derive(Object, Debug)]
pub struct GetStartedStep {
    /// Stable key: `product`, `codes`, `label`, `print`, `scan`,
    /// `passport` (brands); `product`, `codes`, `print`, `batch_check`,
    /// `batch_apply` (client organisations).
    pub key: String,
    pub title: String,
    /// What the step asks, in a sentence.
    pub hint: String,
    /// Ticked from the organisation's own data.
    pub done: bool,
    /// The page where it is done; absent when the caller's role may not
    /// open it.
    #[oai(skip_serializing_if_is_none)]
    pub path: Option<String>,
}

/// The dashboard's "Get started" checklist of the caller's organisation.
#[derive(Object, Debug)]
pub struct GetStarted {
    /// The steps of the organisation's plan modules, in order.
    pub steps: Vec<GetStartedStep>,
    /// Whether the caller hid the checklist (kept per account).
    pub dismissed: bool,
}

/// Hide the checklist (`true`) or show it again (`false`).
#[derive(Object, Debug)]
pub struct GetStartedUpdate {
    pub dismissed: bool,
}

#[derive(Object, Debug)]
pub struct OrganisationUpdate {
    pub name: Text<OrganisationName>,
}

impl OrganisationApi {
    async fn load(state: &SharedState, caller: &TenantSession) -> Result<Organisation, ApiError> {
        let tenant = &caller.tenant;
        let facts = store::tenant_facts(&state.db.platform, tenant.id).await?;
        let mut conn = state.db.read_tenant(tenant).await?;
        let name = store::display_name(&mut conn).await?;
        let products = crate::products::store::count_active(&mut conn).await?;
        let codes = crate::codes::store::reserved_codes(&mut conn).await?;
        drop(conn);
        Ok(Organisation {
            client_id: tenant.client_id.clone(),
            name,
            kind: tenant.kind,
            status: facts.status,
            user_limit: facts.user_limit,
            user_count: facts.user_count,
            modules: MODULES
                .iter()
                .map(|(key, label)| Module {
                    key: (*key).into(),
                    name: (*label).into(),
                    enabled: facts.modules.iter().any(|m| m == key),
                })
                .collect(),
            usage: vec![
                Usage {
                    key: "users".into(),
                    label: "Users".into(),
                    used: facts.user_count,
                    limit: i64::from(facts.user_limit),
                },
                Usage {
                    key: "products".into(),
                    label: "Products".into(),
                    used: products,
                    limit: i64::from(facts.product_limit),
                },
                Usage {
                    key: "codes".into(),
                    label: "Serialized codes".into(),
                    used: codes,
                    limit: facts.code_quota,
                },
            ],
        })
    }
}

async fn load_get_started(
    state: &SharedState,
    caller: &TenantSession,
) -> Result<GetStarted, ApiError> {
    let session = &caller.session;
    let mut conn = state.db.read_tenant(&caller.tenant).await?;
    let facts = store::get_started_facts(&mut conn).await?;
    let dismissed = store::get_started_dismissed(&mut conn, session.account_id).await?;
    drop(conn);
    let allowed = state
        .access
        .allowed_paths(session.role.as_str(), &session.access_domain());
    let steps = get_started::steps(caller.tenant.kind, &session.modules, &allowed, &facts)
        .into_iter()
        .map(|s| GetStartedStep {
            key: s.key.into(),
            title: s.title.into(),
            hint: s.hint.into(),
            done: s.done,
            path: s.path.map(str::to_string),
        })
        .collect();
    Ok(GetStarted { steps, dismissed })
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
        caller: TenantSession,
    ) -> Result<JsonOk<Organisation>, AccessError> {
        Ok(JsonOk(Self::load(&state, &caller).await?))
    }

    /// Rename the organisation (organisation admins).
    // The audit record and the rename are written in one transaction: both
    // or neither.
    #[oai(
        path = "/organisation",
        method = "put",
        operation_id = "updateOrganisation"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<OrganisationUpdate>,
    ) -> Result<JsonOk<Organisation>, WriteError> {
        let tenant = &caller.tenant;
        let name = body.name.parse()?;
        let mut tx = state.db.begin_tenant(tenant).await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "organisation.rename",
            &tenant.client_id,
            serde_json::json!({ "name": name.as_str() }),
        )
        .await?;
        store::rename(&mut tx, &name, caller.session.account_id).await?;
        tx.commit().await?;
        Ok(JsonOk(Self::load(&state, &caller).await?))
    }

    /// The dashboard's "Get started" checklist: the organisation's first
    /// steps, each ticked from its own data, and whether the caller hid it.
    #[oai(
        path = "/organisation/get-started",
        method = "get",
        operation_id = "getGetStarted"
    )]
    async fn get_started(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<GetStarted>, AccessError> {
        Ok(JsonOk(load_get_started(&state, &caller).await?))
    }

    /// Hide the "Get started" checklist, or show it again, for the caller
    /// (kept per account, on the server).
    #[oai(
        path = "/organisation/get-started",
        method = "put",
        operation_id = "updateGetStarted"
    )]
    async fn update_get_started(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<GetStartedUpdate>,
    ) -> Result<JsonOk<GetStarted>, WriteError> {
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::set_get_started_dismissed(&mut tx, caller.session.account_id, body.dismissed)
            .await?;
        tx.commit().await?;
        Ok(JsonOk(load_get_started(&state, &caller).await?))
    }
}
