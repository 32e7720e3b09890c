//! Serialized codes: a brand asks for N codes of a product (and lot), a
//! background job generates them, and the codes are downloaded as CSV or ZIP
//! and printed on labels.
//!
//! - `mod.rs`: the code job and lot as the API shows them, and the rules of
//!   serials, lot numbers and GS1 Digital Link URIs;
//! - `api.rs`: the operations under `/api/code-jobs`;
//! - `store.rs`: the SQL of `lots`, `code_jobs` and `codes` (tenant schema)
//!   and the platform's code quota (`platform.tenant_lock_code_quota`);
//! - `generate.rs`: the job's work, batches of random serials written with
//!   `COPY`, run by [`crate::jobs`];
//! - `export.rs`: the CSV and ZIP downloads, streamed;
//! - `bulk.rs`: the bulk download, the codes of chosen lots or of a date
//!   range as one ZIP of CSVs with a manifest (client B's
//!   `/pmbi/codeDownload`).
//!
//! A serial is a random 64-bit number from the operating system's CSPRNG
//! (so nothing a counterfeiter could guess from another code), stored as a
//! `bigint` and shown as 11 base-62 characters: all of them in GS1's AI 21
//! character set, and none that needs escaping in a URI. Serials are unique
//! in the whole tenant (so per GTIN too) and never reused: codes are never
//! deleted.

pub mod api;
pub mod bulk;
pub mod export;
pub mod generate;
pub mod store;

use chrono::{DateTime, NaiveDate, Utc};
use poem_openapi::registry::MetaSchema;
use poem_openapi::{Enum, Object};
use uuid::Uuid;

use crate::gs1;
use crate::http::error::ApiError;
use crate::http::input::{IsoDate, TextRule};

/// The state of a code job.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Done,
    Failed,
}

impl JobStatus {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "queued" => Some(Self::Queued),
            "running" => Some(Self::Running),
            "done" => Some(Self::Done),
            "failed" => Some(Self::Failed),
            _ => None,
        }
    }
}

/// A lot (batch): GS1 AI 10 with its manufacturing and expiry dates.
#[derive(Object, serde::Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Lot {
    pub number: String,
    #[oai(skip_serializing_if_is_none)]
    pub manufactured_on: Option<IsoDate>,
    #[oai(skip_serializing_if_is_none)]
    pub expires_on: Option<IsoDate>,
}

/// A code job as the API shows it.
#[derive(Object, Clone, Debug)]
pub struct CodeJob {
    pub id: Uuid,
    pub product_id: Uuid,
    pub status: JobStatus,
    /// How many codes were asked for.
    pub quantity: i64,
    /// How many are stored so far (always exactly the codes committed).
    pub generated: i64,
    /// Why it failed, when it did.
    #[oai(skip_serializing_if_is_none)]
    pub error: Option<String>,
    /// The GTIN-14 its codes carry.
    pub gtin: String,
    /// The lot's id, when the job has a lot (what the bulk download
    /// `GET /api/codes/bulk.zip?lot_id=` names).
    #[oai(skip_serializing_if_is_none)]
    pub lot_id: Option<Uuid>,
    #[oai(skip_serializing_if_is_none)]
    pub lot: Option<Lot>,
    /// The resolver base of its codes' URIs.
    pub resolver_base: String,
    pub created_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub finished_at: Option<DateTime<Utc>>,
}

/// The row behind a [`CodeJob`] (with its key for code rows).
#[derive(sqlx::FromRow, Debug, Clone)]
pub struct CodeJobRow {
    pub seq: i32,
    pub id: Uuid,
    pub product_id: Uuid,
    pub lot_id: Option<Uuid>,
    pub status: String,
    pub quantity: i32,
    pub generated: i32,
    pub error: Option<String>,
    pub gtin: String,
    pub resolver_base: String,
    pub lot_number: Option<String>,
    pub manufactured_on: Option<NaiveDate>,
    pub expires_on: Option<NaiveDate>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

impl CodeJobRow {
    pub fn lot(&self) -> Option<Lot> {
        self.lot_number.as_ref().map(|number| Lot {
            number: number.clone(),
            manufactured_on: self.manufactured_on.map(IsoDate),
            expires_on: self.expires_on.map(IsoDate),
        })
    }

    pub fn to_api(&self) -> CodeJob {
        CodeJob {
            id: self.id,
            product_id: self.product_id,
            // The table's CHECK allows only the four states.
            status: JobStatus::parse(&self.status).unwrap_or(JobStatus::Failed),
            quantity: i64::from(self.quantity),
            generated: i64::from(self.generated),
            error: self.error.clone(),
            gtin: self.gtin.clone(),
            lot_id: self.lot_id,
            lot: self.lot(),
            resolver_base: self.resolver_base.clone(),
            created_at: self.created_at,
            finished_at: self.finished_at,
        }
    }

