//! Per-field visibility (ADR 0015). A section's `visibility` is the default
//! of its fields; a field named in the section's `field_visibility` (or an
//! item of a list section with a `visibility` of its own) has that one
//! instead. [`PublicSection`] says, for each section, which fields the
//! public sees, and empties the others.

use std::borrow::Cow;
use std::marker::PhantomData;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde_json::Value;

use super::{
    DocumentsSection, IdentificationSection, ImporterSection, ManufacturerSection,
    MaterialsSection, OperatorSection, PassportData, RecyclingSection, RepairSection,
    SubstancesSection, Visibility,
};
use crate::http::error::ApiError;

/// The single fields of a section, each of which may have a visibility of
/// its own.
pub trait SectionFields: Send + Sync + 'static {
    /// The section's name in the document.
    const SECTION: &'static str;
    /// The contract's name of its `field_visibility` object.
    const SCHEMA: &'static str;
    /// Its fields, as the document names them.
    const FIELDS: &'static [&'static str];
}

/// Per-field exceptions to a section's `visibility`: each field named here
/// is public or restricted whatever the section says; the others have the
/// section's visibility. A name that is no field of the section is kept
/// when the JSON is read, so that [`FieldVisibility::check`] can refuse it
/// with a message naming it (a 400), rather than dropped without a word.
pub struct FieldVisibility<F> {
    /// (field, visibility), in the order of `F::FIELDS`.
    set: Vec<(&'static str, Visibility)>,
    /// Names given that are no field of the section.
    unknown: Vec<String>,
    section: PhantomData<F>,
}

impl<F> Default for FieldVisibility<F> {
    fn default() -> Self {
        Self {
            set: Vec::new(),
            unknown: Vec::new(),
            section: PhantomData,
        }
    }
}

impl<F> Clone for FieldVisibility<F> {
    fn clone(&self) -> Self {
        Self {
            set: self.set.clone(),
            unknown: self.unknown.clone(),
            section: PhantomData,
        }
    }
}

impl<F> std::fmt::Debug for FieldVisibility<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.set.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<F: SectionFields> FieldVisibility<F> {
    /// The visibility of `field` when its section's is `section`.
    pub fn of(&self, field: &str, section: Visibility) -> Visibility {
        debug_assert!(F::FIELDS.contains(&field), "{field} of {}", F::SECTION);
        self.set
            .iter()
            .find(|(name, _)| *name == field)
            .map_or(section, |(_, v)| *v)
    }

    /// Gives `field` (one of `F::FIELDS`) a visibility of its own.
    pub fn set(&mut self, field: &str, visibility: Visibility) {
        let Some(name) = F::FIELDS.iter().find(|f| **f == field) else {
            panic!("{field} is not a field of {}", F::SECTION);
        };
        self.set.retain(|(n, _)| n != name);
        self.set.push((name, visibility));
        self.set
            .sort_by_key(|(n, _)| F::FIELDS.iter().position(|f| f == n));
    }

    /// The fields the public sees when the section's visibility is
    /// `section`.
    pub fn public_fields(&self, section: Visibility) -> Vec<&'static str> {
        F::FIELDS
            .iter()
            .copied()
            .filter(|f| self.of(f, section) == Visibility::Public)
            .collect()
    }

    /// Refuses a name that is no field of the section.
    pub fn check(&self) -> Result<Self, ApiError> {
        if let Some(name) = self.unknown.first() {
            let shown: String = name.chars().take(40).collect();
            return Err(ApiError::invalid_input(format!(
                "{section}.field_visibility names {shown:?}, which is not a field of {section} (its fields: {fields}).",
                section = F::SECTION,
                fields = F::FIELDS.join(", "),
            )));
        }
        Ok(self.clone())
    }
}

