use poem::Request;
use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi, Union};
use uuid::Uuid;

use crate::accounts::{
    AccountSummary, Email, NewAccount, NewPassword, PersonName, Role, insert_account,
};
use crate::api::ApiTags;
use crate::audit;
use crate::auth::guard::context;
use crate::auth::{SessionAuth, session};
use crate::db::enter_tenant;
use crate::error::ApiError;
use crate::error_responses;
use crate::state::SharedState;
use crate::tenants::{TenantKind, TenantRef};

/// The exact answer when the organisation is at its user limit.
pub const USER_LIMIT_REACHED: &str = "You have reached limit to add users.";

pub struct UsersApi;

/// `{"action": "adduser", ...}`: every field is checked by the server, which
/// answers with a message per missing or invalid field.
#[derive(Object, Debug)]
pub struct AddUser {
    pub email: Option<String>,
    pub name: Option<String>,
    pub password: Option<String>,
    /// `worker` (default) or `manager` in a brand; `employee` in a client
    /// organisation.
    pub role: Option<String>,
}

/// `{"action": "removeuser", "user_id": ...}`
#[derive(Object, Debug)]
pub struct RemoveUser {
    pub user_id: Option<String>,
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
    pub action: String,
    pub email: Option<String>,
    pub new_password: Option<String>,
}

#[derive(Object, Debug)]
pub struct OkBody {
    pub ok: bool,
}

#[derive(ApiResponse)]
pub enum AccountListOk {
    #[oai(status = 200)]
    Ok(Json<Vec<AccountSummary>>),
}

error_responses!(AccountListError {
    BadRequest = 400,
    Unauthorized = 401,
    Forbidden = 403,
});

#[derive(ApiResponse)]
pub enum ClientAuthOk {
    /// The user was added.
    #[oai(status = 201)]
    Created(Json<AccountSummary>),
    /// The user was removed.
    #[oai(status = 200)]
    Ok(Json<OkBody>),
}

error_responses!(ClientAuthError {
    BadRequest = 400,
    Unauthorized = 401,
    Forbidden = 403,
    NotFound = 404,
    Conflict = 409,
});

#[derive(ApiResponse)]
pub enum ResetOk {
    /// The password was changed and the user's sessions ended.
    #[oai(status = 200)]
    Ok(Json<OkBody>),
}

error_responses!(ResetError {
    BadRequest = 400,
    Unauthorized = 401,
    Forbidden = 403,
    NotFound = 404,
});

fn tenant_of(auth: &SessionAuth) -> Result<&TenantRef, ApiError> {
    auth.0.tenant.as_ref().ok_or_else(ApiError::forbidden)
}

fn required<'a>(value: &'a Option<String>, what: &str) -> Result<&'a str, ApiError> {
    match value.as_deref().map(str::trim) {
        Some(v) if !v.is_empty() => Ok(value.as_deref().unwrap_or_default()),
        _ => Err(ApiError::invalid_input(format!("{what} is required."))),
    }
}

