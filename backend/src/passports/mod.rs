//! Digital product passports (issue 9): the EU ESPR Annex III data of a
//! product, and of a lot where it differs, in versions that are never
//! changed. ADR 0015.
//!
//! - `mod.rs`: the passport's sections and the rules of their fields
//!   (plain text, `https` links, EORI, CAS numbers with their check digit,
//!   HS/CN codes, percentages), its completeness, and what the public sees;
//! - `api.rs`: the operations under `/api/passports`;
//! - `store.rs`: the SQL of `passports` (one row per product or lot: its
//!   current version) and `passport_versions` (every version, immutable),
//!   and [`store::public_passport`] for the public scan page;
//! - `visibility.rs`: per-field visibility (a field's own, or its
//!   section's) and what the public sees of each section;
//! - `public.rs`: the public passport ([`PublicPassport`]): its JSON and
//!   its HTML fragment for the scan page.
//!
//! A passport is one document: sections, each public or restricted, whose
//! fields (and list items) may each be public or restricted on their own.
//! Saving it stores a whole new version; a lot's passport, when there is
//! one, replaces the product's for that lot.

pub mod api;
mod public;
pub mod store;
mod visibility;

pub use public::{PublicPassport, render_public_html};
pub use visibility::{
    FieldVisibility, IdentificationFields, ImporterFields, ManufacturerFields, OperatorFields,
    PublicSection, RecyclingFields, RepairFields, SectionFields,
};

use poem_openapi::registry::MetaSchema;
use poem_openapi::types::{ParseFromJSON, ToJSON};
use poem_openapi::{Enum, Object};

use crate::http::error::ApiError;
use crate::http::fields::{LongText, ShortText};
use crate::http::input::{Optional, OrDefault, ParseTextAs, Text, TextRule};

/// Who may see a field (or, as a section's `visibility`, the fields of the
/// section that have no visibility of their own): anyone who scans the
/// product (`public`), or only the brand's own people (`restricted`).
#[derive(Enum, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[oai(rename_all = "lowercase")]
pub enum Visibility {
    Public,
    #[default]
    Restricted,
}

// ---------------------------------------------------------------------------
// The rules of the fields.

/// An `https` link: `https://host[:port][/path][?query][#fragment]`, the
/// host letters, digits, dots and hyphens, the rest RFC 3986's characters;
/// at most 2000 characters.
pub struct HttpsUrl;

pub const URL_MAX: usize = 2000;

/// RFC 3986's characters after the host (unreserved, reserved and `%`).
fn is_url_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=%".contains(c)
}

impl HttpsUrl {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        let refuse = || {
            ApiError::invalid_input(format!(
                "{field} must be an https:// link (at most 2000 characters, no spaces)."
            ))
        };
        if raw.chars().count() > URL_MAX {
            return Err(refuse());
        }
        let rest = raw.strip_prefix("https://").ok_or_else(refuse)?;
        let host_end = rest.find([':', '/', '?', '#']).unwrap_or(rest.len());
        let (host, mut tail) = rest.split_at(host_end);
        let host_ok = !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
            && host.starts_with(|c: char| c.is_ascii_alphanumeric())
            && host.ends_with(|c: char| c.is_ascii_alphanumeric());
        if !host_ok {
            return Err(refuse());
        }
        if let Some(after) = tail.strip_prefix(':') {
            let digits = after
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after.len());
            if !(1..=5).contains(&digits) {
                return Err(refuse());
            }
            tail = &after[digits..];
        }
        if !(tail.is_empty() || tail.starts_with(['/', '?', '#']) && tail.chars().all(is_url_char))
        {
            return Err(refuse());
        }
        Ok(raw.to_string())
    }
}

pub const URL_PATTERN: &str = r"^https://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?(?:[/?#][A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]*)?$";

impl TextRule for HttpsUrl {
    fn limits(schema: &mut MetaSchema) {
        schema.max_length = Some(URL_MAX);
        schema.pattern = Some(URL_PATTERN.into());
        schema.description = Some("An `https://` link (plain `http://` is refused).");
    }
}

/// An EORI number: the 2-letter (capital) country code, then 1 to 15 capital
/// letters or digits.
pub struct Eori;

