//! Companies of a client (issue 10): the companies client A operates, each
//! identified by its Corporate Identification Number (CIN), and the overview
//! of one company (its products, their lots, and the codes generated,
//! printed and scanned for them) that the CIN selector of
//! `/clientA/dashboard` shows.
//!
//! Files: `mod.rs` (the types and the CIN's rules), `api.rs` (the
//! operations), `store.rs` (the SQL).

pub mod api;
pub mod store;

use chrono::{DateTime, Datelike, Utc};
use poem_openapi::Object;
use poem_openapi::registry::MetaSchema;
use uuid::Uuid;

use crate::http::error::ApiError;
use crate::http::input::{IsoDate, TextRule, plain_name};
use crate::trimmed_plain_text_pattern;

/// A company as the API shows it.
#[derive(Object, Debug, sqlx::FromRow)]
pub struct Company {
    pub id: Uuid,
    /// Its Corporate Identification Number (21 characters).
    pub cin: String,
    /// Its registered name (the manufacturer's name on a Schedule H2 label).
    pub name: String,
    /// Its registered address (the manufacturer's address on the label).
    pub registered_address: String,
    pub created_at: DateTime<Utc>,
}

/// A product of the company, as its overview lists it.
#[derive(Object, Debug, sqlx::FromRow)]
pub struct CompanyProduct {
    pub id: Uuid,
    pub product_name: String,
    pub skuid: String,
    pub gtin: String,
}

/// A batch (lot) of one of the company's products.
#[derive(Object, Debug, sqlx::FromRow)]
pub struct CompanyBatch {
    pub id: Uuid,
    pub product_id: Uuid,
    pub product_name: String,
    /// The lot number (GS1 AI 10).
    pub number: String,
    #[oai(skip_serializing_if_is_none)]
    pub manufactured_on: Option<IsoDate>,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
    /// Codes generated for the lot.
    pub codes: i64,
}

/// The codes of the company's products.
#[derive(Object, Debug, sqlx::FromRow, Default)]
pub struct CompanyCodeCounts {
    /// Serialized codes generated (by its code jobs).
    pub generated: i64,
    /// Labels printed by its print jobs (reprints not counted again).
    pub printed: i64,
    /// Distinct codes scanned at least once.
    pub scanned: i64,
}

/// The two-letter state and union territory codes of CINs, as the Ministry
/// of Corporate Affairs assigns them (Chhattisgarh CT, Odisha OR, Telangana
/// TG, Uttarakhand UR, Ladakh LA since 2019).
pub const STATE_CODES: [&str; 37] = [
    "AN", "AP", "AR", "AS", "BR", "CH", "CT", "DD", "DL", "DN", "GA", "GJ", "HP", "HR", "JH", "JK",
    "KA", "KL", "LA", "LD", "MH", "ML", "MN", "MP", "MZ", "NL", "OR", "PB", "PY", "RJ", "SK", "TG",
    "TN", "TR", "UP", "UR", "WB",
];

/// The ownership types of CINs (the Ministry of Corporate Affairs' codes):
/// public and private limited, Government of India and state government
/// companies, financial lease, subsidiary of a foreign company, general
/// associations (public, private), not-for-profit licence, unlimited
/// liability (public, private) and one person companies.
pub const OWNERSHIP_TYPES: [&str; 12] = [
    "PLC", "PTC", "GOI", "SGC", "FLC", "FTC", "GAP", "GAT", "NPL", "ULL", "ULT", "OPC",
];

/// The first year a CIN may carry (the first Indian company law is of 1850).
pub const FIRST_YEAR: i32 = 1850;

/// A Corporate Identification Number, checked part by part. Capital
/// letters are required (not normalised): a CIN is copied from a
/// certificate, and the page capitalises what is typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cin(String);

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

