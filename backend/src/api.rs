//! The API contract: every domain's `#[OpenApi]` struct combined into one
//! service under `/api`. `openapi.yaml` at the repository root is this
//! service's spec (`brandops openapi`); a test fails when it is stale.

use poem_openapi::{OpenApiService, Tags};

use crate::auth::api::AuthApi;
use crate::health::HealthApi;
use crate::me::MeApi;
use crate::organisation::OrganisationApi;
use crate::tenants::api::PlatformApi;
use crate::users::api::UsersApi;

#[derive(Tags)]
pub enum ApiTags {
    /// Liveness and readiness.
    Health,
    /// Sign-in, session and sign-out.
    Auth,
    /// The organisation's users (All Users page).
    Users,
    /// The signed-in user's own profile and preferences.
    Me,
    /// The signed-in user's organisation.
    Organisation,
    /// Platform administration: tenants.
    Platform,
}

pub type Apis = (
    HealthApi,
    AuthApi,
    UsersApi,
    MeApi,
    OrganisationApi,
    PlatformApi,
);

pub fn service() -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        (
            HealthApi,
            AuthApi,
            UsersApi,
            MeApi,
            OrganisationApi,
            PlatformApi,
        ),
        "brandops API",
        env!("CARGO_PKG_VERSION"),
    )
    .description(
        "Every error answer is JSON {\"error\": \"...\", \"code\": \"...\"}. \
         Unsafe methods need the x-csrf-token header from the sign-in or session answer.",
    )
    .url_prefix("/api")
}

/// The committed contract, as YAML.
pub fn spec_yaml() -> String {
    service().spec_yaml()
}
