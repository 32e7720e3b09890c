//! Organisation users: the All Users page's calls (`/api/account-info`,
//! `/api/client-auth`), with the spec's exact paths, actions and answers.

use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Union};
use uuid::Uuid;

use crate::accounts::{
    AccountSummary, EMAIL_CANNOT_BE_USED, Email, NewAccount, NewPassword, NewUserRole, PersonName,
    Role, USER_LIMIT_REACHED, USER_LIMIT_SQLSTATE, new_user_role, store,
};
use crate::audit;
use crate::auth::store as sessions;
use crate::db::{sqlstate, unique_violation};
use crate::http::error::{ApiError, QueryError, WriteLookupError, WriteStateError};
use crate::http::input::{Optional, ParseText, Text, TextRule};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;

#[derive(Default)]
pub struct UsersApi;

/// `{"action": "adduser", ...}`: every field is checked by the server, which
/// answers with a message per missing or invalid field.
#[derive(Object, Debug)]
pub struct AddUser {
    pub email: Text<Email>,
    pub name: Text<PersonName>,
    pub password: Text<NewPassword>,
    /// `worker` (default) or `manager` in a brand; `employee` in a client
    /// organisation (another organisation's role: 403).
    pub role: Optional<Text<NewUserRole>>,
}

/// `{"action": "removeuser", "user_id": ...}`
#[derive(Object, Debug)]
pub struct RemoveUser {
    /// The account's id (an unknown or malformed one: 404; one's own: 403).
    pub user_id: Text<AccountId>,
}

/// An account's id in the contract: a UUID.
pub struct AccountId;

impl TextRule for AccountId {
    fn limits(schema: &mut poem_openapi::registry::MetaSchema) {
        schema.format = Some("uuid");
    }
}

/// A missing id is a 400; a malformed one gets the same 404 as an unknown
/// one.
impl ParseText for AccountId {
    type Output = Uuid;
    fn parse_text(raw: &str) -> Result<Uuid, ApiError> {
        if raw.trim().is_empty() {
            return Err(ApiError::invalid_input("user_id is required."));
        }
        Uuid::parse_str(raw.trim()).map_err(|_| no_such_user())
    }
}

fn no_such_user() -> ApiError {
    ApiError::not_found("No such user in your organisation.")
}

/// The one value of an `action` that selects an operation (the spec's
/// calls name it in the body or the query): an enum of one in the contract.
pub struct ResetAction;

impl TextRule for ResetAction {
    fn limits(schema: &mut poem_openapi::registry::MetaSchema) {
        schema.enum_items = vec!["resetorguserpassword".into()];
    }
}

impl ParseText for ResetAction {
    type Output = ();
    fn parse_text(raw: &str) -> Result<(), ApiError> {
        if raw != "resetorguserpassword" {
            return Err(ApiError::invalid_input(
                "Unknown action: use resetorguserpassword.",
            ));
        }
        Ok(())
    }
}

pub struct AccountInfoAction;

impl TextRule for AccountInfoAction {
    fn limits(schema: &mut poem_openapi::registry::MetaSchema) {
        schema.enum_items = vec!["otheraccountinfo".into()];
    }
}

impl ParseText for AccountInfoAction {
    type Output = ();
    fn parse_text(raw: &str) -> Result<(), ApiError> {
        if raw != "otheraccountinfo" {
            return Err(ApiError::invalid_input(
                "Unknown action: use action=otheraccountinfo.",
            ));
        }
        Ok(())
    }
}

#[derive(Union, Debug)]
#[oai(discriminator_name = "action")]
pub enum ClientAuthPost {
    #[oai(mapping = "adduser")]
    AddUser(AddUser),
    #[oai(mapping = "removeuser")]
    RemoveUser(RemoveUser),
}

/// `{"action": "resetorguserpassword", "email", "new_password"}`
#[derive(Object, Debug)]
pub struct ResetPassword {
    pub action: Text<ResetAction>,
    pub email: Text<Email>,
    pub new_password: Text<NewPassword>,
}

#[derive(Object, Debug)]
pub struct OkBody {
    pub ok: bool,
}

#[derive(ApiResponse)]
pub enum ClientAuthOk {
    /// The user was added.
    #[oai(status = 201)]
    Created(Json<AccountSummary>),
    /// The user was removed.
    #[oai(status = 200)]
    Ok(Json<OkBody>),
}

json_response!(
    /// The password was changed and the user's sessions ended.
    ResetOk { 200 => Ok(OkBody) }
);

