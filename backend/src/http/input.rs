//! Rules for every piece of text a person sends, whatever the field: no
//! control characters (NUL, the C0 and C1 sets, DEL), and in names and
//! emails no text-direction marks or overrides either, which can make one
//! name look like another. PostgreSQL refuses NUL in text, so without this a
//! NUL byte became a 500; now it is a 400 that names the field.
//!
//! [`Text`] is how a request's text field is received: a JSON string and
//! nothing else, whose schema in the contract carries its rule's limits
//! (length, pattern, enum, format) so that a client, and schemathesis, know
//! exactly which values the server accepts. The handler still checks the
//! value with the rule's own parser, whose messages a person reads.

use std::borrow::Cow;
use std::marker::PhantomData;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{
    ParseError, ParseFromJSON, ParseFromParameter, ParseResult, ToJSON, Type,
};
use serde_json::Value;

use crate::http::error::ApiError;

/// Character classes for the contract's patterns, spelled out so that they
/// mean the same to every regex engine (ECMA-262 in clients, Rust, Python):
/// Rust's `char::is_whitespace` (what `str::trim` removes), `char::is_control`
/// (the C0 and C1 sets and DEL) and [`is_direction_mark`].
#[macro_export]
macro_rules! whitespace_class {
    () => {
        r"\t-\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
    };
}
#[macro_export]
macro_rules! control_class {
    () => {
        r"\x00-\x1f\x7f-\x9f"
    };
}
#[macro_export]
macro_rules! direction_mark_class {
    () => {
        r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    };
}
/// Characters that show nothing: format characters and Unicode's other
/// default-ignorable ones (soft hyphen, zero-width space and joiners, word
/// joiner, invisible operators, fillers, variation selectors, the byte-order
/// mark). [`is_invisible`] is the same set.
#[macro_export]
macro_rules! invisible_class {
    () => {
        r"\xad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u206a-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
    };
}

/// A pattern for text that is trimmed, then must be 1 to `$max` characters
/// (a literal, and `$inner` = `$max` - 2) without control characters or
/// text-direction marks, beginning and ending with a character that shows:
/// names of people and organisations ([`plain_name`]'s rule).
#[macro_export]
macro_rules! trimmed_plain_text_pattern {
    ($inner:literal) => {
        concat!(
            "^[",
            $crate::whitespace_class!(),
            "]*",
            "(?:[^",
            $crate::whitespace_class!(),
            $crate::control_class!(),
            $crate::direction_mark_class!(),
            $crate::invisible_class!(),
            "]",
            "(?:[^",
            $crate::control_class!(),
            $crate::direction_mark_class!(),
            "]{0,",
            stringify!($inner),
            "}",
            "[^",
            $crate::whitespace_class!(),
            $crate::control_class!(),
            $crate::direction_mark_class!(),
            $crate::invisible_class!(),
            "])?)",
            "[",
            $crate::whitespace_class!(),
            "]*$"
        )
    };
}

/// What a text field of a request must be, as the contract shows it: the
/// limits of its schema. The type that parses the value (`Email`,
/// `PersonName`, …) implements it next to its parser, so the two are read
/// and changed together (and unit-tested against each other).
pub trait TextRule: Send + Sync + 'static {
    /// Adds the rule's limits to a `type: string` schema.
    fn limits(schema: &mut MetaSchema);
}

/// A rule that is also the text's parser, so that a handler gets the value
/// with [`Text::parse`] and never takes the text out to parse it by hand:
/// the rule's type (`Email`, `OrganisationName`) or another (`DryRun` gives
/// a `bool`).
pub trait ParseText: TextRule {
    /// What the text becomes.
    type Output;
    /// Parses the text ("" when the field was missing, which the parser
    /// refuses with its "… is required." message).
    fn parse_text(raw: &str) -> Result<Self::Output, ApiError>;
}

/// A rule shared by fields of different names (`ShortText`, `Location`),
/// whose parser names the field in its messages: [`Text::parse_as`].
pub trait ParseTextAs: TextRule {
    /// What the text becomes.
    type Output;
    /// Parses the text of the field `field`.
    fn parse_text_as(field: &str, raw: &str) -> Result<Self::Output, ApiError>;
}

