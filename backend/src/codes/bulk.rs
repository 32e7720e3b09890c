//! The bulk download (`GET /api/codes/bulk.zip`): the codes of chosen lots
//! (batches), or of the code jobs created in a range of days, as one ZIP of
//! CSVs (one per job, as its `codes.csv`) and a `manifest.json`, streamed by
//! [`export::zip_of`] at constant memory whatever the number of codes.
//!
//! A selection is lots or a range, never both. Lot ids are looked up in the
//! caller's own schema (the tenant connection reaches nothing else), so
//! another organisation's lot is an unknown one: a 404 that names none of
//! the ids. Jobs still generating are left out and listed in the manifest;
//! a selection without codes is refused with a message that says so.

use chrono::{DateTime, NaiveDate, Utc};
use poem::Body;
use sqlx::PgConnection;
use uuid::Uuid;

use super::export::{self, JobFile, ManifestProduct, Written};
use super::store::{self, BulkJobRow};
use super::{JobStatus, Lot};
use crate::db::Db;
use crate::http::error::ApiError;
use crate::tenants::TenantRef;

/// The most lots one download names.
pub const MAX_LOTS: usize = 100;
/// The most code jobs (files) one download holds.
pub const MAX_FILES: usize = 1000;

/// What the caller chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// These lots (each once, in the order given).
    Lots(Vec<Uuid>),
    /// The jobs created from `from` to `to`, days in UTC, both included.
    Range { from: NaiveDate, to: NaiveDate },
}

impl Selection {
    /// The selection the query names, or the reason it names none.
    pub fn parse(
        lot_ids: Vec<Uuid>,
        from: Option<NaiveDate>,
        to: Option<NaiveDate>,
    ) -> Result<Self, ApiError> {
        match (lot_ids.is_empty(), from, to) {
            (false, None, None) => {
                let mut lots = Vec::with_capacity(lot_ids.len());
                for id in lot_ids {
                    if !lots.contains(&id) {
                        lots.push(id);
                    }
                }
                if lots.len() > MAX_LOTS {
                    return Err(ApiError::invalid_input(format!(
                        "Choose at most {MAX_LOTS} batches (lot_id) at once."
                    )));
                }
                Ok(Self::Lots(lots))
            }
            (false, _, _) => Err(ApiError::invalid_input(
                "Choose batches (lot_id) or a date range (from and to), not both.",
            )),
            (true, Some(from), Some(to)) if from > to => {
                Err(ApiError::invalid_input("from must not be after to."))
            }
            (true, Some(from), Some(to)) => Ok(Self::Range { from, to }),
            (true, None, None) => Err(ApiError::invalid_input(
                "Choose the batches (lot_id) or the date range (from and to) whose codes to download.",
            )),
            (true, _, _) => Err(ApiError::invalid_input(
                "A date range needs both from and to.",
            )),
        }
    }

    /// The jobs the selection covers, oldest first (at most one more than
    /// [`MAX_FILES`], to tell when there are too many). Every lot named
    /// must be the organisation's.
    pub async fn jobs(&self, conn: &mut PgConnection) -> Result<Vec<BulkJobRow>, ApiError> {
        let limit = MAX_FILES as i64 + 1;
        match self {
            Self::Lots(ids) => {
                if store::count_lots(conn, ids).await? != ids.len() as i64 {
                    return Err(ApiError::not_found(
                        "One or more of the chosen batches is not in your organisation.",
                    ));
                }
                Ok(store::bulk_jobs(conn, Some(ids), None, None, limit).await?)
            }
            Self::Range { from, to } => {
                let start = day_start(*from);
                let end = to.succ_opt().map(day_start);
                Ok(store::bulk_jobs(conn, None, Some(start), end, limit).await?)
            }
        }
    }

    /// The ZIP's file name.
    pub fn file_name(&self) -> String {
        match self {
            Self::Lots(ids) if ids.len() == 1 => "codes-1-batch.zip".to_string(),
            Self::Lots(ids) => format!("codes-{}-batches.zip", ids.len()),
            Self::Range { from, to } => format!("codes-{from}-to-{to}.zip"),
        }
    }

    /// What the selection covers, in words, for messages.
    fn described(&self) -> String {
        match self {
            Self::Lots(ids) if ids.len() == 1 => "for the chosen batch".to_string(),
            Self::Lots(_) => "for the chosen batches".to_string(),
            Self::Range { from, to } if from == to => format!("on {from}"),
            Self::Range { from, to } => format!("from {from} to {to}"),
        }
    }
}

fn day_start(day: NaiveDate) -> DateTime<Utc> {
    day.and_time(chrono::NaiveTime::MIN).and_utc()
}

