//! The API contract: every domain's `#[OpenApi]` struct combined into one
//! service under `/api`. `openapi.yaml` at the repository root is this
//! service's spec (`brandops openapi`); a test fails when it is stale.
//!
//! A new domain adds its API struct to [`Apis`], the one list of them, and
//! an operation that takes more than 64 KiB its limit to [`BODY_LIMITS`].

use poem_openapi::OpenApiService;

use crate::accounts::api::me::MeApi;
use crate::accounts::api::users::UsersApi;
use crate::auth::api::AuthApi;
use crate::batch_updates::api::BatchUpdatesApi;
use crate::codes::api::CodesApi;
use crate::companies::api::CompaniesApi;
use crate::epcis::api::EpcisApi;
use crate::http::health::HealthApi;
use crate::http::operations::BodyLimits;
use crate::labels::api::LabelsApi;
use crate::organisation::api::OrganisationApi;
use crate::passports::api::PassportsApi;
use crate::products::api::{ProductImagesApi, ProductTransferApi, ProductsApi};
use crate::reviews::api::ReviewsApi;
use crate::scans::api::ScansApi;
use crate::tenants::api::TenantsApi;

/// Every API of the service, in the order the contract lists them. (A
/// tuple implements `Default` up to twelve elements, so related domains are
/// grouped in a nested tuple.)
pub type Apis = (
    HealthApi,
    AuthApi,
    UsersApi,
    MeApi,
    OrganisationApi,
    TenantsApi,
    (
        ProductsApi,
        ProductImagesApi,
        ProductTransferApi,
        CodesApi,
        LabelsApi,
    ),
    (
        ScansApi,
        ReviewsApi,
        EpcisApi,
        PassportsApi,
        CompaniesApi,
        BatchUpdatesApi,
    ),
);

/// The operations whose bodies are not the guard's default 64 KiB ones.
pub const BODY_LIMITS: BodyLimits = BodyLimits {
    larger: &[
        // A 5 MB image and its multipart framing.
        ("addProductImage", 5 * 1024 * 1024 + 64 * 1024),
        // 5000 products with long descriptions.
        ("importProducts", 4 * 1024 * 1024),
        // An EPCIS document of up to 1,000 events.
        ("captureEpcis", crate::epcis::MAX_CAPTURE_BYTES),
    ],
    streamed: &[
        // A batch-update file of up to a million rows and its framing.
        (
            "createBatchUpdate",
            crate::batch_updates::MAX_FILE_BYTES + 64 * 1024,
        ),
    ],
};

pub fn service() -> OpenApiService<Apis, ()> {
    OpenApiService::new(Apis::default(), "brandops API", env!("CARGO_PKG_VERSION"))
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
