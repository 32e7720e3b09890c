//! Inventory (issue 22, ADR 0020): locations (a tree), the stock ledger
//! (append-only moves), balances per (product, location, lot) changed by one
//! conditional statement in the move's transaction, reservations first
//! expiry first out, replenishment and the valuation (FIFO by receipt).
//! The promise: no oversell, no negative stock and no lost move, under any
//! concurrency.
//!
//! Files: `mod.rs` (the types and the rules: quantities, money, currencies),
//! `api.rs` (the operations), `store.rs` (the SQL; the balance statements
//! and the lock order live there), `currencies.rs` (ISO 4217).

pub mod api;
pub mod currencies;
pub mod idempotency;
pub mod ledger;
pub mod store;

use poem_openapi::Enum;
use poem_openapi::registry::MetaSchema;
use rust_decimal::Decimal;

use crate::http::error::ApiError;
use crate::http::input::TextRule;

/// What kind of place a location is.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
pub enum LocationKind {
    Warehouse,
    Zone,
    Bin,
    /// Stock waiting for QA: lots that are not released may move in.
    Quarantine,
    /// Stock written off: lots that are not released may move in.
    Scrap,
}

impl LocationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LocationKind::Warehouse => "warehouse",
            LocationKind::Zone => "zone",
            LocationKind::Bin => "bin",
            LocationKind::Quarantine => "quarantine",
            LocationKind::Scrap => "scrap",
        }
    }
    pub fn parse(name: &str) -> Option<Self> {
        [
            LocationKind::Warehouse,
            LocationKind::Zone,
            LocationKind::Bin,
            LocationKind::Quarantine,
            LocationKind::Scrap,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
    /// Whether stock of a lot that is not released (or expired) may move in.
    pub fn takes_unavailable_lots(self) -> bool {
        matches!(self, LocationKind::Quarantine | LocationKind::Scrap)
    }
}

/// Why stock moved.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
pub enum MoveReason {
    Receipt,
    Transfer,
    Adjustment,
    Consumption,
    Shipment,
    Scrap,
    Return,
}

impl MoveReason {
    pub fn as_str(self) -> &'static str {
        match self {
            MoveReason::Receipt => "receipt",
            MoveReason::Transfer => "transfer",
            MoveReason::Adjustment => "adjustment",
            MoveReason::Consumption => "consumption",
            MoveReason::Shipment => "shipment",
            MoveReason::Scrap => "scrap",
            MoveReason::Return => "return",
        }
    }
    pub fn parse(name: &str) -> Option<Self> {
        [
            MoveReason::Receipt,
            MoveReason::Transfer,
            MoveReason::Adjustment,
            MoveReason::Consumption,
            MoveReason::Shipment,
            MoveReason::Scrap,
            MoveReason::Return,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
}

/// The largest quantity one move, reservation or rule may name (nine
/// digits before the point): balances sum many of them and stay exact.
const QUANTITY_DIGITS: usize = 9;

/// Parses a decimal written plainly: digits, at most one point, at most
/// `places` digits after it and `digits` before it; no sign, no exponent, no
/// spaces. `None` for anything else.
pub fn plain_decimal(raw: &str, digits: usize, places: usize) -> Option<Decimal> {
    let (whole, fraction) = match raw.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (raw, None),
    };
    let digits_only = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits_only(whole) || whole.len() > digits {
        return None;
    }
    if whole.len() > 1 && whole.starts_with('0') {
        return None;
    }
    if let Some(f) = fraction
        && (!digits_only(f) || f.len() > places)
    {
        return None;
    }
    raw.parse::<Decimal>().ok()
}

/// A quantity of stock: a decimal string greater than 0 with at most 3
/// decimal places (a product's unit may be counted in thousandths), e.g.
/// `"12"`, `"0.5"`, `"2.125"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantity(Decimal);

impl Quantity {
    pub fn parse(field: &str, raw: &str) -> Result<Decimal, ApiError> {
        Self::parse_allowing_zero(field, raw).and_then(|d| {
            if d.is_zero() {
                Err(ApiError::invalid_input(format!(
                    "{field} must be more than 0."
                )))
            } else {
                Ok(d)
            }
        })
    }
    /// As [`Quantity::parse`], with 0 allowed (a reorder rule's minimum).
    pub fn parse_allowing_zero(field: &str, raw: &str) -> Result<Decimal, ApiError> {
        plain_decimal(raw, QUANTITY_DIGITS, 3).ok_or_else(|| {
            ApiError::invalid_input(format!(
                "{field} must be a decimal number written as text, with at most 3 decimal places and no sign or exponent, e.g. \"12\" or \"2.5\"."
            ))
        })
    }
}

impl TextRule for Quantity {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(POSITIVE_QUANTITY_PATTERN.into());
    }
}

