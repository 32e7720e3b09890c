//! `/api/auth/*`: sign in, the current session, sign out.

use poem::Request;
use poem::http::StatusCode;
use poem::web::Data;
use poem::web::cookie::{Cookie, CookieJar, SameSite};
use poem_openapi::payload::Json;
use poem_openapi::registry::MetaSchema;
use poem_openapi::{ApiResponse, Object, OpenApi};
use uuid::Uuid;

use super::{PLATFORM_DOMAIN, SESSION_COOKIE, Session, store, throttle};
use crate::accounts::{PASSWORD_MAX, PASSWORD_PATTERN, Role, roles_to_offer};
use crate::audit;
use crate::http::error::{AccessError, ApiError, WriteThrottledError};
use crate::http::input::{Text, TextRule, no_control_chars, plain_text};
use crate::http::response::JsonOk;
use crate::http::security::{SignedIn, authorize_public};
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;
use crate::tenants::{MODULES, ModuleKey, TenantKind};
use crate::{control_class, direction_mark_class, whitespace_class};

#[derive(Default)]
pub struct AuthApi;

#[derive(Object, Debug)]
pub struct LoginRequest {
    pub email: Text<SignInEmail>,
    pub password: Text<SignInPassword>,
}

/// The email of a sign-in: any text but empty (once trimmed), with no control
/// characters or text-direction marks. Anything else is only wrong (401).
pub struct SignInEmail;

impl TextRule for SignInEmail {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(
            concat!(
                "^[",
                whitespace_class!(),
                "]*",
                "[^",
                whitespace_class!(),
                control_class!(),
                direction_mark_class!(),
                "]",
                "(?:[^",
                control_class!(),
                direction_mark_class!(),
                "]*",
                "[^",
                whitespace_class!(),
                control_class!(),
                direction_mark_class!(),
                "])?",
                "[",
                whitespace_class!(),
                "]*$"
            )
            .into(),
        );
    }
}

/// The password of a sign-in: not empty, no control characters.
pub struct SignInPassword;

impl TextRule for SignInPassword {
    fn limits(schema: &mut MetaSchema) {
        schema.min_length = Some(1);
        schema.pattern = Some(PASSWORD_PATTERN.into());
    }
}

/// The signed-in user as the app shows it.
#[derive(Object, Debug, Clone)]
pub struct SessionUser {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub role: Role,
    /// The organisation (tenant) id, e.g. `acme` or `clientA`; absent for
    /// platform admins.
    #[oai(rename = "clientId", skip_serializing_if_is_none)]
    pub client_id: Option<String>,
    /// The organisation's kind, `brand` or `client`; absent for platform
    /// admins. (Scan analytics, passports and EPCIS are brands'.)
    #[oai(rename = "organisationKind", skip_serializing_if_is_none)]
    pub organisation_kind: Option<TenantKind>,
    /// The organisation's display name, as its admins set it (the session
    /// answer carries it; absent for platform admins and in the sign-in
    /// answer). Plain text: show it as text, never as markup.
    #[oai(rename = "organisationName", skip_serializing_if_is_none)]
    pub organisation_name: Option<String>,
}

#[derive(Object, Debug)]
pub struct LoginResponse {
    pub user: SessionUser,
    /// Send this in the `x-csrf-token` header of every POST, PUT, PATCH and
    /// DELETE.
    #[oai(rename = "csrfToken")]
    pub csrf_token: String,
    /// The roles this user may give the users they add (the Add User form
    /// offers exactly these, the first as its default); empty for those who
    /// may not add users.
    #[oai(rename = "assignableRoles")]
    pub assignable_roles: Vec<Role>,
    /// The plan modules of the user's organisation (none for platform
    /// admins). Operations of the others answer 403 `module_disabled`.
    pub modules: Vec<Text<ModuleKey>>,
}

/// A plan module an organisation can have: its key, the name people read,
/// and the API operations (`operationId`) that belong to it.
#[derive(Object, Debug)]
pub struct PlanModule {
    pub key: Text<ModuleKey>,
    pub name: String,
    pub operations: Vec<String>,
}

