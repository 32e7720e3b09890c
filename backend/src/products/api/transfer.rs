//! Products in and out as CSV: `POST /api/products/import?dry_run=` and
//! `GET /api/products/export.csv`. An import is checked whole (each row on
//! its own, then against the organisation's products, the GTIN registry
//! and the product limit) before anything is written, and applied in one
//! transaction: a file with one bad row changes nothing.

use std::collections::HashSet;

use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::payload::{Binary, Json};
use poem_openapi::{ApiResponse, Object, OpenApi};

use crate::http::error::{ApiError, QueryError, WriteError};
use crate::http::input::{DryRun, Text};
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::products::store::{self, ProductFields};
use crate::products::transfer::{self, ImportRow, RowError};
use crate::products::{Category, Description};

#[derive(Default)]
pub struct ProductTransferApi;

/// What an import found (and did).
#[derive(Object, Debug)]
pub struct ImportReport {
    /// True when nothing was to be written.
    pub dry_run: bool,
    /// Products in the file.
    pub rows: u64,
    /// Products created (0 on a dry run or when any row is invalid).
    pub created: u64,
    /// Every problem found, by row and column; empty when the file is valid.
    pub errors: Vec<RowError>,
}

/// An import refused for its rows: the error envelope with every problem.
#[derive(Object, Debug)]
pub struct ImportRefused {
    pub error: String,
    /// `invalid_rows`.
    pub code: String,
    /// Products in the file.
    pub rows: u64,
    pub errors: Vec<RowError>,
}

#[derive(ApiResponse)]
pub enum ImportOk {
    /// A dry run's report, or the products were created.
    #[oai(status = 200)]
    Ok(Json<ImportReport>),
    /// Some rows are invalid: nothing was created. `errors` says which and
    /// why.
    #[oai(status = 422)]
    Invalid(Json<ImportRefused>),
}

fn refused(rows: u64, errors: Vec<RowError>) -> ImportOk {
    ImportOk::Invalid(Json(ImportRefused {
        error: format!(
            "Nothing was imported: {} problem(s) in the file. Fix them and import it again.",
            errors.len()
        ),
        code: "invalid_rows".into(),
        rows,
        errors,
    }))
}

#[derive(ApiResponse)]
pub enum ExportCsv {
    /// The organisation's active products, with the import's columns.
    #[oai(status = 200, content_type = "text/csv; charset=utf-8")]
    Ok(
        Binary<Vec<u8>>,
        #[oai(header = "content-disposition")] String,
    ),
}

/// A CSV file's bytes.
#[derive(poem_openapi::ApiRequest, Debug)]
pub enum CsvFile {
    /// `product_name,skuid,gtin[,category][,product_description]`, UTF-8,
    /// with a header row.
    #[oai(content_type = "text/csv")]
    Csv(Binary<Vec<u8>>),
}

/// Checks the rows against what is stored: SKU ids and GTINs the
/// organisation uses, GTINs other organisations hold, the product limit.
async fn check_stored(
    conn: &mut sqlx::PgConnection,
    rows: &[ImportRow],
    limit: i32,
    errors: &mut Vec<RowError>,
) -> Result<(), ApiError> {
    let skuids: Vec<String> = rows
        .iter()
        .map(|r| r.skuid.as_str().to_lowercase())
        .collect();
    let gtins: Vec<String> = rows.iter().map(|r| r.gtin.as_str().to_string()).collect();
    let skuids_taken: HashSet<String> = store::skuids_taken(conn, &skuids)
        .await?
        .into_iter()
        .collect();
    let gtins_taken: HashSet<String> = store::gtins_taken(conn, &gtins)
        .await?
        .into_iter()
        .collect();
    let held: HashSet<String> = store::gtins_held_by_others(conn, &gtins)
        .await?
        .into_iter()
        .collect();
    for r in rows {
        if skuids_taken.contains(&r.skuid.as_str().to_lowercase()) {
            errors.push(RowError::new(
                r.row,
                "skuid",
                "Another product already has this skuid.",
            ));
        }
        if gtins_taken.contains(r.gtin.as_str()) {
            errors.push(RowError::new(
                r.row,
                "gtin",
                "Another product already has this GTIN.",
            ));
        } else if held.contains(r.gtin.as_str()) {
            errors.push(RowError::new(
                r.row,
                "gtin",
                "This GTIN is registered to another organisation.",
            ));
        }
    }
    let active = store::count_active(conn).await?;
    let room = (i64::from(limit) - active).max(0);
    if rows.len() as i64 > room {
        errors.push(RowError::new(
            0,
            "",
            format!(
                "The file has {} products, but only {room} more fit in your plan's product limit.",
                rows.len()
            ),
        ));
    }
    errors.sort_by(|a, b| (a.row, &a.column).cmp(&(b.row, &b.column)));
    Ok(())
}

