//! Every route in one place: the API behind the guard, its docs, the
//! domains' public routes outside `/api`, and the web app with its
//! client-side routes falling back to index.html. Each domain's own state is
//! registered here as poem `Data` ([`DomainData`]), for the handlers that
//! take it (`Data<&ScanWriters>`).

use poem::endpoint::StaticFilesEndpoint;
use poem::middleware::{CookieJarManager, SetHeader};
use poem::{Endpoint, EndpointExt, IntoEndpoint, IntoResponse, Route};

use super::api;
use crate::config::Settings;
use crate::http::guard::{Guard, LoadSession};
use crate::http::rate_limit::RateLimiter;
use crate::http::state::SharedState;
use crate::reviews::TokenKey;
use crate::reviews::public::ReviewLimiter;
use crate::scans::geo::IpPlaces;
use crate::scans::holders::GtinHolders;
use crate::scans::identity::BrandFileLimiter;
use crate::scans::ingest::ScanWriters;
use crate::scans::locate::LocateLimiter;
use crate::scans::resolver::ScanLimiter;

/// Reviews one address may send per minute.
const REVIEWS_PER_MINUTE: u32 = 10;

/// The domains' own state, each part its own poem `Data` (all are handles:
/// a request's copy shares them).
#[derive(Clone)]
pub struct DomainData {
    /// Which brand holds a GTIN (the resolver's lookup, remembered briefly).
    gtin_holders: GtinHolders,
    /// The brands' scan writers (people's scans are written in batches).
    scan_writers: ScanWriters,
    /// The offline IP database that places scans (`GEOIP_MMDB`), if any.
    ip_places: Option<IpPlaces>,
    /// The public resolver's per-address limit.
    scan_limiter: ScanLimiter,
    /// Places one address may share per minute (`POST /r/locate`).
    locate_limiter: LocateLimiter,
    /// Brand images (`/r/brand/…`) one address may fetch per minute.
    brand_file_limiter: BrandFileLimiter,
    /// Reviews one address may send per minute.
    review_limiter: ReviewLimiter,
    /// Signs the review tokens of scans (derived from `DB_ROLE_SECRET`).
    review_key: TokenKey,
}

impl DomainData {
    pub fn new(settings: &Settings) -> anyhow::Result<Self> {
        let ip_places = match &settings.geoip_mmdb {
            Some(path) => Some(IpPlaces::open(path)?),
            None => None,
        };
        Ok(Self {
            gtin_holders: GtinHolders::default(),
            scan_writers: ScanWriters::default(),
            ip_places,
            scan_limiter: ScanLimiter::new(settings.scan_rate_per_minute),
            locate_limiter: LocateLimiter(RateLimiter::new(settings.locate_rate_per_minute)),
            brand_file_limiter: BrandFileLimiter::new(settings.scan_rate_per_minute),
            review_limiter: ReviewLimiter(RateLimiter::new(REVIEWS_PER_MINUTE)),
            review_key: TokenKey::derive(settings.db_role_secret.expose()),
        })
    }
}

/// The web app's Content-Security-Policy: its own scripts, styles, images
/// and API only; no inline script, no plug-ins, never framed. (The API docs
/// under /api/docs are Swagger UI's own page, inline script included; like
/// every answer they carry `X-Frame-Options: DENY`.)
const WEB_APP_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; \
     base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// All routes: the API (behind the guard, which loads sessions with