/// Makes each type's own `parse` its `Text`'s parser: `text_parser!(Email,
/// PersonName)` for `parse(raw) -> Result<Self, ApiError>`, and
/// `text_parser!(field: ShortText => String)` for `parse(field, raw) ->
/// Result<String, ApiError>` (a rule whose messages name the field).
#[macro_export]
macro_rules! text_parser {
    (field: $($rule:ty => $output:ty),+ $(,)?) => {
        $(
            impl $crate::http::input::ParseTextAs for $rule {
                type Output = $output;
                fn parse_text_as(
                    field: &str,
                    raw: &str,
                ) -> Result<$output, $crate::http::error::ApiError> {
                    <$rule>::parse(field, raw)
                }
            }
        )+
    };
    ($($rule:ty),+ $(,)?) => {
        $(
            impl $crate::http::input::ParseText for $rule {
                type Output = Self;
                fn parse_text(raw: &str) -> Result<Self, $crate::http::error::ApiError> {
                    Self::parse(raw)
                }
            }
        )+
    };
}

/// Any string at all: no limits beyond being a string.
pub struct AnyText;

impl TextRule for AnyText {
    fn limits(_: &mut MetaSchema) {}
}

/// A text field of a request: a JSON string (poem-openapi's `String` also
/// takes numbers and booleans, so `{"name": false}` renamed an organisation
/// to "false"), or nothing when it is missing, which the handler's parser
/// then refuses with its "... is required." message; null is refused like
/// any other non-string. Required in the contract; `Optional<Text<R>>` for
/// an optional field.
pub struct Text<R> {
    value: Option<String>,
    rule: PhantomData<R>,
}

impl<R> Text<R> {
    pub fn new(value: impl Into<String>) -> Self {
        Self {
            value: Some(value.into()),
            rule: PhantomData,
        }
    }

    /// The text, or "" when it was missing.
    pub fn as_str(&self) -> &str {
        self.value.as_deref().unwrap_or_default()
    }

    /// The text, or None when it was missing or null.
    pub fn get(&self) -> Option<&str> {
        self.value.as_deref()
    }
}

impl<R: ParseText> Text<R> {
    /// The value, as the rule's parser reads the text (a 400 with its
    /// message otherwise).
    pub fn parse(&self) -> Result<R::Output, ApiError> {
        R::parse_text(self.as_str())
    }
}

impl<R: ParseTextAs> Text<R> {
    /// The value of the field `field` (named in the parser's messages).
    pub fn parse_as(&self, field: &str) -> Result<R::Output, ApiError> {
        R::parse_text_as(field, self.as_str())
    }
}

impl<R> std::fmt::Debug for Text<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Passwords are Text too: never printed.
        f.write_str("Text(..)")
    }
}

impl<R> Clone for Text<R> {
    fn clone(&self) -> Self {
        Self {
            value: self.value.clone(),
            rule: PhantomData,
        }
    }
}

impl<R: TextRule> Type for Text<R> {
    const IS_REQUIRED: bool = true;
    type RawValueType = String;
    type RawElementValueType = String;

    fn name() -> Cow<'static, str> {
        "string".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        let mut schema = MetaSchema::new("string");
        R::limits(&mut schema);
        MetaSchemaRef::Inline(Box::new(schema))
    }

    fn as_raw_value(&self) -> Option<&String> {
        self.value.as_ref()
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a String> + 'a> {
        Box::new(self.value.iter())
    }
}

impl<R: TextRule> ParseFromJSON for Text<R> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            None => Ok(Self {
                value: None,
                rule: PhantomData,
            }),
            Some(Value::String(s)) => Ok(Self::new(s)),
            Some(other) => Err(ParseError::expected_type(other)),
        }
    }
}

impl<R: TextRule> ParseFromParameter for Text<R> {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        Ok(Self::new(value))
    }
}