/// The signed-in user, their CSRF token, the pages they may open, the roles
/// they may give and their organisation's plan modules.
#[derive(Object, Debug)]
pub struct SessionResponse {
    pub user: SessionUser,
    #[oai(rename = "csrfToken")]
    pub csrf_token: String,
    /// Page routes this user may open: a path is allowed when it equals one of
    /// these or lies below it (case-insensitive, trailing slash ignored; "/"
    /// allows only "/").
    #[oai(rename = "allowedPaths")]
    pub allowed_paths: Vec<String>,
    /// The roles this user may give the users they add (the Add User form
    /// offers exactly these, the first as its default); empty for those who
    /// may not add users.
    #[oai(rename = "assignableRoles")]
    pub assignable_roles: Vec<Role>,
    /// The plan modules of the user's organisation, as they are now (none
    /// for platform admins). Operations of the others answer 403
    /// `module_disabled`; their pages say they are not part of the plan.
    pub modules: Vec<Text<ModuleKey>>,
    /// Every module a plan can have, with the operations that belong to it.
    #[oai(rename = "moduleCatalogue")]
    pub module_catalogue: Vec<PlanModule>,
}

fn module_keys(modules: &[String]) -> Vec<Text<ModuleKey>> {
    modules.iter().map(Text::new).collect()
}

fn module_catalogue(state: &SharedState) -> Vec<PlanModule> {
    MODULES
        .iter()
        .map(|(key, name)| PlanModule {
            key: Text::new(*key),
            name: (*name).to_string(),
            operations: state
                .operations
                .of_module(key)
                .into_iter()
                .map(str::to_string)
                .collect(),
        })
        .collect()
}

json_response!(
    /// Signed in; the session cookie is set.
    LoginOk { 200 => Ok(LoginResponse) }
);

#[derive(ApiResponse)]
pub enum LogoutOk {
    /// Signed out; the session no longer exists on the server.
    #[oai(status = 204)]
    NoContent,
}

const INVALID_CREDENTIALS: &str = "Invalid email or password.";

impl From<&Session> for SessionUser {
    fn from(s: &Session) -> Self {
        Self {
            id: s.account_id,
            name: s.name.clone(),
            email: s.email.clone(),
            role: s.role,
            client_id: s.client_id().map(str::to_string),
            organisation_kind: s.tenant.as_ref().map(|t| t.kind),
            organisation_name: None,
        }
    }
}

/// 429: too many recent attempts; try again after `secs`.
pub fn too_many_attempts(secs: i64) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_attempts",
        format!("Too many failed sign-in attempts. Try again in {secs} seconds."),
    )
}

/// The session cookie with its attributes: HttpOnly, SameSite=Lax, Path=/,
/// Secure whenever the app is served over https.
fn session_cookie(state: &SharedState, value: &str) -> Cookie {
    let mut cookie = Cookie::new_with_str(SESSION_COOKIE, value);
    cookie.set_http_only(true);
    cookie.set_same_site(SameSite::Lax);
    cookie.set_path("/");
    cookie.set_secure(state.settings.secure_cookies());
    cookie
}

