//! What the GS1-Conformant Resolver standard (1.x) asks of the resolver
//! beyond the scan itself: which link a request asks for (`linkType`, or
//! `Accept: application/linkset+json`), the RFC 9264 linkset of a Digital
//! Link with an entry for each level up to the GTIN, the `Link` headers of
//! ordinary answers, and the resolver description file at
//! `/.well-known/gs1resolver`.
//!
//! Pure: the resolver looks the product and its passport up and hands the
//! facts in.

use poem_openapi::Object;
use serde_json::{Map, Value, json};

use super::DigitalLink;
use crate::gs1::percent_encode;

/// The GS1 Web Vocabulary's namespace, the one the resolver recognises.
pub const GS1_VOC: &str = "https://gs1.org/voc/";

/// GS1's JSON-LD context for linksets, named in the `Link` header of a
/// linkset so that it can be read as JSON-LD.
pub const LINKSET_CONTEXT: &str = "https://ref.gs1.org/standards/resolver/linkset-context";

/// The media type of a linkset (RFC 9264).
pub const LINKSET_TYPE: &str = "application/linkset+json";

/// GS1's primary keys other than the GTIN, by AI, as the resolver
/// description file schema lists them: valid kinds of Digital Link this
/// resolver has no links for (404).
pub const OTHER_PRIMARY_KEYS: [&str; 20] = [
    "00", "253", "255", "401", "402", "410", "411", "412", "413", "414", "415", "416", "417",
    "8003", "8004", "8006", "8010", "8013", "8017", "8018",
];

/// What a request asks the resolver for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// The default link (`gs1:defaultLink`, and `gs1:pip`, which is the
    /// same page here): the scan page, or the product's page without a
    /// serial.
    Default,
    /// Every link, as a linkset (`linkType=linkset`, the deprecated
    /// `linkType=all`, or `Accept: application/linkset+json`).
    Linkset,
    /// The public passport (`gs1:dpp`).
    Passport,
    /// A link type this resolver has no link of (404).
    Unknown(String),
}

/// The GS1 link type a `linkType` value names (`gs1:pip`, or its full URI
/// `https://gs1.org/voc/pip`), without its prefix.
fn gs1_term(value: &str) -> Option<&str> {
    [
        "gs1:",
        "https://gs1.org/voc/",
        "http://gs1.org/voc/",
        "https://ref.gs1.org/voc/",
    ]
    .iter()
    .find_map(|prefix| value.strip_prefix(prefix))
}

/// What `query` (the request's query string, undecoded) and `accept` ask
/// for. A `linkType` wins over the `Accept` header.
pub fn wanted(query: Option<&str>, accept: Option<&str>) -> Wanted {
    let link_type = query.and_then(|q| {
        q.split('&').find_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            (key == "linkType").then(|| {
                crate::gs1::percent_decode(&value.replace('+', " "))
                    .unwrap_or_else(|| value.to_string())
            })
        })
    });
    match link_type.as_deref() {
        None => {
            if accept.is_some_and(|a| a.to_ascii_lowercase().contains(LINKSET_TYPE)) {
                Wanted::Linkset
            } else {
                Wanted::Default
            }
        }
        Some("linkset" | "all") => Wanted::Linkset,
        Some(other) => match gs1_term(other) {
            Some("defaultLink" | "defaultLinkMulti" | "pip") => Wanted::Default,
            Some("dpp") => Wanted::Passport,
            _ => Wanted::Unknown(other.chars().take(100).collect()),
        },
    }
}

/// The Digital Link URI of `gtin` with the qualifiers given, on `base`
/// (the resolver's root, no trailing slash), each value percent-encoded.
pub fn uri(
    base: &str,
    gtin: &str,
    cpv: Option<&str>,
    lot: Option<&str>,
    serial: Option<&str>,
) -> String {
    let mut out = format!("{base}/01/{gtin}");
    for (ai, value) in [("22", cpv), ("10", lot), ("21", serial)] {
        if let Some(value) = value {
            out.push('/');
            out.push_str(ai);
            out.push('/');
            out.push_str(&percent_encode(value));
        }
    }
    out
}

