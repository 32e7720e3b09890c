//! `/api/organisation`: the caller's organisation, its limits and usage
//! (the /configuration and /ui/table pages).

use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::{Binary, Json, Response};
use poem_openapi::types::multipart::Upload;
use poem_openapi::{Multipart, Object, OpenApi};
use uuid::Uuid;

use super::{get_started, store};
use crate::audit;
use crate::http::error::{AccessError, ApiError, LookupError, WriteError};
use crate::http::input::Text;
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::logistics::CompanyPrefix;
use crate::products::ImageKind;
use crate::products::api::{IMAGE_CSP, ImageFile, parse_image_name};
use crate::storage::Storage;
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
    /// The organisation's logo, shown with its name on the consumer's scan
    /// page (`/api/organisation/logo/{id}.{ext}`); absent when it has none.
    #[oai(rename = "logoUrl", skip_serializing_if_is_none)]
    pub logo_url: Option<String>,
    pub kind: TenantKind,
    pub status: String,
    #[oai(rename = "userLimit")]
    pub user_limit: i32,
    #[oai(rename = "userCount")]
    pub user_count: i64,
    pub modules: Vec<Module>,
    pub usage: Vec<Usage>,
    /// The organisation's GS1 company prefix (6 to 12 digits), from which
    /// its shipments' SSCCs are built; absent until an admin sets it.
    #[oai(rename = "gs1CompanyPrefix", skip_serializing_if_is_none)]
    pub gs1_company_prefix: Option<String>,
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

/// The organisation's logo file.
#[derive(Multipart, Debug)]
#[oai(deny_unknown_fields)]
pub struct LogoUpload {
    /// A PNG, JPEG or WebP image of at most 5 MB (the product images' rules).
    pub file: Upload,
}

/// The key the logo `id` of type `ext` is stored under, in `tenant`'s own
/// prefix.
pub fn logo_key(
    tenant: &crate::tenancy::TenantRef,
    id: Uuid,
    ext: &str,
) -> object_store::path::Path {
    Storage::key(tenant, "logos", id, ext)
}

/// The logo's URL for the organisation's own pages.
fn logo_url(id: Uuid, ext: &str) -> String {
    format!("/api/organisation/logo/{id}.{ext}")
}

fn no_logo() -> ApiError {
    ApiError::not_found("Your organisation has no such logo.")
}

#[derive(Object, Debug)]
pub struct OrganisationUpdate {
    pub name: Text<OrganisationName>,
}

/// The organisation's GS1 company prefix.
#[derive(Object, Debug)]
pub struct Gs1Update {
    /// 6 to 12 digits, as GS1 assigned them (e.g. `4006381`).
    pub company_prefix: Text<CompanyPrefix>,
}