/// Roles an organisation admin may give: brands have workers and managers,
/// client organisations have employees.
fn new_user_role(kind: TenantKind, raw: Option<&str>) -> Result<Role, ApiError> {
    let raw = raw.map(str::trim).filter(|r| !r.is_empty());
    match (kind, raw) {
        (TenantKind::Brand, None) => Ok(Role::Worker),
        (TenantKind::Brand, Some(r)) if r.eq_ignore_ascii_case("worker") => Ok(Role::Worker),
        (TenantKind::Brand, Some(r)) if r.eq_ignore_ascii_case("manager") => Ok(Role::Manager),
        (TenantKind::Brand, Some(_)) => {
            Err(ApiError::invalid_input("Role must be worker or manager."))
        }
        (TenantKind::Client, None) => Ok(Role::Employee),
        (TenantKind::Client, Some(r)) if r.eq_ignore_ascii_case("employee") => Ok(Role::Employee),
        (TenantKind::Client, Some(_)) => Err(ApiError::invalid_input(
            "Role must be employee in a client organisation.",
        )),
    }
}

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
        auth: SessionAuth,
        /// Must be `otheraccountinfo`.
        action: Query<String>,
    ) -> Result<AccountListOk, AccountListError> {
        let tenant = tenant_of(&auth)?;
        if action.0 != "otheraccountinfo" {
            return Err(
                ApiError::invalid_input("Unknown action: use action=otheraccountinfo.").into(),
            );
        }
        let rows = sqlx::query_as::<_, AccountSummary>(
            "SELECT id, name, email, role FROM platform.accounts
             WHERE tenant_id = $1 AND id <> $2 ORDER BY lower(name), email",
        )
        .bind(tenant.id)
        .bind(auth.0.account_id)
        .fetch_all(&state.db.app)
        .await?;
        Ok(AccountListOk::Ok(Json(rows)))
    }

    /// Add a user to (`adduser`) or remove one from (`removeuser`) the
    /// caller's organisation (organisation admins). Adding is refused with 403
    /// "You have reached limit to add users." at the organisation's limit.
    #[oai(path = "/client-auth", method = "post", operation_id = "manageOrgUser")]
    async fn client_auth(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
        req: &Request,
        body: Json<ClientAuthPost>,
    ) -> Result<ClientAuthOk, ClientAuthError> {
        let tenant = tenant_of(&auth)?.clone();
        let actor = auth.0.actor(context(req).ip);
        match body.0 {
            ClientAuthPost::AddUser(add) => {
                let name = PersonName::parse(required(&add.name, "Name")?)?;
                let email = Email::parse(required(&add.email, "Email")?)?;
                let password = NewPassword::parse(add.password.as_deref().unwrap_or_default())?;
                let role = new_user_role(tenant.kind, add.role.as_deref())?;
                let password_hash = state.passwords.hash(password.expose()).await?;

                let mut tx = state.db.begin_platform().await?;
                // The tenant row lock serialises concurrent adds, so the count
                // below cannot be overtaken: N parallel adds at the limit
                // create exactly the free places.
                let limit: i32 = sqlx::query_scalar(
                    "SELECT user_limit FROM platform.tenants WHERE id = $1 FOR UPDATE",
                )
                .bind(tenant.id)
                .fetch_one(&mut *tx)
                .await?;
                let count: i64 = sqlx::query_scalar(
                    "SELECT count(*) FROM platform.accounts WHERE tenant_id = $1",
                )
                .bind(tenant.id)
                .fetch_one(&mut *tx)
                .await?;
                if count >= i64::from(limit) {
                    return Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "user_limit",
                        USER_LIMIT_REACHED,
                    )
                    .into());
                }
                let account = NewAccount {
                    email,
                    name,
                    role,
                    password_hash,
                };
                let created = insert_account(&mut tx, Some(tenant.id), &account).await?;
                audit::record(
                    &mut *tx,
                    &actor,
                    "user.add",
                    Some(tenant.id),
                    Some(&created.email),
                    serde_json::json!({ "accountId": created.id, "role": created.role }),
                )
                .await?;
                tx.commit().await?;
                Ok(ClientAuthOk::Created(Json(created)))
            }
            ClientAuthPost::RemoveUser(remove) => {
                let raw = required(&remove.user_id, "user_id")?;
                let Ok(user_id) = Uuid::parse_str(raw.trim()) else {
                    return Err(ApiError::not_found("No such user in your organisation.").into());
                };
                if user_id == auth.0.account_id {
                    return Err(
                        ApiError::invalid_input("You cannot remove your own account.").into(),
                    );
                }
                let mut tx = state.db.begin_platform().await?;
                let removed: Option<String> = sqlx::query_scalar(
                    "DELETE FROM platform.accounts WHERE id = $1 AND tenant_id = $2 RETURNING email",
                )
                .bind(user_id)
                .bind(tenant.id)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(email) = removed else {
                    return Err(ApiError::not_found("No such user in your organisation.").into());
                };
                audit::record(
                    &mut *tx,
                    &actor,
                    "user.remove",
                    Some(tenant.id),
                    Some(&email),
                    serde_json::json!({ "accountId": user_id }),
                )
                .await?;
                // The user's tenant-side data goes in the same transaction.
                enter_tenant(&mut tx, &tenant).await?;
                sqlx::query("DELETE FROM user_preferences WHERE account_id = $1")
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(ClientAuthOk::Ok(Json(OkBody { ok: true })))
            }
        }
    }

    /// Set a new password for a user of the caller's organisation
    /// (`resetorguserpassword`, organisation admins). Their sessions end.
    #[oai(
        path = "/client-auth",
        method = "patch",
        operation_id = "resetOrgUserPassword"
    )]
    async fn reset_password(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
        req: &Request,
        body: Json<ResetPassword>,
    ) -> Result<ResetOk, ResetError> {
        let tenant = tenant_of(&auth)?;
        if body.action != "resetorguserpassword" {
            return Err(
                ApiError::invalid_input("Unknown action: use resetorguserpassword.").into(),
            );
        }
        let email = Email::parse(required(&body.email, "Email")?)?;
        let password = NewPassword::parse(body.new_password.as_deref().unwrap_or_default())?;
        let hash = state.passwords.hash(password.expose()).await?;
        let mut tx = state.db.begin_platform().await?;
        let account: Option<Uuid> = sqlx::query_scalar(
            "UPDATE platform.accounts SET password_hash = $1
             WHERE email = $2 AND tenant_id = $3 RETURNING id",
        )
        .bind(&hash)
        .bind(email.as_str())
        .bind(tenant.id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(account_id) = account else {
            return Err(ApiError::not_found("No such user in your organisation.").into());
        };
        let ended = session::end_all_for_account(&mut *tx, account_id).await?;
        audit::record(
            &mut *tx,
            &auth.0.actor(context(req).ip),
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
