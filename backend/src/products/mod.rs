//! Products: what a brand registers before it generates codes for them.
//!
//! - `mod.rs`: the product and the rules of its fields (GTIN with its check
//!   digit, SKU id, name, category, description);
//! - `api.rs`: the spec's list call and the REST operations;
//! - `transfer.rs`: the rules of CSV import files and of the export;
//! - `store.rs`: the SQL of `products` (tenant schema) and the calls of the
//!   platform's GTIN registry and product limit (`platform.tenant_*`).
//!
//! A product lives in its tenant's schema; its GTIN is also claimed in the
//! platform's registry (`platform.gtins`), so no two tenants can use it and
//! a scan can find its tenant. Deleting a product archives it.

pub mod api;
pub mod store;
pub mod transfer;

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use poem_openapi::registry::MetaSchema;
use uuid::Uuid;

use crate::gs1::{self, NumberError};
use crate::http::error::ApiError;
use crate::http::input::{IsoDate, Text, TextRule, plain_name};
use crate::trimmed_plain_text_pattern;

/// A product as the API shows it: the spec's fields, then ours.
#[derive(Object, Debug, sqlx::FromRow)]
pub struct Product {
    pub id: Uuid,
    pub product_name: String,
    pub skuid: String,
    /// GTIN-14 (a GTIN-8, -12 or -13 given is stored zero-padded).
    pub gtin: String,
    pub category: String,
    pub image_urls: Vec<String>,
    /// The spec's `metadata`: the attributes as one object, name → value
    /// (a date as its ISO text), kept by the database from `attributes`.
    pub metadata: serde_json::Value,
    /// Typed attributes, in the order given.
    pub attributes: Attributes,
    pub product_description: String,
    /// The spec's sample code: the GS1 Digital Link URI (what its QR code
    /// holds) of the first code of the product's first code job to finish;
    /// absent until one has.
    #[oai(skip_serializing_if_is_none)]
    pub sample_qr_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// When it was deleted (archived); absent while it is active.
    #[oai(skip_serializing_if_is_none)]
    pub archived_at: Option<DateTime<Utc>>,
    /// The company of the organisation it belongs to (clients that operate
    /// several companies, issue 10); absent when none.
    #[oai(skip_serializing_if_is_none)]
    pub company_id: Option<Uuid>,
    /// Its received and manufactured lots start in `quarantine`, released
    /// by a passing inspection or a decision with a reason.
    pub requires_inspection: bool,
    /// The unit its quantities are counted in (`each`, `kg`, `l`, `m`, …).
    pub unit: String,
}

/// An attribute's name: 1 to 60 characters once trimmed, plain text.
pub struct AttributeName;

impl TextRule for AttributeName {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(58).into());
    }
}

/// A text attribute's value: up to 500 characters, no control characters.
pub struct AttributeText;

impl TextRule for AttributeText {
    fn limits(schema: &mut MetaSchema) {
        schema.max_length = Some(500);
        schema.pattern = Some(concat!("^[^", crate::control_class!(), "]*$").into());
    }
}

#[derive(Object, Clone, Debug)]
pub struct TextAttribute {
    pub name: Text<AttributeName>,
    pub value: Text<AttributeText>,
}

#[derive(Object, Clone, Debug)]
pub struct NumberAttribute {
    pub name: Text<AttributeName>,
    pub value: f64,
}

#[derive(Object, Clone, Debug)]
pub struct BooleanAttribute {
    pub name: Text<AttributeName>,
    pub value: bool,
}

#[derive(Object, Clone, Debug)]
pub struct DateAttribute {
    pub name: Text<AttributeName>,
    pub value: IsoDate,
}

/// A typed attribute of a product (net weight: number 500; vegan: boolean
/// true; best before: date), told apart by `type`.
#[derive(poem_openapi::Union, Clone, Debug)]
#[oai(discriminator_name = "type", one_of)]
pub enum Attribute {
    #[oai(mapping = "text")]
    Text(TextAttribute),
    #[oai(mapping = "number")]
    Number(NumberAttribute),
    #[oai(mapping = "boolean")]
    Boolean(BooleanAttribute),
    #[oai(mapping = "date")]
    Date(DateAttribute),
}