/// The ZIP's files (the jobs with codes to download, each a CSV named by its
/// GTIN, lot and job) and the jobs still generating; or why there is
/// nothing to download.
pub fn files(
    selection: &Selection,
    jobs: Vec<BulkJobRow>,
) -> Result<(Vec<JobFile>, Vec<Uuid>), ApiError> {
    if jobs.len() > MAX_FILES {
        return Err(ApiError::conflict(format!(
            "This selection holds more than {MAX_FILES} code jobs. Choose fewer batches or a shorter date range."
        )));
    }
    let mut files = Vec::new();
    let mut pending = Vec::new();
    for row in jobs {
        match JobStatus::parse(&row.job.status) {
            Some(JobStatus::Queued | JobStatus::Running) => pending.push(row.job.id),
            _ if row.job.generated > 0 => files.push(JobFile {
                name: file_name(&row),
                product: ManifestProduct {
                    id: row.job.product_id,
                    name: row.product_name,
                    skuid: row.skuid,
                },
                job: row.job,
            }),
            _ => {}
        }
    }
    if files.is_empty() {
        let what = selection.described();
        return Err(if pending.is_empty() {
            ApiError::not_found(format!(
                "No codes have been generated {what}: there is nothing to download."
            ))
        } else {
            ApiError::conflict(format!(
                "The codes {what} are still being generated. Download them when the jobs are done."
            ))
        });
    }
    Ok((files, pending))
}

/// `{gtin}_{lot}_{job id}.csv` (`{gtin}_{job id}.csv` without a lot); a lot
/// number's characters that file systems refuse (`/`, `:`, `*`, …) become `_`.
fn file_name(row: &BulkJobRow) -> String {
    let job = &row.job;
    match &job.lot_number {
        Some(lot) => {
            let lot: String = lot
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '-' | '.') {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            format!("{}_{lot}_{}.csv", job.gtin, job.id)
        }
        None => format!("{}_{}.csv", job.gtin, job.id),
    }
}

/// `manifest.json` of a bulk download.
#[derive(serde::Serialize)]
struct Manifest<'a> {
    selection: ManifestSelection<'a>,
    /// RFC 3339.
    created_at: String,
    /// Codes in all the files.
    total_count: u64,
    files: Vec<ManifestFile<'a>>,
    /// Jobs of the selection still generating codes, not in this ZIP.
    still_generating: &'a [Uuid],
}

#[derive(serde::Serialize)]
struct ManifestSelection<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    lot_ids: Option<&'a [Uuid]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<NaiveDate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<NaiveDate>,
}

#[derive(serde::Serialize)]
struct ManifestFile<'a> {
    file: &'a str,
    job_id: Uuid,
    product: &'a ManifestProduct,
    gtin: &'a str,
    lot: Option<Lot>,
    count: u64,
    /// When the job was created, RFC 3339.
    created_at: String,
    /// Of the file, as stored in this ZIP.
    sha256: &'a str,
}

/// The bulk ZIP, streamed.
pub fn zip(
    db: Db,
    tenant: TenantRef,
    selection: Selection,
    files: Vec<JobFile>,
    pending: Vec<Uuid>,
) -> Body {
    export::zip_of(db, tenant, files, move |files, written: &[Written]| {
        let selection = match &selection {
            Selection::Lots(ids) => ManifestSelection {
                lot_ids: Some(ids),
                from: None,
                to: None,
            },
            Selection::Range { from, to } => ManifestSelection {
                lot_ids: None,
                from: Some(*from),
                to: Some(*to),
            },
        };
        serde_json::to_vec_pretty(&Manifest {
            selection,
            created_at: Utc::now().to_rfc3339(),
            total_count: written.iter().map(|w| w.count).sum(),
            files: files
                .iter()
                .zip(written)
                .map(|(file, written)| ManifestFile {
                    file: &file.name,
                    job_id: file.job.id,
                    product: &file.product,
                    gtin: &file.job.gtin,
                    lot: file.job.lot(),
                    count: written.count,
                    created_at: file.job.created_at.to_rfc3339(),
                    sha256: &written.sha256,
                })
                .collect(),
            still_generating: &pending,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn a_selection_is_lots_or_a_range_never_both_nor_neither() {
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        assert_eq!(
            Selection::parse(vec![a, b, a], None, None).unwrap(),
            Selection::Lots(vec![a, b])
        );
        assert_eq!(
            Selection::parse(vec![], Some(day("2026-01-01")), Some(day("2026-01-01"))).unwrap(),
            Selection::Range {
                from: day("2026-01-01"),
                to: day("2026-01-01")
            }
        );
        for (lots, from, to) in [
            (vec![], None, None),
            (vec![a], Some(day("2026-01-01")), None),
            (vec![], Some(day("2026-01-01")), None),
            (vec![], None, Some(day("2026-01-01"))),
            (vec![], Some(day("2026-01-02")), Some(day("2026-01-01"))),
            ((0..=MAX_LOTS).map(|_| Uuid::new_v4()).collect(), None, None),
        ] {
            assert!(Selection::parse(lots, from, to).is_err());
        }
    }

    #[test]
    fn a_range_ends_at_the_start_of_the_day_after_its_last() {
        assert_eq!(
            day_start(day("2026-03-01")).to_rfc3339(),
            "2026-03-01T00:00:00+00:00"
        );
        assert_eq!(
            Selection::Range {
                from: day("2026-03-01"),
                to: day("2026-03-31")
            }
            .file_name(),
            "codes-2026-03-01-to-2026-03-31.zip"
        );
    }
}
