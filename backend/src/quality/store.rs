//! SQL of quality and compliance.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

use super::{
    Check, Inspection, InspectionCheck, NcState, NcStep, Nonconformance, Severity, Verdict,
};
use crate::http::input::IsoDate;
use crate::lots::LotStatus;

/// A lot as quality sees it: its number, product and status.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LotInfo {
    pub id: Uuid,
    pub number: String,
    pub status: String,
    pub manufactured_on: Option<IsoDate>,
    pub expires_on: Option<IsoDate>,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub skuid: String,
}

impl LotInfo {
    pub fn status(&self) -> Option<LotStatus> {
        LotStatus::parse(&self.status)
    }
}

/// Lot `id` with its product.
pub async fn lot(conn: &mut PgConnection, id: Uuid) -> Result<Option<LotInfo>, sqlx::Error> {
    sqlx::query_as(
        "SELECT l.id, l.number, l.status, l.manufactured_on, l.expires_on,
                p.id AS product_id, p.product_name, p.gtin, p.skuid
         FROM lots l JOIN products p ON p.id = l.product_id WHERE l.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// As [`lot`], with the lot's row locked until the transaction ends (an
/// inspection decides on its status).
pub async fn lock_lot(conn: &mut PgConnection, id: Uuid) -> Result<Option<LotInfo>, sqlx::Error> {
    sqlx::query_as(
        "SELECT l.id, l.number, l.status, l.manufactured_on, l.expires_on,
                p.id AS product_id, p.product_name, p.gtin, p.skuid
         FROM lots l JOIN products p ON p.id = l.product_id WHERE l.id = $1 FOR UPDATE OF l",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Writes an inspection and its checks.
pub async fn insert_inspection(
    conn: &mut PgConnection,
    id: Uuid,
    lot_id: Uuid,
    verdict: Verdict,
    by: Uuid,
    by_name: &str,
    checks: &[Check],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO inspections (id, lot_id, verdict, inspected_by, inspected_by_name)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(lot_id)
    .bind(verdict.as_str())
    .bind(by)
    .bind(by_name)
    .execute(&mut *conn)
    .await?;
    let positions: Vec<i16> = (1..=checks.len() as i16).collect();
    let parameters: Vec<&str> = checks.iter().map(|c| c.parameter.as_str()).collect();
    let mins: Vec<Option<Decimal>> = checks.iter().map(Check::min).collect();
    let maxes: Vec<Option<Decimal>> = checks.iter().map(Check::max).collect();
    let expected: Vec<Option<&str>> = checks.iter().map(Check::expected).collect();
    let values: Vec<&str> = checks.iter().map(|c| c.value.as_str()).collect();
    let passed: Vec<bool> = checks.iter().map(Check::passes).collect();
    sqlx::query(
        "INSERT INTO inspection_checks (inspection_id, position, parameter, min_value, max_value, expected, value, passed)
         SELECT $1, * FROM unnest($2::smallint[], $3::text[], $4::numeric[], $5::numeric[], $6::text[], $7::text[], $8::boolean[])",
    )
    .bind(id)
    .bind(positions)
    .bind(parameters)
    .bind(mins)
    .bind(maxes)
    .bind(expected)
    .bind(values)
    .bind(passed)
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct InspectionRow {
    id: Uuid,
    lot_id: Uuid,
    lot_number: String,
    product_id: Uuid,
    product_name: String,
    verdict: String,
    inspected_by_name: String,
    inspected_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct CheckRow {
    inspection_id: Uuid,
    #[sqlx(flatten)]
    check: InspectionCheck,
}

/// The inspections of lot `lot_id` (or of every lot), newest first, at most
/// `limit`, each with its checks in their order.
pub async fn inspections(
    conn: &mut PgConnection,
    lot_id: Option<Uuid>,
    limit: i64,
) -> Result<Vec<Inspection>, sqlx::Error> {
    let rows: Vec<InspectionRow> = sqlx::query_as(
        "SELECT i.id, i.lot_id, l.number AS lot_number, p.id AS product_id, p.product_name,
                i.verdict, i.inspected_by_name, i.inspected_at
         FROM inspections i JOIN lots l ON l.id = i.lot_id JOIN products p ON p.id = l.product_id
         WHERE $1::uuid IS NULL OR i.lot_id = $1
         ORDER BY i.inspected_at DESC, i.id LIMIT $2",
    )
    .bind(lot_id)
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let checks: Vec<CheckRow> = sqlx::query_as(
        "SELECT inspection_id, position, parameter, min_value::text AS min, max_value::text AS max,
                expected, value, passed
         FROM inspection_checks WHERE inspection_id = ANY($1) ORDER BY inspection_id, position",
    )
    .bind(&ids)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Inspection {
            checks: checks
                .iter()
                .filter(|c| c.inspection_id == r.id)
                .map(|c| c.check.clone())
                .collect(),
            id: r.id,
            lot_id: r.lot_id,
            lot_number: r.lot_number,
            product_id: r.product_id,
            product_name: r.product_name,
            verdict: Verdict::parse(&r.verdict).unwrap_or(Verdict::Fail),
            inspected_by_name: r.inspected_by_name,
            inspected_at: r.inspected_at,
        })
        .collect())
}

/// Raises a nonconformance (state `open`, version 1) and writes its first
/// step.
#[allow(clippy::too_many_arguments)]
pub async fn insert_nonconformance(
    conn: &mut PgConnection,
    id: Uuid,
    lot_id: Option<Uuid>,
    title: &str,
    description: &str,
    severity: Severity,
    by: Uuid,
    by_name: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO nonconformances (id, lot_id, title, description, severity, created_by, created_by_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(lot_id)
    .bind(title)
    .bind(description)
    .bind(severity.as_str())
    .bind(by)
    .bind(by_name)
    .execute(&mut *conn)
    .await?;
    insert_step(conn, id, None, NcState::Open, by, by_name).await
}

/// Records that nonconformance `id` entered `to`.
pub async fn insert_step(
    conn: &mut PgConnection,
    id: Uuid,
    from: Option<NcState>,
    to: NcState,
    by: Uuid,
    by_name: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO nonconformance_steps (nonconformance_id, from_state, to_state, changed_by, changed_by_name)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(from.map(NcState::as_str))
    .bind(to.as_str())
    .bind(by)
    .bind(by_name)
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct NcRow {
    id: Uuid,
    lot_id: Option<Uuid>,
    lot_number: Option<String>,
    product_name: Option<String>,
    title: String,
    description: String,
    severity: String,
    state: String,
    root_cause: Option<String>,
    corrective_action: Option<String>,
    verification_note: Option<String>,
    version: i32,
    created_by_name: String,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct StepRow {
    nonconformance_id: Uuid,
    from_state: Option<String>,
    to_state: String,
    changed_by_name: String,
    changed_at: DateTime<Utc>,
}

fn state(name: &str) -> NcState {
    NcState::parse(name).unwrap_or(NcState::Open)
}

async fn with_steps(
    conn: &mut PgConnection,
    rows: Vec<NcRow>,
) -> Result<Vec<Nonconformance>, sqlx::Error> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let steps: Vec<StepRow> = sqlx::query_as(
        "SELECT nonconformance_id, from_state, to_state, changed_by_name, changed_at
         FROM nonconformance_steps WHERE nonconformance_id = ANY($1) ORDER BY nonconformance_id, id",
    )
    .bind(&ids)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Nonconformance {
            steps: steps
                .iter()
                .filter(|s| s.nonconformance_id == r.id)
                .map(|s| NcStep {
                    from_state: s.from_state.as_deref().map(state),
                    to_state: state(&s.to_state),
                    changed_by_name: s.changed_by_name.clone(),
                    changed_at: s.changed_at,
                })
                .collect(),
            id: r.id,
            lot_id: r.lot_id,
            lot_number: r.lot_number,
            product_name: r.product_name,
            title: r.title,
            description: r.description,
            severity: Severity::parse(&r.severity).unwrap_or(Severity::Critical),
            state: state(&r.state),
            root_cause: r.root_cause,
            corrective_action: r.corrective_action,
            verification_note: r.verification_note,
            version: r.version,
            created_by_name: r.created_by_name,
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
        .collect())
}

/// The nonconformances, newest first, at most `limit`.
pub async fn nonconformances(
    conn: &mut PgConnection,
    limit: i64,
) -> Result<Vec<Nonconformance>, sqlx::Error> {
    let rows: Vec<NcRow> = sqlx::query_as(
        "SELECT n.id, n.lot_id, l.number AS lot_number, p.product_name, n.title, n.description,
                n.severity, n.state, n.root_cause, n.corrective_action, n.verification_note,
                n.version, n.created_by_name, n.created_at, n.updated_at
         FROM nonconformances n LEFT JOIN lots l ON l.id = n.lot_id
              LEFT JOIN products p ON p.id = l.product_id
         ORDER BY n.created_at DESC, n.id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    with_steps(conn, rows).await
}

/// Locks nonconformance `id`'s row until the transaction ends; false when
/// there is none.
pub async fn lock_nonconformance(conn: &mut PgConnection, id: Uuid) -> Result<bool, sqlx::Error> {
    let found: Option<i32> =
        sqlx::query_scalar("SELECT 1 FROM nonconformances WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(conn)
            .await?;
    Ok(found.is_some())
}

/// Nonconformance `id` with its steps.
pub async fn nonconformance(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<Nonconformance>, sqlx::Error> {
    let row: Option<NcRow> = sqlx::query_as(
        "SELECT n.id, n.lot_id, l.number AS lot_number, p.product_name, n.title, n.description,
                n.severity, n.state, n.root_cause, n.corrective_action, n.verification_note,
                n.version, n.created_by_name, n.created_at, n.updated_at
         FROM nonconformances n LEFT JOIN lots l ON l.id = n.lot_id
              LEFT JOIN products p ON p.id = l.product_id
         WHERE n.id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else { return Ok(None) };
    Ok(with_steps(conn, vec![row]).await?.pop())
}

/// Writes a nonconformance's state and CAPA fields, and grows its version.
pub async fn update_nonconformance(
    conn: &mut PgConnection,
    nc: &Nonconformance,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE nonconformances
         SET state = $2, root_cause = $3, corrective_action = $4, verification_note = $5,
             version = version + 1, updated_at = now()
         WHERE id = $1",
    )
    .bind(nc.id)
    .bind(nc.state.as_str())
    .bind(&nc.root_cause)
    .bind(&nc.corrective_action)
    .bind(&nc.verification_note)
    .execute(conn)
    .await?;
    Ok(())
}