    /// What every code of the job shares in its URI and CSV line.
    pub fn code_base(&self) -> CodeBase {
        CodeBase::new(
            &self.resolver_base,
            &self.gtin,
            self.lot_number.as_deref(),
            self.expires_on,
        )
    }
}

/// The most codes one job may ask for.
pub const MAX_QUANTITY: i64 = 10_000_000;

/// A serial: 64 random bits, written as 11 base-62 characters (`0-9A-Za-z`,
/// most significant first, zero-padded so that each number has exactly one
/// spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Serial(pub u64);

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// 62^11 > 2^64, so 11 characters hold any 64-bit number.
pub const SERIAL_LEN: usize = 11;

impl Serial {
    /// The serial as stored (`bigint` holds the same 64 bits).
    pub fn from_db(value: i64) -> Self {
        Self(value as u64)
    }
    pub fn to_db(self) -> i64 {
        self.0 as i64
    }

    /// Its 11 characters.
    pub fn encode(self) -> [u8; SERIAL_LEN] {
        let mut out = [b'0'; SERIAL_LEN];
        let mut n = self.0;
        for slot in out.iter_mut().rev() {
            *slot = BASE62[(n % 62) as usize];
            n /= 62;
        }
        out
    }

    /// Parses 11 base-62 characters; None for anything else (another
    /// length, another character, a number above 64 bits).
    pub fn decode(text: &str) -> Option<Self> {
        if text.len() != SERIAL_LEN {
            return None;
        }
        let mut n: u64 = 0;
        for b in text.bytes() {
            let digit = match b {
                b'0'..=b'9' => b - b'0',
                b'A'..=b'Z' => b - b'A' + 10,
                b'a'..=b'z' => b - b'a' + 36,
                _ => return None,
            };
            n = n.checked_mul(62)?.checked_add(u64::from(digit))?;
        }
        Some(Self(n))
    }
}

impl std::fmt::Display for Serial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The alphabet is ASCII.
        f.write_str(std::str::from_utf8(&self.encode()).unwrap_or_default())
    }
}

/// A lot number (GS1 AI 10): 1 to 20 characters of GS1's character set 82.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LotNumber(String);

