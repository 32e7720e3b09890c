//! Cells of the CSV files the server writes (code downloads, the product
//! export, batch-update results): quoted when they hold a comma, a quote or
//! a line break, and never run as a formula. A spreadsheet runs a cell that
//! begins with `=`, `+`, `-` or `@` (and, in some, a tab or a carriage
//! return) as a formula; GS1's character set 82 allows `=`, `+` and `-` in a
//! lot number, and names are free text, so such a cell gets a `'` in front,
//! as OWASP's CSV-injection advice says. A file read back by the server
//! (the product import) takes the `'` off again ([`restored`]); GS1
//! parsers read the Digital Link URI column, whose values are
//! percent-encoded and never begin with those characters.

use std::borrow::Cow;

/// Whether a spreadsheet would run `value` as a formula.
fn is_formula(value: &str) -> bool {
    value.starts_with(['=', '+', '-', '@', '\t', '\r'])
}

/// `value` with a `'` in front when a spreadsheet would run it as a
/// formula.
pub fn neutralised(value: &str) -> Cow<'_, str> {
    if is_formula(value) {
        Cow::Owned(format!("'{value}"))
    } else {
        Cow::Borrowed(value)
    }
}

/// The value [`neutralised`] was given: the `'` taken off a cell that would
/// otherwise be a formula; any other value as it is.
pub fn restored(value: &str) -> &str {
    match value.strip_prefix('\'') {
        Some(rest) if is_formula(rest) => rest,
        _ => value,
    }
}

/// A whole CSV field: [`neutralised`], then quoted when it holds a comma, a
/// quote or a line break.
pub fn field(value: &str) -> String {
    let value = neutralised(value);
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_and_restored() {
        for formula in [
            "=1+1",
            "+1",
            "-1",
            "@SUM(A1)",
            "\tx",
            "\rx",
            "=HYPERLINK(\"x\")",
        ] {
            let cell = neutralised(formula);
            assert!(cell.starts_with('\''), "{formula:?}");
            assert_eq!(restored(&cell), formula);
        }
        for plain in ["Plain", "L0T-1", "'quoted", "12.5", ""] {
            assert_eq!(neutralised(plain), plain);
            assert_eq!(restored(plain), plain);
        }
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("a\"b"), "\"a\"\"b\"");
        assert_eq!(field("=1,2"), "\"'=1,2\"");
        assert_eq!(field("-1"), "'-1");
        assert_eq!(field("AB12"), "AB12");
    }
}