impl Eori {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        let ok = raw.len() >= 3
            && raw.len() <= 17
            && raw.bytes().take(2).all(|b| b.is_ascii_uppercase())
            && raw
                .bytes()
                .skip(2)
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
        if !ok {
            return Err(ApiError::invalid_input(format!(
                "{field} must be an EORI number: a 2-letter country code then up to 15 letters or digits, in capitals (e.g. DE123456789012345)."
            )));
        }
        Ok(raw.to_string())
    }
}

impl TextRule for Eori {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[A-Z]{2}[0-9A-Z]{1,15}$".into());
    }
}

/// A commodity code: HS (6 digits), CN (8) or TARIC (10).
pub struct CommodityCode;

impl CommodityCode {
    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        if !matches!(raw.len(), 6 | 8 | 10) || !raw.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ApiError::invalid_input(format!(
                "{field} must be an HS code (6 digits), a CN code (8 digits) or a TARIC code (10 digits), without dots or spaces."
            )));
        }
        Ok(raw.to_string())
    }
}

impl TextRule for CommodityCode {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[0-9]{6}(?:[0-9]{2}){0,2}$".into());
    }
}

/// A CAS registry number, `NNNNNNN-NN-N`: 2 to 7 digits (no leading zero),
/// 2 digits, and a check digit (the other digits weighted 1, 2, 3, … from the
/// right, summed, mod 10). The check digit is a rule the contract's pattern
/// cannot say.
pub struct CasNumber;

impl CasNumber {
    pub fn check_digit(digits: &str) -> u8 {
        let sum: u32 = digits
            .bytes()
            .rev()
            .enumerate()
            .map(|(i, b)| (i as u32 + 1) * u32::from(b - b'0'))
            .sum();
        (sum % 10) as u8
    }

    pub fn parse(field: &str, raw: &str) -> Result<String, ApiError> {
        let parts: Vec<&str> = raw.split('-').collect();
        let shaped = parts.len() == 3
            && (2..=7).contains(&parts[0].len())
            && !parts[0].starts_with('0')
            && parts[1].len() == 2
            && parts[2].len() == 1
            && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
        if !shaped {
            return Err(ApiError::invalid_input(format!(
                "{field} must be a CAS number such as 7732-18-5."
            )));
        }
        let digits = format!("{}{}", parts[0], parts[1]);
        if Self::check_digit(&digits) != parts[2].as_bytes()[0] - b'0' {
            return Err(ApiError::invalid_input(format!(
                "{field} has a wrong check digit: check the CAS number."
            )));
        }
        Ok(raw.to_string())
    }
}

impl TextRule for CasNumber {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[1-9][0-9]{1,6}-[0-9]{2}-[0-9]$".into());
        schema.description = Some(
            "A CAS registry number (e.g. 7732-18-5). Its last digit is the check digit: \
             the other digits from the right weighted 1, 2, 3, …, summed, modulo 10.",
        );
    }
}

crate::text_parser!(field: HttpsUrl => String, Eori => String, CommodityCode => String, CasNumber => String);

fn percent(field: &str, value: f64) -> Result<f64, ApiError> {
    if !value.is_finite() || !(0.0..=100.0).contains(&value) {
        return Err(ApiError::invalid_input(format!(
            "{field} must be a percentage from 0 to 100."
        )));
    }
    Ok(value)
}

// ---------------------------------------------------------------------------
// The sections.
//
// Each section has a `visibility`, the default of its fields. A section of
// single fields (identification, manufacturer, importer, …) may give any of
// them a visibility of its own in `field_visibility`; in a list section
// (documents, substances, materials) each item may have its own
// `visibility`. Absent, a field or item has its section's: documents saved
// before per-field visibility read back as they were (ADR 0015).

/// A titled link to a document (a declaration of conformity, a manual, a
/// safety sheet).
#[derive(Object, Debug)]
pub struct DocumentLink {
    pub title: Text<ShortText>,
    /// An `https://` link.
    pub url: Text<HttpsUrl>,
    /// This document's own visibility; absent, the section's.
    pub visibility: Optional<Visibility>,
}

/// A list of document links.
#[derive(Object, Debug, Default)]
pub struct DocumentsSection {
    pub visibility: Visibility,
    /// At most 20.
    #[oai(validator(max_items = 20))]
    pub items: OrDefault<Vec<DocumentLink>>,
}