impl<R: TextRule> ToJSON for Text<R> {
    fn to_json(&self) -> Option<Value> {
        self.value.clone().map(Value::String)
    }
}

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

/// Whether `c` shows nothing ([`invisible_class!`]'s set).
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200d}'
            | '\u{2060}'..='\u{2064}'
            | '\u{206a}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
    )
}

/// The rule of every name field (a person's, an organisation's, a
/// template's, a company's, a product's...), applied to the name once
/// trimmed: [`plain_text`], and it begins and ends with a character that
/// shows, so that no name is made of zero-width or other invisible
/// characters alone. Its pattern in the contract is
/// `trimmed_plain_text_pattern!`, which says the same.
pub fn plain_name(field: &str, trimmed: &str) -> Result<(), ApiError> {
    plain_text(field, trimmed)?;
    let edges = [trimmed.chars().next(), trimmed.chars().next_back()];
    if edges.into_iter().flatten().any(is_invisible) {
        return Err(ApiError::invalid_input(format!(
            "{field} must begin and end with a visible character (not a zero-width or other invisible one)."
        )));
    }
    Ok(())
}

/// The JSON pointer (RFC 6901) of the first string or key in `value` that
/// holds a NUL character (`\u0000`), which PostgreSQL's `jsonb` and `text`
/// cannot store: a JSON document taken as it is (an EPCIS capture) is
/// checked with it and refused with a 400 naming the field, never a 500.
pub fn nul_in_json(value: &serde_json::Value) -> Option<String> {
    fn escape(key: &str) -> String {
        key.replace('~', "~0").replace('/', "~1")
    }
    match value {
        serde_json::Value::String(s) if s.contains('\0') => Some(String::new()),
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| nul_in_json(v).map(|p| format!("/{i}{p}"))),
        serde_json::Value::Object(map) => map.iter().find_map(|(k, v)| {
            if k.contains('\0') {
                return Some(format!("/{}", escape(k)));
            }
            nul_in_json(v).map(|p| format!("/{}{p}", escape(k)))
        }),
        _ => None,
    }
}

/// An optional field of a request: absent means None, and null is refused
/// as the contract says (its schema is not nullable). poem-openapi's
/// `Option` takes null for absent, which the contract does not allow.
pub struct Optional<T>(pub Option<T>);

impl<T> Optional<T> {
    pub fn as_ref(&self) -> Option<&T> {
        self.0.as_ref()
    }
}

impl<R: ParseText> Optional<Text<R>> {
    /// The value when the field is there, parsed as [`Text::parse`] does.
    pub fn parse(&self) -> Result<Option<R::Output>, ApiError> {
        self.0.as_ref().map(Text::parse).transpose()
    }
}

impl<R: ParseTextAs> Optional<Text<R>> {
    /// The value when the field is there, parsed as [`Text::parse_as`] does.
    pub fn parse_as(&self, field: &str) -> Result<Option<R::Output>, ApiError> {
        self.0.as_ref().map(|t| t.parse_as(field)).transpose()
    }
}

/// Absent (sections of a document default to empty).
impl<T> Default for Optional<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<T> std::fmt::Debug for Optional<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Optional(Some(..))"
        } else {
            "Optional(None)"
        })
    }
}

impl<T: Type> Type for Optional<T> {
    const IS_REQUIRED: bool = false;
    type RawValueType = T::RawValueType;
    type RawElementValueType = T::RawElementValueType;

    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut poem_openapi::registry::Registry) {
        T::register(registry);
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        self.0.as_ref().and_then(Type::as_raw_value)
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        match &self.0 {
            Some(value) => value.raw_element_iter(),
            None => Box::new(std::iter::empty()),
        }
    }
}

impl<T: ParseFromJSON> ParseFromJSON for Optional<T> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            None => Ok(Self(None)),
            Some(value) => T::parse_from_json(Some(value))
                .map(|v| Self(Some(v)))
                .map_err(ParseError::propagate),
        }
    }
}

