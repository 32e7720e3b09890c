//! The one way stock moves and is reserved, in the caller's transaction:
//! `POST /api/stock-moves` and `POST /api/stock-reservations` call these,
//! and so will receipts, manufacturing orders and shipments (the next
//! issues). ADR 0020 gives the reasons.
//!
//! A move: the lot's row share-locked (so a QA hold cannot slip between the
//! check and the move), the lot's status checked, each balance changed by
//! one conditional statement in the lock order (location id), the ledger
//! row appended and the audit row written. A reservation: the product's
//! usable balances locked in the same order, first expiry first out, each
//! line reserved by one conditional statement.

use poem::http::StatusCode;
use rust_decimal::Decimal;
use sqlx::PgConnection;
use uuid::Uuid;

use super::store::{self, MoveRow, NewMove, ReservationLineRow};
use super::{LocationKind, quantity_text};
use crate::audit::{self, Actor};
use crate::http::error::ApiError;
use crate::lots::LotStatus;

/// 409 `insufficient_stock`.
pub fn insufficient(message: String) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "insufficient_stock", message)
}

/// 409 `lot_not_available`.
pub fn lot_not_available(message: String) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "lot_not_available", message)
}

fn no_such(what: &str) -> ApiError {
    ApiError::not_found(format!("No such {what} in your organisation."))
}

/// What a move asks for, checked for its form (quantities, the receipt's
/// cost) by the caller.
pub struct MoveRequest<'a> {
    pub product_id: Uuid,
    pub lot_id: Uuid,
    pub quantity: Decimal,
    pub from_location_id: Option<Uuid>,
    pub to_location_id: Option<Uuid>,
    pub reason: super::MoveReason,
    pub unit_cost: Option<Decimal>,
    pub currency: Option<&'a str>,
    pub reference: Option<&'a str>,
}

/// The audit detail of a move (`inventory.move`).
fn move_detail(m: &MoveRequest<'_>) -> serde_json::Value {
    serde_json::json!({
        "product_id": m.product_id,
        "lot_id": m.lot_id,
        "quantity": quantity_text(m.quantity),
        "from_location_id": m.from_location_id,
        "to_location_id": m.to_location_id,
        "reason": m.reason.as_str(),
    })
}

/// Records the move in the caller's transaction, in two statements (the
/// checks with their locks, then the write: balances, ledger row, audit
/// row); refuses it (changing nothing the caller keeps: the caller's
/// transaction is rolled back with the error) when a location, the
/// product or the lot is not the tenant's (404), the lot is another
/// product's (400), the lot is not released or expired and the stock does
/// not go into quarantine or scrap (409 `lot_not_available`), or less is
/// available than it takes (409 `insufficient_stock`).
pub async fn record_move(
    conn: &mut PgConnection,
    actor: &Actor,
    m: &MoveRequest<'_>,
) -> Result<MoveRow, ApiError> {
    let ctx = store::move_context(
        conn,
        m.product_id,
        m.lot_id,
        m.from_location_id,
        m.to_location_id,
    )
    .await?;
    let product_name = ctx
        .product_name
        .as_deref()
        .ok_or_else(|| no_such("product"))?;
    if m.from_location_id.is_some() && ctx.from_kind.is_none() {
        return Err(no_such("location (from_location_id)"));
    }
    let to_kind = match m.to_location_id {
        None => None,
        Some(_) => Some(
            ctx.to_kind
                .as_deref()
                .and_then(LocationKind::parse)
                .ok_or_else(|| no_such("location (to_location_id)"))?,
        ),
    };
    let lot = ctx.lot().ok_or_else(|| no_such("lot"))?;
    if lot.product_id != m.product_id {
        return Err(ApiError::invalid_input(format!(
            "Lot {} is not a lot of {product_name}: choose one of its own lots.",
            lot.number
        )));
    }
    let released = LotStatus::parse(&lot.status) == Some(LotStatus::Released);
    let leaves = m.from_location_id.is_some();
    let into_hold = to_kind.is_some_and(LocationKind::takes_unavailable_lots);
    if leaves && (!released || lot.expired) && !into_hold {
        let why = if !released {
            format!("is {}", lot.status)
        } else {
            format!(
                "expired on {}",
                lot.expires_on.map(|d| d.to_string()).unwrap_or_default()
            )
        };
        return Err(lot_not_available(format!(
            "Lot {} of {product_name} {why}: its stock may only move into a quarantine or scrap location.",
            lot.number
        )));
    }
    let written = store::write_move(
        conn,
        &NewMove {
            id: Uuid::new_v4(),
            product_id: m.product_id,
            lot_id: m.lot_id,
            quantity: m.quantity,
            from_location_id: m.from_location_id,
            to_location_id: m.to_location_id,
            reason: m.reason.as_str(),
            unit_cost: m.unit_cost,
            currency: m.currency,
            reference: m.reference,
            created_by: actor.account_id,
        },
        &move_detail(m),
        actor.ip.as_deref(),
    )
    .await?;
    match (written, m.from_location_id) {
        (Some(row), _) => Ok(row),
        (None, Some(from)) => {
            let available = store::available(conn, m.product_id, from, m.lot_id).await?;
            Err(insufficient(format!(
                "Not enough stock of {product_name}, lot {}: {} available at that location (on hand less reserved), {} asked.",
                lot.number,
                quantity_text(available),
                quantity_text(m.quantity)
            )))
        }
        (None, None) => Err(ApiError::internal(anyhow::anyhow!(
            "a move into stock wrote nothing"
        ))),
    }
}

