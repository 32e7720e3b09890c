//! The public routes outside `/api` that an app calls without signing in:
//! the resolver's JSON answer, `POST /r/review` and `POST /r/locate`. They
//! are plain poem handlers (the resolver takes every Digital Link form under
//! one route, and the scan page posts forms), so poem-openapi cannot derive
//! their contract; [`PublicApi`] writes it from the handlers' own types
//! (`ScanAnswer`, `ReviewRequest`, `LocateRequest`, `Notice`, `ErrorBody`,
//! which the handlers serialize and parse), and registers the handlers
//! themselves, so that what is described is what is served.
//! `tests/api/public_contract.rs` checks real answers against it.
//!
//! The contract (`openapi.yaml`, and `/api/openapi.yaml` served) is the
//! `/api` service's merged with this one ([`super::api::spec_yaml`]).

use std::collections::{BTreeMap, HashMap};

use poem::endpoint::BoxEndpoint;
use poem::http::{Method, StatusCode, header};
use poem::{EndpointExt, IntoEndpoint, RouteMethod};
use poem_openapi::registry::{
    MetaApi, MetaHeader, MetaMediaType, MetaOperation, MetaOperationParam, MetaParamIn, MetaPath,
    MetaRequest, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry,
};
use poem_openapi::types::{ToJSON, Type};
use poem_openapi::{OpenApi, OpenApiService, Tags};

use crate::http::error::ErrorBody;
use crate::http::response::Notice;
use crate::http::tags::ApiTags;
use crate::reviews::public::ReviewRequest;
use crate::scans::locate::LocateRequest;
use crate::scans::resolver::ScanAnswer;

const JSON: &str = "application/json";
const HTML: &str = "text/html";
const FORM: &str = "application/x-www-form-urlencoded";

/// The public routes and their contract (see the module's comment).
pub struct PublicApi;

/// The public service: its spec is merged into the contract; its routes
/// are registered by [`routes`].
pub fn service() -> OpenApiService<PublicApi, ()> {
    OpenApiService::new(PublicApi, "brandops API", env!("CARGO_PKG_VERSION"))
}

/// The public routes (path, method, handler), as [`PublicApi`] registers
/// them.
pub fn routes() -> Vec<(String, Method, BoxEndpoint<'static>)> {
    let mut table = HashMap::new();
    PublicApi.add_routes(&mut table);
    let mut routes: Vec<_> = table
        .into_iter()
        .flat_map(|(path, methods)| {
            methods
                .into_iter()
                .map(move |(method, ep)| (path.clone(), method, ep))
        })
        .collect();
    routes.sort_by(|a, b| (&a.0, a.1.as_str()).cmp(&(&b.0, b.1.as_str())));
    routes
}

/// The public routes grouped by path, each answering a method it does not
/// take with 405 and the `Allow` header (RFC 9110), in the error envelope.
pub fn endpoints() -> Vec<(String, BoxEndpoint<'static>)> {
    let mut by_path: BTreeMap<String, (RouteMethod, Vec<String>)> = BTreeMap::new();
    for (path, method, endpoint) in routes() {
        let (methods, mut names) = by_path.remove(&path).unwrap_or_default();
        names.push(method.to_string());
        if method == Method::GET {
            names.push(Method::HEAD.to_string());
        }
        by_path.insert(path, (methods.method(method, endpoint), names));
    }
    by_path
        .into_iter()
        .map(|(path, (methods, names))| {
            let allow = names.join(", ");
            let endpoint = methods
                .after(move |result| {
                    let allow = allow.clone();
                    async move {
                        match result {
                            Err(err) if err.status() == StatusCode::METHOD_NOT_ALLOWED => {
                                let body = ErrorBody {
                                    error: format!("This address takes {allow} only."),
                                    code: "method_not_allowed".to_string(),
                                };
                                Ok(poem::Response::builder()
                                    .status(StatusCode::METHOD_NOT_ALLOWED)
                                    .header(header::ALLOW, allow)
                                    .content_type(JSON)
                                    .body(body.to_json_string()))
                            }
                            other => other,
                        }
                    }
                })
                .boxed();
            (path, endpoint)
        })
        .collect()
}

fn string(description: &'static str, pattern: Option<&str>) -> MetaSchemaRef {
    MetaSchemaRef::Inline(Box::new(MetaSchema {
        description: Some(description),
        pattern: pattern.map(str::to_string),
        min_length: Some(1),
        ..MetaSchema::new("string")
    }))
}