impl<T: ToJSON> ToJSON for Optional<T> {
    fn to_json(&self) -> Option<Value> {
        self.0.as_ref().and_then(ToJSON::to_json)
    }
}

/// A part of a document that may be left out (then it is `T::default()`,
/// e.g. an empty section) but, as the contract says (its schema is not
/// nullable), is never null. Reads as a `T`.
#[derive(Debug, Default, Clone)]
pub struct OrDefault<T>(pub T);

impl<T> std::ops::Deref for OrDefault<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::ops::DerefMut for OrDefault<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<'a, T> IntoIterator for &'a OrDefault<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;
    fn into_iter(self) -> Self::IntoIter {
        (&self.0).into_iter()
    }
}

impl<A, T: FromIterator<A>> FromIterator<A> for OrDefault<T> {
    fn from_iter<I: IntoIterator<Item = A>>(iter: I) -> Self {
        Self(T::from_iter(iter))
    }
}

impl<T: Type + ToJSON + Default> Type for OrDefault<T> {
    const IS_REQUIRED: bool = false;
    type RawValueType = T::RawValueType;
    type RawElementValueType = T::RawElementValueType;

    fn name() -> Cow<'static, str> {
        T::name()
    }

    /// T's schema with its default, as `#[oai(default)]` says it.
    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref().merge(MetaSchema {
            default: T::default().to_json(),
            ..MetaSchema::ANY
        })
    }

    fn register(registry: &mut poem_openapi::registry::Registry) {
        T::register(registry);
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        self.0.as_raw_value()
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        self.0.raw_element_iter()
    }
}

impl<T: ParseFromJSON + ToJSON + Default> ParseFromJSON for OrDefault<T> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            None => Ok(Self(T::default())),
            Some(value) => T::parse_from_json(Some(value))
                .map(Self)
                .map_err(ParseError::propagate),
        }
    }
}

impl<T: ToJSON + Default> ToJSON for OrDefault<T> {
    fn to_json(&self) -> Option<Value> {
        self.0.to_json()
    }
}

/// The poem-openapi side of a date type `$t` (a `NaiveDate` newtype with a
/// `parse_text`): a `format: date` string named `$name` in the contract,
/// with `$pattern` when given, read from and written as `YYYY-MM-DD`.
macro_rules! date_type {
    ($t:ident, $name:literal, $pattern:expr) => {
        impl Type for $t {
            const IS_REQUIRED: bool = true;
            type RawValueType = Self;
            type RawElementValueType = Self;

            fn name() -> Cow<'static, str> {
                $name.into()
            }

            fn schema_ref() -> MetaSchemaRef {
                let mut schema = MetaSchema::new_with_format("string", "date");
                schema.pattern = $pattern.map(|p: &str| p.to_string());
                MetaSchemaRef::Inline(Box::new(schema))
            }

            fn as_raw_value(&self) -> Option<&Self> {
                Some(self)
            }

            fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
                Box::new(std::iter::once(self))
            }
        }

        impl ParseFromJSON for $t {
            fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
                match value {
                    Some(Value::String(s)) => Self::parse_text(&s),
                    Some(other) => Err(ParseError::expected_type(other)),
                    None => Err(ParseError::expected_input()),
                }
            }
        }

        impl ToJSON for $t {
            fn to_json(&self) -> Option<Value> {
                Some(Value::String(self.0.format("%Y-%m-%d").to_string()))
            }
        }
    };
}

/// A calendar date, `YYYY-MM-DD`, in the contract as JSON Schema's standard
/// `format: date` (poem-openapi's `NaiveDate` says `naive-date`, which no
/// client or fuzzer knows, so any string looked valid).
///
/// It is also a column type (`#[sqlx(transparent)]`), so an answer built
/// from a row declares its dates as `format: date` too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, sqlx::Type)]
#[serde(transparent)]
#[sqlx(transparent)]
pub struct IsoDate(pub chrono::NaiveDate);

date_type!(IsoDate, "string_date", None);