impl<F: SectionFields> Type for FieldVisibility<F> {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        F::SCHEMA.into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Reference(F::SCHEMA.to_string())
    }

    fn register(registry: &mut Registry) {
        registry.create_schema::<Self, _>(F::SCHEMA.to_string(), |registry| {
            Visibility::register(registry);
            MetaSchema {
                rust_typename: Some(std::any::type_name::<Self>()),
                description: Some(
                    "The fields whose visibility differs from their section's: each one named \
                     here is public or restricted whatever the section's `visibility` says. A \
                     name that is no field of the section is refused (400).",
                ),
                properties: F::FIELDS
                    .iter()
                    .map(|f| (*f, Visibility::schema_ref()))
                    .collect(),
                ..MetaSchema::new("object")
            }
        });
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        Box::new(self.as_raw_value().into_iter())
    }
}

impl<F: SectionFields> ParseFromJSON for FieldVisibility<F> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        let Some(Value::Object(object)) = value else {
            return Err(ParseError::expected_type(value.unwrap_or_default()));
        };
        let mut out = Self::default();
        for (name, visibility) in object {
            match F::FIELDS.iter().find(|f| **f == name) {
                Some(field) => {
                    let v = Visibility::parse_from_json(Some(visibility))
                        .map_err(ParseError::propagate)?;
                    out.set.push((field, v));
                }
                None => out.unknown.push(name),
            }
        }
        out.set
            .sort_by_key(|(n, _)| F::FIELDS.iter().position(|f| f == n));
        Ok(out)
    }
}

impl<F: SectionFields> ToJSON for FieldVisibility<F> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::Object(
            self.set
                .iter()
                .filter_map(|(name, v)| Some(((*name).to_string(), v.to_json()?)))
                .collect(),
        ))
    }
}

/// What the public sees of a section.
pub trait PublicSection {
    /// The fields (by their names in the document) the public sees; none
    /// when it sees nothing of the section.
    fn public_fields(&self) -> Vec<&'static str>;
    /// Empties every field, and drops every item, the public does not see.
    fn keep_public(&mut self);
    /// The section as JSON (as in the API).
    fn json(&self) -> Option<Value>;
}

/// A section of single fields: its `field_visibility` marker type, and how
/// the public sees it. The fields listed are exactly the section's (a test
/// checks it against the section's JSON).
macro_rules! fields_section {
    ($section:ty, $marker:ident, $name:literal, $schema:literal, [$($field:ident),+ $(,)?]) => {
        /// The fields of the section
        #[doc = concat!("`", $name, "`")]
        /// that may have a visibility of their own.
        pub struct $marker;

        impl SectionFields for $marker {
            const SECTION: &'static str = $name;
            const SCHEMA: &'static str = $schema;
            const FIELDS: &'static [&'static str] = &[$(stringify!($field)),+];
        }

        impl PublicSection for $section {
            fn public_fields(&self) -> Vec<&'static str> {
                self.field_visibility.public_fields(self.visibility)
            }

            fn keep_public(&mut self) {
                $(
                    if self.field_visibility.of(stringify!($field), self.visibility)
                        != Visibility::Public
                    {
                        self.$field = Default::default();
                    }
                )+
            }

            fn json(&self) -> Option<Value> {
                self.to_json()
            }
        }
    };
}

fields_section!(
    IdentificationSection,
    IdentificationFields,
    "identification",
    "IdentificationFieldVisibility",
    [unique_product_id, commodity_code]
);
fields_section!(
    ManufacturerSection,
    ManufacturerFields,
    "manufacturer",
    "ManufacturerFieldVisibility",
    [name, operator_id, contact, facility_ids]
);
fields_section!(
    ImporterSection,
    ImporterFields,
    "importer",
    "ImporterFieldVisibility",
    [name, eori, contact]
);
fields_section!(
    OperatorSection,
    OperatorFields,
    "responsible_operator",
    "OperatorFieldVisibility",
    [name, operator_id, contact]
);
fields_section!(
    RepairSection,
    RepairFields,
    "repair",
    "RepairFieldVisibility",
    [instructions, spare_parts_availability]
);
fields_section!(
    RecyclingSection,
    RecyclingFields,
    "recycling",
    "RecyclingFieldVisibility",
    [instructions, recyclability]
);

