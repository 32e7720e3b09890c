//! The lot register (issue 22): every lot (batch) of a product, by its GS1
//! AI 10 number, with its dates and its status. Code jobs, stock moves,
//! inspections, and later receipts, manufacturing orders, shipments and
//! recalls refer to it; a pharmaceutical client's batch is a lot too (ADR
//! 0019).
//!
//! Files: `mod.rs` (the types and the status rules), `store.rs` (the SQL;
//! [`store::change_status`] is the one way any domain changes a lot's
//! status: it writes the history row and the audit row in the caller's
//! transaction).

pub mod store;

use poem_openapi::Enum;

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
}

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
}