/// The URI of `link` itself, uncompressed and canonical (GTIN-14).
pub fn canonical(base: &str, link: &DigitalLink) -> String {
    uri(
        base,
        &link.gtin,
        link.cpv.as_deref(),
        link.lot.as_deref(),
        link.serial.as_deref(),
    )
}

/// The levels of `link` from the most specific up to the GTIN, each once:
/// the full URI, without its serial, without its lot too, the GTIN alone.
pub fn levels(base: &str, link: &DigitalLink) -> Vec<Level> {
    let (cpv, lot, serial) = (
        link.cpv.as_deref(),
        link.lot.as_deref(),
        link.serial.as_deref(),
    );
    let mut out: Vec<Level> = Vec::new();
    for (cpv, lot, serial) in [
        (cpv, lot, serial),
        (cpv, lot, None),
        (cpv, None, None),
        (None, None, None),
    ] {
        let anchor = uri(base, &link.gtin, cpv, lot, serial);
        if !out.iter().any(|l| l.anchor == anchor) {
            out.push(Level {
                anchor,
                lot: lot.map(str::to_string),
                serial: serial.is_some(),
            });
        }
    }
    out
}

/// One level of a Digital Link: its URI, and what it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub anchor: String,
    /// The lot this level names, if any.
    pub lot: Option<String>,
    /// Whether it names one pack (it has a serial).
    pub serial: bool,
}

/// A level's links as the resolver has them.
pub struct LevelLinks<'a> {
    pub level: &'a Level,
    /// The product's name (the entry's `itemDescription`).
    pub product_name: &'a str,
    /// Whether a public passport answers `gs1:dpp` at this level.
    pub passport: bool,
}

fn link(href: &str, title: &str) -> Value {
    json!({ "href": href, "title": title, "type": "text/html", "hreflang": ["en"] })
}