/// An attribute as the database keeps it (one element of the JSON array).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum StoredAttribute {
    Text {
        name: String,
        value: String,
    },
    Number {
        name: String,
        value: f64,
    },
    Boolean {
        name: String,
        value: bool,
    },
    Date {
        name: String,
        value: chrono::NaiveDate,
    },
}

/// The most attributes a product may have.
pub const MAX_ATTRIBUTES: usize = 50;

impl Attribute {
    fn name(&self) -> &str {
        match self {
            Self::Text(a) => a.name.as_str(),
            Self::Number(a) => a.name.as_str(),
            Self::Boolean(a) => a.name.as_str(),
            Self::Date(a) => a.name.as_str(),
        }
    }

    fn stored(&self, name: String) -> StoredAttribute {
        match self {
            Self::Text(a) => StoredAttribute::Text {
                name,
                value: a.value.as_str().to_string(),
            },
            Self::Number(a) => StoredAttribute::Number {
                name,
                value: a.value,
            },
            Self::Boolean(a) => StoredAttribute::Boolean {
                name,
                value: a.value,
            },
            Self::Date(a) => StoredAttribute::Date {
                name,
                value: a.value.0,
            },
        }
    }
}

impl From<StoredAttribute> for Attribute {
    fn from(s: StoredAttribute) -> Self {
        match s {
            StoredAttribute::Text { name, value } => Self::Text(TextAttribute {
                name: Text::new(name),
                value: Text::new(value),
            }),
            StoredAttribute::Number { name, value } => Self::Number(NumberAttribute {
                name: Text::new(name),
                value,
            }),
            StoredAttribute::Boolean { name, value } => Self::Boolean(BooleanAttribute {
                name: Text::new(name),
                value,
            }),
            StoredAttribute::Date { name, value } => Self::Date(DateAttribute {
                name: Text::new(name),
                value: IsoDate(value),
            }),
        }
    }
}

/// A product's attributes: a JSON array in the database, a list in the API.
#[derive(poem_openapi::NewType, Clone, Debug, Default)]
#[oai(from_parameter = false, from_multipart = false, to_header = false)]
pub struct Attributes(pub Vec<Attribute>);

impl Attributes {
    /// Checks a whole list (names, text values, finite numbers, at most 50,
    /// names unique whatever the case) and answers it as stored, as JSON.
    pub fn parse(list: &[Attribute]) -> Result<serde_json::Value, ApiError> {
        if list.len() > MAX_ATTRIBUTES {
            return Err(ApiError::invalid_input(
                "A product has at most 50 attributes.",
            ));
        }
        let mut names: Vec<String> = Vec::new();
        let mut stored = Vec::new();
        for attribute in list {
            let name = attribute.name().trim();
            if name.is_empty() || name.chars().count() > 60 {
                return Err(ApiError::invalid_input(
                    "An attribute's name is required (60 characters at most).",
                ));
            }
            plain_name("An attribute's name", name)?;
            if names.contains(&name.to_lowercase()) {
                return Err(ApiError::invalid_input(format!(
                    "Two attributes are named '{name}'."
                )));
            }
            names.push(name.to_lowercase());
            match attribute {
                Attribute::Text(a) => {
                    let v = a.value.as_str();
                    if a.value.get().is_none()
                        || v.chars().count() > 500
                        || v.chars().any(char::is_control)
                    {
                        return Err(ApiError::invalid_input(format!(
                            "The attribute '{name}' must be text of at most 500 characters, without control characters."
                        )));
                    }
                }
                Attribute::Number(a) if !a.value.is_finite() => {
                    return Err(ApiError::invalid_input(format!(
                        "The attribute '{name}' must be a number."
                    )));
                }
                _ => {}
            }
            stored.push(attribute.stored(name.to_string()));
        }
        serde_json::to_value(stored).map_err(ApiError::internal)
    }
}