/// How the product is identified. (Its GTIN is the product's own.)
#[derive(Object, Debug, Default)]
pub struct IdentificationSection {
    pub visibility: Visibility,
    pub field_visibility: OrDefault<FieldVisibility<IdentificationFields>>,
    /// The unique product identifier (e.g. the GS1 Digital Link URI of the
    /// model).
    pub unique_product_id: Optional<Text<ShortText>>,
    /// HS (6 digits), CN (8) or TARIC (10) commodity code.
    pub commodity_code: Optional<Text<CommodityCode>>,
}

/// The manufacturer.
#[derive(Object, Debug, Default)]
pub struct ManufacturerSection {
    pub visibility: Visibility,
    pub field_visibility: OrDefault<FieldVisibility<ManufacturerFields>>,
    pub name: Optional<Text<ShortText>>,
    /// Its unique operator identifier.
    pub operator_id: Optional<Text<ShortText>>,
    /// Postal or electronic address.
    pub contact: Optional<Text<ShortText>>,
    /// The unique identifiers of the facilities that make the product (at
    /// most 20).
    #[oai(validator(max_items = 20))]
    pub facility_ids: OrDefault<Vec<Text<ShortText>>>,
}

/// The importer into the EU.
#[derive(Object, Debug, Default)]
pub struct ImporterSection {
    pub visibility: Visibility,
    pub field_visibility: OrDefault<FieldVisibility<ImporterFields>>,
    pub name: Optional<Text<ShortText>>,
    /// EORI number: 2-letter country code and up to 15 letters or digits.
    pub eori: Optional<Text<Eori>>,
    pub contact: Optional<Text<ShortText>>,
}

/// The economic operator established in the EU responsible for the product.
#[derive(Object, Debug, Default)]
pub struct OperatorSection {
    pub visibility: Visibility,
    pub field_visibility: OrDefault<FieldVisibility<OperatorFields>>,
    pub name: Optional<Text<ShortText>>,
    pub operator_id: Optional<Text<ShortText>>,
    pub contact: Optional<Text<ShortText>>,
}

/// A substance of concern in the product.
#[derive(Object, Debug)]
pub struct Substance {
    pub name: Text<ShortText>,
    /// CAS registry number with its check digit, e.g. 7732-18-5.
    pub cas_number: Optional<Text<CasNumber>>,
    /// Concentration, % by weight.
    #[oai(validator(minimum(value = "0"), maximum(value = "100")))]
    pub concentration_percent: Optional<f64>,
    /// Where in the product it is (a part, a component).
    pub location: Optional<Text<ShortText>>,
    /// This substance's own visibility; absent, the section's.
    pub visibility: Optional<Visibility>,
}

#[derive(Object, Debug, Default)]
pub struct SubstancesSection {
    pub visibility: Visibility,
    /// At most 100.
    #[oai(validator(max_items = 100))]
    pub items: OrDefault<Vec<Substance>>,
}

/// A material the product is made of.
#[derive(Object, Debug)]
pub struct Material {
    pub name: Text<ShortText>,
    /// Share of the product's weight, %. The shares add up to 100 at most.
    #[oai(validator(minimum(value = "0"), maximum(value = "100")))]
    pub share_percent: Optional<f64>,
    /// Recycled content of this material, %.
    #[oai(validator(minimum(value = "0"), maximum(value = "100")))]
    pub recycled_percent: Optional<f64>,
    /// This material's own visibility; absent, the section's.
    pub visibility: Optional<Visibility>,
}

#[derive(Object, Debug, Default)]
pub struct MaterialsSection {
    pub visibility: Visibility,
    /// At most 50; their shares add up to 100 at most.
    #[oai(validator(max_items = 50))]
    pub items: OrDefault<Vec<Material>>,
}

#[derive(Object, Debug, Default)]
pub struct RepairSection {
    pub visibility: Visibility,
    pub field_visibility: OrDefault<FieldVisibility<RepairFields>>,
    pub instructions: Optional<Text<LongText>>,
    /// E.g. "Spare parts for 7 years after the last unit is sold".
    pub spare_parts_availability: Optional<Text<ShortText>>,
}