/// A list section: its items, each with the section's visibility unless it
/// has its own. The public sees the section's `items` (its public items)
/// when the section is public or any item is.
macro_rules! list_section {
    ($section:ty) => {
        impl PublicSection for $section {
            fn public_fields(&self) -> Vec<&'static str> {
                let section = self.visibility;
                if section == Visibility::Public
                    || self
                        .items
                        .iter()
                        .any(|i| i.visibility.0.unwrap_or(section) == Visibility::Public)
                {
                    vec!["items"]
                } else {
                    Vec::new()
                }
            }

            fn keep_public(&mut self) {
                let section = self.visibility;
                self.items
                    .retain(|i| i.visibility.0.unwrap_or(section) == Visibility::Public);
            }

            fn json(&self) -> Option<Value> {
                self.to_json()
            }
        }
    };
}

list_section!(DocumentsSection);
list_section!(SubstancesSection);
list_section!(MaterialsSection);

impl PassportData {
    /// Every section, by its name in the document.
    pub fn sections(&self) -> [(&'static str, &dyn PublicSection); 11] {
        [
            ("identification", &*self.identification),
            ("compliance_documents", &*self.compliance_documents),
            ("user_manuals", &*self.user_manuals),
            ("safety_information", &*self.safety_information),
            ("manufacturer", &*self.manufacturer),
            ("importer", &*self.importer),
            ("responsible_operator", &*self.responsible_operator),
            ("substances_of_concern", &*self.substances_of_concern),
            ("materials", &*self.materials),
            ("repair", &*self.repair),
            ("recycling", &*self.recycling),
        ]
    }

    /// The passport with every field (and item) the public does not see
    /// emptied.
    pub fn public_only(mut self) -> Self {
        let sections: [&mut dyn PublicSection; 11] = [
            &mut *self.identification,
            &mut *self.compliance_documents,
            &mut *self.user_manuals,
            &mut *self.safety_information,
            &mut *self.manufacturer,
            &mut *self.importer,
            &mut *self.responsible_operator,
            &mut *self.substances_of_concern,
            &mut *self.materials,
            &mut *self.repair,
            &mut *self.recycling,
        ];
        for section in sections {
            section.keep_public();
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::input::{Optional, OrDefault, Text};
    use crate::passports::{DocumentLink, Material, Substance};

    fn text<R>(s: &str) -> Optional<Text<R>> {
        Optional(Some(Text::new(s)))
    }

    /// A passport with every field and one item of each list filled.
    fn filled() -> PassportData {
        let mut d = PassportData::default();
        d.identification.unique_product_id = text("u");
        d.identification.commodity_code = text("640399");
        for docs in [
            &mut d.compliance_documents,
            &mut d.user_manuals,
            &mut d.safety_information,
        ] {
            docs.items.push(DocumentLink {
                title: Text::new("t"),
                url: Text::new("https://example.com"),
                visibility: Optional(None),
            });
        }
        let m = &mut d.manufacturer;
        m.name = text("n");
        m.operator_id = text("o");
        m.contact = text("c");
        m.facility_ids = OrDefault(vec![Text::new("f")]);
        let i = &mut d.importer;
        i.name = text("n");
        i.eori = text("DE1");
        i.contact = text("c");
        let r = &mut d.responsible_operator;
        r.name = text("n");
        r.operator_id = text("o");
        r.contact = text("c");
        d.substances_of_concern.items.push(Substance {
            name: Text::new("s"),
            cas_number: Optional(None),
            concentration_percent: Optional(None),
            location: Optional(None),
            visibility: Optional(None),
        });
        d.materials.items.push(Material {
            name: Text::new("m"),
            share_percent: Optional(None),
            recycled_percent: Optional(None),
            visibility: Optional(None),
        });
        d.repair.instructions = text("i");
        d.repair.spare_parts_availability = text("s");
        d.recycling.instructions = text("i");
        d.recycling.recyclability = text("r");
        d
    }

    #[test]
    fn the_fields_listed_are_exactly_each_sections_fields() {
        let d = filled();
        let Some(Value::Object(all)) = d.to_json() else {
            panic!("an object")
        };
        let mut names: Vec<&str> = d.sections().iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let mut keys: Vec<&str> = all.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(names, keys);
        let mut public = d;
        for (_, section) in public.sections() {
            assert!(section.public_fields().is_empty(), "restricted by default");
        }
        public.identification.visibility = Visibility::Public;
        public.compliance_documents.visibility = Visibility::Public;
        public.user_manuals.visibility = Visibility::Public;
        public.safety_information.visibility = Visibility::Public;
        public.manufacturer.visibility = Visibility::Public;
        public.importer.visibility = Visibility::Public;
        public.responsible_operator.visibility = Visibility::Public;
        public.substances_of_concern.visibility = Visibility::Public;
        public.materials.visibility = Visibility::Public;
        public.repair.visibility = Visibility::Public;
        public.recycling.visibility = Visibility::Public;
        for (name, section) in public.sections() {
            let Some(Value::Object(json)) = section.json() else {
                panic!("{name}")
            };
            let mut keys: Vec<&str> = json
                .keys()
                .map(String::as_str)
                .filter(|k| !["visibility", "field_visibility"].contains(k))
                .collect();
            let mut fields = section.public_fields();
            keys.sort_unstable();
            fields.sort_unstable();
            assert_eq!(keys, fields, "{name}");
        }
    }

    #[test]
    fn a_field_has_its_own_visibility_or_its_sections() {
        let mut d = filled();
        d.importer.field_visibility.set("eori", Visibility::Public);
        d.manufacturer.visibility = Visibility::Public;
        d.manufacturer
            .field_visibility
            .set("contact", Visibility::Restricted);
        d.manufacturer
            .field_visibility
            .set("facility_ids", Visibility::Restricted);
        d.materials.items[0].visibility = Optional(Some(Visibility::Public));
        d.user_manuals.visibility = Visibility::Public;
        d.user_manuals.items[0].visibility = Optional(Some(Visibility::Restricted));
        assert_eq!(d.importer.public_fields(), vec!["eori"]);
        assert_eq!(d.manufacturer.public_fields(), vec!["name", "operator_id"]);
        assert_eq!(d.materials.public_fields(), vec!["items"]);
        let p = d.public_only();
        assert!(p.importer.name.0.is_none() && p.importer.contact.0.is_none());
        assert!(p.importer.eori.0.is_some());
        assert!(p.manufacturer.name.0.is_some() && p.manufacturer.contact.0.is_none());
        assert!(p.manufacturer.facility_ids.0.is_empty());
        assert_eq!(p.materials.items.len(), 1);
        assert!(p.user_manuals.items.0.is_empty());
        assert!(p.substances_of_concern.items.0.is_empty());
        assert!(p.recycling.instructions.0.is_none());
    }

    #[test]
    fn unknown_field_names_are_kept_to_be_refused_and_old_documents_read() {
        let parsed = FieldVisibility::<ImporterFields>::parse_from_json(Some(
            serde_json::json!({"contact": "public", "nme": "public"}),
        ))
        .unwrap();
        assert_eq!(
            parsed.of("contact", Visibility::Restricted),
            Visibility::Public
        );
        let err = parsed.check().unwrap_err();
        assert_eq!(
            err.message,
            "importer.field_visibility names \"nme\", which is not a field of importer (its fields: name, eori, contact)."
        );
        assert!(
            FieldVisibility::<ImporterFields>::parse_from_json(Some(
                serde_json::json!({"name": "secret"})
            ))
            .is_err()
        );
        assert!(
            FieldVisibility::<ImporterFields>::parse_from_json(Some(
                serde_json::json!({"name": null})
            ))
            .is_err()
        );
        // A document saved before per-field visibility.
        let old = PassportData::from_stored(serde_json::json!({
            "importer": {"visibility": "public", "name": "I"},
            "materials": {"visibility": "restricted", "items": [{"name": "Cotton"}]}
        }))
        .unwrap();
        assert_eq!(
            old.importer.public_fields(),
            vec!["name", "eori", "contact"]
        );
        assert!(old.materials.public_fields().is_empty());
        assert_eq!(
            old.to_stored()["importer"]["field_visibility"],
            serde_json::json!({})
        );
    }
}
