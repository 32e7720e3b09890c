//! Quality and compliance (issue 22): inspections of lots, nonconformances
//! worked through to a corrective and preventive action (CAPA), and a lot's
//! certificate of analysis.
//!
//! * An **inspection** is a list of checks of one lot. A check has limits
//!   (`min` and/or `max`, decimals) or an `expected` text, never both, and
//!   the `value` found. A check with limits passes when its value is a
//!   decimal number with `min <= value <= max` (an absent limit does not
//!   bound; compared as exact decimals, never floats); a check with an
//!   expected text passes when its value is the same text, ignoring case
//!   and the spaces around it. The inspection passes when every check
//!   passes. A failed inspection puts the lot on `held` (from `quarantine`
//!   or `released`: a lot already held, rejected or recalled keeps its
//!   stricter status), a passed one releases a lot in `quarantine` (and
//!   nothing else: a held, rejected or recalled lot is released only by a
//!   person, `POST /api/lots/{id}/status`), in the same transaction, through
//!   [`crate::lots::store::change_status`]. Inspections are never changed.
//! * A **nonconformance** moves strictly in order through
//!   [`NcState`]: open, investigating, action, verification, closed. Entering
//!   `action` needs a root cause, `verification` a corrective action too,
//!   and `closed` a verification note as well.
//! * The **certificate of analysis** (`certificate.rs`) is a PDF of the
//!   lot, its product and every inspection with its checks.
//!
//! Files: `mod.rs` (the types and the rules), `api.rs` (the operations),
//! `store.rs` (the SQL), `certificate.rs` (the PDF).

pub mod api;
pub mod certificate;
pub mod store;

use std::str::FromStr;

use poem_openapi::registry::MetaSchema;
use poem_openapi::{Enum, Object};
use rust_decimal::Decimal;

use crate::http::error::ApiError;
use crate::http::input::{TextRule, plain_name};
use crate::trimmed_plain_text_pattern;

/// The most checks one inspection may have.
pub const MAX_CHECKS: usize = 50;

/// An inspection's outcome.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename = "InspectionVerdict", rename_all = "lowercase")]
pub enum Verdict {
    /// Every check passed.
    Pass,
    /// At least one check failed.
    Fail,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
        }
    }
    pub fn parse(name: &str) -> Option<Self> {
        [Verdict::Pass, Verdict::Fail]
            .into_iter()
            .find(|v| v.as_str() == name)
    }
}

/// How serious a nonconformance is.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename = "NonconformanceSeverity", rename_all = "lowercase")]
pub enum Severity {
    Minor,
    Major,
    Critical,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Minor => "minor",
            Severity::Major => "major",
            Severity::Critical => "critical",
        }
    }
    pub fn parse(name: &str) -> Option<Self> {
        [Severity::Minor, Severity::Major, Severity::Critical]
            .into_iter()
            .find(|s| s.as_str() == name)
    }
}

/// Where a nonconformance stands; it moves one step at a time, in this
/// order, and never back.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename = "NonconformanceState", rename_all = "lowercase")]
pub enum NcState {
    /// Raised, not yet looked into.
    Open,
    /// Its root cause is being found.
    Investigating,
    /// The corrective action is being taken (needs the root cause).
    Action,
    /// The action's effect is being verified (needs the corrective action).
    Verification,
    /// Done (needs the verification note); never changed again.
    Closed,
}

impl NcState {
    pub const ALL: [NcState; 5] = [
        NcState::Open,
        NcState::Investigating,
        NcState::Action,
        NcState::Verification,
        NcState::Closed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            NcState::Open => "open",
            NcState::Investigating => "investigating",
            NcState::Action => "action",
            NcState::Verification => "verification",
            NcState::Closed => "closed",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The one state it may move to; `None` once closed.
    pub fn next(self) -> Option<Self> {
        match self {
            NcState::Open => Some(NcState::Investigating),
            NcState::Investigating => Some(NcState::Action),
            NcState::Action => Some(NcState::Verification),
            NcState::Verification => Some(NcState::Closed),
            NcState::Closed => None,
        }
    }
}

/// What a nonconformance must have to enter `state`: the fields missing,
/// by name, from those it has (`root_cause`, `corrective_action`,
/// `verification_note`).
pub fn missing_for(
    state: NcState,
    root_cause: bool,
    corrective_action: bool,
    verification_note: bool,
) -> Vec<&'static str> {
    let mut missing = Vec::new();
    let rank = NcState::ALL.iter().position(|s| *s == state).unwrap_or(0);
    if rank >= 2 && !root_cause {
        missing.push("root_cause");
    }
    if rank >= 3 && !corrective_action {
        missing.push("corrective_action");
    }
    if rank >= 4 && !verification_note {
        missing.push("verification_note");
    }
    missing
}

