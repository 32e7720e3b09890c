//! Scans: a consumer opens a code's GS1 Digital Link URI, the public
//! resolver tells them whether the pack is genuine and records the scan, and
//! the brand sees its scans on its dashboard.
//!
//! - `mod.rs`: the rules: Digital Link URIs as the resolver reads them, the
//!   verdicts, which user agents are bots, the suspicious-scan settings;
//! - `resolver.rs`: `GET /01/{gtin}[/10/{lot}]/21/{serial}` (no sign-in):
//!   the verdict as a page or as JSON, the scan recorded, bots counted apart,
//!   a rate limit per address that never refuses a code's first scan;
//! - `compressed.rs`: compressed Digital Link URIs, decompressed;
//! - `links.rs`: what GS1's resolver standard asks beyond the scan: the
//!   link a request asks for, the linkset, the `Link` headers, the
//!   resolver description file;
//! - `page.rs`: the scan page's HTML (every value escaped);
//! - `ingest.rs`: people's scans written in batches, a writer per brand;
//! - `holders.rs`: which brand holds a GTIN, remembered for a few seconds;
//! - `geo.rs`: the place of a scan from an offline IP database (MMDB);
//! - `locate.rs`: `POST /r/locate`, the place the consumer's browser gives
//!   (with consent), reverse-geocoded offline;
//! - `api.rs`: the brand's analytics (`/api/brand-scans`, the spec's call;
//!   `/api/scan-analytics`), its rules (`/api/scan-settings`) and the
//!   platform admins' list of scans across brands (`/api/admin/scans`);
//! - `store.rs`: the SQL of `scans`, `code_scan_state`, `scan_rollup`,
//!   `scan_bots` (tenant schema) and the GTIN registry lookup (platform).

pub mod api;
pub mod compressed;
pub mod geo;
pub mod holders;
pub mod identity;
pub mod ingest;
pub mod links;
pub mod locate;
pub mod page;
pub mod resolver;
pub mod store;

use poem_openapi::{Enum, Object};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::gs1::{self, NumberError};

/// What the resolver says of a code.
#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A code this brand generated, scanned within its rules.
    Genuine,
    /// A code this brand generated, but scanned more often than the brand's
    /// rules allow, or from places too far apart too quickly: it may have
    /// been copied.
    Suspicious,
    /// No code of this brand: possibly a counterfeit.
    NotRecognised,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Genuine => "genuine",
            Self::Suspicious => "suspicious",
            Self::NotRecognised => "not_recognised",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "genuine" => Some(Self::Genuine),
            "suspicious" => Some(Self::Suspicious),
            "not_recognised" => Some(Self::NotRecognised),
            _ => None,
        }
    }
}

/// A GS1 Digital Link URI's path as the resolver reads it:
/// `/01/{gtin}[/22/{cpv}][/10/{lot}][/21/{serial}]`. The GTIN alone, or
/// with its lot, names the product (or the lot), not a pack: such a link
/// has no serial, and the resolver answers it with no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigitalLink {
    /// GTIN-14 (a GTIN-8, 12 or 13 zero-padded).
    pub gtin: String,
    /// The consumer product variant (AI 22), a key qualifier GS1 allows
    /// before the lot; read and checked, and otherwise not used here.
    pub cpv: Option<String>,
    pub lot: Option<String>,
    pub serial: Option<String>,
}

/// Why a URI is not one the resolver can read: a message for the person
/// who scanned it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLink(pub String);

fn bad(message: impl Into<String>) -> BadLink {
    BadLink(message.into())
}