/// A line of stock leaving one location, planned by the caller from the
/// balances it locked (`store::lock_reservable`, [`plan_fefo`]).
pub struct PlannedTake {
    pub product_id: Uuid,
    pub product_name: String,
    pub lot_id: Uuid,
    pub lot_number: String,
    pub quantity: Decimal,
}

/// Records the moves of `lines` out of `location_id` (each as
/// [`record_move`] would: the lot share-locked and still released and
/// unexpired, the balance taken, the ledger row, the audit row) in one
/// statement for all of them, in the caller's transaction. No two lines
/// may name the same lot. Refuses them all (409 `lot_not_available` or
/// `insufficient_stock`, naming the lot; the caller rolls back) when any
/// line cannot be taken.
pub async fn take_planned(
    conn: &mut PgConnection,
    actor: &Actor,
    location_id: Uuid,
    lines: &[PlannedTake],
    reason: super::MoveReason,
    reference: Option<&str>,
) -> Result<(), ApiError> {
    let mut lots: Vec<Uuid> = lines.iter().map(|l| l.lot_id).collect();
    lots.sort();
    lots.dedup();
    if lots.len() != lines.len() {
        return Err(ApiError::internal(anyhow::anyhow!(
            "take_planned: two lines name the same lot"
        )));
    }
    let ids: Vec<Uuid> = lines.iter().map(|_| Uuid::new_v4()).collect();
    let details: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| {
            move_detail(&MoveRequest {
                product_id: l.product_id,
                lot_id: l.lot_id,
                quantity: l.quantity,
                from_location_id: Some(location_id),
                to_location_id: None,
                reason,
                unit_cost: None,
                currency: None,
                reference,
            })
        })
        .collect();
    let taken = store::take_lines(
        conn,
        &ids,
        &lines.iter().map(|l| l.product_id).collect::<Vec<_>>(),
        &lines.iter().map(|l| l.lot_id).collect::<Vec<_>>(),
        &lines.iter().map(|l| l.quantity).collect::<Vec<_>>(),
        &details,
        location_id,
        reason.as_str(),
        reference,
        actor.account_id,
        actor.ip.as_deref(),
    )
    .await?;
    if taken.len() == lines.len() {
        return Ok(());
    }
    // The first line not taken, named: its lot changed status (or stock)
    // after the caller planned.
    let missed = ids
        .iter()
        .zip(lines)
        .find(|(id, _)| !taken.contains(id))
        .map(|(_, l)| l)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("take_planned: counts differ")))?;
    Err(lot_not_available(format!(
        "Lot {} of {} is no longer available (its status changed or its stock was taken meanwhile): nothing was moved. Try again.",
        missed.lot_number, missed.product_name
    )))
}