/// One check as sent, parsed: its limits or its expected text, and its
/// value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub parameter: String,
    pub rule: CheckRule,
    /// The value as stored: a decimal's own text for a check with limits.
    pub value: String,
}

/// How a check is decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckRule {
    /// Within `min..=max` (at least one of them).
    Limits {
        min: Option<Decimal>,
        max: Option<Decimal>,
        value: Decimal,
    },
    /// The same text as `expected`, ignoring case and surrounding spaces.
    Expected(String),
}

impl Check {
    /// Checks one check's parts (`n` is its place, from 1, for the
    /// messages): limits or an expected text but not both, `min <= max`,
    /// and a decimal value for a check with limits.
    pub fn new(
        n: usize,
        parameter: String,
        min: Option<Decimal>,
        max: Option<Decimal>,
        expected: Option<String>,
        value: String,
    ) -> Result<Self, ApiError> {
        let bad = |m: String| {
            Err(ApiError::invalid_input(format!(
                "checks[{n}] ({parameter}): {m}"
            )))
        };
        let limited = min.is_some() || max.is_some();
        let rule = match (limited, expected) {
            (false, None) => {
                return bad(
                    "give limits (min and/or max) or an expected value, so that the check can be decided."
                        .into(),
                );
            }
            (true, Some(_)) => {
                return bad("give either limits (min, max) or an expected value, not both.".into());
            }
            (true, None) => {
                if let (Some(lo), Some(hi)) = (min, max)
                    && lo > hi
                {
                    return bad(format!("min ({lo}) must not be greater than max ({hi})."));
                }
                let Ok(number) = parse_decimal(&value) else {
                    return bad(format!(
                        "value must be a decimal number such as 7.25 for a check with limits, not '{value}'."
                    ));
                };
                CheckRule::Limits {
                    min,
                    max,
                    value: number,
                }
            }
            (false, Some(expected)) => CheckRule::Expected(expected),
        };
        let value = match &rule {
            CheckRule::Limits { value, .. } => value.to_string(),
            CheckRule::Expected(_) => value,
        };
        Ok(Self {
            parameter,
            rule,
            value,
        })
    }

    /// Whether the check passes (see the module's documentation).
    pub fn passes(&self) -> bool {
        match &self.rule {
            CheckRule::Limits { min, max, value } => {
                min.is_none_or(|lo| *value >= lo) && max.is_none_or(|hi| *value <= hi)
            }
            CheckRule::Expected(expected) => {
                expected.trim().to_lowercase() == self.value.trim().to_lowercase()
            }
        }
    }

    pub fn min(&self) -> Option<Decimal> {
        match &self.rule {
            CheckRule::Limits { min, .. } => *min,
            CheckRule::Expected(_) => None,
        }
    }
    pub fn max(&self) -> Option<Decimal> {
        match &self.rule {
            CheckRule::Limits { max, .. } => *max,
            CheckRule::Expected(_) => None,
        }
    }
    pub fn expected(&self) -> Option<&str> {
        match &self.rule {
            CheckRule::Limits { .. } => None,
            CheckRule::Expected(e) => Some(e),
        }
    }
}

/// The verdict of a list of checks: pass when every one passes.
pub fn verdict(checks: &[Check]) -> Verdict {
    if checks.iter().all(Check::passes) {
        Verdict::Pass
    } else {
        Verdict::Fail
    }
}

/// The pattern of a decimal as the API takes it: an optional minus, up to
/// 12 digits, and up to 6 decimal places.
const DECIMAL_PATTERN: &str = r"^-?[0-9]{1,12}(\.[0-9]{1,6})?$";

