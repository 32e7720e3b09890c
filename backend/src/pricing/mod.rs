//! Pricing (issue 24, ADR 0021): price lists and quotes.
//!
//! - A price list has a currency (ISO 4217 with a minor unit), a validity
//!   (`valid_from` to `valid_to`, both inclusive, `valid_to` open when
//!   absent), a scope (a customer group, or none: the default list), a kind
//!   of tier (`volume` or `graduated`) and, per product, breaks
//!   `(min_quantity, unit_price)`.
//! - Which list applies on a day: the customer's group's list, else the
//!   default list. Two lists of the same scope never overlap in validity
//!   (409 `overlapping_price_list`), whatever their currency, so that at
//!   most one list of each scope applies on any day. A product the
//!   applicable list does not price has no price (409 `no_price`): a quote
//!   never mixes two lists.
//! - What a quantity costs is the pure core in `tiers.rs`.
//!
//! Files: `mod.rs` (the input rules), `tiers.rs` (the core, with its unit
//! tests), `api.rs` (the operations), `store.rs` (the SQL).

pub mod api;
pub mod store;
pub mod tiers;

use poem_openapi::Enum;
use poem_openapi::registry::MetaSchema;
use rust_decimal::Decimal;

use crate::http::error::ApiError;
use crate::http::input::TextRule;
use crate::inventory::currencies::{self, minor_units};
use crate::inventory::plain_decimal;

/// How a price list's breaks price a quantity.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename = "PriceTiering", rename_all = "snake_case")]
pub enum Tiering {
    /// Every unit at the price of the tier the quantity reaches.
    Volume,
    /// Each unit at the price of the tier its own number reaches (units
    /// 1–9 at one price, 10–49 at the next, …).
    Graduated,
}

impl Tiering {
    pub fn as_str(self) -> &'static str {
        match self {
            Tiering::Volume => "volume",
            Tiering::Graduated => "graduated",
        }
    }
    pub fn parse(name: &str) -> Option<Self> {
        [Tiering::Volume, Tiering::Graduated]
            .into_iter()
            .find(|t| t.as_str() == name)
    }
    pub fn core(self) -> tiers::Tiering {
        match self {
            Tiering::Volume => tiers::Tiering::Volume,
            Tiering::Graduated => tiers::Tiering::Graduated,
        }
    }
}

/// The most items (products) one price list has.
pub const MAX_ITEMS: usize = 500;
/// The most breaks one product has in a list.
pub const MAX_BREAKS: usize = 20;
/// The largest body of a list's create or replacement: 500 products with
/// 20 breaks each are about 0.6 MB written plainly.
pub const MAX_LIST_BYTES: usize = 1024 * 1024;

/// A unit price: a decimal string, 0 or more, at most 9 digits before the
/// point and 6 after it (a price may be finer than the currency's minor
/// unit: amounts are rounded per line), e.g. `"12.50"`, `"0.0125"`.
pub struct UnitPrice;

impl UnitPrice {
    pub fn parse(field: &str, raw: &str) -> Result<Decimal, ApiError> {
        plain_decimal(raw, 9, tiers::UNIT_PRICE_PLACES as usize).ok_or_else(|| {
            ApiError::invalid_input(format!(
                "{field} must be a decimal number written as text, 0 or more, with at most 9 digits before the point and 6 after it, and no sign or exponent, e.g. \"12.50\"."
            ))
        })
    }
}

const UNIT_PRICE_PATTERN: &str = r"^(?:0|[1-9][0-9]{0,8})(?:\.[0-9]{1,6})?$";

impl TextRule for UnitPrice {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(UNIT_PRICE_PATTERN.into());
    }
}

/// A price list's currency: an ISO 4217 code with a minor unit (`EUR`,
/// `JPY`, `BHD`); the funds, metals and units of account without one (XAU,
/// XDR, …) price nothing.
pub struct PriceCurrency;

impl PriceCurrency {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        if minor_units(raw).is_some() {
            Ok(raw.to_string())
        } else if currencies::ISO_4217.binary_search(&raw).is_ok() {
            Err(ApiError::invalid_input(format!(
                "{field} {raw} has no minor unit in ISO 4217 (a precious metal, a fund or a unit of account): price lists use a currency such as EUR, INR, JPY or USD."
            )))
        } else {
            Err(ApiError::invalid_input(format!(
                "{field} must be an ISO 4217 currency code in capital letters, e.g. EUR, INR or USD."
            )))
        }
    }
}

impl TextRule for PriceCurrency {
    fn limits(schema: &mut MetaSchema) {
        schema.enum_items = currencies::ISO_4217
            .iter()
            .filter(|c| minor_units(c).is_some())
            .map(|c| serde_json::Value::String((*c).to_string()))
            .collect();
    }
}

crate::text_parser!(field: UnitPrice => Decimal, PriceCurrency => String);

/// An amount as the API shows it: exactly the currency's minor unit
/// (`"12.50"` in EUR, `"1200"` in JPY, `"1.250"` in BHD).
pub fn amount_text(amount: Decimal, minor_units: u32) -> String {
    let mut d = amount;
    d.rescale(minor_units);
    d.to_string()
}

/// A unit price as the API shows it: at least the currency's minor unit,
/// more places only when it has them (`"12.50"`, `"0.0125"`, `"120"` in
/// JPY).
pub fn unit_price_text(price: Decimal, minor_units: u32) -> String {
    let mut d = price.normalize();
    if d.scale() < minor_units {
        d.rescale(minor_units);
    }
    d.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_prices_and_their_pattern_agree() {
        let rule = serde_json::json!({"type": "string", "pattern": UNIT_PRICE_PATTERN});
        let re = jsonschema::validator_for(&rule).unwrap();
        for ok in ["0", "12.50", "0.000001", "999999999.999999", "1"] {
            assert!(re.is_valid(&serde_json::json!(ok)), "{ok}");
            assert!(UnitPrice::parse("p", ok).is_ok(), "{ok}");
        }
        for bad in [
            "-1",
            "1e2",
            "1.1234567",
            "abc",
            "",
            "01",
            ".5",
            "5.",
            "1000000000",
            " 1",
            "NaN",
        ] {
            assert!(!re.is_valid(&serde_json::json!(bad)), "{bad}");
            assert!(UnitPrice::parse("p", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn currencies_need_a_minor_unit() {
        for ok in ["EUR", "JPY", "BHD", "CLF"] {
            assert_eq!(PriceCurrency::parse("c", ok).unwrap(), ok);
        }
        let metal = PriceCurrency::parse("currency", "XAU").unwrap_err();
        assert!(metal.message.contains("no minor unit"), "{}", metal.message);
        for bad in ["eur", "EURO", "ABC", ""] {
            assert!(PriceCurrency::parse("c", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn amounts_show_the_minor_unit() {
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        assert_eq!(amount_text(d("12.5"), 2), "12.50");
        assert_eq!(amount_text(d("1200"), 0), "1200");
        assert_eq!(amount_text(d("1.25"), 3), "1.250");
        assert_eq!(unit_price_text(d("12.5"), 2), "12.50");
        assert_eq!(unit_price_text(d("0.012500"), 2), "0.0125");
        assert_eq!(unit_price_text(d("120.000"), 0), "120");
        assert_eq!(unit_price_text(d("0.5"), 0), "0.5");
    }
}
