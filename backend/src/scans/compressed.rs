//! Compressed GS1 Digital Link URIs (GS1 Digital Link: Compression): the
//! path is one segment of URI-safe base64 (`/AQnYUc1gmiERBhQ0ytiyZuAGOLc1TQ`),
//! or the primary key stays readable and its qualifiers are compressed
//! (`/01/{gtin}/{base64}`). The bits hold a sequence of AIs, each as its
//! digits in hex (or one code for a common sequence of AIs) followed by its
//! value: fixed-length digits as one binary number, other values with an
//! encoding (integer, hex, base64, 7-bit ASCII) and a length.
//!
//! The resolver answers GTINs, so this reads the AIs a GTIN's Digital Link
//! holds: the GTIN (01), its qualifiers (22, 10, 21), and the common data
//! attributes (dates 11, 13, 15, 16, 17; 7003; the count 30), which are
//! read and left out of the link like any data attribute in a query
//! string; and it skips the non-GS1 key=value pairs the format allows. Any
//! other AI is refused: a URI this resolver does not read.

use super::{BadLink, DigitalLink};

/// The URI-safe base64 alphabet of the compression standard.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// How an AI's value is written: fixed-length digits, variable-length
/// digits of at most `n`, or variable-length characters of at most `n`.
#[derive(Clone, Copy)]
enum Format {
    Digits(u32),
    SomeDigits(u32),
    Chars(u32),
}

/// The AIs read here and their formats (GS1 General Specifications).
fn format_of(ai: &str) -> Option<Format> {
    Some(match ai {
        "01" => Format::Digits(14),
        "10" | "21" | "22" => Format::Chars(20),
        "11" | "13" | "15" | "16" | "17" => Format::Digits(6),
        "7003" => Format::Digits(10),
        "30" => Format::SomeDigits(8),
        _ => return None,
    })
}

/// The standard's codes for common sequences of AIs that this reader knows.
fn sequence(code: &str) -> Option<&'static [&'static str]> {
    Some(match code {
        "0A" => &["01", "22"],
        "0B" => &["01", "10"],
        "0C" => &["01", "21"],
        "0D" => &["01", "17"],
        "0E" => &["01", "7003"],
        "0F" => &["01", "30"],
        "1A" => &["01", "10", "21", "17"],
        "1B" => &["01", "15"],
        "1C" => &["01", "11"],
        "1D" => &["01", "16"],
        "1F" => &["01", "10", "15"],
        _ => return None,
    })
}

/// How many digits long an AI starting with these two digits is.
fn ai_length(first_two: &str) -> Option<usize> {
    let n: u32 = first_two.parse().ok()?;
    Some(match n {
        0..=2 | 10..=17 | 20..=22 | 30 | 37 | 90..=99 => 2,
        23..=25 | 40..=42 | 71 => 3,
        31..=36 | 39 | 70 | 72 | 80..=82 => 4,
        _ => return None,
    })
}

/// Bits needed for a number of `digits` decimal digits.
fn value_bits(digits: u32) -> usize {
    (f64::from(digits) * 10f64.log2() + 0.01).ceil() as usize
}

/// Bits needed for a length of at most `max`.
fn length_bits(max: u32) -> usize {
    (f64::from(max).log2() + 0.01).ceil() as usize
}

struct Bits {
    bits: Vec<bool>,
    at: usize,
}

fn unreadable() -> BadLink {
    BadLink("This compressed link cannot be read: it is not a GS1 Digital Link of a GTIN.".into())
}

impl Bits {
    fn left(&self) -> usize {
        self.bits.len() - self.at
    }

    fn take(&mut self, n: usize) -> Result<u128, BadLink> {
        if n > 128 || self.left() < n {
            return Err(unreadable());
        }
        let value = self.bits[self.at..self.at + n]
            .iter()
            .fold(0u128, |acc, &b| (acc << 1) | u128::from(b));
        self.at += n;
        Ok(value)
    }

    fn hex(&mut self) -> Result<char, BadLink> {
        let v = self.take(4)?;
        Ok(char::from_digit(v as u32, 16)
            .unwrap_or('0')
            .to_ascii_uppercase())
    }

    fn digits(&mut self, n: u32, pad: bool) -> Result<String, BadLink> {
        let value = self.take(value_bits(n))?;
        let text = value.to_string();
        if pad {
            if text.len() > n as usize {
                return Err(unreadable());
            }
            Ok(format!("{text:0>width$}", width = n as usize))
        } else {
            Ok(text)
        }
    }

    /// `count` characters in encoding `encoding` (0 integer, 1 lower-case
    /// hex, 2 upper-case hex, 3 base64, 4 seven-bit ASCII).
    fn chars(&mut self, encoding: u128, count: u32) -> Result<String, BadLink> {
        let mut out = String::new();
        match encoding {
            0 => return self.digits(count, false),
            1 | 2 => {
                for _ in 0..count {
                    let c = self.hex()?;
                    out.push(if encoding == 1 {
                        c.to_ascii_lowercase()
                    } else {
                        c
                    });
                }
            }
            3 => {
                for _ in 0..count {
                    out.push(char::from(ALPHABET[self.take(6)? as usize]));
                }
            }
            4 => {
                for _ in 0..count {
                    out.push(char::from(self.take(7)? as u8));
                }
            }
            _ => return Err(unreadable()),
        }
        Ok(out)
    }