/// A reservation's lines, first expiry first out, from the product's
/// usable balances (`store::lock_reservable`, locked): earliest expiry
/// first (lots without one last), then lot number, then location. `None`
/// when they do not hold `quantity`.
pub fn plan_fefo(
    mut candidates: Vec<store::Reservable>,
    quantity: Decimal,
) -> Option<Vec<ReservationLineRow>> {
    candidates.sort_by(|a, b| {
        let expiry = |r: &store::Reservable| (r.expires_on.is_none(), r.expires_on);
        expiry(a)
            .cmp(&expiry(b))
            .then_with(|| a.lot_number.cmp(&b.lot_number))
            .then_with(|| a.location_id.cmp(&b.location_id))
    });
    let mut left = quantity;
    let mut lines = Vec::new();
    for c in candidates {
        if left.is_zero() {
            break;
        }
        let take = c.available.min(left);
        if take <= Decimal::ZERO {
            continue;
        }
        left -= take;
        lines.push(ReservationLineRow {
            reservation_id: Uuid::nil(),
            location_id: c.location_id,
            lot_id: c.lot_id,
            lot_number: c.lot_number,
            expires_on: c.expires_on,
            quantity: take,
        });
    }
    left.is_zero().then_some(lines)
}

/// Reserves `quantity` of the product (in `location_id` or anywhere) in the
/// caller's transaction: the lines, or 409 `insufficient_stock` (the caller
/// rolls back: nothing is reserved).
pub async fn reserve(
    conn: &mut PgConnection,
    id: Uuid,
    product_id: Uuid,
    product_name: &str,
    location_id: Option<Uuid>,
    quantity: Decimal,
) -> Result<Vec<ReservationLineRow>, ApiError> {
    let candidates = store::lock_reservable(conn, product_id, location_id).await?;
    let available: Decimal = candidates.iter().map(|c| c.available).sum();
    let Some(mut lines) = plan_fefo(candidates, quantity) else {
        return Err(insufficient(format!(
            "Not enough stock of {product_name} to reserve {}: {} available in released, unexpired lots.",
            quantity_text(quantity),
            quantity_text(available)
        )));
    };
    // The rows are locked already; each line is still one conditional
    // statement, in the lock order.
    lines.sort_by_key(|l| (l.location_id, l.lot_id));
    for line in &mut lines {
        line.reservation_id = id;
        let done = store::reserve_line(
            conn,
            product_id,
            line.location_id,
            line.lot_id,
            line.quantity,
        )
        .await?;
        if !done {
            return Err(insufficient(format!(
                "Not enough stock of {product_name}, lot {}, to reserve {}.",
                line.lot_number,
                quantity_text(line.quantity)
            )));
        }
    }
    Ok(lines)
}

/// Releases reservation `row` in the caller's transaction: its stock is
/// available again (each line given back to its balance, in the lock
/// order), it is marked released by `by`, and the audit row
/// (`inventory.reservation_released`) is written. The caller has locked it
/// (`store::lock_reservation`) and checked that it is still active.
/// `DELETE /api/stock-reservations/{id}` and a recall (which releases the
/// reservations of the lots it recalls) call this. Answers its lines.
pub async fn release(
    conn: &mut PgConnection,
    actor: &Actor,
    by: Option<Uuid>,
    row: &store::ReservationRow,
) -> Result<Vec<ReservationLineRow>, sqlx::Error> {
    let lines = store::reservation_lines(conn, &[row.id]).await?;
    for line in &lines {
        store::unreserve_line(
            conn,
            row.product_id,
            line.location_id,
            line.lot_id,
            line.quantity,
        )
        .await?;
    }
    store::mark_released(conn, row.id, by).await?;
    audit::record_own_tenant(
        conn,
        actor,
        "inventory.reservation_released",
        &row.id.to_string(),
        serde_json::json!({ "product_id": row.product_id, "reference": row.reference }),
    )
    .await?;
    Ok(lines)
}