fn path_param(name: &str, description: &str, schema: MetaSchemaRef) -> MetaOperationParam {
    MetaOperationParam {
        name: name.to_string(),
        schema,
        in_type: MetaParamIn::Path,
        description: Some(description.to_string()),
        required: true,
        deprecated: false,
        explode: true,
        style: None,
    }
}

fn json_of<T: Type>() -> MetaMediaType {
    MetaMediaType {
        content_type: JSON,
        schema: T::schema_ref(),
    }
}

fn html() -> MetaMediaType {
    MetaMediaType {
        content_type: HTML,
        schema: <String as Type>::schema_ref(),
    }
}

/// A response; `page` adds the HTML a browser gets instead of JSON.
fn response(
    status: u16,
    description: &'static str,
    json: MetaMediaType,
    page: bool,
) -> MetaResponse {
    let mut content = vec![json];
    if page {
        content.push(html());
    }
    MetaResponse {
        description,
        status: Some(status),
        status_range: None,
        content,
        headers: if status == 429 {
            vec![MetaHeader {
                name: "Retry-After".to_string(),
                description: Some("Seconds to wait before trying again.".to_string()),
                required: true,
                deprecated: false,
                schema: <u32 as Type>::schema_ref(),
            }]
        } else {
            Vec::new()
        },
    }
}

fn error(status: u16, description: &'static str, page: bool) -> MetaResponse {
    response(status, description, json_of::<ErrorBody>(), page)
}

fn operation(
    method: Method,
    id: &'static str,
    summary: &'static str,
    description: &'static str,
    params: Vec<MetaOperationParam>,
    request: Option<MetaRequest>,
    responses: Vec<MetaResponse>,
) -> MetaOperation {
    MetaOperation {
        method,
        tags: vec![ApiTags::Public.name()],
        summary: Some(summary),
        description: Some(description),
        external_docs: None,
        params,
        request,
        responses: MetaResponses { responses },
        deprecated: false,
        security: Vec::new(),
        operation_id: Some(id),
        code_samples: Vec::new(),
    }
}

const RESOLVE_DESCRIPTION: &str = "The GS1 Digital Link of a code, as its QR code carries it. \
    Send `Accept: application/json` for this JSON answer; without it, a person's browser gets \
    the scan page (HTML) with the same facts. Each call is a scan: it is counted, and a code \
    scanned against the brand's rules turns `suspicious`. `?linkType=all` answers the \
    resolver's links (an RFC 9264 linkset, `application/linkset+json`) and `?linkType=gs1:dpp` \
    the product's public passport; neither records a scan. Each network may check a limited \
    number of links a minute (429 beyond it), except a genuine code's first scan.";

fn resolve_responses() -> Vec<MetaResponse> {
    vec![
        response(
            200,
            "The verdict on the code (`not_recognised` for a code no brand issued).",
            json_of::<ScanAnswer>(),
            true,
        ),
        error(
            400,
            "Not a Digital Link the resolver reads (`invalid_link`): a GTIN with a wrong check \
             digit, an empty or over-long serial, characters outside GS1's set.",
            true,
        ),
        error(
            429,
            "Too many links from this network in a minute (`too_many_requests`).",
            true,
        ),
        error(
            503,
            "The code cannot be checked right now (`unavailable`); try again later.",
            true,
        ),
    ]
}

fn gtin_param() -> MetaOperationParam {
    path_param(
        "gtin",
        "The GTIN (AI 01): 8, 12, 13 or 14 digits with a valid check digit.",
        string("GTIN", Some("^([0-9]{8}|[0-9]{12,14})$")),
    )
}

fn serial_param() -> MetaOperationParam {
    path_param(
        "serial",
        "The serial number (AI 21): 1 to 20 characters of GS1's set 82, percent-encoded.",
        string("Serial number", None),
    )
}

fn body<T: Type>(description: &'static str) -> MetaRequest {
    MetaRequest {
        description: Some(description),
        content: vec![json_of::<T>()],
        required: true,
    }
}

/// A body an app sends as JSON and the scan page as a form.
fn body_or_form<T: Type>(description: &'static str) -> MetaRequest {
    let mut request = body::<T>(description);
    request.content.push(MetaMediaType {
        content_type: FORM,
        schema: T::schema_ref(),
    });
    request
}