/// The RFC 9264 linkset of the levels given, in GS1's form: per level its
/// `anchor`, `itemDescription`, the default link (its target and title
/// only), the product information page (`gs1:pip`, the same page) and, when
/// a passport is published, `gs1:dpp`.
pub fn linkset(levels: &[LevelLinks<'_>]) -> Value {
    let entries: Vec<Value> = levels
        .iter()
        .map(|l| {
            let anchor = l.level.anchor.as_str();
            let title = if l.level.serial {
                format!("{}: is this pack genuine?", l.product_name)
            } else if let Some(lot) = &l.level.lot {
                format!("{}, lot {lot}: product information", l.product_name)
            } else {
                format!("{}: product information", l.product_name)
            };
            let mut entry = Map::new();
            entry.insert("anchor".into(), anchor.into());
            entry.insert("itemDescription".into(), l.product_name.into());
            entry.insert(
                format!("{GS1_VOC}defaultLink"),
                json!([{ "href": anchor, "title": title }]),
            );
            entry.insert(format!("{GS1_VOC}pip"), json!([link(anchor, &title)]));
            if l.passport {
                entry.insert(
                    format!("{GS1_VOC}dpp"),
                    json!([link(
                        &format!("{anchor}?linkType=gs1:dpp"),
                        &format!("{}: digital product passport", l.product_name),
                    )]),
                );
            }
            Value::Object(entry)
        })
        .collect();
    json!({ "linkset": entries })
}

/// The `Link` header values of an ordinary answer for `canonical`: where
/// its linkset is, and, for a compressed request URI, the uncompressed
/// one it is the same as (`owl:sameAs`).
pub fn link_headers(canonical: &str, compressed: bool) -> Vec<String> {
    let mut out = vec![format!(
        "<{canonical}?linkType=linkset>; rel=\"linkset\"; type=\"{LINKSET_TYPE}\""
    )];
    if compressed {
        out.push(format!("<{canonical}>; rel=\"owl:sameAs\""));
    }
    out
}

/// A link type the resolver recognises, in the description file.
#[derive(Object, Debug, Clone)]
pub struct SupportedLinkType {
    /// The namespace URI.
    pub namespace: String,
    /// Its prefix in CURIEs, with the colon.
    pub prefix: String,
}

/// The resolver description file (`/.well-known/gs1resolver`), as the
/// GS1-Conformant Resolver standard's description file schema names its
/// fields.
#[derive(Object, Debug, Clone)]
#[oai(rename_all = "camelCase")]
pub struct ResolverDescription {
    /// The resolver's name.
    pub name: String,
    /// The resolver's root URL: its Digital Link URIs start with it.
    pub resolver_root: String,
    /// The primary keys it resolves, as their AIs: `01`, the GTIN.
    pub supported_primary_keys: Vec<String>,
    /// The link type namespaces it recognises: the GS1 Web Vocabulary.
    pub supported_link_type: Vec<SupportedLinkType>,
    /// Whether the linkset may be made the default answer (it is not: the
    /// default is the scan page).
    pub link_type_default_can_be_linkset: bool,
    /// Whether it answers the meaning of a URI's AIs (it does not).
    pub supports_semantic_interpretation: bool,
    /// Whether it checks which AIs may be combined beyond the GTIN's key
    /// qualifiers (it does not).
    #[oai(rename = "validatesAIcombinations")]
    pub validates_ai_combinations: bool,
    /// Whether it answers differently by language (it does not: English).
    pub supports_language_variants: bool,
}

/// The description of the resolver at `base`.
pub fn description(base: &str) -> ResolverDescription {
    ResolverDescription {
        name: "brandops resolver".into(),
        resolver_root: base.to_string(),
        supported_primary_keys: vec!["01".into()],
        supported_link_type: vec![SupportedLinkType {
            namespace: GS1_VOC.into(),
            prefix: "gs1:".into(),
        }],
        link_type_default_can_be_linkset: false,
        supports_semantic_interpretation: false,
        validates_ai_combinations: false,
        supports_language_variants: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_a_request_asks_for() {
        assert_eq!(wanted(None, None), Wanted::Default);
        assert_eq!(wanted(Some("a=1"), Some("text/html")), Wanted::Default);
        assert_eq!(
            wanted(None, Some("application/linkset+json")),
            Wanted::Linkset
        );
        assert_eq!(wanted(Some("linkType=linkset"), None), Wanted::Linkset);
        assert_eq!(wanted(Some("x=1&linkType=all"), None), Wanted::Linkset);
        assert_eq!(wanted(Some("linkType=gs1:pip"), None), Wanted::Default);
        assert_eq!(
            wanted(Some("linkType=gs1%3AdefaultLink"), None),
            Wanted::Default
        );
        assert_eq!(
            wanted(Some("linkType=https%3A%2F%2Fgs1.org%2Fvoc%2Fdpp"), None),
            Wanted::Passport
        );
        assert_eq!(
            wanted(
                Some("linkType=gs1:recipeInfo"),
                Some("application/linkset+json")
            ),
            Wanted::Unknown("gs1:recipeInfo".into())
        );
        assert_eq!(
            wanted(Some("linkType=nonsense"), None),
            Wanted::Unknown("nonsense".into())
        );
    }

    #[test]
    fn levels_go_up_to_the_gtin() {
        let link = DigitalLink::parse("09506000134352/10/A%2F1/21/S1").unwrap();
        let anchors: Vec<String> = levels("https://r.test", &link)
            .into_iter()
            .map(|l| l.anchor)
            .collect();
        assert_eq!(
            anchors,
            [
                "https://r.test/01/09506000134352/10/A%2F1/21/S1",
                "https://r.test/01/09506000134352/10/A%2F1",
                "https://r.test/01/09506000134352",
            ]
        );
        let gtin = DigitalLink::parse("9506000134352").unwrap();
        assert_eq!(levels("https://r.test", &gtin).len(), 1);
    }

    #[test]
    fn the_default_link_has_its_target_and_title_only() {
        let level = Level {
            anchor: "https://r.test/01/09506000134352".into(),
            lot: None,
            serial: false,
        };
        let set = linkset(&[LevelLinks {
            level: &level,
            product_name: "Rice",
            passport: true,
        }]);
        let entry = &set["linkset"][0];
        assert_eq!(entry["itemDescription"], "Rice");
        let default = entry["https://gs1.org/voc/defaultLink"][0]
            .as_object()
            .unwrap();
        let mut keys: Vec<&str> = default.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["href", "title"]);
        assert_eq!(
            entry["https://gs1.org/voc/dpp"][0]["href"],
            "https://r.test/01/09506000134352?linkType=gs1:dpp"
        );
    }
}
