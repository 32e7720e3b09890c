//! The products operations: the spec's list call
//! (`GET /api/product-handler?action=allproducts`) and the REST operations
//! under `/api/products`.

use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::registry::MetaSchema;
use poem_openapi::{Object, OpenApi};
use uuid::Uuid;

use crate::db::{TenantTx, unique_violation};
use crate::http::error::{ApiError, LookupError, QueryError, WriteConflictError, WriteStateError};
use crate::http::input::{Optional, ParseText, PathId, Text, TextRule};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;
use crate::products::store::{self, ProductFields};
use crate::products::{
    Attribute, Attributes, Category, Description, Gtin, Product, ProductName, Skuid, Unit,
};

#[derive(Default)]
pub struct ProductsApi;

/// The spec's list answer: the active products, and the organisation's
/// product limit and how many it has.
#[derive(Object, Debug)]
pub struct ProductList {
    pub products: Vec<Product>,
    pub max_products: i64,
    pub added_products: i64,
}

/// `action` of the spec's list call.
pub struct ProductHandlerAction;

impl TextRule for ProductHandlerAction {
    fn limits(schema: &mut MetaSchema) {
        schema.enum_items = vec!["allproducts".into()];
    }
}

impl ParseText for ProductHandlerAction {
    type Output = ();
    fn parse_text(raw: &str) -> Result<(), ApiError> {
        if raw != "allproducts" {
            return Err(ApiError::invalid_input(
                "Unknown action: use action=allproducts.",
            ));
        }
        Ok(())
    }
}

#[derive(Object, Debug)]
pub struct NewProduct {
    pub product_name: Text<ProductName>,
    /// Unique in the organisation, whatever the case.
    pub skuid: Text<Skuid>,
    /// 8, 12, 13 or 14 digits with a valid GS1 check digit; no other
    /// organisation may use it.
    pub gtin: Text<Gtin>,
    pub category: Optional<Text<Category>>,
    pub product_description: Optional<Text<Description>>,
    /// Typed attributes (at most 50, names unique whatever the case).
    pub attributes: Optional<Vec<Attribute>>,
    /// The company of the organisation it belongs to (`listCompanies`).
    pub company_id: Optional<Uuid>,
    /// Its received and manufactured lots start in quarantine (default
    /// false).
    pub requires_inspection: Optional<bool>,
    /// The unit its quantities are counted in (default `each`).
    pub unit: Optional<Text<Unit>>,
}

/// The fields to change; those left out keep their values.
#[derive(Object, Debug)]
pub struct ProductChange {
    pub product_name: Optional<Text<ProductName>>,
    pub skuid: Optional<Text<Skuid>>,
    pub gtin: Optional<Text<Gtin>>,
    pub category: Optional<Text<Category>>,
    pub product_description: Optional<Text<Description>>,
    /// The whole new list of attributes (replaces the current one).
    pub attributes: Optional<Vec<Attribute>>,
    /// Assigns it to this company of the organisation (`listCompanies`).
    pub company_id: Optional<Uuid>,
    /// Its received and manufactured lots start in quarantine (lots
    /// already registered keep their status).
    pub requires_inspection: Optional<bool>,
    /// The unit its quantities are counted in.
    pub unit: Optional<Text<Unit>>,
}

json_response!(
    /// Created.
    ProductCreated { 201 => Created(Product) }
);

const PRODUCT_LIMIT_REACHED: &str =
    "You have reached your plan's limit of products. Archive a product or ask for a higher limit.";

fn no_such_product() -> ApiError {
    ApiError::not_found("No such product in your organisation.")
}

fn gtin_taken() -> ApiError {
    ApiError::conflict(
        "This GTIN is registered to another organisation. Check the GTIN, or contact support if it is yours.",
    )
}

/// Maps the unique indexes of `products` to a message a person can act on.
fn conflict(err: sqlx::Error) -> ApiError {
    match unique_violation(&err) {
        Some("products_skuid_key") => ApiError::conflict("Another product already has this skuid."),
        Some("products_gtin_key") => ApiError::conflict("Another product already has this GTIN."),
        _ => ApiError::from(err),
    }
}

/// Refuses a company id that is not one of the organisation's companies: a
/// 409 (the request is well formed; the organisation has no such company,
/// so it conflicts with the organisation's state). Not a 404: the product
/// the path names exists.
async fn check_company(tx: &mut TenantTx, company: Option<Uuid>) -> Result<(), ApiError> {
    match company {
        Some(id) if !crate::companies::store::exists(tx, id).await? => Err(ApiError::conflict(
            "No such company in your organisation: company_id must name one of its companies (see the company list).",
        )),
        _ => Ok(()),
    }
}

/// Claims `gtin` for the caller's organisation, in `tx`.
async fn claim(tx: &mut TenantTx, gtin: &Gtin) -> Result<(), ApiError> {
    if store::claim_gtin(tx, gtin.as_str()).await? {
        Ok(())
    } else {
        Err(gtin_taken())
    }
}