/// A quantity of 0 or more (a reorder rule's minimum).
const QUANTITY_PATTERN: &str = r"^(?:0|[1-9][0-9]{0,8})(?:\.[0-9]{1,3})?$";
/// A quantity above 0.
const POSITIVE_QUANTITY_PATTERN: &str =
    r"^(?:[1-9][0-9]{0,8}(?:\.[0-9]{1,3})?|0\.(?:[1-9][0-9]{0,2}|0[1-9][0-9]?|00[1-9]))$";

/// A quantity that may be 0 (a reorder rule's minimum).
pub struct QuantityOrZero;

impl QuantityOrZero {
    pub fn parse(field: &str, raw: &str) -> Result<Decimal, ApiError> {
        Quantity::parse_allowing_zero(field, raw)
    }
}

impl TextRule for QuantityOrZero {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(QUANTITY_PATTERN.into());
    }
}

/// A unit cost: a decimal string, 0 or more, with at most 6 decimal places
/// and 12 digits before the point, e.g. `"12.50"`.
pub struct UnitCost;

impl UnitCost {
    pub fn parse(field: &str, raw: &str) -> Result<Decimal, ApiError> {
        plain_decimal(raw, 12, 6).ok_or_else(|| {
            ApiError::invalid_input(format!(
                "{field} must be a decimal number written as text, 0 or more, with at most 6 decimal places and no sign or exponent, e.g. \"12.50\"."
            ))
        })
    }
}

impl TextRule for UnitCost {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(r"^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,6})?$".into());
    }
}

/// An ISO 4217 currency code, e.g. `EUR`, `INR`, `USD`.
pub struct Currency;

impl Currency {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        if currencies::ISO_4217.binary_search(&raw).is_ok() {
            Ok(raw.to_string())
        } else {
            Err(ApiError::invalid_input(format!(
                "{field} must be an ISO 4217 currency code in capital letters, e.g. EUR, INR or USD."
            )))
        }
    }
}

impl TextRule for Currency {
    fn limits(schema: &mut MetaSchema) {
        schema.enum_items = currencies::ISO_4217
            .iter()
            .map(|c| serde_json::Value::String((*c).to_string()))
            .collect();
    }
}

/// A location's code: 1 to 40 letters, digits and `. _ / -`, starting with
/// a letter or digit (`WH1`, `WH1/A-03`). Unique per organisation, whatever
/// its case.
pub struct LocationCode;

impl LocationCode {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        let ok = !raw.is_empty()
            && raw.len() <= 40
            && raw.as_bytes()[0].is_ascii_alphanumeric()
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._/-".contains(&b));
        if ok {
            Ok(raw.to_string())
        } else {
            Err(ApiError::invalid_input(format!(
                "{field} must be 1 to 40 letters, digits, dots, underscores, slashes or hyphens, starting with a letter or digit (e.g. WH1/A-03)."
            )))
        }
    }
}

impl TextRule for LocationCode {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$".into());
    }
}

/// An `Idempotency-Key`: 1 to 255 printable ASCII characters (a UUID is
/// the usual choice).
pub struct IdempotencyKey;

impl IdempotencyKey {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        if !raw.is_empty() && raw.len() <= 255 && raw.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
            Ok(raw.to_string())
        } else {
            Err(ApiError::invalid_input(format!(
                "{field} must be 1 to 255 printable ASCII characters without spaces (a UUID, say)."
            )))
        }
    }
}

impl TextRule for IdempotencyKey {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(r"^[!-~]{1,255}$".into());
    }
}

crate::text_parser!(field:
    Quantity => Decimal,
    QuantityOrZero => Decimal,
    UnitCost => Decimal,
    Currency => String,
    LocationCode => String,
    IdempotencyKey => String,
);