#[derive(Object, Debug, Default)]
pub struct RecyclingSection {
    pub visibility: Visibility,
    pub field_visibility: OrDefault<FieldVisibility<RecyclingFields>>,
    pub instructions: Optional<Text<LongText>>,
    /// E.g. "Fully recyclable in the paper stream".
    pub recyclability: Optional<Text<ShortText>>,
}

/// A passport's content: its sections, each with a visibility that its
/// fields (or items) have unless they have their own. A section left out
/// is empty and restricted. Saving replaces the whole document with a new
/// version.
#[derive(Object, Debug, Default)]
pub struct PassportData {
    pub identification: OrDefault<IdentificationSection>,
    /// Declarations of conformity, certificates and other compliance documents.
    pub compliance_documents: OrDefault<DocumentsSection>,
    pub user_manuals: OrDefault<DocumentsSection>,
    pub safety_information: OrDefault<DocumentsSection>,
    pub manufacturer: OrDefault<ManufacturerSection>,
    pub importer: OrDefault<ImporterSection>,
    pub responsible_operator: OrDefault<OperatorSection>,
    pub substances_of_concern: OrDefault<SubstancesSection>,
    pub materials: OrDefault<MaterialsSection>,
    pub repair: OrDefault<RepairSection>,
    pub recycling: OrDefault<RecyclingSection>,
}

/// An optional text field, checked by its rule (short texts trimmed).
fn checked<R: ParseTextAs<Output = String>>(
    field: &str,
    value: &Optional<Text<R>>,
) -> Result<Optional<Text<R>>, ApiError> {
    Ok(Optional(value.parse_as(field)?.map(Text::new)))
}

fn opt_percent(field: &str, value: &Optional<f64>) -> Result<Optional<f64>, ApiError> {
    Ok(Optional(value.0.map(|v| percent(field, v)).transpose()?))
}

fn documents(field: &str, section: &DocumentsSection) -> Result<DocumentsSection, ApiError> {
    if section.items.len() > 20 {
        return Err(ApiError::invalid_input(format!(
            "{field} has at most 20 documents."
        )));
    }
    let items = section
        .items
        .iter()
        .enumerate()
        .map(|(i, d)| {
            Ok(DocumentLink {
                title: Text::new(d.title.parse_as(&format!("{field}[{}].title", i + 1))?),
                url: Text::new(d.url.parse_as(&format!("{field}[{}].url", i + 1))?),
                visibility: Optional(d.visibility.0),
            })
        })
        .collect::<Result<_, ApiError>>()?;
    Ok(DocumentsSection {
        visibility: section.visibility,
        items,
    })
}

/// How the shares of materials may exceed 100 through rounding.
const SHARE_TOLERANCE: f64 = 1e-6;

