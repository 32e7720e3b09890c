//! Parties (issue 23): the suppliers an organisation buys from and the
//! customers it ships and sells to. Both are a name, an optional GLN (GS1
//! Global Location Number: 13 digits with a valid check digit, unique in the
//! organisation), an optional email and a country (ISO 3166-1 alpha-2);
//! a customer also has an optional price-list group (issue 24).
//!
//! Procurement's purchase orders name a supplier, logistics' shipments (and
//! the sales orders of issue 24) a customer; the recall lists the customers
//! a recalled lot reached.

pub mod api;
pub mod store;

use poem_openapi::registry::MetaSchema;

use crate::gs1::{self, NumberError};
use crate::http::error::ApiError;
use crate::http::input::TextRule;

/// The two kinds of party; each has its own table and operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Supplier,
    Customer,
}

impl Kind {
    pub const fn table(self) -> &'static str {
        match self {
            Kind::Supplier => "suppliers",
            Kind::Customer => "customers",
        }
    }
    /// The audit prefix and the word people read.
    pub const fn word(self) -> &'static str {
        match self {
            Kind::Supplier => "supplier",
            Kind::Customer => "customer",
        }
    }
}

/// A GLN: 13 digits whose last is the GS1 check digit.
pub struct Gln;

impl Gln {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        gs1::gln(raw.trim()).map_err(|e| {
            ApiError::invalid_input(match e {
                NumberError::CheckDigit => format!(
                    "{field} {} has a wrong check digit: the last digit must be the GS1 check digit of the first 12.",
                    raw.trim()
                ),
                _ => format!("{field} must be 13 digits (a GS1 Global Location Number)."),
            })
        })
    }
}

impl TextRule for Gln {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[0-9]{13}$".into());
    }
}

/// A country: ISO 3166-1 alpha-2, upper case (`DE`, `IN`).
pub struct Country;

impl Country {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        let code = raw.trim();
        if COUNTRIES.contains(&code) {
            Ok(code.to_string())
        } else if code.is_empty() {
            Err(ApiError::invalid_input(format!(
                "{field} is required: an ISO 3166-1 alpha-2 code such as DE or IN."
            )))
        } else {
            Err(ApiError::invalid_input(format!(
                "{field} {code} is not an ISO 3166-1 alpha-2 code; use two capital letters such as DE or IN."
            )))
        }
    }
}

impl TextRule for Country {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[A-Z]{2}$".into());
    }
}

/// A customer's price-list group: 1 to 40 lower-case letters, digits, `_`
/// or `-`, starting with a letter or digit (`wholesale`, `eu-pharmacies`).
pub struct CustomerGroup;

impl CustomerGroup {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        let group = raw.trim();
        let ok = (1..=40).contains(&group.len())
            && group
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
            && group
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if ok {
            Ok(group.to_string())
        } else {
            Err(ApiError::invalid_input(format!(
                "{field} must be 1 to 40 lower-case letters, digits, _ or -, starting with a letter or digit (e.g. wholesale)."
            )))
        }
    }
}

impl TextRule for CustomerGroup {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[a-z0-9][a-z0-9_-]{0,39}$".into());
    }
}

crate::text_parser!(field: Gln => String, Country => String, CustomerGroup => String);

/// The officially assigned ISO 3166-1 alpha-2 codes (249).
const COUNTRIES: &[&str] = &[
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
    "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
    "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
    "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
    "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
    "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
    "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
    "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
    "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
    "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
    "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
    "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
    "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
    "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
    "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
    "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countries_are_the_249_assigned_codes_in_order() {
        assert_eq!(COUNTRIES.len(), 249);
        assert!(COUNTRIES.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Country::parse("country", " DE ").unwrap(), "DE");
        for bad in ["", "de", "XX", "UK", "DEU", "D"] {
            assert!(Country::parse("country", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn glns_need_thirteen_digits_and_their_check_digit() {
        assert_eq!(Gln::parse("gln", "9506000134352").unwrap(), "9506000134352");
        let wrong = Gln::parse("gln", "9506000134353").unwrap_err();
        assert!(wrong.message.contains("check digit"), "{}", wrong.message);
        for bad in ["", "950600013435", "95060001343521", "950600013435x"] {
            assert!(Gln::parse("gln", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn groups_are_lower_case_words() {
        assert_eq!(
            CustomerGroup::parse("group", "eu-pharmacies").unwrap(),
            "eu-pharmacies"
        );
        for bad in ["", "Wholesale", "-x", "a b", &"x".repeat(41)] {
            assert!(CustomerGroup::parse("group", bad).is_err(), "{bad}");
        }
    }
}