/// A quantity as the API shows it: without trailing zeros (`"12"`,
/// `"2.5"`).
pub fn quantity_text(d: Decimal) -> String {
    d.normalize().to_string()
}

/// An amount of money as the API shows it: without trailing zeros beyond
/// the cents (`"12.50"`, `"0.125"`).
pub fn money_text(d: Decimal) -> String {
    let mut d = d.normalize();
    if d.scale() < 2 {
        d.rescale(2);
    }
    d.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_are_plain_positive_decimals_with_three_places() {
        for (raw, want) in [
            ("12", "12"),
            ("0.5", "0.5"),
            ("2.125", "2.125"),
            ("10.000", "10"),
        ] {
            assert_eq!(quantity_text(Quantity::parse("q", raw).unwrap()), want);
        }
        for bad in [
            "0",
            "0.000",
            "-1",
            "+1",
            "1.2345",
            "1e3",
            "1E3",
            ".5",
            "5.",
            "01",
            " 1",
            "1 ",
            "",
            "1,5",
            "NaN",
            "inf",
            "1000000000",
            "0x10",
            "١",
        ] {
            assert!(Quantity::parse("q", bad).is_err(), "{bad:?}");
        }
        assert!(QuantityOrZero::parse("q", "0").is_ok());
        assert!(Quantity::parse("q", "999999999.999").is_ok());
    }

    #[test]
    fn the_quantity_pattern_agrees_with_the_parser() {
        let rule = serde_json::json!({"type": "string", "pattern": QUANTITY_PATTERN});
        let re = jsonschema::validator_for(&rule).unwrap();
        let matches = |s: &str| re.is_valid(&serde_json::json!(s));
        for s in ["1", "0.5", "999999999.999", "0", "10.10"] {
            assert!(matches(s), "{s}");
            assert!(Quantity::parse_allowing_zero("q", s).is_ok(), "{s}");
        }
        for s in ["01", "1.2345", "-1", "1e3", "1000000000", ".5"] {
            assert!(!matches(s), "{s}");
            assert!(Quantity::parse_allowing_zero("q", s).is_err(), "{s}");
        }
        // Above 0: the pattern and the parser agree on every quantity with
        // up to 3 places below 2.
        let rule = serde_json::json!({"type": "string", "pattern": POSITIVE_QUANTITY_PATTERN});
        let positive = jsonschema::validator_for(&rule).unwrap();
        let mut texts = vec!["0".to_string(), "1".to_string()];
        for places in 1..=3 {
            for n in 0..(2 * 10_i32.pow(places)) {
                let whole = n / 10_i32.pow(places);
                let frac = n % 10_i32.pow(places);
                texts.push(format!("{whole}.{frac:0width$}", width = places as usize));
            }
        }
        for t in texts {
            assert_eq!(
                positive.is_valid(&serde_json::json!(t)),
                Quantity::parse("q", &t).is_ok(),
                "{t}"
            );
        }
    }

    #[test]
    fn unit_costs_and_currencies() {
        assert_eq!(money_text(UnitCost::parse("c", "12.5").unwrap()), "12.50");
        assert_eq!(money_text(UnitCost::parse("c", "0").unwrap()), "0.00");
        assert_eq!(money_text(UnitCost::parse("c", "0.125").unwrap()), "0.125");
        for bad in ["-1", "1e2", "1.1234567", "abc", ""] {
            assert!(UnitCost::parse("c", bad).is_err(), "{bad:?}");
        }
        for ok in ["EUR", "USD", "INR", "JPY", "CHF"] {
            assert!(Currency::parse("c", ok).is_ok(), "{ok}");
        }
        for bad in ["eur", "EURO", "XXY", "ABC", ""] {
            assert!(Currency::parse("c", bad).is_err(), "{bad}");
        }
        let mut sorted = currencies::ISO_4217.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            sorted,
            currencies::ISO_4217,
            "the list is sorted, once each"
        );
    }

    #[test]
    fn location_codes() {
        for ok in ["WH1", "WH1/A-03", "q.1", "a_b"] {
            assert!(LocationCode::parse("code", ok).is_ok(), "{ok}");
        }
        for bad in ["", "-A", "A B", "A\u{e9}", &"A".repeat(41)] {
            assert!(LocationCode::parse("code", bad).is_err(), "{bad}");
        }
    }
}