/// An AI 10, 21 or 22 value: 1 to 20 characters of GS1's character set 82.
fn ai_value(ai: &str, name: &str, raw: &str) -> Result<String, BadLink> {
    let value = gs1::percent_decode(raw)
        .ok_or_else(|| bad(format!("The {name} (AI {ai}) is not correctly encoded.")))?;
    let len = value.chars().count();
    if len == 0 {
        return Err(bad(format!("The {name} (AI {ai}) is empty.")));
    }
    if len > gs1::MAX_LOT_OR_SERIAL_LEN {
        return Err(bad(format!(
            "The {name} (AI {ai}) is {len} characters long; GS1 allows at most 20."
        )));
    }
    if !value.chars().all(gs1::is_cset82) {
        return Err(bad(format!(
            "The {name} (AI {ai}) holds characters GS1 does not allow: only letters, digits and ! \" % & ' ( ) * + , - . / : ; < = > ? _"
        )));
    }
    Ok(value)
}

/// The key qualifiers of a GTIN, in the order GS1 Digital Link puts them
/// in a path (AI 22, then 10, then 21), with their names for messages.
const QUALIFIERS: [(&str, &str); 3] = [
    ("22", "consumer product variant"),
    ("10", "lot"),
    ("21", "serial number"),
];

impl DigitalLink {
    /// Reads the path after the `/01/` of a URI
    /// (`{gtin}[/22/{cpv}][/10/{lot}][/21/{serial}]`, a trailing slash
    /// tolerated).
    pub fn parse(rest: &str) -> Result<Self, BadLink> {
        let mut segments = rest.trim_end_matches('/').split('/');
        let gtin = match gs1::gtin14(segments.next().unwrap_or_default()) {
            Ok(gtin) => gtin,
            Err(NumberError::Shape) => {
                return Err(bad("The GTIN (AI 01) must be 8, 12, 13 or 14 digits."));
            }
            Err(NumberError::CheckDigit) => {
                return Err(bad(
                    "The GTIN (AI 01) has a wrong check digit: this is not a valid product number.",
                ));
            }
        };
        let mut values: [Option<String>; 3] = [None, None, None];
        // The position, in QUALIFIERS, of the last qualifier read.
        let mut last = None;
        while let Some(ai) = segments.next() {
            let Some(at) = QUALIFIERS.iter().position(|(q, _)| *q == ai) else {
                let shown: String = ai.chars().take(8).collect();
                return Err(bad(format!(
                    "The link has an application identifier this resolver does not know ({shown:?}): after the GTIN only a variant (22), a lot (10) and a serial (21) may follow."
                )));
            };
            let Some(raw) = segments.next() else {
                return Err(bad(format!(
                    "The link ends after AI {ai} without its value."
                )));
            };
            if last.is_some_and(|l| l >= at) {
                return Err(bad(
                    "The link's parts are out of order or repeated: a GTIN, then an optional variant (22), lot (10) and serial (21), in that order.",
                ));
            }
            let (_, name) = QUALIFIERS[at];
            values[at] = Some(ai_value(ai, name, raw)?);
            last = Some(at);
        }
        let [cpv, lot, serial] = values;
        Ok(Self {
            gtin,
            cpv,
            lot,
            serial,
        })
    }
}

/// What kind of client opened the link. Bots and link-preview fetchers are
/// not people: their hits are counted apart and change no verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentClass {
    Bot,
    Mobile,
    Tablet,
    Desktop,
    Other,
}

impl AgentClass {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Bot => "bot",
            Self::Mobile => "mobile",
            Self::Tablet => "tablet",
            Self::Desktop => "desktop",
            Self::Other => "other",
        }
    }
}

/// Substrings (lower case) of the user agents of crawlers and of the
/// fetchers that chat apps and social sites send to preview a link.
const BOT_MARKS: &[&str] = &[
    "bot",
    "crawler",
    "spider",
    "slurp",
    "facebookexternalhit",
    "facebookcatalog",
    "whatsapp",
    "skypeuripreview",
    "embedly",
    "quora link preview",
    "outbrain",
    "pinterest",
    "vkshare",
    "w3c_validator",
    "bitlybot",
    "google-inspectiontool",
    "feedfetcher",
    "mediapartners-google",
    "preview",
    "lighthouse",
    "slack-",
];

