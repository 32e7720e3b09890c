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
use crate::inventory::api::InventoryApi;
use crate::labels::api::LabelsApi;
use crate::logistics::api::LogisticsApi;
use crate::lots::api::LotsApi;
use crate::manufacturing::api::ManufacturingApi;
use crate::organisation::api::OrganisationApi;
use crate::parties::api::{CustomersApi, SuppliersApi};
use crate::passports::api::PassportsApi;
use crate::pricing::api::PricingApi;
use crate::procurement::api::ProcurementApi;
use crate::products::api::{ProductImagesApi, ProductTransferApi, ProductsApi};
use crate::quality::api::QualityApi;
use crate::reviews::api::ReviewsApi;
use crate::scans::api::ScansApi;
use crate::tenants::api::TenantsApi;
use crate::trace::api::{GenealogyApi, RecallsApi};

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
    // The ERP (issue 22 on): the lot register, inventory, quality, the
    // parties, logistics, manufacturing, procurement, genealogy, recalls and
    // pricing. The next ERP domains join this tuple (at most 12: then a nested
    // one).
    (
        LotsApi,
        InventoryApi,
        QualityApi,
        SuppliersApi,
        CustomersApi,
        LogisticsApi,
        ManufacturingApi,
        ProcurementApi,
        GenealogyApi,
        RecallsApi,
        PricingApi,
    ),
);

/// The operations whose bodies are not the guard's default 64 KiB ones.
pub const BODY_LIMITS: BodyLimits = BodyLimits {
    larger: &[
        // A 5 MB image and its multipart framing.
        ("addProductImage", 5 * 1024 * 1024 + 64 * 1024),
        // The organisation's logo: the same rules as a product image.
        ("uploadOrganisationLogo", 5 * 1024 * 1024 + 64 * 1024),
        // 5000 products with long descriptions.
        ("importProducts", 4 * 1024 * 1024),
        // An EPCIS document of up to 1,000 events.
        ("captureEpcis", crate::epcis::MAX_CAPTURE_BYTES),
        // A price list of up to 500 products with up to 20 breaks each.
        ("createPriceList", crate::pricing::MAX_LIST_BYTES),
        ("updatePriceList", crate::pricing::MAX_LIST_BYTES),
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

/// The committed contract, as YAML: the `/api` service's, with the public
/// routes' (`super::public`) merged in: their paths, their schemas (a name
/// both use must mean the same schema) and their tag.
pub fn spec_yaml() -> String {
    use serde_yaml::Value;
    let parse = |yaml: String| serde_yaml::from_str::<Value>(&yaml).expect("a spec is YAML");
    let mut doc = parse(service().spec_yaml());
    let public = parse(super::public::service().spec_yaml());
    for section in ["paths", "components.schemas"] {
        let pick = |doc: &Value| -> Option<serde_yaml::Mapping> {
            section
                .split('.')
                .try_fold(doc, |v, key| v.get(key))?
                .as_mapping()
                .cloned()
        };
        let Some(extra) = pick(&public) else { continue };
        let target = section
            .split('.')
            .try_fold(&mut doc, |v, key| v.get_mut(key))
            .and_then(Value::as_mapping_mut)
            .expect("the /api spec has paths and schemas");
        for (name, value) in extra {
            if let Some(existing) = target.get(&name) {
                assert_eq!(
                    existing, &value,
                    "{section}: {name:?} differs between the specs"
                );
            }
            target.insert(name, value);
        }
    }
    if let (Some(tags), Some(extra)) = (
        doc.get_mut("tags").and_then(Value::as_sequence_mut),
        public.get("tags").and_then(Value::as_sequence),
    ) {
        for tag in extra {
            if !tags.iter().any(|t| t.get("name") == tag.get("name")) {
                tags.push(tag.clone());
            }
        }
    }
    serde_yaml::to_string(&doc).expect("a spec serializes")
}