impl PassportData {
    /// Checks every field, as the messages people read say, and answers
    /// the passport as it is stored (short texts trimmed).
    pub fn check(&self) -> Result<Self, ApiError> {
        let id = &self.identification;
        let identification = IdentificationSection {
            visibility: id.visibility,
            field_visibility: OrDefault(id.field_visibility.check()?),
            unique_product_id: checked("identification.unique_product_id", &id.unique_product_id)?,
            commodity_code: checked("identification.commodity_code", &id.commodity_code)?,
        };
        let m = &self.manufacturer;
        if m.facility_ids.len() > 20 {
            return Err(ApiError::invalid_input(
                "manufacturer.facility_ids has at most 20 identifiers.",
            ));
        }
        let manufacturer = ManufacturerSection {
            visibility: m.visibility,
            field_visibility: OrDefault(m.field_visibility.check()?),
            name: checked("manufacturer.name", &m.name)?,
            operator_id: checked("manufacturer.operator_id", &m.operator_id)?,
            contact: checked("manufacturer.contact", &m.contact)?,
            facility_ids: m
                .facility_ids
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    f.parse_as(&format!("manufacturer.facility_ids[{}]", i + 1))
                        .map(Text::new)
                })
                .collect::<Result<_, _>>()?,
        };
        let im = &self.importer;
        let importer = ImporterSection {
            visibility: im.visibility,
            field_visibility: OrDefault(im.field_visibility.check()?),
            name: checked("importer.name", &im.name)?,
            eori: checked("importer.eori", &im.eori)?,
            contact: checked("importer.contact", &im.contact)?,
        };
        let op = &self.responsible_operator;
        let responsible_operator = OperatorSection {
            visibility: op.visibility,
            field_visibility: OrDefault(op.field_visibility.check()?),
            name: checked("responsible_operator.name", &op.name)?,
            operator_id: checked("responsible_operator.operator_id", &op.operator_id)?,
            contact: checked("responsible_operator.contact", &op.contact)?,
        };
        let subs = &self.substances_of_concern;
        if subs.items.len() > 100 {
            return Err(ApiError::invalid_input(
                "substances_of_concern has at most 100 substances.",
            ));
        }
        let substances_of_concern = SubstancesSection {
            visibility: subs.visibility,
            items: subs
                .items
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let at = format!("substances_of_concern[{}]", i + 1);
                    Ok(Substance {
                        name: Text::new(s.name.parse_as(&format!("{at}.name"))?),
                        cas_number: checked(&format!("{at}.cas_number"), &s.cas_number)?,
                        concentration_percent: opt_percent(
                            &format!("{at}.concentration_percent"),
                            &s.concentration_percent,
                        )?,
                        location: checked(&format!("{at}.location"), &s.location)?,
                        visibility: Optional(s.visibility.0),
                    })
                })
                .collect::<Result<_, ApiError>>()?,
        };
        let mats = &self.materials;
        if mats.items.len() > 50 {
            return Err(ApiError::invalid_input(
                "materials has at most 50 materials.",
            ));
        }
        let items: Vec<Material> = mats
            .items
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let at = format!("materials[{}]", i + 1);
                Ok(Material {
                    name: Text::new(m.name.parse_as(&format!("{at}.name"))?),
                    share_percent: opt_percent(&format!("{at}.share_percent"), &m.share_percent)?,
                    recycled_percent: opt_percent(
                        &format!("{at}.recycled_percent"),
                        &m.recycled_percent,
                    )?,
                    visibility: Optional(m.visibility.0),
                })
            })
            .collect::<Result<_, ApiError>>()?;
        let total: f64 = items.iter().filter_map(|m| m.share_percent.0).sum();
        if total > 100.0 + SHARE_TOLERANCE {
            return Err(ApiError::invalid_input(
                "The materials' shares add up to more than 100%.",
            ));
        }
        let materials = MaterialsSection {
            visibility: mats.visibility,
            items: OrDefault(items),
        };
        Ok(Self {
            identification: OrDefault(identification),
            compliance_documents: OrDefault(documents(
                "compliance_documents",
                &self.compliance_documents,
            )?),
            user_manuals: OrDefault(documents("user_manuals", &self.user_manuals)?),
            safety_information: OrDefault(documents(
                "safety_information",
                &self.safety_information,
            )?),
            manufacturer: OrDefault(manufacturer),
            importer: OrDefault(importer),
            responsible_operator: OrDefault(responsible_operator),
            substances_of_concern: OrDefault(substances_of_concern),
            materials: OrDefault(materials),
            repair: OrDefault(RepairSection {
                visibility: self.repair.visibility,
                field_visibility: OrDefault(self.repair.field_visibility.check()?),
                instructions: checked("repair.instructions", &self.repair.instructions)?,
                spare_parts_availability: checked(
                    "repair.spare_parts_availability",
                    &self.repair.spare_parts_availability,
                )?,
            }),
            recycling: OrDefault(RecyclingSection {
                visibility: self.recycling.visibility,
                field_visibility: OrDefault(self.recycling.field_visibility.check()?),
                instructions: checked("recycling.instructions", &self.recycling.instructions)?,
                recyclability: checked("recycling.recyclability", &self.recycling.recyclability)?,
            }),
        })
    }

    /// The fields that count towards completeness, each filled or not (see
    /// ADR 0015): the product's GTIN is always there and is not counted;
    /// substances of concern and contacts are not counted, since a product
    /// may rightly have none.
    pub fn counted_fields(&self) -> [(&'static str, bool); 17] {
        [
            (
                "identification.unique_product_id",
                self.identification.unique_product_id.0.is_some(),
            ),
            (
                "identification.commodity_code",
                self.identification.commodity_code.0.is_some(),
            ),
            (
                "compliance_documents",
                !self.compliance_documents.items.is_empty(),
            ),
            ("user_manuals", !self.user_manuals.items.is_empty()),
            (
                "safety_information",
                !self.safety_information.items.is_empty(),
            ),
            ("manufacturer.name", self.manufacturer.name.0.is_some()),
            (
                "manufacturer.operator_id",
                self.manufacturer.operator_id.0.is_some(),
            ),
            (
                "manufacturer.facility_ids",
                !self.manufacturer.facility_ids.is_empty(),
            ),
            ("importer.name", self.importer.name.0.is_some()),
            ("importer.eori", self.importer.eori.0.is_some()),
            (
                "responsible_operator.name",
                self.responsible_operator.name.0.is_some(),
            ),
            (
                "responsible_operator.operator_id",
                self.responsible_operator.operator_id.0.is_some(),
            ),
            ("materials", !self.materials.items.is_empty()),
            ("repair.instructions", self.repair.instructions.0.is_some()),
            (
                "repair.spare_parts_availability",
                self.repair.spare_parts_availability.0.is_some(),
            ),
            (
                "recycling.instructions",
                self.recycling.instructions.0.is_some(),
            ),
            (
                "recycling.recyclability",
                self.recycling.recyclability.0.is_some(),
            ),
        ]
    }

    /// The share of counted fields that are filled, 0 to 100, rounded down
    /// (100 only when every one is).
    pub fn completeness(&self) -> i16 {
        let fields = self.counted_fields();
        let filled = fields.iter().filter(|(_, f)| *f).count();
        (filled * 100 / fields.len()) as i16
    }

    /// The document as it is stored (the API's JSON).
    pub fn to_stored(&self) -> serde_json::Value {
        self.to_json().unwrap_or_default()
    }

    /// A stored document read back.
    pub fn from_stored(value: serde_json::Value) -> Result<Self, ApiError> {
        Self::parse_from_json(Some(value)).map_err(|e| {
            ApiError::internal(anyhow::anyhow!("stored passport: {}", e.into_message()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cas_numbers_and_their_check_digit() {
        for good in [
            "7732-18-5",
            "50-00-0",
            "1333-86-4",
            "7440-43-9",
            "10043-35-3",
        ] {
            assert!(CasNumber::parse("cas", good).is_ok(), "{good}");
        }
        for bad in [
            "7732-18-4",
            "07732-18-5",
            "7-18-5",
            "7732-1-5",
            "7732185",
            "12345678-12-3",
            "7732-18-5 ",
        ] {
            assert!(CasNumber::parse("cas", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn eori_commodity_codes_and_links() {
        for good in ["DE123456789012345", "GB1", "FR12AB"] {
            assert!(Eori::parse("eori", good).is_ok(), "{good}");
        }
        for bad in [
            "D1234",
            "de123",
            "DE",
            "DE1234567890123456",
            "DE 123",
            "DE12-3",
        ] {
            assert!(Eori::parse("eori", bad).is_err(), "{bad}");
        }
        for good in ["640399", "64039991", "6403999100"] {
            assert!(CommodityCode::parse("c", good).is_ok());
        }
        for bad in ["6403", "6403.99", "6403999", "64039991000"] {
            assert!(CommodityCode::parse("c", bad).is_err(), "{bad}");
        }
        for good in [
            "https://example.com",
            "https://docs.example.com:8443/a/b.pdf?x=1&y=%20#p",
            "https://a",
        ] {
            assert!(HttpsUrl::parse("u", good).is_ok(), "{good}");
        }
        for bad in [
            "http://example.com",
            "javascript:alert(1)",
            "https://",
            "https://-x.com",
            "https://x.com/a b",
            "https://x.com/<script>",
            "https://x.com:/",
            "https://x.com:123456",
            "https://x.com\"onmouseover=1",
            "https://user@x.com",
        ] {
            assert!(HttpsUrl::parse("u", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn completeness_counts_17_fields() {
        let empty = PassportData::default();
        assert_eq!(empty.completeness(), 0);
        let mut p = PassportData::default();
        p.importer.name = Optional(Some(Text::new("Importer")));
        assert_eq!(p.completeness(), 5); // 1 of 17, rounded down
    }
}