/// Classifies a request by its `User-Agent` and `Sec-Purpose`/`Purpose`
/// headers (a browser's prefetch is not a person opening the page).
pub fn classify_agent(user_agent: Option<&str>, purpose: Option<&str>) -> AgentClass {
    if purpose.is_some_and(|p| {
        let p = p.to_ascii_lowercase();
        p.contains("prefetch") || p.contains("preview")
    }) {
        return AgentClass::Bot;
    }
    let Some(ua) = user_agent else {
        return AgentClass::Other;
    };
    let ua = ua.to_ascii_lowercase();
    if BOT_MARKS.iter().any(|m| ua.contains(m)) {
        return AgentClass::Bot;
    }
    if ua.contains("ipad")
        || ua.contains("tablet")
        || (ua.contains("android") && !ua.contains("mobile"))
    {
        AgentClass::Tablet
    } else if ua.contains("mobi") || ua.contains("iphone") || ua.contains("android") {
        AgentClass::Mobile
    } else if ua.contains("windows")
        || ua.contains("macintosh")
        || ua.contains("x11")
        || ua.contains("cros")
    {
        AgentClass::Desktop
    } else {
        AgentClass::Other
    }
}

/// A tenant's rules for the `suspicious` verdict. Repeat scans by one
/// consumer never make a code suspicious: a consumer is the anonymous
/// first-party cookie of the scan page; a scan without it (a first visit,
/// cookies refused) counts as the consumer of its place when the place is
/// known, else as a consumer of its own.
#[derive(Object, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanSettings {
    /// A code scanned by more than this many distinct consumers is
    /// suspicious (1 to 1,000). The same consumer scanning again does not
    /// count.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000")))]
    pub suspicious_scan_count: i32,
    /// Two scans of one code by different consumers from places further
    /// apart than this, in km (1 to 20,000)...
    #[oai(validator(minimum(value = "1"), maximum(value = "20000")))]
    pub suspicious_distance_km: i32,
    /// ...within this many hours (1 to 720) make it suspicious.
    #[oai(validator(minimum(value = "1"), maximum(value = "720")))]
    pub suspicious_window_hours: i32,
}

/// Who scanned, as the verdict counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanConsumer {
    /// The anonymous first-party id: the cookie's, or a new one that the
    /// answer sets as the cookie.
    pub id: Uuid,
    /// Whether the scan came with the cookie.
    pub from_cookie: bool,
}

impl ScanConsumer {
    /// The consumer the verdict counts this scan as: the cookie's id; for a
    /// scan without the cookie, its place's (country, region and city, when
    /// any is known: repeat scans from one place without the cookie count
    /// once); else the new id, a consumer of its own.
    pub fn counted_as(&self, place: &Place) -> Uuid {
        if self.from_cookie
            || (place.country.is_empty() && place.region.is_empty() && place.city.is_empty())
        {
            return self.id;
        }
        let digest = Sha256::digest(
            format!(
                "brandops place\n{}\n{}\n{}",
                place.country, place.region, place.city
            )
            .as_bytes(),
        );
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&digest[..16]);
        uuid::Builder::from_custom_bytes(bytes).into_uuid()
    }
}

/// Where a scan happened, as far as is known.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Place {
    /// ISO 3166-1 alpha-2, or empty.
    pub country: String,
    pub country_name: String,
    pub region: String,
    pub city: String,
    pub lat: Option<f32>,
    pub lon: Option<f32>,
    /// `ip`, `browser` or `none`.
    pub source: &'static str,
    pub accuracy_km: Option<i32>,
}