    fn value(&mut self, format: Format) -> Result<String, BadLink> {
        match format {
            Format::Digits(n) => self.digits(n, true),
            Format::SomeDigits(max) => {
                let n = self.take(length_bits(max))? as u32;
                self.digits(n, false)
            }
            Format::Chars(max) => {
                let encoding = self.take(3)?;
                let n = self.take(length_bits(max))? as u32;
                if n > max {
                    return Err(unreadable());
                }
                self.chars(encoding, n)
            }
        }
    }
}

/// Whether `segment` could be compressed: URI-safe base64 only.
pub fn is_base64(segment: &str) -> bool {
    !segment.is_empty()
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The AIs and values of a compressed segment, in order.
fn decode(segment: &str) -> Result<Vec<(String, String)>, BadLink> {
    if !is_base64(segment) {
        return Err(unreadable());
    }
    let mut bits = Vec::with_capacity(segment.len() * 6);
    for b in segment.bytes() {
        let v = ALPHABET
            .iter()
            .position(|&a| a == b)
            .ok_or_else(unreadable)?;
        bits.extend((0..6).rev().map(|i| (v >> i) & 1 == 1));
    }
    let mut bits = Bits { bits, at: 0 };
    let mut out = Vec::new();
    while bits.left() > 8 {
        let code: String = [bits.hex()?, bits.hex()?].into_iter().collect();
        if code.bytes().all(|b| b.is_ascii_digit()) {
            let mut ai = code.clone();
            for _ in 2..ai_length(&code).ok_or_else(unreadable)? {
                let c = bits.hex()?;
                if !c.is_ascii_digit() {
                    return Err(unreadable());
                }
                ai.push(c);
            }
            let format = format_of(&ai).ok_or_else(unreadable)?;
            let value = bits.value(format)?;
            out.push((ai, value));
        } else if let Some(ais) = sequence(&code) {
            for ai in ais {
                let format = format_of(ai).ok_or_else(unreadable)?;
                let value = bits.value(format)?;
                out.push(((*ai).to_string(), value));
            }
        } else if code.starts_with('F') {
            // A non-GS1 key=value pair: its key's length is the last 4 bits
            // of the code and 3 more; skipped, like an unknown query
            // parameter.
            bits.at -= 4;
            let key_len = bits.take(7)?;
            for _ in 0..key_len {
                bits.take(6)?;
            }
            let encoding = bits.take(3)?;
            let n = bits.take(7)? as u32;
            bits.chars(encoding, n)?;
        } else {
            return Err(unreadable());
        }
    }
    Ok(out)
}

/// The Digital Link a compressed path stands for: `path` is the request's
/// path, either `/{base64}` or `/01/{gtin}/{base64}`. `None` when the path
/// is neither form (not a compressed link at all); an error when it is one
/// but cannot be read.
pub fn decompress(path: &str) -> Option<Result<DigitalLink, BadLink>> {
    let rest = path.strip_prefix('/')?.trim_end_matches('/');
    let (gtin, segment) = match rest.split('/').collect::<Vec<_>>()[..] {
        [segment] if is_base64(segment) => (None, segment),
        ["01", gtin, segment] if is_base64(segment) => (Some(gtin), segment),
        _ => return None,
    };
    Some(decode(segment).and_then(|ais| link_of(gtin, &ais)))
}

/// The GTIN's Digital Link of decoded AIs: the GTIN once (in the path, or
/// compressed), the qualifiers, data attributes left out.
fn link_of(gtin: Option<&str>, ais: &[(String, String)]) -> Result<DigitalLink, BadLink> {
    let get = |ai: &str| ais.iter().find(|(a, _)| a == ai).map(|(_, v)| v.as_str());
    let gtin = match (gtin, get("01")) {
        (Some(g), None) | (None, Some(g)) => g,
        _ => return Err(unreadable()),
    };
    let mut path = gtin.to_string();
    for ai in ["22", "10", "21"] {
        if let Some(value) = get(ai) {
            path.push('/');
            path.push_str(ai);
            path.push('/');
            path.push_str(&crate::gs1::percent_encode(value));
        }
    }
    DigitalLink::parse(&path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_toolkits_examples() {
        // GS1 Digital Link toolkit's examples of a fully compressed URI:
        // (01) 05412345000013, (10) ABC&+123, (7003) 1903061658, and the
        // same with non-GS1 pairs (expdt, k1) compressed after them.
        for segment in [
            "AQnYUc1gmiERBhQ0ytiyZuAGOLc1TQ",
            "AQnYUc1gmiERBhQ0ytiyZuAGOLc1TXhXsaXbQKHFuaprwUmrBX6g",
        ] {
            let ais = decode(segment).unwrap();
            assert_eq!(ais[0], ("01".into(), "05412345000013".into()));
            assert_eq!(ais[1], ("10".into(), "ABC&+123".into()));
            assert_eq!(ais[2], ("7003".into(), "1903061658".into()));
            let link = decompress(&format!("/{segment}")).unwrap().unwrap();
            assert_eq!(link.gtin, "05412345000013");
            assert_eq!(link.lot.as_deref(), Some("ABC&+123"));
            assert_eq!(link.serial, None);
        }
    }

    #[test]
    fn leaves_other_paths_alone_and_refuses_what_it_cannot_read() {
        for path in [
            "/products",
            "/01/09506000134352/21/X",
            "/",
            "/a/b",
            "/api/x",
        ] {
            assert!(
                decompress(path).is_none_or(|r| r.is_err()),
                "{path} is no compressed link"
            );
        }
        assert!(decompress("/01/09506000134352/21/X").is_none());
        assert!(decompress("/a+b").is_none());
        // Cut short: an AI 01 with too few bits for its GTIN.
        assert!(decompress("/AQnYUc").unwrap().is_err());
    }
}
