//! GS1 element strings (AIs 01, 17, 10, 21) and label data validation.

use chrono::Datelike;

use super::{LabelData, RenderError};

/// ASCII group separator: how a GS1 reader transmits an FNC1 separator.
pub(crate) const GS: char = '\u{1D}';

/// Longest lot or serial number GS1 allows (AI 10 and AI 21).
const MAX_VARIABLE_LEN: usize = crate::gs1::MAX_LOT_OR_SERIAL_LEN;
/// Longest URI accepted for the QR code.
const MAX_URI_LEN: usize = 1000;

/// One GS1 element: application identifier plus value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Element {
    /// The application identifier, e.g. `"01"`.
    pub ai: &'static str,
    /// The value, already in its encoded form (YYMMDD for dates).
    pub value: String,
    /// Whether the AI has a predefined length (GS1 General Specifications,
    /// "element strings with predefined length": 01 and 17 here). Only
    /// elements without one need a separator when another element follows.
    pub fixed_length: bool,
}

/// The elements of a label in encoding order: fixed-length AIs first (01,
/// 17), then the variable-length ones (10, 21), so at most one separator
/// (after the lot) is needed.
pub(crate) fn elements(label: &LabelData) -> Vec<Element> {
    let mut out = Vec::with_capacity(4);
    out.push(Element {
        ai: "01",
        value: label.gtin.clone(),
        fixed_length: true,
    });
    if let Some(date) = label.expiry {
        out.push(Element {
            ai: "17",
            value: yymmdd(date),
            fixed_length: true,
        });
    }
    if let Some(lot) = &label.lot {
        out.push(Element {
            ai: "10",
            value: lot.clone(),
            fixed_length: false,
        });
    }
    out.push(Element {
        ai: "21",
        value: label.serial.clone(),
        fixed_length: false,
    });
    out
}

/// Whether element `index` of `elements` must be followed by an FNC1
/// separator: it has no predefined length and is not the last element.
pub(crate) fn needs_separator(elements: &[Element], index: usize) -> bool {
    elements
        .get(index)
        .is_some_and(|e| !e.fixed_length && index + 1 < elements.len())
}

/// The GS1 element string of a label, as a GS1 reader transmits it after the
/// `]d2` symbology identifier: AIs 01, 17 (YYMMDD, if an expiry is set),
/// 10 (if a lot is set) and 21, with an ASCII GS (0x1D) after a
/// variable-length field that is followed by another field.
///
/// In the DataMatrix every GS is encoded as the FNC1 codeword. The data is
/// not checked here; see [`validate_label`].
///
/// ```text
/// 010950600013435217270331 10ABC123 <GS> 2112345   (spaces added for clarity)
/// ```
pub fn gs1_element_string(label: &LabelData) -> String {
    let elements = elements(label);
    let mut out = String::with_capacity(64);
    for (index, element) in elements.iter().enumerate() {
        out.push_str(element.ai);
        out.push_str(&element.value);
        if needs_separator(&elements, index) {
            out.push(GS);
        }
    }
    out
}

/// The human-readable form of the element string, AIs in parentheses and no
/// separators: `(01)09506000134352(17)270331(10)ABC123(21)12345`.
pub fn gs1_human_readable(label: &LabelData) -> String {
    elements(label)
        .iter()
        .map(|e| format!("({}){}", e.ai, e.value))
        .collect()
}

/// The date as GS1 YYMMDD.
pub(crate) fn yymmdd(date: chrono::NaiveDate) -> String {
    format!(
        "{:02}{:02}{:02}",
        date.year().rem_euclid(100),
        date.month(),
        date.day()
    )
}

/// Checks the fields of one label. `position` (1-based) is used in the
/// error message.
///
/// Rules: GTIN exactly 14 digits with a correct check digit; lot (if any) and
/// serial 1–20 characters of GS1 character set 82 (letters, digits and
/// ``!"%&'()*+,-./:;<=>?_``); expiry year 2000–2099; URI 1–1000 printable
/// ASCII characters without spaces. The product name is free text.
pub fn validate_label(label: &LabelData, position: u64) -> Result<(), RenderError> {
    let invalid = |field: &'static str, message: String| RenderError::InvalidLabel {
        position,
        field,
        message,
    };

    let gtin = label.gtin.as_bytes();
    if gtin.len() != 14 || !gtin.iter().all(u8::is_ascii_digit) {
        return Err(invalid(
            "gtin",
            format!(
                "the GTIN {:?} must be exactly 14 digits (pad shorter GTINs with leading zeros).",
                label.gtin
            ),
        ));
    }
    if !crate::gs1::check_digit_ok(&label.gtin) {
        return Err(invalid(
            "gtin",
            format!(
                "the GTIN {} has a wrong check digit; please check the number.",
                label.gtin
            ),
        ));
    }

    if let Some(lot) = &label.lot {
        check_variable("lot number", lot).map_err(|m| invalid("lot", m))?;
    }
    check_variable("serial number", &label.serial).map_err(|m| invalid("serial", m))?;

    if let Some(date) = label.expiry
        && !(2000..=2099).contains(&date.year())
    {
        return Err(invalid(
            "expiry",
            format!("the expiry date {date} must lie in the years 2000 to 2099."),
        ));
    }

    let uri = &label.uri;
    if uri.is_empty() || uri.len() > MAX_URI_LEN {
        return Err(invalid(
            "uri",
            format!(
                "the URI must have 1 to {MAX_URI_LEN} characters (it has {}).",
                uri.len()
            ),
        ));
    }
    if let Some(bad) = uri.chars().find(|c| !c.is_ascii_graphic()) {
        return Err(invalid(
            "uri",
            format!(
                "the URI contains {bad:?}; only printable ASCII without spaces is allowed (percent-encode other characters)."
            ),
        ));
    }
    Ok(())
}

/// Checks a lot or serial number; returns the message on failure.
fn check_variable(what: &str, value: &str) -> Result<(), String> {
    let len = value.chars().count();
    if len == 0 || len > MAX_VARIABLE_LEN {
        return Err(format!(
            "the {what} must have 1 to {MAX_VARIABLE_LEN} characters (it has {len})."
        ));
    }
    if let Some(bad) = value.chars().find(|c| !crate::gs1::is_cset82(*c)) {
        return Err(format!(
            "the {what} {value:?} contains {bad:?}; GS1 allows only letters A–Z and a–z, digits and !\"%&'()*+,-./:;<=>?_"
        ));
    }
    Ok(())
}
