//! The lot register (issue 22): every lot (batch) of a product, by its GS1
//! AI 10 number, with its dates and its status. Code jobs, stock moves,
//! inspections, and later receipts, manufacturing orders, shipments and
//! recalls refer to it; a pharmaceutical client's batch is a lot too (ADR
//! 0019).
//!
//! Files: `mod.rs` (the types and the status rules), `api.rs` (the
//! operations under `/api/lots`), `store.rs` (the SQL;
//! [`store::change_status`] is the one way any domain changes a lot's
//! status, and [`store::register`] / [`store::ensure`] the ways a lot is
//! added: each writes the history row and the audit row in the caller's
//! transaction).

pub mod api;
pub mod store;

use chrono::{DateTime, NaiveDate, Utc};
use poem_openapi::registry::MetaSchema;
use poem_openapi::{Enum, Object};
use uuid::Uuid;

use crate::http::error::ApiError;
use crate::http::input::{IsoDate, TextRule, plain_name};
use crate::trimmed_plain_text_pattern;

/// Where a lot stands. Only a `released`, unexpired lot can be reserved,
/// picked, consumed or shipped.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum LotStatus {
    /// Waiting for inspection: stock may only move into quarantine or scrap.
    Quarantine,
    /// Free to use.
    Released,
    /// Stopped by QA (a failed inspection, a complaint) until decided.
    Held,
    /// Failed for good: to be scrapped or returned.
    Rejected,
    /// Recalled from the market: consumers who scan it are warned.
    Recalled,
}

impl LotStatus {
    pub const ALL: [LotStatus; 5] = [
        LotStatus::Quarantine,
        LotStatus::Released,
        LotStatus::Held,
        LotStatus::Rejected,
        LotStatus::Recalled,
    ];

    /// The name stored in `lots.status` and shown in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            LotStatus::Quarantine => "quarantine",
            LotStatus::Released => "released",
            LotStatus::Held => "held",
            LotStatus::Rejected => "rejected",
            LotStatus::Recalled => "recalled",
        }
    }

    /// The status stored as `name`; `None` for anything else.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The status a new lot of a product starts in: `quarantine` when the
    /// product requires inspection (its lots wait for QA), else `released`.
    pub fn initial(requires_inspection: bool) -> Self {
        if requires_inspection {
            LotStatus::Quarantine
        } else {
            LotStatus::Released
        }
    }
}

/// A lot of the register as the API shows it (named `RegisteredLot` in
/// the contract: a code job's `Lot` is its number and dates only).
#[derive(Object, Debug, Clone)]
#[oai(rename = "RegisteredLot")]
pub struct Lot {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    /// The product's GTIN-14.
    pub gtin: String,
    /// GS1 AI 10: 1 to 20 characters of GS1's character set 82.
    pub number: String,
    #[oai(skip_serializing_if_is_none)]
    pub manufactured_on: Option<IsoDate>,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    pub status: LotStatus,
    /// Its expiry date is before today (an expired lot cannot be used,
    /// whatever its status).
    pub expired: bool,
    /// When its status last changed (when it was registered, if never).
    pub status_changed_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
}

/// The row behind a [`Lot`].
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct LotRow {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    pub gtin: String,
    pub number: String,
    pub manufactured_on: Option<NaiveDate>,
    pub expires_on: Option<NaiveDate>,
    pub status: String,
    pub expired: bool,
    pub status_changed_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
}

impl LotRow {
    pub fn to_api(&self) -> Lot {
        Lot {
            id: self.id,
            product_id: self.product_id,
            product_name: self.product_name.clone(),
            gtin: self.gtin.clone(),
            number: self.number.clone(),
            manufactured_on: self.manufactured_on.map(IsoDate),
            expires_on: self.expires_on.map(IsoDate),
            // The table's CHECK allows only the five statuses.
            status: LotStatus::parse(&self.status).unwrap_or(LotStatus::Held),
            expired: self.expired,
            status_changed_at: self.status_changed_at,
            created_at: self.created_at,
        }
    }
}

/// One change of a lot's status: from what (absent for its first status,
/// when it was registered), to what, why, who and when.
#[derive(Object, Debug, Clone)]
pub struct StatusHistoryEntry {
    #[oai(skip_serializing_if_is_none)]
    pub from: Option<LotStatus>,
    pub to: LotStatus,
    pub reason: String,
    /// Who changed it, by name at the time ("brandops" for the system).
    pub who: String,
    /// When.
    pub at: DateTime<Utc>,
}

/// The row behind a [`StatusHistoryEntry`].
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct StatusHistoryRow {
    pub from_status: Option<String>,
    pub to_status: String,
    pub reason: String,
    pub changed_by_name: String,
    pub changed_at: DateTime<Utc>,
}

impl StatusHistoryRow {
    pub fn to_api(&self) -> StatusHistoryEntry {
        StatusHistoryEntry {
            from: self.from_status.as_deref().and_then(LotStatus::parse),
            to: LotStatus::parse(&self.to_status).unwrap_or(LotStatus::Held),
            reason: self.reason.clone(),
            who: self.changed_by_name.clone(),
            at: self.changed_at,
        }
    }
}

/// Why a lot's status changes: 1 to 500 characters once trimmed, plain
/// text (no control characters or text-direction marks).
#[derive(Clone, Debug)]
pub struct StatusReason(String);

impl StatusReason {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let reason = raw.trim();
        if reason.is_empty() || reason.chars().count() > 500 {
            return Err(ApiError::invalid_input(
                "reason is required: say why the status changes (500 characters at most).",
            ));
        }
        plain_name("reason", reason)?;
        Ok(Self(reason.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for StatusReason {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(498).into());
    }
}

crate::text_parser!(StatusReason);

/// The reason of a lot's first history row.
pub const REGISTERED: &str = "Registered";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_reads_back_as_itself() {
        for status in LotStatus::ALL {
            assert_eq!(LotStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(LotStatus::parse("Released"), None);
        assert_eq!(LotStatus::parse(""), None);
    }

    #[test]
    fn a_lot_that_needs_inspection_starts_in_quarantine() {
        assert_eq!(LotStatus::initial(true), LotStatus::Quarantine);
        assert_eq!(LotStatus::initial(false), LotStatus::Released);
    }

    #[test]
    fn a_reason_is_trimmed_plain_text_of_1_to_500_characters() {
        assert_eq!(
            StatusReason::parse("  Complaint 42  ").unwrap().as_str(),
            "Complaint 42"
        );
        for bad in ["", "   ", "a\u{202E}b", "line\nbreak"] {
            assert!(StatusReason::parse(bad).is_err(), "{bad:?}");
        }
        assert!(StatusReason::parse(&"x".repeat(500)).is_ok());
        assert!(StatusReason::parse(&"x".repeat(501)).is_err());
        assert!(StatusReason::parse("<b>held</b>").is_ok());
    }
}