/// Reserves `quantity` of the product (as [`reserve`]) and records the
/// reservation `id` for `reference`: its row, its lines and the audit row
/// `inventory.reserved`, in the caller's transaction. What the reservations
/// API and the demo stock call, and any domain that promises stock.
#[allow(clippy::too_many_arguments)]
pub async fn create_reservation(
    conn: &mut PgConnection,
    actor: &Actor,
    id: Uuid,
    product_id: Uuid,
    product_name: &str,
    location_id: Option<Uuid>,
    quantity: Decimal,
    reference: &str,
) -> Result<Vec<ReservationLineRow>, ApiError> {
    let lines = reserve(conn, id, product_id, product_name, location_id, quantity).await?;
    store::insert_reservation(
        conn,
        id,
        product_id,
        location_id,
        quantity,
        reference,
        actor.account_id,
    )
    .await?;
    for line in &lines {
        store::insert_reservation_line(conn, id, line.location_id, line.lot_id, line.quantity)
            .await?;
    }
    audit::record_own_tenant(
        conn,
        actor,
        "inventory.reserved",
        &id.to_string(),
        serde_json::json!({
            "product_id": product_id,
            "quantity": quantity_text(quantity),
            "reference": reference,
            "lines": lines.iter().map(|l| serde_json::json!({
                "location_id": l.location_id,
                "lot_id": l.lot_id,
                "quantity": quantity_text(l.quantity),
            })).collect::<Vec<_>>(),
        }),
    )
    .await?;
    Ok(lines)
}

/// Adds location `id` with its audit row (`inventory.location_created`) in
/// the caller's transaction. A code the organisation has already is a
/// unique violation (`locations_code_key`), which the caller answers.
pub async fn add_location(
    conn: &mut PgConnection,
    actor: &Actor,
    id: Uuid,
    code: &str,
    name: &str,
    kind: LocationKind,
    parent_id: Option<Uuid>,
) -> Result<(), sqlx::Error> {
    store::insert_location(
        conn,
        id,
        code,
        name,
        kind.as_str(),
        parent_id,
        actor.account_id,
    )
    .await?;
    audit::record_own_tenant(
        conn,
        actor,
        "inventory.location_created",
        &id.to_string(),
        serde_json::json!({ "code": code, "kind": kind.as_str(), "parent_id": parent_id }),
    )
    .await
}

/// Sets the product's reorder rule (min and max checked by the caller),
/// with its audit row (`inventory.reorder_rule_set`), in the caller's
/// transaction.
pub async fn set_reorder_rule(
    conn: &mut PgConnection,
    actor: &Actor,
    product_id: Uuid,
    location_id: Uuid,
    min: Decimal,
    max: Decimal,
) -> Result<(), sqlx::Error> {
    store::upsert_rule(conn, product_id, location_id, min, max, actor.account_id).await?;
    audit::record_own_tenant(
        conn,
        actor,
        "inventory.reorder_rule_set",
        &product_id.to_string(),
        serde_json::json!({
            "location_id": location_id,
            "min_quantity": quantity_text(min),
            "max_quantity": quantity_text(max),
        }),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::input::IsoDate;
    use chrono::NaiveDate;

    fn candidate(lot: &str, expires: Option<&str>, available: i64) -> store::Reservable {
        store::Reservable {
            location_id: Uuid::new_v4(),
            lot_id: Uuid::new_v4(),
            lot_number: lot.to_string(),
            expires_on: expires.map(|d| IsoDate(NaiveDate::parse_from_str(d, "%Y-%m-%d").unwrap())),
            available: Decimal::from(available),
        }
    }

    #[test]
    fn first_expiry_first_out() {
        let lines = plan_fefo(
            vec![
                candidate("NOEXP", None, 100),
                candidate("LATE", Some("2031-01-01"), 5),
                candidate("EARLY", Some("2030-01-01"), 3),
            ],
            Decimal::from(10),
        )
        .unwrap();
        let got: Vec<_> = lines
            .iter()
            .map(|l| (l.lot_number.as_str(), l.quantity.to_string()))
            .collect();
        assert_eq!(
            got,
            [
                ("EARLY", "3".to_string()),
                ("LATE", "5".to_string()),
                ("NOEXP", "2".to_string())
            ]
        );
        assert!(plan_fefo(vec![candidate("A", None, 2)], Decimal::from(3)).is_none());
    }
}
