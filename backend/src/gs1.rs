//! GS1 identifiers and Digital Link path segments, as every domain reads and
//! writes them: the mod-10 check digit (GS1 General Specifications §7.9),
//! GTINs (normalised to GTIN-14), GLNs, SSCCs (AI 00), GS1 AI encodable
//! character set 82 (the characters of a lot, AI 10, or a serial, AI 21),
//! and the percent-encoding of a Digital Link URI's path segments.
//!
//! Infrastructure: a leaf module that imports nothing of the crate. The
//! callers say what went wrong in their own words (a form field, a CSV cell,
//! a scanned URI); this module only says whether, and which rule.

/// Why a GS1 number is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Not the right number of digits (or not digits at all).
    Shape,
    /// The right shape, but the last digit is not the check digit of the
    /// others: a mistyped or invented number.
    CheckDigit,
}

/// The GS1 mod-10 check digit of `body`, the digits before it: weights 3
/// and 1 alternating from the right (§7.9.1). None when `body` is empty or
/// holds anything but ASCII digits.
pub fn check_digit(body: &str) -> Option<u8> {
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let sum: u32 = body
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * if i % 2 == 0 { 3 } else { 1 })
        .sum();
    Some(((10 - sum % 10) % 10) as u8)
}

/// Whether `number` (all ASCII digits, at least two) ends with the check
/// digit of the digits before it.
pub fn check_digit_ok(number: &str) -> bool {
    match number.as_bytes().split_last() {
        Some((&last, _)) if last.is_ascii_digit() => {
            check_digit(&number[..number.len() - 1]) == Some(last - b'0')
        }
        _ => false,
    }
}

/// `raw` when it is exactly `len` digits with a right check digit.
fn fixed(raw: &str, len: usize) -> Result<String, NumberError> {
    if raw.len() != len || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::Shape);
    }
    if !check_digit_ok(raw) {
        return Err(NumberError::CheckDigit);
    }
    Ok(raw.to_string())
}

/// A GTIN-8, -12, -13 or -14 with a right check digit, as its GTIN-14
/// (zero-padded on the left, which keeps the check digit right).
pub fn gtin14(raw: &str) -> Result<String, NumberError> {
    if !matches!(raw.len(), 8 | 12 | 13 | 14) || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::Shape);
    }
    fixed(&format!("{raw:0>14}"), 14)
}

/// A GLN (AI 414): 13 digits with a right check digit.
pub fn gln(raw: &str) -> Result<String, NumberError> {
    fixed(raw, 13)
}

/// An SSCC (Serial Shipping Container Code, AI 00): 18 digits with a right
/// check digit.
pub fn sscc(raw: &str) -> Result<String, NumberError> {
    fixed(raw, 18)
}

/// The longest lot (AI 10) or serial (AI 21) GS1 allows, in characters.
pub const MAX_LOT_OR_SERIAL_LEN: usize = 20;

/// Whether `c` belongs to GS1 AI encodable character set 82 (§7.11, figure
/// 7.11-1): the characters a lot (AI 10) or serial (AI 21) may hold. These
/// are the digits, the Latin letters of both cases and
/// ``!"%&'()*+,-./:;<=>?_``; never a space, `#`, `$`, `@`, `[`, `\`, `]`,
/// `^`, `` ` ``, `{`, `|`, `}`, `~` or anything outside ASCII.
pub fn is_cset82(c: char) -> bool {
    matches!(c,
        '!' | '"' | '%' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | '-' | '.' | '/'
        | '0'..='9' | ':' | ';' | '<' | '=' | '>' | '?' | 'A'..='Z' | '_' | 'a'..='z')
}

/// Whether `value` can be a lot (AI 10) or serial (AI 21): 1 to 20
/// characters of character set 82.
pub fn is_lot_or_serial(value: &str) -> bool {
    (1..=MAX_LOT_OR_SERIAL_LEN).contains(&value.chars().count()) && value.chars().all(is_cset82)
}