impl sqlx::Type<sqlx::Postgres> for Attributes {
    fn type_info() -> sqlx::postgres::PgTypeInfo {
        <serde_json::Value as sqlx::Type<sqlx::Postgres>>::type_info()
    }
    fn compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
        <serde_json::Value as sqlx::Type<sqlx::Postgres>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, sqlx::Postgres> for Attributes {
    fn decode(value: sqlx::postgres::PgValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        let sqlx::types::Json(list) = <sqlx::types::Json<Vec<StoredAttribute>> as sqlx::Decode<
            sqlx::Postgres,
        >>::decode(value)?;
        Ok(Self(list.into_iter().map(Attribute::from).collect()))
    }
}

/// A GTIN: 8, 12, 13 or 14 digits whose last is the GS1 check digit; kept as
/// GTIN-14.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gtin(String);

impl Gtin {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        match gs1::gtin14(raw) {
            Ok(gtin14) => Ok(Self(gtin14)),
            Err(NumberError::Shape) => Err(ApiError::invalid_input(
                "gtin must be 8, 12, 13 or 14 digits.",
            )),
            Err(NumberError::CheckDigit) => Err(ApiError::invalid_input(
                "gtin has a wrong check digit: check the number on the product's barcode.",
            )),
        }
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for Gtin {
    fn limits(schema: &mut MetaSchema) {
        // The check digit cannot be said in a pattern: a GTIN with a wrong
        // one is a 400 that says so.
        schema.pattern = Some("^(?:[0-9]{8}|[0-9]{12,14})$".into());
        schema.description = Some(
            "A GTIN-8, -12, -13 or -14. Its last digit is the GS1 check digit: from the \
             right, the other digits weighted 3, 1, 3, 1, …, summed; the check digit \
             brings the sum up to a multiple of 10.",
        );
    }
}

/// A SKU id: 1 to 64 letters, digits, `.`, `_`, `/` or `-`, starting with a
/// letter or digit; unique in the organisation, whatever the case.
#[derive(Clone, Debug)]
pub struct Skuid(String);

pub const SKUID_PATTERN: &str = "^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$";

impl Skuid {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let ok = (1..=64).contains(&raw.len())
            && raw.starts_with(|c: char| c.is_ascii_alphanumeric())
            && raw
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-'));
        if !ok {
            return Err(ApiError::invalid_input(
                "skuid must be 1 to 64 letters, digits, '.', '_', '/' or '-', starting with a letter or digit.",
            ));
        }
        Ok(Self(raw.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for Skuid {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(SKUID_PATTERN.into());
    }
}

/// A product's name: 1 to 200 characters once trimmed, plain text.
#[derive(Clone, Debug)]
pub struct ProductName(String);

impl ProductName {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let name = raw.trim();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(ApiError::invalid_input(
                "product_name is required (200 characters at most).",
            ));
        }
        plain_name("product_name", name)?;
        Ok(Self(name.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for ProductName {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(198).into());
    }
}

/// A category: 1 to 100 characters once trimmed, plain text.
#[derive(Clone, Debug)]
pub struct Category(String);

impl Category {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let category = raw.trim();
        if category.is_empty() || category.chars().count() > 100 {
            return Err(ApiError::invalid_input(
                "category must be 1 to 100 characters (leave it out for none).",
            ));
        }
        plain_name("category", category)?;
        Ok(Self(category.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for Category {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some(trimmed_plain_text_pattern!(98).into());
    }
}

/// A description: up to 5000 characters, line breaks and tabs allowed, no
/// other control characters.
#[derive(Clone, Debug)]
pub struct Description(String);

pub const DESCRIPTION_MAX: usize = 5000;

impl Description {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        if raw.chars().count() > DESCRIPTION_MAX {
            return Err(ApiError::invalid_input(
                "product_description is too long (5000 characters at most).",
            ));
        }
        if raw
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        {
            return Err(ApiError::invalid_input(
                "product_description must not contain control characters other than line breaks and tabs.",
            ));
        }
        Ok(Self(raw.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for Description {
    fn limits(schema: &mut MetaSchema) {
        schema.max_length = Some(DESCRIPTION_MAX);
        schema.pattern = Some(r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$".into());
    }
}

/// A unit of measure: 1 to 16 characters, a lower-case letter then
/// lower-case letters, digits or `_` (`each`, `kg`, `g`, `l`, `ml`, `m`,
/// `box_of_10`).
#[derive(Clone, Debug)]
pub struct Unit(String);

impl Unit {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let mut chars = raw.chars();
        let ok = chars.next().is_some_and(|c| c.is_ascii_lowercase())
            && raw.len() <= 16
            && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !ok {
            return Err(ApiError::invalid_input(
                "unit must be 1 to 16 characters: a lower-case letter, then lower-case letters, digits or _ (each, kg, l, m).",
            ));
        }
        Ok(Self(raw.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TextRule for Unit {
    fn limits(schema: &mut MetaSchema) {
        schema.pattern = Some("^[a-z][a-z0-9_]{0,15}$".into());
    }
}

crate::text_parser!(Gtin, Skuid, ProductName, Category, Description, Unit);

/// The image types a product may have, recognised by their content (never
/// by a file name or a declared type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Webp,
}

/// The largest image a product may have, in bytes.
pub const IMAGE_MAX_BYTES: usize = 5 * 1024 * 1024;
/// The most images a product may have.
pub const IMAGES_PER_PRODUCT: usize = 10;
/// The widest or tallest image, in pixels.
const IMAGE_MAX_SIDE: usize = 12_000;

impl ImageKind {
    /// Checks an uploaded file: a PNG, JPEG or WebP whose header reads
    /// through to its dimensions, within the size limits.
    pub fn check(bytes: &[u8]) -> Result<Self, ApiError> {
        if bytes.is_empty() {
            return Err(ApiError::invalid_input("The file is empty."));
        }
        if bytes.len() > IMAGE_MAX_BYTES {
            return Err(ApiError::new(
                poem::http::StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                "The image is larger than 5 MB. Make it smaller and try again.",
            ));
        }
        let kind = match imagesize::image_type(bytes) {
            Ok(imagesize::ImageType::Png) => Self::Png,
            Ok(imagesize::ImageType::Jpeg) => Self::Jpeg,
            Ok(imagesize::ImageType::Webp) => Self::Webp,
            _ => {
                return Err(ApiError::new(
                    poem::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "unsupported_image",
                    "Only PNG, JPEG and WebP images can be added.",
                ));
            }
        };
        match imagesize::blob_size(bytes) {
            Ok(size) if size.width > 0 && size.height > 0 => {
                if size.width > IMAGE_MAX_SIDE || size.height > IMAGE_MAX_SIDE {
                    return Err(ApiError::invalid_input(
                        "The image is more than 12000 pixels wide or tall.",
                    ));
                }
                Ok(kind)
            }
            _ => Err(ApiError::invalid_input(
                "The image is damaged: its header cannot be read.",
            )),
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Jpeg => "jpg",
            Self::Webp => "webp",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Webp => "image/webp",
        }
    }

    pub fn from_extension(ext: &str) -> Option<Self> {
        match ext {
            "png" => Some(Self::Png),
            "jpg" => Some(Self::Jpeg),
            "webp" => Some(Self::Webp),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtins_are_checked_and_padded_to_14_digits() {
        // Real-world style examples with valid check digits.
        assert_eq!(Gtin::parse("96385074").unwrap().as_str(), "00000096385074");
        assert_eq!(
            Gtin::parse("036000291452").unwrap().as_str(),
            "00036000291452"
        );
        assert_eq!(
            Gtin::parse("4006381333931").unwrap().as_str(),
            "04006381333931"
        );
        assert_eq!(
            Gtin::parse("10614141000415").unwrap().as_str(),
            "10614141000415"
        );
        for bad in [
            "4006381333932",
            "1234567",
            "123456789",
            "40063813339a1",
            "",
            "０４００６３８１３３３９３１",
        ] {
            assert!(Gtin::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn skuids_names_and_descriptions() {
        assert!(Skuid::parse("SKU-1/a_b.c").is_ok());
        for bad in ["", "-x", "a b", "é", &"x".repeat(65)] {
            assert!(Skuid::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            ProductName::parse("  Cola 1L ").unwrap().as_str(),
            "Cola 1L"
        );
        assert!(ProductName::parse("a\u{202e}b").is_err());
        assert!(Description::parse("line\nnext\ttab").is_ok());
        assert!(Description::parse("nul\0").is_err());
        assert!(Description::parse(&"x".repeat(5001)).is_err());
    }
}
