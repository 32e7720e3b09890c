//! Logistics (issue 23): shipments to customers, their packages' SSCCs,
//! the EPCIS events of shipping and receiving, and the SSCC logistic label.
//!
//! The promise: a shipment never promises stock another one holds, ships
//! once, and ships all of its lines or none.
//!
//! - Creating a shipment picks its lots (first expiry first out among the
//!   released, unexpired lots at its location, or the lot a line names)
//!   and reserves them through [`crate::inventory::ledger`]: one reservation
//!   per line, whose lines are the picks. Parallel drafts queue on the
//!   balance rows and the second gets 409 `insufficient_stock`.
//! - Shipping (one transaction): the shipment row locked (a second ship
//!   waits, then gets 409 `invalid_transition`), each reservation released
//!   and its picks moved out through `ledger::record_move` (reason
//!   `shipment`; a lot recalled or held since the draft is refused with the
//!   ledger's 409 `lot_not_available`), `shipment_lots` filled, one SSCC per
//!   package from the tenant's counter, the codes each package carries
//!   (`shipment_codes`: of each lot with finished code jobs, its next codes
//!   not shipped yet, one per whole unit, as ranges; the lots locked so
//!   that parallel ships never take the same codes), and the EPCIS events
//!   (the packages' SGTINs under their SSCCs on export).
//!
//! Files: `mod.rs` (the types and the rules: SSCCs, states), `api.rs` (the
//! operations), `store.rs` (the SQL), `label.rs` (the PDF label and its
//! GS1-128 barcode), `events.rs` (the EPCIS events), `serials.rs` (which
//! codes a package takes).

pub mod api;
pub mod events;
pub mod label;
pub mod serials;
pub mod store;

use poem::http::StatusCode;
use poem_openapi::Enum;
use poem_openapi::registry::MetaSchema;

use crate::gs1;
use crate::http::error::ApiError;
use crate::http::input::TextRule;

/// A GS1 company prefix: 6 to 12 digits, as GS1 assigned it.
pub struct CompanyPrefix;

impl CompanyPrefix {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        if sscc_capacity(raw).is_some() {
            Ok(raw.to_string())
        } else {
            Err(ApiError::invalid_input(format!(
                "{field} must be your GS1 company prefix: 6 to 12 digits, as GS1 assigned it (e.g. 4006381)."
            )))
        }
    }
}

impl TextRule for CompanyPrefix {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[0-9]{6,12}$".into());
    }
}

crate::text_parser!(field: CompanyPrefix => String);

/// Where a shipment is.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
pub enum ShipmentStatus {
    /// Created: its stock is reserved; it can ship or be cancelled.
    Draft,
    /// Left: the stock moved out, the packages have SSCCs.
    Shipped,
    /// The customer received it.
    Delivered,
    /// Cancelled as a draft: its reservations were released.
    Cancelled,
}

impl ShipmentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Shipped => "shipped",
            Self::Delivered => "delivered",
            Self::Cancelled => "cancelled",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        [Self::Draft, Self::Shipped, Self::Delivered, Self::Cancelled]
            .into_iter()
            .find(|k| k.as_str() == s)
    }
}

/// The number people quote: `SH-000042`.
pub fn shipment_reference(number: i64) -> String {
    format!("SH-{number:06}")
}

/// 409 `invalid_transition`.
pub fn invalid_transition(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "invalid_transition", message)
}

/// How many SSCCs a company prefix can give: its serial reference has
/// `16 - len` digits, and the extension digit (0 to 9) in front of the
/// prefix multiplies that by ten. `None` for a prefix that is not 6 to 12
/// digits.
pub fn sscc_capacity(prefix: &str) -> Option<u64> {
    if !(6..=12).contains(&prefix.len()) || !prefix.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(10u64.pow(17 - prefix.len() as u32))
}

