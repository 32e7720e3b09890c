//! The OpenAPI tags. A leaf module: every domain's API names its tag from
//! here, and this file imports nothing from the crate, so nothing imports in a
//! circle.

use poem_openapi::Tags;

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
    /// Products, their GTINs and the plan's product limit.
    Products,
    /// Serialized codes: code jobs, their progress and downloads.
    Codes,
    /// Label templates, previews and print jobs.
    Labels,
    /// Scans of codes: the brand's analytics, its suspicious-scan rules and
    /// the platform admins' list across brands. (The public resolver itself,
    /// `GET /01/{gtin}[/10/{lot}]/21/{serial}`, is outside `/api`.)
    Scans,
    /// Digital product passports (EU ESPR Annex III data) of products and
    /// lots, their versions and completeness.
    Passports,
}