/// `load_session`), its docs, the public routes and the web app.
pub fn routes(
    state: SharedState,
    domains: DomainData,
    load_session: LoadSession,
) -> impl poem::Endpoint {
    let service = api::service();
    let docs = service.swagger_ui();
    // The whole contract: the API's and the public routes' (`api::spec_yaml`).
    let spec_text = api::spec_yaml();
    let spec = poem::endpoint::make_sync(move |_| {
        poem::Response::builder()
            .content_type("application/x-yaml")
            .body(spec_text.clone())
    });
    let frontend = state.settings.frontend_dir.clone();
    // API answers carry sessions and CSRF tokens: never stored by a cache.
    let api = service
        .with(Guard::new(state.clone(), load_session))
        .with(SetHeader::new().overriding("cache-control", "no-store"));
    let web_app: poem::endpoint::BoxEndpoint<'static> = if frontend.join("index.html").is_file() {
        StaticFilesEndpoint::new(frontend)
            .index_file("index.html")
            .fallback_to_index()
            .boxed()
    } else {
        tracing::warn!(dir = %frontend.display(), "web app not built; serving the API only");
        poem::endpoint::make_sync(|_| {
            poem::web::Html(
                "<!doctype html><title>brandops</title><p>The web app is not built. \
                 Run <code>make run</code>, which builds it; the API is at \
                 <a href=\"/api/docs\">/api/docs</a>.</p>",
            )
        })
        .map_to_response()
        .boxed()
    };
    let web_app = web_app
        .catch_all_error(|err| async move { err.into_response() })
        .with(SetHeader::new().overriding("content-security-policy", WEB_APP_CSP));
    // A compressed GS1 Digital Link (`/{base64}`) is one path segment, like
    // the web app's pages: the resolver answers it when it decompresses to
    // a GTIN's Digital Link, and the web app every other path.
    let resolver = std::sync::Arc::new(super::public::with_cors(
        crate::scans::resolver::resolve
            .into_endpoint()
            .map_to_response()
            .boxed(),
    ));
    let web_app = web_app.around(move |ep, req| {
        let resolver = resolver.clone();
        async move {
            if matches!(
                crate::scans::compressed::decompress(req.uri().path()),
                Some(Ok(_))
            ) {
                resolver.call(req).await
            } else {
                ep.call(req).await.map(IntoResponse::into_response)
            }
        }
    });
    let mut headers = SetHeader::new()
        .overriding("x-content-type-options", "nosniff")
        .overriding("referrer-policy", "same-origin")
        .overriding("x-frame-options", "DENY");
    if state.settings.secure_cookies() {
        headers = headers.overriding(
            "strict-transport-security",
            "max-age=63072000; includeSubDomains",
        );
    }
    let mut route = Route::new()
        .nest("/api/docs", docs)
        .at("/api/openapi.yaml", spec)
        .nest("/api", api)
        .at("/r/scan.js", poem::get(crate::scans::page::script))
        // The brand's logo and the product's first image on the scan page.
        .at(
            "/r/brand/:gtin/:asset/:name",
            poem::get(crate::scans::identity::brand_file),
        );
    // The public routes an app calls without signing in, as their contract
    // describes them (`public.rs`): the resolver of GS1 Digital Link URIs
    // (issue 9), the scan page's review form and its "share my place".
    for (path, endpoint) in super::public::endpoints() {
        route = route.at(path, endpoint);
    }
    // The Digital Links of GS1's other primary keys (`/414/…`, `/00/…`) and
    // the other well-known addresses: the resolver's own 404, never the web
    // app's index.html (the GS1-Conformant Resolver standard).
    let not_ours = || {
        super::public::with_cors(
            crate::scans::resolver::other_key
                .into_endpoint()
                .map_to_response()
                .boxed(),
        )
    };
    for key in crate::scans::links::OTHER_PRIMARY_KEYS {
        route = route.at(format!("/{key}/*rest"), not_ours());
    }
    route = route.at("/.well-known/*rest", not_ours());
    route
        .nest("/", web_app)
        // Errors become answers here, so that they carry the headers too.
        .catch_all_error(|err| async move { err.into_response() })
        .with(headers)
        .with(CookieJarManager::new())
        .data(state)
        .data(domains.gtin_holders)
        .data(domains.scan_writers)
        .data(domains.ip_places)
        .data(domains.scan_limiter)
        .data(domains.locate_limiter)
        .data(domains.brand_file_limiter)
        .data(domains.review_limiter)
        .data(domains.review_key)
        .into_endpoint()
}
