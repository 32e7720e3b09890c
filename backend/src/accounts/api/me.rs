//! `/api/me*`: the signed-in user's own profile, password and preferences.

use chrono::{DateTime, Utc};
use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use uuid::Uuid;

use crate::accounts::{LandingPage, NewPassword, PASSWORD_MAX, Role, store};
use crate::audit;
use crate::auth::api::too_many_attempts;
use crate::auth::store as sessions;
use crate::auth::throttle;
use crate::http::error::{AccessError, ApiError, WriteError, WriteThrottledError};
use crate::http::input::{AnyText, Text};
use crate::http::response::JsonOk;
use crate::http::security::{SignedIn, TenantSession};
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;

#[derive(Default)]
pub struct MeApi;

/// The signed-in user's own profile.
#[derive(Object, Debug)]
pub struct Profile {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub role: Role,
    #[oai(rename = "clientId", skip_serializing_if_is_none)]
    pub client_id: Option<String>,
    /// The organisation's name; absent for platform admins.
    #[oai(rename = "organisationName", skip_serializing_if_is_none)]
    pub organisation_name: Option<String>,
    #[oai(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
}

#[derive(Object, Debug)]
pub struct ChangePassword {
    /// A wrong one is refused with 403 (`wrong_password`).
    #[oai(rename = "currentPassword")]
    pub current_password: Text<AnyText>,
    #[oai(rename = "newPassword")]
    pub new_password: Text<NewPassword>,
}

#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[oai(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
    System,
}

impl Theme {
    fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::System => "system",
        }
    }
    fn parse(s: &str) -> Theme {
        match s {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    }
}

/// The signed-in user's preferences (language, landing page, theme, ...).
#[derive(Object, Debug, Clone)]
pub struct Preferences {
    pub theme: Theme,
    /// The page to open after signing in, e.g. `/` or `/products`.
    #[oai(rename = "landingPage")]
    pub landing_page: Text<LandingPage>,
}

impl Default for Preferences {
    fn default() -> Self {
        Self {
            theme: Theme::System,
            landing_page: Text::new("/"),
        }
    }
}

#[derive(ApiResponse)]
pub enum PasswordOk {
    /// Changed; every other session of this account has ended.
    #[oai(status = 204)]
    NoContent,
}

#[OpenApi(tag = "ApiTags::Me")]
impl MeApi {
    /// The signed-in user's profile.
    #[oai(path = "/me", method = "get", operation_id = "getProfile")]
    async fn profile(
        &self,
        state: Data<&SharedState>,
        caller: SignedIn,
    ) -> Result<JsonOk<Profile>, AccessError> {
        let s = &caller.session;
        let (created_at, organisation_name) =
            store::profile_facts(&state.db.platform, s.account_id).await?;
        Ok(JsonOk(Profile {
            id: s.account_id,
            name: s.name.clone(),
            email: s.email.clone(),
            role: s.role,
            client_id: s.client_id().map(str::to_string),
            organisation_name,
            created_at,
        }))
    }

    /// Change one's own password, proving the current one. Other sessions of
    /// the account end; this one stays. Wrong current passwords are slowed
    /// down like failed sign-ins (429).
    #[oai(
        path = "/me/password",
        method = "put",
        operation_id = "changeOwnPassword"
    )]
    async fn change_password(
        &self,
        state: Data<&SharedState>,
        caller: SignedIn,
        body: Json<ChangePassword>,
    ) -> Result<PasswordOk, WriteThrottledError> {
        let s = &caller.session;
        let new = body.new_password.parse()?;
        let Some(current) = body.current_password.get() else {
            return Err(ApiError::invalid_input("The current password is required.").into());
        };
        // Wrong current passwords are throttled like sign-in, on the same key.
        let key = throttle::account_key(&s.email);
        if let Some(secs) =
            throttle::take_attempt(&state.db.platform, &key, throttle::ACCOUNT_THRESHOLD).await?
        {
            return Err(too_many_attempts(secs).into());
        }
        let stored = store::password_hash(&state.db.platform, s.account_id).await?;
        // No stored password is longer than the cap: anything longer is wrong
        // without spending a hash on it.
        let plausible = current.chars().count() <= PASSWORD_MAX;
        if !plausible || !state.passwords.verify(current, Some(&stored)).await? {
            // 403, not 400: the request is well formed; the caller failed to
            // prove who they are.
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_password",
                "The current password is not correct.",
            )
            .into());
        }
        sessions::throttle_clear(&state.db.platform, &key).await?;
        let hash = state.passwords.hash(new.expose()).await?;
        let mut tx = state.db.begin_platform().await?;
        store::set_password(&mut tx, s.account_id, &hash).await?;
        sessions::end_others_for_account(&mut *tx, s.account_id, &s.id_hash).await?;
        audit::record(
            &mut *tx,
            &caller.actor,
            "user.change_own_password",
            s.tenant.as_ref().map(|t| t.id),
            Some(&s.email),
            serde_json::json!({}),
        )
        .await?;
        tx.commit().await?;
        Ok(PasswordOk::NoContent)
    }

    /// The signed-in user's preferences (defaults until saved; platform
    /// admins always get the defaults).
    #[oai(
        path = "/me/preferences",
        method = "get",
        operation_id = "getPreferences"
    )]
    async fn preferences(
        &self,
        state: Data<&SharedState>,
        caller: SignedIn,
    ) -> Result<JsonOk<Preferences>, AccessError> {
        let Some(tenant) = &caller.session.tenant else {
            return Ok(JsonOk(Preferences::default()));
        };
        let mut conn = state.db.read_tenant(tenant).await?;
        let row = store::preferences(&mut conn, caller.session.account_id).await?;
        drop(conn);
        Ok(JsonOk(row.map_or_else(Preferences::default, |(t, l)| {
            Preferences {
                theme: Theme::parse(&t),
                landing_page: Text::new(l),
            }
        })))
    }

    /// Save the signed-in user's preferences.
    #[oai(
        path = "/me/preferences",
        method = "put",
        operation_id = "savePreferences"
    )]
    async fn save_preferences(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<Preferences>,
    ) -> Result<JsonOk<Preferences>, WriteError> {
        let landing = body.landing_page.parse()?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::save_preferences(
            &mut tx,
            caller.session.account_id,
            body.theme.as_str(),
            landing.as_str(),
        )
        .await?;
        tx.commit().await?;
        Ok(JsonOk(Preferences {
            theme: body.theme,
            landing_page: Text::new(landing.as_str()),
        }))
    }
}
