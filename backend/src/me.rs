//! `/api/me*`: the signed-in user's own profile, password and preferences.

use chrono::{DateTime, Utc};
use poem::Request;
use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use uuid::Uuid;

use crate::accounts::{NewPassword, Role};
use crate::api::ApiTags;
use crate::audit;
use crate::auth::SessionAuth;
use crate::auth::guard::context;
use crate::db::end_read_only;
use crate::error::ApiError;
use crate::error_responses;
use crate::state::SharedState;

pub struct MeApi;

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
    #[oai(rename = "currentPassword")]
    pub current_password: String,
    #[oai(rename = "newPassword")]
    pub new_password: String,
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

#[derive(Object, Debug, Clone)]
pub struct Preferences {
    pub theme: Theme,
    /// The page to open after signing in, e.g. `/` or `/products`.
    #[oai(rename = "landingPage")]
    pub landing_page: String,
}

impl Default for Preferences {
    fn default() -> Self {
        Self {
            theme: Theme::System,
            landing_page: "/".into(),
        }
    }
}

#[derive(ApiResponse)]
pub enum ProfileOk {
    #[oai(status = 200)]
    Ok(Json<Profile>),
}
error_responses!(ProfileError { Unauthorized = 401, Forbidden = 403 });

#[derive(ApiResponse)]
pub enum PasswordOk {
    /// Changed; every other session of this account has ended.
    #[oai(status = 204)]
    NoContent,
}
error_responses!(PasswordError { BadRequest = 400, Unauthorized = 401, Forbidden = 403 });

#[derive(ApiResponse)]
pub enum PreferencesOk {
    #[oai(status = 200)]
    Ok(Json<Preferences>),
}
error_responses!(PreferencesError { BadRequest = 400, Unauthorized = 401, Forbidden = 403 });

#[OpenApi(tag = "ApiTags::Me")]
impl MeApi {
    /// The signed-in user's profile.
    #[oai(path = "/me", method = "get", operation_id = "getProfile")]
    async fn profile(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
    ) -> Result<ProfileOk, ProfileError> {
        let s = &auth.0;
        let (created_at, organisation_name): (DateTime<Utc>, Option<String>) = sqlx::query_as(
            "SELECT a.created_at, t.name FROM platform.accounts a
             LEFT JOIN platform.tenants t ON t.id = a.tenant_id WHERE a.id = $1",
        )
        .bind(s.account_id)
        .fetch_one(&state.db.app)
        .await?;
        Ok(ProfileOk::Ok(Json(Profile {
            id: s.account_id,
            name: s.name.clone(),
            email: s.email.clone(),
            role: s.role,
            client_id: s.client_id().map(str::to_string),
            organisation_name,
            created_at,
        })))
    }

    /// Change one's own password, proving the current one. Other sessions of
    /// the account end; this one stays.
    #[oai(
        path = "/me/password",
        method = "put",
        operation_id = "changeOwnPassword"
    )]
    async fn change_password(
        &self,
        state: Data<&SharedState>,
        auth: SessionAuth,
        req: &Request,
        body: Json<ChangePassword>,
    ) -> Result<PasswordOk, PasswordError> {
        let s = &auth.0;
        let new = NewPassword::parse(&body.new_password)?;
        let stored: String =
            sqlx::query_scalar("SELECT password_hash FROM platform.accounts WHERE id = $1")
                .bind(s.account_id)
                .fetch_one(&state.db.app)
                .await?;
        if !state
            .passwords
            .verify(&body.current_password, Some(&stored))
            .await?
        {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "wrong_password",
                "The current password is not correct.",
            )
            .into());
        }
        let hash = state.passwords.hash(new.expose()).await?;
        let mut tx = state.db.begin_platform().await?;
        sqlx::query("UPDATE platform.accounts SET password_hash = $1 WHERE id = $2")
            .bind(&hash)
            .bind(s.account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM platform.sessions WHERE account_id = $1 AND id_hash <> $2")
            .bind(s.account_id)
            .bind(&s.id_hash)
            .execute(&mut *tx)
            .await?;
        audit::record(
            &mut *tx,
            &s.actor(context(req).ip),
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
        auth: SessionAuth,
    ) -> Result<PreferencesOk, PreferencesError> {
        let Some(tenant) = &auth.0.tenant else {
            return Ok(PreferencesOk::Ok(Json(Preferences::default())));
        };
        let mut tx = state.db.begin_tenant(tenant).await?;
        let row: Option<(String, String)> = sqlx::query_as(
            "SELECT theme, landing_page FROM user_preferences WHERE account_id = $1",
        )
        .bind(auth.0.account_id)
        .fetch_optional(&mut *tx)
        .await?;
        end_read_only(tx);
        Ok(PreferencesOk::Ok(Json(row.map_or_else(
            Preferences::default,
            |(t, l)| Preferences {
                theme: Theme::parse(&t),
                landing_page: l,
            },
        ))))
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
        auth: SessionAuth,
        body: Json<Preferences>,
    ) -> Result<PreferencesOk, PreferencesError> {
        let tenant = auth.0.tenant.as_ref().ok_or_else(ApiError::forbidden)?;
        let landing = body.landing_page.trim();
        let valid_landing = landing.starts_with('/')
            && landing.len() <= 200
            && landing
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-'));
        if !valid_landing {
            return Err(ApiError::invalid_input(
                "landingPage must be an app path such as / or /products.",
            )
            .into());
        }
        let mut tx = state.db.begin_tenant(tenant).await?;
        sqlx::query(
            "INSERT INTO user_preferences (account_id, theme, landing_page, updated_at)
             VALUES ($1, $2, $3, now())
             ON CONFLICT (account_id) DO UPDATE
             SET theme = EXCLUDED.theme, landing_page = EXCLUDED.landing_page, updated_at = now()",
        )
        .bind(auth.0.account_id)
        .bind(body.theme.as_str())
        .bind(landing)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(PreferencesOk::Ok(Json(Preferences {
            theme: body.theme,
            landing_page: landing.to_string(),
        })))
    }
}