/// The `n`-th SSCC (0-based) of `prefix`: the extension digit, the
/// company prefix, the serial reference (zero-padded to `16 - len(prefix)`
/// digits) and the GS1 mod-10 check digit, 18 digits in all (GS1 General
/// Specifications §2.2.1). The extension digit is the high digit of `n`,
/// so the first `10^(16 - len)` SSCCs have extension digit 0. `None` when
/// `n` is beyond the prefix's range or the prefix is malformed.
pub fn sscc(prefix: &str, n: u64) -> Option<String> {
    let capacity = sscc_capacity(prefix)?;
    if n >= capacity {
        return None;
    }
    let per_extension = capacity / 10;
    let width = 16 - prefix.len();
    let body = format!("{}{prefix}{:0width$}", n / per_extension, n % per_extension);
    let check = gs1::check_digit(&body)?;
    Some(format!("{body}{check}"))
}

/// An SSCC as people read it: `(00) 0 1234567 000000001 8`, the extension
/// digit, the company prefix (of `prefix_len` digits), the serial
/// reference and the check digit apart.
pub fn sscc_human(sscc: &str, prefix_len: usize) -> String {
    if sscc.len() != 18 || prefix_len == 0 || prefix_len > 12 {
        return format!("(00) {sscc}");
    }
    format!(
        "(00) {} {} {} {}",
        &sscc[..1],
        &sscc[1..1 + prefix_len],
        &sscc[1 + prefix_len..17],
        &sscc[17..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssccs_carry_the_prefix_a_serial_and_the_check_digit() {
        // GS1 General Specifications' example SSCC, (00) 1 0614141
        // 234567890 8: extension digit 1, prefix 0614141, serial reference
        // 234567890, check digit 8.
        let prefix = "0614141";
        let per_extension = 10u64.pow(9);
        let n = per_extension + 234_567_890;
        let got = sscc(prefix, n).unwrap();
        assert_eq!(got, "106141412345678908");
        assert!(gs1::check_digit_ok(&got));
        assert_eq!(gs1::sscc(&got).as_deref(), Ok(got.as_str()));
        // The first and a later one of a 9-digit prefix: extension 0,
        // serial zero-padded to 7 digits.
        assert_eq!(sscc("950600013", 0).unwrap(), "095060001300000002");
        assert!(gs1::check_digit_ok("095060001300000002"));
        assert_eq!(&sscc("950600013", 41).unwrap()[..17], "09506000130000041");
        for n in [0u64, 1, 9, 10, 999, 12_345] {
            let s = sscc("4006381", n).unwrap();
            assert_eq!(s.len(), 18);
            assert!(gs1::check_digit_ok(&s), "{s}");
            assert_eq!(&s[1..8], "4006381");
        }
    }

    #[test]
    fn the_range_of_a_prefix_ends() {
        assert_eq!(sscc_capacity("123456"), Some(100_000_000_000));
        assert_eq!(sscc_capacity("123456789012"), Some(100_000));
        let last = sscc("123456789012", 99_999).unwrap();
        assert_eq!(&last[..17], "91234567890129999");
        assert!(gs1::check_digit_ok(&last));
        assert_eq!(sscc("123456789012", 100_000), None);
        // Not a prefix: too short, too long, not digits.
        for bad in ["12345", "1234567890123", "12345a", ""] {
            assert_eq!(sscc_capacity(bad), None, "{bad}");
            assert_eq!(sscc(bad, 0), None, "{bad}");
        }
    }

    #[test]
    fn ssccs_are_distinct_across_the_range() {
        let prefix = "12345678901";
        let capacity = sscc_capacity(prefix).unwrap();
        let mut seen = std::collections::HashSet::new();
        for n in (0..capacity).step_by(997) {
            assert!(seen.insert(sscc(prefix, n).unwrap()));
        }
    }

    #[test]
    fn human_readable_ssccs() {
        assert_eq!(
            sscc_human("106141412345678908", 7),
            "(00) 1 0614141 234567890 8"
        );
    }
}
