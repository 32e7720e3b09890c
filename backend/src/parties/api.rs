//! `/api/suppliers` and `/api/customers`: the organisation's parties.
//! Both kinds share the handlers below; each has its own tag (and module:
//! suppliers are procurement's, customers logistics').

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use uuid::Uuid;

use super::store::{self, NewParty, PartyRow};
use super::{Country, CustomerGroup, Gln, Kind};
use crate::accounts::Email;
use crate::audit;
use crate::companies::CompanyName;
use crate::db::unique_violation;
use crate::http::error::{ApiError, LookupError, QueryError, WriteConflictError};
use crate::http::fields::ShortText;
use crate::http::input::{Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;

/// Parties a list answers at most (narrow it with `q`).
const LIST_LIMIT: i64 = 1000;

#[derive(Default)]
pub struct SuppliersApi;

#[derive(Default)]
pub struct CustomersApi;

// --- shapes ----------------------------------------------------------------------

/// An organisation the goods are bought from.
#[derive(Object, Debug)]
pub struct Supplier {
    pub id: Uuid,
    pub name: String,
    /// Its GS1 Global Location Number (13 digits), when known.
    #[oai(skip_serializing_if_is_none)]
    pub gln: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub email: Option<String>,
    /// ISO 3166-1 alpha-2.
    pub country: String,
    pub created_at: DateTime<Utc>,
}

/// An organisation the goods are shipped and sold to.
#[derive(Object, Debug)]
pub struct Customer {
    pub id: Uuid,
    pub name: String,
    /// Its GS1 Global Location Number (13 digits), when known: the
    /// destination of its shipments' EPCIS events.
    #[oai(skip_serializing_if_is_none)]
    pub gln: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub email: Option<String>,
    /// ISO 3166-1 alpha-2.
    pub country: String,
    /// Its price-list group (`wholesale`), when it has one.
    #[oai(skip_serializing_if_is_none)]
    pub group: Option<String>,
    pub created_at: DateTime<Utc>,
}

impl From<PartyRow> for Supplier {
    fn from(r: PartyRow) -> Self {
        Supplier {
            id: r.id,
            name: r.name,
            gln: r.gln,
            email: r.email,
            country: r.country,
            created_at: r.created_at,
        }
    }
}

impl From<PartyRow> for Customer {
    fn from(r: PartyRow) -> Self {
        Customer {
            id: r.id,
            name: r.name,
            gln: r.gln,
            email: r.email,
            country: r.country,
            group: r.customer_group,
            created_at: r.created_at,
        }
    }
}

/// The organisation's suppliers by name (at most 1,000).
#[derive(Object, Debug)]
pub struct SupplierList {
    pub suppliers: Vec<Supplier>,
}

/// The organisation's customers by name (at most 1,000).
#[derive(Object, Debug)]
pub struct CustomerList {
    pub customers: Vec<Customer>,
}

#[derive(Object, Debug)]
pub struct NewSupplier {
    /// 1 to 200 characters.
    pub name: Text<CompanyName>,
    /// 13 digits with a valid GS1 check digit; unique among the
    /// organisation's suppliers.
    pub gln: Optional<Text<Gln>>,
    pub email: Optional<Text<Email>>,
    /// ISO 3166-1 alpha-2, upper case (`DE`).
    pub country: Text<Country>,
}

#[derive(Object, Debug)]
pub struct NewCustomer {
    /// 1 to 200 characters.
    pub name: Text<CompanyName>,
    /// 13 digits with a valid GS1 check digit; unique among the
    /// organisation's customers.
    pub gln: Optional<Text<Gln>>,
    pub email: Optional<Text<Email>>,
    /// ISO 3166-1 alpha-2, upper case (`DE`).
    pub country: Text<Country>,
    /// The price-list group: 1 to 40 lower-case letters, digits, `_` or `-`.
    pub group: Optional<Text<CustomerGroup>>,
}

json_response!(
    /// Added.
    SupplierCreated { 201 => Created(Supplier) }
);
json_response!(
    /// Added.
    CustomerCreated { 201 => Created(Customer) }
);

// --- the shared handlers ---------------------------------------------------------

fn no_such(kind: Kind) -> ApiError {
    ApiError::not_found(format!("No such {} in your organisation.", kind.word()))
}

async fn list(
    state: &SharedState,
    caller: &TenantSession,
    kind: Kind,
    q: Option<&str>,
) -> Result<Vec<PartyRow>, ApiError> {
    let mut conn = state.db.read_tenant(&caller.tenant).await?;
    Ok(store::list(&mut conn, kind, q, LIST_LIMIT).await?)
}

async fn get(
    state: &SharedState,
    caller: &TenantSession,
    kind: Kind,
    id: &PathId,
) -> Result<PartyRow, ApiError> {
    let id = id.or(|| no_such(kind))?;
    let mut conn = state.db.read_tenant(&caller.tenant).await?;
    store::find(&mut conn, kind, id)
        .await?
        .ok_or_else(|| no_such(kind))
}

/// The fields both kinds have, parsed (a 400 naming the field otherwise).
fn parse(
    name: &Text<CompanyName>,
    gln: &Optional<Text<Gln>>,
    email: &Optional<Text<Email>>,
    country: &Text<Country>,
    customer_group: Option<String>,
) -> Result<NewParty, ApiError> {
    Ok(NewParty {
        name: name.parse()?.as_str().to_string(),
        gln: gln.parse_as("gln")?,
        email: email.parse()?.map(|e| e.as_str().to_string()),
        country: country.parse_as("country")?,
        customer_group,
    })
}

async fn create(
    state: &SharedState,
    caller: &TenantSession,
    kind: Kind,
    party: NewParty,
) -> Result<PartyRow, ApiError> {
    let mut tx = state.db.begin_tenant(&caller.tenant).await?;
    let id = Uuid::new_v4();
    let row = store::insert(&mut tx, kind, id, &party, caller.session.account_id)
        .await
        .map_err(|e| match unique_violation(&e) {
            Some(_) => ApiError::new(
                poem::http::StatusCode::CONFLICT,
                "duplicate_gln",
                format!(
                    "Another {} of your organisation has the GLN {}; a GLN names one place.",
                    kind.word(),
                    party.gln.as_deref().unwrap_or_default()
                ),
            ),
            None => ApiError::from(e),
        })?;
    audit::record_own_tenant(
        &mut tx,
        &caller.actor,
        &format!("{}.created", kind.word()),
        &id.to_string(),
        serde_json::json!({
            "name": row.name,
            "gln": row.gln,
            "country": row.country,
            "group": row.customer_group,
        }),
    )
    .await?;
    tx.commit().await?;
    Ok(row)
}

// --- the operations ----------------------------------------------------------------

#[OpenApi(tag = "ApiTags::Suppliers")]
impl SuppliersApi {
    /// The organisation's suppliers by name; `q` keeps those whose name
    /// (any case) or GLN contains it. At most 1,000.
    #[oai(path = "/suppliers", method = "get", operation_id = "listSuppliers")]
    async fn list_suppliers(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        q: Query<Option<Text<ShortText>>>,
    ) -> Result<JsonOk<SupplierList>, QueryError> {
        let q = q.0.as_ref().map(|q| q.parse_as("q")).transpose()?;
        let rows = list(&state, &caller, Kind::Supplier, q.as_deref()).await?;
        Ok(JsonOk(SupplierList {
            suppliers: rows.into_iter().map(Supplier::from).collect(),
        }))
    }

    /// One supplier.
    #[oai(path = "/suppliers/:id", method = "get", operation_id = "getSupplier")]
    async fn get_supplier(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Supplier>, LookupError> {
        Ok(JsonOk(
            get(&state, &caller, Kind::Supplier, &id.0).await?.into(),
        ))
    }

    /// Adds a supplier (admins and managers). A GLN, when given, must have
    /// its check digit right and be unique among the suppliers (409
    /// `duplicate_gln`).
    #[oai(path = "/suppliers", method = "post", operation_id = "createSupplier")]
    async fn create_supplier(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewSupplier>,
    ) -> Result<SupplierCreated, WriteConflictError> {
        let party = parse(&body.name, &body.gln, &body.email, &body.country, None)?;
        let row = create(&state, &caller, Kind::Supplier, party).await?;
        Ok(SupplierCreated::Created(Json(row.into())))
    }
}

#[OpenApi(tag = "ApiTags::Customers")]
impl CustomersApi {
    /// The organisation's customers by name; `q` keeps those whose name
    /// (any case) or GLN contains it. At most 1,000.
    #[oai(path = "/customers", method = "get", operation_id = "listCustomers")]
    async fn list_customers(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        q: Query<Option<Text<ShortText>>>,
    ) -> Result<JsonOk<CustomerList>, QueryError> {
        let q = q.0.as_ref().map(|q| q.parse_as("q")).transpose()?;
        let rows = list(&state, &caller, Kind::Customer, q.as_deref()).await?;
        Ok(JsonOk(CustomerList {
            customers: rows.into_iter().map(Customer::from).collect(),
        }))
    }

    /// One customer.
    #[oai(path = "/customers/:id", method = "get", operation_id = "getCustomer")]
    async fn get_customer(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<Customer>, LookupError> {
        Ok(JsonOk(
            get(&state, &caller, Kind::Customer, &id.0).await?.into(),
        ))
    }

    /// Adds a customer (admins and managers). A GLN, when given, must have
    /// its check digit right and be unique among the customers (409
    /// `duplicate_gln`).
    #[oai(path = "/customers", method = "post", operation_id = "createCustomer")]
    async fn create_customer(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewCustomer>,
    ) -> Result<CustomerCreated, WriteConflictError> {
        let group = body.group.parse_as("group")?;
        let party = parse(&body.name, &body.gln, &body.email, &body.country, group)?;
        let row = create(&state, &caller, Kind::Customer, party).await?;
        Ok(CustomerCreated::Created(Json(row.into())))
    }
}