/// Percent-encodes `value` for a Digital Link path segment: every byte
/// outside RFC 3986's unreserved set (letters, digits, `-._~`), as GS1
/// Digital Link asks for AI values.
pub fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes a Digital Link path segment's percent-escapes (`%2F` is `/`,
/// `%25` is `%`). None when an escape is broken (a `%` not followed by two
/// hex digits) or the bytes are not UTF-8: such a segment names nothing, and
/// guessing what it meant would let two spellings name one value.
pub fn percent_decode(segment: &str) -> Option<String> {
    fn hex(b: u8) -> Option<u8> {
        match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        }
    }
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let high = hex(*bytes.get(i + 1)?)?;
            let low = hex(*bytes.get(i + 2)?)?;
            out.push((high << 4) | low);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digits_of_published_numbers() {
        // GS1 General Specifications §7.9.1's worked example (GTIN-13).
        assert_eq!(check_digit("629104150021"), Some(3));
        // Real products' barcodes: a GTIN-13, a UPC-A (GTIN-12), a GTIN-8.
        assert_eq!(check_digit("400638133393"), Some(1));
        assert_eq!(check_digit("03600029145"), Some(2));
        assert_eq!(check_digit("9638507"), Some(4));
        // GS1 Digital Link's example GTIN-14.
        assert_eq!(check_digit("0950600013435"), Some(2));
        // A check digit of 0 (the sum is a multiple of ten).
        assert_eq!(check_digit("10614141234567890"), Some(8));
        assert_eq!(check_digit("0000000000000"), Some(0));
        for bad in ["", "12a4", "１２", "-1", "+1"] {
            assert_eq!(check_digit(bad), None, "{bad:?}");
        }
        assert!(check_digit_ok("6291041500213"));
        assert!(!check_digit_ok("6291041500214"));
        for bad in ["", "7", "629104150021x", "x6291041500213"] {
            assert!(!check_digit_ok(bad), "{bad:?}");
        }
    }

    #[test]
    fn gtins_become_gtin14() {
        for (raw, gtin) in [
            ("96385074", "00000096385074"),
            ("036000291452", "00036000291452"),
            ("4006381333931", "04006381333931"),
            ("6291041500213", "06291041500213"),
            ("09506000134352", "09506000134352"),
            ("10614141000415", "10614141000415"),
        ] {
            assert_eq!(gtin14(raw).as_deref(), Ok(gtin), "{raw}");
        }
        for wrong in [
            "96385075",
            "036000291453",
            "4006381333932",
            "09506000134353",
        ] {
            assert_eq!(gtin14(wrong), Err(NumberError::CheckDigit), "{wrong}");
        }
        for shape in [
            "",
            "1234567",
            "123456789",
            "12345678901",
            "123456789012345",
            "400638133393a",
            " 4006381333931",
            "4006381333931 ",
            "4006-381333931",
        ] {
            assert_eq!(gtin14(shape), Err(NumberError::Shape), "{shape:?}");
        }
    }

    #[test]
    fn glns_and_ssccs() {
        assert_eq!(gln("9506000134352").as_deref(), Ok("9506000134352"));
        assert_eq!(gln("9506000134353"), Err(NumberError::CheckDigit));
        assert_eq!(gln("950600013435"), Err(NumberError::Shape));
        // The SSCC of GS1 General Specifications' examples, (00) 1 0614141
        // 234567890 8, and the EPC Tag Data Standard's urn:epc:id:sscc:
        // 0614141.1234567890.
        assert_eq!(
            sscc("106141412345678908").as_deref(),
            Ok("106141412345678908")
        );
        assert_eq!(sscc("106141412345678909"), Err(NumberError::CheckDigit));
        for shape in [
            "10614141234567890",
            "1061414123456789080",
            "10614141234567890x",
            "(00)106141412345678908",
        ] {
            assert_eq!(sscc(shape), Err(NumberError::Shape), "{shape}");
        }
    }

    #[test]
    fn character_set_82() {
        for c in "!\"%&'()*+,-./:;<=>?_09AZaz".chars() {
            assert!(is_cset82(c), "{c:?} is in the set");
        }
        let punctuation = "!\"%&'()*+,-./:;<=>?_";
        assert_eq!(punctuation.chars().filter(|&c| is_cset82(c)).count(), 20);
        // 26 + 26 letters, 10 digits and 20 punctuation marks: 82.
        assert_eq!((0u8..=127).filter(|&b| is_cset82(b as char)).count(), 82);
        for c in " #$@[\\]^`{|}~\t\n\u{1D}\u{7F}éÄ€ａ".chars() {
            assert!(!is_cset82(c), "{c:?} is not in the set");
        }
        assert!(is_lot_or_serial("A"));
        assert!(is_lot_or_serial("LOT/2026-01_A"));
        assert!(is_lot_or_serial(&"9".repeat(20)));
        assert!(is_lot_or_serial(punctuation));
        assert!(!is_lot_or_serial(""));
        assert!(!is_lot_or_serial(&"9".repeat(21)));
        assert!(!is_lot_or_serial("LOT 1"));
        assert!(!is_lot_or_serial("lot#1"));
        assert!(!is_lot_or_serial("Lé"));
    }

    #[test]
    fn percent_encoding_of_path_segments() {
        assert_eq!(percent_encode("A/1,2"), "A%2F1%2C2");
        assert_eq!(percent_encode("100%"), "100%25");
        assert_eq!(percent_encode("a-b.c_d~e"), "a-b.c_d~e");
        assert_eq!(percent_encode("é"), "%C3%A9");
        for value in ["A/1,2", "100%", "!\"%&'()*+,-./:;<=>?_", "é €", ""] {
            assert_eq!(
                percent_decode(&percent_encode(value)).as_deref(),
                Some(value)
            );
        }
    }

    #[test]
    fn percent_decoding_of_path_segments() {
        for (segment, value) in [
            ("A%2F1", "A/1"),
            ("A%2f1", "A/1"),
            ("100%25", "100%"),
            ("%2525", "%25"),
            ("%41%42c", "ABc"),
            ("plain", "plain"),
            ("", ""),
            ("%C3%A9", "é"),
            ("é", "é"),
        ] {
            assert_eq!(percent_decode(segment).as_deref(), Some(value), "{segment}");
        }
        for broken in [
            "%", "%2", "A%", "%G1", "%1G", "%+1", "%-1", "% 1", "%%41", "%é",
        ] {
            assert_eq!(percent_decode(broken), None, "{broken:?}");
        }
        // Escapes of bytes that are not UTF-8: a lone continuation byte, a
        // truncated sequence, an overlong '/'.
        for not_utf8 in ["%FF", "%80", "%C3", "A%C3B", "%C0%AF"] {
            assert_eq!(percent_decode(not_utf8), None, "{not_utf8}");
        }
    }
}
