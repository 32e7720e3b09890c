//! A product's images: `POST /api/products/{id}/images` (multipart, one
//! file), `GET` and `DELETE /api/products/{id}/images/{image}`.
//!
//! An image's type is read from its content (PNG, JPEG, WebP), never from
//! its name or declared type; it is stored under the tenant's own key prefix
//! and served with its own content type, `nosniff` and a sandboxing CSP, so
//! a file that pretends to be an image is never run as markup.

use poem::Body;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::{Binary, Json, Response};
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, OpenApi};
use uuid::Uuid;

use crate::http::error::{ApiError, LookupError, WriteStateError};
use crate::http::input::PathId;
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;
use crate::products::{IMAGES_PER_PRODUCT, ImageKind, Product, store};
use crate::storage::Storage;

#[derive(Default)]
pub struct ProductImagesApi;

/// One image file.
#[derive(Multipart, Debug)]
#[oai(deny_unknown_fields)]
pub struct ImageUpload {
    /// A PNG, JPEG or WebP image of at most 5 MB.
    pub file: Upload,
}

json_response!(
    /// Added: the product with the new image's URL last in `image_urls`.
    ImageAdded { 201 => Created(Product) }
);

/// Served as itself, never sniffed, and sandboxed should a browser open it
/// as a document.
pub const IMAGE_CSP: &str = "default-src 'none'; sandbox";

#[derive(ApiResponse)]
pub enum ImageFile {
    /// The image: `image/png`, `image/jpeg` or `image/webp`, as its content
    /// is.
    #[oai(status = 200, content_type = "image/*")]
    Ok(
        Binary<Body>,
        #[oai(header = "content-security-policy")] String,
    ),
}

fn no_such_product() -> ApiError {
    ApiError::not_found("No such product in your organisation.")
}

fn no_such_image() -> ApiError {
    ApiError::not_found("No such image of this product.")
}

/// The URL of a product's image, as `image_urls` holds it.
pub fn image_url(product: Uuid, image: Uuid, kind: ImageKind) -> String {
    format!(
        "/api/products/{product}/images/{image}.{}",
        kind.extension()
    )
}

/// `{uuid}.{png|jpg|webp}`; None for anything else.
pub fn parse_image_name(name: &str) -> Option<(Uuid, ImageKind)> {
    let (id, ext) = name.rsplit_once('.')?;
    Some((Uuid::parse_str(id).ok()?, ImageKind::from_extension(ext)?))
}

#[OpenApi(tag = "ApiTags::Products")]
impl ProductImagesApi {
    /// Add an image to an active product (at most 10 per product).
    #[oai(
        path = "/products/:id/images",
        method = "post",
        operation_id = "addProductImage"
    )]
    async fn add(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: ImageUpload,
    ) -> Result<ImageAdded, WriteStateError> {
        let id = id.0.or(no_such_product)?;
        let bytes = body
            .file
            .into_vec()
            .await
            .map_err(|_| ApiError::invalid_input("The file could not be read."))?;
        let kind = ImageKind::check(&bytes)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let product = store::lock_active(&mut tx, id)
            .await?
            .ok_or_else(no_such_product)?;
        if product.image_urls.len() >= IMAGES_PER_PRODUCT {
            return Err(ApiError::conflict(
                "This product already has 10 images. Remove one before adding another.",
            )
            .into());
        }
        let image = Uuid::new_v4();
        let key = Storage::key(&caller.tenant, "images", image, kind.extension());
        // The file first: if storing it fails, the product is unchanged; if
        // the transaction then fails, the file is removed again.
        state
            .storage
            .put(&key, bytes)
            .await
            .map_err(ApiError::internal)?;
        let added = async {
            let product = store::add_image(&mut tx, id, &image_url(id, image, kind)).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(product)
        }
        .await;
        match added {
            Ok(product) => Ok(ImageAdded::Created(Json(product))),
            Err(err) => {
                let _ = state.storage.delete(&key).await;
                Err(ApiError::from(err).into())
            }
        }
    }

    /// One of a product's images, as stored.
    #[oai(
        path = "/products/:id/images/:image",
        method = "get",
        operation_id = "getProductImage"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        /// `{uuid}.{png|jpg|webp}`, as in the product's `image_urls`.
        image: Path<String>,
    ) -> Result<Response<ImageFile>, LookupError> {
        let id = id.0.or(no_such_product)?;
        let (image, kind) = parse_image_name(&image.0).ok_or_else(no_such_image)?;
        let product = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            store::find(&mut conn, id)
                .await?
                .filter(|p| p.archived_at.is_none())
                .ok_or_else(no_such_product)?
        };
        if !product.image_urls.contains(&image_url(id, image, kind)) {
            return Err(no_such_image().into());
        }
        let key = Storage::key(&caller.tenant, "images", image, kind.extension());
        let (body, _) = state.storage.get(&key).await.map_err(|err| match err {
            object_store::Error::NotFound { .. } => no_such_image(),
            other => ApiError::internal(other),
        })?;
        Ok(Response::new(ImageFile::Ok(Binary(body), IMAGE_CSP.into()))
            .header("content-type", kind.content_type()))
    }

    /// Remove one of an active product's images.
    #[oai(
        path = "/products/:id/images/:image",
        method = "delete",
        operation_id = "removeProductImage"
    )]
    async fn remove(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        image: Path<String>,
    ) -> Result<JsonOk<Product>, LookupError> {
        let id = id.0.or(no_such_product)?;
        let (image, kind) = parse_image_name(&image.0).ok_or_else(no_such_image)?;
        let url = image_url(id, image, kind);
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let product = store::lock_active(&mut tx, id)
            .await?
            .ok_or_else(no_such_product)?;
        if !product.image_urls.contains(&url) {
            return Err(no_such_image().into());
        }
        let product = store::remove_image(&mut tx, id, &url).await?;
        tx.commit().await?;
        // After the commit: a file left behind by a failed delete is only
        // unreachable, never a broken link.
        let key = Storage::key(&caller.tenant, "images", image, kind.extension());
        if let Err(err) = state.storage.delete(&key).await {
            tracing::warn!(error = %err, "an image file could not be removed");
        }
        Ok(JsonOk(product))
    }
}