impl IsoDate {
    fn parse_text(s: &str) -> ParseResult<Self> {
        chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .ok()
            .filter(|_| s.len() == 10)
            .map(Self)
            .ok_or_else(|| ParseError::custom(format!("'{s}' is not a date written YYYY-MM-DD")))
    }
}

impl std::fmt::Display for IsoDate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.format("%Y-%m-%d").fmt(f)
    }
}

/// A date in a query (`?from=2026-01-31`).
impl ParseFromParameter for IsoDate {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        Self::parse_text(value)
    }
}

/// A lot's date (GS1 AI 11 date of manufacture, AI 17 expiry), which a
/// barcode writes `YYMMDD`: `YYYY-MM-DD` with a year from 2000 to 2099, so
/// every lot registered can be printed. The contract says the year range by
/// a pattern beside `format: date`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LotDate(pub chrono::NaiveDate);

impl LotDate {
    fn parse_text(s: &str) -> ParseResult<Self> {
        let IsoDate(date) = IsoDate::parse_text(s).map_err(ParseError::propagate)?;
        if !(2000..=2099).contains(&chrono::Datelike::year(&date)) {
            return Err(ParseError::custom(format!(
                "'{s}' cannot be printed in a GS1 barcode, which writes the year with two digits: give a date in the years 2000 to 2099"
            )));
        }
        Ok(Self(date))
    }
}

date_type!(
    LotDate,
    "string_lot_date",
    Some(r"^20[0-9]{2}-[0-9]{2}-[0-9]{2}$")
);

/// The id of a thing in a request path: a UUID. A malformed one is
/// received as no id, so that the handler answers it with the same 404 as an
/// unknown one (`id.or(not_found)`): a caller learns nothing from the
/// difference.
pub struct PathId(Option<uuid::Uuid>);

impl PathId {
    /// The id, or `missing()` when it was not a UUID.
    pub fn or(&self, missing: impl FnOnce() -> ApiError) -> Result<uuid::Uuid, ApiError> {
        self.0.ok_or_else(missing)
    }
}

impl Type for PathId {
    const IS_REQUIRED: bool = true;
    type RawValueType = uuid::Uuid;
    type RawElementValueType = uuid::Uuid;

    fn name() -> Cow<'static, str> {
        "string_uuid".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema::new_with_format("string", "uuid")))
    }

    fn as_raw_value(&self) -> Option<&uuid::Uuid> {
        self.0.as_ref()
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a uuid::Uuid> + 'a> {
        Box::new(self.0.iter())
    }
}

impl ParseFromParameter for PathId {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        Ok(Self(uuid::Uuid::parse_str(value).ok()))
    }
}

/// A calendar day in a JSON body, `YYYY-MM-DD` (`format: date`), received
/// as text so that the handler's own checks name the field and the row in
/// their messages (a manufacturing date in the future, an expiry before it).
pub struct Day;

impl TextRule for Day {
    fn limits(schema: &mut MetaSchema) {
        schema.format = Some("date");
    }
}

/// `dry_run`: exactly `true` or `false` (the imports' query parameter).
pub struct DryRun;

impl TextRule for DryRun {
    fn limits(schema: &mut MetaSchema) {
        schema.enum_items = vec!["true".into(), "false".into()];
    }
}

/// The parameter's value; a 400 for anything else.
impl ParseText for DryRun {
    type Output = bool;
    fn parse_text(raw: &str) -> Result<bool, ApiError> {
        match raw {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(ApiError::invalid_input("dry_run must be true or false.")),
        }
    }
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

    #[test]
    fn text_parses_with_its_rule() {
        let yes: Text<DryRun> = Text::new("true");
        assert!(yes.parse().unwrap());
        assert!(!Text::<DryRun>::new("false").parse().unwrap());
        let err = Text::<DryRun>::new("maybe").parse().unwrap_err();
        assert_eq!(err.status.as_u16(), 400);
        assert_eq!(err.message, "dry_run must be true or false.");
        // A missing field reaches the parser as "", which it refuses.
        let missing = Text::<DryRun>::parse_from_json(None).unwrap();
        assert!(missing.parse().is_err());
        // An optional field: absent is None, present is parsed.
        assert!(Optional::<Text<DryRun>>(None).parse().unwrap().is_none());
        assert_eq!(
            Optional(Some(Text::<DryRun>::new("true"))).parse().unwrap(),
            Some(true)
        );
        assert!(Optional(Some(Text::<DryRun>::new("TRUE"))).parse().is_err());
    }