#[OpenApi(tag = "ApiTags::Auth")]
impl AuthApi {
    /// Sign in with email and password.
    ///
    /// Sets the private, HttpOnly session cookie and answers with the user and
    /// the CSRF token. Unknown email and wrong password get the same answer.
    /// Repeated failures for one account or address are slowed down (429).
    #[oai(path = "/auth/login", method = "post", operation_id = "login")]
    async fn login(
        &self,
        state: Data<&SharedState>,
        req: &Request,
        jar: &CookieJar,
        body: Json<LoginRequest>,
    ) -> Result<LoginOk, WriteThrottledError> {
        let ctx = authorize_public(req)?;
        let email = body.email.as_str().trim().to_lowercase();
        let password = body.password.as_str();
        if email.is_empty() || password.is_empty() {
            return Err(ApiError::invalid_input("Email and password are required.").into());
        }
        plain_text("Email", &email)?;
        no_control_chars("Password", password)?;
        if password.chars().count() > PASSWORD_MAX || email.len() > 254 {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "invalid_credentials",
                INVALID_CREDENTIALS,
            )
            .into());
        }
        let db = &state.db.platform;
        let account_key = throttle::account_key(&email);
        let address_key = ctx.ip.as_deref().map(throttle::address_key);
        let pair_key = throttle::pair_key(&email, ctx.ip.as_deref());
        // Slowed down, never refused: an address many failures came from
        // (people behind an attacker's proxy), and an account many
        // failures were aimed at (its owner, from anywhere): each waits a
        // fixed delay before its password is checked (ADR 0009).
        let slow = [address_key.clone(), Some(account_key.clone())]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>();
        if store::throttle_locked_for(db, &slow).await?.is_some() {
            tokio::time::sleep(throttle::SLOW_DELAY).await;
        }
        // Refused only from where the failures came: this account from this
        // address. The attempt is counted before its password is checked,
        // so parallel guesses from one address cannot all slip in before
        // the first failure is recorded.
        if let Some(secs) =
            throttle::take_attempt(db, &pair_key, throttle::ACCOUNT_THRESHOLD).await?
        {
            return Err(too_many_attempts(secs).into());
        }
        let account = store::find_login_account(db, &email).await?;
        let verified = state
            .passwords
            .verify(password, account.as_ref().map(|a| a.password_hash.as_str()))
            .await?;
        let account = match account {
            Some(a) if verified => a,
            _ => {
                if let Some(key) = &address_key {
                    store::throttle_record_failure(db, key, throttle::ADDRESS_THRESHOLD).await?;
                }
                store::throttle_record_failure(db, &account_key, throttle::ACCOUNT_THRESHOLD)
                    .await?;
                tracing::info!("sign-in failed");
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "invalid_credentials",
                    INVALID_CREDENTIALS,
                )
                .into());
            }
        };
        if account.tenant_status.as_deref() == Some("suspended") {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "tenant_suspended",
                "Your organisation's access is suspended. Contact your account manager.",
            )
            .into());
        }
        store::throttle_clear(db, &account_key).await?;
        store::throttle_clear(db, &pair_key).await?;
        // Rotate: a session this browser already had is ended, never reused.
        if let Some(old) = &ctx.session {
            store::delete_session(db, &old.id_hash).await?;
        }
        let new =
            store::create_session(db, account.id, state.settings.session_absolute_timeout).await?;
        audit::record(
            db,
            &audit::Actor {
                account_id: Some(account.id),
                email: account.email.clone(),
                ip: ctx.ip.clone(),
            },
            "auth.login",
            None,
            Some(&account.email),
            serde_json::json!({}),
        )
        .await?;

        let mut cookie = session_cookie(&state, &new.token);
        cookie.set_max_age(state.settings.session_absolute_timeout);
        jar.private_with_key(&state.cookie_key).add(cookie);

        let role = Role::parse(&account.role)
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("bad role")))?;
        let kind = account.tenant_kind.as_deref().and_then(TenantKind::parse);
        let domain = match (kind, &account.client_id) {
            (Some(kind), Some(client_id)) => kind.access_domain(client_id),
            _ => PLATFORM_DOMAIN.to_string(),
        };
        Ok(LoginOk::Ok(Json(LoginResponse {
            assignable_roles: roles_to_offer(&state.access, role, &domain, kind),
            user: SessionUser {
                id: account.id,
                name: account.name,
                email: account.email,
                role,
                client_id: account.client_id,
                organisation_kind: kind,
                organisation_name: None,
            },
            csrf_token: new.csrf_token,
            modules: module_keys(&account.modules.unwrap_or_default()),
        })))
    }

    /// The signed-in user, the CSRF token, the page routes they may open and
    /// their organisation's plan modules.
    #[oai(path = "/auth/session", method = "get", operation_id = "getSession")]
    async fn session(
        &self,
        state: Data<&SharedState>,
        caller: SignedIn,
    ) -> Result<JsonOk<SessionResponse>, AccessError> {
        let s = &caller.session;
        let domain = s.access_domain();
        let mut user = SessionUser::from(s.as_ref());
        if let Some(tenant) = &s.tenant {
            let mut conn = state.db.read_tenant(tenant).await?;
            user.organisation_name =
                Some(crate::organisation::store::display_name(&mut conn).await?);
        }
        Ok(JsonOk(SessionResponse {
            user,
            csrf_token: s.csrf_token.clone(),
            allowed_paths: state.access.allowed_paths(s.role.as_str(), &domain),
            assignable_roles: roles_to_offer(
                &state.access,
                s.role,
                &domain,
                s.tenant.as_ref().map(|t| t.kind),
            ),
            modules: module_keys(&s.modules),
            module_catalogue: module_catalogue(&state),
        }))
    }

    /// Sign out: the session is deleted on the server and the cookie cleared.
    #[oai(path = "/auth/logout", method = "post", operation_id = "logout")]
    async fn logout(
        &self,
        state: Data<&SharedState>,
        caller: SignedIn,
        jar: &CookieJar,
    ) -> Result<LogoutOk, AccessError> {
        store::delete_session(&state.db.platform, &caller.session.id_hash).await?;
        audit::record(
            &state.db.platform,
            &caller.actor,
            "auth.logout",
            None,
            Some(&caller.session.email),
            serde_json::json!({}),
        )
        .await?;
        // The removal must carry the cookie's own Path, or the browser keeps
        // the cookie (a removal without Path applies to /api/auth only).
        let mut removal = session_cookie(&state, "");
        removal.make_removal();
        jar.add(removal);
        Ok(LogoutOk::NoContent)
    }
}