impl Place {
    pub fn unknown() -> Self {
        Self {
            source: "none",
            ..Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_digital_link_paths() {
        let link = DigitalLink::parse("09506000134352/10/AB%2F12/21/0A1b2C3d4E5").unwrap();
        assert_eq!(link.gtin, "09506000134352");
        assert_eq!(link.lot.as_deref(), Some("AB/12"));
        assert_eq!(link.serial.as_deref(), Some("0A1b2C3d4E5"));
        let short = DigitalLink::parse("9506000134352/21/X1").unwrap();
        assert_eq!(short.gtin, "09506000134352");
        assert_eq!(short.lot, None);
        // The GTIN alone, with its lot, with a variant (AI 22): no serial.
        let gtin_only = DigitalLink::parse("09506000134352").unwrap();
        assert_eq!((gtin_only.lot, gtin_only.serial), (None, None));
        let lot_only = DigitalLink::parse("09506000134352/10/L1/").unwrap();
        assert_eq!(lot_only.lot.as_deref(), Some("L1"));
        assert_eq!(lot_only.serial, None);
        let variant = DigitalLink::parse("09506000134352/22/2A/10/L1/21/S1").unwrap();
        assert_eq!(variant.cpv.as_deref(), Some("2A"));
        assert_eq!(variant.serial.as_deref(), Some("S1"));
        // GTIN-8, zero-padded.
        assert_eq!(
            DigitalLink::parse("96385074/21/1").unwrap().gtin,
            "00000096385074"
        );
    }

    #[test]
    fn refuses_malformed_links() {
        for path in [
            "09506000134353/21/X1",                    // check digit
            "123/21/X1",                               // length
            "09506000134352/21/ABCDEFGHIJKLMNOPQRSTU", // 21 characters
            "09506000134352/21/a%20b",                 // a space
            "09506000134352/21/a#b",                   // '#'
            "09506000134352/17/261231/21/1",           // not a key qualifier
            "09506000134352/21/1/10/L",                // out of order
            "09506000134352/10/L/22/V",                // out of order
            "09506000134352/10/L/10/M",                // repeated
            "09506000134352/22/a%20b",                 // a space in the variant
            "09506000134352/21",                       // no value
            "09506000134352/21/%FF",                   // not UTF-8
            "09506000134352/21/%2",                    // broken escape
        ] {
            assert!(
                DigitalLink::parse(path).is_err(),
                "{path} should be refused"
            );
        }
    }

    #[test]
    fn a_consumer_is_their_cookie_else_their_place_else_their_own() {
        let id = Uuid::from_u128(7);
        let paris = Place {
            country: "FR".into(),
            region: "Île-de-France".into(),
            city: "Paris".into(),
            source: "ip",
            ..Place::default()
        };
        let cookie = ScanConsumer {
            id,
            from_cookie: true,
        };
        assert_eq!(cookie.counted_as(&paris), id);
        let first_visit = ScanConsumer {
            id,
            from_cookie: false,
        };
        assert_eq!(first_visit.counted_as(&Place::unknown()), id);
        let by_place = first_visit.counted_as(&paris);
        assert_ne!(by_place, id);
        let another_visit = ScanConsumer {
            id: Uuid::from_u128(8),
            from_cookie: false,
        };
        assert_eq!(another_visit.counted_as(&paris), by_place);
        let lyon = Place {
            city: "Lyon".into(),
            ..paris.clone()
        };
        assert_ne!(another_visit.counted_as(&lyon), by_place);
    }

    #[test]
    fn tells_bots_from_people() {
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
        assert_eq!(classify_agent(Some(iphone), None), AgentClass::Mobile);
        assert_eq!(
            classify_agent(Some("WhatsApp/2.23.20.0 A"), None),
            AgentClass::Bot
        );
        assert_eq!(
            classify_agent(Some("facebookexternalhit/1.1"), None),
            AgentClass::Bot
        );
        assert_eq!(
            classify_agent(Some("Mozilla/5.0 (compatible; Googlebot/2.1)"), None),
            AgentClass::Bot
        );
        assert_eq!(
            classify_agent(Some(iphone), Some("prefetch")),
            AgentClass::Bot
        );
        assert_eq!(
            classify_agent(Some("Mozilla/5.0 (Windows NT 10.0; Win64; x64)"), None),
            AgentClass::Desktop
        );
        assert_eq!(
            classify_agent(
                Some("Mozilla/5.0 (Linux; Android 14; SM-X710) Safari"),
                None
            ),
            AgentClass::Tablet
        );
        assert_eq!(classify_agent(None, None), AgentClass::Other);
    }
}