#[OpenApi(tag = "ApiTags::Users")]
impl UsersApi {
    /// The other accounts of the caller's organisation (organisation admins).
    #[oai(
        path = "/account-info",
        method = "get",
        operation_id = "listOtherAccounts"
    )]
    async fn account_info(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// Must be `otheraccountinfo`.
        action: Query<Text<AccountInfoAction>>,
    ) -> Result<JsonOk<Vec<AccountSummary>>, QueryError> {
        action.0.parse()?;
        let rows = store::list_others(
            &state.db.platform,
            caller.tenant.id,
            caller.session.account_id,
        )
        .await?;
        Ok(JsonOk(rows))
    }

    /// Add a user to (`adduser`) or remove one from (`removeuser`) the
    /// caller's organisation (organisation admins). Adding is refused with 403
    /// "You have reached limit to add users." at the organisation's limit.
    #[oai(path = "/client-auth", method = "post", operation_id = "manageOrgUser")]
    async fn client_auth(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<ClientAuthPost>,
    ) -> Result<ClientAuthOk, WriteStateError> {
        match body.0 {
            ClientAuthPost::AddUser(add) => Ok(ClientAuthOk::Created(Json(
                add_user(&state, &caller, add).await?,
            ))),
            ClientAuthPost::RemoveUser(remove) => {
                remove_user(&state, &caller, remove).await?;
                Ok(ClientAuthOk::Ok(Json(OkBody { ok: true })))
            }
        }
    }

    /// Set a new password for a user of the caller's organisation
    /// (`resetorguserpassword`, organisation admins). Their sessions end.
    /// Admins' passwords are not reset here (403): each admin changes their
    /// own.
    #[oai(
        path = "/client-auth",
        method = "patch",
        operation_id = "resetOrgUserPassword"
    )]
    async fn reset_password(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<ResetPassword>,
    ) -> Result<ResetOk, WriteLookupError> {
        let tenant = &caller.tenant;
        body.action.parse()?;
        let email = body.email.parse()?;
        let password = body.new_password.parse()?;
        let hash = state.passwords.hash(password.expose()).await?;
        let mut tx = state.db.begin_platform().await?;
        let Some((account_id, role)) = store::find_by_email(&mut tx, tenant.id, &email).await?
        else {
            return Err(ApiError::not_found("No such user in your organisation.").into());
        };
        if !Role::parse(&role).is_some_and(Role::managed_by_org_admins) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "forbidden",
                "An admin's password cannot be reset here: each admin changes their own on their profile page.",
            )
            .into());
        }
        store::set_password(&mut tx, account_id, &hash).await?;
        let ended = sessions::end_all_for_account(&mut *tx, account_id).await?;
        audit::record(
            &mut *tx,
            &caller.actor,
            "user.reset_password",
            Some(tenant.id),
            Some(email.as_str()),
            serde_json::json!({ "accountId": account_id, "sessionsEnded": ended }),
        )
        .await?;
        tx.commit().await?;
        Ok(ResetOk::Ok(Json(OkBody { ok: true })))
    }
}

/// `adduser`: at most the organisation's user limit, even under concurrent
/// adds.
async fn add_user(
    state: &SharedState,
    caller: &TenantSession,
    add: AddUser,
) -> Result<AccountSummary, ApiError> {
    let tenant = &caller.tenant;
    let name = add.name.parse()?;
    let email = add.email.parse()?;
    let password = add.password.parse()?;
    let role = new_user_role(tenant.kind, add.role.as_ref().map(Text::as_str))?;
    let password_hash = state.passwords.hash(password.expose()).await?;

    let account = NewAccount {
        email,
        name,
        role,
        password_hash,
    };
    let mut tx = state.db.begin_tenant(tenant).await?;
    let id = store::add_to_own_tenant(&mut tx, &account, &caller.actor)
        .await
        .map_err(|e| match (sqlstate(&e), unique_violation(&e)) {
            (Some(USER_LIMIT_SQLSTATE), _) => {
                ApiError::new(StatusCode::FORBIDDEN, "user_limit", USER_LIMIT_REACHED)
            }
            // Whether the address is taken here or in another organisation
            // is not ours to tell: one answer for every address that cannot
            // be used.
            (_, Some("accounts_email_key")) => ApiError::conflict(EMAIL_CANNOT_BE_USED),
            _ => ApiError::from(e),
        })?;
    tx.commit().await?;
    Ok(AccountSummary {
        id,
        name: account.name.as_str().to_string(),
        email: account.email.as_str().to_string(),
        role: account.role.as_str().to_string(),
    })
}

/// `removeuser`: the account and its rows in the tenant's schema go together.
async fn remove_user(
    state: &SharedState,
    caller: &TenantSession,
    remove: RemoveUser,
) -> Result<(), ApiError> {
    let tenant = &caller.tenant;
    let user_id = remove.user_id.parse()?;
    if user_id == caller.session.account_id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "You cannot remove your own account.",
        ));
    }
    let mut tx = state.db.begin_tenant(tenant).await?;
    if store::remove_from_own_tenant(&mut tx, user_id, &caller.actor)
        .await?
        .is_none()
    {
        return Err(no_such_user());
    }
    store::delete_preferences(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(())
}