    /// A rule of several fields, whose messages name the field.
    struct Word;

    impl TextRule for Word {
        fn limits(_: &mut MetaSchema) {}
    }

    impl ParseTextAs for Word {
        type Output = String;
        fn parse_text_as(field: &str, raw: &str) -> Result<String, ApiError> {
            plain_text(field, raw)?;
            if raw.is_empty() || raw.contains(' ') {
                return Err(ApiError::invalid_input(format!(
                    "{field} must be one word."
                )));
            }
            Ok(raw.to_lowercase())
        }
    }

    #[test]
    fn text_parses_as_a_named_field() {
        assert_eq!(
            Text::<Word>::new("Hello").parse_as("greeting").unwrap(),
            "hello"
        );
        let err = Text::<Word>::new("two words")
            .parse_as("greeting")
            .unwrap_err();
        assert_eq!(err.status.as_u16(), 400);
        assert_eq!(err.message, "greeting must be one word.");
        let err = Optional(Some(Text::<Word>::new("a\u{202e}b")))
            .parse_as("title")
            .unwrap_err();
        assert!(err.message.starts_with("title must not contain"));
        assert_eq!(
            Optional::<Text<Word>>(None).parse_as("title").unwrap(),
            None
        );
    }

    #[test]
    fn a_name_must_show_and_its_pattern_says_so() {
        let pattern = trimmed_plain_text_pattern!(18);
        let schema = serde_json::json!({ "type": "string", "pattern": pattern });
        let matches = jsonschema::validator_for(&schema).unwrap();
        for invisible in [
            "\u{feff}",
            "\u{200b}\u{200b}",
            "\u{2060}",
            "\u{ad}",
            "\u{3164}",
            "\u{fe0f}",
        ] {
            for name in [
                invisible.to_string(),
                format!("{invisible}Bob"),
                format!("Bob{invisible}"),
            ] {
                assert!(plain_name("Name", name.trim()).is_err(), "{name:?}");
                assert!(!matches.is_valid(&serde_json::json!(name)), "{name:?}");
            }
        }
        for name in ["Bob", "Zoë", "A\u{200d}B", "O'Brien & Co", "東京"] {
            assert!(plain_name("Name", name).is_ok(), "{name:?}");
            assert!(matches.is_valid(&serde_json::json!(name)), "{name:?}");
        }
        let err = plain_name("Name", "\u{feff}").unwrap_err();
        assert!(err.message.contains("visible"), "{}", err.message);
        // Every character of the pattern's class is one is_invisible knows,
        // and the other way round (the BMP; the classes list no other plane).
        for c in (0..=0xffff_u32).filter_map(char::from_u32) {
            let alone = c.to_string();
            if c.is_whitespace()
                || c.is_control()
                || c == '\u{61c}'
                || ('\u{200e}'..='\u{200f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
            {
                continue;
            }
            assert_eq!(
                matches.is_valid(&serde_json::json!(alone)),
                !is_invisible(c),
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn nul_characters_are_found_with_their_field() {
        let doc = serde_json::json!({"a": [1, {"ex:note": "a\u{0}b"}], "b": "ok"});
        assert_eq!(nul_in_json(&doc).as_deref(), Some("/a/1/ex:note"));
        let key = serde_json::json!({"x/y": {"k\u{0}": 1}});
        assert_eq!(nul_in_json(&key).as_deref(), Some("/x~1y/k\u{0}"));
        assert_eq!(nul_in_json(&serde_json::json!({"a": ["\u{1}", 2]})), None);
        assert_eq!(
            nul_in_json(&serde_json::json!("\u{0}")).as_deref(),
            Some("")
        );
    }
}
