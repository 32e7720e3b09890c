//! The brand's identity on the scan page (issue 21): its logo and the
//! product's first image, served without sign-in under the resolver's own
//! origin, so that the page's CSP (`img-src 'self'`) allows them.
//!
//! `GET /r/brand/{gtin}/logo/{id}.{ext}` and
//! `GET /r/brand/{gtin}/image/{id}.{ext}`. The GTIN names the brand (through
//! the platform's GTIN registry, as the resolver finds it) and the file's
//! id must be the one that brand's row holds now: the organisation's current
//! logo, or the first image of the GTIN's active product. The storage key is
//! built from the brand's tenant and that id, never from the path, so no
//! address can reach another tenant's file, another product's image, a
//! replaced logo or any other file. Files are served as the product images
//! are: their own type, `nosniff`, a sandboxing CSP.

use poem::http::{StatusCode, header};
use poem::web::{Data, Path};
use poem::{Request, Response, handler};
use uuid::Uuid;

use super::holders::GtinHolders;
use super::store;
use crate::http::rate_limit::RateLimiter;
use crate::http::state::SharedState;
use crate::products::ImageKind;
use crate::products::api::{IMAGE_CSP, image_url, parse_image_name};
use crate::storage::Storage;

/// The URL of the brand's logo on the scan page of `gtin`.
pub fn logo_url(gtin: &str, id: Uuid, ext: &str) -> String {
    format!("/r/brand/{gtin}/logo/{id}.{ext}")
}

/// The URL of the first image of `gtin`'s product, from its stored
/// `image_urls` entry (`/api/products/{product}/images/{id}.{ext}`).
pub fn product_image_url(gtin: &str, stored: &str) -> Option<String> {
    let name = stored.rsplit('/').next()?;
    parse_image_name(name)?;
    Some(format!("/r/brand/{gtin}/image/{name}"))
}

/// Which of the brand's files a path names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Asset {
    Logo,
    Image,
}

async fn find(
    state: &SharedState,
    holders: &GtinHolders,
    gtin: &str,
    asset: Asset,
    id: Uuid,
    kind: ImageKind,
) -> anyhow::Result<Option<object_store::path::Path>> {
    let Some(tenant) = holders.holder(&state.db.platform, gtin).await? else {
        return Ok(None);
    };
    let mut conn = state.db.read_tenant(&tenant).await?;
    let found = match asset {
        Asset::Logo => {
            let logo = crate::organisation::store::logo(&mut conn).await?;
            (logo == Some((id, kind.extension().to_string())))
                .then(|| crate::organisation::api::logo_key(&tenant, id, kind.extension()))
        }
        Asset::Image => {
            let product = match store::product_of_gtin(&mut conn, gtin).await? {
                Some(product) => crate::products::store::find(&mut conn, product).await?,
                None => None,
            };
            product
                .filter(|p| p.archived_at.is_none())
                .filter(|p| p.image_urls.first() == Some(&image_url(p.id, id, kind)))
                .map(|_| Storage::key(&tenant, "images", id, kind.extension()))
        }
    };
    conn.finish().await?;
    Ok(found)
}

fn not_found() -> Response {
    Response::builder()
        .status(StatusCode::NOT_FOUND)
        .content_type("text/plain; charset=utf-8")
        .header(header::CACHE_CONTROL, "no-store")
        .body("No such image.")
}

/// The brand images one address may fetch per minute: a scan page shows
/// at most two (the logo and the product's image), so twice the scans an
/// address may make, apart from the scans' own limit. Without it, anyone
/// could make the server read files from the object store as fast as they
/// can ask.
#[derive(Clone)]
pub struct BrandFileLimiter(RateLimiter);

impl BrandFileLimiter {
    pub fn new(scans_per_minute: u32) -> Self {
        Self(RateLimiter::new(scans_per_minute.saturating_mul(2)))
    }
}

/// `GET /r/brand/:gtin/:asset/:name`: the brand's logo or the product's
/// first image, as the scan page shows them.
#[handler]
pub async fn brand_file(
    req: &Request,
    Path((gtin, asset, name)): Path<(String, String, String)>,
    Data(state): Data<&SharedState>,
    Data(holders): Data<&GtinHolders>,
    Data(limiter): Data<&BrandFileLimiter>,
) -> Response {
    let ip = crate::http::guard::client_ip(req, state.settings.trust_proxy)
        .and_then(|ip| ip.parse().ok());
    if !limiter.0.allow(ip) {
        return Response::builder()
            .status(StatusCode::TOO_MANY_REQUESTS)
            .content_type("text/plain; charset=utf-8")
            .header(header::CACHE_CONTROL, "no-store")
            .header(header::RETRY_AFTER, "60")
            .body("Too many requests from your network. Please wait a minute.");
    }
    let asset = match asset.as_str() {
        "logo" => Asset::Logo,
        "image" => Asset::Image,
        _ => return not_found(),
    };
    let Some((id, kind)) = parse_image_name(&name) else {
        return not_found();
    };
    if gtin.len() != 14 || !gtin.bytes().all(|b| b.is_ascii_digit()) {
        return not_found();
    }
    let key = match find(state, holders, &gtin, asset, id, kind).await {
        Ok(Some(key)) => key,
        Ok(None) => return not_found(),
        Err(err) => {
            tracing::error!(error = ?err, path = req.uri().path(), "reading a brand's image failed");
            return Response::builder()
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .header(header::CACHE_CONTROL, "no-store")
                .body("The image cannot be shown right now.");
        }
    };
    match state.storage.get(&key).await {
        Ok((body, _)) => Response::builder()
            .status(StatusCode::OK)
            .content_type(kind.content_type())
            .header("content-security-policy", IMAGE_CSP)
            // The id changes when the file does; a removed file may stay in
            // a cache for an hour.
            .header(header::CACHE_CONTROL, "public, max-age=3600")
            .body(body),
        Err(object_store::Error::NotFound { .. }) => not_found(),
        Err(err) => {
            tracing::error!(error = %err, "reading a brand's image file failed");
            Response::builder()
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .header(header::CACHE_CONTROL, "no-store")
                .body("The image cannot be shown right now.")
        }
    }
}