#[OpenApi(tag = "ApiTags::Products")]
impl ProductsApi {
    /// The organisation's active products, with `max_products` (its plan's
    /// limit) and `added_products` (how many it has).
    #[oai(
        path = "/product-handler",
        method = "get",
        operation_id = "listProducts"
    )]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// Must be `allproducts`.
        action: Query<Text<ProductHandlerAction>>,
    ) -> Result<JsonOk<ProductList>, QueryError> {
        action.0.parse()?;
        // One snapshot for the list and its counts.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let products = store::list_active(&mut tx).await?;
        let (max_products, _) = store::plan(&mut tx).await?;
        drop(tx);
        Ok(JsonOk(ProductList {
            added_products: products.len() as i64,
            max_products: i64::from(max_products),
            products,
        }))
    }

    /// Create a product within the plan's product limit; its GTIN is
    /// registered to the organisation.
    #[oai(path = "/products", method = "post", operation_id = "createProduct")]
    async fn create(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewProduct>,
    ) -> Result<ProductCreated, WriteConflictError> {
        let name = body.product_name.parse()?;
        let skuid = body.skuid.parse()?;
        let gtin = body.gtin.parse()?;
        let category = body.category.parse()?;
        let description = body.product_description.parse()?;
        let unit = body.unit.parse()?;
        let attributes = body
            .attributes
            .as_ref()
            .map(|a| Attributes::parse(a))
            .transpose()?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let limit = store::lock_product_limit(&mut tx).await?;
        if store::count_active(&mut tx).await? >= i64::from(limit) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "product_limit",
                PRODUCT_LIMIT_REACHED,
            )
            .into());
        }
        let company_id = body.company_id.as_ref().copied();
        check_company(&mut tx, company_id).await?;
        claim(&mut tx, &gtin).await?;
        let fields = ProductFields {
            product_name: Some(name.as_str()),
            skuid: Some(skuid.as_str()),
            gtin: Some(gtin.as_str()),
            category: category.as_ref().map(Category::as_str),
            product_description: description.as_ref().map(Description::as_str),
            attributes,
            company_id,
            requires_inspection: body.requires_inspection.as_ref().copied(),
            unit: unit.as_ref().map(Unit::as_str),
        };
        let product = store::insert(&mut tx, &fields, caller.session.account_id)
            .await
            .map_err(conflict)?;
        tx.commit().await?;
        Ok(ProductCreated::Created(Json(product)))
    }

    /// One active product of the organisation (a deleted, i.e. archived,
    /// one is gone: 404; its code jobs stay).
    #[oai(path = "/products/:id", method = "get", operation_id = "getProduct")]
    async fn get(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Product>, LookupError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let product = store::find(&mut conn, id.0.or(no_such_product)?)
            .await?
            .filter(|p| p.archived_at.is_none())
            .ok_or_else(no_such_product)?;
        Ok(JsonOk(product))
    }

    /// Change an active product. A new GTIN is registered to the
    /// organisation and the old one given up; a product with codes keeps
    /// its GTIN (its codes carry it).
    #[oai(
        path = "/products/:id",
        method = "patch",
        operation_id = "updateProduct"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: Json<ProductChange>,
    ) -> Result<JsonOk<Product>, WriteStateError> {
        let name = body.product_name.parse()?;
        let skuid = body.skuid.parse()?;
        let gtin = body.gtin.parse()?;
        let category = body.category.parse()?;
        let description = body.product_description.parse()?;
        let unit = body.unit.parse()?;
        let attributes = body
            .attributes
            .as_ref()
            .map(|a| Attributes::parse(a))
            .transpose()?;
        let id = id.0.or(no_such_product)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let current = store::lock_active(&mut tx, id)
            .await?
            .ok_or_else(no_such_product)?;
        let company_id = body.company_id.as_ref().copied();
        check_company(&mut tx, company_id).await?;
        let new_gtin = gtin.as_ref().filter(|g| g.as_str() != current.gtin);
        if let Some(g) = new_gtin {
            if crate::codes::store::product_has_codes(&mut tx, id).await? {
                return Err(ApiError::conflict(
                    "This product has serialized codes carrying its GTIN, so its GTIN can no longer change. Create a new product for the new GTIN.",
                )
                .into());
            }
            claim(&mut tx, g).await?;
        }
        let fields = ProductFields {
            product_name: name.as_ref().map(ProductName::as_str),
            skuid: skuid.as_ref().map(Skuid::as_str),
            gtin: new_gtin.map(Gtin::as_str),
            category: category.as_ref().map(Category::as_str),
            product_description: description.as_ref().map(Description::as_str),
            attributes,
            company_id,
            requires_inspection: body.requires_inspection.as_ref().copied(),
            unit: unit.as_ref().map(Unit::as_str),
        };
        let product = store::update(&mut tx, id, &fields)
            .await
            .map_err(conflict)?;
        if new_gtin.is_some() {
            store::release_gtin(&mut tx, &current.gtin).await?;
        }
        tx.commit().await?;
        Ok(JsonOk(product))
    }

    /// Delete (archive) a product: it leaves the list and stops counting
    /// against the limit; its GTIN stays the organisation's.
    #[oai(
        path = "/products/:id",
        method = "delete",
        operation_id = "archiveProduct"
    )]
    async fn archive(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Product>, LookupError> {
        let id = id.0.or(no_such_product)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let product = store::archive(&mut tx, id)
            .await?
            .ok_or_else(no_such_product)?;
        tx.commit().await?;
        Ok(JsonOk(product))
    }
}
