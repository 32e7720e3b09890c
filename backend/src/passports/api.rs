//! The passport operations under `/api/passports`: the /DPP list, the
//! current passport of a product (or lot), saving a new version, and the
//! earlier versions.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use uuid::Uuid;

use super::PassportData;
use super::store::{self, StoredVersion};
use crate::audit;
use crate::codes::LotNumber;
use crate::db::unique_violation;
use crate::http::error::{AccessError, ApiError, LookupError, WriteStateError};
use crate::http::input::{PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;

#[derive(Default)]
pub struct PassportsApi;

/// A version of a passport (or, with `version` 0, the empty passport of a
/// product that has none yet).
#[derive(Object, Debug)]
pub struct Passport {
    pub product_id: Uuid,
    pub product_name: String,
    /// The product's GTIN-14.
    pub gtin: String,
    /// The lot whose own passport this is; absent for the product's
    /// passport (also when a lot was asked for that has none of its own).
    #[oai(skip_serializing_if_is_none)]
    pub lot: Option<String>,
    /// 1, 2, …; 0 when nothing has been saved yet.
    pub version: i32,
    /// The share of the counted fields that are filled, 0 to 100.
    pub completeness: i32,
    /// The counted fields that are still empty.
    pub missing: Vec<String>,
    #[oai(skip_serializing_if_is_none)]
    pub saved_at: Option<DateTime<Utc>>,
    /// The account that saved it.
    #[oai(skip_serializing_if_is_none)]
    pub saved_by: Option<Uuid>,
    pub data: PassportData,
}

impl Passport {
    fn new(
        product_id: Uuid,
        product_name: String,
        gtin: String,
        lot: &str,
        version: i32,
        data: PassportData,
        saved: Option<(DateTime<Utc>, Uuid)>,
    ) -> Self {
        let missing = data
            .counted_fields()
            .iter()
            .filter(|(_, filled)| !filled)
            .map(|(name, _)| (*name).to_string())
            .collect();
        Self {
            product_id,
            product_name,
            gtin,
            lot: Some(lot.to_string()).filter(|l| !l.is_empty()),
            version,
            completeness: i32::from(data.completeness()),
            missing,
            saved_at: saved.map(|s| s.0),
            saved_by: saved.map(|s| s.1),
            data,
        }
    }

    fn stored(s: StoredVersion) -> Result<Self, ApiError> {
        let data = PassportData::from_stored(s.document)?;
        Ok(Self::new(
            s.product_id,
            s.product_name,
            s.gtin,
            &s.lot,
            s.version,
            data,
            Some((s.created_at, s.created_by)),
        ))
    }
}

/// A lot's own passport, in the list.
#[derive(Object, Debug)]
pub struct LotPassportSummary {
    pub lot: String,
    pub version: i32,
    pub completeness: i32,
    pub updated_at: DateTime<Utc>,
}

/// An active product and its passport, in the list.
#[derive(Object, Debug)]
pub struct PassportSummary {
    pub product_id: Uuid,
    pub product_name: String,
    pub skuid: String,
    pub gtin: String,
    /// The product passport's current version; 0 when it has none.
    pub version: i32,
    /// Its completeness, 0 to 100 (0 when it has none).
    pub completeness: i32,
    #[oai(skip_serializing_if_is_none)]
    pub updated_at: Option<DateTime<Utc>>,
    /// The lots that have a passport of their own.
    pub lots: Vec<LotPassportSummary>,
}

/// The organisation's passports, newest first.
#[derive(Object, Debug)]
pub struct PassportList {
    pub products: Vec<PassportSummary>,
    /// The fields that count towards completeness.
    pub counted_fields: Vec<String>,
}

#[derive(Object, Debug)]
pub struct PassportVersionInfo {
    pub version: i32,
    pub completeness: i32,
    pub saved_at: DateTime<Utc>,
    pub saved_by: Uuid,
}

/// The versions of one passport, newest first.
#[derive(Object, Debug)]
pub struct PassportVersions {
    pub product_id: Uuid,
    #[oai(skip_serializing_if_is_none)]
    pub lot: Option<String>,
    pub versions: Vec<PassportVersionInfo>,
}

fn no_such_product() -> ApiError {
    ApiError::not_found("No such product in your organisation.")
}

fn no_such_version() -> ApiError {
    ApiError::not_found("This passport has no such version.")
}

/// The lot of `?lot=`, or '' for the product's own passport.
fn lot_of(lot: &Option<Text<LotNumber>>) -> Result<String, ApiError> {
    match lot {
        None => Ok(String::new()),
        Some(raw) => raw.parse()
            .map(|l| l.as_str().to_string())
            .map_err(|_| {
                ApiError::invalid_input(
                    "lot must be 1 to 20 characters: letters, digits and the GS1 punctuation ! \" % & ' ( ) * + , - . / : ; < = > ? _ (no spaces).",
                )
            }),
    }
}

#[OpenApi(tag = "ApiTags::Passports")]
impl PassportsApi {
    /// The organisation's active products with their passports'
    /// completeness (and the lots that have passports of their own), by
    /// product name.
    #[oai(path = "/passports", method = "get", operation_id = "listPassports")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<PassportList>, AccessError> {
        // One snapshot for the products and their lots.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let rows = store::list(&mut tx).await?;
        let lots = store::lot_passports(&mut tx).await?;
        drop(tx);
        let products = rows
            .into_iter()
            .map(|r| PassportSummary {
                lots: lots
                    .iter()
                    .filter(|l| l.product_id == r.product_id)
                    .map(|l| LotPassportSummary {
                        lot: l.lot.clone(),
                        version: l.version,
                        completeness: i32::from(l.completeness),
                        updated_at: l.updated_at,
                    })
                    .collect(),
                product_id: r.product_id,
                product_name: r.product_name,
                skuid: r.skuid,
                gtin: r.gtin,
                version: r.version,
                completeness: i32::from(r.completeness),
                updated_at: r.updated_at,
            })
            .collect();
        let counted_fields = PassportData::default()
            .counted_fields()
            .iter()
            .map(|(name, _)| (*name).to_string())
            .collect();
        Ok(JsonOk(PassportList {
            products,
            counted_fields,
        }))
    }

    /// The current passport of an active product; with `lot`, the lot's own
    /// passport if it has one, else the product's (`lot` in the answer says
    /// which). A product without a passport answers version 0, empty.
    #[oai(
        path = "/passports/:product_id",
        method = "get",
        operation_id = "getPassport"
    )]
    async fn get(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Path<PathId>,
        /// A lot number (GS1 AI 10).
        lot: Query<Option<Text<LotNumber>>>,
    ) -> Result<JsonOk<Passport>, LookupError> {
        let id = product_id.0.or(no_such_product)?;
        let lot = lot_of(&lot.0)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let passport = match store::current(&mut tx, id, &lot, false).await? {
            Some(stored) => Passport::stored(stored)?,
            None => {
                let (name, gtin) = store::active_product(&mut tx, id)
                    .await?
                    .ok_or_else(no_such_product)?;
                Passport::new(id, name, gtin, "", 0, PassportData::default(), None)
            }
        };
        drop(tx);
        Ok(JsonOk(passport))
    }

    /// Save the passport of an active product (with `lot`, the lot's own
    /// passport, which then replaces the product's for that lot): the whole
    /// document, as a new version. Earlier versions stay as they were.
    /// Answers the new version. The save is recorded in the organisation's
    /// audit log (`passport.saved`).
    #[oai(
        path = "/passports/:product_id",
        method = "put",
        operation_id = "savePassport"
    )]
    async fn save(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Path<PathId>,
        /// A lot number (GS1 AI 10).
        lot: Query<Option<Text<LotNumber>>>,
        body: Json<PassportData>,
    ) -> Result<JsonOk<Passport>, WriteStateError> {
        let data = body.0.check()?;
        let id = product_id.0.or(no_such_product)?;
        let lot = lot_of(&lot.0)?;
        let completeness = data.completeness();
        let document = data.to_stored();
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let (name, gtin) = store::active_product(&mut tx, id)
            .await?
            .ok_or_else(no_such_product)?;
        let version = store::next_version(&mut tx, id, &lot, completeness).await?;
        // In the save's transaction: the record and the version commit
        // together or not at all.
        let mut detail = serde_json::json!({ "version": version, "completeness": completeness });
        if !lot.is_empty() {
            detail["lot"] = serde_json::Value::String(lot.clone());
        }
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "passport.saved",
            &id.to_string(),
            detail,
        )
        .await?;
        let by = caller.session.account_id;
        let saved_at =
            store::insert_version(&mut tx, id, &lot, version, &document, completeness, by)
                .await
                .map_err(|e| match unique_violation(&e) {
                    Some("passport_versions_pkey") => ApiError::conflict(
                        "Someone saved this passport at the same moment. Reload it and save again.",
                    ),
                    _ => ApiError::from(e),
                })?;
        tx.commit().await?;
        Ok(JsonOk(Passport::new(
            id,
            name,
            gtin,
            &lot,
            version,
            data,
            Some((saved_at, by)),
        )))
    }

    /// The versions of a passport, newest first: the product's own, or with
    /// `lot` the lot's own (empty when it has none).
    #[oai(
        path = "/passports/:product_id/versions",
        method = "get",
        operation_id = "listPassportVersions"
    )]
    async fn versions(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Path<PathId>,
        /// A lot number (GS1 AI 10).
        lot: Query<Option<Text<LotNumber>>>,
    ) -> Result<JsonOk<PassportVersions>, LookupError> {
        let id = product_id.0.or(no_such_product)?;
        let lot = lot_of(&lot.0)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::active_product(&mut tx, id)
            .await?
            .ok_or_else(no_such_product)?;
        let versions = store::versions(&mut tx, id, &lot)
            .await?
            .into_iter()
            .map(|v| PassportVersionInfo {
                version: v.version,
                completeness: i32::from(v.completeness),
                saved_at: v.created_at,
                saved_by: v.created_by,
            })
            .collect();
        drop(tx);
        Ok(JsonOk(PassportVersions {
            product_id: id,
            lot: Some(lot).filter(|l| !l.is_empty()),
            versions,
        }))
    }

    /// One version of a passport, as it was saved: the product's own, or
    /// with `lot` the lot's own.
    #[oai(
        path = "/passports/:product_id/versions/:version",
        method = "get",
        operation_id = "getPassportVersion"
    )]
    async fn version(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        product_id: Path<PathId>,
        version: Path<i64>,
        /// A lot number (GS1 AI 10).
        lot: Query<Option<Text<LotNumber>>>,
    ) -> Result<JsonOk<Passport>, LookupError> {
        let id = product_id.0.or(no_such_product)?;
        let lot = lot_of(&lot.0)?;
        let mut conn = state.db.read_tenant(&caller.tenant).await?;
        let stored = store::version(&mut conn, id, &lot, version.0)
            .await?
            .ok_or_else(no_such_version)?;
        Ok(JsonOk(Passport::stored(stored)?))
    }
}
