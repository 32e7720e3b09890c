//! Text fields of no particular domain, shared by every domain that has
//! them: [`ShortText`] (a name, a title, a reference: one line) and
//! [`LongText`] (instructions, a description, a note: lines).

use poem_openapi::registry::MetaSchema;

use crate::http::error::ApiError;
use crate::http::input::{TextRule, plain_name};
use crate::trimmed_plain_text_pattern;

/// Short text (names, titles, identifiers, places): 1 to 200 characters once
/// trimmed, no control characters or text-direction marks.
pub struct ShortText;

pub const SHORT_MAX: usize = 200;

impl ShortText {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        let value = raw.trim();
        if value.is_empty() {
            return Err(ApiError::invalid_input(format!(
                "{field} is required: 1 to 200 characters (leave an optional field out rather than empty)."
            )));
        }
        if value.chars().count() > SHORT_MAX {
            return Err(ApiError::invalid_input(format!(
                "{field} is too long: 1 to 200 characters."
            )));
        }
        plain_name(field, value)?;
        Ok(value.to_string())
    }
}

impl TextRule for ShortText {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(198).into());
    }
}

/// Instructions: up to 5000 characters, line breaks and tabs allowed, no
/// other control characters; not blank.
pub struct LongText;

pub const LONG_MAX: usize = 5000;

impl LongText {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        if raw.chars().count() > LONG_MAX {
            return Err(ApiError::invalid_input(format!(
                "{field} is too long (5000 characters at most)."
            )));
        }
        if raw
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        {
            return Err(ApiError::invalid_input(format!(
                "{field} must not contain control characters other than line breaks and tabs."
            )));
        }
        if raw.trim().is_empty() {
            return Err(ApiError::invalid_input(format!(
                "{field} must not be blank."
            )));
        }
        Ok(raw.to_string())
    }
}

impl TextRule for LongText {
    fn limits(schema: &mut MetaSchema) {
        schema.max_length = Some(LONG_MAX);
        // At least one character that is neither whitespace nor control.
        schema.pattern = Some(
            concat!(
                r"^[\t\n\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^",
                crate::whitespace_class!(),
                crate::control_class!(),
                r"][^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$"
            )
            .into(),
        );
    }
}

crate::text_parser!(field: ShortText => String, LongText => String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_texts() {
        assert_eq!(ShortText::parse("f", "  a b ").unwrap(), "a b");
        assert!(ShortText::parse("f", "   ").is_err());
        assert!(ShortText::parse("f", "a\u{202e}b").is_err());
        assert!(ShortText::parse("f", &"x".repeat(201)).is_err());
        assert!(LongText::parse("f", "line\nnext\ttab").is_ok());
        assert!(LongText::parse("f", " \n ").is_err());
        assert!(LongText::parse("f", "a\u{7}").is_err());
        assert!(LongText::parse("f", "nul\0").is_err());
        assert!(LongText::parse("f", &"x".repeat(5001)).is_err());
    }
}