#[OpenApi(tag = "ApiTags::Products")]
impl ProductTransferApi {
    /// Import products from CSV. With `dry_run=true` nothing is written and
    /// the report lists every problem; otherwise the file is applied whole,
    /// or (422) not at all.
    #[oai(
        path = "/products/import",
        method = "post",
        operation_id = "importProducts"
    )]
    async fn import(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// `true`: only check the file; `false`: import it.
        dry_run: Query<Text<DryRun>>,
        body: CsvFile,
    ) -> Result<ImportOk, WriteError> {
        let dry_run: bool = dry_run.parse()?;
        let CsvFile::Csv(Binary(bytes)) = body;
        let (rows, mut errors) = transfer::read(&bytes)?;
        let total =
            (rows.len() + errors.iter().map(|e| e.row).collect::<HashSet<_>>().len()) as u64;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        // Imports and creations queue here; the checks then see what those
        // ahead committed.
        let limit = store::lock_product_limit(&mut tx).await?;
        check_stored(&mut tx, &rows, limit, &mut errors).await?;
        let report = |created: u64, errors: Vec<RowError>| ImportReport {
            dry_run,
            rows: total,
            created,
            errors,
        };
        if !errors.is_empty() {
            return Ok(if dry_run {
                ImportOk::Ok(Json(report(0, errors)))
            } else {
                refused(total, errors)
            });
        }
        if dry_run {
            return Ok(ImportOk::Ok(Json(report(0, errors))));
        }
        for r in &rows {
            if !store::claim_gtin(&mut tx, r.gtin.as_str()).await? {
                errors.push(RowError::new(
                    r.row,
                    "gtin",
                    "This GTIN is registered to another organisation.",
                ));
                continue;
            }
            let fields = ProductFields {
                product_name: Some(r.name.as_str()),
                skuid: Some(r.skuid.as_str()),
                gtin: Some(r.gtin.as_str()),
                category: r.category.as_ref().map(Category::as_str),
                product_description: r.description.as_ref().map(Description::as_str),
                attributes: None,
                company_id: None,
                requires_inspection: None,
                unit: None,
            };
            store::insert(&mut tx, &fields, caller.session.account_id).await?;
        }
        if !errors.is_empty() {
            // Dropping the transaction undoes every row and claim.
            return Ok(refused(total, errors));
        }
        tx.commit().await?;
        Ok(ImportOk::Ok(Json(report(rows.len() as u64, Vec::new()))))
    }

    /// The organisation's active products as CSV, with the import's
    /// columns (a value a spreadsheet would run as a formula starts with
    /// `'`, which the import takes off).
    #[oai(
        path = "/products/export.csv",
        method = "get",
        operation_id = "exportProducts"
    )]
    async fn export(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<ExportCsv, QueryError> {
        let products = {
            let mut conn = state.db.read_tenant(&caller.tenant).await?;
            store::list_active(&mut conn).await?
        };
        let mut out = csv::Writer::from_writer(Vec::new());
        let write = |out: &mut csv::Writer<Vec<u8>>, cells: [&str; 5]| {
            out.write_record(cells.map(transfer::protect))
                .map_err(ApiError::internal)
        };
        write(&mut out, transfer::COLUMNS)?;
        for p in &products {
            write(
                &mut out,
                [
                    &p.product_name,
                    &p.skuid,
                    &p.gtin,
                    &p.category,
                    &p.product_description,
                ],
            )?;
        }
        let bytes = out
            .into_inner()
            .map_err(|e| ApiError::internal(anyhow::anyhow!("{e}")))?;
        Ok(ExportCsv::Ok(
            Binary(bytes),
            "attachment; filename=\"products.csv\"".into(),
        ))
    }
}