impl Cin {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        Self::parse_in(raw, Utc::now().year())
    }

    /// As [`Cin::parse`], with the current year given (for tests).
    pub fn parse_in(raw: &str, current_year: i32) -> Result<Self, ApiError> {
        let bad = |m: String| Err(ApiError::invalid_input(m));
        if raw.chars().count() != 21 || !raw.is_ascii() {
            return bad(format!(
                "CIN must be exactly 21 characters (e.g. L24230MH1950PLC008311); this one has {}.",
                raw.chars().count()
            ));
        }
        if raw.bytes().any(|b| b.is_ascii_lowercase()) {
            return bad("CIN must be written in capital letters.".into());
        }
        let (listing, industry, state, year, ownership, number) = (
            &raw[0..1],
            &raw[1..6],
            &raw[6..8],
            &raw[8..12],
            &raw[12..15],
            &raw[15..21],
        );
        if listing != "L" && listing != "U" {
            return bad(format!(
                "CIN listing status (character 1) must be L (listed) or U (unlisted), not {listing}."
            ));
        }
        if !all_digits(industry) {
            return bad(format!(
                "CIN industry code (characters 2 to 6) must be 5 digits, not {industry}."
            ));
        }
        if !STATE_CODES.contains(&state) {
            return bad(format!(
                "CIN state code (characters 7 and 8) must be an Indian state or union territory code such as MH or DL, not {state}."
            ));
        }
        let year_ok = all_digits(year)
            && year
                .parse::<i32>()
                .is_ok_and(|y| (FIRST_YEAR..=current_year).contains(&y));
        if !year_ok {
            return bad(format!(
                "CIN year of incorporation (characters 9 to 12) must be a year from {FIRST_YEAR} to {current_year}, not {year}."
            ));
        }
        if !OWNERSHIP_TYPES.contains(&ownership) {
            return bad(format!(
                "CIN ownership type (characters 13 to 15) must be one of {}, not {ownership}.",
                OWNERSHIP_TYPES.join(", ")
            ));
        }
        if !all_digits(number) {
            return bad(format!(
                "CIN registration number (characters 16 to 21) must be 6 digits, not {number}."
            ));
        }
        Ok(Self(raw.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for Cin {
    fn limits(schema: &mut MetaSchema) {
        // Every part but the year's upper bound (the current year), which a
        // pattern cannot follow: a later year is a 400 that says so.
        schema.pattern = Some(format!(
            "^[LU][0-9]{{5}}(?:{})(?:18[5-9][0-9]|19[0-9]{{2}}|20[0-9]{{2}})(?:{})[0-9]{{6}}$",
            STATE_CODES.join("|"),
            OWNERSHIP_TYPES.join("|")
        ));
    }
}

/// A company's registered name: 1 to 200 characters once trimmed, plain
/// text.
#[derive(Clone, Debug)]
pub struct CompanyName(String);

impl CompanyName {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let name = raw.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(ApiError::invalid_input(
                "name is required (200 characters at most).",
            ));
        }
        plain_name("name", name)?;
        Ok(Self(name.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for CompanyName {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(198).into());
    }
}

/// A company's registered address: 1 to 500 characters once trimmed, on
/// one line, plain text.
#[derive(Clone, Debug)]
pub struct RegisteredAddress(String);

impl RegisteredAddress {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let address = raw.trim();
        if address.is_empty() || address.chars().count() > 500 {
            return Err(ApiError::invalid_input(
                "registered_address is required (500 characters at most).",
            ));
        }
        plain_name("registered_address", address)?;
        Ok(Self(address.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for RegisteredAddress {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(498).into());
    }
}

crate::text_parser!(Cin, CompanyName, RegisteredAddress);

#[cfg(test)]
mod tests {
    use super::*;

    fn message(raw: &str) -> String {
        Cin::parse_in(raw, 2026).unwrap_err().body().error
    }

    #[test]
    fn a_valid_cin_is_accepted() {
        for cin in [
            "L24230MH1950PLC008311",
            "U72200KA2007PTC041799",
            "U74999DL2015OPC123456",
            "L17110MH1973PLC019786",
            "U24100GJ2026GOI000001",
        ] {
            assert_eq!(Cin::parse_in(cin, 2026).unwrap().as_str(), cin);
        }
    }

    #[test]
    fn each_part_is_refused_by_name() {
        assert!(message("L24230MH1950PLC00831").contains("exactly 21 characters"));
        assert!(message("L24230MH1950PLC0083111").contains("exactly 21 characters"));
        assert!(message("l24230mh1950plc008311").contains("capital letters"));
        assert!(message("X24230MH1950PLC008311").contains("listing status"));
        assert!(message("L2423AMH1950PLC008311").contains("industry code"));
        assert!(message("L24230XX1950PLC008311").contains("state code"));
        assert!(message("L24230MH1849PLC008311").contains("year of incorporation"));
        assert!(message("L24230MH2027PLC008311").contains("year of incorporation"));
        assert!(message("L24230MH19A0PLC008311").contains("year of incorporation"));
        assert!(message("L24230MH1950ABC008311").contains("ownership type"));
        assert!(message("L24230MH1950PLC00831A").contains("registration number"));
        assert!(message("L24230MH1950PLC0083١١").contains("exactly 21 characters"));
    }

    #[test]
    fn the_pattern_agrees_with_the_parser() {
        let mut schema = MetaSchema::new("string");
        Cin::limits(&mut schema);
        let rule = serde_json::json!({"type": "string", "pattern": schema.pattern.unwrap()});
        let re = jsonschema::validator_for(&rule).unwrap();
        for cin in ["L24230MH1950PLC008311", "U72200KA2007PTC041799"] {
            assert!(re.is_valid(&serde_json::json!(cin)));
        }
        for cin in [
            "X24230MH1950PLC008311",
            "L24230XX1950PLC008311",
            "L24230MH1849PLC008311",
            "L24230MH1950ABC008311",
            "l24230MH1950PLC008311",
        ] {
            assert!(!re.is_valid(&serde_json::json!(cin)), "{cin}");
            assert!(Cin::parse_in(cin, 2026).is_err());
        }
        // Every state and ownership code is in the pattern.
        for s in STATE_CODES {
            for o in OWNERSHIP_TYPES {
                let cin = format!("U12345{s}2000{o}000001");
                assert!(re.is_valid(&serde_json::json!(cin)), "{cin}");
                assert!(Cin::parse_in(&cin, 2026).is_ok(), "{cin}");
            }
        }
    }
}