impl LotNumber {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        if !gs1::is_lot_or_serial(raw) {
            return Err(ApiError::invalid_input(
                "lot.number must be 1 to 20 characters: letters, digits and the GS1 punctuation ! \" % & ' ( ) * + , - . / : ; < = > ? _ (no spaces).",
            ));
        }
        Ok(Self(raw.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for LotNumber {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(r#"^[!"%&'()*+,./0-9:;<=>?A-Z_a-z-]{1,20}$"#.into());
    }
}

/// A resolver base: `http(s)://host[:port][/path]`, no query, fragment or
/// trailing slash, at most 200 characters (the codes' URIs start with it).
#[derive(Clone, Debug)]
pub struct ResolverBase(String);

pub const RESOLVER_BASE_PATTERN: &str =
    r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~-]+)*$";

impl ResolverBase {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let (scheme, rest) = raw
            .strip_prefix("https://")
            .map(|r| ("https", r))
            .or_else(|| raw.strip_prefix("http://").map(|r| ("http", r)))
            .unwrap_or(("", raw));
        let (host_port, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
        let (host, port) = host_port
            .split_once(':')
            .map_or((host_port, None), |(h, p)| (h, Some(p)));
        let ok = !scheme.is_empty()
            && raw.len() <= 200
            && !host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
            && port.is_none_or(|p| {
                (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
            })
            && (path.is_empty() && !rest.ends_with('/')
                || path.split('/').all(|s| {
                    !s.is_empty()
                        && s.bytes().all(|b| {
                            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'~' | b'-')
                        })
                }));
        if !ok {
            return Err(ApiError::invalid_input(
                "resolver_base must be an http(s) URL such as https://id.example.com or https://example.com/dl, without a query, fragment or trailing slash (200 characters at most).",
            ));
        }
        Ok(Self(raw.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for ResolverBase {
    fn limits(schema: &mut MetaSchema) {
        schema.max_length = Some(200);
        schema.pattern = Some(RESOLVER_BASE_PATTERN.into());
    }
}

crate::text_parser!(LotNumber, ResolverBase);

/// What the codes of one job share: the URI up to the serial and the CSV
/// columns around it. Each code then costs one small write.
#[derive(Clone, Debug)]
pub struct CodeBase {
    /// `gtin,` as the CSV's first column.
    csv_head: String,
    /// `,lot,expiry,` between the serial and the URI (CSV-quoted).
    csv_middle: String,
    /// `{base}/01/{gtin}[/10/{lot}]/21/`.
    uri_prefix: String,
}

impl CodeBase {
    pub fn new(
        resolver_base: &str,
        gtin: &str,
        lot: Option<&str>,
        expires_on: Option<NaiveDate>,
    ) -> Self {
        let mut uri_prefix = format!("{}/01/{gtin}", resolver_base.trim_end_matches('/'));
        if let Some(lot) = lot {
            uri_prefix.push_str("/10/");
            uri_prefix.push_str(&gs1::percent_encode(lot));
        }
        uri_prefix.push_str("/21/");
        let expiry = expires_on
            .map(|d| d.format("%Y-%m-%d").to_string())
            .unwrap_or_default();
        Self {
            csv_head: format!("{gtin},"),
            csv_middle: format!(
                ",{},{expiry},",
                crate::http::csv::field(lot.unwrap_or_default())
            ),
            uri_prefix,
        }
    }

    /// The code's GS1 Digital Link URI.
    pub fn uri(&self, serial: Serial) -> String {
        let mut uri = self.uri_prefix.clone();
        uri.push_str(&serial.to_string());
        uri
    }

    /// Appends the code's CSV line (`gtin,serial,lot,expiry,uri\n`).
    pub fn write_csv_line(&self, serial: Serial, out: &mut Vec<u8>) {
        let serial = serial.encode();
        out.extend_from_slice(self.csv_head.as_bytes());
        out.extend_from_slice(&serial);
        out.extend_from_slice(self.csv_middle.as_bytes());
        // The URI is CSV-safe: its prefix is percent-encoded, its serial
        // base-62, and a resolver base has no comma or quote.
        out.extend_from_slice(self.uri_prefix.as_bytes());
        out.extend_from_slice(&serial);
        out.push(b'\n');
    }
}

/// The header line of a code CSV.
pub const CSV_HEADER: &str = "gtin,serial,lot,expiry,uri\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serials_have_one_spelling_of_11_base62_characters() {
        for n in [0, 1, 61, 62, u64::MAX, u64::MAX / 3, 1 << 63] {
            let s = Serial(n).to_string();
            assert_eq!(s.len(), SERIAL_LEN);
            assert!(s.chars().all(|c| c.is_ascii_alphanumeric()));
            assert_eq!(Serial::decode(&s), Some(Serial(n)), "{s}");
            assert_eq!(Serial::from_db(Serial(n).to_db()), Serial(n));
        }
        assert_eq!(Serial(0).to_string(), "00000000000");
        assert_eq!(Serial(61).to_string(), "0000000000z");
        // 62^11 - 1 is above 2^64: refused, as are other lengths and
        // characters.
        for bad in [
            "zzzzzzzzzzz",
            "0000000000",
            "000000000000",
            "0000000000-",
            "",
        ] {
            assert_eq!(Serial::decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn resolver_bases_are_plain_http_urls() {
        for ok in [
            "https://id.example.com",
            "http://127.0.0.1:8080",
            "https://example.com/dl/v1",
        ] {
            assert!(ResolverBase::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "ftp://x.com",
            "https://",
            "https://x.com/",
            "https://x.com?a=1",
            "https://x.com#f",
            "https://x.com//a",
            "https://x.com:123456",
            "https://exa mple.com",
            "javascript:alert(1)",
        ] {
            assert!(ResolverBase::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lot_numbers_are_gs1_cset82() {
        assert!(LotNumber::parse("L-2026/11.A").is_ok());
        assert!(LotNumber::parse(&"A".repeat(20)).is_ok());
        for bad in ["", "a b", "é", &"A".repeat(21), "a#b", "a\0"] {
            assert!(LotNumber::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn digital_link_uris_and_csv_lines() {
        let d = NaiveDate::from_ymd_opt(2027, 3, 31);
        let base = CodeBase::new(
            "https://id.example.com/",
            "09506000134352",
            Some("A/1,2"),
            d,
        );
        let serial = Serial(62);
        assert_eq!(
            base.uri(serial),
            "https://id.example.com/01/09506000134352/10/A%2F1%2C2/21/00000000010"
        );
        let mut line = Vec::new();
        base.write_csv_line(serial, &mut line);
        assert_eq!(
            String::from_utf8(line).unwrap(),
            "09506000134352,00000000010,\"A/1,2\",2027-03-31,https://id.example.com/01/09506000134352/10/A%2F1%2C2/21/00000000010\n"
        );
        let no_lot = CodeBase::new("http://localhost:8080", "09506000134352", None, None);
        assert_eq!(
            no_lot.uri(Serial(0)),
            "http://localhost:8080/01/09506000134352/21/00000000000"
        );
    }
}
