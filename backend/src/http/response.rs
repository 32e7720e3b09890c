//! A plain success answer: [`JsonOk<T>`], a 200 with a JSON body.
//!
//! poem-openapi's own `Json<T>` answers the same, but the contract then
//! describes the 200 as `''`. `JsonOk<T>` describes it with its body type's
//! doc comment (the schema's description), so the contract says what the
//! answer is without a response enum per operation. An answer whose status
//! is not 200 (201, 202), or whose description is the operation's own, is a
//! `json_response!` (`http::error`).

use poem::{IntoResponse, Response};
use poem_openapi::payload::Json;
use poem_openapi::registry::{MetaResponses, MetaSchemaRef, Registry};
use poem_openapi::types::{ToJSON, Type};
use poem_openapi::{ApiResponse, Object};

/// What a public action (a review, a place shared from the scan page) did,
/// in words to show the person, and a stable code (`added`, `placed`).
#[derive(Object, Debug, Clone)]
pub struct Notice {
    pub message: String,
    pub code: String,
}

impl Notice {
    pub fn new(message: &str, code: &str) -> Self {
        Self {
            message: message.to_string(),
            code: code.to_string(),
        }
    }
}

/// 200 with `T` as JSON, described by `T`'s doc comment.
pub struct JsonOk<T>(pub T);

impl<T: ToJSON> ApiResponse for JsonOk<T> {
    fn meta() -> MetaResponses {
        let mut meta = Json::<T>::meta();
        let description = description_of::<T>();
        for response in &mut meta.responses {
            response.description = description;
        }
        meta
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: ToJSON> IntoResponse for JsonOk<T> {
    fn into_response(self) -> Response {
        Json(self.0).into_response()
    }
}

/// The description of `T`'s schema ("" when it has none: a list, or a type
/// without a doc comment).
fn description_of<T: Type>() -> &'static str {
    let mut registry = Registry::new();
    T::register(&mut registry);
    let described = |schema: &MetaSchemaRef| match schema {
        MetaSchemaRef::Reference(name) => registry.schemas.get(name).and_then(|s| s.description),
        MetaSchemaRef::Inline(schema) => schema.description,
    };
    let schema = T::schema_ref();
    if let Some(description) = described(&schema) {
        return description;
    }
    // A list: described by its items ("A list, each: ..."), once per type.
    let item = match &schema {
        MetaSchemaRef::Inline(schema) => schema.items.as_deref().and_then(described),
        MetaSchemaRef::Reference(_) => None,
    };
    item.map_or("", list_of)
}

/// "A list, each: {item}", made once per item description for the
/// `&'static str` the contract's metadata takes.
fn list_of(item: &'static str) -> &'static str {
    static LISTS: std::sync::Mutex<Vec<(&'static str, &'static str)>> =
        std::sync::Mutex::new(Vec::new());
    let mut lists = LISTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, list)) = lists.iter().find(|(i, _)| *i == item) {
        return list;
    }
    let list: &'static str = Box::leak(format!("A list, each: {item}").into_boxed_str());
    lists.push((item, list));
    list
}

#[cfg(test)]
mod tests {
    use poem_openapi::Object;

    use super::*;

    /// The answer's own words.
    #[derive(Object)]
    struct Documented {
        value: i32,
    }

    #[derive(Object)]
    struct Undocumented {
        value: i32,
    }

    #[test]
    fn the_200_is_described_by_its_body_type() {
        let meta = JsonOk::<Documented>::meta();
        assert_eq!(meta.responses.len(), 1);
        assert_eq!(meta.responses[0].status, Some(200));
        assert_eq!(meta.responses[0].description, "The answer's own words.");
        assert_eq!(
            meta.responses[0].content[0].content_type,
            "application/json; charset=utf-8"
        );
        assert_eq!(JsonOk::<Undocumented>::meta().responses[0].description, "");
        // A list is described by its items.
        assert_eq!(
            JsonOk::<Vec<Documented>>::meta().responses[0].description,
            "A list, each: The answer's own words."
        );
        assert_eq!(
            JsonOk::<Vec<Undocumented>>::meta().responses[0].description,
            ""
        );
    }
}
