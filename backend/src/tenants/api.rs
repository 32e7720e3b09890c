//! `/api/platform/tenants`: platform admins list, onboard, suspend and
//! reactivate tenants.

use std::borrow::Cow;

use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use poem_openapi::{Object, OpenApi};

use super::onboard::{ClientId, ClientIdInPath, USER_LIMIT_MAX};
use super::{
    FirstAccount, Limits, ModuleKey, Onboarding, OrganisationName, Tenant, TenantKind, onboard,
    parse_modules, set_limits, set_suspended, store,
};
use crate::accounts::{Email, NewPassword, PersonName, Role};
use crate::http::error::{
    AccessError, ApiError, LookupError, WriteConflictError, WriteLookupError,
};
use crate::http::input::{Optional, Text};
use crate::http::response::JsonOk;
use crate::http::security::SignedIn;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;

#[derive(Default)]
pub struct TenantsApi;

#[derive(Object, Debug)]
pub struct FirstAdmin {
    pub name: Text<PersonName>,
    pub email: Text<Email>,
    pub password: Text<NewPassword>,
}

#[derive(Object, Debug)]
pub struct NewTenant {
    /// Public id: 2–30 letters, digits, `-` or `_`, starting with a letter.
    #[oai(rename = "clientId")]
    pub client_id: Text<ClientId>,
    pub name: Text<OrganisationName>,
    pub kind: TenantKind,
    #[oai(rename = "userLimit")]
    pub user_limit: UserLimit,
    /// How many products it may have (0 to 1000000; 100 when omitted).
    #[oai(
        rename = "productLimit",
        validator(minimum(value = "0"), maximum(value = "1000000"))
    )]
    pub product_limit: Optional<i32>,
    /// How many codes it may generate in all (0 to 10000000000; 1000000 when
    /// omitted).
    #[oai(
        rename = "codeQuota",
        validator(minimum(value = "0"), maximum(value = "10000000000"))
    )]
    pub code_quota: Optional<i64>,
    /// Module keys to enable; when omitted, every brand module for a brand,
    /// and products, codes, labels, scans and the client code tools for a
    /// client.
    pub modules: Optional<Vec<Text<ModuleKey>>>,
    pub admin: FirstAdmin,
}

/// A new tenant's user limit: an int32 from 1 to 100000 in the contract;
/// `Onboarding::prepare` says what is wrong with another.
#[derive(Debug)]
pub struct UserLimit(pub i32);

impl Type for UserLimit {
    const IS_REQUIRED: bool = true;
    type RawValueType = i32;
    type RawElementValueType = i32;

    fn name() -> Cow<'static, str> {
        "integer(int32)".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        let mut schema = MetaSchema::new_with_format("integer", "int32");
        schema.minimum = Some(1.0);
        schema.maximum = Some(f64::from(USER_LIMIT_MAX));
        MetaSchemaRef::Inline(Box::new(schema))
    }

    fn as_raw_value(&self) -> Option<&i32> {
        Some(&self.0)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a i32> + 'a> {
        Box::new(std::iter::once(&self.0))
    }
}

impl ParseFromJSON for UserLimit {
    fn parse_from_json(value: Option<serde_json::Value>) -> ParseResult<Self> {
        i32::parse_from_json(value)
            .map(Self)
            .map_err(ParseError::propagate)
    }
}

impl ToJSON for UserLimit {
    fn to_json(&self) -> Option<serde_json::Value> {
        self.0.to_json()
    }
}

/// New plan limits and modules; those omitted keep their values (`{}`
/// changes nothing). Lowering a limit below current use is allowed: it blocks
/// new additions and deletes nothing.
#[derive(Object, Debug)]
pub struct TenantLimits {
    #[oai(
        rename = "userLimit",
        validator(minimum(value = "1"), maximum(value = "100000"))
    )]
    pub user_limit: Optional<i32>,
    #[oai(
        rename = "productLimit",
        validator(minimum(value = "0"), maximum(value = "1000000"))
    )]
    pub product_limit: Optional<i32>,
    #[oai(
        rename = "codeQuota",
        validator(minimum(value = "0"), maximum(value = "10000000000"))
    )]
    pub code_quota: Optional<i64>,
    /// The plan modules the tenant has from now on (the whole list; an
    /// unknown key is a 400). Its members' calls to the operations of the
    /// others answer 403 `module_disabled` from their next request.
    pub modules: Optional<Vec<Text<ModuleKey>>>,
}

json_response!(
    /// Created, with its schema, role, migrations and first admin.
    TenantCreated { 201 => Created(Tenant) }
);

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
    ) -> Result<JsonOk<Vec<Tenant>>, AccessError> {
        Ok(JsonOk(store::list_tenants(&state.db.platform).await?))
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
    ) -> Result<TenantCreated, WriteConflictError> {
        let body = body.0;
        let request = Onboarding {
            client_id: body.client_id.as_str().to_string(),
            name: body.name.as_str().to_string(),
            kind: body.kind,
            schema: None,
            user_limit: body.user_limit.0,
            product_limit: body.product_limit.0,
            code_quota: body.code_quota.0,
            modules: body
                .modules
                .0
                .map(|keys| keys.iter().map(|k| k.as_str().to_string()).collect()),
            accounts: vec![FirstAccount {
                email: body.admin.email.as_str().to_string(),
                name: body.admin.name.as_str().to_string(),
                role: Role::Admin,
                password: body.admin.password.as_str().to_string(),
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

    /// Set a tenant's plan limits and modules (platform admins). Each change
    /// is audited (`tenant.limits`, `tenant.modules`).
    #[oai(
        path = "/platform/tenants/:client_id",
        method = "patch",
        operation_id = "updateTenantLimits"
    )]
    async fn update_limits(
        &self,
        state: Data<&SharedState>,
        caller: SignedIn,
        client_id: Path<Text<ClientIdInPath>>,
        body: Json<TenantLimits>,
    ) -> Result<JsonOk<Tenant>, WriteLookupError> {
        let b = body.0;
        let (user, product, quota) = (b.user_limit.0, b.product_limit.0, b.code_quota.0);
        let modules = b
            .modules
            .0
            .map(|keys| parse_modules(&keys.iter().map(Text::as_str).collect::<Vec<_>>()))
            .transpose()?;
        let tenant = set_limits(
            &state.db.platform,
            client_id.0.as_str(),
            Limits {
                user_limit: user,
                product_limit: product,
                code_quota: quota,
                modules,
            },
            &caller.actor,
        )
        .await?;
        Ok(JsonOk(tenant))
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
        client_id: Path<Text<ClientIdInPath>>,
    ) -> Result<JsonOk<Tenant>, LookupError> {
        let tenant = set_suspended(
            &state.db.platform,
            client_id.0.as_str(),
            true,
            &caller.actor,
        )
        .await?;
        Ok(JsonOk(tenant))
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
        client_id: Path<Text<ClientIdInPath>>,
    ) -> Result<JsonOk<Tenant>, LookupError> {
        let tenant = set_suspended(
            &state.db.platform,
            client_id.0.as_str(),
            false,
            &caller.actor,
        )
        .await?;
        Ok(JsonOk(tenant))
    }
}