impl OrganisationApi {
    async fn load(state: &SharedState, caller: &TenantSession) -> Result<Organisation, ApiError> {
        let tenant = &caller.tenant;
        let facts = store::tenant_facts(&state.db.platform, tenant.id).await?;
        let mut conn = state.db.read_tenant(tenant).await?;
        let (name, logo) = store::brand_identity(&mut conn).await?;
        let products = crate::products::store::count_active(&mut conn).await?;
        let codes = crate::codes::store::reserved_codes(&mut conn).await?;
        let gs1_company_prefix = crate::logistics::store::company_prefix(&mut conn).await?;
        drop(conn);
        Ok(Organisation {
            client_id: tenant.client_id.clone(),
            name,
            logo_url: logo.map(|(id, ext)| logo_url(id, &ext)),
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
            gs1_company_prefix,
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

    /// Set the organisation's GS1 company prefix (organisation admins): 6
    /// to 12 digits. Its shipments' SSCCs are built from it; SSCCs already
    /// given keep theirs, and a new prefix counts its serials from its own
    /// start.
    #[oai(
        path = "/organisation/gs1",
        method = "put",
        operation_id = "updateOrganisationGs1"
    )]
    async fn update_gs1(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<Gs1Update>,
    ) -> Result<JsonOk<Organisation>, WriteError> {
        let prefix = body.company_prefix.parse_as("company_prefix")?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let before = crate::logistics::store::company_prefix(&mut tx).await?;
        crate::logistics::store::set_company_prefix(&mut tx, &prefix, caller.session.account_id)
            .await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "logistics.company_prefix_set",
            &caller.tenant.client_id,
            serde_json::json!({ "company_prefix": prefix, "before": before }),
        )
        .await?;
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

    /// Set the organisation's logo (organisation admins), shown with its
    /// name on the consumer's scan page: a PNG, JPEG or WebP of at most
    /// 5 MB, read from its content as product images are. It replaces the
    /// logo before it.
    // The new file is stored first, then the row changes in one transaction
    // with its audit record; the old file is removed after the commit (a
    // failed removal leaves an unreachable file, never a broken logo).
    #[oai(
        path = "/organisation/logo",
        method = "put",
        operation_id = "uploadOrganisationLogo"
    )]
    async fn upload_logo(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: LogoUpload,
    ) -> Result<JsonOk<Organisation>, WriteError> {
        let tenant = &caller.tenant;
        let bytes = body
            .file
            .into_vec()
            .await
            .map_err(|_| ApiError::invalid_input("The file could not be read."))?;
        let kind = ImageKind::check(&bytes)?;
        let id = Uuid::new_v4();
        let key = logo_key(tenant, id, kind.extension());
        state
            .storage
            .put(&key, bytes)
            .await
            .map_err(ApiError::internal)?;
        let replaced = async {
            let mut tx = state.db.begin_tenant(tenant).await?;
            let old = store::lock_logo(&mut tx).await?;
            audit::record_own_tenant(
                &mut tx,
                &caller.actor,
                "organisation.logo",
                &tenant.client_id,
                serde_json::json!({ "logo": id, "type": kind.content_type() }),
            )
            .await?;
            store::set_logo(
                &mut tx,
                Some((id, kind.extension())),
                caller.session.account_id,
            )
            .await?;
            tx.commit().await?;
            Ok::<_, ApiError>(old)
        }
        .await;
        match replaced {
            Ok(old) => {
                if let Some((old_id, old_ext)) = old {
                    let old_key = logo_key(tenant, old_id, &old_ext);
                    if let Err(err) = state.storage.delete(&old_key).await {
                        tracing::warn!(error = %err, "an old logo file could not be removed");
                    }
                }
                Ok(JsonOk(Self::load(&state, &caller).await?))
            }
            Err(err) => {
                let _ = state.storage.delete(&key).await;
                Err(err.into())
            }
        }
    }

    /// Remove the organisation's logo (organisation admins); the scan page
    /// then shows the name alone. Nothing happens when there is none.
    #[oai(
        path = "/organisation/logo",
        method = "delete",
        operation_id = "removeOrganisationLogo"
    )]
    async fn remove_logo(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<Organisation>, WriteError> {
        let tenant = &caller.tenant;
        let mut tx = state.db.begin_tenant(tenant).await?;
        let old = store::lock_logo(&mut tx).await?;
        if old.is_some() {
            audit::record_own_tenant(
                &mut tx,
                &caller.actor,
                "organisation.logo_removed",
                &tenant.client_id,
                serde_json::json!({}),
            )
            .await?;
            store::set_logo(&mut tx, None, caller.session.account_id).await?;
        }
        tx.commit().await?;
        if let Some((old_id, old_ext)) = old {
            let old_key = logo_key(tenant, old_id, &old_ext);
            if let Err(err) = state.storage.delete(&old_key).await {
                tracing::warn!(error = %err, "a logo file could not be removed");
            }
        }
        Ok(JsonOk(Self::load(&state, &caller).await?))
    }

    /// The organisation's logo, as stored (the `logoUrl` of the
    /// organisation).
    #[oai(
        path = "/organisation/logo/:name",
        method = "get",
        operation_id = "getOrganisationLogo"
    )]
    async fn get_logo(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// `{uuid}.{png|jpg|webp}`, as in the organisation's `logoUrl`.
        name: Path<String>,
    ) -> Result<Response<ImageFile>, LookupError> {
        let (id, kind) = parse_image_name(&name.0).ok_or_else(no_logo)?;
        let current = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            store::logo(&mut conn).await?
        };
        if current != Some((id, kind.extension().to_string())) {
            return Err(no_logo().into());
        }
        let key = logo_key(&caller.tenant, id, kind.extension());
        let (body, _) = state.storage.get(&key).await.map_err(|err| match err {
            object_store::Error::NotFound { .. } => no_logo(),
            other => ApiError::internal(other),
        })?;
        Ok(Response::new(ImageFile::Ok(Binary(body), IMAGE_CSP.into()))
            .header("content-type", kind.content_type()))
    }
}