fn parse_decimal(raw: &str) -> Result<Decimal, ()> {
    let (int, frac) = raw
        .strip_prefix('-')
        .unwrap_or(raw)
        .split_once('.')
        .map_or((raw.strip_prefix('-').unwrap_or(raw), None), |(i, f)| {
            (i, Some(f))
        });
    let digits = |s: &str, max: usize| {
        !s.is_empty() && s.len() <= max && s.bytes().all(|b| b.is_ascii_digit())
    };
    if !digits(int, 12) || frac.is_some_and(|f| !digits(f, 6)) {
        return Err(());
    }
    Decimal::from_str(raw).map_err(|_| ())
}

/// A limit of a check (`min`, `max`): a decimal such as `6.5` or `-20`
/// (up to 12 digits and 6 decimal places), sent as text.
pub struct DecimalText;

impl DecimalText {
    pub fn parse(field: &str, raw: &str) -> Result<Decimal, ApiError> {
        parse_decimal(raw).map_err(|()| {
            ApiError::invalid_input(format!(
                "{field} must be a decimal number such as 6.5 or -20 (up to 12 digits and 6 decimal places), not '{raw}'."
            ))
        })
    }
}

impl TextRule for DecimalText {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(DECIMAL_PATTERN.into());
    }
}

/// A check's parameter (`pH`, `Appearance`, `Assay (HPLC)`): 1 to 100
/// characters once trimmed, plain text.
pub struct Parameter;

impl Parameter {
    pub fn parse(raw: &str) -> Result<String, ApiError> {
        let value = raw.trim();
        if value.is_empty() || value.chars().count() > 100 {
            return Err(ApiError::invalid_input(
                "Each check needs a parameter: 1 to 100 characters (e.g. pH, Appearance).",
            ));
        }
        plain_name("parameter", value)?;
        Ok(value.to_string())
    }
}

impl TextRule for Parameter {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(98).into());
    }
}

impl crate::http::input::ParseText for Parameter {
    type Output = String;
    fn parse_text(raw: &str) -> Result<String, ApiError> {
        Parameter::parse(raw)
    }
}
crate::text_parser!(field: DecimalText => Decimal);

/// One check of a recorded inspection.
#[derive(Object, Debug, Clone, sqlx::FromRow)]
pub struct InspectionCheck {
    /// Its place in the inspection, from 1.
    pub position: i16,
    pub parameter: String,
    /// The lower limit (a decimal as text), for a check with limits.
    #[oai(skip_serializing_if_is_none)]
    pub min: Option<String>,
    /// The upper limit (a decimal as text), for a check with limits.
    #[oai(skip_serializing_if_is_none)]
    pub max: Option<String>,
    /// The text expected, for a check without limits.
    #[oai(skip_serializing_if_is_none)]
    pub expected: Option<String>,
    /// What was found.
    pub value: String,
    pub passed: bool,
}

/// A recorded inspection with its checks.
#[derive(Object, Debug, Clone)]
pub struct Inspection {
    pub id: uuid::Uuid,
    pub lot_id: uuid::Uuid,
    /// The lot number (GS1 AI 10).
    pub lot_number: String,
    pub product_id: uuid::Uuid,
    pub product_name: String,
    pub verdict: Verdict,
    /// Who recorded it (their name at the time).
    pub inspected_by_name: String,
    pub inspected_at: chrono::DateTime<chrono::Utc>,
    pub checks: Vec<InspectionCheck>,
}

/// One state a nonconformance entered.
#[derive(Object, Debug, Clone)]
#[oai(rename = "NonconformanceStep")]
pub struct NcStep {
    /// The state it left (none for the first step, when it was raised).
    #[oai(skip_serializing_if_is_none)]
    pub from_state: Option<NcState>,
    pub to_state: NcState,
    /// Who moved it (their name at the time).
    pub changed_by_name: String,
    pub changed_at: chrono::DateTime<chrono::Utc>,
}

