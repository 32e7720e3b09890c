//! Rules for every piece of text a person sends, whatever the field: no
//! control characters (NUL, the C0 and C1 sets, DEL), and in names and
//! emails no text-direction marks or overrides either, which can make one
//! name look like another. PostgreSQL refuses NUL in text, so without this a
//! NUL byte became a 500; now it is a 400 that names the field.

use crate::http::error::ApiError;

/// Unicode's bidirectional marks, embeddings, overrides and isolates.
fn is_direction_mark(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Refuses control characters in `value` (secrets such as passwords).
pub fn no_control_chars(field: &str, value: &str) -> Result<(), ApiError> {
    if value.chars().any(char::is_control) {
        return Err(ApiError::invalid_input(format!(
            "{field} must not contain control characters."
        )));
    }
    Ok(())
}

/// Refuses control characters and text-direction marks in `value` (names,
/// emails, identifiers: anything shown to people or compared).
pub fn plain_text(field: &str, value: &str) -> Result<(), ApiError> {
    if value
        .chars()
        .any(|c| c.is_control() || is_direction_mark(c))
    {
        return Err(ApiError::invalid_input(format!(
            "{field} must not contain control characters or text-direction marks."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_direction_marks() {
        for bad in ["a\0b", "tab\there", "new\nline", "del\u{7f}", "c1\u{85}"] {
            assert!(no_control_chars("Password", bad).is_err(), "{bad:?}");
            assert!(plain_text("Name", bad).is_err(), "{bad:?}");
        }
        for mark in ['\u{202E}', '\u{200F}', '\u{2066}', '\u{061C}'] {
            let value = format!("admin{mark}gpj.exe");
            assert!(plain_text("Name", &value).is_err(), "{value:?}");
            assert!(no_control_chars("Password", &value).is_ok(), "{value:?}");
        }
        for ok in ["Zoë O'Brien", "محمد", "名前", "a@b.co", "<b>&amp;</b>"] {
            assert!(plain_text("Name", ok).is_ok(), "{ok:?}");
        }
        let err = plain_text("Organisation name", "x\0").unwrap_err();
        assert_eq!(err.status.as_u16(), 400);
        assert!(
            err.message
                .starts_with("Organisation name must not contain")
        );
    }
}