impl OpenApi for PublicApi {
    fn meta() -> Vec<MetaApi> {
        let resolve = MetaPath {
            path: "/01/{gtin}/21/{serial}".to_string(),
            operations: vec![operation(
                Method::GET,
                "resolveCode",
                "Check a code (a scan)",
                RESOLVE_DESCRIPTION,
                vec![gtin_param(), serial_param()],
                None,
                resolve_responses(),
            )],
        };
        let resolve_lot = MetaPath {
            path: "/01/{gtin}/10/{lot}/21/{serial}".to_string(),
            operations: vec![operation(
                Method::GET,
                "resolveLotCode",
                "Check a code of a lot (a scan)",
                RESOLVE_DESCRIPTION,
                vec![
                    gtin_param(),
                    path_param(
                        "lot",
                        "The lot or batch number (AI 10): 1 to 20 characters of GS1's set 82, \
                         percent-encoded.",
                        string("Lot number", None),
                    ),
                    serial_param(),
                ],
                None,
                resolve_responses(),
            )],
        };
        let review = MetaPath {
            path: "/r/review".to_string(),
            operations: vec![operation(
                Method::POST,
                "addReview",
                "Review the product of a scan",
                "One review per scan, with the `review_token` of the scan's answer as the proof \
                 that a person scanned a real code. An app sends JSON and gets JSON; the scan \
                 page posts the same fields as a form and gets a page (HTML) back. A request \
                 with an `Origin` header of another site is refused. Each network may send 10 \
                 reviews a minute.",
                Vec::new(),
                Some(body_or_form::<ReviewRequest>("The review.")),
                vec![
                    response(
                        201,
                        "The review was saved (`added`).",
                        json_of::<Notice>(),
                        true,
                    ),
                    error(
                        400,
                        "A rating outside 1 to 5, a text too long or with control characters \
                         (`invalid_input`), or a token that is not valid or has expired \
                         (`invalid_token`).",
                        true,
                    ),
                    error(403, "Sent from another site (`forbidden`).", true),
                    error(409, "This scan already has its review (`conflict`).", true),
                    error(413, "Over 8 KiB (`too_large`).", true),
                    error(
                        429,
                        "Too many reviews from this network (`too_many_requests`).",
                        true,
                    ),
                    error(
                        503,
                        "The review cannot be saved right now (`unavailable`).",
                        true,
                    ),
                ],
            )],
        };
        let locate = MetaPath {
            path: "/r/locate".to_string(),
            operations: vec![operation(
                Method::POST,
                "locateScan",
                "Share where a scan happened",
                "With the consumer's consent, their browser's position places the scan (to the \
                 nearest town, rounded to about a kilometre; nothing more precise is kept). Once \
                 per scan, within 24 hours of it. A request with an `Origin` header of another \
                 site is refused.",
                Vec::new(),
                Some(body::<LocateRequest>("The position.")),
                vec![
                    response(
                        200,
                        "The scan was placed (`placed`).",
                        json_of::<Notice>(),
                        false,
                    ),
                    error(
                        400,
                        "Not a position (`invalid_input`), or a token that is not valid or over \
                         24 hours old (`invalid_token`).",
                        false,
                    ),
                    error(403, "Sent from another site (`forbidden`).", false),
                    error(409, "This scan already has its place (`conflict`).", false),
                    error(413, "Over 2 KiB (`too_large`).", false),
                    error(
                        429,
                        "Too many places from this network (`too_many_requests`).",
                        false,
                    ),
                    error(
                        503,
                        "The place cannot be saved right now (`unavailable`).",
                        false,
                    ),
                ],
            )],
        };
        vec![MetaApi {
            paths: vec![resolve, resolve_lot, review, locate],
        }]
    }

    fn register(registry: &mut Registry) {
        ApiTags::Public.register(registry);
        ScanAnswer::register(registry);
        ReviewRequest::register(registry);
        LocateRequest::register(registry);
        Notice::register(registry);
        ErrorBody::register(registry);
    }

    fn add_routes(self, table: &mut HashMap<String, HashMap<Method, BoxEndpoint<'static>>>) {
        let mut add = |path: &str, method: Method, ep: BoxEndpoint<'static>| {
            table
                .entry(path.to_string())
                .or_default()
                .insert(method, ep);
        };
        // Every Digital Link form (with or without a lot, and the links'
        // query) reaches the resolver, which parses the path itself.
        add(
            "/01/*rest",
            Method::GET,
            crate::scans::resolver::resolve
                .into_endpoint()
                .map_to_response()
                .boxed(),
        );
        add(
            "/r/review",
            Method::POST,
            crate::reviews::public::add_review
                .into_endpoint()
                .map_to_response()
                .boxed(),
        );
        add(
            "/r/locate",
            Method::POST,
            crate::scans::locate::locate
                .into_endpoint()
                .map_to_response()
                .boxed(),
        );
    }
}