/// A nonconformance and its CAPA.
#[derive(Object, Debug, Clone)]
pub struct Nonconformance {
    pub id: uuid::Uuid,
    /// The lot it concerns, if any.
    #[oai(skip_serializing_if_is_none)]
    pub lot_id: Option<uuid::Uuid>,
    #[oai(skip_serializing_if_is_none)]
    pub lot_number: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub product_name: Option<String>,
    pub title: String,
    pub description: String,
    pub severity: Severity,
    pub state: NcState,
    #[oai(skip_serializing_if_is_none)]
    pub root_cause: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub corrective_action: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub verification_note: Option<String>,
    /// Grows with every change: send it back with a change (`PATCH`), which
    /// is refused (409 `stale`) when someone changed it since.
    pub version: i32,
    pub created_by_name: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub updated_at: chrono::DateTime<chrono::Utc>,
    /// The states it entered, oldest first.
    pub steps: Vec<NcStep>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Option<Decimal> {
        Some(Decimal::from_str(s).unwrap())
    }

    fn check(
        min: Option<Decimal>,
        max: Option<Decimal>,
        exp: Option<&str>,
        value: &str,
    ) -> Result<Check, ApiError> {
        Check::new(
            1,
            "pH".into(),
            min,
            max,
            exp.map(str::to_string),
            value.into(),
        )
    }

    #[test]
    fn limits_are_inclusive_and_exact() {
        assert!(check(d("6.5"), d("7.5"), None, "6.5").unwrap().passes());
        assert!(check(d("6.5"), d("7.5"), None, "7.500").unwrap().passes());
        assert!(
            !check(d("6.5"), d("7.5"), None, "7.500001")
                .unwrap()
                .passes()
        );
        assert!(!check(d("6.5"), d("7.5"), None, "6.4999").unwrap().passes());
        // 0.1 + 0.2 is 0.3 in decimals (not in floats).
        assert!(check(d("0.3"), d("0.3"), None, "0.30").unwrap().passes());
        assert!(check(None, d("10"), None, "-3").unwrap().passes());
        assert!(!check(d("0"), None, None, "-0.01").unwrap().passes());
    }

    #[test]
    fn expected_text_ignores_case_and_spaces() {
        assert!(
            check(None, None, Some("Clear"), " clear ")
                .unwrap()
                .passes()
        );
        assert!(!check(None, None, Some("Clear"), "Cloudy").unwrap().passes());
    }

    #[test]
    fn a_check_is_refused_by_name() {
        let msg = |r: Result<Check, ApiError>| r.unwrap_err().body().error;
        assert!(msg(check(None, None, None, "7")).contains("limits"));
        assert!(msg(check(d("1"), None, Some("x"), "7")).contains("not both"));
        assert!(msg(check(d("8"), d("7"), None, "7")).contains("must not be greater"));
        assert!(msg(check(d("1"), d("9"), None, "seven")).contains("decimal number"));
        assert!(msg(check(d("1"), d("9"), None, "1e3")).contains("decimal number"));
    }

    #[test]
    fn decimals_are_read_strictly() {
        for ok in ["0", "-20", "6.5", "123456789012.123456"] {
            assert!(parse_decimal(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "-",
            ".5",
            "5.",
            "1e3",
            "+1",
            "1,5",
            "1234567890123",
            "1.1234567",
            "NaN",
        ] {
            assert!(parse_decimal(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_pattern_agrees_with_the_parser() {
        let rule = serde_json::json!({"type": "string", "pattern": DECIMAL_PATTERN});
        let re = jsonschema::validator_for(&rule).unwrap();
        for s in [
            "0",
            "-20",
            "6.5",
            "123456789012.123456",
            ".5",
            "1e3",
            "1.1234567",
            "+1",
        ] {
            assert_eq!(
                re.is_valid(&serde_json::json!(s)),
                parse_decimal(s).is_ok(),
                "{s}"
            );
        }
    }

    #[test]
    fn states_move_in_order_and_need_their_fields() {
        assert_eq!(NcState::Open.next(), Some(NcState::Investigating));
        assert_eq!(NcState::Verification.next(), Some(NcState::Closed));
        assert_eq!(NcState::Closed.next(), None);
        assert!(missing_for(NcState::Investigating, false, false, false).is_empty());
        assert_eq!(
            missing_for(NcState::Action, false, false, false),
            ["root_cause"]
        );
        assert_eq!(
            missing_for(NcState::Closed, true, false, false),
            ["corrective_action", "verification_note"]
        );
        assert!(missing_for(NcState::Closed, true, true, true).is_empty());
    }
}
