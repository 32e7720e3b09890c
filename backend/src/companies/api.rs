//! `/api/companies`: the organisation's companies (client A's CIN
//! selector), adding one, and one company's overview.

use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use uuid::Uuid;

use super::{
    Cin, Company, CompanyBatch, CompanyCodeCounts, CompanyName, CompanyProduct, RegisteredAddress,
    store,
};
use crate::audit;
use crate::db::unique_violation;
use crate::http::error::{AccessError, ApiError, NotFoundError, WriteConflictError};
use crate::http::input::{PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::json_response;

#[derive(Default)]
pub struct CompaniesApi;

/// The organisation's companies, by CIN.
#[derive(Object, Debug)]
pub struct CompanyList {
    pub companies: Vec<Company>,
}

#[derive(Object, Debug)]
pub struct NewCompany {
    /// The Corporate Identification Number: 21 capital letters and digits,
    /// e.g. `L24230MH1950PLC008311`; each part is checked, and the year may
    /// not be later than the current one.
    pub cin: Text<Cin>,
    /// The registered name.
    pub name: Text<CompanyName>,
    /// The registered address, on one line.
    pub registered_address: Text<RegisteredAddress>,
}

/// One company with its products, their batches and its codes.
#[derive(Object, Debug)]
pub struct CompanyOverview {
    pub company: Company,
    pub products: Vec<CompanyProduct>,
    pub batches: Vec<CompanyBatch>,
    pub codes: CompanyCodeCounts,
}

/// A client organisation's codes as its dashboard shows them: the codes
/// generated, printed and scanned for all its products, and its newest
/// batches (lots) with the codes generated for each.
#[derive(Object, Debug)]
pub struct ClientOverview {
    pub codes: CompanyCodeCounts,
    /// The newest batches first, at most 50.
    pub batches: Vec<CompanyBatch>,
    /// The organisation has more batches than listed.
    pub more_batches: bool,
}

/// Batches the client overview lists.
const OVERVIEW_BATCHES: i64 = 50;

json_response!(
    /// Created.
    CompanyCreated { 201 => Created(Company) }
);

fn no_such_company() -> ApiError {
    ApiError::not_found("No such company in your organisation.")
}

#[OpenApi(tag = "ApiTags::Companies")]
impl CompaniesApi {
    /// The organisation's companies, by CIN.
    #[oai(path = "/companies", method = "get", operation_id = "listCompanies")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<CompanyList>, AccessError> {
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let companies = store::list(&mut conn).await?;
        Ok(JsonOk(CompanyList { companies }))
    }

    /// Adds a company (organisation admins). Its CIN is checked part by
    /// part, and may be used by one company of the organisation only.
    // The audit record and the company are written in one transaction.
    #[oai(path = "/companies", method = "post", operation_id = "createCompany")]
    async fn create(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewCompany>,
    ) -> Result<CompanyCreated, WriteConflictError> {
        let cin = body.cin.parse()?;
        let name = body.name.parse()?;
        let address = body.registered_address.parse()?;
        let id = Uuid::new_v4();
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "company.added",
            &id.to_string(),
            serde_json::json!({ "cin": cin.as_str(), "name": name.as_str() }),
        )
        .await?;
        let company = store::insert(
            &mut tx,
            id,
            cin.as_str(),
            name.as_str(),
            address.as_str(),
            Some(caller.session.account_id),
        )
        .await
        .map_err(|err| match unique_violation(&err) {
            Some("companies_cin_key") => ApiError::conflict(format!(
                "A company with the CIN {} is already registered in your organisation.",
                cin.as_str()
            )),
            _ => ApiError::from(err),
        })?;
        tx.commit().await?;
        Ok(CompanyCreated::Created(Json(company)))
    }

    /// One company's overview: its products, their batches (lots) with the
    /// codes generated for each, and the codes generated, printed and
    /// scanned for its products.
    #[oai(
        path = "/companies/:id/overview",
        method = "get",
        operation_id = "getCompanyOverview"
    )]
    async fn overview(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
    ) -> Result<JsonOk<CompanyOverview>, NotFoundError> {
        let id = id.0.or(no_such_company)?;
        // One snapshot for the company and its figures.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let company = store::find(&mut tx, id)
            .await?
            .ok_or_else(no_such_company)?;
        let products = store::products(&mut tx, id).await?;
        let batches = store::batches(&mut tx, Some(id), i64::MAX).await?;
        let codes = store::code_counts(&mut tx, Some(id)).await?;
        drop(tx);
        Ok(JsonOk(CompanyOverview {
            company,
            products,
            batches,
            codes,
        }))
    }

    /// The organisation's codes as a client's dashboard shows them: the
    /// codes generated, printed and scanned for all its products, and its
    /// newest batches with the codes generated for each.
    #[oai(
        path = "/client-overview",
        method = "get",
        operation_id = "getClientOverview"
    )]
    async fn client_overview(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<ClientOverview>, AccessError> {
        // One snapshot for the figures and the batches.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let codes = store::code_counts(&mut tx, None).await?;
        let mut batches = store::batches(&mut tx, None, OVERVIEW_BATCHES + 1).await?;
        drop(tx);
        let more_batches = batches.len() as i64 > OVERVIEW_BATCHES;
        batches.truncate(OVERVIEW_BATCHES as usize);
        Ok(JsonOk(ClientOverview {
            codes,
            batches,
            more_batches,
        }))
    }
}
